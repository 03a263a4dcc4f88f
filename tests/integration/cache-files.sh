#!/usr/bin/env bash
# The caches (the parsed reviews, src/lib/index/cache.c; stats' facts,
# src/lib/memory/facts.c) and what notmuch does not see: a
# mail rewritten in place with its inode, size and mtime kept (dd
# conv=notrunc, then touch -r: as cp -p or rsync --inplace -t do), and
# a mail file removed without `notmuch new`.  list, stats and export
# answer exactly as winnow with no cache does, in JSON, byte for byte.
# On the series fixture: its later patches and fixes count in stats.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
export WINNOW_TEST_FACTS_LOG=$WN_WORLD/facts.log
settle

answers() {
	"$WINNOW" list --format=json && "$WINNOW" stats --format=json --by=bot,severity &&
		"$WINNOW" export --format=json
}
# (cache-world.sh's reference and same_answers, over these answers.)
facts_logged() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WINNOW_TEST_FACTS_LOG" | tail -n 1; }
# warm: a run of the three from the caches, which it then hit.
warm() {
	answers >/dev/null 2>&1
	: >"$WINNOW_TEST_CACHE_LOG"
	: >"$WINNOW_TEST_FACTS_LOG"
	answers >/dev/null 2>&1
	test "$(logged misses)" = 0 && test "$(facts_logged misses)" = 0 &&
		test "$(facts_logged hits)" -gt 0
}
# identity PATH: what the rewrites below keep.
identity() { stat -c '%i %s %Y' "$1"; }
# rewrite_in_place PATH FROM TO: FROM changed to TO (as long) in the
# file's bytes, over them, and its mtime put back; then left alone for
# two seconds, so that only the change time tells (a file changed
# within two seconds is never taken as unchanged).
rewrite_in_place() {
	local was
	cp -p "$1" "$WN_WORLD/saved"
	was=$(identity "$1")
	sed "s/$2/$3/" "$1" >"$WN_WORLD/rewritten"
	dd if="$WN_WORLD/rewritten" of="$1" conv=notrunc 2>/dev/null
	touch -r "$WN_WORLD/saved" "$1"
	sleep 2
	test "$(identity "$1")" = "$was" && ! cmp -s "$1" "$WN_WORLD/saved"
}
file_of() { notmuch search --output=files "id:$1" | head -n 1; }
later() { "$WINNOW" stats --format=json | jq '.[] | select(.total) | .later_patch'; }

# fresh: each case from caches made anew over the fixture as it is,
# warm, so that one case's failure spoils no other.
fresh() {
	rm -rf "$XDG_CACHE_HOME"
	settle
	reference
	check "$1: warm caches, same answers" same_answers
	check "$1: every review and its facts from the caches" warm
}

need_cache_counter
check "v1 judged" wn_series_judge_v1
reference
check "the fixture counts later patches" test "$(WINNOW_NO_CACHE=1 later)" -gt 0
check "cold: same answers as without the caches" same_answers

# --- rewritten in place ----------------------------------------------------------
# A review: a finding's words.
fresh "a review"
f=$(file_of "$v2")
check "a review rewritten in place, inode, size and mtime kept" \
	rewrite_in_place "$f" 'bl->buf' 'bl->BUF'
reference
check "... the answers without the caches show it" grep -q 'bl->BUF' "$WN_WORLD/ref"
check "a review rewritten in place: same answers" same_answers
cp -p "$WN_WORLD/saved" "$f"
reference
check "... put back: same answers" same_answers

# The same with stats first (no list before it to put the new parse in
# the cache): in one pass the facts check the file at their open and
# the parse cache checks it again, by what the facts found.
fresh "a review, stats first"
stats_only() { "$WINNOW" stats --format=json --by=bot,severity; }
before=$(WINNOW_NO_CACHE=1 stats_only)
f=$(file_of "$v2")
check "a review's severities rewritten in place" rewrite_in_place "$f" 'High' 'Lows'
after=$(WINNOW_NO_CACHE=1 stats_only)
check "... stats without the caches show it" test "$before" != "$after"
check "... stats first, from the caches: the same" test "$(stats_only)" = "$after"
cp -p "$WN_WORLD/saved" "$f"
reference
check "... put back: same answers" same_answers

# A later patch of v1's series (4/5 changes blinker_irq(), of v1's
# finding 2): the function it changes renamed.
fresh "a later patch"
before=$(WINNOW_NO_CACHE=1 later)
f=$(file_of 20261110-blinker-teardown-v1-4-9a8b7c6d5e4f@example.net)
check "a later patch rewritten in place" rewrite_in_place "$f" 'blinker_irq(' 'blinker_irx('
reference
check "... the answers without the caches count fewer later patches" \
	test "$(WINNOW_NO_CACHE=1 later)" -lt "$before"
check "a later patch rewritten in place: same answers" same_answers
cp -p "$WN_WORLD/saved" "$f"
reference
check "... put back: same answers" same_answers

# --- removed without notmuch new -----------------------------------------------------
fresh "a later patch removed"
before=$(WINNOW_NO_CACHE=1 later)
cp -p "$f" "$WN_WORLD/later-patch"
rm "$f"
reference
check "a later patch removed: the answers without the caches count fewer later patches" \
	test "$(WINNOW_NO_CACHE=1 later)" -lt "$before"
check "a later patch removed: same answers" same_answers
check "... again" same_answers
# Back, as it was: what was derived while it was gone no longer holds.
cp -p "$WN_WORLD/later-patch" "$f"
reference
check "the later patch back: same answers" same_answers
settle
check "... and the caches kept again" warm
check "... with the same answers" same_answers

fresh "a review removed"
f=$(file_of "$v2")
rm "$f"
reference
check "a review removed: same answers" same_answers
check "... again" same_answers
wn_done
