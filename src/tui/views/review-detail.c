/* winnow TUI — the review view's lower pane: the selected finding's
 * place, sites, quoted code and comment, laid out as lines to scroll. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/text.h"
#include "review-private.h"

void review_detail_free(struct review *rv)
{
	for (size_t i = 0; i < rv->ndetail; i++)
		free(rv->detail[i].text);
	free(rv->detail);
	rv->detail = NULL;
	rv->ndetail = 0;
}

/* Append text to the pane, wrapped to width (or clipped when !wrap).
 * Quoted code gets diff colours and a "> " in front, as in a mail. */
static void add_lines_x(struct review *rv, enum role role, unsigned extra, const char *text,
			bool wrap, int width)
{
	char **lines = NULL;
	size_t n = 0;
	struct dline *grown;

	if (!text_wrap(text, width, wrap, &lines, &n))
		goto out;
	/* Trailing blank lines of a comment only push the next one down. */
	while (n && !lines[n - 1][strspn(lines[n - 1], " ")])
		free(lines[--n]);
	grown = realloc(rv->detail, (rv->ndetail + n) * sizeof(*grown));
	if (!grown)
		goto out;
	rv->detail = grown;
	for (size_t i = 0; i < n; i++) {
		struct dline *d = &rv->detail[rv->ndetail];

		d->role = role;
		d->extra = extra;
		d->code = role == ROLE_QUOTE;
		if (role == ROLE_QUOTE) {
			/* Drawn after a "> ", scrolled by < and >. */
			if (!strncmp(lines[i], "@@", 2))
				d->role = ROLE_DIFF_HUNK;
			else if (lines[i][0] == '+')
				d->role = ROLE_DIFF_ADD;
			else if (lines[i][0] == '-')
				d->role = ROLE_DIFF_DEL;
			if (text_width(lines[i]) + 2 > rv->code_w)
				rv->code_w = text_width(lines[i]) + 2;
		} else if (role == ROLE_COMMENT && lines[i][0] == '>') {
			d->role = ROLE_QUOTE;
		}
		d->text = lines[i];
		lines[i] = NULL;
		rv->ndetail++;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static void add_lines(struct review *rv, enum role role, const char *text, bool wrap, int width)
{
	add_lines_x(rv, role, 0, text, wrap, width);
}

static void add_blank(struct review *rv)
{
	struct dline *grown;
	char *empty;

	if (!rv->ndetail || !rv->detail[rv->ndetail - 1].text[0])
		return;
	grown = realloc(rv->detail, (rv->ndetail + 1) * sizeof(*grown));
	if (!grown)
		return;
	rv->detail = grown;
	if (!(empty = strdup("")))
		return;
	rv->detail[rv->ndetail].role = ROLE_DEFAULT;
	rv->detail[rv->ndetail].extra = 0;
	rv->detail[rv->ndetail].code = false;
	rv->detail[rv->ndetail++].text = empty;
}

/* A finding the bot discusses at several places: each place, its code
 * and the bot's words there; the one d went to in bold. */
static void sites_build(struct review *rv, const wn_finding *f, int width)
{
	size_t n = wn_finding_nsites(f);
	wn_buf b = WN_BUF_INIT;

	for (size_t k = 0; k < n; k++) {
		wn_site s = wn_finding_site(f, k);

		add_blank(rv);
		if (rv->nsite_lines < RV_SITE_LINES)
			rv->site_line[rv->nsite_lines++] = rv->ndetail;
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Site %zu of %zu: ", k + 1, n);
		if (s.about_commit_msg)
			wn_buf_puts(&b, "commit message");
		else if (s.file && s.line)
			wn_buf_printf(&b, "%s:%d%s", s.file, s.line, s.line_approx ? "~" : "");
		else
			wn_buf_puts(&b, s.file ? s.file : "location unknown");
		if (s.function)
			wn_buf_printf(&b, "  in %s()", s.function);
		add_lines_x(rv, ROLE_LOCATION, k == rv->site ? TA_BOLD : 0, shown(&b), true, width);
		if (s.code && *s.code)
			add_lines(rv, ROLE_QUOTE, s.code, false, width);
		if (s.comment && *s.comment)
			add_lines(rv, ROLE_COMMENT, s.comment, true, width);
	}
	wn_buf_free(&b);
}

void review_detail_build(struct review *rv, size_t cursor, int width)
{
	const wn_item *it = rv->it;
	const wn_finding *f;
	wn_buf b = WN_BUF_INIT;

	review_detail_free(rv);
	rv->code_w = 0;
	if (it->load_error) {
		add_lines(rv, ROLE_ERROR, it->load_error, true, width);
		return;
	}
	if (it->warning)
		add_lines(rv, ROLE_WARNING, it->warning, true, width);
	if (it->copy_of)
		add_lines(rv, ROLE_HEADER,
			  "A copy of an earlier review in this thread: a verdict here is one there.",
			  true, width);
	if (!nfindings(rv)) {
		add_lines(rv, ROLE_COMMENT,
			  it->review && it->review->explain ? it->review->explain
							    : "The bot reported no findings.",
			  true, width);
		return;
	}
	f = &it->review->findings[cursor < nfindings(rv) ? cursor : 0];
	if (f->about_commit_msg)
		wn_buf_puts(&b, "commit message");
	else if (f->file && f->line)
		wn_buf_printf(&b, "%s:%d%s", f->file, f->line, f->line_approx ? "~" : "");
	else if (f->file)
		wn_buf_puts(&b, f->file);
	else
		wn_buf_puts(&b, "location unknown");
	if (f->function)
		wn_buf_printf(&b, "  in %s()", f->function);
	add_lines(rv, ROLE_LOCATION, shown(&b), true, width);
	if (f->preexisting)
		add_lines(rv, ROLE_PRECLAIM, "The bot says this issue predates the patch (pre-existing).",
			  true, width);
	if (f->pairing_unsure)
		add_lines(rv, ROLE_WARNING,
			  "Pairing unsure: this comment may belong to another of the mail's summaries.",
			  true, width);
	if (it->notes && it->notes[cursor]) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Note: %s", it->notes[cursor]);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	if (rv->state) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "State: %s", rv->state);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	if (it->forwarded && it->forwarded[cursor]) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Forwarded: %s", it->forwarded[cursor]);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	if (it->reasons && wn_reason_name(it->reasons[cursor])) {
		wn_buf_reset(&b);
		wn_buf_printf(&b, "Why: %s (%s)", wn_reason_name(it->reasons[cursor]),
			      wn_reason_label(it->reasons[cursor]));
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	for (size_t k = 0; k < it->nmisses; k++) {
		/* "<rfc3339 time> <note>": the day is enough here. */
		const char *m = it->misses[k], *sp = strchr(m, ' ');

		wn_buf_reset(&b);
		if (sp && sp - m > 10)
			wn_buf_printf(&b, "Missed by the bot (%.10s): %s", m, sp + 1);
		else
			wn_buf_printf(&b, "Missed by the bot: %s", m);
		add_lines(rv, ROLE_HEADER, shown(&b), true, width);
	}
	for (const struct memo_line *m = review_memory_lines(rv->mem, cursor); m && m->text; m++)
		add_lines(rv, m->role, m->text, true, width);
	add_blank(rv);
	add_lines_x(rv, ROLE_SUBJECT, TA_BOLD, f->summary, true, width);
	rv->nsite_lines = 0;
	if (wn_finding_nsites(f) > 1) {
		sites_build(rv, f, width);
	} else {
		if (f->quote && *f->quote) {
			add_blank(rv);
			add_lines(rv, ROLE_QUOTE, f->quote, false, width);
		}
		if (f->comment && *f->comment) {
			add_blank(rv);
			add_lines(rv, ROLE_COMMENT, f->comment, true, width);
		}
	}
	wn_buf_free(&b);
}

size_t review_max_scroll(const struct review *rv)
{
	size_t h = rv->detail_h > 0 ? (size_t) rv->detail_h : 1;

	return rv->ndetail > h ? rv->ndetail - h : 0;
}
