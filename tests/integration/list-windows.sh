#!/usr/bin/env bash
# A long list is read in windows of dates, one search each
# (src/lib/index/index-query.c), so that a pass over every review holds
# one window's result set, not every review's.  The rows, their order
# and every command's answers are those of one search, whatever the
# window's size, also where a window's edge falls inside a run of
# reviews of one date; a forward pass searches each window once, in
# order; the queue shows the same rows walked down and back up.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_need_test_hooks
export LC_ALL=C.UTF-8 TZ=UTC
unset WINNOW_TEST_LIST_WINDOW WINNOW_TEST_LIST_LOG
wn_world
mail=$WN_WORLD/db/mail
# More reviews than the first page the count reads (128 rows), in runs
# of one date: copies of four reviews, the copies of each dated an hour
# apart, every date three copies long, the four on the same dates.
for f in 06-sashiko-a2-new-qp 16-lkp-b3-build-warning 21-bpf-ci-c1 14-sashiko-b2-no-issues; do
	for i in $(seq 1 45); do
		d=$(date -u -R -d "2026-11-01 00:00 UTC + $((i / 3)) hours")
		sed -e "s/^Message-Id: <.*>/Message-Id: <copy-$i.$f@example.org>/I" \
			-e "s/^Date: .*/Date: $d/" \
			"$WN_TOP_SRCDIR/tests/corpus/demo/$f.eml" >"$mail/cur/copy-$i-$f:2,S"
	done
done
notmuch new --quiet
rows=$("$WINNOW" list --format=json | jq length)
check "the list is longer than the first page ($rows rows)" test "$rows" -ge 160

answers() {
	"$WINNOW" list && "$WINNOW" list --format=json && "$WINNOW" export --format=csv &&
		"$WINNOW" stats --format=json
}
answers >"$WN_WORLD/ref" 2>&1
for w in 1 2 3 5 8; do
	WINNOW_TEST_LIST_WINDOW=$w answers >"$WN_WORLD/win$w" 2>&1
	check "windows of $w rows: the answers of one search" cmp "$WN_WORLD/ref" "$WN_WORLD/win$w"
done

# Each window past the first page (which the count read) searched
# once, in order, from a row past the one before's; the last one last;
# and more than one of them.
export WINNOW_TEST_LIST_LOG=$WN_WORLD/list.log
WINNOW_TEST_LIST_WINDOW=3 "$WINNOW" list >/dev/null
once_in_order() {
	awk -v rows="$rows" '
		$1 != "window" || $6 >= rows { bad = 1 }
		NR > 1 && ($2 != w + 1 || $6 <= from) { bad = 1 }
		{ w = $2; n = $4; from = $6 }
		END { exit bad || NR < 2 || w != n - 1 }' "$WINNOW_TEST_LIST_LOG"
}
check "a pass searches each window once, in order ($(wc -l <"$WINNOW_TEST_LIST_LOG") searches)" \
	once_in_order
# A short list stays one search.
: >"$WINNOW_TEST_LIST_LOG"
"$WINNOW" list >/dev/null
expect_eq "without windows: one search" "window 0 of 1 from 0" "$(cat "$WINNOW_TEST_LIST_LOG")"
unset WINNOW_TEST_LIST_LOG

# The queue on a 3-line terminal (one row shown), walked down to the
# end and back up again, shows the rows it shows without windows.
walk() {
	local keys=() i
	for i in $(seq 1 "$rows"); do keys+=(":save-display $WN_WORLD/$1-down$i" j); done
	keys+=(G)
	for i in $(seq 1 "$rows"); do keys+=(":save-display $WN_WORLD/$1-up$i" k); done
	wn_script_run 120x3 "$1" ":wait" g "${keys[@]}"
	for i in $(seq 1 "$rows"); do sed -n 2p "$WN_WORLD/$1-down$i"; done >"$WN_WORLD/$1.down"
	for i in $(seq 1 "$rows"); do sed -n 2p "$WN_WORLD/$1-up$i"; done >"$WN_WORLD/$1.up"
}
walk one
WINNOW_TEST_LIST_WINDOW=2 walk win
same() { cmp -s "$1" "$2" || { diff "$1" "$2" | head -n 20 >&2; return 1; }; }
check "the queue walked down, windows of 2: the rows of one search" same "$WN_WORLD/one.down" "$WN_WORLD/win.down"
check "... and walked back up from the end" same "$WN_WORLD/one.up" "$WN_WORLD/win.up"
check "... every row shown once each way" test "$(sort -u "$WN_WORLD/one.down" | wc -l)" -ge 8
wn_done
