#!/usr/bin/env bash
# A stale screen never erases another program's write: with the TUI open
# on a review, `winnow mark --note` from another shell sets finding 1;
# then p and U in the TUI (which still shows the finding untriaged) must
# leave what the shell wrote: the verdict and the note.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
show() { "$WINNOW" show --format=json "$id" | jq -r ".findings[0].$1"; }

wn_tui_start "id:$id"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
check "review open on finding 1" wn_tui_wait "finding 1 of 3"
"$WINNOW" mark --note="checked by hand in another shell" "$id" 1 valid
expect_eq "the shell's mark is in notmuch" valid "$(show verdict)"
wn_tui_keys p
check "the TUI's mark is acknowledged" wn_tui_wait "marked finding 1 pre-existing"
wn_tui_keys k
check "and finding 1 shows the note written elsewhere" wn_tui_wait "checked by hand in another shell"
wn_tui_keys U
check "undo acknowledged" wn_tui_wait "undid"
back_to_valid() { [ "$(show verdict)" = valid ]; }
wn_until back_to_valid
expect_eq "undo goes back to the shell's verdict" valid "$(show verdict)"
expect_eq "and the shell's note is kept" "checked by hand in another shell" "$(show note)"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_done
