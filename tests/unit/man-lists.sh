#!/usr/bin/env bash
# winnow(1)'s lists of bots, severities, verdicts, kinds of mail,
# attribution statuses and each command's --format values must be
# exactly what the tables say (WN_BOT_LIST, WN_SEVERITY_LIST,
# WN_VERDICT_LIST, WN_KIND_LIST, WN_ATTR_LIST, src/cli/formats.h): the
# man-lists program prints each list as the man page writes it, one block
# per list, and each block must be in doc/winnow.1 verbatim (make puts
# them there from doc/winnow.1.in's @MAN-LIST N@ lines: doc/fill-man.sh).
#   MAN=FILE MAN_LISTS=PROGRAM   check another page against another build
#                                (tests/tui/fake-entries.sh)
set -u
man=${MAN:-$WN_TOP_BUILDDIR/doc/winnow.1}
gen=${MAN_LISTS:-$WN_TOP_BUILDDIR/man-lists}
[ -x "$gen" ] || { echo "man-lists not built"; exit 99; }
pass=0 fail=0
page=$(cat "$man")
block=
check_block() {
	[ -n "$block" ] || return 0
	if [[ $page == *"$block"* ]]; then
		pass=$((pass + 1))
	else
		echo "FAIL - $man lacks, verbatim:"
		printf '%s\n' "$block"
		fail=$((fail + 1))
	fi
	block=
}
while IFS= read -r line; do
	if [ -z "$line" ]; then
		check_block
	else
		block=${block:+$block$'\n'}$line
	fi
done < <("$gen")
check_block
[ $((pass + fail)) -ge 15 ] || { echo "man-lists printed $((pass + fail)) blocks, not 15"; exit 99; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
