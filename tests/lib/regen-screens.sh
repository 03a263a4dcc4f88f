#!/usr/bin/env bash
# regen-screens.sh [TEST...]: write the expected screens of the
# whole-screen TUI tests (default: every tests/tui test that sources
# screen.sh) from the winnow built here, then show what changed.  Read
# the diff: each change must be one the commit means.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export WN_TOP_SRCDIR=$top WN_TOP_BUILDDIR=${WN_TOP_BUILDDIR:-$top} WN_SCREENS_REGEN=1
[ $# -gt 0 ] || set -- $(grep -l 'lib/screen\.sh' "$top"/tests/tui/*.sh)
for s in "$@"; do
	echo "== $s"
	bash "$s" | grep -v '^ok - ' || true
done
git -C "$top" status --short -- tests/tui/screens
git -C "$top" diff --stat -- tests/tui/screens
