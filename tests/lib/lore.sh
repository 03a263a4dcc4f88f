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
