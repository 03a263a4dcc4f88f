#!/usr/bin/env bash
# Another process holds the notmuch write lock (a long `notmuch new`):
# marking stays instant, the UI stays responsive and says how many
# verdicts wait for the lock; once the lock is free they are written.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
tagged() { notmuch search --output=messages "tag:winnow/$1"; }

wn_tui_start "id:$id"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 3"

check "helper holds the lock" wn_hold_lock

wn_tui_keys f
check "mark acknowledged while the lock is held" wn_tui_wait "marked finding 1 false-positive"
check "status says the verdict waits for the lock" wn_tui_wait "1 verdict waiting for the index lock"
expect_eq "not in notmuch while locked" "" "$(tagged false-positive)"
wn_tui_keys j
check "keys still work while locked" wn_tui_wait "finding 3 of 3"

wn_release_lock
check "written once the lock is free" wn_tui_wait "the index lock is free again"
expect_eq "tag set after the lock" "id:$id" "$(tagged false-positive)"
check "lock message gone" bash -c '! grep -q "waiting for the index lock" <<<"$1"' _ "$(wn_tui_screen)"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
