#!/usr/bin/env bash
# A module's insides stay its own: no test or fuzzer includes
# a NAME-private.h (what tests reach is declared in the module's one
# test header, src/lib/NAME/NAME-test.h), and no library file includes
# another module's NAME-test.h.  Each include that breaks this fails
# here, named.  The check is also run over a copy with one such include
# planted, which it must catch.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
pass=0 fail=0

# Print "file:line: include" for each include in tree $1 that breaks
# the rule; nothing when none does.
offences() {
	local root=$1 f line inc name dir
	# Tests and fuzzers: no private header at all.
	grep -rnE --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*-private\.h[">]' \
		"$root/tests" 2>/dev/null | sed "s|^$root/||"
	# The library: a module's test header only from its own folder.
	grep -rnE --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*-test\.h"' \
		"$root/src" 2>/dev/null | while IFS= read -r line; do
		f=${line%%:*}
		inc=$(sed -E 's/.*include[[:space:]]*"([^"]*)".*/\1/' <<<"$line")
		name=$(basename "$inc" -test.h)
		dir=$(basename "$(dirname "$f")")
		[ -f "$root/src/lib/$name/$name-test.h" ] || continue
		[ "$dir" = "$name" ] && continue
		echo "${line#"$root"/}"
	done
}

bad=$(offences "$top")
if [ -z "$bad" ]; then
	echo "ok - no test includes a private header, no module another's test header"
	pass=$((pass + 1))
else
	echo "FAIL - includes that reach into a module (use its NAME-test.h):"
	sed 's/^/  /' <<<"$bad"
	fail=$((fail + 1))
fi

# The check bites: a copy of the includes with one of each planted.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests/unit" "$tmp/tests/fuzz" "$tmp/src/lib/mail" "$tmp/src/lib/store"
touch "$tmp/src/lib/mail/mail-test.h"
printf '#include "winnow/mail.h"\n#include "mail/mail-test.h"\n' >"$tmp/tests/unit/ok.c"
printf '#include "../../src/lib/store/store-private.h"\n' >"$tmp/tests/unit/bad.c"
printf '# include <mail/mail-private.h>\n' >"$tmp/tests/fuzz/bad.c"
printf '#include "mail-test.h"\n' >"$tmp/src/lib/mail/mail-private.h"
printf '#include "../mail/mail-test.h"\n' >"$tmp/src/lib/store/store.c"
caught=$(offences "$tmp" | sort | tr '\n' ' ')
want="src/lib/store/store.c:1:#include \"../mail/mail-test.h\" tests/fuzz/bad.c:1:# include <mail/mail-private.h> tests/unit/bad.c:1:#include \"../../src/lib/store/store-private.h\" "
if [ "$caught" = "$want" ]; then
	echo "ok - ... and catches each planted include, and only those"
	pass=$((pass + 1))
else
	echo "FAIL - the check over planted includes found: $caught"
	echo "  wanted: $want"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
