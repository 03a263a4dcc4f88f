#!/usr/bin/env bash
# The stats' facts after `notmuch new`: only the facts new,
# changed or removed mail could touch are derived again, and list,
# stats and export (JSON) answer byte for byte as winnow with no cache.
# On the series fixture: v1 2/5's finding #2 has a later patch (v1
# 4/5), #1 is fixed in v2 (its 2/5) once judged valid.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
export WINNOW_TEST_FACTS_LOG=$WN_WORLD/facts.log

answers() {
	"$WINNOW" list --format=json && "$WINNOW" stats --format=json --by=bot,severity &&
		"$WINNOW" export --format=json
}
facts_logged() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WINNOW_TEST_FACTS_LOG" | tail -n 1; }
total() { WINNOW_NO_CACHE=1 "$WINNOW" stats --format=json | jq ".[] | select(.total) | .$1"; }
file_of() { notmuch search --output=files "id:$1" | head -n 1; }
# warm: the caches made over the index as it is, then a stats counted.
warm() {
	answers >/dev/null 2>&1
	: >"$WINNOW_TEST_FACTS_LOG"
	"$WINNOW" stats --format=json >/dev/null
}
# stats_counted: a stats, its facts counted.
stats_counted() { : >"$WINNOW_TEST_FACTS_LOG"; "$WINNOW" stats --format=json >/dev/null; }
index_new() { settle; notmuch new --quiet; }

need_cache_counter
# The corpus made old first: a file touched later (settle) is one
# changed, and every fact read from it derived again.
settle
check "v1 judged" wn_series_judge_v1
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
later4=20261110-blinker-teardown-v1-4-9a8b7c6d5e4f@example.net
f4=$(file_of "$later4")
f2=$(file_of "$v2patch2")
check "the fixture counts later patches" test "$(total later_patch)" -gt 0
check "... and fixes" test "$(total fixed_later)" -gt 0

# --- new mail no review's facts read: every fact kept --------------------------
# (Twice: the verdicts just marked reach notmuch from the journal.)
warm
warm
deliver_unrelated
stats_counted
expect_eq "unrelated mail: every fact kept" "$reviews 0" "$(facts_logged hits) $(facts_logged misses)"
reference
check "unrelated mail: same answers" same_answers

# --- a verdict marked, written into notmuch: every fact kept ----------------------
# (Its findings' flags are those asked before: a false positive asks
# nothing.  The run after the mark writes it into notmuch.)
"$WINNOW" mark "$v3" 1 false-positive >/dev/null
"$WINNOW" list --format=json >/dev/null
check "the verdict reached notmuch" bash -c "notmuch dump 'id:$v3' | grep -q false-positive"
stats_counted
expect_eq "a verdict in notmuch: every fact kept" "$reviews 0" "$(facts_logged hits) $(facts_logged misses)"
reference
check "... same answers" same_answers

# --- a later patch removed, then new again ---------------------------------------
before=$(total later_patch)
# The reviews of v1, whose thread the patch is in: theirs the only
# facts it could change.
touched=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json "thread:{id:$later4}" | jq length)
warm
mv "$f4" "$WN_WORLD/later4"
index_new
stats_counted
expect_eq "a later patch removed: only its thread's reviews' facts derived again" \
	"$((reviews - touched)) $touched" "$(facts_logged hits) $(facts_logged misses)"
reference
check "a later patch removed by notmuch new: fewer later patches" \
	test "$(total later_patch)" -lt "$before"
check "... same answers" same_answers
warm
mv "$WN_WORLD/later4" "$f4"
index_new
reference
check "the later patch new again: as many later patches as before" \
	test "$(total later_patch)" = "$before"
check "... same answers" same_answers

# --- a later version removed, then new again (its title searched) ----------------
before=$(total fixed_later)
warm
mv "$f2" "$WN_WORLD/v2patch2"
index_new
stats_counted
check "v2 2/5 removed: some facts kept" test "$(facts_logged hits)" -gt 0
reference
check "v2 2/5 removed: same answers" same_answers
warm
mv "$WN_WORLD/v2patch2" "$f2"
index_new
reference
check "v2 2/5 new again: as many fixes as before" test "$(total fixed_later)" = "$before"
check "... same answers" same_answers

# --- changed: tags ----------------------------------------------------------------------
warm
notmuch tag +facts-new -- "id:$later4" "id:$v2patch2" "id:$v1"
stats_counted
expect_eq "tagged: every fact kept" "$reviews 0" "$(facts_logged hits) $(facts_logged misses)"
reference
check "tagged: same answers" same_answers

# --- an excluded tag: what find_reviews lists changes -----------------------------
# v1's finding #1 is fixed in v2 as v2's and v3's reviews say; those
# with an excluded tag are no reviews any more.  The tag put on first,
# then named in search.exclude_tags (which changes no message), then
# taken off and put on again.
warm
fixes=$(total fixed_later)
notmuch tag +facts-gone -- "id:$v2" "id:$v3"
warm
notmuch config set search.exclude_tags facts-gone
check "v2's and v3's reviews excluded: fewer fixes" test "$(total fixed_later)" -lt "$fixes"
reference
check "... same answers" same_answers
warm
notmuch tag -facts-gone -- "id:$v2" "id:$v3"
check "the excluded tag taken off: as many fixes as before" test "$(total fixed_later)" = "$fixes"
reference
check "... same answers" same_answers
warm
notmuch tag +facts-gone -- "id:$v2" "id:$v3"
check "... put on again: fewer fixes" test "$(total fixed_later)" -lt "$fixes"
reference
check "... same answers" same_answers
notmuch config set search.exclude_tags

# --- winnow.query reading tags: a tag changed changes which mails are reviews ---------
notmuch tag -facts-gone -- "id:$v2" "id:$v3"
notmuch config set winnow.query "not tag:facts-hide"
warm
notmuch tag +facts-hide -- "id:$v2" "id:$v3"
check "a query reading tags, v2's and v3's reviews tagged out: fewer fixes" \
	test "$(total fixed_later)" -lt "$fixes"
reference
check "... same answers" same_answers
# --- a mail's file gone with notmuch new, a copy with another diff left -----------
# The message stays (a file name less: its lastmod moves), and what is
# read of it now is the copy's diff, which changes no function.
notmuch config set winnow.query
warm
before=$(total later_patch)
sed 's/^\(@@ [^@]* @@\).*/\1 blinker_other(void)/' "$f4" >"$mail/cur/zz-later4:2,S"
index_new
check "a copy of the later patch with another diff: as many later patches" \
	test "$(total later_patch)" = "$before"
warm
rm "$f4"
index_new
check "its first file gone: fewer later patches" test "$(total later_patch)" -lt "$before"
reference
check "... same answers" same_answers
wn_done
