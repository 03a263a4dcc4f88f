#!/usr/bin/env bash
# Issue 41, whole screens (tests/tui/screens/screens-syz/): a syzbot
# report's review before and after X (its state line "State: invalid"),
# C's picker of the index's other reports (best title match first,
# numbered, over the question) and the duplicate picked.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/syz-reply"
c=000000000000c3d4e5.0003.GAE@google.example.com

wn_screen_start 100 30 -- "(id:$c)"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_screen_settle "finding 1 of 1"
wn_screen review-100x30
wn_tui_keys X
wn_screen_settle "State: invalid"
wn_screen invalid-100x30
wn_tui_keys C
wn_screen_settle "Duplicate of which report?"
wn_screen picker-100x30
wn_tui_keys 1
wn_screen_settle "State: duplicate of"
wn_screen duplicate-100x30
wn_done
