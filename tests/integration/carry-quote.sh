#!/usr/bin/env bash
# The quoted code as a signal: tests/corpus/
# carry-quote holds Sashiko's reviews of v1 and v2 of one patch, both in
# gizmo_flush().  v2 #1 rewords v1 #1 (the words alone score 0.25) but
# quotes the same line: it takes v1 #1's verdict and says why.  v2 #2 is
# another problem whose quote holds the line v1 #2 hangs on, with words
# in common (0.2); its summary names gizmo_kick(), v1 #2's WRITE_ONCE()
# and gizmo_irq(): different code, so it takes nothing.  The review
# view's "seen before" says the same.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-quote"
export LC_ALL=C.UTF-8 TZ=UTC
v1=20261207100000.C1D2E3F4A5B@smtp.kernel.org
v2=20261214100000.C2D3E4F5A6B@smtp.kernel.org

expect_eq "both reviews: two findings in gizmo_flush()" \
	'[["gizmo_flush","gizmo_flush"],["gizmo_flush","gizmo_flush"]]' \
	"$(for id in $v1 $v2; do "$WINNOW" show --format=json "$id"; done | jq -sc 'map([.findings[].function])')"
"$WINNOW" mark "$v1" 1 false-positive --note "callers pass at most GIZMO_RING_SIZE"
"$WINNOW" mark "$v1" 2 valid

"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "v2 #1, reworded on the same code, takes v1 #1's verdict; v2 #2 nothing" \
	"[[\"$v2\",1,\"false-positive\",\"$v1\",1,\"callers pass at most GIZMO_RING_SIZE\"]]" \
	"$(jq -c '[.[] | [.review, .finding, .verdict, .from.review, .from.finding, .from.note]]' "$WN_WORLD/dry.json")"
expect_eq "... and says which signals matched: words 0.25 plus the code's 0.35" \
	'[[0.6,"same quoted line and function; summary reworded"]]' \
	"$(jq -c '[.[] | [.from.similarity, .from.why]]' "$WN_WORLD/dry.json")"
text=$("$WINNOW" carry --dry-run)
check "the text says it too" grep -qF "(similarity 0.6000: same quoted line and function; summary reworded)" <<<"$text"

# The review view's "seen before" says it too, and = takes the verdict.
not_on_screen() { ! wn_tui_screen | grep -qF -- "$1"; }
wn_tui_start "'(id:$v2)'"
check "queue on v2" wn_tui_wait "1 review" 30
wn_tui_keys Enter
check "v2 open" wn_tui_wait "finding 1 of 2"
check "v2 #1: seen before on v1" \
	wn_tui_wait "Seen before: false positive on [PATCH v1] gizmo: flush the ring in one go, 2026-12-07  (= takes it)  - same quoted"
check "... and why (the line wraps)" wn_tui_wait "line and function; summary reworded"
wn_tui_keys =
check "= takes v1 #1's verdict" wn_tui_wait "marked finding 1 false-positive, as before, with its note"
wn_tui_keys j
check "v2 #2" wn_tui_wait "finding 2 of 2"
check "v2 #2, another problem: nothing seen before" not_on_screen "Seen before"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_done
