#!/usr/bin/env bash
# winnow list/show on a real notmuch database built from the demo mailbox:
# every review's findings, severities, pre-existing claims, patch link and
# attribution must match tests/corpus/demo/expected.json exactly.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world

expected=$WN_TOP_SRCDIR/tests/corpus/demo/expected.json
out=$WN_WORLD/list.json
"$WINNOW" list --format=json > "$out"
expect_eq "list --format=json exits 0" 0 $?
check "list output is a JSON array" jq -e 'type == "array"' "$out" >/dev/null

# winnow's output projected onto expected.json's shape, sorted by id,
# compared whole.
project='[.[] | {id, bot, patch: (.patch.id // null),
	attribution: (.patch.attribution.status // null),
	findings: [.findings[] | {severity, preexisting}]}] | sort_by(.id)'
want=$(jq -S 'sort_by(.id)' "$expected")
got=$(jq -S "$project" "$out")
expect_eq "every review as the mails say" "$want" "$got"

# Field types of the contract.
check "contract: review keys" jq -e 'all(.[]; has("id") and has("bot") and has("date") and has("subject") and has("patch") and has("findings"))' "$out"
check "contract: date is a number" jq -e 'all(.[]; (.date | type) == "number")' "$out"
check "contract: finding keys" jq -e '[.[].findings[]] | all(has("index") and has("fingerprint") and has("severity") and has("preexisting") and has("summary") and has("file") and has("function") and has("line") and has("verdict") and has("note"))' "$out"
check "contract: indexes are 1-based in order" jq -e 'all(.[]; [.findings[].index] == [range(1; (.findings | length) + 1)])' "$out"
check "contract: everything untriaged at first" jq -e '[.[].findings[].verdict] | all(. == "untriaged")' "$out"
check "contract: attribution has agent/model/tools/raw" jq -e '[.[] | select(.patch) | .patch.attribution] | all(has("agent") and has("model") and has("tools") and has("raw"))' "$out"
check "model attribution names agent and model" jq -e '[.[] | .patch.attribution? | select(.status == "model")] | length > 0 and all(.agent != null and .model != null)' "$out"

# The review without threading headers is linked by subject.
nothread=20261104023058.D3ADBC4CEC7@smtp.kernel.org
expect_eq "unthreaded review linked by subject" "subject" \
	"$(jq -r --arg id "$nothread" '.[] | select(.id == $id) | .link' "$out")"

# show: every spelling of the Message-ID gives the same review.
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
a=$("$WINNOW" show --format=json "$id")
b=$("$WINNOW" show --format=json "<$id>")
c=$("$WINNOW" show --format=json "id:$id")
d=$("$WINNOW" show --format=json "id:<$id>")
expect_eq "show accepts id:<...>" "$a" "$d"
expect_eq "show accepts <...>" "$a" "$b"
expect_eq "show accepts id:..." "$a" "$c"
# ... but for who answered it and how new its author is, and whether it
# reached the patch's author: show reads the review's thread and the
# patch's mail for them, a listing does not (a thread, a mail a review).
who='del(.replies, .newcomer, .earlier_patches, .reached_author)'
check "show JSON has who answered" jq -e 'has("replies") and has("newcomer")' <<<"$a"
check "show JSON says whether the author has the review" jq -e '.reached_author == true' <<<"$a"
check "list JSON has not" jq -e "map(has(\"replies\") or has(\"newcomer\") or has(\"reached_author\")) | any | not" "$out"
expect_eq "show JSON is the list's object" \
	"$(jq -S --arg id "$id" '.[] | select(.id == $id)' "$out")" "$(printf '%s' "$a" | jq -S "$who")"
check "show text names the patch and attribution" \
	bash -c '"$WINNOW" show "'"$id"'" | grep -q "^AI: *none"'

# One walk prints a review for both formats: each review's show JSON is
# its element of the listing.
for i in $(jq -r '.[].id' "$out"); do "$WINNOW" show --format=json "$i"; done |
	jq -S -s "map($who)" > "$WN_WORLD/shows.json"
jq -S . "$out" > "$WN_WORLD/list-sorted.json"
check "show JSON of every review is its list element" \
	cmp -s "$WN_WORLD/list-sorted.json" "$WN_WORLD/shows.json"
expect_eq "an empty listing is an empty JSON array" "[]" "$("$WINNOW" list --format=json --limit=0)"
expect_eq "--limit bounds the JSON listing" 2 "$("$WINNOW" list --format=json --limit=2 | jq length)"

# Text output, whole: the listing, then every review in listing order,
# dates in local time (UTC here).
golden=$WN_TOP_SRCDIR/tests/corpus/demo
TZ=UTC "$WINNOW" list > "$WN_WORLD/list.txt"
check "list text as the golden says" diff -u "$golden/list.expected.txt" "$WN_WORLD/list.txt"
for i in $(jq -r '.[].id' "$out"); do TZ=UTC "$WINNOW" show "$i"; done > "$WN_WORLD/show.txt"
check "show text as the golden says" diff -u "$golden/show.expected.txt" "$WN_WORLD/show.txt"

# A Sashiko finding located in the quoted diff.
check "findings carry file and function" jq -e '[.[] | select(.bot == "sashiko") | .findings[] | select(.file != null and .function != null)] | length > 0' "$out"

# User errors exit 1 with one line; environment errors exit 2.
err=$WN_WORLD/err
"$WINNOW" show nosuch@example.org 2> "$err"; rc=$?
expect_eq "unknown message exits 1" 1 "$rc"
expect_eq "unknown message: one line on stderr" 1 "$(wc -l < "$err")"
"$WINNOW" show --format=yaml "$id" 2> "$err"; expect_eq "bad format exits 1" 1 $?
"$WINNOW" list 'from:(' > /dev/null 2> "$err"; rc=$?
check "odd query is not a crash" test "$rc" -le 2
NOTMUCH_CONFIG=$WN_WORLD/nonexistent "$WINNOW" list 2> "$err"; rc=$?
expect_eq "missing database exits 2" 2 "$rc"
expect_eq "missing database: one line" 1 "$(wc -l < "$err")"

# --help on every command, listing each of its options.
for cmd in "" list show mark undo sync-journal; do
	# shellcheck disable=SC2086
	check "winnow $cmd --help" bash -c '"$WINNOW" '"$cmd"' --help | grep -q "^Usage: winnow"'
done
for spec in "list format limit" "show format" "mark note timeout" "undo timeout" \
	"sync-journal timeout"; do
	read -r cmd opts <<< "$spec"
	for o in $opts; do
		check "winnow $cmd --help lists --$o" \
			bash -c '"$WINNOW" '"$cmd"' --help | grep -q "^  --'"$o"'="'
	done
done

# Hostile mail: no control character reaches a terminal through show.
hostile=20261104131907.E5C4FC4CED0@smtp.kernel.org
"$WINNOW" show "$hostile" > "$WN_WORLD/hostile.txt"
check "hostile review: text output has no control characters" \
	bash -c '! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n\t" < "'"$WN_WORLD/hostile.txt"'")'
check "hostile review: OSC payload dropped" bash -c '! grep -q pwned "'"$WN_WORLD/hostile.txt"'"'
"$WINNOW" list --format=json > "$WN_WORLD/all.json"
check "hostile review: JSON strings carry no escapes" \
	bash -c '! jq -r ".. | strings" "'"$WN_WORLD/all.json"'" | tr -d "\n\t" | LC_ALL=C grep -q "[[:cntrl:]]"'

wn_done
