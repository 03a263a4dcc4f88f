# The demo mailbox with a known set of verdicts, for the stats and
# export tests (sourced after env.sh and wn_world).  wn_stats_fixture
# gives, through `winnow mark` (and notmuch restore for the one
# forwarded finding, which only the forward flow writes):
#
#   review (bot, list, attribution)      finding severity claim  verdict
#   A1 4B7D1 (Sashiko, frobnic, model)   1  medium  new   false-positive, hostile note
#                                        2  low     new   valid, forwarded
#   A2 9E02A (Sashiko, frobnic, none)    1  high    new   false-positive
#                                        2  low     new   false-positive
#                                        3  medium  pre   pre-existing
#   A3 17F5B (Sashiko, frobnic, generic) 1  high    pre   valid
#   C1 5e1c7 (BPF CI, bpf, none)         1  -       new   valid
#   B3 Xq7Lm (0-day, netdev, generic)    1  warning new   false-positive
#
# Every other finding of the demo stays untriaged.

WN_FX_A1=20261102102030.4B7D1C4CEE5@smtp.kernel.org
WN_FX_A2=20261102102845.9E02AC4CEF3@smtp.kernel.org
WN_FX_A3=20261102103702.17F5BC4CEE9@smtp.kernel.org
WN_FX_C1=5e1c7a9f03d24b86a7f2c0e4b9d13a68@mail.kernel.org
WN_FX_B3LKP=202611041530.Xq7Lm2Pz-lkp@intel.com
# A note as hostile as a note gets: comma, quotes, CR LF, a tab, an
# escape sequence, a bell, bytes that are not UTF-8.
WN_FX_NOTE=$(printf 'seen, "fixed" in v3\r\nsee the lock\tnow \033[31mred\007 bytes:\xff\xfe end')

wn_stats_fixture() {
	local fp line
	"$WINNOW" mark "$WN_FX_A1" 1 false-positive --note "$WN_FX_NOTE" &&
	"$WINNOW" mark "$WN_FX_A1" 2 valid &&
	"$WINNOW" mark "$WN_FX_A2" 1 false-positive &&
	"$WINNOW" mark "$WN_FX_A2" 2 false-positive &&
	"$WINNOW" mark "$WN_FX_A2" 3 pre-existing &&
	"$WINNOW" mark "$WN_FX_A3" 1 valid &&
	"$WINNOW" mark "$WN_FX_C1" 1 valid &&
	"$WINNOW" mark "$WN_FX_B3LKP" 1 false-positive || return 1
	# Forwarded: the property the forward flow writes, added to the
	# review's others through notmuch restore.
	fp=$("$WINNOW" show --format=json "$WN_FX_A1" | jq -r '.findings[1].fingerprint')
	line=$(notmuch dump --include=properties "id:$WN_FX_A1" | grep '^#=')
	printf '%s winnow.forwarded.%s=2026-11-05T10%%3a00%%3a00Z%%20%%3cfwd%%40example.org%%3e\n' \
		"$line" "$fp" | notmuch restore --include=properties
}
