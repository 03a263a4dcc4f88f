#!/usr/bin/env bash
# = asks before taking what is not sure, on carry-sure and
# carry-margin together.  On the sibling patch of carry-sure, finding 2
# is only a suggestion: = asks y/n, n leaves it untriaged, y takes v1
# #2's verdict.  On carry-margin's reset v2, two v1 findings are as
# alike: = asks "1 or 2", 2 takes the other's verdict, 1 the one seen
# before, anything else nothing.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8 TZ=UTC
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-ask.XXXXXX")
cp "$WN_TOP_SRCDIR"/tests/corpus/carry-sure/*.eml "$WN_TOP_SRCDIR"/tests/corpus/carry-margin/*.eml "$corpus"
wn_world "$corpus"
rm -rf "$corpus"
v1=20261207100000.G1A1@smtp.kernel.org
sib=20261207100500.G3C3@smtp.kernel.org
r1=20261102090500.P2A1@smtp.kernel.org
r2=20261109090500.P2B2@smtp.kernel.org
verdicts() { "$WINNOW" show --format=json "$1" | jq -c '[.findings[].verdict]'; }

"$WINNOW" mark "$v1" 1 valid
"$WINNOW" mark "$v1" 2 false-positive
"$WINNOW" mark "$r1" 1 valid
"$WINNOW" mark "$r1" 2 false-positive

wn_tui_start "'(id:$sib)'"
check "queue on the sibling" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 2"
wn_tui_keys j
check "finding 2: a suggestion, = asks" \
	wn_tui_wait "Suggestion: false positive on Re: [PATCH v1 1/2] gizmo: map the rx ring once at start, 2026-12-07  (= asks)"
wn_tui_keys =
check "= asks before taking a suggestion" wn_tui_wait "Only a suggestion: take its verdict?"
wn_tui_keys n
check "n takes nothing" wn_tui_wait "nothing taken"
expect_eq "... finding 2 stays untriaged" '["untriaged","untriaged"]' "$(verdicts "$sib")"
wn_tui_keys =
check "= asks again" wn_tui_wait "Only a suggestion: take its verdict?"
wn_tui_keys y
check "y takes it" wn_tui_wait "marked finding 2 false-positive, as before"
expect_eq "... finding 2 false positive" '["untriaged","false-positive"]' "$(verdicts "$sib")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

wn_tui_start "'(id:$r2)'"
check "queue on reset v2" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 1"
check "seen before: one of the two" \
	wn_tui_wait "Suggestion: valid on Re: [PATCH 2/2] plume: reset the block before enabling it, 2026-11-02  (= asks)"
check "... the other beside it" \
	wn_tui_wait "or: false positive, finding 2: plume_reset() writes PLUME_RESET before the power domain is enabled"
wn_tui_keys =
check "= asks which" wn_tui_wait "Take 1 (seen before) or 2 (or: line)?"
wn_tui_keys 3 Enter
check "another answer takes nothing" wn_tui_wait "nothing taken"
expect_eq "... still untriaged" '["untriaged"]' "$(verdicts "$r2")"
wn_tui_keys =
check "= asks which again" wn_tui_wait "Take 1 (seen before) or 2 (or: line)?"
wn_tui_keys 2 Enter
check "2 takes the other's verdict" wn_tui_wait "marked finding 1 false-positive, as before"
expect_eq "... false positive" '["false-positive"]' "$(verdicts "$r2")"
wn_tui_keys =
check "= asks which once more" wn_tui_wait "Take 1 (seen before) or 2 (or: line)?"
wn_tui_keys 1 Enter
check "1 takes the one seen before" wn_tui_wait "marked finding 1 valid, as before"
expect_eq "... valid" '["valid"]' "$(verdicts "$r2")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
