#!/usr/bin/env bash
# Broken state is survivable: a torn journal line, an unknown verdict in a
# property, a state directory that cannot be written, a full disk.  Each
# gives a clear warning or error, never a crash, never a silently dropped
# verdict.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
err=$WN_WORLD/err
verdicts() { "$WINNOW" show --format=json "$id" 2>/dev/null | jq -c '[.findings[].verdict]'; }

# --- a torn last line (crash in the middle of a journal write) --------
"$WINNOW" mark "$id" 1 valid
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
check "journal exists" test -f "$journal"
printf '{"op":"mark","eid":"99.1","group":"99.1","id":"%s","fp":"dead' "$id" >> "$journal"
"$WINNOW" list > /dev/null 2> "$err"; expect_eq "list survives a torn journal" 0 $?
check "torn line reported" grep -q "cut short" "$err"
expect_eq "earlier verdict intact" '["valid","untriaged","untriaged"]' "$(verdicts)"
"$WINNOW" mark "$id" 2 false-positive 2> "$err"; expect_eq "mark after a torn line" 0 $?
expect_eq "new verdict written after the torn line" '["valid","false-positive","untriaged"]' "$(verdicts)"
expect_eq "and reached notmuch" "id:$id" "$(notmuch search --output=messages tag:winnow/false-positive)"
"$WINNOW" undo > /dev/null 2> "$err"; expect_eq "undo across the torn line" 0 $?
expect_eq "undo reverted the newest mark" '["valid","untriaged","untriaged"]' "$(verdicts)"

# --- garbage in the middle of the journal ------------------------------
printf 'not json at all\n{"op":"mark"}\n' >> "$journal"
"$WINNOW" show "$id" > /dev/null 2> "$err"; expect_eq "show survives garbage lines" 0 $?
check "garbage reported with its line" grep -q "is not a winnow entry" "$err"

# --- an unknown verdict value in a property (a newer winnow, a hand edit)
fp=$("$WINNOW" show --format=json "$id" 2>/dev/null | jq -r '.findings[2].fingerprint')
# restore replaces a message's properties with its line: extend the line.
notmuch dump --include=properties "id:$id" |
	sed "/^#= /s/\$/ winnow.verdict.$fp=maybe/" > "$WN_WORLD/dump"
notmuch restore --include=properties < "$WN_WORLD/dump"
"$WINNOW" show "$id" > "$WN_WORLD/out" 2> "$err"; expect_eq "show with an unknown verdict exits 0" 0 $?
check "unknown verdict is reported" grep -q "unknown verdict 'maybe'" "$WN_WORLD/out"
expect_eq "unknown verdict shown as untriaged" "untriaged" \
	"$("$WINNOW" show --format=json "$id" 2>/dev/null | jq -r '.findings[2].verdict')"
check "JSON carries the warning" bash -c \
	'"$WINNOW" show --format=json '"$id"' 2>/dev/null | jq -e ".warning | test(\"unknown verdict\")" >/dev/null'
"$WINNOW" mark "$id" 3 valid; expect_eq "marking over an unknown verdict works" 0 $?
expect_eq "and replaces it" "valid" "$("$WINNOW" show --format=json "$id" | jq -r '.findings[2].verdict')"

# --- a state directory that cannot be created or written ---------------
good_state=$XDG_STATE_HOME
export XDG_STATE_HOME=$WN_WORLD/blocked
: > "$XDG_STATE_HOME"        # a file where the directory should be
"$WINNOW" mark "$id" 1 pre-existing 2> "$err"; rc=$?
expect_eq "mark without a journal exits 2" 2 "$rc"
check "says where and why" grep -q "cannot create $XDG_STATE_HOME/winnow" "$err"
expect_eq "one line" 1 "$(wc -l < "$err")"
expect_eq "nothing written behind the user's back" "valid" \
	"$("$WINNOW" show --format=json "$id" 2>/dev/null | jq -r '.findings[0].verdict')"
"$WINNOW" list > /dev/null 2> "$err"; expect_eq "list still works, with a warning" 0 $?
check "list warns about the journal" grep -q "warning: cannot create" "$err"
"$WINNOW" < /dev/null > /dev/null 2> "$err"; rc=$?
expect_eq "the TUI refuses to start without a journal" 2 "$rc"
check "and says why" grep -q "cannot create" "$err"
export XDG_STATE_HOME=$good_state

# --- a full disk: writes beyond a file size limit fail like ENOSPC ------
# bash counts ulimit -f in 1024-byte blocks.
size_blocks=$(( $(stat -c %s "$journal") / 1024 ))
check "journal is big enough for this test" test "$size_blocks" -ge 1
(ulimit -f "$size_blocks"; "$WINNOW" mark "$id" 1 pre-existing) 2> "$err"; rc=$?
expect_eq "mark on a full disk exits 2" 2 "$rc"
check "says the journal cannot be written" grep -q "cannot write journal" "$err"
expect_eq "the refused verdict was not applied" "valid" \
	"$("$WINNOW" show --format=json "$id" 2>/dev/null | jq -r '.findings[0].verdict')"
"$WINNOW" mark "$id" 1 pre-existing; expect_eq "with room again, mark works" 0 $?
expect_eq "and lands" "pre-existing" \
	"$("$WINNOW" show --format=json "$id" 2>/dev/null | jq -r '.findings[0].verdict')"

# --- something that is not a file where the journal should be ----------
mv "$journal" "$journal.saved"
ln -s /dev/zero "$journal"
"$WINNOW" mark "$id" 1 valid 2> "$err"; rc=$?
expect_eq "a device as journal: mark exits 2" 2 "$rc"
check "says it is not a regular file" grep -q "not a regular file" "$err"
"$WINNOW" list > /dev/null 2> "$err"; expect_eq "list warns and goes on" 0 $?
rm -f "$journal"; mv "$journal.saved" "$journal"

wn_done
