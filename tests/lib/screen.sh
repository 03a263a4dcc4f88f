# Whole-screen TUI tests, as tig does them: run winnow in a private tmux
# server at a given size, drive it with keys, capture the whole screen
# and compare it with an expected-screen file kept in the tree.
#
# Sourced after env.sh and wn_world.  The terminal is xterm-256color
# with NO_COLOR set (the capture is text only: without colour the
# screen must still say everything), TZ=UTC, and the locale
# $WN_SCREEN_LOCALE (default C.UTF-8).
#
#   wn_screen_start COLS ROWS [ARGS...]   winnow ARGS at COLSxROWS
#   wn_screen_keys KEY...                 tmux send-keys
#   wn_screen_settle TEXT                 wait for TEXT, then for the
#                                         screen to stop changing
#   wn_screen_expect NAME                 compare with
#                                         $WN_SCREEN_DIR/NAME.screen
#
# With WN_SCREEN_UPDATE=1, wn_screen_expect writes the file instead:
# tests/lib/screen-regen.sh TEST... does that for whole tests, and the
# diff is reviewed before it is committed.

: "${WN_SCREEN_DIR:=$WN_TOP_SRCDIR/tests/tui/screens}"
: "${WN_SCREEN_LOCALE:=C.UTF-8}"

wn_screen_tmux() { tmux -L "$WN_SCREEN_SOCKET" "$@"; }

wn_screen_stop() {
	[ -n "${WN_SCREEN_SOCKET:-}" ] || return 0
	wn_screen_tmux kill-server 2>/dev/null
	while wn_screen_tmux has-session 2>/dev/null; do sleep 0.05; done
	WN_SCREEN_SOCKET=
}

wn_screen_start() {
	local cols=$1 rows=$2
	shift 2
	wn_screen_stop
	WN_SCREEN_SOCKET=winnow-screen-$$-$RANDOM
	# env.sh's cleanup kills WN_TMUX_SOCKET's server on exit: share it.
	WN_TMUX_SOCKET=$WN_SCREEN_SOCKET
	wn_screen_tmux -f /dev/null new-session -d -x "$cols" -y "$rows" -s t \
		"env TERM=xterm-256color NO_COLOR=1 TZ=UTC LC_ALL=$WN_SCREEN_LOCALE NOTMUCH_CONFIG='$NOTMUCH_CONFIG' HOME='$HOME' XDG_STATE_HOME='$XDG_STATE_HOME' $WINNOW $*; echo WINNOW-EXIT=\$?; sleep 30"
	wn_screen_tmux set -g remain-on-exit on >/dev/null
}

wn_screen_keys() { wn_screen_tmux send-keys -t t "$@"; }
wn_screen_capture() { wn_screen_tmux capture-pane -p -t t; }

wn_screen_settle() {
	local text=$1 i=0 a b
	while ! wn_screen_capture | grep -qF -- "$text"; do
		i=$((i + 1))
		if [ "$i" -ge 200 ]; then
			echo "  timed out waiting for: $text" >&2
			wn_screen_capture | sed 's/^/  | /' >&2
			return 1
		fi
		sleep 0.05
	done
	# Drawn in slices (the statistics count between keys): the screen
	# is final when two looks a moment apart agree.
	a=$(wn_screen_capture)
	for i in $(seq 100); do
		sleep 0.1
		b=$(wn_screen_capture)
		[ "$a" == "$b" ] && return 0
		a=$b
	done
	echo "  the screen kept changing" >&2
	return 1
}

wn_screen_expect() {
	local name=$1 file=$WN_SCREEN_DIR/$1.screen got
	got=$(wn_screen_capture)
	if [ -n "${WN_SCREEN_UPDATE:-}" ]; then
		mkdir -p "$WN_SCREEN_DIR"
		printf '%s\n' "$got" > "$file"
		echo "  wrote $file" >&2
	fi
	wn_tests_run=$((wn_tests_run + 1))
	if [ -f "$file" ] && [ "$got" == "$(cat "$file")" ]; then
		echo "ok - screen $name"
		return 0
	fi
	echo "FAIL - screen $name (expected $file, got the screen below)"
	diff -u "$file" <(printf '%s\n' "$got") | sed 's/^/  /'
	wn_tests_failed=$((wn_tests_failed + 1))
	return 1
}
