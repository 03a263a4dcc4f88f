#!/usr/bin/env bash
# One prefix, wn_: every name libwinnow.a exports begins with wn_,
# helpers a module's files share among themselves too (wn_rv_, wn_log_,
# wn_str_...), so nothing of the library can clash with a name of the
# program or library that links it.  An exported name without wn_ fails
# here, named: make it static, or give it wn_.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${WN_TOP_BUILDDIR:-$top}
lib=$build/libwinnow.a

[ -f "$lib" ] || { echo "FAIL - $lib is not built"; exit 1; }
# Defined, global names; a sanitizer's own (__odr_asan.NAME) and the
# compiler's (NAME.part.0) are not ours to name.
names=$(nm -g --defined-only "$lib" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[BCDGRSTVW]$/ { print $3 }' | grep -v '^__\|\.' | sort -u)
[ "$(grep -c '^wn_' <<<"$names")" -ge 100 ] || { echo "FAIL - nm read no library from $lib"; exit 1; }
new=$(grep -v '^wn_' <<<"$names")
if [ -z "$new" ]; then
	echo "ok - every name libwinnow.a exports is wn_ ($(wc -l <<<"$names") names)"
	echo "1 passed, 0 failed"
	exit 0
fi
echo "FAIL - exported without the wn_ prefix (make them static, or name them wn_):"
sed 's/^/  /' <<<"$new"
echo "0 passed, 1 failed"
exit 1
