#!/usr/bin/env bash
# Marking every finding of a review is linear: one journal line per
# action, one atomic write per review.  WN_MARK_ALL_FINDINGS findings
# (2,000; 10,000 or more for a deep run) are marked, written and undone
# with a journal under 100 bytes a finding (a line per finding would
# take more).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-huge.XXXXXX")
n=${WN_MARK_ALL_FINDINGS:-2000}
limit=$((n * 100))
bash "$WN_TOP_SRCDIR/tests/lib/mkhuge.sh" "$n" "$corpus"
wn_world "$corpus"
rm -rf "$corpus"
id=huge-review@example.org
counts() { "$WINNOW" show --format=json "$id" |
	jq -c '[.findings[].verdict] | group_by(.) | map({(.[0]): length}) | add'; }

expect_eq "the review has $n findings" "$n" \
	"$("$WINNOW" show --format=json "$id" | jq '.findings | length')"
"$WINNOW" mark --timeout=120 "$id" all valid; expect_eq "mark all exits 0" 0 $?
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
size=$(wc -c < "$journal")
check "journal under $limit bytes after marking $n findings ($size bytes)" test "$size" -lt "$limit"
expect_eq "every finding valid" "{\"valid\":$n}" "$(counts)"
expect_eq "triaged in notmuch" "id:$id" "$(notmuch search --output=messages "tag:winnow/triaged and tag:winnow/valid")"
expect_eq "$n verdict properties" "$n" \
	"$(notmuch dump --include=properties "id:$id" | tr ' ' '\n' | grep -c '^winnow\.verdict\.')"
"$WINNOW" mark --timeout=120 "$id" 7 false-positive
expect_eq "one finding changed after" "{\"false-positive\":1,\"valid\":$((n - 1))}" "$(counts)"
"$WINNOW" undo --timeout=120 2 > /dev/null; expect_eq "undo of both exits 0" 0 $?
expect_eq "all back to untriaged" "{\"untriaged\":$n}" "$(counts)"
expect_eq "no tags left" "" "$(notmuch search --output=messages "tag:winnow/valid or tag:winnow/triaged")"
size=$(wc -c < "$journal")
check "journal still under $limit bytes after the undo ($size bytes)" test "$size" -lt "$limit"
# A range over every finding is one action too, one line in
# the journal and one undo (it was 10,000 actions, of which the journal
# keeps 1,000, and took a minute).
"$WINNOW" mark --timeout=120 "$id" "1-$n" fp; expect_eq "mark 1-N exits 0" 0 $?
expect_eq "every finding false-positive" "{\"false-positive\":$n}" "$(counts)"
expect_eq "one action in the history" "$n" "$("$WINNOW" history --format=json | jq '.[0].changes')"
expect_eq "its mark is one journal line" 1 "$(grep -c '"op":"mark".*"false-positive","untriaged"' "$journal")"
"$WINNOW" undo --timeout=120 > /dev/null; expect_eq "one undo of the range exits 0" 0 $?
expect_eq "one undo reverts all of it" "{\"untriaged\":$n}" "$(counts)"
wn_done
