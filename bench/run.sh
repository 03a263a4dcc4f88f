#!/usr/bin/env bash
# winnow benchmark: winnow against notmuch itself, on the same synthetic
# corpus, in the same run, reported as ratios (DESIGN.md, "Performance
# from the first line").
#
#   bench/run.sh [N]     N synthetic reviews (default 2000), each with its
#                        patch, so the index holds 2N messages
#
# It builds an optimised winnow without sanitizers in bench/out/build
# (from the committed tree), makes the corpus and a notmuch database in
# bench/out/, then times, as the median of 5 runs:
#   first screen: winnow list --limit=50   vs  notmuch search --limit=50
#   full pass:    winnow list --format=json vs notmuch show --format=json --body=true
# both over the same query (the reviews).  Ratios above 1 mean winnow is
# slower than notmuch.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
n=${1:-2000}
out=$top/bench/out
mkdir -p "$out"

echo "bench: building winnow (optimised, no sanitizers)" >&2
rm -rf "$out/src" "$out/build"
mkdir -p "$out/src"
git -C "$top" archive HEAD | tar -x -C "$out/src"
(cd "$out/src" && autoreconf -fi >/dev/null 2>&1 && ./configure -q CFLAGS="-O2 -g" >/dev/null &&
	make -s -j"$(nproc)" winnow >/dev/null)
winnow=$out/src/winnow

echo "bench: corpus of $n reviews and $n patches" >&2
rm -rf "$out/corpus" "$out/db"
bash "$top/tests/lib/mkmany.sh" "$n" "$out/corpus"
bash "$top/tests/lib/mkdb.sh" "$out/corpus" "$out/db" >/dev/null
export NOTMUCH_CONFIG=$out/db/notmuch-config XDG_STATE_HOME=$out/state HOME=$out/home
unset NOTMUCH_PROFILE
mkdir -p "$XDG_STATE_HOME" "$HOME"
query='from:sashiko-bot@kernel.org'

# median of 5 wall-clock runs of a command, in ms (after one warm-up)
median_ms() {
	local t=() t0
	"$@" > /dev/null
	for _ in 1 2 3 4 5; do
		t0=$(date +%s%N)
		"$@" > /dev/null
		t+=( $(( ($(date +%s%N) - t0) / 1000000 )) )
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n 3p
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

nm_first=$(median_ms notmuch search --limit=50 "$query")
wn_first=$(median_ms "$winnow" list --limit=50 "$query")
nm_full=$(median_ms notmuch show --format=json --body=true "$query")
wn_full=$(median_ms "$winnow" list --format=json "$query")

printf '%-13s %12s %12s %8s\n' "" "notmuch ms" "winnow ms" "ratio"
printf '%-13s %12s %12s %8s\n' "first screen" "$nm_first" "$wn_first" "$(ratio "$wn_first" "$nm_first")"
printf '%-13s %12s %12s %8s\n' "full pass" "$nm_full" "$wn_full" "$(ratio "$wn_full" "$nm_full")"
echo "($n reviews, $((2 * n)) messages; median of 5; $(nproc) cores)"
