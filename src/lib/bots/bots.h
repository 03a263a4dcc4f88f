/* winnow — internals of the review parsers (review*.c).
 *
 * Every parser works on an array of lines cut from the decoded body once
 * (rv_lines_split), never on NUL-terminated text: a body may hold NUL
 * bytes and is not terminated within its length.
 *
 * Allocation failures do not travel through every helper: they set
 * ctx->oom and the helper returns NULL or does nothing, so parsers stay
 * readable; wn_review_parse() turns the flag into WN_NOMEM at the end. */
#ifndef WINNOW_REVIEW_PRIVATE_H
#define WINNOW_REVIEW_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../str.h"
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
};

wn_status rv_lines_split(const char *body, size_t len, struct rv_lines *out);
void rv_lines_free(struct rv_lines *l);

/* The review being built. */
struct rv_ctx {
	wn_review *r;
	size_t cap;
	/* Per finding: does its location come from the bot's own text?
	 * Only then do file and function enter the fingerprint (see
	 * wn_fingerprint in review.c). */
	bool *loc_fp;
	bool oom;
};

/* Append a zeroed finding (severity NONE, line 0); NULL when out of
 * memory.  loc_in_fp: see struct rv_ctx. */
wn_finding *rv_add(struct rv_ctx *c, bool loc_in_fp);
/* Record why there are no findings (first call wins). */
void rv_explain(struct rv_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Copy of s[0..n) as a C string, NUL bytes turned into spaces. */
char *rv_dup(struct rv_ctx *c, const char *s, size_t n);
/* One line: whitespace runs collapsed to one space, trimmed, cut at
 * about max bytes on a word boundary (never inside a UTF-8 sequence). */
char *rv_oneline(struct rv_ctx *c, const char *s, size_t n, size_t max);
/* The first sentence of the first paragraph of s, as rv_oneline(). */
char *rv_first_sentence(struct rv_ctx *c, const char *s, size_t n);
/* wn_buf_append that records out-of-memory in c. */
void rv_put(struct rv_ctx *c, wn_buf *b, const char *s, size_t n);
/* Steal b's string, or NULL when b is empty. */
char *rv_take(struct rv_ctx *c, wn_buf *b);

/* Maximum length of a summary (bytes) before it is cut. */
#define RV_SUMMARY_MAX 200
/* rv_oneline() without a cut. */
#define RV_NO_CUT (SIZE_MAX - 4)

/* Does a quoted ('>') line start here?  *content gets the text after
 * "> " (or ">"). */
bool rv_quoted(const struct rv_line *l, const char **content, size_t *cn);
/* Severity word inside a "[...]" tag line ("[Severity: High]",
 * "[High]").  Returns true and *sev for a known word; rest and rn get
 * the text after the tag (may be empty). */
bool rv_sev_tag(const char *s, size_t n, wn_severity *sev, const char **rest, size_t *rn);
/* Severity from a word (n bytes), WN_SEV_UNKNOWN when not recognised. */
wn_severity rv_sev_word(const char *s, size_t n);
/* "commit <40 hex>" alone on a line. */
bool rv_commit_line(const char *s, size_t n);
/* Does the comment say the problem predates the patch? */
bool rv_preexisting_prose(const char *s, size_t n);
/* A body that is still quoted-printable encoded (soft line breaks and
 * =XX escapes, both): *out gets a decoded copy (malloc'd, *outlen
 * bytes), else NULL.  WN_NOMEM is the only error. */
wn_status rv_qp_repair(const char *body, size_t len, char **out, size_t *outlen);

/* ---- quoted-diff inline comments (review-inline.c) ---- */

struct rv_block {
	size_t order;			/* line where the comment starts */
	bool has_sev;
	wn_severity sev;
	bool prose_preexisting;
	char *file;
	char *function;
	int line;
	bool line_approx;
	bool about_commit_msg;
	char *quote;
	char *comment;
};

struct rv_blocks {
	struct rv_block *v;
	size_t n, cap;
};

struct rv_inline_opts {
	bool bpf_footer;		/* "---" + "AI reviewed..." ends the review */
};

/* What the walker saw besides the blocks. */
struct rv_inline_meta {
	const struct rv_line *irt_subject;	/* "In-Reply-To-Subject:" line */
	const struct rv_line *patch_line;	/* "--- Patch [N]: S ---" line */
};

void rv_inline_walk(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
		    const struct rv_inline_opts *o, struct rv_blocks *out,
		    struct rv_inline_meta *meta);
void rv_blocks_free(struct rv_blocks *b);
/* Every block becomes a finding: severity from its tag or missing_sev;
 * prose_pre: honour "wasn't introduced by this patch" prose. */
void rv_blocks_to_findings(struct rv_ctx *c, struct rv_blocks *b, wn_severity missing_sev,
			   bool prose_pre);

/* ---- "found N potential issue(s)" summaries (review-summary.c) ---- */

struct rv_entry {
	wn_severity sev;
	bool preexisting;
	wn_buf text;
};

struct rv_summary {
	bool found;
	int declared;
	size_t line;			/* index of the "found N" line */
	size_t end;			/* first line after the summary */
	struct rv_entry *v;
	size_t n, cap;
};

/* Look for the summary in [from, to) before the first quoted line. */
void rv_summary_parse(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
		      struct rv_summary *out);
void rv_summary_free(struct rv_summary *s);
/* One finding per entry; blocks attach to entries by severity and word
 * overlap and lend them their location.  Consumes the blocks' strings. */
void rv_summary_attach(struct rv_ctx *c, struct rv_summary *s, struct rv_blocks *b);

/* ---- the parsers ---- */

void rv_parse_sashiko(struct rv_ctx *c, const struct rv_lines *L);
void rv_parse_bpf_ci(struct rv_ctx *c, const struct rv_lines *L);
void rv_parse_netdev(struct rv_ctx *c, const struct rv_lines *L);
void rv_parse_generic(struct rv_ctx *c, const struct rv_lines *L);
void rv_parse_lkp(struct rv_ctx *c, const struct rv_lines *L);
void rv_parse_syzbot(struct rv_ctx *c, const struct rv_lines *L);

#endif
