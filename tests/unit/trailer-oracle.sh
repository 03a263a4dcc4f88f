#!/bin/sh
# winnow — check the trailer block we find against git's own parser.
#
# For every mail under tests/corpus/ (*.eml, recursively) whose decoded
# body holds a "diff --git", cut the commit message where git am would
# (the rule trailer.c uses), prepend a title line (the Subject is the
# commit title, so the body never is) and compare
#     git interpret-trailers --parse --no-divider
# with what trailer-dump prints from wn_trailers_parse().
#
# Environment: WN_TOP_SRCDIR, WN_TOP_BUILDDIR (set by make check).
# Exit: 0 all agree, 1 a mismatch, 77 skipped (no git, no patches),
# 99 the driver is missing.

here=$(cd "$(dirname "$0")" && pwd)
src=${WN_TOP_SRCDIR:-$here/../..}
build=${WN_TOP_BUILDDIR:-$src}
dump=$build/tests/unit/trailer-dump

if ! command -v git >/dev/null 2>&1; then
	echo "trailer-oracle: git not found, skipping"
	exit 77
fi
if [ ! -x "$dump" ]; then
	echo "trailer-oracle: $dump not built (make check builds it)" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wn-trailer-oracle.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

# No user, system or repository configuration may change git's idea of
# a trailer (trailer.*.key, core.commentChar): run outside any repo.
GIT_CONFIG_NOSYSTEM=1; export GIT_CONFIG_NOSYSTEM
GIT_CONFIG_GLOBAL=/dev/null; export GIT_CONFIG_GLOBAL
HOME=$tmp; export HOME
GIT_CEILING_DIRECTORIES=$tmp; export GIT_CEILING_DIRECTORIES
LC_ALL=C; export LC_ALL

# git am's patch break (mailinfo.c patchbreak()), as in trailer.c.
cut_message() {
	awk '
	/^diff -/ || /^Index: / { exit }
	/^---/ {
		if (substr($0, 4, 1) == " " && length($0) > 4 && substr($0, 5, 1) !~ /[[:space:]]/)
			exit
		if (substr($0, 4) ~ /^[[:space:]]*$/)
			exit
	}
	{ print }'
}

pass=0
fail=0
find "$src/tests/corpus" -type f -name '*.eml' 2>/dev/null | LC_ALL=C sort > "$tmp/list"
while IFS= read -r f; do
	rel=${f#"$src"/}
	if ! "$dump" --body "$f" > "$tmp/body" 2> "$tmp/err"; then
		echo "FAIL: $rel: $(cat "$tmp/err")"
		fail=$((fail + 1))
		continue
	fi
	grep -q 'diff --git' "$tmp/body" || continue
	{ printf 'title\n\n'; cut_message < "$tmp/body"; } > "$tmp/msg"
	(cd "$tmp" && git interpret-trailers --parse --no-divider < "$tmp/msg") > "$tmp/want" 2> "$tmp/err" || {
		echo "FAIL: $rel: git interpret-trailers: $(cat "$tmp/err")"
		fail=$((fail + 1))
		continue
	}
	"$dump" "$f" > "$tmp/got" 2> "$tmp/err" || {
		echo "FAIL: $rel: trailer-dump: $(cat "$tmp/err")"
		fail=$((fail + 1))
		continue
	}
	if cmp -s "$tmp/want" "$tmp/got"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $rel (--- git, +++ winnow)"
		diff -u "$tmp/want" "$tmp/got" | sed '1,2d'
		fail=$((fail + 1))
	fi
done < "$tmp/list"

echo "trailer-oracle: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
[ "$pass" -gt 0 ] || exit 77
exit 0
