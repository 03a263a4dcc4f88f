/* winnow — helpers shared by the unit tests of the review parsers
 * (test-review.c and one test-bot-NAME.c per bot).
 *
 * Every body reaches the parser in a buffer of exactly its length,
 * without a terminating NUL, so that AddressSanitizer catches a parser
 * reading past len.  Whole bot mails live in tests/corpus/ (where the
 * golden files check them through the index too) and are loaded from
 * there; fragments that test one detail stay inline in the tests. */
#ifndef WN_TEST_REVIEW_TEST_H
#define WN_TEST_REVIEW_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "winnow/review.h"

/* Parse n bytes of s as bot and check the invariants of every review
 * (numbering, fingerprints, one-line summaries, explain iff empty). */
wn_review *parse_n(wn_bot bot, const char *s, size_t n);
/* The same for a NUL-terminated string. */
wn_review *parse(wn_bot bot, const char *s);
/* parse() with what the index knows besides the body (may be NULL). */
wn_review *parse_in(wn_bot bot, const char *s, const wn_review_input *in);
/* parse() of a mail with this subject. */
wn_review *parse_subject(wn_bot bot, const char *subject, const char *s);
/* Finding i of r; fails the test when there is none. */
wn_finding *F(wn_review *r, size_t i);
/* Fails the test unless needle occurs in hay (hay may be NULL). */
void assert_contains(const char *hay, const char *needle);
/* wn_bot_detect() on a mail with only these fields set. */
bool detect(const char *from, const char *subject, const char *body,
	    const char *const *generic, wn_bot *b);
/* detect() with a display name. */
bool detect_named(const char *name, const char *from, const char *subject, wn_bot *b);

/* The decoded body of tests/corpus/PATH (found through WN_TOP_SRCDIR),
 * NUL-terminated; *len (may be NULL) gets its length.  The caller frees
 * it.  The mail must be detected as bot, except for WN_BOT_GENERIC,
 * which only the user's configuration names. */
char *corpus_body(const char *path, wn_bot bot, size_t *len);
/* The review in tests/corpus/PATH, parsed as bot (through parse_n). */
wn_review *corpus_review(wn_bot bot, const char *path);

#endif
