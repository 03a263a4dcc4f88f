/* winnow — the similarity of two findings (similar.h): their places,
 * what is wrong in each, and the verdict on the pair (the words:
 * similar-words.c; the code they quote: similar-code.c). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/str.h"
#include "similar-private.h"
#include "winnow/buf.h"
#include "winnow/series.h"
#include "winnow/similar.h"
#include "winnow/text.h"

/* --- places ---------------------------------------------------------------- */

char *wn_sim_function(const char *function)
{
	static const char *const words[] = { "static ", "inline ", "__always_inline ", NULL };
	const char *p = function;
	size_t n;

	if (!p)
		return NULL;
	for (bool again = true; again;) {
		again = false;
		while (*p == ' ' || *p == '\t')
			p++;
		for (const char *const *w = words; *w; w++)
			if (strncmp(p, *w, strlen(*w)) == 0) {
				p += strlen(*w);
				again = true;
			}
	}
	n = strcspn(p, "( \t");
	return n ? wn_strndup(p, n) : NULL;
}

char *wn_sim_patch(const char *patch_subject)
{
	wn_subject s;
	char *title = NULL;

	if (!patch_subject || wn_subject_parse(patch_subject, &s) != WN_OK)
		return NULL;
	if (*s.title)
		title = s.title;
	else
		free(s.title);
	s.title = NULL;
	wn_subject_clear(&s);
	return title;
}

bool wn_sim_generic_path(const char *path)
{
	return path && wn_place_generic(path, strlen(path));
}

/* generic: a generic place says nothing (see similar.h). */
static char *location(const wn_finding *f, const char *patch_subject, bool generic)
{
	char *file = f->about_commit_msg ? NULL : wn_diff_path(f->file);
	char *fn = NULL;
	char *loc = NULL;
	wn_subject s;

	if (file && generic && wn_sim_generic_path(file)) {
		free(file);
		file = NULL;
	}
	if (file) {
		fn = wn_sim_function(f->function);
		if (asprintf(&loc, "%s\x1f%s", file, fn ? fn : "") < 0)
			loc = NULL;
	} else if (patch_subject && wn_subject_parse(patch_subject, &s) == WN_OK) {
		if (*s.title && asprintf(&loc, "\x1f\x1f%s", s.title) < 0)
			loc = NULL;
		wn_subject_clear(&s);
	}
	free(file);
	free(fn);
	return loc;
}

char *wn_sim_location(const wn_finding *f, const char *patch_subject)
{
	return location(f, patch_subject, true);
}

bool wn_sim_match(const char *loc_a, const wn_words *a, const char *loc_b, const wn_words *b,
		  double *score)
{
	double j = 0;

	if (loc_a && loc_b && strcmp(loc_a, loc_b) == 0)
		j = wn_words_jaccard(a, b);
	if (score)
		*score = j;
	return j >= WN_SIM_THRESHOLD;
}

/* --- what is wrong ---------------------------------------------------------- */

/* The problem kinds and the words that name them, as they begin in a
 * lower-cased summary at a word's start ("leak" is also "leaks",
 * "leaked").  Kinds overlap in one summary ("a race leads to a
 * use-after-free"): only summaries sharing none are different problems,
 * so a repeat reworded from "leaks memory" to "use-after-free and leak"
 * still meets.  Each list holds words, not phrases fitted to one
 * pair: what a reviewer would call the problem. */
enum { KIND_LEAK = 2, KIND_UNINIT = 3, KIND_INFOLEAK = 12 };
static const struct kind {
	const char *const words[8];
} kinds[] = {
	{ { "race", "racy", "racing", "concurrent", "toctou", "unsynchroni", "unprotected", "lockless" } },
	{ { "use-after-free", "use after free", "uaf", "dangling", "lifetime", "freed" } },
	/* KIND_LEAK: something allocated or taken is never given back (a
	 * leak of uninitialised data or to user space is KIND_INFOLEAK's:
	 * see wn_problem_kinds). */
	{ { "leak", "never freed", "not freed", "without freeing" } },
	{ { "uninitiali", "uninit" } },
	{ { "null" } },
	{ { "out-of-bounds", "out of bounds", "bounds", "overflow", "underflow", "overrun", "oob" } },
	{ { "align", "cacheline", "cache line", "cache-line" } },
	{ { "deadlock", "lock inversion", "lock order", "sleep in atomic", "sleeping in atomic" } },
	{ { "double free", "double-free", "freed twice" } },
	{ { "rate limit", "rate-limit", "ratelimit", "flood" } },
	/* An objection to an equality and one to a bit test at one line
	 * are opposite objections: the code went from one to the other. */
	{ { "equality", "equals" } },
	{ { "bit test", "bitwise", "bit-test" } },
	/* KIND_INFOLEAK: what user space must not see reaches it. */
	{ { "information leak", "info leak", "info-leak", "infoleak", "disclos" } },
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == KIND_INFOLEAK + 1, "KIND_INFOLEAK is the last");

/* Does the lower-cased summary send something to user space? */
static bool to_user(const char *low)
{
	static const char *const words[] = { "to user space", "to userspace", "to user-space",
					     "to user memory", "copy_to_user", "copied out", NULL };

	for (const char *const *w = words; *w; w++)
		if (strstr(low, *w))
			return true;
	return false;
}

static bool word_start(const char *s, const char *p)
{
	return p == s || !(str_ident_char((unsigned char) p[-1]) || p[-1] == '-');
}

unsigned wn_problem_kinds(const char *summary)
{
	char low[512];
	size_t n = 0;
	unsigned out = 0;

	for (const char *p = summary ? summary : ""; *p && n < sizeof(low) - 1; p++)
		low[n++] = (char) str_lower((unsigned char) *p);
	low[n] = '\0';
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t w = 0; w < 8 && kinds[k].words[w] && !(out & (1u << k)); w++)
			for (const char *p = strstr(low, kinds[k].words[w]); p;
			     p = strstr(p + 1, kinds[k].words[w]))
				if (word_start(low, p)) {
					out |= 1u << k;
					break;
				}
	/* A leak of uninitialised data or to user space discloses memory,
	 * an information leak; any other leak keeps what it took (memory,
	 * a reference), a resource leak: two problems, though both say
	 * "leak". */
	if ((out & 1u << KIND_LEAK) && ((out & 1u << KIND_UNINIT) || to_user(low)))
		out = (out & ~(1u << KIND_LEAK)) | 1u << KIND_INFOLEAK;
	return out;
}

bool wn_kinds_conflict(unsigned a, unsigned b)
{
	return a && b && !(a & b);
}

/* The same file: the part of two places before the function. */
static bool same_file(const char *a, const char *b)
{
	size_t n = a ? strcspn(a, "\x1f") : 0;

	return n && b && strncmp(a, b, n) == 0 && b[n] == '\x1f';
}

/* The patch route (see similar.h): the same patch in another version,
 * the same file, anchored in the code, the problem texts alike. */
static void judge_patch(const wn_sim_side *a, const wn_sim_side *b, wn_sim_result *r)
{
	bool conflict, shared, fn, code;
	double text, score;

	/* Two findings placed at the patch's title (about the commit
	 * message) are in one "file" when on one patch. */
	if (!a->patch || !b->patch || strcmp(a->patch, b->patch) != 0 ||
	    !(same_file(a->loc, b->loc) || (a->loc && b->loc && a->loc[0] == '\x1f' &&
					     strcmp(a->loc, b->loc) == 0)))
		return;
	wn_sim_names_across(a, b, &conflict, &shared);
	if (conflict)
		return;
	fn = wn_sim_fn_of(a->loc) && wn_sim_fn_of(b->loc) &&
	     strcmp(wn_sim_fn_of(a->loc), wn_sim_fn_of(b->loc)) == 0;
	code = wn_sim_anchored(a->quote, b->quote);
	text = a->text && b->text ? wn_words_jaccard(a->text, b->text) : 0;
	score = wn_words_jaccard(a->words, b->words) + text;
	if (fn || code || shared)
		score += WN_SIM_ANCHOR_WEIGHT;
	if (score > 1)
		score = 1;
	r->patch = score;
	if (score < WN_SIM_THRESHOLD || score <= r->score || r->score >= WN_SIM_THRESHOLD)
		return;
	r->score = score;
	r->signals |= WN_SIM_PATCH | (fn ? WN_SIM_PLACE : 0) | (code ? WN_SIM_QUOTE : 0) |
		      (shared ? WN_SIM_NAME : 0) | (text > r->words ? WN_SIM_TEXT : 0);
}

/* A place with a named function: a file's "FILE\x1fFUNCTION", not a
 * patch title's "\x1f\x1fTITLE" nor a file alone. */
static bool in_function(const char *loc)
{
	const char *sep = loc ? strchr(loc, '\x1f') : NULL;

	return sep && sep != loc && sep[1];
}

bool wn_sim_judge(const wn_sim_side *a, const wn_sim_side *b, wn_sim_result *r)
{
	bool code = false;

	memset(r, 0, sizeof(*r));
	if (wn_kinds_conflict(a->kinds, b->kinds))
		return false;
	if (a->loc && b->loc && strcmp(a->loc, b->loc) == 0) {
		r->signals = WN_SIM_PLACE;
		r->words = wn_words_jaccard(a->words, b->words);
		code = in_function(a->loc) && wn_sim_anchored(a->quote, b->quote) &&
		       !wn_names_conflict(a->names, b->names, strchr(a->loc, '\x1f') + 1);
	}
	r->score = r->words;
	if (r->words >= WN_SIM_THRESHOLD)
		r->signals |= WN_SIM_WORDS;
	if (code) {
		r->signals |= WN_SIM_QUOTE;
		/* A similarity stays at most 1; r->words tells such apart. */
		r->score = r->words + WN_SIM_QUOTE_WEIGHT > 1 ? 1 : r->words + WN_SIM_QUOTE_WEIGHT;
	}
	if (!r->words)
		r->words = wn_words_jaccard(a->words, b->words);
	/* Even when the place route matched: r->patch is what a sure
	 * carry is judged by. */
	judge_patch(a, b, r);
	return r->score >= WN_SIM_THRESHOLD;
}

/* The patch route's reasons, by anchor; [1] when the comments matched. */
static const char *const why_patch[][2] = {
	{ "same patch, quoted line and function; summary alike",
	  "same patch, quoted line and function; comment alike" },
	{ "same patch, file and quoted line, function renamed or moved; summary alike",
	  "same patch, file and quoted line, function renamed or moved; comment alike" },
	{ "same patch and function; summary alike", "same patch and function; comment alike" },
	{ "same patch, file and code named, function renamed or moved; summary alike",
	  "same patch, file and code named, function renamed or moved; comment alike" },
	{ "same patch and file, function renamed or moved; summary alike",
	  "same patch and file, function renamed or moved; summary and comment alike" },
};

const char *wn_sim_why(unsigned signals, const char *loc)
{
	bool fn = in_function(loc), title = loc && loc[0] == '\x1f';

	if (signals & WN_SIM_SAME)
		return "identical: same bot, summary and quoted code";
	if (signals & WN_SIM_PATCH) {
		int text = (signals & WN_SIM_TEXT) != 0, place = (signals & WN_SIM_PLACE) != 0;

		if (signals & WN_SIM_QUOTE)
			return why_patch[place ? 0 : 1][text];
		if (place)
			return why_patch[2][text];
		return why_patch[signals & WN_SIM_NAME ? 3 : 4][text];
	}
	if (signals & WN_SIM_QUOTE)
		return signals & WN_SIM_WORDS ? "same quoted line and function; summary alike"
					      : "same quoted line and function; summary reworded";
	if (title)
		return "same patch title; summary alike";
	return fn ? "same function; summary alike" : "same file; summary alike";
}

static const char *skip_space(const char *s)
{
	while (*s && str_space((unsigned char) *s))
		s++;
	return s;
}

/* The same text, a run of white space (a folded Subject line) being
 * one space and none at the ends counting. */
static bool same_words(const char *a, const char *b)
{
	a = skip_space(a);
	b = skip_space(b);
	while (*a && *b) {
		if (str_space((unsigned char) *a) && str_space((unsigned char) *b)) {
			a = skip_space(a);
			b = skip_space(b);
			continue;
		}
		if (*a != *b)
			return false;
		a++;
		b++;
	}
	return !*skip_space(a) && !*skip_space(b);
}

bool wn_sim_same_bug(wn_bot bot_a, const char *summary_a, wn_bot bot_b, const char *summary_b)
{
	if (!wn_bot_title_names_bug(bot_a) && !wn_bot_title_names_bug(bot_b))
		return true;
	return bot_a == bot_b && summary_a && summary_b && same_words(summary_a, summary_b);
}

/* --- a finding to compare -------------------------------------------------- */

void wn_sim_finding_free(wn_sim_finding *s)
{
	free(s->summary);
	free(s->loc);
	free(s->patch);
	wn_words_free(&s->words);
	wn_words_free(&s->names);
	wn_words_free(&s->text);
	wn_sim_quote_free(&s->quote);
	memset(s, 0, sizeof(*s));
}

wn_status wn_sim_finding_of(wn_bot bot, const wn_finding *f, const char *patch_subject,
			    wn_sim_finding *out)
{
	wn_status st = WN_NOMEM;

	memset(out, 0, sizeof(*out));
	out->bot = bot;
	/* A generic place is one of a crash's frames: a bot reviewing the
	 * code places its finding in the file the patch changes, arch/
	 * as much as drivers/ (else every s390 finding was placed at its
	 * patch's title, and met no other version of its patch). */
	if (!(out->loc = location(f, patch_subject, wn_bot_title_names_bug(bot))))
		return WN_NOT_FOUND;
	out->patch = wn_sim_patch(patch_subject);
	if ((out->summary = wn_strdup0(f->summary)) || !f->summary)
		st = wn_words_of(f->summary, &out->words);
	if (st == WN_OK)
		st = wn_names_of(f->summary, &out->names);
	if (st == WN_OK)
		st = wn_sim_quote_of(f->quote, &out->quote);
	if (st == WN_OK)
		st = wn_words_of(f->comment, &out->text);
	out->kinds = wn_problem_kinds(f->summary);
	if (st != WN_OK) {
		wn_sim_finding_free(out);
		return st;
	}
	wn_sim_finding_moved(out);
	return WN_OK;
}

void wn_sim_finding_moved(wn_sim_finding *s)
{
	s->side = (wn_sim_side) { s->loc, &s->words, &s->names, &s->quote, s->patch, &s->text,
				  s->kinds };
}

bool wn_sim_identical(const wn_sim_finding *a, const wn_sim_finding *b)
{
	if (a->bot != b->bot || !a->summary || !b->summary || !same_words(a->summary, b->summary) ||
	    !a->quote.n || a->quote.n != b->quote.n)
		return false;
	for (size_t i = 0; i < a->quote.n; i++)
		if (strcmp(a->quote.line[i], b->quote.line[i]) != 0)
			return false;
	return true;
}

bool wn_sim_alike(const wn_sim_finding *a, const wn_sim_finding *b, wn_sim_result *r)
{
	memset(r, 0, sizeof(*r));
	return wn_sim_same_bug(a->bot, a->summary, b->bot, b->summary) &&
	       wn_sim_judge(&a->side, &b->side, r);
}
