#!/usr/bin/env bash
# Every list a user reads is made from its table.  The test
# build tests/lib/winnow-fake (tests/fake.am, -DWN_TEST_FAKE_ENTRIES) has
# one more entry in WN_BOT_LIST (fakebot, "Fake Bot"), WN_SEVERITY_LIST
# (fakesev, a grade), WN_REASON_LIST (fakereason), KEYMAP_ACTIONS
# (fake-action), TUI_VIEWS (fakeview), QUEUE_SORTS (fakeorder, the
# queue's orders) and each command's --format list of src/cli/formats.h
# (fakeformat); each message, help text and
# man page list must name it.
# A list typed by hand, not generated, lacks the fake entry and fails.
#
# No fake verdict: the verdicts' letters, brief words, bar glyphs and
# colours, and their mark actions, are per-verdict data outside
# WN_VERDICT_LIST (HACKING says why).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/screen.sh"
export LC_ALL=C.UTF-8 TZ=UTC
fake=$WN_TOP_BUILDDIR/tests/lib
WINNOW=$fake/winnow-fake
for p in "$WINNOW" "$fake/man-lists-fake" "$fake/keys-man-fake"; do
	[ -x "$p" ] || { echo "$p not built"; exit 99; }
done
has() { grep -qF -- "$1" <<<"$2"; }

# The man page's generated lists.
lists=$("$fake/man-lists-fake")
check "BOTS table names fakebot" grep -qE '^fakebot +Fake Bot +nobody' <<<"$lists"
check "JSON's bot values name fakebot" has '|syzbot|fakebot|generic",' "$lists"
check "the synopsis' --severity names fakesev" has ' low | fakesev | none ]' "$lists"
check "JSON's severities name fakesev" has 'low, fakesev, error' "$lists"
check "mark's reasons name fakereason" has $'.B fakereason\na reason of the test build' "$lists"
check "the synopsis' export --format names fakeformat" has '.RB [ \-\-format=json | csv | sarif | fakeformat ]' "$lists"
check "the synopsis' ledger --format names fakeformat" has 'mbox | fakeformat " | " \-\-send ]' "$lists"
keys=$("$fake/keys-man-fake")
check "the key list names fake-action" has '(fake\-action)' "$keys"
check "the key list's ! names fakesev" has 'low, fakesev, empty: none) (severity)' "$keys"
check "the key list's o names fakeorder" has 'newcomers first, fakeorder) (sort)' "$keys"
# The page made from the template by the fake build's generators names
# them where the real one names the real entries: a seventh bot edits no
# man page.
page=$(sh "$WN_TOP_SRCDIR/doc/fill-man.sh" "$WN_TOP_SRCDIR/doc/winnow.1.in" \
	"$fake/man-lists-fake" "$fake/keys-man-fake")
check "the made page's BOTS section names fakebot" \
	grep -qE '^fakebot +Fake Bot' <<<"$(sed -n '/^\.SH BOTS/,/^\.SH /p' <<<"$page")"
check "the made page's INTERFACE KEYS names fake-action" has '(fake\-action)' "$page"
check "the made page's --severity names fakesev" has ' low | fakesev | none ]' "$page"
check "the made page's --reason names fakereason" has '.B fakereason' "$page"
check "the made page's report --format names fakeformat" has 'format=html | svg | json | fakeformat ]' "$page"
# ...and the checks of doc/winnow.1 would catch a page without them.
check "man-lists.sh fails on a page without them" \
	eval '! MAN_LISTS=$fake/man-lists-fake bash "$WN_TOP_SRCDIR/tests/unit/man-lists.sh" >/dev/null'
check "man-keys.sh fails on a page without them" \
	eval '! KEYS_MAN=$fake/keys-man-fake bash "$WN_TOP_SRCDIR/tests/unit/man-keys.sh" >/dev/null'

# The command line: mark's help and errors.
help=$("$WINNOW" mark --help 2>&1)
check "mark --help's --severity names fakesev" has '--severity=critical|high|medium|low|fakesev|none' "$help"
err=$("$WINNOW" mark x 1 nosuch --severity=nosuch 2>&1)
check "mark's unknown-severity error names fakesev" has '(critical, high, medium, low, fakesev, none)' "$err"
check "mark --help's reasons name fakereason" has 'fakereason (a reason of the test build)' "$help"
# Each command's --format: its --help and its unknown-format error.
for c in stats:text,json,csv export:json,csv,sarif report:html,svg,json feedback:mail,json \
	ledger:text,json,mbox; do
	cmd=${c%%:*} fmts=${c#*:}
	check "$cmd --help's --format names fakeformat" \
		has "--format=${fmts//,/|}|fakeformat" "$("$WINNOW" "$cmd" --help 2>&1)"
	check "$cmd's unknown-format error names fakeformat" \
		has "${fmts//,/, } or fakeformat)" "$("$WINNOW" "$cmd" --format=nosuch 2>&1)"
done

wn_world
err=$("$WINNOW" list bot:nosuch 2>&1)
check "the unknown-bot error names bot:fakebot" grep -qw 'bot:fakebot' <<<"$err"
"$WINNOW" mark --reason=fakereason 20261102102845.9E02AC4CEF3@smtp.kernel.org 1 fp
check "stats counts the false positives of fakereason" has '"fakereason":1' \
	"$("$WINNOW" stats --format=json | jq -c '.[-1].false_positive_reasons')"
check "the report's reason table names fakereason" has '<tr><td>fakereason</td><td>1</td></tr>' \
	"$("$WINNOW" report)"

# The interface: the configuration's unknown-view error and the help
# view, tall and wide so that nothing wraps away.
notmuch config set winnow.bind.nosuch.a quit
wn_screen_start 200 200
wn_tui_wait "reviews"
wn_tui_keys '?'
wn_tui_wait "keys of the queue view"
screen=$(wn_tui_screen | tr -s ' \n' '  ')
check "the help shows the unknown view" has "unknown view 'nosuch' (" "$screen"
err=${screen#*unknown view \'nosuch\' (}
err=${err%%)*}
check "the unknown-view error names fakeview" grep -qw fakeview <<<"$err"
check "the help names fake-action" grep -qw -- fake-action <<<"$screen"
legend=${screen#*bot:NAME}
check "the help's bot:NAME line names fakebot (Fake Bot)" has 'fakebot (Fake Bot)' "$legend"
check "the help of ! names fakesev" has 'low, fakesev, empty: none)' "$screen"
check "the help of o names fakeorder" has 'newcomers first, fakeorder)' "$screen"
# The ! prompt and its warning, on the first review's first finding.
wn_tui_keys q Enter '!'
check "the ! prompt names fakesev" wn_tui_wait "Your severity (critical, high, medium, low, fakesev, empty: none):"
wn_tui_keys z z Enter
check "the ! warning names fakesev" wn_tui_wait "not a severity: critical, high, medium, low, fakesev, or empty"
# The reason prompt after f.
notmuch config set winnow.ask_reason true
wn_tui_keys Q
wn_tui_wait WINNOW-EXIT=0
wn_screen_start 200 50
wn_tui_wait "reviews"
wn_tui_keys Enter f
check "the reason prompt names fakereason" wn_tui_wait "s style  f fakereason"
wn_tui_keys Escape
wn_tui_keys Q
check "winnow-fake quits" wn_tui_wait WINNOW-EXIT=0
wn_done
