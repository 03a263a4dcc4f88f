#!/usr/bin/env bash
# Bash completion of every command, option, state,
# --by key, --format, bot and reason, made from the program's tables.
# The generated script (make's completion/winnow, and winnow-fake's,
# whose tables have one more bot and reason) is sourced here and its
# function called as bash calls it on Tab: COMP_WORDS and COMP_CWORD as
# bash splits the line ('=' a word of its own, as COMP_WORDBREAKS says),
# $2 the word readline completes.  What each list must hold is read
# from the same program's messages and --help, which print the tables.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C
script=$WN_TOP_BUILDDIR/completion/winnow
fake=$WN_TOP_BUILDDIR/tests/lib/winnow-fake
[ -r "$script" ] || { echo "$script not built"; exit 99; }

# tab CWORD WORD...: COMPREPLY, sorted, one a line, for the line WORDs
# with the cursor in word CWORD.
tab() {
	local cw=$1 cur
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$cw
	cur=${COMP_WORDS[cw]-}
	[ "$cur" = = ] && cur=
	COMPREPLY=()
	_winnow winnow "$cur" "${COMP_WORDS[cw - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
# Words, one a line, sorted.
lines() { tr ' ,' '\n\n' | sed '/^$/d' | sort -u; }

# suite PROGRAM SCRIPT: every check against PROGRAM and its completion.
suite() {
	local prog=$1 what=$2 want
	unset _winnow_opts _winnow_vals
	. "$3" || { check "$what: the script loads" false; return; }

	want=$("$prog" --help | sed -n '/^Commands:/,/^$/s/^  \([^ ]*\) .*/\1/p' | sort)
	expect_eq "$what: winnow st completes to stats" "stats" "$(tab 1 winnow st)"
	expect_eq "$what: winnow '' completes every command" "$want" "$(tab 1 winnow '')"
	expect_eq "$what: after --config FILE too" "stats" "$(tab 3 winnow --config /dev/null st)"

	want=$("$prog" stats --by=nosuch 2>&1 | sed -n "s/.*unknown key 'nosuch' (\(.*\)) (see.*/\1/p" |
		sed 's/ or /, /g' | lines)
	[ -n "$want" ] || { check "$what: stats names its keys" false; return; }
	expect_eq "$what: stats --by= completes every key" "$want" "$(tab 3 winnow stats --by =)"
	expect_eq "$what: stats --by=bot, the second key" \
		"$(sed -n 's/^/bot,/p' <<<"$want")" "$(tab 4 winnow stats --by = bot,)"
	expect_eq "$what: --by=m where '=' breaks no word" \
		"$(sed -n 's/^m/--by=m/p' <<<"$want")" "$(tab 2 winnow stats --by=m)"

	# mark --help's blocks: the states with their short words (up to
	# --severity), the reasons (up to "It is kept"), and the words of a
	# bug report the bot tracks by replies (after "tells the bot").
	help=$("$prog" mark --help)
	want=$({ sed -n '/STATE is/,/^--severity/s/^  \([a-z-]*\) (\([a-z]*\))$/\1 \2/p' <<<"$help"
		sed -n '/tells the bot/,/^duplicate wants/s/^  \([a-z-]*\) (.*)$/\1/p' <<<"$help"; } | lines)
	[ "$(wc -l <<<"$want")" -ge 8 ] || { check "$what: mark --help names the states" false; return; }
	expect_eq "$what: mark ID 1 completes every state and short word" "$want" \
		"$(tab 4 winnow mark ID 1 '')"
	expect_eq "$what: mark --note=x ID 1, options not counted" "$want" \
		"$(tab 7 winnow mark --note = x ID 1 '')"
	expect_eq "$what: nothing for mark's MESSAGE-ID" "" "$(tab 2 winnow mark '')"

	# The reasons' lines: a name and a label of words ("(already fixed)").
	want=$({ sed -n '/one of:/,/^It is kept/s/^  \([a-z-]*\) (.*)$/\1/p' <<<"$help"; echo none; } | lines)
	expect_eq "$what: mark --reason= completes every reason" "$want" "$(tab 3 winnow mark --reason =)"
	expect_eq "$what: mark --reason REASON, in the next word" "$want" "$(tab 3 winnow mark --reason '')"

	want=$("$prog" report --format=svg --bot=nosuch 2>&1 |
		sed -n "s/.*unknown bot 'nosuch' (\(.*\)) (see.*/\1/p" | sed 's/ ([^)]*)//g' | lines)
	[ -n "$want" ] || { check "$what: report names its bots" false; return; }
	expect_eq "$what: report --bot= completes every bot" "$want" "$(tab 4 winnow report --bot = '')"

	expect_eq "$what: stats --format= from the option's .arg" \
		"$("$prog" stats --help | sed -n 's/.*--format=\([a-z|]*\) .*/\1/p' | tr '|' '\n' | sort)" \
		"$(tab 3 winnow stats --format =)"
	expect_eq "$what: mark --severity= from its .arg" \
		"$("$prog" mark --help | sed -n 's/.*--severity=\([a-z|]*\) .*/\1/p' | tr '|' '\n' | sort)" \
		"$(tab 3 winnow mark --severity =)"
	expect_eq "$what: mark --re completes the option, = and all" "--reason=" "$(tab 2 winnow mark --re)"
	expect_eq "$what: a command's --help" "--help" "$(tab 2 winnow stats --h)"
	expect_eq "$what: git's first argument" "$(printf '%s\n' pull push)" "$(tab 2 winnow git pu)"
	expect_eq "$what: main's --completion=" "$(printf '%s\n' bash zsh)" "$(tab 2 winnow --completion '')"
	expect_eq "$what: no command after a query word" "" "$(tab 2 winnow from:x st)"
}

suite "$WINNOW" winnow "$script"
check "zsh's completion is made" grep -q '^#compdef winnow$' "$WN_TOP_BUILDDIR/completion/_winnow"
if command -v zsh >/dev/null; then
	check "zsh reads it (zsh -n)" zsh -n "$WN_TOP_BUILDDIR/completion/_winnow"
else
	echo "# zsh is not installed: zsh -n not run"
fi

# The fake-entry build: its bot and reason complete, with no edit.
if [ -x "$fake" ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/wn-compl.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
	"$fake" --completion=bash > "$dir/winnow"
	suite "$fake" winnow-fake "$dir/winnow"
	check "winnow-fake: report --bot=f completes fakebot" grep -qx fakebot <(tab 4 winnow report --bot = f)
	check "winnow-fake: mark --reason=f completes fakereason" \
		grep -qx fakereason <(tab 3 winnow mark --reason = f)
else
	echo "# tests/lib/winnow-fake not built: the fake entries not checked"
fi
wn_done
