/* winnow TUI — the driver: entry point, main loop, the view table and
 * the view stack, and every action no view takes for itself (moving,
 * searching, undo, sync, help, back, quit), as tig's view_driver in
 * tig.c.  The only file that knows every view; see view.h for the
 * layers below it. */
#include "autoconfig.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "winnow/text.h"
#include "script.h"
#include "view.h"

/* The loop wakes every TICK_MS to notice signals, and every BUSY_MS
 * while a write is on its way to collect it (tui_flush). */
#define TICK_MS 1000
#define BUSY_MS 100
/* The first screen, once drawn, is the terminal's to show before the
 * background work (the whole list counted, an order) takes the CPU:
 * begun at once, on a 2-core machine it kept tmux from the screen for a
 * scheduler's slice in half the runs (12 ms to the first screen became
 * 20-32 ms, at 300,000 messages and a million alike).  A key ends the
 * wait at once. */
#define FIRST_SCREEN_MS 20
#define QUIT_WAIT_MS 2000

/* --- the view table and the stack ------------------------------------ */

static const struct view_ops *const views[VIEW_COUNT] = {
#define TUI_X_(e, ops) [VIEW_##e] = &ops,
	TUI_VIEWS(TUI_X_)
#undef TUI_X_
};


static void view_free(struct view *v)
{
	free(v->priv);
	free(v);
}

/* Push a new view; false when open failed (nothing pushed). */
static bool push(struct tui *t, enum view_id id, void *arg)
{
	const struct view_ops *ops = views[id];
	struct view *v;

	if (t->depth >= VIEW_MAX)
		return false;
	v = calloc(1, sizeof(*v));
	if (v && ops->priv_size)
		v->priv = calloc(1, ops->priv_size);
	if (!v || (ops->priv_size && !v->priv)) {
		free(v);
		tui_msg(t, ROLE_ERROR, "out of memory");
		return false;
	}
	v->ops = ops;
	v->id = id;
	if (!ops->open(t, v, arg)) {
		view_free(v);
		return false;
	}
	t->stack[t->depth++] = v;
	if (ops->select)
		ops->select(t, v);
	return true;
}

/* Pop and free the top view. */
static void pop(struct tui *t)
{
	struct view *v;

	if (!t->depth)
		return;
	v = t->stack[--t->depth];
	if (v->ops->done)
		v->ops->done(t, v);
	view_free(v);
}

/* Every view on the stack that shows verdicts reads those of msgid
 * again (they share the queue's items, so order does not matter). */
static void reload(struct tui *t, const char *msgid)
{
	for (int i = 0; i < t->depth; i++) {
		struct view *v = t->stack[i];

		if (v->ops->reload)
			v->ops->reload(t, v, msgid);
	}
}

/* The reviews a mark changed since the last key, to every view. */
static void reload_changed(struct tui *t)
{
	bool lost = wn_buf_failed(&t->changed);
	char *ids = wn_buf_steal(&t->changed);

	/* Some ids never made it into the list: say which views may be
	 * stale rather than show them as if current. */
	if (lost)
		tui_msg(t, ROLE_ERROR, "out of memory: the views may miss a change; R reads the queue again");
	for (char *id = ids, *nl; id && (nl = strchr(id, '\n')); id = nl + 1) {
		*nl = '\0';
		reload(t, id);
	}
	free(ids);
}

/* --- searching ------------------------------------------------------- */

static bool row_matches(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct row r = { .n = 0 };
	wn_buf b = WN_BUF_INIT;
	bool hit;

	if (v->ops->match)
		return v->ops->match(t, v, i, needle);
	v->ops->row(t, v, i, &r);
	for (int k = 0; k < r.n; k++) {
		wn_buf_puts(&b, r.c[k].text);
		wn_buf_putc(&b, ' ');
	}
	if (!b.data)
		return false;
	hit = wn_text_find_ci(b.data, needle);
	wn_buf_free(&b);
	return hit;
}

static void search(struct tui *t, struct view *v, bool forward)
{
	if (!t->search || !*t->search) {
		tui_msg(t, ROLE_WARNING, "no search yet: press / first");
		return;
	}
	for (size_t step = 1; step <= v->lines; step++) {
		size_t i = forward ? (v->cursor + step) % v->lines
				   : (v->cursor + v->lines - step) % v->lines;

		if (row_matches(t, v, i, t->search)) {
			bool wrapped = forward ? i <= v->cursor : i >= v->cursor;

			view_goto(t, v, i);
			if (wrapped)
				tui_msg(t, ROLE_STATUS, "search wrapped to %s", forward ? "top" : "bottom");
			return;
		}
	}
	tui_msg(t, ROLE_WARNING, "not found: %s", t->search);
}

static void start_search(struct tui *t, struct view *v)
{
	char *s = prompt_line(t, "/", NULL);

	if (!s)
		return;
	if (*s) {
		free(t->search);
		t->search = s;
	} else {
		free(s);
	}
	search(t, v, true);
}

/* --- the generic actions --------------------------------------------- */

static void sync_now(struct tui *t)
{
	size_t n = wn_store_pending(t->store);

	if (tui_flush(t) == WN_OK)
		tui_msg(t, ROLE_STATUS, "the index is up to date");
	else if (!t->msg.len)
		tui_msg(t, ROLE_STATUS, "writing %zu verdict%s to the index", n, n == 1 ? "" : "s");
}

/* S: the statistics, one view of them: back down to it when it is on
 * the stack (its count goes on), else a new one on top. */
static void stats(struct tui *t)
{
	int i = t->depth;

	while (i > 0 && t->stack[i - 1]->ops != views[VIEW_STATS])
		i--;
	if (!i) {
		push(t, VIEW_STATS, NULL);
		return;
	}
	while (t->depth > i)
		pop(t);
}

static void dispatch(struct tui *t, enum action a);

/* l where the queue is not in front (a review, its diff, mail or
 * replies, the statistics, the history, help, a draft): back down to
 * the nearest queue, then its limit prompt, so that a query typed after
 * l is never read as keys ("from:..." marking a finding false positive
 * with its f).  Down first: the views above the queue show its items,
 * which a new limit frees.  A draft on the way is kept, as P keeps it. */
static void limit_from(struct tui *t)
{
	int i = t->depth;

	while (i > 0 && t->stack[i - 1]->ops != views[VIEW_QUEUE])
		i--;
	if (!i)
		return;
	while (t->depth > i)
		pop(t);
	dispatch(t, ACT_LIMIT);
}

/* The actions this driver does in every view (view_driver), whatever
 * view is in front. */
static const enum action driver_actions[] = {
	ACT_MOVE_DOWN, ACT_MOVE_UP, ACT_MOVE_FIRST, ACT_MOVE_LAST, ACT_PAGE_DOWN, ACT_PAGE_UP,
	ACT_SEARCH, ACT_SEARCH_NEXT, ACT_SEARCH_PREV, ACT_LIMIT, ACT_UNDO, ACT_HISTORY, ACT_SYNC,
	ACT_STATS, ACT_REDRAW, ACT_HELP, ACT_BACK, ACT_QUIT,
};

/* ?: the help, the keys of the view in front first, then the shared
 * ones: the driver's, and any action no view takes as its own (a new
 * one is listed before a view claims it, never lost). */
static void help(struct tui *t)
{
	struct help_arg arg;

	for (int a = 0; a < ACT_COUNT; a++)
		arg.shared[a] = a != ACT_NONE;
	for (int i = 0; i < VIEW_COUNT; i++)
		for (const enum action *k = views[i] ? views[i]->keys : NULL; k && *k; k++)
			arg.shared[*k] = false;
	for (size_t i = 0; i < sizeof(driver_actions) / sizeof(driver_actions[0]); i++)
		arg.shared[driver_actions[i]] = true;
	push(t, VIEW_HELP, &arg);
}

/* An action the top view v left to the driver. */
static void view_driver(struct tui *t, struct view *v, enum action a)
{
	if (view_move(t, v, a))
		return;
	switch (a) {
	case ACT_BACK:
		pop(t);
		if (!t->depth)
			t->quit = true;
		break;
	case ACT_QUIT:
		t->quit = true;
		break;
	case ACT_HELP:
		if (v->ops != views[VIEW_HELP])
			help(t);
		break;
	case ACT_STATS:
		stats(t);
		break;
	case ACT_SEARCH:
		start_search(t, v);
		break;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		search(t, v, a == ACT_SEARCH_NEXT);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_UNDO:
		tui_undo_last(t);
		break;
	case ACT_REDO:
		tui_redo_last(t);
		break;
	case ACT_HISTORY:
		if (v->ops != views[VIEW_HISTORY])
			push(t, VIEW_HISTORY, NULL);
		break;
	case ACT_SYNC:
		sync_now(t);
		break;
	case ACT_MARK_VALID:
	case ACT_MARK_FALSE:
	case ACT_MARK_PRE:
	case ACT_MARK_REAL:
	case ACT_MARK_INVALID:
	case ACT_MARK_DUPLICATE:
	case ACT_MARK_FIXED:
		tui_msg(t, ROLE_WARNING, "%s marks a bug report in its review (Enter opens it)",
			action_name(a));
		break;
	case ACT_MARK_UNTRIAGED:
	case ACT_SELECT:
	case ACT_SELECT_ALL:
	case ACT_SELECT_NONE:
	case ACT_APPLY:
	case ACT_NOTE:
	case ACT_MISSED:
		tui_msg(t, ROLE_WARNING, "nothing to mark here");
		break;
	case ACT_LIMIT:
		/* The queue handles l itself: any other view is above one. */
		if (v->ops != views[VIEW_QUEUE])
			limit_from(t);
		break;
	case ACT_SORT:
	case ACT_HIDE_TRIAGED:
	case ACT_HIDE_EMPTY:
	case ACT_RELOAD:
		tui_msg(t, ROLE_WARNING, "%s works in the queue (q to go back)", action_name(a));
		break;
	case ACT_DIFF:
	case ACT_MAIL:
	case ACT_THREAD:
		tui_msg(t, ROLE_WARNING, "%s works from the queue and a review (q to go back)",
			action_name(a));
		break;
	case ACT_NONE:
	case ACT_OPEN:
		break;
	case ACT_FORWARD:
		tui_msg(t, ROLE_WARNING, "F forwards the findings of a review: open one first");
		break;
	case ACT_SEND:
	case ACT_POSTPONE:
	case ACT_TO_DRAFTS:
		tui_msg(t, ROLE_WARNING, "nothing is being forwarded here (F in a review starts it)");
		break;
	case ACT_EDIT:
		tui_msg(t, ROLE_WARNING, "e opens a finding in the tree from a review, or edits a "
			"forward's draft");
		break;
	default:
		/* A key of another view: say so rather than nothing. */
		tui_msg(t, ROLE_WARNING, "%s does nothing here (? lists this view's keys)",
			action_name(a));
		break;
	}
}

/* After an undo: every view reads the verdicts again and shows the
 * review and finding the undo changed. */
static void after_undo(struct tui *t)
{
	if (!t->undone)
		return;
	t->undone = false;
	reload(t, NULL);
	for (int i = 0; t->focus_id && i < t->depth; i++) {
		struct view *v = t->stack[i];

		if (v->ops->focus)
			v->ops->focus(t, v, t->focus_id, t->focus_fp);
	}
}

/* The top view sees the action first; what it hands back is done here. */
static void dispatch(struct tui *t, enum action a)
{
	struct view *v = view_top(t);
	struct view_req r;

	/* The queue stays at the bottom of the stack while we run. */
	if (!v)
		return;
	r = v->ops->request ? v->ops->request(t, v, a) : req_pass(a);

	if (r.open != VIEW_NONE)
		push(t, r.open, r.arg);
	else if (r.a != ACT_NONE)
		view_driver(t, v, r.a);
	after_undo(t);
}

/* --- the loop -------------------------------------------------------- */

/* Next key, or 0 on a timeout or a signal.  Function keys are tagged with
 * KEYMAP_FN; KEY_RESIZE comes back as KEYMAP_FN(KEY_RESIZE).  busy:
 * background work or a write is under way (a script's :wait waits). */
static int read_key(int wait, bool busy)
{
	wint_t wc;
	int r;

	if (script_active()) {
		r = script_get_wch(&wc, busy);
		/* Waiting with nothing to do: not a busy loop. */
		if (r == ERR && wait > 0 && !script_ended())
			napms(10);
	} else {
		timeout(wait);
		r = get_wch(&wc);
	}

	if (r == ERR)
		return 0;
	if (r == KEY_CODE_YES)
		return KEYMAP_FN((int) wc);
	return (int) wc;
}

static void show_theme_errors(struct tui *t)
{
	const struct theme_errors *e = &t->theme.errors;
	size_t n = 0;

	if (e->n == 1)
		tui_msg(t, ROLE_ERROR, "theme: %s", e->msg[0]);
	else if (e->n)
		tui_msg(t, ROLE_ERROR, "theme: %s (and %zu more)", e->msg[0], e->n - 1);
	while (t->conf_errors && t->conf_errors[n])
		n++;
	if (n == 1)
		tui_msg(t, ROLE_ERROR, "%s", t->conf_errors[0]);
	else if (n)
		tui_msg(t, ROLE_ERROR, "%s (and %zu more)", t->conf_errors[0], n - 1);
}

/* A slice of every view's background work; true while any has more. */
static bool idle(struct tui *t)
{
	struct view *top = view_top(t);
	bool more = false;

	for (int i = 0; i < t->depth; i++)
		if (t->stack[i]->ops->idle && t->stack[i]->ops->idle(t, t->stack[i]))
			more = true;
	/* Work only the view in front does (counting for the statistics). */
	if (top && top->ops->busy && top->ops->busy(t, top))
		more = true;
	if (!more)
		tui_progress(t, NULL);
	return more;
}

/* Once a second: has another program changed the index (new mail, a
 * tag)?  The queue sees t->rev move and reads it again. */
static void poll_revision(struct tui *t, long long *last)
{
	wn_error err = WN_ERROR_INIT;
	unsigned long rev;

	/* While our own write is on its way, its landing is told by
	 * tui_flush (as our own, no news): polling now would take it for
	 * another program's. */
	if (tui_now_ms() - *last < TICK_MS || wn_store_pending(t->store))
		return;
	*last = tui_now_ms();
	if (wn_index_revision(t->idx, &rev, &err) == WN_OK)
		t->rev = rev;
	wn_error_clear(&err);
}

static void loop(struct tui *t)
{
	long long polled = tui_now_ms();
	bool busy = true, draw = true, working = false, first = true;

	while (!t->quit && t->depth) {
		struct view *top;
		enum action a;
		int key, wait;

		if (draw) {
			view_draw(t);
			refresh();
		}
		/* Background work goes on between keys: wait for none then. */
		wait = busy ? 0 : wn_store_pending(t->store) ? BUSY_MS : TICK_MS;
		if (first)
			wait = FIRST_SCREEN_MS;
		first = false;
		key = read_key(wait, busy || wn_store_pending(t->store));
		if (display_signal() || script_ended())
			break;
		if (key == 0) {
			/* Idle: collect or restart the writer, see whether the
			 * index moved, let the views work.  A pass that found
			 * nothing to do and changed nothing draws nothing (a
			 * key is drawn once, not twice); the pass after the
			 * last slice of work draws what it left. */
			bool was = working;

			t->redraw = false;
			tui_flush(t);
			poll_revision(t, &polled);
			busy = working = idle(t);
			draw = busy || was || t->redraw || wait > 0;
			reload_changed(t);
			continue;
		}
		draw = true;
		if (key == KEYMAP_FN(KEY_RESIZE))
			continue;
		wn_buf_reset(&t->msg);
		tui_flush(t);
		/* The loop runs while a view is open; said for the compiler. */
		if (!(top = view_top(t)))
			break;
		a = keymap_lookup(&t->keys, top->id, key);
		if (a == ACT_NONE) {
			tui_msg(t, ROLE_WARNING, "key not bound: press ? for help");
			continue;
		}
		dispatch(t, a);
		reload_changed(t);
		/* What the key started (a count, an order) gets its first
		 * slice before the screen is drawn: one draw a key, showing
		 * the first results when the work is small. */
		busy = working = idle(t);
	}
}

/* --- starting on a Message-ID (`winnow id:X`, from a mail client) ------ */

/* What `winnow id:X` opens: the queue on query (NULL: winnow.query),
 * named label, its cursor on review at, which is then opened. */
struct start {
	char *query, *label, *at;
};

static void start_free(struct start *s)
{
	free(s->query);
	free(s->label);
	free(s->at);
}

/* A query of one id: term alone ("id:X", "id:<X>", "id:\"X\""): its
 * Message-ID, malloc'd; else NULL (a query like any other). */
static char *lone_id(const char *query)
{
	while (query && (*query == ' ' || *query == '\t'))
		query++;
	if (!query || !wn_text_prefix_ci(query, "id:"))
		return NULL;
	return wn_msgid_canon(query);
}

/* notmuch's id:"..." for ids (quotes doubled), each in its, or'ed. */
static char *ids_query(wn_item **its, size_t n)
{
	wn_buf q = WN_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		wn_buf_puts(&q, i ? " or id:\"" : "id:\"");
		for (const char *c = its[i]->id; *c; c++)
			wn_buf_puts(&q, *c == '"' ? "\"\"" : (char[2]) { *c, '\0' });
		wn_buf_putc(&q, '"');
	}
	return wn_buf_steal(&q);
}

/* Which reviews message id is about: a review itself (opened over the
 * whole queue), a patch (the queue of its reviews), or any other mail
 * of a thread (the reviews in that thread).  False with a line in why
 * (malloc'd) and *rc the exit code when there is nothing to show. */
static bool start_plan(struct tui *t, const char *id, struct start *s, char **why, int *rc)
{
	wn_error err = WN_ERROR_INIT;
	wn_item *it = NULL, **revs = NULL;
	size_t n = 0;
	char *subject = NULL;
	bool ok = false;
	wn_status st;

	*rc = 1;
	if ((st = wn_index_find(t->idx, id, &it, &err)) != WN_OK) {
		*rc = wn_status_exit_code(st);
		*why = wn_strdup0(wn_error_msg(&err));
		goto out;
	}
	subject = wn_text_sanitize(it->subject ? it->subject : "", 0);
	if (wn_index_is_review(t->idx, it->id)) {
		ok = (s->at = wn_strdup0(it->id)) != NULL;
	} else if ((st = wn_index_reviews_of(t->idx, it->id, &revs, &n, &err)) != WN_OK) {
		*rc = wn_status_exit_code(st);
		*why = wn_strdup0(wn_error_msg(&err));
		goto out;
	} else if (n) {
		s->query = ids_query(revs, n);
		s->label = wn_strdupf("reviews of %s", subject ? subject : "the patch");
		ok = s->query && s->label;
	} else if (it->thread_id) {
		s->query = wn_strdupf("thread:%s", it->thread_id);
		s->label = wn_strdupf("reviews in the thread of %s", subject ? subject : "it");
		ok = s->query && s->label;
	} else {
		*why = wn_strdupf("no review in the thread of <%s>", id);
		goto out;
	}
	if (!ok) {
		*rc = 2;
		*why = wn_strdup0("out of memory");
	}
out:
	for (size_t i = 0; i < n; i++)
		wn_item_free(&revs[i]);
	free(revs);
	wn_item_free(&it);
	free(subject);
	wn_error_clear(&err);
	return ok;
}

/* The first view(s): the queue on query, or what `winnow id:X` names.
 * False with t->msg saying why (and t->rc the exit code). */
static bool start(struct tui *t, const char *query)
{
	struct queue_arg qa = { query && *query ? query : NULL, NULL, NULL, false };
	struct start s = { NULL, NULL, NULL };
	char *id = lone_id(query), *why = NULL;
	bool ok;

	if (id && !start_plan(t, id, &s, &why, &t->rc)) {
		tui_msg(t, ROLE_ERROR, "%s", why ? why : "out of memory");
		free(why);
		free(id);
		return false;
	}
	if (id)
		qa = (struct queue_arg) { s.query, s.label, s.at, false };
	ok = push(t, VIEW_QUEUE, &qa);
	if (ok && s.at && qa.found) {
		dispatch(t, ACT_OPEN);
	} else if (ok && s.at && t->hide_triaged) {
		/* Triaged, and such reviews are hidden (x): shown for now,
		 * the setting kept as it is. */
		pop(t);
		t->hide_triaged = false;
		qa.found = false;
		ok = push(t, VIEW_QUEUE, &qa);
		if (ok && qa.found)
			dispatch(t, ACT_OPEN);
		tui_msg(t, ROLE_STATUS, "triaged reviews shown to open this one (x hides them)");
	}
	start_free(&s);
	free(id);
	return ok;
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
	wn_buf_reset(&t.progress);
	theme_init(&t.theme);
	theme_load(&t.theme, conf ? conf->theme : NULL);
	if (!script_open(&why)) {
		fprintf(stderr, "winnow: %s\n", why);
		rc = 2;
		goto out;
	}
	if (!keymap_init(&t.keys)) {
		fprintf(stderr, "winnow: cannot set up the keymap\n");
		rc = 2;
		goto out;
	}
	{
		const char *names[VIEW_COUNT];
		wn_error err = WN_ERROR_INIT;

		for (int i = 0; i < VIEW_COUNT; i++)
			names[i] = views[i] ? views[i]->name : NULL;
		tui_conf_load(&t, names);
		/* The revision the queue is read at. */
		if (wn_index_revision(idx, &t.rev, &err) != WN_OK)
			t.rev = 0;
		wn_error_clear(&err);
	}
	/* Reviews are read a screen at a time: parsing them costs less
	 * than opening the cache until every review is read. */
	wn_index_cache_later(idx, true);
	/* Query before taking over the screen: a bad query is reported on a
	 * clean terminal. */
	if (!start(&t, query)) {
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
	/* Let the write in flight land; if another process holds the lock
	 * for a moment longer, what waits stays in the journal for the next
	 * run (and we say so: never merely because the machine is slow). */
	if (wn_store_pending(store)) {
		wn_error err = WN_ERROR_INIT;

		wn_store_replay(store, QUIT_WAIT_MS, &err);
		wn_error_clear(&err);
	}

	sig = display_signal();
	if (sig)
		rc = 128 + sig;
	if (script_error()) {
		fprintf(stderr, "winnow: %s\n", script_error());
		rc = 2;
	}
	pending = wn_store_pending(store);
	if (pending)
		fprintf(stderr, "winnow: %zu verdict%s waiting for the notmuch write lock;"
			" kept in %s, written by the next winnow run\n",
			pending, pending == 1 ? " is" : "s are", wn_store_journal_path(store));
out:
	script_close();
	while (t.depth)
		pop(&t);
	keymap_free(&t.keys);
	theme_free(&t.theme);
	wn_buf_free(&t.msg);
	wn_buf_free(&t.progress);
	wn_strv_free(t.conf_errors);
	wn_buf_free(&t.changed);
	free(t.search);
	free(t.warned);
	free(t.focus_id);
	free(t.focus_fp);
	return rc;
}
