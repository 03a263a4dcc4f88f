#!/usr/bin/env bash
# A bot is one file and one table line: HACKING's recipe
# (src/lib/bots/NAME.c, its WN_BOT_LIST line, the fragment, its corpus
# folder, its line in winnow(1)'s BOTS table) is all a new bot touches.
# So no code outside src/lib/bots/ may name one bot: not its enum
# (WN_BOT_LKP), not its name or label, not the link marker or subject
# tag its descriptor holds.  Comments may.  And winnow(1) names them all.
set -u
top=$WN_TOP_SRCDIR
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL - $*"; fail=$((fail + 1)); }

table=$(sed -n '/^#define WN_BOT_LIST/,/^$/p' "$top/include/winnow/review.h")
enums=$(sed -n 's/^[[:space:]]*X(\([A-Z0-9_]*\),.*/WN_BOT_\1/p' <<<"$table" | grep -vx WN_BOT_GENERIC)
names=$(sed -n 's/^[[:space:]]*X([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' <<<"$table")
labels=$(sed -n 's/^[[:space:]]*X([A-Z0-9_]*, *"[^"]*", *"\([^"]*\)".*/\1/p' <<<"$table")
markers=$(sed -n 's/.*\.link_marker = "\([^"]*\)".*/\1/p' "$top"/src/lib/bots/*.c)
tags=$(sed -n 's/.*subject_tags\[\] = {\(.*\)};.*/\1/p' "$top"/src/lib/bots/*.c | grep -o '"[^"]*"' | tr -d '"')
[ "$(wc -l <<<"$names")" -ge 6 ] && [ "$(wc -l <<<"$markers")" -ge 5 ] && [ -n "$tags" ] ||
	{ echo "cannot read the bot table or the descriptors"; exit 99; }

# Code outside the bots, comments left out (the table is in review.h).
code=$(cd "$top" && for f in $(find src include -name '*.[ch]' | sort); do
	case $f in src/lib/bots/*) continue ;; esac
	perl -0pe 's{/\*.*?\*/}{}gs; s{^\s*X\(.*$}{}mg; s{^#define WN_BOT_LIST.*$}{}m' "$f" |
		sed "s|^|$f: |"
done)

while read -r e; do
	hits=$(grep -w -- "$e" <<<"$code")
	[ -z "$hits" ] && ok || bad "$e used outside src/lib/bots/: $hits"
done <<<"$enums"
# Every string literal of that code, one a line, after its file name.
strings=$(grep -o '^[^:]*: \|"\([^"\\]\|\\.\)*"' <<<"$code" |
	awk '/: $/ { f = $0; next } { print f $0 }')
while IFS= read -r s; do
	# generic is also a keymap and a kind of LLM; it is the fallback bot.
	[ -n "$s" ] && [ "$s" != generic ] || continue
	# Allowed: an example of a configuration key in a command's help;
	# and the literal "Closes:", the kernel's trailer (submitting-patches)
	# that the robot's link marker happens to be, as the ledger reads it
	# in a tree's commits.
	hits=$(grep -iF -- "$s" <<<"$strings" | grep -vF "winnow.feedback.sashiko " |
	       grep -vE ': "Closes:"$' |
	       grep -iE -- "(^|[^a-z0-9-])$(sed 's/[][\.*^$()|+?{}]/\\&/g' <<<"$s")([^a-z0-9-]|\$)")
	[ -z "$hits" ] && ok || bad "'$s' typed outside src/lib/bots/: $hits"
done <<<"$(printf '%s\n' "$names" "$labels" "$markers" "$tags" | sort -u)"

# winnow(1)'s BOTS table: each id with its label.
man=$(sed -n '/^\.SH BOTS/,/^\.SH /p' "${WN_TOP_BUILDDIR:-$top}/doc/winnow.1")
paste -d'|' <(echo "$names") <(echo "$labels") | while IFS='|' read -r n l; do
	grep -qE "^$n +$l( |\$)" <<<"$man" || echo "FAIL - winnow(1)'s BOTS table has no line '$n $l'"
done > "${TMPDIR:-/tmp}/bot-recipe.$$"
if [ -s "${TMPDIR:-/tmp}/bot-recipe.$$" ]; then
	cat "${TMPDIR:-/tmp}/bot-recipe.$$"
	fail=$((fail + $(wc -l < "${TMPDIR:-/tmp}/bot-recipe.$$")))
else
	ok
fi
rm -f "${TMPDIR:-/tmp}/bot-recipe.$$"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
