#!/usr/bin/env bash
# The stats' facts kept between runs (src/lib/memory/facts.c: the author
# answered, a later patch, fixed in a later version) are an optimisation
# only: deleted, damaged, unwritable, the disk full, four winnows at
# once, the index changed, a verdict waiting in the journal -- stats
# answers exactly as winnow with no cache does.  How many reviews' facts
# were kept comes from the counter a --enable-test-hooks build appends
# to $WINNOW_TEST_FACTS_LOG.  On the series fixture: its numbers of
# later patches, fixes and answers are not all zero.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/facts-world.sh"
reference() { WINNOW_NO_CACHE=1 stats >"$WN_WORLD/ref" 2>&1; }

run
if [ -z "$(logged misses)" ]; then
	echo "SKIP: winnow built without --enable-test-hooks (no facts counter)"
	exit 77
fi
check "v1 judged" wn_series_judge_v1
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
rm -rf "$XDG_CACHE_HOME"
reference
check "the fixture has later patches and a fix to count" \
	jq -e '.[] | select(.total) | .later_patch > 0 and .fixed_later > 0' "$WN_WORLD/ref"

# --- cold, then warm -----------------------------------------------------------
check "cold: same answers as without a cache" same_answers
check "cold: the facts file is written" test -s "$(factsfile)"
check "no temporary file beside it" \
	bash -c "[ -z \"\$(ls '$XDG_CACHE_HOME/winnow' | grep -Ev '^(parse|facts)-[0-9a-f]{16}\$')\" ]"
run
expect_eq "warm: every review's facts kept" "$reviews 0" "$(logged hits) $(logged misses)"
check "warm: same answers" same_answers

# --- damaged ---------------------------------------------------------------------
rm -f "$(factsfile)"
check "deleted: same answers" same_answers
f=$(factsfile)
truncate -s $(($(stat -c %s "$f") / 2)) "$f"
run
expect_eq "truncated: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"
check "truncated: same answers" same_answers
# One flag byte flipped, the record's length intact: only the checksum
# sees it.  (The last byte: the last record's last finding's flags.)
f=$(factsfile)
size=$(stat -c %s "$f")
printf '\x07' | dd of="$f" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
run
expect_eq "a flag flipped: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"
check "a flag flipped: same answers" same_answers
f=$(factsfile)
head -c 100000 /dev/urandom >"$f"
check "noise for a facts file: same answers" same_answers
printf 'WNFACTS1' >"$f"
check "a header cut short: same answers" same_answers
rm -f "$f"
mkfifo "$f"
check "a FIFO for a facts file: same answers, no wait" same_answers
rm -f "$f"
ln -s /dev/zero "$f"
check "a link to /dev/zero for a facts file: same answers" same_answers
rm -f "$f"

# --- nowhere to write -------------------------------------------------------------
rm -rf "$XDG_CACHE_HOME"
mkdir -p "$XDG_CACHE_HOME"
: >"$XDG_CACHE_HOME/winnow"
check "cache folder cannot be made: same answers" same_answers
rm -f "$XDG_CACHE_HOME/winnow"
# A full disk: writes to files past 1 KiB fail (EFBIG, as ENOSPC would).
# The parse cache's file fails first; the facts file is kept from a run
# before, so that a failed write would be seen to spoil it.
stats >/dev/null
rm -f "$XDG_CACHE_HOME"/winnow/parse-*
f=$(factsfile)
before=$(cksum <"$f")
notmuch tag +facts-test -- "id:$v2"	# a new revision: every fact derived again
WINNOW_NO_CACHE=1 stats >"$WN_WORLD/ref-tagged" 2>&1
full() {
	(trap '' XFSZ; ulimit -f 1; stats 2>&1) | cat >"$WN_WORLD/got"
	return "${PIPESTATUS[0]}"
}
check "disk full: exits 0" full
check "disk full: same answers" cmp -s "$WN_WORLD/ref-tagged" "$WN_WORLD/got"
check "disk full: no temporary file left" \
	bash -c "[ -z \"\$(ls '$XDG_CACHE_HOME/winnow' | grep -Ev '^(parse|facts)-[0-9a-f]{16}\$')\" ]"
if [ "$(stat -c %s "$f")" -gt 1024 ]; then
	check "disk full: the old facts file is left whole" test "$(cksum <"$f")" = "$before"
fi
check "the run after: same answers" cmp -s "$WN_WORLD/ref-tagged" <(stats 2>&1)
notmuch tag -facts-test -- "id:$v2"

# --- the index changed --------------------------------------------------------------
stats >/dev/null
run
expect_eq "unchanged: every fact kept" "$reviews 0" "$(logged hits) $(logged misses)"
# v2's review answered by the patch's author: another revision, and the
# answer counted at once.
before=$(jq '.[] | select(.total) | .author_replied' "$WN_WORLD/ref")
cat >"$mail/cur/facts-reply:2,S" <<EOF
From: Mira Okafor <mira.okafor@example.net>
To: sashiko-bot@kernel.org
Subject: Re: [PATCH v2 2/5] blinker: stop the timer before freeing the ring buffer
Message-ID: <facts-test-reply@example.net>
In-Reply-To: <$v2>
References: <$v2patch2> <$v2>
Date: Wed, 18 Nov 2026 09:00:00 +0000

Thanks, fixed in v3.
EOF
# Settled, as the corpus is: a file changed within two seconds is read
# unsure, and the facts read from it are not kept (by timing alone).
touch -d '2026-01-01 00:00 UTC' "$mail/cur/facts-reply:2,S"
sleep 2
notmuch new --quiet
reference
run
# Only the reviews whose facts the reply could change (the three of
# v2's thread) are derived again (facts-new.sh has the rest).
expect_eq "new mail: only its thread's reviews' facts derived again" "$((reviews - 3)) 3" \
	"$(logged hits) $(logged misses)"
check "new mail: same answers" same_answers
check "... which count the answer" test "$(jq '.[] | select(.total) | .author_replied' "$WN_WORLD/got")" -gt "$before"
# Whether the author answered walked the thread; the series then takes
# the thread's patches from the listing made before the walk (its order
# kept), searching no thread again.
WINNOW_TEST_SERIES_LOG=$WN_WORLD/series.log WINNOW_NO_CACHE=1 stats >/dev/null
expect_eq "the walked thread still serves the series: no thread searched again" 0 \
	"$(sed -n 's/.*thread_searches=\([0-9]*\).*/\1/p' "$WN_WORLD/series.log" | tail -n 1)"

# --- a verdict waiting in the journal ------------------------------------------------
# v1's finding 1 (fixed in v2) judged untriaged, counted (its facts
# kept without asking whether it was fixed: it was not valid), then
# judged valid while the write lock is held: the verdict stays in the
# journal, the index's revision does not move, and the fix must be
# asked for and counted now.
"$WINNOW" mark "$v1" 1 untriaged >/dev/null
stats >/dev/null
check "a helper holds the lock" wn_hold_lock
"$WINNOW" mark --timeout=0.5 "$v1" 1 valid 2>/dev/null
WINNOW_NO_CACHE=1 stats >"$WN_WORLD/ref" 2>&1
run
expect_eq "a pending verdict: every review's facts kept" "$reviews 0" "$(logged hits) $(logged misses)"
check "a pending verdict: same answers" same_answers
expect_eq "... which count the fix" 1 "$(jq '.[] | select(.total) | .fixed_later' "$WN_WORLD/got")"
wn_release_lock
"$WINNOW" sync-journal >/dev/null

# --- two winnows at once ---------------------------------------------------------------
rm -rf "$XDG_CACHE_HOME"
reference
pids=()
for i in 1 2 3 4; do
	(stats >"$WN_WORLD/par$i" 2>&1) &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for i in 1 2 3 4; do
	check "four at once: winnow $i answers as without a cache" cmp -s "$WN_WORLD/ref" "$WN_WORLD/par$i"
done
run
expect_eq "four at once: the file the last one left is whole" "$reviews 0" \
	"$(logged hits) $(logged misses)"

# --- turned off --------------------------------------------------------------------------
rm -rf "$XDG_CACHE_HOME"
WINNOW_NO_CACHE=1 stats >/dev/null
check "WINNOW_NO_CACHE=1 writes no facts" test -z "$(factsfile)"
notmuch config set winnow.cache false
stats >/dev/null
check "winnow.cache false writes no facts" test -z "$(factsfile)"
notmuch config set winnow.cache true
stats >/dev/null
check "winnow.cache true does" test -n "$(factsfile)"
wn_done
