#!/usr/bin/env bash
# Compaction never drops another winnow's entries: a CLI mark journaled
# while the lock was held (so still pending), after the TUI had read the
# journal, must survive the TUI compacting the journal they share, and
# reach notmuch.  (Compacting from memory would have lost it.)
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
export WINNOW_JOURNAL_KEEP=2
wn_world
tui_id=20261102102845.9E02AC4CEF3@smtp.kernel.org
cli_id=20261102102030.4B7D1C4CEE5@smtp.kernel.org

wn_tui_start "id:$tui_id"
wn_tui_wait "1 review" >/dev/null

check "helper holds the lock" wn_hold_lock
"$WINNOW" mark --timeout=0.3 "$cli_id" 2 pre-existing 2>/dev/null
expect_eq "CLI mark kept in the journal while locked" 2 $?
wn_release_lock

# Enough marks in the TUI to make it compact the journal: each one
# acknowledged on screen, then K back to the first finding.
declare -A state=([v]=valid [f]=false-positive [p]=pre-existing [u]=untriaged)
marks() {
	local k
	for k in v f p u v f p; do
		wn_tui_keys "$k"
		wn_tui_wait "marked finding 1 ${state[$k]}" > /dev/null || return 1
		wn_tui_keys K
		wn_tui_wait "finding 1 of 3" > /dev/null || return 1
	done
}
wn_tui_keys Enter
wn_tui_wait "finding 1 of 3" >/dev/null
check "seven marks acknowledged" marks
journal=$(ls "$XDG_STATE_HOME"/winnow/journal-*)
# Compaction follows the write that leaves nothing pending.
compacted() { [ "$(wc -l < "$journal")" -le 8 ]; }
check "the TUI compacted the journal" wn_until compacted
# Either still pending in the journal, or the TUI's writer (which takes
# over what the compacted journal holds) already wrote it: never gone.
in_journal_or_notmuch() {
	grep -q "\"id\":\"$cli_id\"" "$journal" ||
		notmuch search --output=messages "id:$cli_id and tag:winnow/pre-existing" | grep -q .
}
check "the CLI's entry survived the compaction" in_journal_or_notmuch
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
"$WINNOW" sync-journal > /dev/null
expect_eq "and reaches notmuch" "pre-existing" \
	"$("$WINNOW" show --format=json "$cli_id" | jq -r '.findings[1].verdict')"
expect_eq "notmuch tag too" "id:$cli_id" \
	"$(notmuch search --output=messages "id:$cli_id and tag:winnow/pre-existing")"
wn_done
