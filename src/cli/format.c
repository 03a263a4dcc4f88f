/* winnow — text and JSON printers for reviews.
 *
 * Every string that came from a mail passes wn_text_sanitize() here, in
 * JSON too: a script that prints a summary with `jq -r` must not put an
 * escape sequence from a hostile mail on its terminal. */
#include "autoconfig.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "winnow/text.h"

/* ---- JSON ----------------------------------------------------------- */

struct json_format {
	wn_format f;
	json_t *list;
};

/* Sanitised mail text as a JSON string, or null for NULL. */
static json_t *jtext(const char *s)
{
	char *clean;
	json_t *j;

	if (!s)
		return json_null();
	clean = wn_text_sanitize(s, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB);
	j = clean ? json_string(clean) : NULL;
	free(clean);
	return j ? j : json_string("");
}

static json_t *attribution_json(const wn_attribution *a)
{
	json_t *tools = json_array();

	for (size_t i = 0; i < a->ntools; i++)
		json_array_append_new(tools, jtext(a->tools[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o}",
			 "status", wn_attr_name(a->status),
			 "agent", jtext(a->agent), "model", jtext(a->model),
			 "tools", tools, "raw", jtext(a->raw));
}

static json_t *patch_json(const wn_patch *p)
{
	const wn_patch_trailers *t = p->trailers;
	json_t *trailers = json_array();

	for (size_t i = 0; i < t->ntrailers; i++)
		json_array_append_new(trailers, json_pack("{s:o, s:o}",
			"key", jtext(t->trailers[i].key), "value", jtext(t->trailers[i].value)));
	return json_pack("{s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:b}",
			 "id", jtext(p->id), "subject", jtext(p->subject),
			 "author", jtext(p->author), "date", (json_int_t) p->date,
			 "attribution", attribution_json(&t->attr),
			 "trailers", trailers, "submitter", jtext(t->submitter),
			 "codev_unsigned", t->codev_unsigned);
}

static json_t *finding_json(const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	const char *sev = wn_severity_name(f->severity);

	return json_pack("{s:i, s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:b, s:b, s:s, s:o, s:o}",
			 "index", f->index, "fingerprint", f->fingerprint,
			 "severity", sev ? json_string(sev) : json_null(),
			 "preexisting", f->preexisting, "summary", jtext(f->summary),
			 "file", jtext(f->file), "function", jtext(f->function),
			 "line", f->line > 0 ? json_integer(f->line) : json_null(),
			 "line_approximate", f->line_approx,
			 "about_commit_message", f->about_commit_msg,
			 "verdict", wn_verdict_name(it->verdicts[i]),
			 "note", jtext(it->notes[i]), "forwarded", jtext(it->forwarded[i]));
}

static json_t *item_json(const wn_item *it)
{
	json_t *findings = json_array(), *o;
	size_t n = it->review ? it->review->nfindings : 0;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(findings, finding_json(it, i));
	o = json_pack("{s:o, s:s, s:I, s:o, s:o, s:o, s:s, s:o, s:o, s:o}",
		      "id", jtext(it->id), "bot", wn_bot_name(it->bot),
		      "date", (json_int_t) it->date, "subject", jtext(it->subject),
		      "from", jtext(it->from),
		      "patch", it->patch ? patch_json(it->patch) : json_null(),
		      "link", wn_link_name(it->link), "findings", findings,
		      "explain", jtext(it->load_error ? it->load_error :
				       (it->review ? it->review->explain : NULL)),
		      "warning", jtext(it->warning));
	return o;
}

static void json_dump_out(wn_format *f, json_t *j)
{
	json_dumpf(j, f->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f->out);
	json_decref(j);
}

static void json_list_begin(wn_format *f)
{
	((struct json_format *) f)->list = json_array();
}

static void json_list_item(wn_format *f, const wn_item *it)
{
	json_array_append_new(((struct json_format *) f)->list, item_json(it));
}

static void json_list_end(wn_format *f)
{
	struct json_format *jf = (struct json_format *) f;

	json_dump_out(f, jf->list);
	jf->list = NULL;
}

static void json_review(wn_format *f, const wn_item *it)
{
	json_dump_out(f, item_json(it));
}

static void json_done(wn_format *f)
{
	struct json_format *jf = (struct json_format *) f;

	json_decref(jf->list);
	fflush(f->out);
	free(jf);
}

/* ---- text ----------------------------------------------------------- */

/* Print sanitised mail text. */
static void put(FILE *out, const char *s, unsigned flags)
{
	char *clean = wn_text_sanitize(s ? s : "", flags);

	fputs(clean ? clean : "", out);
	free(clean);
}

static void put_date(FILE *out, time_t t)
{
	char buf[32];
	struct tm tm;

	if (t > 0 && localtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm))
		fputs(buf, out);
	else
		fputs("(no date)      ", out);
}

static void put_counts(FILE *out, const wn_item *it)
{
	size_t n = it->review ? it->review->nfindings : 0;

	fprintf(out, "%zu finding%s", n, n == 1 ? "" : "s");
	for (unsigned v = 0; n && v < WN_VERDICT_COUNT; v++)
		if (it->counts[v])
			fprintf(out, ", %u %s", it->counts[v], wn_verdict_name((wn_verdict) v));
}

static void put_attribution(FILE *out, const wn_attribution *a)
{
	fprintf(out, "%s", wn_attr_name(a->status));
	if (a->status == WN_ATTR_MODEL) {
		fputs(": ", out);
		put(out, a->agent, 0);
		fputs(" / ", out);
		put(out, a->model, 0);
	} else if (a->status != WN_ATTR_NONE) {
		fputs(": \"", out);
		put(out, a->raw, 0);
		fputs("\"", out);
	}
	if (a->ntools) {
		fputs(" (tools:", out);
		for (size_t i = 0; i < a->ntools; i++) {
			fputc(' ', out);
			put(out, a->tools[i], 0);
		}
		fputc(')', out);
	}
}

static void text_list_begin(wn_format *f) { (void) f; }
static void text_list_end(wn_format *f) { (void) f; }

static void text_list_item(wn_format *f, const wn_item *it)
{
	const char *subject = it->patch ? it->patch->subject : it->subject;

	put_date(f->out, it->date);
	fprintf(f->out, "  %-9s [%s] ", wn_bot_name(it->bot),
		it->patch ? wn_attr_badge(it->patch->trailers->attr.status) : " ");
	put(f->out, subject, 0);
	fputs(" (", f->out);
	put(f->out, it->patch ? it->patch->author : it->from, 0);
	fputs(")  ", f->out);
	put_counts(f->out, it);
	fputs("\n    id:", f->out);
	put(f->out, it->id, 0);
	fputc('\n', f->out);
}

static void put_block(FILE *out, const char *text, const char *indent)
{
	char *clean = wn_text_sanitize(text, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB);
	const char *p = clean ? clean : "";

	while (*p) {
		size_t n = strcspn(p, "\n");
		fprintf(out, "%s%.*s\n", indent, (int) n, p);
		p += n + (p[n] == '\n');
	}
	free(clean);
}

static void text_review(wn_format *f, const wn_item *it)
{
	FILE *out = f->out;
	size_t n = it->review ? it->review->nfindings : 0;

	fputs("Review:   id:", out);
	put(out, it->id, 0);
	fprintf(out, "\nBot:      %s\nFrom:     ", wn_bot_label(it->bot));
	put(out, it->from, 0);
	fputs("\nDate:     ", out);
	put_date(out, it->date);
	fputs("\nSubject:  ", out);
	put(out, it->subject, 0);
	fputc('\n', out);
	if (it->warning) {
		fputs("Warning:  ", out);
		put(out, it->warning, 0);
		fputc('\n', out);
	}
	if (it->load_error) {
		fputs("Error:    ", out);
		put(out, it->load_error, 0);
		fputc('\n', out);
	}
	if (it->patch) {
		const wn_patch_trailers *t = it->patch->trailers;
		fputs("Patch:    id:", out);
		put(out, it->patch->id, 0);
		fprintf(out, " (linked by %s)\n          ", wn_link_name(it->link));
		put(out, it->patch->subject, 0);
		fputs("\nAuthor:   ", out);
		put(out, it->patch->author, 0);
		fputs("\nAI:       ", out);
		put_attribution(out, &t->attr);
		fputc('\n', out);
		for (size_t i = 0; i < t->ntrailers; i++) {
			fputs("          ", out);
			put(out, t->trailers[i].key, 0);
			fputs(": ", out);
			put(out, t->trailers[i].value, 0);
			fputc('\n', out);
		}
		if (t->codev_unsigned)
			fputs("Warning:  a Co-developed-by is not followed by that person's Signed-off-by\n", out);
	} else {
		fputs("Patch:    not in index\n", out);
	}
	fputs("Findings: ", out);
	put_counts(out, it);
	fputc('\n', out);
	if (!n && it->review && it->review->explain) {
		fputs("          ", out);
		put(out, it->review->explain, 0);
		fputc('\n', out);
	}
	for (size_t i = 0; i < n; i++) {
		const wn_finding *fd = &it->review->findings[i];
		const char *sev = wn_severity_name(fd->severity);

		fprintf(out, "\n[%d] %-8s %-12s %s\n    ", fd->index, sev ? sev : "-",
			fd->preexisting ? "pre-existing" : "new", wn_verdict_name(it->verdicts[i]));
		put(out, fd->summary, 0);
		fputc('\n', out);
		if (fd->about_commit_msg) {
			fputs("    at: commit message\n", out);
		} else if (fd->file) {
			fputs("    at: ", out);
			put(out, fd->file, 0);
			if (fd->line > 0)
				fprintf(out, ":%s%d", fd->line_approx ? "~" : "", fd->line);
			if (fd->function) {
				fputs(" in ", out);
				put(out, fd->function, 0);
				fputs("()", out);
			}
			fputc('\n', out);
		}
		fprintf(out, "    fingerprint: %s\n", fd->fingerprint);
		if (it->notes[i]) {
			fputs("    note: ", out);
			put(out, it->notes[i], 0);
			fputc('\n', out);
		}
		if (fd->quote)
			put_block(out, fd->quote, "    > ");
		if (fd->comment)
			put_block(out, fd->comment, "    ");
	}
}

static void text_done(wn_format *f)
{
	fflush(f->out);
	free(f);
}

wn_format *wn_format_new(const char *name, FILE *out)
{
	if (!name || strcmp(name, "text") == 0) {
		wn_format *f = calloc(1, sizeof(*f));
		if (!f)
			return NULL;
		*f = (wn_format) {
			.list_begin = text_list_begin, .list_item = text_list_item,
			.list_end = text_list_end, .review = text_review,
			.done = text_done, .out = out,
		};
		return f;
	}
	if (strcmp(name, "json") == 0) {
		struct json_format *jf = calloc(1, sizeof(*jf));
		if (!jf)
			return NULL;
		jf->f = (wn_format) {
			.list_begin = json_list_begin, .list_item = json_list_item,
			.list_end = json_list_end, .review = json_review,
			.done = json_done, .out = out,
		};
		return &jf->f;
	}
	return NULL;
}
