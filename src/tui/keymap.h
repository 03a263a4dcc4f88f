/* winnow TUI — actions and their keys.
 *
 * Every action is declared once, with its default keys and its help
 * text: the key lookup, the help screen and the status-line hints are
 * all generated from this table, so they cannot drift apart. */
#ifndef WINNOW_TUI_KEYMAP_H
#define WINNOW_TUI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/review.h"	/* the severities of the "!" help */

/* The queue's orders, in the order `o` cycles through them (the queue
 * view's, queue-private.h): X(enum suffix, name, as o's help names it),
 * S between two.  Here, because o's help below is made from it. */
/* clang-format off */
#ifdef WN_TEST_FAKE_ENTRIES
#define QUEUE_FAKE_SORT_(X, S) S X(FAKE, "fakeorder", "fakeorder")
#else
#define QUEUE_FAKE_SORT_(X, S)
#endif
#define QUEUE_SORTS_BY_(X, S)                                                  \
	X(DATE,      "date",      "date")            S                         \
	X(SEVERITY,  "severity",  "severity")        S                         \
	X(UNTRIAGED, "untriaged", "untriaged")       S                         \
	X(SERIES,    "series",    "series")          S                         \
	X(NEWCOMER,  "newcomer",  "newcomers first")                           \
	QUEUE_FAKE_SORT_(X, S)
/* clang-format on */
#define QUEUE_SORTS(X) QUEUE_SORTS_BY_(X, )
#define QUEUE_SORT_HELP_(e, name, help) help
/* "date, severity, ...": o's help. */
#define QUEUE_SORTS_HELP QUEUE_SORTS_BY_(QUEUE_SORT_HELP_, ", ")

/* X(enum suffix, name, default keys separated by spaces, help text).
 * Key names: a single character, or Up Down Left Right PgUp PgDn Home End
 * Enter Tab BackTab Space Esc Backspace, or C-x for Ctrl-x. */
/* A test build (-DWN_TEST_FAKE_ENTRIES) has one more action, bound to
 * nothing and handled by nothing, to show that the help and the man page
 * list name it (tests/tui/fake-entries.sh). */
#ifdef WN_TEST_FAKE_ENTRIES
#define KEYMAP_FAKE_ACTION_(X) X(FAKE_ACTION, "fake-action", "C-g", "Fake: an action of the test build")
#else
#define KEYMAP_FAKE_ACTION_(X)
#endif

/* clang-format off */
#define KEYMAP_ACTIONS(X)                                                          \
	X(MOVE_DOWN,      "move-down",      "j Down",    "Next line (review: next finding)")  \
	X(MOVE_UP,        "move-up",        "k Up",      "Previous line (review: previous finding)") \
	X(NEXT_FINDING,   "next-finding",   "J Tab",     "Next finding (queue: next review with untriaged findings)") \
	X(PREV_FINDING,   "prev-finding",   "K BackTab", "Previous finding (queue: previous review with untriaged findings)") \
	X(MOVE_FIRST,     "move-first",     "g Home",    "First line")                             \
	X(MOVE_LAST,      "move-last",      "G End",     "Last line")                              \
	X(PAGE_DOWN,      "page-down",      "Space PgDn", "Page down (review: scroll the text, then next finding)") \
	X(PAGE_UP,        "page-up",        "- PgUp",    "Page up (review: scroll the text back)") \
	X(OPEN,           "open",           "Enter",     "Open the review (review: scroll the text a line)")       \
	X(BACK,           "back",           "q",         "Back to the previous screen; quit in the queue; forward: cancel") \
	X(QUIT,           "quit",           "Q",         "Quit winnow from any screen")            \
	X(HELP,           "help",           "?",         "Show this list of keys")                 \
	X(MARK_VALID,     "mark-valid",     "v",         "Mark valid (queue: every finding of the review)") \
	X(MARK_FALSE,     "mark-false-positive", "f",    "Mark false positive (queue: every finding)") \
	X(MARK_PRE,       "mark-pre-existing", "p",      "Mark pre-existing (queue: every finding; forward: add or drop them)") \
	X(MARK_UNTRIAGED, "mark-untriaged", "u",         "Back to untriaged (queue: every finding)") \
	X(UNDO,           "undo",           "U",         "Undo the last mark (works across restarts)") \
	X(REDO,           "redo",           "C-r",       "Give back what the last undo reverted (unless changed since)") \
	X(SYNC,           "sync",           "$ s",       "Write pending verdicts to notmuch now") \
	X(SEARCH,         "search",         "/",         "Search forward (substring, any case)") \
	X(SEARCH_NEXT,    "search-next",    "n",         "Repeat the last search forward")         \
	X(SEARCH_PREV,    "search-prev",    "N",         "Repeat the last search backward")        \
	X(LIMIT,          "limit",          "l",         "Limit the queue by a notmuch query (empty: all)") \
	X(STATS,          "stats",          "S",         "Statistics: verdicts, misses, author replies, FP reasons by bot, list...") \
	X(STATS_BY,       "stats-group",    "b",         "In the statistics: group by the next key (bot, severity, list...)") \
	X(REDRAW,         "redraw",         "C-l",       "Redraw the screen")                      \
	/* forwarding verified findings: the mutt compose menu's keys */                          \
	X(FORWARD,        "forward",        "F",         "Review: mail the valid findings to the patch author (again: resume the draft)") \
	X(SEND,           "send",           "y",         "Forward: send the mail")                 \
	X(EDIT,           "edit",           "e",         "Forward: edit the draft again; review: the finding's file at its line in $EDITOR (winnow.tree)")          \
	X(POSTPONE,       "postpone",       "P",         "Forward: keep the draft for later (F resumes it)") \
	X(TO_DRAFTS,      "to-drafts",      "D",         "Forward: into winnow.drafts_folder for your mailer to send") \
	/* the views maintainers live in: order, patch, mail, thread */                             \
	X(SORT,           "sort",           "o",         "Queue: next order (" QUEUE_SORTS_HELP ")") \
	X(HIDE_TRIAGED,   "toggle-triaged", "x",         "Queue: hide or show fully triaged reviews (remembered)") \
	X(HIDE_EMPTY,     "toggle-empty",   "z",         "Queue: hide or show reviews without findings (remembered)") \
	X(RELOAD,         "reload",         "R",         "Read the index again (the queue also does when it changes)") \
	X(DIFF,           "diff",           "c",         "The patch's diff, at the finding's hunk")  \
	X(NEXT_SITE,      "next-site",      "d",         "Review: the next place the bot discusses the finding at, its code and words") \
	X(MAIL,           "mail",           "m",         "The whole review mail in a pager, its links and Message-IDs") \
	X(THREAD,         "thread",         "r",         "The human replies, to the review first, then in the patch's thread") \
	X(DETAILS,        "details",        "h",         "Review: show or hide the whole header (trailers)") \
	X(SCROLL_LEFT,    "scroll-left",    "< Left",    "Scroll quoted code and the diff left")    \
	X(SCROLL_RIGHT,   "scroll-right",   "> Right",   "Scroll quoted code and the diff right")   \
	X(NEXT_HUNK,      "next-hunk",      "]",         "Diff: next hunk a finding is about")      \
	X(PREV_HUNK,      "prev-hunk",      "[",         "Diff: previous hunk a finding is about")  \
	X(PIPE,           "pipe",           "|",         "Mail: pipe the raw mail to a command (sh -c, mail on stdin)") \
	/* notes, bulk marks and the history */                                                     \
	X(NOTE,           "annotate",       "a",         "Review: write a note on the finding (empty removes it)") \
	X(MISSED,         "missed",         "M",         "Queue and review: record a bug the bot missed on the review (winnow missed)") \
	X(SELECT,         "select",         "t",         "Select the row for a bulk mark, or unselect it") \
	X(SELECT_ALL,     "select-all",     "*",         "Select every row shown")                 \
	X(SELECT_NONE,    "select-none",    "T",         "Clear the selection")                    \
	X(APPLY,          "apply",          ";",         "Then v, f, p or u: mark every selected row at once (one U undoes it)") \
	X(HISTORY,        "history",        "H",         "The journal of changes; Enter or U there undoes the one under the cursor") \
	X(COPY_ID,        "copy-id",        "i",         "Copy the review's (mail: the mail's) Message-ID to the terminal's clipboard") \
	X(COPY_PATCH_ID,  "copy-patch-id",  "I",         "Copy the patch's Message-ID to the terminal's clipboard (for b4 am)") \
	/* never judge the same finding twice (review-memory.c) */                                  \
	X(ACCEPT_SEEN,    "accept-seen",    "=",         "Review: give the finding the verdict and note of the similar one seen before") \
	X(SERIES_PATCH,   "series-patch",   "+",         "Review: open the later patch of the series that changes this function too, at the hunk") \
	X(SEVERITY,       "severity",       "!",         "Review: your own severity of the finding, beside the bot's (" WN_SEV_GRADES_COMMA "empty: none)") \
	/* a bug report of a bot that reads replies: its state */                                  \
	X(MARK_REAL,      "mark-real",      "V",         "Bug report of a bot that reads replies: mark it a real bug") \
	X(MARK_INVALID,   "mark-invalid",   "X",         "Bug report: mark it invalid (F then tells the bot)") \
	X(MARK_DUPLICATE, "mark-duplicate", "C",         "Bug report: mark it a duplicate, picked from the bot's other reports, best title match first") \
	X(MARK_FIXED,     "mark-fixed",     "Z",         "Bug report: mark it fixed, by the commit of winnow.tree naming it, else a title typed") \
	KEYMAP_FAKE_ACTION_(X)
/* clang-format on */

enum action {
	ACT_NONE = 0,
#define KEYMAP_X_(e, name, keys, help) ACT_##e,
	KEYMAP_ACTIONS(KEYMAP_X_)
#undef KEYMAP_X_
	ACT_COUNT
};

/* Keys are wide characters, or curses function keys tagged with this
 * bit (curses codes and Unicode code points overlap). */
#define KEYMAP_FN(k) (0x40000000 | (k))

/* A binding; view 0 binds in every view (the defaults), else only in
 * the view of that id (view.h).  Later bindings win. */
struct keymap_binding {
	int key;
	enum action action;	/* ACT_NONE: unbound */
	int view;
};

struct keymap {
	struct keymap_binding *b;
	size_t n;
};

/* Build the lookup from the action table.  False when out of memory or
 * when the table names a key that does not exist (a bug, caught by the
 * unit test). */
bool keymap_init(struct keymap *km);
void keymap_free(struct keymap *km);
/* Bind key to a in view (0: every view).  False when out of memory. */
bool keymap_bind(struct keymap *km, int view, int key, enum action a);
/* What key does in view; ACT_NONE when it is not bound. */
enum action keymap_lookup(const struct keymap *km, int view, int key);
/* The keys bound to a in view, by name and space-separated ("j Down"),
 * into out (size bytes); "" when none.  Returns the length. */
size_t keymap_keys_of(const struct keymap *km, int view, enum action a, char *out, size_t size);
/* The first of them ("j"). */
size_t keymap_key_of(const struct keymap *km, int view, enum action a, char *out, size_t size);

const char *action_name(enum action a);
/* ACT_NONE for "none", ACT_COUNT when name is no action. */
enum action action_from_name(const char *name);
/* Default keys as written in the table ("j Down"). */
const char *action_keys(enum action a);
/* The first key's name ("j"): for hints in the status line. */
size_t action_first_key(enum action a, char *out, size_t size);
const char *action_help(enum action a);

/* Key code for a key name, or -1.  Enter gives '\n' (the other codes
 * curses may send for it are bound alongside).  A name is one
 * character (UTF-8), a named key (Up, PgDn, Tab...), or C-x. */
int keymap_key_parse(const char *name);
/* The name of a key code ("Down", "C-l", "j"), into out. */
void keymap_key_name(int key, char *out, size_t size);

#endif
