/* winnow show --tree: the function around each finding, from the tree
 * as the patch leaves it (lore.h). */
#ifndef WINNOW_SHOW_TREE_H
#define WINNOW_SHOW_TREE_H

#include "cli.h"
#include "printer.h"

/* The tree's value for it: where it was read and each finding's
 * function (a map; null when the tree cannot be prepared, the error
 * printed).  Returns the exit code. */
int wn_show_tree(wn_cli *cli, wn_printer *p, const wn_item *it);

#endif
