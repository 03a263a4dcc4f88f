#!/usr/bin/env bash
# One problem the bot discusses at several places: the review
# view shows each place with its code above the bot's words there, and d
# steps from place to place, from the last back to the first.  The demo's
# review of frobnic 3/3 raises its first finding at two hunks; its second has
# one place, where d says so and moves nothing.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8 TZ=UTC
wn_world

wn_tui_start
# 100x24: too short for both places of the finding at once
tmux -L "$WN_TMUX_SOCKET" resize-window -t t -x 100 -y 24
check "the queue" wn_tui_wait "[queue] 1/9"
wn_tui_keys G k k
check "the review of frobnic 3/3" wn_tui_wait "[queue] 7/9"
wn_tui_keys Enter
check "... opened" wn_tui_wait "frobnic: check the return value of frobnic_hw_reset()"
check "finding 1" wn_tui_wait "finding 1 of 2"
check "its first place, numbered" wn_tui_wait "Site 1 of 2: drivers/misc/frobnic/core.c:34  in frobnic_hw_reset()"
wn_tui_keys d
check "d: the second place" wn_tui_wait "site 2 of 2"
check "... its heading in view" wn_tui_wait "Site 2 of 2: drivers/misc/frobnic/core.c:66  in frobnic_probe()"
check "... its own code, not only words" wn_tui_wait "ret = frobnic_hw_reset(fd);"
check "... then the words about it" wn_tui_wait "The same pre-existing ordering problem"
# The text scrolled to it: the first place has gone up out of view.
check "... the first place scrolled away" sh -c "! tmux -L '$WN_TMUX_SOCKET' capture-pane -p -t t | grep -qF 'Site 1 of 2'"
wn_tui_keys d
check "d again: back to the first place" wn_tui_wait "site 1 of 2"
check "... shown again" wn_tui_wait "Site 1 of 2: drivers/misc/frobnic/core.c:34"
wn_tui_keys j
check "finding 2" wn_tui_wait "finding 2 of 2"
wn_tui_keys d
check "one place: d says so" wn_tui_wait "the bot discusses this finding at one place"
check "... and draws no site headings" sh -c "! tmux -L '$WN_TMUX_SOCKET' capture-pane -p -t t | grep -qF 'Site 1 of'"
wn_tui_keys Q
check "quits" wn_tui_wait "WINNOW-EXIT=0"
wn_done
