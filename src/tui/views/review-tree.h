/* winnow TUI — e in a review: the finding's file at its line in
 * $EDITOR, in winnow.tree with the patch's series applied by b4, or in
 * the tree as it is (lore.h); the status line says which. */
#ifndef WINNOW_TUI_REVIEW_TREE_H
#define WINNOW_TUI_REVIEW_TREE_H

#include <stddef.h>

#include "view.h"

/* Open finding i of it in the editor, curses put aside meanwhile. */
void review_tree_edit(struct tui *t, const wn_item *it, size_t i);

#endif
