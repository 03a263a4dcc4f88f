# Sourced by the cache's tests (tests/integration/cache*.sh) after
# wn_world: the cache on, the counter of parsed reviews a
# --enable-test-hooks build appends to $WINNOW_TEST_CACHE_LOG, and what
# they ask of them.
export LC_ALL=C.UTF-8 XDG_CACHE_HOME=$WN_WORLD/cache WINNOW_TEST_CACHE_LOG=$WN_WORLD/cache.log
unset WINNOW_NO_CACHE
mail=$WN_WORLD/db/mail

# A file changed within the last two seconds (by mtime or ctime) is
# never cached (it could change again unseen within one tick of the
# file system's clock): the corpus is made old, as a real mailbox's is,
# and left alone for two seconds, since touch sets the ctime to now.
# Only the files not old yet: a touch changes a file's identity.
settle() {
	local old changed
	old=$(date -d '2026-01-01 00:00 UTC' +%s)
	changed=$(find "$mail" -type f -printf '%T@\t%p\n' | awk -F '\t' -v old="$old" '$1 + 0 != old { print $2 }')
	[ -z "$changed" ] || printf '%s\n' "$changed" | xargs -d '\n' touch -d '2026-01-01 00:00 UTC'
	if [ -n "$(find "$mail" -type f -newerct "@$(($(date +%s) - 1))" | head -n 1)" ]; then
		sleep 2
	fi
}

answers() {
	"$WINNOW" list --format=json && "$WINNOW" stats --format=json &&
		"$WINNOW" export --format=sarif
}
reference() { WINNOW_NO_CACHE=1 answers >"$WN_WORLD/ref" 2>&1; }
# same_answers: the three commands give the reference's bytes.
same_answers() {
	answers >"$WN_WORLD/got" 2>&1 || return 1
	cmp -s "$WN_WORLD/ref" "$WN_WORLD/got" ||
		{ diff "$WN_WORLD/ref" "$WN_WORLD/got" | head -n 20 >&2; return 1; }
}
# run_list, then logged hits|misses|written: what that `winnow list`
# said of the cache (another winnow run since appends its own line).
run_list() { : >"$WINNOW_TEST_CACHE_LOG"; "$WINNOW" list --format=json >/dev/null; }
logged() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" "$WINNOW_TEST_CACHE_LOG" | tail -n 1; }

# Skip the test (exit 77) when the build has no counter; else start
# with no cache.
need_cache_counter() {
	run_list
	if [ -z "$(logged misses)" ]; then
		echo "SKIP: winnow built without --enable-test-hooks (no cache counter)"
		exit 77
	fi
	rm -rf "$XDG_CACHE_HOME"
}

# Deliver a mail no review's linking could look for (a person's, on
# another subject, in no thread), and index it.
deliver_unrelated() {
	cat >"$mail/cur/lunch:2,S" <<'EOF_MAIL'
From: Carol Human <carol@example.org>
To: maintainer@example.org
Subject: Lunch on Friday
Date: Thu, 26 Nov 2026 09:00:00 +0000
Message-ID: <lunch-friday@example.org>

The usual place?
EOF_MAIL
	settle
	notmuch new --quiet
}
