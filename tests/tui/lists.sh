#!/usr/bin/env bash
# Every list of names a user reads is made from its X-macro table, never
# typed out: the expected names here are read from the tables
# themselves, so a bot or view added by HACKING's recipe and missing
# from a message, the help or the man page fails this test.
#   WN_BOT_LIST      the unknown-bot error, the help's bot:NAME line
#   TUI_VIEWS        the unknown-view error of winnow.bind.VIEW.KEY
#   KEYMAP_ACTIONS   the help's key list (tests/unit/man-keys.sh: the man page)
#   WN_VERDICT_LIST  mark's --help and unknown-state error
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C.UTF-8
src=$WN_TOP_SRCDIR

bots=$(sed -n '/^#define WN_BOT_LIST/,/^$/s/^[[:space:]]*X([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' \
	"$src/include/winnow/review.h")
views=$(sed -n '/^#define TUI_VIEWS/,/^$/s/^[[:space:]]*X([A-Z0-9_]*, *\([a-z0-9_]*\)).*/\1/p' \
	"$src/src/tui/view.h" | while read -r ops; do
	sed -n "/^const struct view_ops $ops = {/,/^}/s/.*\\.name = \"\\([^\"]*\\)\".*/\\1/p" \
		"$src"/src/tui/views/*.c
done)
nviews=$(grep -c '^[[:space:]]*X([A-Z0-9_]*, *[a-z0-9_]*_ops)' "$src/src/tui/view.h")
check "the bot table reads" test "$(echo "$bots" | wc -w)" -ge 6
expect_eq "every view has a name" "$nviews" "$(echo "$views" | wc -w)"

# winnow(1)'s winnow.bind.VIEW.KEY names every view.
bind=$(sed -n '/^\.BI winnow\.bind\. VIEW/,/^\.TP/p' "${WN_TOP_BUILDDIR:-$src}/doc/winnow.1")
for v in $views; do
	check "winnow(1)'s winnow.bind names the view $v" grep -q "^\.BR $v " <<<"$bind"
done

# mark's help and its unknown-state error name every verdict with its
# short word (WN_VERDICT_LIST: X(e, name, tag, label, word)).
verdicts=$(sed -n '/^#define WN_VERDICT_LIST/,/^$/s/^[[:space:]]*X([A-Z_]*, *"\([^"]*\)",.*"\([^"]*\)")[[:space:]\\]*$/\1 \2/p' \
	"$src/include/winnow/verdict.h")
check "the verdict table reads" test "$(echo "$verdicts" | wc -l)" -ge 4
help=$("$WINNOW" mark --help 2>&1)
err=$("$WINNOW" mark x 1 nosuch 2>&1)
while read -r name word; do
	check "mark --help names $name ($word)" grep -qF "  $name ($word)" <<<"$help"
	check "mark's unknown-state error names $name or $word" grep -qF "$name or $word" <<<"$err"
done <<<"$verdicts"

wn_world

"$WINNOW" list bot:nosuch 2> "$WN_WORLD/err"
for b in $bots; do
	check "the unknown-bot error names bot:$b" grep -q "bot:$b\\b" "$WN_WORLD/err"
done

# The help shows the configuration's errors first and the legend last;
# a tall terminal so that the wrapped lines can be joined.
notmuch config set winnow.bind.nosuch.a quit
wn_tui_start
wn_tui_wait "reviews" >/dev/null
tmux -L "$WN_TMUX_SOCKET" resize-window -t t -x 200 -y 200 2>/dev/null ||
	tmux -L "$WN_TMUX_SOCKET" resize-pane -t t -x 200 -y 200
wn_tui_keys '?'
wn_tui_wait "keys of the queue view" >/dev/null
wn_tui_wait "bot:NAME" >/dev/null
screen=$(wn_tui_screen | tr -s ' \n' '  ')
# Without these the cuts below would keep the whole screen.
check "the help shows the unknown view" grep -qF "unknown view 'nosuch' (" <<<"$screen"
check "the help shows bot:NAME" grep -qF "bot:NAME" <<<"$screen"
err=${screen#*unknown view \'nosuch\' (}
err=${err%%)*}
for v in $views; do
	check "the unknown-view error names $v" grep -qw "$v" <<<"$err"
done
legend=${screen#*bot:NAME}
for b in $bots; do
	check "the help's bot:NAME line names $b" grep -qw -- "$b" <<<"$legend"
done
for a in $(sed -n '/^#define KEYMAP_ACTIONS/,/^$/s/^[[:space:]]*X([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' \
	   "$src/src/tui/keymap.h"); do
	check "the help names the action $a" grep -qw -- "$a" <<<"$screen"
done
wn_tui_keys q q Q
wn_done
