#!/usr/bin/env bash
# Which of two earlier candidates a new finding takes:
# tests/corpus/carry-rank holds Sashiko's reviews of three wisp patches
# with different titles (no patch route).  The third review's findings
# each have two judged candidates at their function.
#
#   #1 (wisp_start, w->state unlocked) is worded like the first
#     review's #1 (valid, 1.0) and, less, like its #2 (w->starts, a
#     false positive, 0.58): the higher score wins, no close second.
#   #2 (wisp_reset) is identical to a finding of the first review
#     (false positive) and one of the second (valid, a week newer): the
#     newest verdict wins, the older shown beside it.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-rank"
export LC_ALL=C.UTF-8 TZ=UTC
a=20261102100000.W1A@smtp.kernel.org
b=20261109100000.W2B@smtp.kernel.org
n=20261116100000.W3C@smtp.kernel.org

"$WINNOW" mark "$a" 1 valid
"$WINNOW" mark "$a" 2 false-positive
"$WINNOW" mark "$a" 3 false-positive
"$WINNOW" mark "$b" 1 valid

"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "#1: the higher score (a's #1, valid), not a's #2" \
	"[\"$n\",1,\"valid\",\"$a\",1,1,null]" \
	"$(jq -c ".[] | select(.review == \"$n\" and .finding == 1) | [.review, .finding, .verdict, .from.review, .from.finding, .from.similarity, .or]" "$WN_WORLD/dry.json")"
expect_eq "#2: of two identical, the newer (b's #1, valid); a's #3 beside it" \
	"[\"$n\",2,\"valid\",false,\"$b\",1,\"$a\",3,\"false-positive\"]" \
	"$(jq -c ".[] | select(.review == \"$n\" and .finding == 2) | [.review, .finding, .verdict, .sure, .from.review, .from.finding, .or.review, .or.finding, .or.verdict]" "$WN_WORLD/dry.json")"
wn_done
