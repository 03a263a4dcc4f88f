#!/usr/bin/env bash
# winnow ledger on the series fixture beside the demo mailbox: a bug
# marked pre-existing on v1 and carried to v2 and v3 (reworded, with
# "v2, line 212" and "v3" in its text) is one entry with three reports,
# as are the demo's; the mbox is one digest per list and parses with
# Python's mailbox module; --send goes through the confirm-then-send
# path to a recording sendmail.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
export TZ=UTC WINNOW_FORWARD_DATE=1796000000 WINNOW_FORWARD_SEED=ledger
check "v1 judged" wn_series_judge_v1
"$WINNOW" carry > /dev/null 2>&1
# The demo: A2 #3 and A3 #1, #2 are pre-existing (the bot says so too).
"$WINNOW" mark 20261102102845.9E02AC4CEF3@smtp.kernel.org 3 pre-existing
"$WINNOW" mark 20261102103702.17F5BC4CEE9@smtp.kernel.org all pre-existing --note "old since 5.10"

json=$WN_WORLD/ledger.json
"$WINNOW" ledger --format=json > "$json"
expect_eq "ledger exits 0" 0 $?
expect_eq "four bugs: the blinker one once, the demo's three" 4 "$(jq length "$json")"
expect_eq "by list, newest first" \
	'["linux-blinker.lists.example.org","linux-frobnic.lists.example.org","linux-frobnic.lists.example.org","linux-frobnic.lists.example.org"]' \
	"$(jq -c '[.[].list]' "$json")"
blinker() { jq -c ".[0] | $1" "$json"; }
expect_eq "blinker: three reviews, first and last" '[3,"2026-11-10T10:15:00Z","2026-11-24T10:15:00Z"]' \
	"$(blinker '[.reviews, .first, .last]')"
expect_eq "blinker: the reviews of v1, v2, v3, oldest first" "[\"$v1\",\"$v2\",\"$v3\"]" \
	"$(blinker '[.reports[].review]')"
expect_eq "blinker: the patches they were about" \
	'["[PATCH 2/5] blinker: stop the timer before freeing the ring buffer","[PATCH v2 2/5] blinker: stop the timer before freeing the ring buffer","[PATCH v3 2/5] blinker: stop the timer before freeing the ring buffer"]' \
	"$(blinker '[.reports[].patch_subject]')"
expect_eq "blinker: place and the newest summary" \
	'["drivers/misc/blinker/core.c",147,"blinker_stop","low","The v3 patch leaves it as it was: blinker_stop() writes BLINKER_CTRL without holding bl->lock, racing with blinker_set_rate()."]' \
	"$(blinker '[.file, .line, .function, .severity, .summary]')"
expect_eq "blinker: the note once" '["needs bl->lock in blinker_stop()"]' "$(blinker '.notes')"
expect_eq "demo A3: the note" '["old since 5.10"]' "$(jq -c '[.[] | select(.function == "frobnic_hw_reset")][0].notes' "$json")"

"$WINNOW" ledger --format=json "id:$v1 or id:$v2" | jq length > "$WN_WORLD/n"
expect_eq "QUERY narrows: v1 and v2 only, still one bug" 1 "$(cat "$WN_WORLD/n")"
expect_eq "QUERY narrows: two reports" 2 \
	"$("$WINNOW" ledger --format=json "id:$v1 or id:$v2" | jq '.[0].reports | length')"

text=$("$WINNOW" ledger)
check "text: place, summary, reviews" grep -qF "drivers/misc/blinker/core.c:147 in blinker_stop()  low" <<<"$text"
check "text: how many" grep -qF "  reported by 3 reviews, first 2026-11-10T10:15:00Z, last 2026-11-24T10:15:00Z" <<<"$text"
check "text: each report" grep -qF "    sashiko 2026-11-17T10:15:00Z  [PATCH v2 2/5] blinker: stop the timer before freeing the ring buffer" <<<"$text"

mbox=$WN_WORLD/ledger.mbox
"$WINNOW" ledger --format=mbox > "$mbox"
expect_eq "mbox exits 0" 0 $?
expect_eq "Python's mailbox reads one digest per list" \
	'2|linux-blinker@lists.example.org|linux-frobnic@lists.example.org|Demo Maintainer <maintainer@example.org>' \
	"$(python3 -c '
import mailbox, sys
msgs = list(mailbox.mbox(sys.argv[1]))
print("|".join([str(len(msgs))] + [m["To"] for m in msgs] + [msgs[0]["From"]]))' "$mbox")"
body=$(python3 -c '
import mailbox, sys
print(list(mailbox.mbox(sys.argv[1]))[0].get_payload(decode=True).decode())' "$mbox")
check "digest: the bug with its place" grep -qF "1. drivers/misc/blinker/core.c:147, in blinker_stop()" <<<"$body"
check "digest: how often and by whom" grep -qF "Reported 3 times, 2026-11-10 to" <<<"$body"
check "digest: each patch's Message-ID" grep -qF "     <$v2patch2>" <<<"$body"
check "digest: the note" grep -qF "   Note: needs bl->lock in blinker_stop()" <<<"$body"
expect_eq "digest: three bugs for frobnic" "Pre-existing bugs found by review bots in linux-frobnic.lists.example.org (3)" \
	"$(python3 -c '
import mailbox, sys, email.header
m = list(mailbox.mbox(sys.argv[1]))[1]
print(str(email.header.make_header(email.header.decode_header(m["Subject"]))).replace("\n", ""))' "$mbox" | sed 's/  */ /g')"

# --send: the drafts in $EDITOR, the question, then sendmail.
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
echo c | "$WINNOW" ledger --send > /dev/null 2> "$WN_WORLD/err"
expect_eq "cancelled: exit 1" 1 $?
expect_eq "cancelled: nothing sent" "" "$(cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null)"
check "cancelled: the two mails were listed" grep -qF "2. To: linux-frobnic@lists.example.org" "$WN_WORLD/err"
expect_eq "cancelled: no draft left" "" "$(ls "$XDG_STATE_HOME/winnow/drafts" 2>/dev/null)"
echo y | "$WINNOW" ledger --send > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "sent: exit 0" 0 $?
expect_eq "sent: two mails" 2 "$(cat "$FAKE_SENDMAIL_DIR/count")"
check "sent: as edited" grep -qx "Edited." "$FAKE_SENDMAIL_DIR/mail.1"
check "sent: said so" grep -qF "sent <" "$WN_WORLD/out"
"$WINNOW" ledger --send --format=json > /dev/null 2>&1; expect_eq "--send with --format is a usage error" 1 $?
"$WINNOW" ledger --format=xml > /dev/null 2>&1; expect_eq "an unknown format is a usage error" 1 $?
NOTMUCH_CONFIG=$WN_WORLD/none "$WINNOW" ledger > /dev/null 2>&1; expect_eq "no database: 2" 2 $?
check "--help" bash -c '"$WINNOW" ledger --help | grep -q "^Usage: winnow ledger"'

# A List-Id is any header's text: one that names no list ("Evil
# <evil@example.org>", an address) never becomes the digest's To, which
# goes to the user instead.
mail=$(notmuch config get database.path)
mkdir -p "$mail/cur"
cat > "$mail/cur/evil-patch:2,S" <<'MAIL'
From: Eve Author <eve@example.com>
To: Demo Maintainer <maintainer@example.org>
Subject: [PATCH] quux: free the table once
Date: Mon, 30 Nov 2026 09:00:00 +0000
Message-Id: <20261130090000.EVIL-1-eve@example.com>
List-Id: Evil <evil@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Free the table once.

Signed-off-by: Eve Author <eve@example.com>
---
diff --git a/drivers/misc/quux.c b/drivers/misc/quux.c
--- a/drivers/misc/quux.c
+++ b/drivers/misc/quux.c
@@ -40,3 +40,2 @@ static void quux_exit(struct quux *q)
 	kfree(q->table);
-	kfree(q->table);
 }
MAIL
cat > "$mail/cur/evil-review:2,S" <<'MAIL'
From: sashiko-bot@kernel.org
To: eve@example.com
Cc: Demo Maintainer <maintainer@example.org>
Subject: Re: [PATCH] quux: free the table once
Date: Mon, 30 Nov 2026 10:00:00 +0000
Message-Id: <20261130100000.EVIL2222@smtp.kernel.org>
In-Reply-To: <20261130090000.EVIL-1-eve@example.com>
References: <20261130090000.EVIL-1-eve@example.com>
List-Id: Evil <evil@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Thank you for your contribution! Sashiko AI review found 1 potential issue(s) to consider:

Pre-existing issues:
- [Low] quux_exit() leaves q->table pointing at the freed table.
--

> diff --git a/drivers/misc/quux.c b/drivers/misc/quux.c
> --- a/drivers/misc/quux.c
> +++ b/drivers/misc/quux.c
> @@ -40,3 +40,2 @@ static void quux_exit(struct quux *q)
>  	kfree(q->table);
> -	kfree(q->table);

[Severity: Low]
This isn't a bug introduced by this patch, but q->table is left pointing
at the freed table; a second quux_exit() would free it again.

-- 
Sashiko AI review · https://sashiko.dev/#/patchset/20261130090000.EVIL-1-eve@example.com
MAIL
notmuch new --quiet
"$WINNOW" mark 20261130100000.EVIL2222@smtp.kernel.org 1 pre-existing
"$WINNOW" ledger --format=mbox > "$WN_WORLD/evil.mbox"
expect_eq "a List-Id naming no list: its digest goes to the user, no other" \
	'linux-blinker@lists.example.org|linux-frobnic@lists.example.org|maintainer@example.org' \
	"$(python3 -c '
import mailbox, sys
print("|".join(sorted(m["To"] for m in mailbox.mbox(sys.argv[1]))))' "$WN_WORLD/evil.mbox")"
check "... never to the address it holds" bash -c '! grep -qi "^\(To\|Cc\):.*evil@" "$1"' _ "$WN_WORLD/evil.mbox"
wn_done
