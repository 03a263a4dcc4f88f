#!/usr/bin/env bash
# Keys that must not leak: Ctrl-C typed while
# a | command runs stops the command, not winnow; l opens the limit
# prompt from every view that lists or shows reviews, so a query typed
# after it is never read as keys; the prompt offers the current limit
# as a default that the first typed key replaces.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC
not_on_screen() { ! wn_tui_screen | grep -qF -- "$1"; }
# wait_file FILE: until FILE exists (the command started), 30 s at most.
wait_file() {
	local i=0
	while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	[ -e "$1" ]
}
alive() { kill -0 "$1" 2>/dev/null; }
wait_bottom_has() { wn_until bash -c 'tmux -L "$0" capture-pane -p -t t | tail -n 1 | grep -qF -- "$1"' "$WN_TMUX_SOCKET" "$1"; }
# wait_bottom TEXT: until the bottom line reads TEXT exactly (trailing
# blanks aside), 10 s at most.
wait_bottom() {
	local i=0 line
	while [ $i -lt 200 ]; do
		line=$(wn_tui_screen | tail -n 1 | sed 's/ *$//')
		[ "$line" == "$1" ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	echo "  bottom line: $line" >&2
	return 1
}

# --- 19: Ctrl-C in a | command --------------------------------------
wn_tui_start
check "queue drawn" wn_tui_wait "9 reviews" 30
pid=$(wn_tui_pid)
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 2"
wn_tui_keys m
check "the mail open" wn_tui_wait "[mail]"
wn_tui_keys '|'
check "pipe prompt" wn_tui_wait "Pipe the mail to:"
wn_tui_keys -l "echo started > $WN_WORLD/started; exec sleep 30"
wn_tui_keys Enter
check "the command started" wait_file "$WN_WORLD/started"
wn_tui_keys C-c
check "Ctrl-C stopped the command: winnow waits for a key" wn_tui_wait "Press any key to go back to winnow"
wn_tui_keys Space
check "back in winnow's mail view" wn_tui_wait "[mail]"
check "which says the command was interrupted" wn_tui_wait "the command failed (status 130)"
# A key after it is read as a key: winnow did not note the Ctrl-C as
# a request to quit, to act on at its next turn.
wn_tui_keys q
check "q goes back to the review: winnow reads keys still" wn_tui_wait "[review]"
check "winnow is still running" alive "$pid"
check "and did not exit" not_on_screen "WINNOW-EXIT"
wn_tui_keys Q
check "Q quits with 0" wn_tui_wait "WINNOW-EXIT=0"

# --- 18: the limit prompt offers the current limit as a default -------
limit_prompt="Limit to (notmuch query, bot:NAME, empty for all): "
wn_tui_start
check "queue drawn" wn_tui_wait "9 reviews" 30
wn_tui_keys l
check "l asks for a limit" wn_tui_wait "$limit_prompt"
wn_tui_keys -l "bot:lkp"
wn_tui_keys Enter
check "limited to 0-day" wn_tui_wait "limited to: bot:lkp"
wn_tui_keys l
check "the prompt shows the current limit" wait_bottom "${limit_prompt}bot:lkp"
wn_tui_keys -l "bot:sashiko"
check "the first typed key replaced it" wait_bottom "${limit_prompt}bot:sashiko"
wn_tui_keys Enter
check "limited to what was typed, nothing appended" wn_tui_wait "limited to: bot:sashiko"
check "7 Sashiko reviews" wn_tui_wait "7 reviews"
wn_tui_keys l
check "the prompt shows the new limit" wait_bottom "${limit_prompt}bot:sashiko"
wn_tui_keys Enter
check "Enter keeps it" wn_tui_wait "limited to: bot:sashiko"
wn_tui_keys l
check "prompt again" wn_tui_wait "${limit_prompt}bot:sashiko"
wn_tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace
check "Backspace as the first key edits the default" wait_bottom "${limit_prompt}bot:"
wn_tui_keys -l "bpf-ci"
wn_tui_keys Enter
check "the edited limit" wn_tui_wait "limited to: bot:bpf-ci"
wn_tui_keys l
check "prompt again" wn_tui_wait "${limit_prompt}bot:bpf-ci"
wn_tui_keys C-a
wn_tui_keys -l "bot:lkp or "
wn_tui_keys Enter
check "Ctrl-A as the first key edits it too" wn_tui_wait "limited to: bot:lkp or bot:bpf-ci"
check "two reviews" wn_tui_wait "2 reviews"
wn_tui_keys l
check "prompt again" wn_tui_wait "${limit_prompt}bot:lkp or bot:bpf-ci"
wn_tui_keys Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left
wn_tui_keys -l "not "
wn_tui_keys Enter
check "Left as the first key edits it too" wn_tui_wait "limited to: not bot:lkp or bot:bpf-ci"
wn_tui_keys l
check "prompt again" wn_tui_wait "${limit_prompt}not bot:lkp"
wn_tui_keys Escape
check "Esc keeps the limit as it was" wn_tui_wait "[queue]"
check "the prompt is gone" not_on_screen "$limit_prompt"
wn_tui_keys l
check "and the prompt still offers it" wait_bottom "${limit_prompt}not bot:lkp or bot:bpf-ci"
wn_tui_keys Escape
wn_tui_keys Q
check "Q quits with 0" wn_tui_wait "WINNOW-EXIT=0"

# --- 17: l from every view opens the limit prompt ----------------------
# The walkthrough's query typed in a review: "from:..." begins with f,
# which marks a finding false positive when read as a key.
wn_tui_start
check "queue drawn" wn_tui_wait "9 reviews" 30
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 2"
wn_tui_keys l
check "l in a review asks for a limit" wait_bottom "${limit_prompt%% }"
wn_tui_keys -l "from:lkp@intel.com"
check "the query is typed into the prompt" wait_bottom "${limit_prompt}from:lkp@intel.com"
wn_tui_keys Enter
check "the queue is limited" wn_tui_wait "limited to: from:lkp@intel.com"
check "and shown: back to the queue" wn_tui_wait "[queue] 1/1"
wn_tui_keys Enter
check "the 0-day review open" wn_tui_wait "[review]"
wn_tui_keys m
check "its mail" wn_tui_wait "[mail]"
wn_tui_keys l
check "l in the mail view offers the limit" wait_bottom "${limit_prompt}from:lkp@intel.com"
wn_tui_keys -l "bot:sashiko"
wn_tui_keys Enter
check "limited from the mail view" wn_tui_wait "limited to: bot:sashiko"
check "back in the queue, 7 reviews" wn_tui_wait "[queue] 1/7"
wn_tui_keys Enter
check "a review" wn_tui_wait "[review]"
wn_tui_keys c
check "its diff" wn_tui_wait "[diff]"
wn_tui_keys l
check "l in the diff offers the limit" wait_bottom "${limit_prompt}bot:sashiko"
wn_tui_keys -l "bot:bpf-ci"
wn_tui_keys Enter
check "limited from the diff" wn_tui_wait "limited to: bot:bpf-ci"
check "back in the queue, 1 review" wn_tui_wait "[queue] 1/1"
wn_tui_keys S
check "the statistics" wn_tui_wait "[stats]"
wn_tui_keys l
check "l in the statistics offers the limit" wait_bottom "${limit_prompt}bot:bpf-ci"
wn_tui_keys C-u Enter
check "an empty limit from the statistics shows all" wn_tui_wait "showing all reviews"
check "in the queue" wn_tui_wait "[queue] 1/9"
wn_tui_keys H
check "the history" wn_tui_wait "[history]"
wn_tui_keys l
check "l in the history asks for a limit" wait_bottom "${limit_prompt%% }"
wn_tui_keys Escape
check "Esc: the queue, as it was" wn_tui_wait "[queue] 1/9"
wn_tui_keys '?'
check "help" wn_tui_wait "[help]"
wn_tui_keys l
check "l in help asks for a limit" wait_bottom "${limit_prompt%% }"
wn_tui_keys -l "bot:lkp"
wn_tui_keys Enter
check "limited from help" wn_tui_wait "limited to: bot:lkp"
wn_tui_keys Q
check "Q quits with 0" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "no letter of a query was read as a key: nothing marked" '["untriaged"]' \
	"$("$WINNOW" export | jq -c '[.[].verdict] | unique')"
expect_eq "nothing in the journal's history" "" "$("$WINNOW" history 2>&1)"

# l while a draft waits for y: the query goes into the prompt, never to
# the draft's keys (the y of "bot:syzbot" would send it); the draft is
# kept, as P keeps it, and F on the review offers it again.
export WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=keys
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft
export EDIT_DRAFT_LOG=$WN_WORLD/editor.log EDIT_DRAFT_LINE="Edited before l."
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }
fwd=20261102102845.9E02AC4CEF3@smtp.kernel.org
# A query, not a lone id: id:X alone opens the review itself (from-id.sh).
wn_tui_start "'(id:$fwd)'"
check "queue on one review" wn_tui_wait "1 review" 30
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 3"
wn_tui_keys v
check "finding 1 valid" wn_tui_wait "marked finding 1 valid"
wn_tui_keys F
check "the draft waits for y" wn_tui_wait "[forward]"
wn_tui_keys l
check "l in the forward view asks for a limit" wait_bottom "${limit_prompt}(id:$fwd)"
wn_tui_keys -l "bot:syzbot"
wn_tui_keys Enter
check "limited from the forward view" wn_tui_wait "limited to: bot:syzbot"
check "back in the queue" wn_tui_wait "[queue]"
expect_eq "nothing sent" 0 "$(calls)"
check "the draft is kept" grep -qx "Edited before l." "$XDG_STATE_HOME"/winnow/drafts/*.eml
wn_tui_keys l
wn_tui_keys -l "id:$fwd"
wn_tui_keys Enter
check "the review again" wn_tui_wait "limited to: id:$fwd"
wn_tui_keys Enter
check "review open" wn_tui_wait "[review]"
wn_tui_keys F
check "F offers the kept draft" wn_tui_wait "postponed for this review? (n: a new one) (y/n)"
wn_tui_keys n
check "the draft's screen again" wn_tui_wait "[forward]"
wn_tui_keys q
check "q asks before discarding" wn_tui_wait "Discard this draft?"
wn_tui_keys y
check "discarded" wn_tui_wait "draft discarded, nothing sent"
wn_tui_keys Q
check "Q quits with 0" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "still nothing sent" 0 "$(calls)"

# --- ';' then a key that is no verdict names the keys bound now -----
notmuch config set winnow.bind.queue.w mark-valid
notmuch config set winnow.bind.queue.v none
wn_tui_start
check "queue drawn again" wn_tui_wait "9 reviews" 30
wn_tui_keys t '\;' x
check "a bulk mark asks for the bound keys, w not v" wait_bottom_has "; wants w, f, p or u next"
wn_tui_keys Q
check "Q quits" wn_tui_wait "WINNOW-EXIT=0"

wn_done
