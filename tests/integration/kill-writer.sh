#!/usr/bin/env bash
# The writer child killed from outside (kill -9) while marks go on: a
# killed writer is not a bad change.  Its batch stays in the journal and
# is retried; nothing is set aside, and after sync-journal every finding
# holds the last verdict given to it.
#
# WN_KILL_MARKS sets the number of marks (default 200; run
# 1000 by hand now and then).  The killer watches this shell's winnow
# processes and SIGKILLs their writer children (found by parent pid and
# the name "winnow-writer"),
# most of them at once or after a short random wait, so that kills land
# before the lock is taken, mid-batch and after the commit.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_need_test_hooks
marks=${WN_KILL_MARKS:-200}
reviews=8
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-kill.XXXXXX")
bash "$WN_TOP_SRCDIR/tests/lib/mkmany.sh" "$reviews" "$corpus"
wn_world "$corpus"
rm -rf "$corpus"

me=$BASHPID
kills=$WN_WORLD/kills
stop=$WN_WORLD/stop-killer
killer() {
	local n=0 kids k w st _ wait_fifo=$WN_WORLD/killer.fifo last=
	local -A hit=()
	mkfifo "$wait_fifo"
	exec 9<> "$wait_fifo"
	# It stops when the stop file appears, checked each round: a TERM
	# trap in this loop of builtins was seen never to run (a run under
	# load hung in wait for 14 minutes).
	while [ ! -e "$stop" ]; do
		# Few forks per round: a slow round misses short writers.
		# (These files end without a newline: read "fails" yet reads.)
		kids=
		read -r kids 2>/dev/null < "/proc/$me/task/$me/children"
		for k in $kids; do
			c= w=
			read -r c 2>/dev/null < "/proc/$k/comm"
			[ "$c" = winnow ] || continue
			# pgrep, not a read of /proc/K/task/K/children: that
			# read was seen to come back empty while the writer
			# lived (a stalled one, for seconds).
			w=$(pgrep -P "$k" 2>/dev/null | tr '\n' ' ')
			for w in $w; do
				[ "$w" = "$last" ] && continue
				last=$w
				# The writer by name: sanitizers have helper tasks
				# of their own that must live.
				c=
				read -r c 2>/dev/null < "/proc/$w/comm"
				[ "$c" = winnow-writer ] || continue
				case $((RANDOM % 4)) in
				0) continue ;;
				1) ;;
				*) read -r -t "0.0$((RANDOM % 3))$((RANDOM % 10))" -u 9 _ ;;
				esac
				read -r _ _ st _ 2>/dev/null < "/proc/$w/stat" || continue
				[ "$st" = Z ] && continue
				kill -KILL "$w" 2>/dev/null && n=$((n + 1)) hit[$k]=1
			done
		done
	done
	echo "$n ${#hit[@]}" > "$kills"
}

ids=() fps=()
for ((i = 1; i <= reviews; i++)); do
	id=synth-$i-review@smtp.kernel.org
	ids+=("$id")
	mapfile -t f < <("$WINNOW" show --format=json "$id" | jq -r '.findings[].fingerprint')
	fps+=("${f[0]}" "${f[1]}")
done
states=(valid false-positive pre-existing untriaged)
declare -A last
killer &
killer_pid=$!
trap 'kill "$killer_pid" 2>/dev/null; wn_world_cleanup' EXIT
ok=0 kept=0 bad=0 warned=0
for ((m = 1; m <= marks; m++)); do
	r=$((RANDOM % reviews)) k=$((RANDOM % 3)) s=${states[$((RANDOM % 4))]}
	which=$([ "$k" -eq 2 ] && echo all || echo $((k + 1)))
	# Every 20th mark's writer stalls once it holds the lock (the test
	# hook), so the killer surely finds writers to kill mid-batch: how
	# many short-lived writers it catches otherwise is the machine's.
	if [ $((m % 20)) -eq 0 ]; then
		WINNOW_TEST_STALL_WRITER=1 "$WINNOW" mark --timeout=1 "${ids[$r]}" "$which" "$s" \
			> /dev/null 2> "$WN_WORLD/err"
	else
		"$WINNOW" mark "${ids[$r]}" "$which" "$s" > /dev/null 2> "$WN_WORLD/err"
	fi
	rc=$?
	if [ "$rc" -eq 0 ]; then
		ok=$((ok + 1))
	elif [ "$rc" -eq 2 ] && grep -q "kept in the journal" "$WN_WORLD/err"; then
		kept=$((kept + 1))
	else
		bad=$((bad + 1))
		[ "$bad" -le 3 ] && { echo "mark $m exited $rc:"; sed 's/^/  | /' "$WN_WORLD/err"; }
		continue
	fi
	if grep -q "set aside\|could not be written" "$WN_WORLD/err"; then
		warned=$((warned + 1))
		[ "$warned" -le 3 ] && { echo "mark $m warned:"; sed 's/^/  | /' "$WN_WORLD/err"; }
	fi
	# Acknowledged (written, or kept in the journal): this is now the
	# verdict the finding must end with.
	[ "$k" -ne 1 ] && last[$((r * 2))]=$s
	[ "$k" -ne 0 ] && last[$((r * 2 + 1))]=$s
done
touch "$stop"
wait "$killer_pid"
read -r nkills nhit < "$kills"

"$WINNOW" sync-journal > /dev/null 2> "$WN_WORLD/err"; expect_eq "sync-journal exits 0" 0 $?
lost=0
for ((i = 0; i < reviews * 2; i++)); do
	[ -n "${last[$i]:-}" ] || continue
	have=$(notmuch dump --include=properties "id:${ids[$((i / 2))]}" |
		tr ' ' '\n' | sed -n "s/^winnow\.verdict\.${fps[$i]}=//p")
	[ -z "$have" ] && have=untriaged
	if [ "$have" != "${last[$i]}" ]; then
		lost=$((lost + 1))
		echo "finding ${fps[$i]} of ${ids[$((i / 2))]}: notmuch has '$have', last given '${last[$i]}'"
	fi
done
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-* | grep -v '\.rejected$' | head -n 1)
aside=0
[ -f "$journal.rejected" ] && aside=$(grep -c . "$journal.rejected")
echo "marks $marks: exit 0 $ok, kept in the journal $kept, other $bad; writers killed $nkills," \
	"in $nhit winnow processes;" \
	"verdicts lost $lost; set aside $aside; marks warning of a set-aside $warned"
# How many short-lived writers the killer catches is the machine's; the
# stalled ones (every 20th mark) it catches for sure.
check "the killer killed writers ($nkills kills)" test "$nkills" -gt 0
expect_eq "every mark exited 0 or kept its verdict in the journal" 0 "$bad"
expect_eq "no mark said its verdict was set aside" 0 "$warned"
expect_eq "every finding holds its last verdict in notmuch" 0 "$lost"
expect_eq "nothing set aside in .rejected" 0 "$aside"
"$WINNOW" sync-journal > "$WN_WORLD/out"
expect_eq "nothing left pending" "0 verdicts written" "$(cat "$WN_WORLD/out")"

# Every writer killed: the mark keeps its verdict in the journal and says
# its writer died, not that another process held the lock (one writer may
# finish before the killer sees it: then the mark simply succeeds).
killall_writers() {
	local kids k w c
	while :; do
		kids=
		read -r kids 2>/dev/null < "/proc/$me/task/$me/children"
		for k in $kids; do
			w=
			read -r w 2>/dev/null < "/proc/$k/task/$k/children"
			for w in $w; do
				c=
				read -r c 2>/dev/null < "/proc/$w/comm"
				[ "$c" = winnow-writer ] && kill -KILL "$w" 2>/dev/null
			done
		done
	done
}
killall_writers &
killer_pid=$!
"$WINNOW" mark --timeout=1 "${ids[0]}" 1 valid 2> "$WN_WORLD/err"
rc=$?
kill -TERM "$killer_pid"
wait "$killer_pid" 2>/dev/null
sed 's/^/  | /' "$WN_WORLD/err"
check "a mark whose writers all die exits 0 or 2 ($rc)" test "$rc" -eq 0 -o "$rc" -eq 2
if [ "$rc" -eq 2 ]; then
	check "it says the writer died" grep -q "writer died" "$WN_WORLD/err"
	check "it blames no other process" bash -c '! grep -q "another process" "$1"' _ "$WN_WORLD/err"
	check "and keeps the verdict" grep -q "kept in the journal" "$WN_WORLD/err"
fi
"$WINNOW" sync-journal > /dev/null
expect_eq "the verdict reaches notmuch afterwards" valid \
	"$(notmuch dump --include=properties "id:${ids[0]}" | tr ' ' '\n' | sed -n "s/^winnow\.verdict\.${fps[0]}=//p")"
check "still nothing set aside" test ! -s "$journal.rejected"
wn_done
