#!/usr/bin/env bash
# The command line for scripts: list prints one line per review with its
# Message-ID first, bot:NAME narrows by bot, show's JSON carries each
# finding's quoted code and whole comment, show given a patch lists that
# patch's reviews, and mark takes lists, fingerprints and short states.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world

count=$("$WINNOW" list --format=json | jq length)
expect_eq "list: one line per review" "$count" "$("$WINNOW" list | wc -l)"
check "list: every line starts with the id" bash -c '"$WINNOW" list | grep -vqE "^id:[^ ]+  " && exit 1 || exit 0'
check "list: the id cuts out for notmuch" bash -c \
	'notmuch count "$("$WINNOW" list --limit=1 | cut -d" " -f1)" | grep -qx 1'

# bot:NAME, by id or by label, any case.
expect_eq "bot:lkp is the 0-day review" 1 "$("$WINNOW" list bot:lkp | wc -l)"
expect_eq "bot:0-day is the same" "$("$WINNOW" list bot:lkp)" "$("$WINNOW" list bot:0-DAY)"
expect_eq "bot:sashiko or bot:bpf-ci" 8 "$("$WINNOW" list 'bot:sashiko or bot:bpf-ci' | wc -l)"
"$WINNOW" list bot:nosuch 2> "$WN_WORLD/err"; rc=$?
expect_eq "an unknown bot is a usage error" 1 "$rc"
check "the error names the bots" grep -q "bot:syzbot" "$WN_WORLD/err"

# show --format=json: quote and comment, whole.
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
json=$("$WINNOW" show --format=json "$id")
check "JSON findings carry the quote" jq -e '.findings[0].quote | test("writel\\(0, fd->regs")' <<<"$json"
check "JSON findings carry the whole comment" jq -e \
	'.findings[0].comment | test("register window") and (split("\n") | length > 2)' <<<"$json"

# show PATCH-ID: that patch's reviews (two for widgetnet 3/3).
patch=$("$WINNOW" list --format=json | jq -r '.[] | select(.bot == "lkp") | .patch.id')
expect_eq "show PATCH: its reviews as a JSON array" 2 "$("$WINNOW" show --format=json "$patch" | jq length)"
check "show PATCH: text shows both bots" bash -c \
	'out=$("$WINNOW" show "$1"); grep -q "^Bot: *0-day" <<<"$out" && grep -q "^Bot: *Sashiko" <<<"$out"' _ "$patch"
human=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$WN_TOP_SRCDIR/tests/corpus/demo/08-human-a1-reviewed-by.eml")
check "a mail no review answers is shown itself" bash -c \
	'"$WINNOW" show "$1" | grep -qx "Review: *id:$1"' _ "$human"

# mark: a list, a fingerprint prefix, short states.
fp2=$(jq -r '.findings[1].fingerprint' <<<"$json")
"$WINNOW" mark "$id" 1,3 fp
expect_eq "mark 1,3 fp" '["false-positive","untriaged","false-positive"]' \
	"$("$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]')"
"$WINNOW" mark "$id" "${fp2:0:6}" pre
"$WINNOW" mark "$id" 1-1 v
expect_eq "mark by fingerprint, a range, short states" '["valid","pre-existing","false-positive"]' \
	"$("$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]')"
"$WINNOW" mark "$id" 4 u 2> "$WN_WORLD/err"; rc=$?
expect_eq "a finding out of range is a usage error" 1 "$rc"
"$WINNOW" mark "$id" 0000000000000000 u 2> "$WN_WORLD/err"; rc=$?
expect_eq "an unknown fingerprint is a usage error" 1 "$rc"
"$WINNOW" mark "$id" all u
expect_eq "mark all u" '["untriaged","untriaged","untriaged"]' \
	"$("$WINNOW" show --format=json "$id" | jq -c '[.findings[].verdict]')"
wn_done
