#!/usr/bin/env bash
# screen-regen.sh TEST...: run whole-screen TUI tests (tests/tui/*.sh
# that use screen.sh) writing every expected screen anew, then show what
# changed.  Review the diff before committing it.
#
#   tests/lib/screen-regen.sh tests/tui/stats.sh
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export WN_TOP_SRCDIR=${WN_TOP_SRCDIR:-$top} WN_SCREEN_UPDATE=1
[ $# -gt 0 ] || { echo "usage: $0 TEST..." >&2; exit 2; }
for t in "$@"; do
	bash "$t" >/dev/null || echo "$t: failed while writing its screens" >&2
done
git -C "$top" status --short -- tests/tui/screens
git -C "$top" diff --stat -- tests/tui/screens
