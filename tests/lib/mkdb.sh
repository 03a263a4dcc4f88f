#!/usr/bin/env bash
# mkdb.sh CORPUS_DIR OUT_DIR
#
# Build a throw-away notmuch database from the *.eml files in CORPUS_DIR.
#
#   OUT_DIR/mail/{cur,new,tmp}   maildir; every CORPUS_DIR/NAME.eml is
#                                copied to mail/cur/NAME:2,S
#   OUT_DIR/notmuch-config       config pointing at OUT_DIR/mail, with a
#                                [winnow] section whose sendmail is
#                                contrib/demo-sendmail: forwarded mail is
#                                stored in OUT_DIR/mail/outbox and indexed,
#                                never sent
#
# OUT_DIR is removed and rebuilt if it exists.  The user's own notmuch
# configuration is never read or written: NOTMUCH_CONFIG is always set
# explicitly and NOTMUCH_PROFILE is unset.
#
# On success prints "export NOTMUCH_CONFIG=OUT_DIR/notmuch-config" on
# stdout (OUT_DIR made absolute), so callers can eval the output.

set -eu

prog=${0##*/}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

[ $# -eq 2 ] || die "usage: $prog CORPUS_DIR OUT_DIR"

corpus=$1
out=$2

command -v notmuch >/dev/null 2>&1 ||
	die "notmuch not found in PATH; install notmuch to build test databases"

[ -d "$corpus" ] || die "corpus directory '$corpus' does not exist"
[ -n "$out" ] || die "empty OUT_DIR"

corpus=$(cd "$corpus" && pwd -P)

# Refuse obviously dangerous targets before rm -rf.
case $out in
/ | /. | /.. | . | .. | "${HOME:-/}" | "${HOME:-/}/")
	die "refusing to use '$out' as OUT_DIR"
	;;
esac

if [ -e "$out" ]; then
	rm -rf -- "$out" || die "cannot remove existing '$out'"
fi
mkdir -p -- "$out" || die "cannot create '$out'"
out=$(cd "$out" && pwd -P)

[ "$out" != "$corpus" ] || die "OUT_DIR must differ from CORPUS_DIR"

mkdir -p "$out/mail/cur" "$out/mail/new" "$out/mail/tmp"

n=0
for f in "$corpus"/*.eml; do
	[ -f "$f" ] || continue
	name=${f##*/}
	name=${name%.eml}
	cp -- "$f" "$out/mail/cur/$name:2,S"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no *.eml files in '$corpus'"

cfg=$out/notmuch-config
# winnow splits winnow.sendmail into words itself (no shell), so a path
# with blanks is quoted; in '...', as the config file's own escapes use
# backslashes.
word() {
	case $1 in
	*\'*) die "cannot quote a path with a single quote: $1" ;;
	*[!A-Za-z0-9_./,:+@=-]*) printf "'%s'" "$1" ;;
	*) printf '%s' "$1" ;;
	esac
}
demo_sendmail=$(cd "$(dirname "$0")/../../contrib" && pwd -P)/demo-sendmail
sendmail="$(word "$demo_sendmail") $(word "$cfg") -t -oi"
cat >"$cfg" <<EOF
[database]
path=$out/mail

[user]
name=Demo Maintainer
primary_email=maintainer@example.org

[new]
tags=unread;inbox;
ignore=

[search]
exclude_tags=

[maildir]
synchronize_flags=false

[winnow]
sendmail=$sendmail
EOF

unset NOTMUCH_PROFILE
export NOTMUCH_CONFIG="$cfg"

# notmuch new prints nothing with --quiet unless something goes wrong.
if ! log=$(notmuch new --quiet 2>&1); then
	printf '%s\n' "$log" >&2
	die "notmuch new failed for '$out'"
fi

count=$(notmuch count '*') || die "notmuch count failed for '$out'"
# Not fatal: a scenario may hold copies of one message (same Message-ID).
[ "$count" -eq "$n" ] ||
	printf '%s: warning: %s files indexed as %s messages\n' \
		"$prog" "$n" "$count" >&2

printf 'export NOTMUCH_CONFIG=%q\n' "$cfg"
