/* winnow TUI — statistics: the reviews' findings counted by verdict in
 * groups (bot, severity, list, author, attribution, model, month; `b`
 * switches), a bar per group coloured by verdict, the bot's misses and
 * the reviews the author answered, the false positives of the group
 * under the cursor by reason, and each bot's false-positive rate month
 * by month.  The numbers are libwinnow's (stats.h), the same `winnow
 * stats` prints: the author's answers derived as its pass does.
 *
 * Counting reads every review, which takes a while on a big index, so
 * it runs in slices between keys (view_ops.busy); every grouping is
 * counted in the same pass, so switching is instant.  A mark anywhere
 * (view_ops.reload) starts a new count; the last finished one stays on
 * screen meanwhile.  Enter opens the queue on a group's reviews: each
 * group keeps its members, and the view the Message-IDs. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "winnow/facts.h"
#include "winnow/stats.h"
#include "winnow/text.h"
#include "stats-trend.h"
#include "view.h"

#define SLICE_MS 30		/* counting between two looks for a key */
#define BAR_MAX 256		/* widest bar segment, in columns */
#define WIDE_COLS 120		/* from here every count has a column */
#define MID_COLS 80		/* from here the bot's misses and the author's replies */
#define KEY_MAX_NARROW 22
#define KEY_MAX_WIDE 40
#define MODEL_MAX_WIDE 64	/* a model's key with its spellings */

/* One pass over the reviews: every grouping at once, and the trend. */
struct count {
	wn_list list;
	size_t pos;		/* reviews counted */
	wn_stats *by[WN_STATS_KEY_COUNT];
	wn_stats *trend;	/* bot and month */
	char **ids;		/* list.n Message-IDs, for the members */
	/* Whether each review's author answered it, as `winnow stats`
	 * keeps it between runs (read only: the CLI's pass writes it). */
	wn_facts *kept;
	/* Grouped by model, each group's label with the spellings it
	 * groups (wn_stats_model_label), as the command line's table. */
	char **model_labels;
	size_t nmodel_labels;
};

struct stats_view {
	wn_stats_key key;	/* the grouping shown */
	struct count shown;	/* the last finished count */
	struct count next;	/* the count under way */
	bool have_shown, counting, dirty;
	int keyw;		/* width of the key column */
	int trend_y;		/* first line of the trend block */
	/* BAR_MAX columns of each verdict's segment text, [1] always the
	 * verdict's character (the cursor bar hides background colours). */
	char *bar[2][WN_VERDICT_COUNT];
	size_t bar_unit[2][WN_VERDICT_COUNT];	/* bytes of one column */
	/* The queue a group opens on; kept until the next one. */
	char *group_query, *group_label;
	struct queue_arg group_arg;
};

static const enum role bar_roles[WN_VERDICT_COUNT] = {
#define WN_X_(e, name, tag, label, word) [WN_VERDICT_##e] = ROLE_BAR_##e,
	WN_VERDICT_LIST(WN_X_)
#undef WN_X_
};

static const struct hint stats_hints[] = {
	{ ACT_BACK, "back" }, { ACT_OPEN, "its reviews" }, { ACT_STATS_BY, "group by" },
	{ ACT_HELP, "help" }, { ACT_NONE, NULL },
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- counting -------------------------------------------------------- */

static void count_free(struct count *c)
{
	for (size_t i = 0; i < c->nmodel_labels; i++)
		free(c->model_labels[i]);
	free(c->model_labels);
	c->model_labels = NULL;
	c->nmodel_labels = 0;
	for (size_t i = 0; c->ids && i < c->list.n; i++)
		free(c->ids[i]);
	free(c->ids);
	for (int k = 0; k < WN_STATS_KEY_COUNT; k++)
		wn_stats_free(&c->by[k]);
	wn_stats_free(&c->trend);
	wn_facts_close(&c->kept);
	wn_list_free(&c->list);
	memset(c, 0, sizeof(*c));
}

static bool count_start(struct tui *t, struct stats_view *sv)
{
	static const wn_stats_key trend_keys[] = { WN_STATS_BY_BOT, WN_STATS_BY_MONTH };
	struct count *c = &sv->next;
	wn_error err = WN_ERROR_INIT;
	bool ok;

	count_free(c);
	c->kept = wn_facts_open(t->idx, false);
	ok = wn_index_query(t->idx, NULL, &c->list, &err) == WN_OK &&
	     (c->ids = calloc(c->list.n ? c->list.n : 1, sizeof(*c->ids))) &&
	     wn_stats_new(trend_keys, 2, 0, &c->trend, &err) == WN_OK;
	for (int k = 0; ok && k < WN_STATS_KEY_COUNT; k++) {
		wn_stats_key key = (wn_stats_key) k;

		ok = wn_stats_new(&key, 1, WN_STATS_MEMBERS, &c->by[k], &err) == WN_OK;
	}
	if (!ok) {
		tui_msg(t, ROLE_ERROR, "cannot count: %s", err.msg ? wn_error_msg(&err) : "out of memory");
		count_free(c);
	}
	wn_error_clear(&err);
	sv->counting = ok;
	return ok;
}

static size_t rows_of(const struct stats_view *sv)
{
	return sv->have_shown ? wn_stats_ngroups(sv->shown.by[sv->key]) + 1 : 0;
}

/* The label of group i's value (past the groups: the total row). */
static const char *value_label(const struct stats_view *sv, size_t i)
{
	const wn_stats_group *g = wn_stats_group_at(sv->shown.by[sv->key], i);
	wn_bot bot;

	if (!g)
		return "total";
	if (!g->value[0])
		return "-";
	if (sv->key == WN_STATS_BY_MODEL && i < sv->shown.nmodel_labels && sv->shown.model_labels[i])
		return sv->shown.model_labels[i];
	if (sv->key == WN_STATS_BY_BOT && wn_bot_from_name(g->value[0], &bot) == WN_OK)
		return wn_bot_label(bot);
	return g->value[0];
}

static void fit_key_column(struct stats_view *sv)
{
	const wn_stats *s = sv->shown.by[sv->key];

	sv->keyw = text_width(wn_stats_key_name(sv->key));
	if (sv->keyw < 5)
		sv->keyw = 5;	/* "total" */
	for (size_t i = 0; s && i < wn_stats_ngroups(s); i++) {
		int w = text_width(value_label(sv, i));

		if (w > sv->keyw)
			sv->keyw = w;
	}
}

/* Each model group's label; a label out of memory is the bare key. */
static void model_labels(struct count *c)
{
	const wn_stats *s = c->by[WN_STATS_BY_MODEL];
	size_t n = s ? wn_stats_ngroups(s) : 0;

	if (!n || !(c->model_labels = calloc(n, sizeof(*c->model_labels))))
		return;
	c->nmodel_labels = n;
	for (size_t i = 0; i < n; i++) {
		const wn_stats_group *g = wn_stats_group_at(s, i);

		if (g->value[0])
			c->model_labels[i] = wn_stats_model_label(g, g->value[0], ", ...");
	}
}

static void count_finish(struct stats_view *sv, struct view *v)
{
	for (int k = 0; k < WN_STATS_KEY_COUNT; k++)
		wn_stats_sort(sv->next.by[k]);
	wn_stats_sort(sv->next.trend);
	count_free(&sv->shown);
	sv->shown = sv->next;
	memset(&sv->next, 0, sizeof(sv->next));
	model_labels(&sv->shown);
	sv->have_shown = true;
	sv->counting = false;
	fit_key_column(sv);
	v->lines = rows_of(sv);
	if (v->cursor >= v->lines)
		v->cursor = v->lines ? v->lines - 1 : 0;
}

/* Whether the patch's author answered review it, left where
 * wn_stats_add reads it (it->author_answered): kept from an earlier
 * `winnow stats`, else derived as that pass derives it, so the
 * author-replied counts are its.  False when out of memory. */
static bool author_replied(struct tui *t, struct count *c, wn_item *it)
{
	size_t n = it->review ? it->review->nfindings : 0;
	unsigned char *flags;
	bool replied = false, ok = true;

	if (!it->loaded || it->load_error)
		return true;
	if (!(flags = calloc(n ? n : 1, 1)))
		return false;
	if (wn_facts_get(c->kept, it, &replied, flags, n))
		it->author_answered = replied;
	else
		ok = wn_index_author_replied(t->idx, it, &replied, NULL) != WN_NOMEM;
	free(flags);
	return ok;
}

/* Count one more review. */
static void count_step(struct tui *t, struct stats_view *sv, struct view *v)
{
	struct count *c = &sv->next;
	size_t i = c->pos;
	wn_item *it;
	bool ok = true;

	if (i >= c->list.n) {
		count_finish(sv, v);
		return;
	}
	it = wn_list_get(t->idx, &c->list, i);
	if (!it) {
		/* The index changed under the pass: count again. */
		sv->dirty = true;
		sv->counting = false;
		return;
	}
	/* Every review: now the cache pays for its opening. */
	wn_index_cache_later(t->idx, false);
	tui_load(t, it);
	if (it->loaded && !(c->ids[i] = strdup(it->id)))
		ok = false;
	if (ok)
		ok = author_replied(t, c, it);
	for (int k = 0; ok && k < WN_STATS_KEY_COUNT; k++)
		ok = wn_stats_add(c->by[k], it, i) == WN_OK;
	if (ok)
		ok = wn_stats_add(c->trend, it, i) == WN_OK;
	wn_list_release(&c->list, i);
	c->pos++;
	if (!ok) {
		tui_msg(t, ROLE_ERROR, "cannot count: out of memory");
		count_free(c);
		sv->counting = false;
	}
}

static bool stats_busy(struct tui *t, struct view *v)
{
	struct stats_view *sv = v->priv;
	long long end = now_ms() + SLICE_MS;

	if (sv->dirty && !sv->counting) {
		sv->dirty = false;
		count_start(t, sv);
	}
	while (sv->counting) {
		count_step(t, sv, v);
		if (now_ms() >= end)
			break;
	}
	return sv->counting;
}

/* A verdict changed: count again (the numbers shown stay meanwhile). */
static void stats_reload(struct tui *t, struct view *v, const char *msgid)
{
	struct stats_view *sv = v->priv;

	(void) msgid;
	if (sv->counting)
		count_free(&sv->next);
	sv->counting = false;
	sv->dirty = true;
}

/* --- open and close -------------------------------------------------- */

/* Columns of unit, BAR_MAX of them, into *out (malloc'd). */
static bool repeat(const char *unit, char **out, size_t *unit_len)
{
	size_t n = strlen(unit);

	*out = malloc(BAR_MAX * n + 1);
	if (!*out)
		return false;
	for (size_t i = 0; i < BAR_MAX; i++)
		memcpy(*out + i * n, unit, n);
	(*out)[BAR_MAX * n] = '\0';
	*unit_len = n;
	return true;
}

/* The text of each verdict's bar segment: blanks in the role's
 * background colour, or the verdict's character where colour cannot
 * tell (no colours, a role without a background); and the character
 * always, for the row under the cursor. */
static bool make_bars(struct tui *t, struct stats_view *sv)
{
	for (int v = 0; v < WN_VERDICT_COUNT; v++) {
		enum role r = bar_roles[v];
		bool blank = t->theme.color && t->theme.style[r].bg.kind != TC_DEFAULT;
		const char *glyph = wn_stats_glyph((wn_verdict) v, display_utf8());

		if (!repeat(blank ? " " : glyph, &sv->bar[0][v], &sv->bar_unit[0][v]) ||
		    !repeat(glyph, &sv->bar[1][v], &sv->bar_unit[1][v]))
			return false;
	}
	return true;
}

static void stats_done(struct tui *t, struct view *v)
{
	struct stats_view *sv = v->priv;

	count_free(&sv->shown);
	count_free(&sv->next);
	for (int k = 0; k < WN_VERDICT_COUNT; k++) {
		free(sv->bar[0][k]);
		free(sv->bar[1][k]);
	}
	free(sv->group_query);
	free(sv->group_label);
}

static bool stats_open(struct tui *t, struct view *v, void *arg)
{
	struct stats_view *sv = v->priv;

	(void) arg;
	sv->key = WN_STATS_BY_BOT;
	sv->dirty = true;	/* the first slice starts the count */
	if (!make_bars(t, sv)) {
		stats_done(t, v);
		tui_msg(t, ROLE_ERROR, "out of memory");
		return false;
	}
	return true;
}

/* --- drawing --------------------------------------------------------- */

static void stats_title(struct tui *t, struct view *v, struct row *r)
{
	struct stats_view *sv = v->priv;
	const wn_stats_counts *c = sv->have_shown ? wn_stats_total(sv->shown.by[sv->key]) : NULL;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s statistics by %s", ui_dash(),
		 wn_stats_key_name(sv->key));
	if (c)
		row_addf(r, ROLE_TITLE, CELL_NATURAL, "%s %lu review%s, %lu finding%s", ui_dash(),
			 c->reviews, c->reviews == 1 ? "" : "s", c->findings, c->findings == 1 ? "" : "s");
	if (sv->counting)
		row_addf(r, ROLE_TITLE, CELL_NATURAL, "%s counting %zu of %zu", ui_dash(),
			 sv->next.pos, sv->next.list.n);
}

static bool wide(void)
{
	return COLS >= WIDE_COLS;
}

/* The bar keeps room under MID_COLS: the rarer counts go first. */
static bool mid(void)
{
	return COLS >= MID_COLS;
}

static struct cell *num(struct row *r, enum role role, int w, const char *fmt, unsigned long n)
{
	struct cell *c = row_addf(r, role, w, fmt, n);

	c->right = true;
	return c;
}

/* The numbers of a row, or (c NULL) their headings. */
static void numbers(struct row *r, const wn_stats_counts *c)
{
	enum { ALL, MID, WIDE };	/* from which width a column is shown */
	static const struct {
		const char *head;
		int w, from;
	} cols[] = {
		{ "reviews", 7, ALL }, { "findings", 8, ALL }, { "valid", 5, WIDE },
		{ "false-pos", 9, WIDE }, { "pre-ex", 6, WIDE }, { "untriaged", 9, WIDE },
		{ "fwd", 3, WIDE }, { "missed", 6, MID }, { "replied", 7, MID },
		{ "FP rate", 7, ALL }, { "95% CI", 9, ALL }, { "pre-ex%", 7, ALL },
	};
	enum { NCOUNTS = 9 };	/* columns before the rates */
	unsigned long v[NCOUNTS] = { 0 };
	wn_stats_rates rt = { 0 };

	if (c) {
		wn_stats_rates_of(c, &rt);
		v[0] = c->reviews;
		v[1] = c->findings;
		v[2] = c->verdicts[WN_VERDICT_VALID];
		v[3] = c->verdicts[WN_VERDICT_FALSE_POSITIVE];
		v[4] = c->verdicts[WN_VERDICT_PREEXISTING];
		v[5] = c->verdicts[WN_VERDICT_UNTRIAGED];
		v[6] = c->forwarded;
		v[7] = c->missed;
		v[8] = c->author_replied;
	}
	for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
		struct cell *cell;

		if ((cols[k].from == WIDE && !wide()) || (cols[k].from == MID && !mid()))
			continue;
		if (!c) {
			row_add(r, ROLE_HEADER, cols[k].w, cols[k].head)->right = true;
			continue;
		}
		if (k < NCOUNTS) {
			num(r, ROLE_DEFAULT, cols[k].w, "%lu", v[k]);
			continue;
		}
		cell = row_add(r, ROLE_DEFAULT, cols[k].w, "-");
		cell->right = true;
		if (!rt.has_rate)
			continue;	/* nothing triaged: no rate, no interval */
		if (k == NCOUNTS)
			snprintf(cell->own, sizeof(cell->own), "%.0f%%", rt.fp_rate * 100);
		else if (k == NCOUNTS + 1)
			snprintf(cell->own, sizeof(cell->own), "%.0f-%.0f%%", rt.fp_low * 100, rt.fp_high * 100);
		else
			snprintf(cell->own, sizeof(cell->own), "%.0f%%", rt.pre_share * 100);
		cell->text = cell->own;
	}
}

static int used_width(const struct row *r)
{
	int w = 0;

	for (int i = 0; i < r->n; i++)
		w += (r->c[i].width > 0 ? r->c[i].width : text_width(r->c[i].text)) + r->c[i].pad;
	return w;
}

/* Segments of columns of a verdict's bar text. */
static const char *bar_text(const struct stats_view *sv, wn_verdict v, int cols, bool cursor)
{
	return sv->bar[cursor][v] + (size_t) (BAR_MAX - cols) * sv->bar_unit[cursor][v];
}

static void add_bar(const struct stats_view *sv, struct row *r, const wn_stats_counts *c,
		    unsigned long max, bool cursor)
{
	int width = COLS - used_width(r) - 1, seg[WN_VERDICT_COUNT];

	if (width > BAR_MAX)
		width = BAR_MAX;
	wn_stats_bar(c, max, width, seg);
	for (int k = 0; k < WN_VERDICT_COUNT; k++) {
		wn_verdict v = wn_stats_bar_order[k];

		if (seg[v] > 0)
			row_add(r, bar_roles[v], seg[v], bar_text(sv, v, seg[v], cursor))->pad = 0;
	}
}

static int key_width(const struct stats_view *sv)
{
	int max = !wide() ? KEY_MAX_NARROW : sv->key == WN_STATS_BY_MODEL ? MODEL_MAX_WIDE : KEY_MAX_WIDE;

	return sv->keyw < max ? sv->keyw : max;
}

static void stats_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct stats_view *sv = v->priv;
	const wn_stats *s = sv->shown.by[sv->key];
	const wn_stats_group *g = wn_stats_group_at(s, i);
	unsigned long max = 0;

	row_add(r, g ? ROLE_DEFAULT : ROLE_NCOUNT, key_width(sv), value_label(sv, i));
	numbers(r, g ? &g->c : wn_stats_total(s));
	for (size_t k = 0; k < wn_stats_ngroups(s); k++)
		if (wn_stats_group_at(s, k)->c.findings > max)
			max = wn_stats_group_at(s, k)->c.findings;
	/* Groups to the largest group's scale; the total is the whole mix. */
	add_bar(sv, r, g ? &g->c : wn_stats_total(s), g ? max : wn_stats_total(s)->findings,
		i == v->cursor);
}

/* Whether any false positive was given a reason (the total of any
 * grouping counts every finding): then the reasons line is shown. */
static bool any_reason(const struct stats_view *sv)
{
	const wn_stats_counts *c = sv->have_shown ? wn_stats_total(sv->shown.by[sv->key]) : NULL;

	return c && c->fp_reason[WN_REASON_NONE] != c->verdicts[WN_VERDICT_FALSE_POSITIVE];
}

/* The list starts under a line of headings; the reasons line, the
 * trend block and the legend take what they need below it. */
static void stats_layout(struct tui *t, struct view *v, int top, int height)
{
	struct stats_view *sv = v->priv;
	int below, list_h;

	/* blank, the trend, blank, three lines of legend */
	below = sv->have_shown ? 5 + stats_trend_lines(sv->shown.trend) : 0;
	below += any_reason(sv) ? 2 : 0;	/* the reasons, blank */
	list_h = height - 1 - below;
	if (list_h > (int) v->lines)
		list_h = (int) v->lines;
	if (list_h < 1)
		list_h = height > 1 ? 1 : 0;
	v->list_y = top + 1;
	v->list_h = list_h;
	sv->trend_y = top + 1 + list_h + 1 + (any_reason(sv) ? 2 : 0);
}

/* Why the false positives of the group under the cursor (or of all)
 * were wrong, as `winnow stats` tables them: each reason given, and
 * those given none. */
static void draw_reasons(struct tui *t, struct stats_view *sv, struct view *v, int y)
{
	const wn_stats *s = sv->shown.by[sv->key];
	const wn_stats_group *g = wn_stats_group_at(s, v->cursor);
	const wn_stats_counts *c = g ? &g->c : wn_stats_total(s);
	wn_buf b = WN_BUF_INIT;
	bool any = false;

	wn_buf_printf(&b, "false positives by reason, %s:", value_label(sv, v->cursor));
	for (unsigned k = 1; k <= WN_REASON_COUNT; k++) {
		/* the reasons in their order, then those without one */
		wn_reason r = k < WN_REASON_COUNT ? (wn_reason) k : WN_REASON_NONE;

		if (!c->fp_reason[r])
			continue;
		wn_buf_printf(&b, "%s %s %lu", any ? "," : "",
			      r == WN_REASON_NONE ? "unstated" : wn_reason_name(r), c->fp_reason[r]);
		any = true;
	}
	if (!any)
		wn_buf_puts(&b, " none");
	if (!b.failed && b.data && y < LINES - 1)
		draw_text(&t->theme, y, 0, COLS, ROLE_HELP_TEXT, b.data);
	wn_buf_free(&b);
}

static void draw_legend(struct tui *t, struct stats_view *sv, int y)
{
	struct row r = { .n = 0 };

	if (y >= LINES - 1)
		return;
	for (int k = 0; k < WN_VERDICT_COUNT; k++) {
		wn_verdict v = wn_stats_bar_order[k];

		row_add(&r, bar_roles[v], 2, bar_text(sv, v, 2, false));
		row_add(&r, ROLE_HELP_TEXT, CELL_NATURAL, wn_verdict_label(v))->pad = 2;
	}
	view_draw_row(t, y, &r, false);
	if (y + 1 < LINES - 1)
		draw_text(&t->theme, y + 1, 0, COLS, ROLE_HELP_TEXT,
			  "FP rate: false positives of the triaged findings, with its 95% Wilson interval");
	if (y + 2 < LINES - 1)
		draw_text(&t->theme, y + 2, 0, COLS, ROLE_HELP_TEXT,
			  "missed: bugs the bot did not report; replied: reviews the author answered");
}

static void stats_draw(struct tui *t, struct view *v)
{
	struct stats_view *sv = v->priv;
	struct row head = { .n = 0 };

	if (!sv->have_shown) {
		draw_text(&t->theme, v->list_y, 0, COLS, ROLE_STATUS, "counting the reviews...");
		return;
	}
	row_add(&head, ROLE_HEADER, key_width(sv), wn_stats_key_name(sv->key));
	numbers(&head, NULL);
	row_add(&head, ROLE_HEADER, CELL_NATURAL, "verdicts");
	view_draw_row(t, v->list_y - 1, &head, false);
	if (any_reason(sv))
		draw_reasons(t, sv, v, sv->trend_y - 2);
	draw_legend(t, sv, stats_trend_draw(t, sv->shown.trend, sv->trend_y) + 1);
}

/* --- actions --------------------------------------------------------- */

/* id:"x" or id:"y" ...: the reviews of group g ('"' doubled inside a
 * quoted notmuch term). */
static char *members_query(const struct stats_view *sv, const wn_stats_group *g)
{
	wn_buf q = WN_BUF_INIT;

	for (size_t i = 0; i < g->nmembers; i++) {
		const char *id = sv->shown.ids[g->members[i]];

		if (!id)
			continue;
		wn_buf_puts(&q, q.len ? " or id:\"" : "id:\"");
		for (; *id; id++)
			wn_buf_puts(&q, *id == '"' ? "\"\"" : (char[2]) { *id, '\0' });
		wn_buf_putc(&q, '"');
	}
	return wn_buf_steal(&q);
}

/* Enter: the queue on the reviews of the group under the cursor. */
static struct view_req open_group(struct tui *t, struct view *v)
{
	struct stats_view *sv = v->priv;
	const wn_stats_group *g;

	if (!sv->have_shown || !v->lines) {
		tui_msg(t, ROLE_WARNING, "still counting");
		return req_done();
	}
	g = wn_stats_group_at(sv->shown.by[sv->key], v->cursor);
	free(sv->group_query);
	free(sv->group_label);
	sv->group_query = g ? members_query(sv, g) : NULL;
	sv->group_label = NULL;
	if (g && asprintf(&sv->group_label, "%s: %s", wn_stats_key_name(sv->key),
			  value_label(sv, v->cursor)) < 0)
		sv->group_label = NULL;
	if (g && (!sv->group_query || !sv->group_label)) {
		tui_msg(t, ROLE_ERROR, "out of memory");
		return req_done();
	}
	/* The total is every review: the queue unlimited. */
	sv->group_arg = (struct queue_arg) { sv->group_query, sv->group_label, NULL, false };
	return req_open(VIEW_QUEUE, &sv->group_arg);
}

static struct view_req stats_request(struct tui *t, struct view *v, enum action a)
{
	struct stats_view *sv = v->priv;

	switch (a) {
	case ACT_OPEN:
		return open_group(t, v);
	case ACT_STATS_BY:
		sv->key = (wn_stats_key) ((sv->key + 1) % WN_STATS_KEY_COUNT);
		fit_key_column(sv);
		v->lines = rows_of(sv);
		v->cursor = v->top = 0;
		tui_msg(t, ROLE_STATUS, "grouped by %s: %s", wn_stats_key_name(sv->key),
			wn_stats_key_help(sv->key));
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action stats_keys[] = {
	ACT_OPEN, ACT_STATS_BY, ACT_NONE,
};

const struct view_ops stats_ops = {
	.name = "stats",
	.priv_size = sizeof(struct stats_view),
	.open = stats_open,
	.done = stats_done,
	.title = stats_title,
	.row = stats_row,
	.layout = stats_layout,
	.draw = stats_draw,
	.request = stats_request,
	.reload = stats_reload,
	.busy = stats_busy,
	.hints = stats_hints,
	.keys = stats_keys,
};
