#!/usr/bin/env bash
# The queue opens the cache of parsed reviews only once it reads every
# review: opening it reads the index of the whole cache file,
# which at 300,000 messages cost more than the first screen itself.  A
# screenful is parsed from the mails, and nothing is written; an order
# that reads every review opens it, and writes it; the rows are the same
# with the cache as without.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8 TZ=UTC
wn_world
export XDG_CACHE_HOME=$WN_WORLD/cache WINNOW_TEST_CACHE_LOG=$WN_WORLD/cache.log
unset WINNOW_NO_CACHE
# Files changed in the last two seconds (mtime or ctime) are never
# cached: old mail, left alone that long (touch sets the ctime).
find "$WN_WORLD/db/mail" -type f -exec touch -d '2026-01-01 00:00 UTC' {} +
sleep 2
logged() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WINNOW_TEST_CACHE_LOG" | tail -n 1; }
cachefile() { ls "$XDG_CACHE_HOME"/winnow/parse-* 2>/dev/null | head -n 1; }
# 80x6: the first screen reads three of the nine reviews.
run() { wn_script_run 80x6 "$@"; }

check "the first screen drawn" run first ":wait-for reviews" ":save-display $WN_WORLD/first"
check "... its rows read" grep -qE '\] [0-9]+/[0-9]+ ' "$WN_WORLD/first"
check "... and no cache opened, nor written" test -z "$(cachefile)"

check "sorted by severity (every review read)" run sorted o ":wait" ":save-display $WN_WORLD/sorted"
check "... writes the cache" test -n "$(cachefile)"
: >"$WINNOW_TEST_CACHE_LOG"
check "sorted again, from the cache" run cached o ":wait" ":save-display $WN_WORLD/cached"
# (The counter is a --enable-test-hooks build's.)
if [ -s "$WINNOW_TEST_CACHE_LOG" ]; then
	check "... every review a hit" test "$(logged misses)" = 0 -a "$(logged hits)" -gt 0
fi
check "... the same rows" cmp -s "$WN_WORLD/sorted" "$WN_WORLD/cached"
check "the first screen again, the cache there" run again ":wait-for reviews" ":save-display $WN_WORLD/again"
check "... the same rows" cmp -s "$WN_WORLD/first" "$WN_WORLD/again"
wn_done
