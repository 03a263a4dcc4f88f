#!/usr/bin/env bash
# winnow fetch end to end, with no network: a public-inbox v2 archive
# made from tests/corpus/lore (a frob series touching drivers/frob/ and
# the bots' reviews of it, a patch of another driver with its review, a
# question, and a frob patch older than the window) is lei's only
# external.  fetch --init with winnow.files=drivers/frob/ brings exactly
# the frob series' thread into the database and winnow list shows its
# review; a review delivered later arrives with winnow fetch; a second
# fetch adds nothing; on a terminal it shows what runs; lei's errors
# are lei's words, one line, exit 2.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/lore.sh"
wn_need_tools lei public-inbox-init public-inbox-mda
# The database starts with unrelated reviews, which must stay as they are.
wn_world "$WN_TOP_SRCDIR/tests/corpus/sashiko-unit"
wn_lei_world
export TZ=UTC
corpus=$WN_TOP_SRCDIR/tests/corpus/lore
list=linux-drivers@lists.example.org
db=$WN_WORLD/db/mail
nm() { notmuch "$@"; }
run() { "$WINNOW" "$@" > "$WN_WORLD/out" 2> "$WN_WORLD/err"; }
ids() { nm search --output=messages "$1" | sed 's/^id://' | sort | tr '\n' ' '; }

wn_archive "$WN_WORLD/archive" "$list"
wn_archive_add "$list" "$corpus"/0[1-4]-*.eml "$corpus"/0[78]-*.eml
lei add-external "$WN_WORLD/archive" > "$WN_WORLD/lei.log" 2>&1 || { cat "$WN_WORLD/lei.log"; exit 99; }
reviews_before=$("$WINNOW" list | wc -l)

run fetch --init; expect_eq "nothing to fetch: a configuration error" 2 $?
check "... saying which keys" grep -qF "set winnow.files or winnow.sections" "$WN_WORLD/err"
nm config set winnow.files 'drivers/frob/ OR *'
run fetch --init; expect_eq "a pattern that would change the query is refused" 2 $?
check "... naming it" grep -qF "the file pattern 'drivers/frob/ OR *' holds ' '" "$WN_WORLD/err"
check "... before lei ran: no folder" test ! -e "$db/lore"

nm config set winnow.files 'drivers/frob/'
nm config set winnow.fetch_since 2025-12-01
run fetch; expect_eq "fetch before --init is the user's mistake" 1 $?
check "... and says to run --init" grep -qF "run 'winnow fetch --init' first" "$WN_WORLD/err"
run fetch --init; expect_eq "fetch --init" 0 $?
expect_eq "it prints the lei command it runs" \
	"lei q --threads --dedupe=mid --augment -o maildir:$db/lore '(dfn:drivers/frob/ OR b:drivers/frob/) AND rt:2025-12-01..'" \
	"$(head -n 1 "$WN_WORLD/out")"
expect_eq "... and what came" "4 new messages, 1 new review" "$(tail -n 1 "$WN_WORLD/out")"
check "no progress off a terminal" test ! -s "$WN_WORLD/err"
expect_eq "exactly the frob series' thread is in the lore folder" \
	"20260112-frob-v1-0-f00d@example.org 20260112-frob-v1-1-f00d@example.org 20260112-frob-v1-2-f00d@example.org 20260112112000.F00D0001@smtp.kernel.org " \
	"$(ids folder:lore)"
expect_eq "nothing else came: not the question, not the old patch" \
	"" "$(ids 'folder:lore and (datasheet OR subject:"old change")')"
expect_eq "winnow list shows the frob review, and the reviews it had" \
	"$((reviews_before + 1))" "$("$WINNOW" list | wc -l)"
check "... the frob review among them" bash -c "'$WINNOW' list | grep -qF 'id:20260112112000.F00D0001@smtp.kernel.org'"
check "lei saved the search" bash -c "lei ls-search | grep -qxF '$db/lore'"

# The bot answers patch 1 after the fetch; another driver's patch and
# its review come too.
wn_archive_add "$list" "$corpus"/09-sashiko-frob-1.eml "$corpus"/0[56]-*.eml
run fetch --format=json; expect_eq "fetch refreshes the search" 0 $?
expect_eq "... bringing the new review alone" '[1,1]' "$(jq -c '[.messages, .reviews]' "$WN_WORLD/out")"
expect_eq "... with lei up as its command" "[\"lei\",\"up\",\"$db/lore\"]" \
	"$(jq -c '.commands[0].argv' "$WN_WORLD/out")"
check "... now listed" bash -c "'$WINNOW' list | grep -qF 'id:20260112134000.F00D0002@smtp.kernel.org'"
expect_eq "... and not the other driver's" "" "$(ids 'folder:lore and other')"
run fetch; expect_eq "a second fetch" 0 $?
expect_eq "... adds nothing" "0 new messages, 0 new reviews" "$(cat "$WN_WORLD/out")"
expect_eq "the lore folder holds each message once" 5 "$(find "$db/lore" -type f | wc -l)"
# On a terminal, what runs is shown on the way (stderr), lei's own
# progress lines among it.
wn_tui_start fetch
check "on a terminal: lei up, said" wn_tui_wait "winnow: running lei up"
check "... lei's progress" wn_tui_wait "written to $db/lore"
check "... notmuch new, said" wn_tui_wait "winnow: indexing: notmuch new"
check "... then the summary" wn_tui_wait "0 new messages, 0 new reviews"
check "... exit 0" wn_tui_wait "WINNOW-EXIT=0"
run fetch --init; expect_eq "--init again (the same search)" 0 $?
expect_eq "... clobbers nothing and duplicates nothing" "0 new messages, 0 new reviews|5" \
	"$(tail -n 1 "$WN_WORLD/out")|$(find "$db/lore" -type f | wc -l)"

# lei's own complaint, as lei says it, on one line; exit 2.
: > "$db/afile"
nm config set winnow.fetch_folder afile
run fetch --init; expect_eq "lei failing is the environment's failure" 2 $?
expect_eq "... told as lei tells it, on one line" \
	"winnow: lei: $db/afile exists and is not a directory" "$(cat "$WN_WORLD/err")"
nm config set winnow.fetch_folder ../outside
run fetch --init; expect_eq "a folder outside the database is refused" 2 $?
check "... before lei runs" test ! -e "$WN_WORLD/db/outside"
# Strictly one folder's name, and strictly one of lei's dates.
nm config set winnow.fetch_folder cur
run fetch --init; expect_eq "a maildir's own folder is refused" 2 $?
check "... saying so" grep -qF "winnow.fetch_folder must not be 'cur'" "$WN_WORLD/err"
nm config set winnow.fetch_folder lore
nm config set winnow.fetch_since 2025-12-01..2026-01-01
run fetch --init; expect_eq "a range for winnow.fetch_since is refused" 2 $?
check "... saying so" grep -qF "winnow.fetch_since '2025-12-01..2026-01-01' is not a date lei takes" "$WN_WORLD/err"
nm config set winnow.fetch_since 2025-12-01

# MAINTAINERS sections, from winnow.tree: F: in, X: drops what it covers.
tree=$WN_WORLD/linux
mkdir -p "$tree"
printf '%s\n' "THE REST" "M:	Someone <someone@example.org>" "F:	*" "" \
	"FROB DRIVER" "M:	Frob Maintainer <maintainer@example.org>" "F:	drivers/frob/" \
	"F:	include/linux/frob*.h" "X:	include/linux/" "" \
	"OTHER DRIVER" "F:	drivers/other/" > "$tree/MAINTAINERS"
nm config set winnow.fetch_folder lore2
nm config set winnow.files ''
nm config set winnow.sections 'frob driver'
run fetch --init; expect_eq "sections without winnow.tree" 2 $?
check "... say they need it" grep -qF "winnow.sections needs winnow.tree" "$WN_WORLD/err"
nm config set winnow.tree "$tree"
run fetch --init; expect_eq "fetch --init by MAINTAINERS section" 0 $?
expect_eq "... asks for its F: files, less what X: covers" \
	"'(dfn:drivers/frob/ OR b:drivers/frob/) AND rt:2025-12-01..'" "$(head -n 1 "$WN_WORLD/out" | sed 's/.*augment -o [^ ]* //')"
nm config set winnow.sections 'FROB DRIVER;NO SUCH'
run fetch --init; expect_eq "a section MAINTAINERS lacks" 2 $?
check "... is named" grep -qF "MAINTAINERS has no section 'NO SUCH'" "$WN_WORLD/err"

# A lei that never ends is stopped after winnow.tool_timeout.
mkdir -p "$WN_WORLD/bin"
printf '#!/bin/sh\nexec sleep 600\n' > "$WN_WORLD/bin/lei"
chmod +x "$WN_WORLD/bin/lei"
nm config set winnow.sections "FROB DRIVER"
nm config set winnow.tool_timeout 1
PATH=$WN_WORLD/bin:$PATH run fetch; expect_eq "a lei that hangs: exit 2" 2 $?
expect_eq "... stopped after winnow.tool_timeout, saying so" \
	"winnow: 'lei' did not finish in 1 s (winnow.tool_timeout) and was stopped" "$(cat "$WN_WORLD/err")"
nm config set winnow.tool_timeout ''

run fetch --init extra; expect_eq "fetch takes no arguments" 1 $?
run fetch --help; expect_eq "--help" 0 $?
check "... says what it does" grep -qF "lei up refreshes it" "$WN_WORLD/out"
wn_done
