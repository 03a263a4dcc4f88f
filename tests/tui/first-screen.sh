#!/usr/bin/env bash
# The queue's first screen comes from the newest reviews alone (issue
# 14: it costs the same however many match), and the whole list follows
# by itself: the exact count in the title, G on the oldest review, the
# rows in date order across the two.  60 reviews of the last days, five
# from 2020 and the demo mailbox's nine; at 120x40 the first screen
# needs 40 rows, which the first week holds.
#
# The first screen is the one winnow draws before any background work
# (WN_SCREEN_FIRST, the first line of its script): its title says "N+
# reviews", N short of the 74, and its rows are the newest, in order.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
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

# The rows' dates (the queue shows full dates at 120 columns).
dates() { sed -n '2,$p' | grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2}'; }
first=$WN_WORLD/first-screen
WN_SCREEN_FIRST=$first wn_screen_start 120 40
check "then the whole list, counted exactly" wn_tui_wait "— 74 reviews"
check "the first screen was saved" test -s "$first"
n=$(head -1 "$first" | sed -n 's/.* \([0-9][0-9]*\)+ reviews.*/\1/p')
check "the first screen's title counts N+ reviews (${n:-none})" test -n "$n"
check "... N short of all 74: read from the newest alone" test "${n:-74}" -lt 74
check "... and a screenful at least" test "${n:-0}" -ge 38
expect_eq "the first screen starts with the newest review" \
	"$(date -u -d "@$((now - 3600))" +%F)" "$(dates < "$first" | head -1)"
expect_eq "its 38 rows are the newest, in date order" \
	"$(for i in $(seq 1 38); do date -u -d "@$((now - i * 3600))" +%F; done)" "$(dates < "$first")"

screen=$(wn_tui_screen)
expect_eq "the whole list: the newest review first" "$(date -u -d "@$((now - 3600))" +%F)" \
	"$(dates <<< "$screen" | head -1)"
expect_eq "the rows in date order" "$(dates <<< "$screen" | sort -r)" "$(dates <<< "$screen")"
wn_tui_keys G
check "G goes to the last of all 74" wn_tui_wait "74/74"
check "... the oldest, from 2020" wn_tui_wait "2020-01-01"
screen=$(wn_tui_screen)
expect_eq "... in date order there too" "$(dates <<< "$screen" | sort -r)" "$(dates <<< "$screen")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

# Started again over the unchanged index: the ids of the first rows the
# run before found (src/lib/index/recent.c), found again by id, the same
# rows and the same count in the title.
WN_SCREEN_FIRST=$first.again wn_screen_start 120 40
check "again, the whole list" wn_tui_wait "— 74 reviews"
check "a file of the first rows was kept" ls "$HOME"/.cache/winnow/first-*
expect_eq "the same first screen from the kept ids" "$(cat "$first")" "$(cat "$first.again")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

# New mail newer than every review, from another bot: the revision moved,
# the kept ids (which all still match) are not the first rows any more.
sed -e "s/^Date: .*/Date: $(date -u -R -d "@$((now - 1800))")/" \
    -e "s/^Message-I[Dd]: .*/Message-Id: <first-screen-new@example.org>/" \
    "$WN_TOP_SRCDIR/tests/corpus/demo/21-bpf-ci-c1.eml" > "$WN_WORLD/db/mail/cur/first-new:2,S"
notmuch new --quiet
WN_SCREEN_FIRST=$first.new wn_screen_start 120 40
check "after new mail, the whole list" wn_tui_wait "— 75 reviews"
check "the first screen's first row is the new review" \
	grep -q "BPF CI" <(sed -n 2p "$first.new")
n2=$(head -1 "$first.new" | sed -n 's/.* \([0-9][0-9]*\)+ reviews.*/\1/p')
expect_eq "... one more in its title than before" "$((n + 1))" "${n2:-none}"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
# winnow's own write moves the revision too: its writer carries the
# kept ids over it, with the messages it changed (recent.c), and the
# next first screen finds them by id, not by date.  With fully triaged
# reviews hidden, the newest review marked valid leaves the queue; marked
# untriaged, it comes back first although the kept ids lack it.
log=$WN_WORLD/first-log
notmuch config set winnow.hide-triaged true
"$WINNOW" mark first-screen-1@example.org all valid > /dev/null
WN_SCREEN_FIRST=$first.hidden wn_screen_start 120 40
check "with the triaged hidden, the whole list" wn_tui_wait "— 74 reviews, triaged hidden"
count() { head -1 "$1" | sed -n 's/.* \([0-9][0-9]*\)+ reviews.*/\1/p'; }
n3=$(count "$first.hidden")
check "its first screen counts N+ reviews (${n3:-none})" test -n "$n3"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
"$WINNOW" mark first-screen-1@example.org all untriaged > /dev/null
WN_SCREEN_FIRST=$first.back wn_screen_start 120 40 WINNOW_TEST_FIRST_LOG="$log"
check "after the mark, the whole list" wn_tui_wait "— 75 reviews, triaged hidden"
expect_eq "the first rows found by their ids, no search by date" "ids" "$(cut -d' ' -f1 "$log")"
expect_eq "... one more than with it hidden: the review marked untriaged" "$((n3 + 1))" "$(count "$first.back")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
rm -f "$HOME"/.cache/winnow/first-* "$log"
WN_SCREEN_FIRST=$first.searched wn_screen_start 120 40 WINNOW_TEST_FIRST_LOG="$log"
check "searched by date, the whole list" wn_tui_wait "— 75 reviews, triaged hidden"
expect_eq "... by date this time" "date" "$(cut -d' ' -f1 "$log")"
expect_eq "the same first screen as the search by date" "$(cat "$first.searched")" "$(cat "$first.back")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
# A review far down, from 2020, hidden and then marked untriaged: it
# comes back at the end of the list, so the rows found by id stop at the
# last kept row, before it; the first screen the same as by date.
"$WINNOW" mark first-screen-61@example.org all valid > /dev/null
WN_SCREEN_FIRST=$first.old wn_screen_start 120 40
check "the old review hidden" wn_tui_wait "— 74 reviews, triaged hidden"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
"$WINNOW" mark first-screen-61@example.org all untriaged > /dev/null
rm -f "$log"
WN_SCREEN_FIRST=$first.old.back wn_screen_start 120 40 WINNOW_TEST_FIRST_LOG="$log"
check "the old review back" wn_tui_wait "— 75 reviews, triaged hidden"
expect_eq "... its first rows found by their ids" "ids" "$(cut -d' ' -f1 "$log")"
expect_eq "... the same first screen as the search by date" "$(cat "$first.searched")" "$(cat "$first.old.back")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
# Each write carries the file on; a review written twice is looked up
# once (the file's fifth line: whole list or not, ids kept, touched).
"$WINNOW" mark first-screen-61@example.org 1 valid > /dev/null
"$WINNOW" mark first-screen-61@example.org 1 untriaged > /dev/null
expect_eq "two writes of one review: one touched id" 1 \
	"$(sed -n 5p "$HOME"/.cache/winnow/first-* | cut -d' ' -f3)"
# With thread: in the query, a message's match hangs on the others of its
# thread, which a write may touch: then every kept id goes through the
# query again, not only the touched ones (recent.c).  The 65 copies (and three of the demo's reviews) share
# the template's thread: one marked valid takes all of them out of
# "not thread:{tag:...valid}", those not touched too.
notmuch config set winnow.hide-triaged false
"$WINNOW" mark first-screen-2@example.org all valid > /dev/null
vtag=$(notmuch search --output=tags id:first-screen-2@example.org | grep -m1 valid)
check "a verdict tag to query (${vtag:-none})" test -n "$vtag"
"$WINNOW" mark first-screen-2@example.org all untriaged > /dev/null
tq="not thread:{tag:$vtag}"
WN_SCREEN_FIRST=$first.thread wn_screen_start 120 40 -- "$tq"
check "not in a thread marked valid: all 75" wn_tui_wait "— 75 reviews"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
"$WINNOW" mark first-screen-2@example.org all valid > /dev/null
rm -f "$log"
WN_SCREEN_FIRST=$first.thread.kept wn_screen_start 120 40 WINNOW_TEST_FIRST_LOG="$log" -- "$tq"
check "one of the thread marked valid: the 68 gone" wn_tui_wait "— 7 reviews"
check "... and none of them on the first screen" \
	test "$(grep -c "avoid double free of rx" "$first.thread.kept")" -eq 0
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
rm -f "$HOME"/.cache/winnow/first-*
WN_SCREEN_FIRST=$first.thread.date wn_screen_start 120 40 -- "$tq"
check "searched by date, the same 7" wn_tui_wait "— 7 reviews"
expect_eq "the same first screen as the search by date" "$(cat "$first.thread.date")" "$(cat "$first.thread.kept")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
