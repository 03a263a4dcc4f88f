/* winnow TUI — colour roles and theme files. */
#include "autoconfig.h"

#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "winnow/buf.h"
#include "theme.h"

#ifndef WN_DATADIR
#define WN_DATADIR "/usr/local/share/winnow"
#endif

/* The built-in theme is the role table written out as a theme file. */
const char theme_builtin[] =
	"# winnow default theme (compiled in; themes/default.theme is identical)\n"
#define THEME_X_(e, name, def) "color " name " " def "\n"
	THEME_ROLES(THEME_X_)
#undef THEME_X_
	;

static const char *const role_names[] = {
#define THEME_X_(e, name, def) name,
	THEME_ROLES(THEME_X_)
#undef THEME_X_
};

static const struct {
	const char *name;
	unsigned attr;
} attr_names[] = {
	{ "normal", 0 },
	{ "bold", TA_BOLD },
	{ "underline", TA_UNDERLINE },
	{ "reverse", TA_REVERSE },
	{ "dim", TA_DIM },
	{ "standout", TA_STANDOUT },
	{ "italic", TA_ITALIC },
};

static const char *const color_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

/* xterm's values for the 16 named colours, used to find the nearest. */
static const unsigned char base16_rgb[16][3] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
	{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
	{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
};

const char *theme_role_name(enum role r)
{
	return (unsigned) r < ROLE_COUNT ? role_names[r] : "?";
}

enum role theme_role_from_name(const char *name)
{
	for (int r = 0; r < ROLE_COUNT; r++)
		if (!strcmp(role_names[r], name))
			return (enum role) r;
	return ROLE_COUNT;
}

static void add_error(struct theme *th, const char *origin, unsigned line,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add_error(struct theme *th, const char *origin, unsigned line,
		      const char *fmt, ...)
{
	wn_buf b = WN_BUF_INIT;
	va_list ap;
	char **grown;

	if (line)
		wn_buf_printf(&b, "%s:%u: ", origin, line);
	else
		wn_buf_printf(&b, "%s: ", origin);
	va_start(ap, fmt);
	wn_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	grown = realloc(th->errors.msg, (th->errors.n + 1) * sizeof(*grown));
	if (!grown) {
		wn_buf_free(&b);
		return;
	}
	th->errors.msg = grown;
	/* NULL when the message ran out of memory: say that instead of
	 * half of it (or a hole in the list). */
	if (!(th->errors.msg[th->errors.n] = wn_buf_steal(&b)) &&
	    !(th->errors.msg[th->errors.n] = strdup("out of memory")))
		return;
	th->errors.n++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool theme_color_parse(const char *w, struct theme_color *out)
{
	memset(out, 0, sizeof(*out));
	if (!strcasecmp(w, "default") || !strcmp(w, "-1")) {
		out->kind = TC_DEFAULT;
		return true;
	}
	if (w[0] == '#') {
		int v[6];

		if (strlen(w) != 7)
			return false;
		for (int i = 0; i < 6; i++)
			if ((v[i] = hexval(w[i + 1])) < 0)
				return false;
		out->kind = TC_RGB;
		out->r = (unsigned char) (v[0] * 16 + v[1]);
		out->g = (unsigned char) (v[2] * 16 + v[3]);
		out->b = (unsigned char) (v[4] * 16 + v[5]);
		return true;
	}
	if (!strncasecmp(w, "color", 5) && w[5]) {
		char *end;
		long n;

		errno = 0;
		n = strtol(w + 5, &end, 10);
		if (*end || errno || n < 0 || n > 255)
			return false;
		out->kind = TC_INDEX;
		out->index = (int) n;
		return true;
	}
	for (int bright = 0; bright < 2; bright++) {
		const char *name = w;

		if (bright) {
			if (strncasecmp(w, "bright", 6))
				break;
			name = w + 6;
		}
		for (int i = 0; i < 8; i++)
			if (!strcasecmp(name, color_names[i])) {
				out->kind = TC_INDEX;
				out->index = i + 8 * bright;
				return true;
			}
	}
	if (!strcasecmp(w, "gray") || !strcasecmp(w, "grey")) {
		out->kind = TC_INDEX;
		out->index = 8;
		return true;
	}
	return false;
}

/* RGB of a 256-colour palette index, the xterm way. */
static void index_rgb(int i, unsigned char rgb[3])
{
	static const unsigned char cube[6] = { 0, 95, 135, 175, 215, 255 };

	if (i < 16) {
		memcpy(rgb, base16_rgb[i], 3);
	} else if (i < 232) {
		i -= 16;
		rgb[0] = cube[i / 36];
		rgb[1] = cube[(i / 6) % 6];
		rgb[2] = cube[i % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = (unsigned char) (8 + 10 * (i - 232));
	}
}

static long dist2(const unsigned char a[3], const unsigned char b[3])
{
	long d = 0;

	for (int i = 0; i < 3; i++)
		d += (long) (a[i] - b[i]) * (a[i] - b[i]);
	return d;
}

int theme_color_map(const struct theme_color *c, int ncolors)
{
	unsigned char want[3], have[3];
	int limit, best = -1;
	long best_d = -1;

	if (c->kind == TC_DEFAULT || ncolors <= 0)
		return -1;
	if (c->kind == TC_INDEX && c->index < ncolors)
		return c->index;
	if (c->kind == TC_RGB) {
		want[0] = c->r;
		want[1] = c->g;
		want[2] = c->b;
	} else {
		index_rgb(c->index, want);
	}
	/* On 256 colours, look in the cube and the grey ramp only: users
	 * retune the 16 base colours, the rest is fixed.  88-colour
	 * terminals use another cube, so stay with the 16 base colours. */
	limit = ncolors >= 256 ? 256 : ncolors >= 16 ? 16 : 8;
	for (int i = ncolors >= 256 ? 16 : 0; i < limit; i++) {
		long d;

		index_rgb(i, have);
		d = dist2(want, have);
		if (best_d < 0 || d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return best;
}

/* Split the next whitespace-separated word off *p; NULL at the end. */
static char *next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

static void parse_color_cmd(struct theme *th, const char *origin, unsigned ln, char *rest)
{
	char *role_w = next_word(&rest), *fg_w, *bg_w, *w;
	struct theme_style st = { .attrs = 0 };
	enum role role;

	if (!role_w) {
		add_error(th, origin, ln, "color: missing role");
		return;
	}
	role = theme_role_from_name(role_w);
	if (role == ROLE_COUNT) {
		add_error(th, origin, ln, "unknown role '%s'", role_w);
		return;
	}
	fg_w = next_word(&rest);
	bg_w = next_word(&rest);
	if (!fg_w || !bg_w) {
		add_error(th, origin, ln, "color %s: need a foreground and a background", role_w);
		return;
	}
	if (!theme_color_parse(fg_w, &st.fg)) {
		add_error(th, origin, ln, "unknown colour '%s'", fg_w);
		return;
	}
	if (!theme_color_parse(bg_w, &st.bg)) {
		add_error(th, origin, ln, "unknown colour '%s'", bg_w);
		return;
	}
	while ((w = next_word(&rest))) {
		size_t i;

		for (i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
			if (!strcasecmp(w, attr_names[i].name))
				break;
		if (i == sizeof(attr_names) / sizeof(attr_names[0])) {
			/* Keep what was understood: a typo in one attribute
			 * should not lose the role's colours. */
			add_error(th, origin, ln, "unknown attribute '%s'", w);
			continue;
		}
		st.attrs |= attr_names[i].attr;
	}
	th->style[role] = st;
}

void theme_parse(struct theme *th, const char *origin, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	unsigned ln = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		char *line = malloc(n + 1), *rest, *cmd;

		ln++;
		if (!line)
			return;
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl ? 1 : 0);
		for (char *c = line; *c; c++)
			if (*c == '\r')
				*c = ' ';
		rest = line;
		cmd = next_word(&rest);
		if (!cmd || cmd[0] == '#') {
			free(line);
			continue;
		}
		if (!strcmp(cmd, "color"))
			parse_color_cmd(th, origin, ln, rest);
		else
			add_error(th, origin, ln, "unknown command '%s'", cmd);
		free(line);
	}
}

void theme_init(struct theme *th)
{
	memset(th, 0, sizeof(*th));
	theme_parse(th, "built-in theme", theme_builtin, strlen(theme_builtin));
}

void theme_free(struct theme *th)
{
	for (size_t i = 0; i < th->errors.n; i++)
		free(th->errors.msg[i]);
	free(th->errors.msg);
	th->errors.msg = NULL;
	th->errors.n = 0;
}

/* Larger than any theme: a path to something else (a log, a device). */
#define THEME_MAX (256 * 1024)

/* Read a whole theme file; NULL with *why set when it cannot.  Only a
 * regular file of a sane size (wn_file_read): a FIFO would block the
 * start for ever and /dev/zero would read until memory runs out.  *why
 * is static or *whybuf's, valid until the next call. */
static char *slurp(const char *path, size_t *len, const char **why)
{
	static char whybuf[128];
	wn_error err = WN_ERROR_INIT;
	char *text = NULL;
	wn_status st;

	*why = NULL;
	st = wn_file_read(path, THEME_MAX, 0, &text, len, &err);
	/* No such file: *why stays NULL, the search goes on. */
	if (st != WN_OK && st != WN_NOT_FOUND) {
		snprintf(whybuf, sizeof(whybuf), "%s", wn_error_msg(&err));
		*why = whybuf;
	}
	wn_error_clear(&err);
	return text;
}

/* Load path; false when it cannot be read: *why says why, or is NULL
 * when there is no such file (which a search along a path expects). */
static bool load_path(struct theme *th, const char *path, const char **why)
{
	size_t len = 0;
	char *text = slurp(path, &len, why);

	if (!text)
		return false;
	theme_parse(th, path, text, len);
	free(text);
	return true;
}

bool theme_load(struct theme *th, const char *name)
{
	const char *env = getenv("WINNOW_THEMES_DIR");
	wn_buf path = WN_BUF_INIT;
	const char *why = NULL;
	bool ok = false;

	if (!name || !*name)
		return true;
	if (strchr(name, '/')) {
		if (!(ok = load_path(th, name, &why)))
			add_error(th, name, 0, "%s", why ? why : strerror(ENOENT));
		return ok;
	}
	/* A path cut short by a failed allocation names another file: the
	 * buffer is checked before each use. */
	if (env && *env && wn_buf_printf(&path, "%s/%s.theme", env, name) == WN_OK)
		ok = load_path(th, wn_buf_str(&path), &why);
	if (!ok && !why) {
		wn_buf_reset(&path);
		if (wn_buf_printf(&path, "%s/themes/%s.theme", WN_DATADIR, name) == WN_OK)
			ok = load_path(th, wn_buf_str(&path), &why);
	}
	if (!ok && why)
		add_error(th, wn_buf_str(&path), 0, "%s", why);
	else if (!ok)
		add_error(th, "theme", 0, "no theme named '%s' (looked in %s%s%s/themes)",
			  name, env && *env ? env : "", env && *env ? " and " : "",
			  WN_DATADIR);
	wn_buf_free(&path);
	return ok;
}

chtype theme_ta(unsigned a)
{
	chtype c = 0;

	if (a & TA_BOLD)
		c |= A_BOLD;
	if (a & TA_UNDERLINE)
		c |= A_UNDERLINE;
	if (a & TA_REVERSE)
		c |= A_REVERSE;
	if (a & TA_DIM)
		c |= A_DIM;
	if (a & TA_STANDOUT)
		c |= A_STANDOUT;
#ifdef A_ITALIC
	if (a & TA_ITALIC)
		c |= A_ITALIC;
#endif
	return c;
}

void theme_apply(struct theme *th)
{
	const char *no_color = getenv("NO_COLOR");

	/* no-color.org: present and not empty means no colour at all. */
	th->color = has_colors() && !(no_color && *no_color);
	if (th->color && start_color() == ERR)
		th->color = false;
	if (th->color)
		use_default_colors();
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *st = &th->style[r];
		chtype a = theme_ta(st->attrs);

		if (th->color && r + 1 < COLOR_PAIRS) {
			init_pair((short) (r + 1), (short) theme_color_map(&st->fg, COLORS),
				  (short) theme_color_map(&st->bg, COLORS));
			a |= COLOR_PAIR(r + 1);
		} else if (!th->color && (r == ROLE_CURSOR || r == ROLE_TITLE) &&
			   !(st->attrs & (TA_REVERSE | TA_STANDOUT))) {
			/* A theme written for colour marks the cursor bar and
			 * the title by colour alone: keep them visible. */
			a |= A_REVERSE;
		}
		th->attr[r] = a;
	}
}
