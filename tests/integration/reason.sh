#!/usr/bin/env bash
# Why a verdict was given: mark --reason stores it beside the
# verdict as a notmuch property, through the journal (so a verdict kept
# in the journal while another process holds the lock keeps its reason),
# undo restores the reason before, and user errors exit 1.  winnow missed
# records a bug the bot did not report, crash-safe the same way.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
reason_of() { "$WINNOW" show --format=json "$id" | jq -r ".findings[$1 - 1].reason // \"-\""; }
fp() { "$WINNOW" show --format=json "$id" | jq -r ".findings[$1 - 1].fingerprint"; }
err=$WN_WORLD/err

"$WINNOW" mark --reason=wrong-rule "$id" 1 fp 2> "$err"; expect_eq "mark --reason exits 0" 0 $?
expect_eq "show gives the reason" wrong-rule "$(reason_of 1)"
expect_eq "a finding without one has no reason key" - "$(reason_of 2)"
check "the reason is a property beside the verdict" bash -c \
	'notmuch dump --include=properties id:'"$id"' | grep -q "winnow.reason.'"$(fp 1)"'=wrong-rule"'
check "the text of show says it" bash -c '"$0" show "$1" | grep -q "reason: wrong-rule"' "$WINNOW" "$id"

# Same verdict, another reason: a change of its own; undo brings back the first.
"$WINNOW" mark --reason=style "$id" 1 fp 2> "$err"; expect_eq "a new reason on the same verdict exits 0" 0 $?
expect_eq "the new reason" style "$(reason_of 1)"
expect_eq "history says the action gave a reason" style "$("$WINNOW" history --format=json | jq -r '.[0].reason')"
check "and its text" bash -c '"$0" history | head -1 | grep -q "(reason style)"' "$WINNOW"
"$WINNOW" undo > /dev/null; expect_eq "undo exits 0" 0 $?
expect_eq "undo restores the reason before" wrong-rule "$(reason_of 1)"
"$WINNOW" mark --reason=none "$id" 1 fp; expect_eq "--reason=none exits 0" 0 $?
expect_eq "--reason=none removes it" - "$(reason_of 1)"
check "and its property" bash -c '! notmuch dump --include=properties id:'"$id"' | grep -q winnow.reason'

"$WINNOW" mark --reason=bogus "$id" 1 fp 2> "$err"; expect_eq "an unknown reason exits 1" 1 $?
check "the error names it" grep -q "unknown reason 'bogus'" "$err"
"$WINNOW" mark --reason=style --severity=high "$id" 1 2> "$err"; expect_eq "a reason without a state exits 1" 1 $?
check "mark --help lists every reason" bash -c '"$0" mark --help | grep -q "handled-elsewhere"' "$WINNOW"

# Another process holds the lock: the verdict and its reason wait in the
# journal, one line; the writer of the next process puts both in.
check "a helper holds the lock" wn_hold_lock
"$WINNOW" mark --timeout=0.2 --reason=already-fixed "$id" 2 fp 2> "$err"
expect_eq "mark under the lock exits 2" 2 $?
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
check "the journal line carries the reason" grep -q '"already-fixed"' "$journal"
expect_eq "show (from the journal) has it" already-fixed "$(reason_of 2)"
wn_release_lock
expect_eq "written once the lock is free" "1 verdict written" "$("$WINNOW" sync-journal)"
check "the property is in notmuch" bash -c \
	'notmuch dump --include=properties id:'"$id"' | grep -q "winnow.reason.'"$(fp 2)"'=already-fixed"'

# Missed findings.
"$WINNOW" missed "$id" --note "leaks the skb on the error path" 2> "$err"
expect_eq "missed exits 0" 0 $?
expect_eq "show lists it" "leaks the skb on the error path" \
	"$("$WINNOW" show --format=json "$id" | jq -r '.missed[0].note')"
check "it is a property" bash -c 'notmuch dump --include=properties id:'"$id"' | grep -q "winnow.missed."'
check "a wait on the lock keeps it in the journal" wn_hold_lock
"$WINNOW" missed --timeout=0.2 "$id" --note "second one" 2> "$err"; expect_eq "missed under the lock exits 2" 2 $?
expect_eq "both are shown" 2 "$("$WINNOW" show --format=json "$id" | jq '.missed | length')"
wn_release_lock
"$WINNOW" sync-journal > /dev/null
expect_eq "both reach notmuch" 2 \
	"$(notmuch dump --include=properties "id:$id" | tr ' ' '\n' | grep -c '^winnow\.missed\.')"
"$WINNOW" missed --format=json "$id" --note "third" > "$WN_WORLD/out"; expect_eq "missed --format=json exits 0" 0 $?
expect_eq "its JSON names the review" "$id" "$(jq -r .review "$WN_WORLD/out")"
"$WINNOW" missed "$id" 2> "$err"; expect_eq "missed without --note exits 1" 1 $?
"$WINNOW" missed "$id" --note "$(head -c 300 /dev/zero | tr '\0' x)" 2> "$err"
expect_eq "a note too long exits 1" 1 $?
"$WINNOW" missed "$id" --note $'two\nlines' 2> "$err"; expect_eq "a note of two lines exits 1" 1 $?
"$WINNOW" missed nosuch@example.org --note x 2> "$err"; expect_eq "an unknown review exits 1" 1 $?
NOTMUCH_CONFIG=$WN_WORLD/nonexistent "$WINNOW" missed "$id" --note x 2> "$err"
expect_eq "missed without a database exits 2" 2 $?
check "missed --help" bash -c '"$0" missed --help | grep -q -- "--note"' "$WINNOW"

# Statistics: misses per bot beside its false positives, and the false
# positives by reason.
"$WINNOW" mark --reason=misread-code "$id" 3 fp
"$WINNOW" stats --format=json > "$WN_WORLD/stats.json"; expect_eq "stats exits 0" 0 $?
sashiko() { jq -c ".[] | select(.bot == \"sashiko\") | $1" "$WN_WORLD/stats.json"; }
expect_eq "the bot's misses" 3 "$(sashiko .missed)"
expect_eq "the total's misses" 3 "$(jq '.[] | select(.total) | .missed' "$WN_WORLD/stats.json")"
expect_eq "its false positives by reason" '[1,1,1]' \
	"$(sashiko '.false_positive_reasons | [.["already-fixed"], .["misread-code"], .unstated]')"
"$WINNOW" stats --by=reason --format=json > "$WN_WORLD/reason.json"; expect_eq "stats --by=reason exits 0" 0 $?
expect_eq "one group per reason given, in the list's order, then none" \
	'[["misread-code",1],["already-fixed",1],[null,'"$(jq '.[] | select(.total) | .findings - 2' "$WN_WORLD/reason.json")"']]' \
	"$(jq -c '[.[] | select(.total | not) | [.reason, .findings]]' "$WN_WORLD/reason.json")"
"$WINNOW" stats > "$WN_WORLD/stats.txt"
check "the text has the missed column" grep -q "missed" "$WN_WORLD/stats.txt"
check "and the reasons table" grep -q "Why the false positives were wrong" "$WN_WORLD/stats.txt"
"$WINNOW" stats --by=nosuch 2> "$err"; expect_eq "an unknown key exits 1" 1 $?
check "the error lists reason" grep -q "or reason" "$err"
wn_done
