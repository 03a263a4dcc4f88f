#!/usr/bin/env bash
# Did the patch's author answer the review (stats' author_replied) where
# the answer rests on where notmuch places a mail in its thread: by its
# In-Reply-To when that is one id alone, else by the last of its
# References, else by the deepest of its references in the thread (the
# smaller id of two as deep, whichever her header names first); a chain
# of two; a reply dated before the
# review (tests/corpus/who-parent, README).  winnow reads those from the mails' own headers and must say
# what notmuch's tree says; the tree is asked too, to keep the corpus
# honest.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/who-parent"

# review id, Ann's mail that answers it (or "none"), case
cases='20261120110000.AAAA@smtp.kernel.org none a
20261120110000.BBBB@smtp.kernel.org 2026-beta-ann@example.net b
20261120110000.CCCC@smtp.kernel.org none c
20261120110000.DDDD@smtp.kernel.org 2026-delta-ann-1@example.net d
20261120110000.EEEE@smtp.kernel.org 2026-epsilon-ann@example.net e
20261120110000.FFFF@smtp.kernel.org none f
20261120110000.GGGG@smtp.kernel.org 2026-eta-ann@example.net g
20261120110000.HHHH@smtp.kernel.org none h'

# The ids of Ann's mails below message $1 in notmuch's own tree.
ann_below() {
	notmuch show --format=json --body=false "thread:{id:$1}" |
		jq -r --arg r "$1" '
			def pairs: .[] | (., (.[1] | pairs));
			[.[] | pairs | select(.[0].id == $r)] | .[0][1] | [.. | objects |
			select(has("headers") and (.headers.From | test("ann@example.net")))] |
			map(.id) | if length == 0 then "none" else join(" ") end'
}

while read -r review answer name; do
	expect_eq "$name: notmuch's tree has Ann below the review as the corpus says" \
		"$answer" "$(ann_below "$review")"
	want=0
	[ "$answer" = none ] || want=1
	expect_eq "$name: stats says the author replied ($want)" "[1,$want]" \
		"$("$WINNOW" stats --format=json "id:$review" |
			jq -c '[.[] | select(.total)][0] | [.reviews, .author_replied]')"
done <<<"$cases"

expect_eq "all eight at once: four answered" '[8,4]' \
	"$("$WINNOW" stats --format=json | jq -c '[.[] | select(.total)][0] | [.reviews, .author_replied]')"
wn_done
