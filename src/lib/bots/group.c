/* winnow — one finding per problem, for reviews without a summary (BPF
 * CI, netdev AI reviews, Sashiko's oldest mails): see group.h.
 *
 * Each comment block is read as one of
 *   context  it only explains the code ("This pushes 8 bytes for the
 *            options header."): no question, no word of a problem;
 *   repeat   it points back at a problem raised already ("The same
 *            rename applies here", "Similarly, ...", "Does this have
 *            the same truncation issue as foo() above?");
 *   problem  anything else.
 * Context blocks lead up to the next problem and become part of its
 * comment; a repeat adds its place to the problem it points at; a
 * problem block holds one finding, or more when a later paragraph opens
 * another problem ("There is also ...", "Additionally, ...") or the
 * block lists problems, each told whole in its paragraph.  Linear in
 * the blocks but for repeats, which look back at most MAX_LOOKBACK
 * findings. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"

#define MAX_LOOKBACK 32
#define MAX_COMPARE 1024
#define MAX_REPEAT_TEXT 65536

/* ---- reading a block ---- */

static bool word_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* Does s hold word w (lower case) as a whole word, any case? */
static bool has_word(const char *s, size_t n, const char *w)
{
	size_t wn = strlen(w);
	const char *p = s;

	while ((p = wn_str_find_ci(p, n - (size_t) (p - s), w))) {
		bool start = p == s || !word_char((unsigned char) p[-1]);
		bool end = (size_t) (p - s) + wn >= n || !word_char((unsigned char) p[wn]);

		if (start && end)
			return true;
		p++;
	}
	return false;
}

/* Prose, not code: a comment's code is indented or ends in ';', '{'. */
static bool prose_line(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n && s[0] != ' ' && s[0] != '\t' && s[n - 1] != ';' && s[n - 1] != '{' &&
	       s[n - 1] != '}';
}

/* A question in the prose of s: a '?' that ends a sentence (not the
 * ternary operator of quoted code). */
static bool asks(const char *s, size_t n)
{
	size_t pos = 0, ln;
	const char *l;

	while (wn_str_next_line(s, n, &pos, &l, &ln)) {
		const char *q = l;

		if (!prose_line(l, ln))
			continue;
		while ((q = memchr(q, '?', ln - (size_t) (q - l)))) {
			size_t k = (size_t) (q - l) + 1;

			while (k < ln && (l[k] == ')' || l[k] == '"' || l[k] == '\''))
				k++;
			if (k >= ln || l[k] == ' ')
				return true;
			q++;
		}
	}
	return false;
}

/* Words that name a problem outright, in a statement that asks nothing
 * ("This leaks the skb when ...", "The new subtest is never called"):
 * a defect, or a negation -- code that only explains what it does
 * ("This pushes 8 bytes for the options header") has neither. */
static bool names_problem(const char *s, size_t n)
{
	static const char *const words[] = {
		"leak", "leaks", "leaked", "leaking", "use-after-free", "double-free", "overflow",
		"overflows", "underflow", "deadlock", "deadlocks", "uninitialized", "uninitialised",
		"corrupt", "corrupts", "corruption", "crash", "crashes", "panic", "typo", "incorrect",
		"incorrectly", "wrong", "broken", "breaks", "mismatch", "regression", "stale", "flaw",
		"missing", "bug", "race", "racy", "truncates", "truncated", "oops", "never", "not",
		"cannot", "fails", "unchecked", "ignored", "ignores", "lost", "loses", "skips",
		"bypasses", "unused", "unreachable", "redundant", "unnecessary",
	};
	static const char *const phrases[] = {
		"use after free", "double free", "null pointer", "null dereference",
		"out of bounds", "out-of-bounds", "undefined behavio", "never freed",
		"never released", "not freed", "not released", "is not checked",
		"isn't checked", "should be", "should not", "shouldn't", "pre-existing issue",
		"i noticed", "n't ", "no longer", "dead code",
	};
	size_t k;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (has_word(s, n, words[k]))
			return true;
	for (k = 0; k < sizeof(phrases) / sizeof(phrases[0]); k++)
		if (wn_str_find_ci(s, n, phrases[k]))
			return true;
	return false;
}

/* The first paragraph of s (up to a blank line). */
static size_t first_para(const char *s, size_t n)
{
	const char *p = s;

	while ((p = memchr(p, '\n', n - (size_t) (p - s)))) {
		const char *q = p + 1;

		while (q < s + n && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= s + n || *q == '\n')
			return (size_t) (p - s);
		p++;
	}
	return n;
}

/* Words a reviewer names a problem by ("the same race", "a similar
 * deadlock risk"). */
static bool problem_noun(const char *w, size_t n)
{
	static const char *const nouns[] = {
		"issue", "problem", "bug", "race", "leak", "use-after-free", "pattern", "concern",
		"error", "overflow", "deadlock", "question", "observation", "rename", "fix",
		"change", "mistake", "check", "risk", "flaw", "corruption", "truncation", "typo",
		"comment", "concerns", "issues", "problems", "bugs", "errors", "risks", "reason",
		"reasons",
	};

	for (size_t k = 0; k < sizeof(nouns) / sizeof(nouns[0]); k++)
		if (n == strlen(nouns[k]) && wn_str_prefix_ci(w, n, nouns[k]))
			return true;
	return false;
}

/* Does "same" or "similar" at p (in s[0..n)) name a problem within the
 * next five words?  ("the same code block above" names none.) */
static bool names_same(const char *p, const char *s, size_t n)
{
	size_t i = (size_t) (p - s), words = 0;

	while (i < n && word_char((unsigned char) s[i]))
		i++;
	while (i < n && words < 5) {
		size_t b;

		while (i < n && !word_char((unsigned char) s[i]) && s[i] != '.' && s[i] != '?')
			i++;
		if (i >= n || s[i] == '.' || s[i] == '?')
			return false;
		b = i;
		while (i < n && (word_char((unsigned char) s[i]) || s[i] == '-'))
			i++;
		if (problem_noun(s + b, i - b))
			return true;
		words++;
	}
	return false;
}

/* Does the block point back at a problem raised already?  Its first
 * words ("Same ...", "Similarly, ...", "Likewise", "Following up on"),
 * a pointer back in its first sentence ("as noted above"), or, when
 * that sentence is a question, "the same" / "a similar" naming a
 * problem there ("Does this have the same truncation issue?", "does a
 * similar deadlock risk exist here?"). */
static bool points_back(const char *s, size_t n)
{
	static const char *const starts[] = {
		"same ", "the same ", "similarly", "similar ", "likewise", "as above", "as mentioned",
		"as noted", "as with ", "this has the same", "this is the same", "ditto",
		"following up on", "again,", "here too", "same here",
	};
	static const char *const back[] = {
		"noted above", "mentioned above", "described above", "as above", "explained above",
		"the previous question", "the previous comment", "as in the previous",
	};
	const char *p;
	size_t k, fn;

	wn_str_trim(&s, &n);
	for (k = 0; k < sizeof(starts) / sizeof(starts[0]); k++)
		if (wn_str_prefix_ci(s, n, starts[k]))
			return true;
	fn = first_para(s, n);
	for (k = 0; k < fn && !((s[k] == '.' || s[k] == '?') && (k + 1 >= fn || s[k + 1] == ' ' ||
								   s[k + 1] == '\n')); k++)
		;
	fn = k;
	for (k = 0; k < sizeof(back) / sizeof(back[0]); k++)
		if (wn_str_find_ci(s, fn, back[k]))
			return true;
	/* Inside a statement "the same leak this patch fixes" compares with
	 * the patch; a question asks whether a problem recurs. */
	if (fn >= n || s[fn] != '?')
		return false;
	for (k = 0; k < 2; k++) {
		const char *w = k ? "similar" : "same";
		size_t wn = strlen(w);

		for (p = s; (p = wn_str_find_ci(p, fn - (size_t) (p - s), w)); p++)
			if ((p == s || !word_char((unsigned char) p[-1])) &&
			    (size_t) (p - s) + wn < fn && !word_char((unsigned char) p[wn]) &&
			    names_same(p, s, fn))
				return true;
	}
	return false;
}

/* How a later paragraph of a block opens. */
enum opening {
	SAME,				/* it goes on about the same one */
	MAYBE,				/* "Also, ...", "Another caller ...": when
					 * it asks or names a problem */
	ANOTHER,			/* "There is also ...", a pre-existing one */
};

static enum opening opens(const char *s, size_t n)
{
	static const char *const another[] = {
		"there is also", "there's also", "there is another", "there's another",
		"another problem", "another issue", "another bug", "a second ", "a separate ",
		"unrelated", "on an unrelated note", "one more", "separately", "independently",
		"as a related", "a related ", "this is a pre-existing", "this is also a pre-existing",
		"this is another", "there is a pre-existing", "this isn't a bug introduced",
		"this is not a bug introduced", "this wasn't introduced", "this was not introduced",
		"not introduced by this patch", "while looking at", "while reviewing",
		"looking further",
	};
	/* "Another caller, foo(), already does this." only goes on. */
	static const char *const maybe[] = {
		"additionally", "in addition", "also,", "also ", "besides", "another ",
	};
	size_t k;

	for (k = 0; k < sizeof(another) / sizeof(another[0]); k++)
		if (wn_str_prefix_ci(s, n, another[k]))
			return ANOTHER;
	for (k = 0; k < sizeof(maybe) / sizeof(maybe[0]); k++)
		if (wn_str_prefix_ci(s, n, maybe[k]))
			return MAYBE;
	return SAME;
}

/* ---- building the findings ---- */

struct group {
	struct rv_ctx *c;
	struct rv_blocks *b;
	wn_severity missing;
	bool prose_pre;
	wn_buf context;			/* context blocks waiting for their problem */
	bool ctx_sev;
	wn_severity ctx_sev_v;
	bool ctx_pre;
	size_t ctx_first, ctx_n;	/* those blocks: ctx_n from ctx_first on */
	size_t last;			/* the finding last made or pointed at */
};

/* Block k as a site of f, with text s[0..n) of it. */
static void site(struct rv_ctx *c, wn_finding *f, const struct rv_block *k, const char *s, size_t n)
{
	wn_rv_add_site(c, f, k->file, k->function, k->line, k->line_approx, k->about_commit_msg,
		       k->quote, s, n);
}

/* The context blocks waiting, as sites of f (before the block that
 * takes them). */
static void context_sites(struct group *g, wn_finding *f)
{
	for (size_t i = 0; i < g->ctx_n; i++) {
		const struct rv_block *k = &g->b->v[g->ctx_first + i];

		site(g->c, f, k, k->comment, strlen(k->comment));
	}
	g->ctx_n = 0;
}

/* Context shown with its finding: the code it was written under, then
 * its text. */
static void take_context(struct group *g, struct rv_block *k)
{
	struct rv_ctx *c = g->c;

	if (k->quote) {
		size_t pos = 0, ln;
		const char *l;

		while (wn_str_next_line(k->quote, strlen(k->quote), &pos, &l, &ln)) {
			wn_rv_put(c, &g->context, "> ", ln ? 2 : 1);
			wn_rv_put(c, &g->context, l, ln);
			wn_rv_put(c, &g->context, "\n", 1);
		}
	}
	wn_rv_put(c, &g->context, k->comment, strlen(k->comment));
	wn_rv_put(c, &g->context, "\n\n", 2);
	if (!g->ctx_n)
		g->ctx_first = (size_t) (k - g->b->v);
	g->ctx_n++;
	if (k->has_sev && !g->ctx_sev) {
		g->ctx_sev = true;
		g->ctx_sev_v = k->sev;
	}
	g->ctx_pre = g->ctx_pre || k->prose_preexisting;
}

static char *dup0(struct rv_ctx *c, const char *s)
{
	return s ? wn_rv_dup(c, s, strlen(s)) : NULL;
}

/* A finding from text s[0..n) of block k, the waiting context first;
 * it stands where k stands. */
static void finding(struct group *g, const struct rv_block *k, const char *s, size_t n)
{
	struct rv_ctx *c = g->c;
	wn_finding *f = wn_rv_add(c, true);
	wn_buf comment = WN_BUF_INIT;

	while (n && str_space((unsigned char) s[n - 1]))
		n--;
	if (!f)
		return;
	f->severity = k->has_sev ? k->sev : g->ctx_sev ? g->ctx_sev_v : g->missing;
	f->preexisting = g->prose_pre && (k->prose_preexisting || g->ctx_pre);
	wn_rv_summarise(c, f, s, n);
	f->file = dup0(c, k->file);
	f->function = dup0(c, k->function);
	f->quote = dup0(c, k->quote);
	f->line = k->line;
	f->line_approx = k->line_approx;
	f->about_commit_msg = k->about_commit_msg;
	wn_rv_block_fp(c, c->r->nfindings - 1, k);
	if (g->context.len) {
		wn_rv_put(c, &comment, g->context.data, g->context.len);
		wn_buf_reset(&g->context);
	}
	context_sites(g, f);
	site(c, f, k, s, n);
	wn_rv_put(c, &comment, s, n);
	f->comment = wn_rv_take(c, &comment);
	g->ctx_sev = g->ctx_pre = false;
	g->last = c->r->nfindings - 1;
}

/* Does a paragraph start at s[i]: text after a blank line? */
static bool para_start(const char *s, size_t i)
{
	size_t k = i, nl = 0;

	if (str_space((unsigned char) s[i]))
		return false;
	while (k > 0 && str_space((unsigned char) s[k - 1]))
		nl += s[--k] == '\n';
	return k > 0 && nl >= 2;
}

/* Does a sentence inside a paragraph start at s[i] by raising another
 * problem ("... here? There is also a missing check ...")?  Only the
 * plain openers count mid-paragraph: "Also" or "Another" there is as
 * often the same problem's next step. */
static bool sentence_another(const char *s, size_t n, size_t i)
{
	static const char *const strong[] = {
		"There is also ", "There's also ", "There is another ", "There's another ",
	};
	size_t k = i;

	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\n'))
		k--;
	if (k == i || k == 0 || !strchr(".?!", s[k - 1]))
		return false;
	for (size_t w = 0; w < sizeof(strong) / sizeof(strong[0]); w++)
		if (wn_str_prefix(s + i, n - i, strong[w]))
			return true;
	return false;
}

/* Does the text at s[0..n) raise a problem of its own? */
static bool raises(const char *s, size_t n)
{
	return asks(s, n) || names_problem(s, n);
}

/* Words that point back at what came before: a pronoun, "the same",
 * "If so". */
static bool points_before(const char *s, size_t n)
{
	static const char *const starts[] = {
		"this ",  "that ",	  "these ",	  "those ",   "it ",   "its ",
		"it's ",  "they ",	  "such ",	  "the same", "same ", "if so",
		"if not", "in that case", "in this case", "here",
	};

	wn_str_trim(&s, &n);
	for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++)
		if (wn_str_prefix_ci(s, n, starts[k]))
			return true;
	return false;
}

/* Words after which a paragraph goes on with what came before it
 * rather than start afresh: they point back (points_before()), or a
 * conjunction or condition hangs on it ("Since that runs first, ...",
 * "As a side effect, ..."). */
static bool hangs_on(const char *s, size_t n)
{
	static const char *const starts[] = {
		"if ",		"otherwise",	"or ",	  "and ",
		"but ",		"so ",		"even ",  "as a side effect",
		"for example",	"for instance", "e.g.",	  "since ",
		"because ",	"when ",	"while ", "given ",
		"then ",	"note ",	"worse",  "in particular",
		"specifically", "instead",
	};

	wn_str_trim(&s, &n);
	for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++)
		if (wn_str_prefix_ci(s, n, starts[k]))
			return true;
	return points_before(s, n);
}

/* An "Also, ..." paragraph that asks nothing and names no defect still
 * raises a problem of its own when it says what would go wrong ("Also,
 * since the check was removed, we would pass a negative value to
 * foo()"), unless its first words point back at the problem before
 * ("Also, this would ...") or it only brings in another caller
 * ("Another caller would ..."). */
static bool says_outcome(const char *s, size_t n)
{
	const char *comma = memchr(s, ',', n < 24 ? n : 24);
	size_t k;

	if (!comma || wn_str_prefix_ci(s, n, "another"))
		return false;
	k = (size_t) (comma + 1 - s);
	if (points_before(s + k, n - k))
		return false;
	return has_word(s, n, "would") || has_word(s, n, "could") || has_word(s, n, "might");
}

static bool continues(const char *s, size_t n);

/* Does paragraph s[0..n) hold only code (no line of prose)? */
static bool code_para(const char *s, size_t n)
{
	size_t pos = 0, ln;
	const char *l;

	while (wn_str_next_line(s, n, &pos, &l, &ln))
		if (!wn_str_blank(l, ln) && prose_line(l, ln))
			return false;
	return true;
}

/* Where the paragraph after the first of s[0..n) starts (at the start
 * of its line, so that code keeps its indent); n when none does. */
static size_t next_para(const char *s, size_t n)
{
	size_t i = first_para(s, n), line = n;

	for (; i < n && str_space((unsigned char) s[i]); i++)
		if (s[i] == '\n')
			line = i + 1;
	return i < n ? line : n;
}

/* The end of the unit of prose starting at s[0]: its paragraph, or, when
 * that leads into code with a colon ("The adjacent comment:"), the code
 * and the paragraph after it too. */
static size_t unit_end(const char *s, size_t n)
{
	size_t at = 0;

	for (;;) {
		size_t pe = at + first_para(s + at, n - at), t = pe, next;

		while (t > at && str_space((unsigned char) s[t - 1]))
			t--;
		if (!code_para(s + at, pe - at) && !(t > at && s[t - 1] == ':'))
			return pe;
		next = next_para(s + at, n - at);
		if (at + next >= n)
			return n;
		at += next;
	}
}

/* Does the question s[0..n) close a problem, asking what to do about it
 * or whether it is meant ("Should this be skipped?", "Would it be
 * clearer to ...?", "Is that intended?") rather than opening one for
 * the text after it to explain ("Does this match what the code does?")? */
static bool closing_question(const char *s, size_t n)
{
	static const char *const words[] = {
		"worth", "intended", "intentional", "deliberate", "better",	 "clearer",
		"safer", "simpler",  "cleaner",	    "preferable", "appropriate",
	};

	wn_str_trim(&s, &n);
	if (wn_str_prefix_ci(s, n, "should") && n > 6 && str_space((unsigned char) s[6]))
		return true;
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (has_word(s, n, words[k]))
			return true;
	return false;
}

/* Does s[0..n) tell a problem whole: a statement of it, and last a
 * question that closes it ("The lock is now held across the RPCs. Is
 * that intended?", "Can n be 0 here? Nothing rejects it. Should it be
 * checked?")?  A bare question is a problem's heading, and one that
 * asks what the code does opens the explanation after it. */
static bool told_whole(const char *s, size_t n)
{
	size_t pos = 0, ln, start = 0;
	const char *l;
	bool stated = false, last_q = false, closes = false;

	while (wn_str_next_line(s, n, &pos, &l, &ln)) {
		if (!prose_line(l, ln))
			continue;
		for (size_t k = 0; k < ln; k++) {
			size_t at = (size_t) (l + k - s);

			if ((l[k] != '.' && l[k] != '?' && l[k] != '!') ||
			    (k + 1 < ln && l[k + 1] != ' ' && l[k + 1] != ')' && l[k + 1] != '"'))
				continue;
			last_q = l[k] == '?';
			stated = stated || !last_q;
			closes = last_q && closing_question(s + start, at - start);
			start = at + 1;
		}
	}
	return stated && last_q && closes;
}

/* Does the paragraph at s[i] tell another problem, in a block that lists
 * them one paragraph each?  The text since cut told its problem whole in
 * one unit, and so does this one, starting afresh.  A question and the
 * paragraphs explaining it are one problem; so is a follow-up that hangs
 * on it ("If so, ...", "As a side effect, does ...?") or asks only
 * ("Would it be better to ...?"). */
static bool lists_another(const char *s, size_t n, const char *cut, size_t *cut_end, size_t i)
{
	size_t c0 = (size_t) (cut - s), ue, para;

	/* read once per cut (SIZE_MAX: not yet), and the rest only for the
	 * paragraph right after it: a block of many paragraphs stays
	 * linear */
	if (*cut_end == SIZE_MAX)
		*cut_end = c0 + unit_end(cut, n - c0);
	ue = *cut_end;
	if (ue > i || !wn_str_blank(s + ue, i - ue) || !told_whole(cut, ue - c0))
		return false;
	para = first_para(s + i, n - i);
	return told_whole(s + i, unit_end(s + i, n - i)) && !hangs_on(s + i, para) &&
	       !continues(s + i, para) && !points_back(s + i, para);
}

/* A problem block: one finding, and one more for each later paragraph
 * that opens another problem and asks or names one ("There is also
 * ...", "Additionally, ..."; "Another caller, foo(), does the same"
 * only goes on), or tells one whole after a problem told whole, or a
 * sentence that plainly opens another after one that raised the
 * first. */
static void problem(struct group *g, const struct rv_block *k)
{
	const char *s = k->comment, *cut = s;
	size_t n = strlen(s), i, para, cut_end = SIZE_MAX;

	for (i = 1; i < n; i++) {
		if (para_start(s, i)) {
			para = first_para(s + i, n - i);
			switch (opens(s + i, para)) {
			case SAME:
				if (!lists_another(s, n, cut, &cut_end, i))
					continue;
				break;
			case MAYBE:
				if (!raises(s + i, para) && !says_outcome(s + i, para))
					continue;
				break;
			case ANOTHER:
				break;
			}
		} else if (sentence_another(s, n, i)) {
			para = first_para(s + i, n - i);
			if (!raises(s + i, para) || !raises(cut, (size_t) (s + i - cut)))
				continue;
		} else {
			continue;
		}
		finding(g, k, cut, (size_t) (s + i - cut));
		cut = s + i;
		cut_end = SIZE_MAX;
	}
	finding(g, k, cut, n - (size_t) (cut - s));
}

/* Words that say nothing about which problem a repeat means. */
static bool common_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"this", "that", "with", "when", "here", "there", "does", "also", "same", "similarly",
		"similar", "from", "into", "have", "been", "will", "would", "could", "should", "which",
		"while", "after", "before", "than", "then", "them", "they", "their", "these", "those",
		"what", "where", "only", "still", "above", "below", "patch", "code", "function",
		"observation", "applies", "issue", "problem", "again",
	};

	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (n == strlen(words[k]) && wn_str_prefix_ci(w, n, words[k]))
			return true;
	return false;
}

/* Does a word of s[0..n) start with stem (any case)?  "rename" finds
 * "renamed", "freed" finds "free" once stemmed. */
static bool has_stem(const char *s, size_t n, const char *stem, size_t sn)
{
	for (size_t i = 0; i + sn <= n; i++)
		if ((i == 0 || !word_char((unsigned char) s[i - 1])) &&
		    wn_str_prefix_ci(s + i, n - i, stem))
			return true;
	return false;
}

/* A word without its inflection: "renamed" -> "renam", "frees" -> "free". */
static size_t stem_len(const char *w, size_t n)
{
	static const char *const ends[] = { "ing", "ed", "es", "s", "e" };

	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
		size_t e = strlen(ends[k]);

		if (n > e + 3 && wn_str_prefix_ci(w + n - e, e, ends[k]))
			return n - e;
	}
	return n;
}

/* How many of the telling words of a[0..an) (four letters or more, not
 * common_word()) occur, stemmed, in b[0..bn). */
static size_t shared_words(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, shared = 0, words = 0;

	/* a sentence or two decides; a hostile mail must not go quadratic */
	if (an > MAX_COMPARE)
		an = MAX_COMPARE;
	if (bn > MAX_COMPARE)
		bn = MAX_COMPARE;
	while (i < an && words++ < 64) {
		size_t s0;

		while (i < an && !word_char((unsigned char) a[i]))
			i++;
		s0 = i;
		while (i < an && word_char((unsigned char) a[i]))
			i++;
		if (i - s0 >= 4 && !common_word(a + s0, i - s0)) {
			char w[64];
			size_t wn = i - s0 < sizeof(w) - 1 ? i - s0 : sizeof(w) - 1;

			memcpy(w, a + s0, wn);
			w[stem_len(w, wn)] = '\0';
			shared += has_stem(b, bn, w, strlen(w));
		}
	}
	return shared;
}

/* The finding a repeat points at: the latest whose function it names
 * ("Same observation as in foo_setup()"), else the one it shares the
 * most telling words with, else the one a problem or repeat last went
 * to. */
static size_t pointed_at(const struct group *g, const struct rv_block *k, size_t first)
{
	const wn_review *r = g->c->r;
	size_t i, para = first_para(k->comment, strlen(k->comment)), best = g->last, most = 0;
	size_t lo = r->nfindings - first > MAX_LOOKBACK ? r->nfindings - MAX_LOOKBACK : first;

	for (i = r->nfindings; i-- > lo;) {
		const char *fn = r->findings[i].function;

		if (fn && strlen(fn) > 3 && has_word(k->comment, para, fn))
			return i;
	}
	for (i = r->nfindings; i-- > lo;) {
		const char *t = r->findings[i].comment;
		size_t n = t ? shared_words(k->comment, para, t, first_para(t, strlen(t))) : 0;

		if (n > most) {
			most = n;
			best = i;
		}
	}
	return best;
}

/* A block lead-in ("... it only clears the flag and masks the
 * interrupt:") introduces the code after it: context, whatever
 * negation it holds, as long as it asks nothing. */
static bool lead_in(const char *s, size_t n)
{
	while (n && str_space((unsigned char) s[n - 1]))
		n--;
	return n && s[n - 1] == ':' && !asks(s, n);
}

/* Does the block go on with the problem just raised ("As a result,
 * ...", "This means ...") rather than raise one? */
static bool continues(const char *s, size_t n)
{
	static const char *const starts[] = {
		"as a result", "this means", "that means", "which means", "consequently",
		"because of this", "as a consequence", "therefore", "thus,", "this in turn",
		"in turn,", "so the ", "so this ", "this would mean", "eventually,",
	};
	size_t k;

	wn_str_trim(&s, &n);
	for (k = 0; k < sizeof(starts) / sizeof(starts[0]); k++)
		if (wn_str_prefix_ci(s, n, starts[k]))
			return true;
	return false;
}

/* Does block s[0..n) go on with the problem of the block before it,
 * prev, across the code quoted between them?  The bots walk one
 * problem through several hunks: a comment ending on a colon leads
 * into the code quoted after it, and the words below that code finish
 * its thought ("The check below:" / "would then evaluate to true"),
 * unless they open another problem outright. */
static bool goes_on(const char *prev, const char *s, size_t n)
{
	size_t pn = strlen(prev);

	while (pn && str_space((unsigned char) prev[pn - 1]))
		pn--;
	return pn && prev[pn - 1] == ':' && !lead_in(s, n) && opens(s, first_para(s, n)) == SAME;
}

static bool is_problem(const struct rv_block *k)
{
	const char *s = k->comment;
	size_t n = strlen(s);

	return (k->prose_preexisting || asks(s, n) || names_problem(s, n)) && !lead_in(s, n);
}

/* Block k about finding at, made already: another place of it, its
 * text added to the finding's. */
static void add_to(struct group *g, const struct rv_block *k, size_t at)
{
	struct rv_ctx *c = g->c;
	wn_finding *f = &c->r->findings[at];
	wn_buf comment = WN_BUF_INIT;

	g->last = at;
	wn_rv_add_place(c, f, k->file, k->function, k->line, k->line_approx);
	/* Its own code with its own words, not only words appended to
	 * another place's. */
	context_sites(g, f);
	site(c, f, k, k->comment, strlen(k->comment));
	/* the text of a few repeats says enough; beyond that only their
	 * places are kept, or a hostile mail would go quadratic */
	if (f->comment && strlen(f->comment) > MAX_REPEAT_TEXT) {
		wn_buf_reset(&g->context);
		return;
	}
	wn_rv_put(c, &comment, f->comment, f->comment ? strlen(f->comment) : 0);
	wn_rv_put(c, &comment, "\n\n", 2);
	if (g->context.len) {
		wn_rv_put(c, &comment, g->context.data, g->context.len);
		wn_buf_reset(&g->context);
	}
	wn_rv_put(c, &comment, k->comment, strlen(k->comment));
	free(f->comment);
	f->comment = wn_rv_take(c, &comment);
}

/* A repeat: the finding it points at, in add_to(). */
static void repeat(struct group *g, const struct rv_block *k, size_t first)
{
	add_to(g, k, pointed_at(g, k, first));
}

void wn_rv_blocks_group(struct rv_ctx *c, struct rv_blocks *b, wn_severity missing_sev,
			bool prose_pre)
{
	struct group g = { c, b, missing_sev, prose_pre, WN_BUF_INIT, false, WN_SEV_NONE, false, 0, 0, 0 };
	size_t i, first = c->r->nfindings, problems = 0;
	bool after_problem = false;	/* the block before went to a finding */

	for (i = 0; i < b->n; i++)
		problems += is_problem(&b->v[i]);
	/* Nothing reads as a problem: each block is one, as the bot sent
	 * it rather than as a guess. */
	if (!problems) {
		wn_rv_blocks_to_findings(c, b, missing_sev, prose_pre);
		return;
	}
	for (i = 0; i < b->n && !c->oom; i++) {
		struct rv_block *k = &b->v[i];
		const char *s = k->comment;
		size_t n = strlen(s);

		bool was = after_problem;

		after_problem = true;
		if (c->r->nfindings > first && points_back(s, n))
			repeat(&g, k, first);
		else if (c->r->nfindings > first && !g.context.len &&
			 (continues(s, n) || (was && goes_on(b->v[i - 1].comment, s, n))))
			add_to(&g, k, g.last);
		else if (is_problem(k))
			problem(&g, k);
		else {
			take_context(&g, k);
			after_problem = false;
		}
	}
	/* Context after the last problem explains that one. */
	if (g.context.len && c->r->nfindings > first && !c->oom) {
		wn_finding *f = &c->r->findings[c->r->nfindings - 1];
		wn_buf comment = WN_BUF_INIT;

		wn_rv_put(c, &comment, f->comment, strlen(f->comment));
		wn_rv_put(c, &comment, "\n\n", 2);
		while (g.context.len && (g.context.data[g.context.len - 1] == '\n'))
			g.context.data[--g.context.len] = '\0';
		wn_rv_put(c, &comment, g.context.data, g.context.len);
		free(f->comment);
		f->comment = wn_rv_take(c, &comment);
		context_sites(&g, f);
	}
	wn_buf_free(&g.context);
	for (i = first; i < c->r->nfindings; i++)
		wn_rv_sites_settle(&c->r->findings[i]);
}
