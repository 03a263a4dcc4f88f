#!/usr/bin/env bash
# winnow's own writer, slow with nobody else holding the lock (the test
# hook stalls it once it has the lock): it is stopped once the time its
# batch can need is over, and the message says that, never that another
# process holds the lock (issue 18, point 10).
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
wn_done
