#!/usr/bin/env bash
# A syzbot report's state in its own words (invalid,
# duplicate of, fixed by, real bug), and the reply that tells syzbot
# (#syz invalid / dup: / fix: / undup), To the report's syzbot+HASH
# address, Cc syzkaller-bugs and its other recipients, threaded under
# it.  The corpus (tests/corpus/syz-reply): three syzbot reports (the
# first's subject folded over two header lines), a Sashiko review.  The
# fix is found in a git repository built here.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
command -v git >/dev/null || { echo "1..0 # SKIP git is not installed"; exit 77; }
wn_world "$WN_TOP_SRCDIR/tests/corpus/syz-reply"
export TZ=UTC WINNOW_FORWARD_DATE=1796000000 WINNOW_FORWARD_SEED=syz EDITOR=true
unset VISUAL
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
notmuch config set winnow.optout nobots@example.net
notmuch config set user.other_email me@example.org
a=000000000000a1b2c3.0001.GAE@google.example.com
b=000000000000b2c3d4.0002.GAE@google.example.com
c=000000000000c3d4e5.0003.GAE@google.example.com
sash=20261128100000.SASH0001@smtp.kernel.org
d=000000000000e5f6a7.0005.GAE@google.example.com
e=000000000000f6a7b8.0006.GAE@google.example.com
body1() { sed '1,/^$/d' "$1" | head -n 1; }

# --- duplicate without --of: the reports to choose from ----------------------
# Best title match first (the " (2)" and the bracket groups count for
# nothing); equal matches the older report first, then the smaller
# Message-ID ($d and $e share a Date); the report itself never.
"$WINNOW" mark "$c" 1 duplicate > "$WN_WORLD/cands.txt" 2> "$WN_WORLD/cands.err"
expect_eq "duplicate without --of: exit 1" 1 $?
cat > "$WN_WORLD/cands.want" <<TEXT
1.  14% [syzbot] [fs?] KASAN: slab-use-after-free Read in quill_write_begin
      <$d>  2026-11-24
2.  14% [syzbot] [fs?] KASAN: slab-use-after-free Write in quill_write_begin
      <$e>  2026-11-24
3.   0% [syzbot] [fs?] KASAN: slab-use-after-free Read in quill_evict_inode
      <$a>  2026-11-23
4.   0% [syzbot] [fs?] KASAN: slab-use-after-free Read in quill_evict_inode (2)
      <$b>  2026-11-26
TEXT
check "the list, best title match first, ties by date then Message-ID" diff "$WN_WORLD/cands.want" "$WN_WORLD/cands.txt"
check "... and asks for --of" grep -q "duplicate wants --of: the number of a report above" "$WN_WORLD/cands.err"
expect_eq "JSON through the printer: numbers, ids, matches" \
	"1 $d 0.143|2 $e 0.143|3 $a 0|4 $b 0" \
	"$("$WINNOW" mark --format=json "$c" 1 duplicate 2>/dev/null | jq -r 'map("\(.n) \(.id) \(.match)") | join("|")')"
expect_eq "nothing marked" "" "$("$WINNOW" show "$c" | grep 'state:')"
"$WINNOW" mark "$b" 1 duplicate > "$WN_WORLD/cands-b.txt" 2>/dev/null
expect_eq "for the report seen again: the first report first, 100%" \
	"1. 100% [syzbot] [fs?] KASAN: slab-use-after-free Read in quill_evict_inode" "$(head -n 1 "$WN_WORLD/cands-b.txt")"
# --of N: the Nth of that list.
"$WINNOW" mark "$c" 1 duplicate --of 2
expect_eq "--of 2: exit 0" 0 $?
expect_eq "--of 2: the second of the list" "    state: duplicate of $e" "$("$WINNOW" show "$c" | grep 'state:')"
"$WINNOW" mark "$c" 1 duplicate --of 5 2> "$WN_WORLD/of5.err"
expect_eq "--of past the list: exit 1" 1 $?
check "... saying how many it holds" grep -q -- "--of 5: the list of reports holds 4" "$WN_WORLD/of5.err"
"$WINNOW" mark "$c" 1 duplicate --of 0 2> "$WN_WORLD/of0.err"
expect_eq "--of 0: exit 1" 1 $?
check "... the list counts from 1" grep -q -- "--of 0: the list of reports counts from 1" "$WN_WORLD/of0.err"
"$WINNOW" mark --format=json "$c" 1 invalid 2> "$WN_WORLD/fmt.err"
expect_eq "--format without the list: exit 1" 1 $?
check "... saying what it goes with" grep -q -- "--format goes with duplicate without --of" "$WN_WORLD/fmt.err"
"$WINNOW" undo > /dev/null
expect_eq "undone: no state" "" "$("$WINNOW" show "$c" | grep 'state:')"

# --- invalid: the whole mail, byte for byte --------------------------------
"$WINNOW" mark "$a" 1 invalid --note "The image was corrupt.
#syz fix: a line of the note that must not pass for a command"
expect_eq "mark invalid: exit 0" 0 $?
"$WINNOW" forward --dry-run "$a" > "$WN_WORLD/invalid.eml"
expect_eq "forward --dry-run: exit 0" 0 $?
cat > "$WN_WORLD/invalid.want" <<'MAIL'
Date: Mon, 30 Nov 2026 00:53:20 +0000
From: Demo Maintainer <maintainer@example.org>
Subject: Re: [syzbot] [fs?] KASAN: slab-use-after-free Read in
 quill_evict_inode
To: syzbot+a1b2c3d4e5f60718293a@syzkaller.appspotmail.com
Cc: syzkaller-bugs@googlegroups.example.com, linux-fsdevel@lists.example.org,
	Maya Maintainer <maya@example.org>, ron@example.com
Message-Id: <20261130005320.c0a5260d6adecbbe@example.org>
In-Reply-To: <000000000000a1b2c3.0001.GAE@google.example.com>
References: <000000000000a1b2c3.0001.GAE@google.example.com>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 7bit

#syz invalid

The image was corrupt.
 #syz fix: a line of the note that must not pass for a command
MAIL
check "invalid: the reply, byte for byte (To syzbot+, Cc syzkaller-bugs first, not you, not opted out)" \
	diff "$WN_WORLD/invalid.want" "$WN_WORLD/invalid.eml"
expect_eq "show says invalid" "    state: invalid" "$("$WINNOW" show "$a" | grep 'state:')"

# --- duplicate of another report of the index -------------------------------
"$WINNOW" mark "$b" 1 duplicate --of "$a"
expect_eq "mark duplicate --of: exit 0" 0 $?
expect_eq "show says duplicate of" "    state: duplicate of $a" "$("$WINNOW" show "$b" | grep 'state:')"
expect_eq "JSON: the state and the report" "duplicate $a valid" \
	"$("$WINNOW" show --format=json "$b" | jq -r '.findings[0] | "\(.state) \(.duplicate_of) \(.verdict)"')"
"$WINNOW" forward --dry-run "$b" > "$WN_WORLD/dup.eml"
# The other report's subject was folded over two header lines: unfolded,
# byte for byte, nothing encoded, no blank after it.
expect_eq "dup: the first body line, the exact subject" \
	"#syz dup: [syzbot] [fs?] KASAN: slab-use-after-free Read in quill_evict_inode" "$(body1 "$WN_WORLD/dup.eml")"
check "dup: no blank at the line's end" bash -c '! sed "1,/^$/d" "$1" | grep -q " $"' _ "$WN_WORLD/dup.eml"
expect_eq "dup: To the report's syzbot address" "To: syzbot+b2c3d4e5f60718293a4b@syzkaller.appspotmail.com" \
	"$(grep '^To:' "$WN_WORLD/dup.eml")"
expect_eq "dup: threaded under the report" "In-Reply-To: <$b>" "$(grep '^In-Reply-To:' "$WN_WORLD/dup.eml")"

# Sent: the recording sendmail has it byte for byte as --dry-run said.
printf 'y\n' | "$WINNOW" forward "$b" > /dev/null 2> "$WN_WORLD/send.err"
expect_eq "send: exit 0" 0 $?
check "send: sendmail got the mail --dry-run printed" diff "$WN_WORLD/dup.eml" "$FAKE_SENDMAIL_DIR/mail.1"
check "send: recorded" bash -c '[ "$("$1" show --format=json "$2" | jq -r ".findings[0].forwarded")" != null ]' _ "$WINNOW" "$b"
"$WINNOW" forward --dry-run "$b" > /dev/null 2> "$WN_WORLD/again.err"
check "never twice: sent before, said" grep -q "already sent on" "$WN_WORLD/again.err"

# Taken back: a real bug whose dup was sent gets #syz undup.
"$WINNOW" mark "$b" 1 real
expect_eq "show says real bug" "    state: real bug" "$("$WINNOW" show "$b" | grep 'state:')"
"$WINNOW" forward --dry-run "$b" > "$WN_WORLD/undup.eml"
expect_eq "undup: the first body line" "#syz undup" "$(body1 "$WN_WORLD/undup.eml")"
# The record says the command sent: an undup follows a dup only.
expect_eq "the dup's record names it" "dup" \
	"$("$WINNOW" show --format=json "$b" | jq -r '.findings[0].forwarded | split(" ") | .[2]')"
printf 'y\n' | "$WINNOW" forward "$b" > /dev/null 2>&1
expect_eq "undup sent: exit 0" 0 $?
check "undup: sendmail got it" diff "$WN_WORLD/undup.eml" "$FAKE_SENDMAIL_DIR/mail.2"
"$WINNOW" forward --dry-run "$b" > /dev/null 2> "$WN_WORLD/undup2.err"
expect_eq "undup again, after the undup: refused, exit 1" 1 $?
check "... the last reply said undup" grep -q "no '#syz undup': the last reply sent for the report said '#syz undup', not that it is a duplicate" \
	"$WN_WORLD/undup2.err"
# An invalid sent, then a real bug: nothing was a duplicate.
printf 'y\n' | "$WINNOW" forward "$a" > /dev/null 2>&1
expect_eq "invalid sent: exit 0" 0 $?
expect_eq "its record names it" "invalid" \
	"$("$WINNOW" show --format=json "$a" | jq -r '.findings[0].forwarded | split(" ") | .[2]')"
"$WINNOW" mark "$a" 1 real
"$WINNOW" forward --dry-run "$a" > /dev/null 2> "$WN_WORLD/noundup.err"
expect_eq "real bug after an invalid: no undup, exit 1" 1 $?
check "... saying the last reply said invalid" grep -q "no '#syz undup': the last reply sent for the report said '#syz invalid', not that it is a duplicate; nothing to take back" \
	"$WN_WORLD/noundup.err"
check "... in one line" test "$(wc -l < "$WN_WORLD/noundup.err")" = 1
"$WINNOW" undo > /dev/null
# ... and undone, one change: duplicate of again.
"$WINNOW" undo > /dev/null
expect_eq "undo: duplicate of again" "    state: duplicate of $a" "$("$WINNOW" show "$b" | grep 'state:')"
"$WINNOW" undo > /dev/null
expect_eq "undo again: untriaged, no state" "" "$("$WINNOW" show "$b" | grep 'state:')"

# A real bug nothing was sent for: nothing to tell.
"$WINNOW" mark "$c" 1 real
"$WINNOW" forward --dry-run "$c" > /dev/null 2> "$WN_WORLD/real.err"
expect_eq "real bug, nothing sent: exit 1" 1 $?
check "... says so" grep -q "the bot keeps it open" "$WN_WORLD/real.err"

# --- fixed by a title typed, no winnow.tree ---------------------------------
"$WINNOW" mark "$c" 1 fixed 2> "$WN_WORLD/notree.err"
expect_eq "fixed, no tree, no --title: exit 2" 2 $?
check "... says --title gives the title" grep -q "winnow.tree is not set.*--title TEXT" "$WN_WORLD/notree.err"
title="quill: don't evict an inode twice — café edition"
"$WINNOW" mark "$c" 1 fixed --title "$title"
expect_eq "fixed --title: exit 0" 0 $?
expect_eq "show says fixed by the title" "    state: fixed by \"$title\"" "$("$WINNOW" show "$c" | grep 'state:')"
expect_eq "JSON: the state and the title" "fixed $title null" \
	"$("$WINNOW" show --format=json "$c" | jq -r '.findings[0] | "\(.state) \(.fixed_title) \(.fixed_by)"')"
"$WINNOW" forward --dry-run "$c" > "$WN_WORLD/title.eml"
expect_eq "the first body line, the title byte for byte" "#syz fix: $title" "$(body1 "$WN_WORLD/title.eml")"
expect_eq "... in 8bit, not encoded" "Content-Transfer-Encoding: 8bit" "$(grep '^Content-Transfer-Encoding:' "$WN_WORLD/title.eml")"
for bad in "quill: a title
over two lines" "quill: a carriage$(printf '\r')return" "quill: a blank at its end " " quill: a blank first" ""; do
	"$WINNOW" mark "$c" 1 fixed --title "$bad" 2> "$WN_WORLD/badtitle.err"
	rc=$?
	expect_eq "--title $(printf %q "$bad"): refused, exit 1" 1 $rc
	check "... saying why" grep -q -- "--title: a title with a line break, a control character, a blank at an end" \
		"$WN_WORLD/badtitle.err"
done
"$WINNOW" mark "$c" 1 fixed --title "$(printf 'x%.0s' $(seq 200))" 2> "$WN_WORLD/longtitle.err"
check "--title too long to keep: refused" grep -q -- "--title: longer than 195 bytes" "$WN_WORLD/longtitle.err"
"$WINNOW" mark "$c" 1 fixed --title "t" --by HEAD 2> "$WN_WORLD/titleby.err"
check "--title and --by: refused" grep -q -- "takes --by COMMIT or --title TEXT, not both" "$WN_WORLD/titleby.err"
"$WINNOW" mark "$c" 1 invalid --title "t" 2> "$WN_WORLD/titleinv.err"
check "--title without fixed: refused" grep -q -- "--title goes with the state fixed" "$WN_WORLD/titleinv.err"
expect_eq "none of those changed it" "    state: fixed by \"$title\"" "$("$WINNOW" show "$c" | grep 'state:')"

# --- fixed by a commit of winnow.tree ----------------------------------------
tree=$WN_WORLD/linux
export GIT_AUTHOR_NAME="Tree Keeper" GIT_AUTHOR_EMAIL=keeper@example.org \
	GIT_COMMITTER_NAME="Tree Keeper" GIT_COMMITTER_EMAIL=keeper@example.org \
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
g() { git -C "$tree" "$@" >/dev/null; }
mkdir -p "$tree/fs/quill"
g init -q
echo "int quill_write_begin(void);" > "$tree/fs/quill/write.c"
g add -A
g commit -q -m "quill: the filesystem"
echo "/* checked */" >> "$tree/fs/quill/write.c"
g commit -q -a -m "quill: check the page's mapping in quill_write_begin()

The page may have been truncated meanwhile.

Reported-by: syzbot+c3d4e5f60718293a4b5c@syzkaller.appspotmail.com
Closes: https://syzkaller.example.org/bug?extid=c3d4e5f60718293a4b5c"
fix=$(git -C "$tree" rev-parse HEAD)
# A later commit that names another bug: not this one's fix.
echo "/* again */" >> "$tree/fs/quill/write.c"
g commit -q -a -m "quill: another fix

Reported-by: syzbot+c3d4e5f60718293a4b5cffff@syzkaller.appspotmail.com"
# A commit whose title runs over two lines cannot be sent exactly.
echo "/* two */" >> "$tree/fs/quill/write.c"
g commit -q -a -m "quill: a title
over two lines"
two=$(git -C "$tree" rev-parse HEAD)
notmuch config set winnow.tree "$tree"

"$WINNOW" mark "$c" 1 fixed
expect_eq "mark fixed (the commit whose Reported-by names the report): exit 0" 0 $?
expect_eq "show says fixed by the commit" "    state: fixed by $fix" "$("$WINNOW" show "$c" | grep 'state:')"
"$WINNOW" forward --dry-run "$c" > "$WN_WORLD/fix.eml"
expect_eq "fix: the first body line, the commit's exact title" \
	"#syz fix: quill: check the page's mapping in quill_write_begin()" "$(body1 "$WN_WORLD/fix.eml")"
expect_eq "fix: Cc syzkaller-bugs first" "Cc: syzkaller-bugs@googlegroups.example.com, linux-fsdevel@lists.example.org," \
	"$(grep '^Cc:' "$WN_WORLD/fix.eml")"

"$WINNOW" mark "$c" 1 fixed --by "$two"
expect_eq "fixed --by: exit 0" 0 $?
"$WINNOW" forward --dry-run "$c" > /dev/null 2> "$WN_WORLD/two.err"
expect_eq "a title over two lines: refused, exit 1" 1 $?
check "... saying why" grep -q "runs over more than one line" "$WN_WORLD/two.err"
"$WINNOW" mark "$c" 1 fixed --by -- 2> "$WN_WORLD/by.err"
check "--by a word git would read as an option: no such commit" grep -q "no commit '--'" "$WN_WORLD/by.err"

# --- the words are a syzbot report's ----------------------------------------
"$WINNOW" mark "$sash" 1 invalid 2> "$WN_WORLD/sash.err"
expect_eq "invalid on a Sashiko review: exit 1" 1 $?
check "... says it is a syzbot report's word" grep -q "'invalid' is a state of a bug report the bot tracks by replies" "$WN_WORLD/sash.err"
"$WINNOW" mark "$a" 1 valid --of "$b" 2> "$WN_WORLD/of.err"
expect_eq "--of without duplicate: a user error, exit 1" 1 $?
check "... saying so" grep -q -- "--of goes with the state duplicate" "$WN_WORLD/of.err"
"$WINNOW" mark "$a" 1 duplicate > /dev/null 2> "$WN_WORLD/noof.err"
expect_eq "duplicate without --of: exit 1" 1 $?
check "... saying so" grep -q "duplicate wants --of" "$WN_WORLD/noof.err"
"$WINNOW" mark "$a" 1 duplicate --of "$sash" 2> "$WN_WORLD/ofsash.err"
check "--of a review that is no syzbot report: refused" grep -q "is no bug report of that bot" "$WN_WORLD/ofsash.err"

# --- through the drafts folder: the sent copy's command is recorded ---------
mail=$WN_WORLD/db/mail
notmuch config set winnow.drafts_folder drafts
"$WINNOW" mark "$d" 1 duplicate --of "$a"
"$WINNOW" forward --to-drafts "$d" > "$WN_WORLD/dout" 2> /dev/null < /dev/null
expect_eq "--to-drafts: exit 0" 0 $?
draft=$(cat "$WN_WORLD/dout")
mkdir -p "$mail/sent/cur" "$mail/sent/new" "$mail/sent/tmp"
cp "$draft" "$mail/sent/cur/1796000000.sent.host:2,S"
rm "$draft"
notmuch new --quiet
"$WINNOW" list > /dev/null
expect_eq "the mailer's sent copy: its record names the command" "dup" \
	"$("$WINNOW" show --format=json "$d" | jq -r '.findings[0].forwarded | split(" ") | .[2]')"
"$WINNOW" mark "$d" 1 real
"$WINNOW" forward --dry-run "$d" > "$WN_WORLD/dundup.eml"
expect_eq "... so a real bug then gets #syz undup" "#syz undup" "$(body1 "$WN_WORLD/dundup.eml")"

wn_done
