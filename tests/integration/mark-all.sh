#!/usr/bin/env bash
# Marking every finding of a review is linear: one journal line per
# action, one atomic write per review.  10,000 findings are marked,
# written and undone in seconds with a journal far under 1 MB.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-huge.XXXXXX")
bash "$WN_TOP_SRCDIR/tests/lib/mkhuge.sh" 10000 "$corpus"
wn_world "$corpus"
rm -rf "$corpus"
id=huge-review@example.org
counts() { "$WINNOW" show --format=json "$id" |
	jq -c '[.findings[].verdict] | group_by(.) | map({(.[0]): length}) | add'; }

expect_eq "the review has 10000 findings" 10000 \
	"$("$WINNOW" show --format=json "$id" | jq '.findings | length')"
"$WINNOW" mark --timeout=120 "$id" all valid; expect_eq "mark all exits 0" 0 $?
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
size=$(wc -c < "$journal")
check "journal under 1 MB after marking 10000 findings ($size bytes)" test "$size" -lt 1000000
expect_eq "every finding valid" '{"valid":10000}' "$(counts)"
expect_eq "triaged in notmuch" "id:$id" "$(notmuch search --output=messages "tag:winnow/triaged and tag:winnow/valid")"
expect_eq "10000 verdict properties" 10000 \
	"$(notmuch dump --include=properties "id:$id" | tr ' ' '\n' | grep -c '^winnow\.verdict\.')"
"$WINNOW" mark --timeout=120 "$id" 7 false-positive
expect_eq "one finding changed after" '{"false-positive":1,"valid":9999}' "$(counts)"
"$WINNOW" undo --timeout=120 2 > /dev/null; expect_eq "undo of both exits 0" 0 $?
expect_eq "all back to untriaged" '{"untriaged":10000}' "$(counts)"
expect_eq "no tags left" "" "$(notmuch search --output=messages "tag:winnow/valid or tag:winnow/triaged")"
size=$(wc -c < "$journal")
check "journal still under 1 MB after the undo ($size bytes)" test "$size" -lt 1000000
# Issue 18.9: a range over every finding is one action too, one line in
# the journal and one undo (it was 10,000 actions, of which the journal
# keeps 1,000, and took a minute).
"$WINNOW" mark --timeout=120 "$id" 1-10000 fp; expect_eq "mark 1-10000 exits 0" 0 $?
expect_eq "every finding false-positive" '{"false-positive":10000}' "$(counts)"
expect_eq "one action in the history" 10000 "$("$WINNOW" history --format=json | jq '.[0].changes')"
expect_eq "its mark is one journal line" 1 "$(grep -c '"op":"mark".*"false-positive","untriaged"' "$journal")"
"$WINNOW" undo --timeout=120 > /dev/null; expect_eq "one undo of the range exits 0" 0 $?
expect_eq "one undo reverts all of it" '{"untriaged":10000}' "$(counts)"
wn_done
