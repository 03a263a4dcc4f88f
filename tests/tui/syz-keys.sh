#!/usr/bin/env bash
# Issue 41: in a review of a syzbot report, V, X, C and Z mark it a
# real bug, invalid, a duplicate (picked from the index's other
# reports, best title match first) or fixed (by the commit of
# winnow.tree that names it, else a title typed); the review says the
# state in those words, the help lists the keys, and on another bot's
# review they mark nothing.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
command -v git >/dev/null || { echo "1..0 # SKIP git is not installed"; exit 77; }
export LC_ALL=C.UTF-8
wn_world "$WN_TOP_SRCDIR/tests/corpus/syz-reply"
export TZ=UTC
c=000000000000c3d4e5.0003.GAE@google.example.com
e=000000000000f6a7b8.0006.GAE@google.example.com
sash=20261128100000.SASH0001@smtp.kernel.org
state() { "$WINNOW" show "$1" | grep 'state:'; }

wn_tui_start "'(id:$c)'"
check "the queue's one row" wn_tui_wait "WARNING in quill_write_begin"
wn_tui_keys X
check "X in the queue: in the review" wn_tui_wait "mark-invalid marks a bug report in its review (Enter opens it)"
wn_tui_keys Enter
check "the report opens" wn_tui_wait "quill_write_begin"
wn_tui_keys '?'
check "help: mark-invalid" wn_tui_wait "Bug report: mark it invalid (F then tells the bot)"
check "help: mark-duplicate" wn_tui_wait "Bug report: mark it a duplicate, picked from the bot's other reports"
wn_tui_keys q

wn_tui_keys X
check "X: said" wn_tui_wait "marked invalid (F tells the bot)"
check "X: the review's state line" wn_tui_wait "State: invalid"
expect_eq "X: show agrees" "    state: invalid" "$(state "$c")"

# C: the picker, best title match first; 2 takes the second.
wn_tui_keys C
check "C: the question" wn_tui_wait "Duplicate of which report? (best title match first; Esc: none)"
check "C: the best match first" wn_tui_wait "1  14%  [syzbot] [fs?] KASAN: slab-use-after-free Read in quill_write_begin"
check "C: then the next" wn_tui_wait "2  14%  [syzbot] [fs?] KASAN: slab-use-after-free Write in quill_write_begin"
check "C: the report itself is not offered" bash -c '! tmux -L "$1" capture-pane -p -t t | grep -q "^[1-9] .*WARNING in quill_write_begin"' _ "$WN_TMUX_SOCKET"
wn_tui_keys 2
check "C 2: the review's state line names the report by its subject" \
	wn_tui_wait "State: duplicate of [syzbot] [fs?] KASAN: slab-use-after-free Write in quill_write_begin"
expect_eq "C 2: show agrees" "    state: duplicate of $e" "$(state "$c")"
wn_tui_keys C
check "C again: the picker" wn_tui_wait "Duplicate of which report?"
wn_tui_keys Escape
check "Esc: nothing marked" wn_tui_wait "nothing marked"
expect_eq "... still the duplicate" "    state: duplicate of $e" "$(state "$c")"

# Z without winnow.tree: the title typed.
wn_tui_keys Z
check "Z without a tree: asks for the title" wn_tui_wait "winnow.tree is not set: the fixing commit's exact title:"
wn_tui_keys -l "quill: check the page's mapping"
wn_tui_keys Enter
check "Z: the review's state line quotes the title" wn_tui_wait "State: fixed by \"quill: check the page's mapping\""
expect_eq "Z: show agrees" "    state: fixed by \"quill: check the page's mapping\"" "$(state "$c")"
wn_tui_keys Z
check "Z again: asks" wn_tui_wait "the fixing commit's exact title:"
wn_tui_keys -l "a blank at its end "
wn_tui_keys Enter
check "a title that cannot be sent exactly: refused" wn_tui_wait "nothing marked: the bot could not get that title exactly"
expect_eq "... the title kept" "    state: fixed by \"quill: check the page's mapping\"" "$(state "$c")"

wn_tui_keys V
check "V: a real bug" wn_tui_wait "State: real bug"
expect_eq "V: show agrees, the title gone" "    state: real bug" "$(state "$c")"
wn_tui_keys U
check "U: fixed by the title again" wn_tui_wait "State: fixed by \"quill: check the page's mapping\""
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"

# Z with winnow.tree: the commit whose Reported-by names the report.
tree=$WN_WORLD/linux
export GIT_AUTHOR_NAME="Tree Keeper" GIT_AUTHOR_EMAIL=keeper@example.org \
	GIT_COMMITTER_NAME="Tree Keeper" GIT_COMMITTER_EMAIL=keeper@example.org \
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$tree/fs/quill"
git -C "$tree" init -q
echo "int quill_write_begin(void);" > "$tree/fs/quill/write.c"
git -C "$tree" add -A
git -C "$tree" commit -q -m "quill: check the mapping in quill_write_begin()

Reported-by: syzbot+c3d4e5f60718293a4b5c@syzkaller.appspotmail.com"
fix=$(git -C "$tree" rev-parse HEAD)
notmuch config set winnow.tree "$tree"
wn_tui_start "'(id:$c)'"
check "again: the queue" wn_tui_wait "(fixed by \"quill: check the page's mapping\")"
wn_tui_keys Enter
check "the report opens" wn_tui_wait "State: fixed by"
wn_tui_keys Z
check "Z with a tree: fixed by the commit naming it, nothing asked" wn_tui_wait "State: fixed by $fix"
expect_eq "Z: show agrees" "    state: fixed by $fix" "$(state "$c")"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"

# Another bot's review: the keys mark nothing.
wn_tui_start "'(id:$sash)'"
check "a Sashiko review" wn_tui_wait "drop the inode lock"
wn_tui_keys Enter X
check "X on a review: refused, saying why" \
	wn_tui_wait "mark-invalid marks a bug report of a bot that reads replies; this is a review: v, f or p"
wn_tui_keys C
check "C on a review: refused" wn_tui_wait "mark-duplicate marks a bug report of a bot that reads replies"
expect_eq "nothing marked" "0" "$("$WINNOW" show --format=json "$sash" | jq '[.findings[] | select(.verdict != "untriaged")] | length')"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_done
