#!/usr/bin/env bash
# Nothing lost beside busy notmuch writers: three loops of `notmuch tag`
# run on the reviews while winnow marks their findings WN_RACE_MARKS
# times (default 200 in make check: the races show at once; 1000 or
# more for a deep run).  Every mark must be acknowledged (exit 0, or 2
# with the verdict kept in the journal: never "no message" because of a
# concurrent write), and at the end notmuch holds the last acknowledged
# verdict of every finding.
#
# One thing winnow cannot prevent: when a revision is discarded while
# libnotmuch itself reads a message's terms, it reopens the database on
# its own and exits the process ("Internal error: unhandled error from
# notmuch_database_reopen") if that fails too.  Such a mark was never
# acknowledged; it must stay rare, and its finding is left out of the
# final comparison (it may or may not have been journaled).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
marks=${WN_RACE_MARKS:-200}

mapfile -t rows < <("$WINNOW" list --format=json |
	jq -r '.[] | select((.findings | length) > 0) | "\(.id) \(.findings | length)"')
check "reviews with findings to mark (${#rows[@]})" test "${#rows[@]}" -ge 3

stop=$WN_WORLD/stop
for k in 1 2 3; do
	(
		id=${rows[$((k % ${#rows[@]}))]%% *}
		while [ ! -e "$stop" ]; do
			notmuch tag +race$k -- "id:$id" 2>/dev/null
			notmuch tag -race$k -- "id:$id" 2>/dev/null
		done
	) &
done

states=(valid false-positive pre-existing untriaged)
# Two winnow loops at once, each on its own reviews (so that the last
# acknowledged verdict of a finding is well defined): they race each
# other for the journal and the write lock as well as the tag loops.
# Each writes what it acknowledged to its own file.
mark_loop() {
	local part=$1 out=$WN_WORLD/acked.$1 row id nf f s rc
	: > "$out"
	for ((i = part; i < marks; i += 2)); do
		row=${rows[$((i % ${#rows[@]}))]}
		id=${row%% *} nf=${row##* }
		f=$(( (i / ${#rows[@]}) % nf + 1 ))
		s=${states[$(( (i * 7) % 4 ))]}
		"$WINNOW" mark --timeout=20 "$id" "$f" "$s" 2> "$WN_WORLD/err.$part"
		rc=$?
		if [ "$rc" -eq 0 ] || { [ "$rc" -eq 2 ] && grep -q "kept in" "$WN_WORLD/err.$part"; }; then
			echo "ok $id/$f $s" >> "$out"
		elif grep -q "^Internal error: unhandled error from notmuch" "$WN_WORLD/err.$part"; then
			echo "libnotmuch $id/$f" >> "$out"
		else
			echo "refused $id/$f rc=$rc $(head -c 300 "$WN_WORLD/err.$part" | tr '\n' ' ')" >> "$out"
		fi
	done
}
# Loop p takes marks p, p+2, ...: with an even number of reviews the
# two loops never share one.
[ $(( ${#rows[@]} % 2 )) -eq 1 ] && unset "rows[$(( ${#rows[@]} - 1 ))]"
mark_loop 0 & l0=$!
mark_loop 1 & l1=$!
wait "$l0" "$l1"
declare -A want
refused=0 died=0
while read -r what key rest; do
	case $what in
	ok) want[$key]=$rest ;;
	libnotmuch) want[$key]=unknown; died=$((died + 1)) ;;
	*) refused=$((refused + 1)); [ "$refused" -le 3 ] && echo "  | $key $rest" ;;
	esac
done < <(cat "$WN_WORLD/acked.0" "$WN_WORLD/acked.1")
check "libnotmuch's own exits stay rare ($died of $marks)" test $((died * 100)) -le "$marks"
expect_eq "$marks marks made" "$marks" "$(cat "$WN_WORLD"/acked.* | wc -l)"
touch "$stop"
wait
expect_eq "no mark refused or lost beside the writers" 0 "$refused"
"$WINNOW" sync-journal > /dev/null; expect_eq "sync-journal exits 0" 0 $?

wrong=0
for row in "${rows[@]}"; do
	id=${row%% *}
	mapfile -t got < <("$WINNOW" show --format=json "$id" | jq -r '.findings[].verdict')
	for ((f = 1; f <= ${#got[@]}; f++)); do
		[ -n "${want[$id/$f]:-}" ] && [ "${want[$id/$f]}" != unknown ] || continue
		if [ "${want[$id/$f]}" != "${got[$((f - 1))]}" ]; then
			wrong=$((wrong + 1))
			echo "  $id finding $f: want ${want[$id/$f]}, notmuch has ${got[$((f - 1))]}"
		fi
	done
done
expect_eq "every acknowledged verdict is in notmuch after $marks marks" 0 "$wrong"
expect_eq "and nothing is left in the journal" "0 verdicts written" "$("$WINNOW" sync-journal)"
wn_done
