#!/usr/bin/env bash
# The forward screen's D: the mail goes into
# winnow.drafts_folder for the user's mailer, flagged as a draft, and
# winnow says its findings count as forwarded once the sent copy is
# indexed (tests/tui/screens/screens-drafts/); nothing is recorded yet.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world
export WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=tui-drafts
export EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft EDIT_DRAFT_LINE="Edited in the TUI."
unset VISUAL
notmuch config set winnow.drafts_folder drafts
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
"$WINNOW" mark "$id" 1 valid

wn_screen_start 100 30 -- "(id:$id)"
wn_tui_wait "1 review" >/dev/null
wn_tui_keys Enter
wn_screen_settle "finding 2 of"
wn_tui_keys F
wn_screen_settle "[forward]"
wn_screen compose-100x30
wn_tui_keys D
wn_screen_settle "in the drafts folder for your mailer"
wn_screen drafted-100x30
draft=$(ls "$WN_WORLD"/db/mail/drafts/cur/*:2,DS 2>/dev/null)
check "one draft in the folder, flagged D" test "$(wc -w <<<"$draft")" = 1
check "the draft carries the edit" grep -qx "Edited in the TUI." "$draft"
check "not forwarded yet" bash -c "! notmuch dump --include=properties id:$id | grep -q winnow.forwarded"
wn_done
