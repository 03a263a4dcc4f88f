#!/usr/bin/env bash
# The cache and a review of a whole series (syzbot ci answers the cover
# letter): its finding is placed by the files the series' parts touch,
# which linking finds by searching the cover's thread and reading each
# part.  Such a record holds past mail elsewhere, and not past a part
# rewritten in place or gone: the answers stay those of winnow with no
# cache.  (The cache's other failure cases: cache.sh.)
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/syzbot-ci"
. "$WN_TOP_SRCDIR/tests/lib/cache-world.sh"
settle
review=6a43f1c2.b51a0220.3c4d5e.0031.GAE@google.example.com
file_of() {
	"$WINNOW" list --format=json | jq -r --arg id "$review" '.[] | select(.id == $id) | .findings[0].file'
}

need_cache_counter
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
reference
check "cold: same answers" same_answers
expect_eq "the finding is placed in the file part 2 touches" \
	drivers/net/vxlite/vxlite_tx.c "$(file_of)"
run_list
expect_eq "warm: every review from the cache" "$reviews 0" "$(logged hits) $(logged misses)"

# Mail outside the series' thread: nothing is parsed again.
deliver_unrelated
run_list
expect_eq "mail outside the series: nothing parsed" 0 "$(logged misses)"
reference
check "mail outside the series: same answers" same_answers

# Part 2 rewritten in place, touching another file (notmuch does not
# see it: its record keeps the part's file's identity).
part2=$(ls "$mail"/cur/03-patch-2*)
sed -i 's#vxlite_tx\.c#vxlite_txq.c#g' "$part2"
touch -d '2026-01-02 00:00 UTC' "$part2"
run_list
check "a part rewritten: the reviews of the series parsed again" test "$(logged misses)" -ge 1
reference
check "a part rewritten: same answers" same_answers
check "... whose finding is placed elsewhere now" \
	test "$(file_of)" != drivers/net/vxlite/vxlite_tx.c

# Part 2 gone.
run_list
rm "$part2"
notmuch new --quiet
reference
check "a part gone: same answers" same_answers

# A reply in the series' thread: those reviews searched that thread,
# so they are read again; nothing else is.
run_list
series=$("$WINNOW" list --format=json |
	jq '[.[] | select(.patch.id == "20261123114820.502991-1-elif.demir@example.com")] | length')
cat >"$mail/cur/reply:2,S" <<'EOF'
From: Kim Netdev <kim.netdev@example.org>
To: elif.demir@example.com
Subject: Re: [PATCH net-next v3 0/2] vxlite: batch the transmit path
Date: Tue, 24 Nov 2026 09:00:00 +0000
Message-ID: <reply-to-cover@example.org>
In-Reply-To: <20261123114820.502991-1-elif.demir@example.com>
References: <20261123114820.502991-1-elif.demir@example.com>

Looks fine to me.
EOF
settle
notmuch new --quiet
run_list
expect_eq "a reply in the series' thread: its $series reviews parsed again" \
	"$series" "$(logged misses)"
reference
check "a reply in the series' thread: same answers" same_answers

wn_done
