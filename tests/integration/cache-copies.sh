#!/usr/bin/env bash
# The cache and an AI review passed on twice (tests/corpus/netdev-ai-copy:
# the review a maintainer sent, and the same text another forwarded
# later).  Which mails are copies of which is kept in the reviews'
# records: a warm run reads no mail to find them, and the answer stays
# that of winnow with no cache after mail elsewhere, a third copy in the
# thread, verdicts on a copy, and the first mail gone.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/netdev-ai-copy"
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
settle
orig=20261111140240.3101-1-maintainer@example.org
copy=20261111174713.4470-1-second.maintainer@example.org
third=20261112090000.5120-1-third.maintainer@example.org
copies() { "$WINNOW" list --format=json | jq -c 'map([.id, .copy_of])'; }

need_cache_counter
reference
check "cold: same answers" same_answers
run_list
expect_eq "warm: both reviews from the cache" "2 0" "$(logged hits) $(logged misses)"
expect_eq "warm: the copy is still one (from its record)" \
	"[[\"$copy\",\"$orig\"],[\"$orig\",null]]" "$(copies)"

# Mail outside the thread: the records hold, copies and all.
deliver_unrelated
run_list
expect_eq "mail elsewhere: nothing parsed" "2 0" "$(logged hits) $(logged misses)"
reference
check "mail elsewhere: same answers" same_answers

# A verdict on the copy is the first review's too: read live, not kept.
"$WINNOW" mark "$copy" 1 valid > /dev/null
reference
check "a verdict on the copy: same answers" same_answers
expect_eq "the first review shows the copy's verdict" '"valid"' \
	"$("$WINNOW" show --format=json "$orig" | jq -c '.findings[0].verdict')"

# A third maintainer passes it on too, in the same thread: both
# records looked for copies there, so both are read again, and the new
# mail parsed.
sed -e "s/^From: .*/From: Third Maintainer <third.maintainer@example.org>/" \
	-e "s/^Message-Id: .*/Message-Id: <$third>/" \
	-e "s/^Date: .*/Date: Thu, 12 Nov 2026 10:00:00 +0100/" \
	"$mail"/cur/03-netdev-ai-review-copy* > "$mail/cur/04-third-copy:2,S"
settle
notmuch new --quiet
run_list
expect_eq "a copy in the thread: both records read again" "0 3" "$(logged hits) $(logged misses)"
expect_eq "a copy in the thread: the first has two copies" \
	"[[\"$third\",\"$orig\"],[\"$copy\",\"$orig\"],[\"$orig\",null]]" "$(copies)"
reference
check "a copy in the thread: same answers" same_answers

# The first mail gone (its file deleted, notmuch new): a removal leaves
# no trace in the thread's lastmod, but the copies' records compared
# its file.
rm "$mail"/cur/02-netdev-ai-review*
notmuch new --quiet
run_list
reference
check "the first mail gone: same answers" same_answers
expect_eq "the first mail gone: the earlier copy is the first now" \
	"[[\"$third\",\"$copy\"],[\"$copy\",null]]" "$(copies)"

wn_done
