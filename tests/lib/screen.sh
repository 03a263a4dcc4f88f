# Whole-screen tests, the way tig tests its views: the real winnow runs in
# tmux at a given size, keys go in, and the whole screen is compared with
# an expected-screen file kept in the tree, under
# tests/tui/screens/<script>/<name>.txt (text) or .color (with the
# attributes, tmux's capture-pane -e, escapes written as \e).
#
# Regenerate them (then read the diff before committing it):
#     tests/lib/regen-screens.sh [tests/tui/screens-queue.sh ...]
# which runs the scripts with WN_SCREENS_REGEN=1: each wn_screen call
# then writes its file instead of comparing.
#
# Source after env.sh.  Dates are drawn in UTC, the locale is UTF-8.
: "${WN_SCREENS_REGEN:=}"
wn_screens_dir=$WN_TOP_SRCDIR/tests/tui/screens/$(basename "$0" .sh)
[ -n "$WN_SCREENS_REGEN" ] && mkdir -p "$wn_screens_dir"

# wn_screen_start COLS ROWS [VAR=VALUE...] [-- ARGS...]: start winnow in
# a fresh private tmux server of that size, with those variables set
# and those arguments given.
wn_screen_start() {
	local cols=$1 rows=$2 envs=() args=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$(printf '%q' "$1")"); shift; done
	[ "${1:-}" = -- ] && shift
	for a in "$@"; do args+=("$(printf '%q' "$a")"); done
	[ -n "${WN_TMUX_SOCKET:-}" ] && tmux -L "$WN_TMUX_SOCKET" kill-server 2>/dev/null
	WN_TMUX_SOCKET=winnow-screen-$$-${RANDOM}
	tmux -L "$WN_TMUX_SOCKET" -f /dev/null new-session -d -x "$cols" -y "$rows" -s t \
		"env TERM=xterm-256color TZ=UTC LC_ALL=C.UTF-8 NOTMUCH_CONFIG='$NOTMUCH_CONFIG' HOME='$HOME' XDG_STATE_HOME='$XDG_STATE_HOME' WINNOW_THEMES_DIR='$WN_TOP_SRCDIR/themes' ${envs[*]} $WINNOW ${args[*]}; echo WINNOW-EXIT=\$?; sleep 30"
	tmux -L "$WN_TMUX_SOCKET" set -g remain-on-exit on >/dev/null
}

# wn_screen_resize COLS ROWS
wn_screen_resize() {
	tmux -L "$WN_TMUX_SOCKET" resize-window -t t -x "$1" -y "$2"
}

# The screen once it stopped changing: two captures 50 ms apart agree
# (at most 5 s).  $1: "color" for the attributes too.
wn_screen_capture() {
	local opt=(-p) a b i=0
	[ "${1:-}" = color ] && opt=(-p -e)
	a=$(tmux -L "$WN_TMUX_SOCKET" capture-pane "${opt[@]}" -t t)
	while [ $i -lt 100 ]; do
		sleep 0.05
		b=$(tmux -L "$WN_TMUX_SOCKET" capture-pane "${opt[@]}" -t t)
		[ "$a" == "$b" ] && break
		a=$b
		i=$((i + 1))
	done
	# Escapes as text, so the files read and diff as text; the test's
	# temp dir (in paths a message names) as the same width of X.
	# WN_SCREEN_FILTER: one more sed expression, for what changes from
	# run to run on purpose (the history's times).
	printf '%s\n' "$a" | sed -e 's/\x1b/\\e/g' -e 's/winnow-test\.[A-Za-z0-9]\{6\}/winnow-test.XXXXXX/g' \
		-e "${WN_SCREEN_FILTER:-s/^//}"
}

# wn_screen NAME [color]: the whole screen as tests/tui/screens/<script>/
# NAME.txt (or NAME.color) says, or (regenerating) written there.
wn_screen() {
	local name=$1 kind=${2:-text} file got
	file=$wn_screens_dir/$name.$([ "$kind" = color ] && echo color || echo txt)
	got=$(wn_screen_capture "$kind")
	if [ -n "$WN_SCREENS_REGEN" ]; then
		printf '%s\n' "$got" > "$file"
		echo "ok - $name (written)"
		wn_tests_run=$((wn_tests_run + 1))
		return 0
	fi
	wn_tests_run=$((wn_tests_run + 1))
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
