#!/usr/bin/env bash
# winnow show --format=json against golden files, one per review mail.
#
# Every folder under tests/corpus/ that holds a NAME.expected.json next to
# a NAME.eml takes part (tests/corpus/demo has its own test).  All their
# mails -- reviews, patches, cover letters -- go into ONE notmuch
# database, so that a review links to its patch the way it would in a
# maintainer's index, and a wrong link to another folder's patch shows.
# A folder may carry notmuch-config.extra: "key=value" lines applied with
# `notmuch config set` (values of one key from several folders are joined
# with ';', the list separator of winnow.bots).
#
# Each golden is the whole JSON object of `winnow show --format=json
# <Message-ID of NAME.eml>`; both sides go through `jq -S` and must be
# equal.  A mismatch prints the diff.
#
#   WN_GOLDEN_UPDATE=1 make check TESTS=tests/integration/golden.sh
#
# rewrites the goldens from what winnow prints now.  Read every rewritten
# golden against its mail before committing it: a golden says what the
# mail says (count, severities, pre-existing split, places, attribution),
# not what the code happens to print.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"

corpus_root=$WN_TOP_SRCDIR/tests/corpus
update=${WN_GOLDEN_UPDATE:-}

# The Message-ID of a mail file, without <>: the first Message-ID
# header of the header block (they are never folded in the corpus).
msgid_of() {
	awk '/^\r?$/ { exit }
	tolower($0) ~ /^message-id:/ {
		sub(/^[^:]*:[ \t]*/, ""); sub(/\r$/, ""); gsub(/[<>]/, ""); print; exit
	}' "$1"
}

folders=()
for d in "$corpus_root"/*/; do
	d=${d%/}
	compgen -G "$d/*.expected.json" > /dev/null && folders+=("$d")
done
if [ ${#folders[@]} -eq 0 ]; then
	echo "golden: no corpus folder with *.expected.json"
	exit 99
fi

# One corpus of all folders; file names carry the folder so that equal
# names in two folders do not collide.
all=$(mktemp -d "${TMPDIR:-/tmp}/winnow-golden.XXXXXX") || exit 99
for d in "${folders[@]}"; do
	for f in "$d"/*.eml; do
		cp "$f" "$all/${d##*/}--${f##*/}"
	done
done

# Message-IDs must be unique across folders, or one mail would hide
# another in the database.
dups=$(for f in "$all"/*.eml; do msgid_of "$f"; done | sort | uniq -d)
if [ -n "$dups" ]; then
	echo "golden: Message-ID used by more than one corpus mail:"
	printf '  %s\n' $dups
	rm -rf "$all"
	exit 1
fi

wn_world "$all"
trap 'rm -rf "$all"; wn_world_cleanup' EXIT

# Configuration the folders ask for.
declare -A conf=()
for d in "${folders[@]}"; do
	[ -f "$d/notmuch-config.extra" ] || continue
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '' | '#'*) continue ;; esac
		key=${line%%=*}
		val=${line#*=}
		case ";${conf[$key]:-};" in
		*";$val;"*) ;;
		*) conf[$key]=${conf[$key]:+${conf[$key]};}$val ;;
		esac
	done < "$d/notmuch-config.extra"
done
for key in "${!conf[@]}"; do
	notmuch config set "$key" "${conf[$key]}" ||
		{ echo "golden: notmuch config set $key failed"; exit 99; }
done

tmp=$WN_WORLD/golden
mkdir -p "$tmp"
pass=0
fail=0
declare -A have_golden=()
for d in "${folders[@]}"; do
	for golden in "$d"/*.expected.json; do
		name=${golden%.expected.json}
		rel=${golden#"$WN_TOP_SRCDIR"/}
		if [ ! -f "$name.eml" ]; then
			echo "FAIL - $rel: no ${name##*/}.eml next to it"
			fail=$((fail + 1))
			continue
		fi
		id=$(msgid_of "$name.eml")
		have_golden[$id]=1
		if ! "$WINNOW" show --format=json "$id" > "$tmp/got" 2> "$tmp/err"; then
			echo "FAIL - $rel: winnow show failed: $(cat "$tmp/err")"
			fail=$((fail + 1))
			continue
		fi
		if [ -n "$update" ]; then
			jq . "$tmp/got" > "$golden" || { echo "FAIL - $rel: not JSON"; fail=$((fail + 1)); continue; }
			echo "updated - $rel"
			pass=$((pass + 1))
			continue
		fi
		jq -S . "$golden" > "$tmp/want" 2> "$tmp/err" ||
			{ echo "FAIL - $rel: golden is not JSON: $(cat "$tmp/err")"; fail=$((fail + 1)); continue; }
		# Goldens written before show's JSON carried each finding's
		# quote and comment say nothing of them: compare what they say
		# (WN_GOLDEN_UPDATE=1 adds them).
		if jq -e '[.findings[]? | has("quote")] | any' "$golden" > /dev/null; then
			jq -S . "$tmp/got" > "$tmp/have"
		else
			jq -S '(.findings[]?) |= del(.quote, .comment)' "$tmp/got" > "$tmp/have"
		fi
		if cmp -s "$tmp/want" "$tmp/have"; then
			echo "ok - $rel"
			pass=$((pass + 1))
		else
			echo "FAIL - $rel (--- golden, +++ winnow)"
			diff -u "$tmp/want" "$tmp/have" | sed '1,2d'
			fail=$((fail + 1))
		fi
	done
done

# Every bot mail the default query finds, the bots' own traffic
# included (winnow.show_summaries), has a golden: a mail added to a
# folder without one would otherwise go untested.
notmuch config set winnow.show_summaries true
if "$WINNOW" list --format=json > "$tmp/all" 2> "$tmp/err"; then
	while IFS= read -r id; do
		if [ -z "${have_golden[$id]:-}" ]; then
			echo "FAIL - mail <$id> has no golden file"
			fail=$((fail + 1))
		fi
	done < <(jq -r '.[].id' "$tmp/all")
else
	echo "FAIL - winnow list with winnow.show_summaries failed: $(cat "$tmp/err")"
	fail=$((fail + 1))
fi
notmuch config set winnow.show_summaries false

# Without the switch the list holds exactly the reviews and reports:
# each bot's hidden query leaves out what its parser calls a summary, a
# follow-up or its own patch, no more and no less.
if "$WINNOW" list --format=json > "$tmp/list" 2> "$tmp/err"; then
	if diff -u <(jq -r '.[] | select(.kind == "review" or .kind == "report") | .id' "$tmp/all" | sort) \
		<(jq -r '.[].id' "$tmp/list" | sort) > "$tmp/kinds"; then
		echo "ok - the list leaves out exactly the mails that are no reviews"
		pass=$((pass + 1))
	else
		echo "FAIL - the list and the kinds disagree (--- queued kinds, +++ listed):"
		cat "$tmp/kinds"
		fail=$((fail + 1))
	fi
else
	echo "FAIL - winnow list failed: $(cat "$tmp/err")"
	fail=$((fail + 1))
fi

# "*" is notmuch's "every message": as a query it narrows nothing.
if "$WINNOW" list --format=json '*' > "$tmp/star" 2> "$tmp/err" &&
	[ "$(jq length "$tmp/star")" -gt 0 ] &&
	cmp -s <(jq -r '.[].id' "$tmp/list") <(jq -r '.[].id' "$tmp/star"); then
	echo "ok - winnow list '*' lists every review"
	pass=$((pass + 1))
else
	echo "FAIL - winnow list '*' differs from winnow list: $(cat "$tmp/err")"
	fail=$((fail + 1))
fi

# A known bot's mail is never read with the generic rule: "generic" is
# for the senders a folder lists in winnow.bots.
bots=";$(notmuch config get winnow.bots 2>/dev/null | tr 'A-Z' 'a-z');"
strays=$(jq -r '.[] | select(.bot == "generic") | "\(.id) \(.from)"' "$tmp/all" |
	while read -r id from; do
		addr=$(printf '%s\n' "$from" | sed -n 's/.*<\(.*\)>.*/\1/p')
		addr=${addr:-$from}
		case $bots in *";${addr,,};"*) ;; *) echo "$id $from" ;; esac
	done)
if [ -z "$strays" ]; then
	echo "ok - no known bot's mail is classified generic"
	pass=$((pass + 1))
else
	echo "FAIL - classified generic although not listed in winnow.bots:"
	printf '  %s\n' "$strays"
	fail=$((fail + 1))
fi

# The text form says what JSON says with "patch": null and "explain".
text_has() {
	local name=$1 id=$2 want=$3
	if "$WINNOW" show "$id" 2>&1 | grep -qF -- "$want"; then
		echo "ok - $name"
		pass=$((pass + 1))
	else
		echo "FAIL - $name: no \"$want\" in winnow show $id"
		fail=$((fail + 1))
	fi
}
text_has "unlinked review says its patch is not in the index" \
	20261113152140.4C93DC4CE21@smtp.kernel.org "Patch:    not in index"
text_has "a review without findings says which bot and why" \
	20261109101422.5F0E2C4CE77@smtp.kernel.org "Sashiko found no issues"
text_has "a syzbot follow-up says what it is" \
	6a3f8e57.050a0220.3c4d5e.0007.GAE@google.example.com "a syzbot follow-up (test-ok)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
