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

#include "view.h"

/* A write still pending after LOCK_GRACE_MS is waiting for another
 * process's lock: only then is the user told. */
#define LOCK_GRACE_MS 1000

static long long now_ms(void)
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
	t->msg_role = role;
}

wn_status tui_flush(struct tui *t)
{
	wn_error err = WN_ERROR_INIT;
	wn_status st;

	if (!wn_store_pending(t->store)) {
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

		if (t->locked)
			tui_msg(t, ROLE_STATUS, "the index lock is free again: verdicts written");
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
			t->pending_since = now_ms();
		else if (now_ms() - t->pending_since >= LOCK_GRACE_MS)
			t->locked = true;
	} else {
		tui_msg(t, ROLE_ERROR, "writing verdicts failed: %s (they stay journaled)",
			wn_error_msg(&err));
	}
	wn_error_clear(&err);
	return st;
}

bool tui_mark(struct tui *t, wn_item *it, size_t finding, wn_verdict v)
{
	wn_error err = WN_ERROR_INIT;
	wn_status st = wn_store_mark(t->store, it, finding, v, NULL, &err);

	if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot mark: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	/* The driver passes it on to every view (view_ops.reload). */
	wn_buf_printf(&t->changed, "%s\n", it->id);
	tui_flush(t);
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
