#!/usr/bin/env bash
# What the cache of parsed reviews holds per review over a run
# (src/lib/index/cache.c): its index of the file and what the run wrote
# sit in one table of 16-byte slots keyed by the id's hash, and so do
# the messages changed since its records, never a copy of each id (a wn_map of them was ~170 bytes a review, 46 MiB at
# 600,000 messages).  And two ids of one hash never swap records: the
# answers stay those of no cache.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
# 300 more reviews, each its own id (a copy of one of the demo's).
for i in $(seq 300); do
	sed -e "s/^Message-Id: <.*>/Message-Id: <copy-$i.review@example.org>/I" \
		"$WN_TOP_SRCDIR/tests/corpus/demo/14-sashiko-b2-no-issues.eml" >"$mail/cur/copy-$i:2,S"
done
notmuch new --quiet
settle

need_cache_counter
reference
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
# At most three quarters full, one slot 16 bytes, doubled when full:
# 43 bytes an entry at most.
per_entry() { [ "$(logged ids)" -ge "$reviews" ] && [ "$(logged ids_bytes)" -le $((43 * $(logged ids))) ]; }

run_list
expect_eq "cold: every review parsed and written" "$reviews $reviews" "$(logged misses) $(logged written)"
check "cold: at most 43 bytes held per review ($(logged ids_bytes) for $(logged ids))" per_entry
run_list
expect_eq "warm: every review from the cache" "$reviews 0" "$(logged hits) $(logged misses)"
check "warm: at most 43 bytes held per review ($(logged ids_bytes) for $(logged ids))" per_entry
check "warm: same answers as without a cache" same_answers
# A warm run reads the records in the order the run before wrote them:
# through the window, not a read (two, before) for each one.
run_list
expect_eq "warm: every record read through the window, none alone" "$reviews 0" \
	"$(logged hits) $(logged alone)"
# The same through windows of 16 KiB, more than any record here: the
# file takes several, and each record past a window's end starts the
# next one.
: >"$WINNOW_TEST_CACHE_LOG"
WINNOW_TEST_CACHE_WINDOW=16384 "$WINNOW" list --format=json >/dev/null
expect_eq "warm, 16 KiB windows: every record through a window, none alone" "$reviews 0" \
	"$(logged hits) $(logged alone)"
# One review asked for (a query naming it): its record read alone, not
# a window's worth from where it starts.
: >"$WINNOW_TEST_CACHE_LOG"
"$WINNOW" list --format=json id:copy-150.review@example.org >/dev/null
expect_eq "one review asked for: its record read alone" "1 1" "$(logged hits) $(logged alone)"
# Ten reviews one after the other in the list, so in the file: the
# first read alone, the nine after it through the window.
ten=$("$WINNOW" list --format=json | jq -r '[.[100:110][] | "id:" + .id] | join(" or ")')
: >"$WINNOW_TEST_CACHE_LOG"
"$WINNOW" list --format=json "$ten" >/dev/null
expect_eq "ten in a row asked for: the first alone, the rest through the window" "10 1" \
	"$(logged hits) $(logged alone)"
# The file's records read through small windows (the test hook; 256 KiB
# in use): records longer than a window, and headers and ids across its
# end, each read again from where it starts.  A window every 16 bytes
# from 100 to 3,100, so that some end inside a record's first 24 bytes
# whatever the records' sizes.
small_windows() {
	for w in $(seq 100 16 3100); do
		: >"$WINNOW_TEST_CACHE_LOG"
		WINNOW_TEST_CACHE_WINDOW=$w "$WINNOW" list --format=json >/dev/null &&
			test "$(logged hits) $(logged misses)" = "$reviews 0" || return 1
	done
}
check "warm, small windows: every review from the cache" small_windows
# Every message's tags changed: the cache knows each as changed since
# its records, by key again (a wn_map of their ids was ~100 bytes each).
notmuch tag +winnow-test-all -- '*'
messages=$(notmuch count '*')
run_list
check "all changed: every message known as changed ($(logged changed) of $messages)" \
	test "$(logged changed)" -ge "$messages"
check "all changed: at most 43 bytes held per change ($(logged changed_bytes))" \
	test "$(logged changed_bytes)" -le $((43 * messages))
check "all changed: same answers" same_answers

# --- two ids of one hash --------------------------------------------------
# The test hook keeps one bit of each id's hash: two keys for them all.
# Each key leads to one record, whose id is not the others': they are
# parsed again, never given another's record.
rm -rf "$XDG_CACHE_HOME"
export WINNOW_TEST_CACHE_KEY_BITS=1
check "colliding, cold: same answers as without a cache" same_answers
check "colliding, warm: same answers" same_answers
run_list
check "colliding: at most two records hold, one a key ($(logged hits))" test "$(logged hits)" -le 2
check "colliding, after: same answers" same_answers
unset WINNOW_TEST_CACHE_KEY_BITS

wn_done
