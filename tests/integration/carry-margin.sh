#!/usr/bin/env bash
# Two earlier candidates: tests/corpus/carry-margin holds
# Sashiko's reviews of v1 and v2 of two patches of "plume".  Each v1
# review has two findings on the same quoted code; each v2 review one
# finding repeating one of them.
#
#   status v2 #1 repeats status v1 #1 (len unchecked), not v1 #2 (the
#     lock) on the same line: v1 #1's verdict, sure.
#   reset v2 #1 words both reset v1 findings at once (the clock and the
#     power domain): the two score within WN_SIM_MARGIN, so neither is
#     sure; both are shown (the second as "or"), and carry applies
#     nothing.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-margin"
export LC_ALL=C.UTF-8 TZ=UTC
s1=20261102090000.P1A1@smtp.kernel.org
s2=20261109090000.P1B2@smtp.kernel.org
r1=20261102090500.P2A1@smtp.kernel.org
r2=20261109090500.P2B2@smtp.kernel.org

"$WINNOW" mark "$s1" 1 valid
"$WINNOW" mark "$s1" 2 false-positive
"$WINNOW" mark "$r1" 1 valid
"$WINNOW" mark "$r1" 2 false-positive

"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "status v2 #1 <- status v1 #1, sure, no other shown" \
	"[\"$s2\",1,\"valid\",true,\"$s1\",1,null]" \
	"$(jq -c ".[] | select(.review == \"$s2\") | [.review, .finding, .verdict, .sure, .from.review, .from.finding, .or]" "$WN_WORLD/dry.json")"
expect_eq "reset v2 #1: a suggestion, both reset v1 findings shown" \
	"[\"$r2\",1,false,[[\"$r1\",1,\"valid\"],[\"$r1\",2,\"false-positive\"]]]" \
	"$(jq -c ".[] | select(.review == \"$r2\") | [.review, .finding, .sure, ([[.from.review, .from.finding, .verdict], [.or.review, .or.finding, .or.verdict]] | sort)]" "$WN_WORLD/dry.json")"

"$WINNOW" carry > "$WN_WORLD/out.txt" 2>&1
expect_eq "carry exits 0" 0 $?
expect_eq "carry applies the sure one" '["valid"]' \
	"$("$WINNOW" show --format=json "$s2" | jq -c '[.findings[].verdict]')"
expect_eq "... and not the close one" '["untriaged"]' \
	"$("$WINNOW" show --format=json "$r2" | jq -c '[.findings[].verdict]')"
wn_done
