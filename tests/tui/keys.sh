#!/usr/bin/env bash
# Keys that must not leak (issue 18, points 17-19): Ctrl-C typed while
# a | command runs stops the command, not winnow; l opens the limit
# prompt from every view that lists or shows reviews, so a query typed
# after it is never read as keys; the prompt offers the current limit
# as a default that the first typed key replaces.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC
not_on_screen() { ! wn_tui_screen | grep -qF -- "$1"; }
# wait_file FILE: until FILE exists (the command started), 30 s at most.
wait_file() {
	local i=0
	while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	[ -e "$1" ]
}
alive() { kill -0 "$1" 2>/dev/null; }

# --- 19: Ctrl-C in a | command --------------------------------------
wn_tui_start
check "queue drawn" wn_tui_wait "9 reviews" 30
pid=$(wn_tui_pid)
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 2"
wn_tui_keys m
check "the mail open" wn_tui_wait "[mail]"
wn_tui_keys '|'
check "pipe prompt" wn_tui_wait "Pipe the mail to:"
wn_tui_keys -l "echo started > $WN_WORLD/started; exec sleep 30"
wn_tui_keys Enter
check "the command started" wait_file "$WN_WORLD/started"
wn_tui_keys C-c
check "Ctrl-C stopped the command: winnow waits for a key" wn_tui_wait "Press any key to go back to winnow"
wn_tui_keys Space
check "back in winnow's mail view" wn_tui_wait "[mail]"
check "which says the command was interrupted" wn_tui_wait "the command failed (status 130)"
# A key after it is read as a key: winnow did not note the Ctrl-C as
# a request to quit, to act on at its next turn.
wn_tui_keys q
check "q goes back to the review: winnow reads keys still" wn_tui_wait "[review]"
check "winnow is still running" alive "$pid"
check "and did not exit" not_on_screen "WINNOW-EXIT"
wn_tui_keys Q
check "Q quits with 0" wn_tui_wait "WINNOW-EXIT=0"

wn_done
