#!/usr/bin/env bash
# winnow's own writer, slow with nobody else holding the lock (the test
# hook stalls it once it has the lock): it is stopped once the time its
# batch can need is over, and the message says that, never that another
# process holds the lock.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_need_test_hooks
wn_world
id=20261102102030.4B7D1C4CEE5@smtp.kernel.org

WINNOW_TEST_STALL_WRITER=1 "$WINNOW" mark --timeout=0.5 "$id" 1 pre-existing 2> "$WN_WORLD/err"
expect_eq "a stalled write exits 2" 2 $?
check "it says the write was slow" grep -q "took longer than" "$WN_WORLD/err"
check "and that winnow stopped its own writer" grep -q "stopped its own writer" "$WN_WORLD/err"
check "it does not blame another process" bash -c '! grep -q "another process" "$1"' _ "$WN_WORLD/err"
check "the verdict is kept" grep -q "kept in the journal" "$WN_WORLD/err"
"$WINNOW" sync-journal > "$WN_WORLD/out"
expect_eq "the verdict is written next time" "1 verdict written" "$(cat "$WN_WORLD/out")"
expect_eq "and is in notmuch" "id:$id" "$(notmuch search --output=messages "id:$id and tag:winnow/pre-existing")"
# Only another process's lock limits a reading command's replay (500 ms
# of it): a write of its own that is slow (a busy machine; here the
# writer stalls once it has the lock) is waited for, never cut short to
# show stale verdicts.  Its budget long gone, list is still waiting when
# timeout stops it.
wn_hold_lock
"$WINNOW" mark --timeout=0.2 "$id" 1 valid 2>/dev/null
wn_release_lock
WINNOW_TEST_STALL_WRITER=1 timeout 5 "$WINNOW" list > /dev/null 2>&1
expect_eq "list waits for its own slow replay (stopped by timeout)" 124 $?
"$WINNOW" list > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "the next list replays it" "id:$id" "$(notmuch search --output=messages "id:$id and tag:winnow/valid")"

wn_done
