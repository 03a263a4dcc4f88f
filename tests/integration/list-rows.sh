#!/usr/bin/env bash
# Every row of a long list is its own message's, in the search's order.
# Past the first page, list and export read rows by id only, a batch at
# a time, and keep their messages for their loads; a load that parses
# reads the date, subject and sender of the whole batch, one value slot
# after the other (index-load.c, AHEAD).  A mix-up between the rows of a
# batch, or at a batch's edge, would print one review under another's
# headers.  The oracle is notmuch: its order and its headers for the
# same query.  Run cold (every row parsed) and warm (every row from the
# cache).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"

for c in python3 notmuch jq; do
	command -v "$c" >/dev/null || { echo "SKIP: $c not installed"; exit 77; }
done
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-list-rows.XXXXXX")
# bench/gen.py's mail: about one review in five messages, so 1,500 give
# some 300 rows, the first page (128) and several batches (64) after it.
python3 "$WN_TOP_SRCDIR/bench/gen.py" 1500 "$corpus/maildir" >/dev/null ||
	{ echo "gen.py failed" >&2; exit 99; }
for f in "$corpus"/maildir/cur/*; do
	name=${f##*/}
	mv "$f" "$corpus/${name%%:*}.eml"
done
rm -rf "$corpus/maildir" "$corpus/manifest.json"
wn_world "$corpus"
rm -rf "$corpus"
export XDG_CACHE_HOME=$WN_WORLD/cache

q=$("$WINNOW" list --print-query)
want_order=$(notmuch search --output=messages --sort=newest-first "$q" | sed 's/^id://')
rows=$(printf '%s\n' "$want_order" | wc -l)
check "the list is longer than the first page and two batches ($rows rows)" test "$rows" -gt 256

# id, date, subject and sender of each message, sorted by id.
headers='[.[] | {id, date, subject, from}] | sort_by(.id)'
want_headers=$(notmuch show --format=json --body=false --entire-thread=false "$q" |
	jq -S '[.. | objects | select(has("headers") and has("timestamp"))
		| {id, date: .timestamp, subject: .headers.Subject, from: .headers.From}] | sort_by(.id)')

for run in cold warm; do
	out=$WN_WORLD/list-$run.json
	"$WINNOW" list --format=json >"$out"
	expect_eq "$run: list exits 0" 0 $?
	expect_eq "$run: the rows in the search's order" "$want_order" "$(jq -r '.[].id' "$out")"
	expect_eq "$run: each row with its own message's headers" "$want_headers" "$(jq -S "$headers" "$out")"
done
# A review of a series' cover letter places its findings in the files of
# the series' parts.  In a list, a part another review read already
# comes from the run's memo (link-memo.c), and a part read for the cover
# goes there for its own review: the same places as `show`, which reads
# every part afresh.
covers=$(jq -r '.[] | select(.patch.subject // "" | test(" 0/[0-9]+\\]")) | .id' "$WN_WORLD/list-cold.json")
check "reviews of cover letters in the list" test -n "$covers"
places='[.findings[] | {file, path, line, function, fingerprint}]'
for id in $covers; do
	expect_eq "cover review $id: its places as show has them" \
		"$(WINNOW_NO_CACHE=1 "$WINNOW" show --format=json "$id" | jq -c "$places")" \
		"$(jq -c --arg id "$id" ".[] | select(.id == \$id) | $places" "$WN_WORLD/list-cold.json")"
done
check "the warm list came from the cache" test -s "$(ls -d "$XDG_CACHE_HOME"/winnow/* 2>/dev/null | head -1)"
wn_done
