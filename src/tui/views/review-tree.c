/* winnow TUI — e in a review (review-tree.h). */
#include "autoconfig.h"

#include <stdlib.h>

#include "display.h"
#include "review-tree.h"
#include "winnow/lore.h"

void review_tree_edit(struct tui *t, const wn_item *it, size_t i)
{
	wn_error err = WN_ERROR_INIT;
	const wn_finding *f;
	char *path = NULL;
	wn_tree tree;
	wn_status st;

	if (!it->review || i >= it->review->nfindings) {
		tui_msg(t, ROLE_WARNING, "no finding here to open in the tree");
		return;
	}
	f = &it->review->findings[i];
	/* b4 and git run without the terminal: their output is kept for
	 * the error, curses stays as it is meanwhile, saying what runs
	 * (applying a series takes a moment the first time). */
	tui_msg(t, ROLE_STATUS, "preparing the tree%s", ui_ellipsis());
	view_draw(t);
	refresh();
	if (wn_tree_prepare(t->idx, it, &tree, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
		wn_error_clear(&err);
		return;
	}
	/* A file the tree lacks is said without leaving curses. */
	if ((st = wn_tree_file(&tree, f, &path, &err)) == WN_OK) {
		display_suspend();
		st = wn_tree_edit(&tree, f, &err);
		display_resume();
	}
	free(path);
	if (st != WN_OK && !tree.applied)
		tui_msg(t, ROLE_ERROR, "%s (the tree as it is: %s)", wn_error_msg(&err), tree.why);
	else if (st != WN_OK)
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
	else if (tree.applied)
		tui_msg(t, ROLE_STATUS, "opened in the series applied by b4, at patch %d of %d",
			tree.upto, tree.patches);
	else
		tui_msg(t, ROLE_WARNING, "opened in the tree as it is: %s", tree.why);
	wn_tree_clear(&tree);
	wn_error_clear(&err);
}
