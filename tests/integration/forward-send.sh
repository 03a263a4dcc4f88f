#!/usr/bin/env bash
# winnow forward, the whole flow from the command line: the draft opens
# in a scripted $EDITOR, the answer comes on stdin, the mail goes to a
# recording sendmail stand-in (tests/lib/fake-sendmail; nothing is ever
# sent).  Every failure of sendmail -- non-zero exit, missing program,
# killed by a signal -- leaves the draft and the verdicts as they were
# and marks nothing forwarded; success records what was forwarded.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=send
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
fake=$WN_TOP_SRCDIR/tests/lib/fake-sendmail
demo_sendmail=$(notmuch config get winnow.sendmail)
notmuch config set winnow.sendmail "$fake -t -oi"

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
patch=20261102-frobnic-teardown-v2-2-5c1e2a7d9b30@example.org
drafts=$XDG_STATE_HOME/winnow/drafts
"$WINNOW" mark "$id" 1 valid
"$WINNOW" mark "$id" 2 false-positive --note "the message is fine"
"$WINNOW" mark "$id" 3 pre-existing

state() { "$WINNOW" show --format=json "$id" | jq -c '[.findings[] | [.verdict, .note, .forwarded]]'; }
before=$(state)
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }

# forward_with MODE ANSWER [ARGS]: run the flow; stderr in $err.
err=$WN_WORLD/err
forward_with() {
	local mode=$1 answer=$2
	shift 2
	printf '%s\n' "$answer" | FAKE_SENDMAIL_MODE=$mode "$WINNOW" forward --full "$@" "$id" > "$WN_WORLD/out" 2> "$err"
}

# untouched NAME: after a failure, the draft is there as it was left,
# verdicts and notes are as they were, nothing is marked forwarded.
untouched() {
	expect_eq "$1: the draft is kept" 2 "$(ls "$drafts" | grep -c '\.\(eml\|json\)$')"
	expect_eq "$1: the draft is unchanged" "$draft_sum" "$(cat "$drafts"/*.eml | md5sum)"
	expect_eq "$1: the verdicts are unchanged" "$before" "$(state)"
	expect_eq "$1: not tagged forwarded" "" "$(notmuch search --output=messages tag:winnow/forwarded)"
	check "$1: no forwarded property" bash -c "! notmuch dump --include=properties id:$id | grep -q winnow.forwarded"
}

# A first run: the editor appends a line, then postpone.
forward_with ok p; expect_eq "postpone exits 0" 0 $?
expect_eq "postponed: sendmail not run" 0 "$(calls)"
check "postponed: says where the draft is" grep -q "postponed" "$err"
expect_eq "the draft is private (0600)" 600 "$(stat -c %a "$drafts"/*.eml)"
expect_eq "the drafts folder is private (0700)" 700 "$(stat -c %a "$drafts")"
check "the editor's edit is in the draft" grep -qx "Edited." "$drafts"/*.eml
draft_sum=$(cat "$drafts"/*.eml | md5sum)

# Failures: the editor runs again on the resumed draft (EDITOR=true
# leaves it alone), then sending fails three ways.
EDITOR=true forward_with fail y; expect_eq "sendmail exits 75: exit 2" 2 $?
check "resumed the postponed draft" grep -q "resuming the draft" "$err"
check "sendmail's exit status is shown" grep -q "exited with status 75" "$err"
check "sendmail's stderr is shown" grep -q "relay refused the mail" "$err"
expect_eq "sendmail got the mail" 1 "$(calls)"
untouched "exit 75"

notmuch config set winnow.sendmail "$WN_WORLD/no-such-sendmail -t -oi"
EDITOR=true forward_with ok y; expect_eq "missing sendmail: exit 2" 2 $?
check "missing sendmail: says so" grep -q "no-such-sendmail.*No such file or directory" "$err"
untouched "missing program"
notmuch config set winnow.sendmail "$fake -t -oi"

EDITOR=true forward_with kill y; expect_eq "sendmail killed: exit 2" 2 $?
check "killed: says by which signal" grep -q "killed by signal 9" "$err"
untouched "killed"

# An editor that fails: the draft stays, nothing is asked to send.
EDITOR=false forward_with ok y; expect_eq "failing editor: not sent" 0 $?
check "failing editor: says so" grep -q "the editor 'false' exited with status 1" "$err"
check "failing editor: only edit, postpone or cancel offered" grep -q "Fix the draft first" "$err"
untouched "failing editor"

# Success.  With the draft left as composed (plus the one edit), what
# sendmail gets is what --dry-run prints, plus that line.  A copy goes
# to winnow.sent_folder, indexed.
notmuch config set winnow.sent_folder sent
n0=$(calls)
EDITOR=true forward_with ok y; expect_eq "sent: exit 0" 0 $?
expect_eq "sendmail ran once more" $((n0 + 1)) "$(calls)"
expect_eq "sendmail's arguments: the configured words" "-t
-oi" "$(cat "$FAKE_SENDMAIL_DIR/args.$(calls)")"
sent=$FAKE_SENDMAIL_DIR/mail.$(calls)
msgid=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$sent")
check "stdout names the sent mail" grep -q "^sent <$msgid>" "$WN_WORLD/out"
expect_eq "the draft is gone" "" "$(ls "$drafts")"
expect_eq "a reply to the patch" "In-Reply-To: <$patch>" "$(grep '^In-Reply-To:' "$sent")"
check "the edit was sent" grep -qx "Edited." "$sent"
check "the valid finding was sent" grep -q "FROBNIC_IRQ_MASK through fd->regs" "$sent"
check "the false positive was not" bash -c '! grep -q "commit message says\|the message is fine" "$1"' _ "$sent"
fp1=$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].fingerprint')
check "forwarded property: time and Message-ID" bash -c \
	"notmuch dump --include=properties id:$id | grep -q 'winnow.forwarded.$fp1=2026-11-14T10%3a40%3a00Z%20$msgid'"
expect_eq "tagged winnow/forwarded" "id:$id" "$(notmuch search --output=messages tag:winnow/forwarded)"
expect_eq "only the valid finding is recorded" 1 \
	"$(notmuch dump --include=properties id:$id | grep -o 'winnow.forwarded' | wc -l)"
expect_eq "winnow show says when and where" "2026-11-14T10:40:00Z $msgid" \
	"$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].forwarded')"
copy=$(notmuch search --output=files "id:$msgid")
check "the sent copy is in the sent folder, seen" bash -c '[[ $1 == */mail/sent/cur/*:2,S ]]' _ "$copy"
check "the sent copy is what sendmail got" cmp -s "$copy" "$sent"
expect_eq "the sent copy is in the patch's thread" "thread:$(notmuch search --output=threads "id:$patch" | cut -d: -f2)" \
	"$(notmuch search --output=threads "id:$msgid")"
notmuch config set winnow.sent_folder ""

# The same mail as --dry-run prints (Date and Message-ID pinned by the
# test's environment), but for the line the editor added on the first run.
"$WINNOW" forward --full --dry-run "$id" > "$WN_WORLD/dry" 2> "$err"
check "--dry-run prints the mail that was sent" \
	diff <(grep -vx "Edited." "$sent") "$WN_WORLD/dry"
check "forwarding again warns when and in which mail" \
	grep -q "already forwarded on 2026-11-14T10:40:00Z in <$msgid>" "$err"

# --all leaves out what was forwarded: no other patch has valid findings.
"$WINNOW" forward --full --all --dry-run > "$WN_WORLD/all" 2> "$err"
expect_eq "--all: nothing left to forward" 1 $?
# Two reviews of one patch (Sashiko and 0-day on widgetnet 3/3) make one
# mail; the bpf patch another.
"$WINNOW" mark 20261104131907.E5C4FC4CED0@smtp.kernel.org 1 valid
"$WINNOW" mark 20261104023058.D3ADBC4CEC7@smtp.kernel.org 1 valid
"$WINNOW" mark 202611041530.Xq7Lm2Pz-lkp@intel.com 2 valid
"$WINNOW" forward --full --all --dry-run > "$WN_WORLD/all" 2> "$err"; expect_eq "--all: exit 0" 0 $?
expect_eq "--all: one mail per patch, as an mbox" "2 2" \
	"$(grep -c '^From winnow ' "$WN_WORLD/all") $(grep -c '^In-Reply-To:' "$WN_WORLD/all")"
check "--all: both reviews of one patch in one mail" bash -c \
	'grep -q "^Findings of the Sashiko review:" "$1" && grep -q "^Findings of the 0-day review:" "$1" && grep -q "^0-day and Sashiko reviewed" "$1"' _ "$WN_WORLD/all"
check "--all: not the forwarded review" bash -c '! grep -q "frobnic: free the IRQ" "$1"' _ "$WN_WORLD/all"
# Days and months are named in English whatever the locale: the mbox
# "From " line in asctime's layout for mbox readers, the Date: header as
# RFC 5322 has it.  A French locale is built for the run where localedef
# and glibc's locale sources (Debian's locales) are there.
loc=$WN_WORLD/locale
mkdir -p "$loc" && localedef -i fr_FR -f UTF-8 "$loc/fr_FR.UTF-8" > /dev/null 2>&1
if [ "$(LOCPATH=$loc LC_ALL=fr_FR.UTF-8 date -u -d @1794652800 +%a)" != Sat ]; then
	fr=(env LOCPATH="$loc" LANG=fr_FR.UTF-8 LC_ALL=fr_FR.UTF-8)
else
	echo "# no French locale could be built: the dates are checked in the current locale only"
	fr=(env)
fi
"${fr[@]}" "$WINNOW" forward --full --all --dry-run > "$WN_WORLD/all-fr" 2> "$err"
expect_eq "in a French locale: exit 0" 0 $?
expect_eq "... every mbox From line in English" \
	"From winnow Sat Nov 14 10:40:00 2026
From winnow Sat Nov 14 10:40:00 2026" "$(grep '^From winnow ' "$WN_WORLD/all-fr")"
expect_eq "... every Date: header in English" \
	"Date: Sat, 14 Nov 2026 10:40:00 +0000
Date: Sat, 14 Nov 2026 10:40:00 +0000" "$(grep '^Date: ' "$WN_WORLD/all-fr")"
rm -rf "$WN_WORLD/eml"
"$WINNOW" forward --full --all -o "$WN_WORLD/eml" > "$WN_WORLD/out" 2> "$err"; expect_eq "-o DIR: exit 0" 0 $?
expect_eq "-o DIR: one file per mail" "$(grep -c '^From winnow ' "$WN_WORLD/all")" "$(ls "$WN_WORLD/eml" | wc -l)"
check "-o DIR: numbered files named after the subject" bash -c 'ls "$1" | grep -qx "0001-.*bpf.*\.eml"' _ "$WN_WORLD/eml"
expect_eq "-o DIR: stdout lists them" "$(ls "$WN_WORLD/eml"/* | LC_ALL=C sort)" "$(LC_ALL=C sort "$WN_WORLD/out")"

# Opt-out: refused with one line, unless --force; nothing sent.
notmuch config set winnow.optout "nobody@example.com;@example.org"
n0=$(calls)
forward_with ok y; expect_eq "opted out: exit 1" 1 $?
expect_eq "opted out: one line" 1 "$(grep -c 'opted out' "$err")"
check "opted out: names who" grep -q "joerg.beispiel@example.org opted out" "$err"
expect_eq "opted out: nothing sent" "$n0" "$(calls)"
"$WINNOW" forward --force --dry-run "$id" > /dev/null 2> "$err"; expect_eq "--force: goes on" 0 $?
check "--force: still warns" grep -q "sending anyway" "$err"
# Opt-out as copied from a mail, with plus-addressing and a bare domain.
for o in 'Joerg B <Joerg.Beispiel+lkml@Example.ORG>' 'x@example.com, "joerg.beispiel"@example.org' 'example.org'; do
	notmuch config set winnow.optout "$o"
	forward_with ok y; expect_eq "opted out as '$o': exit 1" 1 $?
	expect_eq "opted out as '$o': nothing sent" "$n0" "$(calls)"
done
notmuch config set winnow.optout "joerg.beispiel@example.org; what is this"
forward_with ok y; expect_eq "unreadable opt-out: refused" 2 $?
check "unreadable opt-out: says which entry" grep -q "winnow.optout: cannot read 'what is this'" "$err"
expect_eq "unreadable opt-out: nothing sent" "$n0" "$(calls)"
notmuch config set winnow.optout ""

# Cancel: the draft goes, nothing is sent.
forward_with ok c; expect_eq "cancel exits 0" 0 $?
expect_eq "cancelled: nothing sent" "$n0" "$(calls)"
expect_eq "cancelled: no draft left" "" "$(ls "$drafts")"

# A postponed draft that cannot be resumed is set aside, not lost, and
# a new one is composed.
forward_with ok p
echo '{}' > "$(ls "$drafts"/*.json)"
forward_with ok c; expect_eq "a broken draft does not block forwarding" 0 $?
check "says the draft cannot be resumed and where its text went" \
	grep -q "not a winnow draft; its text is kept in .*\.eml\.old" "$err"
check "the text set aside is the user's" grep -qx "Edited." "$drafts"/*.eml.old
rm -f "$drafts"/*

# The demo's sendmail (contrib/demo-sendmail, what mkdb.sh configures):
# the reply lands in the database, in the patch's thread, exactly as
# --dry-run printed it.
notmuch config set winnow.sendmail "$demo_sendmail"
id2=20261102103702.17F5BC4CEE9@smtp.kernel.org
patch2=20261102-frobnic-teardown-v2-3-5c1e2a7d9b30@example.org
"$WINNOW" mark "$id2" 1 valid
"$WINNOW" forward --full --dry-run "$id2" > "$WN_WORLD/dry2"
printf 'y\n' | EDITOR=true "$WINNOW" forward --full "$id2" > "$WN_WORLD/out" 2> "$err"
expect_eq "demo sendmail: exit 0" 0 $?
msgid2=$(sed -n 's/^sent <\(.*\)>:.*/\1/p' "$WN_WORLD/out")
check "demo sendmail: stored in the outbox folder" bash -c \
	'notmuch search --output=files "id:$1" | grep -q "/mail/outbox/"' _ "$msgid2"
expect_eq "demo sendmail: in the patch's thread" "$(notmuch search --output=threads "id:$patch2")" \
	"$(notmuch search --output=threads "id:$msgid2")"
check "demo sendmail: the mail is what --dry-run printed" \
	cmp -s "$WN_WORLD/dry2" "$(notmuch search --output=files "id:$msgid2")"

# A template that is no regular file is an error, not a hang (a FIFO
# nobody writes to, /dev/zero); nor is a huge one read.
mkfifo "$WN_WORLD/fifo"
head -c 100000 /dev/zero | tr '\0' x > "$WN_WORLD/huge"
for t in "$WN_WORLD/fifo" /dev/zero "$WN_WORLD" "$WN_WORLD/huge"; do
	notmuch config set winnow.forward_template "$t"
	timeout 120 "$WINNOW" forward --full --dry-run "$id2" > /dev/null 2> "$err"
	expect_eq "forward_template $t: exit 2" 2 $?
	check "forward_template $t: one line saying why" grep -q "winnow.forward_template: cannot read $t: \(not a regular file\|larger than 64 KiB\)" "$err"
done
notmuch config set winnow.forward_template ""

# A list's own wording: winnow.forward_template.<list> for a patch sent
# to that list (the address any case), the common one for the others;
# forward_reply_template.<list> likewise for a verdict reply.
printf 'Dear {first}, the frobnic list asks: {findings}\n' > "$WN_WORLD/frob.tpl"
printf 'Reply for frobnic, {first}.\n{findings}\n' > "$WN_WORLD/frob-reply.tpl"
printf 'Other list, {first}.\n{findings}\n' > "$WN_WORLD/other.tpl"
notmuch config set winnow.forward_template.Linux-Frobnic@lists.example.org "$WN_WORLD/frob.tpl"
notmuch config set winnow.forward_template.netdev@vger.kernel.org "$WN_WORLD/other.tpl"
notmuch config set winnow.forward_reply_template.linux-frobnic@lists.example.org "$WN_WORLD/frob-reply.tpl"
"$WINNOW" forward --full --dry-run "$id2" > "$WN_WORLD/list.eml" 2> "$err"
expect_eq "a list's template: exit 0" 0 $?
check "the patch's list's template is used" grep -q '^Dear .*, the frobnic list asks:' "$WN_WORLD/list.eml"
check "not another list's" bash -c '! grep -q "Other list" "$1"' _ "$WN_WORLD/list.eml"
"$WINNOW" forward --dry-run "$id2" > "$WN_WORLD/list-reply.eml" 2> "$err"
check "a verdict reply takes the list's reply template" grep -q '^Reply for frobnic, ' "$WN_WORLD/list-reply.eml"
notmuch config set winnow.forward_template.linux-frobnic@lists.example.org ""
"$WINNOW" forward --full --dry-run "$id2" > "$WN_WORLD/list.eml" 2> "$err"
check "unset: the common template again" bash -c '! grep -q "frobnic list asks\|Other list" "$1"' _ "$WN_WORLD/list.eml"
notmuch config set winnow.forward_template.no-list "$WN_WORLD/frob.tpl"
"$WINNOW" forward --full --dry-run "$id2" > /dev/null 2> "$err"
expect_eq "a key naming no list's address: exit 2" 2 $?
check "says what it wants" grep -q "winnow.forward_template.no-list: wants a list's address" "$err"
notmuch config set winnow.forward_template.no-list ""
notmuch config set winnow.forward_template.netdev@vger.kernel.org ""
notmuch config set winnow.forward_reply_template.linux-frobnic@lists.example.org ""

# Usage errors.
"$WINNOW" forward --full 2> "$err"; expect_eq "no MESSAGE-ID: exit 1" 1 $?
"$WINNOW" forward --full --dry-run -o x "$id" 2> "$err"; expect_eq "--dry-run with -o: exit 1" 1 $?

wn_done
