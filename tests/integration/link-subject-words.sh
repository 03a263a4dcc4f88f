#!/usr/bin/env bash
# A review that lost its threading headers is linked to its patch by
# its subject, searched as the words of the whole subject (link.c's
# key_words()): "v3" and "3/3" narrow a generic title to one version.
# The words taken must each be a term of every posting, whatever the
# term generator makes of their neighbours ("C++", "don't", "1.5",
# "café", an operator, a quote, a word of 5,000 words), or the search
# misses the patch: each title below, sent as a patch and reviewed
# without threading headers, must still be linked by subject to that
# patch.  And the words in another order, posted later, are not the
# patch (the search only narrows; the subjects are compared exactly).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC
mail=$WN_WORLD/db/mail
patch=$WN_TOP_SRCDIR/tests/corpus/demo/12-series-b-3.eml
review=$WN_TOP_SRCDIR/tests/corpus/demo/15-sashiko-b3-no-threading.eml
patch_of() {
	"$WINNOW" list --format=json | jq -r --arg id "$1" '.[] | select(.id == $id) | "\(.link) \(.patch.id)"'
}
# copy FILE NEW-ID SUBJECT [DATE]: FILE with its Message-ID, Subject
# (one line, the demo review's is folded) and maybe Date replaced; the
# review's body's names of the demo patch's subject are left out, so
# that its own Subject is what it is linked by.
copy() {
	awk -v id="$2" -v subject="$3" -v date="${4:-}" '
		skip && /^[ \t]/ { next }
		{ skip = 0 }
		/^--- Patch \[3\]: / { getline; next }
		/^widgetnet: report ring sizes through ethtool$/ { next }
		tolower($0) ~ /^message-id:/ { print "Message-Id: <" id ">"; next }
		/^Subject:/ { print "Subject: " subject; skip = 1; next }
		/^Date:/ && date != "" { print "Date: " date; next }
		{ print }' "$1" >"$mail/cur/$2:2,S"
}
# A word past the term generator's 64 bytes is not in the index.
long=$(printf '%070d' 0)
titles=(
	'widgetnet: C++ and C# wrappers for ring_size()'
	"widgetnet: don't drop AT&T's U.S.A. rings"
	'widgetnet: bump the ring to 1.5x, 1,000 slots; e.g. v5.10'
	'widgetnet: café naïve – ring ✓ größe'
	'widgetnet: NOT OR NEAR and XOR rings ADJ'
	'widgetnet: use devm_* helpers for ring->stats'
	'widgetnet: "quoted" (paren) [bracket] {brace} <angle> rings'
	"widgetnet: a${long} rings"
	"widgetnet: $(printf 'a-%.0s' $(seq 5000))many words in one"
	'widgetnet:   Mixed   CASE   Rings'
)
for i in "${!titles[@]}"; do
	copy "$patch" "words-p$i@example.com" "[PATCH v3 3/3] ${titles[$i]}"
	copy "$review" "words-r$i@example.com" "Re: [PATCH v3 3/3] ${titles[$i]}"
done
# No word a search can take: the phrase of the title.
copy "$patch" "words-pu@example.com" "[ÄÖ] ñandú"
copy "$review" "words-ru@example.com" "Re: [ÄÖ] ñandú"
# The first title's words in another order, an hour nearer the review.
copy "$patch" "words-order@example.com" \
	'[PATCH v3 3/3] widgetnet: C# wrappers and C++ for ring_size()' \
	'Wed, 04 Nov 2026 01:40:15 +0000'
notmuch new --quiet

for i in "${!titles[@]}"; do
	expect_eq "linked by subject: ${titles[$i]}" \
		"subject words-p$i@example.com" "$(patch_of "words-r$i@example.com")"
done
expect_eq "linked by subject, no word to search: the phrase" \
	"subject words-pu@example.com" "$(patch_of "words-ru@example.com")"
check "the other order is a posting of the same words" \
	test "$(notmuch count 'subject:wrappers and subject:ring_size')" = 3
check "the demo's own review still links to its patch" \
	test "$(patch_of 20261104023058.D3ADBC4CEC7@smtp.kernel.org)" = \
	"subject 20261104004012.31337-4-alice@example.com"
wn_done
