/* winnow TUI — the queue: one row per review, newest first.
 *
 * The query returns cheap index fields only; a review's mail (and its
 * patch) is read the first time its row is drawn, so the first screen
 * costs one page of mails however big the index is. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "winnow/forward.h"
#include "winnow/text.h"
#include "view.h"

struct queue {
	wn_list list;
	char *limit;		/* the user's limit query; NULL: all */
	char *label;		/* what the title calls it instead; NULL: the limit */
};

static const struct hint queue_hints[] = {
	{ ACT_BACK, "quit" }, { ACT_OPEN, "open" },
	{ ACT_MARK_VALID, "valid" }, { ACT_MARK_FALSE, "false-pos" },
	{ ACT_MARK_PRE, "pre-existing" }, { ACT_MARK_UNTRIAGED, "untriaged" },
	{ ACT_LIMIT, "limit" }, { ACT_SEARCH, "search" }, { ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

static bool run_query(struct tui *t, struct queue *q, const char *limit)
{
	wn_error err = WN_ERROR_INIT;
	wn_list list = { 0 };
	wn_status st = wn_index_query(t->idx, limit, &list, &err);

	if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
		t->rc = wn_status_exit_code(st);
		wn_error_clear(&err);
		return false;
	}
	wn_list_free(&q->list);
	q->list = list;
	free(q->limit);
	q->limit = limit && *limit ? strdup(limit) : NULL;
	return true;
}

static bool queue_open(struct tui *t, struct view *v, void *arg)
{
	const struct queue_arg *qa = arg;
	struct queue *q = v->priv;

	if (!run_query(t, q, qa ? qa->query : NULL))
		return false;
	q->label = qa && qa->label ? strdup(qa->label) : NULL;
	v->lines = q->list.n;
	return true;
}

static void queue_done(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	wn_list_free(&q->list);
	free(q->limit);
	free(q->label);
}

static void queue_title(struct tui *t, struct view *v, struct row *r)
{
	struct queue *q = v->priv;
	/* The configured query is long and the same every day: name only
	 * what narrows it. */
	const char *query = q->label ? q->label : q->limit && *q->limit ? q->limit : "all reviews";
	struct cell *head, *tail, *mid;
	int room;

	head = row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s", ui_dash());
	mid = row_add(r, ROLE_TITLE, CELL_NATURAL, query);
	tail = row_addf(r, ROLE_TITLE, CELL_NATURAL, "%s %zu review%s", ui_dash(), q->list.n,
			q->list.n == 1 ? "" : "s");
	/* The count matters more than the end of a long query: clip the
	 * query, not the count. */
	room = COLS - text_width(head->text) - text_width(tail->text) - 3;
	if (text_width(query) > room)
		mid->width = room > 1 ? room : 1;
}

/* "Name" of "Name <addr>"; the address when there is no name. */
static void short_name(const char *from, char *out, size_t size)
{
	const char *lt = strchr(from, '<');
	size_t n;

	if (lt && lt > from) {
		n = (size_t) (lt - from);
		while (n && (from[n - 1] == ' ' || from[n - 1] == '"'))
			n--;
		if (*from == '"') {
			from++;
			n = n ? n - 1 : 0;
		}
	} else if (lt) {
		from = lt + 1;
		n = strcspn(from, ">");
	} else {
		n = strlen(from);
	}
	if (n >= size)
		n = size - 1;
	memcpy(out, from, n);
	out[n] = '\0';
}

/* "5: 2u 1v 1f 1p": findings, then how many have each verdict; zero
 * counts dimmed so the ones that matter stand out. */
static void add_counts(struct row *r, const wn_item *it, unsigned total)
{
	static const char verdict_letter[WN_VERDICT_COUNT] = { 'u', 'v', 'f', 'p' };
	struct cell *c = row_addf(r, ROLE_NCOUNT, 3, "%u:", total);

	c->right = true;
	c->pad = 0;
	if (!total)
		c->extra = TA_DIM;
	for (int k = 0; k < WN_VERDICT_COUNT; k++) {
		c = row_addf(r, it->counts[k] ? role_of_verdict((wn_verdict) k) : ROLE_DEFAULT,
			     3, "%u%c", it->counts[k], verdict_letter[k]);
		c->right = true;
		c->pad = 0;
		if (!it->counts[k])
			c->extra = TA_DIM;
	}
	c->pad = 1;
}

static void queue_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct queue *q = v->priv;
	wn_item *it = wn_list_get(t->idx, &q->list, i);
	int author_w = COLS >= 120 ? 18 : COLS >= 100 ? 14 : 0;
	struct cell *c;
	char date[16];
	unsigned total = 0;
	bool optout;

	if (!it) {
		row_add(r, ROLE_ERROR, CELL_FLEX, "(this review left the index; press l and Enter to reload)");
		return;
	}
	tui_load(t, it);
	format_date(it->date, date);
	row_addf(r, ROLE_DATE, 10, "%s", date);
	if (!it->loaded) {
		row_add(r, ROLE_ERROR, CELL_FLEX, it->subject);
		return;
	}
	row_add(r, ROLE_BOT, COLS >= 70 ? 9 : 7, wn_bot_label(it->bot));
	if (it->patch && it->patch->trailers) {
		wn_attr_status a = it->patch->trailers->attr.status;

		row_addf(r, role_of_attr(a), 3, "[%s]", wn_attr_badge(a));
	} else {
		row_add(r, ROLE_A_NONE, 3, "[ ]");
	}
	for (int k = 0; k < WN_VERDICT_COUNT; k++)
		total += it->counts[k];
	if (it->load_error)
		row_add(r, ROLE_ERROR, COLS >= 70 ? 15 : 5, "");
	else if (COLS >= 70)
		add_counts(r, it, total);
	else
		/* Narrow: what is left to do, of how many. */
		row_addf(r, it->counts[WN_VERDICT_UNTRIAGED] ? ROLE_V_UNTRIAGED : ROLE_DEFAULT, 5,
			 "%u/%u", it->counts[WN_VERDICT_UNTRIAGED], total)->right = true;
	/* "!" before an author who opted out of bot findings. */
	optout = it->patch && wn_forward_opted_out(wn_index_conf(t->idx), it->patch->author);
	if (optout && !author_w)
		row_add(r, ROLE_WARNING, CELL_NATURAL, "!")->pad = 0;
	if (author_w) {
		c = row_add(r, optout ? ROLE_WARNING : ROLE_AUTHOR, author_w, NULL);
		if (optout)
			c->own[0] = '!';
		if (it->patch && it->patch->author)
			short_name(it->patch->author, c->own + optout, sizeof(c->own) - optout);
		c->text = c->own;
	}
	if (it->load_error) {
		row_add(r, ROLE_ERROR, CELL_NATURAL, "cannot read the mail:");
		row_add(r, ROLE_ERROR, CELL_FLEX, it->load_error);
	} else
		row_add(r, ROLE_SUBJECT, CELL_FLEX, it->patch ? it->patch->subject : it->subject);
}

static bool has(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle);
}

/* Search what the row shows, from the index alone when the review was
 * not read yet, so a search does not read every mail. */
static bool queue_match(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct queue *q = v->priv;
	wn_item *it = wn_list_get(t->idx, &q->list, i);

	if (!it)
		return false;
	if (has(it->subject, needle) || has(it->from, needle))
		return true;
	if (!it->loaded)
		return false;
	return has(wn_bot_label(it->bot), needle) ||
	       (it->patch && (has(it->patch->subject, needle) || has(it->patch->author, needle)));
}

static wn_item *current(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;

	return wn_list_get(t->idx, &q->list, v->cursor);
}

static void mark_all(struct tui *t, struct view *v, wn_verdict verdict)
{
	wn_item *it = current(t, v);
	wn_buf question = WN_BUF_INIT;
	size_t n;
	bool yes;

	if (!it)
		return;
	tui_load(t, it);
	if (!it->loaded || it->load_error) {
		tui_msg(t, ROLE_ERROR, "cannot mark: the review could not be read");
		return;
	}
	n = it->review->nfindings;
	if (!n) {
		tui_msg(t, ROLE_WARNING, "this review has no findings to mark");
		return;
	}
	if (verdict == WN_VERDICT_UNTRIAGED)
		wn_buf_printf(&question, "Clear the verdicts of all %zu finding%s of this review?",
			      n, n == 1 ? "" : "s");
	else
		wn_buf_printf(&question, "Mark all %zu finding%s of this review %s?", n,
			      n == 1 ? "" : "s", wn_verdict_name(verdict));
	yes = prompt_yesno(t, wn_buf_str(&question));
	wn_buf_free(&question);
	if (!yes) {
		tui_msg(t, ROLE_STATUS, "nothing marked");
		return;
	}
	if (!tui_mark(t, it, 0, verdict))
		return;
	if (!t->msg.len)
		tui_msg(t, ROLE_STATUS, "marked %zu finding%s %s", n, n == 1 ? "" : "s",
			wn_verdict_name(verdict));
	/* mutt habit: after acting on an entry, move to the next. */
	view_goto(t, v, v->cursor + 1);
}

static void limit(struct tui *t, struct view *v)
{
	struct queue *q = v->priv;
	/* A labelled queue's query is no text to edit: start afresh. */
	char *s = prompt_line(t, "Limit to (notmuch query, empty for all): ", q->label ? NULL : q->limit);

	if (!s)
		return;
	wn_text_trim(s);
	if (run_query(t, q, s)) {
		free(q->label);
		q->label = NULL;
		v->lines = q->list.n;
		v->cursor = v->top = 0;
		t->rc = 0;
		if (*s)
			tui_msg(t, ROLE_STATUS, "limited to: %s", s);
		else
			tui_msg(t, ROLE_STATUS, "showing all reviews");
	}
	free(s);
}

static struct view_req queue_request(struct tui *t, struct view *v, enum action a)
{
	wn_verdict verdict;
	wn_item *it;

	if (tui_action_verdict(a, &verdict)) {
		mark_all(t, v, verdict);
		return req_done();
	}
	switch (a) {
	case ACT_OPEN:
		it = current(t, v);
		if (!it) {
			tui_msg(t, ROLE_WARNING, "no review here");
			return req_done();
		}
		tui_load(t, it);
		return it->loaded ? req_open(VIEW_REVIEW, it) : req_done();
	case ACT_LIMIT:
		limit(t, v);
		return req_done();
	default:
		return req_pass(a);
	}
}

/* After an undo: read the verdicts of the review msgid again, pending
 * changes laid over (views above share the item). */
static void queue_reload(struct tui *t, struct view *v, const char *msgid)
{
	struct queue *q = v->priv;

	/* Only rows already fetched can hold it loaded. */
	for (size_t i = 0; i < q->list.fetched; i++) {
		wn_item *it = q->list.items[i];

		if (strcmp(it->id, msgid) || !it->loaded)
			continue;
		tui_reload_verdicts(t, it);
		break;
	}
}

const struct view_ops queue_ops = {
	.name = "queue",
	.priv_size = sizeof(struct queue),
	.open = queue_open,
	.done = queue_done,
	.title = queue_title,
	.row = queue_row,
	.request = queue_request,
	.match = queue_match,
	.reload = queue_reload,
	.hints = queue_hints,
};
