#!/usr/bin/env bash
# Hostile mail (tests/corpus/hostile, and tests/lib/mkhostile.sh for the
# huge ones): every review is listed in bounded time, no control
# character or bidi override reaches text output, JSON carries each
# review's exact Message-ID, and the escaped id text output shows is
# taken back by show and mark.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-hostile.XXXXXX")
cp "$WN_TOP_SRCDIR"/tests/corpus/hostile/*.eml "$corpus/"
bash "$WN_TOP_SRCDIR/tests/lib/mkhostile.sh" "$corpus"
wn_world "$corpus"
rm -rf "$corpus"

# timeout only stops a hang: no speed is asserted in make check.
timeout 120 "$WINNOW" list --format=json > "$WN_WORLD/list.json" 2> "$WN_WORLD/err"
expect_eq "list --format=json of the hostile corpus exits 0" 0 $?
check "and is valid JSON" jq -e . "$WN_WORLD/list.json" > /dev/null
expect_eq "every hostile review is listed" 8 "$(jq length "$WN_WORLD/list.json")"

timeout 60 "$WINNOW" list > "$WN_WORLD/list.txt" 2>&1
expect_eq "text list exits 0" 0 $?
check "no control character in text output" bash -c \
	'! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n" < "$1")' _ "$WN_WORLD/list.txt"
check "no bidi override in text output" bash -c '! grep -q $'"'"'\xe2\x80\xae'"'"' "$1"' _ "$WN_WORLD/list.txt"

# show's text holds the subject and the summaries, history's the ids:
# the printer cleans each as it prints it (tabs kept in the quote).
"$WINNOW" show esc-1@example.org > "$WN_WORLD/show.txt" 2>&1
expect_eq "text show exits 0" 0 $?
check "no control character in show's text" bash -c \
	'! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n\t" < "$1")' _ "$WN_WORLD/show.txt"
check "... which has the subject, the escape left out" grep -qF "hostile: guard the ring" "$WN_WORLD/show.txt"

# JSON ids are exactly notmuch's.
notmuch search --output=messages --format=json 'from:sashiko-bot@kernel.org' |
	jq -r '.[]' | LC_ALL=C sort > "$WN_WORLD/want"
jq -r '.[].id' "$WN_WORLD/list.json" | LC_ALL=C sort > "$WN_WORLD/got"
check "JSON carries every exact Message-ID" cmp -s "$WN_WORLD/want" "$WN_WORLD/got"

# The escaped ids of text output are taken back.
ctl=$(sed -n 's/^id:\([^ ]*\)  .*/\1/p' "$WN_WORLD/list.txt" | grep '^ctl')
expect_eq "the control-character id is shown escaped" 'ctl\x1b[31mred\x07bell@example.org' "$ctl"
"$WINNOW" show "$ctl" > /dev/null; expect_eq "show takes the escaped id back" 0 $?
"$WINNOW" mark "$ctl" 1 valid; expect_eq "mark takes it too" 0 $?
"$WINNOW" history > "$WN_WORLD/history.txt" 2>&1
check "history names it without its control characters" bash -c \
	'grep -qF "ctl" "$1" && ! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n" < "$1")' _ "$WN_WORLD/history.txt"
"$WINNOW" show --format=json $'ctl\e[31mred\abell@example.org' > "$WN_WORLD/one.json"
expect_eq "the real id works as well, and is marked" valid "$(jq -r '.findings[0].verdict' "$WN_WORLD/one.json")"
bidi=$(sed -n 's/^id:\([^ ]*\)  .*/\1/p' "$WN_WORLD/list.txt" | grep '^bidi')
expect_eq "the bidi id is shown escaped" 'bidi\xe2\x80\xaeevil\xe2\x80\xac@example.org' "$bidi"
"$WINNOW" mark "$bidi" 1 false-positive; expect_eq "and marked by it" 0 $?
expect_eq "its JSON id is the real one" "$(printf 'bidi\xe2\x80\xaeevil\xe2\x80\xac@example.org')" \
	"$(jq -r '.[] | select(.id | startswith("bidi")) | .id' <("$WINNOW" list --format=json))"
wn_done
