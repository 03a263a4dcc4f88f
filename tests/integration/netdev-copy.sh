#!/usr/bin/env bash
# The same AI review passed on twice:
# tests/corpus/netdev-ai-copy holds one netdev AI review sent by a
# maintainer and the same text forwarded later by another, with a line
# of their own.  The later one is a copy of the first (list and show
# say copy_of), a verdict on either shows on both, and stats counts the
# review once; the queue shows the copy's row apart.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/netdev-ai-copy"
export LC_ALL=C.UTF-8 TZ=UTC
orig=20261111140240.3101-1-maintainer@example.org
copy=20261111174713.4470-1-second.maintainer@example.org
verdicts() { "$WINNOW" show --format=json "$1" | jq -c '[.findings[].verdict]'; }

expect_eq "list: the later mail is a copy of the first, the first of none" \
	"[[\"$copy\",\"$orig\"],[\"$orig\",null]]" \
	"$("$WINNOW" list --format=json | jq -c 'map([.id, .copy_of])')"
# The second list reads both reviews from the cache: the copy is still
# found (its thread comes from the record, not from the message).
expect_eq "list again (cached): the same copies" \
	"[[\"$copy\",\"$orig\"],[\"$orig\",null]]" \
	"$("$WINNOW" list --format=json | jq -c 'map([.id, .copy_of])')"
expect_eq "both have the same findings" \
	"$("$WINNOW" show --format=json "$orig" | jq -c '[.findings[].fingerprint]')" \
	"$("$WINNOW" show --format=json "$copy" | jq -c '[.findings[].fingerprint]')"
check "show's text names the review it copies" \
	bash -c "'$WINNOW' show '$copy' | grep -qxF 'Copy of:  id:$orig'"
check "list's text marks the copy" \
	bash -c "'$WINNOW' list | grep -F '$copy' | grep -qF '(copy)'"

"$WINNOW" mark "$orig" 1 valid
expect_eq "mark the first review's finding 1" 0 $?
expect_eq "the copy shows it" '["valid","untriaged"]' "$(verdicts "$copy")"
"$WINNOW" mark "$copy" 2 false-positive --note "the child counts it"
expect_eq "mark the copy's finding 2" 0 $?
expect_eq "the first review shows it" '["valid","false-positive"]' "$(verdicts "$orig")"
expect_eq "with its note" '"the child counts it"' \
	"$("$WINNOW" show --format=json "$orig" | jq -c '.findings[1].note')"

expect_eq "stats counts one review of two findings, both triaged" '[1,2,0,1,1]' \
	"$("$WINNOW" stats --format=json | jq -c '.[] | select(.total) | [.reviews, .findings, .untriaged, .valid, ."false-positive"]')"
# The queue: the copy's row dimmed, saying what it is.
wn_tui_start
check "queue shows both" wn_tui_wait "2 reviews" 30
check "the copy's row says it is one" wn_tui_wait "(copy) [PATCH net-next v2]"
wn_tui_keys Enter
check "the copy open" wn_tui_wait "finding 1 of 2"
check "its view says whose copy it is" wn_tui_wait "A copy of an earlier review in this thread"
wn_tui_keys Q
check "quit" wn_tui_wait "WINNOW-EXIT=0"
wn_done
