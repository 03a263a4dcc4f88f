/* winnow TUI — keys from a file instead of the keyboard (see script.h).
 * The idea is tig's TIG_SCRIPT and :save-display; this is winnow's own
 * reading of it: every key and command waits for the one before it, and
 * the screen saved is curses' own idea of the terminal (curscr), so a
 * saved screen holds exactly what a terminal would show. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "winnow/buf.h"
#include "keymap.h"
#include "script.h"
#include "tcurses.h"

/* One item of the script: a key, or a command with its argument. */
enum item_kind { ITEM_KEY, ITEM_SAVE, ITEM_SAVE_COLOR, ITEM_RESIZE, ITEM_WAIT, ITEM_WAIT_FOR };

struct item {
	enum item_kind kind;
	int key;		/* ITEM_KEY: a code as keymap_key_parse returns */
	int line;		/* in the file, for messages */
	char *arg;		/* the file, the size, the text */
};

/* The one script of the process (as display.c's one screen). */
static struct {
	bool active, ended;
	int fd;
	bool eof;
	wn_buf pending;		/* read, not yet a whole line */
	int lineno;
	struct item *items;
	size_t n, cap, next;
	long long wait_since;	/* ms the current :wait began; 0 none */
	int timeout_ms;
	char *error;
} sc;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The script cannot go on: say why (msg, then arg if any) and end it. */
static void fail(const struct item *it, const char *msg, const char *arg)
{
	free(sc.error);
	sc.error = NULL;
	if (asprintf(&sc.error, "WINNOW_SCRIPT line %d: %s%s", it ? it->line : sc.lineno, msg,
		     arg ? arg : "") < 0)
		sc.error = NULL;
	sc.ended = true;
}

static bool add(enum item_kind kind, int key, int line, const char *arg)
{
	struct item *grown;

	if (sc.n == sc.cap) {
		grown = realloc(sc.items, (2 * sc.cap + 16) * sizeof(*grown));
		if (!grown)
			return false;
		sc.items = grown;
		sc.cap = 2 * sc.cap + 16;
	}
	sc.items[sc.n] = (struct item) { kind, key, line, arg ? strdup(arg) : NULL };
	if (arg && !sc.items[sc.n].arg)
		return false;
	sc.n++;
	return true;
}

/* One UTF-8 character at s (the script is UTF-8 whatever the locale),
 * its length in *len; -1 when s does not start with one. */
static int utf8_char(const unsigned char *s, int *len)
{
	int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		: s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	int c = n == 1 ? s[0] : n == 2 ? s[0] & 0x1f : n == 3 ? s[0] & 0x0f : s[0] & 0x07;

	if (!n)
		return -1;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		c = (c << 6) | (s[i] & 0x3f);
	}
	*len = n;
	return c;
}

/* A line of keys: characters, and <Name> for a named key. */
static bool parse_keys(const char *s, int line)
{
	while (*s) {
		int key, len = 1;

		if (*s == '<' && strchr(s, '>')) {
			const char *end = strchr(s, '>');
			char name[32];

			if ((size_t) (end - s - 1) < sizeof(name)) {
				memcpy(name, s + 1, (size_t) (end - s - 1));
				name[end - s - 1] = '\0';
				key = strcmp(name, "lt") ? keymap_key_parse(name) : '<';
				if (key >= 0) {
					if (!add(ITEM_KEY, key, line, NULL))
						return false;
					s = end + 1;
					continue;
				}
			}
		}
		key = utf8_char((const unsigned char *) s, &len);
		if (key < 0) {
			struct item where = { .line = line };

			fail(&where, "not UTF-8", NULL);
			return false;
		}
		if (!add(ITEM_KEY, key, line, NULL))
			return false;
		s += len;
	}
	return true;
}

static bool parse_command(char *s, int line)
{
	static const struct {
		const char *name;
		enum item_kind kind;
		bool arg;
	} cmds[] = {
		{ "save-display", ITEM_SAVE, true },
		{ "save-display-color", ITEM_SAVE_COLOR, true },
		{ "resize", ITEM_RESIZE, true },
		{ "wait", ITEM_WAIT, false },
		{ "wait-for", ITEM_WAIT_FOR, true },
	};
	char *arg = s + strcspn(s, " \t");
	struct item where = { .line = line };

	if (*arg) {
		*arg++ = '\0';
		arg += strspn(arg, " \t");
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(cmds[i].name, s))
			continue;
		if (cmds[i].arg != (*arg != '\0')) {
			fail(&where, cmds[i].arg ? "an argument is missing: :" : "takes no argument: :", s);
			return false;
		}
		return add(cmds[i].kind, 0, line, cmds[i].arg ? arg : NULL);
	}
	fail(&where, "unknown command :", s);
	return false;
}

/* One line of the script into items. */
static bool parse_line(char *line, int lineno)
{
	size_t len = strlen(line);

	while (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return true;
	return line[0] == ':' ? parse_command(line + 1, lineno) : parse_keys(line, lineno);
}

/* Take whatever whole lines the script has for us now.  A file gives
 * them all at once; a FIFO as the test writes them, so a test can look
 * at the screen and act on it before it sends the next key.  The end of
 * the file (the writer gone) ends the script after its last item. */
static void read_more(void)
{
	char chunk[4096];
	ssize_t r;

	while ((r = read(sc.fd, chunk, sizeof(chunk))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				sc.eof = true;
			break;
		}
		if (wn_buf_append(&sc.pending, chunk, (size_t) r) != WN_OK) {
			fail(NULL, "out of memory", NULL);
			return;
		}
	}
	if (r == 0)
		sc.eof = true;
	while (sc.pending.len && !sc.ended) {
		char *nl = memchr(sc.pending.data, '\n', sc.pending.len), *line;
		size_t n = nl ? (size_t) (nl - sc.pending.data) : sc.pending.len;

		/* A last line without its newline counts once the file ends. */
		if (!nl && !sc.eof)
			break;
		if (!(line = strndup(sc.pending.data, n))) {
			fail(NULL, "out of memory", NULL);
			return;
		}
		memmove(sc.pending.data, sc.pending.data + n + (nl ? 1 : 0), sc.pending.len - n - (nl ? 1 : 0));
		sc.pending.len -= n + (nl ? 1 : 0);
		sc.pending.data[sc.pending.len] = '\0';
		if (!parse_line(line, ++sc.lineno) && !sc.ended)
			fail(NULL, "out of memory", NULL);
		free(line);
	}
}

bool script_open(const char **why)
{
	const char *path = getenv("WINNOW_SCRIPT"), *t = getenv("WINNOW_SCRIPT_TIMEOUT");

	if (!path || !*path)
		return true;
	sc.timeout_ms = (t && atoi(t) > 0 ? atoi(t) : 60) * 1000;
	/* Blocks on a FIFO until the test opens it for writing. */
	sc.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (sc.fd < 0) {
		*why = "cannot read the file WINNOW_SCRIPT names";
		return false;
	}
	fcntl(sc.fd, F_SETFL, fcntl(sc.fd, F_GETFL) | O_NONBLOCK);
	sc.active = true;
	return true;
}

void script_close(void)
{
	for (size_t i = 0; i < sc.n; i++)
		free(sc.items[i].arg);
	free(sc.items);
	free(sc.error);
	wn_buf_free(&sc.pending);
	if (sc.active)
		close(sc.fd);
	memset(&sc, 0, sizeof(sc));
}

bool script_active(void)
{
	return sc.active;
}

bool script_ended(void)
{
	return sc.active && sc.ended;
}

const char *script_error(void)
{
	return sc.error;
}

/* --- the screen as curses has it ------------------------------------- */

static void put_color(wn_buf *b, int c, bool bg)
{
	if (c < 0)
		wn_buf_puts(b, bg ? ";49" : ";39");
	else if (c < 8)
		wn_buf_printf(b, ";%d", (bg ? 40 : 30) + c);
	else if (c < 16)
		wn_buf_printf(b, ";%d", (bg ? 100 : 90) + c - 8);
	else
		wn_buf_printf(b, ";%d;5;%d", bg ? 48 : 38, c);
}

/* The SGR state of a cell in full, as a terminal (xterm-256color's
 * setaf/setab, smso as reverse) would have been told it. */
static void sgr(wn_buf *b, attr_t a, int pair)
{
	static const struct {
		attr_t attr;
		int code;
	} attrs[] = {
		{ A_BOLD, 1 }, { A_DIM, 2 }, { A_ITALIC, 3 }, { A_UNDERLINE, 4 },
		{ A_BLINK, 5 }, { A_REVERSE | A_STANDOUT, 7 }, { A_INVIS, 8 },
	};
	int fg = -1, bg = -1;

	wn_buf_puts(b, "\033[0");
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (a & attrs[i].attr)
			wn_buf_printf(b, ";%d", attrs[i].code);
	if (pair > 0 && extended_pair_content(pair, &fg, &bg) == ERR)
		fg = bg = -1;
	put_color(b, fg, false);
	put_color(b, bg, true);
	wn_buf_putc(b, 'm');
}

/* Row y of the screen; trailing blanks dropped (and in colour, then the
 * attribute changes left at the end). */
static void screen_row(wn_buf *b, int y, bool color)
{
	wn_buf cur = WN_BUF_INIT, cell = WN_BUF_INIT;
	size_t keep = b->len;

	/* Every row states its first attributes: a reader (sgr-canon.pl,
	 * as a terminal) carries the state over from the row before. */
	wn_buf_reset(&cur);
	for (int x = 0; x < COLS;) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1] = { 0 };
		attr_t a = 0;
		short pair = 0;
		int w, ext = 0;
		char mb[MB_LEN_MAX];

		if (mvwin_wch(curscr, y, x, &cc) == ERR ||
		    getcchar(&cc, wch, &a, &pair, &ext) == ERR || !wch[0])
			wch[0] = L' ';
		if (color) {
			wn_buf_reset(&cell);
			sgr(&cell, a, ext ? ext : pair);
			if (strcmp(wn_buf_str(&cell), wn_buf_str(&cur))) {
				wn_buf_puts(b, wn_buf_str(&cell));
				wn_buf_reset(&cur);
				wn_buf_puts(&cur, wn_buf_str(&cell));
			}
		}
		for (int i = 0; i < CCHARW_MAX && wch[i]; i++) {
			mbstate_t st;
			size_t n;

			memset(&st, 0, sizeof(st));
			n = wcrtomb(mb, wch[i], &st);
			if (n == (size_t) -1)
				wn_buf_putc(b, '?');
			else
				wn_buf_append(b, mb, n);
		}
		if (wch[0] != L' ')
			keep = b->len;
		w = wcwidth(wch[0]);
		x += w > 0 ? w : 1;
	}
	b->len = keep;
	if (b->data)
		b->data[keep] = '\0';
	wn_buf_putc(b, '\n');
	wn_buf_free(&cur);
	wn_buf_free(&cell);
}

/* The whole screen into path, written whole. */
static bool save_display(const struct item *it, bool color)
{
	wn_buf b = WN_BUF_INIT, tmp = WN_BUF_INIT;
	FILE *f = NULL;
	bool ok;

	for (int y = 0; y < LINES; y++)
		screen_row(&b, y, color);
	ok = wn_buf_printf(&tmp, "%s.part", it->arg) == WN_OK && (f = fopen(wn_buf_str(&tmp), "w"));
	if (ok)
		ok = fwrite(b.data ? b.data : "", 1, b.len, f) == b.len;
	if (f && fclose(f) != 0)
		ok = false;
	if (ok)
		ok = rename(wn_buf_str(&tmp), it->arg) == 0;
	if (!ok)
		fail(it, "cannot write ", it->arg);
	wn_buf_free(&b);
	wn_buf_free(&tmp);
	return ok;
}

/* Is text anywhere on the screen (within one row)? */
static bool on_screen(const char *text)
{
	wn_buf b = WN_BUF_INIT;
	bool hit = false;

	for (int y = 0; y < LINES && !hit; y++) {
		wn_buf_reset(&b);
		screen_row(&b, y, false);
		hit = strstr(wn_buf_str(&b), text) != NULL;
	}
	wn_buf_free(&b);
	return hit;
}

/* A :wait or :wait-for that is met: on to the next item.  Not yet:
 * false, and the script fails once it has waited too long. */
static bool waited(const struct item *it, bool met)
{
	if (met) {
		sc.wait_since = 0;
		return true;
	}
	if (!sc.wait_since)
		sc.wait_since = now_ms();
	else if (now_ms() - sc.wait_since > sc.timeout_ms)
		fail(it, it->kind == ITEM_WAIT ? "the background work never ended" : "never on screen: ",
		     it->kind == ITEM_WAIT ? NULL : it->arg);
	return false;
}

int script_get_wch(wint_t *wc, bool busy)
{
	for (;;) {
		if (sc.next == sc.n && !sc.ended && !sc.eof)
			read_more();
		if (sc.ended || sc.next == sc.n)
			break;
		const struct item *it = &sc.items[sc.next];
		int cols, rows;

		switch (it->kind) {
		case ITEM_KEY:
			sc.next++;
			if (it->key & KEYMAP_FN(0)) {
				*wc = (wint_t) (it->key & ~KEYMAP_FN(0));
				return KEY_CODE_YES;
			}
			*wc = (wint_t) it->key;
			return OK;
		case ITEM_SAVE:
		case ITEM_SAVE_COLOR:
			if (!save_display(it, it->kind == ITEM_SAVE_COLOR))
				return ERR;
			sc.next++;
			break;
		case ITEM_RESIZE:
			if (sscanf(it->arg, "%dx%d", &cols, &rows) != 2 || cols < 1 || rows < 1 ||
			    resizeterm(rows, cols) == ERR) {
				fail(it, "not a size COLSxROWS: ", it->arg);
				return ERR;
			}
			sc.next++;
			/* The views learn of it as from a terminal. */
			*wc = KEY_RESIZE;
			return KEY_CODE_YES;
		case ITEM_WAIT:
		case ITEM_WAIT_FOR:
			if (!waited(it, it->kind == ITEM_WAIT ? !busy : on_screen(it->arg)))
				return ERR;
			sc.next++;
			break;
		}
	}
	/* Nothing more for now; over once the file has ended. */
	if (sc.eof && sc.next == sc.n)
		sc.ended = true;
	return ERR;
}
