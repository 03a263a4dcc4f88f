#!/usr/bin/env bash
# A reader that opened the index just before another winnow's verdict
# was written: by the time it reads the journal, the writer has
# committed the verdict and journaled it as applied.  The reader shows
# the verdict all the same -- neither the journal's pending decision
# nor an index that predates the commit may hide it.  The reader is
# held between the two steps by a hook of --enable-test-hooks builds
# ($WINNOW_TEST_JOURNAL_GATE).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_need_test_hooks
wn_world
export LC_ALL=C.UTF-8 WINNOW_NO_CACHE=1
review=20261102102030.4B7D1C4CEE5@smtp.kernel.org
gate=$WN_WORLD/gate
verdict() { jq -r '.findings[0].verdict' "$1"; }

WINNOW_TEST_JOURNAL_GATE=$gate "$WINNOW" show --format=json "$review" >"$WN_WORLD/show.json" &
reader=$!
check "the reader opened the index and waits" wn_until test -e "$gate.waiting"
check "meanwhile another winnow marks the finding valid" "$WINNOW" mark "$review" 1 valid
check "... and its writer journaled the verdict as applied" \
	grep -q '"op": *"applied"' "$XDG_STATE_HOME"/winnow/journal*
touch "$gate"
check "the reader ends well" wait "$reader"
expect_eq "the reader shows the verdict" valid "$(verdict "$WN_WORLD/show.json")"
"$WINNOW" show --format=json "$review" >"$WN_WORLD/after.json"
expect_eq "as a reader opened after does" valid "$(verdict "$WN_WORLD/after.json")"

wn_done
