#!/usr/bin/env bash
# A forward carries the whole finding: every place the bot discusses it
# at, each with its code before its words (a Sashiko finding of two
# blocks), and a build finding's compiler notes with the report's
# config, compiler and reproduce lines; in the full forward and in the
# verdict reply alike.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world "$WN_TOP_SRCDIR/tests/corpus/sashiko-unit"
export TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=sites
two=20260110031219.6F7A8B9CE04@smtp.kernel.org
out=$WN_WORLD/out.eml

"$WINNOW" mark "$two" 1 valid >/dev/null
# line NEEDLE: the first line of out holding NEEDLE (0 when none).
line() { grep -nF -- "$1" "$out" | head -n 1 | cut -d: -f1; }
# in_order A B C D: each needle is there, each after the one before.
in_order() {
	local last=0 n
	for s in "$@"; do
		n=$(line "$s"); n=${n:-0}
		[ "$n" -gt "$last" ] || { echo "'$s' at line $n, not after line $last" >&2; return 1; }
		last=$n
	done
}
for kind in --full ""; do
	"$WINNOW" forward $kind --dry-run "$two" > "$out" 2>"$WN_WORLD/err"
	expect_eq "forward ${kind:-(verdict reply)}: exit 0" 0 $?
	check "${kind:-reply}: the first place's code, its words, the second place's code, its words" \
		in_order "kvm_para_has_feature(KVM_FEATURE_M" "This isn't a bug introduced by this patc" \
		"kvm_register_steal_time();" "Nothing re-enables MSR_KVM_MIGRATION_CON"
done

# 0-day: the note under the diagnostic and the report's lines.
bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$WN_TOP_SRCDIR/tests/corpus/lkp-macro-site" "$WN_WORLD/lkp" >/dev/null
export NOTMUCH_CONFIG=$WN_WORLD/lkp/notmuch-config
lkp=202611190444.Pc7xWn2K-lkp@intel.com
"$WINNOW" mark "$lkp" 2 valid >/dev/null
"$WINNOW" forward --full --dry-run "$lkp" > "$out" 2>"$WN_WORLD/err"
expect_eq "the robot's finding forwarded: exit 0" 0 $?
check "the compiler's note under its diagnostic" grep -qF "note: in expansion of macro 'BIT'" "$out"
check "the report's compiler line" grep -q '^compiler: ' "$out"
check "the report's config line" grep -q '^config: ' "$out"
check "the notes come before the report's lines" in_order "note: in expansion of macro 'BIT'" "compiler: "
wn_done
