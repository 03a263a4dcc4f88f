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
 *      (wn_words_of) is at least WN_SIM_THRESHOLD.
 *
 * The bot does not matter: Sashiko and the BPF CI bot saying the same
 * thing about one function are the same finding.  Neither do line
 * numbers, hex values, versions ("v2"), nor the order of the words. */
#ifndef WINNOW_SIMILAR_H
#define WINNOW_SIMILAR_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/review.h"
#include "winnow/status.h"

#define WN_SIM_THRESHOLD 0.5

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

/* A file path as bots write it, normalised: without a leading "a/",
 * "b/" or "./", doubled '/' made one.  A function name without "()",
 * surrounding blanks or a leading "static "/"inline ".  malloc'd; NULL
 * for NULL or empty (or out of memory). */
char *wn_sim_path(const char *file);
char *wn_sim_function(const char *function);

/* Where finding f is, as one string for comparing and indexing:
 * "<file>\x1f<function>", or for a finding with no file
 * "\x1f\x1f<title of patch_subject>" (NULL when there is no subject
 * either: such a finding is like no other).  malloc'd. */
char *wn_sim_location(const wn_finding *f, const char *patch_subject);

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
