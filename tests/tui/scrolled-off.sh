#!/usr/bin/env bash
# The queue drops the reviews read for rows far off screen and reads
# them again when they come back (memory stays a few screens
# of reviews however far one pages).  On a 3-line terminal (one row) G
# leaves the first rows far behind; back on top, the rows are as they
# were, a verdict marked before leaving included (the write landed, or
# still on its way and laid over), and who answered it read again (as
# for any row come into view: between keys, so the script waits for it).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8 TZ=UTC
wn_world
run() { wn_script_run 120x3 "$@"; }
row() { sed -n 2p "$WN_WORLD/$1"; }

check "first row, then back from the last" run back ":wait-for reviews" ":wait" ":save-display $WN_WORLD/top" \
	G ":wait" ":save-display $WN_WORLD/bottom" g ":wait-for 0p  n Bob Example" \
	":save-display $WN_WORLD/again"
check "... G went to the last review" grep -qF "[queue] 9/9" "$WN_WORLD/bottom"
check "... the first row as it was" test "$(row top)" = "$(row again)"
check "... read (its counts shown)" grep -qE '[0-9]+: +[0-9]+u +[0-9]+v' <<<"$(row again)"

check "marked, then away and back" run mark ":wait-for reviews" v y ":wait" k \
	":save-display $WN_WORLD/marked" G j g ":wait-for 2v 0f 0p  n Bob Example" \
	":save-display $WN_WORLD/back"
check "... the mark shown" grep -qE ' 0u +[1-9][0-9]*v ' <<<"$(row marked)"
check "... and shown again after the row was read again" test "$(row marked)" = "$(row back)"
wn_done
