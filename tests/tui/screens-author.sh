#!/usr/bin/env bash
# The queue's author column names the patch's git author
# on tests/corpus/author: Ann, whose patch Bob sent (in-body From);
# Carol through B4 Relay (her name, never "via B4 Relay"); Dan with a
# Reply-To; Ulrike, whose display name carries a comment in
# parentheses: the short form is her name, not "U. Hub)".  The newcomer
# mark counts the git author's patches: Ann has two earlier ones (Bob
# none), Carol one sent through B4 Relay, so at winnow.newcomer 1 theirs
# are the rows without an "n".
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/author"
notmuch config set winnow.newcomer 1

wn_screen_start 80 24
wn_tui_wait "[queue] 1/4" >/dev/null
wn_screen queue-80x24
wn_screen_resize 160 24
wn_tui_wait "[queue] 1/4" >/dev/null
wn_screen queue-160x24
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
