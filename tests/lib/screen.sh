# Whole-screen tests, the way tig tests its views: winnow runs at a given
# size, keys go in, and the whole screen is compared with an
# expected-screen file kept in the tree.
#
# By default winnow runs on no terminal at all: WINNOW_SCRIPT names a
# FIFO the keys are written to, and screens are saved by winnow itself
# (:save-display, src/tui/script.h), so each key is handled before the
# next and a screen is taken once the background work is done: exact,
# and no terminal emulator to poll.  WN_SCREEN_TMUX=1 on a
# wn_screen_start runs that winnow in tmux instead, the real-terminal
# end-to-end check (the clipboard, a command's output on the terminal).
#
# Source after env.sh and wn_world.  The terminal is xterm-256color,
# TZ=UTC, the locale $WN_SCREEN_LOCALE (default C.UTF-8), the themes the
# tree's.
#
#   wn_screen_start COLS ROWS [VAR=VALUE...] [--] [ARGS...]
#                             winnow ARGS at COLSxROWS, with those
#                             variables set (NO_COLOR=1, ...);
#                             WN_SCREEN_FIRST=FILE: the first screen
#                             drawn, before any background work, to FILE
#   wn_screen_resize COLS ROWS
#   wn_screen_keys KEY...     keys, named as tmux send-keys names them
#                             (wn_tui_keys)
#   wn_tui_wait TEXT          until TEXT is on screen; "WINNOW-EXIT=N":
#                             until winnow exits, with status N
#   wn_screen_settle TEXT     wait for TEXT, then for the background work
#   wn_screen NAME [color]    compare the whole screen with
#                             tests/tui/screens/<script>/NAME.txt, or
#                             NAME.color with the attributes (escapes
#                             written as \e, canonical as sgr-canon.pl
#                             makes them)
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
WN_SCREEN_MODE=
WN_SCRIPT_PID=
WN_SCRIPT_N=0

wn_screen_tmux() { tmux -L "$WN_TMUX_SOCKET" "$@"; }

# --- the scripted winnow ----------------------------------------------

# wn_script LINE...: lines to winnow's script.
wn_script() { printf '%s\n' "$@" >&7; }

# wn_script_sync [COMMAND]: have winnow save its screen (COMMAND, default
# :save-display) to a new file once it has done all it was sent; print
# the file's name.  False when winnow ended first (it says why on stderr).
wn_script_sync() {
	# A name of its own (mktemp -u), not a counter: this runs in $(...).
	local file
	file=$(mktemp -u "$WN_WORLD/script/screen.XXXXXXXX")
	wn_script "${1:-:save-display} $file" 2>/dev/null
	until [ -e "$file" ]; do
		if ! kill -0 "$WN_SCRIPT_PID" 2>/dev/null; then
			[ -e "$file" ] && break
			echo "  winnow ended before it saved a screen:" >&2
			sed 's/^/  | /' "$WN_WORLD/script/err" >&2
			return 1
		fi
		sleep 0.01
	done
	echo "$file"
}

# A key as the script writes it, from tmux's name for it.
wn_script_key() {
	case $1 in
	Enter|Space|Tab|BackTab|Up|Down|Left|Right|Home|End) printf '<%s>' "$1" ;;
	Escape) printf '<Esc>' ;;
	BSpace) printf '<Backspace>' ;;
	NPage|PageDown|PgDn) printf '<PgDn>' ;;
	PPage|PageUp|PgUp) printf '<PgUp>' ;;
	C-[a-z]) printf '<%s>' "$1" ;;
	\\\;) printf ';' ;;
	*) printf '%s' "${1//</<lt>}" ;;
	esac
}

wn_screen_stop() {
	if [ "$WN_SCREEN_MODE" = tmux ] && [ -n "${WN_TMUX_SOCKET:-}" ]; then
		wn_tmux_kill "$WN_TMUX_SOCKET"
		while wn_screen_tmux has-session 2>/dev/null; do sleep 0.05; done
	fi
	if [ -n "$WN_SCRIPT_PID" ]; then
		# The script's end quits winnow (if it has not yet).
		exec 7>&-
		wait "$WN_SCRIPT_PID" 2>/dev/null
		WN_SCRIPT_PID=
	fi
	return 0
}

wn_screen_start() {
	local cols=$1 rows=$2 envs=() args=() a fifo
	shift 2
	while [ $# -gt 0 ] && [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
		envs+=("$1")
		shift
	done
	[ "${1:-}" = -- ] && shift
	wn_screen_stop
	if [ -n "${WN_SCREEN_TMUX:-}" ]; then
		WN_SCREEN_MODE=tmux
		for a in "${envs[@]}"; do a=$(printf '%q' "$a"); args+=("$a"); done
		envs=("${args[@]}") args=()
		for a in "$@"; do args+=("$(printf '%q' "$a")"); done
		# A fresh server name each time (env.sh's cleanup kills it).
		WN_TMUX_SOCKET=winnow-screen-$$-${RANDOM}
		wn_screen_tmux -f /dev/null new-session -d -x "$cols" -y "$rows" -s t \
			"env TERM=xterm-256color TZ=UTC LC_ALL=$WN_SCREEN_LOCALE NOTMUCH_CONFIG='$NOTMUCH_CONFIG' HOME='$HOME' XDG_STATE_HOME='$XDG_STATE_HOME' WINNOW_THEMES_DIR='$WN_TOP_SRCDIR/themes' ${envs[*]} $WINNOW ${args[*]}; echo WINNOW-EXIT=\$?; sleep 600"
		wn_screen_tmux set -g remain-on-exit on >/dev/null
		return
	fi
	WN_SCREEN_MODE=script
	mkdir -p "$WN_WORLD/script"
	fifo=$WN_WORLD/script/keys.$((++WN_SCRIPT_N))
	mkfifo "$fifo"
	# Read-write: never blocks, even if winnow ends before it reads.
	# Opened first, so that what is written before winnow starts is
	# its script's first line.
	exec 7<> "$fifo"
	[ -n "${WN_SCREEN_FIRST:-}" ] && wn_script ":save-display $WN_SCREEN_FIRST"
	env TERM=xterm-256color TZ=UTC LC_ALL="$WN_SCREEN_LOCALE" COLUMNS="$cols" LINES="$rows" \
		WINNOW_THEMES_DIR="$WN_TOP_SRCDIR/themes" WINNOW_SCRIPT="$fifo" \
		WINNOW_SCRIPT_TIMEOUT="$WN_WAIT_SECONDS" "${envs[@]}" \
		"$WINNOW" "$@" < /dev/null > "$WN_WORLD/script/out" 2> "$WN_WORLD/script/err" &
	WN_SCRIPT_PID=$!
}

wn_screen_resize() {
	if [ "$WN_SCREEN_MODE" = tmux ]; then
		wn_screen_tmux resize-window -t t -x "$1" -y "$2"
	else
		wn_script ":resize ${1}x${2}"
	fi
}

# env.sh's tmux drivers, answered by the scripted winnow when it runs.
eval "wn_tmux_$(declare -f wn_tui_keys)"
eval "wn_tmux_$(declare -f wn_tui_wait)"
eval "wn_tmux_$(declare -f wn_tui_screen)"
eval "wn_tmux_$(declare -f wn_tui_pid)"

wn_tui_keys() {
	local line= k
	[ "$WN_SCREEN_MODE" = script ] || { wn_tmux_wn_tui_keys "$@"; return; }
	for k in "$@"; do line+=$(wn_script_key "$k"); done
	# A line starting with ':' or '#' would be a command or a comment.
	case $line in :*|\#*) line="<${line:0:1}>${line:1}" ;; esac
	wn_script "$line"
}
wn_screen_keys() { wn_tui_keys "$@"; }

wn_tui_wait() {
	local rc
	[ "$WN_SCREEN_MODE" = script ] || { wn_tmux_wn_tui_wait "$@"; return; }
	if [[ $1 == WINNOW-EXIT=* ]]; then
		exec 7>&-
		wait "$WN_SCRIPT_PID"; rc=$?
		WN_SCRIPT_PID=
		[ "$rc" = "${1#WINNOW-EXIT=}" ] && return 0
		echo "  winnow exited with $rc, not ${1#WINNOW-EXIT=}" >&2
		sed 's/^/  | /' "$WN_WORLD/script/err" >&2
		return 1
	fi
	wn_script ":wait-for $1"
	wn_script_sync > /dev/null
}

wn_tui_screen() {
	local f
	[ "$WN_SCREEN_MODE" = script ] || { wn_tmux_wn_tui_screen "$@"; return; }
	f=$(wn_script_sync) && cat "$f"
}

wn_tui_pid() {
	[ "$WN_SCREEN_MODE" = script ] || { wn_tmux_wn_tui_pid "$@"; return; }
	echo "$WN_SCRIPT_PID"
}

# The screen once the background work is done.  $1: "color" for the
# attributes too.  Under tmux: once two captures $2 seconds apart
# (default 0.05) agree.
wn_screen_capture() {
	local opt=(-p) a b i=0 gap=${2:-0.05} f
	if [ "$WN_SCREEN_MODE" = script ]; then
		wn_script ":wait"
		f=$(wn_script_sync "$([ "${1:-}" = color ] && echo :save-display-color || echo :save-display)") ||
			return 1
		a=$(cat "$f")
	else
		[ "${1:-}" = color ] && opt=(-p -e)
		a=$(wn_screen_tmux capture-pane "${opt[@]}" -t t)
		while [ $i -lt 100 ]; do
			sleep "$gap"
			b=$(wn_screen_tmux capture-pane "${opt[@]}" -t t)
			[ "$a" == "$b" ] && break
			a=$b
			i=$((i + 1))
		done
	fi
	# Attributes in a canonical form (sgr-canon.pl); escapes as text, so
	# the files read and diff as text; the test's temp dir (in paths a
	# message names) as the same width of X.
	[ "${1:-}" = color ] && a=$(printf '%s\n' "$a" | perl "$WN_TOP_SRCDIR/tests/lib/sgr-canon.pl")
	printf '%s\n' "$a" | sed -e 's/\x1b/\\e/g' -e 's/winnow-test\.[A-Za-z0-9]\{6\}/winnow-test.XXXXXX/g' \
		-e "${WN_SCREEN_FILTER:-s/^//}"
}

# Drawn in slices (the statistics count between keys, the last count
# staying on screen meanwhile): the screen is final when the background
# work is done (under tmux: when two looks a tenth of a second apart
# agree).
wn_screen_settle() {
	wn_tui_wait "$1" >/dev/null || return 1
	if [[ $1 == WINNOW-EXIT=* ]]; then
		return 0
	elif [ "$WN_SCREEN_MODE" = script ]; then
		wn_script ":wait"
		wn_script_sync > /dev/null
	else
		wn_screen_capture text 0.1 > /dev/null
	fi
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
