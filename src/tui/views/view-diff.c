/* winnow TUI — the patch (d): its mail body with the diff coloured as
 * git diff colours it, opened at the hunk the current finding is about,
 * the lines the findings quote marked in the gutter with the finding's
 * number; ] and [ go from one hunk with findings to the next. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/text.h"
#include "view.h"

struct dl {
	char *text;		/* sanitised, tabs expanded */
	enum role role;
	int finding;		/* 1-based number of a finding about it; 0 */
	bool hunk_hit;		/* a hunk header some finding is about */
};

struct diff {
	wn_item *it;
	struct dl *l;
	size_t n;
	int hscroll;
};

static const struct hint diff_hints[] = {
	{ ACT_BACK, "back" }, { ACT_NEXT_HUNK, "next finding hunk" },
	{ ACT_PREV_HUNK, "previous" }, { ACT_SCROLL_RIGHT, "right" },
	{ ACT_SEARCH, "search" }, { ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

/* git diff's colours: file headers, hunk headers, added, removed. */
static enum role role_of_line(const char *s, bool in_diff)
{
	if (!strncmp(s, "diff --git ", 11) || (in_diff && (!strncmp(s, "--- ", 4) ||
							   !strncmp(s, "+++ ", 4) ||
							   !strncmp(s, "index ", 6))))
		return ROLE_DIFF_FILE;
	if (!in_diff)
		return ROLE_DEFAULT;
	if (!strncmp(s, "@@", 2))
		return ROLE_DIFF_HUNK;
	if (s[0] == '+')
		return ROLE_DIFF_ADD;
	if (s[0] == '-')
		return ROLE_DIFF_DEL;
	return ROLE_DEFAULT;
}

/* The path a "+++ b/path" or "diff --git a/x b/path" line names. */
static const char *path_of(const char *s, size_t *len)
{
	const char *b;

	if (!strncmp(s, "+++ ", 4)) {
		s += 4;
		if (!strncmp(s, "b/", 2))
			s += 2;
		*len = strcspn(s, "\t");
		return s;
	}
	b = strstr(s, " b/");
	if (!b)
		return NULL;
	*len = strlen(b + 3);
	return b + 3;
}

static bool same_path(const char *file, const char *p, size_t len)
{
	size_t fl = strlen(file);

	/* The bot may name the file relative or whole: match the end. */
	return p && fl <= len && !strncmp(p + len - fl, file, fl) &&
	       (fl == len || p[len - fl - 1] == '/');
}

/* A diff line's code: without its +/-/space prefix, indentation and
 * trailing blanks (bots re-indent what they quote). */
static const char *code_of(const char *s, size_t *len)
{
	while (*s == '+' || *s == '-' || *s == ' ')
		s++;
	*len = strlen(s);
	while (*len && s[*len - 1] == ' ')
		(*len)--;
	return s;
}

/* Is diff line s one the finding quotes? */
static bool quoted(const wn_finding *f, const char *s)
{
	char **exp = NULL;
	size_t nexp = 0, want, have;
	bool hit = false;

	s = code_of(s, &want);
	if (!f->quote || want < 4 || !text_wrap(f->quote, 0, false, &exp, &nexp))
		return false;
	for (size_t i = 0; i < nexp; i++) {
		const char *q = code_of(exp[i], &have);

		hit |= have == want && !strncmp(q, s, want);
		free(exp[i]);
	}
	free(exp);
	return hit;
}

/* Mark the lines each finding is about: in its file, the hunk holding
 * its line, and within it the lines its quote holds (else the line). */
static void mark_findings(struct diff *d)
{
	const wn_review *r = d->it->review;

	for (size_t k = 0; r && k < r->nfindings; k++) {
		const wn_finding *f = &r->findings[k];
		const char *path = NULL;
		size_t plen = 0, hunk = (size_t) -1;
		int newline = 0;

		if (!f->file)
			continue;
		for (size_t i = 0; i < d->n; i++) {
			const char *s = d->l[i].text;

			if (d->l[i].role == ROLE_DIFF_FILE && (path = path_of(s, &plen)))
				continue;
			if (!path || !same_path(f->file, path, plen))
				continue;
			if (d->l[i].role == ROLE_DIFF_HUNK) {
				const char *plus = strstr(s, " +");

				hunk = i;
				newline = plus ? atoi(plus + 2) : 0;
				continue;
			}
			if (hunk == (size_t) -1)
				continue;
			if ((f->quote && quoted(f, s)) ||
			    (!f->quote && f->line && newline == f->line)) {
				if (!d->l[i].finding)
					d->l[i].finding = f->index;
				d->l[hunk].hunk_hit = true;
			}
			if (s[0] != '-')
				newline++;
		}
	}
}

static bool diff_open(struct tui *t, struct view *v, void *arg)
{
	struct diff *d = v->priv;
	const struct about *ab = arg;
	wn_error err = WN_ERROR_INIT;
	wn_mail *mail = NULL;
	char **lines = NULL;
	size_t n = 0;
	bool in_diff = false;

	d->it = ab->it;
	if (!d->it->patch) {
		tui_msg(t, ROLE_WARNING, "the patch is not in the index: no diff to show");
		return false;
	}
	if (wn_index_read_mail(t->idx, d->it->patch->id, &mail, NULL, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot read the patch: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	if (!text_wrap(mail->body, 0, false, &lines, &n) || !(d->l = calloc(n ? n : 1, sizeof(*d->l)))) {
		for (size_t i = 0; i < n; i++)
			free(lines[i]);
		free(lines);
		wn_mail_free(&mail);
		tui_msg(t, ROLE_ERROR, "out of memory");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(lines[i], "diff --git ", 11))
			in_diff = true;
		d->l[i].text = lines[i];
		d->l[i].role = role_of_line(lines[i], in_diff);
	}
	free(lines);
	d->n = v->lines = n;
	wn_mail_free(&mail);
	mark_findings(d);
	/* Open at the current finding's first line, its hunk in view. */
	for (size_t i = 0; i < d->n; i++)
		if (d->it->review && ab->finding < d->it->review->nfindings &&
		    d->l[i].finding == d->it->review->findings[ab->finding].index) {
			size_t h = i;

			while (h && d->l[h].role != ROLE_DIFF_HUNK)
				h--;
			v->top = h;
			v->cursor = i;
			break;
		}
	return true;
}

static void diff_done(struct tui *t, struct view *v)
{
	struct diff *d = v->priv;

	for (size_t i = 0; i < d->n; i++)
		free(d->l[i].text);
	free(d->l);
}

static void diff_title(struct tui *t, struct view *v, struct row *r)
{
	struct diff *d = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s patch %s", ui_dash(), ui_dash());
	row_add(r, ROLE_TITLE, CELL_FLEX, d->it->patch->subject);
	if (d->hscroll)
		row_addf(r, ROLE_TITLE, CELL_NATURAL, "col %d", d->hscroll + 1);
}

static void diff_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct diff *d = v->priv;
	const struct dl *l = &d->l[i];
	struct cell *c;

	if (l->finding)
		row_addf(r, ROLE_DIFF_FINDING, 3, "%2d", l->finding)->pad = 0;
	else if (l->hunk_hit)
		row_add(r, ROLE_DIFF_FINDING, 3, display_utf8() ? " \u25b8" : " >")->pad = 0;
	else
		row_add(r, ROLE_DEFAULT, 3, "")->pad = 0;
	row_add(r, ROLE_DEFAULT, 1, "")->pad = 0;
	c = row_add(r, l->role, CELL_FLEX, text_skip_cols(l->text, d->hscroll));
	if (l->finding)
		c->extra = TA_BOLD;
}

static bool diff_match(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct diff *d = v->priv;

	return wn_text_find_ci(d->l[i].text, needle);
}

/* ] and [: the next (previous) hunk some finding is about. */
static void jump_hunk(struct tui *t, struct view *v, bool forward)
{
	struct diff *d = v->priv;

	for (size_t step = 1; step <= d->n; step++) {
		size_t i = forward ? v->cursor + step : v->cursor - step;

		if ((forward && i >= d->n) || (!forward && step > v->cursor))
			break;
		if (d->l[i].hunk_hit) {
			view_goto(t, v, i);
			v->top = i;
			return;
		}
	}
	tui_msg(t, ROLE_STATUS, "no %s hunk with a finding", forward ? "later" : "earlier");
}

static struct view_req diff_request(struct tui *t, struct view *v, enum action a)
{
	struct diff *d = v->priv;

	if (copy_request(t, a, d->it, NULL))
		return req_done();
	switch (a) {
	case ACT_NEXT_HUNK:
	case ACT_PREV_HUNK:
		jump_hunk(t, v, a == ACT_NEXT_HUNK);
		return req_done();
	case ACT_SCROLL_RIGHT:
		d->hscroll += 8;
		return req_done();
	case ACT_SCROLL_LEFT:
		d->hscroll = d->hscroll > 8 ? d->hscroll - 8 : 0;
		return req_done();
	case ACT_DIFF:
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action diff_keys[] = {
	ACT_NEXT_HUNK, ACT_PREV_HUNK, ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT, ACT_COPY_ID, ACT_COPY_PATCH_ID, ACT_NONE,
};

const struct view_ops diff_ops = {
	.name = "diff",
	.priv_size = sizeof(struct diff),
	.open = diff_open,
	.done = diff_done,
	.title = diff_title,
	.row = diff_row,
	.match = diff_match,
	.request = diff_request,
	.hints = diff_hints,
	.keys = diff_keys,
};
