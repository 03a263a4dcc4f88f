#!/usr/bin/env bash
# The mail clients' bindings start 'winnow id:ID' and
# the Message-ID, the sender's text, never reaches a shell.  A fake
# winnow on PATH writes its arguments, one a line, NUL-ended, to a file:
# it must get exactly one argument "id:" and the literal id, or not be
# run at all when the id is hostile.  mutt's macro and aerc's binding are
# run as the clients run them (the command through sh, the mail on
# stdin), without a terminal.  The elisp is loaded by emacs --batch and
# its argv checked, when emacs is installed (it is not among quickstart's
# packages: that part is skipped, saying so, without it).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
export LC_ALL=C
contrib=$WN_TOP_SRCDIR/contrib
dir=$(mktemp -d "${TMPDIR:-/tmp}/wn-from-mail.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/bin"
cat > "$dir/bin/winnow" <<'FAKE'
#!/bin/sh
printf '%s\0' "$@" > "$WN_ARGV"
FAKE
chmod +x "$dir/bin/winnow"
ln -s "$contrib/winnow-from-mail" "$dir/bin/winnow-from-mail"
export PATH="$dir/bin:$PATH" WN_ARGV=$dir/argv WINNOW_TTY=/dev/null

# mail HEADER-LINES...: a mail with these header lines, CRLF-ended when
# CRLF is set.
mail() {
	local l
	printf 'From: Bot <bot@example.org>\n'
	for l in "$@"; do printf '%s%s\n' "$l" "${CRLF:-}"; done
	printf 'Subject: Re: [PATCH] x\n\nMessage-ID: <body@example.org>\n'
}
# run CMD MAIL: run CMD through sh with MAIL on stdin; prints the fake's
# arguments, each in <>, or "refused" when the fake was not run.
run() {
	rm -f "$WN_ARGV"
	printf '%s' "$2" | sh -c "$1" 2>/dev/null
	if [ -e "$WN_ARGV" ]; then
		tr '\0' '\n' < "$WN_ARGV" | sed 's/.*/<&>/'
	else
		echo refused
	fi
}
# takes CMD NAME ID HEADER...: the fake gets exactly "id:ID".
takes() { expect_eq "$2" "<id:$3>" "$(run "$1" "$(mail "${@:4}")")"; }
refuses() { expect_eq "$2" refused "$(run "$1" "$(mail "${@:3}")")"; }

# The command each client runs: the macro's <pipe-message> command and
# the binding's :pipe -m command, taken from the files users install.
mutt=$(sed -n 's/^macro index,pager W ".*<pipe-message>\([^<]*\)<enter>".*/\1/p' "$contrib/winnow.muttrc")
aerc=$(sed -n 's/^W = :pipe -m \(.*\)<Enter>$/\1/p' "$contrib/aerc-binds.conf" | sort -u)
expect_eq "mutt's macro pipes to winnow-from-mail" winnow-from-mail "$mutt"
expect_eq "aerc's bindings pipe to winnow-from-mail, in both sections" winnow-from-mail "$aerc"
check "the macro turns pipe_decode off, which drops headers" \
	grep -q '^macro index,pager W "<enter-command>unset pipe_decode<enter><pipe-message>' "$contrib/winnow.muttrc"

for client in mutt aerc; do
	cmd=${!client}
	takes "$cmd" "$client: a plain id" 'a1.b2@example.org' 'Message-ID: <a1.b2@example.org>'
	takes "$cmd" "$client: Message-Id, any case, no blank" 'x@y' 'message-id:<x@y>'
	CRLF=$'\r' takes "$cmd" "$client: CRLF line ends" 'crlf@y' 'Message-ID: <crlf@y>'
	takes "$cmd" "$client: folded onto the next line" 'fold@y' 'Message-ID:' ' <fold@y>'
	takes "$cmd" "$client: the first of two" 'first@y' 'Message-ID: <first@y>' 'Message-ID: <second@y>'
	takes "$cmd" "$client: \$(...) reaches winnow as text" '$(touch${IFS}pwned)@y' \
		'Message-ID: <$(touch${IFS}pwned)@y>'
	takes "$cmd" "$client: ; and | and & as text" 'a;touch+pwned|b&c@y' 'Message-ID: <a;touch+pwned|b&c@y>'
	takes "$cmd" "$client: a header in the body is not the mail's" 'head@y' 'Message-ID: <head@y>'
	refuses "$cmd" "$client: backticks refused" 'Message-ID: <`touch pwned`@y>'
	refuses "$cmd" "$client: a quote refused" "Message-ID: <a'b@y>"
	refuses "$cmd" "$client: a double quote refused" 'Message-ID: <a"b@y>'
	refuses "$cmd" "$client: a blank inside refused" 'Message-ID: <a b@y>'
	refuses "$cmd" "$client: a folded id (a blank once unfolded) refused" 'Message-ID: <a' ' b@y>'
	refuses "$cmd" "$client: a control character refused" $'Message-ID: <a\033[2Jb@y>'
	refuses "$cmd" "$client: a CR inside refused" $'Message-ID: <a\rb@y>'
	refuses "$cmd" "$client: a leading - refused" 'Message-ID: <--config=/tmp/x>'
	refuses "$cmd" "$client: a backslash refused" 'Message-ID: <a\b@y>'
	refuses "$cmd" "$client: no Message-ID" 'To: a@b'
	refuses "$cmd" "$client: an empty one" 'Message-ID: <>'
	refuses "$cmd" "$client: only blanks" 'Message-ID:   '
	check "$client: nothing ran the id" test ! -e pwned -a ! -e "$dir/pwned"
done
expect_eq "a refusal says why" \
	"winnow-from-mail: refusing a Message-ID with blanks, control characters, quotes or a leading '-'" \
	"$(mail 'Message-ID: <a b@y>' | winnow-from-mail 2>&1)"
check "a refusal exits 1" sh -c "mail() { printf 'Message-ID: <-x>\n\n'; }; mail | winnow-from-mail 2>/dev/null; [ \$? -eq 1 ]"
# A newline cannot be inside a header's value: a line after the header
# starts the body, so "id\n" with the rest below is the id up to it.
takes winnow-from-mail "a newline ends the value" 'nl@y' $'Message-ID: <nl@y>\n$(touch pwned)'

# notmuch-emacs: the file loads and the argv is the program and one
# argument, whatever the id holds.
if command -v emacs >/dev/null; then
	check "emacs --batch loads winnow.el and winnow-argv is one argument" \
		emacs --batch -Q -l "$contrib/winnow.el" --eval '
(progn
  (dolist (id (list "a@b" "$(touch pwned)@y" "a b;c`d`\"e'\''f"))
    (unless (equal (winnow-argv id) (list "winnow" (concat "id:" id)))
      (kill-emacs 1)))
  (unless (fboundp (quote winnow-at-point)) (kill-emacs 1)))'
else
	echo "# emacs is not installed: winnow.el's load and argv check skipped"
fi
wn_done
