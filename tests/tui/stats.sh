#!/usr/bin/env bash
# The statistics view in a real terminal, compared whole with the
# expected screens in tests/tui/screens (tests/lib/regen-screens.sh
# writes them anew), at 80x24 and 200x50, with NO_COLOR: the same
# numbers as `winnow stats`, b switching the grouping, Enter opening the
# queue on a group's reviews, a mark made there counted on the way
# back, S from any view, ASCII under LANG=C.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/stats-fixture.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world
check "fixture verdicts written" wn_stats_fixture

# The row of a group as the wide screen shows it: reviews, findings,
# valid, false-pos, pre-ex, untriaged, fwd.
screen_row() { wn_screen_capture | grep -E "^$1 +[0-9]" | head -n 1 | sed "s/^$1 *//" | awk '{print $1,$2,$3,$4,$5,$6,$7}'; }
json_row() {
	"$WINNOW" stats --format=json | jq -r --arg b "$1" \
		'.[] | select(if $b == "" then .total else .bot == $b end) |
		 [.reviews, .findings, .valid, ."false-positive", ."pre-existing", .untriaged, .forwarded] | join(" ")'
}

# 200x50: every column; the numbers are `winnow stats`'s.
wn_screen_start 200 50 NO_COLOR=1
wn_screen_settle "[queue]"
wn_screen_keys S
check "S opens the statistics" wn_screen_settle "[stats] 1/4"
wn_screen_expect stats-bot-200x50
expect_eq "Sashiko row = winnow stats" "$(json_row sashiko)" "$(screen_row Sashiko)"
expect_eq "0-day row = winnow stats" "$(json_row lkp)" "$(screen_row 0-day)"
expect_eq "total row = winnow stats" "$(json_row "")" "$(screen_row total)"
expect_eq "false positives on screen = notmuch properties" \
	"$(notmuch dump --include=properties | grep -o 'winnow\.verdict\.[0-9a-f]*=false-positive' | wc -l)" \
	"$(screen_row total | cut -d' ' -f4)"
wn_screen_keys b b
check "b b: grouped by list" wn_screen_settle "grouped by list"
wn_screen_expect stats-list-200x50
wn_screen_keys Q
check "quit with 0" wn_screen_settle "WINNOW-EXIT=0"

# 80x24: the narrow columns, the grouping, a group's queue.
wn_screen_start 80 24 NO_COLOR=1
wn_screen_settle "[queue]"
wn_screen_keys S
wn_screen_settle "[stats] 1/4"
wn_screen_expect stats-bot-80x24
wn_screen_keys b
check "b: grouped by severity" wn_screen_settle "grouped by severity"
wn_screen_expect stats-severity-80x24
wn_screen_keys j j Enter
check "Enter: the queue on the group's reviews" wn_screen_settle "severity: low"
wn_screen_expect stats-low-queue-80x24
# Mark every finding of a review there (C2: high and low); back in the
# statistics the count has it.
wn_screen_keys f
wn_screen_settle "(y/n)"
wn_screen_keys y
check "marked in the group's queue" wn_screen_settle "marked 2 findings false-positive"
wn_screen_keys q
check "back to the statistics" wn_screen_settle "[stats] 3/6"
wn_screen_expect stats-after-mark-80x24
check "the count has the new verdicts" bash -c \
	'"$1" stats --format=json --by=severity | jq -e "[.[] | select(.severity == \"high\" or .severity == \"low\") | .\"false-positive\"] == [2, 2]" >/dev/null' _ "$WINNOW"
# U undoes it from here, and the count follows.
wn_screen_keys U
check "undo from the statistics" wn_screen_settle "undid finding"
wn_screen_expect stats-after-undo-80x24
# S from any view: a review, the help; never a second statistics view.
wn_screen_keys q
wn_screen_settle "[queue]"
wn_screen_keys Enter
wn_screen_settle "[review]"
wn_screen_keys S
check "S from a review" wn_screen_settle "[stats]"
wn_screen_keys '?'
wn_screen_settle "help"
wn_screen_keys S
check "S from the help" wn_screen_settle "[stats]"
wn_screen_keys S q
check "one statistics view at a time: S went back to it, q to the review" wn_screen_settle "[review]"
wn_screen_keys Q
check "quit with 0 again" wn_screen_settle "WINNOW-EXIT=0"

# Grouped by model, the key shows the spellings it groups, as `winnow
# stats` prints them (the trailers corpus: claude-4.6-opus and
# claude-opus-4.6-1m are one model).
bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$WN_TOP_SRCDIR/tests/corpus/trailers" "$WN_WORLD/trailers" >/dev/null
wn_screen_start 200 50 NO_COLOR=1 NOTMUCH_CONFIG="$WN_WORLD/trailers/notmuch-config"
wn_screen_settle "[queue]"
wn_screen_keys S
wn_screen_settle "[stats]"
wn_screen_keys b b b b b
check "b x5: grouped by model" wn_screen_settle "grouped by model"
check "a model's key with the spellings it groups" wn_screen_settle "claude-opus-4.6 (claude-4.6-opus, claude-opus-4.6-1m)"
check "one spelling other than the key shows too" wn_screen_settle "claude-opus-4.5 (claude-opus-4-5)"
wn_screen_keys Q
wn_screen_settle "WINNOW-EXIT=0"

# ASCII under LANG=C: the bars in plain characters.
WN_SCREEN_LOCALE=C wn_screen_start 80 24 NO_COLOR=1
wn_screen_settle "[queue]"
wn_screen_keys S
wn_screen_settle "[stats] 1/4"
wn_screen_expect stats-bot-80x24-ascii
wn_screen_keys Q
wn_screen_settle "WINNOW-EXIT=0"
wn_done
