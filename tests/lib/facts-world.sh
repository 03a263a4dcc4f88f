# The world of the facts tests (facts.sh, facts-file.sh): the series
# fixture with its own cache folder, the test hooks' counter of kept
# facts, the mail made old enough to be cached, and the helpers both
# read stats' answers and the counter with.  Sourced after env.sh.
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
export LC_ALL=C.UTF-8 XDG_CACHE_HOME=$WN_WORLD/cache WINNOW_TEST_FACTS_LOG=$WN_WORLD/facts.log
unset WINNOW_NO_CACHE
mail=$WN_WORLD/db/mail
# Files changed within two seconds (mtime or ctime) are never cached:
# make them old, and leave them alone that long (touch sets the ctime).
find "$mail" -type f -exec touch -d '2026-01-01 00:00 UTC' {} +
sleep 2

stats() { "$WINNOW" stats --format=json --by=bot,severity "$@"; }
# Stats now against $WN_WORLD/ref, the answer with no cache.
same_answers() {
	stats >"$WN_WORLD/got" 2>&1 || return 1
	cmp -s "$WN_WORLD/ref" "$WN_WORLD/got" ||
		{ diff "$WN_WORLD/ref" "$WN_WORLD/got" | head -n 20 >&2; return 1; }
}
run() { : >"$WINNOW_TEST_FACTS_LOG"; stats >/dev/null; }
logged() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WINNOW_TEST_FACTS_LOG" | tail -n 1; }
factsfile() { ls "$XDG_CACHE_HOME"/winnow/facts-* 2>/dev/null | head -n 1; }
