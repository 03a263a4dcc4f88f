/* winnow — what the files of similarity share (similar.c,
 * similar-words.c, similar-code.c).  Calls go one way: similar.c calls
 * the other two, similar-code.c calls similar-words.c. */
#ifndef WINNOW_MEMORY_SIMILAR_PRIVATE_H
#define WINNOW_MEMORY_SIMILAR_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/similar.h"

/* --- similar-words.c, similar-code.c: what the others call ------------ */

/* Add word w (n bytes) to out (cap: its room). */
wn_status wn_sim_add_word(wn_words *out, size_t *cap, const char *w, size_t n);
/* Sort and drop repeats. */
void wn_sim_make_set(wn_words *ws);
/* Findings in two functions: a name each summary gives but the function
 * it sits in (naming its own place says nothing).  *conflict: both name
 * code and none of it is the same; *shared: some name is in both. */
void wn_sim_names_across(const wn_sim_side *a, const wn_sim_side *b, bool *conflict, bool *shared);
/* The function of a place "FILE\x1fFUNCTION", or NULL. */
const char *wn_sim_fn_of(const char *loc);

#endif
