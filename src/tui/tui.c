/* winnow TUI — entry point and main loop. */
#include "autoconfig.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "winnow/text.h"
#include "view.h"

/* The loop wakes every TICK_MS to notice signals, and every BUSY_MS
 * while a write is on its way to collect it (tui_flush). */
#define TICK_MS 1000
#define BUSY_MS 100
#define QUIT_WAIT_MS 2000

/* Next key, or 0 on a timeout or a signal.  Function keys are tagged with
 * KEYMAP_FN; KEY_RESIZE comes back as KEYMAP_FN(KEY_RESIZE). */
static int read_key(void)
{
	wint_t wc;
	int r = get_wch(&wc);

	if (r == ERR)
		return 0;
	if (r == KEY_CODE_YES)
		return KEYMAP_FN((int) wc);
	return (int) wc;
}

static void show_theme_errors(struct tui *t)
{
	const struct theme_errors *e = &t->theme.errors;

	if (!e->n)
		return;
	if (e->n == 1)
		tui_msg(t, ROLE_ERROR, "theme: %s", e->msg[0]);
	else
		tui_msg(t, ROLE_ERROR, "theme: %s (and %zu more)", e->msg[0], e->n - 1);
}

static void loop(struct tui *t)
{
	while (!t->quit && t->depth) {
		struct view *v;
		enum action a;
		int key;

		view_draw(t);
		refresh();
		timeout(wn_store_pending(t->store) ? BUSY_MS : TICK_MS);
		key = read_key();
		if (display_signal())
			break;
		if (key == 0) {
			/* Idle tick: collect or restart the writer. */
			tui_flush(t);
			continue;
		}
		if (key == KEYMAP_FN(KEY_RESIZE))
			continue;
		wn_buf_reset(&t->msg);
		tui_flush(t);
		a = keymap_lookup(&t->keys, key);
		v = view_top(t);
		if (a == ACT_NONE) {
			tui_msg(t, ROLE_WARNING, "key not bound: press ? for help");
			continue;
		}
		if (!v->ops->request || !v->ops->request(t, v, a))
			view_request(t, v, a);
	}
}

int wn_tui_run(wn_index *idx, wn_store *store, const char *query)
{
	struct tui t;
	const wn_conf *conf = wn_index_conf(idx);
	const char *why = NULL;
	size_t pending;
	int rc = 0, sig;

	memset(&t, 0, sizeof(t));
	t.idx = idx;
	t.store = store;
	wn_buf_reset(&t.msg);
	theme_init(&t.theme);
	theme_load(&t.theme, conf ? conf->theme : NULL);
	if (!keymap_init(&t.keys)) {
		fprintf(stderr, "winnow: cannot set up the keymap\n");
		rc = 2;
		goto out;
	}
	/* Query before taking over the screen: a bad query is reported on a
	 * clean terminal. */
	if (!view_push(&t, &queue_ops, (void *) (query && *query ? query : NULL))) {
		char *clean = wn_text_sanitize(t.msg.len ? wn_buf_str(&t.msg) : "cannot open the queue", 0);

		fprintf(stderr, "winnow: %s\n", clean ? clean : "cannot open the queue");
		free(clean);
		rc = t.rc ? t.rc : 2;
		goto out;
	}
	if (!display_init(&why)) {
		fprintf(stderr, "winnow: %s\n", why);
		rc = 2;
		goto out;
	}
	theme_apply(&t.theme);
	bkgdset(theme_attr(&t.theme, ROLE_DEFAULT) | ' ');
	show_theme_errors(&t);
	/* The journal's warning matters more than a theme's: shown last. */
	if (wn_store_warning(store)) {
		tui_msg(&t, ROLE_WARNING, "%s", wn_store_warning(store));
		t.warned = strdup(wn_store_warning(store));
	}
	loop(&t);
	display_end();
	/* Give a write in flight a moment to land; whatever does not stays
	 * in the journal for the next run. */
	if (wn_store_pending(store)) {
		wn_error err = WN_ERROR_INIT;

		wn_store_flush(store, QUIT_WAIT_MS, &err);
		wn_error_clear(&err);
	}

	sig = display_signal();
	if (sig)
		rc = 128 + sig;
	pending = wn_store_pending(store);
	if (pending)
		fprintf(stderr, "winnow: %zu verdict%s waiting for the notmuch write lock;"
			" kept in %s, written by the next winnow run\n",
			pending, pending == 1 ? " is" : "s are", wn_store_journal_path(store));
out:
	while (t.depth)
		view_pop(&t);
	keymap_free(&t.keys);
	theme_free(&t.theme);
	wn_buf_free(&t.msg);
	free(t.search);
	free(t.warned);
	return rc;
}
