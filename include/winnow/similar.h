/* winnow — when two findings are the same problem: the similarity
 * measure behind "seen before", `winnow carry`, "likely fixed in v2"
 * and the pre-existing ledger.  winnow(1) documents it (SIMILAR
 * FINDINGS); keep the two in step.
 *
 * Two findings are similar when
 *
 *   1. they are at the same place: the same file and the same function,
 *      both normalised (wn_sim_location); a finding without a file (one
 *      about the commit message) is placed at its patch's title instead,
 *      so it only ever meets the same patch in another version;
 *   2. their problem texts (the one-line summaries) share enough words:
 *      the Jaccard index |A and B| / |A or B| of their word sets
 *      (wn_words_of) is at least WN_SIM_THRESHOLD;
 *   or 2'. (wn_sim_judge) they sit in the same named function and quote
 *      the same code (wn_sim_anchored): the score is the Jaccard index
 *      plus WN_SIM_QUOTE_WEIGHT, so a reworded summary still needs
 *      some words in common (0.15), and the code names the summaries
 *      give (wn_names_of) must not be all different.
 *
 * Or, 3. the patch route (wn_sim_judge, with wn_sim_side's patch and
 * text): a bot reviewing v1 and v3 of one patch words a finding anew
 * and, the patch having moved code or renamed a function, may place it
 * in another function of the same file.  Two findings on the same patch
 * (wn_sim_patch: the title every version shares) in the same file are
 * similar when the summaries' Jaccard index plus that of the bots' whole
 * comments (wn_words_of each) reaches WN_SIM_THRESHOLD, counting
 * WN_SIM_ANCHOR_WEIGHT more when the code anchors them: the same
 * function, the same quoted code (wn_sim_anchored), or a code name both
 * summaries give other than the functions they sit in.  The code names
 * must not be all different (the functions they sit in left out).  The
 * comment is the bot's whole account of the problem, with the code it
 * names; a summary is one line of it, and the bots reword it from run to
 * run.
 *
 * Never, by any route: two summaries naming different problems
 * (wn_problem_kinds, wn_kinds_conflict), a race and an alignment, a
 * leak and a NULL dereference.  Same code is not the same problem.
 *
 * A generic place (kernel/locking/, mm/kasan/, kernel/rcu/, lib/dump_stack.c,
 * kernel/workqueue.c, kernel/irq_work.c, include/linux/NAME.h:
 * wn_sim_generic_path) says nothing: unrelated bugs share it.  Such a
 * finding is placed at its patch's title, like one about the commit
 * message.
 *
 * The bot does not matter: Sashiko and the BPF CI bot saying the same
 * thing about one function are the same finding.  Neither do line
 * numbers, hex values, versions ("v2"), nor the order of the words.
 * Nor does the severity a bot gives: on the labelled pairs 5 of 27
 * repeats changed it between versions, while 29 of the 47 pairs of
 * different problems in one file had the same one.  The patch's
 * git patch-id is no signal either: a diff that stays the same across
 * versions keeps its title too, and 43 of the 45 labelled reviews have
 * no patch in the index to take it from. */
#ifndef WINNOW_SIMILAR_H
#define WINNOW_SIMILAR_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/review.h"
#include "winnow/status.h"

#define WN_SIM_THRESHOLD 0.5
/* Added to the text score when the quoted code is the same.  On the
 * 25 labelled real version pairs the repeats that quote the
 * same code in the same function have word scores from 0.13 up, while
 * different problems quoting the same code reach 0.12 (and 0.14, 0.22
 * with summaries naming different code, which wn_names_conflict
 * refuses): 0.35 asks for 0.15, the first value above every wrong one. */
#define WN_SIM_QUOTE_WEIGHT 0.35
/* The patch route (3. at the top) adds this for an anchor in the code:
 * the same function, the same quoted code, or a code name both
 * summaries give.  On the labelled pairs, different problems of one
 * patch and file so anchored have summary plus comment scores up to
 * 0.30, the repeats from 0.35 (one unsure pair 0.35 too); the text
 * alone, unanchored, must reach the threshold like a summary alone:
 * different problems reached 0.38 there. */
#define WN_SIM_ANCHOR_WEIGHT 0.15
/* A carry is sure (carry applies it; below, a suggestion the maintainer
 * chooses) when, on the same patch in another version, the patch
 * route's score reaches WN_SIM_THRESHOLD and beats every other pairing
 * of the two findings by WN_SIM_MARGIN: no other judged finding is as
 * much like the new one, and no other new finding as much like the
 * judged one.  0.1 is less than one anchor (WN_SIM_ANCHOR_WEIGHT); on
 * dev and dev2 margins 0.05 to 0.15 all keep precision at
 * 99%, and a smaller one lets two findings at the same code, one
 * repeating the other, pass on a word's difference. */
#define WN_SIM_MARGIN 0.1

/* The words of a problem text, sorted, each once. */
typedef struct wn_words {
	char **w;
	size_t n;
} wn_words;

/* Split text (may be NULL) into words as the fingerprint normalises it
 * (ASCII lower case) and further: a word is a run of letters, digits
 * and '_'; dropped are numbers, hex values (0x1f, or 7 and more hex
 * digits holding a digit: a commit id), series versions (v2), and the
 * short words any sentence has (the, is, of, ...); a word without '_'
 * or digits loses a plural, past or -ing ending and a final 'e'
 * ("writes", "writing" -> "writ": see similar.c).  WN_NOMEM is the only
 * error. */
wn_status wn_words_of(const char *text, wn_words *out);
void wn_words_free(wn_words *w);
/* |a and b| / |a or b|; 0 when both are empty. */
double wn_words_jaccard(const wn_words *a, const wn_words *b);

/* A function name without "()", surrounding blanks or a leading
 * "static "/"inline ".  malloc'd; NULL for NULL or empty (or out of
 * memory).  (A file path's normal form is wn_diff_path(), winnow/diff.h.) */
char *wn_sim_function(const char *function);

/* Where finding f is, as one string for comparing and indexing:
 * "<file>\x1f<function>", or for a finding with no file
 * "\x1f\x1f<title of patch_subject>" (NULL when there is no subject
 * either: such a finding is like no other).  malloc'd. */
char *wn_sim_location(const wn_finding *f, const char *patch_subject);

/* Is a normalised path one unrelated bugs share (see the top)? */
bool wn_sim_generic_path(const char *path);

/* A finding's quoted code, normalised: each line without its diff
 * marker ('+', '-', ' '), a leading line number ("123:", "123 |") or
 * surrounding blanks, runs of blanks made one; empty lines, hunk
 * headers and snips ("...") dropped.  anchor is the line the comment
 * is attached to: the last line with 8 or more characters ("}",
 * "break;" are everywhere); NULL when there is none. */
typedef struct wn_sim_quote {
	char **line;
	size_t n;
	const char *anchor;
} wn_sim_quote;

wn_status wn_sim_quote_of(const char *quote, wn_sim_quote *out);
void wn_sim_quote_free(wn_sim_quote *q);
/* The same code: one's anchor line is among the other's lines, or half
 * their lines (Jaccard) are the same. */
bool wn_sim_anchored(const wn_sim_quote *a, const wn_sim_quote *b);

/* What a summary says is wrong, as a set of problem kinds (a race, a
 * use-after-free or lifetime, a resource leak, an information leak,
 * uninitialised memory, NULL, out of bounds, alignment, a deadlock, a double free, rate limiting, an
 * equality, a bit test): a bit each, 0 when it names none.  Two summaries that
 * both name kinds and share none speak of different problems, whatever
 * code they quote (a data race on a DMA buffer and the buffer's
 * alignment; an equality and a bit test).  See similar.c for the
 * words of each kind. */
unsigned wn_problem_kinds(const char *summary);
/* Both name problem kinds and none is the same. */
bool wn_kinds_conflict(unsigned a, unsigned b);

/* The code names a summary gives, sorted, each once, lower case: what
 * it puts in backticks, a word holding '_', a word followed by "()".
 * WN_NOMEM is the only error. */
wn_status wn_names_of(const char *text, wn_words *out);
/* Both summaries name code and no name is in both: they speak of
 * different code, whatever lines they quote.  Names are the same
 * underscores aside ("dev_t", "devt") and when one is the other's last
 * part after a '_' ("data", "btrfs_uring_encoded_data": a variable named
 * by its type; 4 letters or more), so a reworded summary naming the variable instead of
 * its type is no conflict.  function (may be NULL),
 * the place both are in, does not count: naming it says nothing the
 * place does not.  False when a or b is NULL. */
bool wn_names_conflict(const wn_words *a, const wn_words *b, const char *function);

/* Which signals made a match (wn_sim_judge). */
enum {
	WN_SIM_PLACE = 1,	/* same file and function (or patch title) */
	WN_SIM_WORDS = 2,	/* summaries alike on their own */
	WN_SIM_QUOTE = 4,	/* same quoted code (in the same named function,
				 * or with WN_SIM_PATCH in the same file) */
	WN_SIM_PATCH = 8,	/* the same patch in another version (the
				 * patch route, 3. at the top) */
	WN_SIM_NAME = 16,	/* a code name both summaries give */
	WN_SIM_TEXT = 32,	/* the bots' comments, more alike than the
				 * summaries, carried the patch route */
	WN_SIM_SAME = 64,	/* word for word (wn_sim_identical) */
};

/* One finding, as wn_sim_judge compares it.  quote and names may be
 * NULL (then there is no code signal); patch and text may be NULL (then
 * there is no patch route). */
typedef struct wn_sim_side {
	const char *loc;
	const wn_words *words;
	const wn_words *names;
	const wn_sim_quote *quote;
	const char *patch;	/* wn_sim_patch() of its patch's subject */
	const wn_words *text;	/* wn_words_of() its comment */
	unsigned kinds;		/* wn_problem_kinds() of its summary */
} wn_sim_side;

/* The patch's identity across versions: its subject's title without
 * "Re:", list tags and the [PATCH v2 3/5] group (wn_subject_parse), so
 * v1 and v4 of one patch are one patch though the series grew around it
 * (on the labelled pairs 12 of 13 series patches changed position, so
 * the position is not part of it).  malloc'd; NULL without a title. */
char *wn_sim_patch(const char *patch_subject);

/* What wn_sim_judge found. */
typedef struct wn_sim_result {
	double score;		/* words, plus WN_SIM_QUOTE_WEIGHT for the same
				 * code; or by the patch route words and the
				 * comments' index, plus WN_SIM_ANCHOR_WEIGHT;
				 * at most 1; 0 when the places differ and the
				 * patch route finds nothing */
	double words;		/* the words' Jaccard index alone */
	unsigned signals;	/* what matched, for wn_sim_why */
	double patch;		/* the patch route's score whenever the two
				 * are on one patch and in one file, even when
				 * the place route matched: what a sure carry
				 * is judged by (WN_SIM_MARGIN); 0 otherwise */
} wn_sim_result;

/* wn_sim_match with the code signal (2' at the top). */
bool wn_sim_judge(const wn_sim_side *a, const wn_sim_side *b, wn_sim_result *r);

/* A finding with everything wn_sim_judge compares, owned; side points
 * into it, so it stays where wn_sim_finding_of() filled it. */
typedef struct wn_sim_finding {
	wn_bot bot;
	char *summary;
	char *loc, *patch;
	wn_words words, names, text;
	wn_sim_quote quote;
	unsigned kinds;
	wn_sim_side side;
} wn_sim_finding;

/* Finding f of bot's review about the patch patch_subject (may be NULL).
 * WN_NOT_FOUND: f has no place (wn_sim_location), and is like no other
 * finding; WN_NOMEM.  *out is cleared either way on failure. */
wn_status wn_sim_finding_of(wn_bot bot, const wn_finding *f, const char *patch_subject,
			    wn_sim_finding *out);
void wn_sim_finding_free(wn_sim_finding *s);
/* *s was copied from where it was filled: point its side into it. */
void wn_sim_finding_moved(wn_sim_finding *s);
/* wn_sim_same_bug and wn_sim_judge. */
bool wn_sim_alike(const wn_sim_finding *a, const wn_sim_finding *b, wn_sim_result *r);

/* The same finding word for word: the same bot, the same summary (white
 * space aside) and the same quoted code, not empty (wn_sim_quote_of):
 * a bot that says it again of a sibling patch of the series, or of
 * another version, says the same thing of the same code. */
bool wn_sim_identical(const wn_sim_finding *a, const wn_sim_finding *b);

/* What signals say, for people: "same quoted line and function;
 * summary reworded".  A static string. */
const char *wn_sim_why(unsigned signals, const char *loc);

/* Are these findings similar?  The location first (cheap), then the
 * words; score (may be NULL) gets the Jaccard index, or 0 when the
 * locations differ. */
bool wn_sim_match(const char *loc_a, const wn_words *a, const char *loc_b, const wn_words *b,
		  double *score);

/* May these two findings be one problem at all?  A syzbot finding is a
 * crash, and its summary is the bug's title ("KASAN: use-after-free
 * Read in foo"): syzbot itself tells bugs apart by title, and two bugs
 * crashing in the same frame share a place and most words of their
 * titles ("... Read in foo", "... Write in foo"; a WARNING in a
 * generic helper reached from anywhere).  So a syzbot finding is only
 * ever the same problem as a syzbot finding with the identical title
 * (white space aside), never one of another bot's.  True for any two
 * findings of other bots: wn_sim_match decides those. */
bool wn_sim_same_bug(wn_bot bot_a, const char *summary_a, wn_bot bot_b, const char *summary_b);

#endif
