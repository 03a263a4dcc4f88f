#!/usr/bin/env bash
# The queue's orders come out the same whether the reviews stay read or
# are dropped off screen with only what the orders need of them kept:
# on a 3-line terminal (one row shown, the others dropped)
# the rows, walked one by one, are those a 40-line terminal shows at
# once, for every order, and for the untriaged order after a mark, and
# after its undo (which has the dropped reviews read again).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8 TZ=UTC
wn_world
run() { wn_script_run "120x$1" "${@:2}"; }
# The rows of a screen, who answered left out (read between keys).
rows() { sed -e '1d' -e '$d' -e 's/\(p\) [ Ah][ n] /\1    /' "$@"; }
# order KEYS...: the rows after KEYS, on 40 lines and walked on 3.
order() {
	local name=$1 walk=() i
	shift
	run 40 "$name-tall" "$@" ":wait" ":save-display $WN_WORLD/$name-tall"
	for i in $(seq 1 14); do walk+=(":save-display $WN_WORLD/$name-row$i" j); done
	run 3 "$name-short" "$@" ":wait" g "${walk[@]}"
	rows "$WN_WORLD/$name-tall" | sed '/^$/d' > "$WN_WORLD/$name.want"
	for i in $(seq 1 14); do rows "$WN_WORLD/$name-row$i"; done | uniq > "$WN_WORLD/$name.got"
	cmp -s "$WN_WORLD/$name.want" "$WN_WORLD/$name.got" ||
		{ diff "$WN_WORLD/$name.want" "$WN_WORLD/$name.got" >&2; return 1; }
}

check "by severity" order severity o
check "by untriaged findings" order untriaged o o
check "by series" order series o o o
check "newcomers first" order newcomer o o o o
check "by untriaged, the last review marked" order marked o o G v y g o o o o o
check "... and the mark undone" order undone o o G v y g ":wait" U ":wait" o o o o o
# Ordered (every review read, what the orders need kept), a bulk mark
# of the first review and one near the end, undone as one: the undo
# shows one of them, the other stays dropped and its counts are read
# again before the rows are ordered (fails without that).
check "by untriaged, a bulk mark undone" order bulk o ":wait" g t G k k t ";" v y g ":wait" U ":wait" j o
# Rows off screen are let go of, not kept read: once every review is
# read for an order, the list holds the rows near the screen only (one
# row shown, two screens kept either side: five), whichever the order,
# paged through or not (fails when dropped rows keep their items).
export WINNOW_TEST_QUEUE_LOG=$WN_WORLD/queue.log
held() { sed -n 's/^held=\([0-9]*\) of=\([0-9]*\)$/\1 \2/p' "$WINNOW_TEST_QUEUE_LOG" | tail -n 1; }
# (The counter is a --enable-test-hooks build's.)
if run 3 hook ":wait" j && [ -s "$WINNOW_TEST_QUEUE_LOG" ]; then
	for keys in "o" "o o" "o o o" "o o o o"; do
		: >"$WINNOW_TEST_QUEUE_LOG"
		# shellcheck disable=SC2086
		check "sorted ($keys), held near the screen only" run 3 "held-${keys// /}" $keys ":wait" j j G k
		set -- $(held)
		check "... $1 of $2 rows held" test "$1" -le 5 -a "$2" -gt 5
	done
fi
wn_done
