#!/usr/bin/env bash
# The code names no tracker and no file outside the repository: a
# comment that says "issue 26" or points at ../shared/FORMATS.md sends
# the reader somewhere they may not be able to go, and stays when the
# thing it named moves.  What such a comment meant is written where the
# code is (a short why), or in doc/.  Fails naming each reference in
# src/, include/ and tests/.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 99
[ -d src/lib ] || { echo "FAIL - no src/lib under $top"; exit 99; }

self=tests/unit/no-tracker.sh

# A tracker's number ("issue 26", "issues 14 and 23", "issue #3") and
# the places outside the tree (the team's shared folder and its notes).
refs='\bissues?[[:space:]]+#?[0-9]|\.\./shared|/work/|FORMATS\.md|DESIGN\.md'
hits=$(grep -rInE "$refs" src include tests --exclude='*.log' --exclude='*.trs' |
	grep -v "^$self:")
if [ -z "$hits" ]; then
	echo "ok - src/, include/ and tests/ name no tracker and no file outside the tree"
	echo "1 passed, 0 failed"
	exit 0
fi
echo "FAIL - a tracker's number or a file outside the tree (write what it says instead):"
sed 's/^/  /' <<<"$hits"
echo "0 passed, 1 failed"
exit 1
