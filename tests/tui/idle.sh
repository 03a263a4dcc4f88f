#!/usr/bin/env bash
# winnow never holds the notmuch write lock while idle: with winnow open
# after it has written a verdict, the lock is free (the probe sees nobody
# holding it) and `notmuch tag` and `notmuch new` go through beside it,
# which they could not if winnow kept the database open for writing
# (they would wait for the lock: timeout turns that into a failure).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
fp_written() { [ -n "$(notmuch search --output=messages tag:winnow/false-positive)" ]; }

wn_tui_start "'(id:$id)'"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_tui_wait "finding 1 of 3" >/dev/null
wn_tui_keys f
check "verdict written" wn_until fp_written
wn_tui_keys q
wn_tui_wait "[queue]" >/dev/null
check "winnow is running" test -n "$(wn_tui_pid)"
check "the lock is free beside idle winnow" wn_until wn_lock_free
check "notmuch tag beside idle winnow" timeout "$WN_WAIT_SECONDS" notmuch tag +idle-test -- "id:$id"
check "notmuch new beside idle winnow" timeout "$WN_WAIT_SECONDS" notmuch new --quiet
check "notmuch tag again" timeout "$WN_WAIT_SECONDS" notmuch tag -idle-test -- "id:$id"
check "the lock is still free" wn_lock_free
wn_tui_keys j
check "winnow still answers" wn_tui_wait "[queue] 1/1"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
