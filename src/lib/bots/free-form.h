/* winnow — Sashiko's free-form reviews (free-form.c): written without
 * quoting the code ("altered to a free-form summary ... due to
 * recitation restrictions"), each issue explained in prose. */
#ifndef WINNOW_BOTS_FREE_FORM_H
#define WINNOW_BOTS_FREE_FORM_H

#include "inline.h"

/* Does lines [from, to) of L say the review is free-form? */
bool wn_rv_free_form(const struct rv_lines *L, size_t from, size_t to);
/* The paragraphs of prose in [from, to) that explain issues, one block
 * each, placed at the file and function they name: the commit header
 * and description, the free-form note and the footer are left out. */
void wn_rv_prose_blocks(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
			struct rv_blocks *out);
/* A block without quoted code (a free-form review's, under its severity
 * tag) placed at the file and function its text names (a function a
 * quoted hunk header gave it stays): not about the commit message,
 * whatever the walk made of it. */
void wn_rv_prose_place(struct rv_ctx *c, struct rv_block *k);

#endif
