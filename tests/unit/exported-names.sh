#!/usr/bin/env bash
# One prefix, wn_: every name libwinnow.a exports begins
# with wn_, but for the module-internal ones of
# tests/unit/exported-names.allowed (each module's shared helpers under
# its own prefix, as they were when this check came).  A new exported
# name without wn_ fails here, named.  A line of the allowed set whose
# name is gone is only told (a build without test hooks lacks some, and
# branches merged side by side rename them): remove it.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${WN_TOP_BUILDDIR:-$top}
lib=$build/libwinnow.a
allowed=$top/tests/unit/exported-names.allowed
pass=0 fail=0

[ -f "$lib" ] || { echo "FAIL - $lib is not built"; exit 1; }
# Defined, global names; a sanitizer's own (__odr_asan.NAME) and the
# compiler's (NAME.part.0) are not ours to name.
names=$(nm -g --defined-only "$lib" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[BCDGRSTVW]$/ { print $3 }' | grep -v '^__\|\.' | sort -u)
[ "$(grep -c '^wn_' <<<"$names")" -ge 100 ] || { echo "FAIL - nm read no library from $lib"; exit 1; }
want=$(grep -v '^#' "$allowed" | sort -u)
new=$(comm -23 <(grep -v '^wn_' <<<"$names") <(echo "$want"))
gone=$(comm -13 <(grep -v '^wn_' <<<"$names") <(echo "$want"))
if [ -z "$new" ]; then
	echo "ok - every exported name is wn_ or module-internal ($(wc -l <<<"$want") allowed)"
	pass=$((pass + 1))
else
	echo "FAIL - exported without the wn_ prefix (make them static, or name them wn_):"
	sed 's/^/  /' <<<"$new"
	fail=$((fail + 1))
fi
[ -z "$gone" ] || { echo "# allowed but no longer exported (remove from $allowed):"; sed 's/^/#   /' <<<"$gone"; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
