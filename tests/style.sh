#!/usr/bin/env bash
# make style: the C lines changed since the commit in
# tests/style-base, checked against .clang-format with git clang-format
# (Debian's clang-format).  Only changed lines: the tree before that
# commit is not reformatted (a whole-tree run would touch some 2700 of
# its 59000 lines), so the style holds from there on.  Prints the
# changes clang-format wants and fails when there are any.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
base=$(sed -n 's/^\([0-9a-f]\{7,40\}\).*/\1/p' tests/style-base | head -n 1)
gcf=$(command -v git-clang-format-14 || command -v git-clang-format) ||
	{ echo "style: git clang-format is not installed (Debian: clang-format)" >&2; exit 2; }
cf=$(command -v clang-format-14 || command -v clang-format)
git rev-parse --git-dir >/dev/null 2>&1 || { echo "style: not a git checkout: nothing to compare" >&2; exit 2; }
git cat-file -e "$base^{commit}" 2>/dev/null ||
	{ echo "style: the base commit $base is not in this repository (a shallow clone?)" >&2; exit 2; }
out=$("$gcf" --binary "$cf" --style=file --extensions c,h --diff "$base" -- src include tests 2>&1)
case $out in
''|*"no modified files to format"*|*"did not modify any files"*)
	echo "style: the C lines changed since $base follow .clang-format"
	exit 0 ;;
esac
printf '%s\n' "$out"
echo "style: the lines above want clang-format's changes (git clang-format --style=file $base)" >&2
exit 1
