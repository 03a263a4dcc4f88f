#!/usr/bin/env bash
# The queue in a real terminal (tmux): the demo reviews with their bots
# and attribution badges, j/k and search move, Enter opens a review with
# its findings and attribution, ? lists the actions, q goes back and Q
# quits with exit status 0.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
# Unicode drawing is part of what is tested: run in a UTF-8 locale.
export LC_ALL=C.UTF-8

wn_tui_start
check "queue drawn" wn_tui_wait "reviews"
screen=$(wn_tui_screen)
count=$("$WINNOW" list --format=json | jq length)
check "title counts the reviews" grep -qE "^winnow — .* — $count reviews" <<<"$screen"
for bot in Sashiko "BPF CI" 0-day; do
	check "bot $bot shown" grep -qF -- "$bot" <<<"$screen"
done
for badge in '[M]' '[G]' '[?]' '[-]'; do
	check "attribution badge $badge shown" grep -qF -- "$badge" <<<"$screen"
done
check "findings counted by verdict" grep -qE ' 3: 3u 0v 0f 0p ' <<<"$screen"
check "RFC 2047 author decoded" grep -qF "Jörg Beispiel" <<<"$screen"
check "context help in the status line" grep -qE '^q:quit Enter:open t:select v:valid f:false-pos p:pre-existing' <<<"$screen"
check "position in the status line" grep -qE "\[queue\] 1/$count *$" <<<"$screen"

wn_tui_keys j j
check "j moves down" wn_tui_wait "[queue] 3/$count"
wn_tui_keys k
check "k moves up" wn_tui_wait "[queue] 2/$count"

# Find the frobnic 2/3 review by searching, then open it.
wn_tui_keys / "free the IRQ" Enter
wn_tui_wait "[queue]" >/dev/null
wn_tui_keys Enter
check "Enter opens the review" wn_tui_wait "finding 1 of 3"
screen=$(wn_tui_screen)
check "review title" grep -qE '^winnow — Sashiko review — Re: \[PATCH v2 2/3\] frobnic' <<<"$screen"
check "patch author and link" grep -qF "Patch: Jörg Beispiel <joerg.beispiel@example.org>" <<<"$screen"
check "linked by in-reply-to" grep -qF "linked by in-reply-to" <<<"$screen"
check "attribution line" grep -qF "AI: none disclosed" <<<"$screen"
check "trailer block" grep -qF "Co-developed-by: Dana Helper" <<<"$screen"
check "findings list" grep -qE '^ +1 High +untriaged +frobnic_remove\(\) now writes' <<<"$screen"
check "pre-existing claim flagged" grep -qE '^ +3 Medium +PRE untriaged' <<<"$screen"
check "location of the finding" grep -qF "drivers/misc/frobnic/core.c:79  in frobnic_remove()" <<<"$screen"
check "quoted code" grep -qF "> -       writel(0, fd->regs + FROBNIC_IRQ_MASK);" <<<"$screen"
check "bot comment" grep -qF "Doesn't this write go to a register window" <<<"$screen"
wn_tui_keys j
check "j: next finding" wn_tui_wait "finding 2 of 3"
wn_tui_keys J
check "J: next finding" wn_tui_wait "finding 3 of 3"
wn_tui_keys K
check "K: previous finding" wn_tui_wait "finding 2 of 3"

wn_tui_keys '?'
check "? opens the help" wn_tui_wait "winnow — help — keys"
screen=$(wn_tui_screen)
# The review's own keys first, the shared ones after them: two pages.
wn_tui_keys Space
wn_tui_wait "[help] 39/" >/dev/null
screen+=$'\n'$(wn_tui_screen)
wn_tui_keys g
for action in move-down mark-valid mark-false-positive mark-pre-existing mark-untriaged undo search limit quit; do
	check "help lists $action" grep -qE "^[^ ].* $action " <<<"$screen"
done
wn_tui_keys q
check "q leaves the help" wn_tui_wait "finding 2 of 3"
wn_tui_keys q
check "q goes back to the queue" wn_tui_wait "[queue]"

# The attribution of a patch with AGENT:MODEL tools.
wn_tui_keys g / "take the device lock" Enter Enter
check "model attribution shown" wn_tui_wait "AI: model  Claude / claude-opus-4-5"
check "Assisted-by trailer shown" grep -qF "Assisted-by:" <<<"$(wn_tui_screen)"
wn_tui_keys q

# Small terminals clip, never crash.
# Each step waits for what winnow draws at 20x5, so the keys reach the
# small terminal and not the big one.
tmux -L "$WN_TMUX_SOCKET" resize-window -t t -x 20 -y 5
check "the queue redrawn at 20x5" wn_tui_wait "winnow — … — 9 revi…"
wn_tui_keys Enter
check "a review at 20x5" wn_tui_wait "?:help  [review] 1/2"
wn_tui_keys q
tmux -L "$WN_TMUX_SOCKET" resize-window -t t -x 120 -y 40
check "still alive after a 20x5 terminal" wn_tui_wait "[queue]"

# l limits the queue by a notmuch query; an empty limit shows all.
wn_tui_keys l
check "l prompts for a query" wn_tui_wait "Limit to (notmuch query, bot:NAME, empty for all):"
wn_tui_keys "from:lkp@intel.com" Enter
check "limited queue" wn_tui_wait "— from:lkp@intel.com — 1 review"
check "only the 0-day review" bash -c '! grep -q "Sashiko" <<<"$1"' _ "$(wn_tui_screen)"
wn_tui_keys l C-u Enter
check "empty limit shows all again" wn_tui_wait "— $count reviews"
wn_tui_keys l Escape
check "Esc cancels the prompt" wn_tui_wait "[queue] 1/$count"

wn_tui_keys Q
check "Q quits with status 0" wn_tui_wait "WINNOW-EXIT=0"

# SIGTERM ends the program through the normal exit path: the terminal
# is restored (the shell's line is visible again) and the status says
# which signal.
tmux -L "$WN_TMUX_SOCKET" kill-server
while tmux -L "$WN_TMUX_SOCKET" has-session 2>/dev/null; do sleep 0.05; done
wn_tui_start
wn_tui_wait "[queue]" >/dev/null
pane_pid=$(tmux -L "$WN_TMUX_SOCKET" display -p -t t '#{pane_pid}')
kill -TERM "$(pgrep -P "$pane_pid" -x winnow || pgrep -P "$pane_pid")"
check "SIGTERM: exit status 143" wn_tui_wait "WINNOW-EXIT=143"
check "SIGTERM: the queue is gone from the screen" bash -c '! grep -qF "[queue]" <<<"$1"' _ "$(wn_tui_screen)"
wn_done
