#!/usr/bin/env bash
# What kind of mail forward writes, and the recipients' hygiene.
# The corpus (tests/corpus/forward-reach): v2 of a patch whose Sashiko
# review went To its author (a verdict reply), v3 of it (v2's review is
# superseded), a patch whose review reached the maintainer alone (the
# full forward).  v2 lists its author three times (From, To ann+lkml@,
# Cc ANN@), Cc's an address GMime misreads ("x" <a@b@c.com> as a@b),
# the review's References hold an id that is none, a stray one and
# its own (the reply's must still end with it); a netdev "AI-generated
# review" a maintainer mailed the author herself.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/forward-reach"
export TZ=UTC WINNOW_FORWARD_DATE=1796000000 WINNOW_FORWARD_SEED=reach

v2r=20261201100000.AAAA1111@smtp.kernel.org
v2p=20261201090000.1111-1-ann@example.org
quiet=20261205100000.BBBB2222@smtp.kernel.org
quietp=20261205090000.5555-1-ann@example.org
"$WINNOW" mark "$v2r" 1 valid --note "Seen on my board too."
"$WINNOW" mark "$quiet" 1 valid
nd=20261207163000.4242-1-nora.netmaint@example.net
"$WINNOW" mark "$nd" 1 valid
hdr() { sed '/^$/q' "$1" | sed ':a;N;$!ba;s/\n[ \t]/ /g'; }

# show says whether the author has the review, by whom and when.
reach() { "$WINNOW" show --format=json "$1" | jq -c .reached_author; }
expect_eq "show: the bot mailed the author" true "$(reach "$v2r")"
expect_eq "show: sent to the maintainers only" false "$(reach "$quiet")"
expect_eq "show: a maintainer mailed the author" true "$(reach "$nd")"
expect_eq "show text: sent by the bot" "Reached the author: yes, sent by the bot" \
	"$("$WINNOW" show "$v2r" | grep '^Reached the author:')"
expect_eq "show text: to the maintainers only" "Reached the author: no: sent to the maintainers only" \
	"$("$WINNOW" show "$quiet" | grep '^Reached the author:')"
expect_eq "show text: who sent it, when" \
	"Reached the author: yes, sent to the author by Nora Netmaint <nora.netmaint@example.net> on 2026-12-07 16:30" \
	"$("$WINNOW" show "$nd" | grep '^Reached the author:')"

# The review reached the author: a reply to it, the verdict under each finding.
"$WINNOW" forward --dry-run "$v2r" > "$WN_WORLD/reply.eml" 2> "$WN_WORLD/reply.err"
expect_eq "verdict reply: exit 0" 0 $?
expect_eq "In-Reply-To the review" "In-Reply-To: <$v2r>" "$(hdr "$WN_WORLD/reply.eml" | grep '^In-Reply-To:')"
expect_eq "References: well-formed ids only, ending with the parent" \
	"References: <$v2p> <stray@example.org> <$v2r>" "$(hdr "$WN_WORLD/reply.eml" | grep '^References:')"
expect_eq "To the author" "To: Ann Author <ann@example.org>" "$(hdr "$WN_WORLD/reply.eml" | grep '^To:')"
expect_eq "Cc the review's other recipients, not you" \
	"Cc: linux-zorp@vger.kernel.org, Carl Reviewer <carl@example.com>" "$(hdr "$WN_WORLD/reply.eml" | grep '^Cc:')"
check "the bot's words quoted" grep -qx "> timer fire in between and touch the freed work item?" "$WN_WORLD/reply.eml"
check "the verdict under it, with the note" grep -qx "Valid: please fix this in the next version. Seen on my board too." "$WN_WORLD/reply.eml"
check "the untriaged finding left out, counted" grep -qx "I have not checked 1 of its 2 findings yet; it is left out." "$WN_WORLD/reply.eml"
check "... and not quoted" bash -c '! grep -q "zorp_setup" "$1"' _ "$WN_WORLD/reply.eml"

"$WINNOW" mark "$v2r" 2 false-positive --reason misread-code --note "zorp_init is the caller's name"
"$WINNOW" forward --dry-run "$v2r" > "$WN_WORLD/reply2.eml"
check "a false positive: the reason and the note" grep -qx "False positive, you can ignore this: the code does not do what the bot" "$WN_WORLD/reply2.eml"
check "... wrapped" grep -qx "says; zorp_init is the caller's name." "$WN_WORLD/reply2.eml"

# --full: the full forward, to the patch.
"$WINNOW" forward --full --dry-run "$v2r" > "$WN_WORLD/full.eml" 2> "$WN_WORLD/full.err"
expect_eq "--full: exit 0" 0 $?
expect_eq "--full: In-Reply-To the patch" "In-Reply-To: <$v2p>" "$(hdr "$WN_WORLD/full.eml" | grep '^In-Reply-To:')"
expect_eq "the author once, however often the patch lists them (To only)" "1" \
	"$(hdr "$WN_WORLD/full.eml" | grep -E '^(To|Cc):' | grep -oi 'ann[+@][a-z.]*' | wc -l)"
# The patch's Cc '"x" <a@b@c.com>' is no address: GMime's lenient
# parser reads a@b out of it, somebody else.  Dropped, said, never mailed.
check "--full: the unreadable address is not turned into a@b" \
	bash -c '! grep -Eiq "^(To|Cc):.*a@b([^@]|$)" <<<"$1"' _ "$(hdr "$WN_WORLD/full.eml")"
check "--full: ... nor kept" bash -c '! sed "/^\$/q" "$1" | grep -q "a@b@c.com"' _ "$WN_WORLD/full.eml"
check "--full: ... and the dropping said" grep -qF "warning: dropped from the Cc: 'a@b@c.com' is no mail address" "$WN_WORLD/full.err"

# Not delivered: the full forward, as before.
"$WINNOW" forward --dry-run "$quiet" > "$WN_WORLD/quiet.eml"
expect_eq "a review the author lacks: to the patch" "In-Reply-To: <$quietp>" "$(hdr "$WN_WORLD/quiet.eml" | grep '^In-Reply-To:')"
check "... the full forward's words" grep -q "^Sashiko reviewed this patch automatically" "$WN_WORLD/quiet.eml"

# --all: v2 has a v3 in the index: skipped, named; --superseded sends it.
"$WINNOW" forward --all --dry-run > "$WN_WORLD/all" 2> "$WN_WORLD/all.err"
expect_eq "--all: exit 0" 0 $?
check "--all: the superseded review is skipped, v3 named" grep -q "skipping the Sashiko review <$v2r>.*v3 is in the index" "$WN_WORLD/all.err"
expect_eq "--all: one mail, the quiet one" "1" "$(grep -c '^From winnow' "$WN_WORLD/all")"
"$WINNOW" forward --all --superseded --dry-run > "$WN_WORLD/all2" 2> /dev/null
expect_eq "--all --superseded: both" "2" "$(grep -c '^From winnow' "$WN_WORLD/all2")"
check "--all: the review a maintainer mailed is skipped, saying who and when" grep -qF \
	"skipping the netdev AI review <$nd> of '[PATCH net] zorp: hold the reset lock while the ring is torn down': Nora Netmaint <nora.netmaint@example.net> sent it to the author on 2026-12-07 16:30 UTC" \
	"$WN_WORLD/all.err"
check "... and --superseded does not send it either" bash -c '! grep -q "^In-Reply-To: <$1>" "$2"' _ "$nd" "$WN_WORLD/all2"
"$WINNOW" forward --superseded --dry-run "$v2r" > /dev/null 2>&1
expect_eq "--superseded without --all: refused as forward's usage errors are" 1 $?

# A review a maintainer already mailed the author: forward says who and
# when and leaves it; --force sends the reply all the same.
"$WINNOW" forward --dry-run "$nd" > "$WN_WORLD/nd.eml" 2> "$WN_WORLD/nd.err"
expect_eq "a review a person sent: exit 1" 1 $?
check "... saying who sent it and when" grep -qF \
	"Nora Netmaint <nora.netmaint@example.net> sent the netdev AI review <$nd> of '[PATCH net] zorp: hold the reset lock while the ring is torn down' to the author on 2026-12-07 16:30 UTC: not forwarding it again (--force does)" \
	"$WN_WORLD/nd.err"
expect_eq "... and no mail" "" "$(cat "$WN_WORLD/nd.eml")"
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
echo y | EDITOR=true "$WINNOW" forward --force "$nd" > /dev/null 2> "$WN_WORLD/force.err"
expect_eq "--force: sent, exit 0" 0 $?
check "--force: says it replies anyway" grep -qF "replying anyway (--force)" "$WN_WORLD/force.err"
expect_eq "--force: sendmail ran once" 1 "$(cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null)"
expect_eq "--force: a reply to the maintainer's mail" "In-Reply-To: <$nd>" \
	"$(hdr "$FAKE_SENDMAIL_DIR/mail.1" | grep '^In-Reply-To:')"
expect_eq "--force: recorded as forwarded" "true" \
	"$("$WINNOW" show --format=json "$nd" | jq '.findings[0].forwarded != null')"

# winnow.max_recipients: no terminal, no --force: refused.
notmuch config set winnow.max_recipients 1
EDITOR=true "$WINNOW" forward "$quiet" < /dev/null > /dev/null 2> "$WN_WORLD/max.err"
expect_eq "more than max_recipients without a terminal: exit 1" 1 $?
check "... saying how many" grep -q "goes to 2 addresses, more than winnow.max_recipients (1)" "$WN_WORLD/max.err"
notmuch config set winnow.max_recipients ""

wn_done
