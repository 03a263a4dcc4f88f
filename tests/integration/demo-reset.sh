#!/usr/bin/env bash
# ./quickstart demo rebuilds its database every run; the
# journal beside it (build/demo/state) is reset with it, so an undo
# after a second run never meets verdicts of a database that is gone.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
demo=$(mktemp -d "${TMPDIR:-/tmp}/winnow-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
export NOTMUCH_CONFIG=$demo/db/notmuch-config XDG_STATE_HOME=$demo/state HOME=$demo
unset NOTMUCH_PROFILE NOTMUCH_DATABASE
id=20261102102845.9E02AC4CEF3@smtp.kernel.org

check "quickstart runs contrib/demo-world" grep -q 'contrib/demo-world' "$WN_TOP_SRCDIR/quickstart"
bash "$WN_TOP_SRCDIR/contrib/demo-world" "$demo"; expect_eq "the demo world is made" 0 $?
"$WINNOW" mark "$id" 1 valid; expect_eq "a verdict in the first demo" 0 $?
expect_eq "the journal holds it" 1 "$("$WINNOW" history --format=json | jq length)"
bash "$WN_TOP_SRCDIR/contrib/demo-world" "$demo"; expect_eq "the demo world is made again" 0 $?
expect_eq "the new database has no verdict" '"untriaged"' \
	"$("$WINNOW" show --format=json "$id" | jq '.findings[0].verdict')"
expect_eq "and the journal none either" 0 "$("$WINNOW" history --format=json | jq length)"
"$WINNOW" undo 2> "$demo/err"; expect_eq "undo has nothing to undo" 1 $?
check "and says so" grep -q "nothing to undo" "$demo/err"
# What the demo did before: the database rebuilt under a kept journal.
# The undo finds the finding untriaged again: it keeps that, says so and
# journals nothing, and history goes on working.
"$WINNOW" mark "$id" 2 fp; expect_eq "a verdict" 0 $?
bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$WN_TOP_SRCDIR/tests/corpus/demo" "$demo/db" >/dev/null
journal=$(cat "$demo"/state/winnow/journal-*)
"$WINNOW" undo > "$demo/out" 2> "$demo/err"; expect_eq "undo over a rebuilt database exits 1" 1 $?
check "says the finding is untriaged now and kept so" grep -q "finding 2 .*now untriaged.*kept" "$demo/err"
check "claims no undo" test ! -s "$demo/out"
expect_eq "and journals nothing" "$journal" "$(cat "$demo"/state/winnow/journal-*)"
"$WINNOW" history > /dev/null; expect_eq "history runs" 0 $?
wn_done
