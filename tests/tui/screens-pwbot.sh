#!/usr/bin/env bash
# netdev's patchwork commands in the review's header: a
# maintainer's "pw-bot: cr" in the patch's thread shows as a header line
# of its own, with who wrote it and when, on the netdev AI review that
# carries it (tests/tui/screens/screens-pwbot/).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/netdev-ai"

id=20261119004002.3321844-1-jonas.weber@example.org
wn_screen_start 100 24 -- "(id:$id)"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_screen_settle "finding 1 of"
wn_screen review-pwbot-100x24
check "the header names the command, who and when" \
	grep -q "pw-bot: *cr *Jonas Weber <jonas.weber@example.org> *2026-11-19" <<<"$(wn_tui_screen)"

# A reply's pw-bot line is mail text: what reaches the terminal is clean.
printf 'From: Mallory <mallory@example.org>\nSubject: Re: x\nMessage-Id: <pw-hostile@example.org>\nIn-Reply-To: <20261117081230.61422-1-sofia.marin@example.com>\nDate: Fri, 20 Nov 2026 10:00:00 +0000\n\npw-bot: cr\033]52;c;ZXZpbA==\007\033[31mX\n> pw-bot: quoted\n' \
	> "$WN_WORLD/db/mail/cur/99-pw-hostile:2,S"
notmuch new --quiet
out=$("$WINNOW" show "$id")
expect_eq "show: two commands, the quoted one left out" 2 "$(grep -c '^pw-bot:' <<<"$out")"
check "show: no escape reaches the terminal" bash -c '! LC_ALL=C grep -q $'"'"'\033\|\007'"'"' <<<"$1"' _ "$out"
wn_done
