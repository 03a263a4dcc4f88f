#!/usr/bin/env bash
# Why a false positive, and what the bot missed, at 80x24
# (tests/tui/screens/reason/): f asks for the reason with one key per
# reason, the key picks it and it is stored with the verdict; Enter
# skips it; winnow.ask_reason=false never asks.  M records a missed bug
# on the review (and from the queue), which winnow stats counts.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world
notmuch config set winnow.ask_reason true
# A missed bug is shown with the day it was recorded: today.
export WN_SCREEN_FILTER='s/Missed by the bot ([0-9-]*)/Missed by the bot (DAY)/g'
frob1=20261102102030.4B7D1C4CEE5@smtp.kernel.org
show() { "$WINNOW" show --format=json "$frob1" | jq -c "$1"; }

wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys G Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_tui_keys f
check "f asks why" wn_tui_wait "Why FP?"
wn_screen reason-prompt-80x24
wn_tui_keys w
check "w picks wrong-rule" wn_tui_wait "marked false-positive, wrong-rule"
expect_eq "stored beside the verdict" '["false-positive","wrong-rule"]' "$(show '.findings[0] | [.verdict, .reason]')"
wn_tui_keys k
wn_tui_wait "finding 1 of 2" >/dev/null
wn_screen reason-shown-80x24
# Enter skips: the verdict without a reason.
wn_tui_keys j f
wn_tui_wait "Why FP?" >/dev/null
wn_tui_keys Enter
check "Enter marks without a reason" wn_tui_wait "marked finding 2 false-positive"
expect_eq "no reason on finding 2" '["false-positive",null]' "$(show '.findings[1] | [.verdict, .reason]')"
# M: what the bot missed.
wn_tui_keys M
check "M asks what was missed" wn_tui_wait "What did the bot miss?"
wn_tui_keys "irq not masked on resume"
wn_screen missed-typing-80x24
wn_tui_keys Enter
check "M records it" wn_tui_wait "recorded: Sashiko missed 1 bug on this review"
expect_eq "show lists it" '"irq not masked on resume"' "$(show '.missed[0].note')"
wn_tui_keys M
wn_tui_wait "What did the bot miss?" >/dev/null
wn_tui_keys Escape
check "Esc records nothing" wn_tui_wait "nothing recorded"
wn_tui_keys q
wn_tui_wait "[queue]" >/dev/null
wn_tui_keys g M
wn_tui_wait "What did the bot miss?" >/dev/null
wn_tui_keys "leak on probe failure" Enter
check "M from the queue" wn_tui_wait "recorded: Sashiko missed 1 bug on this review"
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
expect_eq "stats counts both misses for the bot" 2 \
	"$("$WINNOW" stats --format=json | jq '.[] | select(.bot == "sashiko") | .missed')"

# Wide: the names themselves, each one's first letter its key.
wn_screen_start 200 50
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys Enter
wn_tui_wait "finding 1 of" >/dev/null
wn_tui_keys f
check "at 200 columns the prompt names every reason" \
	wn_tui_wait "Why false positive? m misread-code  w wrong-rule  h handled-elsewhere  a already-fixed  i intended  c config  d duplicate  s style  Enter: no reason"
wn_screen reason-prompt-200x50
wn_tui_keys s
check "s picks style" wn_tui_wait "marked false-positive, style"
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

# A key that is no reason's keeps the prompt open and says so; what is
# typed after it stays on the line (a word never runs commands: its a,
# p, d... would annotate, mark, open the diff), Enter takes a name.
bpf2=20261104-quux-map-fixes-v2-1-0f4e7d21c9ab@example.com
bpf2_review=$("$WINNOW" show --format=json "$bpf2" | jq -r '.[0].id // .id')
showb() { "$WINNOW" show --format=json "$bpf2_review" | jq -c "$1"; }
wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys g j Enter
wn_tui_wait "finding 1 of" >/dev/null
wn_tui_keys f
wn_tui_wait "Why FP?" >/dev/null
wn_tui_keys x
check "x: not a reason key, said, the prompt open" wn_tui_wait "'x' is no reason key"
wn_screen reason-unknown-80x24
wn_tui_keys "apd" Enter
check "Enter on no reason's word: said, still open" wn_tui_wait "no reason 'xapd'"
wn_tui_keys "wrong-rule" Enter
check "a name typed out picks it" wn_tui_wait "marked false-positive, wrong-rule"
expect_eq "the word ran no command: finding 1 false positive, no note" \
	'["false-positive","wrong-rule",null]' "$(showb '.findings[0] | [.verdict, .reason, .note]')"
wn_tui_keys j f
wn_tui_wait "Why FP?" >/dev/null
wn_tui_keys z Escape
check "Esc after a stray key: marked without a reason" wn_tui_wait "marked finding 2 false-positive"
expect_eq "no reason, nothing else done" '["false-positive",null]' "$(showb '.findings[1] | [.verdict, .reason]')"
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

# Turned off: f marks at once.
notmuch config set winnow.ask_reason false
wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys G Enter
wn_tui_wait "finding 1 of" >/dev/null
# It is a false positive already (f on it would change nothing): u first.
wn_tui_keys u
wn_tui_wait "marked finding 1 untriaged" >/dev/null
wn_tui_keys k
wn_tui_wait "finding 1 of" >/dev/null
wn_tui_keys f
check "winnow.ask_reason=false: marked without asking" wn_tui_wait "marked finding 1 false-positive"
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
