#!/usr/bin/env bash
# A verdict given minutes ago is remembered before it reaches notmuch:
# while another process holds the write lock, finding 1 of
# patch 1/2 (carry-sure's v1) is marked valid in the interface; it is in
# the journal only.  Patch 2/2's finding 1 is identical to it: its "seen
# before" names that verdict and = takes it, though notmuch's verdict
# tags know of neither yet.  Once the lock is free both reach notmuch.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-sure"
export LC_ALL=C.UTF-8 TZ=UTC
v1=20261207100000.G1A1@smtp.kernel.org
sib=20261207100500.G3C3@smtp.kernel.org
verdicts() { "$WINNOW" show --format=json "$1" | jq -c '[.findings[].verdict]'; }

check "a helper holds the lock" wn_hold_lock
wn_tui_start "id:$v1 or id:$sib"
check "queue on both" wn_tui_wait "2 reviews"
wn_tui_keys j Enter
check "v1 1/2 open (second in the queue, the newest first)" wn_tui_wait "finding 1 of 3"
wn_tui_keys v
check "finding 1 marked valid" wn_tui_wait "marked finding 1 valid"
expect_eq "... in the journal only" 0 "$(notmuch count tag:winnow/valid)"

# The next patch, in the same session.
wn_tui_keys q
check "back in the queue" wn_tui_wait "[queue] 2/2"
wn_tui_keys k Enter
check "2/2 open" wn_tui_wait "finding 1 of 2"
check "finding 1: seen before, the journaled verdict" \
	wn_tui_wait "Seen before: valid on Re: [PATCH v1 1/2] gizmo: map the rx ring once at start, 2026-12-07  (= takes it)"
wn_tui_keys =
check "= takes it" wn_tui_wait "marked finding 1 valid, as before"
expect_eq "notmuch still has neither" 0 "$(notmuch count tag:winnow/valid)"
expect_eq "show reads both from the journal: v1" '["valid","untriaged","untriaged"]' "$(verdicts "$v1")"
expect_eq "... and 2/2" '["valid","untriaged"]' "$(verdicts "$sib")"

wn_release_lock
check "written once the lock is free" wn_tui_wait "the index lock is free again"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "both in notmuch" 2 "$(notmuch count tag:winnow/valid)"
wn_done
