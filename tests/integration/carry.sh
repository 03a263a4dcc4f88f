#!/usr/bin/env bash
# winnow carry on the series fixture beside the demo mailbox: what v1
# 2/5 was given, v2 and v3 take (reworded, moved, the version renamed);
# another problem in the same function, the same text in another file
# and every demo review take nothing.  --dry-run marks nothing; one
# undo reverts one verdict's changes.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
check "v1 judged" wn_series_judge_v1
# Why v1 #3 is a false positive travels with its verdict.
"$WINNOW" mark --reason=wrong-rule "$v1" 3 fp

json=$WN_WORLD/carry.json
"$WINNOW" carry --dry-run --format=json > "$json"
expect_eq "dry run exits 0" 0 $?
expect_eq "dry run: v3 #1 and #3, v2 #3 and #4, from v1 #3 and #4" \
	"[[\"$v3\",1,\"false-positive\",\"$v1\",3],[\"$v3\",3,\"pre-existing\",\"$v1\",4],[\"$v2\",3,\"false-positive\",\"$v1\",3],[\"$v2\",4,\"pre-existing\",\"$v1\",4]]" \
	"$(jq -c '[.[] | [.review, .finding, .verdict, .from.review, .from.finding]]' "$json")"
# Each quotes v1's code in v1's function: the words (0.8333, 0.9,
# 0.8333, 1) plus the code's weight, at most 1, and it says so.
expect_eq "dry run: similarity, why, and the note it carries" \
	'[[1,"same quoted line and function; summary alike","blinker_timer_fn() checks bl->stopping first"],[1,"same quoted line and function; summary alike","needs bl->lock in blinker_stop()"],[1,"same quoted line and function; summary alike","blinker_timer_fn() checks bl->stopping first"],[1,"same quoted line and function; summary alike","needs bl->lock in blinker_stop()"]]' \
	"$(jq -c '[.[] | [.from.similarity, .from.why, .from.note]]' "$json")"
expect_eq "dry run: the source's patch and date" '["[PATCH 2/5] blinker: stop the timer before freeing the ring buffer","2026-11-10","sashiko"]' \
	"$(jq -c '.[0].from | [.patch_subject, .date, .bot]' "$json")"
expect_eq "dry run marks nothing" '["untriaged","untriaged","untriaged","untriaged"]' "$(wn_verdicts "$v2")"

# A search of the verdicts given before that fails is an error, never
# "nothing to carry" (a --enable-test-hooks build makes it fail).
if WINNOW_TEST_CANDIDATES_FAIL=1 "$WINNOW" carry --dry-run >"$WN_WORLD/out" 2>"$WN_WORLD/err"; then
	rc=0
else
	rc=$?
fi
if [ "$rc" = 0 ] && [ -s "$WN_WORLD/out" ] && ! grep -q "cannot search" "$WN_WORLD/err"; then
	echo "# (no test hooks: the failing search not tried)"
else
	expect_eq "a failed search of the verdicts before: exit 2" 2 "$rc"
	expect_eq "... one line saying so" \
		"winnow: notmuch cannot search the verdicts given before: A Xapian exception occurred" \
		"$(cat "$WN_WORLD/err")"
	expect_eq "... and nothing said to carry" "" "$(cat "$WN_WORLD/out")"
fi

text=$("$WINNOW" carry 2> "$WN_WORLD/err")
expect_eq "carry exits 0" 0 $?
expect_eq "carry says how many" "winnow: carried 4 verdicts" "$(cat "$WN_WORLD/err")"
check "carry prints each change with its source" grep -qF "$v2 #3: false-positive  The timer callback may rearm" <<<"$text"
check "... and where it comes from" grep -qF "    as $v1 #3 on [PATCH 2/5] blinker: stop the timer before freeing the ring buffer, 2026-11-10 (similarity 1.0000: same quoted line and function; summary alike)" <<<"$text"
check "... and the note" grep -qF "    note: blinker_timer_fn() checks bl->stopping first" <<<"$text"
expect_eq "v2: the reworded ones taken, another problem in blinker_remove() not" \
	'["untriaged","untriaged","false-positive","pre-existing"]' "$(wn_verdicts "$v2")"
expect_eq "v2: the reason came along with the false positive" wrong-rule \
	"$("$WINNOW" show --format=json "$v2" | jq -r '.findings[2].reason')"
check "carry printed it" grep -qF "    reason: wrong-rule" <<<"$text"
expect_eq "v2: the notes came along" \
	'[null,null,"blinker_timer_fn() checks bl->stopping first","needs bl->lock in blinker_stop()"]' "$(wn_notes "$v2")"
expect_eq "v3: repeated and renamed-version ones taken, the new one not" \
	'["false-positive","untriaged","pre-existing"]' "$(wn_verdicts "$v3")"
expect_eq "v2 4/5: v1's text in another file takes nothing" '["untriaged"]' "$(wn_verdicts "$v2p4")"
expect_eq "the demo mailbox takes nothing" \
	'[]' "$("$WINNOW" carry --dry-run --format=json -- not id:$v2 and not id:$v3 and not id:$v2p4 and not id:$v1)"
expect_eq "in notmuch too" "id:$v2" "$(notmuch search --output=messages "tag:winnow/false-positive and id:$v2")"
expect_eq "nothing left to carry" '[]' "$("$WINNOW" carry --format=json)"

"$WINNOW" undo > /dev/null
expect_eq "one undo reverts one verdict's changes (the pre-existing ones)" \
	'["untriaged","untriaged","false-positive","untriaged"]' "$(wn_verdicts "$v2")"
expect_eq "... on both reviews" '["false-positive","untriaged","untriaged"]' "$(wn_verdicts "$v3")"

# The demo's own must-not-match: two findings of frobnic_remove() on
# A1, judged false positives, are not A2's problems there.
"$WINNOW" mark 20261102102030.4B7D1C4CEE5@smtp.kernel.org all false-positive
expect_eq "demo: A2's frobnic_remove() findings take nothing from A1's" '[]' \
	"$("$WINNOW" carry --dry-run --format=json id:20261102102845.9E02AC4CEF3@smtp.kernel.org)"

"$WINNOW" carry --format=xml > /dev/null 2>&1; expect_eq "an unknown format is a usage error" 1 $?
"$WINNOW" carry --bogus > /dev/null 2>&1; expect_eq "an unknown option is a usage error" 1 $?
"$WINNOW" carry 'date:foo..bar' > /dev/null 2>&1; expect_eq "a query notmuch cannot run is the user's" 1 $?
NOTMUCH_CONFIG=$WN_WORLD/none "$WINNOW" carry > /dev/null 2>&1; expect_eq "no database: 2" 2 $?
check "--help" bash -c '"$WINNOW" carry --help | grep -q "^Usage: winnow carry"'
# The memory of a verdict outlives winnow.query: narrowed to leave v1
# out, v1's judged findings still lend v2 theirs (the candidates are
# the judged reviews, whatever winnow.query lists now).
q=$("$WINNOW" list --print-query)
notmuch config set winnow.query "($q) and not id:$v1"
expect_eq "v1 is out of the list" "" "$("$WINNOW" list --format=json | jq -r --arg v "$v1" '.[] | select(.id == $v) | .id')"
expect_eq "... and still a source of v2's" "[[\"$v2\",4,4]]" \
	"$("$WINNOW" carry --dry-run --format=json "id:$v2" |
		jq -c --arg v "$v1" '[.[] | select(.from.review == $v) | [.review, .finding, .from.finding]]')"
notmuch config set winnow.query

wn_done

