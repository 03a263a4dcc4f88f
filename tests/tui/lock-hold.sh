#!/usr/bin/env bash
# Nothing lost, nothing waits: another process holds the notmuch write
# lock for 10 s while 20 findings are marked in the TUI.  Every key is
# answered on screen within 100 ms; once the lock is free all 20 verdicts
# are in notmuch.  Then the same with winnow killed (SIGKILL) while the
# lock is still held: the next start writes all 20.
WN_TEST_ALONE=1	# it times keys and notmuch commands
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
WN_WORLD_CORPUS=$(mktemp -d "${TMPDIR:-/tmp}/winnow-many.XXXXXX")
bash "$WN_TOP_SRCDIR/tests/lib/mkmany.sh" 10 "$WN_WORLD_CORPUS"
wn_world "$WN_WORLD_CORPUS"
rm -rf "$WN_WORLD_CORPUS"

# notmuch dump takes the write lock for a consistent snapshot, so it
# would wait for the holder: count properties only once the lock is free,
# and use a read-only search while it is held.
props() { notmuch dump --include=properties 2>/dev/null | grep -o 'winnow\.verdict\.' | wc -l; }
marked_now() { notmuch count 'tag:winnow/false-positive or tag:winnow/triaged'; }

# Mark both findings of every review, timing every key.  Prints the
# slowest answer in ms, or "timeout".
mark_all() {
	local r t worst=0
	for ((r = 1; r <= 10; r++)); do
		for step in "Enter|finding 1 of 2" "f|marked finding 1 false-positive" \
			    "f|marked finding 2 false-positive" "q|[queue] $r/10"; do
			t=$(wn_tui_timed "${step%%|*}" "${step#*|}") || { echo timeout; return; }
			[ "$t" -gt "$worst" ] && worst=$t
		done
		if [ "$r" -lt 10 ]; then
			t=$(wn_tui_timed j "[queue] $((r + 1))/10") || { echo timeout; return; }
			[ "$t" -gt "$worst" ] && worst=$t
		fi
	done
	echo "$worst"
}

# exit_shown STATUS: wait (5 s) for the shell's WINNOW-EXIT=STATUS.  After
# a kill -9 the shell's "Killed ... COMMAND" line starts wherever curses
# left the cursor and wraps at a place that depends on the length of the
# paths in COMMAND: look in the capture with wrapped lines joined.
exit_shown() {
	local i
	for ((i = 0; i < 100; i++)); do
		tmux -L "$WN_TMUX_SOCKET" capture-pane -J -p -t t | grep -qF "WINNOW-EXIT=$1" && return 0
		sleep 0.05
	done
	wn_tui_screen | sed 's/^/  | /' >&2
	return 1
}

for round in alive killed; do
	wn_tui_start
	wn_tui_wait "10 reviews" >/dev/null
	check "$round: helper holds the lock" wn_hold_lock 10
	start=$(wn_now_ms)
	worst=$(mark_all)
	check "$round: every key answered within 100 ms (slowest: $worst ms)" \
		test "$worst" != timeout -a "${worst%timeout}" -lt 100
	check "$round: marking took less than the lock was held" test $(( $(wn_now_ms) - start )) -lt 9000
	expect_eq "$round: nothing in notmuch while locked" 0 "$(marked_now)"
	check "$round: status says verdicts wait for the lock" wn_tui_wait "waiting for the index lock" 3
	if [ "$round" = alive ]; then
		wait "$WN_HOLDER"
		check "alive: written once the lock is free" wn_tui_wait "the index lock is free again" 10
		expect_eq "alive: all 20 verdicts in notmuch" 20 "$(props)"
		expect_eq "alive: every review triaged" 10 "$(notmuch count tag:winnow/triaged)"
		wn_tui_keys Q
		check "alive: quit with 0" wn_tui_wait "WINNOW-EXIT=0"
		# Start the next round from a clean slate.
		"$WINNOW" mark --timeout=5 "$(notmuch search --output=messages --limit=1 tag:winnow/triaged)" all untriaged
		for id in $(notmuch search --output=messages tag:winnow/triaged); do
			"$WINNOW" mark --timeout=5 "$id" all untriaged
		done
		expect_eq "alive: reset for the next round" 0 "$(props)"
	else
		pid=$(wn_tui_pid)
		check "killed: found winnow's pid" test -n "$pid"
		kill -9 "$pid"
		check "killed: winnow is gone" exit_shown 137
		wait "$WN_HOLDER"
		# The next start replays the journal.
		"$WINNOW" list > /dev/null
		expect_eq "killed: all 20 verdicts in notmuch after the next start" 20 "$(props)"
		expect_eq "killed: every review triaged" 10 "$(notmuch count tag:winnow/triaged)"
	fi
	tmux -L "$WN_TMUX_SOCKET" kill-server 2>/dev/null
done

# Quitting while verdicts wait for the lock says so, exits 0 and leaves
# them for the next run.
before=$(props)
wn_tui_start
wn_tui_wait "10 reviews" >/dev/null
check "quit: helper holds the lock" wn_hold_lock 6
wn_tui_keys Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_tui_keys u
wn_tui_wait "marked finding 1 untriaged" >/dev/null
wn_tui_keys Q
check "quit: says verdicts wait for the lock" wn_tui_wait "waiting for the notmuch write lock" 8
check "quit: exits 0" wn_tui_wait "WINNOW-EXIT=0" 2
wait "$WN_HOLDER"
"$WINNOW" list > /dev/null
expect_eq "quit: the next command wrote it" $((before - 1)) "$(props)"
wn_done
