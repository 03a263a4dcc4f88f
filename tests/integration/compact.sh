#!/usr/bin/env bash
# The journal is compacted: it does not grow without bound, keeps the
# newest marks for undo and never loses a verdict.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export WINNOW_JOURNAL_KEEP=5
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
verdicts() { "$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]'; }

states=(valid false-positive pre-existing)
done_marks=0
# Each mark changes its finding (a mark that changes nothing journals
# nothing): finding f = i % 3 + 1 gets a new state every third mark.
for i in $(seq 1 30); do
	"$WINNOW" mark "$id" $(( (i % 3) + 1 )) "${states[$(( (i / 3 + i % 3 + 1) % 3 ))]}" || break
	done_marks=$i
done
expect_eq "30 marks made" 30 "$done_marks"
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
lines=$(wc -l < "$journal")
check "journal compacted: $lines lines after 30 marks and 30 writes" test "$lines" -le 12
expect_eq "every verdict still right" '["pre-existing","pre-existing","valid"]' "$(verdicts)"
expect_eq "notmuch agrees" "id:$id" "$(notmuch search --output=messages 'tag:winnow/triaged and tag:winnow/valid and tag:winnow/pre-existing and not tag:winnow/false-positive')"
"$WINNOW" undo 3 > /dev/null; expect_eq "undo of the newest marks after compaction" 0 $?
# The last three marks set finding 2, 3, 1 (i = 28, 29, 30); each undo
# brings back what that finding had before (from i = 25, 26, 27).
expect_eq "undo restored the earlier states" '["false-positive","false-positive","pre-existing"]' "$(verdicts)"
"$WINNOW" mark "$id" all untriaged
expect_eq "a mark after compaction" '["untriaged","untriaged","untriaged"]' "$(verdicts)"
"$WINNOW" undo > /dev/null
expect_eq "and its undo" '["false-positive","false-positive","pre-existing"]' "$(verdicts)"
"$WINNOW" undo 10 > "$WN_WORLD/out" 2>&1; rc=$?
expect_eq "undo stops where compaction cut history" 1 "$rc"
check "and says so" grep -q "nothing to undo" "$WN_WORLD/out"
expect_eq "nothing changed by it" '["false-positive","false-positive","pre-existing"]' "$(verdicts)"
check "journal still bounded" test "$(wc -l < "$journal")" -le 20

# A journal cut mid-entry (power loss) is replayed right,
# and its warning comes once: the first command writes the journal again
# without the cut line, every entry kept (a verdict still on its way to
# notmuch among them), so the next command has nothing to warn about.
check "helper holds the lock" wn_hold_lock
"$WINNOW" mark --timeout=0.3 "$id" 1 valid 2>/dev/null
expect_eq "a verdict left in the journal" 2 $?
printf '{"op":"mark","eid":"99.1","group":"99.1","id":"%s","c":[["dead' "$id" >> "$journal"
wn_release_lock
"$WINNOW" list > /dev/null 2> "$WN_WORLD/err"; expect_eq "list after a cut: 0" 0 $?
expect_eq "it warns once" 1 "$(grep -c "cut short" "$WN_WORLD/err")"
check "and says the journal was written again" grep -q "written again without it" "$WN_WORLD/err"
expect_eq "the journal ends with a whole line now" "" "$(tail -c 1 "$journal" | tr -d '\n')"
"$WINNOW" list > /dev/null 2> "$WN_WORLD/err"
check "the next command warns no more" test ! -s "$WN_WORLD/err"
expect_eq "the replayed verdicts are right" '["valid","false-positive","pre-existing"]' "$(verdicts)"
expect_eq "and reached notmuch" "id:$id" "$(notmuch search --output=messages tag:winnow/valid)"
"$WINNOW" undo > /dev/null; expect_eq "undo reaches the mark before the cut" 0 $?
expect_eq "and reverts it" '["false-positive","false-positive","pre-existing"]' "$(verdicts)"
# A cut line with a later entry after it (the next write began a line).
printf '{"op":"mark","eid":"99.2"\n' >> "$journal"
"$WINNOW" mark "$id" 3 valid 2> "$WN_WORLD/err"; expect_eq "mark after a cut line" 0 $?
expect_eq "it warns once" 1 "$(grep -c "not a winnow entry" "$WN_WORLD/err")"
"$WINNOW" show "$id" > /dev/null 2> "$WN_WORLD/err"
check "the next command warns no more" test ! -s "$WN_WORLD/err"
expect_eq "verdicts right" '["false-positive","false-positive","valid"]' "$(verdicts)"
wn_done
