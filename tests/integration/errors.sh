#!/usr/bin/env bash
# Clear one-line errors for what people mistype: a command name, a
# negative or huge number, a query Xapian cannot read, a harmful
# winnow.tagprefix.  Exit 1 for the user's mistakes, 2 for a config that
# cannot be used; nothing is searched or written by mistake.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
err=$WN_WORLD/err
one_line() { test "$(wc -l < "$err")" -eq 1; }

"$WINNOW" lsit < /dev/null 2> "$err"; expect_eq "a typo'd command exits 1" 1 $?
check "it says which command was meant" grep -q "unknown command 'lsit'; did you mean 'list'?" "$err"
check "in one line" one_line
"$WINNOW" histroy < /dev/null 2> "$err"; expect_eq "a swapped pair of letters too" 1 $?
check "is caught as a typo" grep -q "did you mean 'history'" "$err"
"$WINNOW" -- list < /dev/null 2> "$err"; expect_eq "'winnow -- list' is a search (needs a terminal: 2)" 2 $?
check "and says so" grep -q "needs a terminal" "$err"
"$WINNOW" 'subject:list' < /dev/null 2> "$err"; expect_eq "a query term is never a typo" 2 $?

"$WINNOW" mark "$id" -1 valid 2> "$err"; expect_eq "a negative finding exits 1" 1 $?
check "it says numbers count from 1" grep -q "numbers here count from 1" "$err"
check "no getopt noise" bash -c '! grep -q "invalid option" "$1"' _ "$err"
check "in one line" one_line
"$WINNOW" mark "$id" 99999999999999999999 valid 2> "$err"; expect_eq "a 20-digit finding exits 1" 1 $?
check "it is called too large, not wrapped" grep -q "'99999999999999999999' is far too large" "$err"
# 31 digits are too many whatever they hold: this one, led by zeros,
# is not read as finding 1.
long=0000000000000000000000000000001
"$WINNOW" mark "$id" "$long" valid 2> "$err"; expect_eq "a 31-digit finding exits 1" 1 $?
check "it is called too large" grep -q "'$long' is far too large" "$err"
expect_eq "... and nothing is marked" untriaged \
	"$("$WINNOW" show --format=json "$id" | jq -r '.findings[0].verdict')"
"$WINNOW" undo 99999999999999999999 2> "$err"; expect_eq "undo of a 20-digit count exits 1" 1 $?
"$WINNOW" mark --note 2> "$err"; expect_eq "an option without its value exits 1" 1 $?
check "it names the option" grep -q -- "--note wants a value" "$err"

"$WINNOW" list 'date:foo..bar' 2> "$err"; expect_eq "a date Xapian cannot read exits 1" 1 $?
check "it gives Xapian's reason" grep -q "date specification" "$err"

notmuch config set winnow.tagprefix ""
"$WINNOW" list > /dev/null 2> "$err"; expect_eq "an empty tag prefix is refused (2)" 2 $?
check "it says why" grep -q "winnow.tagprefix is empty" "$err"
notmuch config set winnow.tagprefix "my tags/"
"$WINNOW" mark "$id" 1 valid 2> "$err"; expect_eq "a prefix with a space is refused" 2 $?
check "it says why" grep -q "must not hold spaces" "$err"
notmuch config set winnow.tagprefix $'w\e[31m/'
"$WINNOW" list > /dev/null 2> "$err"; expect_eq "a prefix with an escape is refused" 2 $?
check "no escape reaches the message" bash -c '! grep -q $'"'"'\e'"'"' "$1"' _ "$err"
expect_eq "nothing was tagged meanwhile" "" "$(notmuch search --output=tags '*' | grep -v -x -e inbox -e unread)"
notmuch config set winnow.tagprefix "team-a/"
"$WINNOW" mark "$id" 1 valid; expect_eq "a sane prefix works" 0 $?
expect_eq "and is used" "id:$id" "$(notmuch search --output=messages tag:team-a/valid)"

# Files that are not files: a FIFO as the config
# would hang winnow for ever, /dev/zero fill its memory.  Refused at
# once, in one line; timeout(1) only stops a hang from hanging the suite.
mkfifo "$WN_WORLD/fifo"
timeout 60 "$WINNOW" --config "$WN_WORLD/fifo" list > /dev/null 2> "$err"
expect_eq "--config naming a FIFO exits 2, without waiting" 2 $?
check "it says the config is not a regular file" grep -q "notmuch config $WN_WORLD/fifo: not a regular file" "$err"
check "in one line" one_line
NOTMUCH_CONFIG=$WN_WORLD/fifo timeout 60 "$WINNOW" list > /dev/null 2> "$err"
expect_eq "so does \$NOTMUCH_CONFIG naming one" 2 $?
timeout 60 "$WINNOW" --config /dev/zero list > /dev/null 2> "$err"
expect_eq "--config /dev/zero exits 2" 2 $?
check "not a regular file either" grep -q "not a regular file" "$err"
head -c 2000000 /dev/zero | tr '\0' '#' > "$WN_WORLD/huge-config"
timeout 60 "$WINNOW" --config "$WN_WORLD/huge-config" list > /dev/null 2> "$err"
expect_eq "a 2 MB config exits 2" 2 $?
check "it says it is too large" grep -q "huge-config: larger than 1024 KiB" "$err"
check "in one line" one_line
ln -s "$NOTMUCH_CONFIG" "$WN_WORLD/config-link"
"$WINNOW" --config "$WN_WORLD/config-link" list > /dev/null; expect_eq "a config reached through a link still works" 0 $?
"$WINNOW" --config "$NOTMUCH_CONFIG" list > /dev/null; expect_eq "and a plain one" 0 $?

"$WINNOW" list --limit=99999999999999999999 > /dev/null 2> "$err"
expect_eq "a 20-digit --limit exits 1" 1 $?
check "it says the value is out of range" grep -q -- "--limit=99999999999999999999 is out of range" "$err"
check "in one line" one_line
"$WINNOW" list --limit= > /dev/null 2> "$err"; expect_eq "an empty --limit exits 1" 1 $?
check "it wants a number" grep -q -- "--limit wants a number" "$err"
"$WINNOW" history --limit=1e3 > /dev/null 2> "$err"; expect_eq "--limit=1e3 exits 1" 1 $?
"$WINNOW" mark --timeout=99999999 "$id" 1 valid 2> "$err"; expect_eq "a --timeout of years exits 1" 1 $?
check "it says the value is out of range" grep -q -- "--timeout=99999999 is out of range" "$err"
"$WINNOW" list --limit=2 > "$WN_WORLD/two"; expect_eq "a sane --limit works" 0 $?
expect_eq "and limits" 2 "$(wc -l < "$WN_WORLD/two")"

# One message per error: a usage error is one line
# pointing to the command's --help once, whatever the command and
# whichever check refused it.  The commands are those winnow --help
# lists, so a new one is audited too.
hint_once() {	# CMD: $err is one line with one "(see 'winnow CMD --help')"
	test "$(wc -l < "$err")" -eq 1 && test "$(grep -o -- --help "$err" | wc -l)" -eq 1 &&
		grep -q "(see 'winnow $1 --help')\$" "$err"
}
commands=$("$WINNOW" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\)  .*/\1/p')
check "winnow --help lists the commands" test "$(wc -w <<< "$commands")" -ge 16
for c in $commands; do
	"$WINNOW" $c --bogus < /dev/null > /dev/null 2> "$err"; expect_eq "$c --bogus exits 1" 1 $?
	check "$c --bogus: one line, one hint" hint_once $c
	# Every option taking a value, given twice: refused, not "the last
	# one wins" (1 is a value every option takes).
	for o in $("$WINNOW" $c --help | head -1 | grep -o -- '\[--[a-z-]*=' | tr -d '[='); do
		"$WINNOW" $c $o=1 $o=1 < /dev/null > /dev/null 2> "$err"
		expect_eq "$c $o twice exits 1" 1 $?
		check "$c $o twice: says so, once" grep -q -- "$o is given twice" "$err"
		check "$c $o twice: one line, one hint" hint_once $c
	done
done
# Each check of a command's options and arguments.
while read -r c args; do
	"$WINNOW" $c $args < /dev/null > /dev/null 2> "$err"; expect_eq "$c $args exits 1" 1 $?
	check "$c $args: one line, one hint" hint_once $c
	case "$c $args" in "ledger --format=x")
		check "ledger names every format it takes" grep -q "(text, json or mbox)" "$err" ;;
	"forward -o a -o b x")
		check "a short option twice is named both ways" grep -q -- "-o/--output-dir is given twice" "$err" ;;
	esac
done <<EOF
list --format=x
list --limit=x
show --format=x $id
show
mark --severity=x $id 1 valid
mark --reason=x $id 1 fp
mark --reason=style $id 1 valid
mark $id 1 bogus
mark $id x valid
mark $id 99999999999999999999 valid
mark --timeout=x $id 1 valid
mark --note=x $id 1
forward
forward -o
forward --dry-run -o x $id
forward -o a -o b x
missed --format=x $id --note x
missed $id
undo 1 2
undo x
history --format=x
history --limit=x
sync-journal x
stats --format=x
stats --by=x
report --format=x
report --format=svg --chart=x
report --format=svg --bot=x
report --bot=lkp
report --format=svg --chart=trend
export --format=x
carry --format=x
ledger --format=x
ledger --send --format=json
git --format=x status x
git bogus x
git
feedback --format=x
fetch --format=x
fetch x
EOF
"$WINNOW" --bogus 2> "$err"; expect_eq "an unknown global option exits 1" 1 $?
check "in one line" one_line
check "naming it, pointing to winnow --help once" \
	grep -q "^winnow: unknown option '--bogus' (see 'winnow --help')\$" "$err"
"$WINNOW" --config 2> "$err"; expect_eq "--config without its value exits 1" 1 $?
check "in one line" one_line
check "it names the option" grep -q -- "--config wants a value (see 'winnow --help')" "$err"

# winnow missed records on a review: on any other
# mail the record would be shown by no command and counted by none, so
# it is refused (1, as an id not in the index), saying what the id is.
patch=20261102-frobnic-teardown-v2-1-5c1e2a7d9b30@example.org
"$WINNOW" missed "$patch" --note "a bug" 2> "$err"; expect_eq "missed on a human's patch exits 1" 1 $?
check "in one line" one_line
check "it says the id is a patch, and whose" grep -q "<$patch> is a patch by Jörg Beispiel <joerg.beispiel@example.org>, not a bot review" "$err"
reply=20261103073015.GA4127@erik-laptop.example.org
"$WINNOW" missed "$reply" --note "a bug" 2> "$err"; expect_eq "missed on a human's reply exits 1" 1 $?
check "it says the id is a mail, and whose" grep -q "<$reply> is a mail by Erik Reviewer <erik.reviewer@example.org>, not a bot review" "$err"
"$WINNOW" missed nosuch@example.org --note "a bug" 2> "$err"; expect_eq "missed on an id not in the index exits 1" 1 $?
check "it says so" grep -q "no message <nosuch@example.org> in the notmuch index" "$err"
# A bot's summary is no review unless winnow.show_summaries lists it.
cp "$WN_TOP_SRCDIR/tests/corpus/lkp-summaries/02-build-success.eml" "$WN_WORLD/db/mail/cur/summary:2,S"
notmuch new --quiet
summary=202611240451.Vb2kT8xQ-lkp@intel.com
"$WINNOW" missed "$summary" --note "a bug" 2> "$err"; expect_eq "missed on a bot's summary exits 1" 1 $?
check "it says the id is a summary, and whose" grep -q "<$summary> is a summary by 0-day, not a review" "$err"
"$WINNOW" sync-journal > /dev/null
expect_eq "nothing was recorded on any of them" 0 \
	"$(notmuch dump --include=properties | grep -c 'winnow\.missed\.')"
notmuch config set winnow.show_summaries true
"$WINNOW" missed "$summary" --note "a bug" > /dev/null; expect_eq "listed summaries take a miss" 0 $?
expect_eq "which stats counts" 1 "$("$WINNOW" stats --format=json | jq '.[] | select(.bot == "lkp") | .missed')"
notmuch config set winnow.show_summaries false
"$WINNOW" missed "$id" --note "a bug" > /dev/null; expect_eq "a review takes one" 0 $?
wn_done
