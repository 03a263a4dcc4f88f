#!/usr/bin/env bash
# winnow forward through a real MTA client, end to end, without any mail
# leaving the machine: Debian's msmtp delivers to an SMTP sink on
# 127.0.0.1 that this test starts (tests/lib/smtp-sink.py).  The mail
# received has the right envelope recipients and threading headers, and
# once stored and indexed it sits in the patch's thread.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
for p in msmtp python3; do
	command -v "$p" > /dev/null || { echo "SKIP: $p is not installed (./quickstart test installs it)"; exit 77; }
done
wn_world
export TZ=UTC EDITOR=true
unset VISUAL

sink=$WN_WORLD/sink
mkdir -p "$sink"
python3 "$WN_TOP_SRCDIR/tests/lib/smtp-sink.py" "$sink" > "$WN_WORLD/sink.out" 2> "$WN_WORLD/sink.err" &
sink_pid=$!
trap 'kill "$sink_pid" 2>/dev/null; wait "$sink_pid" 2>/dev/null; wn_world_cleanup' EXIT
port=
for _ in $(seq 100); do
	port=$(sed -n 's/^port //p' "$WN_WORLD/sink.out")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || { echo "the SMTP sink did not start:"; cat "$WN_WORLD/sink.err"; exit 99; }

# msmtp refuses a config file others may read.
cat > "$WN_WORLD/msmtprc" <<MSMTP
defaults
auth off
tls off
logfile $WN_WORLD/msmtp.log

account sink
host 127.0.0.1
port $port
from maintainer@example.org

account default : sink
MSMTP
chmod 600 "$WN_WORLD/msmtprc"
notmuch config set winnow.sendmail "msmtp -C $WN_WORLD/msmtprc --read-envelope-from -t -oi"

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
patch=20261102-frobnic-teardown-v2-2-5c1e2a7d9b30@example.org
cover=20261102-frobnic-teardown-v2-0-5c1e2a7d9b30@example.org
"$WINNOW" mark "$id" 1 valid
echo y | "$WINNOW" forward --full "$id" > "$WN_WORLD/out" 2> "$WN_WORLD/err"
rc=$?
expect_eq "forward through msmtp exits 0" 0 $rc
[ $rc -eq 0 ] || sed 's/^/  stderr: /' "$WN_WORLD/err" "$WN_WORLD/msmtp.log"
msgid=$(sed -n 's/^sent <\(.*\)>:.*/\1/p' "$WN_WORLD/out")
check "the sink received one mail" test -f "$sink/1.env" -a ! -e "$sink/2.eml"

expect_eq "envelope sender: the user" "from maintainer@example.org" "$(head -n 1 "$sink/1.env")"
expect_eq "envelope recipients: the author, the patch's people and the list" \
	"erik.reviewer@example.org
fiona.maintainer@example.org
joerg.beispiel@example.org
linux-frobnic@lists.example.org" "$(sed -n 's/^to //p' "$sink/1.env" | LC_ALL=C sort)"
mail=$sink/1.eml
hdr() { sed '/^$/q' "$mail" | grep -i "^$1:"; }
expect_eq "Message-ID as winnow said" "Message-Id: <$msgid>" "$(hdr message-id)"
expect_eq "In-Reply-To: the patch" "In-Reply-To: <$patch>" "$(hdr in-reply-to)"
check "References: the cover letter, then the patch" \
	bash -c 'sed "/^\$/q" "$1" | tr -d "\n\t" | grep -q "References: <'"$cover"'> *<'"$patch"'>"' _ "$mail"
check "the body holds the valid finding" grep -q "FROBNIC_IRQ_MASK through fd->regs" "$mail"

# Stored and indexed, the reply is in the patch's thread.
notmuch insert --folder=received --create-folder < "$mail"
expect_eq "notmuch indexed the received mail" "id:$msgid" "$(notmuch search --output=messages "id:$msgid")"
# notmuch show's JSON nests [message, [replies...]]: the parent of the
# sent mail in the patch's thread is the patch.
expect_eq "in the patch's thread, a reply to the patch" "$patch" \
	"$(notmuch show --entire-thread=true --format=json "id:$patch" | jq -r --arg m "$msgid" \
	   '.. | arrays | select(length == 2 and (.[0] | type) == "object" and .[0].id? != null) | select(.[1][]?[0].id? == $m) | .[0].id' | head -n 1)"
expect_eq "recorded as forwarded in that mail" "$msgid" \
	"$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].forwarded' | cut -d' ' -f2)"

wn_done
