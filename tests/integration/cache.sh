#!/usr/bin/env bash
# The cache of parsed reviews (src/lib/index/cache.c) is an optimisation
# only: whatever happens to it -- deleted, truncated, bytes flipped, its
# folder unwritable, the disk full, two winnows at once, a config
# change, new mail -- list, stats and export answer exactly as winnow
# with no cache does (tests/lib/cache-world.sh: how many reviews were
# parsed, from a --enable-test-hooks build).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
# A syzbot bug report beside the demo's reviews: it answers no patch,
# so its linking searches nothing.
cp "$WN_TOP_SRCDIR/tests/corpus/syzbot-followups/01-report.eml" "$mail/cur/syzbot-report:2,S"
# A review answering a mail the index does not hold (notmuch keeps a
# ghost of it, for the thread): cached all the same.
sed -e 's/^Message-Id: <.*>/Message-Id: <ghost-parent.review@example.org>/I' \
	-e 's/^In-Reply-To: <.*>/In-Reply-To: <not-in-the-index@example.org>/I' \
	"$WN_TOP_SRCDIR/tests/corpus/demo/13-sashiko-b1-netdev-style.eml" >"$mail/cur/ghost-parent:2,S"
notmuch new --quiet
settle

reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
cachefile() { ls "$XDG_CACHE_HOME"/winnow/parse-* 2>/dev/null | head -n 1; }

need_cache_counter
reference

# --- cold, then warm -----------------------------------------------------
check "cold: same answers as without a cache" same_answers
check "cold: the cache file is written" test -s "$(cachefile)"
# (Beside it, stats' facts: tests/integration/facts.sh.)
check "no temporary file is left beside it" \
	bash -c "[ -z \"\$(ls '$XDG_CACHE_HOME/winnow' | grep -Ev '^(parse|facts)-[0-9a-f]{16}\$')\" ]"
run_list
expect_eq "warm: every review from the cache" "$reviews 0" "$(logged hits) $(logged misses)"
check "warm: same answers" same_answers

# --- damaged -------------------------------------------------------------
rm -f "$(cachefile)"
check "deleted: same answers" same_answers
f=$(cachefile)
truncate -s $(($(stat -c %s "$f") / 2)) "$f"
check "truncated to half: same answers" same_answers
run_list
expect_eq "truncated: rebuilt, every review from the cache again" "$reviews 0" \
	"$(logged hits) $(logged misses)"
f=$(cachefile)
# Flip bytes in the middle of the records (not the header: that would
# only be another key).
size=$(stat -c %s "$f")
printf '\xff\x00\xa5\x5a\xff\x00\xa5\x5a' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
printf '\x13\x37' | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null
run_list
check "bytes flipped: those records are misses" test "$(logged misses)" -ge 1
check "bytes flipped: same answers" same_answers
# A letter changed inside a finding's text: only the checksum sees it.
f=$(cachefile)
at=$(grep -abo 'mutex_unlock' "$f" | head -n 1 | cut -d: -f1)
check "a finding's text is in the cache" test -n "$at"
printf 'M' | dd of="$f" bs=1 seek="${at:-0}" conv=notrunc 2>/dev/null
run_list
expect_eq "one letter changed: that record is a miss" 1 "$(logged misses)"
check "one letter changed: same answers" same_answers
head -c 100000 /dev/urandom >"$f"
check "noise for a cache file: same answers" same_answers
printf 'WNCACHE1' >"$f"
check "a header cut short: same answers" same_answers
rm -f "$f"
mkfifo "$f"
check "a FIFO for a cache file: same answers, no wait" same_answers
rm -f "$f"
ln -s /dev/zero "$f"
check "a link to /dev/zero for a cache file: same answers" same_answers
rm -f "$f"

# --- nowhere to write -------------------------------------------------------
rm -rf "$XDG_CACHE_HOME"
mkdir -p "$XDG_CACHE_HOME"
: >"$XDG_CACHE_HOME/winnow"	# a file where the folder should be
check "cache folder cannot be made: same answers" same_answers
check "... and exit 0" "$WINNOW" stats
rm -f "$XDG_CACHE_HOME/winnow"
# A full disk: writes to files past 1 KiB fail (EFBIG, as ENOSPC
# would), and SIGXFSZ is ignored so that the write fails rather than
# kills.  The answers go through a pipe, which has no such limit.
# (Not export: its SARIF spools need the disk, cache or no cache.)
scans() { "$WINNOW" list --format=json && "$WINNOW" stats --format=json; }
full() {
	(trap '' XFSZ; ulimit -f 1; scans 2>&1) | cat >"$WN_WORLD/got"
	return "${PIPESTATUS[0]}"
}
WINNOW_NO_CACHE=1 scans >"$WN_WORLD/ref-scans" 2>&1
check "disk full: exits 0" full
check "disk full: same answers" cmp -s "$WN_WORLD/ref-scans" "$WN_WORLD/got"
# (stats' facts, small, may fit: tests/integration/facts.sh.)
check "disk full: no parse file or temporary file left behind" \
	bash -c "[ -z \"\$(ls '$XDG_CACHE_HOME/winnow' 2>/dev/null | grep -Ev '^facts-[0-9a-f]{16}\$')\" ]"
answers >/dev/null 2>&1
before=$(cksum <"$(cachefile)")
touch -d '2025-01-01 00:00 UTC' "$mail"/cur/05-*
(trap '' XFSZ; ulimit -f 1; "$WINNOW" list --format=json 2>&1) | cat >/dev/null
check "disk full: the old cache file is left whole" test "$(cksum <"$(cachefile)")" = "$before"
settle

# --- two winnows at once ------------------------------------------------------
rm -rf "$XDG_CACHE_HOME"
pids=()
for i in 1 2 3 4; do
	("$WINNOW" list --format=json >"$WN_WORLD/par$i" 2>&1; "$WINNOW" stats --format=json >>"$WN_WORLD/par$i" 2>&1) &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
WINNOW_NO_CACHE=1 "$WINNOW" list --format=json >"$WN_WORLD/par-ref" 2>&1
WINNOW_NO_CACHE=1 "$WINNOW" stats --format=json >>"$WN_WORLD/par-ref" 2>&1
for i in 1 2 3 4; do
	check "four at once: winnow $i answers as without a cache" cmp -s "$WN_WORLD/par-ref" "$WN_WORLD/par$i"
done
run_list
expect_eq "four at once: the file the last one left is whole" "$reviews 0" "$(logged hits) $(logged misses)"

# --- what would change a parse ----------------------------------------------------
notmuch config set winnow.bots "maintainer@example.org"
run_list
expect_eq "a config change: every review parsed again" "0 $reviews" "$(logged hits) $(logged misses)"
reference
check "a config change: same answers as without a cache" same_answers
notmuch config set winnow.bots ""
reference

# --- new mail ---------------------------------------------------------------------
run_list
run_list
expect_eq "before new mail: nothing parsed" "0" "$(logged misses)"
# A review linked by message id holds while those messages are
# unchanged; one whose linking searched the index (by footer or subject,
# or found nothing) also while no message changed since matches one of
# its queries.  A bug report answers no patch and searches nothing.
searched_reviews() {
	"$WINNOW" list --format=json | jq '[.[] | select(.kind != "report" and
		.link != "in-reply-to" and .link != "patch-link" and .link != "references")] | length'
}
check "the world holds a bug report" \
	test "$("$WINNOW" list --format=json | jq '[.[] | select(.kind == "report")] | length')" = 1
searched=$(searched_reviews)
check "the world holds a review linked by a search" test "$searched" -ge 1

# Mail none of those searches matches: nothing is parsed again.
deliver_unrelated
run_list
expect_eq "mail no search matches: nothing parsed, the $searched searched included" \
	0 "$(logged misses)"
reference
check "mail no search matches: same answers" same_answers

# New reviews, copies of the Sashiko ones: only they are parsed.  The
# copy of the review linked by subject repeats the subject it searched
# for, but as a reply, which is no posting of a patch.
n=0
for f in "$mail"/cur/*sashiko*; do
	n=$((n + 1))
	sed "s/^Message-ID: <\\(.*\\)>/Message-ID: <new$n.\\1>/I" "$f" >"$mail/cur/new-$n:2,S"
done
settle
notmuch new --quiet
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
run_list
expect_eq "$n new reviews: only they are parsed" "$n" "$(logged misses)"
reference
check "new reviews: same answers" same_answers

# A tag changed on one review (as a verdict or the user's mail reader
# does): it changed in notmuch, so it is parsed again, and no other.
run_list
first=$("$WINNOW" list --format=json | jq -r '[.[] | select(.link == "in-reply-to")][0].id')
notmuch tag +cache-test -- "id:$first"
run_list
expect_eq "a tag changed: that review alone parsed again" 1 "$(logged misses)"
# The records that held were written at the new revision: the run after
# parses nothing, the retagged review included.
run_list
expect_eq "the run after: nothing parsed" 0 "$(logged misses)"

# The patch a review was linked to by its subject, resent five minutes
# after the first posting: both reviews of that subject (the review and
# its copy) search again, and take the newer posting, as plausible as
# the first (subject-ambiguous).
bysubject=20261104023058.D3ADBC4CEC7@smtp.kernel.org
patch_of() {
	"$WINNOW" list --format=json | jq -r --arg id "$1" '.[] | select(.id == $id) | "\(.link) \(.patch.id)"'
}
expect_eq "a review linked by its subject" \
	"subject 20261104004012.31337-4-alice@example.com" "$(patch_of "$bysubject")"
searched=$(searched_reviews)
sed -e 's/^Message-ID: <.*>/Message-ID: <resent-4@example.com>/I' \
	-e 's/^Date: .*/Date: Tue,  3 Nov 2026 16:45:15 -0800/' \
	"$mail/cur/12-series-b-3:2,S" >"$mail/cur/resent:2,S"
settle
notmuch new --quiet
run_list
expect_eq "the patch resent: the $searched reviews that searched its subject parsed again" \
	"$searched" "$(logged misses)"
reference
check "the patch resent: same answers" same_answers
expect_eq "... which take the resent patch" \
	"subject-ambiguous resent-4@example.com" "$(patch_of "$bysubject")"

# The first posting gone: it was weighed, though not taken, so those
# reviews are parsed again, and are no longer ambiguous.
run_list
rm "$mail/cur/12-series-b-3:2,S"
notmuch new --quiet
reference
check "the first posting gone: same answers" same_answers
expect_eq "... where the resent patch is the only posting" \
	"subject resent-4@example.com" "$(patch_of "$bysubject")"

# A verdict and a note: the answers carry them at once (the review's
# properties changed in notmuch: its record no longer holds).
rm -rf "$XDG_CACHE_HOME"
check "a verdict is written" "$WINNOW" mark "$first" 1 valid
check "mark, one review found by id, reads and writes no cache" test -z "$(cachefile)"
reference
check "a verdict: same answers as without a cache" same_answers
check "... which show it" grep -q '"valid": *1' "$WN_WORLD/got"
check "the verdict taken back" "$WINNOW" mark "$first" 1 untriaged
reference
check "taken back: same answers" same_answers

# A review's file rewritten in place (a finding's words changed): parsed
# again, as its identity changed.
f=$(grep -l 'mutex_unlock' "$mail"/cur/*sashiko* | grep -v /new- | head -n 1)
check "a review names mutex_unlock" test -n "$f"
sed -i 's/mutex_unlock/mutex_release/g' "$f"
touch -d '2025-06-01 00:00 UTC' "$f"
reference
check "a file rewritten: same answers" same_answers

# A patch two reviews answer, rewritten in place (a trailer changed): a
# run reads it once for both (link-memo.c), and both reviews' records
# depend on it all the same.
pid=$("$WINNOW" list --format=json | jq -r '[.[] | select(.patch and
	([.patch.trailers[]?.key] | index("Signed-off-by"))) | .patch.id] |
	group_by(.) | map(select(length > 1)) | .[0][0] // empty')
check "a patch two reviews answer" test -n "$pid"
pf=$(notmuch search --output=files "id:$pid" | head -n 1)
sed -i 's/^Signed-off-by: /Signed-off-by: Rewritten /' "$pf"
touch -d '2025-06-01 00:00 UTC' "$pf"
reference
check "... its trailer changed" grep -q 'Rewritten' "$WN_WORLD/ref"
check "a patch of two reviews rewritten: same answers" same_answers

# --- turned off --------------------------------------------------------------------
rm -rf "$XDG_CACHE_HOME"
WINNOW_NO_CACHE=1 "$WINNOW" stats >/dev/null
check "WINNOW_NO_CACHE=1 writes no cache" test -z "$(cachefile)"
notmuch config set winnow.cache false
"$WINNOW" stats >/dev/null
check "winnow.cache false writes no cache" test -z "$(cachefile)"
notmuch config set winnow.cache true
"$WINNOW" stats >/dev/null
check "winnow.cache true does" test -n "$(cachefile)"
wn_done
