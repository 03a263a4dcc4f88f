#!/usr/bin/env bash
# winnow report in a real browser: Debian's chromium renders
# the page headless.  The rendered DOM holds every bot's rate and
# interval equal to `winnow stats --format=json`; screenshots at 1280 and
# 390 pixels wide show the rate bars as long as the rates say (measured
# in pixels, not fonts) and nothing overflowing into the page's right
# margin.  Needs chromium and python3-pil (./quickstart test installs
# them); without them the test is skipped, saying so.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/stats-fixture.sh"
browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ] || ! /usr/bin/python3 -c 'import PIL' 2>/dev/null; then
	echo "SKIP - needs chromium and python3-pil"
	exit 77
fi
wn_world
export LC_ALL=C.UTF-8 TZ=UTC
check "fixture verdicts written" wn_stats_fixture
"$WINNOW" missed "$WN_FX_A2" --note "leaks fd on the error path" > /dev/null
html=$WN_WORLD/report.html
"$WINNOW" report > "$html"; expect_eq "report exits 0" 0 $?
"$WINNOW" stats --format=json > "$WN_WORLD/stats.json"

# As root (CI), chromium needs --no-sandbox; a profile of its own, no
# scrollbars (they are no overflow), and nothing from the network.
chrome() {
	"$browser" --headless=new --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
		--user-data-dir="$WN_WORLD/chromium" --host-resolver-rules='MAP * ~NOTFOUND' \
		"$@" "file://$html" 2>> "$WN_WORLD/chromium.log"
}

chrome --dump-dom > "$WN_WORLD/dom.html"; expect_eq "chromium renders the page" 0 $?
check "the rendered DOM: each bot's rate and interval equal stats --format=json" \
	/usr/bin/python3 - "$WN_WORLD/dom.html" "$WN_WORLD/stats.json" <<'PY'
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.bots = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("class") == "bot":
            self.bots[a["data-bot"]] = a
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
stats = [r for r in json.load(open(sys.argv[2])) if not r["total"]]
ok = len(stats) == 3 and sorted(p.bots) == sorted(r["bot"] for r in stats)
for r in stats:
    b = p.bots.get(r["bot"], {})
    for key, attr in (("false_positive_rate", "data-fp-rate"), ("false_positive_low", "data-fp-low"),
                      ("false_positive_high", "data-fp-high")):
        ok = ok and attr in b and float(b[attr]) == r[key]
    ok = ok and int(b.get("data-missed", -1)) == r["missed"]
    if not ok:
        print("differs:", r["bot"], b, file=sys.stderr)
sys.exit(0 if ok else 1)
PY

# The screenshots.  The first chart is every bot's rate: Sashiko 50%,
# BPF CI 0% (no bar), 0-day 100%, so 0-day's bar is twice Sashiko's.
# Its bars are the only pixels of their colour (#c0392b at 75% over
# white) in the chart's band; whiskers cross them, so a bar's length is
# the extent of its colour on its row.
for size in 1280,900 390,900; do
	shot=$WN_WORLD/shot-${size%,*}.png
	chrome --screenshot="$shot" --window-size="$size" > /dev/null
	expect_eq "a screenshot at ${size%,*} pixels wide" 0 $?
	check "at ${size%,*}: the bars as long as the rates, nothing in the right margin" \
		/usr/bin/python3 - "$shot" "${size%,*}" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
px = im.load()
ok = w == int(sys.argv[2])
def bar(c):
    return abs(c[0] - 208) <= 6 and abs(c[1] - 106) <= 6 and abs(c[2] - 96) <= 6
# Rows holding bar pixels, grouped into bands; the first chart's bands
# come first, top to bottom: Sashiko, then 0-day.
rows = [y for y in range(h) if any(bar(px[x, y]) for x in range(0, w, 1))]
bands = []
for y in rows:
    if bands and y - bands[-1][-1] <= 1:
        bands[-1].append(y)
    else:
        bands.append([y])
def extent(band):
    y = band[len(band) // 4]	# above the whisker, which runs along the middle
    xs = [x for x in range(w) if bar(px[x, y])]
    return max(xs) - min(xs) + 1
lengths = [extent(b) for b in bands[:2]]
ok = ok and len(bands) >= 2 and abs(lengths[1] - 2 * lengths[0]) <= 3 and lengths[0] > 20
# No overflow: the body's padding on the right (16 px) stays the page's
# white from top to bottom.
margin = [px[x, y] for x in range(w - 12, w) for y in range(h)]
ok = ok and all(c == (255, 255, 255) for c in margin)
if not ok:
    print("size", (w, h), "bars", lengths, "margin colours", sorted(set(margin))[:5], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
done
wn_done
