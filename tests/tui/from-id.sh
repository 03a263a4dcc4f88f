#!/usr/bin/env bash
# In from a mail client: `winnow id:X` opens what X is
# about (tests/tui/screens/from-id/).  A review's id: that review, over
# the whole queue of winnow.query (q goes there).  A patch's: the queue
# of its reviews.  Any other mail of a thread: the reviews in it.  An id
# the index does not hold: exit 1 saying so.  A longer query starting
# with id: is a query as before.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world
frob1=20261102102030.4B7D1C4CEE5@smtp.kernel.org
widget3_patch=20261104004012.31337-4-alice@example.com
widget_cover=20261104004012.31337-1-alice@example.com

# On a real terminal, as a shell (or mutt) starts it.
WN_SCREEN_TMUX=1 wn_screen_start 80 24 -- "id:$frob1"
check "a review's id opens the review" wn_tui_wait "finding 1 of 2"
wn_screen review-80x24
wn_tui_keys q
check "q: the queue of winnow.query, every review" wn_tui_wait "9 reviews"
wn_screen queue-after-80x24
wn_screen_stop

# <id> and id:"id" are the same id.
wn_screen_start 80 24 -- "id:\"$frob1\""
check "id:\"X\" opens the review too" wn_tui_wait "finding 1 of 2"
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null

# A triaged review hidden from the queue (x) still opens.
"$WINNOW" mark "$frob1" all valid >/dev/null && "$WINNOW" sync-journal >/dev/null
notmuch config set winnow.hide-triaged true
wn_screen_start 80 24 -- "id:$frob1"
check "a hidden triaged review opens, said so" wn_tui_wait "triaged reviews shown to open this one"
check "... on the review" wn_tui_wait "finding 1 of 2"
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null
notmuch config set winnow.hide-triaged false

wn_screen_start 80 24 -- "id:$widget3_patch"
check "a patch's id: the queue of its reviews" wn_tui_wait "reviews of [PATCH v3 3/3]"
wn_screen patch-80x24
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null

wn_screen_start 80 24 -- "id:$widget_cover"
check "a cover letter's id: the reviews in its thread" wn_tui_wait "reviews in the thread of"
wn_screen thread-80x24
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null

rc=0
"$WINNOW" id:nosuch@example.org </dev/null >/dev/null 2>"$WN_WORLD/err" || rc=$?
expect_eq "an unknown id: exit 1" 1 "$rc"
check "... saying so" grep -q "nosuch@example.org" "$WN_WORLD/err"

# Not a lone id: a query, narrowing the queue as before.
wn_screen_start 80 24 -- "id:$frob1 or id:$widget3_patch"
check "id:A or id:B is a query" wn_tui_wait "[queue] 1/1"
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null

wn_done
