#!/usr/bin/env bash
# A review that lost its threading headers is linked to its patch by
# subject (src/lib/index/link.c): the newest posting of that subject
# before the review, however many older ones a generic title gathered
# over the years.  300 postings of the demo's patch from 2020, and five
# from after the review past a day's slack, beside the real one: the
# review still answers the real one, and is not called ambiguous.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC
mail=$WN_WORLD/db/mail
patch=$WN_TOP_SRCDIR/tests/corpus/demo/12-series-b-3.eml
review=20261104023058.D3ADBC4CEC7@smtp.kernel.org
patch_of() {
	"$WINNOW" list --format=json | jq -r --arg id "$1" '.[] | select(.id == $id) | "\(.link) \(.patch.id)"'
}
check "the demo's patch is there" test -f "$patch"
expect_eq "before: linked by subject to the real posting" \
	"subject 20261104004012.31337-4-alice@example.com" "$(patch_of "$review")"

copy() { # NAME EPOCH
	sed -e "s/^Message-I[Dd]: <.*>/Message-Id: <$1@example.com>/" \
	    -e "s/^Date: .*/Date: $(date -u -R -d "@$2")/" "$patch" >"$mail/cur/$1:2,S"
}
for i in $(seq 1 300); do copy "old-$i" $((1577836800 + i * 3600)); done
# 2026-11-06 on: more than a day after the review (2026-11-04 02:30).
for i in $(seq 1 5); do copy "later-$i" $((1794441600 + i * 3600)); done
notmuch new --quiet
expect_eq "306 postings of the subject" 306 \
	"$(notmuch count 'subject:"widgetnet: report ring sizes through ethtool" and not subject:Re')"
expect_eq "after: still the real posting, not ambiguous" \
	"subject 20261104004012.31337-4-alice@example.com" "$(patch_of "$review")"

# The real posting gone: the newest before the review is now the last
# of 2020's (they are an hour apart: no double send).
rm "$mail"/cur/12-series-b-3*
notmuch new --quiet
expect_eq "the real one gone: the newest of 2020's" "subject old-300@example.com" "$(patch_of "$review")"
wn_done
