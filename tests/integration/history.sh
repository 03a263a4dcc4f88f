#!/usr/bin/env bash
# winnow history lists the journal's actions newest first, and
# undo --id reverts any one of them, not only the newest.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
verdicts() { "$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]'; }

expect_eq "an empty history" "[]" "$("$WINNOW" history --format=json | jq -c .)"
"$WINNOW" mark "$id" 1 valid
"$WINNOW" mark --note "older than the series" "$id" all pre-existing
"$WINNOW" mark "$id" 3 false-positive
expect_eq "three actions" 3 "$("$WINNOW" history --format=json | jq length)"
expect_eq "newest first" '["false-positive","pre-existing","valid"]' \
	"$("$WINNOW" history --format=json | jq -c '[.[].to]')"
expect_eq "the mark of every finding counts its findings" 3 \
	"$("$WINNOW" history --format=json | jq '.[1].changes')"
expect_eq "and says it set a note" true "$("$WINNOW" history --format=json | jq '.[1].note')"
expect_eq "--limit" 1 "$("$WINNOW" history --format=json --limit=1 | jq length)"
check "text: one line per action" test "$("$WINNOW" history | wc -l)" -eq 3
check "text names the states" grep -q "verdict untriaged -> valid" <("$WINNOW" history)

middle=$("$WINNOW" history --format=json | jq -r '.[1].id')
"$WINNOW" undo --id="$middle" > "$WN_WORLD/out"; expect_eq "undo --id exits 0" 0 $?
expect_eq "only that action is reverted" '["valid","untriaged","false-positive"]' "$(verdicts)"
expect_eq "its note is gone with it" null "$("$WINNOW" show --format=json "$id" | jq '.findings[1].note')"
expect_eq "history marks it undone" true \
	"$("$WINNOW" history --format=json | jq --arg g "$middle" '.[] | select(.id == $g) | .undone')"
"$WINNOW" undo --id="$middle" 2> "$WN_WORLD/err"; expect_eq "undoing it twice exits 1" 1 $?
check "and says why" grep -q "undone already" "$WN_WORLD/err"
"$WINNOW" undo --id=nosuch 2 2> "$WN_WORLD/err"; expect_eq "N and --id together exit 1" 1 $?

# Issue 18.8: an undo whose finding another program changed since (here
# another winnow with its own journal) keeps that newer decision, says
# so, and journals nothing; history and undo go on working after it.
"$WINNOW" mark "$id" 2 valid
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
before=$(cat "$journal")
XDG_STATE_HOME=$WN_WORLD/other-state "$WINNOW" mark "$id" 2 false-positive
"$WINNOW" undo > "$WN_WORLD/out" 2> "$WN_WORLD/err"; expect_eq "an undo that changes nothing exits 1" 1 $?
check "and does not claim it undid anything" test ! -s "$WN_WORLD/out"
check "it says the newer decision is kept" grep -q "finding 2 .*false-positive.*kept" "$WN_WORLD/err"
expect_eq "the other program's decision stands" '["valid","false-positive","false-positive"]' "$(verdicts)"
expect_eq "nothing journaled" "$before" "$(cat "$journal")"
"$WINNOW" history > "$WN_WORLD/out"; expect_eq "history still runs" 0 $?
"$WINNOW" history --format=json > "$WN_WORLD/out"; expect_eq "history --format=json still runs" 0 $?
expect_eq "the action is not shown undone" false "$(jq '.[0].undone' "$WN_WORLD/out")"
"$WINNOW" undo --id="$(jq -r '.[0].id' "$WN_WORLD/out")" 2> "$WN_WORLD/err"
expect_eq "undo --id of it exits 1 too" 1 $?
check "and says why" grep -q "kept" "$WN_WORLD/err"
wn_done
