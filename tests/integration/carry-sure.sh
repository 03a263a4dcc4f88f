#!/usr/bin/env bash
# Memory you can trust: tests/corpus/carry-sure holds Sashiko's
# reviews of v1 and v2 of "gizmo: map the rx ring once at start", and of
# patch 2/2 of the v1 series, written after the patterns seen in real
# reviews.
#
#   v2 #1 is about the same buffer at the same lines as v1 #1 but another
#     problem (its alignment, not the race): nothing, not even a
#     suggestion.
#   v2 #2 repeats v1 #2 (the leak), reworded: sure, carried.
#   v2 #3 objects to the opposite of v1 #3 at the same line (an
#     equality, where v1 flagged the bitwise test): nothing.
#   2/2 #1 is v1 #1 word for word, on a sibling patch: sure, identical.
#   2/2 #2 words v1 #2 anew on the sibling patch: the same code and
#     function, but another patch: a suggestion, shown, never applied.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-sure"
export LC_ALL=C.UTF-8 TZ=UTC
v1=20261207100000.G1A1@smtp.kernel.org
v2=20261214100000.G2B2@smtp.kernel.org
sib=20261207100500.G3C3@smtp.kernel.org

"$WINNOW" mark "$v1" 1 valid
"$WINNOW" mark "$v1" 2 false-positive
"$WINNOW" mark "$v1" 3 valid

"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "v2 #2 <- v1 #2 sure, 2/2 #1 <- v1 #1 sure, 2/2 #2 suggested; v2 #1 and #3 nothing" \
	"[[\"$sib\",1,\"valid\",true,\"$v1\",1],[\"$sib\",2,\"false-positive\",false,\"$v1\",2],[\"$v2\",2,\"false-positive\",true,\"$v1\",2]]" \
	"$(jq -c 'sort_by(.review, .finding) | [.[] | [.review, .finding, .verdict, .sure, .from.review, .from.finding]]' "$WN_WORLD/dry.json")"
expect_eq "... the sibling's by being identical" \
	'"identical: same bot, summary and quoted code"' \
	"$(jq -c "[.[] | select(.review == \"$sib\")][0].from.why" "$WN_WORLD/dry.json")"

"$WINNOW" carry > "$WN_WORLD/out.txt" 2>&1
expect_eq "carry exits 0" 0 $?
expect_eq "carry applies the sure ones" '["false-positive","untriaged","untriaged"]' \
	"$("$WINNOW" show --format=json "$v2" | jq -c '[.findings[] | .verdict] | [.[1], .[0], .[2]]')"
grep -q "(suggestion, not applied)" "$WN_WORLD/out.txt"
expect_eq "carry says which it did not apply" 0 $?
expect_eq "... and the identical one, not the suggestion" '["valid","untriaged"]' \
	"$("$WINNOW" show --format=json "$sib" | jq -c '[.findings[].verdict]')"
wn_done
