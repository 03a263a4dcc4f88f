#!/usr/bin/env bash
# syzbot bugs sharing only a generic frame are not one finding (issue
# 21, points 2 and 3): tests/corpus/carry-generic-frame holds three
# KASAN reports whose crash lies in kernel/locking/lockdep.c
# __lock_acquire, reached through kernel/sched/wait.c: 01 from
# plume_segctor_thread(), 02 from gizmo_hid_release() (another bug, a
# title differing in one word, all its generic frames the same), 03 01's
# title again from linux-next.  01 judged a false positive: carry offers
# it to 03 only.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-generic-frame"
export LC_ALL=C.UTF-8 TZ=UTC
seg=1c2d3e4f.050a0220.6a7b8c.0101.GAE@google.example.com
hid=2d3e4f50.050a0220.7b8c9d.0202.GAE@google.example.com
again=3e4f5061.050a0220.8c9dae.0303.GAE@google.example.com

expect_eq "placed outside the generic frames" \
	'[["fs/plume/segment.c","plume_segctor_thread"],["drivers/hid/hid-gizmo.c","gizmo_hid_release"],["fs/plume/segment.c","plume_segctor_thread"]]' \
	"$(for id in $seg $hid $again; do "$WINNOW" show --format=json "$id"; done | jq -sc 'map(.findings[0] | [.file, .function])')"
"$WINNOW" mark "$seg" 1 false-positive
"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "only the same title takes the verdict" "[[\"$again\",1,\"false-positive\",\"$seg\"]]" \
	"$(jq -c '[.[] | [.review, .finding, .verdict, .from.review]]' "$WN_WORLD/dry.json")"
# The same bug marked pre-existing twice is one ledger entry; the other
# bug is its own.
"$WINNOW" mark "$seg" 1 pre-existing
"$WINNOW" mark "$again" 1 pre-existing
"$WINNOW" mark "$hid" 1 pre-existing
expect_eq "ledger: two bugs, the segctor one reported twice" \
	"[[\"$hid\"],[\"$seg\",\"$again\"]]" \
	"$("$WINNOW" ledger --format=json | jq -c 'map([.reports[].review]) | sort_by(length)')"
wn_done
