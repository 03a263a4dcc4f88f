#!/usr/bin/env bash
# Each module says what it calls, and says it truly: the line "It
# calls: ..." of src/lib/NAME/README and the "NAME/  calls: ..." line of
# HACKING's map name exactly the modules whose functions (or data) the
# module's objects use, read with nm (an undefined symbol of one module
# that another defines), and HACKING lists each of them below it.  A
# module that starts or stops calling another fails here until both say
# so.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${WN_TOP_BUILDDIR:-$top}
pass=0 fail=0
command -v nm >/dev/null || { echo "nm not found"; exit 77; }

# "symbol module" for every global a library object defines, and
# "symbol module" for every one it uses undefined.
defs= uses=
for dir in "$top"/src/lib/*/; do
	m=$(basename "$dir")
	for c in "$dir"*.c; do
		o=$build/src/lib/$m/$(basename "$c" .c).o
		[ -f "$o" ] || { echo "FAIL - $o is not built"; exit 99; }
		defs+=$(nm -g --defined-only "$o" | awk -v m="$m" 'NF == 3 { print $3, m }')$'\n'
		uses+=$(nm -u "$o" | awk -v m="$m" '{ print $2, m }')$'\n'
	done
done
# "user used" pairs, each module that calls another once.
calls=$(join <(sed '/^$/d' <<<"$uses" | sort -u) <(sed '/^$/d' <<<"$defs" | sort -u) |
	awk '$2 != $3 { print $2, $3 }' | sort -u)

# HACKING's order of the modules, bottom up.
order=$(awk '/^    [a-z]+\/ +calls:/ { sub("/", "", $1); print $1 }' "$top/HACKING")
pos() { grep -nx "$1" <<<"$order" | cut -d: -f1; }
# A list as words, sorted: "core, mail, bots" -> "bots core mail".
words() { tr -s ', .\t' '\n' | grep -v '^$' | sort | tr '\n' ' '; }

for dir in "$top"/src/lib/*/; do
	m=$(basename "$dir")
	want=$(awk -v m="$m" '$1 == m { print $2 }' <<<"$calls" | words)
	readme=$(sed -n 's/^It calls: \(.*\)/\1/p' "$dir/README" | head -n 1)
	hacking=$(awk -v m="$m/" '$1 == m && $2 == "calls:" { $1 = $2 = ""; print }' "$top/HACKING")
	[ "$readme" = "nothing of the library." ] && readme=
	[ "$hacking" = "  (nothing of the library)" ] && hacking=
	if [ "$(words <<<"$readme")" = "$want" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL - src/lib/$m/README's \"It calls:\" says '$readme'; nm: ${want:-nothing}"
		fail=$((fail + 1))
	fi
	if [ "$(words <<<"$hacking")" = "$want" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL - HACKING's $m/ calls:$hacking; nm: ${want:-nothing}"
		fail=$((fail + 1))
	fi
	for c in $want; do
		if [ -n "$(pos "$m")" ] && [ -n "$(pos "$c")" ] && [ "$(pos "$c")" -lt "$(pos "$m")" ]; then
			pass=$((pass + 1))
		else
			echo "FAIL - $m calls $c, which HACKING does not list below it"
			fail=$((fail + 1))
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
