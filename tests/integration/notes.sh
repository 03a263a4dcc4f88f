#!/usr/bin/env bash
# Notes of any reasonable length and any UTF-8 are stored, travel with
# notmuch dump, and never block other verdicts; a note that is not UTF-8
# is refused, never dropped in silence; a change the writer cannot apply
# is set aside with a message naming it, and the rest are written.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
other=20261104023058.D3ADBC4CEC7@smtp.kernel.org
note_of() { "$WINNOW" show --format=json "$1" | jq -r ".findings[$2 - 1].note"; }
verdict_of() { "$WINNOW" show --format=json "$1" | jq -r ".findings[$2 - 1].verdict"; }
err=$WN_WORLD/err

# 210 bytes used to exceed Xapian's term limit and make libnotmuch exit.
short=$(head -c 210 /dev/zero | tr '\0' y)
"$WINNOW" mark --note="$short" "$id" 1 valid 2> "$err"; expect_eq "a 210-byte note: mark exits 0" 0 $?
expect_eq "the 210-byte note comes back whole" "$short" "$(note_of "$id" 1)"

# 5 KiB of mixed UTF-8 (2-, 3- and 4-byte characters cut across pieces).
long=$(for i in $(seq 400); do printf 'né 漢字 🙂 %03d ' "$i"; done)
check "the long note is over 4 KiB" test "$(printf '%s' "$long" | wc -c)" -gt 4096
"$WINNOW" mark --note="$long" "$id" 2 pre-existing 2> "$err"; expect_eq "a 5 KiB note: mark exits 0" 0 $?
expect_eq "the 5 KiB note comes back byte for byte" "$long" "$(note_of "$id" 2)"
"$WINNOW" mark "$other" 1 valid; expect_eq "later marks on other reviews still work" 0 $?
expect_eq "and reach notmuch" valid "$(verdict_of "$other" 1)"
expect_eq "nothing is left pending" "0 verdicts written" "$("$WINNOW" sync-journal)"
pieces=$(notmuch dump --include=properties "id:$id" | tr ' ' '\n' | grep -c '^winnow\.note\.')
check "the note travels with notmuch dump, in $pieces pieces" test "$pieces" -gt 20
# Replacing a long note by a short one leaves no stale pieces behind.
"$WINNOW" mark --note="short now" "$id" 2 pre-existing
expect_eq "a shorter note replaces it" "short now" "$(note_of "$id" 2)"
fp2=$("$WINNOW" show --format=json "$id" | jq -r '.findings[1].fingerprint')
expect_eq "and its pieces are gone" 1 \
	"$(notmuch dump --include=properties "id:$id" | tr ' ' '\n' | grep -c "^winnow\.note\.$fp2")"
"$WINNOW" mark --note= "$id" 1 valid
expect_eq "an empty note removes it" null "$(note_of "$id" 1)"

# Not UTF-8: refused with a clear error, the old note and verdict kept.
"$WINNOW" mark --note=$'caf\xe9' "$id" 2 valid 2> "$err"; expect_eq "a Latin-1 note exits 1" 1 $?
check "the error says why" grep -q "not valid UTF-8" "$err"
expect_eq "the old note is kept" "short now" "$(note_of "$id" 2)"
expect_eq "the verdict is not changed" pre-existing "$(verdict_of "$id" 2)"
huge=$(head -c 70000 /dev/zero | tr '\0' z)
"$WINNOW" mark --note="$huge" "$id" 2 valid 2> "$err"; expect_eq "a 70 KB note exits 1" 1 $?
check "the error gives the limit" grep -q "at most" "$err"

# A change the writer dies on (here a fingerprint far longer than any
# property key may be, as a damaged or foreign journal could hold) is set
# aside; the changes journaled with and after it are written.
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
badfp=$(head -c 300 /dev/zero | tr '\0' f)
printf '{"op":"mark","eid":"1.1.1.1","group":"1.1.1.1","id":"%s","t":1,"c":[["%s","valid","untriaged",null,null]]}\n' \
	"$id" "$badfp" >> "$journal"
"$WINNOW" mark "$id" 3 false-positive 2> "$err"; expect_eq "the next mark exits 0" 0 $?
check "the set-aside change is named" grep -q "could not be written to notmuch" "$err"
check "and where it is kept" grep -q "\.rejected" "$err"
expect_eq "the good change reached notmuch" false-positive "$(verdict_of "$id" 3)"
check "the rejected file holds the change" grep -q "$badfp" "$journal.rejected"
"$WINNOW" sync-journal > "$WN_WORLD/out" 2> "$err"; expect_eq "sync-journal exits 0 after it" 0 $?
expect_eq "and nothing is pending any more" "0 verdicts written" "$(cat "$WN_WORLD/out")"
# The writer dying (libnotmuch exits) must not print the parent's
# buffered output a second time.
printf '{"op":"mark","eid":"2.2.2.2","group":"2.2.2.2","id":"%s","t":2,"c":[["%s","valid","untriaged",null,null]]}\n' \
	"$id" "$badfp" >> "$journal"
"$WINNOW" undo > "$WN_WORLD/out" 2> "$err"
expect_eq "undo's output is printed once though a writer died" "undid 1 change" "$(cat "$WN_WORLD/out")"
wn_done
