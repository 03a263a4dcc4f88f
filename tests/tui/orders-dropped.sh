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
wn_done
