#!/usr/bin/env bash
# The queue follows the index (tests/tui/screens/screens-refresh/): a tag
# set by another program and new mail indexed by notmuch new show up by
# themselves, the cursor staying on the same review; R reads again by
# hand.  Keys from winnow.bind.<view>.<key>: a rebinding works, shows in
# the hints and the help, and bad lines are reported as file:line.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world
first=20261104131907.E5C4FC4CED0@smtp.kernel.org

wn_screen_start 80 24 -- 'not tag:done'
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys j j
wn_tui_wait "[queue] 3/9" >/dev/null
# Another program tags the first review: it leaves the limited queue,
# the cursor stays on the 0-day review, now second.
notmuch tag +done "id:$first"
check "a tag from outside reloads the queue" wn_tui_wait "the index changed: queue read again"
wn_screen tagged-outside-80x24
check "the cursor stays on the same review" wn_tui_wait "[queue] 2/8"
# New mail: a review lands in the maildir and notmuch new indexes it.
cp "$WN_TOP_SRCDIR/tests/corpus/tui-wide/01-patch.eml" "$WN_WORLD/db/mail/cur/w1:2,S"
cp "$WN_TOP_SRCDIR/tests/corpus/tui-wide/02-sashiko-review.eml" "$WN_WORLD/db/mail/cur/w2:2,S"
notmuch new --quiet
check "new mail shows by itself" wn_tui_wait "— 9 reviews"
wn_screen new-mail-80x24
check "the cursor still on the 0-day review" wn_tui_wait "[queue] 3/9"
# R by hand.
notmuch tag -done "id:$first"
wn_tui_keys R
check "R reads the queue again" wn_tui_wait "queue read again: 10 reviews"
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

# Bindings: w marks valid in the queue and v no longer does; a bad view
# and a bad action are reported with the file and the line.
notmuch config set winnow.bind.queue.w mark-valid
notmuch config set winnow.bind.queue.v none
notmuch config set winnow.bind.review.X no-such-action
notmuch config set winnow.bind.nosuch.a quit
# The config by a relative name: the messages name it, and the screen
# must not depend on where TMPDIR is.
cd "$WN_WORLD" || exit 99
wn_screen_start 120 30 NOTMUCH_CONFIG=db/notmuch-config
wn_tui_wait "[queue] 1/10" >/dev/null
check "a bad binding is reported with file:line" \
	wn_tui_wait "db/notmuch-config:24: winnow.bind.nosuch.a: unknown view 'nosuch'"
wn_screen bind-errors-120x30
wn_tui_keys v
check "v is unbound in the queue" wn_tui_wait "key not bound: press ? for help"
wn_tui_keys w
check "w asks to mark every finding valid" wn_tui_wait "Mark all 1 finding of this review valid?"
wn_tui_keys n
wn_tui_wait "nothing marked" >/dev/null
wn_screen bind-hints-120x30
wn_tui_keys '?'
wn_tui_wait "keys of the queue view" >/dev/null
check "the help lists every bad binding" wn_tui_wait "winnow.bind.review.X: unknown action 'no-such-action'"
wn_screen bind-help-120x30
wn_tui_keys q Enter
wn_tui_wait "[review]" >/dev/null
wn_tui_keys v
check "v still marks in the review" wn_tui_wait "marked finding 1 valid"
wn_tui_keys U Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
