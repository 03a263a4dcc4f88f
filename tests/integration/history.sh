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

# An undo whose finding another program changed since (here
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

# Undo of many changes asks first, or is refused without a
# terminal to ask in; it is one change, which redo gives back whole.  A
# journal of its own, so the counts are this part's.
export XDG_STATE_HOME=$WN_WORLD/redo-state
hist() { "$WINNOW" history --format=json | jq -c "$1"; }
start='["valid","false-positive","false-positive"]'
expect_eq "the verdicts this part starts from" "$start" "$(verdicts)"
"$WINNOW" mark "$id" 1 pre-existing
"$WINNOW" mark "$id" 2 valid
"$WINNOW" mark "$id" 3 valid
"$WINNOW" mark --note "second thoughts" "$id" 1 false-positive
"$WINNOW" mark "$id" 2 pre-existing
"$WINNOW" mark "$id" 3 untriaged
morning='["false-positive","pre-existing","untriaged"]'
expect_eq "six changes" 6 "$(hist length)"
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
before=$(cat "$journal")
"$WINNOW" undo 99999 < /dev/null > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "undo of 6 changes without a terminal exits 1" 1 $?
expect_eq "one line says why" 1 "$(wc -l < "$WN_WORLD/err")"
check "naming the count and --yes" grep -q "not undoing 6 changes.*--yes" "$WN_WORLD/err"
expect_eq "nothing undone" "$morning" "$(verdicts)"
expect_eq "nothing written" "$before" "$(cat "$journal")"
n=$(hist '[.[] | select(.undo == false and .undone == false)] | length')

"$WINNOW" undo --yes 99999 < /dev/null > "$WN_WORLD/out"; expect_eq "--yes undoes them" 0 $?
expect_eq "says how many" "undid $n changes" "$(cat "$WN_WORLD/out")"
expect_eq "every verdict back as it was" "$start" "$(verdicts)"
expect_eq "history: one undo of them all" "true $n" "$(hist '.[0] | "\(.undo) \(.actions)"' | tr -d '"')"
expect_eq "history: each of them undone" 0 "$(hist '[.[] | select(.undo == false and .undone == false)] | length')"
check "text history says so" grep -q "\[an undo of $n changes\]" <("$WINNOW" history)

"$WINNOW" redo > "$WN_WORLD/out"; expect_eq "redo exits 0" 0 $?
check "and says what it gave back" grep -q "^redid $n changes" "$WN_WORLD/out"
expect_eq "the morning is back, note and all" "$morning" "$(verdicts)"
expect_eq "the note too" '"second thoughts"' "$("$WINNOW" show --format=json "$id" | jq '.findings[0].note')"
expect_eq "history: a redo, the undo redone" "true true" "$(hist '"\(.[0].redo) \(.[1].redone)"' | tr -d '"')"
check "text history: [a redo]" grep -q "\[a redo\]" <("$WINNOW" history --limit=1)
check "text history: [redone]" grep -q "\[redone\]" <("$WINNOW" history --limit=2)
"$WINNOW" redo > "$WN_WORLD/out" 2> "$WN_WORLD/err"; expect_eq "nothing more to redo: exit 1" 1 $?
check "and says so" grep -q "nothing to redo" "$WN_WORLD/err"

"$WINNOW" undo --format=json > "$WN_WORLD/out"; expect_eq "one undo takes the redo back" "$start" "$(verdicts)"
# One action undone: the redo, which gave back six changes of six
# findings.
expect_eq "undo --format=json: how many, and each action" \
	"[1,[[6,6,\"$id\"]]]" "$(jq -c '[.undone, [.changes[] | [.changes, .findings, .review]]]' "$WN_WORLD/out")"
expect_eq "... with the id history gives it" "$(hist '.[1].id' | tr -d '"')" "$(jq -r '.changes[0].id' "$WN_WORLD/out")"
"$WINNOW" undo --format=xml > /dev/null 2>&1; expect_eq "undo: an unknown format is a usage error" 1 $?
"$WINNOW" redo --format=json > "$WN_WORLD/out"; expect_eq "redo --format=json exits 0" 0 $?
# The redo was one change (of six findings): so is its undo's redo.
expect_eq "JSON: the changes and findings" "1 6" "$(jq -r '"\(.changes) \(.findings)"' "$WN_WORLD/out")"
expect_eq "and the morning is back again" "$morning" "$(verdicts)"

# Changed since the undo: no redo.
"$WINNOW" undo > /dev/null
"$WINNOW" mark "$id" 2 valid
before=$(cat "$journal")
"$WINNOW" redo > "$WN_WORLD/out" 2> "$WN_WORLD/err"; expect_eq "redo over a newer change exits 1" 1 $?
check "naming the finding changed" grep -q "not redone: finding 2 of <$id> was changed since the undo" "$WN_WORLD/err"
expect_eq "in one line" 1 "$(wc -l < "$WN_WORLD/err")"
expect_eq "nothing written" "$before" "$(cat "$journal")"
expect_eq "the newer change stands" '["valid","valid","false-positive"]' "$(verdicts)"
"$WINNOW" redo --help > "$WN_WORLD/out"; expect_eq "redo --help" 0 $?
check "redo --help says what it does" grep -q "what the last 'winnow undo'" "$WN_WORLD/out"
"$WINNOW" redo extra 2> /dev/null; expect_eq "redo takes no arguments" 1 $?

# In a terminal, undo asks, naming the count; only y goes on.
# six_marks: six changes, each finding's verdict another than it was.
six_marks() {
	local k f cur st
	for k in 0 1 2 3 4 5; do
		f=$((k % 3 + 1))
		cur=$(verdicts | jq -r ".[$((f - 1))]")
		for st in valid pre-existing false-positive untriaged; do
			[ "$st" != "$cur" ] && break
		done
		"$WINNOW" mark "$id" "$f" "$st" || return 1
	done
}
"$WINNOW" undo > /dev/null
six_marks
after=$(verdicts)
m=$(hist '[.[] | select(.undo == false and .undone == false)] | length')
wn_tui_start undo 99999
check "a terminal is asked" wn_tui_wait "Undo the last $m changes? [y/N]"
wn_tui_keys n Enter
check "n: nothing undone, exit 1" wn_tui_wait "WINNOW-EXIT=1"
check "and said" wn_tui_wait "nothing undone"
expect_eq "verdicts as they were" "$after" "$(verdicts)"
wn_tui_start undo 99999
wn_tui_wait "Undo the last $m changes? [y/N]" > /dev/null
wn_tui_keys y Enter
check "y undoes them" wn_tui_wait "undid $m changes"
check "exit 0" wn_tui_wait "WINNOW-EXIT=0"
wn_tmux_kill "$WN_TMUX_SOCKET"
expect_eq "all of them" 0 "$(hist '[.[] | select(.undo == false and .undone == false)] | length')"

# winnow.undo_confirm: up to it, no question; raised, none either.
"$WINNOW" redo > /dev/null
six_marks
"$WINNOW" undo 5 < /dev/null > "$WN_WORLD/out"; expect_eq "5 (winnow.undo_confirm) need no question" 0 $?
expect_eq "and are undone" "undid 5 changes" "$(cat "$WN_WORLD/out")"
"$WINNOW" redo > /dev/null
six_marks
notmuch config set winnow.undo_confirm 100
"$WINNOW" undo 99999 < /dev/null > /dev/null; expect_eq "winnow.undo_confirm raised: no question" 0 $?
notmuch config set winnow.undo_confirm 0
"$WINNOW" redo > /dev/null
"$WINNOW" undo < /dev/null 2> /dev/null; expect_eq "winnow.undo_confirm 0: even one asks" 1 $?
# Asked for more than there are, exactly winnow.undo_confirm changes
# to revert: no question.
six_marks
"$WINNOW" undo 99999 < /dev/null 2> "$WN_WORLD/err"
k=$(sed -n 's/.*not undoing \([0-9]*\) changes.*/\1/p' "$WN_WORLD/err")
notmuch config set winnow.undo_confirm "$k"
"$WINNOW" undo 99999 < /dev/null > "$WN_WORLD/out" 2>&1
expect_eq "as many changes as winnow.undo_confirm ($k) need no question" 0 $?
expect_eq "and are undone" "undid $k changes" "$(cat "$WN_WORLD/out")"
notmuch config set winnow.undo_confirm nonsense
"$WINNOW" undo 2> "$WN_WORLD/err"; expect_eq "winnow.undo_confirm not a number: exit 2" 2 $?
check "and says so" grep -q "winnow.undo_confirm must be a number" "$WN_WORLD/err"
notmuch config set winnow.undo_confirm ""
wn_done
