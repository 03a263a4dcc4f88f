#!/usr/bin/env bash
# A syzbot verdict is carried only to the same bug:
# tests/corpus/carry-syzbot holds four syzbot reports crashing in one
# frame, plume_release_folio() at fs/plume/file.c:218.  01 is judged a
# false positive; 02 (a Write, not a Read) and 03 (syzbot's "(2)": the
# title again after a fix, another bug by syzbot's own count) share its
# place and nearly all its words, but not its title, and take nothing;
# 04, the same title found on linux-next, takes the verdict.  Neither
# `winnow carry` nor the review view's = crosses titles, and carry
# prints every change before it marks any.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/carry-syzbot"
export LC_ALL=C.UTF-8 TZ=UTC
read1=7b1e2f30.050a0220.2c3d4e.0011.GAE@google.example.com
write=8c2f3041.050a0220.3d4e5f.0022.GAE@google.example.com
again=9d304152.050a0220.4e5f60.0033.GAE@google.example.com
next=ae415263.050a0220.5f6071.0044.GAE@google.example.com
verdict() { "$WINNOW" show --format=json "$1" | jq -r '.findings[0].verdict'; }
not_on_screen() { ! wn_tui_screen | grep -qF -- "$1"; }

for id in $read1 $write $again $next; do "$WINNOW" show --format=json "$id"; done > "$WN_WORLD/shown.json"
expect_eq "four syzbot reports, one finding each, all at the same frame" \
	'[4,[["fs/plume/file.c","plume_release_folio",218]]]' \
	"$(jq -sc '[.[].findings[]] | [length, (map([.file, .function, .line]) | unique)]' "$WN_WORLD/shown.json")"
"$WINNOW" mark "$read1" 1 false-positive --note "plume pins the folio first"
expect_eq "01 judged a false positive" 0 $?

"$WINNOW" carry --dry-run --format=json > "$WN_WORLD/dry.json"
expect_eq "carry --dry-run exits 0" 0 $?
expect_eq "only the identical title takes 01's verdict" \
	"[[\"$next\",1,\"false-positive\",\"$read1\",1,\"plume pins the folio first\"]]" \
	"$(jq -c '[.[] | [.review, .finding, .verdict, .from.review, .from.finding, .from.note]]' "$WN_WORLD/dry.json")"

# The review view: = on another bug offers nothing; on the same bug, 01.
wn_tui_start "'(id:$write)'"
check "queue on 02" wn_tui_wait "1 review" 30
wn_tui_keys Enter
check "02 open" wn_tui_wait "finding 1 of 1"
check "02, a Write: nothing seen before" not_on_screen "Seen before"
wn_tui_keys =
check "= on 02 says no similar finding was judged" wn_tui_wait "no similar finding was judged before"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_tui_start "'(id:$again)'"
check "queue on 03" wn_tui_wait "1 review" 30
wn_tui_keys Enter
check "03 open" wn_tui_wait "finding 1 of 1"
check "03, the (2): nothing seen before" not_on_screen "Seen before"
wn_tui_keys =
check "= on 03 says no similar finding was judged" wn_tui_wait "no similar finding was judged before"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_tui_start "'(id:$next)'"
check "queue on 04" wn_tui_wait "1 review" 30
wn_tui_keys Enter
check "04 open" wn_tui_wait "finding 1 of 1"
check "04, the same title: seen before on 01" wn_tui_wait "Seen before: false positive on [syzbot] [fs?] KASAN: slab-use-after-free Read in plume_release_folio"
wn_tui_keys =
check "= on 04 takes 01's verdict" wn_tui_wait "marked finding 1 false-positive, as before, with its note"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
expect_eq "02 and 03 untriaged, 04 false positive" "untriaged untriaged false-positive" \
	"$(verdict $write) $(verdict $again) $(verdict $next)"
"$WINNOW" undo > /dev/null
expect_eq "undo: 04 untriaged again" untriaged "$(verdict $next)"

# carry, for real, while another program holds the write lock: the
# verdict is journaled (it lands later) and carry stops with 2, but
# what it journaled was printed first.
check "another program holds the write lock" wn_hold_lock 30
"$WINNOW" carry --timeout=0.3 > "$WN_WORLD/carry.out" 2> "$WN_WORLD/carry.err"
expect_eq "carry under the lock exits 2" 2 $?
check "the carried change was printed all the same" \
	grep -qF "$next #1: false-positive  KASAN: slab-use-after-free Read in plume_release_folio" "$WN_WORLD/carry.out"
check "... with where it comes from" grep -qF "    as $read1 #1 on " "$WN_WORLD/carry.out"
expect_eq "only that one" 1 "$(grep -c '#1: ' "$WN_WORLD/carry.out")"
kill "$WN_HOLDER" 2>/dev/null
wait "$WN_HOLDER" 2>/dev/null
"$WINNOW" sync-journal > /dev/null
expect_eq "the journaled verdict landed: 04 false positive" false-positive "$(verdict $next)"
expect_eq "02 and 03 still untriaged" "untriaged untriaged" "$(verdict $write) $(verdict $again)"
expect_eq "nothing left to carry" '[]' "$("$WINNOW" carry --format=json)"
wn_done
