#!/usr/bin/env bash
# The TUI over the hostile corpus with its huge mails (a 1 MB header,
# 500-deep MIME, a 300,000-word subject): the queue comes up, every
# review opens, q and SIGTERM are answered, and the terminal is given
# back.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-hostile.XXXXXX")
cp "$WN_TOP_SRCDIR"/tests/corpus/hostile/*.eml "$corpus/"
bash "$WN_TOP_SRCDIR/tests/lib/mkhostile.sh" "$corpus"
wn_world "$corpus"
rm -rf "$corpus"

wn_tui_start
check "the queue of 8 hostile reviews comes up" wn_tui_wait "8 reviews" 20
for ((r = 1; r <= 8; r++)); do
	wn_tui_keys Enter
	check "review $r opens" wn_tui_wait "Sashiko review —" 20
	wn_tui_keys q
	[ "$r" -lt 8 ] && wn_tui_keys j
done
wn_tui_keys q
check "q quits" wn_tui_wait "WINNOW-EXIT=0" 10

wn_tui_start
wn_tui_wait "8 reviews" 20 > /dev/null
kill -TERM "$(wn_tui_pid)"
check "SIGTERM ends it through the normal exit" wn_tui_wait "WINNOW-EXIT=" 10
wn_done
