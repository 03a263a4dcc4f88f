#!/usr/bin/env bash
# The ledger closes itself: given the maintainer's kernel
# tree (ledger --git DIR, or winnow.tree), a bug is fixed by the commit
# whose Closes:/Link: names one of its reviews or patches, or whose
# Reported-by: names the bot that reported it while its diff changes the
# bug's function.  The tree is a real git repository built here: a
# Closes: fix, a Reported-by fix, and decoys (the bot's Reported-by on
# another function, a Link: to a longer id, a Closes: older than the
# report).
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
command -v git >/dev/null || { echo "1..0 # SKIP git is not installed"; exit 77; }
wn_series_world
export TZ=UTC
check "v1 judged" wn_series_judge_v1
"$WINNOW" carry > /dev/null 2>&1
remove_review=20261102102845.9E02AC4CEF3@smtp.kernel.org
"$WINNOW" mark "$remove_review" 3 pre-existing
"$WINNOW" mark 20261102103702.17F5BC4CEE9@smtp.kernel.org all pre-existing

tree=$WN_WORLD/linux
export GIT_AUTHOR_NAME="Tree Keeper" GIT_AUTHOR_EMAIL=keeper@example.org \
	GIT_COMMITTER_NAME="Tree Keeper" GIT_COMMITTER_EMAIL=keeper@example.org \
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
g() { git -C "$tree" "$@" >/dev/null; }
# commit DATE MESSAGE: commit what changed, dated DATE.
commit() { GIT_AUTHOR_DATE=$1 GIT_COMMITTER_DATE=$1 g commit -q -a -m "$2"; g rev-parse HEAD; git -C "$tree" rev-parse HEAD; }
mkdir -p "$tree/drivers/misc/blinker" "$tree/drivers/misc/frobnic"
g init -q
cat > "$tree/drivers/misc/blinker/core.c" <<'C'
static void blinker_stop(struct blinker *bl)
{
	writel(0, bl->regs + BLINKER_CTRL);
}
C
cat > "$tree/drivers/misc/frobnic/core.c" <<'C'
static int frobnic_hw_reset(struct frobnic *fd)
{
	writel(1, fd->regs + FROBNIC_RESET);
	return 0;
}

static irqreturn_t frobnic_irq(int irq, void *data)
{
	return IRQ_HANDLED;
}
C
g add -A
commit 2026-10-01T10:00:00Z "the drivers" > /dev/null

# Older than every report: it cannot be their fix, whatever it says.
echo "/* reviewed */" >> "$tree/drivers/misc/frobnic/core.c"
commit 2026-10-15T10:00:00Z "frobnic: a comment

Closes: https://lore.kernel.org/all/$remove_review/" > /dev/null

sed -i 's/\twritel(0, bl->regs + BLINKER_CTRL);/\tspin_lock(\&bl->lock);\n\twritel(0, bl->regs + BLINKER_CTRL);\n\tspin_unlock(\&bl->lock);/' \
	"$tree/drivers/misc/blinker/core.c"
fix_closes=$(commit 2026-12-01T10:00:00Z "blinker: take bl->lock in blinker_stop()

Closes: https://lore.kernel.org/all/$v2/
Signed-off-by: Tree Keeper <keeper@example.org>" | tail -n 1)

sed -i 's/\treturn IRQ_HANDLED;/\tfrobnic_ack(data);\n\treturn IRQ_HANDLED;/' "$tree/drivers/misc/frobnic/core.c"
commit 2026-12-02T10:00:00Z "frobnic: ack the interrupt

Reported-by: Sashiko <sashiko-bot@kernel.org>
Link: https://lore.kernel.org/r/${v1patch2}.old/" > /dev/null

sed -i 's/\treturn 0;/\treturn frobnic_wait_reset(fd);/' "$tree/drivers/misc/frobnic/core.c"
fix_reported=$(commit 2026-12-03T10:00:00Z "frobnic: wait for the reset to finish

Reported-by: sashiko-bot@kernel.org" | tail -n 1)

# The bot's Reported-by on a commit naming frobnic_probe_done() and
# my_frobnic_probe(), not frobnic_probe(): names are whole words, at
# either end.
sed -i 's/\treturn frobnic_wait_reset(fd);/\treturn frobnic_wait_reset(fd);\n\t\/* frobnic_probe_done(), my_frobnic_probe() *\//' \
	"$tree/drivers/misc/frobnic/core.c"
commit 2026-12-03T12:00:00Z "frobnic: say where the probe ends

Reported-by: sashiko-bot@kernel.org" > /dev/null

# The newest commit's message is longer than the 64 KiB kept of what a
# mail program says: git's output is read whole, the fixes behind it too.
echo "/* more */" >> "$tree/drivers/misc/blinker/core.c"
commit 2026-12-04T10:00:00Z "blinker: a long story

$(for i in $(seq 2000); do echo "Link: https://lore.kernel.org/r/padding-$i@example.org/"; done)" > /dev/null

json=$WN_WORLD/ledger.json
"$WINNOW" ledger --format=json --git "$tree" > "$json" 2> "$WN_WORLD/err"
expect_eq "ledger --git exits 0" 0 $?
expect_eq "still four bugs" 4 "$(jq length "$json")"
fixed() { jq -c "[.[] | select(.function == \"$1\")][0].fixed_by" "$json"; }
expect_eq "blinker_stop: fixed by the commit whose Closes: names its v2 review" \
	"{\"commit\":\"$fix_closes\",\"subject\":\"blinker: take bl->lock in blinker_stop()\",\"how\":\"closes\"}" \
	"$(fixed blinker_stop)"
expect_eq "frobnic_hw_reset: fixed by the bot's Reported-by changing that function" \
	"{\"commit\":\"$fix_reported\",\"subject\":\"frobnic: wait for the reset to finish\",\"how\":\"reported-by\"}" \
	"$(fixed frobnic_hw_reset)"
expect_eq "frobnic_probe: the bot's Reported-by on another function (frobnic_probe_done) fixes nothing" null "$(fixed frobnic_probe)"
expect_eq "frobnic_remove: a Closes: older than the report, a Link: to a longer id: open" null \
	"$(fixed frobnic_remove)"

open=$("$WINNOW" ledger --format=json --open --git "$tree" | jq -c '[.[].function]')
expect_eq "--open: only the bugs no commit fixed" '["frobnic_probe","frobnic_remove"]' \
	"$(jq -c 'sort' <<<"$open")"

check "--open --format=mbox: the digest holds the open bugs only" bash -c \
	'm=$("$1" ledger --open --format=mbox --git "$2"); grep -q frobnic_probe <<<"$m" && ! grep -q blinker_stop <<<"$m"' \
	_ "$WINNOW" "$tree"
check "without --open the digest holds them all" bash -c \
	'"$1" ledger --format=mbox --git "$2" | grep -q blinker_stop' _ "$WINNOW" "$tree"

text=$("$WINNOW" ledger --git "$tree")
check "text: fixed by the commit, its subject and what named it" \
	grep -qF "  fixed by $fix_closes (blinker: take bl->lock in blinker_stop()), named by its closes line" <<<"$text"

notmuch config set winnow.tree "$tree"
expect_eq "winnow.tree: the same as --git" "$(jq -c '[.[].fixed_by]' "$json")" \
	"$("$WINNOW" ledger --format=json | jq -c '[.[].fixed_by]')"
notmuch config set winnow.tree ""
expect_eq "without a tree nothing is known fixed" '[null,null,null,null]' \
	"$("$WINNOW" ledger --format=json | jq -c '[.[].fixed_by]')"

"$WINNOW" ledger --open > /dev/null 2> "$WN_WORLD/err"
expect_eq "--open without a tree: a usage error" 1 $?
check "... saying what it needs" grep -q "winnow.tree" "$WN_WORLD/err"
"$WINNOW" ledger --git "$WN_WORLD/no-such-tree" > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "--git on no repository: exit 2" 2 $?
check "... saying git could not read it" grep -q "cannot read the kernel tree" "$WN_WORLD/err"
wn_done
