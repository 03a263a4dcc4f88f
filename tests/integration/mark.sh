#!/usr/bin/env bash
# winnow mark: verdicts land as properties and tags in notmuch, survive a
# restart, and user errors are refused with exit 1.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
verdicts() { "$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]'; }
fp() { "$WINNOW" show --format=json "$id" | jq -r ".findings[$1 - 1].fingerprint"; }

"$WINNOW" mark "$id" 1 false-positive; expect_eq "mark exits 0" 0 $?
expect_eq "verdict visible to show" '["false-positive","untriaged","untriaged"]' "$(verdicts)"
expect_eq "tag winnow/false-positive finds the review" "id:$id" \
	"$(notmuch search --output=messages tag:winnow/false-positive)"
check "property stored on the review" bash -c \
	'notmuch dump --include=properties id:'"$id"' | grep -q "winnow.verdict.'"$(fp 1)"'=false-positive"'
expect_eq "not triaged while findings are open" "" "$(notmuch search --output=messages tag:winnow/triaged)"

"$WINNOW" mark "id:$id" 2 pre-existing --note "older than the series"
expect_eq "note stored" "older than the series" \
	"$("$WINNOW" show --format=json "$id" | jq -r '.findings[1].note')"
"$WINNOW" mark "<$id>" 3 valid
expect_eq "all three verdicts" '["false-positive","pre-existing","valid"]' "$(verdicts)"
for t in triaged valid false-positive pre-existing; do
	expect_eq "tag winnow/$t" "id:$id" "$(notmuch search --output=messages tag:winnow/$t)"
done

# The interface's letters name the states too (f, p, v, u), any case;
# a letter that is no state's, or two letters, are refused.
"$WINNOW" mark "$id" 1 f; expect_eq "mark ID 1 f exits 0" 0 $?
"$WINNOW" mark "$id" 2 P; "$WINNOW" mark "$id" 3 u
expect_eq "f, P, u: false positive, pre-existing, untriaged" '["false-positive","pre-existing","untriaged"]' "$(verdicts)"
"$WINNOW" mark "$id" 3 v
expect_eq "v: valid" '["false-positive","pre-existing","valid"]' "$(verdicts)"
"$WINNOW" mark "$id" 3 x 2>/dev/null; expect_eq "a letter of no state is refused" 1 $?
"$WINNOW" mark "$id" 3 fa 2>/dev/null; expect_eq "two letters that are no word are refused" 1 $?
expect_eq "and changed nothing" '["false-positive","pre-existing","valid"]' "$(verdicts)"

"$WINNOW" mark "$id" all untriaged
expect_eq "all back to untriaged" '["untriaged","untriaged","untriaged"]' "$(verdicts)"
expect_eq "tags removed with the verdicts" "" "$(notmuch search --output=messages 'tag:winnow/triaged or tag:winnow/valid or tag:winnow/false-positive or tag:winnow/pre-existing')"
check "properties removed" bash -c '! notmuch dump --include=properties id:'"$id"' | grep -q winnow.verdict'

# undo goes back one action at a time, across processes.
"$WINNOW" mark "$id" 1 valid
"$WINNOW" mark "$id" 2 false-positive
"$WINNOW" undo >/dev/null; expect_eq "undo exits 0" 0 $?
expect_eq "undo reverts the last mark" '["valid","untriaged","untriaged"]' "$(verdicts)"
"$WINNOW" undo >/dev/null
expect_eq "second undo reverts the one before" '["untriaged","untriaged","untriaged"]' "$(verdicts)"
expect_eq "undo restored the tags" "" "$(notmuch search --output=messages tag:winnow/valid)"

# User errors: exit 1, one line on stderr, nothing written.
err=$WN_WORLD/err
"$WINNOW" mark "$id" 1 bogus 2> "$err"; expect_eq "bad state exits 1" 1 $?
expect_eq "bad state: one line" 1 "$(wc -l < "$err")"
"$WINNOW" mark "$id" 9 valid 2> "$err"; expect_eq "finding out of range exits 1" 1 $?
"$WINNOW" mark "$id" 0 valid 2> "$err"; expect_eq "finding 0 exits 1" 1 $?
"$WINNOW" mark "$id" x valid 2> "$err"; expect_eq "finding not a number exits 1" 1 $?
"$WINNOW" mark nosuch@example.org 1 valid 2> "$err"; expect_eq "unknown message exits 1" 1 $?
"$WINNOW" mark 20261104022210.5A5ADC4CEB2@smtp.kernel.org all valid 2> "$err"
expect_eq "review without findings exits 1" 1 $?
# --reason says why a false positive is wrong, so any other
# state with a reason is refused; a repeated --note or --reason is an
# error, never "the last one wins".
for state in valid v pre-existing untriaged; do
	"$WINNOW" mark --reason=style "$id" 1 $state 2> "$err"; expect_eq "--reason with $state exits 1" 1 $?
done
check "it says what --reason goes with" grep -q -- "--reason style goes with false-positive (fp), not untriaged" "$err"
check "in one line" test "$(wc -l < "$err")" -eq 1
"$WINNOW" mark --note a --note b "$id" 1 fp 2> "$err"; expect_eq "--note twice exits 1" 1 $?
check "it says --note is given twice" grep -q -- "--note is given twice" "$err"
"$WINNOW" mark --reason=style --reason=intended "$id" 1 fp 2> "$err"; expect_eq "--reason twice exits 1" 1 $?
check "it says --reason is given twice" grep -q -- "--reason is given twice" "$err"
"$WINNOW" mark --reason=style "$id" 1 fp --reason=style 2> "$err"; expect_eq "even the same reason twice" 1 $?
expect_eq "nothing marked by the errors" '["untriaged","untriaged","untriaged"]' "$(verdicts)"

# One command, one action.  A list or range of findings is
# one journal action and one undo, like 'all'; a verdict with --severity
# too; a mark that changes nothing journals nothing.
actions() { "$WINNOW" history --format=json | jq length; }
before=$(actions)
"$WINNOW" mark "$id" 1-3 fp; expect_eq "a range exits 0" 0 $?
expect_eq "a range is one action" $((before + 1)) "$(actions)"
expect_eq "of three findings" 3 "$("$WINNOW" history --format=json | jq '.[0].changes')"
"$WINNOW" mark "$id" 1,3 valid
expect_eq "a list is one action" $((before + 2)) "$(actions)"
"$WINNOW" undo > /dev/null; expect_eq "one undo of the list" '["false-positive","false-positive","false-positive"]' "$(verdicts)"
"$WINNOW" undo > /dev/null; expect_eq "one undo of the range" '["untriaged","untriaged","untriaged"]' "$(verdicts)"
"$WINNOW" mark --severity=high "$id" 2 valid
expect_eq "a verdict and a severity are one action (after two undos)" $((before + 5)) "$(actions)"
expect_eq "severity stored" 1 "$(notmuch dump --include=properties "id:$id" | grep -c "winnow.severity.$(fp 2)=high")"
"$WINNOW" undo > /dev/null; expect_eq "one undo reverts the verdict" '["untriaged","untriaged","untriaged"]' "$(verdicts)"
expect_eq "and the severity" 0 "$(notmuch dump --include=properties "id:$id" | grep -c "winnow.severity")"
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
size=$(wc -c < "$journal")
"$WINNOW" mark "$id" all u 2> "$err"; expect_eq "marking untriaged findings untriaged exits 0" 0 $?
expect_eq "and writes nothing" "$size" "$(wc -c < "$journal")"
check "and says so" grep -q "nothing to change" "$err"
"$WINNOW" mark "$id" 2 v
"$WINNOW" mark "$id" 1-3 v
expect_eq "a finding valid already is left out of the action" 2 \
	"$("$WINNOW" history --format=json | jq '.[0].changes')"
"$WINNOW" undo > /dev/null
expect_eq "so its undo leaves it valid" '["untriaged","valid","untriaged"]' "$(verdicts)"

# Once each, --reason with false-positive and --note still work, and
# --reason=none (taking a reason away) goes with any state.
"$WINNOW" mark --reason=style --note "once" "$id" 1 fp 2> "$err"; expect_eq "--reason once with fp exits 0" 0 $?
expect_eq "the reason is kept" style "$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].reason')"
expect_eq "and the note" once "$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].note')"
"$WINNOW" mark --reason=none "$id" 1 valid 2> "$err"; expect_eq "--reason=none with valid exits 0" 0 $?
expect_eq "takes the reason away" null "$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].reason')"
expect_eq "and gives the verdict" '["valid","valid","untriaged"]' "$(verdicts)"

wn_done
