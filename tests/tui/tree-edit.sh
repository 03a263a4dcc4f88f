#!/usr/bin/env bash
# e in a review (tests/tui/screens/tree-edit/): the finding's file opens
# in $EDITOR at the finding's line ("+LINE FILE"), in winnow.tree with
# the series applied by b4, curses put aside and back, the status line
# saying which tree; on a real terminal (tmux).  A series that does not
# apply leaves the tree as it is, which lacks the file: said, and no
# editor runs; nor for a file the series made a symbolic link.  $EDITOR is tests/lib/record-editor, which writes down
# its arguments and the line at the cursor.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/lore.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_need_tools b4 git tmux
wn_world "$WN_TOP_SRCDIR/tests/corpus/lore"
export XDG_CACHE_HOME=$WN_WORLD/cache
export EDITOR=$WN_TOP_SRCDIR/tests/lib/record-editor RECORD_EDITOR_LOG=$WN_WORLD/editor.log
unset VISUAL
wn_kernel_tree "$WN_WORLD/linux"
notmuch config set winnow.tree "$WN_WORLD/linux"
trees=$XDG_CACHE_HOME/winnow/trees
vars=(EDITOR="$EDITOR" RECORD_EDITOR_LOG="$RECORD_EDITOR_LOG" XDG_CACHE_HOME="$XDG_CACHE_HOME")

WN_SCREEN_TMUX=1 wn_screen_start 80 24 "${vars[@]}" -- "(id:20260112112000.F00D0001@smtp.kernel.org)"
check "queue limited to the review" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 1"
wn_tui_keys e
check "e ran the editor" wn_until test -f "$RECORD_EDITOR_LOG"
root=$(sed -n 2p "$RECORD_EDITOR_LOG")
root=${root%/drivers/frob/frob.c}
check "... on a worktree of the cache" test "${root#"$trees"/}" != "$root"
expect_eq "... at the finding's line, on the file as the series leaves it" \
	"+31|$root/drivers/frob/frob.c|	kfree(f);" "$(paste -sd '|' "$RECORD_EDITOR_LOG")"
wn_tui_wait "opened in the series applied by b4, at patch 2 of 2" > /dev/null
wn_screen after-e-80x24

# A series that does not apply: the file is not in the tree as it is.
rm -f "$RECORD_EDITOR_LOG"
wn_screen_start 80 24 "${vars[@]}" -- "(id:20260113100000.0CA70001@smtp.kernel.org)"
wn_screen_keys e
check "e in the queue says where it works" wn_tui_wait "e opens a finding in the tree from a review"
wn_screen_keys Enter e
wn_tui_wait "drivers/other/other.c is not in the tree" > /dev/null
wn_screen not-in-tree-80x24
check "... and no editor ran" test ! -e "$RECORD_EDITOR_LOG"

# A finding at a symbolic link the series added, or under one (issue
# 36): refused, saying so, and no editor runs.
wn_screen_keys q q
wn_tui_wait "WINNOW-EXIT=0"
wn_link_mails "$WN_WORLD/outside"
wn_screen_start 120 24 "${vars[@]}" -- "(id:$WN_LINK_REVIEW_FILE)"
wn_screen_keys Enter e
check "e on a link: refused" wn_tui_wait \
	"drivers/frob/evil.c in the tree with the series applied: a symbolic link, not a regular file; not opened"
wn_screen_keys q q
wn_tui_wait "WINNOW-EXIT=0"
wn_screen_start 120 24 "${vars[@]}" -- "(id:$WN_LINK_REVIEW_DIR)"
wn_screen_keys Enter e
check "e under a linked folder: refused" wn_tui_wait \
	"drivers/evil/secret.c in the tree with the series applied: under a symbolic link; not opened"
check "... and no editor ran" test ! -e "$RECORD_EDITOR_LOG"
wn_done
