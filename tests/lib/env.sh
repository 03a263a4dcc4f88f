# winnow test helpers, sourced by integration and TUI tests.
#
# Each test gets a private world under a temp dir: its own notmuch
# database and config, its own HOME and XDG_STATE_HOME, so nothing ever
# touches the user's mail or config.
set -u

: "${WN_TOP_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${WN_TOP_BUILDDIR:=$WN_TOP_SRCDIR}"
: "${WINNOW:=$WN_TOP_BUILDDIR/winnow}"
export WN_TOP_SRCDIR WN_TOP_BUILDDIR WINNOW

# Nothing here measures time: a test waits for an event (a line on the
# screen, in a file, a process's exit) for up to WN_WAIT_SECONDS, which
# only a broken winnow ever reaches, so tests may run side by side on a
# busy machine.  What is fast or slow is bench/'s business.
: "${WN_WAIT_SECONDS:=60}"

wn_tests_run=0
wn_tests_failed=0

# wn_world [CORPUS]: build a database from CORPUS (default the demo
# mailbox) in a fresh temp dir; sets WN_WORLD and exports NOTMUCH_CONFIG,
# HOME, XDG_STATE_HOME.  Removed on exit.
wn_world() {
	local corpus=${1:-$WN_TOP_SRCDIR/tests/corpus/demo}
	WN_WORLD=$(mktemp -d "${TMPDIR:-/tmp}/winnow-test.XXXXXX")
	trap 'wn_world_cleanup' EXIT
	unset NOTMUCH_PROFILE NOTMUCH_DATABASE
	bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$corpus" "$WN_WORLD/db" >/dev/null ||
		{ echo "mkdb failed for $corpus" >&2; exit 99; }
	export NOTMUCH_CONFIG=$WN_WORLD/db/notmuch-config
	# The interface asks why after f; the tests written
	# before that mark without it, and tests/tui/reason.sh turns it on.
	notmuch config set winnow.ask_reason false
	export HOME=$WN_WORLD/home
	export XDG_STATE_HOME=$WN_WORLD/state
	mkdir -p "$HOME" "$XDG_STATE_HOME"
}

# wn_tmux_kill SOCKET: end a tmux server and everything its panes ran.
# The pane's SIGHUP ends winnow; but a sanitizer build's leak check at
# exit has been seen to spin for good on a terminal that is gone, and
# such a leftover eats a core for the rest of the suite.
wn_tmux_kill() {
	local pids p i
	# The pane runs a shell running winnow: both, and anything else.
	pids=$(tmux -L "$1" list-panes -a -F '#{pane_pid}' 2>/dev/null)
	for p in $pids; do pids="$pids $(pgrep -P "$p" | tr '\n' ' ')"; done
	tmux -L "$1" kill-server 2>/dev/null
	for p in $pids; do
		for i in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
		kill -9 "$p" 2>/dev/null
	done
	return 0
}

wn_world_cleanup() {
	[ -n "${WN_HOLDER:-}" ] && kill "$WN_HOLDER" 2>/dev/null
	[ -n "${WN_SCRIPT_PID:-}" ] && kill "$WN_SCRIPT_PID" 2>/dev/null && wait "$WN_SCRIPT_PID" 2>/dev/null
	[ -n "${WN_TMUX_SOCKET:-}" ] && wn_tmux_kill "$WN_TMUX_SOCKET"
	[ -n "${WN_WORLD:-}" ] && [ -z "${WN_KEEP:-}" ] && rm -rf "$WN_WORLD"
	return 0
}

# wn_until CMD...: run CMD until it succeeds, for up to WN_WAIT_SECONDS;
# false (and says what it waited for) if it never did.
wn_until() {
	local end=$((SECONDS + WN_WAIT_SECONDS))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "  waited ${WN_WAIT_SECONDS} s in vain for: $*" >&2
			return 1
		fi
		sleep 0.05
	done
}

# check NAME CMD...: run CMD; record pass/fail like a TAP-less runner.
check() {
	local name=$1; shift
	wn_tests_run=$((wn_tests_run + 1))
	if "$@"; then
		echo "ok - $name"
	else
		echo "FAIL - $name"
		wn_tests_failed=$((wn_tests_failed + 1))
	fi
}

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
	wn_tests_run=$((wn_tests_run + 1))
	if [ "$2" == "$3" ]; then
		echo "ok - $1"
	else
		echo "FAIL - $1"
		echo "  expected: $2"
		echo "  actual:   $3"
		wn_tests_failed=$((wn_tests_failed + 1))
	fi
}

# wn_done: print the closing line and exit with the right status.
wn_done() {
	echo "$((wn_tests_run - wn_tests_failed)) passed, $wn_tests_failed failed"
	[ "$wn_tests_failed" -eq 0 ]
	exit $?
}

# --- tmux driving -----------------------------------------------------
# wn_tui_start ARGS...: run winnow ARGS in a private tmux server, 120x40.
wn_tui_start() {
	# A fresh server name each time: reusing one right after
	# kill-server races with the old server's exit.
	[ -n "${WN_TMUX_SOCKET:-}" ] && wn_tmux_kill "$WN_TMUX_SOCKET"
	WN_TMUX_SOCKET=winnow-test-$$-${RANDOM}
	tmux -L "$WN_TMUX_SOCKET" -f /dev/null new-session -d -x 120 -y 40 -s t \
		"env TERM=xterm-256color NOTMUCH_CONFIG='$NOTMUCH_CONFIG' HOME='$HOME' XDG_STATE_HOME='$XDG_STATE_HOME' $WINNOW $*; echo WINNOW-EXIT=\$?; sleep 600"
	tmux -L "$WN_TMUX_SOCKET" set -g remain-on-exit on >/dev/null
}

wn_tui_keys() { tmux -L "$WN_TMUX_SOCKET" send-keys -t t "$@"; }
wn_tui_screen() { tmux -L "$WN_TMUX_SOCKET" capture-pane -p -t t; }

# wn_tui_wait TEXT [SECONDS]: wait until TEXT (fixed string) is on screen,
# for SECONDS or WN_WAIT_SECONDS, whichever is longer: a short limit
# would only measure how busy the machine is.
# Wrapped lines are joined (-J): the shell's "Killed <command line>"
# before WINNOW-EXIT wraps at a width that depends on the build path.
wn_tui_wait() {
	local text=$1 limit=${2:-0}
	[ "$limit" -ge "$WN_WAIT_SECONDS" ] || limit=$WN_WAIT_SECONDS
	local end=$((SECONDS + limit))
	until tmux -L "$WN_TMUX_SOCKET" capture-pane -p -J -t t | grep -qF -- "$text"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "  timed out waiting for: $text" >&2
			wn_tui_screen | sed 's/^/  | /' >&2
			return 1
		fi
		sleep 0.05
	done
}

# wn_tui_pid: pid of the winnow process running in the test's pane.
wn_tui_pid() {
	local shell
	shell=$(tmux -L "$WN_TMUX_SOCKET" display -p -t t '#{pane_pid}')
	pgrep -P "$shell" | head -n 1
}

# wn_need_test_hooks: the test drives a hook compiled only into builds
# configured with --enable-test-hooks (./quickstart test makes one).
# Without it the test must not pass on a hook that silently does
# nothing: it fails here, saying why.
wn_need_test_hooks() {
	if ! grep -qa WINNOW_TEST_STALL_WRITER "$WINNOW"; then
		echo "FAIL - $WINNOW has no test hooks: configure with --enable-test-hooks"
		echo "0 passed, 1 failed"
		exit 99
	fi
}

# wn_hold_lock: hold the notmuch write lock in the background until
# wn_release_lock; returns once it is held.  Sets WN_HOLDER to its pid.
wn_hold_lock() {
	local fifo=$WN_WORLD/lockfifo.$$.$RANDOM line
	mkfifo "$fifo"
	"$WN_TOP_BUILDDIR/tests/lib/holdlock" > "$fifo" &
	WN_HOLDER=$!
	read -r line < "$fifo"
	rm -f "$fifo"
	[ "$line" = locked ]
}

# wn_release_lock: let go of the lock wn_hold_lock took, and wait until
# the helper is gone (so the lock is free when this returns).
wn_release_lock() {
	kill "$WN_HOLDER" 2>/dev/null
	wait "$WN_HOLDER"
	WN_HOLDER=
}

# wn_lock_free: nobody holds the notmuch write lock right now.
wn_lock_free() { "$WN_TOP_BUILDDIR/tests/lib/holdlock" --probe; }

# wn_script_run COLSxLINES NAME LINE...: winnow's interface driven by a
# script of LINEs (WINNOW_SCRIPT, src/tui/script.h) on no terminal at
# all, COLS x LINES; the script goes to $WN_WORLD/NAME.script, its
# stderr to NAME.err.  Needs wn_world.
wn_script_run() {
	local size=$1 name=$2
	shift 2
	printf '%s\n' "$@" > "$WN_WORLD/$name.script"
	# TERM as the tmux tests give it: CI may have none at all.
	TERM=xterm-256color COLUMNS=${size%x*} LINES=${size#*x} WINNOW_SCRIPT=$WN_WORLD/$name.script "$WINNOW" \
		</dev/null >/dev/null 2>"$WN_WORLD/$name.err"
}
