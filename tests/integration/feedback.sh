#!/usr/bin/env bash
# winnow feedback on the series fixture beside the demo mailbox: the
# digest to a bot's operators has exactly the false positives and the
# regraded findings, with both severities, the patch, the review's link
# and the note; it goes through the confirm-then-send path to a
# recording sendmail, and what was sent is recorded and never reported
# twice.  Without winnow.feedback.<bot> it says how to set it.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/series-world.sh"
wn_series_world
export TZ=UTC WINNOW_FORWARD_DATE=1796100000 WINNOW_FORWARD_SEED=feedback
check "v1 judged" wn_series_judge_v1
"$WINNOW" carry > /dev/null 2>&1
"$WINNOW" mark --severity=high "$v2" 3			# false positive, and regraded
"$WINNOW" mark --severity=critical "$v2" 1 valid	# valid, regraded only
"$WINNOW" mark --severity=high "$v2" 2 valid		# valid, the bot said medium: regraded
"$WINNOW" mark --severity=medium "$v3" 2		# untriaged, the bot said low: regraded
"$WINNOW" mark --severity=low "$v1" 4			# the bot said low too: no regrading
# Why two of the three false positives were wrong; v2 #3 says not.
"$WINNOW" mark --reason=handled-elsewhere "$v1" 3 fp
"$WINNOW" mark --reason=wrong-rule "$v3" 1 fp

# What must be in it: every false positive, every regraded finding.
want=$("$WINNOW" export --format=json | jq -c '[.[] | select(.verdict == "false-positive") | [.review, .finding]]')
json=$WN_WORLD/feedback.json
"$WINNOW" feedback --format=json > "$json"
expect_eq "JSON exits 0" 0 $?
expect_eq "the false positives, as export has them" "$want" \
	"$(jq -c '[.[] | select(.false_positive) | [.review, .finding]]' "$json")"
expect_eq "and the regraded ones: v2 #1, #2 and v3 #2" "[[\"$v3\",2],[\"$v2\",1],[\"$v2\",2]]" \
	"$(jq -c '[.[] | select(.false_positive | not) | [.review, .finding]]' "$json")"
expect_eq "one record: both severities, link, note" \
	'["medium","high","https://sashiko.dev/#/patchset/20261117-blinker-teardown-v2-0-9a8b7c6d5e4f@example.net?part=2","blinker_timer_fn() checks bl->stopping first","[PATCH v2 2/5] blinker: stop the timer before freeing the ring buffer"]' \
	"$(jq -c ".[] | select(.review == \"$v2\" and .finding == 3) | [.bot_severity, .maintainer_severity, .link, .note, .patch_subject]" "$json")"

"$WINNOW" feedback --dry-run > /dev/null 2> "$WN_WORLD/err"
expect_eq "no address: exit 1" 1 $?
expect_eq "... and how to set it" "winnow: no address for the operators of Sashiko: set it with 'notmuch config set winnow.feedback.sashiko ADDRESS'" \
	"$(cat "$WN_WORLD/err")"
notmuch config set winnow.feedback.sashiko "Sashiko <sashiko-feedback@example.org>"

mbox=$WN_WORLD/feedback.mbox
"$WINNOW" feedback --dry-run > "$mbox"
expect_eq "dry run exits 0" 0 $?
expect_eq "one digest, to the operators" '1|Sashiko <sashiko-feedback@example.org>|Feedback on Sashiko reviews: 3 false positives, 3 regraded' \
	"$(python3 -c '
import mailbox, sys
m = list(mailbox.mbox(sys.argv[1]))
print("|".join([str(len(m)), m[0]["To"], m[0]["Subject"]]))' "$mbox")"
body=$(python3 -c '
import mailbox, sys
print(list(mailbox.mbox(sys.argv[1]))[0].get_payload(decode=True).decode())' "$mbox")
check "an item: false positive with both severities" grep -qF "False positive; the bot said medium, I would say high" <<<"$body"
check "a regraded one" grep -qF "Severity: the bot said high, I would say critical" <<<"$body"
check "the patch's Message-ID" grep -qF "     <$v2patch2>" <<<"$body"
check "the note" grep -qF "   Note: blinker_timer_fn() checks bl->stopping first" <<<"$body"
check "the reasons, counted, with an example of each" grep -qF "Why the false positives were wrong, with an example of each:" <<<"$body"
expect_eq "... in the list's order" "  wrong-rule           1  e.g. 1 below (the rule it applies does not hold here)
  handled-elsewhere    1  e.g. 2 below (another patch or part handles it)" \
	"$(grep -E '^  [a-z-]+ +[0-9]+  e\.g\.' <<<"$body")"
expect_eq "the false positives grouped by reason, those without one next, then the regraded" \
	"1. False positive (wrong-rule) (the bot said medium)|2. False positive (handled-elsewhere) (the bot said medium)|3. False positive; the bot said medium, I would say high|4. Severity: the bot said low, I would say medium" \
	"$(grep -E '^[1-4]\. ' <<<"$body" | paste -sd'|')"
expect_eq "the JSON record says the reason" handled-elsewhere \
	"$(jq -r ".[] | select(.review == \"$v1\" and .finding == 3) | .reason" "$json")"
expect_eq "a dry run records nothing" 0 "$(notmuch dump --include=properties | grep -c 'winnow\.reported\.')"

# Sent: the editor, the question, sendmail; then recorded.
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"
echo c | "$WINNOW" feedback > /dev/null 2>&1
expect_eq "cancelled: exit 1, nothing recorded" "1 0" "$? $(notmuch dump --include=properties | grep -c 'winnow\.reported\.')"
echo y | "$WINNOW" feedback > "$WN_WORLD/out" 2> "$WN_WORLD/err"
expect_eq "sent: exit 0" 0 $?
expect_eq "one mail" 1 "$(cat "$FAKE_SENDMAIL_DIR/count")"
check "to the operators" grep -qx "To: Sashiko <sashiko-feedback@example.org>" "$FAKE_SENDMAIL_DIR/mail.1"
msgid=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$FAKE_SENDMAIL_DIR/mail.1")
reported=$(notmuch dump --include=properties | tr ' ' '\n' | grep '^winnow\.reported\.')
expect_eq "each of the six findings recorded as reported" 6 "$(grep -c . <<<"$reported")"
expect_eq "... in that mail" 6 "$(grep -c "%20${msgid%%@*}" <<<"$reported")"
"$WINNOW" feedback > "$WN_WORLD/out" 2> "$WN_WORLD/err" < /dev/null
expect_eq "never twice: nothing to report" "0|winnow: nothing to report: no false positive or regraded finding that was not reported before" \
	"$?|$(cat "$WN_WORLD/err")"
expect_eq "still one mail" 1 "$(cat "$FAKE_SENDMAIL_DIR/count")"
"$WINNOW" mark "$v2p4" 1 false-positive
expect_eq "a new false positive is the next digest's only one" "[[\"$v2p4\",1]]" \
	"$("$WINNOW" feedback --format=json | jq -c '[.[] | [.review, .finding]]')"
"$WINNOW" feedback --format=xml > /dev/null 2>&1; expect_eq "an unknown format is a usage error" 1 $?
check "--help" bash -c '"$WINNOW" feedback --help | grep -q "^Usage: winnow feedback"'
wn_done
