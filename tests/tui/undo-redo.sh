#!/usr/bin/env bash
# C-r in the TUI gives back what U reverted, and the screen
# shows the verdict again; C-r once more has nothing to redo; a finding
# changed since the undo is never overwritten by a redo.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
show() { "$WINNOW" show --format=json "$id" | jq -r ".findings[$1].verdict"; }
actions() { "$WINNOW" history --format=json | jq length; }
# row N VERDICT: the review's list shows finding N with that verdict.
row() { grep -qE "^ +$1 [A-Za-z]+ +$2 " <<<"$(wn_tui_screen)"; }
row_soon() {
	local end=$((SECONDS + WN_WAIT_SECONDS))
	until row "$1" "$2"; do
		[ "$SECONDS" -ge "$end" ] && { wn_tui_screen | sed 's/^/  | /' >&2; return 1; }
		sleep 0.05
	done
}
show_soon() {
	local end=$((SECONDS + WN_WAIT_SECONDS))
	until [ "$(show "$1")" = "$2" ] || [ "$SECONDS" -ge "$end" ]; do sleep 0.05; done
	expect_eq "$3" "$2" "$(show "$1")"
}

wn_tui_start "'(id:$id)'"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
check "review open on finding 1" wn_tui_wait "finding 1 of 3"
wn_tui_keys C-r
check "C-r before any undo: nothing to redo" wn_tui_wait "nothing to redo"
wn_tui_keys f
check "marked" wn_tui_wait "marked finding 1 false-positive"
check "the list shows it" row_soon 1 false-positive
wn_tui_keys U
check "U undoes it" wn_tui_wait "undid finding 1 false-positive"
check "the list shows it untriaged" row_soon 1 untriaged
show_soon 0 untriaged "the undo reached notmuch"
n=$(actions)
wn_tui_keys C-r
check "C-r says what it gave back" wn_tui_wait "redid 1 change (finding 1)"
check "the screen shows the verdict back" row_soon 1 false-positive
show_soon 0 false-positive "the redo reached notmuch"
expect_eq "one change journaled" $((n + 1)) "$(actions)"
expect_eq "history: a redo" true "$("$WINNOW" history --format=json | jq '.[0].redo')"
wn_tui_keys C-r
check "C-r again: nothing to redo" wn_tui_wait "nothing to redo"
expect_eq "nothing journaled" $((n + 1)) "$(actions)"

# U takes the redo back; a change made since keeps C-r from overwriting it.
wn_tui_keys U
check "U undoes the redo" wn_tui_wait "undid finding 1"
check "untriaged again" row_soon 1 untriaged
"$WINNOW" mark "$id" 1 valid; expect_eq "the shell marks finding 1" 0 $?
n=$(actions)
wn_tui_keys C-r
check "C-r refuses, naming the finding" \
	wn_tui_wait "not redone: finding 1 was changed since the undo; nothing written"
expect_eq "nothing journaled" "$n" "$(actions)"
expect_eq "the shell's decision stands" valid "$(show 0)"

# The help lists the view's own keys first; C-r, which every view
# shares, is found by the help's search.
wn_tui_keys ?
wn_tui_wait "[help]"
wn_tui_keys / "Give back" Enter
check "the help lists C-r" wn_tui_wait "Give back what the last undo reverted"
wn_tui_keys q Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
