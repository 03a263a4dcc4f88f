# winnow test helpers for lei, public-inbox and b4 (winnow fetch, the
# tree), sourced after env.sh.  Nothing here reaches a network: the
# archive is a public-inbox v2 inbox in the test's world, made from
# corpus mails with public-inbox's own tools, and lei's every folder
# (config, data, cache, its daemon's socket) is inside the world too,
# so the user's lei is never read or written.

# wn_need_tools TOOL...: skip (77) when one is missing, saying which;
# but where the tools are promised (CI, ./quickstart test, which
# installs them) a missing one is a failure.
wn_need_tools() {
	local t
	for t in "$@"; do
		command -v "$t" > /dev/null && continue
		if [ -n "${CI:-}" ] || [ -n "${WN_QUICKSTART:-}" ]; then
			echo "FAIL - $t is not installed, and ./quickstart test should have installed it"
			echo "0 passed, 1 failed"
			exit 99
		fi
		echo "SKIP: $t is not installed (Debian: apt-get install public-inbox lei b4;" \
			"./quickstart test installs it)"
		exit 77
	done
}

# wn_lei_world: lei's folders inside WN_WORLD (call after wn_world),
# and its daemon stopped when the test ends.
wn_lei_world() {
	export XDG_RUNTIME_DIR=$WN_WORLD/run XDG_CONFIG_HOME=$WN_WORLD/config
	export XDG_DATA_HOME=$WN_WORLD/data XDG_CACHE_HOME=$WN_WORLD/cache
	export PI_CONFIG=$WN_WORLD/pi-config
	mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
	chmod 700 "$XDG_RUNTIME_DIR"
	trap 'lei daemon-kill > /dev/null 2>&1; wn_world_cleanup' EXIT
}

# wn_archive DIR ADDRESS: a public-inbox v2 inbox for the list ADDRESS.
wn_archive() {
	public-inbox-init -V2 test "$1" http://archive.invalid/test "$2" > /dev/null || exit 99
	# No spam filter in a test (public-inbox-mda asks spamc otherwise).
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
}

# wn_archive_add ADDRESS MAIL...: deliver mails into the inbox of
# ADDRESS as its list server would, indexed as they come.
wn_archive_add() {
	local to=$1 m
	shift
	for m in "$@"; do
		ORIGINAL_RECIPIENT=$to public-inbox-mda --no-precheck < "$m" ||
			{ echo "public-inbox-mda refused $m" >&2; exit 99; }
	done
}

# wn_kernel_tree DIR: a git repository standing for the kernel, holding
# drivers/frob/frob.c as tests/corpus/lore's series finds it (the other
# driver is not there: its patch cannot apply).  git's identity, which
# b4 wants, goes into the world's HOME.
wn_kernel_tree() {
	git config --global user.name "Test Maintainer"
	git config --global user.email maintainer@example.org
	git init -q "$1" || exit 99
	cp -r "$WN_TOP_SRCDIR/tests/corpus/lore/tree/." "$1/"
	git -C "$1" add -A && git -C "$1" commit -qm "the kernel, as the tests know it" || exit 99
}

# A patch of a series adding symbolic links out of the tree,
# and bot reviews naming files through them; nothing outside the
# worktree may be read or opened.
WN_LINK_PATCH=20260120-links-f00d@example.org
WN_LINK_REVIEW_FILE=20260120110000.1EE70001@smtp.kernel.org	# drivers/frob/evil.c, a link
WN_LINK_REVIEW_DIR=20260120110000.1EE70002@smtp.kernel.org	# drivers/evil/secret.c, under one

# wn_link_review ID FILE: a sashiko review of WN_LINK_PATCH whose one
# finding is at line 1 of FILE, on stdout.
wn_link_review() {
	cat <<MAIL
From: sashiko-bot@kernel.org
To: frob@example.org
Cc: linux-drivers@lists.example.org, maintainer@example.org
Subject: Re: [PATCH] frob: add links
Date: Tue, 20 Jan 2026 11:00:00 +0000
Message-Id: <$1>
In-Reply-To: <$WN_LINK_PATCH>
References: <$WN_LINK_PATCH>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: 8bit

Thank you for your contribution! Sashiko AI review found 1 potential issue(s) to consider:

New issues:
- [High] $2 reads what it should not.
--

--- Patch [1]: [PATCH] frob: add links ---
commit 1ee7000123456789abcdef0123456789abcdef01
Author: Frob Author <frob@example.org>

frob: add links

> diff --git a/$2 b/$2
> new file mode 100644
> --- /dev/null
> +++ b/$2
> @@ -0,0 +1 @@
> +int secret;

[Severity: High]
This line is the secret.

-- 
Sashiko AI review · https://sashiko.dev/#/patchset/$WN_LINK_PATCH
MAIL
}

# wn_link_mails OUTSIDE: the patch (its links pointing at OUTSIDE/secret.c
# and the folder OUTSIDE, made here) and both reviews, indexed.
wn_link_mails() {
	local cur=$WN_WORLD/db/mail/cur
	mkdir -p "$1"
	echo "the user's secret" > "$1/secret.c"
	cat > "$cur/links-patch:2,S" <<MAIL
From: Frob Author <frob@example.org>
To: Frob Maintainer <maintainer@example.org>
Cc: linux-drivers@lists.example.org
Subject: [PATCH] frob: add links
Date: Tue, 20 Jan 2026 09:00:00 +0100
Message-Id: <$WN_LINK_PATCH>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: 8bit

Links, to files the maintainer's editor should never open.

Signed-off-by: Frob Author <frob@example.org>
---
 drivers/evil        | 1 +
 drivers/frob/evil.c | 1 +
 2 files changed, 2 insertions(+)
 create mode 120000 drivers/evil
 create mode 120000 drivers/frob/evil.c

diff --git a/drivers/evil b/drivers/evil
new file mode 120000
index 0000000..5793c4b
--- /dev/null
+++ b/drivers/evil
@@ -0,0 +1 @@
+$1
\ No newline at end of file
diff --git a/drivers/frob/evil.c b/drivers/frob/evil.c
new file mode 120000
index 0000000..3df7cf1
--- /dev/null
+++ b/drivers/frob/evil.c
@@ -0,0 +1 @@
+$1/secret.c
\ No newline at end of file
-- 
2.39.5

MAIL
	wn_link_review "$WN_LINK_REVIEW_FILE" drivers/frob/evil.c > "$cur/links-review-1:2,S"
	wn_link_review "$WN_LINK_REVIEW_DIR" drivers/evil/secret.c > "$cur/links-review-2:2,S"
	notmuch new --quiet
}
