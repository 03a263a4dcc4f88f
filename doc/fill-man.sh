#!/bin/sh
# fill-man.sh TEMPLATE MAN_LISTS KEYS_MAN: print winnow(1) from its
# template, each "@MAN-LIST N@" line replaced by block N of MAN_LISTS's
# output (blocks are separated by an empty line) and the "@KEYS@" line
# by KEYS_MAN's output.  Fails, printing nothing useful, when a marker
# names a block the program did not print or a block has no marker:
# the page and the tables must never drift apart silently.
set -eu
tmpl=$1 lists=$2 keys=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/fill-man.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$lists" > "$dir/lists"
"$keys" > "$dir/keys"
LC_ALL=C awk -v lists="$dir/lists" -v keys="$dir/keys" '
BEGIN {
	n = 1
	while ((getline line < lists) > 0) {
		if (line == "") { if (block[n] != "") n++; continue }
		block[n] = block[n] (block[n] == "" ? "" : "\n") line
	}
	if (block[n] == "") n--
	nblocks = n
	while ((getline line < keys) > 0)
		k = k (k == "" ? "" : "\n") line
}
# The opening comment of the template is about the template.
!body && /^\.\\"/ { next }
!body { print ".\\\" Made from doc/winnow.1.in by doc/fill-man.sh: edit that, not this."; body = 1 }
/^@MAN-LIST [0-9]+@$/ {
	i = substr($2, 1, length($2) - 1) + 0
	if (!(i in block) || i < 1 || i > nblocks) { print "fill-man: no block " i > "/dev/stderr"; bad = 1; exit 1 }
	print block[i]; used[i] = 1; next
}
/^@KEYS@$/ { print k; keysused = 1; next }
{ print }
END {
	if (bad) exit 1
	for (i = 1; i <= nblocks; i++)
		if (!(i in used)) { print "fill-man: block " i " has no @MAN-LIST " i "@ line" > "/dev/stderr"; exit 1 }
	if (!keysused) { print "fill-man: no @KEYS@ line" > "/dev/stderr"; exit 1 }
}' "$tmpl"
