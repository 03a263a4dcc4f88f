#!/usr/bin/env bash
# winnow.drafts_folder: forward --to-drafts writes the mail
# as a maildir draft (tmp/, then cur/ flagged D) into a folder of the
# database, for the user's mailer to finish and send.  Its findings are
# not forwarded until the sent copy (the same Message-ID, outside the
# drafts folder, no D flag) is in the index: then the next winnow
# command records them, dated by the sent copy.  Meanwhile winnow never
# sends or drafts the same mail again without --resend.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/forward"
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=drafts
export FAKE_SENDMAIL_DIR=$WN_WORLD/sendmail
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }
mail=$WN_WORLD/db/mail
hv=20261119113000.9F8E7D6C5B4@smtp.kernel.org
"$WINNOW" mark "$hv" 1 valid
forwarded() { "$WINNOW" show --format=json "$hv" | jq -c '[.findings[].forwarded]'; }

"$WINNOW" forward --to-drafts "$hv" > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "without winnow.drafts_folder: a configuration error" 2 $?
check "... naming the key" grep -q "winnow.drafts_folder is not set" "$WN_WORLD/err"

notmuch config set winnow.drafts_folder drafts
"$WINNOW" forward --to-drafts "$hv" > "$WN_WORLD/out" 2> "$WN_WORLD/err" < /dev/null
expect_eq "--to-drafts exits 0" 0 $?
draft=$(cat "$WN_WORLD/out")
check "the draft is in the folder's cur/, flagged draft and seen" \
	bash -c '[[ $1 == "$2"/drafts/cur/*:2,DS ]] && test -f "$1"' _ "$draft" "$mail"
expect_eq "nothing left in tmp/, nothing in new/" "" "$(find "$mail/drafts/tmp" "$mail/drafts/new" -type f)"
msgid=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$draft")
check "the draft has a Message-ID" test -n "$msgid"
check "the draft is a reply to the review the author has" grep -qx "In-Reply-To: <$hv>" "$draft"
check "indexed, tagged draft" bash -c 'notmuch search --output=tags "id:$1" | grep -qx draft' _ "$msgid"
expect_eq "sendmail did not run" 0 "$(calls)"
expect_eq "not forwarded yet: only a draft" '[null]' "$(forwarded)"

# Never twice: the same mail again, drafted or sent, waits for --resend.
"$WINNOW" forward --to-drafts "$hv" > /dev/null 2> "$WN_WORLD/err" < /dev/null
expect_eq "drafting it again: refused" 1 $?
check "... saying it is in the drafts folder" grep -q "written to the drafts folder" "$WN_WORLD/err"
"$WINNOW" forward "$hv" > /dev/null 2> "$WN_WORLD/err" < /dev/null
expect_eq "sending it from winnow: refused" 1 $?
expect_eq "still one draft, no mail sent" "1 0" "$(ls "$mail/drafts/cur" | wc -l) $(calls)"

# The mailer sends it: the draft leaves the folder, the sent copy (no D)
# lands in another; notmuch new indexes it.  Before: nothing changes.
"$WINNOW" list > /dev/null
expect_eq "a draft still a draft: not forwarded" '[null]' "$(forwarded)"
mkdir -p "$mail/sent/cur" "$mail/sent/new" "$mail/sent/tmp"
sed 's/^Date: .*/Date: Sun, 15 Nov 2026 09:00:00 +0000/' "$draft" > "$mail/sent/cur/1794736800.sent.host:2,S"
rm "$draft"
notmuch new --quiet
"$WINNOW" list > /dev/null
expect_eq "the sent copy is indexed: finding 1 forwarded in that mail, at its date" \
	"[\"2026-11-15T09:00:00Z $msgid\"]" "$(forwarded)"
expect_eq "winnow's own copy of the draft is gone" "" "$(ls "$XDG_STATE_HOME/winnow/drafts")"
"$WINNOW" forward --to-drafts "$hv" > /dev/null 2> "$WN_WORLD/err" < /dev/null
expect_eq "drafting it anew, as forward does: exit 0" 0 $?
check "... saying the finding was forwarded, when and in which mail" \
	grep -q "finding 1 of the Sashiko review was already forwarded on 2026-11-15T09:00:00Z in <$msgid>" "$WN_WORLD/err"

# Or winnow sends it after all (--resend): recorded as any mail winnow
# sends, and the pending state ends with it.
bpf=f00dfeed0123456789abcdef01234567@mail.kernel.org
"$WINNOW" mark "$bpf" all valid
"$WINNOW" forward --to-drafts "$bpf" > "$WN_WORLD/out" 2> /dev/null < /dev/null
bpfid=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$(cat "$WN_WORLD/out")")
printf 'y\n' | EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft VISUAL= "$WINNOW" forward --resend "$bpf" \
	> /dev/null 2> "$WN_WORLD/err"
expect_eq "--resend: winnow sends the drafted mail itself" "0 1" "$? $(calls)"
bpf_fwd() { "$WINNOW" show --format=json "$bpf" | jq -r '.findings[0].forwarded'; }
expect_eq "recorded as forwarded in that mail" "2026-11-14T10:40:00Z $bpfid" "$(bpf_fwd)"
bpfdraft=$(cat "$WN_WORLD/out")
sed 's/^Date: .*/Date: Mon, 16 Nov 2026 09:00:00 +0000/' "$bpfdraft" > "$mail/sent/cur/1794823200.sent.host:2,S"
notmuch new --quiet
"$WINNOW" list > /dev/null
expect_eq "no longer pending: a copy sent from the mailer too records nothing more" \
	"2026-11-14T10:40:00Z $bpfid" "$(bpf_fwd)"
wn_done
