#!/usr/bin/env bash
# Triage at 80x24 (tests/tui/screens/screens-triage/): a note written in
# the line editor (readline keys, a wide character), shown under the
# finding and marked in the list; bulk marks of findings and of reviews
# (t, *, T, ; then a verdict) undone whole by one U, which says what it
# undid and moves there; the history (H) and undo of an older entry.
# Times in the history change from run to run: they are masked.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world
export WN_SCREEN_FILTER='s/[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]/MM-DD HH:MM/g'
frob1=20261102102030.4B7D1C4CEE5@smtp.kernel.org

wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys G Enter
wn_tui_wait "finding 1 of 2" >/dev/null
# The note: typed, then edited in the middle (C-a, Right, a wide char).
wn_tui_keys a
wn_tui_wait "Note on finding 1:" >/dev/null
wn_tui_keys "racy but harmless" C-a Right Right Right Right "漢" C-e " (irq masked)"
wn_screen note-typing-80x24
wn_tui_keys Enter
check "the note is saved" wn_tui_wait "note saved on finding 1"
wn_screen note-saved-80x24
expect_eq "the note reached notmuch" "racy漢 but harmless (irq masked)" \
	"$("$WINNOW" show --format=json "$frob1" | jq -r '.findings[0].note')"
wn_tui_keys a
wn_tui_wait "Note on finding 1: racy" >/dev/null
wn_tui_keys Escape
check "Esc leaves the note as it was" wn_tui_wait "note unchanged"

# Bulk in the review: both findings false positive, then one U.
wn_tui_keys t t
wn_tui_wait "*  2 Low" >/dev/null
wn_screen review-selected-80x24
wn_tui_keys '\;'
wn_tui_wait "mark the 2 selected findings: v, f, p or u?" >/dev/null
wn_tui_keys f
wn_tui_wait "Mark 2 findings false-positive? (y/n)" >/dev/null
wn_screen review-bulk-ask-80x24
wn_tui_keys y
check "bulk mark in the review" wn_tui_wait "marked 2 findings false-positive (U undoes all of it)"
wn_screen review-bulk-done-80x24
wn_tui_keys U
check "one U undoes the batch and says so" wn_tui_wait "undid finding 1 false-positive"
wn_screen review-bulk-undone-80x24
expect_eq "both findings untriaged again" '["untriaged","untriaged"]' \
	"$("$WINNOW" show --format=json "$frob1" | jq -c '[.findings[].verdict]')"
wn_tui_keys q

# Bulk in the queue: two reviews valid, every review selected, none.
wn_tui_keys g t t
wn_tui_wait "[queue] 3/9" >/dev/null
wn_screen queue-selected-80x24
wn_tui_keys '\;' v
wn_tui_wait "Mark all 4 findings of 2 reviews valid? (y/n)" >/dev/null
wn_tui_keys y
check "bulk mark in the queue" wn_tui_wait "marked all 4 findings of 2 reviews valid"
wn_screen queue-bulk-done-80x24
wn_tui_keys '*'
wn_tui_wait "9 reviews selected" >/dev/null
wn_screen queue-all-selected-80x24
# One let go of, then * again: each review selected once, and ; finds
# every one of them.
wn_tui_keys t '*'
check "* after t: each review once" wn_tui_wait "9 reviews selected"
with=$("$WINNOW" list --format=json | jq '[.[] | select((.findings | length) > 0)] | length')
wn_tui_keys '\;' v
check "... and ; marks every one with findings ($with)" wn_tui_wait "of $with reviews valid? (y/n)"
wn_tui_keys n
wn_tui_keys T
wn_tui_wait "selection cleared" >/dev/null

# The history: the newest first; undo the note (an older entry).
wn_tui_keys H
wn_tui_wait "[history] 1/" >/dev/null
wn_screen history-80x24
wn_tui_keys G Enter
check "undo of an older entry says what it undid" wn_tui_wait "undid finding 1 note"
wn_screen history-undone-80x24
expect_eq "the note is gone again" null \
	"$("$WINNOW" show --format=json "$frob1" | jq -r '.findings[0].note')"
wn_tui_keys q
wn_tui_wait "[queue]" >/dev/null
check "the queue's cursor went to the review the undo changed" wn_tui_wait "[queue] 9/9"
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

wn_screen_start 200 50
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys H
wn_tui_wait "[history] 1/" >/dev/null
wn_screen history-200x50
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
