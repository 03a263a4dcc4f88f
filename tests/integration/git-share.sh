#!/usr/bin/env bash
# Two maintainers share verdicts through a bare git repository in a
# temp dir: Ann's database holds the demo mailbox and the series
# fixture, Bob's the series fixture only.  Work on different findings
# meets without a conflict; the same decision on both sides is none; the
# same finding judged differently is listed on both sides with both
# values kept and neither database overwritten, until one decides again
# or pushes --resolve.  Decisions on reviews Bob lacks stay in the
# repository untouched by him.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/series"
export TZ=UTC
unset GIT_DIR GIT_WORK_TREE
both=$WN_WORLD/both
mkdir -p "$both"
cp "$WN_TOP_SRCDIR"/tests/corpus/demo/*.eml "$WN_TOP_SRCDIR"/tests/corpus/series/*.eml "$both/"
person() {	# DIR CORPUS NAME ADDRESS
	bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$2" "$1" > /dev/null || exit 99
	mkdir -p "$1/state"
	NOTMUCH_CONFIG=$1/notmuch-config notmuch config set user.name "$3"
	NOTMUCH_CONFIG=$1/notmuch-config notmuch config set user.primary_email "$4"
}
person "$WN_WORLD/ann" "$both" "Ann Maintainer" ann@example.org
person "$WN_WORLD/bob" "$WN_TOP_SRCDIR/tests/corpus/series" "Bob Maintainer" bob@example.org
ann() { NOTMUCH_CONFIG=$WN_WORLD/ann/notmuch-config XDG_STATE_HOME=$WN_WORLD/ann/state "$WINNOW" "$@"; }
bob() { NOTMUCH_CONFIG=$WN_WORLD/bob/notmuch-config XDG_STATE_HOME=$WN_WORLD/bob/state "$WINNOW" "$@"; }
remote=$WN_WORLD/shared.git
git init -q --bare "$remote"
v1=20261110101500.B1A2C3D4E5F@smtp.kernel.org
v2=20261117101500.B2A3C4D5E6F@smtp.kernel.org
v3=20261124101500.B3A4C5D6E7F@smtp.kernel.org
demo=20261102102845.9E02AC4CEF3@smtp.kernel.org
of() { "$1" show --format=json "$2" | jq -c '[.findings[] | [.verdict, .note]]'; }
quiet() { "$@" > "$WN_WORLD/out" 2> "$WN_WORLD/err"; }

# Concurrent work on different findings.
ann mark "$v1" 3 false-positive --note "blinker_timer_fn() checks bl->stopping" --reason=misread-code
ann mark "$v1" 4 pre-existing
ann mark "$demo" 1 valid
bob mark "$v2" 1 valid --note "a real use after free"
bob mark "$v3" 2 false-positive
quiet ann git push "$remote"; expect_eq "Ann pushes to the empty remote" 0 $?
quiet bob git push "$remote"; expect_eq "Bob cannot push before he pulls" 1 $?
check "... and is told so" grep -qF "has decisions not pulled yet: run 'winnow git pull' first" "$WN_WORLD/err"
quiet bob git pull --format=json "$remote"; expect_eq "Bob pulls" 0 $?
expect_eq "Bob's pull: Ann's two series decisions in, her demo one kept aside, no conflict" '[2,1,0]' \
	"$(jq -c '[.imported, .skipped, (.conflicts | length)]' "$WN_WORLD/out")"
expect_eq "Bob has Ann's verdicts and note" \
	'[["untriaged",null],["untriaged",null],["false-positive","blinker_timer_fn() checks bl->stopping"],["pre-existing",null]]' \
	"$(of bob "$v1")"
expect_eq "... and the reason of her false positive" misread-code \
	"$(bob show --format=json "$v1" | jq -r '.findings[2].reason')"
check "the shared file says it" bash -c 'git --git-dir="$0" show winnow:reviews | grep -q . &&
	git --git-dir="$0" grep -q "^reason: misread-code$" winnow' "$remote"
quiet bob git push "$remote"; expect_eq "Bob pushes" 0 $?
quiet ann git pull "$remote"; expect_eq "Ann pulls" 0 $?
expect_eq "Ann has Bob's verdict and note" \
	'[["valid","a real use after free"],["untriaged",null],["untriaged",null],["untriaged",null]]' "$(of ann "$v2")"
expect_eq "... and his other one" '["untriaged","false-positive","untriaged"]' \
	"$(ann show --format=json "$v3" | jq -c '[.findings[].verdict]')"
expect_eq "Ann's demo verdict survived Bob's push" '"valid"' \
	"$(ann show --format=json "$demo" | jq -c '.findings[0].verdict')"
expect_eq "in notmuch as tags too" "id:$v2" \
	"$(NOTMUCH_CONFIG=$WN_WORLD/ann/notmuch-config notmuch search --output=messages "tag:winnow/valid and id:$v2")"

# The repository: one file per review and finding.
ls=$(git --git-dir="$remote" ls-tree -r --name-only winnow)
expect_eq "one file per judged finding, four reviews" 5 "$(grep -c . <<<"$ls")"
file=$(grep "$v1" <<<"$ls" | head -n 1)
check "a file under the review's encoded Message-ID" grep -qE "^reviews/[0-9a-f]{2}/$v1/[0-9a-f]{16}\$" <<<"$file"
git --git-dir="$remote" show "winnow:$(grep "$v2" <<<"$ls")" > "$WN_WORLD/file"
expect_eq "its text: review, state, author, time, note" \
	"review: $v2|state: valid|author: Bob Maintainer <bob@example.org>|note: a real use after free" \
	"$(grep -v '^time: ' "$WN_WORLD/file" | paste -sd '|')"
check "... with the time" grep -qE '^time: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' "$WN_WORLD/file"

# The same decision on both sides is no conflict.
ann mark "$v3" 1 false-positive
bob mark "$v3" 1 false-positive
quiet ann git push "$remote"
quiet bob git pull --format=json "$remote"
expect_eq "the same decision twice: no conflict" 0 "$(jq '.conflicts | length' "$WN_WORLD/out")"

# A real conflict: v1 #1 valid here, false positive there.
quiet bob git push "$remote"
quiet ann git pull "$remote"
ann mark "$v1" 1 valid
bob mark "$v1" 1 false-positive --note "blinker_stop() runs first"
quiet ann git push "$remote"
quiet bob git pull --format=json "$remote"; expect_eq "Bob pulls into a conflict: exit 0" 0 $?
expect_eq "Bob: the conflict, his side and Ann's" \
	"[\"$v1\",1,\"false-positive\",\"blinker_stop() runs first\",\"Bob Maintainer <bob@example.org>\",\"valid\",\"Ann Maintainer <ann@example.org>\"]" \
	"$(jq -c '.conflicts[0] | [.review, .finding, .ours.verdict, .ours.note, .ours.author, .theirs.verdict, .theirs.author]' "$WN_WORLD/out")"
expect_eq "Bob's verdict was not overwritten" '["false-positive","blinker_stop() runs first"]' "$(of bob "$v1" | jq -c '.[0]')"
quiet bob git push "$remote"
quiet ann git pull "$remote"
check "Ann's pull lists it too" grep -qF "conflict: $v1 #1  blinker_stop() reads bl->buf after blinker_remove() has freed it." "$WN_WORLD/out"
check "... her decision here" grep -qE '^    here:  valid  by Ann Maintainer' "$WN_WORLD/out"
check "... Bob's there" grep -qE '^    there: false-positive  by Bob Maintainer' "$WN_WORLD/out"
expect_eq "Ann's verdict was not overwritten" '["valid",null]' "$(of ann "$v1" | jq -c '.[0]')"
expect_eq "both values are in the repository" 2 \
	"$(git --git-dir="$remote" ls-tree -r --name-only winnow | grep -c "$v1/$(ann show --format=json "$v1" | jq -r '.findings[0].fingerprint')")"
quiet ann git status "$remote"
check "status lists it" grep -qF "1 conflict: decide again" "$WN_WORLD/out"

# Ann decides again: the conflict ends, Bob takes her decision.
ann mark "$v1" 1 pre-existing
quiet ann git push --format=json "$remote"
expect_eq "Ann's new decision settles it" 0 "$(jq '.conflicts | length' "$WN_WORLD/out")"
quiet bob git pull --format=json "$remote"
expect_eq "Bob: no conflict left" 0 "$(jq '.conflicts | length' "$WN_WORLD/out")"
expect_eq "Bob has Ann's new decision" '"pre-existing"' "$(of bob "$v1" | jq -c '.[0][0]')"

# Another conflict, settled by push --resolve on Bob's side.
quiet bob git push "$remote"
quiet ann git pull "$remote"
ann mark "$v2" 3 valid
bob mark "$v2" 3 false-positive
quiet ann git push "$remote"
quiet bob git pull "$remote"
quiet bob git push --resolve --format=json "$remote"; expect_eq "push --resolve" 0 $?
expect_eq "push --resolve: no conflict left" 0 "$(jq '.conflicts | length' "$WN_WORLD/out")"
quiet ann git pull "$remote"
expect_eq "Ann takes Bob's settled decision" '"false-positive"' "$(of ann "$v2" | jq -c '.[2][0]')"
quiet ann git status --format=json "$remote"
expect_eq "all in step" '[0,0,0,0]' "$(jq -c '[.changed, .ahead, .behind, (.conflicts | length)]' "$WN_WORLD/out")"

# The maintainer's own severity travels with the verdict.
ann mark --severity=critical "$v2" 1
quiet ann git push "$remote"
quiet bob git pull "$remote"
expect_eq "Bob has Ann's severity" "winnow.severity.$(bob show --format=json "$v2" | jq -r '.findings[0].fingerprint')=critical" \
	"$(NOTMUCH_CONFIG=$WN_WORLD/bob/notmuch-config notmuch dump --include=properties "id:$v2" | tr ' ' '\n' | grep '^winnow.severity')"

# A verdict withdrawn (untriaged again) travels too.
ann mark "$v1" 4 untriaged
quiet ann git push "$remote"
quiet bob git pull "$remote"
expect_eq "Bob: v1 #4 withdrawn as Ann withdrew it" '"untriaged"' "$(of bob "$v1" | jq -c '.[3][0]')"

# The demo review reaches Bob's index only now: his pulls and pushes
# before left Ann's verdict on it alone, this pull gives it to him.
cp "$WN_TOP_SRCDIR/tests/corpus/demo/06-sashiko-a2-new-qp.eml" "$WN_WORLD/bob/mail/cur/late:2,S"
NOTMUCH_CONFIG=$WN_WORLD/bob/notmuch-config notmuch new --quiet
quiet bob git pull --format=json "$remote"
expect_eq "the late review takes Ann's verdict" '"valid"' \
	"$(bob show --format=json "$demo" | jq -c '.findings[0].verdict')"
expect_eq "... and nothing waits any more" 0 "$(jq '.skipped' "$WN_WORLD/out")"

# Two findings of one review, the same verdict with no note but two
# reasons: each keeps its own.
ann mark "$v2" 2 false-positive --reason=misread-code
ann mark "$v2" 4 false-positive --reason=wrong-rule
quiet ann git push "$remote"
quiet bob git pull --format=json "$remote"
expect_eq "Bob imports both" 2 "$(jq '.imported' "$WN_WORLD/out")"
expect_eq "... each with its own reason" '[["false-positive","misread-code"],["false-positive","wrong-rule"]]' \
	"$(bob show --format=json "$v2" | jq -c '[.findings[1,3] | [.verdict, .reason]]')"

# Usage and environment.
ann git > /dev/null 2>&1; expect_eq "no arguments: usage error" 1 $?
ann git fetch "$remote" > /dev/null 2>&1; expect_eq "an unknown operation: usage error" 1 $?
ann git pull --resolve "$remote" > /dev/null 2>&1; expect_eq "--resolve with pull: usage error" 1 $?
ann git pull "$WN_WORLD/nowhere.git" > /dev/null 2>&1; expect_eq "a remote git cannot reach: 2" 2 $?
check "--help" bash -c '"$WINNOW" git --help | grep -q "^Usage: winnow git"'
wn_done
