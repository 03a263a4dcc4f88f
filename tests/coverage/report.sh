#!/usr/bin/env bash
# make coverage's report: line and branch coverage per
# module from the gcov counters a --enable-coverage build's tests left,
# gcov alone (no lcov).  The library's modules are held to FLOOR% of
# their lines (HACKING); those below it are named, and the report
# fails.  Run from the top build folder.
#
#   tests/coverage/report.sh [FLOOR]
set -u
floor=${1:-85}
top=${WN_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ls src/lib/core/*.gcno >/dev/null 2>&1 ||
	{ echo "coverage: no gcov notes here: configure --enable-coverage and build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gcov's summary of each object (NAME.o, or a program's PROG-NAME.o) of
# folder $1 whose source is $1/NAME.c: lines and branches of that file,
# counted (a file never run counts every line as missed).
module() {
	local d=$1 o src base
	for o in "$d"/*.gcno; do
		[ -e "$o" ] || continue
		base=$(basename "$o" .gcno)
		# The fake-entry build and the unit tests compile these
		# sources again under their own names: count the product's.
		case $base in tests_*|test_*|*-fake-*|keys_man-*|man_lists-*) continue ;; esac
		src=$d/${base#winnow-}.c
		[ -f "$top/$src" ] || continue
		(cd "$tmp" && gcov -b -n -o "$OLDPWD/$o" "$top/$src" 2>/dev/null) |
			awk -v want="$src" '
				/^File / { f = $2; gsub(/\x27/, "", f); on = (f ~ ("(^|/)" want "$")); lines = 0 }
				# gcov ends with a total of lines, no File line
				# before it: count only the first line of a file.
				on && !lines && /^Lines executed:/ { split($2, a, "%"); sub(/.*:/, "", a[1]); l += $NF; lc += a[1] * $NF / 100; lines = 1 }
				on && /^No executable lines/ { }
				on && /^Taken at least once:/ { split($4, a, "%"); sub(/.*:/, "", a[1]); b += $NF; bc += a[1] * $NF / 100 }
				END { printf "%d %d %d %d\n", l, lc + 0.5, b, bc + 0.5 }'
	done | awk '{ l += $1; lc += $2; b += $3; bc += $4 } END { printf "%d %d %d %d\n", l, lc, b, bc }'
}

below=()
printf '%-12s %16s %18s\n' module lines branches
for d in src/lib/*/ src/cli/ src/tui/ src/tui/views/; do
	d=${d%/}
	read -r l lc b bc <<<"$(module "$d")"
	[ "${l:-0}" -gt 0 ] || continue
	lp=$((1000 * lc / l)) bp=0
	[ "$b" -gt 0 ] && bp=$((1000 * bc / b))
	name=${d#src/lib/}
	printf '%-12s %5d.%d%% of %5d %5d.%d%% of %5d' "$name" $((lp / 10)) $((lp % 10)) "$l" \
		$((bp / 10)) $((bp % 10)) "$b"
	if [[ $d == src/lib/* ]] && [ "$lp" -lt $((floor * 10)) ]; then
		printf '   below the floor of %d%%' "$floor"
		below+=("$name")
	fi
	printf '\n'
done
if [ ${#below[@]} -gt 0 ]; then
	echo "coverage: library modules below $floor% of lines: ${below[*]}"
	exit 1
fi
echo "coverage: every library module covers at least $floor% of its lines"
