/* winnow — the trailer block of a patch and its LLM attribution.
 *
 * Which lines form the trailer block follows git exactly (trailer.c of
 * git 2.39, what `git interpret-trailers --parse` prints), because that
 * is what kernel tooling (b4, checkpatch, git itself) agrees on;
 * tests/unit/trailer-oracle.sh checks us against git on the corpus. */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/text.h"
#include "winnow/trailer.h"

static const struct {
	const char *name, *badge;
} attr_info[] = {
#define WN_X_(e, name, badge) { name, badge },
	WN_ATTR_LIST(WN_X_)
#undef WN_X_
};

const char *wn_attr_name(wn_attr_status s)
{
	if ((unsigned) s >= WN_ATTR_COUNT)
		return "none";
	return attr_info[s].name;
}

const char *wn_attr_badge(wn_attr_status s)
{
	if ((unsigned) s >= WN_ATTR_COUNT)
		return "-";
	return attr_info[s].badge;
}

/* git's ctype is ASCII-only; so is ours (str.h), whatever the locale. */
static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool eq_ci(const char *a, const char *b)
{
	return wn_text_prefix_ci(a, b) && strlen(a) == strlen(b);
}

/* ---- the commit message inside a patch mail ---------------------------- */

/* Where git am stops taking the commit message (mailinfo.c's
 * patchbreak()): a "diff -" or "Index: " line, "---" followed by only
 * blanks (the usual separator before the diffstat), or "--- file". */
static bool is_patch_break(const char *l, size_t n)
{
	if (wn_str_prefix(l, n, "diff -") || wn_str_prefix(l, n, "Index: "))
		return true;
	if (!wn_str_prefix(l, n, "---"))
		return false;
	if (n > 4 && l[3] == ' ' && !str_space(l[4]))
		return true;
	return wn_str_blank(l + 3, n - 3);
}

static size_t commit_msg_end(const char *s, size_t len)
{
	size_t pos = 0, n;
	const char *l;

	while (wn_str_next_line(s, len, &pos, &l, &n))
		if (is_patch_break(l, n))
			return (size_t) (l - s);
	return len;
}

/* git's wt_status_locate_end(): a commit template's scissors line
 * ends the message. */
static size_t scissors_end(const char *s, size_t len)
{
	static const char cut[] = "# ------------------------ >8 ------------------------";
	size_t pos = 0, n;
	const char *l;

	/* the whole line, its '\n' included */
	while (wn_str_next_line(s, len, &pos, &l, &n))
		if (wn_str_eq(l, n, cut) && l + n < s + len)
			return (size_t) (l - s);
	return len;
}

/* git's ignored_log_message_bytes(): a trailing run of comment lines,
 * blank lines and an old "Conflicts:" block is not part of the
 * message.  Returns the new end. */
static size_t strip_ignored(const char *s, size_t len)
{
	size_t cutoff = scissors_end(s, len), pos = 0, boc = 0, n;
	bool in_conflicts = false, have_boc = false;
	const char *l;

	while (pos < cutoff && wn_str_next_line(s, len, &pos, &l, &n)) {
		if (!n || l[0] == '#') {
			if (!have_boc) {
				boc = (size_t) (l - s);
				have_boc = true;
			}
		} else if (wn_str_eq(l, n, "Conflicts:") && l + n < s + len) {
			in_conflicts = true;
			if (!have_boc) {
				boc = (size_t) (l - s);
				have_boc = true;
			}
		} else if (in_conflicts && l[0] == '\t') {
			;	/* a path in the conflicts block */
		} else if (have_boc) {
			have_boc = false;
			in_conflicts = false;
		}
	}
	return have_boc ? boc : cutoff;
}

/* ---- git's trailer block ------------------------------------------------ */

typedef struct line {
	size_t off, len;	/* len without the '\n' */
} line;

/* git's find_separator(): a token of [A-Za-z0-9-], optional blanks,
 * then ':'.  Returns the position of ':' or -1. */
static ssize_t find_separator(const char *l, size_t n)
{
	bool ws = false;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = l[i];

		if (c == ':')
			return (ssize_t) i;
		if (!ws && (is_alnum(c) || c == '-'))
			continue;
		if (i && (c == ' ' || c == '\t')) {
			ws = true;
			continue;
		}
		break;
	}
	return -1;
}

/* git's find_trailer_block_start(), reading the body as the message
 * after its title (the mail's Subject is the title): scanning up from
 * the end, the last paragraph is the trailer block when all its lines
 * are trailers, or when it holds a Signed-off-by (git's own trailer)
 * and at least 25% of it are trailers.  Returns the index of the first
 * line of the block, or nl when there is none. */
static size_t block_start(const char *s, const line *lines, size_t nl)
{
	size_t tl = 0, ntl = 0, pcl = 0, k = nl;
	bool only_spaces = true, recognized = false;

	while (k-- > 0) {
		const char *l = s + lines[k].off;
		size_t n = lines[k].len;
		ssize_t sep;

		if (n && l[0] == '#') {
			ntl += pcl;
			pcl = 0;
			continue;
		}
		if (wn_str_blank(l, n)) {
			if (only_spaces)
				continue;
			ntl += pcl;
			if ((recognized && tl * 3 >= ntl) || (tl && !ntl))
				return k + 1;
			return nl;
		}
		only_spaces = false;
		if (wn_str_prefix(l, n, "Signed-off-by: ") ||
		    wn_str_prefix(l, n, "(cherry picked from commit ")) {
			tl++;
			pcl = 0;
			recognized = true;
			continue;
		}
		sep = find_separator(l, n);
		if (sep >= 1 && !str_space(l[0])) {
			tl++;
			pcl = 0;
		} else if (n && str_space(l[0])) {
			pcl++;
		} else {
			ntl += 1 + pcl;
			pcl = 0;
		}
	}
	/* The top of the body: the blank line after the title. */
	if (only_spaces)
		return nl;
	ntl += pcl;
	if ((recognized && tl * 3 >= ntl) || (tl && !ntl))
		return 0;
	return nl;
}

/* git's unfold_value(): each line break and the blanks after it become
 * one space; then trimmed. */
static char *unfold_value(const char *v, size_t n)
{
	wn_buf b = WN_BUF_INIT;
	size_t i = 0;
	char *r;

	while (i < n) {
		char c = v[i++];

		if (c == '\n') {
			while (i < n && str_space(v[i]))
				i++;
			c = ' ';
		}
		if (wn_buf_putc(&b, c) != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	}
	r = wn_buf_steal(&b);
	return r ? wn_text_trim(r) : NULL;
}

static wn_status add_trailer(wn_patch_trailers *t, size_t *cap, const char *text, size_t n)
{
	ssize_t sep = find_separator(text, n);
	const char *v;
	size_t vn;
	char *key;

	/* Comment lines and the non-trailer lines git tolerates in a
	 * block are not trailers (--only-trailers). */
	if (sep < 1 || text[0] == '#')
		return WN_OK;
	if (t->ntrailers == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		wn_trailer *p = realloc(t->trailers, nc * sizeof(*p));

		if (!p)
			return WN_NOMEM;
		t->trailers = p;
		*cap = nc;
	}
	key = wn_strndup(text, (size_t) sep);
	if (!key)
		return WN_NOMEM;
	wn_text_trim(key);
	v = text + sep + 1;
	vn = n - (size_t) sep - 1;
	/* trim before unfolding, as git does */
	while (vn && str_space(*v)) {
		v++;
		vn--;
	}
	while (vn && str_space(v[vn - 1]))
		vn--;
	t->trailers[t->ntrailers].value = unfold_value(v, vn);
	if (!t->trailers[t->ntrailers].value) {
		free(key);
		return WN_NOMEM;
	}
	t->trailers[t->ntrailers].key = key;
	t->ntrailers++;
	return WN_OK;
}

/* Split the block into trailers, joining continuation lines (those
 * starting with a blank) to the trailer above them. */
static wn_status collect(wn_patch_trailers *t, const char *s, const line *lines, size_t from, size_t nl)
{
	wn_buf cur = WN_BUF_INIT;
	bool have = false, joinable = false;
	size_t cap = 0, k;
	wn_status st = WN_OK;

	for (k = from; k < nl && st == WN_OK; k++) {
		const char *l = s + lines[k].off;
		size_t n = lines[k].len;

		/* git tests the first byte, '\n' of an empty line included */
		if (have && joinable && (!n || str_space(l[0]))) {
			if (wn_buf_putc(&cur, '\n') != WN_OK || wn_buf_append(&cur, l, n) != WN_OK)
				st = WN_NOMEM;
			continue;
		}
		if (have)
			st = add_trailer(t, &cap, wn_buf_str(&cur), cur.len);
		wn_buf_reset(&cur);
		if (st == WN_OK && wn_buf_append(&cur, l, n) != WN_OK)
			st = WN_NOMEM;
		have = true;
		joinable = find_separator(l, n) >= 1;
	}
	if (have && st == WN_OK)
		st = add_trailer(t, &cap, wn_buf_str(&cur), cur.len);
	wn_buf_free(&cur);
	return st;
}

static wn_status split_lines(const char *s, size_t len, line **out, size_t *nout)
{
	size_t cap = 0, n = 0, pos = 0, ln;
	const char *l;
	line *v = NULL;

	while (wn_str_next_line(s, len, &pos, &l, &ln)) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			line *p = realloc(v, nc * sizeof(*p));

			if (!p) {
				free(v);
				return WN_NOMEM;
			}
			v = p;
			cap = nc;
		}
		v[n].off = (size_t) (l - s);
		v[n].len = ln;
		n++;
	}
	*out = v;
	*nout = n;
	return WN_OK;
}

/* ---- attribution ----------------------------------------------------- */

/* A tool's name ("[Claude Code]", "[DSDT/XML-Data-Aggregation &
 * Formatting]", "sparse") is at most this long: a longer bracket is a
 * remark, a longer word ends the list.  And no patch names more tools
 * than this. */
#define TOOL_NAME_MAX 64
#define TOOLS_MAX 32

/* Agent and tool names are single words of letters, digits and "._+-"
 * ("Claude", "claude-code", "gemini-cli", "sparse"); this keeps
 * "https://..." or "Fixes: x" from passing for AGENT:MODEL. */
static bool name_ok(const char *a, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!is_alnum(a[i]) && !strchr("._+-", a[i]))
			return false;
	return true;
}

/* Placeholders copied from the documentation ("[sparse]") and list
 * punctuation ("coccinelle, sparse") are not part of a tool's name. */
static void tool_strip(const char **w, size_t *n)
{
	while (*n && ((*w)[*n - 1] == ',' || (*w)[*n - 1] == ';'))
		(*n)--;
	if (*n >= 2 && (((*w)[0] == '[' && (*w)[*n - 1] == ']') ||
			((*w)[0] == '(' && (*w)[*n - 1] == ')'))) {
		(*w)++;
		*n -= 2;
	}
}

static wn_status add_tool(wn_attribution *a, const char *w, size_t n)
{
	char **p;

	tool_strip(&w, &n);
	if (!n)
		return WN_OK;
	p = realloc(a->tools, (a->ntools + 1) * sizeof(*p));
	if (!p)
		return WN_NOMEM;
	a->tools = p;
	a->tools[a->ntools] = wn_strndup(w, n);
	if (!a->tools[a->ntools])
		return WN_NOMEM;
	a->ntools++;
	return WN_OK;
}

/* Could w be a tool's name ("sparse", "[coccinelle]", "smatch,")? */
static bool tool_word(const char *w, size_t n)
{
	tool_strip(&w, &n);
	return n <= TOOL_NAME_MAX && name_ok(w, n);
}

/* Next whitespace-separated word of s at *pos; false at the end. */
static bool next_word(const char *s, size_t *pos, const char **w, size_t *n)
{
	size_t i = *pos;

	while (s[i] && str_space(s[i]))
		i++;
	if (!s[i])
		return false;
	*w = s + i;
	while (s[i] && !str_space(s[i]))
		i++;
	*n = (size_t) (s + i - *w);
	*pos = i;
	return true;
}

enum bracket {
	BR_TOOL,	/* a tool's name, in name[] */
	BR_SKIP,	/* empty or too long: a remark, skipped whole */
	BR_UNCLOSED,	/* no ']' before the end or the next '[' */
	BR_END,		/* a control character inside: not a name */
};

/* The kernel's form is AGENT:MODEL [TOOL1] [TOOL2]: a tool's name runs
 * from s[*pos] == '[' to the first ']' and may hold blanks and
 * punctuation.  Its blanks are trimmed and each run of them becomes one
 * space.  *pos moves past the ']', except for BR_UNCLOSED. */
static enum bracket bracket_at(const char *s, size_t *pos, char name[TOOL_NAME_MAX + 1])
{
	size_t i, n = 0;
	bool ctl = false, blank = false;

	for (i = *pos + 1; s[i] && s[i] != ']' && s[i] != '['; i++) {
		unsigned char c = (unsigned char) s[i];

		if (str_space(s[i])) {
			blank = n > 0;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			ctl = true;
		if (blank && n <= TOOL_NAME_MAX)
			name[n++] = ' ';
		blank = false;
		if (n <= TOOL_NAME_MAX)
			name[n++] = (char) c;
	}
	if (s[i] != ']')
		return BR_UNCLOSED;
	*pos = i + 1;
	if (ctl)
		return BR_END;
	if (!n || n > TOOL_NAME_MAX)
		return BR_SKIP;
	name[n] = '\0';
	return BR_TOOL;
}

static bool word_is(const char *w, size_t n, const char *what)
{
	return n == strlen(what) && wn_text_prefix_ci(w, what);
}

wn_status wn_attribution_parse(const char *value, wn_attribution *a)
{
	const char *w, *colon;
	size_t pos = 0, n;
	wn_status st = WN_OK;

	memset(a, 0, sizeof(*a));
	a->status = WN_ATTR_NONE;
	if (!value)
		return WN_OK;
	a->raw = strdup(value);
	if (!a->raw)
		return WN_NOMEM;
	wn_text_trim(a->raw);
	a->status = WN_ATTR_OTHER;
	if (!next_word(a->raw, &pos, &w, &n))
		return WN_OK;	/* empty value */
	colon = memchr(w, ':', n);
	if (colon && name_ok(w, (size_t) (colon - w)) && colon + 1 < w + n && colon[1] != '/') {
		/* AGENT:MODEL [TOOL...] (kernel 7.0 to 7.2) */
		a->agent = wn_strndup(w, (size_t) (colon - w));
		a->model = wn_strndup(colon + 1, (size_t) (w + n - colon - 1));
		if (!a->agent || !a->model)
			goto nomem;
		a->status = WN_ATTR_MODEL;
	} else if (word_is(w, n, "LLM")) {
		/* LLM [TOOL...] (kernel 7.3 on) */
		a->status = WN_ATTR_GENERIC;
	} else if (word_is(w, n, "Coding")) {
		size_t p2 = pos;

		if (!next_word(a->raw, &p2, &w, &n) || !word_is(w, n, "Assistant"))
			return WN_OK;
		pos = p2;
		a->status = WN_ATTR_GENERIC;
	} else {
		return WN_OK;	/* a bare name, "gpt (o3)", free text */
	}
	/* What follows is a list of tools, but real trailers append free
	 * text too: "Claude:claude-opus-4-5 (review only)", "... via
	 * Claude Code <https://...>".  A bracketed name is taken whole,
	 * blanks and all; a parenthesised remark is skipped whole; a bare
	 * word that cannot be a tool name (a URL, an address) ends the
	 * list. */
	while (st == WN_OK && a->ntools < TOOLS_MAX) {
		char name[TOOL_NAME_MAX + 1];
		enum bracket br;

		while (a->raw[pos] && str_space(a->raw[pos]))
			pos++;
		if (a->raw[pos] == '[') {
			br = bracket_at(a->raw, &pos, name);
			if (br == BR_TOOL)
				st = add_tool(a, name, strlen(name));
			else if (br == BR_END)
				break;
			else if (br == BR_UNCLOSED)
				pos++;	/* its words, one by one */
			continue;
		}
		if (!next_word(a->raw, &pos, &w, &n))
			break;
		if (w[0] == '(' && !(n >= 2 && w[n - 1] == ')' && !memchr(w + 1, '(', n - 2))) {
			while (!(n && w[n - 1] == ')') && next_word(a->raw, &pos, &w, &n))
				;
			continue;
		}
		if (!tool_word(w, n))
			break;
		st = add_tool(a, w, n);
	}
	if (st == WN_OK)
		return WN_OK;
nomem:
	wn_attribution_clear(a);
	return WN_NOMEM;
}

void wn_attribution_clear(wn_attribution *a)
{
	size_t i;

	if (!a)
		return;
	free(a->agent);
	free(a->model);
	for (i = 0; i < a->ntools; i++)
		free(a->tools[i]);
	free(a->tools);
	free(a->raw);
	memset(a, 0, sizeof(*a));
	a->status = WN_ATTR_NONE;
}

/* ---- one key for every spelling of a model ----------------------------- */

#define MODEL_TOKENS 16

struct mtok {
	char text[WN_MODEL_KEY_MAX];
	size_t len;
	bool version, dropped;
};

static bool model_sep(char c)
{
	return (unsigned char) c < 0x80 && !is_alnum(c);
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

static void tok_put(struct mtok *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && t->len + 1 < sizeof(t->text); i++)
		t->text[t->len++] = (char) str_lower((unsigned char) s[i]);
	t->text[t->len] = '\0';
}

/* A context size ("1m", "200k") or a date stamp: not another model.  A
 * version keeps its components before the first of four digits or
 * more ("4.5.20250929" is 4.5); one that starts with it goes. */
static void model_drop(struct mtok *t)
{
	if (!t->version) {
		t->dropped = t->len >= 2 && all_digits(t->text, t->len - 1) &&
			     (t->text[t->len - 1] == 'k' || t->text[t->len - 1] == 'm');
		return;
	}
	for (size_t i = 0, start = 0; i <= t->len; i++) {
		if (i < t->len && t->text[i] != '.')
			continue;
		if (i - start >= 4) {
			t->dropped = start == 0;
			if (start) {
				t->len = start - 1;
				t->text[t->len] = '\0';
			}
			return;
		}
		start = i + 1;
	}
}

static void key_put(char *out, size_t size, size_t *o, const struct mtok *t)
{
	if (*o && *o + 1 < size)
		out[(*o)++] = '-';
	for (size_t i = 0; i < t->len && *o + 1 < size; i++)
		out[(*o)++] = t->text[i];
	out[*o] = '\0';
}

bool wn_model_key(const char *model, char *out, size_t size)
{
	struct mtok tok[MODEL_TOKENS];
	size_t nt = 0, i = 0, o = 0, kept = 0;

	if (!size)
		return false;
	out[0] = '\0';
	if (!model)
		return false;
	while (model[i]) {
		size_t nsep = 0, start;
		char sep = 0;

		for (; model[i] && model_sep(model[i]); i++, nsep++)
			sep = model[i];
		if (!model[i])
			break;
		for (start = i; model[i] && !model_sep(model[i]); i++)
			;
		if (nt && tok[nt - 1].version && nsep == 1 && strchr("-._", sep) &&
		    all_digits(model + start, i - start)) {
			tok_put(&tok[nt - 1], ".", 1);
			tok_put(&tok[nt - 1], model + start, i - start);
			continue;
		}
		if (nt == MODEL_TOKENS)
			break;		/* the rest of an overlong name is not read */
		tok[nt].len = 0;
		tok[nt].dropped = false;
		tok[nt].version = all_digits(model + start, i - start);
		tok_put(&tok[nt], model + start, i - start);
		nt++;
	}
	for (i = 0; i < nt; i++) {
		model_drop(&tok[i]);
		kept += !tok[i].dropped;
	}
	for (int pass = 0; pass < 2; pass++)
		for (i = 0; i < nt; i++)
			if ((!kept || !tok[i].dropped) && tok[i].version == (pass == 1))
				key_put(out, size, &o, &tok[i]);
	return o > 0;
}

/* ---- the whole --------------------------------------------------------- */

static bool same_person(const char *a, const char *b)
{
	char *na = wn_text_normalize(a), *nb = wn_text_normalize(b);
	bool same = na && nb && !strcmp(na, nb);

	free(na);
	free(nb);
	return same;
}

static wn_status classify(wn_patch_trailers *t)
{
	const char *assisted = NULL;
	size_t i;

	for (i = 0; i < t->ntrailers; i++) {
		const wn_trailer *tr = &t->trailers[i];

		if (!assisted && eq_ci(tr->key, "Assisted-by"))
			assisted = tr->value;
		if (eq_ci(tr->key, "Signed-off-by") && *tr->value) {
			free(t->submitter);
			t->submitter = strdup(tr->value);
			if (!t->submitter)
				return WN_NOMEM;
		}
		/* checkpatch's rule: the co-developer's own Signed-off-by
		 * comes right after. */
		if (eq_ci(tr->key, "Co-developed-by") &&
		    (i + 1 >= t->ntrailers || !eq_ci(t->trailers[i + 1].key, "Signed-off-by") ||
		     !same_person(tr->value, t->trailers[i + 1].value)))
			t->codev_unsigned = true;
	}
	return wn_attribution_parse(assisted, &t->attr);
}

wn_status wn_trailers_parse(const char *body, size_t len, wn_patch_trailers **out, wn_error *err)
{
	wn_patch_trailers *t;
	line *lines = NULL;
	size_t nl = 0, end;
	wn_status st;

	if (!out)
		return wn_error_set(err, WN_USAGE, "wn_trailers_parse: no result pointer");
	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	t->attr.status = WN_ATTR_NONE;
	if (!body)
		len = 0;
	end = len ? strip_ignored(body, commit_msg_end(body, len)) : 0;
	st = split_lines(body, end, &lines, &nl);
	if (st == WN_OK)
		st = collect(t, body, lines, block_start(body, lines, nl), nl);
	if (st == WN_OK)
		st = classify(t);
	free(lines);
	if (st != WN_OK) {
		wn_trailers_free(&t);
		return wn_error_set(err, st, "out of memory");
	}
	*out = t;
	return WN_OK;
}

void wn_trailers_free(wn_patch_trailers **tp)
{
	wn_patch_trailers *t;
	size_t i;

	if (!tp || !*tp)
		return;
	t = *tp;
	for (i = 0; i < t->ntrailers; i++) {
		free(t->trailers[i].key);
		free(t->trailers[i].value);
	}
	free(t->trailers);
	wn_attribution_clear(&t->attr);
	free(t->submitter);
	free(t);
	*tp = NULL;
}
