#!/usr/bin/env bash
# ? fits the view (tests/tui/screens/help/): the help is
# titled for the view it was opened from and lists that view's keys
# first, then the keys every view shares; a key of another view only
# (the queue's o in the review) is not among the review's own.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world

wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys G Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_tui_keys '?'
check "? in the review: titled for it" wn_tui_wait "help — keys of the review view"
wn_screen review-80x24
screen=$(wn_tui_screen)
own=$(printf '%s\n' "$screen" | sed -n '3,/Keys every view shares/p')
check "the review's keys first: its a (annotate)" grep -q '^a  *Review: write a note' <<<"$own"
check "... before the shared ones" grep -q 'Keys of the review view' <<<"$(printf '%s\n' "$screen" | sed -n 2p)"
check "not the queue's o among them" bash -c '! grep -q "^o " <<<"$1"' _ "$own"
wn_tui_keys / "every view shares" Enter
check "then the keys every view shares" wn_tui_wait "Keys every view shares"
wn_tui_keys / "undo the last" Enter
check "... U among them" wn_tui_wait "Undo the last mark"
wn_tui_keys q q '?'
check "? in the queue: titled for the queue" wn_tui_wait "help — keys of the queue view"
check "... its o listed" wn_tui_wait "Queue: next order"
wn_screen queue-80x24
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null

wn_done
