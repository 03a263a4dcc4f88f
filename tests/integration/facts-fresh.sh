#!/usr/bin/env bash
# The stats' facts when winnow runs straight after `notmuch new`, as a
# maintainer does: a mail read before it had an identity (changed in
# the last two seconds: core/fileid.h) is noted by its bytes, so that
# the facts are still written and the next run keeps them; a change to
# such a mail's bytes, its size kept, is seen; once it has settled it
# is noted by its identity.  A --enable-test-hooks build moves the clock
# files settle by (WINNOW_TEST_SETTLE_SHIFT), so that "just delivered"
# does not depend on how fast the machine runs.  On the series fixture.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
export WINNOW_TEST_FACTS_LOG=$WN_WORLD/facts.log

facts_logged() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WINNOW_TEST_FACTS_LOG" | tail -n 1; }
stats_counted() { : >"$WINNOW_TEST_FACTS_LOG"; "$WINNOW" stats --format=json >/dev/null; }
kept() { stats_counted; echo "$(facts_logged hits) $(facts_logged misses)"; }
file_of() { notmuch search --output=files "id:$1" | head -n 1; }
# Every file as if delivered a moment ago, or every file old.
fresh() { export WINNOW_TEST_SETTLE_SHIFT=-86400; }
old() { export WINNOW_TEST_SETTLE_SHIFT=86400; }

need_cache_counter
settle
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
later4=20261110-blinker-teardown-v1-4-9a8b7c6d5e4f@example.net
f4=$(file_of "$later4")
reference

# --- every file just delivered: the facts written all the same ---------------------
fresh
stats_counted
expect_eq "just delivered, first run: every fact derived" "0 $reviews" \
	"$(facts_logged hits) $(facts_logged misses)"
expect_eq "... and written: the next run keeps every one" "$reviews 0" "$(kept)"
check "... same answers" same_answers

# --- a new review, just delivered: only what it touches derived, then kept ---------
sed -e "s/^Message-I[Dd]: .*/Message-ID: <fresh-review-v3@smtp.kernel.org>/" \
	"$(file_of "$v3")" >"$mail/cur/fresh-review:2,S"
notmuch new --quiet
got=$(kept)
check "a new review just delivered: some facts kept" test "${got%% *}" -gt 0
check "... its own derived" test "${got##* }" -ge 1
expect_eq "... and written: the next run keeps every one" "$((reviews + 1)) 0" "$(kept)"
reference
check "... same answers" same_answers

# --- a file read just delivered, changed in place (its size kept): seen -----------
# The later patch is read for its hunks; one letter of its message
# changed, its mtime put back, as rsync --inplace -t or cp -p would.
size=$(stat -c %s "$f4")
python3 - "$f4" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
i = b.index(b"\n\n") + 2
b[i] = ord("Q") if b[i] != ord("Q") else ord("R")
open(p, "r+b").write(b)
PY
touch -d '2026-01-01 00:00 UTC' "$f4"
expect_eq "... the size kept" "$size" "$(stat -c %s "$f4")"
expect_eq "a file's bytes changed: nothing kept" "0 $((reviews + 1))" "$(kept)"
check "... same answers" same_answers
expect_eq "... the next run keeps every fact" "$((reviews + 1)) 0" "$(kept)"

# --- settled: noted by its identity from then on -------------------------------------
# While the files count as just delivered, a touch (identity changed,
# bytes the same) keeps every fact; once they have settled, the run
# that sees it notes them by their identity, and a touch is a change.
touch "$f4"
expect_eq "just delivered: a touch keeps every fact" "$((reviews + 1)) 0" "$(kept)"
old
expect_eq "settled: every fact kept" "$((reviews + 1)) 0" "$(kept)"
touch "$f4"
expect_eq "... then noted by identity: a touch derives every fact again" "0 $((reviews + 1))" \
	"$(kept)"
check "... same answers" same_answers
wn_done
