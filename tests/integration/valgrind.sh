#!/usr/bin/env bash
# The commands once under valgrind memcheck, which finds reads of
# uninitialised memory that ASan does not.  Needs a build without
# sanitizers: ./quickstart test makes one (a copy of the distribution,
# configured plainly) and runs this with WN_VALGRIND=1; otherwise it
# is skipped.  Each run must end with no memcheck error and no memory
# definitely lost, in winnow and in its notmuch writer child alike
# (--trace-children, a log per process).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
if [ -z "${WN_VALGRIND:-}" ]; then
	echo "skipped: set WN_VALGRIND=1 in a build without sanitizers"
	exit 77
fi
command -v valgrind > /dev/null || { echo "valgrind is not installed"; exit 99; }
supp=$WN_TOP_SRCDIR/tests/lib/valgrind.supp
# The programs fetch and the tree run (lei, notmuch, git, b4) are not
# ours to check, and python and perl under memcheck take minutes.
vg() {
	valgrind -q --trace-children=yes --trace-children-skip='*/lei,*/notmuch,*/git,*/b4,*/perl*,*/python*' \
		--leak-check=full --show-leak-kinds=definite \
		--errors-for-leak-kinds=definite --error-exitcode=99 --suppressions="$supp" \
		--log-file="$WN_WORLD/vg.%p" "$WINNOW" "$@"
}
# vg_ok NAME EXPECTED-STATUS ARGS...: run under valgrind; memcheck
# errors give 99, which no command gives itself, and are logged per
# process: the writer child's too, whose exit status winnow only reads.
vg_ok() {
	local name=$1 want=$2 rc f
	shift 2
	rm -f "$WN_WORLD"/vg.*
	vg "$@" > "$WN_WORLD/out" 2> "$WN_WORLD/err"
	rc=$?
	for f in "$WN_WORLD"/vg.*; do
		[ -s "$f" ] || continue
		sed 's/^/  | /' "$f" | head -60
		rc=99
	done
	expect_eq "$name" "$want" "$rc"
}

corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-vg.XXXXXX")
cp "$WN_TOP_SRCDIR"/tests/corpus/demo/*.eml "$WN_TOP_SRCDIR"/tests/corpus/hostile/*.eml "$corpus/"
bash "$WN_TOP_SRCDIR/tests/lib/mkhostile.sh" "$corpus"
wn_world "$corpus"
rm -rf "$corpus"
id=20261102102845.9E02AC4CEF3@smtp.kernel.org
long=$(for i in $(seq 60); do printf 'né 漢字 %03d ' "$i"; done)

vg_ok "list (text)" 0 list
vg_ok "list --format=json" 0 list --format=json
vg_ok "show --format=json" 0 show --format=json "$id"
vg_ok "mark with a long note" 0 mark --note="$long" "$id" 1 valid
vg_ok "mark all" 0 mark "$id" all pre-existing
vg_ok "severity" 0 mark --severity=high "$id" 2
vg_ok "a reason" 0 mark --reason=wrong-rule "$id" 3 fp
vg_ok "missed" 0 missed "$id" --note "leaks on the error path"
vg_ok "report" 0 report
vg_ok "report --format=svg" 0 report --format=svg --chart=trend --bot=sashiko
vg_ok "stats --by=reason" 0 stats --by=reason --format=json
vg_ok "history" 0 history --format=json
vg_ok "undo" 0 undo
vg_ok "sync-journal" 0 sync-journal
vg_ok "show of a review with an escaped id" 0 show 'ctl\x1b[31mred\x07bell@example.org'
vg_ok "show of a 500-deep MIME mail" 0 show deep-mime@example.org
vg_ok "a typo'd command" 1 lsit
vg_ok "a bad query" 1 list 'date:foo..bar'
vg_ok "a bad note" 1 mark --note=$'caf\xe9' "$id" 1 valid
# The tree: the demo's series is not in the tree, so b4 fails (or is
# missing) and the tree as it is serves.
git init -q "$WN_WORLD/linux"
git -C "$WN_WORLD/linux" -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m base
notmuch config set winnow.tree "$WN_WORLD/linux"
vg_ok "show --tree" 0 show --tree --format=json "$id"
# fetch: lei with no external finds nothing (lei missing: exit 2).
. "$WN_TOP_SRCDIR/tests/lib/lore.sh"
wn_lei_world
notmuch config set winnow.files drivers/frob/
vg_ok "fetch --init" "$(command -v lei > /dev/null && echo 0 || echo 2)" fetch --init
wn_done
