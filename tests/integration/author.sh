#!/usr/bin/env bash
# Who the author of a patch is, on tests/corpus/author:
# the git author (the in-body From: Ann's patch, sent by Bob), the
# person B4 Relay sends for (Carol: X-Original-From, Reply-To, never
# devnull; her earlier patch through it counts, another Carol's it
# spells alike does not), a Reply-To honoured for its sender (Dan), and
# a display name with a comment in parentheses (Ulrike).  show's author and
# submitter, stats --by=author, list, the newcomer count, and the
# forward's To, Cc and greeting.  The queue's column:
# tests/tui/screens-author.sh.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/author"
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=author

ann=20261102110000.AU001@smtp.kernel.org
carol=20261103110000.AU002@smtp.kernel.org
dan=20261104110000.AU003@smtp.kernel.org
ulrike=20261105110000.AU004@smtp.kernel.org

people() { "$WINNOW" show --format=json "$1" | jq -c '[.patch.author, .patch.submitter]'; }
expect_eq "in-body From: the author is Ann, the submitter Bob who sent it" \
	'["Ann Author <ann.author@example.org>","Bob Submaint <bob@example.com>"]' "$(people "$ann")"
expect_eq "B4 Relay: Carol, from X-Original-From, both ways" \
	'["Carol Díaz <carol.diaz@example.net>","Carol Díaz <carol.diaz@example.net>"]' "$(people "$carol")"
expect_eq "Reply-To: Dan is still the author at his From address" \
	'["Dan Replier <dan@work.example.com>","Dan Replier <dan@work.example.com>"]' "$(people "$dan")"
expect_eq "a comment in a display name is kept in the name" \
	'["\"Ulrike Berg-Sänger (Example Hub)\" <ulrike@hub.example.org>","\"Ulrike Berg-Sänger (Example Hub)\" <ulrike@hub.example.org>"]' \
	"$(people "$ulrike")"
text=$("$WINNOW" show "$ann")
check "show text: the author, and who sent it" \
	grep -qxF $'Author:   Ann Author <ann.author@example.org>\nSent by:  Bob Submaint <bob@example.com>' \
	<<<"$(grep -E '^(Author|Sent by):' <<<"$text")"
check "show text: no Sent by where the author sent it" bash -c "! '$WINNOW' show '$dan' | grep -q '^Sent by:'"

expect_eq "stats --by=author: the git authors' addresses, no relay's, not the sender's" \
	'["ann.author@example.org","carol.diaz@example.net","dan@work.example.com","ulrike@hub.example.org"]' \
	"$("$WINNOW" stats --by=author --format=json | jq -c '[.[] | select(.total | not) | .author] | sort')"

list=$("$WINNOW" list)
check "list: Ann's name on her patch's row" grep -q "Ann Author; \[PATCH\] author: check the table" <<<"$list"
check "list: Carol's name, never the relay's" grep -q "] Carol Díaz; \[PATCH v2\]" <<<"$list"
check "list: no Relay anywhere" bash -c '! grep -q Relay <<<"$1"' _ "$list"

notmuch config set winnow.newcomer 1
expect_eq "newcomer: Ann's two earlier patches count, not Bob's none" '[false,2]' \
	"$("$WINNOW" show --format=json "$ann" | jq -c '[.newcomer, .earlier_patches]')"
expect_eq "newcomer: Carol's earlier patch through B4 Relay counts, not another Carol's it spells alike" \
	'[false,1]' "$("$WINNOW" show --format=json "$carol" | jq -c '[.newcomer, .earlier_patches]')"
notmuch config set winnow.newcomer 5

for id in "$ann" "$carol" "$dan" "$ulrike"; do
	"$WINNOW" mark "$id" 1 valid > /dev/null || echo "FAIL - mark $id"
done
fwd() { "$WINNOW" forward --dry-run "$1" > "$WN_WORLD/fwd" 2> "$WN_WORLD/err"; }
hdr() { sed -n '1,/^$/p' "$WN_WORLD/fwd" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n[ \t]\+/ /g' | grep "^$1:"; }
greeting() { grep -m1 '^Hi ' "$WN_WORLD/fwd"; }

fwd "$ann"
expect_eq "forward of Ann's patch: exit 0" 0 $?
expect_eq "... To the git author" "To: Ann Author <ann.author@example.org>" "$(hdr To)"
expect_eq "... the sender Bob stays in Cc" \
	"Cc: Bob Submaint <bob@example.com>, Mark Maintainer <mark@example.org>, linux-author@lists.example.org" "$(hdr Cc)"
expect_eq "... greeting Ann" "Hi Ann," "$(greeting)"

fwd "$carol"
expect_eq "forward of Carol's relayed patch: exit 0" 0 $?
expect_eq "... To Carol at her own address" "To: Carol =?UTF-8?b?RMOtYXo=?= <carol.diaz@example.net>" "$(hdr To)"
check "... never to devnull" bash -c '! grep -qi devnull "$1"' _ "$WN_WORLD/fwd"
expect_eq "... greeting Carol, not the relay" "Hi Carol," "$(greeting)"

fwd "$dan"
expect_eq "forward of Dan's patch: exit 0" 0 $?
expect_eq "... To his Reply-To, as mutt replies" "To: Dan Replier <dan@home.example.org>" "$(hdr To)"
check "... not to his From address" bash -c '! grep -q "dan@work" "$1"' _ "$WN_WORLD/fwd"
expect_eq "... greeting Dan" "Hi Dan," "$(greeting)"

fwd "$ulrike"
expect_eq "forward of Ulrike's patch: exit 0" 0 $?
expect_eq "... greeting Ulrike" "Hi Ulrike," "$(greeting)"
wn_done
