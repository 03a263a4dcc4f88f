/* winnow TUI — curses setup and the text drawing routines. */
#include "autoconfig.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "winnow/text.h"
#include "display.h"
#include "script.h"

#define TAB_STOP 8

/* The one piece of global state: what a signal handler may touch. */
static volatile sig_atomic_t got_signal;
static SCREEN *screen;
static FILE *script_out, *script_in;
static bool utf8;
/* For a second signal while the first is not handled yet (the main
 * loop is busy): the terminal as it was, and what leaves curses mode,
 * so the handler can restore both with async-signal-safe calls only. */
static struct termios saved_tty;
static bool have_tty;
static char leave[256];
static size_t leave_len;

static void on_signal(int sig)
{
	if (got_signal) {
		/* Asked twice: leave now.  Verdicts are journaled before
		 * they are acknowledged, so nothing is lost. */
		if (leave_len && write(STDOUT_FILENO, leave, leave_len) < 0)
			leave_len = 0;
		if (have_tty)
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
		_exit(128 + sig);
	}
	got_signal = sig;
}

/* Collect the terminfo strings that undo what curses set up. */
static void remember_leave(void)
{
	static const char *const caps[] = { "sgr0", "cnorm", "rmkx", "rmcup" };

	leave_len = 0;
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		const char *v = tigetstr((char *) caps[i]);
		size_t n = v && v != (char *) -1 ? strlen(v) : 0;

		if (n && leave_len + n < sizeof(leave)) {
			memcpy(leave + leave_len, v, n);
			leave_len += n;
		}
	}
}

int display_signal(void)
{
	return got_signal;
}

bool display_utf8(void)
{
	return utf8;
}

const char *ui_dash(void)
{
	return utf8 ? "\u2014" : "-";
}

const char *ui_ellipsis(void)
{
	return utf8 ? "\u2026" : "...";
}

bool display_init(const char **why)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	struct sigaction sa;
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
	if (script_active()) {
		/* Keys from the script, the screen only in curses' memory
		 * (and :save-display): no terminal at all, its size from
		 * COLUMNS and LINES (curses reads them). */
		script_out = fopen("/dev/null", "w");
		script_in = fopen("/dev/null", "r");
		if (!script_out || !script_in) {
			*why = "cannot open /dev/null for WINNOW_SCRIPT";
			return false;
		}
	} else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*why = "the review queue needs a terminal (use winnow list for scripts)";
		return false;
	}
	have_tty = !script_active() && tcgetattr(STDIN_FILENO, &saved_tty) == 0;
	/* newterm, unlike initscr, returns instead of exiting when TERM is
	 * unusable, so the caller can say why. */
	screen = script_active() ? newterm(NULL, script_out, script_in) : newterm(NULL, stdout, stdin);
	if (!screen) {
		*why = "cannot use this terminal (check TERM)";
		return false;
	}
	set_term(screen);
	/* A script's terminal is /dev/null: nothing to restore on stdout. */
	if (!script_active())
		remember_leave();
	set_escdelay(25);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	leaveok(stdscr, TRUE);

	/* Without SA_RESTART, a signal interrupts getch, so the main loop
	 * sees the flag at once and leaves through the normal exit path,
	 * which restores the terminal; a second one leaves at once. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	return true;
}

void display_end(void)
{
	if (!screen)
		return;
	endwin();
	delscreen(screen);
	screen = NULL;
	if (script_out)
		fclose(script_out);
	if (script_in)
		fclose(script_in);
	script_out = script_in = NULL;
}

int display_get_wch(wint_t *wc)
{
	int r;

	if (!script_active())
		return get_wch(wc);
	/* The script's next line is not written yet: not a busy loop. */
	if ((r = script_get_wch(wc, false)) == ERR && !script_ended())
		napms(10);
	return r;
}

void display_suspend(void)
{
	if (!screen)
		return;
	def_prog_mode();
	endwin();
	fflush(stdout);
}

void display_resume(void)
{
	if (!screen)
		return;
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

/* Decode sanitised UTF-8 (or whatever the locale says) into wide
 * characters.  Anything undecodable or unprintable becomes '?', so the
 * width of every character is known and positive or zero. */
static wchar_t *decode(const char *s, size_t *n)
{
	size_t len = strlen(s), k = 0;
	wchar_t *w = malloc((len + 1) * sizeof(*w));
	mbstate_t st;

	if (!w)
		return NULL;
	memset(&st, 0, sizeof(st));
	while (*s) {
		wchar_t c;
		size_t r = mbrtowc(&c, s, len, &st);

		if (r == (size_t) -1 || r == (size_t) -2 || r == 0) {
			memset(&st, 0, sizeof(st));
			c = L'?';
			r = 1;
		}
		if (c != L'\t' && c != L'\n' && wcwidth(c) < 0)
			c = L'?';
		w[k++] = c;
		s += r;
		len -= r;
	}
	w[k] = L'\0';
	*n = k;
	return w;
}

static int wwidth(wchar_t c)
{
	int cw = wcwidth(c);

	return cw < 0 ? 1 : cw;
}

int text_width(const char *untrusted)
{
	char *s = wn_text_sanitize(untrusted, 0);
	wchar_t *w;
	size_t n;
	int width = 0;

	if (!s)
		return 0;
	w = decode(s, &n);
	for (size_t i = 0; w && i < n; i++)
		width += wwidth(w[i]);
	free(w);
	free(s);
	return width;
}

const char *text_skip_cols(const char *s, int cols)
{
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	while (*s && cols > 0) {
		wchar_t c;
		size_t r = mbrtowc(&c, s, strlen(s), &st);

		if (r == (size_t) -1 || r == (size_t) -2 || r == 0) {
			memset(&st, 0, sizeof(st));
			r = 1;
			c = L'?';
		}
		cols -= wwidth(c);
		s += r;
	}
	return s;
}

int draw_text_attr(int y, int x, int width, chtype attr, const char *untrusted)
{
	const wchar_t *ell = utf8 ? L"\u2026" : L"~";
	char *s;
	wchar_t *w;
	size_t n, cut = 0;
	int used = 0, total = 0;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS || width <= 0)
		return 0;
	if (width > COLS - x)
		width = COLS - x;
	s = wn_text_sanitize(untrusted, 0);
	if (!s)
		return 0;
	w = decode(s, &n);
	free(s);
	if (!w)
		return 0;
	for (size_t i = 0; i < n; i++)
		total += wwidth(w[i]);
	if (total <= width) {
		cut = n;
		used = total;
	} else {
		/* Leave one column for the ellipsis; a double-width
		 * character that does not fit whole is left out whole. */
		while (cut < n && used + wwidth(w[cut]) <= width - 1)
			used += wwidth(w[cut++]);
	}
	attrset(attr);
	if (cut)
		mvaddnwstr(y, x, w, (int) cut);
	if (cut < n) {
		mvaddnwstr(y, x + used, ell, 1);
		used++;
	}
	attrset(A_NORMAL);
	free(w);
	return used;
}

int draw_text(const struct theme *th, int y, int x, int width, enum role role,
	      const char *untrusted)
{
	return draw_text_attr(y, x, width, theme_attr(th, role), untrusted);
}

void draw_fill(int y, int x, int width, chtype attr)
{
	if (y < 0 || y >= LINES || x < 0 || x >= COLS || width <= 0)
		return;
	if (width > COLS - x)
		width = COLS - x;
	/* hline takes its attributes from the character, not attrset(). */
	mvhline(y, x, ' ' | attr, width);
}

/* The array's capacity is implied by its length: the next power of two
 * at or above it (at least 16), so it grows geometrically without a
 * capacity threaded through every caller.  One realloc per line made a
 * 100,000-line body quadratic. */
static bool lines_room(char ***lines, size_t n)
{
	size_t cap = 16;
	char **grown;

	if (n && (n < 16 || (n & (n - 1))))
		return true;
	while (cap <= n)
		cap *= 2;
	if (!(grown = realloc(*lines, cap * sizeof(*grown))))
		return false;
	*lines = grown;
	return true;
}

static bool push_line(const wchar_t *w, size_t n, char ***lines, size_t *nlines)
{
	char *out;
	size_t k = 0;
	mbstate_t st;

	if (!lines_room(lines, *nlines))
		return false;
	out = malloc(n * MB_CUR_MAX + 1);
	if (!out)
		return false;
	memset(&st, 0, sizeof(st));
	for (size_t i = 0; i < n; i++) {
		size_t r = wcrtomb(out + k, w[i], &st);

		if (r == (size_t) -1) {
			out[k++] = '?';
			memset(&st, 0, sizeof(st));
		} else {
			k += r;
		}
	}
	out[k] = '\0';
	(*lines)[(*nlines)++] = out;
	return true;
}

/* One source line (no '\n'): expand tabs, then wrap or keep whole. */
static bool wrap_one(const wchar_t *src, size_t n, int width, bool wrap,
		     char ***lines, size_t *nlines)
{
	wchar_t *w;
	int *col;
	size_t k = 0, start = 0, cap = 0;
	int c = 0;
	bool ok = true;

	for (size_t i = 0; i < n; i++)
		cap += src[i] == L'\t' ? TAB_STOP : 1;
	w = malloc((cap + 1) * sizeof(*w));
	col = malloc((cap + 1) * sizeof(*col));
	if (!w || !col) {
		free(w);
		free(col);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (src[i] == L'\t') {
			do {
				col[k] = c++;
				w[k++] = L' ';
			} while (c % TAB_STOP);
		} else {
			col[k] = c;
			c += wwidth(src[i]);
			w[k++] = src[i];
		}
	}
	col[k] = c;
	if (!wrap || width <= 0 || c <= width) {
		ok = push_line(w, k, lines, nlines);
		goto out;
	}
	while (ok && start < k) {
		size_t end = start, brk = 0;

		while (end < k && col[end + 1] - col[start] <= width)
			end++;
		if (end == start)
			end++;	/* a character wider than the pane */
		if (end < k) {
			for (size_t j = end; j > start; j--)
				if (w[j] == L' ') {
					brk = j;
					break;
				}
		}
		if (brk > start) {
			ok = push_line(w + start, brk - start, lines, nlines);
			start = brk;
			while (start < k && w[start] == L' ')
				start++;
		} else {
			ok = push_line(w + start, end - start, lines, nlines);
			start = end;
		}
	}
out:
	free(w);
	free(col);
	return ok;
}

bool text_wrap(const char *untrusted, int width, bool wrap, char ***lines, size_t *nlines)
{
	char *s = wn_text_sanitize(untrusted, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB);
	wchar_t *w;
	size_t n, start = 0;
	bool ok = true;

	if (!s)
		return false;
	w = decode(s, &n);
	free(s);
	if (!w)
		return false;
	for (size_t i = 0; ok && i <= n; i++) {
		if (i < n && w[i] != L'\n')
			continue;
		ok = wrap_one(w + start, i - start, width, wrap, lines, nlines);
		start = i + 1;
	}
	free(w);
	return ok;
}

bool display_clipboard(const char *text)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = (const unsigned char *) text;
	size_t n = text ? strlen(text) : 0;

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] == 0x7f)
			return false;
	/* Between curses' updates, straight to the terminal it draws on. */
	fputs("\033]52;c;", stdout);
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned) s[i] << 16 | (i + 1 < n ? (unsigned) s[i + 1] << 8 : 0) |
			     (i + 2 < n ? s[i + 2] : 0);

		putchar(b64[v >> 18 & 63]);
		putchar(b64[v >> 12 & 63]);
		putchar(i + 1 < n ? b64[v >> 6 & 63] : '=');
		putchar(i + 2 < n ? b64[v & 63] : '=');
	}
	fputs("\a", stdout);
	fflush(stdout);
	return true;
}
