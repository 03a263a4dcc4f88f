/* winnow — the quoted-diff walker (inline.c), shared by the bots that
 * answer a patch by quoting it and writing below the code: Sashiko,
 * BPF CI, netdev AI reviews and unknown (generic) bots. */
#ifndef WINNOW_BOTS_INLINE_H
#define WINNOW_BOTS_INLINE_H

#include "build.h"

/* One comment below quoted code, and where in the patch it stands. */
struct rv_block {
	size_t order;			/* line where the comment starts */
	bool has_sev;
	wn_severity sev;
	bool prose_preexisting;
	char *file;
	char *function;
	/* The function the fingerprint has (fp_function, may be NULL) is
	 * not the one shown: a signature the fingerprint's older rule does
	 * not read named it (see wn_rv_block_fp). */
	bool fp_own;
	char *fp_function;
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

/* What a bot adds to the walk. */
struct rv_inline_opts {
	/* Does a footer start at line i (of [.., to))?  The review ends
	 * there.  NULL: only a signature ("-- ") ends it. */
	bool (*footer)(const struct rv_lines *L, size_t i, size_t to);
};

/* What the walker saw besides the blocks. */
struct rv_inline_meta {
	const struct rv_line *irt_subject;	/* "In-Reply-To-Subject:" line */
	const struct rv_line *patch_line;	/* "--- Patch [N]: S ---" line */
};

/* Cut lines [from, to) into comment blocks.  o and meta may be NULL. */
void wn_rv_inline_walk(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
		       const struct rv_inline_opts *o, struct rv_blocks *out,
		       struct rv_inline_meta *meta);
void wn_rv_blocks_free(struct rv_blocks *b);
/* Append *k to b (moved: *k is zeroed), noting its pre-existing prose;
 * false when out of memory or k has no comment (k's strings freed). */
bool wn_rv_blocks_push(struct rv_ctx *c, struct rv_blocks *b, struct rv_block *k);
/* Every block becomes a finding: severity from its tag or missing_sev;
 * prose_pre: honour "wasn't introduced by this patch" prose. */
void wn_rv_blocks_to_findings(struct rv_ctx *c, struct rv_blocks *b, wn_severity missing_sev,
			      bool prose_pre);
/* Drop the blocks that only say nothing was found (a clean review
 * quotes the commit message, then says so below it, or only gives its
 * Reviewed-by); returns how many were dropped. */
size_t wn_rv_blocks_drop_clean(struct rv_blocks *b);
/* Finding i, made from block k and placed where k stands, keeps the
 * fingerprint the walker's older rule gave it (verdicts are stored
 * under it). */
void wn_rv_block_fp(struct rv_ctx *c, size_t i, const struct rv_block *k);

/* A finding of the review that quotes no code and names no file, nor
 * speaks of the commit message, stands in the patch's only file when
 * the patch touches one (c->in->patch_files; asked for when unknown).
 * Its fingerprint keeps no file. */
void wn_rv_place_unquoted(struct rv_ctx *c);

/* Severity from a word (n bytes), WN_SEV_UNKNOWN when not recognised. */
wn_severity wn_rv_sev_word(const char *s, size_t n);
/* "commit <40 hex>" alone on a line: where a patch's text starts. */
bool wn_rv_commit_line(const char *s, size_t n);

#endif
