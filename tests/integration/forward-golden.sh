#!/usr/bin/env bash
# winnow forward --dry-run against golden mails (tests/integration/
# forward/NAME.eml): headers and body, byte for byte, with the Date and
# the Message-ID made repeatable (WINNOW_FORWARD_DATE, _SEED, TZ=UTC).
# The corpus (tests/corpus/forward) has a non-ASCII author and Cc, a
# subject carrying an encoded CR/LF and fake headers, a patch with no
# References; the verdicts set here add a note with control characters
# and a false positive whose note must never be sent.
#
#   WN_GOLDEN_UPDATE=1 make check TESTS=tests/integration/forward-golden.sh
#
# rewrites the goldens; read them before committing.  The reviews here
# reached their authors, so --full asks for the full forward most of these
# goldens hold; verdict-reply*.eml are the replies to the review.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/forward"
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=golden
golden=$WN_TOP_SRCDIR/tests/integration/forward

quux=20261110101200.AB12CD34EF5@smtp.kernel.org
frob=20261111153000.CD56EF78AB9@smtp.kernel.org
bpf=f00dfeed0123456789abcdef01234567@mail.kernel.org
hv=20261119113000.9F8E7D6C5B4@smtp.kernel.org
lkp=202611210312.Qx7sNr2P-lkp@intel.com

"$WINNOW" mark "$quux" 1 valid --note $'Checked \e[31mon\e[0m real hardware \a too.\r\nA ring of 1000 \x08descriptors stalls after one wrap.'
"$WINNOW" mark "$quux" 2 false-positive --note "SECRET: refill runs under the lock"
"$WINNOW" mark "$quux" 3 pre-existing
"$WINNOW" mark "$frob" 1 valid
"$WINNOW" mark "$bpf" all valid
"$WINNOW" mark "$hv" 1 valid
"$WINNOW" mark "$lkp" 1 valid

# compare NAME ARGS...: winnow forward --dry-run ARGS against NAME.eml
# (with --full but while kind says otherwise).
kind=(--full)
compare() {
	local name=$1 out=$WN_WORLD/$1.eml
	shift
	"$WINNOW" forward "${kind[@]}" --dry-run "$@" > "$out" 2> "$WN_WORLD/$name.err"
	expect_eq "$name: exit 0" 0 $?
	if [ -n "${WN_GOLDEN_UPDATE:-}" ]; then
		cp "$out" "$golden/$name.eml"
	fi
	if cmp -s "$out" "$golden/$name.eml"; then
		expect_eq "$name: the golden mail" same same
	else
		expect_eq "$name: the golden mail" same differs
		diff -u "$golden/$name.eml" "$out" | sed 's/^/  /'
	fi
}

# headers NAME: the header block of the mail printed last by compare.
headers() { sed '/^$/q' "$WN_WORLD/$1.eml"; }

compare nonascii "$quux"
compare nonascii-pre --pre-existing "$quux"
compare crlf-subject "id:$frob"
compare no-references "<$bpf>"
compare group-reply "$hv"
compare bot-tags "$lkp"
# The verdict replies: to the review the author has, each
# triaged finding quoted with the verdict under it, the notes made safe.
kind=()
compare verdict-reply "$quux"
compare verdict-reply-pre --pre-existing "$quux"
kind=(--full)

# What the goldens say, checked on its own as well:
check "non-ASCII names are RFC 2047 encoded" grep -q '^To: =?UTF-8?b?' <(headers nonascii)
check "the headers are all ASCII" bash -c '! LC_ALL=C grep -q "[^ -~	]" "$1"' _ <(headers nonascii)
check "the body is 8bit UTF-8" grep -qx 'Content-Transfer-Encoding: 8bit' <(headers nonascii)
check "a group reply: the lists and the people are Cc'ed" bash -c 'h=$(cat "$1"); grep -q "netdev@vger.kernel.org" <<<"$h" && grep -qi "lukasz" <<<"$h"' _ <(headers nonascii)
check "the false positive is not sent" bash -c '! grep -q "SECRET\|power of two here" "$1" || ! grep -q "not a race\|SECRET" "$1"' _ "$WN_WORLD/nonascii.eml"
check "no false positive's note" bash -c '! grep -q SECRET "$1"' _ "$WN_WORLD/nonascii.eml"
check "pre-existing findings are left out by default" bash -c '! grep -q "dma_map_page() failure" "$1"' _ "$WN_WORLD/nonascii.eml"
check "--pre-existing adds them under a heading" bash -c 'grep -q "^Not caused by this patch (pre-existing)" "$1" && grep -q "dma_map_page() failure" "$1"' _ "$WN_WORLD/nonascii-pre.eml"
check "no control character in the mail" bash -c '! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n\t" < "$1")' _ "$WN_WORLD/nonascii.eml"
check "the CR/LF in the subject split no header" bash -c '! grep -qiE "^(Bcc|X-Injected):" "$1"' _ <(headers crlf-subject)
check "the subject stays one (folded) header" bash -c 'grep -c "^Subject:" "$1" | grep -qx 1' _ <(headers crlf-subject)
check "no References of its own: just the patch" grep -qx 'References: <20261112071500.777-1-bob.example@example.com>' <(headers no-references)
check "In-Reply-To the patch" grep -qx 'In-Reply-To: <20261112071500.777-1-bob.example@example.com>' <(headers no-references)
check "a reply to the patch's author" grep -qx 'To: Bob Example <bob.example@example.com>' <(headers no-references)

# The hyperv case: a patch To three maintainers, Cc four lists (stable@
# among them).  The reply goes To the author and Cc's them all.
# The Cc header unfolded (a fold is a line break before a blank).
hvcc() { "$WINNOW" forward --full --dry-run "$hv" | sed '/^$/q' | sed -n '/^Cc:/,/^[^ \t]/p' | sed '$d' |
	sed ':a;N;$!ba;s/\n[ \t]/ /g'; }
expect_eq "group reply: To the author" "To: Petra Lindqvist <petra.lindqvist@example.com>" \
	"$(headers group-reply | grep '^To:')"
expect_eq "group reply: the three maintainers and the four lists" \
	"Cc: Kai Maintainer <kai.maint@example.org>, Hana Maintainer <hana.maint@example.net>, Wes Maintainer <wes.maint@example.com>, linux-hyperv@vger.kernel.org, netdev@vger.kernel.org, linux-kernel@vger.kernel.org, stable@vger.kernel.org" \
	"$(hvcc)"
# Never yourself under another address, nor who opted out, nor a bot.
notmuch config set user.other_email "someone@example.org;KAI.maint@example.org"
notmuch config set winnow.optout "Wes Maintainer <wes.maint+lkml@example.com>"
notmuch config set winnow.bots "hana.maint@example.net"
expect_eq "group reply: not you, not opted out, not a bot" \
	"Cc: linux-hyperv@vger.kernel.org, netdev@vger.kernel.org, linux-kernel@vger.kernel.org, stable@vger.kernel.org" \
	"$(hvcc)"
notmuch config set user.other_email ""
notmuch config set winnow.optout ""
notmuch config set winnow.bots ""
notmuch config set winnow.cc lists
expect_eq "winnow.cc=lists: the lists only" \
	"Cc: linux-hyperv@vger.kernel.org, netdev@vger.kernel.org, linux-kernel@vger.kernel.org, stable@vger.kernel.org" \
	"$(hvcc)"
notmuch config set winnow.cc ""

# The robot's tags, as it wrote them (its mail has them behind "| ").
check "the robot's Reported-by, verbatim" grep -qFx 'Reported-by: kernel test robot <lkp@intel.com>' "$WN_WORLD/bot-tags.eml"
check "the robot's Closes, verbatim" grep -qFx 'Closes: https://lore.kernel.org/oe-kbuild-all/202611210312.Qx7sNr2P-lkp@intel.com/' "$WN_WORLD/bot-tags.eml"
check "no tag where the bot asked for none" bash -c '! grep -q "^Reported-by:\|asks for these tags" "$1"' _ "$WN_WORLD/group-reply.eml"
# The patch Cc'ed the robot and syzbot: a reply never does.
expect_eq "a bot on the patch's Cc is not Cc'ed" "Cc: linux-iio@vger.kernel.org" "$(headers bot-tags | grep '^Cc:')"

# winnow.forward_trailer.<list>: netdev's patchwork command closes a
# reply to a patch sent to netdev, and only to such a patch.
notmuch config set winnow.forward_trailer.NetDev@vger.kernel.org "pw-bot: cr"
"$WINNOW" forward --full --dry-run "$hv" > "$WN_WORLD/trailer.eml"
expect_eq "a patch Cc'ed to netdev: the mail ends with its line" "pw-bot: cr" "$(tail -n 1 "$WN_WORLD/trailer.eml")"
check "... after a blank line, after the signature" bash -c 'tail -n 3 "$1" | head -n 2 | grep -qx "Demo Maintainer" && tail -n 2 "$1" | head -n 1 | grep -qx ""' _ "$WN_WORLD/trailer.eml"
check "a patch not sent to netdev: no line" bash -c '! "$1" forward --full --dry-run "$2" | grep -q "pw-bot"' _ "$WINNOW" "$bpf"
notmuch config set winnow.forward_trailer.netdev@vger.kernel.org $'pw-bot: cr\nBcc: evil@example.org'
"$WINNOW" forward --full --dry-run "$hv" > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "a line break in the line: refused (exit 2)" 2 $?
check "... saying which key" grep -q "winnow.forward_trailer.netdev@vger.kernel.org" "$WN_WORLD/err"
check "... nothing printed" test ! -s "$WN_WORLD/out"
notmuch config set winnow.forward_trailer.netdev@vger.kernel.org ""
notmuch config set winnow.forward_trailer.NetDev@vger.kernel.org ""

# winnow.cc: none, all, explicit addresses.
notmuch config set winnow.cc none
compare-cc() { "$WINNOW" forward --full --dry-run "$bpf" | sed '/^$/q' | grep '^Cc:'; }
expect_eq "winnow.cc=none: no Cc" "" "$(compare-cc)"
notmuch config set winnow.cc all
expect_eq "winnow.cc=all: the patch's To/Cc but me and the author" \
	"Cc: bpf@vger.kernel.org, Carol Reviewer <carol@example.com>" "$(compare-cc)"
notmuch config set winnow.cc "lists; Dave Lead <dave@example.org>"
expect_eq "winnow.cc=lists; an address" "Cc: bpf@vger.kernel.org, Dave Lead <dave@example.org>" "$(compare-cc)"
notmuch config set winnow.cc ""

# With no valid finding: say so, print nothing.
"$WINNOW" mark "$bpf" all false-positive
out=$("$WINNOW" forward --full --dry-run "$bpf" 2> "$WN_WORLD/err")
expect_eq "no valid finding: exit 1" 1 $?
expect_eq "no valid finding: nothing printed" "" "$out"
check "no valid finding: says so" grep -q "nothing to forward" "$WN_WORLD/err"

wn_done
