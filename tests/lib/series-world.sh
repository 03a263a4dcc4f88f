# The series fixture (tests/corpus/series) beside the demo mailbox, in
# one database, for the tests of verdict memory; sourced after env.sh.
#
#   wn_series_world   build it (wn_world), and set the ids below
#
# The fixture: three versions of "blinker: teardown fixes", the Sashiko
# reviews of patch 2/5 of each and of v2's 4/5.  On v1 2/5:
#   #1 High    bl->buf read after free (in blinker_remove); v2 changes
#              blinker_remove and no longer reports it: fixed in v2
#   #2 Medium  blinker_irq() writes without the lock; patch 4/5 changes
#              blinker_irq() too (in v1 and v2); gone in v3
#   #3 Medium  the timer rearms during del_timer_sync(); reworded on v2,
#              v2's wording again on v3
#   #4 Low     pre-existing BLINKER_CTRL race; reworded on v2 ("v2,
#              line 212"), reworded with "v3" on v3
# v2 2/5 #1 is another problem in blinker_remove; v2 4/5 #1 has v1 #3's
# exact text in another file (timer.c); v3 2/5 #2 is new.

wn_series_world() {
	local all
	all=$(mktemp -d "${TMPDIR:-/tmp}/winnow-series.XXXXXX") || exit 99
	cp "$WN_TOP_SRCDIR"/tests/corpus/demo/*.eml "$all/"
	for f in "$WN_TOP_SRCDIR"/tests/corpus/series/*.eml; do
		cp "$f" "$all/series-${f##*/}"
	done
	wn_world "$all"
	rm -rf "$all"
	v1=20261110101500.B1A2C3D4E5F@smtp.kernel.org
	v2=20261117101500.B2A3C4D5E6F@smtp.kernel.org
	v2p4=20261117102000.B4A5C6D7E8F@smtp.kernel.org
	v3=20261124101500.B3A4C5D6E7F@smtp.kernel.org
	v1patch2=20261110-blinker-teardown-v1-2-9a8b7c6d5e4f@example.net
	v2patch2=20261117-blinker-teardown-v2-2-9a8b7c6d5e4f@example.net
	v2patch4=20261117-blinker-teardown-v2-4-9a8b7c6d5e4f@example.net
	export v1 v2 v2p4 v3 v1patch2 v2patch2 v2patch4
}

# verdicts ID: the findings' verdicts as a JSON array.
wn_verdicts() { "$WINNOW" show --format=json "$1" | jq -c '[.findings[].verdict]'; }
# wn_notes ID: the findings' notes.
wn_notes() { "$WINNOW" show --format=json "$1" | jq -c '[.findings[].note]'; }

# The maintainer's verdicts on v1 2/5.
wn_series_judge_v1() {
	"$WINNOW" mark "$v1" 3 false-positive --note "blinker_timer_fn() checks bl->stopping first" &&
	"$WINNOW" mark "$v1" 1 valid &&
	"$WINNOW" mark "$v1" 4 pre-existing --note "needs bl->lock in blinker_stop()"
}
