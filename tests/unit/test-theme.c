/* winnow — unit tests of the TUI's theme parser, colour mapping, key
 * table, text wrapping, and the roles and verdicts views draw and give
 * (no terminal needed). */
#include "autoconfig.h"

#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "display.h"
#include "keymap.h"
#include "theme.h"
#include "view.h"

static char *slurp_src(const char *rel)
{
	const char *top = getenv("WN_TOP_SRCDIR");
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (set WN_TOP_SRCDIR)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t) n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t) n, f), (size_t) n);
	fclose(f);
	return buf;
}

static void test_builtin_sets_every_role(void **state)
{
	struct theme th;
	unsigned seen[ROLE_COUNT] = { 0 };
	const char *p = theme_builtin;

	(void) state;
	theme_init(&th);
	assert_int_equal(th.errors.n, 0);
	while ((p = strstr(p, "\ncolor "))) {
		char name[64];

		assert_int_equal(sscanf(p + 7, "%63s", name), 1);
		assert_int_not_equal(theme_role_from_name(name), ROLE_COUNT);
		seen[theme_role_from_name(name)]++;
		p += 7;
	}
	for (int r = 0; r < ROLE_COUNT; r++)
		assert_int_equal(seen[r], 1);
	assert_int_equal(th.style[ROLE_TITLE].fg.kind, TC_INDEX);
	assert_int_equal(th.style[ROLE_TITLE].fg.index, 7);
	assert_true(th.style[ROLE_TITLE].attrs & TA_BOLD);
	theme_free(&th);
}

/* The shipped default theme is the compiled-in one, byte for byte. */
static void test_default_theme_file_is_builtin(void **state)
{
	char *text = slurp_src("themes/default.theme");

	(void) state;
	assert_string_equal(text, theme_builtin);
	free(text);
}

static void test_shipped_themes_parse_cleanly(void **state)
{
	static const char *const files[] = {
		"themes/light.theme", "themes/mono.theme", "themes/contrast.theme",
	};

	(void) state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = slurp_src(files[i]);
		struct theme th;

		theme_init(&th);
		theme_parse(&th, files[i], text, strlen(text));
		if (th.errors.n)
			fail_msg("%s", th.errors.msg[0]);
		/* Every role on screen has its colour in every theme: none
		 * falls back to the default theme's by oversight. */
		for (int r = 0; r < ROLE_COUNT; r++) {
			char want[64];

			snprintf(want, sizeof(want), "\ncolor %s ", theme_role_name((enum role) r));
			if (!strstr(text, want))
				fail_msg("%s does not set %s", files[i], theme_role_name((enum role) r));
		}
		free(text);
		theme_free(&th);
	}
}

static void test_errors_carry_file_and_line(void **state)
{
	static const char text[] =
		"# comment\n"
		"color nosuch red blue\n"
		"color cursor red\n"
		"bogus command\n"
		"color title mauve blue\n"
		"color status green default bold blink\n"
		"\n"
		"color header #00ff00 color17 underline\r\n";
	struct theme th;

	(void) state;
	theme_init(&th);
	theme_parse(&th, "my.theme", text, strlen(text));
	assert_int_equal(th.errors.n, 5);
	assert_string_equal(th.errors.msg[0], "my.theme:2: unknown role 'nosuch'");
	assert_string_equal(th.errors.msg[1], "my.theme:3: color cursor: need a foreground and a background");
	assert_string_equal(th.errors.msg[2], "my.theme:4: unknown command 'bogus'");
	assert_string_equal(th.errors.msg[3], "my.theme:5: unknown colour 'mauve'");
	assert_string_equal(th.errors.msg[4], "my.theme:6: unknown attribute 'blink'");
	/* Loading carried on: the good parts of bad lines and the lines
	 * after them took effect. */
	assert_int_equal(th.style[ROLE_STATUS].fg.index, 2);
	assert_true(th.style[ROLE_STATUS].attrs & TA_BOLD);
	assert_int_equal(th.style[ROLE_HEADER].fg.kind, TC_RGB);
	assert_int_equal(th.style[ROLE_HEADER].fg.g, 255);
	assert_int_equal(th.style[ROLE_HEADER].bg.index, 17);
	assert_int_equal(th.style[ROLE_HEADER].attrs, TA_UNDERLINE);
	/* The rejected title line left the default alone. */
	assert_int_equal(th.style[ROLE_TITLE].bg.index, 4);
	theme_free(&th);
}

static void test_load_missing_theme(void **state)
{
	struct theme th;

	(void) state;
	setenv("WINNOW_THEMES_DIR", "/nonexistent", 1);
	theme_init(&th);
	assert_false(theme_load(&th, "nosuch"));
	assert_int_equal(th.errors.n, 1);
	assert_non_null(strstr(th.errors.msg[0], "no theme named 'nosuch'"));
	assert_false(theme_load(&th, "/nonexistent/x.theme"));
	assert_int_equal(th.errors.n, 2);
	assert_true(theme_load(&th, NULL));
	theme_free(&th);
}

/* A FIFO would block the start for ever, /dev/zero would read until
 * memory runs out: only regular files of a sane size are themes. */
static void test_load_not_a_file(void **state)
{
	char dir[] = "/tmp/winnow-theme.XXXXXX", fifo[64], big[64];
	struct theme th;
	FILE *f;

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo.theme", dir);
	snprintf(big, sizeof(big), "%s/big.theme", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_non_null(f = fopen(big, "w"));
	for (int i = 0; i < 300 * 1024 / 16; i++)
		fputs("# a comment ..\n", f);
	fclose(f);
	theme_init(&th);
	assert_false(theme_load(&th, fifo));
	assert_int_equal(th.errors.n, 1);
	assert_non_null(strstr(th.errors.msg[0], "not a regular file"));
	assert_false(theme_load(&th, "/dev/zero"));
	assert_non_null(strstr(th.errors.msg[1], "not a regular file"));
	assert_false(theme_load(&th, big));
	assert_non_null(strstr(th.errors.msg[2], "256 KiB"));
	/* A directory of themes holding a FIFO by the theme's name. */
	setenv("WINNOW_THEMES_DIR", dir, 1);
	assert_false(theme_load(&th, "fifo"));
	assert_non_null(strstr(th.errors.msg[3], "not a regular file"));
	theme_free(&th);
	unlink(fifo);
	unlink(big);
	rmdir(dir);
}

static void test_load_by_name(void **state)
{
	const char *top = getenv("WN_TOP_SRCDIR");
	char dir[4096];
	struct theme th;

	(void) state;
	snprintf(dir, sizeof(dir), "%s/themes", top ? top : ".");
	setenv("WINNOW_THEMES_DIR", dir, 1);
	theme_init(&th);
	assert_true(theme_load(&th, "mono"));
	assert_int_equal(th.errors.n, 0);
	assert_true(th.style[ROLE_CURSOR].attrs & TA_REVERSE);
	theme_free(&th);
}

static void test_color_words(void **state)
{
	struct theme_color c;

	(void) state;
	assert_true(theme_color_parse("default", &c));
	assert_int_equal(c.kind, TC_DEFAULT);
	assert_true(theme_color_parse("red", &c));
	assert_int_equal(c.index, 1);
	assert_true(theme_color_parse("brightred", &c));
	assert_int_equal(c.index, 9);
	assert_true(theme_color_parse("BrightWhite", &c));
	assert_int_equal(c.index, 15);
	assert_true(theme_color_parse("color200", &c));
	assert_int_equal(c.index, 200);
	assert_true(theme_color_parse("#0a0B0c", &c));
	assert_int_equal(c.kind, TC_RGB);
	assert_int_equal(c.r, 10);
	assert_int_equal(c.g, 11);
	assert_int_equal(c.b, 12);
	assert_false(theme_color_parse("color256", &c));
	assert_false(theme_color_parse("color", &c));
	assert_false(theme_color_parse("color-1", &c));
	assert_false(theme_color_parse("#ff00", &c));
	assert_false(theme_color_parse("#gg0000", &c));
	assert_false(theme_color_parse("brightmauve", &c));
}

static int map(const char *word, int ncolors)
{
	struct theme_color c;

	assert_true(theme_color_parse(word, &c));
	return theme_color_map(&c, ncolors);
}

static void test_color_mapping(void **state)
{
	(void) state;
	assert_int_equal(map("default", 256), -1);
	assert_int_equal(map("red", 8), 1);
	assert_int_equal(map("color200", 256), 200);
	/* Nearest of what the terminal has. */
	assert_int_equal(map("#ff0000", 256), 196);
	assert_int_equal(map("#ff0000", 16), 9);
	assert_int_equal(map("#ff0000", 8), 1);
	assert_int_equal(map("brightred", 8), 1);
	assert_int_equal(map("color196", 16), 9);
	assert_int_equal(map("color21", 8), 4);	/* pure blue */
	assert_int_equal(map("#000000", 256), 16);	/* the cube, not the retunable base 16 */
	assert_int_equal(map("#808080", 256), 244);
	assert_int_equal(map("red", 0), -1);	/* no colours at all */
}

static void test_keymap_table(void **state)
{
	struct keymap km;

	(void) state;
	assert_true(keymap_init(&km));
	assert_int_equal(keymap_lookup(&km, 0, 'j'), ACT_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, 0, KEYMAP_FN(KEY_DOWN)), ACT_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, 0, 'k'), ACT_MOVE_UP);
	assert_int_equal(keymap_lookup(&km, 0, '\n'), ACT_OPEN);
	assert_int_equal(keymap_lookup(&km, 0, '\r'), ACT_OPEN);
	assert_int_equal(keymap_lookup(&km, 0, KEYMAP_FN(KEY_ENTER)), ACT_OPEN);
	assert_int_equal(keymap_lookup(&km, 0, ' '), ACT_PAGE_DOWN);
	assert_int_equal(keymap_lookup(&km, 0, '-'), ACT_PAGE_UP);
	assert_int_equal(keymap_lookup(&km, 0, '\t'), ACT_NEXT_FINDING);
	assert_int_equal(keymap_lookup(&km, 0, KEYMAP_FN(KEY_BTAB)), ACT_PREV_FINDING);
	assert_int_equal(keymap_lookup(&km, 0, 'q'), ACT_BACK);
	assert_int_equal(keymap_lookup(&km, 0, 'Q'), ACT_QUIT);
	assert_int_equal(keymap_lookup(&km, 0, 'v'), ACT_MARK_VALID);
	assert_int_equal(keymap_lookup(&km, 0, 'f'), ACT_MARK_FALSE);
	assert_int_equal(keymap_lookup(&km, 0, 'p'), ACT_MARK_PRE);
	assert_int_equal(keymap_lookup(&km, 0, 'u'), ACT_MARK_UNTRIAGED);
	assert_int_equal(keymap_lookup(&km, 0, 'U'), ACT_UNDO);
	assert_int_equal(keymap_lookup(&km, 0, '$'), ACT_SYNC);
	assert_int_equal(keymap_lookup(&km, 0, 's'), ACT_SYNC);
	assert_int_equal(keymap_lookup(&km, 0, 12), ACT_REDRAW);
	assert_int_equal(keymap_lookup(&km, 0, 'w'), ACT_NONE);

	/* No key does two things; every action has a key, a name, help. */
	for (size_t i = 0; i < km.n; i++)
		for (size_t j = i + 1; j < km.n; j++)
			if (km.b[i].key == km.b[j].key)
				fail_msg("key %d bound to %s and %s", km.b[i].key,
					 action_name(km.b[i].action), action_name(km.b[j].action));
	for (int a = 1; a < ACT_COUNT; a++) {
		char key[16];

		assert_true(action_first_key((enum action) a, key, sizeof(key)) > 0);
		assert_true(strlen(action_help((enum action) a)) > 0);
		for (int b = a + 1; b < ACT_COUNT; b++)
			assert_string_not_equal(action_name((enum action) a), action_name((enum action) b));
		assert_int_equal(action_from_name(action_name((enum action) a)), a);
	}
	assert_int_equal(action_from_name("none"), ACT_NONE);
	assert_int_equal(action_from_name("no-such-action"), ACT_COUNT);
	keymap_free(&km);
}

/* winnow.bind.<view>.<key>: a view's binding wins over the defaults in
 * that view only; "none" unbinds; the keys shown follow. */
static void test_keymap_bind(void **state)
{
	struct keymap km;
	char keys[64], name[16];

	(void) state;
	assert_true(keymap_init(&km));
	assert_int_equal(keymap_key_parse("\xc3\xa4"), 0xe4);	/* ä */
	assert_int_equal(keymap_key_parse("C-x"), 24);
	assert_int_equal(keymap_key_parse("nope"), -1);
	keymap_key_name(KEYMAP_FN(KEY_NPAGE), name, sizeof(name));
	assert_string_equal(name, "PgDn");
	keymap_key_name(12, name, sizeof(name));
	assert_string_equal(name, "C-l");

	assert_true(keymap_bind(&km, 2, 'w', ACT_MARK_VALID));
	assert_true(keymap_bind(&km, 2, 'v', ACT_NONE));
	assert_int_equal(keymap_lookup(&km, 2, 'w'), ACT_MARK_VALID);
	assert_int_equal(keymap_lookup(&km, 2, 'v'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, 1, 'w'), ACT_NONE);
	assert_int_equal(keymap_lookup(&km, 1, 'v'), ACT_MARK_VALID);
	keymap_keys_of(&km, 2, ACT_MARK_VALID, keys, sizeof(keys));
	assert_string_equal(keys, "w");
	keymap_keys_of(&km, 1, ACT_MARK_VALID, keys, sizeof(keys));
	assert_string_equal(keys, "v");
	keymap_keys_of(&km, 1, ACT_OPEN, keys, sizeof(keys));
	assert_string_equal(keys, "Enter");
	keymap_key_of(&km, 1, ACT_MOVE_DOWN, keys, sizeof(keys));
	assert_string_equal(keys, "j");
	keymap_free(&km);
}

/* The colour of each verdict, severity and attribution status; values
 * out of range take the neutral one. */
static void test_roles(void **state)
{
	(void) state;
	assert_int_equal(role_of_verdict(WN_VERDICT_UNTRIAGED), ROLE_V_UNTRIAGED);
	assert_int_equal(role_of_verdict(WN_VERDICT_VALID), ROLE_V_VALID);
	assert_int_equal(role_of_verdict(WN_VERDICT_FALSE_POSITIVE), ROLE_V_FALSE_POSITIVE);
	assert_int_equal(role_of_verdict(WN_VERDICT_PREEXISTING), ROLE_V_PREEXISTING);
	assert_int_equal(role_of_verdict(WN_VERDICT_COUNT), ROLE_V_UNTRIAGED);

	assert_int_equal(role_of_severity(WN_SEV_NONE), ROLE_SEV_UNKNOWN);
	assert_int_equal(role_of_severity(WN_SEV_CRITICAL), ROLE_SEV_CRITICAL);
	assert_int_equal(role_of_severity(WN_SEV_HIGH), ROLE_SEV_HIGH);
	assert_int_equal(role_of_severity(WN_SEV_MEDIUM), ROLE_SEV_MEDIUM);
	assert_int_equal(role_of_severity(WN_SEV_LOW), ROLE_SEV_LOW);
	assert_int_equal(role_of_severity(WN_SEV_ERROR), ROLE_SEV_ERROR);
	assert_int_equal(role_of_severity(WN_SEV_WARNING), ROLE_SEV_WARNING);
	assert_int_equal(role_of_severity(WN_SEV_NOTE), ROLE_SEV_NOTE);
	assert_int_equal(role_of_severity(WN_SEV_UNKNOWN), ROLE_SEV_UNKNOWN);
	assert_int_equal(role_of_severity(WN_SEV_COUNT), ROLE_SEV_UNKNOWN);

	assert_int_equal(role_of_attr(WN_ATTR_NONE), ROLE_A_NONE);
	assert_int_equal(role_of_attr(WN_ATTR_MODEL), ROLE_A_MODEL);
	assert_int_equal(role_of_attr(WN_ATTR_GENERIC), ROLE_A_GENERIC);
	assert_int_equal(role_of_attr(WN_ATTR_OTHER), ROLE_A_OTHER);
	assert_int_equal(role_of_attr(WN_ATTR_COUNT), ROLE_A_NONE);
}

/* v f p u give their verdicts; no other action gives one. */
static void test_mark_verdicts(void **state)
{
	(void) state;
	for (int a = 0; a < ACT_COUNT; a++) {
		wn_verdict v = WN_VERDICT_COUNT;
		bool marks = tui_action_verdict((enum action) a, &v);

		switch (a) {
		case ACT_MARK_VALID:
			assert_true(marks);
			assert_int_equal(v, WN_VERDICT_VALID);
			break;
		case ACT_MARK_FALSE:
			assert_true(marks);
			assert_int_equal(v, WN_VERDICT_FALSE_POSITIVE);
			break;
		case ACT_MARK_PRE:
			assert_true(marks);
			assert_int_equal(v, WN_VERDICT_PREEXISTING);
			break;
		case ACT_MARK_UNTRIAGED:
			assert_true(marks);
			assert_int_equal(v, WN_VERDICT_UNTRIAGED);
			break;
		default:
			if (marks)
				fail_msg("%s gives a verdict", action_name((enum action) a));
			assert_int_equal(v, WN_VERDICT_COUNT);
			break;
		}
	}
}

static void test_key_names(void **state)
{
	(void) state;
	assert_int_equal(keymap_key_parse("C-l"), 12);
	assert_int_equal(keymap_key_parse("Space"), ' ');
	assert_int_equal(keymap_key_parse("PgDn"), KEYMAP_FN(KEY_NPAGE));
	assert_int_equal(keymap_key_parse("x"), 'x');
	assert_int_equal(keymap_key_parse("Nope"), -1);
	assert_int_equal(keymap_key_parse("C-"), -1);
	assert_int_equal(keymap_key_parse(""), -1);
	/* A blank is spelled Space: a bare one is a typo, not a key. */
	assert_int_equal(keymap_key_parse(" "), -1);
	/* An overlong UTF-8 form (C0 80 for NUL, C1 BF for DEL) names
	 * no key: only the shortest form of a character does. */
	assert_int_equal(keymap_key_parse("\xc0\x80"), -1);
	assert_int_equal(keymap_key_parse("\xc1\xbf"), -1);
	assert_int_equal(keymap_key_parse("\xc2\x80"), 0x80);
}

/* The help and the error messages name a control key as it is bound,
 * C-a to C-z; the code after C-z is Esc, which has its own name. */
static void test_key_names_control(void **state)
{
	char name[16];

	(void) state;
	keymap_key_name(1, name, sizeof(name));
	assert_string_equal(name, "C-a");
	keymap_key_name(26, name, sizeof(name));
	assert_string_equal(name, "C-z");
	assert_int_equal(keymap_key_parse("C-z"), 26);
	keymap_key_name(27, name, sizeof(name));
	assert_string_equal(name, "Esc");
	keymap_key_name(28, name, sizeof(name));
	assert_string_equal(name, "#28");
}

/* The character curses holds at (y, x) of stdscr. */
static wchar_t cell(int y, int x)
{
	cchar_t cc;
	wchar_t w[CCHARW_MAX + 1];
	attr_t a;
	short pair;

	assert_int_equal(mvin_wch(y, x, &cc), OK);
	assert_int_equal(getcchar(&cc, w, &a, &pair, NULL), OK);
	return w[0];
}

/* draw_text_attr, the one way text reaches the screen, on a screen that
 * lives only in curses' memory (no terminal): a character the locale
 * cannot print is drawn as '?', text is cut with an ellipsis at the
 * right margin however wide a caller asks, and nothing is drawn from
 * the margin on.  (draw_fill's own bounds cannot be seen: mvhline clips
 * at the margin and refuses to start past it by itself.) */
static void test_draw_text_edges(void **state)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *sc;
	int cols;

	(void) state;
	assert_non_null(out);
	assert_non_null(in);
	if (!(sc = newterm("xterm", out, in))) {
		fclose(out);
		fclose(in);
		skip();
	}
	set_term(sc);
	cols = COLS;
	/* U+0378 is unassigned: wcwidth() refuses it */
	assert_int_equal(draw_text_attr(0, 0, 10, A_NORMAL, "a\xcd\xb8z"), 3);
	assert_int_equal(cell(0, 0), L'a');
	assert_int_equal(cell(0, 1), L'?');
	assert_int_equal(cell(0, 2), L'z');
	/* asked for one column more than the three left: two and the
	 * ellipsis ('~': display_init, which learns the locale, did not
	 * run), nothing wrapped to the next line */
	assert_int_equal(draw_text_attr(1, cols - 3, 4, A_NORMAL, "abcd"), 3);
	assert_int_equal(cell(1, cols - 3), L'a');
	assert_int_equal(cell(1, cols - 2), L'b');
	assert_int_equal(cell(1, cols - 1), L'~');
	assert_int_equal(cell(2, 0), L' ');
	assert_int_equal(draw_text_attr(2, cols - 3, 10, A_NORMAL, "abcd"), 3);
	assert_int_equal(cell(2, cols - 1), L'~');
	assert_int_equal(cell(3, 0), L' ');
	/* at the margin: no column used */
	assert_int_equal(draw_text_attr(3, cols, 5, A_NORMAL, "abc"), 0);
	assert_int_equal(draw_text_attr(3, cols - 1, 5, A_NORMAL, ""), 0);
	endwin();
	delscreen(sc);
	fclose(out);
	fclose(in);
}

static void wrap_check(const char *in, int width, bool wrap, const char *const *want)
{
	char **lines = NULL;
	size_t n = 0, k = 0;

	assert_true(text_wrap(in, width, wrap, &lines, &n));
	for (; want[k]; k++) {
		assert_true(k < n);
		assert_string_equal(lines[k], want[k]);
	}
	assert_int_equal(n, k);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* A 200,000-line body: the array of lines grows geometrically (one
 * realloc per line was quadratic under the sanitizers), and every line
 * comes back. */
static void test_wrap_many_lines(void **state)
{
	size_t nl = 200000, n = 0;
	char *in = malloc(2 * nl + 1), **lines = NULL;

	(void) state;
	assert_non_null(in);
	for (size_t i = 0; i < nl; i++) {
		in[2 * i] = (char) ('a' + i % 26);
		in[2 * i + 1] = '\n';
	}
	in[2 * nl - 1] = '\0';
	assert_true(text_wrap(in, 80, true, &lines, &n));
	assert_int_equal(n, nl);
	assert_string_equal(lines[nl - 1], "h");	/* 199999 % 26 == 7 */
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(in);
}

static void test_wrap(void **state)
{
	(void) state;
	wrap_check("one two three four", 9, true, (const char *[]) { "one two", "three", "four", NULL });
	wrap_check("a\nb", 80, true, (const char *[]) { "a", "b", NULL });
	/* Tabs expand to 8-column stops; code is not wrapped. */
	wrap_check(" \t\tif (x)", 10, false, (const char *[]) { "                if (x)", NULL });
	wrap_check("+\tx", 80, false, (const char *[]) { "+       x", NULL });
	/* A word longer than the width is cut. */
	wrap_check("abcdefghij", 4, true, (const char *[]) { "abcd", "efgh", "ij", NULL });
	/* Escapes are gone before wrapping; a CR leaves a space. */
	wrap_check("red\x1b[31m text\r\x1b]0;pwned\x07!", 80, true, (const char *[]) { "red text !", NULL });
	/* Double-width characters count two columns and are never split. */
	wrap_check("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2", 5, true,
		   (const char *[]) { "\xe6\xbc\xa2\xe5\xad\x97", "\xe6\xbc\xa2", NULL });
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_sets_every_role),
		cmocka_unit_test(test_default_theme_file_is_builtin),
		cmocka_unit_test(test_shipped_themes_parse_cleanly),
		cmocka_unit_test(test_errors_carry_file_and_line),
		cmocka_unit_test(test_load_missing_theme),
		cmocka_unit_test(test_load_by_name),
		cmocka_unit_test(test_load_not_a_file),
		cmocka_unit_test(test_wrap_many_lines),
		cmocka_unit_test(test_color_words),
		cmocka_unit_test(test_color_mapping),
		cmocka_unit_test(test_keymap_table),
		cmocka_unit_test(test_keymap_bind),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_mark_verdicts),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_key_names_control),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_draw_text_edges),
	};

	/* Wide-character widths need a UTF-8 locale. */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
