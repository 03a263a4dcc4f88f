#!/usr/bin/env bash
# The queue's first screen comes from the newest reviews alone (issue
# 14: it costs the same however many match), and the whole list follows
# by itself: the exact count in the title, G on the oldest review, the
# rows in date order across the two.  60 reviews of the last days, five
# from 2020 and the demo mailbox's nine; at 120x40 the first screen
# needs 40 rows, which the first week holds.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8 TZ=UTC

corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-first.XXXXXX") || exit 99
cp "$WN_TOP_SRCDIR"/tests/corpus/demo/*.eml "$corpus/"
template=$WN_TOP_SRCDIR/tests/corpus/demo/13-sashiko-b1-netdev-style.eml
now=$(date +%s)
review() { # N EPOCH
	sed -e "s/^Date: .*/Date: $(date -u -R -d "@$2")/" \
	    -e "s/^Message-Id: .*/Message-Id: <first-screen-$1@example.org>/" \
	    "$template" > "$corpus/first-$1.eml"
}
for i in $(seq 1 60); do review "$i" $((now - i * 3600)); done
for i in $(seq 61 65); do review "$i" $((1577836800 + i * 60)); done
wn_world "$corpus"
rm -rf "$corpus"

expect_eq "the index holds 74 reviews" 74 "$("$WINNOW" list --format=json | jq length)"

dates() { wn_tui_screen | sed -n '2,$p' | grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}'; }
wn_tui_start
check "then the whole list, counted exactly" wn_tui_wait "74 reviews"
expect_eq "the newest review first" "$(date -u -d "@$((now - 3600))" +%F)" "$(dates | head -1)"
expect_eq "the rows in date order" "$(dates | sort -r)" "$(dates)"
wn_tui_keys G
check "G goes to the last of all 74" wn_tui_wait "74/74"
check "... the oldest, from 2020" wn_tui_wait "2020-01-01"
expect_eq "... in date order there too" "$(dates | sort -r)" "$(dates)"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
