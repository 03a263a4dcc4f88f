/* winnow — the JSON printer: written as the walk goes, laid out as
 * jansson's JSON_INDENT(2) lays it out, strings escaped by jansson. */
#include "autoconfig.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "printer.h"
#include "winnow/buf.h"
#include "winnow/text.h"

/* One thread writes each printer's stream: glibc's _unlocked stdio
 * (GNU, as every target of winnow is) skips a lock per call, and a
 * listing makes tens of calls per row. */

/* Our walks nest four deep (review, patch, trailers, trailer). */
#define JSON_MAX_DEPTH 16

struct json_level {
	bool is_map;
	size_t count;		/* values written in it so far */
};

struct json_printer {
	wn_printer p;
	struct json_level stack[JSON_MAX_DEPTH];
	size_t depth;		/* containers open */
	const char *key;	/* of the next value in a map; NULL: none */
	size_t skip;		/* > 0: inside a container that is not JSON's */
	wn_buf scratch;		/* a string being sanitised */
};

static void put_indent(FILE *out, size_t depth)
{
	static const char spaces[] = "                                ";

	_Static_assert(sizeof(spaces) - 1 >= 2 * JSON_MAX_DEPTH, "an indent for every depth");
	fwrite_unlocked(spaces, 1, 2 * depth, out);
}

/* Write what comes before a value: the comma, line break and indent in
 * a container, the key in a map.  False when the value is not JSON's:
 * a value in a map without a key is there for the text only. */
static bool jp_start(struct json_printer *jp)
{
	const char *key = jp->key;
	struct json_level *top;

	jp->key = NULL;
	if (jp->skip)
		return false;
	if (jp->depth == 0)
		return true;
	top = &jp->stack[jp->depth - 1];
	if (top->is_map && !key)
		return false;
	fputs_unlocked(top->count++ ? ",\n" : "\n", jp->p.out);
	put_indent(jp->p.out, jp->depth);
	if (top->is_map) {
		/* Our own keys: nothing to escape. */
		fputc_unlocked('"', jp->p.out);
		fputs_unlocked(key, jp->p.out);
		fputs_unlocked("\": ", jp->p.out);
	}
	return true;
}

/* A value at the top ends the output's line. */
static void jp_finish(struct json_printer *jp)
{
	if (jp->depth == 0)
		fputc_unlocked('\n', jp->p.out);
}

static void jp_begin(wn_printer *p, bool is_map)
{
	struct json_printer *jp = (struct json_printer *) p;

	/* Deeper than any walk goes: leave it out rather than overflow. */
	if (jp->depth == JSON_MAX_DEPTH)
		jp->key = NULL;
	if (jp->depth == JSON_MAX_DEPTH || !jp_start(jp)) {
		jp->skip++;
		return;
	}
	fputc(is_map ? '{' : '[', p->out);
	jp->stack[jp->depth++] = (struct json_level) { .is_map = is_map };
}

static void jp_begin_map(wn_printer *p)
{
	jp_begin(p, true);
}

static void jp_begin_list(wn_printer *p)
{
	jp_begin(p, false);
}

static void jp_end(wn_printer *p)
{
	struct json_printer *jp = (struct json_printer *) p;
	struct json_level top;

	if (jp->skip) {
		jp->skip--;
		return;
	}
	if (jp->depth == 0)
		return;
	top = jp->stack[--jp->depth];
	if (top.count) {
		fputc('\n', p->out);
		put_indent(p->out, jp->depth);
	}
	fputc(top.is_map ? '}' : ']', p->out);
	jp_finish(jp);
}

static void jp_map_key(wn_printer *p, const char *key)
{
	((struct json_printer *) p)->key = key;
}

/* s[0..n) as a JSON string, escaped byte for byte as jansson's
 * json_dumpf() escapes it (without JSON_ENSURE_ASCII): '"', '\\' and
 * the C0 controls, nothing else.  Done here because going through a
 * json_t (copied, checked, written through a callback) was a fifth of
 * a listing's time. */
static void put_escaped(FILE *out, const char *s, size_t n)
{
	size_t run = 0;

	fputc_unlocked('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];
		char u[8];
		const char *esc = u;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		fwrite_unlocked(s + run, 1, i - run, out);
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		default: snprintf(u, sizeof(u), "\\u%04X", c); break;
		}
		fputs_unlocked(esc, out);
		run = i + 1;
	}
	fwrite_unlocked(s + run, 1, n - run, out);
	fputc_unlocked('"', out);
}

/* Sanitised like every string (a script printing it with `jq -r` must
 * not put a hostile mail's escape sequence on its terminal), then
 * escaped as jansson escapes it.  Text jansson would refuse (not
 * UTF-8; the sanitiser never leaves such) and no memory give "". */
/* Printable ASCII, line breaks and tabs only: what the sanitiser
 * leaves as it is (wn_text_sanitize_buf), as most strings are. */
static bool sanitised_already(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];

		if ((c < 0x20 || c > 0x7e) && c != '\n' && c != '\t')
			return false;
	}
	return true;
}

static void jp_string(wn_printer *p, const char *s)
{
	struct json_printer *jp = (struct json_printer *) p;
	wn_buf *b = &jp->scratch;
	size_t n = s ? strlen(s) : 0;

	if (!jp_start(jp))
		return;
	wn_buf_reset(b);
	if (!s)
		fputs("null", p->out);
	else if (sanitised_already(s, n))
		put_escaped(p->out, s, n);	/* no copy to sanitise */
	else if (wn_text_sanitize_buf(b, s, n, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB) != WN_OK ||
		 !wn_text_utf8_valid(wn_buf_str(b), b->len))
		fputs("\"\"", p->out);
	else
		put_escaped(p->out, wn_buf_str(b), b->len);
	/* Out of memory sticks to a buffer: this string paid for it, the
	 * next starts afresh. */
	if (wn_buf_failed(b))
		wn_buf_free(b);
	jp_finish(jp);
}

/* Exact, not sanitised: JSON's escapes (ASCII only) make it safe. */
static void jp_msgid(wn_printer *p, const char *id)
{
	struct json_printer *jp = (struct json_printer *) p;
	json_t *j = id ? json_string(id) : NULL;

	/* null, or not UTF-8: then the sanitised form is all JSON holds. */
	if (!j) {
		jp_string(p, id);
		return;
	}
	if (jp_start(jp)) {
		json_dumpf(j, p->out, JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
		jp_finish(jp);
	}
	json_decref(j);
}

static void jp_integer(wn_printer *p, long long v)
{
	struct json_printer *jp = (struct json_printer *) p;

	if (!jp_start(jp))
		return;
	fprintf(p->out, "%lld", v);
	jp_finish(jp);
}

static void jp_real(wn_printer *p, double v)
{
	struct json_printer *jp = (struct json_printer *) p;
	char buf[32];

	if (!jp_start(jp))
		return;
	wn_format_real(v, buf);
	fputs(buf, p->out);
	jp_finish(jp);
}

static void jp_literal(wn_printer *p, const char *lit)
{
	struct json_printer *jp = (struct json_printer *) p;

	if (!jp_start(jp))
		return;
	fputs(lit, p->out);
	jp_finish(jp);
}

static void jp_boolean(wn_printer *p, bool v)
{
	jp_literal(p, v ? "true" : "false");
}

static void jp_null(wn_printer *p)
{
	jp_literal(p, "null");
}

/* Text layout is not JSON's. */
static void jp_label(wn_printer *p, const char *s)
{
	(void) p;
	(void) s;
}

static void jp_text(wn_printer *p, const char *fmt, va_list ap)
{
	(void) p;
	(void) fmt;
	(void) ap;
}

static void jp_separator(wn_printer *p)
{
	(void) p;
}

static void jp_done(wn_printer *p)
{
	fflush(p->out);
	wn_buf_free(&((struct json_printer *) p)->scratch);
	free(p);
}

static bool is_json(const wn_printer *p)
{
	return p && p->done == jp_done;
}

wn_printer *wn_printer_json_new_nested(FILE *out, size_t depth)
{
	struct json_printer *jp;

	if (depth == 0 || depth > JSON_MAX_DEPTH)
		return NULL;
	jp = (struct json_printer *) wn_printer_json_new(out);
	if (!jp)
		return NULL;
	/* As many lists open (only the innermost is written to). */
	jp->depth = depth;
	return &jp->p;
}

bool wn_printer_json_splice(wn_printer *p, wn_printer *nested)
{
	struct json_printer *jp = (struct json_printer *) p, *jn = (struct json_printer *) nested;
	char chunk[16384];
	size_t n;

	if (!is_json(p) || !is_json(nested) || jp->skip || jn->skip || jp->depth != jn->depth ||
	    jp->stack[jp->depth - 1].is_map || fflush(nested->out) != 0)
		return false;
	rewind(nested->out);
	while ((n = fread(chunk, 1, sizeof(chunk), nested->out)) > 0)
		fwrite(chunk, 1, n, p->out);
	if (ferror(nested->out))
		return false;
	jp->stack[jp->depth - 1].count += jn->stack[jn->depth - 1].count;
	return true;
}

wn_printer *wn_printer_json_new(FILE *out)
{
	struct json_printer *jp = calloc(1, sizeof(*jp));

	if (!jp)
		return NULL;
	jp->p = (wn_printer) {
		.begin_map = jp_begin_map, .begin_list = jp_begin_list,
		.end = jp_end, .map_key = jp_map_key,
		.string = jp_string, .msgid = jp_msgid, .integer = jp_integer, .real = jp_real,
		.boolean = jp_boolean, .null = jp_null,
		.label = jp_label, .block = jp_label,
		.text = jp_text, .separator = jp_separator,
		.done = jp_done, .out = out,
	};
	return &jp->p;
}
