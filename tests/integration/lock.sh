#!/usr/bin/env bash
# The notmuch write lock held by another process: mark gives up after
# --timeout with exit 2 and keeps the verdict in the journal; the next
# command (or sync-journal) writes it once the lock is free.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world

id=20261102102030.4B7D1C4CEE5@smtp.kernel.org
check "helper holds the lock" wn_hold_lock

# The helper holds the lock until told: mark gives up by itself (timeout
# ends it with 124 only if it never would).
timeout "$WN_WAIT_SECONDS" "$WINNOW" mark --timeout=0.5 "$id" 1 valid 2> "$WN_WORLD/err"; rc=$?
expect_eq "mark under a held lock gives up by itself with 2" 2 "$rc"
check "the message says the lock is held" grep -q "locked" "$WN_WORLD/err"
check "and that another process holds it" grep -q "by another process" "$WN_WORLD/err"
check "show still shows the journaled verdict" bash -c \
	'"$WINNOW" show --format=json '"$id"' 2>/dev/null | jq -e ".findings[0].verdict == \"valid\"" >/dev/null'
expect_eq "not in notmuch yet" "" "$(notmuch search --output=messages tag:winnow/valid)"

wn_release_lock
"$WINNOW" sync-journal > "$WN_WORLD/out"; expect_eq "sync-journal exits 0" 0 $?
expect_eq "sync-journal wrote it" "1 verdict written" "$(cat "$WN_WORLD/out")"
expect_eq "verdict reached notmuch" "id:$id" "$(notmuch search --output=messages tag:winnow/valid)"
"$WINNOW" sync-journal > "$WN_WORLD/out"
expect_eq "replay is idempotent" "0 verdicts written" "$(cat "$WN_WORLD/out")"

# Two decisions about one finding while locked: the newer wins, and both
# entries count as written afterwards (the journal does not keep asking).
# The count is of findings: one finding got its newest verdict.
check "helper holds the lock again" wn_hold_lock
"$WINNOW" mark --timeout=0.3 "$id" 2 valid 2>/dev/null
"$WINNOW" mark --timeout=0.3 "$id" 2 false-positive 2>/dev/null
expect_eq "second decision journaled too" 2 $?
wn_release_lock
"$WINNOW" sync-journal > "$WN_WORLD/out"
expect_eq "both settled at once" "1 verdict written" "$(cat "$WN_WORLD/out")"
"$WINNOW" sync-journal > "$WN_WORLD/out"
expect_eq "and nothing left pending" "0 verdicts written" "$(cat "$WN_WORLD/out")"
expect_eq "the newer decision is in notmuch" "id:$id" \
	"$(notmuch search --output=messages "id:$id and tag:winnow/false-positive")"
expect_eq "and shown" false-positive \
	"$("$WINNOW" show --format=json "$id" | jq -r '.findings[1].verdict')"
"$WINNOW" mark "$id" 2 pre-existing
"$WINNOW" undo > /dev/null
expect_eq "undo goes back to the newer decision, not the older" false-positive \
	"$("$WINNOW" show --format=json "$id" | jq -r '.findings[1].verdict')"

wn_done
