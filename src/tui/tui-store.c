/* winnow TUI — glue between the views and libwinnow's index and store:
 * reading a review when it comes into sight, giving verdicts, writing
 * them in the background, and the status-line message that reports how
 * it went.
 *
 * It sits below the views and the driver: they call it, it never calls
 * them (nor view.c), so a write's news reaches the screen only through
 * t->msg and t->locked. */
#include "autoconfig.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "winnow/text.h"
#include "view.h"

/* A write still pending after LOCK_GRACE_MS is waiting for another
 * process's lock: only then is the user told. */
#define LOCK_GRACE_MS 1000

long long tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void tui_msg(struct tui *t, enum role role, const char *fmt, ...)
{
	va_list ap;

	wn_buf_reset(&t->msg);
	va_start(ap, fmt);
	wn_buf_vprintf(&t->msg, fmt, ap);
	va_end(ap);
	/* Never half a message (or every later one lost: the failure
	 * sticks to the buffer until it is freed). */
	if (wn_buf_failed(&t->msg)) {
		wn_buf_free(&t->msg);
		wn_buf_puts(&t->msg, "out of memory");
		role = ROLE_ERROR;
	}
	t->msg_role = role;
	t->redraw = true;
}

void tui_progress(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	if (!fmt) {
		wn_buf_reset(&t->progress);
		t->progress_since = 0;
		return;
	}
	if (!t->progress_since)
		t->progress_since = tui_now_ms();
	t->redraw = true;
	wn_buf_reset(&t->progress);
	va_start(ap, fmt);
	wn_buf_vprintf(&t->progress, fmt, ap);
	va_end(ap);
	if (wn_buf_failed(&t->progress))
		wn_buf_free(&t->progress);	/* no progress shown, rather than half */
}

wn_status tui_flush(struct tui *t)
{
	wn_error err = WN_ERROR_INIT;
	wn_status st;

	if (!wn_store_pending(t->store)) {
		t->redraw |= t->locked;
		t->locked = false;
		t->pending_since = 0;
		return WN_OK;
	}
	/* Timeout 0: start or collect the background writer, never wait.
	 * The UI must not hang on another process's write lock; the
	 * journal keeps the verdicts safe meanwhile. */
	st = wn_store_flush(t->store, 0, &err);
	if (st == WN_OK) {
		const char *w = wn_store_warning(t->store);

		unsigned long rev;

		if (t->locked)
			tui_msg(t, ROLE_STATUS, "the index lock is free again: verdicts written");
		/* The revision our write made is no news to the views. */
		if (wn_index_revision(t->idx, &rev, &err) == WN_OK && rev != t->rev)
			t->rev = t->own_rev = rev;
		/* The writer's own news (a review that left the index) must
		 * reach the user, once. */
		if (w && (!t->warned || strcmp(w, t->warned) != 0)) {
			tui_msg(t, ROLE_WARNING, "%s", w);
			free(t->warned);
			t->warned = strdup(w);
		}
		t->locked = false;
		t->pending_since = 0;
	} else if (st == WN_LOCKED) {
		if (!t->pending_since)
			t->pending_since = tui_now_ms();
		else if (tui_now_ms() - t->pending_since >= LOCK_GRACE_MS)
			t->locked = t->redraw = true;
	} else {
		tui_msg(t, ROLE_ERROR, "writing verdicts failed: %s (they stay journaled)",
			wn_error_msg(&err));
	}
	wn_error_clear(&err);
	return st;
}

/* Mark with the reason when one was given; without, any reason stays. */
static wn_status mark_targets(struct tui *t, const wn_mark_target *tg, size_t n, wn_verdict v,
			      wn_reason why, wn_error *err)
{
	if (why != WN_REASON_NONE)
		return wn_store_mark_why(t->store, tg, n, v, NULL, why, err);
	return wn_store_mark_many(t->store, tg, n, v, NULL, err);
}

bool tui_mark(struct tui *t, wn_item *it, size_t finding, wn_verdict v, wn_reason why)
{
	wn_error err = WN_ERROR_INIT;
	wn_mark_target tg = { it, finding };
	wn_status st = mark_targets(t, &tg, 1, v, why, &err);

	if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot mark: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	/* f twice writes once (and U still undoes the first). */
	if (!wn_store_last_changes(t->store)) {
		tui_msg(t, ROLE_STATUS, "nothing to change: %s %s already; nothing written",
			finding ? "the finding is" : "every finding is", wn_verdict_name(v));
		return true;
	}
	/* The driver passes it on to every view (view_ops.reload). */
	wn_buf_printf(&t->changed, "%s\n", it->id);
	tui_flush(t);
	if (why != WN_REASON_NONE && !t->msg.len)
		tui_msg(t, ROLE_STATUS, "marked %s, %s (%s)", wn_verdict_name(v), wn_reason_name(why),
			wn_reason_label(why));
	return true;
}

bool tui_mark_closed(struct tui *t, wn_item *it, size_t finding, wn_verdict v, const char *closed,
		     const char *what)
{
	wn_error err = WN_ERROR_INIT;
	wn_mark_spec spec = { .verdict = true, .v = v, .closed = closed };
	size_t n = it->review ? it->review->nfindings : 0, changed = 0;
	bool *pick = calloc(n ? n : 1, sizeof(*pick));

	if (!pick || !finding || finding > n) {
		free(pick);
		tui_msg(t, ROLE_ERROR, "cannot mark: %s",
			pick ? "no such finding" : "out of memory");
		return false;
	}
	pick[finding - 1] = true;
	if (wn_store_mark_picked(t->store, it, pick, &spec, &changed, &err) != WN_OK) {
		free(pick);
		tui_msg(t, ROLE_ERROR, "cannot mark: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	free(pick);
	if (!changed) {
		tui_msg(t, ROLE_STATUS,
			"nothing to change: the report is %s already; nothing written", what);
		return true;
	}
	wn_buf_printf(&t->changed, "%s\n", it->id);
	tui_flush(t);
	if (!t->msg.len)
		tui_msg(t, ROLE_STATUS, "marked %s (F tells the bot)", what);
	return true;
}

/* After reading it from the index: lay the verdicts still on their way
 * to notmuch over it, or say why it could not be read. */
static void after_read(struct tui *t, wn_item *it, wn_status st, wn_error *err)
{
	if (st != WN_OK)
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(err));
	else
		wn_store_overlay(t->store, it);
	wn_error_clear(err);
}

void tui_load(struct tui *t, wn_item *it)
{
	wn_error err = WN_ERROR_INIT;

	if (it->loaded)
		return;
	after_read(t, it, wn_index_load(t->idx, it, &err), &err);
}

void tui_reload_verdicts(struct tui *t, wn_item *it)
{
	wn_error err = WN_ERROR_INIT;

	after_read(t, it, wn_index_load_verdicts(t->idx, it, &err), &err);
}

void tui_say_verdict_keys(struct tui *t, const struct view *v)
{
	static const enum action marks[] = { ACT_MARK_VALID, ACT_MARK_FALSE, ACT_MARK_PRE,
					     ACT_MARK_UNTRIAGED };
	char keys[4][32];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (keymap_key_of(&t->keys, v->id, marks[i], keys[n], sizeof(keys[n])))
			n++;
	if (n == 4)
		tui_msg(t, ROLE_STATUS, "no bulk mark: ; wants %s, %s, %s or %s next", keys[0],
			keys[1], keys[2], keys[3]);
	else
		tui_msg(t, ROLE_STATUS, "no bulk mark: ; wants a verdict key next");
}

bool tui_action_verdict(enum action a, wn_verdict *out)
{
	switch (a) {
	case ACT_MARK_VALID:
		*out = WN_VERDICT_VALID;
		return true;
	case ACT_MARK_FALSE:
		*out = WN_VERDICT_FALSE_POSITIVE;
		return true;
	case ACT_MARK_PRE:
		*out = WN_VERDICT_PREEXISTING;
		return true;
	case ACT_MARK_UNTRIAGED:
		*out = WN_VERDICT_UNTRIAGED;
		return true;
	default:
		return false;
	}
}

bool tui_mark_many(struct tui *t, const wn_mark_target *tg, size_t n, wn_verdict v,
		   wn_reason why, const char *what)
{
	wn_error err = WN_ERROR_INIT;

	if (!n) {
		tui_msg(t, ROLE_WARNING, "nothing to mark among the selected rows");
		return false;
	}
	if (mark_targets(t, tg, n, v, why, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot mark: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	if (!wn_store_last_changes(t->store)) {
		tui_msg(t, ROLE_STATUS, "nothing to change: the selected findings are %s already; "
			"nothing written", wn_verdict_name(v));
		return true;
	}
	/* Every view hears of the reviews changed (the statistics count). */
	for (size_t i = 0; i < n; i++)
		wn_buf_printf(&t->changed, "%s\n", tg[i].it->id);
	tui_flush(t);
	if (!t->msg.len)
		tui_msg(t, ROLE_STATUS, "marked %s %s (U undoes all of it)", what, wn_verdict_name(v));
	return true;
}

bool tui_note(struct tui *t, wn_item *it, size_t finding, const char *note)
{
	wn_error err = WN_ERROR_INIT;
	wn_verdict v = it->verdicts[finding - 1];

	if (wn_store_mark(t->store, it, finding, v, note, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot save the note: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	if (!wn_store_last_changes(t->store)) {
		tui_msg(t, ROLE_STATUS, "the note is as it was; nothing written");
		return true;
	}
	wn_buf_printf(&t->changed, "%s\n", it->id);
	tui_flush(t);
	return true;
}

/* The finding of it with fingerprint fp, 1-based; 0 when none. */
static int finding_of(const wn_item *it, const char *fp)
{
	for (size_t i = 0; fp && it->review && i < it->review->nfindings; i++)
		if (!strcmp(it->review->findings[i].fingerprint, fp))
			return it->review->findings[i].index;
	return 0;
}

/* ", finding 2 keeps its newer decision (false-positive)": what an undo
 * left as another change made it since. */
static void say_kept(struct tui *t, const wn_history_item *h, const wn_item *it, wn_buf *b)
{
	wn_item *other = NULL;
	const char *now;
	int k = 0;

	if (!h->kept || !h->kept_review)
		return;
	if (it && !strcmp(it->id, h->kept_review))
		k = finding_of(it, h->kept_fp);
	else if (wn_index_find(t->idx, h->kept_review, &other, NULL) == WN_OK)
		k = finding_of(other, h->kept_fp);
	wn_item_free(&other);
	now = h->severity ? (wn_severity_name(h->kept_sev) ? wn_severity_name(h->kept_sev) : "none")
			  : wn_verdict_name(h->kept_v);
	if (k)
		wn_buf_printf(b, "finding %d", k);
	else
		wn_buf_puts(b, "a finding");
	wn_buf_printf(b, " was changed since (now %s)%s: that newer decision is kept", now,
		      h->kept > 1 ? ", and more" : "");
}

void tui_undone(struct tui *t, const wn_history_item *h)
{
	wn_error err = WN_ERROR_INIT;
	/* The undo's own change: what the finding was, what it is again. */
	wn_verdict from = h->is_undo ? h->from : h->to, to = h->is_undo ? h->to : h->from;
	wn_item *it = NULL;
	wn_buf b = WN_BUF_INIT;
	bool found = wn_index_find(t->idx, h->review, &it, &err) == WN_OK;

	if (h->kept && !h->reverted) {
		/* Nothing went back: say so, and what stands instead. */
		wn_buf_puts(&b, "nothing undone: ");
		say_kept(t, h, found ? it : NULL, &b);
	} else if (found) {
		int k = finding_of(it, h->fp);

		wn_buf_puts(&b, "undid ");
		if (k)
			wn_buf_printf(&b, "finding %d", k);
		else
			wn_buf_puts(&b, "a finding");
		if (h->note && from == to)
			wn_buf_puts(&b, h->is_undo ? " note back as it was" : " note");
		else if (h->reason && from == to)
			wn_buf_puts(&b, h->is_undo ? " reason back as it was" : " reason");
		else
			wn_buf_printf(&b, " %s %s %s", wn_verdict_name(from),
				      display_utf8() ? "\u2192" : "->", wn_verdict_name(to));
		if (h->changes > 1)
			wn_buf_printf(&b, " and %zu more", h->changes - 1);
		if (h->reviews > 1)
			wn_buf_printf(&b, " in %zu reviews", h->reviews);
		wn_buf_printf(&b, ": %s", it->patch ? it->patch->subject : it->subject);
	} else {
		wn_buf_printf(&b, "undid %zu change%s of <%s>", h->changes, h->changes == 1 ? "" : "s",
			      h->review);
	}
	if (h->kept && h->reverted) {
		wn_buf_puts(&b, "; ");
		say_kept(t, h, found ? it : NULL, &b);
	}
	tui_msg(t, h->kept ? ROLE_WARNING : ROLE_STATUS, "%s",
		wn_buf_failed(&b) ? "undo: done, but out of memory to say what" : wn_buf_str(&b));
	wn_buf_free(&b);
	wn_item_free(&it);
	wn_error_clear(&err);
	free(t->focus_id);
	free(t->focus_fp);
	t->focus_id = wn_strdup0(h->kept && !h->reverted ? h->kept_review : h->review);
	t->focus_fp = wn_strdup0(h->kept && !h->reverted ? h->kept_fp : h->fp);
	t->undone = true;
	tui_flush(t);
}

/* U: the newest change of this interface, or one made before it
 * started; never one another program made while it runs (its screen
 * may not have shown it: H reaches it). */
bool tui_undo_last(struct tui *t)
{
	wn_error err = WN_ERROR_INIT;
	wn_history_item what = { 0 };
	wn_status st = wn_store_undo_last(t->store, &what, &err);
	bool ok = false;

	if (st == WN_NOT_FOUND) {
		tui_msg(t, ROLE_STATUS, "nothing to undo");
	} else if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "undo failed: %s", wn_error_msg(&err));
	} else {
		tui_undone(t, &what);
		ok = what.reverted > 0;
	}
	wn_history_item_clear(&what);
	wn_error_clear(&err);
	return ok;
}

/* The finding fp of review id as "finding 2" (or "a finding"). */
static void put_finding(struct tui *t, const char *id, const char *fp, wn_buf *b)
{
	wn_item *it = NULL;
	int k = 0;

	if (id && wn_index_find(t->idx, id, &it, NULL) == WN_OK)
		k = finding_of(it, fp);
	wn_item_free(&it);
	if (k)
		wn_buf_printf(b, "finding %d", k);
	else
		wn_buf_puts(b, "a finding");
}

bool tui_redo_last(struct tui *t)
{
	wn_error err = WN_ERROR_INIT;
	wn_history_item what = { 0 };
	wn_status st = wn_store_redo(t->store, &what, &err);
	wn_buf b = WN_BUF_INIT;
	wn_item *it = NULL;

	if (st == WN_NOT_FOUND) {
		tui_msg(t, ROLE_STATUS, "nothing to redo");
	} else if (st == WN_USAGE && what.kept) {
		wn_buf_puts(&b, "not redone: ");
		put_finding(t, what.kept_review, what.kept_fp, &b);
		wn_buf_puts(&b, " was changed since the undo; nothing written");
	} else if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "redo failed: %s", wn_error_msg(&err));
	} else {
		wn_buf_printf(&b, "redid %zu change%s (", what.actions, what.actions == 1 ? "" : "s");
		put_finding(t, what.review, what.fp, &b);
		if (what.reverted > 1)
			wn_buf_printf(&b, " and %zu more", what.reverted - 1);
		wn_buf_puts(&b, ")");
		if (wn_index_find(t->idx, what.review, &it, NULL) == WN_OK)
			wn_buf_printf(&b, ": %s", it->patch ? it->patch->subject : it->subject);
		wn_item_free(&it);
		free(t->focus_id);
		free(t->focus_fp);
		t->focus_id = wn_strdup0(what.review);
		t->focus_fp = wn_strdup0(what.fp);
		/* The driver has every view read the verdicts again. */
		t->undone = true;
		tui_flush(t);
	}
	if (b.len || wn_buf_failed(&b))
		tui_msg(t, st == WN_OK ? ROLE_STATUS : ROLE_WARNING, "%s",
			wn_buf_failed(&b) ? "redo: out of memory to say how it went" : wn_buf_str(&b));
	wn_buf_free(&b);
	wn_history_item_clear(&what);
	wn_error_clear(&err);
	return st == WN_OK;
}

void tui_missed(struct tui *t, wn_item *it, char *note)
{
	wn_error err = WN_ERROR_INIT;

	if (note)
		wn_text_trim(note);
	if (!note || !*note) {
		tui_msg(t, ROLE_STATUS, "nothing recorded");
		free(note);
		return;
	}
	if (wn_store_missed(t->store, it, note, time(NULL), &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot record it: %s", wn_error_msg(&err));
		wn_error_clear(&err);
	} else {
		wn_buf_printf(&t->changed, "%s\n", it->id);
		tui_flush(t);
		if (!t->msg.len)
			tui_msg(t, ROLE_STATUS, "recorded: %s missed %zu bug%s on this review",
				wn_bot_label(it->bot), it->nmisses, it->nmisses == 1 ? "" : "s");
	}
	free(note);
}
