#!/usr/bin/env bash
# No dead public functions: every function a file of src/
# offers the others (not static: in include/winnow/ or a module's
# header) has a caller in another file of the program or of its build
# tools (man-lists, keys-man), or is listed in
# tests/unit/dead-functions.allowed with the reason it stays.  A test's
# call does not count: a function only tests call is listed, so that
# the choice is made once, in the open.  A function only its own file
# calls is made static; one nobody calls is removed.
#
# The calls come from the objects, not from grepping the source: a
# function is called from file B when B's object has it undefined (nm
# U).  Objects of one source built twice (winnow-keymap.o and
# keys_man-keymap.o) are one file; the test programs' own copies
# (tests_*) and the fake builds are left out.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${WN_TOP_BUILDDIR:-$top}
allowed=$top/tests/unit/dead-functions.allowed
pass=0 fail=0
. "$top/tests/lib/ok.sh"

command -v nm >/dev/null || { echo "nm not found"; exit 77; }
cd "$build" || exit 99
objs=$(find src -name '*.o' ! -name 'tests_*' | sort)
[ "$(grep -c '^src/lib/' <<<"$objs")" -ge 50 ] || { echo "FAIL - the library is not built under $build"; exit 1; }

# "file symbol" lines, the file being the source the object came from
# (its folder and name without the program's prefix).
file_of() { sed -E 's@/(winnow|keys_man|man_lists)-([^/]+\.o) @/\2 @; s@\.o @.c @'; }
def=$(for o in $objs; do
	nm -g --defined-only "$o" | awk -v o="$o" 'NF == 3 && $2 ~ /^[TDBR]$/ && $3 !~ /^__|\./ { print o, $3 }'
done | file_of | sort -u)
und=$(for o in $objs; do nm -u "$o" | awk -v o="$o" '{ print o, $2 }'; done | file_of | sort -u)
[ -n "$def" ] || { echo "FAIL - nm read nothing"; exit 1; }

# Defined in one file, undefined in another: called.  main is the
# program's own.
called=$(join -1 2 -2 2 -o 1.1,1.2,2.1 <(sort -k2 <<<"$def") <(sort -k2 <<<"$und") |
	awk '$1 != $3 { print $2 }' | sort -u)
want=$(sed 's/#.*//' "$allowed" | awk 'NF { print $1 }' | sort -u)
dead=$(awk '$2 != "main" { print $2, $1 }' <<<"$def" | sort -u |
	join -v1 - <(echo "$called") | join -v1 - <(echo "$want"))
ok "every public function has a caller in another file, or a reason in dead-functions.allowed" "$dead"
[ -z "$dead" ] || echo "# make each static, remove it, or list it in $allowed with why"
# A listed name that has a caller now, or is gone, is only told.
stale=$(comm -12 <(echo "$want") <(echo "$called"))
gone=$(comm -23 <(echo "$want") <(awk '{ print $2 }' <<<"$def" | sort -u))
[ -z "$stale$gone" ] || { echo "# listed but called or gone (remove from $allowed):"; echo "$stale$gone" | sed '/^$/d; s/^/#   /'; }
# Every listed name says why.
ok "every listed function says why" "$(sed 's/#.*//' "$allowed" | awk 'NF == 1 { print $1 }')"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
