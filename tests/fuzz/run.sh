#!/bin/sh
# winnow — build and run every libFuzzer target in tests/fuzz/.
#
#   tests/fuzz/run.sh [SECONDS]      (default 20 seconds per target)
#
# Each tests/fuzz/fuzz-*.c is linked with clang's libFuzzer, ASan and
# UBSan against the parser sources of libwinnow (src/lib/*/*.c, every
# module's, minus the files that need notmuch), seeded with
# tests/corpus/**/*.eml, and run for SECONDS after a pass over
# tests/fuzz/regress/*.eml, inputs each target must get through.  Any
# crash, leak, timeout or out-of-memory fails it, but for the inputs a
# linked library is known to leak on by itself (tests/fuzz/known-leak.h
# says which).
# Everything is built in a temporary directory; crash inputs are kept
# in a directory named at the end (outside the source tree).
#
# Environment: CC (default clang), WN_FUZZ_ARGS (extra libFuzzer flags).
# Exit: 0 all passed, 1 a target failed, 77 no clang/libFuzzer.

set -u
secs=${1:-20}
case $secs in
''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cc=${CC:-clang}
case $cc in
*clang*) ;;
*) cc=clang ;;	# libFuzzer is clang's; a gcc from configure will not do
esac

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: $cc not found, skipping"
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/wn-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
printf '#define _GNU_SOURCE 1\n' > "$work/autoconfig.h"

deps=$(pkg-config --cflags gmime-3.0 2>/dev/null) || {
	echo "fuzz: gmime-3.0 not found by pkg-config" >&2
	exit 1
}
libs=$(pkg-config --libs gmime-3.0)
if pkg-config --exists jansson 2>/dev/null; then
	deps="$deps $(pkg-config --cflags jansson)"
	libs="$libs $(pkg-config --libs jansson)"
fi
cflags="-std=gnu11 -g -O1 -fno-omit-frame-pointer -I$work -I$top/include -I$top/src/lib $deps"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"

# Which library files can run without a notmuch database: those that
# neither include notmuch.h nor a local header that does.
nmheaders=$(grep -l 'include *[<"]notmuch\.h[>"]' "$top"/src/lib/*/*.h 2>/dev/null | sed 's|.*/||')
pattern='include *[<"]notmuch\.h[>"]'
for h in $nmheaders; do
	pattern="$pattern|include *\"([^\"]*/)?$h\""
done

# Probe libFuzzer itself before building anything.
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void) d; (void) n; return 0; }\n' > "$work/probe.c"
if ! "$cc" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" 2>/dev/null; then
	echo "fuzz: $cc cannot link -fsanitize=fuzzer (libFuzzer missing), skipping"
	exit 77
fi

# Library objects: instrumented for coverage, archived so that each
# target pulls in only what it uses.
mkdir -p "$work/obj"
for src in "$top"/src/lib/*/*.c; do
	[ -e "$src" ] || continue
	if grep -Eq "$pattern" "$src"; then
		continue
	fi
	obj=$work/obj/$(basename "$src" .c).o
	# shellcheck disable=SC2086 # flag lists split on purpose
	if ! "$cc" $cflags $san -fsanitize=fuzzer-no-link -c "$src" -o "$obj" 2> "$work/cc.log"; then
		echo "fuzz: warning: $(basename "$src") does not compile, left out:"
		sed 's/^/    /' "$work/cc.log" | head -20
	fi
done
ar rcs "$work/libwn-fuzz.a" "$work"/obj/*.o || exit 1

# Seeds: every mail of the corpus (libFuzzer only reads them).
mkdir -p "$work/seeds"
find "$top/tests/corpus" -type f -name '*.eml' 2>/dev/null | {
	n=0
	while IFS= read -r f; do
		n=$((n + 1))
		cp "$f" "$work/seeds/seed-$n.eml"
	done
}

ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}; export ASAN_OPTIONS
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}; export UBSAN_OPTIONS
# A GLib critical is a misuse of GMime/GLib: treat it as a crash.
G_DEBUG=fatal-criticals; export G_DEBUG

keep=
pass=0
fail=0
for target in "$here"/fuzz-*.c; do
	[ -e "$target" ] || continue
	name=$(basename "$target" .c)
	# shellcheck disable=SC2086 # flag lists split on purpose
	if ! "$cc" $cflags $san -fsanitize=fuzzer "$target" "$work/libwn-fuzz.a" $libs -lpthread \
		-o "$work/$name" 2> "$work/$name.build.log"; then
		echo "FAIL: $name: does not build"
		sed 's/^/    /' "$work/$name.build.log" | head -30
		fail=$((fail + 1))
		continue
	fi
	mkdir -p "$work/corpus-$name" "$work/art-$name"
	echo "fuzz: $name for ${secs}s"
	# The regression inputs first, each run once and never mutated:
	# those a library leaks on (known-leak.h) would draw the fuzzer to
	# where leaks go unseen.
	set -- "$here"/regress/*.eml
	[ -e "$1" ] || set --
	# shellcheck disable=SC2086 # WN_FUZZ_ARGS splits on purpose
	if { [ $# -eq 0 ] || "$work/$name" -timeout=5 -rss_limit_mb=2048 \
		-artifact_prefix="$work/art-$name/" "$@" > "$work/$name.log" 2>&1; } &&
		"$work/$name" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
			-max_total_time="$secs" -print_final_stats=0 \
			-artifact_prefix="$work/art-$name/" ${WN_FUZZ_ARGS:-} \
			"$work/corpus-$name" "$work/seeds" >> "$work/$name.log" 2>&1; then
		pass=$((pass + 1))
		echo "PASS: $name ($(find "$work/corpus-$name" -type f | wc -l) new inputs)"
	else
		fail=$((fail + 1))
		[ -n "$keep" ] || keep=$(mktemp -d "${TMPDIR:-/tmp}/wn-fuzz-failures.XXXXXX")
		cp -r "$work/art-$name" "$keep/$name"
		cp "$work/$name.log" "$keep/$name.log"
		echo "FAIL: $name"
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written|==[0-9]+==' "$work/$name.log" | head -20 | sed 's/^/    /'
	fi
done

[ -z "$keep" ] || echo "fuzz: crash inputs and logs kept in $keep"
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
