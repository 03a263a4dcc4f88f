#!/usr/bin/env bash
# winnow forward against a sendmail that misbehaves: one that reads part
# of the mail or none of it and exits 0 has not taken it; one that exits
# but leaves a child holding the pipe has finished (winnow does not wait
# for the child); a hung one is stopped by winnow.sendmail_timeout or by
# Ctrl-C.  In every failure the draft stays and nothing is recorded.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=sendmail
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=true
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
"$WINNOW" mark "$id" 1 valid
drafts=$XDG_STATE_HOME/winnow/drafts
err=$WN_WORLD/err
forwarded() { "$WINNOW" show --format=json "$id" | jq -r '.findings[0].forwarded'; }
cleanup() {
	for f in daemon hanging; do
		[ -f "$FAKE_SENDMAIL_DIR/$f" ] && kill "$(cat "$FAKE_SENDMAIL_DIR/$f")" 2>/dev/null
	done
	wn_world_cleanup
}
trap cleanup EXIT

for mode in partial none; do
	printf 'y\n' | FAKE_SENDMAIL_MODE=$mode timeout 120 "$WINNOW" forward "$id" > /dev/null 2> "$err"
	expect_eq "$mode: exit 2" 2 $?
	check "$mode: says sendmail did not read the mail" grep -q "exited 0 but read only" "$err"
	expect_eq "$mode: not recorded as forwarded" null "$(forwarded)"
	expect_eq "$mode: the draft is kept" 1 "$(ls "$drafts" | grep -c '\.eml$')"
done

# Ctrl-C stops a hung sendmail; the draft stays.
printf 'y\n' > "$WN_WORLD/yes"
FAKE_SENDMAIL_MODE=hang "$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2> "$err" &
pid=$!
for _ in $(seq 1200); do [ -s "$FAKE_SENDMAIL_DIR/hanging" ] && break; sleep 0.05; done
check "hang: sendmail is running" test -s "$FAKE_SENDMAIL_DIR/hanging"
kill -INT "$pid"
wait "$pid"; rc=$?
expect_eq "Ctrl-C: exit 2" 2 "$rc"
check "Ctrl-C: says the mail is not sent" grep -q "was stopped (Ctrl-C): the mail is not sent" "$err"
check "Ctrl-C: sendmail is gone" bash -c '! kill -0 "$(cat "$1")" 2>/dev/null' _ "$FAKE_SENDMAIL_DIR/hanging"
expect_eq "Ctrl-C: the draft is kept" 1 "$(ls "$drafts" | grep -c '\.eml$')"
expect_eq "Ctrl-C: not recorded" null "$(forwarded)"
rm -f "$FAKE_SENDMAIL_DIR/hanging"

# winnow.sendmail_timeout bounds a hung sendmail.
notmuch config set winnow.sendmail_timeout 1
printf 'y\n' | FAKE_SENDMAIL_MODE=hang timeout 120 "$WINNOW" forward "$id" > /dev/null 2> "$err"
expect_eq "timeout: exit 2" 2 $?
check "timeout: says so" grep -q "did not finish in 1 s (winnow.sendmail_timeout)" "$err"
expect_eq "timeout: the draft is kept" 1 "$(ls "$drafts" | grep -c '\.eml$')"
rm -f "$FAKE_SENDMAIL_DIR/hanging"
notmuch config set winnow.sendmail_timeout nonsense
"$WINNOW" forward --dry-run "$id" > /dev/null 2> "$err"
expect_eq "a sendmail_timeout that is no number: exit 2" 2 $?
check "... says what it must be" grep -q "winnow.sendmail_timeout must be a number of seconds" "$err"
notmuch config set winnow.sendmail_timeout ""

# A child left holding the pipe: winnow returns when sendmail exits
# (the child lives for 600 s; the test's timeout is well below that).
printf 'y\n' | FAKE_SENDMAIL_MODE=daemon timeout 300 "$WINNOW" forward "$id" > "$WN_WORLD/out" 2> "$err"
expect_eq "daemon: sent, exit 0" 0 $?
check "daemon: the child is still there" kill -0 "$(cat "$FAKE_SENDMAIL_DIR/daemon")"
check "daemon: recorded as forwarded" bash -c '[ "$1" != null ]' _ "$(forwarded)"
expect_eq "daemon: the draft is gone" 0 "$(ls "$drafts" | grep -c '\.eml$')"

wn_done
