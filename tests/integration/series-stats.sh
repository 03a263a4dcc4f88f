#!/usr/bin/env bash
# winnow stats on the series fixture beside the demo mailbox: findings a
# later patch of their series handles (v1 and v2 2/5 #2 in blinker_irq(),
# which 4/5 changes; the demo's A1 #1, #2 and B1 #1, #2), valid findings
# fixed in a later version (v1 #1, gone on v2 whose diff still changes
# blinker_remove()), and the maintainer's own severity beside the bot's
# (v1: high medium medium low; v2: high medium medium low; v3: medium
# low low).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
export LC_ALL=C
check "v1 judged" wn_series_judge_v1
"$WINNOW" carry > /dev/null 2>&1
"$WINNOW" mark --severity=high "$v2" 3
"$WINNOW" mark --severity=medium "$v3" 3
"$WINNOW" mark --severity=low "$v1" 4

json=$WN_WORLD/stats.json
"$WINNOW" stats --format=json > "$json"
expect_eq "stats exits 0" 0 $?
expect_eq "Sashiko: later patch, fixed later, regraded" '[6,1,2]' \
	"$(jq -c '.[] | select(.bot == "sashiko") | [.later_patch, .fixed_later, .regraded]' "$json")"
expect_eq "the total" '[6,1,2]' "$(jq -c '.[] | select(.total) | [.later_patch, .fixed_later, .regraded]' "$json")"
expect_eq "the series alone: v1 and v2 #2" '[2,1]' \
	"$("$WINNOW" stats --format=json "id:$v1 or id:$v2 or id:$v3 or id:$v2p4" | jq -c '.[] | select(.total) | [.later_patch, .fixed_later]')"
expect_eq "a later version not reviewed yet fixes nothing: v3 alone" '[0,0]' \
	"$("$WINNOW" stats --format=json "id:$v3" | jq -c '.[] | select(.total) | [.later_patch, .fixed_later]')"

"$WINNOW" stats --format=json --by=severity,maintainer-severity "id:$v1 or id:$v2 or id:$v3" > "$json"
expect_eq "the bot's severity beside yours" \
	'[["high",null,2],["medium","high",1],["medium",null,4],["low","medium",1],["low","low",1],["low",null,2],[null,null,11]]' \
	"$(jq -c '[.[] | [.severity, ."maintainer-severity", .findings]]' "$json")"
expect_eq "regraded: high for medium, medium for low; low for low is no regrading" 2 \
	"$(jq '.[] | select(.total) | .regraded' "$json")"

text=$("$WINNOW" stats "id:$v1 or id:$v2 or id:$v3 or id:$v2p4")
check "text: the series table" grep -qxF "Series, your own grading and the authors' answers:" <<<"$text"
check "text: its numbers" grep -qE '^Sashiko +12 +2 +1 +1 +2 +0$' <<<"$text"
# Fixed later needs the bot's review of a later version to be one of
# the reviews winnow lists: with winnow.query leaving out v2's and
# v3's, v1 #1 is not.
expect_eq "v1 alone: #1 fixed later" 1 "$("$WINNOW" stats --format=json "id:$v1" | jq '.[] | select(.total) | .fixed_later')"
q=$("$WINNOW" list --print-query)
notmuch config set winnow.query "($q) and not id:$v2 and not id:$v3"
expect_eq "... not by reviews winnow does not list" 0 \
	"$("$WINNOW" stats --format=json "id:$v1" | jq '.[] | select(.total) | .fixed_later')"
notmuch config set winnow.query
"$WINNOW" stats --by=maintainer-severity,bogus > /dev/null 2>&1; expect_eq "an unknown key: usage error" 1 $?

# Which messages are reviews is itself a list of reviews, read in
# windows of dates when long: 150 newer reviews (of no finding) put the
# series' past the first page the count reads, and windows of two rows
# give the same answers (fails when a window's rows go missing).
mail=$(notmuch config get database.path)
for i in $(seq 1 150); do
	d=$(date -u -R -d "2030-01-01 00:00 UTC + $i minutes")
	sed -e "s/^Message-Id: <.*>/Message-Id: <newer-$i.review@example.org>/I" -e "s/^Date: .*/Date: $d/" \
		"$WN_TOP_SRCDIR/tests/corpus/demo/14-sashiko-b2-no-issues.eml" >"$mail/cur/newer-$i:2,S"
done
notmuch new --quiet
expect_eq "150 newer reviews, windows of 2 rows: later patch, fixed later, regraded" '[6,1,2]' \
	"$(WINNOW_TEST_LIST_WINDOW=2 "$WINNOW" stats --format=json | jq -c '.[] | select(.total) | [.later_patch, .fixed_later, .regraded]')"
# ... and the set of reviews, asked for in the middle of the pass, read
# in that pass's windows: never one search holding every review's
# result set.
export WINNOW_TEST_LIST_LOG=$WN_WORLD/list.log
: >"$WINNOW_TEST_LIST_LOG"
WINNOW_NO_CACHE=1 WINNOW_TEST_LIST_WINDOW=2 "$WINNOW" stats >/dev/null
walk=$(grep -c '^window ' "$WINNOW_TEST_LIST_LOG")
n=$(sed -n 's/^reviews window 0 of \([0-9]*\):.*/\1/p' "$WINNOW_TEST_LIST_LOG" | head -n 1)
check "the pass's list is read in windows" test "$walk" -ge 1
check "... and the set of reviews in as many" test "${n:-0}" -gt 1
expect_eq "... each searched once" "$n" "$(grep -c '^reviews window' "$WINNOW_TEST_LIST_LOG")"
expect_eq "... which hold every review once" "$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)" \
	"$(awk '/^reviews window / { n += $(NF - 1) } END { print n + 0 }' "$WINNOW_TEST_LIST_LOG")"
unset WINNOW_TEST_LIST_LOG
expect_eq "... v1 alone: #1 fixed later" 1 \
	"$(WINNOW_TEST_LIST_WINDOW=2 "$WINNOW" stats --format=json "id:$v1" | jq '.[] | select(.total) | .fixed_later')"
wn_done
