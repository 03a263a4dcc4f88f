#!/usr/bin/env bash
# The TUI's forwarding and a CLI forward share forward.lock: while a CLI
# run holds it, F says so and opens nothing; while the TUI's forward
# view is open, a CLI forward --all waits, and then finds the mail sent.
# A postponed draft that a killed winnow had handed to sendmail shows
# the doubt and asks "this mail may have been sent already at ...; send
# again?" before y sends it.  The TUI's own writer, waiting for the
# notmuch lock after a send, does not keep F from composing again; a
# second forward in one winnow is refused, saying so.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=tui-lock
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=true WN_WORLD
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
other=20261104131907.E5C4FC4CED0@smtp.kernel.org
drafts=$XDG_STATE_HOME/winnow/drafts
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }
delivered() { grep -l '^In-Reply-To: <20261102' "$FAKE_SENDMAIL_DIR"/mail.* 2>/dev/null | wc -l; }
# wait_for FILE PATTERN: until FILE holds PATTERN (at most 60 s).
wait_for() {
	for _ in $(seq 1200); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
	return 1
}
wait_file() {
	for _ in $(seq 1200); do [ -e "$1" ] && return 0; sleep 0.05; done
	return 1
}
cleanup() {
	[ -f "$FAKE_SENDMAIL_DIR/hanging" ] && kill "$(cat "$FAKE_SENDMAIL_DIR/hanging")" 2>/dev/null
	: > "$WN_WORLD/go"
	wn_world_cleanup
}
trap cleanup EXIT
"$WINNOW" mark "$id" 1 valid
"$WINNOW" mark "$other" 1 valid
printf 'y\n' > "$WN_WORLD/yes"

# A CLI forward is killed while sendmail, having taken the mail, hangs.
FAKE_SENDMAIL_MODE=hang "$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2>&1 &
pid=$!
check "sendmail took the mail" wait_for "$FAKE_SENDMAIL_DIR/hanging" .
kill -9 "$pid"
wait "$pid" 2>/dev/null
kill "$(cat "$FAKE_SENDMAIL_DIR/hanging")" 2>/dev/null
rm -f "$FAKE_SENDMAIL_DIR/hanging"
expect_eq "one delivery" 1 "$(delivered)"

# Another CLI forward holds forward.lock, its editor open.
cat > "$WN_WORLD/slow-editor" <<'ED'
#!/bin/sh
: > "$WN_WORLD/editing"
while [ ! -e "$WN_WORLD/go" ]; do sleep 0.05; done
ED
chmod +x "$WN_WORLD/slow-editor"
EDITOR=$WN_WORLD/slow-editor "$WINNOW" forward "$other" < "$WN_WORLD/yes" > /dev/null 2>&1 &
cli=$!
check "the CLI forward is in its editor" wait_file "$WN_WORLD/editing"

wn_tui_start "'(id:$id)'"
check "queue limited to the review" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open" wn_tui_wait "[review]"
wn_tui_keys F
check "F: another forward runs" wn_tui_wait "another winnow forward is running: F again when it has finished"
check "F: no forward view" bash -c '! grep -qF "[forward]" <<<"$1"' _ "$(wn_tui_screen)"
: > "$WN_WORLD/go"
wait "$cli"
expect_eq "the CLI forward sent its mail" 2 "$(calls)"

# Now F offers the draft; it shows the doubt, and y asks again.
wn_tui_keys F
check "F offers the draft" wn_tui_wait "postponed for this review? (n: a new one) (y/n)"
wn_tui_keys y
check "the forward view" wn_tui_wait "[forward]"
check "the view shows the doubt" wn_tui_wait "this mail may have been sent already at 2026-11-14 10:40 UTC"

# Meanwhile a CLI forward --all waits for the TUI.
"$WINNOW" forward --all --resend < "$WN_WORLD/yes" > "$WN_WORLD/out" 2> "$WN_WORLD/err" &
all=$!
check "forward --all waits for the TUI" wait_for "$WN_WORLD/err" "waiting for another winnow forward"

wn_tui_keys y
check "y asks about sending again" \
	wn_tui_wait "this mail may have been sent already at 2026-11-14 10:40 UTC; send again? (y/n)"
wn_tui_keys n
check "n: not sent" wn_tui_wait "not sent; the draft is kept"
expect_eq "n: nothing sent" 1 "$(delivered)"
wn_tui_keys y
check "asked again" wn_tui_wait "send again? (y/n)"
wn_tui_keys y
check "sent" wn_tui_wait "sent to Jörg Beispiel <joerg.beispiel@example.org>"
expect_eq "sent again, once" 2 "$(delivered)"
wait "$all"
expect_eq "forward --all after the TUI: nothing left (exit 1)" 1 $?
expect_eq "forward --all sent nothing more" 2 "$(delivered)"
expect_eq "the draft is gone" "" "$(ls "$drafts")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

# The CLI in a terminal asks too, naming the doubt in its question.
"$WINNOW" mark "$id" 2 valid
rm -f "$FAKE_SENDMAIL_DIR/hanging"
FAKE_SENDMAIL_MODE=hang "$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2>&1 &
pid=$!
check "again: sendmail took the mail" wait_for "$FAKE_SENDMAIL_DIR/hanging" .
kill -9 "$pid"
wait "$pid" 2>/dev/null
kill "$(cat "$FAKE_SENDMAIL_DIR/hanging")" 2>/dev/null
rm -f "$FAKE_SENDMAIL_DIR/hanging"
expect_eq "again: one more delivery" 3 "$(delivered)"
wn_tui_start forward "$id"
check "the CLI asks about sending again" \
	wn_tui_wait "this mail may have been sent already at 2026-11-14 10:40 UTC; send again? [y]es, [e]dit again, [p]ostpone, [c]ancel:"
wn_tui_keys p Enter
check "p: postponed" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "p: nothing sent" 3 "$(delivered)"
wn_tui_start forward "$id"
check "asked again" wn_tui_wait "send again? [y]es"
wn_tui_keys y Enter
check "y: sent" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "y: sent once more" 4 "$(delivered)"

# The TUI's background writer, still waiting for the notmuch lock after
# a send, does not hold forward.lock: F composes again at once.
forwarded() { notmuch dump --include=properties "id:$id" | grep -o 'winnow\.forwarded\.' | wc -l; }
expect_eq "findings 1 and 2 forwarded so far" 2 "$(forwarded)"
"$WINNOW" mark "$id" 3 valid
wn_tui_start "'(id:$id)'"
check "again: the queue" wn_tui_wait "1 review"
wn_tui_keys Enter
check "again: the review" wn_tui_wait "[review]"
wn_hold_lock
wn_tui_keys F
check "lock held: the forward view" wn_tui_wait "[forward]"
wn_tui_keys y
check "lock held: sent" wn_tui_wait "findings recorded as forwarded"
check "the record waits for the lock" wn_tui_wait "verdict waiting for the index l"
wn_tui_keys F
check "F composes again while the writer waits" wn_tui_wait "[forward]"
check "F: no word of another forward" bash -c '! grep -qF "another winnow forward" <<<"$1"' _ "$(wn_tui_screen)"
# One forward at a time in this winnow too: F in a review opened above
# the forward view (through the statistics) says so, rather than
# blaming another winnow.
wn_tui_keys S
check "the statistics above the forward" wn_tui_wait "[stats]"
wn_tui_keys Enter
check "their queue" wn_tui_wait "[queue]"
wn_tui_keys Enter
check "a review above the forward" wn_tui_wait "[review]"
wn_tui_keys F
check "F: one forward open already" wn_tui_wait "a forward is open already in this winnow: send, postpone or cancel it first"
wn_tui_keys q q q
check "back to the forward" wn_tui_wait "[forward]"
wn_release_lock
wn_tui_keys q y Q
check "again: quit with 0" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "the record landed: finding 3 forwarded too" 3 "$(forwarded)"

wn_done
