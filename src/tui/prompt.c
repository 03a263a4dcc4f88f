/* winnow TUI — line input and y/n questions on the bottom line. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "view.h"

#define KEY_CTRL(c) ((c) - 'a' + 1)

struct line {
	wchar_t *w;
	size_t n, cap;
};

static bool line_put(struct line *l, wchar_t c)
{
	if (l->n + 1 >= l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		wchar_t *grown = realloc(l->w, cap * sizeof(*grown));

		if (!grown)
			return false;
		l->w = grown;
		l->cap = cap;
	}
	l->w[l->n++] = c;
	l->w[l->n] = L'\0';
	return true;
}

static char *line_utf8(const struct line *l)
{
	const wchar_t *src = l->w ? l->w : L"";
	size_t len = wcstombs(NULL, src, 0);
	char *s;

	if (len == (size_t) -1)
		return strdup("");
	s = malloc(len + 1);
	if (s)
		wcstombs(s, src, len + 1);
	return s;
}

/* The bottom line: label, then as much of the end of text as fits; the
 * cursor goes after it. */
static void draw_prompt(struct tui *t, const char *label, const char *text, int label_max)
{
	int y = LINES - 1, x, avail;
	const char *tail = text;

	view_draw(t);
	draw_fill(y, 0, COLS, theme_attr(&t->theme, ROLE_DEFAULT));
	x = draw_text(&t->theme, y, 0, label_max < COLS ? label_max : COLS, ROLE_HEADER, label);
	avail = COLS - x - 1;
	/* Show the end of a long input, where the typing happens. */
	while (*tail && text_width(tail) > avail) {
		tail++;
		while ((*tail & 0xc0) == 0x80)
			tail++;
	}
	x += draw_text(&t->theme, y, x, avail, ROLE_DEFAULT, tail);
	move(y, x < COLS ? x : COLS - 1);
}

static void begin(void)
{
	leaveok(stdscr, FALSE);
	curs_set(1);
}

static void end(void)
{
	curs_set(0);
	leaveok(stdscr, TRUE);
}

char *prompt_line(struct tui *t, const char *label, const char *initial)
{
	struct line l = { NULL, 0, 0 };
	char *out = NULL;
	bool done = false, ok = false;

	if (initial) {
		size_t n = mbstowcs(NULL, initial, 0);

		if (n != (size_t) -1) {
			wchar_t *w = calloc(n + 1, sizeof(*w));

			if (w) {
				mbstowcs(w, initial, n + 1);
				for (size_t i = 0; i < n; i++)
					line_put(&l, w[i]);
				free(w);
			}
		}
	}
	wn_buf_reset(&t->msg);
	begin();
	while (!done) {
		char *cur = line_utf8(&l);
		wint_t wc;
		int r;

		/* On a narrow terminal the label gives way: what is typed
		 * must stay visible. */
		draw_prompt(t, label, cur ? cur : "", COLS > 20 ? COLS / 2 : COLS - 1);
		free(cur);
		refresh();
		r = get_wch(&wc);
		if (r == ERR) {
			if (display_signal())
				done = true;
			continue;
		}
		if (r == KEY_CODE_YES) {
			if (wc == KEY_BACKSPACE && l.n)
				l.w[--l.n] = L'\0';
			else if (wc == KEY_ENTER)
				done = ok = true;
			continue;
		}
		switch (wc) {
		case 27:
		case KEY_CTRL('g'):
			done = true;
			break;
		case '\n':
		case '\r':
			done = ok = true;
			break;
		case 127:
		case KEY_CTRL('h'):
			if (l.n)
				l.w[--l.n] = L'\0';
			break;
		case KEY_CTRL('u'):
			l.n = 0;
			if (l.w)
				l.w[0] = L'\0';
			break;
		case KEY_CTRL('w'):
			while (l.n && l.w[l.n - 1] == L' ')
				l.n--;
			while (l.n && l.w[l.n - 1] != L' ')
				l.n--;
			if (l.w)
				l.w[l.n] = L'\0';
			break;
		default:
			if (iswprint((wint_t) wc))
				line_put(&l, (wchar_t) wc);
			break;
		}
	}
	end();
	if (ok)
		out = line_utf8(&l);
	free(l.w);
	return out;
}

bool prompt_yesno(struct tui *t, const char *question)
{
	wn_buf_reset(&t->msg);
	begin();
	for (;;) {
		wint_t wc;
		int r;

		int x;

		/* A narrow terminal clips the question, never the "(y/n)"
		 * that says an answer is wanted. */
		draw_prompt(t, question, "", COLS > 7 ? COLS - 7 : 1);
		x = text_width(question) < COLS - 7 ? text_width(question) : (COLS > 7 ? COLS - 7 : 1);
		draw_text(&t->theme, LINES - 1, x + 1, COLS - x - 1, ROLE_HELP_KEY, "(y/n)");
		move(LINES - 1, x + 7 < COLS ? x + 7 : COLS - 1);
		refresh();
		r = get_wch(&wc);
		if (r == ERR) {
			if (display_signal())
				break;
			continue;
		}
		if (r == KEY_CODE_YES)
			continue;
		if (wc == 'y' || wc == 'Y') {
			end();
			return true;
		}
		if (wc == 'n' || wc == 'N' || wc == 27 || wc == KEY_CTRL('g') || wc == 'q')
			break;
	}
	end();
	return false;
}
