/* winnow — what every bot parser builds with: the body cut into lines
 * and the review being filled (build.c; the lines and text copies:
 * build-text.c; summaries: build-sentence.c).  review.c uses it to run a
 * parser, the bot files to write their findings.
 *
 * Every parser works on an array of lines cut from the decoded body once
 * (wn_rv_lines_read), never on NUL-terminated text: a body may hold NUL
 * bytes and is not terminated within its length.
 *
 * Allocation failures do not travel through every helper: they set
 * ctx->oom and the helper returns NULL or does nothing, so parsers stay
 * readable; wn_review_parse() turns the flag into WN_NOMEM at the end. */
#ifndef WINNOW_BOTS_BUILD_H
#define WINNOW_BOTS_BUILD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/str.h"
#include "winnow/buf.h"
#include "winnow/review.h"

/* One line of the body: no '\n', trailing '\r's removed. */
struct rv_line {
	const char *s;
	size_t n;
};

struct rv_lines {
	struct rv_line *v;
	size_t n;
	char *repaired;			/* the decoded copy v points into; NULL */
};

/* Cut body (len bytes) into lines.  A body that is still quoted-
 * printable encoded, once more than its headers say (list archives,
 * forwarded copies), is decoded first: otherwise "part=3D12" and "=\n"
 * soft breaks reach the parsers.  WN_NOMEM is the only error. */
wn_status wn_rv_lines_read(const char *body, size_t len, struct rv_lines *out);
void wn_rv_lines_free(struct rv_lines *l);

/* Per finding, the location its fingerprint is made of. */
struct rv_fploc {
	/* Does its location come from the bot's own text?  Only then do
	 * file and function enter the fingerprint (see wn_fingerprint in
	 * review.c). */
	bool loc;
	/* wn_rv_fp_pin()'d: file and function as the mail alone gives them,
	 * before the patch's files moved the finding. */
	bool pinned;
	char *file, *function;
	/* wn_rv_fp_text()'s text, hashed in place of the summary; NULL: the
	 * summary. */
	char *text;
};

/* The review being built. */
struct rv_ctx {
	wn_review *r;
	const wn_review_input *in;	/* never NULL: an empty one at worst */
	size_t cap;
	struct rv_fploc *fp;
	bool oom;
};

/* Append a zeroed finding (severity NONE, line 0); NULL when out of
 * memory.  loc_in_fp: see struct rv_fploc. */
wn_finding *wn_rv_add(struct rv_ctx *c, bool loc_in_fp);
/* Finding i's fingerprint keeps its present file and function, however
 * the parser moves it afterwards (the patch's files are not always
 * known, a verdict must find its finding either way). */
void wn_rv_fp_pin(struct rv_ctx *c, size_t i);
/* Finding i's fingerprint keeps file and function (copied, either may
 * be NULL) whatever its place: a place shown better than the mail's
 * older reading gave it. */
void wn_rv_fp_place(struct rv_ctx *c, size_t i, const char *file, const char *function);
/* Finding i's fingerprint is made of text (copied) instead of its
 * summary: a bot whose summaries carry what changes with every run (a
 * linker's section offsets, addresses) gives the summary without it, so
 * the same problem keeps one fingerprint while the summary and quote
 * keep the bot's words. */
void wn_rv_fp_text(struct rv_ctx *c, size_t i, const char *text, size_t n);
/* Finding i moves to file:line in function (both taken over, either may
 * be NULL); its fingerprint keeps the place it had (wn_rv_fp_pin). */
void wn_rv_move(struct rv_ctx *c, size_t i, char *file, char *function, int line);
/* Finding i's fingerprint keeps its file (wn_rv_fp_pin) but no function:
 * a finding whose places lie in several functions. */
void wn_rv_fp_pin_file(struct rv_ctx *c, size_t i);
/* Drop the findings whose drop[] is set, freeing them, and move the
 * others (and their fingerprint state) down in order. */
void wn_rv_drop(struct rv_ctx *c, const bool *drop);
/* Free what a finding owns (not f itself). */
void wn_rv_finding_free(wn_finding *f);
/* Add a place to finding f (copies). */
void wn_rv_add_place(struct rv_ctx *c, wn_finding *f, const char *file, const char *function,
		     int line, bool approx);
/* Add a site to finding f (copies; comment is n bytes): one block of
 * the mail the finding is made of.  Beyond RV_MAX_SITES only the text
 * and places are kept (a hostile mail repeats a block at will). */
#define RV_MAX_SITES 64
void wn_rv_add_site(struct rv_ctx *c, wn_finding *f, const char *file, const char *function,
		    int line, bool approx, bool commit_msg, const char *code, const char *comment,
		    size_t n);
/* A finding of one site keeps none: its place, quote and comment are
 * that site (wn_finding_site()). */
void wn_rv_sites_settle(wn_finding *f);
/* Append text to f->detail ("; " between parts). */
void wn_rv_add_detail(struct rv_ctx *c, wn_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record why there are no findings (first call wins). */
void wn_rv_explain(struct rv_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The tags a bot asks a fix to carry, into c->r->tags: the trailer
 * lines after its request ("kindly add following tags", "please add
 * the following tag to the commit:") in lines [from, to) of L, each
 * "Key: value" with Key one of Reported-by, Closes, Link, Tested-by,
 * as the bot wrote it (a "| " before it and blanks around it taken
 * off).  Quoted lines are someone else's; a tag holding a control
 * character or invalid UTF-8 is left out, never mended: the author
 * pastes it into a commit. */
void wn_rv_asked_tags(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to);

/* The lines of lines [from, to) of L that start with one of keys (a
 * NULL-terminated list, any case: "config:", "dashboard link:") into
 * c->r->facts, as the bot wrote them, each followed by the indented
 * lines under it (a "reproduce:" line's commands); quoted and indented
 * lines are not looked at, a line holding a control character or
 * invalid UTF-8 is left out. */
void wn_rv_report_facts(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
			const char *const *keys);

/* Copy of s[0..n) as a C string, NUL bytes turned into spaces. */
char *wn_rv_dup(struct rv_ctx *c, const char *s, size_t n);
/* One line: whitespace runs collapsed to one space, trimmed, cut at
 * about max bytes on a word boundary (never inside a UTF-8 sequence). */
char *wn_rv_oneline(struct rv_ctx *c, const char *s, size_t n, size_t max);
/* f's summary from its comment s[0..n), rv_first_sentence(); its
 * fingerprint stays what it was before lead-ins were told apart. */
void wn_rv_summarise(struct rv_ctx *c, wn_finding *f, const char *s, size_t n);
/* A Message-ID as a link writes it: %xx decoded, "<>" and trailing
 * punctuation stripped; NULL when what is left cannot be one. */
char *wn_rv_msgid(struct rv_ctx *c, const char *s, size_t n);
/* wn_buf_append that records out-of-memory in c. */
void wn_rv_put(struct rv_ctx *c, wn_buf *b, const char *s, size_t n);
/* Steal b's string, or NULL when b is empty. */
char *wn_rv_take(struct rv_ctx *c, wn_buf *b);

/* Does s hold phrase (lower-case words separated by single spaces) the
 * way a notmuch phrase search finds it: whole words, any case, any run
 * of blanks or punctuation between them?  The kinds a bot's hidden
 * query selects by phrase are decided with this. */
bool wn_rv_phrase(const char *s, size_t n, const char *phrase);
/* ... starting in one of lines [from, to) of L, maybe wrapped onto the
 * line after it. */
bool wn_rv_phrase_lines(const struct rv_lines *L, size_t from, size_t to, const char *phrase);

/* The length of the hedge opening summary s ("This isn't a bug
 * introduced by this patch, but "), which the displayed summary leaves
 * out (hedge.c); 0 when s opens with none. */
size_t wn_rv_hedge(const char *s);
/* Should the text after a hedge open with a capital: does s open with
 * a word like "is" or "the", not an identifier? */
bool wn_rv_hedge_capital(const char *s);

/* Maximum length of a summary (bytes) before it is cut. */
#define RV_SUMMARY_MAX 200
/* wn_rv_oneline() without a cut. */
#define RV_NO_CUT (SIZE_MAX - 4)

#endif
