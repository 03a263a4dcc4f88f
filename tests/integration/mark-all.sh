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
wn_done
