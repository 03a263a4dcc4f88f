/* winnow TUI — the private interface of the curses front end: the
 * shared context, views and their rows, and the layers that serve them.
 *
 * Calls go down only, never in a circle (tig's split of tig.c and
 * view.c):
 *
 *   tui.c         the driver: main loop, view table and view stack,
 *                 and the generic actions (move, search, undo, sync,
 *                 help, back, quit).  Each action goes to the top view
 *                 first; what the view hands back, the driver does.
 *   views/        one file per view, view-NAME.c (queue, review,
 *                 diff, mail, thread, history, help, stats, compose):
 *                 its rows, its title, the actions only it knows; beside
 *                 them what one view alone uses (review-memory.c,
 *                 stats-trend.c, the queue's queue-sort.c).  A view
 *                 never calls another view nor the driver: it returns
 *                 the action it leaves alone, or the id of a view to
 *                 open (struct view_req).
 *   prompt.c      line input and y/n questions on the bottom line.
 *   view.c        the mechanics: rows and cells, cursor, scrolling,
 *                 drawing the title, the list and the status line.
 *   tui-store.c   the store glue: read, mark (one or many), undo, write
 *                 in the background, the status-line message and the
 *                 progress of long work.  Calls only libwinnow.
 *   tui-conf.c    what the notmuch config holds for the interface: the
 *                 queue's toggles (written back with `notmuch config
 *                 set`) and the key bindings (winnow.bind.*).
 *   display.c  theme.c  keymap.c      curses, colours, keys.
 *
 * The driver and view.c reach a view only through its view_ops, on the
 * view being shown: dispatch, as tig's view->ops, not a call up.
 *
 * A new view is one file, views/view-NAME.c, defining its view_ops and
 * one line in TUI_VIEWS below (plus the file in views/views.am). */
#ifndef WINNOW_TUI_VIEW_H
#define WINNOW_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/buf.h"
#include "winnow/index.h"
#include "winnow/store.h"
#include "display.h"
#include "keymap.h"
#include "theme.h"

/* --- row data ------------------------------------------------------- */

#define CELL_NATURAL 0	/* as wide as its text */
#define CELL_FLEX   (-1)	/* what is left of the line */
#define ROW_MAX_CELLS 32

struct cell {
	enum role role;
	unsigned extra;		/* TA_* added to the role (dim zero counts) */
	int width;		/* > 0 fixed, or CELL_NATURAL / CELL_FLEX */
	int pad;		/* blank columns after the cell */
	bool right;		/* right-aligned in its width */
	const char *text;	/* may be mail text: drawn through draw_text */
	char own[48];		/* storage for short formatted text */
};

struct row {
	struct cell c[ROW_MAX_CELLS];
	int n;
	struct cell spill;	/* handed out when the row is full; not drawn */
};

/* Append a cell (pad 1).  Never NULL: past ROW_MAX_CELLS the cell goes
 * to row->spill and is not drawn.  text is not copied: it must live
 * until the row is drawn. */
struct cell *row_add(struct row *r, enum role role, int width, const char *text);
/* Same with formatted text kept in the cell itself (short texts). */
struct cell *row_addf(struct row *r, enum role role, int width, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* --- the view table ----------------------------------------------------- */

/* X(id suffix, the view's view_ops): every view, one line each.  The
 * driver opens VIEW_QUEUE first; a view opens another by its id. */
/* A test build (-DWN_TEST_FAKE_ENTRIES) has one more view that nothing
 * opens (tests/lib/fake-entries.c), to show that every list of views
 * names it (tests/tui/fake-entries.sh). */
#ifdef WN_TEST_FAKE_ENTRIES
#define TUI_FAKE_VIEW_(X) X(FAKE, fake_ops)
#else
#define TUI_FAKE_VIEW_(X)
#endif

#define TUI_VIEWS(X)                                                            \
	X(QUEUE,  queue_ops)	/* arg: const struct queue_arg *, NULL: all */  \
	X(REVIEW, review_ops)	/* arg: wn_item * (owned by the queue) */       \
	X(HELP,   help_ops)	/* arg: unused */                               \
	X(COMPOSE, compose_ops)	/* arg: wn_item * (owned by the queue) */       \
	X(STATS,  stats_ops)	/* arg: unused */                               \
	X(DIFF,   diff_ops)	/* arg: struct about * */                       \
	X(MAIL,   mail_ops)	/* arg: struct about * */                       \
	X(THREAD, thread_ops)	/* arg: struct about * */                       \
	X(HISTORY, history_ops)	/* arg: unused */                               \
	TUI_FAKE_VIEW_(X)

enum view_id {
	VIEW_NONE = 0,
#define TUI_X_(e, ops) VIEW_##e,
	TUI_VIEWS(TUI_X_)
#undef TUI_X_
	VIEW_COUNT
};

/* What the queue opens on: query narrows winnow.query (NULL: all);
 * label, when set, names the reviews in the title instead (a group of
 * the statistics, whose query is a list of Message-IDs).  Copied by
 * open().  at, when set, is the review the cursor starts on (`winnow
 * id:REVIEW`): the whole list is read for it, and found says whether
 * it was shown. */
struct queue_arg {
	const char *query;
	const char *label;
	const char *at;
	bool found;
};

/* What the diff, mail and thread views are opened about: a review
 * (owned by the queue) and its finding (0-based) when one is current;
 * for the mail view msgid, when set, names another message (a reply). */
struct about {
	wn_item *it;
	size_t finding;
	const char *msgid;
};

/* --- views ---------------------------------------------------------- */

struct tui;
struct view;

/* A key hint in the status line: the action's first key and a label. */
struct hint {
	enum action a;
	const char *label;
};

/* What a view's request() hands back to the driver (tig's views return
 * the request they leave to view_driver). */
struct view_req {
	enum action a;		/* ACT_NONE: done; else the driver does it */
	enum view_id open;	/* VIEW_NONE, or push this view ... */
	void *arg;		/* ... opened with this argument */
};

static inline struct view_req req_done(void)
{
	return (struct view_req) { ACT_NONE, VIEW_NONE, NULL };
}

static inline struct view_req req_pass(enum action a)
{
	return (struct view_req) { a, VIEW_NONE, NULL };
}

static inline struct view_req req_open(enum view_id id, void *arg)
{
	return (struct view_req) { ACT_NONE, id, arg };
}

struct view_ops {
	const char *name;	/* shown in the status line: "[queue]" */
	/* Bytes of v->priv, which the driver allocates (zeroed) before
	 * open() and frees after done(); 0: none. */
	size_t priv_size;
	/* Fill v->priv and set v->lines from arg; false when it cannot (a
	 * message was set, and what open took is released: done() is not
	 * called). */
	bool (*open)(struct tui *t, struct view *v, void *arg);
	/* Optional: free what v->priv points to. */
	void (*done)(struct tui *t, struct view *v);
	/* The title line. */
	void (*title)(struct tui *t, struct view *v, struct row *out);
	/* Row i of the list (i < v->lines). */
	void (*row)(struct tui *t, struct view *v, size_t i, struct row *out);
	/* Optional: place the list inside the lines [top, top + height)
	 * (set v->list_y and v->list_h); default: all of it. */
	void (*layout)(struct tui *t, struct view *v, int top, int height);
	/* Optional: draw what is not the list (headers, panes). */
	void (*draw)(struct tui *t, struct view *v);
	/* Optional: see an action first; return req_done() when handled,
	 * req_pass(a) to leave it to the driver, req_open() for a view to
	 * open.  Default: everything goes to the driver. */
	struct view_req (*request)(struct tui *t, struct view *v, enum action a);
	/* Optional: does row i match needle (as typed: compare with
	 * wn_text_find_ci, any case)?  Default: the row's text. */
	bool (*match)(struct tui *t, struct view *v, size_t i, const char *needle);
	/* Optional: the cursor moved to another row. */
	void (*select)(struct tui *t, struct view *v);
	/* Optional: the verdicts of the review with Message-ID msgid (NULL:
	 * of every review) changed (a mark in any view, an undo): read them
	 * again.  The driver calls it on every view on the stack. */
	void (*reload)(struct tui *t, struct view *v, const char *msgid);
	/* Optional: put the cursor on the review msgid, on its finding fp
	 * if the view shows findings (after an undo, to show what
	 * changed).  Called on every view on the stack. */
	void (*focus)(struct tui *t, struct view *v, const char *msgid, const char *fp);
	/* Optional: do a slice of background work (a few ms: keys must
	 * keep their answer) and set the progress (tui_progress); true
	 * while more remains.  The driver calls it on every view of the
	 * stack while any has work, and once a second otherwise. */
	bool (*idle)(struct tui *t, struct view *v);
	/* Optional: a word for the status line before "[name]" (the
	 * queue's order). */
	const char *(*mode)(struct tui *t, struct view *v);
	/* Optional: long work done in slices while the view is on top
	 * (counting every review): do one slice of a few tens of ms and
	 * say whether more is left, so that the driver comes back at once
	 * instead of waiting for a key, and keys are answered between
	 * slices. */
	bool (*busy)(struct tui *t, struct view *v);
	/* Hints for the status line, ending with { ACT_NONE }. */
	const struct hint *hints;
	/* The actions the view takes itself, ending with ACT_NONE (NULL:
	 * none): the help lists their keys first, then the shared ones. */
	const enum action *keys;
};

/* What the help view opens on: the actions every view shares (the
 * driver's), besides those of the view it was opened from. */
struct help_arg {
	bool shared[ACT_COUNT];
};

#define TUI_X_(e, ops) extern const struct view_ops ops;
TUI_VIEWS(TUI_X_)
#undef TUI_X_

struct view {
	enum view_id id;
	const struct view_ops *ops;
	void *priv;
	size_t lines;		/* rows in the list */
	size_t top;		/* first row shown */
	size_t cursor;		/* selected row */
	int list_y, list_h;	/* where the list is drawn */
	int list_x, list_w;	/* its columns (layout() may narrow them) */
};

#define VIEW_MAX 8

/* The context every part of the TUI gets: no globals. */
struct tui {
	wn_index *idx;
	wn_store *store;
	struct theme theme;
	struct keymap keys;
	struct view *stack[VIEW_MAX];	/* owned by the driver */
	int depth;

	wn_buf msg;		/* status line message until the next key */
	wn_buf changed;		/* Message-IDs whose verdicts a mark changed since
				 * the driver last told the views, '\n' after each */
	enum role msg_role;
	char *search;		/* last search, as typed */
	bool locked;		/* a write has waited for the index lock a while */
	char *warned;		/* the store warning last shown (a copy) */
	long long pending_since;	/* ms when the current write began; 0 none */
	bool quit;
	int rc;			/* exit code a view asks for when it fails to open */

	wn_buf progress;	/* what a long operation is at; "" none */
	long long progress_since;	/* ms it began; shown after PROGRESS_MS */
	unsigned long rev;	/* the index's revision, polled once a second */
	unsigned long own_rev;	/* the revision our own last write made */
	bool redraw;		/* background work changed the screen */
	bool hide_triaged;	/* queue toggles, kept in the notmuch config */
	bool hide_empty;
	char **conf_errors;	/* "file:line: ..." of winnow.bind.*, NULL-terminated */
	/* Set by an undo for the driver: every view reads the verdicts
	 * again and goes to this review and finding. */
	bool undone;
	char *focus_id, *focus_fp;
};

/* A long operation's progress is shown once it has run this long. */
#define PROGRESS_MS 200

/* Milliseconds of a monotonic clock. */
long long tui_now_ms(void);
/* Say what a long operation is at (printf-style); NULL fmt: it ended. */
void tui_progress(struct tui *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline struct view *view_top(struct tui *t)
{
	return t->depth ? t->stack[t->depth - 1] : NULL;
}

/* --- mechanics (view.c) ------------------------------------------------ */

/* Redraw everything (does not refresh the terminal: call doupdate). */
void view_draw(struct tui *t);
/* Draw row r on line y, full width; selected: cursor bar. */
void view_draw_row(struct tui *t, int y, const struct row *r, bool selected);
/* The same in the columns [x, x + width) only. */
void view_draw_row_at(struct tui *t, int y, int x, int width, const struct row *r, bool selected);
/* Draw row r on line y, columns [x, x + width), as a bar filled with
 * role fill (cells keep their own roles). */
void view_draw_bar_at(struct tui *t, int y, int x, int width, const struct row *r, enum role fill);
/* Move the cursor to row i (clamped) and keep it visible. */
void view_goto(struct tui *t, struct view *v, size_t i);
/* Carry out a cursor or paging action (j k J K g G Space -); false
 * when a is not one. */
bool view_move(struct tui *t, struct view *v, enum action a);

/* Role of a verdict, severity, attribution status. */
enum role role_of_verdict(wn_verdict v);
enum role role_of_severity(wn_severity s);
enum role role_of_attr(wn_attr_status s);
/* The name of "Name <addr>" (the address when there is none), in at
 * most size - 1 bytes, never half a character. */
void name_of(const char *from, char *out, size_t size);
/* Copy at most size - 1 bytes of s[0..n) to out, never half a character. */
void copy_chars(char *out, size_t size, const char *s, size_t n);
/* y and Y: copy it's Message-ID (id's when set: a mail's) or its
 * patch's to the terminal's clipboard; false when a is neither. */
bool copy_request(struct tui *t, enum action a, const wn_item *it, const char *id);
/* "YYYY-MM-DD" of a time (local), "" for 0. */
void format_date(time_t t, char out[16]);

/* --- prompts on the bottom line (prompt.c) ------------------------------ */

/* prompt_line: malloc'd input, NULL when cancelled (Esc, Ctrl-G) or on
 * a signal.  prompt_yesno: true for y. */
char *prompt_line(struct tui *t, const char *label, const char *initial);
/* prompt_line with def as a default rather than text to edit: Enter
 * keeps it, the first character typed replaces it, an editing key
 * (Left, Backspace, Ctrl-A...) as the first key edits it. */
char *prompt_default(struct tui *t, const char *label, const char *def);
bool prompt_yesno(struct tui *t, const char *question);
/* "Mark WHAT VERDICT?"; on no, says nothing was marked. */
bool prompt_mark(struct tui *t, const char *what, wn_verdict v);
/* For verdict v: a false positive is asked why, unless
 * winnow.ask_reason is false: "Why false positive? m misread-code
 * w wrong-rule ... Enter: no reason", one key, a reason's first letter
 * (WN_REASON_LIST); Enter and Esc skip; any other key keeps the prompt
 * open as a line, a reason's key or name taken by Enter.
 * WN_REASON_NONE when not asked or skipped. */
wn_reason prompt_why(struct tui *t, wn_verdict v);
/* Pick one of rows[0..n) (our own words and mail text, sanitised when
 * drawn), listed above the bottom line under question, numbered from 1:
 * a digit picks (at most 9 rows are offered, as the screen holds).
 * The index picked, or -1 when cancelled (Esc, Ctrl-G, q). */
int prompt_pick(struct tui *t, const char *question, char *const *rows, size_t n);
/* M: what the bot missed on it (malloc'd; NULL when cancelled or no
 * review is there, a message then saying why). */
char *prompt_missed(struct tui *t, const wn_item *it);

/* --- the notmuch config (tui-conf.c) ---------------------------------- */

/* Read the queue's toggles and the key bindings (winnow.bind.*) into
 * t; views[id] names each view.  Errors go to t->conf_errors. */
void tui_conf_load(struct tui *t, const char *const *views);
/* Run `notmuch config set key value` (no shell); false when it failed. */
bool tui_conf_set(struct tui *t, const char *key, const char *value);

/* --- store glue (tui-store.c): below the views, calls none of them -- */

/* Status line message, shown until the next key. */
void tui_msg(struct tui *t, enum role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Start or collect the background write of pending verdicts; never
 * waits.  Sets t->locked once a write has waited for the lock a while.
 * WN_OK when nothing is pending any more, WN_LOCKED while it is. */
wn_status tui_flush(struct tui *t);
/* Give a verdict to finding (0: all) of it, journal and flush; on
 * failure a message is set and false returned.  why (prompt_why):
 * the reason, in the same journal line as the verdict; WN_REASON_NONE
 * leaves the reason as it is. */
bool tui_mark(struct tui *t, wn_item *it, size_t finding, wn_verdict v, wn_reason why);
/* Give finding (1-based) of it verdict v with closed, a bug report's
 * winnow.closed ("dup <msgid>", "fix <hash>", "fix =TITLE"; "" removes
 * it), in one journal line, one undo; what ("a real bug") for the
 * message.  False on failure (a message says why). */
bool tui_mark_closed(struct tui *t, wn_item *it, size_t finding, wn_verdict v, const char *closed,
		     const char *what);
/* Load an item if it is not yet (lazily, when it becomes visible). */
void tui_load(struct tui *t, wn_item *it);
/* Read a loaded item's verdicts again (after an undo), pending changes
 * laid over; on failure a message is set. */
void tui_reload_verdicts(struct tui *t, wn_item *it);
/* The verdict a mark action gives (v, f, p, u); false for any other
 * action. */
bool tui_action_verdict(enum action a, wn_verdict *out);
/* Say that ';' wants a verdict key next, naming the keys bound to the
 * mark actions in view v (not the defaults: they may be rebound). */
void tui_say_verdict_keys(struct tui *t, const struct view *v);
/* Give verdict v to every target at once (what: "2 findings", for the
 * message): one action in the journal, one U undoes it.  False when
 * nothing was marked (a message says why). */
bool tui_mark_many(struct tui *t, const wn_mark_target *tg, size_t n, wn_verdict v,
		   wn_reason why, const char *what);
/* Give finding (1-based) of it the note (""): removes it), keeping its
 * verdict; false on failure (a message is set). */
bool tui_note(struct tui *t, wn_item *it, size_t finding, const char *note);
/* M: record note (prompt_missed's answer, freed here; NULL or empty:
 * nothing) as a bug the bot missed on review it (winnow missed); a
 * message says how it went. */
void tui_missed(struct tui *t, wn_item *it, char *note);
/* After an undo: say what it undid -- h the undo itself (h->is_undo),
 * or the action it reverted -- and ask the driver to show it. */
void tui_undone(struct tui *t, const wn_history_item *h);
/* Undo the last action (U); false when there was none or it failed. */
bool tui_undo_last(struct tui *t);
/* Give back what the last undo reverted (C-r), unless a finding of it
 * changed since; false when nothing was redone. */
bool tui_redo_last(struct tui *t);

#endif
