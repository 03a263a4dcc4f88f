#!/usr/bin/env bash
# No circle of calls between files of one library module.
# A reader follows a call from file A into file B; if B calls back into
# A (directly or round a longer loop) neither file can be read first.
# Two files that call each other are one file, or the part both need
# belongs in a lower file of the module.
#
# The graph comes from the objects, not from grepping the source: for
# each module folder, "A calls B" when A.o has an undefined symbol that
# B.o defines (nm: U against T/D/B/R).  Every strongly connected set of
# two or more files is a circle and is named with the symbols that make
# it.  Usage outside make: WN_TOP_SRCDIR=. WN_TOP_BUILDDIR=. file-graph.sh
set -u
src=${WN_TOP_SRCDIR:-.}
bld=${WN_TOP_BUILDDIR:-.}
command -v nm >/dev/null || { echo "nm not found"; exit 77; }
[ -d "$src/src/lib" ] || { echo "no src/lib under $src"; exit 99; }

circles=0
modules=0
for dir in "$src"/src/lib/*/; do
	mod=$(basename "$dir")
	objs=()
	for c in "$dir"*.c; do
		[ -e "$c" ] || continue
		o=$bld/src/lib/$mod/$(basename "$c" .c).o
		[ -f "$o" ] || { echo "$o not built"; exit 99; }
		objs+=("$o")
	done
	[ ${#objs[@]} -gt 1 ] || continue
	modules=$((modules + 1))
	# One line per symbol use: "def FILE SYM" or "use FILE SYM".
	out=$(for o in "${objs[@]}"; do
		f=$(basename "$o" .o).c
		nm -P "$o" | awk -v f="$f" '
			$2 == "U" { print "use", f, $1; next }
			$2 ~ /^[TDBR]$/ { print "def", f, $1 }'
	done | awk -v mod="$mod" '
		$1 == "def" { def[$3] = $2; files[$2] = 1; next }
		{ use[++n] = $2; sym[n] = $3; files[$2] = 1 }
		END {
			for (i = 1; i <= n; i++) {
				a = use[i]; b = def[sym[i]]
				if (b == "" || b == a) continue
				edge[a, b] = 1
				why[a, b] = why[a, b] (why[a, b] == "" ? "" : " ") sym[i]
				reach[a, b] = 1
			}
			# Transitive closure: a module has a handful of files.
			for (k in files) for (i in files) if (reach[i, k])
				for (j in files) if (reach[k, j]) reach[i, j] = 1
			for (i in files) {
				if (done[i] || !reach[i, i]) continue
				set = ""
				for (j in files) if (reach[i, j] && reach[j, i]) {
					done[j] = 1; set = set " " j
				}
				printf "circle in %s:%s\n", mod, set
				for (a in files) for (b in files)
					if (edge[a, b] && reach[i, a] && reach[a, i] \
					    && reach[i, b] && reach[b, i])
						printf "  %s -> %s: %s\n", a, b, why[a, b]
			}
		}')
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		circles=$((circles + $(printf '%s\n' "$out" | grep -c '^circle')))
	fi
done
[ $modules -gt 0 ] || { echo "no module objects found under $bld"; exit 99; }

# The same between modules: a module calls only those below it, so no
# two modules may reach each other.  Nodes are the folders; only the
# objects of sources there are (a build tree keeps those of a file
# moved to another module).
between=$(for c in "$src"/src/lib/*/*.c; do
	m=$(basename "$(dirname "$c")")
	o=$bld/src/lib/$m/$(basename "$c" .c).o
	[ -f "$o" ] || continue
	nm -P "$o" | awk -v m="$m" '
		$2 == "U" { print "use", m, $1; next }
		$2 ~ /^[TDBR]$/ { print "def", m, $1 }'
done | awk '
	$1 == "def" { def[$3] = $2; mods[$2] = 1; next }
	{ use[++n] = $2; sym[n] = $3; mods[$2] = 1 }
	END {
		for (i = 1; i <= n; i++) {
			a = use[i]; b = def[sym[i]]
			if (b == "" || b == a) continue
			if (!edge[a, b]) why[a, b] = sym[i]
			edge[a, b] = 1; reach[a, b] = 1
		}
		for (k in mods) for (i in mods) if (reach[i, k])
			for (j in mods) if (reach[k, j]) reach[i, j] = 1
		for (a in mods) for (b in mods)
			if (a < b && reach[a, b] && reach[b, a])
				printf "circle between modules %s and %s (%s -> %s: %s)\n", a, b, \
					a, b, edge[a, b] ? why[a, b] : "through others"
	}')
if [ -n "$between" ]; then
	printf '%s\n' "$between"
	circles=$((circles + $(printf '%s\n' "$between" | grep -c '^circle')))
fi

if [ $circles -eq 0 ]; then
	echo "$modules modules, no circle between files of one module nor between modules"
	echo "1 passed, 0 failed"
	exit 0
fi
echo "$circles circle(s) of calls"
echo "0 passed, 1 failed"
exit 1
