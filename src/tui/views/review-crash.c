/* winnow TUI — a bug report's state in the review view (review-crash.h).
 *
 * Only a report of a bot that reads replies has one (its descriptor
 * says so: wn_forward_is_syz); the keys refuse on any other review.
 * The state is a verdict plus winnow.closed, one journal line, one U. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review-crash.h"
#include "winnow/forward.h"
#include "winnow/text.h"

/* As many as one key picks. */
#define PICK_MAX 9

static void mark_dup(struct tui *t, wn_item *it, size_t finding)
{
	wn_error err = WN_ERROR_INIT;
	wn_syz_candidate *v = NULL;
	char *rows[PICK_MAX] = { 0 }, *closed = NULL, *what = NULL;
	size_t n = 0;
	int k;

	if (wn_forward_syz_candidates(t->idx, it, PICK_MAX, &v, &n, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "no reports to choose from: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return;
	}
	if (!n) {
		tui_msg(t, ROLE_WARNING,
			"the index holds no other report of the bot: nothing to be a "
			"duplicate of");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!(rows[i] = wn_strdupf("%3u%%  %s", (v[i].match + 5) / 10, v[i].subject)))
			goto nomem;
	k = prompt_pick(t, "Duplicate of which report? (best title match first; Esc: none)", rows,
			n);
	if (k < 0) {
		tui_msg(t, ROLE_STATUS, "nothing marked");
		goto out;
	}
	if (!(closed = wn_strdupf("%s %s", wn_crash_kind(WN_CRASH_DUPLICATE), v[k].id)) ||
	    !(what = wn_strdupf("a duplicate of %s", v[k].subject)))
		goto nomem;
	if (!wn_closed_ok(closed))
		tui_msg(t, ROLE_ERROR,
			"the report's Message-ID is too long or holds a blank: it cannot be "
			"kept; nothing marked");
	else
		tui_mark_closed(t, it, finding, wn_crash_verdict(WN_CRASH_DUPLICATE), closed, what);
	goto out;
nomem:
	tui_msg(t, ROLE_ERROR, "out of memory: nothing marked");
out:
	for (size_t i = 0; i < n; i++)
		free(rows[i]);
	free(closed);
	free(what);
	wn_syz_candidates_free(&v, n);
}

/* The title typed, when no commit of winnow.tree names the report. */
static char *ask_title(struct tui *t, const char *why)
{
	char *label = wn_strdupf("%s: the fixing commit's exact title: ", why);
	char *title = label ? prompt_line(t, label, NULL) : NULL;

	free(label);
	if (!title || !*title) {
		tui_msg(t, ROLE_STATUS, "nothing marked");
		free(title);
		return NULL;
	}
	/* syzbot matches it byte for byte: refused, never mended. */
	if (!wn_fix_title_ok(title) || strlen(title) + 5 > WN_CLOSED_MAX) {
		tui_msg(t, ROLE_ERROR,
			"nothing marked: the bot could not get that title exactly (a blank "
			"at an end, a control character, over %d bytes)",
			WN_CLOSED_MAX - 5);
		free(title);
		return NULL;
	}
	return title;
}

static void mark_fixed(struct tui *t, wn_item *it, size_t finding)
{
	const wn_conf *c = wn_index_conf(t->idx);
	wn_error err = WN_ERROR_INIT;
	char *hash = NULL, *title = NULL, *closed = NULL, *what = NULL;
	const char *why = "winnow.tree is not set";
	wn_status st;

	if (c->tree && *c->tree) {
		st = wn_forward_syz_fix(t->idx, it, &hash, &err);
		/* A title that could not be sent is the reply's to refuse. */
		if (st != WN_OK && !(st == WN_PARSE && hash)) {
			free(hash);
			hash = NULL;
			why = "no commit of winnow.tree names it";
		}
	}
	if (!hash && !(title = ask_title(t, why)))
		goto out;
	if (hash)
		closed = wn_strdupf("%s %s", wn_crash_kind(WN_CRASH_FIXED), hash);
	else
		closed = wn_strdupf("%s %c%s", wn_crash_kind(WN_CRASH_FIXED), WN_CLOSED_TITLE,
				    title);
	what = hash ? wn_strdupf("fixed by %.12s", hash) : wn_strdupf("fixed by \"%s\"", title);
	if (!closed || !what)
		tui_msg(t, ROLE_ERROR, "out of memory: nothing marked");
	else
		tui_mark_closed(t, it, finding, wn_crash_verdict(WN_CRASH_FIXED), closed, what);
out:
	wn_error_clear(&err);
	free(hash);
	free(title);
	free(closed);
	free(what);
}

bool review_crash_request(struct tui *t, wn_item *it, size_t i, enum action a)
{
	wn_crash c = a == ACT_MARK_REAL	     ? WN_CRASH_REAL :
		     a == ACT_MARK_INVALID   ? WN_CRASH_INVALID :
		     a == ACT_MARK_DUPLICATE ? WN_CRASH_DUPLICATE :
		     a == ACT_MARK_FIXED     ? WN_CRASH_FIXED :
					       WN_CRASH_NONE;

	if (c == WN_CRASH_NONE)
		return false;
	if (!wn_forward_is_syz(it)) {
		tui_msg(t, ROLE_WARNING,
			"%s marks a bug report of a bot that reads replies; this is a "
			"review: v, f or p",
			action_name(a));
		return true;
	}
	if (!it->review || i >= it->review->nfindings)
		tui_msg(t, ROLE_WARNING, "this report has no finding to mark");
	else if (c == WN_CRASH_DUPLICATE)
		mark_dup(t, it, i + 1);
	else if (c == WN_CRASH_FIXED)
		mark_fixed(t, it, i + 1);
	else
		tui_mark_closed(t, it, i + 1, wn_crash_verdict(c), "",
				c == WN_CRASH_REAL ? "a real bug" : wn_crash_label(c));
	return true;
}

char *review_crash_state(struct tui *t, const wn_item *it, size_t i)
{
	const char *what = NULL;
	char *other = NULL, *out;
	wn_crash c;

	if (!wn_forward_is_syz(it) || !it->verdicts || !it->review || i >= it->review->nfindings)
		return NULL;
	c = wn_crash_of(it->verdicts[i], it->closed ? it->closed[i] : NULL, &what);
	if (c == WN_CRASH_NONE)
		return NULL;
	if (wn_closed_title(c, what))
		return wn_strdupf("%s \"%s\"", wn_crash_label(c), wn_closed_title(c, what));
	/* The other report by its subject, as the reply will name it. */
	if (c == WN_CRASH_DUPLICATE && what)
		other = wn_index_subject(t->idx, what);
	out = wn_strdupf("%s%s%s", wn_crash_label(c), what ? " " : "",
			 other ? other :
			 what  ? what :
				 "");
	free(other);
	return out;
}
