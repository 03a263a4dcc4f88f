#!/usr/bin/env bash
# winnow never holds the notmuch write lock while idle: with winnow open
# (after it has written a verdict), `notmuch tag` and `notmuch new` take
# no more than 100 ms longer than without it.
WN_TEST_ALONE=1	# it times keys and notmuch commands
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org

# slowest of three runs of a command, in ms
slowest() {
	local worst=0 t0 t
	for _ in 1 2 3; do
		t0=$(wn_now_ms)
		"$@" > /dev/null || return 1
		t=$(( $(wn_now_ms) - t0 ))
		[ "$t" -gt "$worst" ] && worst=$t
	done
	echo "$worst"
}

base_tag=$(slowest notmuch tag +idle-test -- "id:$id")
base_new=$(slowest notmuch new --quiet)

wn_tui_start "id:$id"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_tui_wait "finding 1 of 3" >/dev/null
wn_tui_keys f
check "verdict written" bash -c 'for i in $(seq 100); do
	[ -n "$(notmuch search --output=messages tag:winnow/false-positive)" ] && exit 0; sleep 0.05; done; exit 1'
wn_tui_keys q
wn_tui_wait "[queue]" >/dev/null
sleep 0.3

tag=$(slowest notmuch tag -idle-test -- "id:$id")
new=$(slowest notmuch new --quiet)
check "notmuch tag beside idle winnow: ${tag} ms (alone: ${base_tag} ms)" test "$tag" -le $((base_tag + 100))
check "notmuch new beside idle winnow: ${new} ms (alone: ${base_new} ms)" test "$new" -le $((base_new + 100))
answers() { wn_tui_timed j "[queue] 1/1" > /dev/null; }
check "winnow still answers" answers
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"
wn_done
