#!/usr/bin/env bash
# winnow show --tree: the function around each finding, read in
# winnow.tree with the patch's series applied by b4 (offline, the
# thread from the notmuch database) in a worktree per series that a
# second look reuses (a review of patch 1 sees it at patch 1); the tree
# as it is when the series does not apply, saying why.  The user's tree
# is never changed, and no file is read through a symbolic link.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/lore.sh"
wn_need_tools b4 git
wn_world "$WN_TOP_SRCDIR/tests/corpus/lore"
export XDG_CACHE_HOME=$WN_WORLD/cache TZ=UTC
trees=$XDG_CACHE_HOME/winnow/trees
linux=$WN_WORLD/linux
wn_kernel_tree "$linux"
base=$(git -C "$linux" rev-parse HEAD)
of2=20260112112000.F00D0001@smtp.kernel.org	# reviews patch 2/2: kfree at 31
of1=20260112134000.F00D0002@smtp.kernel.org	# reviews patch 1/2: the return at 27
other=20260113100000.0CA70001@smtp.kernel.org	# a driver the tree lacks
run() { "$WINNOW" "$@" > "$WN_WORLD/out" 2> "$WN_WORLD/err"; }
tree() { jq -r "$1" "$WN_WORLD/out"; }

run show --tree "$of2"; expect_eq "--tree without winnow.tree" 2 $?
check "... says so" grep -qF "winnow.tree is not set" "$WN_WORLD/err"
check "... having printed nothing" test ! -s "$WN_WORLD/out"
notmuch config set winnow.tree "$linux"

run show --tree --format=json "$of2"; expect_eq "show --tree" 0 $?
root=$(tree .tree.root)
expect_eq "b4 applied the series" true "$(tree .tree.applied)"
check "... in a worktree under the cache" test "${root#"$trees"/}" != "$root"
expect_eq "... both patches, on the tree's HEAD" \
	"frob: mark a removed device dead|frob: do not drop a user nobody holds" \
	"$(git -C "$root" log --format=%s "$base..HEAD" | paste -sd '|')"
expect_eq "the finding's line is kfree(f), as the patch leaves it" "31|	kfree(f);" \
	"$(tree '.tree.findings[0] | "\(.line)|\(.lines[.line - .start])"')"
expect_eq "... shown in its function, signature to brace" \
	"static void frob_remove(struct platform_device *pdev)|}" \
	"$(tree '.tree.findings[0].lines | "\(.[0])|\(.[-1])"')"
expect_eq "the user's tree is as it was" "$base|" \
	"$(git -C "$linux" rev-parse HEAD)|$(git -C "$linux" status --porcelain)"

run show --tree "$of2"; expect_eq "show --tree as text" 0 $?
check "... says which tree" grep -qxF "Tree: $root (the series applied by b4, at patch 2 of 2)" \
	"$WN_WORLD/out"
check "... marks the finding's line" grep -qxF "  >   31  	kfree(f);" "$WN_WORLD/out"

# The review of patch 1: the series' worktree, at patch 1.
run show --tree --format=json "$of1"; expect_eq "show --tree on patch 1's review" 0 $?
expect_eq "... the series' worktree, at patch 1" "$root|true|1|2|frob: do not drop a user nobody holds" \
	"$(tree '"\(.tree.root)|\(.tree.applied)|\(.tree.patch)|\(.tree.patches)"')|$(git -C "$root" log --format=%s "$base..HEAD")"
# (With patch 2 applied too, line 27 would be the if above it.)
expect_eq "... the line as patch 1 left it" "		return;" \
	"$(tree '.tree.findings[0] | .lines[.line - .start]')"

# A second look reuses the worktree: b4 does not run again.
mkdir -p "$WN_WORLD/bin"
printf '#!/bin/sh\necho called >> "%s"\nexit 1\n' "$WN_WORLD/b4-calls" > "$WN_WORLD/bin/b4"
chmod +x "$WN_WORLD/bin/b4"
PATH=$WN_WORLD/bin:$PATH run show --tree --format=json "$of2"; expect_eq "show --tree again" 0 $?
expect_eq "... the same worktree, back at patch 2" "$root|true|2|	kfree(f);" \
	"$(tree '"\(.tree.root)|\(.tree.applied)|\(.tree.patch)|\(.tree.findings[0] | .lines[.line - .start])"')"
check "... without running b4" test ! -e "$WN_WORLD/b4-calls"

# The Message-ID comes from mail: b4 gets it after "--".
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s"\nexit 1\n' "$WN_WORLD/b4-argv" > "$WN_WORLD/bin/b4"
XDG_CACHE_HOME=$WN_WORLD/cache2 PATH=$WN_WORLD/bin:$PATH run show --tree --format=json "$of2"
expect_eq "b4 is given the patch's id after --" "shazam|-m|--|20260112-frob-v1-2-f00d@example.org" \
	"$(sed -n '3,4p;6,$p' "$WN_WORLD/b4-argv" | paste -sd '|')"
check "... its mbox from the cache" grep -qx "$WN_WORLD/cache2/winnow/trees/series-[0-9]*.mbox" "$WN_WORLD/b4-argv"
# An id starting with '-' would be b4's option: never given to it.
cur=$WN_WORLD/db/mail/cur
sed -e 's|^Message-Id: <.*>|Message-Id: <-m/other.mbox@x>|' -e '/^In-Reply-To:/d' -e '/^References:/d' \
	"$WN_TOP_SRCDIR/tests/corpus/lore/03-frob-2.eml" > "$cur/dash-patch:2,S"
sed -e 's|^Message-Id: <.*>|Message-Id: <dash.review@example.org>|' \
	-e 's|^In-Reply-To: <.*>|In-Reply-To: <-m/other.mbox@x>|' -e '/^References:/d' -e '/^ <20260112/d' \
	"$WN_TOP_SRCDIR/tests/corpus/lore/04-sashiko-frob-2.eml" > "$cur/dash-review:2,S"
notmuch new --quiet
rm -f "$WN_WORLD/b4-argv"
XDG_CACHE_HOME=$WN_WORLD/cache2 PATH=$WN_WORLD/bin:$PATH run show --tree --format=json dash.review@example.org
expect_eq "a patch whose id starts with '-': the tree as it is" \
	"0|false|the patch's Message-ID starts with '-': not given to b4" \
	"$?|$(tree .tree.applied)|$(tree .tree.why)"
check "... b4 never ran" test ! -e "$WN_WORLD/b4-argv"

# A b4 that never ends is stopped after winnow.tool_timeout,
# with what it started, leaving no mbox and no worktree: the tree as it
# is, saying why.
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"; }
no_leftovers() { [ -z "$(find "$1" -name 'series-*.mbox')" ] && [ "$(git -C "$linux" worktree list | wc -l)" = 2 ]; }
printf '#!/bin/sh\nsleep 600 &\necho $! > "%s"\nwait\n' "$WN_WORLD/b4-child" > "$WN_WORLD/bin/b4"
notmuch config set winnow.tool_timeout 1
XDG_CACHE_HOME=$WN_WORLD/cache3 PATH=$WN_WORLD/bin:$PATH run show --tree --format=json "$of2"
expect_eq "a b4 that hangs is stopped after winnow.tool_timeout" \
	"0|false|'b4' did not finish in 1 s (winnow.tool_timeout) and was stopped" \
	"$?|$(tree .tree.applied)|$(tree .tree.why)"
check "... with what it started" wn_until gone "$(cat "$WN_WORLD/b4-child")"
check "... leaving no mbox and no worktree" no_leftovers "$WN_WORLD/cache3"
notmuch config set winnow.tool_timeout x
run show --tree "$of2"; expect_eq "a winnow.tool_timeout that is no number" 2 $?
check "... is refused" grep -qF "winnow.tool_timeout must be a number of seconds" "$WN_WORLD/err"
# Ctrl-C while b4 runs stops it and the apply, leaving nothing: exit 2.
# (The limit only ends a broken test.)
notmuch config set winnow.tool_timeout 50
rm -f "$WN_WORLD/b4-child"
XDG_CACHE_HOME=$WN_WORLD/cache4 PATH=$WN_WORLD/bin:$PATH "$WINNOW" show --tree "$of2" \
	> "$WN_WORLD/out" 2> "$WN_WORLD/err" &
pid=$!
check "b4 runs" wn_until test -s "$WN_WORLD/b4-child"
kill -INT "$pid"
wait "$pid"; expect_eq "Ctrl-C while b4 runs: exit 2" 2 $?
expect_eq "... saying so" "winnow: stopped (Ctrl-C): the series is not applied" "$(cat "$WN_WORLD/err")"
check "... b4's child stopped too" wn_until gone "$(cat "$WN_WORLD/b4-child")"
check "... leaving no mbox and no worktree" no_leftovers "$WN_WORLD/cache4"
notmuch config set winnow.tool_timeout ''

# A worktree belongs to its tree: another checkout named by
# winnow.tree gets a worktree of its own, never the old one.
git clone -q "$linux" "$WN_WORLD/linux2"
notmuch config set winnow.tree "$WN_WORLD/linux2"
run show --tree --format=json "$of2"; expect_eq "show --tree in another tree" 0 $?
root2=$(tree .tree.root)
check "... in a worktree of its own" test "$root2" != "$root"
expect_eq "... of that tree's repository, the series applied" "$WN_WORLD/linux2/.git|true|2" \
	"$(cd "$root2" && realpath "$(git rev-parse --git-common-dir)")|$(tree .tree.applied)|$(tree .tree.patch)"
notmuch config set winnow.tree "$linux"

# A series that does not apply: the tree as it is, and why.
run show --tree --format=json "$other"; expect_eq "show --tree on a series that does not apply" 0 $?
expect_eq "... the tree as it is" "$linux|false" "$(tree .tree.root)|$(tree .tree.applied)"
expect_eq "... saying why in git's words" "b4: error: drivers/other/other.c: does not exist in index" \
	"$(tree .tree.why)"
expect_eq "... and that the file is not there" "drivers/other/other.c is not in the tree" \
	"$(tree '.tree.findings[0].error')"
expect_eq "no worktree is left of it" 2 "$(git -C "$linux" worktree list | wc -l)"
run show --tree "$other"
check "... the text says it too" grep -qF "(the tree as it is: b4: error: drivers/other/other.c" "$WN_WORLD/out"

# A patch of the series adds symbolic links out of the tree (issue
# 36): a finding at one is refused, not read through it.
wn_link_mails "$WN_WORLD/outside"
run show --tree --format=json "$WN_LINK_REVIEW_FILE"; expect_eq "show --tree on a finding at a link" 0 $?
expect_eq "... b4 applied the link" "true|symbolic link" \
	"$(tree .tree.applied)|$(stat -c %F "$(tree .tree.root)/drivers/frob/evil.c")"
expect_eq "... which is refused, saying so" \
	"drivers/frob/evil.c in the tree with the series applied: a symbolic link, not a regular file; not opened|null" \
	"$(tree '"\(.tree.findings[0].error)|\(.tree.findings[0].lines)"')"
run show --tree "$WN_LINK_REVIEW_DIR"; expect_eq "show --tree on a finding under a linked folder" 0 $?
check "... refused too" grep -qxF \
	"  drivers/evil/secret.c in the tree with the series applied: under a symbolic link; not opened" "$WN_WORLD/out"
check "... the file outside is shown nowhere" bash -c "! cat '$WN_WORLD/out' '$WN_WORLD/err' | grep -qF \"the user's secret\""

run show --help
check "show --help names --tree" grep -qF -- "--tree" "$WN_WORLD/out"
wn_done
