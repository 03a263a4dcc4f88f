#!/usr/bin/env bash
# / across the whole queue: a review is found by its patch's
# author, its bot and its findings' summaries while its row is off
# screen and not read yet; in any case, UTF-8 too, with no locale; a
# word no row holds is "not found".
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
wn_world

# Eight lines: five rows of nine, the frobnic reviews (Jörg Beispiel's
# patches) below the screen.
wn_screen_start 80 8
wn_tui_wait "[queue] 1/9" >/dev/null
wn_tui_keys / "JÖRG" Enter
check "/JÖRG finds Jörg Beispiel's review off screen" wn_tui_wait "[queue] 7/9"
wn_tui_keys n
check "n: his next one" wn_tui_wait "[queue] 8/9"
wn_tui_keys g / "has been dropped" Enter
check "a finding's summary is searched" wn_tui_wait "[queue] 9/9"
wn_tui_keys g / "bpf ci" Enter
check "the bot's name is searched" wn_tui_wait "[queue] 2/9"
wn_tui_keys g / "jorg" Enter
check "o is not ö: not found" wn_tui_wait "not found: jorg"
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0 >/dev/null

wn_done
