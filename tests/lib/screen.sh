# Whole-screen tests, the way tig tests its views: the real winnow runs in
# tmux at a given size, keys go in, and the whole screen is compared with
# an expected-screen file kept in the tree.
#
# Source after env.sh and wn_world.  The terminal is xterm-256color,
# TZ=UTC, the locale $WN_SCREEN_LOCALE (default C.UTF-8), the themes the
# tree's.
#
#   wn_screen_start COLS ROWS [VAR=VALUE...] [--] [ARGS...]
#                             winnow ARGS at COLSxROWS, with those
#                             variables set (NO_COLOR=1, ...)
#   wn_screen_resize COLS ROWS
#   wn_screen_keys KEY...     tmux send-keys (wn_tui_keys)
#   wn_screen_settle TEXT     wait for TEXT, then for the screen to stop
#                             changing
#   wn_screen NAME [color]    compare the whole screen with
#                             tests/tui/screens/<script>/NAME.txt, or
#                             NAME.color with the attributes (tmux's
#                             capture-pane -e, escapes written as \e)
#   wn_screen_expect NAME     compare with $WN_SCREEN_DIR/NAME.screen
#
# Regenerate them (then read the diff before committing it):
#     tests/lib/regen-screens.sh [TEST...]
# which runs the tests with WN_SCREENS_REGEN=1 (WN_SCREEN_UPDATE=1 too):
# each comparison then writes its file instead.
#
# WN_SCREEN_FILTER: one more sed expression applied to every capture,
# for what changes from run to run on purpose (the history's times).
: "${WN_SCREENS_REGEN:=${WN_SCREEN_UPDATE:-}}"
: "${WN_SCREEN_DIR:=$WN_TOP_SRCDIR/tests/tui/screens}"
: "${WN_SCREEN_LOCALE:=C.UTF-8}"
wn_screens_dir=$WN_SCREEN_DIR/$(basename "$0" .sh)

wn_screen_tmux() { tmux -L "$WN_TMUX_SOCKET" "$@"; }
wn_screen_keys() { wn_screen_tmux send-keys -t t "$@"; }

wn_screen_stop() {
	[ -n "${WN_TMUX_SOCKET:-}" ] || return 0
	wn_screen_tmux kill-server 2>/dev/null
	while wn_screen_tmux has-session 2>/dev/null; do sleep 0.05; done
	return 0
}

wn_screen_start() {
	local cols=$1 rows=$2 envs=() args=()
	shift 2
	while [ $# -gt 0 ] && [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
		envs+=("$(printf '%q' "$1")")
		shift
	done
	[ "${1:-}" = -- ] && shift
	for a in "$@"; do args+=("$(printf '%q' "$a")"); done
	wn_screen_stop
	# A fresh server name each time (env.sh's cleanup kills it).
	WN_TMUX_SOCKET=winnow-screen-$$-${RANDOM}
	wn_screen_tmux -f /dev/null new-session -d -x "$cols" -y "$rows" -s t \
		"env TERM=xterm-256color TZ=UTC LC_ALL=$WN_SCREEN_LOCALE NOTMUCH_CONFIG='$NOTMUCH_CONFIG' HOME='$HOME' XDG_STATE_HOME='$XDG_STATE_HOME' WINNOW_THEMES_DIR='$WN_TOP_SRCDIR/themes' ${envs[*]} $WINNOW ${args[*]}; echo WINNOW-EXIT=\$?; sleep 600"
	wn_screen_tmux set -g remain-on-exit on >/dev/null
}

wn_screen_resize() {
	wn_screen_tmux resize-window -t t -x "$1" -y "$2"
}

# The screen once it stopped changing: two captures $2 seconds apart
# (default 0.05) agree, for at most 100 tries.  $1: "color" for the
# attributes too.
wn_screen_capture() {
	local opt=(-p) a b i=0 gap=${2:-0.05}
	[ "${1:-}" = color ] && opt=(-p -e)
	a=$(wn_screen_tmux capture-pane "${opt[@]}" -t t)
	while [ $i -lt 100 ]; do
		sleep "$gap"
		b=$(wn_screen_tmux capture-pane "${opt[@]}" -t t)
		[ "$a" == "$b" ] && break
		a=$b
		i=$((i + 1))
	done
	# Attributes in a canonical form (sgr-canon.pl); escapes as text, so
	# the files read and diff as text; the test's temp dir (in paths a
	# message names) as the same width of X.
	[ "${1:-}" = color ] && a=$(printf '%s\n' "$a" | perl "$WN_TOP_SRCDIR/tests/lib/sgr-canon.pl")
	printf '%s\n' "$a" | sed -e 's/\x1b/\\e/g' -e 's/winnow-test\.[A-Za-z0-9]\{6\}/winnow-test.XXXXXX/g' \
		-e "${WN_SCREEN_FILTER:-s/^//}"
}

# Drawn in slices (the statistics count between keys, the last count
# staying on screen meanwhile): the screen is final when two looks a
# tenth of a second apart agree.
wn_screen_settle() {
	wn_tui_wait "$1" >/dev/null || return 1
	wn_screen_capture text 0.1 > /dev/null
}

# The screen as file says, or (regenerating) written there.
wn_screen_compare() {
	local name=$1 file=$2 kind=$3 got
	got=$(wn_screen_capture "$kind")
	wn_tests_run=$((wn_tests_run + 1))
	if [ -n "$WN_SCREENS_REGEN" ]; then
		mkdir -p "$(dirname "$file")"
		printf '%s\n' "$got" > "$file"
		echo "ok - $name (written)"
		return 0
	fi
	if [ -f "$file" ] && [ "$got" == "$(cat "$file")" ]; then
		echo "ok - screen $name"
		return 0
	fi
	echo "FAIL - screen $name"
	if [ -f "$file" ]; then
		diff -u "$file" <(printf '%s\n' "$got") | head -40 | sed 's/^/  /'
	else
		echo "  no expected screen $file (run tests/lib/regen-screens.sh)"
		printf '%s\n' "$got" | sed 's/^/  | /'
	fi
	wn_tests_failed=$((wn_tests_failed + 1))
	return 1
}

wn_screen() {
	local kind=${2:-text}
	wn_screen_compare "$1" "$wn_screens_dir/$1.$([ "$kind" = color ] && echo color || echo txt)" "$kind"
}

wn_screen_expect() {
	wn_screen_compare "$1" "$WN_SCREEN_DIR/$1.screen" text
}
