#!/usr/bin/env bash
# A finding's identity across versions of one patch (points 1
# and 5): tests/corpus/carry-versions holds Sashiko's reviews of v3 (2/3)
# and v4 (3/4) of "plume: write folios back in batches", and of another
# patch touching the same code.
#
#   v3 #1 asks whether plume_submit_batch() leaks a folio reference; v4
#     renamed the function to plume_flush_batch() and #1 states the same
#     leak there, quoting the same lines with another line before them:
#     it takes v3 #1's verdict (the same patch, file and quoted line).
#   v3 #2 (the batch never reset) is fixed in v4: nothing repeats it.
#   v3 #3 (nr_to_write charged too early) is v4 #2, reworded.
#   v4 #3 is a new problem on the line v3 #3 hangs on, its comment
#     quoting that line too: v4 #2 is more like v3 #3, so #3 takes
#     nothing.
#   v3 #4, pre-existing, asks whether plume_writepages() loses an
#     earlier -EIO; v4 #4 states it in other words: the same bug, one
#     ledger entry for both reviews.
#   The other patch's review finds v3 #1's leak in plume_flush_batch():
#     another patch and another function, so nothing.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-versions"
export LC_ALL=C.UTF-8 TZ=UTC
v3=20261201110000.P1A2B3C4D5E@smtp.kernel.org
v4=20261208110000.P2B3C4D5E6F@smtp.kernel.org
other=20261210110000.P3C4D5E6F70@smtp.kernel.org

expect_eq "the places: v4 #1 moved to the renamed function" \
	'[["plume_submit_batch","plume_writepages","plume_writepages","plume_writepages"],["plume_flush_batch","plume_writepages","plume_writepages","plume_writepages"],["plume_flush_batch"]]' \
	"$(for id in $v3 $v4 $other; do "$WINNOW" show --format=json "$id"; done | jq -sc 'map([.findings[].function])')"
"$WINNOW" mark "$v3" 1 false-positive --note "the caller puts the folio"
"$WINNOW" mark "$v3" 2 valid
"$WINNOW" mark "$v3" 3 valid
"$WINNOW" mark "$v3" 4 pre-existing

"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "v4 #1 <- v3 #1, #2 <- #3, #4 <- #4; v4 #3 and the other patch nothing" \
	"[[\"$v4\",1,\"false-positive\",\"$v3\",1],[\"$v4\",2,\"valid\",\"$v3\",3],[\"$v4\",4,\"pre-existing\",\"$v3\",4]]" \
	"$(jq -c 'sort_by(.review, .finding) | [.[] | [.review, .finding, .verdict, .from.review, .from.finding]]' "$WN_WORLD/dry.json")"
expect_eq "... saying why: v4 #1 by the patch, file and quoted line in the renamed function" \
	'"same patch, file and quoted line, function renamed or moved; summary alike"' \
	"$(jq -c '[.[] | select(.finding == 1)][0].from.why' "$WN_WORLD/dry.json")"
expect_eq "... v4 #4 by the patch, quoted line and function, the comment alike" \
	'"same patch, quoted line and function; comment alike"' \
	"$(jq -c '[.[] | select(.finding == 4)][0].from.why' "$WN_WORLD/dry.json")"

# The ledger: v4 #4 marked pre-existing too is the same bug.
"$WINNOW" mark "$v4" 4 pre-existing
"$WINNOW" ledger --format=json > "$WN_WORLD/ledger.json"
expect_eq "ledger exits 0" 0 $?
expect_eq "one bug, reported by v3 and v4" "[[\"$v3\",\"$v4\"]]" \
	"$(jq -c '[.[] | [.reports[].review]]' "$WN_WORLD/ledger.json")"
wn_done
