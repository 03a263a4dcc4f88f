#!/usr/bin/env bash
# The benchmark still runs: bench/run.sh at 500 messages, one repetition,
# on the winnow under test, produces every figure of bench/RESULTS.md
# (the scans cold and warm, against notmuch show --entire-thread=false,
# and after new mail on a copy of the index): a figure
# reported "not built yet" (its command missing from this winnow) is a
# failure like a missing one.  Only that the figures exist is checked,
# never how fast anything was.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"

for c in python3 tmux notmuch jq /usr/bin/time; do
	command -v "$c" >/dev/null || { echo "SKIP: $c not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/winnow-bench-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT

WINNOW_BENCH_CACHE=$work/cache WINNOW_BENCH_NO_INSTALL=1 \
	bash "$WN_TOP_SRCDIR/bench/run.sh" --reps 1 --winnow "$WINNOW" --json "$work/figures.json" 500 \
	>"$work/out" 2>&1
rc=$?
expect_eq "bench/run.sh exits 0" 0 "$rc"
[ "$rc" -eq 0 ] || sed 's/^/  | /' "$work/out"

figure() { jq -c --arg f "$1" '.[0].figures[] | select(.figure == $f)' "$work/figures.json" 2>/dev/null; }

# produced FIGURE PEAK: timed on both sides, and with winnow's peak
# memory when PEAK is yes.
produced() {
	local f
	f=$(figure "$1")
	[ -n "$f" ] || { echo "  no figure '$1'" >&2; return 1; }
	[ "$(jq -r .status <<<"$f")" = "not built yet" ] &&
		{ echo "  '$1' is not built yet: $f" >&2; return 1; }
	jq -e --arg peak "$2" '.status == "ok" and .notmuch_ms > 0 and .winnow_ms > 0 and .ratio > 0
		and ($peak == "no" or .winnow_peak_mib > 0)' <<<"$f" >/dev/null ||
		{ echo "  $f" >&2; return 1; }
}

check "first screen (and the TUI's memory after G)" produced "first screen" yes
for f in list stats export; do
	check "$f cold" produced "$f cold" yes
	check "$f warm" produced "$f warm" yes
done
check "the reference shows the reviews alone" grep -q -- '--entire-thread=false' "$WN_TOP_SRCDIR/bench/measure.py"
check "one verdict" produced "one verdict" no
# After new mail: on a copy, the cached index left as made.
for f in "stats +1 mail" "stats +100 rev" "list +1 mail" "list +100 rev" "screen +100 rev"; do
	check "$f" produced "$f" no
done
# (Each run's CPU to the clock tick: at 500 messages a screen may take
# none, so the check is that it was read, not that it is more than 0.)
screen_cpu() {
	jq -e '[.[0].figures[] | select(.figure == "screen +100 rev" or .figure == "first screen")
		| .winnow_runs_cpu_ms + .notmuch_runs_cpu_ms | length > 0 and all(type == "number")] | all' \
		"$work/figures.json" >/dev/null
}
check "a screen has a cpu ratio" screen_cpu
expect_eq "the cached index has none of the mail the figures after new mail sent" 0 \
	"$(NOTMUCH_CONFIG=$(echo "$work"/cache/500-1-*/notmuch-config) notmuch search --output=messages '*' | grep -c bench.invalid)"
check "the table is printed" grep -q '^500 messages (seed 1), [0-9]* matching' "$work/out"
check "the index is cached where asked" bash -c "ls -d '$work'/cache/500-1-*/ready >/dev/null"

# bench/floor.c, the floor RESULTS.md holds stats cold against, still
# builds and reads every message of every thread, once per value, also
# in batches of threads.
floor_runs() {
	local conf db tids count date from
	conf=$(echo "$work"/cache/500-1-*/notmuch-config)
	db=$(NOTMUCH_CONFIG=$conf notmuch config get database.path) || return 1
	"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -o "$work/floor" \
		"$WN_TOP_SRCDIR/bench/floor.c" -lnotmuch || return 1
	tids=$(NOTMUCH_CONFIG=$conf notmuch search --output=threads '*' | sed 's/^thread://')
	count=$("$work/floor" "$db" count <<<"$tids")
	date=$("$work/floor" "$db" date <<<"$tids")
	from=$("$work/floor" "$db" from <<<"$tids")
	[[ $date =~ ^([1-9][0-9]*)\ threads,\ ([1-9][0-9]*)\ messages,\ ([0-9]+)\ values$ ]] ||
		{ echo "  date: $date" >&2; return 1; }
	[ "${BASH_REMATCH[1]}" -eq "$(wc -l <<<"$tids")" ] &&
		[ "${BASH_REMATCH[3]}" -eq "${BASH_REMATCH[2]}" ] &&
		[ "$count" = "${BASH_REMATCH[1]} threads, ${BASH_REMATCH[2]} messages, 0 values" ] &&
		[ "$from" = "${BASH_REMATCH[1]} threads, ${BASH_REMATCH[2]} messages, $((2 * BASH_REMATCH[2])) values" ] ||
		{ printf '  count: %s\n  date: %s\n  from: %s\n' "$count" "$date" "$from" >&2; return 1; }
	# batch and or: the same listing asked several threads a query (7:
	# the last query short), every message put in a thread asked.
	local n
	for n in 1 7; do
		[ "$("$work/floor" "$db" batch "$n" <<<"$tids")" = "$from" ] &&
			[ "$("$work/floor" "$db" or "$n" <<<"$tids")" = "$from" ] ||
			{ echo "  batch $n: not $from" >&2; return 1; }
	done
	# Every message of the index is in one thread.
	[ "${BASH_REMATCH[2]}" -eq "$(NOTMUCH_CONFIG=$conf notmuch count '*')" ] ||
		{ echo "  $date, of $(NOTMUCH_CONFIG=$conf notmuch count '*') messages" >&2; return 1; }
	# file: every message found, and its file read whole.
	local ids bytes file
	ids=$(NOTMUCH_CONFIG=$conf notmuch search --output=messages '*' | sed 's/^id://')
	bytes=$(NOTMUCH_CONFIG=$conf notmuch search --output=files --duplicate=1 '*' |
		tr '\n' '\0' | xargs -0 stat -c %s | awk '{ n += $1 } END { print n }')
	file=$("$work/floor" "$db" file <<<"$ids")
	[ "$file" = "$(wc -l <<<"$ids") messages, $bytes bytes" ] ||
		{ echo "  file: $file; $(wc -l <<<"$ids") messages of $bytes bytes" >&2; return 1; }
	# name: every message found and named, no file read.
	file=$("$work/floor" "$db" name <<<"$ids")
	[ "$file" = "$(wc -l <<<"$ids") messages, $(wc -l <<<"$ids") names" ] ||
		{ echo "  name: $file" >&2; return 1; }
}
check "bench/floor.c builds and reads each thread and file" floor_runs

# bench/reads.c and reads.py, which RESULTS.md's "where the block reads
# go" tables come from: one cold stats taking every pread(), one taking
# one in 7.  Each file's samples are its calls over the period, the
# calls the same in both runs (a cold run's reads do not change), and
# reads.py names winnow's own callers and counts every call.
reads_runs() {
	local conf so=$work/reads.so every n calls named total
	conf=$(echo "$work"/cache/500-1-*/notmuch-config)
	"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -o "$so" \
		"$WN_TOP_SRCDIR/bench/reads.c" -ldl || return 1
	for every in 1 7; do
		rm -rf "$work/xdg"
		mkdir -p "$work/xdg/cache" "$work/xdg/state" "$work/xdg/config"
		# A sanitizer build's runtime asks to be loaded first; the
		# shim only passes each call on.
		NOTMUCH_CONFIG=$conf XDG_CACHE_HOME=$work/xdg/cache XDG_STATE_HOME=$work/xdg/state \
			XDG_CONFIG_HOME=$work/xdg/config READS_EVERY=$every READS_OUT=$work/r$every \
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
			LD_PRELOAD=$so "$WINNOW" stats >/dev/null || { echo "  stats failed" >&2; return 1; }
		[ "$(cat "$work"/r$every.* | grep -c '^# calls ')" -eq 1 ] ||
			{ echo "  every $every: not one process's file: $(ls "$work"/r$every.*)" >&2; return 1; }
		calls=$(sed -n 's/^# calls \([0-9]*\) every '"$every"'$/\1/p' "$work"/r$every.*)
		n=$(grep -vc '^#' "$work"/r$every.*)
		[ -n "$calls" ] && [ "$calls" -gt 100 ] && [ "$n" -eq $((calls / every)) ] ||
			{ echo "  every $every: $n samples of '$calls' calls" >&2; return 1; }
		eval "calls_$every=$calls"
	done
	# shellcheck disable=SC2154 # set by the eval above
	[ "$calls_1" -eq "$calls_7" ] || { echo "  $calls_1 calls, then $calls_7" >&2; return 1; }
	python3 "$WN_TOP_SRCDIR/bench/reads.py" --top 100000 "$WINNOW" "$work"/r1.* >"$work/reads.out" ||
		return 1
	# Named: a line with one of winnow's own functions among its
	# callers (libnotmuch's alone say nothing of who asked).
	total=$(awk 'NR > 2 { n += $1 } END { print n }' "$work/reads.out")
	named=$(awk 'NR > 2 { split(substr($0, index($0, "%") + 3), f, " < ")
		for (i in f) if (f[i] != "??" && f[i] !~ /^notmuch_/) { n += $1; break } }
		END { print n + 0 }' "$work/reads.out")
	[ "$total" -eq "$calls_1" ] && [ $((100 * named)) -ge $((90 * total)) ] &&
		grep -q '^run 1: '"$calls_1"' pread() calls' "$work/reads.out" ||
		{ echo "  $named of $total named, of $calls_1:" >&2; head -5 "$work/reads.out" >&2; return 1; }
	# --group: every call under the pass or outside it.
	python3 "$WN_TOP_SRCDIR/bench/reads.py" --group wn_stats_pass "$WINNOW" "$work"/r1.* >"$work/reads.group" &&
		[ "$(awk 'NR > 2 { n += $1 } END { print n }' "$work/reads.group")" -eq "$calls_1" ] &&
		grep -q ' wn_stats_pass$' "$work/reads.group" ||
		{ cat "$work/reads.group" >&2; return 1; }
	python3 "$WN_TOP_SRCDIR/bench/reads.py" "$WINNOW" "$work"/r1.* --vs "$work"/r7.* >"$work/reads.vs" &&
		grep -q "growth x1.0\$" "$work/reads.vs" ||
		{ head -3 "$work/reads.vs" >&2; return 1; }
}
check "bench/reads.c counts every pread() and reads.py names its callers" reads_runs
wn_done
