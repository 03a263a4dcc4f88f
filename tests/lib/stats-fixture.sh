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
# escape sequence, a bell, and bytes that are not UTF-8.  `winnow mark`
# refuses those bytes, so they arrive the way another program sharing
# the properties could write them: through notmuch restore.
WN_FX_NOTE=$(printf 'seen, "fixed" in v3\r\nsee the lock\tnow \033[31mred\007 bytes:\xff\xfe end')

wn_stats_fixture() {
	local fp1 fp2 line
	"$WINNOW" mark "$WN_FX_A1" 1 false-positive --note "${WN_FX_NOTE%% bytes:*}" &&
	"$WINNOW" mark "$WN_FX_A1" 2 valid &&
	"$WINNOW" mark "$WN_FX_A2" 1 false-positive &&
	"$WINNOW" mark "$WN_FX_A2" 2 false-positive &&
	"$WINNOW" mark "$WN_FX_A2" 3 pre-existing &&
	"$WINNOW" mark "$WN_FX_A3" 1 valid &&
	"$WINNOW" mark "$WN_FX_C1" 1 valid &&
	"$WINNOW" mark "$WN_FX_B3LKP" 1 false-positive || return 1
	# The whole note, and the forwarded record the forward flow writes,
	# laid over the review's other properties through notmuch restore.
	fp1=$("$WINNOW" show --format=json "$WN_FX_A1" | jq -r '.findings[0].fingerprint')
	fp2=$("$WINNOW" show --format=json "$WN_FX_A1" | jq -r '.findings[1].fingerprint')
	line=$(notmuch dump --include=properties "id:$WN_FX_A1" | grep '^#=' | tr ' ' '\n' |
		grep -v '^winnow\.note\.' | tr '\n' ' ')
	printf '%s winnow.note.%s=%s winnow.forwarded.%s=%s\n' "$line" \
		"$fp1" "$(wn_fx_encode "$WN_FX_NOTE")" "$fp2" "$(wn_fx_encode '2026-11-05T10:00:00Z <fwd@example.org>')" |
		notmuch restore --include=properties
}

# notmuch dump's encoding of a property value: %xx but for [A-Za-z0-9._-].
wn_fx_encode() {
	printf '%s' "$1" | od -An -v -tx1 | tr -s ' \n' '\n\n' | grep . |
		while read -r h; do
			case $h in
			3[0-9] | 4[1-9a-f] | 5[0-9a] | 6[1-9a-f] | 7[0-9a] | 2d | 2e | 5f) printf "\\x$h" ;;
			*) printf '%%%s' "$h" ;;
			esac
		done
}
