#!/usr/bin/env bash
# The queue, whole screens (tests/tui/screens/screens-queue/): at 80x24
# and 200x50, in colour with the default, light and contrast themes and
# with NO_COLOR, each order o cycles through, the toggles x and z (and
# that they are kept in the notmuch config), J to the next review with
# untriaged findings, a resize, the help at 80x24, and bot:NAME in the
# limit prompt.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world

wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_screen queue-80x24
wn_screen queue-80x24 color
wn_tui_keys o
wn_tui_wait "by severity" >/dev/null
wn_screen sort-severity-80x24
wn_tui_keys o
wn_tui_wait "by untriaged" >/dev/null
wn_screen sort-untriaged-80x24
wn_tui_keys o
wn_tui_wait "by series" >/dev/null
wn_screen sort-series-80x24
wn_screen sort-series-80x24 color
wn_tui_keys o
wn_tui_wait "by newcomer" >/dev/null
wn_screen sort-newcomer-80x24
wn_tui_keys o
wn_tui_wait "by date" >/dev/null

# J skips reviews without untriaged findings (the empty one at row 5).
wn_tui_keys J J J J
wn_tui_wait "[queue] 6/9" >/dev/null
wn_screen next-untriaged-80x24

# z hides reviews without findings, x fully triaged ones; both are kept.
wn_tui_keys z
wn_tui_wait "empty hidden" >/dev/null
wn_screen hide-empty-80x24
check "z is kept in the notmuch config" bash -c '[ "$(notmuch config get winnow.hide-empty)" = true ]'
wn_tui_keys z
wn_tui_wait "showing reviews without findings" >/dev/null

"$WINNOW" mark 20261104021544.C0FFEC4CEA1@smtp.kernel.org all v >/dev/null
wn_tui_keys x
wn_tui_wait "triaged hidden" >/dev/null
wn_screen hide-triaged-80x24
check "x is kept in the notmuch config" bash -c '[ "$(notmuch config get winnow.hide-triaged)" = true ]'
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

# The toggle is remembered by the next run.
wn_screen_start 80 24
wn_tui_wait "triaged hidden" >/dev/null
check "the next run hides triaged reviews too" wn_tui_wait "— 8 reviews, triaged hidden"
wn_tui_keys x
wn_tui_wait "— 9 reviews" >/dev/null

# bot:NAME in the limit prompt.
wn_tui_keys l C-u "bot:0-day" Enter
wn_tui_wait "limited to: bot:0-day" >/dev/null
wn_screen limit-bot-80x24
wn_tui_keys l C-u Enter
wn_tui_wait "showing all reviews" >/dev/null

# A resize redraws at the new size, the cursor where it was.
wn_tui_keys j j
wn_tui_wait "[queue] 3/9" >/dev/null
wn_screen_resize 120 30
wn_tui_wait "2026-11-04" >/dev/null
wn_screen resized-120x30
wn_screen_resize 80 24
wn_tui_wait "Nov 04" >/dev/null

wn_tui_keys '?'
wn_tui_wait "keys of the queue view" >/dev/null
wn_screen help-80x24
wn_tui_keys Space
wn_tui_wait "[help] 23/" >/dev/null
wn_screen help-page2-80x24
wn_tui_keys Space Space
wn_screen help-end-80x24
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

wn_screen_start 200 50
wn_tui_wait "[queue] 1/9" >/dev/null
wn_screen queue-200x50
wn_screen queue-200x50 color
wn_tui_keys o o o
wn_tui_wait "by series" >/dev/null
wn_screen sort-series-200x50
wn_tui_keys '?'
wn_tui_wait "keys of the queue view" >/dev/null
wn_screen help-200x50
wn_tui_keys Q

# Themes and NO_COLOR: where colour matters, the attributes are part of
# the screen.
notmuch config set winnow.theme light
wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_screen queue-light-80x24 color
wn_tui_keys Q
notmuch config set winnow.theme contrast
wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_screen queue-contrast-80x24 color
wn_tui_keys Q
notmuch config set winnow.theme ""
wn_screen_start 80 24 NO_COLOR=1
wn_tui_wait "[queue] 1/9" >/dev/null
wn_screen queue-nocolor-80x24 color
wn_tui_keys Q
wn_done
