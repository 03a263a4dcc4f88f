#!/usr/bin/env bash
# Nothing lost, nothing waits: another process holds the notmuch write
# lock while 20 findings are marked in the TUI.  The interface answers
# while the lock is held: every key's effect is on screen before the
# holder lets go (it holds the lock until told, however slow the
# machine), and no verdict reaches notmuch before it does; once the lock
# is free all 20 are in notmuch.  Then the same with winnow killed
# (SIGKILL) while the lock is still held: the next start writes all 20.
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

# Mark both findings of every review, each key's answer awaited on
# screen.  Fails at the first key not answered.
mark_all() {
	local r step
	for ((r = 1; r <= 10; r++)); do
		for step in "Enter|finding 1 of 2" "f|marked finding 1 false-positive" \
			    "f|marked finding 2 false-positive" "q|[queue] $r/10"; do
			wn_tui_keys "${step%%|*}"
			wn_tui_wait "${step#*|}" > /dev/null || return 1
		done
		if [ "$r" -lt 10 ]; then
			wn_tui_keys j
			wn_tui_wait "[queue] $((r + 1))/10" > /dev/null || return 1
		fi
	done
}

for round in alive killed; do
	wn_tui_start
	wn_tui_wait "10 reviews" >/dev/null
	check "$round: helper holds the lock" wn_hold_lock
	check "$round: all 40 keys answered while the lock is held" mark_all
	check "$round: the lock is still held" kill -0 "$WN_HOLDER"
	expect_eq "$round: nothing in notmuch while locked" 0 "$(marked_now)"
	check "$round: status says verdicts wait for the lock" wn_tui_wait "waiting for the index lock"
	if [ "$round" = alive ]; then
		wn_release_lock
		check "alive: written once the lock is free" wn_tui_wait "the index lock is free again"
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
		check "killed: winnow is gone" wn_tui_wait "WINNOW-EXIT=137"
		wn_release_lock
		# The next start replays the journal.
		"$WINNOW" list > /dev/null
		expect_eq "killed: all 20 verdicts in notmuch after the next start" 20 "$(props)"
		expect_eq "killed: every review triaged" 10 "$(notmuch count tag:winnow/triaged)"
	fi
	wn_tmux_kill "$WN_TMUX_SOCKET"
done

# Quitting while verdicts wait for the lock says so, exits 0 and leaves
# them for the next run.
before=$(props)
wn_tui_start
wn_tui_wait "10 reviews" >/dev/null
check "quit: helper holds the lock" wn_hold_lock
wn_tui_keys Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_tui_keys u
wn_tui_wait "marked finding 1 untriaged" >/dev/null
wn_tui_keys Q
check "quit: says verdicts wait for the lock" wn_tui_wait "waiting for the notmuch write lock"
check "quit: exits 0" wn_tui_wait "WINNOW-EXIT=0"
check "quit: all while the lock was held" kill -0 "$WN_HOLDER"
wn_release_lock
"$WINNOW" list > /dev/null
expect_eq "quit: the next command wrote it" $((before - 1)) "$(props)"
wn_done
