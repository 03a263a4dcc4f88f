#!/usr/bin/env bash
# The man page's key list must be exactly what the action table says:
# keys, help screen and man page are declared once (src/tui/keymap.h).
# To refresh after changing the table: ./keys-man, paste over the
# "INTERFACE KEYS" section of doc/winnow.1.
set -u
man=$WN_TOP_BUILDDIR/doc/winnow.1	# made from doc/winnow.1.in
gen=${KEYS_MAN:-$WN_TOP_BUILDDIR/keys-man}	# another build's: fake-entries.sh
[ -x "$gen" ] || { echo "keys-man not built"; exit 99; }
want=$("$gen")
got=$(sed -n '/^\.SH "INTERFACE KEYS"/,/^\.SH CONFIGURATION/p' "$man" | sed '$d')
if [ "$want" = "$got" ]; then
	echo "1 passed, 0 failed"
	exit 0
fi
echo "doc/winnow.1's key list differs from the action table:"
diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") 2>/dev/null || true
echo "0 passed, 1 failed"
exit 1
