#!/usr/bin/env bash
# forward --all when a mail fails, and two runs at once: every mail
# sendmail took is recorded at once and written to notmuch even when a
# later one failed; the batch stops at the failure and says what was
# sent; the retry sends only the rest; a second run waits for the first
# and sends nothing already sent.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=batch
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=true
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }
recorded() { notmuch search --output=messages tag:winnow/forwarded | wc -l; }
err=$WN_WORLD/err
mark_all() {
	for r in 20261102102845.9E02AC4CEF3@smtp.kernel.org 20261102103702.17F5BC4CEE9@smtp.kernel.org \
		20261104131907.E5C4FC4CED0@smtp.kernel.org 20261104023058.D3ADBC4CEC7@smtp.kernel.org; do
		"$WINNOW" mark "$r" 1 valid
	done
}
mark_all
"$WINNOW" forward --all --dry-run > "$WN_WORLD/all" 2> "$err"
n=$(grep -c '^From winnow ' "$WN_WORLD/all")
check "several mails to send" test "$n" -ge 3

# The 2nd fails: the 1st is sent and recorded, the batch stops.
printf 'y\n' | FAKE_SENDMAIL_FAIL_AT=2 "$WINNOW" forward --all > "$WN_WORLD/out" 2> "$err"
expect_eq "a failure: exit 2" 2 $?
expect_eq "stopped at the failure" 2 "$(calls)"
check "says how many were sent" grep -q "stopped after a failure: 1 of $n mails sent" "$err"
expect_eq "the sent one is in notmuch" 1 "$(recorded)"
# The retry sends the rest, and nothing twice.
printf 'y\n' | "$WINNOW" forward --all > "$WN_WORLD/out" 2> "$err"
expect_eq "the retry: exit 0" 0 $?
expect_eq "the retry sent the rest only" $((n + 1)) "$(calls)"
expect_eq "every review recorded" 4 "$(recorded)"

# Two runs at once: the second waits for the first, then finds nothing
# left.  The first is held in its editor until the second is waiting.
"$WINNOW" mark 202611041530.Xq7Lm2Pz-lkp@intel.com 2 valid
cat > "$WN_WORLD/slow-editor" <<'ED'
#!/bin/sh
: > "$WN_WORLD/editing"
while [ ! -e "$WN_WORLD/go" ]; do sleep 0.05; done
ED
chmod +x "$WN_WORLD/slow-editor"
export WN_WORLD
c0=$(calls)
printf 'y\n' | EDITOR=$WN_WORLD/slow-editor "$WINNOW" forward --all > "$WN_WORLD/out1" 2> "$WN_WORLD/err1" &
p1=$!
for _ in $(seq 1200); do [ -e "$WN_WORLD/editing" ] && break; sleep 0.05; done
printf 'y\n' | "$WINNOW" forward --all > "$WN_WORLD/out2" 2> "$WN_WORLD/err2" &
p2=$!
for _ in $(seq 1200); do grep -q "waiting for another winnow forward" "$WN_WORLD/err2" && break; sleep 0.05; done
check "the second run waits" grep -q "waiting for another winnow forward" "$WN_WORLD/err2"
: > "$WN_WORLD/go"
wait "$p1"; expect_eq "the first run: exit 0" 0 $?
wait "$p2"; expect_eq "the second run: nothing left (exit 1)" 1 $?
expect_eq "one mail between them" $((c0 + 1)) "$(calls)"

# notmuch locked while forwarding: the mail is sent, its record waits in
# the journal, and that counts as forwarded: exit 0 with a warning, and
# the next forward names the mail already sent.
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
"$WINNOW" mark "$id" 2 valid
check "another process holds notmuch's lock" wn_hold_lock
c0=$(calls)
printf 'y\n' | "$WINNOW" forward --timeout=0.3 "$id" > "$WN_WORLD/out" 2> "$err"
expect_eq "locked: sent, exit 0" 0 $?
expect_eq "locked: one mail" $((c0 + 1)) "$(calls)"
check "locked: says the record waits in the journal" grep -q "sent and recorded in the journal" "$err"
msgid=$(sed -n 's/^sent <\(.*\)>:.*/\1/p' "$WN_WORLD/out")
"$WINNOW" forward --dry-run "$id" > /dev/null 2> "$err"
check "the retry knows it was forwarded" grep -q "already forwarded.*$msgid" "$err"
kill "$WN_HOLDER"; wait "$WN_HOLDER" 2>/dev/null

wn_done
