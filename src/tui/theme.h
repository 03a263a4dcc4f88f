/* winnow TUI — colour roles and theme files.
 *
 * Every colour on screen is a semantic role.  The roles and their
 * defaults are declared once, below; the compiled-in default theme is
 * generated from that list as the text of a theme file, in the very
 * format users write (`color <role> <fg> <bg> [attr]...`), so the
 * built-in theme and themes/default.theme cannot say different things.
 *
 * Parsing is curses-free (unit tested); theme_apply() turns a parsed
 * theme into curses attributes for the terminal at hand. */
#ifndef WINNOW_TUI_THEME_H
#define WINNOW_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "tcurses.h"

/* X(enum suffix, role name, "fg bg [attr]..." of the default theme)
 *
 * bar.<verdict>: a segment of a statistics bar, drawn as blanks in the
 * background colour; a role without a background colour (and every
 * role under NO_COLOR) draws the verdict's character instead, so the
 * bars read without colour too.  trend: the monthly false-positive
 * rates. */
/* clang-format off */
#define THEME_ROLES(X)                                                    \
	X(DEFAULT,          "default",                "default default")          \
	X(TITLE,            "title",                  "white blue bold")          \
	X(STATUS,           "status",                 "default default")          \
	X(CURSOR,           "cursor",                 "black cyan")               \
	X(HEADER,           "header",                 "yellow default")           \
	X(DATE,             "date",                   "blue default")             \
	X(BOT,              "bot",                    "magenta default")          \
	X(AUTHOR,           "author",                 "green default")            \
	X(SUBJECT,          "subject",                "default default")          \
	X(NCOUNT,           "count",                  "default default bold")     \
	X(SEV_CRITICAL,     "severity.critical",      "white red bold")           \
	X(SEV_HIGH,         "severity.high",          "red default bold")         \
	X(SEV_MEDIUM,       "severity.medium",        "yellow default")           \
	X(SEV_LOW,          "severity.low",           "cyan default")             \
	X(SEV_ERROR,        "severity.error",         "red default bold")         \
	X(SEV_WARNING,      "severity.warning",       "yellow default")           \
	X(SEV_NOTE,         "severity.note",          "cyan default")             \
	X(SEV_UNKNOWN,      "severity.unknown",       "default default")          \
	X(V_UNTRIAGED,      "verdict.untriaged",      "yellow default bold")      \
	X(V_VALID,          "verdict.valid",          "green default bold")       \
	X(V_FALSE_POSITIVE, "verdict.false-positive", "magenta default")          \
	X(V_PREEXISTING,    "verdict.pre-existing",   "cyan default")             \
	X(A_NONE,           "attribution.none",       "default default dim")      \
	X(A_MODEL,          "attribution.model",      "magenta default bold")     \
	X(A_GENERIC,        "attribution.generic",    "yellow default bold")      \
	X(A_OTHER,          "attribution.other",      "red default bold")         \
	X(PRECLAIM,         "preexisting-claim",      "cyan default bold")        \
	X(TRAILER_KEY,      "trailer.key",            "green default")            \
	X(TRAILER_VALUE,    "trailer.value",          "default default")          \
	X(QUOTE,            "quote",                  "default default")          \
	X(DIFF_ADD,         "diff.add",               "green default")            \
	X(DIFF_DEL,         "diff.del",               "red default")              \
	X(DIFF_HUNK,        "diff.hunk",              "magenta default")          \
	X(COMMENT,          "comment",                "default default")          \
	X(LOCATION,         "location",               "cyan default bold")        \
	X(HELP_KEY,         "help.key",               "cyan default bold")        \
	X(HELP_TEXT,        "help.text",              "default default")          \
	X(ERROR,            "error",                  "red default bold")         \
	X(WARNING,          "warning",                "yellow default bold")      \
	X(BAR_UNTRIAGED,    "bar.untriaged",          "yellow default")           \
	X(BAR_VALID,        "bar.valid",              "black green")              \
	X(BAR_FALSE_POSITIVE, "bar.false-positive",   "black magenta")            \
	X(BAR_PREEXISTING,  "bar.pre-existing",       "black cyan")               \
	X(TREND,            "trend",                  "cyan default bold")      \
	/* the patch, the mail and the thread; the queue's series */          \
	X(DIFF_FILE,        "diff.file",              "default default bold")     \
	X(DIFF_FINDING,     "diff.finding",           "black yellow bold")        \
	X(MAIL_HEADER,      "mail.header",            "green default bold")       \
	X(LINK,             "link",                   "blue default underline")   \
	X(SERIES,           "series",                 "default default bold")     \
	/* who answered a review, and a newcomer's patch */        \
	X(REPLIED_AUTHOR,   "replied.author",         "green default bold")       \
	X(REPLIED,          "replied.other",          "cyan default")             \
	X(NEWCOMER,         "newcomer",               "yellow default bold")
/* clang-format on */

enum role {
#define THEME_X_(e, name, def) ROLE_##e,
	THEME_ROLES(THEME_X_)
#undef THEME_X_
	ROLE_COUNT
};

/* Text attributes a theme may ask for, independent of curses. */
enum theme_attr {
	TA_BOLD      = 1 << 0,
	TA_UNDERLINE = 1 << 1,
	TA_REVERSE   = 1 << 2,
	TA_DIM       = 1 << 3,
	TA_STANDOUT  = 1 << 4,
	TA_ITALIC    = 1 << 5,
};

/* A colour as written: the terminal's default, a palette index
 * (0-255; names are 0-15) or an RGB value mapped when applied. */
struct theme_color {
	enum { TC_DEFAULT, TC_INDEX, TC_RGB } kind;
	int index;
	unsigned char r, g, b;
};

struct theme_style {
	struct theme_color fg, bg;
	unsigned attrs;		/* TA_* */
};

/* Messages "file:line: message", collected while loading continues. */
struct theme_errors {
	char **msg;
	size_t n;
};

struct theme {
	struct theme_style style[ROLE_COUNT];
	chtype attr[ROLE_COUNT];	/* curses attributes, set by theme_apply() */
	bool color;			/* colours in use (not NO_COLOR, terminal has them) */
	struct theme_errors errors;
};

/* The compiled-in default theme as theme-file text. */
extern const char theme_builtin[];

const char *theme_role_name(enum role r);
/* ROLE_COUNT when name is not a role. */
enum role theme_role_from_name(const char *name);

/* Reset th to the built-in theme (no errors). */
void theme_init(struct theme *th);
/* Apply the commands in text (len bytes) on top of th; errors are
 * appended to th->errors as "origin:line: message". */
void theme_parse(struct theme *th, const char *origin, const char *text, size_t len);
/* Load a theme by name or path: a value holding '/' is a path; a name is
 * looked up as NAME.theme in $WINNOW_THEMES_DIR, then in
 * WN_DATADIR/themes.  Returns false (and records why) when no file was
 * found or it could not be read. */
bool theme_load(struct theme *th, const char *name_or_path);
void theme_free(struct theme *th);

/* Parse one colour word; false when it is none. */
bool theme_color_parse(const char *word, struct theme_color *out);
/* The palette index to use for c on a terminal with ncolors colours
 * (8, 16, 88, 256...): -1 for the default colour, else the nearest
 * colour the terminal has. */
int theme_color_map(const struct theme_color *c, int ncolors);

/* Fill th->attr for the running terminal: colour pairs when colours are
 * wanted and available, attributes only otherwise. Call after
 * display_init(). */
void theme_apply(struct theme *th);

/* Curses attributes for TA_* flags. */
chtype theme_ta(unsigned ta);

static inline chtype theme_attr(const struct theme *th, enum role r)
{
	return (unsigned) r < ROLE_COUNT ? th->attr[r] : 0;
}

#endif
