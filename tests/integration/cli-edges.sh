#!/usr/bin/env bash
# mark's usage errors say what is wrong: a change that took
# the wrong branch kept the exit status and passed every other test, saying
# something else.  Usage errors exit 1, as the user's mistakes do.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org

"$WINNOW" mark "$id" 1 > /dev/null 2> "$WN_WORLD/err"
expect_eq "mark without a STATE: exit 1" 1 $?
check "... saying what it wants" grep -q "wants MESSAGE-ID FINDING STATE" "$WN_WORLD/err"
"$WINNOW" mark --note "why" --severity high "$id" 1 > /dev/null 2> "$WN_WORLD/err"
expect_eq "a note with a severity alone: exit 1" 1 $?
check "... saying a note goes with a STATE" grep -q -- "--note goes with a STATE" "$WN_WORLD/err"
wn_done
