#!/usr/bin/env bash
# Wide characters (tests/corpus/tui-wide): a CJK author and a subject
# with CJK and an emoji keep the queue's columns aligned and are cut
# whole, never halved, at 80 and 200 columns; a CJK name in the thread
# and the pager; quoted code wider than the pane scrolls sideways with >
# and < instead of being cut; two versions of the patch grouped as a
# series.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/tui-wide"

wn_screen_start 80 24
wn_tui_wait "[queue] 1/2" >/dev/null
wn_screen queue-80x24
wn_screen queue-80x24 color
# v1 and v2 of the patch under one heading, newest version first.
wn_tui_keys o o o
wn_tui_wait "by series" >/dev/null
check "both versions under one heading" wn_tui_wait "(v2 v1, 2 reviews)"
wn_screen series-80x24
wn_tui_keys o o
wn_tui_wait "by date" >/dev/null
wn_tui_keys j Enter
wn_tui_wait "finding 1 of 1" >/dev/null
wn_screen review-80x24
wn_tui_keys '>'
wn_tui_wait "(scrolled)" >/dev/null
wn_screen review-right-80x24
wn_tui_keys '>' '>' '>' '>' '>' '>' '>' '>' '>' '>'
wn_tui_wait "the code ends here" >/dev/null
wn_screen review-right-end-80x24
wn_tui_keys '<' '<' '<' '<' '<' '<' '<' '<' '<' '<' '<' '<'
check "< scrolls back to the start" wn_tui_wait "> -       if (head + n > rb->size)"
wn_tui_keys r
wn_tui_wait "[thread] 1/1" >/dev/null
wn_screen thread-80x24
wn_tui_keys Enter
wn_tui_wait "[mail]" >/dev/null
wn_screen reply-80x24
wn_tui_keys q q c
wn_tui_wait "[diff]" >/dev/null
wn_tui_keys '>' '>' '>' '>' '>' '>'
wn_screen diff-right-80x24
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

# Cut at every width from 60 to 66: the subject loses whole characters.
wn_screen_start 63 10
wn_tui_wait "[queue]" >/dev/null
wn_screen queue-63x10
wn_screen_resize 64 10
wn_tui_wait "1/2" >/dev/null
wn_screen queue-64x10
wn_tui_keys Q

wn_screen_start 200 50
wn_tui_wait "[queue] 1/2" >/dev/null
wn_screen queue-200x50
wn_tui_keys j Enter
wn_tui_wait "finding 1 of 1" >/dev/null
wn_screen review-200x50
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
