#!/usr/bin/env bash
# make mutate: change the code on purpose, one small change at a time,
# and see whether a test notices.  Each line of
# tests/mutate/mutants (NAME, FILE, a sed expression, the tests of its
# module) is applied to a copy of the tree, never to the tree itself;
# the copy is built once and make rebuilds only what a change touches;
# then that module's tests run.  A change no test notices survives: it
# wants a test, or a line in the list saying why no test can see it.
#
#   tests/mutate/run.sh [NAME-REGEX]     (make mutate MUTANTS=REGEX)
#
# MUTATE_DIR (default build/mutate) keeps the copy between runs, so a
# second run starts at once; MUTATE_TIMEOUT (seconds, default 600) is
# the most one test may take before it counts as failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
list=$top/tests/mutate/mutants
pattern=${1:-}
dir=${MUTATE_DIR:-$top/build/mutate}
tree=$dir/tree
limit=${MUTATE_TIMEOUT:-600}
mkdir -p "$tree" "$dir/logs"

say() { printf 'mutate: %s\n' "$*" >&2; }

# The copy: the tree's files as git sees them (tracked, and new ones not
# ignored), synced by content so make rebuilds only what differs.  A
# file copied takes the time of copying, not its own: a test edited
# before the last run built it would otherwise look older than its
# object, and the old test would run.
say "copying the tree to $tree"
(cd "$top" && git ls-files -co --exclude-standard -z) |
	while IFS= read -r -d '' f; do
		[ -f "$top/$f" ] || continue
		cmp -s "$top/$f" "$tree/$f" 2>/dev/null && continue
		mkdir -p "$tree/$(dirname "$f")" && cp "$top/$f" "$tree/$f" || exit 2
	done || { say "copying failed"; exit 2; }
cd "$tree" || exit 2
if [ ! -f Makefile ]; then
	say "configuring the copy (once)"
	{ autoreconf -fi && ./configure -q --enable-werror --enable-sanitizers --enable-test-hooks; } \
		> "$dir/logs/configure.log" 2>&1 || { say "configure failed: $dir/logs/configure.log"; exit 2; }
fi
# The list as it is now: editing it while a run goes on changes nothing.
cp "$list" "$dir/mutants" || exit 2
say "building the copy"
make -s -j2 winnow libwinnow.a tests/lib/holdlock > "$dir/logs/build.log" 2>&1 ||
	{ say "the unchanged copy does not build: $dir/logs/build.log"; exit 2; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS="suppressions=$tree/tests/lib/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export WN_QUICKSTART=1 WN_TOP_SRCDIR=$tree WN_TOP_BUILDDIR=$tree WINNOW=$tree/winnow NOTMUCH_PROFILE=

# run_test T: a unit test binary (built first) or a shell test.
run_test() {
	case $1 in
	*.sh) timeout "$limit" bash "$1" ;;
	*) make -s "$1" >/dev/null 2>&1 || return 2
	   timeout "$limit" "./$1" ;;
	esac
}

# Each test is run once on the unchanged copy, before the first change
# that lists it.  One that fails there (golden.sh, on a corpus folder
# without goldens) is named, and catches a change only by a "FAIL -"
# line it did not print on the unchanged tree.
declare -A base
broken=()
baseline() {
	local t built=
	for t in "$@"; do
		[ -n "${base[$t]:-}" ] && continue
		# The last change is undone in the file, not yet in the build.
		[ -n "$built" ] || make -s -j2 winnow libwinnow.a > /dev/null 2>&1 || return 2
		built=1
		if run_test "$t" > "$dir/logs/baseline-${t//\//_}.log" 2>&1; then
			base[$t]=ok
		else
			base[$t]=broken
			broken+=("$t")
			grep '^FAIL - ' "$dir/logs/baseline-${t//\//_}.log" | sort -u > "$dir/logs/baseline-${t//\//_}.fails"
			echo "BROKEN    $t fails on the unchanged tree: judged by new FAIL lines only"
		fi
	done
}

caught=0 survived=0 invalid=0 total=0
survivors=()
while IFS=$'\t' read -r name file expr tests; do
	case $name in ''|'#'*) continue ;; esac
	[ -n "$pattern" ] && ! [[ $name =~ $pattern ]] && continue
	total=$((total + 1))
	log=$dir/logs/$name.log
	# shellcheck disable=SC2086
	baseline $tests
	cp "$file" "$dir/orig"
	if ! sed -i -e "$expr" "$file" 2>"$log" || cmp -s "$file" "$dir/orig"; then
		echo "STALE     $name: the sed expression changed nothing in $file"
		invalid=$((invalid + 1))
		cp "$dir/orig" "$file"
		continue
	fi
	diff -u "$dir/orig" "$file" > "$log"
	if ! make -s -j2 winnow libwinnow.a >> "$log" 2>&1; then
		echo "INVALID   $name: does not build (see $log)"
		invalid=$((invalid + 1))
	else
		verdict=SURVIVED
		for t in $tests; do
			echo "=== $t" >> "$log"
			if [ "${base[$t]}" = ok ]; then
				if ! run_test "$t" >> "$log" 2>&1; then
					verdict="caught by $t"
					break
				fi
			elif [ "${base[$t]}" = broken ]; then
				run_test "$t" > "$dir/out" 2>&1
				cat "$dir/out" >> "$log"
				if grep '^FAIL - ' "$dir/out" | sort -u |
					comm -23 - "$dir/logs/baseline-${t//\//_}.fails" | grep -q .; then
					verdict="caught by $t (a new FAIL line)"
					break
				fi
			fi
		done
		if [ "$verdict" = SURVIVED ]; then
			echo "SURVIVED  $name ($file)"
			survived=$((survived + 1))
			survivors+=("$name")
		else
			echo "caught    $name: $verdict"
			caught=$((caught + 1))
		fi
	fi
	# Back as it was; its new date makes make build the original again.
	cp "$dir/orig" "$file"
done < "$dir/mutants"
make -s -j2 winnow libwinnow.a > /dev/null 2>&1
run=$((caught + survived))
echo "mutate: $total changes: $caught caught, $survived survived, $invalid stale or not building"
[ "$run" -gt 0 ] && echo "mutate: score $((100 * caught / run))% of the $run that built"
[ "$survived" -eq 0 ] || echo "mutate: survivors: ${survivors[*]}"
[ ${#broken[@]} -eq 0 ] || echo "mutate: tests failing on the unchanged tree (judged by new FAIL lines): ${broken[*]}"
[ "$survived" -eq 0 ]
