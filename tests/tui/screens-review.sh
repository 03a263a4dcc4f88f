#!/usr/bin/env bash
# A review and what opens from it, whole screens
# (tests/tui/screens/screens-review/): the review at 80x24 (a five-line
# header; h for all of it) and at 200x50 (findings beside the text); the
# patch (c) at the finding's hunk with ] and [; the mail (m) with its
# links and Message-IDs, and | piping it to a command; the thread (r)
# and a reply opened from it.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world

# In tmux, the real-terminal end-to-end check: the clipboard is the
# terminal's, and | shows the command's output on the terminal itself.
WN_SCREEN_TMUX=1 wn_screen_start 80 24
wn_tui_wait "[queue] 1/9" >/dev/null
# frobnic 1/3: a model attribution, five trailers, a human reply.
wn_tui_keys G Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_screen review-80x24
wn_screen review-80x24 color
wn_tui_keys h
wn_tui_wait "Reported-by:" >/dev/null
wn_screen review-details-80x24
wn_tui_keys h j
wn_tui_wait "finding 2 of 2" >/dev/null
wn_screen review-finding2-80x24

# i and I: the review's and the patch's Message-IDs to the terminal's
# clipboard (OSC 52; tmux keeps them as paste buffers).
tmux -L "$WN_TMUX_SOCKET" set -g set-clipboard on
wn_tui_keys i
check "i says what it copied" wn_tui_wait "copied review id 20261102102030.4B7D1C4CEE5@smtp.kernel.org"
expect_eq "i: the review's id in the clipboard" 20261102102030.4B7D1C4CEE5@smtp.kernel.org \
	"$(tmux -L "$WN_TMUX_SOCKET" show-buffer)"
wn_tui_keys I
wn_tui_wait "copied patch id" >/dev/null
expect_eq "I: the patch's id, for b4 am" 20261102-frobnic-teardown-v2-1-5c1e2a7d9b30@example.org \
	"$(tmux -L "$WN_TMUX_SOCKET" show-buffer)"

# The patch at finding 2's hunk; ] and [ between hunks with findings.
wn_tui_keys c
wn_tui_wait "[diff]" >/dev/null
wn_screen diff-80x24
wn_screen diff-80x24 color
wn_tui_keys g ']'
wn_tui_wait "@@ -70,7" >/dev/null
wn_screen diff-next-hunk-80x24
wn_tui_keys '['
wn_tui_wait "no earlier hunk with a finding" >/dev/null
wn_tui_keys q

# The whole mail, its end (links), and | with a command.
wn_tui_keys m
wn_tui_wait "[mail]" >/dev/null
wn_screen mail-80x24
wn_tui_keys G
wn_screen mail-end-80x24
wn_tui_keys '|'
wn_tui_wait "Pipe the mail to:" >/dev/null
wn_tui_keys "grep -c '^> ' ; echo piped" Enter
wn_tui_wait "Press any key to go back to winnow" >/dev/null
wn_screen pipe-80x24
wn_tui_keys x
wn_tui_wait "piped the mail to:" >/dev/null
wn_screen pipe-done-80x24
wn_tui_keys q

# The thread: Erik's Reviewed-by, opened in the pager.
wn_tui_keys r
wn_tui_wait "[thread]" >/dev/null
wn_screen thread-80x24
wn_tui_keys Enter
wn_tui_wait "Erik Reviewer" >/dev/null
wn_tui_wait "[mail]" >/dev/null
wn_screen thread-reply-80x24
wn_tui_keys q q q
wn_tui_wait "[queue]" >/dev/null

# A review whose patch has no reply: the thread says so.
wn_tui_keys g Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_tui_keys r
wn_tui_wait "no human replies" >/dev/null
wn_screen thread-empty-80x24
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

wn_screen_start 200 50
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys G Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_screen review-200x50
wn_screen review-200x50 color
wn_tui_keys c
wn_tui_wait "[diff]" >/dev/null
wn_screen diff-200x50
wn_tui_keys q m
wn_tui_wait "[mail]" >/dev/null
wn_screen mail-200x50
wn_tui_keys q r
wn_tui_wait "[thread]" >/dev/null
wn_screen thread-200x50
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null

# The review and the diff in the light and contrast themes, and with
# NO_COLOR (attributes only), where colour carries meaning.
for theme in light contrast; do
	notmuch config set winnow.theme "$theme"
	wn_screen_start 80 24
	wn_tui_wait "[queue] 1/9" >/dev/null
	wn_tui_keys G Enter
	wn_tui_wait "finding 1 of 2" >/dev/null
	wn_screen "review-$theme-80x24" color
	wn_tui_keys c
	wn_tui_wait "[diff]" >/dev/null
	wn_screen "diff-$theme-80x24" color
	wn_tui_keys Q
	wn_tui_wait "WINNOW-EXIT=0" >/dev/null
done
notmuch config set winnow.theme ""
wn_screen_start 80 24 NO_COLOR=1
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys G Enter
wn_tui_wait "finding 1 of 2" >/dev/null
wn_screen review-nocolor-80x24 color
wn_tui_keys c
wn_tui_wait "[diff]" >/dev/null
wn_screen diff-nocolor-80x24 color
wn_tui_keys Q
wn_tui_wait "WINNOW-EXIT=0" >/dev/null
wn_done
