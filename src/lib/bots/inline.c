/* winnow — the quoted-diff walker shared by Sashiko, the BPF CI
 * reviewer, netdev AI reviews and unknown bots, and its comment blocks
 * made findings.
 *
 * These bots quote the patch with "> " and write their comments,
 * unquoted, directly below the code they discuss.  The walker follows
 * the quoted diff headers to know where it is (file, function, new-file
 * line) and cuts the unquoted text into comment blocks: a block runs
 * from the first unquoted line after quoted text up to the next quoted
 * line, snip "[ ... ]", severity tag or footer (the bot's own, see
 * struct rv_inline_opts).  One pass, no backtracking: linear in the
 * size of the body. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "inline.h"

/* ---- lines the walker recognises ---- */

/* Does a quoted ('>') line start here?  *content gets the text after
 * "> " (or ">"). */
static bool quoted_line(const struct rv_line *l, const char **content, size_t *cn)
{
	if (!l->n || l->s[0] != '>')
		return false;
	*content = l->s + 1;
	*cn = l->n - 1;
	if (*cn && (*content)[0] == ' ') {
		(*content)++;
		(*cn)--;
	}
	return true;
}

wn_severity wn_rv_sev_word(const char *s, size_t n)
{
	char word[16];

	wn_str_trim(&s, &n);
	if (!n || n >= sizeof(word))
		return WN_SEV_UNKNOWN;
	memcpy(word, s, n);
	word[n] = '\0';
	return wn_severity_parse(word);
}

/* Severity word inside a "[...]" tag line ("[Severity: High]",
 * "[High]").  Returns true and *sev for a known word; rest and rn get
 * the text after the tag (may be empty). */
static bool sev_tag(const char *s, size_t n, wn_severity *sev, const char **rest, size_t *rn)
{
	const char *close, *w;
	size_t wn;
	bool labelled = false;

	wn_str_trim(&s, &n);
	if (n < 3 || s[0] != '[')
		return false;
	close = memchr(s, ']', n);
	if (!close)
		return false;
	w = s + 1;
	wn = (size_t) (close - w);
	wn_str_trim(&w, &wn);
	if (wn_str_prefix_ci(w, wn, "severity:")) {
		w += 9;
		wn -= 9;
		labelled = true;
	}
	wn_str_trim(&w, &wn);
	*sev = wn_rv_sev_word(w, wn);
	/* A bare "[Word]" is a tag only when the word is a severity. */
	if (*sev == WN_SEV_UNKNOWN && !labelled && !(wn == 7 && wn_str_prefix_ci(w, wn, "unknown")))
		return false;
	*rest = close + 1;
	*rn = n - (size_t) (close + 1 - s);
	wn_str_trim(rest, rn);
	return true;
}

bool wn_rv_commit_line(const char *s, size_t n)
{
	size_t i;

	wn_str_trim(&s, &n);
	if (n != 47 || !wn_str_prefix(s, n, "commit "))
		return false;
	for (i = 7; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Does the comment say the problem predates the patch? */
static bool preexisting_prose(const char *s, size_t n)
{
	static const char *const pats[] = {
		"n't introduced by this patch", "not introduced by this patch",
		"n't a bug introduced by this patch", "n't caused by this patch",
		"not caused by this patch", "pre-existing issue", "pre-existing bug",
		"pre-existing problem", "preexisting issue", "preexisting bug",
		"predates this patch", "predates the patch", "existed before this patch",
	};
	size_t k;

	/* Each of them holds "patch" or "existing": most comments hold
	 * neither, and are read twice rather than thirteen times. */
	if (!wn_str_find_ci(s, n, "patch") && !wn_str_find_ci(s, n, "existing"))
		return false;
	for (k = 0; k < sizeof(pats) / sizeof(pats[0]); k++)
		if (wn_str_find_ci(s, n, pats[k]))
			return true;
	return false;
}

/* ---- the walk ---- */

/* Quoted code lines kept for a block's quote: the code right above a
 * comment is what it talks about; a whole quoted file is not. */
#define QUOTE_RING 20

struct walk {
	struct rv_ctx *c;
	bool in_diff;			/* a diff header was quoted */
	bool in_hunk;			/* ... and a hunk header */
	bool seen_quote;		/* quoted text since the start / last patch */
	bool raw_header;		/* in an unquoted "diff --git" header */
	const char *file;		/* into the body */
	size_t file_n;
	const char *func;		/* as the fingerprint has always had it */
	size_t func_n;
	/* The function a finding is shown in: func, or a signature the
	 * fingerprint's rule does not read (quoted after a snip with no
	 * hunk header, or in removed lines). */
	const char *pfunc;
	size_t pfunc_n;
	long next_new;			/* new-file line of the next quoted line */
	long cur_line;			/* new-file line of the last quoted line */
	bool approx;			/* a snip broke the count */
	struct rv_line ring[QUOTE_RING];
	size_t ring_n, ring_head;
	bool quote_stale;		/* next quoted line starts a new quote */
	bool tag;			/* a severity tag waits for its comment */
	wn_severity tag_sev;
	bool in_comment;
	bool pending_blank;
	wn_buf text;
	struct rv_block cur;
	struct rv_blocks *out;
};

bool wn_rv_blocks_push(struct rv_ctx *c, struct rv_blocks *b, struct rv_block *k)
{
	if (!c->oom && b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 8;
		struct rv_block *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			c->oom = true;
		else {
			b->v = v;
			b->cap = cap;
		}
	}
	if (c->oom || !k->comment) {
		free(k->file);
		free(k->function);
		free(k->fp_function);
		free(k->quote);
		free(k->comment);
		memset(k, 0, sizeof(*k));
		return false;
	}
	k->prose_preexisting = preexisting_prose(k->comment, strlen(k->comment));
	b->v[b->n++] = *k;
	memset(k, 0, sizeof(*k));
	return true;
}

static void push_block(struct walk *w)
{
	w->cur.comment = wn_rv_take(w->c, &w->text);
	wn_rv_blocks_push(w->c, w->out, &w->cur);
}

static void end_comment(struct walk *w)
{
	if (!w->in_comment)
		return;
	w->in_comment = false;
	w->quote_stale = true;
	push_block(w);
}

static char *ring_quote(struct walk *w)
{
	wn_buf b = WN_BUF_INIT;
	size_t k, start = (w->ring_head + QUOTE_RING - w->ring_n) % QUOTE_RING;

	for (k = 0; k < w->ring_n; k++) {
		const struct rv_line *l = &w->ring[(start + k) % QUOTE_RING];

		if (k)
			wn_rv_put(w->c, &b, "\n", 1);
		wn_rv_put(w->c, &b, l->s, l->n);
	}
	return wn_rv_take(w->c, &b);
}

static void comment_line(struct walk *w, const char *s, size_t n, size_t order)
{
	struct rv_ctx *c = w->c;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!w->in_comment) {
		w->in_comment = true;
		w->pending_blank = false;
		wn_buf_reset(&w->text);
		memset(&w->cur, 0, sizeof(w->cur));
		w->cur.order = order;
		w->cur.has_sev = w->tag;
		w->cur.sev = w->tag ? w->tag_sev : WN_SEV_NONE;
		w->tag = false;
		w->cur.about_commit_msg = !w->in_diff;
		if (w->in_diff) {
			if (w->file_n)
				w->cur.file = wn_rv_dup(c, w->file, w->file_n);
			if (w->pfunc_n)
				w->cur.function = wn_rv_dup(c, w->pfunc, w->pfunc_n);
			if (w->func_n != w->pfunc_n ||
			    (w->func_n && memcmp(w->func, w->pfunc, w->func_n) != 0)) {
				w->cur.fp_own = true;
				if (w->func_n)
					w->cur.fp_function = wn_rv_dup(c, w->func, w->func_n);
			}
			if (w->in_hunk) {
				w->cur.line = (int) w->cur_line;
				w->cur.line_approx = w->approx;
			}
		}
		w->cur.quote = ring_quote(w);
	} else if (w->text.len) {
		wn_rv_put(c, &w->text, w->pending_blank ? "\n\n" : "\n", w->pending_blank ? 2 : 1);
	}
	w->pending_blank = false;
	wn_rv_put(c, &w->text, s, n);
}

/* "diff --git a/X b/Y" -> Y; "+++ b/Y" -> Y. */
static void set_file(struct walk *w, const char *s, size_t n)
{
	const char *t;
	size_t k;

	for (k = 0; k < n; k++)
		if (s[k] == '\t')
			break;	/* "+++ b/f\t2024-01-01 ..." */
	n = k;
	wn_str_trim(&s, &n);
	if (wn_str_prefix(s, n, "b/")) {
		s += 2;
		n -= 2;
	}
	if (!n || wn_str_eq(s, n, "/dev/null"))
		return;
	for (t = s; t < s + n; t++)
		if (*t == '\0')
			return;
	w->file = s;
	w->file_n = n;
}

static void diff_git(struct walk *w, const char *s, size_t n)
{
	size_t k;

	w->in_diff = true;
	w->in_hunk = false;
	w->ring_n = 0;
	w->func = w->pfunc = NULL;
	w->func_n = w->pfunc_n = 0;
	w->cur_line = 0;
	w->approx = false;
	w->file = NULL;
	w->file_n = 0;
	/* The new name follows the last " b/"; without prefixes, the last
	 * space-separated word. */
	for (k = n; k >= 3; k--)
		if (memcmp(s + k - 3, " b/", 3) == 0) {
			set_file(w, s + k - 2, n - (k - 2));
			return;
		}
	for (k = n; k > 0; k--)
		if (s[k - 1] == ' ') {
			set_file(w, s + k, n - k);
			return;
		}
}

static bool c_keyword(const char *s, size_t n)
{
	static const char *const kw[] = {
		"if", "for", "while", "switch", "return", "sizeof", "int", "void", "char",
		"long", "short", "unsigned", "signed", "bool", "struct", "union", "enum",
		"static", "const", "defined", "do", "else", "case",
	};
	size_t k;

	for (k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (wn_str_eq(s, n, kw[k]))
			return true;
	return false;
}

/* Macros that define a function named by their first argument:
 * "BPF_CALL_3(bpf_ringbuf_reserve, ...)", "SYSCALL_DEFINE3(openat, ...)".
 * The function is that argument, not the macro.  args: the text after
 * the '('. */
static void definer_macro(struct walk *w, const char *args, size_t an)
{
	static const char *const macros[] = {
		"BPF_CALL_", "SYSCALL_DEFINE", "COMPAT_SYSCALL_DEFINE",
	};
	size_t k, ml, i = 0, b;

	for (k = 0; k < sizeof(macros) / sizeof(macros[0]); k++) {
		ml = strlen(macros[k]);
		if (w->func_n == ml + 1 && wn_str_prefix(w->func, w->func_n, macros[k]) &&
		    w->func[ml] >= '0' && w->func[ml] <= '9')
			break;
	}
	if (k == sizeof(macros) / sizeof(macros[0]))
		return;
	while (i < an && (args[i] == ' ' || args[i] == '\t'))
		i++;
	b = i;
	while (i < an && str_ident_char((unsigned char) args[i]))
		i++;
	if (i > b && !(args[b] >= '0' && args[b] <= '9')) {
		w->func = args + b;
		w->func_n = i - b;
	}
}

/* The function a hunk's context line names: the identifier before the
 * first '(' ("static int example_fn(struct thing *t)" -> example_fn). */
static void hunk_func(struct walk *w, const char *s, size_t n)
{
	const char *p = memchr(s, '(', n);
	size_t e, b;

	w->func = NULL;
	w->func_n = 0;
	if (!p)
		return;
	e = (size_t) (p - s);
	while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	b = e;
	while (b > 0 && str_ident_char((unsigned char) s[b - 1]))
		b--;
	if (b == e || (s[b] >= '0' && s[b] <= '9') || c_keyword(s + b, e - b))
		return;
	w->func = s + b;
	w->func_n = e - b;
	definer_macro(w, p + 1, (size_t) (s + n - (p + 1)));
}

/* A function definition starting in a quoted hunk line ("static int
 * foo(struct bar *b)" at column 0, no ';') names the function of the
 * lines below it better than the hunk header, which names the function
 * where the hunk began.  fp: the fingerprint's function takes it too
 * (the rule it always had: added and context lines of a hunk); else
 * only the function shown. */
static void definition(struct walk *w, const char *s, size_t n, bool fp)
{
	const char *f = w->func;
	size_t fn = w->func_n;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n || !(str_ident_char((unsigned char) s[0]) && !(s[0] >= '0' && s[0] <= '9')) ||
	    s[n - 1] == ';' || s[n - 1] == ':' || s[n - 1] == '\\' || !memchr(s, '(', n))
		return;
	hunk_func(w, s, n);
	if (w->func) {
		w->pfunc = w->func;
		w->pfunc_n = w->func_n;
	}
	if (!w->func || !fp) {
		w->func = f;
		w->func_n = fn;
	}
}

/* "@@ -a[,b] +c[,d] @@ [context]" */
static bool hunk(struct walk *w, const char *s, size_t n)
{
	size_t i = 3;
	long v, start;
	const char *at;

	if (i >= n || s[i] != '-')
		return false;
	i++;
	if (!wn_str_num(s, n, &i, &v))
		return false;
	if (i < n && s[i] == ',') {
		i++;
		if (!wn_str_num(s, n, &i, &v))
			return false;
	}
	if (i + 1 >= n || s[i] != ' ' || s[i + 1] != '+')
		return false;
	i += 2;
	if (!wn_str_num(s, n, &i, &start))
		return false;
	if (i < n && s[i] == ',') {
		i++;
		if (!wn_str_num(s, n, &i, &v))
			return false;
	}
	at = wn_str_find(s + i, n - i, "@@");
	if (!at)
		return false;
	i = (size_t) (at - s) + 2;
	w->in_diff = true;
	w->in_hunk = true;
	w->ring_n = 0;		/* a new hunk: the quote starts over */
	w->next_new = start;
	w->cur_line = start;
	w->approx = false;
	hunk_func(w, s + i, n - i);
	w->pfunc = w->func;
	w->pfunc_n = w->func_n;
	return true;
}

static void quoted(struct walk *w, const char *q, size_t qn)
{
	static const char *const header[] = {
		"index ", "new file mode", "deleted file mode", "similarity index",
		"dissimilarity index", "rename from", "rename to", "copy from", "copy to",
		"old mode", "new mode", "Binary files",
	};
	size_t k;
	char ch;

	if (wn_str_prefix(q, qn, "diff --git ")) {
		diff_git(w, q + 11, qn - 11);
		return;
	}
	if (wn_str_prefix(q, qn, "--- a/") || wn_str_prefix(q, qn, "--- /dev/null")) {
		w->in_diff = true;
		return;
	}
	if (wn_str_prefix(q, qn, "+++ ") && (!w->in_hunk || wn_str_prefix(q, qn, "+++ b/"))) {
		set_file(w, q + 4, qn - 4);
		w->in_diff = true;
		w->in_hunk = false;
		w->func = w->pfunc = NULL;
		w->func_n = w->pfunc_n = 0;
		return;
	}
	if (w->in_diff && !w->in_hunk)
		for (k = 0; k < sizeof(header) / sizeof(header[0]); k++)
			if (wn_str_prefix(q, qn, header[k]))
				return;
	if (wn_str_prefix(q, qn, "@@ -") && hunk(w, q, qn))
		return;

	w->ring[w->ring_head] = (struct rv_line) { q, qn };
	w->ring_head = (w->ring_head + 1) % QUOTE_RING;
	if (w->ring_n < QUOTE_RING)
		w->ring_n++;
	ch = qn ? q[0] : ' ';
	/* The code below a snip that skipped the hunk header is still the
	 * file's: its signatures name the function shown, as do those of
	 * removed lines (a finding about a function taken out). */
	if (!w->in_hunk) {
		if (w->file_n && (ch == '+' || ch == ' ' || ch == '-') && qn > 2)
			definition(w, q + 1, qn - 1, false);
		return;
	}
	if ((ch == '+' || ch == ' ') && qn > 2)
		definition(w, q + 1, qn - 1, true);
	else if (ch == '-' && qn > 2)
		definition(w, q + 1, qn - 1, false);
	if (ch == '-') {
		w->cur_line = w->next_new;	/* where the line was removed */
	} else if (ch != '\\') {
		w->cur_line = w->next_new;
		if (w->next_new < 0x3fffffff)
			w->next_new++;
	}
}

static bool raw_header_line(const char *s, size_t n)
{
	static const char *const hdr[] = {
		"--- ", "+++ ", "@@ -", "index ", "new file mode", "deleted file mode",
		"similarity index", "rename from", "rename to", "old mode", "new mode",
	};
	size_t k;

	for (k = 0; k < sizeof(hdr) / sizeof(hdr[0]); k++)
		if (wn_str_prefix(s, n, hdr[k]))
			return true;
	return false;
}

/* Does s[0..n) start (end: at_end) with "..." or U+2026? */
static bool ellipsis(const char *s, size_t n, bool at_end)
{
	if (n >= 3 && memcmp(at_end ? s + n - 3 : s, "...", 3) == 0)
		return true;
	return n >= 3 && memcmp(at_end ? s + n - 3 : s, "\xe2\x80\xa6", 3) == 0;
}

/* A line that only marks elided text: "[ ... ]", "[...]", "[ U+2026 ]", or a note
 * between the dots ("[ ... hunks unrelated to the comments below ... ]",
 * "[...snip...]"). */
static bool is_snip(const char *s, size_t n)
{
	const char *t;
	size_t tn;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return false;
	t = s + 1;
	tn = n - 2;
	wn_str_trim(&t, &tn);
	if (ellipsis(t, tn, false) || ellipsis(t, tn, true))
		return true;
	/* only dots and blanks: "[ .. ]", "[. . .]" */
	for (size_t i = 0; i < tn; i++)
		if (t[i] != '.' && t[i] != ' ' && t[i] != '\t')
			return false;
	return tn > 0;
}

/* An unquoted "diff --git" line is the header of the quoted code below
 * it when quoted code or a snip follows its header lines; a fix the bot
 * suggests as an unquoted diff inside a comment has unquoted lines. */
static bool raw_diff_header(const struct rv_lines *L, size_t i, size_t to)
{
	size_t j = i + 1, lim = i + 16;

	while (j < to && j < lim && raw_header_line(L->v[j].s, L->v[j].n))
		j++;
	while (j < to && j < lim && wn_str_blank(L->v[j].s, L->v[j].n))
		j++;
	if (j >= to || j >= lim)
		return false;
	if (L->v[j].n && L->v[j].s[0] == '>')
		return true;
	{
		const char *t = L->v[j].s;
		size_t tn = L->v[j].n;

		wn_str_trim(&t, &tn);
		return is_snip(t, tn);
	}
}

/* "    ^^^^~~~~": a marker under an expression, as compilers draw them
 * (a run of '~' alone marks a range too). */
static bool is_caret(const char *s, size_t n)
{
	size_t i, marks = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '^' || s[i] == '~')
			marks++;
		else if (s[i] != ' ' && s[i] != '\t')
			return false;
	}
	return marks >= 2;
}

/* A "^^^^" line under a quoted line marks the exact expression: it
 * belongs to the quote, aligned with the code once "> " is gone (it
 * was written under the quoted line, prefix and all).  Under text of
 * the comment it stays in the comment. */
static void caret(struct walk *w, const struct rv_line *l)
{
	const char *s = l->s;
	size_t n = l->n, strip = 0;

	if (w->in_comment) {
		comment_line(w, s, n, 0);
		return;
	}
	if (!w->seen_quote || !w->ring_n)
		return;
	while (strip < 2 && strip < n && s[strip] == ' ')
		strip++;
	w->ring[w->ring_head] = (struct rv_line) { s + strip, n - strip };
	w->ring_head = (w->ring_head + 1) % QUOTE_RING;
	if (w->ring_n < QUOTE_RING)
		w->ring_n++;
}

static void reset_patch(struct walk *w)
{
	w->in_diff = w->in_hunk = w->seen_quote = false;
	w->file = w->func = w->pfunc = NULL;
	w->file_n = w->func_n = w->pfunc_n = 0;
	w->cur_line = 0;
	w->approx = false;
	w->ring_n = 0;
	w->tag = false;
}

void wn_rv_inline_walk(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
		       const struct rv_inline_opts *o, struct rv_blocks *out,
		       struct rv_inline_meta *meta)
{
	struct walk w;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.out = out;
	if (to > L->n)
		to = L->n;
	for (i = from; i < to && !c->oom; i++) {
		const struct rv_line *l = &L->v[i];
		const char *q, *t = l->s, *rest;
		size_t qn, tn = l->n, rn;
		wn_severity sev;

		if (quoted_line(l, &q, &qn)) {
			w.raw_header = false;
			end_comment(&w);
			if (w.quote_stale) {
				w.ring_n = 0;
				w.quote_stale = false;
			}
			w.seen_quote = true;
			quoted(&w, q, qn);
			continue;
		}
		/* Some mails leave the diff header unquoted and start
		 * quoting at the code: still where we are. */
		if ((wn_str_prefix(l->s, l->n, "diff --git ") && raw_diff_header(L, i, to)) ||
		    (w.raw_header && raw_header_line(l->s, l->n))) {
			end_comment(&w);
			w.raw_header = true;
			quoted(&w, l->s, l->n);
			w.ring_n = 0;
			continue;
		}
		w.raw_header = false;
		wn_str_trim(&t, &tn);
		if (wn_str_prefix(t, tn, "```"))
			continue;	/* code fences of older BPF CI mails */
		if (wn_str_prefix_ci(t, tn, "In-Reply-To-Subject:")) {
			end_comment(&w);
			if (meta && !meta->irt_subject)
				meta->irt_subject = l;
			continue;
		}
		if (wn_str_prefix(t, tn, "--- Patch [") || wn_rv_commit_line(t, tn)) {
			end_comment(&w);
			if (meta && !meta->patch_line && t[0] == '-')
				meta->patch_line = l;
			reset_patch(&w);
			continue;
		}
		/* signature: the footer follows (a review written without
		 * quoting the code has its tags instead) */
		if ((w.seen_quote || w.in_comment || w.tag) &&
		    (wn_str_eq(l->s, l->n, "-- ") || wn_str_eq(l->s, l->n, "--")))
			break;
		if (o && o->footer && o->footer(L, i, to))
			break;
		if (wn_str_prefix_ci(t, tn, "pw-bot:")) {
			end_comment(&w);
			continue;
		}
		if (is_snip(t, tn)) {
			end_comment(&w);
			if (w.in_hunk)
				w.approx = true;
			w.quote_stale = true;
			continue;
		}
		if (tn && is_caret(l->s, l->n)) {
			caret(&w, l);
			continue;
		}
		if (sev_tag(t, tn, &sev, &rest, &rn)) {
			end_comment(&w);
			w.tag = true;
			w.tag_sev = sev;
			if (rn)
				comment_line(&w, rest, rn, i);
			continue;
		}
		if (!tn) {
			if (w.in_comment)
				w.pending_blank = true;
			continue;
		}
		/* The commit header and summary before the diff are no
		 * comment -- unless a severity tag opened one: a review
		 * written without quoting the code ("free-form"). */
		if (!w.seen_quote && !w.tag && !w.in_comment)
			continue;
		comment_line(&w, l->s, l->n, i);
	}
	end_comment(&w);
	wn_buf_free(&w.text);
}

/* ---- blocks into findings ---- */

static void rv_block_place(wn_finding *f, struct rv_block *k)
{
	f->file = k->file;
	f->function = k->function;
	f->line = k->line;
	f->line_approx = k->line_approx;
	f->about_commit_msg = k->about_commit_msg;
	f->quote = k->quote;
	k->file = k->function = k->quote = NULL;
}

void wn_rv_block_fp(struct rv_ctx *c, size_t i, const struct rv_block *k)
{
	if (k->fp_own)
		wn_rv_fp_place(c, i, c->r->findings[i].file, k->fp_function);
}

/* Does summary s say it is about the commit message rather than code? */
static bool about_message(const char *s)
{
	static const char *const words[] = {
		"commit message", "commit log", "changelog", "subject line", "fixes: tag",
		"fixes tag", "signed-off-by", "commit description",
	};

	for (size_t k = 0; s && k < sizeof(words) / sizeof(words[0]); k++)
		if (wn_str_find_ci(s, strlen(s), words[k]))
			return true;
	return false;
}

void wn_rv_place_unquoted(struct rv_ctx *c)
{
	const char *const *pf = c->in->patch_files;

	for (size_t i = 0; i < c->r->nfindings && !c->oom; i++) {
		wn_finding *f = &c->r->findings[i];

		if (f->file || f->about_commit_msg || (f->quote && *f->quote) ||
		    about_message(f->summary))
			continue;
		c->r->wants_patch_files = true;
		if (!pf || !pf[0] || pf[1])
			continue;
		wn_rv_fp_pin(c, i);
		f->file = wn_rv_dup(c, pf[0], strlen(pf[0]));
	}
}

void wn_rv_blocks_free(struct rv_blocks *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].file);
		free(b->v[i].function);
		free(b->v[i].fp_function);
		free(b->v[i].quote);
		free(b->v[i].comment);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}

/* A block that only says the review found nothing ("Sashiko has
 * reviewed this patch and found no issues. It looks great!", "No
 * issues found.", "I did not find any problems with this patch."): a
 * short text with such a phrase and no question in it. */
static bool clean_statement(const char *s, size_t n)
{
	static const char *const nothing[] = {
		"found no issue", "found no problem", "found no bug", "found no concern",
		"found nothing", "no issues found", "no issues were found", "no problems found",
		"no problems were found", "not find any issue", "not find any problem",
		"n't find any issue", "n't find any problem", "did not spot any", "didn't spot any",
		"found no regressions", "no issues to report", "nothing to report",
	};

	if (n > 300 || memchr(s, '?', n))
		return false;
	for (size_t k = 0; k < sizeof(nothing) / sizeof(nothing[0]); k++)
		if (wn_str_find_ci(s, n, nothing[k]))
			return true;
	return false;
}

/* A block that is only the review's own trailers ("Reviewed-by:
 * Sashiko <sashiko-bot@kernel.org>", "Acked-by: ..."): the reviewer
 * signs the patch off, it raises nothing. */
static bool only_trailers(const char *s, size_t n)
{
	static const char *const keys[] = { "reviewed-by:", "acked-by:", "tested-by:" };
	size_t pos = 0, ln, k, nk = sizeof(keys) / sizeof(keys[0]);
	const char *l;
	bool any = false;

	while (wn_str_next_line(s, n, &pos, &l, &ln)) {
		wn_str_trim(&l, &ln);
		if (!ln)
			continue;
		for (k = 0; k < nk; k++)
			if (ln > strlen(keys[k]) && wn_str_prefix_ci(l, ln, keys[k]))
				break;
		if (k == nk)
			return false;
		any = true;
	}
	return any;
}

size_t wn_rv_blocks_drop_clean(struct rv_blocks *b)
{
	size_t i, o = 0, dropped = 0;

	for (i = 0; i < b->n; i++) {
		struct rv_block *k = &b->v[i];
		size_t n = strlen(k->comment);

		if (clean_statement(k->comment, n) || only_trailers(k->comment, n)) {
			dropped++;
			free(k->file);
			free(k->function);
			free(k->fp_function);
			free(k->quote);
			free(k->comment);
			continue;
		}
		b->v[o++] = *k;
	}
	b->n = o;
	return dropped;
}

void wn_rv_blocks_to_findings(struct rv_ctx *c, struct rv_blocks *b, wn_severity missing_sev,
			      bool prose_pre)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		struct rv_block *k = &b->v[i];
		wn_finding *f = wn_rv_add(c, true);

		if (!f)
			return;
		f->severity = k->has_sev ? k->sev : missing_sev;
		f->preexisting = prose_pre && k->prose_preexisting;
		wn_rv_summarise(c, f, k->comment, strlen(k->comment));
		rv_block_place(f, k);
		wn_rv_block_fp(c, c->r->nfindings - 1, k);
		f->comment = k->comment;
		k->comment = NULL;
	}
}
