#!/usr/bin/env bash
# Marking from the TUI: a verdict given in the review view reaches
# notmuch (property + tag, seen by `winnow show` and `notmuch search`)
# and is shown again after a restart; the queue marks every finding of
# a review after a y/n question; U undoes.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
verdicts() { "$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]'; }
# expect_soon NAME EXPECTED CMD...: the TUI writes to notmuch in the
# background, so poll CMD (up to 5 s) until it prints EXPECTED.
# expect_soon NAME WANT CMD...: CMD prints WANT once the write lands.
expect_soon() {
	local name=$1 want=$2 got end=$((SECONDS + WN_WAIT_SECONDS))
	shift 2
	while :; do
		got=$("$@")
		[ "$got" == "$want" ] || [ "$SECONDS" -ge "$end" ] && break
		sleep 0.05
	done
	expect_eq "$name" "$want" "$got"
}
tagged() { notmuch search --output=messages "tag:winnow/$1"; }
restart() {
	wn_tmux_kill "$WN_TMUX_SOCKET"
	while tmux -L "$WN_TMUX_SOCKET" has-session 2>/dev/null; do sleep 0.05; done
	wn_tui_start "$@"
}

wn_tui_start "'(id:$id)'"
check "queue limited to the review" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open on finding 1" wn_tui_wait "finding 1 of 3"
wn_tui_keys f
check "status confirms the mark" wn_tui_wait "marked finding 1 false-positive"
check "moved on to the next finding" wn_tui_wait "finding 2 of 3"
check "list shows the verdict" grep -qE '^ +1 High +false-positive ' <<<"$(wn_tui_screen)"
wn_tui_keys q
check "queue row counts refreshed" wn_tui_wait " 3: 2u 0v 1f 0p "
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

expect_soon "notmuch tag set" "id:$id" tagged false-positive
expect_eq "winnow show sees the verdict" '["false-positive","untriaged","untriaged"]' "$(verdicts)"

restart
check "restart: queue shows the verdict count" wn_tui_wait " 3: 2u 0v 1f 0p "
wn_tui_keys / "free the IRQ" Enter
wn_tui_keys Enter
check "restart: review opens on the first untriaged finding" wn_tui_wait "finding 2 of 3"
check "restart: the verdict is shown" grep -qE '^ +1 High +false-positive ' <<<"$(wn_tui_screen)"
wn_tui_keys q

# Queue: mark every finding, with a question naming the count.
wn_tui_keys v
check "queue asks before marking all" wn_tui_wait "Mark all 3 findings of this review valid? (y/n)"
wn_tui_keys n
check "n declines" wn_tui_wait "nothing marked"
expect_eq "nothing written after n" '["false-positive","untriaged","untriaged"]' "$(verdicts)"
wn_tui_keys v
wn_tui_wait "(y/n)" >/dev/null
wn_tui_keys y
check "y marks all" wn_tui_wait "marked 3 findings valid"
check "row shows all valid" wn_tui_wait " 3: 0u 3v 0f 0p "
expect_soon "tag valid in notmuch" "id:$id" tagged valid
expect_soon "all valid" '["valid","valid","valid"]' verdicts

wn_tui_keys U
check "U undoes the last mark and says what" wn_tui_wait "undid finding 1 valid → false-positive and 2 more"
check "row back to the earlier counts" wn_tui_wait " 3: 2u 0v 1f 0p "
expect_soon "undo reached notmuch" "" tagged valid
expect_eq "undo: verdicts as before" '["false-positive","untriaged","untriaged"]' "$(verdicts)"

# Clearing a verdict from the review view.
wn_tui_keys / "free the IRQ" Enter Enter
wn_tui_wait "finding 2 of 3" >/dev/null
wn_tui_keys k
wn_tui_wait "finding 1 of 3" >/dev/null
wn_tui_keys u
check "u: back to untriaged" wn_tui_wait "marked finding 1 untriaged"
expect_soon "cleared in notmuch" "" tagged false-positive

# F twice writes one change, as winnow mark does; so U
# after it still undoes the mark the screen showed.
wn_tui_wait "finding 2 of 3" >/dev/null
before=$("$WINNOW" history --format=json | jq length)
wn_tui_keys f
check "f marks finding 2" wn_tui_wait "marked finding 2 false-positive"
wn_tui_wait "finding 3 of 3" >/dev/null
wn_tui_keys k
wn_tui_wait "finding 2 of 3" >/dev/null
wn_tui_keys f
check "f again says nothing changed" wn_tui_wait "nothing to change: the finding is false-positive already"
expect_eq "f twice journals one change" $((before + 1)) "$("$WINNOW" history --format=json | jq length)"
wn_tui_keys Q
check "quit with 0 again" wn_tui_wait "WINNOW-EXIT=0"
wn_done
