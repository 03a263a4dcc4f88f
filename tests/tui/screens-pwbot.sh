#!/usr/bin/env bash
# netdev's patchwork commands in the review's header (issue 24): a
# maintainer's "pw-bot: cr" in the patch's thread shows as a header line
# of its own, with who wrote it and when, on the netdev AI review that
# carries it (tests/tui/screens/screens-pwbot/).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/netdev-ai"

id=20261119004002.3321844-1-jonas.weber@example.org
wn_screen_start 100 24 -- "id:$id"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_screen_settle "finding 1 of"
wn_screen review-pwbot-100x24
check "the header names the command, who and when" \
	grep -q "pw-bot: *cr *Jonas Weber <jonas.weber@example.org> *2026-11-19" <<<"$(wn_tui_screen)"
wn_done
