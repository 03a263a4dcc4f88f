#!/usr/bin/env bash
# A shared verdict repository is anyone's input: Eve pushes
# into the remote Ann and Bob share, with a plain git.  Links to files
# and folders outside it, oversized or malformed files and files of
# another layout change nothing outside the repository, are reported
# and block nothing else; a decision only Ann holds is never replaced
# by the repository's; a review whose Message-ID holds CR/LF travels.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/series"
export TZ=UTC
unset GIT_DIR GIT_WORK_TREE
both=$WN_WORLD/both
mkdir -p "$both"
cp "$WN_TOP_SRCDIR"/tests/corpus/series/*.eml "$WN_TOP_SRCDIR/tests/corpus/hostile/01-patch.eml" "$both/"
# A review whose Message-ID holds CR LF (an encoded word, taken as it is).
sed 's/^Message-Id: .*/Message-Id: <crlf=?utf-8?q?=0D=0A?=id@example.org>/' \
	"$WN_TOP_SRCDIR/tests/corpus/hostile/02-review-control-msgid.eml" > "$both/02-crlf.eml"
person() {	# DIR NAME ADDRESS
	bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$both" "$1" > /dev/null || exit 99
	mkdir -p "$1/state"
	NOTMUCH_CONFIG=$1/notmuch-config notmuch config set user.name "$2"
	NOTMUCH_CONFIG=$1/notmuch-config notmuch config set user.primary_email "$3"
}
person "$WN_WORLD/ann" "Ann Maintainer" ann@example.org
person "$WN_WORLD/bob" "Bob Maintainer" bob@example.org
ann() { NOTMUCH_CONFIG=$WN_WORLD/ann/notmuch-config XDG_STATE_HOME=$WN_WORLD/ann/state "$WINNOW" "$@"; }
bob() { NOTMUCH_CONFIG=$WN_WORLD/bob/notmuch-config XDG_STATE_HOME=$WN_WORLD/bob/state "$WINNOW" "$@"; }
remote=$WN_WORLD/shared.git
git init -q --bare "$remote"
v1=20261110101500.B1A2C3D4E5F@smtp.kernel.org
v2=20261117101500.B2A3C4D5E6F@smtp.kernel.org
v3=20261124101500.B3A4C5D6E7F@smtp.kernel.org
crlf=$(printf 'crlf\r\nid@example.org')
quiet() { "$@" > "$WN_WORLD/out" 2> "$WN_WORLD/err"; }
fp() { ann show --format=json "$1" | jq -r ".findings[$(($2 - 1))].fingerprint"; }
verdict() { "$1" show --format=json "$2" | jq -r ".findings[$(($3 - 1))].verdict"; }

# Eve: a clone of her own, links allowed, pushing what she likes.
eve=$WN_WORLD/eve
eve_git() { git -C "$eve" -c core.symlinks=true -c user.name=Eve -c user.email=eve@example.org "$@"; }
eve_push() { eve_git add -A && eve_git commit -qm "$1" && eve_git push -q origin HEAD:winnow; }

# Ann's first decisions make the review folders.
ann mark "$v1" 1 valid
ann mark "$v2" 1 valid
ann mark "$v3" 1 valid
quiet ann git push "$remote"; expect_eq "Ann pushes" 0 $?
git clone -q -b winnow "$remote" "$eve" 2> /dev/null
d1=$(dirname "$(cd "$eve" && ls -d reviews/*/"$v1"/*)")
d2=$(dirname "$(cd "$eve" && ls -d reviews/*/"$v2"/*)")
d3=$(dirname "$(cd "$eve" && ls -d reviews/*/"$v3"/*)")

# Links: a finding file to a file standing in for ~/.bashrc, a review
# folder to a folder outside, and a file of a valid decision beside.
printf '# bashrc\n' > "$WN_WORLD/bashrc"
mkdir "$WN_WORLD/outside"
rm -rf "$eve/$d2"
ln -s "$WN_WORLD/outside" "$eve/$d2"
ln -s "$WN_WORLD/bashrc" "$eve/$d1/$(fp "$v1" 2)"
printf 'review: %s\nstate: false-positive\nauthor: Eve\ntime: 2026-11-30T00:00:00Z\n' "$v1" > "$eve/$d1/$(fp "$v1" 3)"
eve_push "links"
quiet ann git pull --format=json "$remote"; expect_eq "Ann pulls links: exit 0" 0 $?
expect_eq "... the links refused and named" "$(jq -nc --arg a "$d1/$(fp "$v1" 2)" --arg b "$d2" '[$a, $b] | sort')" \
	"$(jq -c '[.refused[].path] | sort' "$WN_WORLD/out")"
expect_eq "... the valid decision beside them taken" false-positive "$(verdict ann "$v1" 3)"
ann mark "$v1" 2 valid --note "echo PWNED"
ann mark "$v2" 2 valid --note "echo PWNED"
quiet ann git push "$remote"; expect_eq "Ann's push over the links: exit 0" 0 $?
expect_eq "the file outside is untouched" '# bashrc' "$(cat "$WN_WORLD/bashrc")"
expect_eq "the folder outside is empty" '' "$(ls -A "$WN_WORLD/outside")"
check "Ann's decision went as a file, not through the link" \
	bash -c "git --git-dir='$remote' cat-file -p 'winnow:$d1/$(fp "$v1" 2)' | grep -qx 'note: echo PWNED'"
check "... and her folder replaced the linked one" \
	bash -c "git --git-dir='$remote' ls-tree -r winnow -- '$d2/' | grep -q '^100644 '"

# Oversized, malformed, misplaced files: set aside, the rest taken.
eve_git pull -q origin winnow
big=$(head -c 70000 /dev/zero | tr '\0' 'x')
printf 'review: %s\nstate: valid\nauthor: Eve\ntime: 2026-11-30T00:00:00Z\nnote: %s\n' "$v2" "$big" > "$eve/$d2/$(fp "$v2" 3)"
printf 'review: %s\nstate: valid\nauthor: Eve\ntime: 2026-11-30T00:00:00Z\nnote: \xff\xfe\n' "$v3" > "$eve/$d3/$(fp "$v3" 2)"
printf 'review: %s\nstate: pre-existing\nauthor: Eve\ntime: 2026-11-30T00:00:00Z\n' "$v3" > "$eve/$d3/$(fp "$v3" 3)"
printf 'hello\n' > "$eve/README"
mkdir -p "$eve/reviews/00/$v1"
printf 'review: %s\nstate: pre-existing\nauthor: Eve\ntime: 2026-11-30T00:00:00Z\n' "$v1" > "$eve/reviews/00/$v1/$(fp "$v1" 4)"
[ "${d1#reviews/00/}" == "$d1" ] || exit 99
eve_push "bad files"
quiet bob git pull --format=json "$remote"; expect_eq "Bob pulls the bad files: exit 0" 0 $?
expect_eq "... each of them refused" \
	"$(printf '%s\n' "$d2/$(fp "$v2" 3)" "$d3/$(fp "$v3" 2)" README "reviews/00/$v1/$(fp "$v1" 4)" | jq -Rsc 'split("\n")[:-1] | sort')" \
	"$(jq -c '[.refused[].path] | sort' "$WN_WORLD/out")"
expect_eq "... the oversized note named so" 1 \
	"$(jq '[.refused[] | select(.reason | test("note of 70000 bytes"))] | length' "$WN_WORLD/out")"
expect_eq "... every valid decision taken" "valid valid valid pre-existing untriaged" \
	"$(echo $(verdict bob "$v1" 1) $(verdict bob "$v2" 1) $(verdict bob "$v3" 1) $(verdict bob "$v3" 3) $(verdict bob "$v1" 4))"
quiet bob git pull "$remote"; expect_eq "Bob's next pull: exit 0 all the same" 0 $?
check "... the text names what was refused" grep -qF "refused: README: not of winnow's layout" "$WN_WORLD/out"

# A decision only Ann holds (never pushed) is not replaced by another's,
# also on a review her winnow.query leaves out (which her pulls do not
# write into the repository); the review's Message-ID holds CR LF, and
# travels all the same.
NOTMUCH_CONFIG=$WN_WORLD/ann/notmuch-config notmuch config set winnow.query \
	"from:sashiko-bot@kernel.org and not subject:hostile"
shown='crlf\x0d\x0aid@example.org'
quiet ann show "$shown"; expect_eq "show takes the escaped id" 0 $?
check "... and shows it escaped" grep -qF "$shown" "$WN_WORLD/out"
ann mark "$shown" 1 false-positive --note "mine"
quiet bob mark "$shown" 1 valid --note "evil overrides"
quiet bob git push "$remote"; expect_eq "Bob pushes a review whose id holds CR LF" 0 $?
quiet ann git pull --format=json "$remote"; expect_eq "Ann pulls over her unshared decision: exit 0" 0 $?
expect_eq "... her decision stays" '["false-positive","mine"]' \
	"$(ann show --format=json "$shown" | jq -c '.findings[0] | [.verdict, .note]')"
expect_eq "... and it is a conflict, the id exact" "$(jq -nc --arg id "$crlf" '[$id, "false-positive", "valid"]')" \
	"$(jq -c '.conflicts[] | [.review, .ours.verdict, .theirs.verdict]' "$WN_WORLD/out")"
quiet ann git push --resolve "$remote"; expect_eq "Ann keeps hers" 0 $?
quiet bob git pull "$remote"; expect_eq "Bob pulls it" 0 $?
expect_eq "Bob has Ann's decision on it" '["false-positive","mine"]' \
	"$(bob show --format=json "$shown" | jq -c '.findings[0] | [.verdict, .note]')"

# A disk full while the sharing clone is made: git init stops after the
# folder, before HEAD (a git that does just that stands in for the
# disk).  The next push makes the clone anew by itself.
fake=$WN_WORLD/fakebin
mkdir -p "$fake"
cat > "$fake/git" <<EOF
#!/usr/bin/env bash
for a; do
	[ "\$a" = init ] && { mkdir -p "\$2/.git/objects"; echo "fatal: No space left on device" >&2; exit 128; }
done
exec "$(command -v git)" "\$@"
EOF
chmod +x "$fake/git"
mkdir -p "$WN_WORLD/ann/state2"
ann2() { NOTMUCH_CONFIG=$WN_WORLD/ann/notmuch-config XDG_STATE_HOME=$WN_WORLD/ann/state2 "$WINNOW" "$@"; }
PATH=$fake:$PATH quiet ann2 git push "$remote"; expect_eq "a push on a full disk fails: 2" 2 $?
check "... saying why" grep -qF "No space left on device" "$WN_WORLD/err"
quiet ann2 git pull "$remote"; expect_eq "the next pull recovers by itself" 0 $?
quiet ann2 git push "$remote"; expect_eq "... and the push after it" 0 $?

wn_done
