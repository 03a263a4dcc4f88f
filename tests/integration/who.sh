#!/usr/bin/env bash
# Who answered a review, and how new its patch's author is (
# 5, 6), on tests/corpus/who: Nina (one earlier patch) answers the
# maintainer who answered the bot's review of her patch, from her
# address in other case; Victor (six earlier patches) says nothing, the
# maintainer answers his review, a reviewer answers his patch (no reply
# to the review).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/who"

nina=20261102110000.AAAA1@smtp.kernel.org
victor=20261104110000.BBBB1@smtp.kernel.org

j=$("$WINNOW" show --format=json "$nina")
expect_eq "show exits 0" 0 $?
expect_eq "Nina's review: the maintainer's reply and hers below it, hers the author's" \
	'[["Mark Maintainer <mark@example.org>","20261103-mark-1@example.org",1,false,1793692800],["\"Newbie, Nina\" <Nina.Newbie@EXAMPLE.net>","20261103-nina-3@example.net",2,true,1793707200]]' \
	"$(jq -c '[.replies[] | [.from, .id, .depth, .author, .date]]' <<<"$j")"
expect_eq "Nina is a newcomer: one earlier patch" '[true,1]' "$(jq -c '[.newcomer, .earlier_patches]' <<<"$j")"

j=$("$WINNOW" show --format=json "$victor")
expect_eq "Victor's review: the maintainer only; the reply to the patch is not one" \
	'[["20261105-mark-2@example.org",false]]' "$(jq -c '[.replies[] | [.id, .author]]' <<<"$j")"
expect_eq "Victor is no newcomer: six earlier patches" '[false,6]' "$(jq -c '[.newcomer, .earlier_patches]' <<<"$j")"

notmuch config set winnow.newcomer 7
expect_eq "winnow.newcomer 7: Victor is one" 'true' \
	"$("$WINNOW" show --format=json "$victor" | jq -c .newcomer)"
notmuch config set winnow.newcomer 0
expect_eq "winnow.newcomer 0: nobody is" 'false' \
	"$("$WINNOW" show --format=json "$nina" | jq -c .newcomer)"
notmuch config set winnow.newcomer many
"$WINNOW" show "$nina" > /dev/null 2> "$WN_WORLD/err"
expect_eq "winnow.newcomer not a number: exit 2" 2 $?
check "... saying which key" grep -q "winnow.newcomer must be a number" "$WN_WORLD/err"
notmuch config set winnow.newcomer 5

text=$("$WINNOW" show "$nina")
check "text: the replies, the author's marked" grep -qF '"Newbie, Nina" <Nina.Newbie@EXAMPLE.net> (the patch'"'"'s author)  id:20261103-nina-3@example.net' <<<"$text"
check "text: newcomer" grep -qF "Newcomer: 1 earlier patch of the author in the index" <<<"$text"
check "text: Victor's review names no newcomer" bash -c "! '$WINNOW' show '$victor' | grep -q Newcomer"

expect_eq "list --format=json leaves them out (a thread each)" 'null' \
	"$("$WINNOW" list --format=json | jq -c '.[0].replies')"

expect_eq "stats: the author replied to one review of two" '[2,1]' \
	"$("$WINNOW" stats --format=json | jq -c '[.[] | select(.total)][0] | [.reviews, .author_replied]')"
check "stats text: the author-replied column" grep -q "author-replied" <<<"$("$WINNOW" stats)"
wn_done
