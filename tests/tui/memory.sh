#!/usr/bin/env bash
# The review view knows other reviews, on the series fixture
# beside the demo mailbox: v2 shows what v1 decided ("Seen before") and
# = takes it, note and all; the series hint names patch 4/5 and + opens
# it in $PAGER at the hunk; v1 shows a valid finding as likely fixed in
# v2; another problem in the same function is offered nothing.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
export LC_ALL=C.UTF-8 TZ=UTC
check "v1 judged" wn_series_judge_v1

# A pager that writes down what it was given.
pager=$WN_WORLD/pager
cat > "$pager" <<'SH'
#!/bin/sh
printf '%s\n' "$1" > "$WN_WORLD/pager.line"
cp "$2" "$WN_WORLD/pager.text"
SH
chmod +x "$pager"
export PAGER=$pager WN_WORLD

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
not_on_screen() { ! wn_tui_screen | grep -qF -- "$1"; }

wn_tui_start "'(id:$v2)'"
check "queue on v2 2/5" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 4"
check "another problem in blinker_remove(): nothing seen before" not_on_screen "Seen before"
wn_tui_keys =
check "= without a similar finding says so" wn_tui_wait "no similar finding was judged before"

wn_tui_keys j
check "finding 2: patch 4/5 changes blinker_irq() too" \
	wn_tui_wait "Patch 4/5 changes this function too: [PATCH v2 4/5] blinker: mask the interrupt while the device is torn down"
wn_tui_keys +
check "+ opened the pager" wn_tui_wait "finding 2 of 4"
pager_ran() { [ -s "$WN_WORLD/pager.line" ]; }
wn_until pager_ran
line=$(cat "$WN_WORLD/pager.line" 2>/dev/null)
expect_eq "the pager starts at the hunk" "+18" "$line"
expect_eq "... which is the hunk that changes blinker_irq()" \
	"@@ -90,6 +90,8 @@ static irqreturn_t blinker_irq(int irq, void *data)" \
	"$(sed -n "${line#+}p" "$WN_WORLD/pager.text")"
expect_eq "... of patch 4/5" "Subject: [PATCH v2 4/5] blinker: mask the interrupt while the device is torn down" \
	"$(sed -n 2p "$WN_WORLD/pager.text")"

wn_tui_keys j
check "finding 3: seen before on v1, with the date" \
	wn_tui_wait "Seen before: false positive on [PATCH 2/5] blinker: stop the timer before freeing the ring buffer, 2026-11-10"
check "... and its note" wn_tui_wait "its note: blinker_timer_fn() checks bl->stopping first"
wn_tui_keys =
check "= takes the verdict" wn_tui_wait "marked finding 3 false-positive, as before, with its note"
check "and moves on" wn_tui_wait "finding 4 of 4"
check "finding 4: the pre-existing one seen before" wn_tui_wait "Seen before: pre-existing on [PATCH 2/5]"
wn_tui_keys '!'
check "! asks for your severity" wn_tui_wait "Your severity (critical, high, medium, low, empty: none):"
wn_tui_keys h Enter
check "... and says what it set" wn_tui_wait "finding 4: your severity high"
check "... shown beside the bot's" wn_tui_wait "Your severity: high (the bot's: low)"
wn_tui_keys q
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
expect_soon "v2 in notmuch: finding 3 false positive" '["untriaged","untriaged","false-positive","untriaged"]' wn_verdicts "$v2"
expect_eq "... with v1's note" "blinker_timer_fn() checks bl->stopping first" \
	"$("$WINNOW" show --format=json "$v2" | jq -r '.findings[2].note')"
fp4=$("$WINNOW" show --format=json "$v2" | jq -r '.findings[3].fingerprint')
expect_soon "v2 in notmuch: your severity of finding 4" "winnow.severity.$fp4=high" \
	bash -c "notmuch dump --include=properties id:$v2 | tr ' ' '\n' | grep '^winnow.severity'"

wn_tui_start "'(id:$v1)'"
check "queue on v1 2/5" wn_tui_wait "1 review"
wn_tui_keys Enter
check "opens on the first untriaged finding, with the series hint" \
	wn_tui_wait "Patch 4/5 changes this function too: [PATCH 4/5] blinker: mask the interrupt"
wn_tui_keys g
check "finding 1, valid: likely fixed in v2" \
	wn_tui_wait "Likely fixed in v2: the bot no longer reports it on [PATCH v2 2/5] blinker: stop the timer"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
