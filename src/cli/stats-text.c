/* winnow — `winnow stats` as text: a table of counts with a bar per
 * group, a table of the bots' pre-existing claims, and a legend, laid
 * out to be pasted into a mail: aligned columns, no trailing blanks,
 * nothing but ASCII when the locale is not UTF-8.
 *
 * Group values come from mail (a list, an address, a model name): each
 * is sanitised before it is measured, and printed through the printer's
 * string(), which sanitises again. */
#include "autoconfig.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "stats-text.h"
#include "winnow/text.h"

#define MAX_COLS 16
#define KEY_MAX_WIDTH 32	/* a longer group value is cut */
#define MODEL_MAX_WIDTH 64	/* a model's key with its spellings */
#define BAR_WIDTH 16

struct table {
	int ncols;
	const char *head[MAX_COLS];
	bool right[MAX_COLS];
	int width[MAX_COLS];
	char *(*rows)[MAX_COLS];
	size_t nrows;
	bool utf8;
};

static bool locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Columns s takes on a terminal: by wcwidth() where the locale knows
 * the characters, else one per character. */
static int width_of(const char *s, bool utf8)
{
	mbstate_t st;
	int w = 0;

	memset(&st, 0, sizeof(st));
	while (*s) {
		wchar_t wc;
		size_t n = utf8 ? mbrtowc(&wc, s, MB_CUR_MAX, &st) : (size_t) -1;
		int cw;

		if (n == (size_t) -1 || n == (size_t) -2 || n == 0) {
			/* Not decodable here: count the UTF-8 character. */
			memset(&st, 0, sizeof(st));
			s++;
			while ((*s & 0xc0) == 0x80)
				s++;
			w++;
			continue;
		}
		cw = wcwidth(wc);
		w += cw > 0 ? cw : 0;
		s += n;
	}
	return w;
}

/* A sanitised copy of s cut to at most max columns ("..." or "…" where
 * it was cut).  malloc'd; NULL when out of memory. */
static char *fit(const char *s, int max, bool utf8)
{
	const char *dots = utf8 ? "\u2026" : "...";
	char *clean = wn_text_sanitize(s, 0);
	size_t len;

	if (!clean || width_of(clean, utf8) <= max)
		return clean;
	len = strlen(clean);
	while (len && width_of(clean, utf8) > max - (utf8 ? 1 : 3)) {
		/* Drop the last character, never half of one. */
		do
			len--;
		while (len && (clean[len] & 0xc0) == 0x80);
		clean[len] = '\0';
	}
	{
		char *r = malloc(len + strlen(dots) + 1);

		if (r)
			sprintf(r, "%s%s", clean, dots);
		free(clean);
		return r;
	}
}

static void add_col(struct table *t, const char *head, bool right)
{
	t->head[t->ncols] = head;
	t->right[t->ncols] = right;
	t->width[t->ncols] = width_of(head, t->utf8);
	t->ncols++;
}

/* A new row; its cells are filled by the caller (NULL prints as ""). */
static char **add_row(struct table *t)
{
	char *(*nr)[MAX_COLS] = realloc(t->rows, (t->nrows + 1) * sizeof(*nr));

	if (!nr)
		return NULL;
	t->rows = nr;
	memset(nr[t->nrows], 0, sizeof(nr[t->nrows]));
	return nr[t->nrows++];
}

static void table_free(struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			free(t->rows[r][c]);
	free(t->rows);
}

static void put_cell(wn_printer *p, const struct table *t, int c, const char *s, bool last)
{
	int pad = t->width[c] - width_of(s, t->utf8);

	if (c)
		wn_pr_text(p, " ");
	if (t->right[c] && pad > 0)
		wn_pr_text(p, "%*s", pad, "");
	p->label(p, "");
	p->string(p, s);
	/* No blanks at the end of a line: mail software strips them. */
	if (!t->right[c] && !last && pad > 0)
		wn_pr_text(p, "%*s", pad, "");
}

static void table_print(wn_printer *p, struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			if (t->rows[r][c] && width_of(t->rows[r][c], t->utf8) > t->width[c])
				t->width[c] = width_of(t->rows[r][c], t->utf8);
	for (int c = 0; c < t->ncols; c++)
		put_cell(p, t, c, t->head[c], c == t->ncols - 1);
	p->separator(p);
	for (size_t r = 0; r < t->nrows; r++) {
		int last = t->ncols - 1;

		/* Blank cells at the end leave no blanks behind. */
		while (last > 0 && (!t->rows[r][last] || !*t->rows[r][last]))
			last--;
		for (int c = 0; c <= last; c++)
			put_cell(p, t, c, t->rows[r][c] ? t->rows[r][c] : "", c == last);
		p->separator(p);
	}
}

/* A model's key, and the spellings it groups when they are not just the
 * key (wn_stats_model_label), fitted to the column. */
static char *model_cell(const wn_stats_group *g, const char *v, bool utf8)
{
	char *cell, *r;

	if (!g->nspellings || (g->nspellings == 1 && !g->spellings_cut && strcmp(g->spellings[0], v) == 0))
		return fit(v, KEY_MAX_WIDTH, utf8);
	cell = wn_stats_model_label(g, v, utf8 ? ", \u2026" : ", ...");
	r = cell ? fit(cell, MODEL_MAX_WIDTH, utf8) : NULL;
	free(cell);
	return r;
}

/* The group's value of key k as the table shows it. */
static char *key_cell(const wn_stats *s, const wn_stats_group *g, size_t k, bool utf8)
{
	const char *v = g ? g->value[k] : (k == 0 ? "total" : "");
	wn_bot bot;

	if (!v)
		v = "-";
	else if (g && wn_stats_key_at(s, k) == WN_STATS_BY_BOT && wn_bot_from_name(v, &bot) == WN_OK)
		v = wn_bot_label(bot);
	else if (g && wn_stats_key_at(s, k) == WN_STATS_BY_MODEL)
		return model_cell(g, v, utf8);
	return fit(v, KEY_MAX_WIDTH, utf8);
}

static void key_cols(struct table *t, const wn_stats *s)
{
	for (size_t k = 0; k < wn_stats_nkeys(s); k++)
		add_col(t, wn_stats_key_name(wn_stats_key_at(s, k)), false);
}

static char *percent(double v)
{
	return wn_strdupf("%.0f%%", v * 100);
}

static char *bar(const wn_stats_counts *c, unsigned long max, bool utf8)
{
	int seg[WN_VERDICT_COUNT];
	wn_buf b = WN_BUF_INIT;

	wn_stats_bar(c, max, BAR_WIDTH, seg);
	for (int k = 0; k < WN_VERDICT_COUNT; k++)
		for (int i = 0; i < seg[wn_stats_bar_order[k]]; i++)
			wn_buf_puts(&b, wn_stats_glyph(wn_stats_bar_order[k], utf8));
	return wn_buf_steal(&b);
}

/* "verdicts: # valid, x false positive, ...": each verdict of the
 * table by its glyph, in the bars' order. */
static void legend(wn_printer *p, bool utf8)
{
	wn_buf b = WN_BUF_INIT;
	char *line;

	for (int k = 0; k < WN_VERDICT_COUNT; k++)
		wn_buf_printf(&b, "%s%s %s", k ? ", " : "",
			      wn_stats_glyph(wn_stats_bar_order[k], utf8),
			      wn_verdict_label(wn_stats_bar_order[k]));
	line = wn_buf_steal(&b);
	wn_pr_text(p, "verdicts: %s", line ? line : "");
	free(line);
}

/* A new row with the group's key cells; *i the next column.  NULL when
 * out of memory. */
static char **keyed_row(struct table *t, const wn_stats *s, const wn_stats_group *g, size_t *i)
{
	char **row = add_row(t);

	for (*i = 0; row && *i < wn_stats_nkeys(s); (*i)++)
		row[*i] = key_cell(s, g, *i, t->utf8);
	return row;
}

static void counts_row(struct table *t, const wn_stats *s, const wn_stats_group *g,
		       const wn_stats_counts *c, unsigned long max)
{
	size_t i;
	char **row = keyed_row(t, s, g, &i);
	wn_stats_rates r;

	if (!row)
		return;
	wn_stats_rates_of(c, &r);
	row[i++] = wn_strdupf("%lu", c->reviews);
	row[i++] = wn_strdupf("%lu", c->findings);
	row[i++] = wn_strdupf("%lu", c->verdicts[WN_VERDICT_VALID]);
	row[i++] = wn_strdupf("%lu", c->verdicts[WN_VERDICT_FALSE_POSITIVE]);
	row[i++] = wn_strdupf("%lu", c->missed);
	row[i++] = wn_strdupf("%lu", c->verdicts[WN_VERDICT_PREEXISTING]);
	row[i++] = wn_strdupf("%lu", c->verdicts[WN_VERDICT_UNTRIAGED]);
	row[i++] = wn_strdupf("%lu", c->forwarded);
	/* An empty group has no rate: a dash, never 0% nor a NaN. */
	row[i++] = r.has_rate ? percent(r.fp_rate) : strdup("-");
	row[i++] = r.has_rate ? wn_strdupf("%.0f%%-%.0f%%", r.fp_low * 100, r.fp_high * 100) : strdup("-");
	row[i++] = r.has_rate ? percent(r.pre_share) : strdup("-");
	row[i++] = bar(c, max, t->utf8);
}

static void counts_table(wn_printer *p, const wn_stats *s, bool utf8)
{
	struct table t = { .utf8 = utf8 };
	unsigned long max = 0;

	key_cols(&t, s);
	add_col(&t, "reviews", true);
	add_col(&t, "findings", true);
	add_col(&t, "valid", true);
	add_col(&t, "false-pos", true);
	add_col(&t, "missed", true);
	add_col(&t, "pre-ex", true);
	add_col(&t, "untriaged", true);
	add_col(&t, "fwd", true);
	add_col(&t, "FP rate", true);
	add_col(&t, "95% CI", true);
	add_col(&t, "pre-ex%", true);
	add_col(&t, "verdicts", false);
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		if (wn_stats_group_at(s, i)->c.findings > max)
			max = wn_stats_group_at(s, i)->c.findings;
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		counts_row(&t, s, wn_stats_group_at(s, i), &wn_stats_group_at(s, i)->c, max);
	/* The total's bar is the whole mix, at full width. */
	counts_row(&t, s, NULL, wn_stats_total(s), wn_stats_total(s)->findings);
	table_print(p, &t);
	table_free(&t);
}

static void claims_row(struct table *t, const wn_stats *s, const wn_stats_group *g,
		       const wn_stats_counts *c)
{
	size_t i;
	char **row = keyed_row(t, s, g, &i);

	if (!row)
		return;
	row[i++] = wn_strdupf("%lu", c->agree[1][1]);
	row[i++] = wn_strdupf("%lu", c->agree[1][0]);
	row[i++] = wn_strdupf("%lu", c->agree[0][1]);
	row[i++] = wn_strdupf("%lu", c->agree[0][0]);
}

static void claims_table(wn_printer *p, const wn_stats *s, bool utf8)
{
	struct table t = { .utf8 = utf8 };

	key_cols(&t, s);
	add_col(&t, "pre/pre", true);
	add_col(&t, "pre/other", true);
	add_col(&t, "new/pre", true);
	add_col(&t, "new/other", true);
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		claims_row(&t, s, wn_stats_group_at(s, i), &wn_stats_group_at(s, i)->c);
	claims_row(&t, s, NULL, wn_stats_total(s));
	table_print(p, &t);
	table_free(&t);
}

static void series_row(struct table *t, const wn_stats *s, const wn_stats_group *g,
		       const wn_stats_counts *c)
{
	size_t i;
	char **row = keyed_row(t, s, g, &i);

	if (!row)
		return;
	row[i++] = wn_strdupf("%lu", c->findings);
	row[i++] = wn_strdupf("%lu", c->later_patch);
	row[i++] = wn_strdupf("%lu", c->verdicts[WN_VERDICT_VALID]);
	row[i++] = wn_strdupf("%lu", c->fixed_later);
	row[i++] = wn_strdupf("%lu", c->regraded);
	row[i++] = wn_strdupf("%lu", c->author_replied);
}

/* What the series and the maintainer's own grading say. */
static void series_table(wn_printer *p, const wn_stats *s, bool utf8)
{
	struct table t = { .utf8 = utf8 };

	key_cols(&t, s);
	add_col(&t, "findings", true);
	add_col(&t, "later-patch", true);
	add_col(&t, "valid", true);
	add_col(&t, "fixed-later", true);
	add_col(&t, "regraded", true);
	add_col(&t, "author-replied", true);
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		series_row(&t, s, wn_stats_group_at(s, i), &wn_stats_group_at(s, i)->c);
	series_row(&t, s, NULL, wn_stats_total(s));
	table_print(p, &t);
	table_free(&t);
}

static void reasons_row(struct table *t, const wn_stats *s, const wn_stats_group *g,
			const wn_stats_counts *c)
{
	size_t i;
	char **row = keyed_row(t, s, g, &i);

	if (!row)
		return;
	row[i++] = wn_strdupf("%lu", c->verdicts[WN_VERDICT_FALSE_POSITIVE]);
	for (unsigned k = 1; k < WN_REASON_COUNT; k++)
		row[i++] = wn_strdupf("%lu", c->fp_reason[k]);
	row[i++] = wn_strdupf("%lu", c->fp_reason[WN_REASON_NONE]);
}

/* Why the false positives were wrong, once any was given a reason: the
 * table a bot's operators act on. */
static void reasons_text(wn_printer *p, const wn_stats *s, bool utf8)
{
	const wn_stats_counts *c = wn_stats_total(s);
	struct table t = { .utf8 = utf8 };

	if (c->fp_reason[WN_REASON_NONE] == c->verdicts[WN_VERDICT_FALSE_POSITIVE])
		return;
	p->separator(p);
	wn_pr_text(p, "Why the false positives were wrong:");
	p->separator(p);
	key_cols(&t, s);
	add_col(&t, "false-pos", true);
	for (unsigned k = 1; k < WN_REASON_COUNT; k++)
		add_col(&t, wn_reason_name((wn_reason) k), true);
	add_col(&t, "unstated", true);
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		reasons_row(&t, s, wn_stats_group_at(s, i), &wn_stats_group_at(s, i)->c);
	reasons_row(&t, s, NULL, c);
	table_print(p, &t);
	table_free(&t);
}

static void heading(wn_printer *p, const wn_stats *s, const char *query)
{
	const wn_stats_counts *c = wn_stats_total(s);
	wn_stats_rates r;

	wn_stats_rates_of(c, &r);
	wn_pr_text(p, "Findings by ");
	for (size_t k = 0; k < wn_stats_nkeys(s); k++)
		wn_pr_text(p, "%s%s", k ? " and " : "", wn_stats_key_name(wn_stats_key_at(s, k)));
	wn_pr_text(p, ": %lu review%s, %lu finding%s, %lu triaged", c->reviews,
		   c->reviews == 1 ? "" : "s", c->findings, c->findings == 1 ? "" : "s", r.triaged);
	p->separator(p);
	if (query && *query) {
		p->label(p, "Query: ");
		p->string(p, query);
		p->separator(p);
	}
	p->separator(p);
}

void wn_stats_text(wn_printer *p, const wn_stats *s, const char *query)
{
	bool utf8 = locale_utf8();

	heading(p, s, query);
	counts_table(p, s, utf8);
	p->separator(p);
	wn_pr_text(p, "The bot's pre-existing claim against your verdict, triaged findings:");
	p->separator(p);
	claims_table(p, s, utf8);
	p->separator(p);
	wn_pr_text(p, "Series, your own grading and the authors' answers:");
	p->separator(p);
	series_table(p, s, utf8);
	p->separator(p);
	legend(p, utf8);
	p->separator(p);
	wn_pr_text(p, "FP rate: false positives of the triaged findings, with its 95%% Wilson");
	p->separator(p);
	wn_pr_text(p, "score interval; pre-ex%%: the share you marked pre-existing");
	p->separator(p);
	wn_pr_text(p, "pre/other: the bot said pre-existing, you said valid or false positive");
	p->separator(p);
	wn_pr_text(p, "later-patch: a later patch of the series changes the finding's function;");
	p->separator(p);
	wn_pr_text(p, "fixed-later: valid, and gone from the bot's review of a later version;");
	p->separator(p);
	wn_pr_text(p, "regraded: you gave it another severity than the bot did;");
	p->separator(p);
	wn_pr_text(p, "author-replied: reviews the patch's author answered in the thread");
	p->separator(p);
	wn_pr_text(p, "missed: bugs the bot did not report, recorded with 'winnow missed'");
	p->separator(p);
	reasons_text(p, s, utf8);
}
