#!/usr/bin/env bash
# The queue says a syzbot report's state in a crash report's
# words -- invalid, duplicate of (the other report's subject), fixed by
# (the commit), real bug -- and F on a report writes the reply to
# syzbot, its command first.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
command -v git >/dev/null || { echo "1..0 # SKIP git is not installed"; exit 77; }
export LC_ALL=C.UTF-8
wn_world "$WN_TOP_SRCDIR/tests/corpus/syz-reply"
export TZ=UTC WINNOW_FORWARD_DATE=1796000000 WINNOW_FORWARD_SEED=syz EDITOR=true
unset VISUAL
a=000000000000a1b2c3.0001.GAE@google.example.com
b=000000000000b2c3d4.0002.GAE@google.example.com
c=000000000000c3d4e5.0003.GAE@google.example.com
tree=$WN_WORLD/linux
export GIT_AUTHOR_NAME="Tree Keeper" GIT_AUTHOR_EMAIL=keeper@example.org \
	GIT_COMMITTER_NAME="Tree Keeper" GIT_COMMITTER_EMAIL=keeper@example.org \
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$tree"
git -C "$tree" init -q
echo x > "$tree/f"
git -C "$tree" add f
git -C "$tree" commit -q -m "quill: check the page's mapping"
fix=$(git -C "$tree" rev-parse HEAD)
notmuch config set winnow.tree "$tree"
"$WINNOW" mark "$a" 1 invalid
"$WINNOW" mark "$b" 1 duplicate --of "$a"
"$WINNOW" mark "$c" 1 fixed --by "$fix"
"$WINNOW" mark 20261128100000.SASH0001@smtp.kernel.org 1 valid

wn_tui_start
check "the queue: invalid" wn_tui_wait "1f 0p                       (invalid) [syzbot] [fs?] KASAN: slab-use-after-f"
check "the queue: duplicate of the other report's subject" \
	wn_tui_wait "(duplicate of [syzbot] [fs?] KASAN: slab-use-aft"
check "the queue: fixed by the commit" wn_tui_wait "(fixed by ${fix:0:12}) [syzbot] [fs?] WARNING i"
check "another bot's review: no such words" bash -c '! tmux -L "$1" capture-pane -p -t t | grep "drop the inode lock" | grep -q "(valid\|(real"' _ "$WN_TMUX_SOCKET"

# F on the invalid report (the queue's last row): the reply to syzbot.
wn_tui_keys G Enter
check "the report opens" wn_tui_wait "quill_evict_inode"
wn_tui_keys F
check "F: the reply's first line is the command" wn_tui_wait "#syz invalid"
check "... To the report's syzbot address" wn_tui_wait "syzbot+a1b2c3d4e5f60718293a@syzkaller.appspotmail.com"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT="

# Ordered (every review read, rows off screen let go of) on a 3-line
# terminal, walked row by row: the duplicate still names the other
# report by its subject, its row read again (fails when only the rows
# held are looked in).
walk=()
for i in 1 2 3 4 5 6; do walk+=(":save-display $WN_WORLD/walk$i" j); done
for keys in "o" "o o" "o o o" "o o o o"; do
	# shellcheck disable=SC2086
	check "ordered ($keys), 3 lines" wn_script_run 120x3 "walk${keys// /}" $keys ":wait" g "${walk[@]}"
	check "... duplicate of the other report's subject" \
		bash -c 'grep -h "(duplicate of" "$@" | grep -q "(duplicate of \[syzbot\]"' _ "$WN_WORLD"/walk?
done
wn_done
