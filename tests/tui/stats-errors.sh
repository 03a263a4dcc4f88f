#!/usr/bin/env bash
# The statistics view's other errors of the bot,
# on tests/corpus/who (two Sashiko reviews, Nina's answered by Nina):
# each group's missed and author-replied counts, the same numbers as
# `winnow stats --format=json`, and the false positives by reason of
# the group under the cursor; at 80x24 (in tmux too), 200x50, and
# without those columns under 80 columns.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/who"
nina=20261102110000.AAAA1@smtp.kernel.org
victor=20261104110000.BBBB1@smtp.kernel.org

# Nina's finding a false positive for a reason, Victor's without one;
# two bugs the bot missed in Nina's review, one in Victor's.
check "fixture marks" bash -c '"$1" mark "$2" 1 false-positive --reason=misread-code &&
	"$1" mark "$3" 1 false-positive &&
	"$1" missed "$2" --note "leaks the skb" >/dev/null && "$1" missed "$2" --note "double unlock" >/dev/null &&
	"$1" missed "$3" --note "off by one" >/dev/null' _ "$WINNOW" "$nina" "$victor"

# A group's missed and replied on screen (its label a pattern: a long
# one is cut short) (the 80-column row: reviews,
# findings, missed, replied), and in winnow stats.
screen_row() { wn_screen_capture | grep -E "^$1 +[0-9]" | head -n 1 | sed "s/^$1 *//" | awk '{print $1,$2,$3,$4}'; }
json_row() {
	"$WINNOW" stats --format=json --by="$1" | jq -r --arg v "$2" --arg k "$1" \
		'.[] | select(if $v == "" then .total else .[$k] == $v end) |
		 [.reviews, .findings, .missed, .author_replied] | join(" ")'
}
json_reasons() {
	"$WINNOW" stats --format=json --by="$1" | jq -r --arg v "$2" --arg k "$1" \
		'.[] | select(if $v == "" then .total else .[$k] == $v end) | .false_positive_reasons |
		 to_entries | map(select(.value > 0)) |
		 (map(select(.key != "unstated")) + map(select(.key == "unstated"))) |
		 map("\(.key) \(.value)") | join(", ")'
}
screen_reasons() { wn_screen_capture | sed -n "s/^false positives by reason, $1: //p"; }

wn_screen_start 80 24 NO_COLOR=1
wn_screen_settle "[queue]"
wn_screen_keys S
check "S opens the statistics" wn_screen_settle "[stats] 1/2"
wn_screen stats-bot-80x24
expect_eq "Sashiko: missed and replied = winnow stats" "$(json_row bot sashiko)" "$(screen_row Sashiko)"
expect_eq "total: missed and replied = winnow stats" "$(json_row bot "")" "$(screen_row total)"
expect_eq "the numbers themselves: 3 missed, 1 replied" "2 2 3 1" "$(screen_row total)"
expect_eq "Sashiko's reasons = winnow stats" "$(json_reasons bot sashiko)" "$(screen_reasons Sashiko)"
# By author: Nina's group has the reason, Victor's none; the cursor
# picks whose reasons are shown.
wn_screen_keys b b b
check "b b b: grouped by author" wn_screen_settle "grouped by author"
wn_screen stats-author-80x24
nina_addr=$("$WINNOW" stats --format=json --by=author | jq -r '.[0].author')
victor_addr=$("$WINNOW" stats --format=json --by=author | jq -r '.[1].author')
expect_eq "first author: missed and replied = winnow stats" "$(json_row author "$nina_addr")" \
	"$(screen_row 'nina\.newbie@[^ ]*')"
expect_eq "second author: missed and replied = winnow stats" "$(json_row author "$victor_addr")" \
	"$(screen_row "$victor_addr")"
expect_eq "first author's reasons = winnow stats" "$(json_reasons author "$nina_addr")" \
	"$(screen_reasons "$nina_addr")"
wn_screen_keys j
check "j: the second author's reasons" wn_screen_settle "by reason, $victor_addr"
expect_eq "second author's reasons = winnow stats" "$(json_reasons author "$victor_addr")" \
	"$(screen_reasons "$victor_addr")"
wn_screen_keys j
check "j: the total's reasons" wn_screen_settle "by reason, total"
wn_screen stats-author-total-80x24
expect_eq "the total's reasons = winnow stats" "$(json_reasons author "")" "$(screen_reasons total)"
wn_screen_keys Q
check "quit with 0" wn_screen_settle "WINNOW-EXIT=0"

# Every column at 200x50; under 80 columns the bar keeps its room.
wn_screen_start 200 50 NO_COLOR=1
wn_screen_settle "[queue]"
wn_screen_keys S
wn_screen_settle "[stats] 1/2"
wn_screen stats-bot-200x50
wn_screen_resize 70 24
check "70 columns: no missed or replied column" bash -c '! grep -q "missed *replied" <<<"$1"' _ \
	"$(wn_screen_capture)"
wn_screen stats-bot-70x24
wn_screen_keys Q
wn_screen_settle "WINNOW-EXIT=0"

# The same screen in a real terminal.
WN_SCREEN_TMUX=1 wn_screen_start 80 24 NO_COLOR=1
wn_screen_settle "[queue]"
wn_screen_keys S
wn_screen_settle "[stats] 1/2"
wn_screen stats-bot-80x24
wn_screen_keys Q
wn_screen_settle "WINNOW-EXIT=0"
wn_done
