#!/usr/bin/env bash
# winnow killed (kill -9) while sendmail has the mail: the journal said
# "handed to sendmail" before sendmail started, so the retry knows the
# mail may have gone out.  A run that cannot ask (--all, no terminal)
# refuses that mail, says which and why, sends the others and exits 1;
# the doubt survives the journal's compaction; --resend sends it again.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=crash
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=true
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
other=20261104131907.E5C4FC4CED0@smtp.kernel.org
"$WINNOW" mark "$id" 1 valid
drafts=$XDG_STATE_HOME/winnow/drafts
err=$WN_WORLD/err
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }
# The mails sendmail got that answer the patch of $id.
delivered() { grep -l '^In-Reply-To: <20261102' "$FAKE_SENDMAIL_DIR"/mail.* 2>/dev/null | wc -l; }
forwarded() { "$WINNOW" show --format=json "$1" | jq -r '.findings[0].forwarded'; }
cleanup() {
	[ -f "$FAKE_SENDMAIL_DIR/hanging" ] && kill "$(cat "$FAKE_SENDMAIL_DIR/hanging")" 2>/dev/null
	wn_world_cleanup
}
trap cleanup EXIT

# sendmail has read the whole mail (mail.1 is written) and hangs: winnow
# is killed right then, before sendmail's exit could tell it anything.
printf 'y\n' > "$WN_WORLD/yes"
FAKE_SENDMAIL_MODE=hang "$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2> "$err" &
pid=$!
for _ in $(seq 1200); do [ -s "$FAKE_SENDMAIL_DIR/hanging" ] && break; sleep 0.05; done
check "sendmail took the mail and hangs" test -s "$FAKE_SENDMAIL_DIR/hanging"
kill -9 "$pid"
wait "$pid" 2>/dev/null
kill "$(cat "$FAKE_SENDMAIL_DIR/hanging")" 2>/dev/null
rm -f "$FAKE_SENDMAIL_DIR/hanging"
expect_eq "one delivery" 1 "$(delivered)"
expect_eq "the draft is still there" 1 "$(ls "$drafts" | grep -c '\.eml$')"
msgid=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/Ip' "$FAKE_SENDMAIL_DIR/mail.1")
check "the mail has a Message-ID" test -n "$msgid"

# The retry in batch mode: that mail is refused, another one goes out.
"$WINNOW" mark "$other" 1 valid
"$WINNOW" forward --all < "$WN_WORLD/yes" > "$WN_WORLD/out" 2> "$err"
expect_eq "batch retry: exit 1" 1 $?
expect_eq "batch retry: not sent again" 1 "$(delivered)"
expect_eq "batch retry: the other mail is sent" 2 "$(calls)"
check "batch retry: names the mail and says why" \
	grep -q "not forwarding 'Re: .*' <$msgid>: this mail may have been sent already at 2026-11-14 10:40 UTC.*--resend" "$err"
expect_eq "batch retry: the other one is recorded" true \
	"$(forwarded "$other" | grep -q "^2026" && echo true)"
expect_eq "batch retry: the draft is kept" 1 "$(ls "$drafts" | grep -c '\.eml$')"

# Without a terminal a single forward does not ask: it refuses as well.
"$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2> "$err"
expect_eq "no terminal: exit 1" 1 $?
expect_eq "no terminal: not sent again" 1 "$(delivered)"
check "no terminal: says why" grep -q "may have been sent already" "$err"

# Compaction keeps the doubt: the journal is rewritten, still refused.
before=$(wc -l < "$XDG_STATE_HOME"/winnow/journal-????????????????)
for v in false-positive valid false-positive valid; do
	WINNOW_JOURNAL_KEEP=1 "$WINNOW" mark "$other" 2 "$v"
done
after=$(wc -l < "$XDG_STATE_HOME"/winnow/journal-????????????????)
check "the journal was compacted" test "$after" -lt "$((before + 4))"
"$WINNOW" forward --all < "$WN_WORLD/yes" > /dev/null 2> "$err"
expect_eq "after compaction: exit 1" 1 $?
expect_eq "after compaction: not sent again" 1 "$(delivered)"

# --resend: the user saw it did not arrive, and sends it again.
"$WINNOW" forward --all --resend < "$WN_WORLD/yes" > "$WN_WORLD/out" 2> "$err"
expect_eq "--resend: exit 0" 0 $?
expect_eq "--resend: sent again" 2 "$(delivered)"
check "--resend: warns it sends again" grep -q "sending it again (--resend)" "$err"
check "--resend: same Message-ID" grep -q "^sent <$msgid>" "$WN_WORLD/out"
check "--resend: recorded" bash -c '[ "$1" != null ]' _ "$(forwarded "$id")"
expect_eq "--resend: the draft is gone" 0 "$(ls "$drafts" | grep -c '\.eml$')"

# A sendmail that failed did not take the mail: the retry sends freely.
"$WINNOW" mark "$id" 2 valid
FAKE_SENDMAIL_MODE=fail "$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2> "$err"
expect_eq "a failed sendmail: exit 2" 2 $?
c0=$(calls)
"$WINNOW" forward "$id" < "$WN_WORLD/yes" > /dev/null 2> "$err"
expect_eq "after a failure: the retry sends, exit 0" 0 $?
expect_eq "after a failure: one more mail" $((c0 + 1)) "$(calls)"

wn_done
