#!/usr/bin/env bash
# winnow show --format=json against golden files, one per review mail.
#
# Every folder under tests/corpus/ takes part, except the few listed in
# own_test below, which have a test of their own.  All their mails --
# reviews, patches, cover letters -- go into ONE notmuch database, so
# that a review links to its patch the way it would in a maintainer's
# index, and a wrong link to another folder's patch shows.  A folder may
# carry notmuch-config.extra: "key=value" lines applied with `notmuch
# config set` (values of one key from several folders are joined with
# ';', the list separator of winnow.bots).
#
# Each golden NAME.expected.json is the whole JSON object of `winnow show
# --format=json <Message-ID of NAME.eml>`, every finding's quote and
# comment included; both sides go through `jq -S` and must be equal.  A
# mismatch prints the diff.  Every mail `winnow list` finds (the bots'
# own traffic included) must have a golden, and so must every folder.
#
#   WN_GOLDEN_UPDATE=1 make check TESTS=tests/integration/golden.sh
#   WN_GOLDEN_UPDATE="lkp-unit syzbot-ci" make check TESTS=...
#
# rewrites the goldens (of every folder, or of the folders named) that
# differ from what winnow prints now, creates the missing ones, and
# prints each change as a diff.  Read every one against its mail before
# committing it, and commit them a bot at a time: a golden says what the
# mail says (count, severities, pre-existing split, places, quotes,
# comments, attribution), not what the code happens to print.
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

# Folders with a test of their own, and that test: the test must exist
# and name the folder, or the exemption would outlive it.
declare -A own_test=(
	[demo]=tests/integration/list-show.sh
	[forward-reach]=tests/integration/forward-reach.sh
	[hostile]=tests/integration/hostile.sh
	[syz-reply]=tests/integration/syz-reply.sh
	[tui-wide]=tests/tui/screens-wide.sh
	[who]=tests/integration/who.sh
	[who-parent]=tests/integration/who-parent.sh
)
# Folders whose goldens still predate quote and comment in show's JSON,
# compared without them until a parser defect is fixed: none now (the
# last, lkp-tree-report, waited for the forwarder's remark under a vim
# listing).  A folder named here fails once its goldens have quotes.
declare -A quote_pending=()

# Should WN_GOLDEN_UPDATE rewrite the goldens of folder $1?
updating() {
	case $update in
	'') return 1 ;;
	1) return 0 ;;
	esac
	case " ${update//,/ } " in *" $1 "*) return 0 ;; esac
	return 1
}

pass=0
fail=0
for name in "${!own_test[@]}"; do
	if [ ! -d "$corpus_root/$name" ] ||
		! grep -qs "$name" "$WN_TOP_SRCDIR/${own_test[$name]}"; then
		echo "FAIL - corpus folder $name is said to be tested by ${own_test[$name]}, which does not name it"
		fail=$((fail + 1))
	fi
done

folders=()
for d in "$corpus_root"/*/; do
	d=${d%/}
	[ -n "${own_test[${d##*/}]:-}" ] && continue
	compgen -G "$d/*.eml" > /dev/null && folders+=("$d")
done
if [ ${#folders[@]} -eq 0 ]; then
	echo "golden: no corpus folder with mail"
	exit 99
fi

# One corpus of all folders; file names carry the folder so that equal
# names in two folders do not collide.
all=$(mktemp -d "${TMPDIR:-/tmp}/winnow-golden.XXXXXX") || exit 99
declare -A file_of=()
for d in "${folders[@]}"; do
	for f in "$d"/*.eml; do
		cp "$f" "$all/${d##*/}--${f##*/}"
		file_of[$(msgid_of "$f")]=$f
	done
done

# Message-IDs must be unique across folders, or one mail would hide
# another in the database.
dups=$(for f in "$all"/*.eml; do msgid_of "$f"; done | LC_ALL=C sort | uniq -d)
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

# write_golden GOLDEN: replace it with what winnow printed ($tmp/got)
# when they differ, and show the change.
write_golden() {
	local golden=$1 rel=${1#"$WN_TOP_SRCDIR"/}
	jq . "$tmp/got" > "$tmp/new" || { echo "FAIL - $rel: winnow's output is not JSON"; fail=$((fail + 1)); return; }
	if [ -f "$golden" ] && cmp -s <(jq -S . "$golden" 2>/dev/null) <(jq -S . "$tmp/new"); then
		echo "ok - $rel (unchanged)"
	elif [ -f "$golden" ]; then
		echo "updated - $rel: read this change against the mail"
		diff -u "$golden" "$tmp/new" | sed '1,2d'
		cp "$tmp/new" "$golden"
	else
		echo "created - $rel: read it against the mail"
		cp "$tmp/new" "$golden"
	fi
	pass=$((pass + 1))
}

declare -A have_golden=()
for d in "${folders[@]}"; do
	for golden in "$d"/*.expected.json; do
		[ -e "$golden" ] || continue
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
		# How many patches the author sent before is a count over the
		# whole index, so it moves whenever any folder adds a mail from
		# the same address: it says nothing about this mail, and who.sh
		# tests it on an index of its own.
		jq 'del(.earlier_patches, .newcomer)' "$tmp/got" > "$tmp/got.who" &&
			mv "$tmp/got.who" "$tmp/got"
		if updating "${d##*/}"; then
			write_golden "$golden"
			continue
		fi
		jq -S . "$golden" > "$tmp/want" 2> "$tmp/err" ||
			{ echo "FAIL - $rel: golden is not JSON: $(cat "$tmp/err")"; fail=$((fail + 1)); continue; }
		if [ -n "${quote_pending[${d##*/}]:-}" ] &&
			! jq -e '[.findings[]? | has("quote")] | any' "$golden" > /dev/null; then
			jq -S '(.findings[]?) |= del(.quote, .comment)' "$tmp/got" > "$tmp/have"
			rel="$rel (without quotes: ${quote_pending[${d##*/}]})"
		else
			jq -S . "$tmp/got" > "$tmp/have"
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
# folder without one would otherwise go untested.  WN_GOLDEN_UPDATE
# writes the missing ones next to their mails.
notmuch config set winnow.show_summaries true
if "$WINNOW" list --format=json > "$tmp/all" 2> "$tmp/err"; then
	while IFS= read -r id; do
		[ -n "${have_golden[$id]:-}" ] && continue
		f=${file_of[$id]:-}
		if [ -n "$f" ] && updating "$(basename "$(dirname "$f")")" &&
			"$WINNOW" show --format=json "$id" > "$tmp/got" 2> "$tmp/err"; then
			write_golden "${f%.eml}.expected.json"
			have_golden[$id]=1
		else
			echo "FAIL - mail <$id> (${f#"$WN_TOP_SRCDIR"/}) has no golden file"
			fail=$((fail + 1))
		fi
	done < <(jq -r '.[].id' "$tmp/all")
else
	echo "FAIL - winnow list with winnow.show_summaries failed: $(cat "$tmp/err")"
	fail=$((fail + 1))
fi
notmuch config set winnow.show_summaries false

# A folder without a single golden holds no review: it belongs to a
# test of its own (own_test above), or it is a mistake.
for d in "${folders[@]}"; do
	if ! compgen -G "$d/*.expected.json" > /dev/null; then
		echo "FAIL - corpus folder ${d##*/} has no golden: no mail in it is a review, and no test of its own is named"
		fail=$((fail + 1))
	fi
done
for name in "${!quote_pending[@]}"; do
	if ! jq -e -s 'map(select((.findings | length) > 0) | [.findings[] | has("quote")] | any | not) | any' \
		"$corpus_root/$name"/*.expected.json > /dev/null 2>&1; then
		echo "FAIL - every golden of $name has its quotes now: take it out of quote_pending"
		fail=$((fail + 1))
	fi
done

# Without the switch the list holds exactly the reviews and reports:
# each bot's hidden query leaves out what its parser calls a summary, a
# follow-up or its own patch, no more and no less.
if "$WINNOW" list --format=json > "$tmp/list" 2> "$tmp/err"; then
	if diff -u <(jq -r '.[] | select(.kind == "review" or .kind == "report") | .id' "$tmp/all" | LC_ALL=C sort) \
		<(jq -r '.[].id' "$tmp/list" | LC_ALL=C sort) > "$tmp/kinds"; then
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
bots=";$(notmuch config get winnow.bots 2>/dev/null | LC_ALL=C tr 'A-Z' 'a-z');"
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

# The cache of parsed reviews (index/cache.c) keeps every field a parse
# gives: over every corpus mail, list, export and stats answer the same
# without it, with it cold and with it warm.  A field added to a review
# and not to the record shows here.  So do stats' facts kept beside it
# (memory/facts.c): cold, warm, and derived again over warm parses.
# same_files OK-TEXT FAIL-TEXT A B: one check that files A and B are
# byte for byte the same.
same_files() {
	if cmp -s "$3" "$4"; then
		echo "ok - $1"
		pass=$((pass + 1))
	else
		echo "FAIL - $2"
		diff -u "$3" "$4" | head -20
		fail=$((fail + 1))
	fi
}
for cmd in "list --format=json" "export --format=json" "stats --format=json --by=bot,severity,reason"; do
	# shellcheck disable=SC2086
	WINNOW_NO_CACHE=1 "$WINNOW" $cmd > "$tmp/nocache" 2>&1
	rm -rf "${XDG_CACHE_HOME:-$HOME/.cache}/winnow"
	for run in cold warm facts-cold; do
		[ "$run" = facts-cold ] && rm -f "${XDG_CACHE_HOME:-$HOME/.cache}"/winnow/facts-*
		# shellcheck disable=SC2086
		"$WINNOW" $cmd > "$tmp/cache-$run" 2>&1
		same_files "$cmd: the same with the cache $run" \
			"$cmd: with the cache $run, not what it says without it" \
			"$tmp/nocache" "$tmp/cache-$run"
	done
done

# Copies of passed-on reviews (index/copy.c) are looked for by a query
# of the review's thread for the first reviews of a run, by one query of
# the bot's mails over the index after: both ways give the same copies.
for cmd in "list --format=json" "stats --format=json --by=bot,severity,reason"; do
	for n in 0 1000000; do
		# shellcheck disable=SC2086
		WINNOW_TEST_COPY_THREAD_QUERIES=$n WINNOW_NO_CACHE=1 "$WINNOW" $cmd > "$tmp/copies-$n" 2>&1
	done
	same_files "$cmd: the same copies by thread queries and by one query" \
		"$cmd: copies by thread queries differ from one query's" \
		"$tmp/copies-0" "$tmp/copies-1000000"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
