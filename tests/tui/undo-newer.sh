#!/usr/bin/env bash
# U in the TUI undoes the TUI's own change, never one made
# from the shell while it runs.  Mark finding 1 in the TUI, change it
# from the shell with `winnow mark`, press U: the shell's newer decision
# is kept, nothing is journaled, and the TUI says so.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
show() { "$WINNOW" show --format=json "$id" | jq -r ".findings[$1].verdict"; }
actions() { "$WINNOW" history --format=json | jq length; }

wn_tui_start "id:$id"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
check "review open on finding 1" wn_tui_wait "finding 1 of 3"
wn_tui_keys f
check "the TUI's mark is acknowledged" wn_tui_wait "marked finding 1 false-positive"
"$WINNOW" mark "$id" 1 valid; expect_eq "the shell marks the same finding" 0 $?
expect_eq "the shell's mark is in notmuch" valid "$(show 0)"
n=$(actions)
wn_tui_keys U
check "U says nothing was undone and the newer decision is kept" \
	wn_tui_wait "nothing undone: finding 1 was changed since (now valid): that newer decision is kept"
expect_eq "the shell's decision stands" valid "$(show 0)"
expect_eq "nothing journaled" "$n" "$(actions)"
expect_eq "the shell's action is not undone" false "$("$WINNOW" history --format=json | jq '.[0].undone')"

# The TUI's own older change is still U's: the one before is undone.
wn_tui_keys j
check "on finding 2" wn_tui_wait "finding 2 of 3"
wn_tui_keys p
check "a second mark in the TUI" wn_tui_wait "marked finding 2 pre-existing"
"$WINNOW" mark "$id" 3 fp; expect_eq "the shell marks finding 3" 0 $?
wn_tui_keys U
check "U undoes the TUI's newest change, not the shell's" \
	wn_tui_wait "undid finding 2 pre-existing"
for _ in $(seq 200); do [ "$(show 1)" = untriaged ] && break; sleep 0.05; done
expect_eq "finding 2 back to untriaged" untriaged "$(show 1)"
expect_eq "finding 3 keeps the shell's verdict" false-positive "$(show 2)"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_done
