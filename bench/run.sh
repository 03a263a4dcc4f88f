#!/usr/bin/env bash
# winnow benchmark: winnow against notmuch itself, on the same synthetic
# kernel-list index, in the same run, reported as ratios (issues 14 and
# 23; DESIGN.md, "Performance from the first line").
#
#   bench/run.sh [--reps N] [--seed S] [--winnow BIN] [--json FILE] [--figures RE] SIZE...
#
# SIZE is a number of messages (10000, 100000, 300000; any number).  For
# each size, bench/gen.py writes the corpus and `notmuch new` indexes it
# once, cached in ${XDG_CACHE_HOME:-~/.cache}/winnow-bench/SIZE-SEED-KEY/
# (KEY follows the generator's source and notmuch's version, so changing
# either makes a new index; set WINNOW_BENCH_CACHE to put them elsewhere).
# Unless --winnow names a binary, an optimised winnow without sanitizers
# is built from this tree, uncommitted changes included, in a scratch
# copy under the same cache: your own build is never touched.
#
# bench/measure.py then times each figure, winnow and notmuch in turn in
# every repetition (default 5), and prints medians, ratios, the targets
# of issue 23 and peak memory; with several sizes, how cost grows.  The
# scans are taken cold (winnow's cache of parsed reviews removed first)
# and warm (the cache left by the run before), against notmuch showing
# the same reviews (--entire-thread=false); "now" is the end of the
# corpus's year (WINNOW_NOW), whatever the day.
#
#   --reps N     measured repetitions (after one unmeasured warm-up)
#   --seed S     corpus seed (default 1)
#   --winnow BIN measure this binary instead of building one
#   --json FILE  also write every figure to FILE
#   --figures RE only the figures whose names the regular expression RE
#                finds ('stats', '\+' for those after new mail)
#
# Needs python3, notmuch, tmux and GNU time (and the build dependencies unless
# --winnow is given); missing Debian packages are installed with apt-get
# (through sudo when not root) unless WINNOW_BENCH_NO_INSTALL is set.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prog=bench/run.sh
reps=5 seed=1 winnow= json= figures=

say() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { say "$*"; exit 1; }
usage() { sed -n '6,34p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=${2:?}; shift 2 ;;
	--reps=*) reps=${1#*=}; shift ;;
	--seed) seed=${2:?}; shift 2 ;;
	--seed=*) seed=${1#*=}; shift ;;
	--winnow) winnow=${2:?}; shift 2 ;;
	--winnow=*) winnow=${1#*=}; shift ;;
	--json) json=${2:?}; shift 2 ;;
	--json=*) json=${1#*=}; shift ;;
	--figures) figures=${2:?}; shift 2 ;;
	--figures=*) figures=${1#*=}; shift ;;
	-h | --help) usage ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
for n in "$@" "$reps" "$seed"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "'$n' is not a positive number"
done

cache=${WINNOW_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/winnow-bench}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# --- what the benchmark needs -----------------------------------------

install_missing() {
	local missing=() p sudo=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] || [ -z "${WINNOW_BENCH_NO_INSTALL:-}" ] ||
		die "missing packages: ${missing[*]}"
	[ ${#missing[@]} -eq 0 ] && return 0
	command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get: install them by hand"
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || die "missing packages (${missing[*]}): run as root or install sudo"
		sudo=(sudo)
	fi
	say "installing ${missing[*]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Tools by command (they may come from elsewhere than Debian), the build
# dependencies by package, as quickstart does.
pkgs=
for c in python3 notmuch tmux; do
	command -v "$c" >/dev/null || pkgs="$pkgs $c"
done
[ -x /usr/bin/time ] || pkgs="$pkgs time"  # GNU time: peak memory
if [ -z "$winnow" ] && command -v dpkg-query >/dev/null; then
	pkgs="$pkgs gcc make autoconf automake pkg-config libncurses-dev libnotmuch-dev libgmime-3.0-dev libjansson-dev"
fi
# shellcheck disable=SC2086
[ -z "$pkgs" ] || install_missing $pkgs
for c in python3 notmuch tmux /usr/bin/time; do
	command -v "$c" >/dev/null || die "$c not found"
done

# --- an optimised winnow, built aside ---------------------------------

build_winnow() {
	local b
	b=$cache/build-$(printf '%s' "$top" | sha1sum | cut -c1-10)
	mkdir -p "$b"
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# The working tree as it is, committed or not.  tar keeps the
		# files' times, so make rebuilds only what changed since the
		# last benchmark.
		(cd "$top" && git ls-files -z -co --exclude-standard |
			tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$b"
		if [ ! -f "$b/config.status" ]; then
			(cd "$b" && autoreconf -fi >/dev/null 2>&1 && ./configure -q CFLAGS="-O2 -g" >/dev/null) ||
				die "configure failed in $b"
		fi
	elif [ ! -f "$top/config.status" ]; then
		# A release tree never configured in place: build beside it.
		[ -f "$b/config.status" ] || (cd "$b" && "$top/configure" -q CFLAGS="-O2 -g" >/dev/null) ||
			die "configure failed in $b"
	else
		die "cannot build aside from a configured tree that is not a git checkout: pass --winnow BIN"
	fi
	make -C "$b" -j"$(nproc)" winnow >"$b/build.log" 2>&1 || { tail -n 30 "$b/build.log" >&2; die "build failed (log: $b/build.log)"; }
	winnow=$b/winnow
}

# --- indexes, made once -----------------------------------------------

# winnow's default query, as winnow itself builds it (from its table of
# bots), so the reference always asks notmuch the same question.
default_query() {
	NOTMUCH_CONFIG=$1/notmuch-config "$winnow" list --print-query
}

write_config() {
	cat >"$1/notmuch-config" <<EOF
[database]
path=$1/mail

[user]
name=Demo Maintainer
primary_email=maintainer@example.org

[new]
tags=unread;inbox;
ignore=

[search]
exclude_tags=

[maildir]
synchronize_flags=false
EOF
}

# prepare_index N: print the directory of the index of N messages.
prepare_index() {
	local n=$1 key dir part t0
	key=$( (cat "$top"/bench/gen*.py; notmuch --version) | sha1sum | cut -c1-12)
	dir=$cache/$n-$seed-$key
	if [ ! -f "$dir/ready" ]; then
		rm -rf "$cache/$n-$seed-"*  # made by an older generator
		part=$dir.part
		mkdir -p "$part"
		t0=$(date +%s)
		say "generating $n messages (seed $seed) in $dir"
		python3 "$top/bench/gen.py" --seed "$seed" "$n" "$part/mail"
		write_config "$part"
		say "indexing them with notmuch new (once; $(( $(date +%s) - t0 )) s so far)"
		(unset NOTMUCH_PROFILE NOTMUCH_DATABASE; NOTMUCH_CONFIG=$part/notmuch-config notmuch new --quiet)
		mv "$part" "$dir"
		write_config "$dir"
		touch "$dir/ready"
		say "index of $n messages ready in $(( $(date +%s) - t0 )) s"
	fi
	printf '%s\n' "$dir"
}

# --- the run ----------------------------------------------------------

if [ -z "$winnow" ]; then
	say "building an optimised winnow (no sanitizers) aside"
	build_winnow
	built=" (built aside: -O2, no sanitizers)"
fi
[ -x "$winnow" ] || die "no winnow binary at $winnow"
dirs=()
for n in "$@"; do
	dirs+=("$(prepare_index "$n")")
done
query=$(default_query "${dirs[0]}") || die "winnow list --print-query failed"

mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
rev=$(git -C "$top" describe --always --dirty 2>/dev/null || echo "release")
echo "winnow benchmark, $(date -u '+%Y-%m-%d %H:%M') UTC: $prog --reps $reps --seed $seed${figures:+ --figures '$figures'} $*"
echo "load: $(uptime)"
echo "machine: $(nproc) cores (${cpu:-unknown CPU}), $mem memory, $(uname -sr); $(notmuch --version)"
echo "winnow: $rev, $winnow${built:-}"
echo "query: $query"
rc=0
python3 "$top/bench/measure.py" --winnow "$winnow" --query "$query" --reps "$reps" ${json:+--json "$json"} ${figures:+--figures "$figures"} "${dirs[@]}" || rc=$?
echo "load after: $(uptime)"
exit "$rc"
