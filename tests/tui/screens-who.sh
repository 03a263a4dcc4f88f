#!/usr/bin/env bash
# Who answered a review, and newcomers, whole screens
# (tests/tui/screens/screens-who/) on tests/corpus/who: the queue's
# marks (A: the patch's author answered, h: another human; n: a
# newcomer's patch), o's newcomer order, the review's header (the
# author's answer, the newcomer) and r listing the answers to the review
# first.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/who"

wn_screen_start 80 24
wn_tui_wait "[queue] 1/2" >/dev/null
wn_screen queue-80x24
wn_screen queue-80x24 color
wn_tui_keys o o o o
wn_tui_wait "by newcomer" >/dev/null
wn_screen sort-newcomer-80x24
wn_tui_keys o
wn_tui_wait "by date" >/dev/null

# Nina's review: she answered the maintainer who answered the bot.
wn_tui_keys j Enter
wn_tui_wait "finding 1 of 1" >/dev/null
wn_screen review-author-80x24
wn_screen review-author-80x24 color
wn_tui_keys r
wn_tui_wait "[thread] 1/2" >/dev/null
wn_screen replies-author-80x24
wn_tui_keys q q

# Victor's: the maintainer answered the review, a reviewer the patch.
wn_tui_keys k Enter
wn_tui_wait "finding 1 of 1" >/dev/null
wn_screen review-human-80x24
wn_tui_keys r
wn_tui_wait "[thread] 1/2" >/dev/null
wn_screen replies-human-80x24
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
