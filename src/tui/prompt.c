/* winnow TUI — line input and y/n questions on the bottom line. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "script.h"
#include "winnow/text.h"
#include "view.h"

#define KEY_CTRL(c) ((c) - 'a' + 1)

/* The line being edited: wide characters, the cursor an index into
 * them, so UTF-8 is edited by character and drawn by column. */
struct line {
	wchar_t *w;
	size_t n, cap, cur;
};

static bool line_insert(struct line *l, wchar_t c)
{
	if (l->n + 1 >= l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		wchar_t *grown = realloc(l->w, cap * sizeof(*grown));

		if (!grown)
			return false;
		l->w = grown;
		l->cap = cap;
	}
	memmove(l->w + l->cur + 1, l->w + l->cur, (l->n - l->cur) * sizeof(*l->w));
	l->w[l->cur++] = c;
	l->w[++l->n] = L'\0';
	return true;
}

/* Remove the characters [from, to). */
static void line_cut(struct line *l, size_t from, size_t to)
{
	if (from >= to || to > l->n)
		return;
	memmove(l->w + from, l->w + to, (l->n - to) * sizeof(*l->w));
	l->n -= to - from;
	l->w[l->n] = L'\0';
	if (l->cur > to)
		l->cur -= to - from;
	else if (l->cur > from)
		l->cur = from;
}

static char *wide_utf8(const wchar_t *w, size_t n)
{
	wn_buf b = WN_BUF_INIT;
	mbstate_t st;
	char mb[16];

	memset(&st, 0, sizeof(st));
	for (size_t i = 0; i < n; i++) {
		size_t k = wcrtomb(mb, w[i], &st);

		if (k == (size_t) -1) {
			memset(&st, 0, sizeof(st));
			mb[0] = '?';
			k = 1;
		}
		wn_buf_append(&b, mb, k);
	}
	if (!b.data)
		return strdup("");
	return wn_buf_steal(&b);
}

static int wcol(wchar_t c)
{
	int w = wcwidth(c);

	return w < 0 ? 1 : w;
}

/* The bottom line: the label, then the part of the text around the
 * cursor that fits; the terminal's cursor where the editing happens. */
static void draw_prompt(struct tui *t, const char *label, const struct line *l, int label_max)
{
	int y = LINES - 1, x, avail, before = 0, used = 0;
	size_t start = l->cur, end;
	char *shown;

	view_draw(t);
	draw_fill(y, 0, COLS, theme_attr(&t->theme, ROLE_DEFAULT));
	x = draw_text(&t->theme, y, 0, label_max < COLS ? label_max : COLS, ROLE_HEADER, label);
	avail = COLS - x - 1;
	/* Scroll so the cursor stays in sight, never half a wide char. */
	while (start > 0 && before + wcol(l->w[start - 1]) <= avail - 1)
		before += wcol(l->w[--start]);
	for (end = start; end < l->n && used + wcol(l->w[end]) <= avail; end++)
		used += wcol(l->w[end]);
	shown = wide_utf8(l->w ? l->w + start : L"", end - start);
	draw_text(&t->theme, y, x, avail + 1, ROLE_DEFAULT, shown ? shown : "");
	free(shown);
	move(y, x + before < COLS ? x + before : COLS - 1);
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

static bool is_word(wchar_t c)
{
	return c != L' ' && c != L'\t';
}

/* A function key: true when it ends the editing (*ok: accepted). */
static bool edit_fn(struct line *l, wint_t wc, bool *ok)
{
	switch (wc) {
	case KEY_ENTER:
		*ok = true;
		return true;
	case KEY_BACKSPACE:
		if (l->cur)
			line_cut(l, l->cur - 1, l->cur);
		break;
	case KEY_DC:
		line_cut(l, l->cur, l->cur + 1);
		break;
	case KEY_LEFT:
		if (l->cur)
			l->cur--;
		break;
	case KEY_RIGHT:
		if (l->cur < l->n)
			l->cur++;
		break;
	case KEY_HOME:
		l->cur = 0;
		break;
	case KEY_END:
		l->cur = l->n;
		break;
	default:
		break;
	}
	return false;
}

/* A character: readline's keys, or one to insert.  True when it ends
 * the editing (*ok: accepted). */
static bool edit_char(struct line *l, wint_t wc, bool *ok)
{
	size_t k;

	switch (wc) {
	case 27:
	case KEY_CTRL('g'):
		return true;
	case '\n':
	case '\r':
		*ok = true;
		return true;
	case 127:
	case KEY_CTRL('h'):
		if (l->cur)
			line_cut(l, l->cur - 1, l->cur);
		break;
	case KEY_CTRL('d'):
		line_cut(l, l->cur, l->cur + 1);
		break;
	case KEY_CTRL('a'):
		l->cur = 0;
		break;
	case KEY_CTRL('e'):
		l->cur = l->n;
		break;
	case KEY_CTRL('b'):
		if (l->cur)
			l->cur--;
		break;
	case KEY_CTRL('f'):
		if (l->cur < l->n)
			l->cur++;
		break;
	case KEY_CTRL('u'):
		line_cut(l, 0, l->cur);
		break;
	case KEY_CTRL('k'):
		line_cut(l, l->cur, l->n);
		break;
	case KEY_CTRL('w'):
		k = l->cur;
		while (k && !is_word(l->w[k - 1]))
			k--;
		while (k && is_word(l->w[k - 1]))
			k--;
		line_cut(l, k, l->cur);
		break;
	default:
		if (iswprint(wc))
			line_insert(l, (wchar_t) wc);
		break;
	}
	return false;
}

/* @initial is text to edit, or with @is_default a default (readline's
 * rl_startup_hook idiom): shown, kept by Enter, replaced by the first
 * character typed, edited when the first key is an editing one
 * (Left, Backspace, Ctrl-A...).  Typing "bot:nosuch" over a limit of
 * "lkp" must give "bot:nosuch", not "lkpbot:nosuch". */
static char *prompt(struct tui *t, const char *label, const char *initial, bool is_default)
{
	struct line l = { NULL, 0, 0, 0 };
	char *out = NULL;
	bool done = false, ok = false, pristine = is_default && initial && *initial;

	if (initial) {
		size_t n = mbstowcs(NULL, initial, 0);

		if (n != (size_t) -1) {
			wchar_t *w = calloc(n + 1, sizeof(*w));

			if (w) {
				mbstowcs(w, initial, n + 1);
				for (size_t i = 0; i < n; i++)
					line_insert(&l, w[i]);
				free(w);
			}
		}
	}
	wn_buf_reset(&t->msg);
	begin();
	while (!done) {
		wint_t wc;
		int r;

		/* On a narrow terminal the label gives way: what is typed
		 * must stay visible. */
		draw_prompt(t, label, &l, COLS > 20 ? COLS / 2 : COLS - 1);
		refresh();
		r = display_get_wch(&wc);
		if (r == ERR) {
			if (display_signal() || script_ended())
				done = true;
			continue;
		}
		/* The first key: a character to insert replaces the
		 * default; any other key (Enter, Esc, editing) works on it. */
		if (pristine && r != KEY_CODE_YES && iswprint(wc))
			line_cut(&l, 0, l.n);
		pristine = false;
		done = r == KEY_CODE_YES ? edit_fn(&l, wc, &ok) : edit_char(&l, wc, &ok);
	}
	end();
	if (ok)
		out = wide_utf8(l.w ? l.w : L"", l.n);
	free(l.w);
	return out;
}

char *prompt_line(struct tui *t, const char *label, const char *initial)
{
	return prompt(t, label, initial, false);
}

char *prompt_default(struct tui *t, const char *label, const char *def)
{
	return prompt(t, label, def, true);
}

/* The next key typed as a character, after showing what was drawn: 1
 * and *wc; 0 to ask again (no key yet, a function key); -1 when input
 * ended (a signal, the script's end). */
static int next_char(wint_t *wc)
{
	int r;

	refresh();
	r = display_get_wch(wc);
	if (r == ERR)
		return display_signal() || script_ended() ? -1 : 0;
	return r != KEY_CODE_YES;
}

bool prompt_yesno(struct tui *t, const char *question)
{
	const struct line empty = { NULL, 0, 0, 0 };

	wn_buf_reset(&t->msg);
	begin();
	for (;;) {
		wint_t wc;
		int r;

		int x;

		/* A narrow terminal clips the question, never the "(y/n)"
		 * that says an answer is wanted. */
		draw_prompt(t, question, &empty, COLS > 7 ? COLS - 7 : 1);
		x = text_width(question) < COLS - 7 ? text_width(question) : (COLS > 7 ? COLS - 7 : 1);
		draw_text(&t->theme, LINES - 1, x + 1, COLS - x - 1, ROLE_HELP_KEY, "(y/n)");
		move(LINES - 1, x + 7 < COLS ? x + 7 : COLS - 1);
		if ((r = next_char(&wc)) < 0)
			break;
		if (!r)
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

bool prompt_mark(struct tui *t, const char *what, wn_verdict v)
{
	wn_buf q = WN_BUF_INIT;
	bool yes;

	/* Never ask half a question: the verdict is at its end. */
	if (wn_buf_printf(&q, "Mark %s %s?", what, wn_verdict_name(v)) != WN_OK) {
		wn_buf_free(&q);
		tui_msg(t, ROLE_ERROR, "out of memory: nothing marked");
		return false;
	}
	yes = prompt_yesno(t, wn_buf_str(&q));
	wn_buf_free(&q);
	if (!yes)
		tui_msg(t, ROLE_STATUS, "nothing marked");
	return yes;
}

/* The reason typed as a word: a key, a name, a short word, or the
 * start of one name alone; WN_REASON_COUNT when none is meant. */
static wn_reason reason_of_word(const char *w)
{
	wn_reason found = WN_REASON_COUNT;
	size_t n = strlen(w);

	if (n == 1 && wn_reason_from_key((unsigned char) *w) != WN_REASON_NONE)
		return wn_reason_from_key((unsigned char) *w);
	for (unsigned k = 1; k < WN_REASON_COUNT; k++) {
		const char *name = wn_reason_name((wn_reason) k), *word = wn_reason_word((wn_reason) k);

		if (!strcmp(w, name) || !strcmp(w, word))
			return (wn_reason) k;
		if (n && !strncmp(w, name, n))
			found = found == WN_REASON_COUNT ? (wn_reason) k : WN_REASON_NONE;
	}
	return found == WN_REASON_NONE ? WN_REASON_COUNT : found;
}

/* The keys, "m misread-code  w wrong-rule ... Enter: no reason", from
 * x on the bottom line: the names when all fit, else their short
 * words; the names come after their keys, so the first key typed is
 * never taken for the start of a word. */
static void draw_reason_keys(struct tui *t, int x, bool wide)
{
	for (unsigned k = 1; k < WN_REASON_COUNT && x < COLS; k++) {
		char key[2] = { wn_reason_key((wn_reason) k), 0 };

		x += draw_text(&t->theme, LINES - 1, x, COLS - x, ROLE_HELP_KEY, key) + 1;
		if (x < COLS)
			x += draw_text(&t->theme, LINES - 1, x, COLS - x, ROLE_DEFAULT,
				       wide ? wn_reason_name((wn_reason) k) : wn_reason_word((wn_reason) k));
		x += wide ? 2 : 1;
	}
	/* Whole or not at all: Enter is the key everyone knows. */
	if (x + 10 <= COLS) {
		x += draw_text(&t->theme, LINES - 1, x, COLS - x, ROLE_HELP_KEY, "Enter");
		draw_text(&t->theme, LINES - 1, x, COLS - x, ROLE_DEFAULT, wide ? ": no reason" : ":none");
	}
}

/* One key of the list picks its reason at once.  Anything else keeps
 * the prompt open and says so: what follows is held on the line as a
 * word (a reason's name, or its key) until Enter, so a word typed
 * here never runs the queue's or the review's commands.  Enter on
 * nothing, Esc and Ctrl-G: no reason. */
static wn_reason prompt_reason(struct tui *t)
{
	const char *label = "Why false positive?";
	struct line typed = { NULL, 0, 0, 0 };
	wn_reason r = WN_REASON_NONE;
	char *word = NULL, *note = NULL;
	int full = text_width(label) + 1 + text_width("Enter: no reason");
	bool wide;

	for (unsigned k = 1; k < WN_REASON_COUNT; k++)
		full += 4 + text_width(wn_reason_name((wn_reason) k));
	wide = full < COLS;
	if (!wide)
		label = "Why FP?";
	wn_buf_reset(&t->msg);
	begin();
	for (;;) {
		wint_t wc;
		int rc;
		bool enter;

		if (!typed.n && !note) {
			draw_prompt(t, label, &typed, COLS);
			draw_reason_keys(t, text_width(label) + 1, wide);
			move(LINES - 1, text_width(label) < COLS ? text_width(label) : COLS - 1);
		} else {
			/* The question stays; the keys give way to what is wrong. */
			wn_buf q = WN_BUF_INIT;

			wn_buf_printf(&q, "%s %s ", label, note ? note : "reason (a key or name):");
			draw_prompt(t, wn_buf_failed(&q) ? label : wn_buf_str(&q), &typed, COLS * 3 / 4);
			wn_buf_free(&q);
		}
		refresh();
		rc = display_get_wch(&wc);
		if (rc == ERR) {
			if (display_signal() || script_ended())
				break;
			continue;
		}
		enter = rc == KEY_CODE_YES ? wc == KEY_ENTER : wc == '\n' || wc == '\r';
		if (!enter && rc != KEY_CODE_YES && (wc == 27 || wc == KEY_CTRL('g')))
			break;
		if (!typed.n && !note && rc != KEY_CODE_YES && !enter &&
		    (r = wn_reason_from_key((int) wc)) != WN_REASON_NONE)
			break;
		if (enter && !typed.n)
			break;
		if (enter) {
			wn_reason w;

			free(word);
			word = wide_utf8(typed.w, typed.n);
			w = word ? reason_of_word(word) : WN_REASON_COUNT;
			if (w != WN_REASON_COUNT) {
				r = w;
				break;
			}
			free(note);
			note = wn_strdupf("no reason '%s'; a key or name, Esc: none:", word ? word : "");
			line_cut(&typed, 0, typed.n);
			continue;
		}
		if (rc != KEY_CODE_YES && iswprint(wc) && !typed.n && !note) {
			char mb[8] = "";
			int n = wctomb(mb, (wchar_t) wc);

			note = wn_strdupf("'%.*s' is no reason key; a name, Enter:",
					  n > 0 ? n : 0, mb);
		}
		if (rc == KEY_CODE_YES)
			edit_fn(&typed, wc, &(bool) { false });
		else
			edit_char(&typed, wc, &(bool) { false });
	}
	end();
	free(typed.w);
	free(word);
	free(note);
	return r;
}

wn_reason prompt_why(struct tui *t, wn_verdict v)
{
	if (v != WN_VERDICT_FALSE_POSITIVE || !wn_index_conf(t->idx)->ask_reason)
		return WN_REASON_NONE;
	return prompt_reason(t);
}

int prompt_pick(struct tui *t, const char *question, char *const *rows, size_t n)
{
	const struct line empty = { NULL, 0, 0, 0 };
	int picked = -1;

	/* As many rows as fit above the question, and at most 9: one key. */
	if (n > 9)
		n = 9;
	if (LINES > 2 && n > (size_t) LINES - 2)
		n = (size_t) LINES - 2;
	wn_buf_reset(&t->msg);
	begin();
	for (;;) {
		wint_t wc;
		int r;

		draw_prompt(t, question, &empty, COLS);
		for (size_t i = 0; i < n; i++) {
			int y = LINES - 1 - (int) n + (int) i;
			char key[4];

			snprintf(key, sizeof(key), "%zu", i + 1);
			draw_fill(y, 0, COLS, theme_attr(&t->theme, ROLE_DEFAULT));
			draw_text(&t->theme, y, 0, COLS, ROLE_HELP_KEY, key);
			if (COLS > 2)
				draw_text(&t->theme, y, 2, COLS - 2, ROLE_DEFAULT, rows[i]);
		}
		move(LINES - 1, text_width(question) < COLS ? text_width(question) : COLS - 1);
		if ((r = next_char(&wc)) < 0)
			break;
		if (!r)
			continue;
		if (wc >= '1' && wc < '1' + (wint_t) n) {
			picked = (int) (wc - '1');
			break;
		}
		if (wc == 27 || wc == KEY_CTRL('g') || wc == 'q')
			break;
	}
	end();
	return picked;
}

char *prompt_missed(struct tui *t, const wn_item *it)
{
	if (!it || !it->loaded || !it->review) {
		tui_msg(t, ROLE_WARNING, "no review here to record a missed bug on");
		return NULL;
	}
	return prompt_line(t, "What did the bot miss? ", NULL);
}
