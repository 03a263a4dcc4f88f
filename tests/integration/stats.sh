#!/usr/bin/env bash
# winnow stats on the demo mailbox with a known set of verdicts
# (tests/lib/stats-fixture.sh): every number below is worked out by hand
# from the fixture's table, the Wilson bounds included; the text form is
# compared whole, ASCII under LANG=C; and the counts agree with what
# notmuch itself says of the verdicts.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/stats-fixture.sh"
wn_world
export LC_ALL=C
check "fixture verdicts written" wn_stats_fixture

json=$WN_WORLD/stats.json
"$WINNOW" stats --format=json > "$json"
expect_eq "stats --format=json exits 0" 0 $?
group() { jq -c --arg k "$1" --arg v "$2" ".[] | select(.[\$k] == \$v and .total == false) | $3" "$json"; }
total() { jq -c ".[] | select(.total) | $1" "$json"; }

# Sashiko: 7 reviews (one without findings), 13 findings; false
# positives A1.1 A2.1 A2.2, valid A1.2 A3.1, pre-existing A2.3; A1.2
# forwarded.
expect_eq "sashiko counts" '[7,13,7,2,3,1,1,6]' \
	"$(group bot sashiko '[.reviews, .findings, .untriaged, .valid, ."false-positive", ."pre-existing", .forwarded, .triaged]')"
# 3 of 6: p = .5, 1 + z^2/6 = 1.64026, centre .5,
# half = 1.96 * sqrt(.041667 + .026677) / 1.64026 = .31238.
expect_eq "sashiko rate and Wilson bounds" '[0.5,0.1876,0.8124,0.1667]' \
	"$(group bot sashiko '[.false_positive_rate, .false_positive_low, .false_positive_high, .preexisting_share]')"
# Triaged: A1.1 A1.2 A2.1 A2.2 new and not pre-existing; A2.3 pre and
# pre; A3.1 pre but valid.
expect_eq "sashiko claim against verdict" '{"bot_preexisting":{"pre-existing":1,"other":1},"bot_new":{"pre-existing":0,"other":4}}' \
	"$(group bot sashiko '.agreement')"
# BPF CI 0 of 1: [0, z^2 / (1 + z^2)] = [0, .7935]; 0-day 1 of 1 mirrors it.
expect_eq "bpf-ci" '[1,2,1,1,0,0,0,0.2065]' \
	"$(group bot bpf-ci '[.reviews, .findings, .untriaged, .valid, ."false-positive", .false_positive_rate, .false_positive_low, (1 - .false_positive_high | . * 10000 | round / 10000)]')"
expect_eq "0-day" '[1,2,1,0,1,1,0.2065,1]' \
	"$(group bot lkp '[.reviews, .findings, .untriaged, .valid, ."false-positive", .false_positive_rate, .false_positive_low, .false_positive_high]')"
# 4 of 8: 1 + z^2/8 = 1.48019, half = 1.96 * sqrt(.03125 + .015006) / 1.48019 = .28479.
expect_eq "total" '[9,17,9,3,4,1,1,8,0.5,0.2152,0.7848]' \
	"$(total '[.reviews, .findings, .untriaged, .valid, ."false-positive", ."pre-existing", .forwarded, .triaged, .false_positive_rate, .false_positive_low, .false_positive_high]')"
expect_eq "groups in the bot table's order, then the total" '["sashiko","bpf-ci","lkp",null]' \
	"$(jq -c '[.[].bot]' "$json")"

# An empty group: findings but none triaged, and no findings at all.
"$WINNOW" stats --format=json --by=attribution > "$json"
expect_eq "attribution other: nothing triaged, no rate, no interval" '[2,2,2,0,null,null,null,null]' \
	"$(group attribution other '[.reviews, .findings, .untriaged, .triaged, .false_positive_rate, .false_positive_low, .false_positive_high, .preexisting_share]')"
expect_eq "attribution: none model generic other" '["none","model","generic","other",null]' "$(jq -c '[.[].attribution]' "$json")"
expect_eq "attribution generic: lkp, B3, A3" '[3,6,4,1,1]' \
	"$(group attribution generic '[.reviews, .findings, .untriaged, .valid, ."false-positive"]')"
"$WINNOW" stats --format=json id:20261104022210.5A5ADC4CEB2@smtp.kernel.org > "$json"
expect_eq "a review without findings: counted, no rate" '[1,0,0,null,null]' \
	"$(group bot sashiko '[.reviews, .findings, .triaged, .false_positive_rate, .false_positive_high]')"

# The other keys.
"$WINNOW" stats --format=json --by=severity > "$json"
expect_eq "severities, most severe first; no severity last" '["high","medium","low","warning",null,null]' \
	"$(jq -c '[.[].severity]' "$json")"
expect_eq "high: C2.1 B1.1 A3.1 A2.1" '[4,4,2,1,1]' \
	"$(group severity high '[.reviews, .findings, .untriaged, .valid, ."false-positive"]')"
expect_eq "severity: a review counts in each of its severities, the total once" '[9,17]' \
	"$(total '[.reviews, .findings]')"
"$WINNOW" stats --format=json --by=list > "$json"
expect_eq "lists from To/Cc in List-Id form" '["bpf.lists.example.org","linux-frobnic.lists.example.org","netdev.lists.example.org",null]' \
	"$(jq -c '[.[].list]' "$json")"
expect_eq "frobnic: A1 A2 A3" '[3,7,1,2,3,1]' \
	"$(group list linux-frobnic.lists.example.org '[.reviews, .findings, .untriaged, .valid, ."false-positive", ."pre-existing"]')"
"$WINNOW" stats --format=json --by=author > "$json"
expect_eq "authors by address" '["alice@example.com","bob@example.com","joerg.beispiel@example.org",null]' \
	"$(jq -c '[.[].author]' "$json")"
expect_eq "alice: four reviews" '[4,6]' "$(group author alice@example.com '[.reviews, .findings]')"
"$WINNOW" stats --format=json --by=model > "$json"
expect_eq "models by their keys, then none, then the total" '["claude-opus-4.5","claude-sonnet-4.5",null,null]' "$(jq -c '[.[].model]' "$json")"
expect_eq "the spellings beside each key" '["claude-opus-4-5","claude-sonnet-4-5",null,null]' "$(jq -c '[.[].model_spellings]' "$json")"
expect_eq "claude-opus-4.5: A1" '[1,2,1,1]' \
	"$(group model claude-opus-4.5 '[.reviews, .findings, .valid, ."false-positive"]')"
"$WINNOW" stats --format=json --by=month > "$json"
expect_eq "one month" '[["2026-11",9,17],[null,9,17]]' "$(jq -c '[.[] | [.month, .reviews, .findings]]' "$json")"
"$WINNOW" stats --format=json --by=bot,severity > "$json"
# Sashiko high: C2.1 B1.1 A3.1 A2.1; medium: B3.1 B1.2 A3.2 A2.3 A1.1;
# low: C2.2 B3.2 A2.2 A1.2.  BPF CI gives no severities.
expect_eq "two keys" '[["sashiko","high",4,4],["sashiko","medium",5,5],["sashiko","low",4,4],["bpf-ci",null,1,2],["lkp","warning",1,2]]' \
	"$(jq -c '[.[] | select(.total | not) | [.bot, .severity, .reviews, .findings]]' "$json")"

# CSV: the same records, read back by Python's csv module.
"$WINNOW" stats --format=csv > "$WN_WORLD/stats.csv"
"$WINNOW" stats --format=json > "$json"
check "CSV records are the JSON records" /usr/bin/python3 - "$WN_WORLD/stats.csv" "$json" <<'PY'
import csv, json, sys
def flat(d, pre=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flat(v, pre + k + "."))
        else:
            out[pre + k] = "" if v is None else ("true" if v is True else "false" if v is False else
                            (f"{v:.4f}" if isinstance(v, float) else str(v)))
    return out
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
want = [flat(r) for r in json.load(open(sys.argv[2]))]
sys.exit(0 if rows == want and len(rows) == 4 else 1)
PY
check "CSV lines end in CRLF" bash -c '[ "$(grep -c $'"'"'\r$'"'"' "$1")" -eq 5 ]' _ "$WN_WORLD/stats.csv"

# The text form, to paste into a mail: whole, ASCII under LANG=C.
expected=$WN_TOP_SRCDIR/tests/integration/expected/stats-bot.txt
"$WINNOW" stats > "$WN_WORLD/stats.txt"
expect_eq "text exits 0" 0 $?
if [ -n "${WN_REGEN:-}" ]; then cp "$WN_WORLD/stats.txt" "$expected"; fi
check "text as expected (tests/integration/expected/stats-bot.txt)" \
	diff -u "$expected" "$WN_WORLD/stats.txt"
check "text is ASCII under LANG=C" bash -c '! LC_ALL=C grep -q "[^[:print:]]" "$1"' _ "$WN_WORLD/stats.txt"
check "no blanks at the ends of lines" bash -c '! grep -q " $" "$1"' _ "$WN_WORLD/stats.txt"
# The legend names every verdict of the table (WN_VERDICT_LIST, as
# mark --help lists it), by its label: "false-positive" reads "false
# positive".
legend=$(grep '^verdicts: ' "$WN_WORLD/stats.txt")
legend_names() { [[ "$legend," == *" ${1//-/ },"* || "$legend," == *" $1,"* ]]; }
verdicts=$("$WINNOW" mark --help 2>&1 | sed -n '/marks it with):/,/^--severity/s/^  \([a-z-]*\) (.*/\1/p')
expect_eq "mark --help lists the four verdicts" 4 "$(wc -w <<<"$verdicts")"
for v in $verdicts; do
	check "the legend names $v" legend_names "$v"
done
check "UTF-8 locale: block bars" bash -c 'LC_ALL=C.UTF-8 "$WINNOW" stats | grep -q "^Sashiko .*█"'
LC_ALL=C "$WINNOW" stats --by=author,bot > "$WN_WORLD/stats2.txt"
check "two keys in the text" grep -qE '^joerg\.beispiel@example\.org +Sashiko +3 +7 ' "$WN_WORLD/stats2.txt"

# What notmuch says of the same verdicts.
expect_eq "false positives: stats = notmuch properties" \
	"$(notmuch dump --include=properties | grep -o 'winnow\.verdict\.[0-9a-f]*=false-positive' | wc -l)" \
	"$(total '."false-positive"')"
"$WINNOW" stats --format=json --by=bot tag:winnow/false-positive > "$json"
expect_eq "reviews with a false positive: stats = notmuch search" \
	"$(notmuch search --output=messages tag:winnow/false-positive | wc -l)" "$(total '.reviews')"

# A verdict still in the journal (the lock held) is counted too.
wn_hold_lock
"$WINNOW" mark --timeout 0.2 "$WN_FX_A3" 2 false-positive 2>/dev/null
expect_eq "mark under a held lock exits 2" 2 $?
"$WINNOW" stats --format=json > "$json" 2>/dev/null
expect_eq "journaled verdict counted" 5 "$(total '."false-positive"')"
kill "$WN_HOLDER"; wait "$WN_HOLDER" 2>/dev/null

# The command line contract.
"$WINNOW" stats --help > "$WN_WORLD/help"
expect_eq "--help exits 0" 0 $?
check "--help names the keys" grep -q 'bot (default), severity, list' "$WN_WORLD/help"
"$WINNOW" stats --by=colour 2> "$WN_WORLD/err"; expect_eq "unknown key exits 1" 1 $?
check "unknown key said" grep -q "unknown key 'colour'" "$WN_WORLD/err"
"$WINNOW" stats --by=bot,bot 2>/dev/null; expect_eq "repeated key exits 1" 1 $?
"$WINNOW" stats --format=sarif 2>/dev/null; expect_eq "unknown format exits 1" 1 $?
NOTMUCH_CONFIG=$WN_WORLD/nonexistent "$WINNOW" stats 2>/dev/null; expect_eq "no database exits 2" 2 $?
# Spellings of one model are one group: the trailers corpus
# names claude-opus-4-7 and claude-opus-4.7, claude-4.6-opus and
# claude-opus-4.6-1m (the same model with a longer context).
bash "$WN_TOP_SRCDIR/tests/lib/mkdb.sh" "$WN_TOP_SRCDIR/tests/corpus/trailers" "$WN_WORLD/trailers" >/dev/null
trailers() { NOTMUCH_CONFIG=$WN_WORLD/trailers/notmuch-config "$WINNOW" stats --by=model "$@"; }
trailers --format=json > "$json"
expect_eq "spellings grouped under one key" \
	'[["claude-opus-4.5","claude-opus-4-5",1],["claude-opus-4.6","claude-4.6-opus claude-opus-4.6-1m",2],["claude-opus-4.7","claude-opus-4-7 claude-opus-4.7",2],["claude-sonnet-4.5","claude-sonnet-4-5",1],["gemini-flash-3","Gemini-3-Flash",1],[null,null,6],[null,null,13]]' \
	"$(jq -c '[.[] | [.model, .model_spellings, .reviews]]' "$json")"
trailers > "$WN_WORLD/models.txt"
check "text: the key, then the spellings it groups" \
	grep -qE '^claude-opus-4\.6 \(claude-4\.6-opus, claude-opus-4\.6-1m\) +2 +2 ' "$WN_WORLD/models.txt"
check "text: one spelling other than the key shows too" grep -qE '^claude-opus-4\.5 \(claude-opus-4-5\) +1 ' "$WN_WORLD/models.txt"
trailers --format=csv > "$WN_WORLD/models.csv"
check "CSV: the spellings in one column" grep -q '^claude-opus-4\.7,claude-opus-4-7 claude-opus-4\.7,false,2,' "$WN_WORLD/models.csv"
wn_done
