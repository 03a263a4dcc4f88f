#!/usr/bin/env bash
# Undo survives a restart: two verdicts given in one run are undone one by
# one in the next, and notmuch's properties and tags come back exactly as
# they were before each.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org

state() { notmuch dump --include=tags --include=properties "id:$id"; }
is_state() { [ "$(state)" == "$1" ]; }
# wait_state EXPECTED: until notmuch holds EXPECTED (writes are async)
wait_state() {
	wn_until is_state "$1" && return 0
	diff <(printf '%s\n' "$1") <(state) >&2
	return 1
}
tagged() { [ -n "$(notmuch search --output=messages "tag:winnow/$1")" ]; }

s0=$(state)
wn_tui_start "'(id:$id)'"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_tui_wait "finding 1 of 3" >/dev/null
wn_tui_keys f
wn_tui_wait "marked finding 1 false-positive" >/dev/null
check "first verdict written" wn_until tagged false-positive
s1=$(state)
check "state changed by the first verdict" test "$s1" != "$s0"
wn_tui_keys v
wn_tui_wait "marked finding 2 valid" >/dev/null
check "second verdict written" wn_until tagged valid
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"

# A new run: U undoes the newest verdict of the previous one.
wn_tui_start "'(id:$id)'"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys U
check "undo acknowledged" wn_tui_wait "undid finding 2 valid"
check "after one undo notmuch is exactly as after the first verdict" wait_state "$s1"
wn_tui_keys U
check "second undo acknowledged" wn_tui_wait "undid finding 1 false-positive"
check "after two undos notmuch is exactly as before" wait_state "$s0"
check "the queue shows no verdicts left" wn_tui_wait "3: 3u 0v 0f 0p"
wn_tui_keys Q
check "quit again" wn_tui_wait "WINNOW-EXIT=0"
wn_done
