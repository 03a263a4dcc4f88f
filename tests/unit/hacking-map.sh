#!/usr/bin/env bash
# HACKING's map of the library is true: each module's file
# list there names exactly the files its fragment src/lib/NAME/NAME.am
# builds, no more, no fewer.  A file added to a fragment and not to the
# map (or left in the map when removed) fails here, naming it.
set -u
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
pass=0 fail=0

# The file names of module $1 in HACKING: the block that starts with
# "    NAME/      calls:" and ends at the next blank line; of it, the
# lines made of file names only (the prose names files too).
hacking_files() {
	awk -v m="$1/" '
		$1 == m && $2 == "calls:" { on = 1; next }
		on && /^[[:space:]]*$/ { exit }
		on {
			for (i = 1; i <= NF; i++) if ($i !~ /^[A-Za-z0-9_.-]+\.[ch]$/) next
			for (i = 1; i <= NF; i++) print $i
		}
	' "$top/HACKING" | sort
}

# The files fragment $1 adds to the library, by their names in the folder.
am_files() {
	grep -o "src/lib/$1/[A-Za-z0-9_.-]*\.[ch]" "$top/src/lib/$1/$1.am" |
		sed "s|^src/lib/$1/||" | sort -u
}

modules=0
for am in "$top"/src/lib/*/*.am; do
	m=$(basename "$(dirname "$am")")
	[ "$(basename "$am")" = "$m.am" ] || continue
	modules=$((modules + 1))
	want=$(am_files "$m")
	have=$(hacking_files "$m")
	if [ -z "$have" ]; then
		echo "FAIL - HACKING has no file list for src/lib/$m/ (a line \"    $m/      calls: ...\")"
		fail=$((fail + 1))
		continue
	fi
	missing=$(comm -23 <(echo "$want") <(echo "$have") | tr '\n' ' ')
	extra=$(comm -13 <(echo "$want") <(echo "$have") | tr '\n' ' ')
	if [ -z "$missing$extra" ]; then
		echo "ok - HACKING's $m/ lists the files of $m.am"
		pass=$((pass + 1))
	else
		echo "FAIL - HACKING's $m/ disagrees with src/lib/$m/$m.am"
		[ -n "$missing" ] && echo "  built but not in HACKING: $missing"
		[ -n "$extra" ] && echo "  in HACKING but not built: $extra"
		fail=$((fail + 1))
	fi
done
# A module folder HACKING does not know, or a fragment the check missed.
if [ "$modules" -lt 10 ]; then
	echo "FAIL - only $modules module fragments found under src/lib/"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
