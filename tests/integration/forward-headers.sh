#!/usr/bin/env bash
# No header winnow writes can be split by a line break, whatever the
# value's source: the user's own name and address (notmuch config), an
# operator's address (winnow.feedback.*), a draft resumed from disk.
# Each is refused with one clear line, and sendmail never runs.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=headers
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=true
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }
err=$WN_WORLD/err
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
"$WINNOW" mark "$id" 1 valid
"$WINNOW" mark "$id" 2 false-positive
"$WINNOW" mark "$id" 3 pre-existing
name=$(notmuch config get user.name)
nl=$(printf 'Mallory\nBcc: evil@example.net')

# Forward, ledger digests, feedback digests: each refuses the name.
notmuch config set user.name "$nl"
"$WINNOW" forward --dry-run "$id" > "$WN_WORLD/out" 2> "$err"
expect_eq "forward: a name with a line break is refused (exit 2)" 2 $?
check "forward: says which setting" grep -q "user.name in the notmuch config holds a line break" "$err"
check "forward: no Bcc in what was printed" bash -c '! grep -qi "^Bcc:" "$1"' _ "$WN_WORLD/out"
printf 'y\n' | "$WINNOW" forward "$id" > /dev/null 2> "$err"
expect_eq "forward: not sent" 0 "$(calls)"
printf 'y\n' | "$WINNOW" ledger --send > /dev/null 2> "$err"
check "ledger --send: refused" grep -q "user.name in the notmuch config holds a line break" "$err"
expect_eq "ledger --send: not sent" 0 "$(calls)"
notmuch config set winnow.feedback.sashiko "Sashiko <sashiko-feedback@example.org>"
"$WINNOW" feedback --dry-run > "$WN_WORLD/out" 2> "$err"
check "feedback: refused" grep -q "user.name in the notmuch config holds a line break" "$err"
check "feedback: no Bcc printed" bash -c '! grep -qi "^Bcc:" "$1"' _ "$WN_WORLD/out"
notmuch config set user.name "$name"

# The address: a line break in user.primary_email.
email=$(notmuch config get user.primary_email)
notmuch config set user.primary_email "$(printf 'me@example.org\nBcc: evil@example.net')"
"$WINNOW" forward --dry-run "$id" > "$WN_WORLD/out" 2> "$err"
expect_eq "primary_email with a line break: refused" 2 $?
check "primary_email: says which setting" grep -q "user.primary_email in the notmuch config is not one" "$err"
notmuch config set user.primary_email "$email"

# An operator's address with a line break in it.
notmuch config set winnow.feedback.sashiko "$(printf 'ops@example.org\nBcc: evil@example.net')"
"$WINNOW" feedback --dry-run > "$WN_WORLD/out" 2> "$err"
check "feedback address: refused" grep -q "hold a line break" "$err"
check "feedback address: no Bcc printed" bash -c '! grep -qi "^Bcc:" "$1"' _ "$WN_WORLD/out"
notmuch config set winnow.feedback.sashiko ""

# A postponed draft whose threading was tampered with on disk.
printf 'p\n' | "$WINNOW" forward "$id" > /dev/null 2> "$err"
json=$(ls "$XDG_STATE_HOME"/winnow/drafts/*.json)
jq '.in_reply_to = "x@y>\nBcc: <evil@example.net"' "$json" > "$json.new" && mv "$json.new" "$json"
printf 'y\n' | "$WINNOW" forward "$id" > /dev/null 2> "$err"
check "a draft's bad Message-ID: refused" grep -q "cannot go into a header" "$err"
expect_eq "... and not sent" 0 "$(calls)"

wn_done
