#!/usr/bin/env bash
# A review whose subject and body carry terminal escapes (CSI colour and
# clear-screen, an OSC window title "pwned", CR, backspaces): nothing of
# it may reach the terminal.  The raw bytes winnow writes to the pty are
# recorded with pipe-pane while the queue and the review are drawn.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8

id=20261104131907.E5C4FC4CED0@smtp.kernel.org
raw=$WN_WORLD/raw.log
check "the corpus mail really is hostile" grep -q '=1B]0;pwned=07' \
	"$WN_TOP_SRCDIR/tests/corpus/demo/22-sashiko-c2-hostile.eml"

wn_tui_start
wn_tui_wait "reviews" >/dev/null
tmux -L "$WN_TMUX_SOCKET" pipe-pane -t t -o "cat >> '$raw'"
# Ctrl-L repaints the whole queue into the recording.
wn_tui_keys C-l / "clamp the batch" Enter Enter
check "hostile review opens" wn_tui_wait "finding 1 of 2"
screen=$(wn_tui_screen)
check "subject shown without the escapes" grep -qE \
	'^winnow — Sashiko review — Re: \[PATCH bpf-next v2 2/2\] bpf: clamp the batch count in quux_map_lookup_batch\(\) +2 findings' <<<"$screen"
check "summary shown without the colour codes" grep -qE \
	'^ +1 High +untriaged +The copy offset i \* map->value_size is computed in u32 and can wrap *$' <<<"$screen"
check "comment text around the escapes kept" grep -qF \
	"i * map->value_size is evaluated in u32. With a large" <<<"$screen"
wn_tui_keys j
check "second finding shown" wn_tui_wait "finding 2 of 2"
screen=$(wn_tui_screen)
# Removed controls leave a space: backspaces cannot rub out text, and a
# CR between two sentences does not join them.
check "CR and backspaces dropped from the summary" grep -qF \
	"The clamped count is written back to user space without telling the caller it was reduced ." <<<"$screen"
check "comment with CR: the sentences stay apart" grep -qF \
	"end of the function. Callers that compare the returned count" <<<"$screen"
check "no 'pwned' on the screen" bash -c '! grep -q pwned <<<"$1"' _ "$(wn_tui_screen)"
wn_tui_keys Space k q
wn_tui_wait "[queue]" >/dev/null
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
tmux -L "$WN_TMUX_SOCKET" pipe-pane -t t

check "raw output recorded" test -s "$raw"
check "raw output holds the review" grep -qF "clamp the batch count" "$raw"
check "no OSC title sequence written" bash -c '! grep -qF "]0;pwned" "$1"' _ "$raw"
check "no OSC sequence at all" bash -c '! grep -qP "\x1b\]" "$1"' _ "$raw"
check "no 'pwned' written at all" bash -c '! grep -qF pwned "$1"' _ "$raw"
check "no BEL written" bash -c '! grep -qP "\x07" "$1"' _ "$raw"
check "no red from the mail (ESC[31m)" bash -c '! grep -qF "$(printf "\033[31mThe copy")" "$1"' _ "$raw"
title=$(tmux -L "$WN_TMUX_SOCKET" display -p -t t '#{pane_title}')
check "pane title untouched (not pwned)" bash -c '[[ "$1" != *pwned* ]]' _ "$title"
wn_done
