/* winnow — the text printer: lines for people.  It writes only the
 * values the walk labels, sanitised, and none of the structure. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "printer.h"
#include "winnow/text.h"

/* How the next value is shown. */
enum text_show { SHOW_NOT, SHOW_INLINE, SHOW_BLOCK };

struct text_printer {
	wn_printer p;
	enum text_show show;
	const char *indent;	/* of SHOW_BLOCK lines */
};

/* The way the next value is shown; it is for that value only. */
static enum text_show take_show(wn_printer *p)
{
	struct text_printer *tp = (struct text_printer *) p;
	enum text_show show = tp->show;

	tp->show = SHOW_NOT;
	return show;
}

static void text_structure(wn_printer *p)
{
	(void) p;
}

static void text_map_key(wn_printer *p, const char *key)
{
	(void) p;
	(void) key;
}

/* Mail text on one line: newlines and tabs become spaces. */
static void put_inline(FILE *out, const char *s)
{
	char *clean = wn_text_sanitize(s, 0);

	fputs(clean ? clean : "", out);
	free(clean);
}

/* Mail text as lines, each after indent. */
static void put_block(FILE *out, const char *s, const char *indent)
{
	char *clean = wn_text_sanitize(s, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB);
	const char *q = clean ? clean : "";

	while (*q) {
		size_t n = strcspn(q, "\n");
		fprintf(out, "%s%.*s\n", indent, (int) n, q);
		q += n + (q[n] == '\n');
	}
	free(clean);
}

static void text_string(wn_printer *p, const char *s)
{
	switch (take_show(p)) {
	case SHOW_NOT:
		break;
	case SHOW_INLINE:
		put_inline(p->out, s);
		break;
	case SHOW_BLOCK:
		put_block(p->out, s, ((struct text_printer *) p)->indent);
		break;
	}
}

/* Escaped so that a hostile id is inert and can be typed back. */
static void text_msgid(wn_printer *p, const char *id)
{
	char *e;

	if (take_show(p) == SHOW_NOT)
		return;
	e = wn_msgid_escape(id);
	fputs(e ? e : "", p->out);
	free(e);
}

static void text_integer(wn_printer *p, long long v)
{
	if (take_show(p) != SHOW_NOT)
		fprintf(p->out, "%lld", v);
}

static void text_real(wn_printer *p, double v)
{
	char buf[32];

	if (take_show(p) == SHOW_NOT)
		return;
	wn_format_real(v, buf);
	fputs(buf, p->out);
}

static void text_boolean(wn_printer *p, bool v)
{
	if (take_show(p) != SHOW_NOT)
		fputs(v ? "true" : "false", p->out);
}

static void text_null(wn_printer *p)
{
	take_show(p);
}

static void text_label(wn_printer *p, const char *s)
{
	fputs(s, p->out);
	((struct text_printer *) p)->show = SHOW_INLINE;
}

static void text_block(wn_printer *p, const char *indent)
{
	struct text_printer *tp = (struct text_printer *) p;

	tp->show = SHOW_BLOCK;
	tp->indent = indent;
}

static void text_text(wn_printer *p, const char *fmt, va_list ap)
{
	vfprintf(p->out, fmt, ap);
}

static void text_separator(wn_printer *p)
{
	fputc('\n', p->out);
}

static void text_done(wn_printer *p)
{
	fflush(p->out);
	free(p);
}

wn_printer *wn_printer_text_new(FILE *out)
{
	struct text_printer *tp = calloc(1, sizeof(*tp));

	if (!tp)
		return NULL;
	tp->p = (wn_printer) {
		.begin_map = text_structure, .begin_list = text_structure,
		.end = text_structure, .map_key = text_map_key,
		.string = text_string, .msgid = text_msgid, .integer = text_integer,
		.real = text_real,
		.boolean = text_boolean, .null = text_null,
		.label = text_label, .block = text_block,
		.text = text_text, .separator = text_separator,
		.done = text_done, .out = out, .is_text = true,
	};
	return &tp->p;
}
