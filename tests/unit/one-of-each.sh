#!/usr/bin/env bash
# One of each (HACKING, "One of each"): the library hashes
# with core/hash.c's one FNV-1a and no other, so that a hash that must
# stay stable (the fingerprint) has one definition; and it runs programs
# through core/proc.c's one runner, so that signals, a failed exec and
# a program that never ends are handled once.  A file that spells FNV's
# constants or calls exec itself fails here, named.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
pass=0 fail=0

. "$top/tests/lib/ok.sh"

cd "$top" || exit 99
[ -f src/lib/core/hash.h ] || { echo "FAIL - no src/lib/core/hash.h under $top"; exit 99; }
# FNV's offset bases and primes, 32 and 64 bit, in decimal or hex; a
# comment naming them (review.c tells the fingerprint's) is no second
# hash, so only code lines count.
fnv='2166136261|0x811c9dc5|16777619|0x01000193|0xcbf29ce484222325|14695981039346656037|0x100000001b3|1099511628211'
hits=$(grep -rnEi --include='*.[ch]' "$fnv" src include |
	grep -v '^src/lib/core/hash\.h:' | grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)')
ok "FNV-1a is core/hash's alone" "$hits"

# The exec family, posix_spawn, popen and system in the library's code;
# store-writer.c's fork runs no program (the child is winnow's own).
hits=$(grep -rnE --include='*.c' '\b(exec[lv]p?e?|posix_spawnp?|popen|system)\s*\(' src/lib |
	grep -v '^src/lib/core/proc\.c:' | grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)')
ok "programs are run by core/proc.c alone" "$hits"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
