/* winnow TUI — the history (H): the journal's actions, newest first
 * (when, what changed, in which review), as the store lists them; Enter
 * or U undoes the one under the cursor, whichever it is, and says what
 * it undid, the other views moving to that review and finding. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view.h"
#include "winnow/text.h"

struct history {
	wn_history_item *h;
	size_t n;
	char **subject;		/* of each action's review, read when shown */
};

static const struct hint history_hints[] = {
	{ ACT_BACK, "back" }, { ACT_OPEN, "undo this" }, { ACT_SEARCH, "search" },
	{ ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

static void history_clear(struct history *hs)
{
	for (size_t i = 0; hs->subject && i < hs->n; i++)
		free(hs->subject[i]);
	free(hs->subject);
	hs->subject = NULL;
	wn_history_free(&hs->h, hs->n);
	hs->n = 0;
}

static bool history_read(struct tui *t, struct view *v)
{
	struct history *hs = v->priv;
	wn_error err = WN_ERROR_INIT;

	history_clear(hs);
	if (wn_store_history(t->store, &hs->h, &hs->n, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot read the journal: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	hs->subject = calloc(hs->n ? hs->n : 1, sizeof(*hs->subject));
	v->lines = hs->n;
	return true;
}

static bool history_open(struct tui *t, struct view *v, void *arg)
{
	if (!history_read(t, v))
		return false;
	if (!v->lines)
		tui_msg(t, ROLE_STATUS, "no changes in the journal yet");
	return true;
}

static void history_done(struct tui *t, struct view *v)
{
	history_clear(v->priv);
}

static void history_title(struct tui *t, struct view *v, struct row *r)
{
	struct history *hs = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s history %s %zu change%s, newest first",
		 ui_dash(), ui_dash(), hs->n, hs->n == 1 ? "" : "s");
	row_add(r, ROLE_TITLE, CELL_FLEX, "");
}

/* A verdict in w columns: its name, or a short form when narrow. */
static const char *verdict_word(wn_verdict v, bool narrow)
{
	static const char *const brief[WN_VERDICT_COUNT] = {
		"untriaged", "valid", "false-pos", "pre-exist",
	};

	return narrow && (unsigned) v < WN_VERDICT_COUNT ? brief[v] : wn_verdict_name(v);
}

static void history_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct history *hs = v->priv;
	const wn_history_item *h = &hs->h[i];
	unsigned dim = h->undone ? TA_DIM : 0;
	bool narrow = COLS < 120, note_only = (h->note || h->reason) && h->from == h->to;
	int vw = narrow ? 9 : 14;
	char when[32] = "";
	struct tm tm;
	struct cell *c;

	if (h->when && localtime_r(&h->when, &tm))
		strftime(when, sizeof(when), narrow ? "%m-%d %H:%M" : "%Y-%m-%d %H:%M", &tm);
	if (hs->subject && !hs->subject[i])
		hs->subject[i] = wn_index_subject(t->idx, h->review);
	/* Copied into the cell: when is gone once the row is drawn. */
	row_addf(r, ROLE_DATE, narrow ? 11 : 16, "%s", when)->extra = dim;
	row_add(r, h->is_undo ? ROLE_HEADER : ROLE_A_NONE, 6,
		h->is_undo ? "undo" : h->undone ? "undone" : "")->extra = dim;
	if (note_only) {
		row_add(r, ROLE_HEADER, 2 * vw + 4, h->note ? "note" : "reason")->extra = dim;
	} else {
		c = row_add(r, role_of_verdict(h->from), vw, verdict_word(h->from, narrow));
		c->right = true;
		c->extra = dim;
		row_add(r, ROLE_DEFAULT, 2, display_utf8() ? "\u2192" : "->")->extra = dim;
		row_addf(r, role_of_verdict(h->to), vw, "%s", verdict_word(h->to, narrow))->extra = dim;
	}
	c = row_add(r, ROLE_NCOUNT, narrow ? 11 : 12, NULL);
	c->text = c->own;
	if (h->reviews <= 1)
		snprintf(c->own, sizeof(c->own), "%zu finding%s", h->changes, h->changes == 1 ? "" : "s");
	else
		snprintf(c->own, sizeof(c->own), "%zu in %zu rev.", h->changes, h->reviews);
	c->extra = dim;
	row_add(r, ROLE_SUBJECT, CELL_FLEX, hs->subject && hs->subject[i] ? hs->subject[i]
									   : h->review)->extra = dim;
}

static bool history_match(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct history *hs = v->priv;

	return (hs->subject && hs->subject[i] && wn_text_find_ci(hs->subject[i], needle)) ||
	       wn_text_find_ci(hs->h[i].review, needle);
}

/* Undo the action under the cursor, whichever it is. */
static void undo_this(struct tui *t, struct view *v)
{
	struct history *hs = v->priv;
	wn_history_item what;
	wn_error err = WN_ERROR_INIT;
	size_t at = v->cursor;

	if (!hs->n) {
		tui_msg(t, ROLE_STATUS, "no changes in the journal yet");
		return;
	}
	if (hs->h[at].undone || hs->h[at].is_undo) {
		tui_msg(t, ROLE_WARNING, "%s", hs->h[at].is_undo ? "an undo is undone by undoing what it undid"
								 : "this change is undone already");
		return;
	}
	memset(&what, 0, sizeof(what));
	if (wn_store_undo_group(t->store, hs->h[at].group, &what, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "undo failed: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return;
	}
	tui_undone(t, &what);
	/* The undo is the newest action now: the row moved down by one
	 * (an undo that changed nothing journaled nothing). */
	if (what.reverted)
		at++;
	wn_history_item_clear(&what);
	if (history_read(t, v))
		view_goto(t, v, at);
}

static struct view_req history_request(struct tui *t, struct view *v, enum action a)
{
	switch (a) {
	case ACT_OPEN:
	case ACT_UNDO:
		undo_this(t, v);
		return req_done();
	case ACT_HISTORY:
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action history_keys[] = {
	ACT_OPEN, ACT_UNDO, ACT_NONE,
};

const struct view_ops history_ops = {
	.name = "history",
	.priv_size = sizeof(struct history),
	.open = history_open,
	.done = history_done,
	.title = history_title,
	.row = history_row,
	.match = history_match,
	.request = history_request,
	.hints = history_hints,
	.keys = history_keys,
};
