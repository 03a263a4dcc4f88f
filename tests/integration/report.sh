#!/usr/bin/env bash
# winnow report on the demo mailbox with the known verdicts of
# tests/lib/stats-fixture.sh, a reason and a missed bug: the
# page is self-contained (no script, nothing fetched), every bot's
# numbers in the DOM are those of `winnow stats --format=json`, text from
# the query is escaped, the tables are beside the charts, it prints;
# --format=svg gives each chart as a well-formed SVG file and
# --format=json the very records of stats; mistakes exit 1, no database 2.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/stats-fixture.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC
check "fixture verdicts written" wn_stats_fixture
"$WINNOW" mark --reason=wrong-rule "$WN_FX_A2" 1 fp
"$WINNOW" missed "$WN_FX_A2" --note "leaks fd on the error path" > /dev/null
html=$WN_WORLD/r.html
"$WINNOW" report > "$html"; expect_eq "report exits 0" 0 $?
"$WINNOW" stats --format=json > "$WN_WORLD/stats.json"

check "self-contained: no script, nothing to fetch" bash -c \
	'! grep -Eiq "<script|<link|<img|<iframe|src=|href=|url\(|@import" "$1"' _ "$html"
check "printable: a print style" grep -q "@media print" "$html"
check "the query and the dates on top" grep -q '<time class="first">2026-11-02</time> to <time class="last">2026-11-04</time>' "$html"

# Every bot's numbers, read back from the page's sections by a parser,
# equal stats --format=json's.
check "each bot's section holds the numbers of stats --format=json" \
	/usr/bin/python3 - "$html" "$WN_WORLD/stats.json" <<'PY'
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.bots = {}; self.tables = 0; self.svgs = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("class") == "bot":
            self.bots[a["data-bot"]] = a
        self.tables += tag == "table"; self.svgs += tag == "svg"
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
stats = [r for r in json.load(open(sys.argv[2])) if not r["total"]]
ok = sorted(p.bots) == sorted(r["bot"] for r in stats)
for r in stats:
    b = p.bots.get(r["bot"], {})
    for key, attr in (("findings", "data-findings"), ("triaged", "data-triaged"),
                      ("false-positive", "data-false-positives"), ("missed", "data-missed"),
                      ("reviews", "data-reviews")):
        ok = ok and int(b.get(attr, -1)) == r[key]
    for key, attr in (("false_positive_rate", "data-fp-rate"), ("false_positive_low", "data-fp-low"),
                      ("false_positive_high", "data-fp-high")):
        ok = ok and float(b.get(attr, "nan")) == r[key]
    if not ok:
        print(r["bot"], b, file=sys.stderr)
# A table beside every chart, for a terminal browser.
ok = ok and p.svgs > 0 and p.tables >= p.svgs
sys.exit(0 if ok else 1)
PY
expect_eq "the missed bug counts for Sashiko" 'data-missed="1"' \
	"$(grep -o '<section class="bot" id="bot-sashiko"[^>]*' "$html" | grep -o 'data-missed="[0-9]*"')"
check "the reason is in Sashiko's reason table" grep -q '<tr><td>wrong-rule</td><td>1</td></tr>' "$html"
check "the missed bug is listed with its note, in Sashiko's section" bash -c \
	'sed -n "/<section class=\"bot\" id=\"bot-sashiko\"/,/<\/section>/p" "$1" | grep -q "<td>leaks fd on the error path</td>"' _ "$html"
check "and in no other bot's" bash -c \
	'[ "$(grep -c "leaks fd on the error path" "$1")" -eq 1 ]' _ "$html"

# Hostile text: the query is the one thing here from outside.
"$WINNOW" report -- 'not subject:"<script>alert(1)</script>&x"' > "$WN_WORLD/q.html"
expect_eq "a query with markup exits 0" 0 $?
check "it is escaped" grep -qF '<code>not subject:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&amp;x&quot;</code>' "$WN_WORLD/q.html"
check "never raw" bash -c '! grep -q "<script>" "$1"' _ "$WN_WORLD/q.html"

# The records: stats --format=json's own, by bot, month and severity.
"$WINNOW" report --format=json > "$WN_WORLD/r.json"; expect_eq "--format=json exits 0" 0 $?
expect_eq "the records list the miss with its note" \
	"[\"sashiko\",\"$WN_FX_A2\",\"leaks fd on the error path\"]" \
	"$(jq -c '.missed[] | [.bot, .review, .note]' "$WN_WORLD/r.json")"
expect_eq "the bots' records are stats --format=json" "$(jq -c . "$WN_WORLD/stats.json")" "$(jq -c .bots "$WN_WORLD/r.json")"
expect_eq "... by month: stats --by=bot,month" "$("$WINNOW" stats --by=bot,month --format=json | jq -c .)" \
	"$(jq -c .months "$WN_WORLD/r.json")"
expect_eq "the dates" '["2026-11-02","2026-11-04"]' "$(jq -c '[.first, .last]' "$WN_WORLD/r.json")"

# One chart at a time, each a well-formed SVG file of its own.
for chart in rates errors "trend --bot=sashiko" "reasons --bot=sashiko" "severity --bot=lkp"; do
	# shellcheck disable=SC2086
	"$WINNOW" report --format=svg --chart=$chart > "$WN_WORLD/c.svg"
	expect_eq "--chart=$chart exits 0" 0 $?
	check "--chart=$chart is well-formed SVG" /usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag == "{http://www.w3.org/2000/svg}svg" else 1)' "$WN_WORLD/c.svg"
done
"$WINNOW" report --format=svg > "$WN_WORLD/c.svg"
check "the rates chart: bars as long as the rates (Sashiko 50%, lkp 100%)" /usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
r = ET.parse(sys.argv[1]).getroot()
w = {g.get("data-label"): float(g.find("s:rect", ns).get("width")) for g in r.iterfind("s:g", ns)}
sys.exit(0 if abs(w["0-day"] - 2 * w["Sashiko"]) < 0.01 and w["BPF CI"] == 0 else 1)' "$WN_WORLD/c.svg"

"$WINNOW" report --format=pdf 2> /dev/null; expect_eq "an unknown format exits 1" 1 $?
"$WINNOW" report --format=svg --chart=pie 2> /dev/null; expect_eq "an unknown chart exits 1" 1 $?
"$WINNOW" report --format=svg --chart=trend 2> "$WN_WORLD/err"; expect_eq "a one-bot chart without --bot exits 1" 1 $?
check "and says so" grep -q "wants --bot=NAME" "$WN_WORLD/err"
"$WINNOW" report --chart=rates 2> /dev/null; expect_eq "--chart without --format=svg exits 1" 1 $?
"$WINNOW" report --format=svg --chart=trend --bot=nosuch 2> "$WN_WORLD/err"; expect_eq "an unknown bot exits 1" 1 $?
check "it lists the names --bot takes, labels too" grep -q "unknown bot 'nosuch' (sashiko, .*lkp (0-day)" "$WN_WORLD/err"

# --bot takes what a query's bot: takes: the id or
# the label, any case, through the one lookup; the chart is the same.
"$WINNOW" report --format=svg --chart=severity --bot=lkp > "$WN_WORLD/lkp.svg"
for name in 0-day 0-DAY LKP; do
	"$WINNOW" report --format=svg --chart=severity --bot=$name > "$WN_WORLD/named.svg" 2> "$WN_WORLD/err"
	expect_eq "--bot=$name exits 0" 0 $?
	check "--bot=$name draws lkp's chart" cmp -s "$WN_WORLD/lkp.svg" "$WN_WORLD/named.svg"
done
# Every name and label the error lists, in any case: taken by bot: in a
# query and by --bot alike.
"$WINNOW" report --format=svg --chart=trend --bot=nosuch 2> "$WN_WORLD/err"
names=$(sed -n "s/.*unknown bot 'nosuch' (\(.*\)) (see.*/\1/p" "$WN_WORLD/err" | sed 's/ (/, /g; s/)//g')
check "the error lists lkp and 0-day" bash -c 'grep -q "lkp, 0-day" <<< "$1"' _ "$names"
IFS=, read -r -a listed <<< "$names"
for name in "${listed[@]}"; do
	name=${name# }
	for spelt in "$name" "${name^^}"; do
		case $spelt in *" "*) ;; *)	# a query term holds no blank
			"$WINNOW" list "bot:$spelt" > /dev/null 2>&1
			expect_eq "bot:$spelt in a query exits 0" 0 $? ;;
		esac
		"$WINNOW" report --format=svg --chart=trend --bot="$spelt" > /dev/null 2> "$WN_WORLD/err"
		expect_eq "--bot='$spelt' exits 0" 0 $?
	done
done
NOTMUCH_CONFIG=$WN_WORLD/nonexistent "$WINNOW" report > /dev/null 2>&1; expect_eq "no database exits 2" 2 $?
check "--help" bash -c '"$0" report --help | grep -q "^Usage: winnow report"' "$WINNOW"
wn_done
