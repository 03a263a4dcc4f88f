#!/usr/bin/env bash
# A newcomer's first series is not their experience: Sam's
# first series has six patches, the bot reviews the sixth; the five
# before it are of the same series, so Sam is still a newcomer
# (winnow.newcomer 5, and no corpus series was longer than five).  Her
# next patch, a thread of its own, counts the six, not another of hers
# sent the same second.  The mails are made
# here, from the formats.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"

corpus=$(mktemp -d "${TMPDIR:-/tmp}/winnow-corpus.XXXXXX")
trap 'rm -rf "$corpus"' EXIT

# patch N TOTAL DAY ID PARENT: one patch of Sam's, a reply to PARENT
# (none for the first).
patch() {
	local n=$1 total=$2 day=$3 id=$4 parent=$5 tag="[PATCH $1/$2]"
	[ "$total" = 1 ] && tag="[PATCH]"
	{
		printf 'From: Sam Starter <sam@example.net>\n'
		printf 'To: Mark Maintainer <mark@example.org>\n'
		printf 'Cc: linux-who@lists.example.org\n'
		printf 'Subject: %s who: check step %s before using it\n' "$tag" "$n"
		printf 'Date: %s Nov 2026 09:0%s:00 +0000\n' "$day" "$n"
		printf 'Message-Id: <%s>\n' "$id"
		[ "$parent" = none ] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$parent" "$parent"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\n\n'
		printf 'step%s_fn() may see a NULL queue; check it first.\n\n' "$n"
		printf 'Signed-off-by: Sam Starter <sam@example.net>\n---\n'
		printf 'diff --git a/drivers/who/step%s.c b/drivers/who/step%s.c\n' "$n" "$n"
		printf -- '--- a/drivers/who/step%s.c\n+++ b/drivers/who/step%s.c\n' "$n" "$n"
		printf '@@ -10,4 +10,6 @@ static int step%s_fn(struct who *w)\n' "$n"
		printf ' \tlock(w);\n+\tif (!w->queue)\n+\t\treturn -EINVAL;\n \tw->queue->users++;\n \tunlock(w);\n'
	} > "$corpus/$id.eml"
}

# review ID PATCH-ID SUBJECT DAY
review() {
	{
		printf 'From: sashiko-bot@kernel.org\nTo: sam@example.net\n'
		printf 'Cc: linux-who@lists.example.org, mark@example.org\n'
		printf 'Subject: Re: %s\n' "$3"
		printf 'Date: %s Nov 2026 11:00:00 +0000\n' "$4"
		printf 'Message-Id: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>\n' "$1" "$2" "$2"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\n\n'
		printf 'Sashiko AI review found 1 potential issue(s) to consider:\n'
		printf -- '- [High] The lock is held on the -EINVAL return.\n--\n\n'
		printf '[High]\nDoes this return with w locked?\n\n-- \n'
		printf 'Sashiko AI review https://sashiko.dev/#/patchset/%s\n' "$2"
	} > "$corpus/$1.eml"
}

for n in 1 2 3 4 5 6; do
	parent=none
	[ "$n" = 1 ] || parent=sam-1@example.net
	patch "$n" 6 "Mon, 02" "sam-$n@example.net" "$parent"
done
review 20261102110000.SAM6@smtp.kernel.org sam-6@example.net \
	"[PATCH 6/6] who: check step 6 before using it" "Mon, 02"
patch 7 1 "Tue, 10" sam-next@example.net none
# Another patch of hers sent the same second, a thread of its own: not
# earlier than her next one.
patch 7 1 "Tue, 10" sam-same@example.net none
sed -i 's/check step 7/check step 8/' "$corpus/sam-same@example.net.eml"
review 20261110110000.SAMN@smtp.kernel.org sam-next@example.net \
	"[PATCH] who: check step 7 before using it" "Tue, 10"

wn_world "$corpus"
notmuch config set winnow.newcomer 5

expect_eq "patch 6/6 of Sam's first series: a newcomer, no earlier patch counted" '[true,0]' \
	"$("$WINNOW" show --format=json 20261102110000.SAM6@smtp.kernel.org |
		jq -c '[.newcomer, .earlier_patches]')"
expect_eq "her next patch: the six of that series count" '[false,6]' \
	"$("$WINNOW" show --format=json 20261110110000.SAMN@smtp.kernel.org |
		jq -c '[.newcomer, .earlier_patches]')"
notmuch config set winnow.newcomer 6
expect_eq "winnow.newcomer 6: six earlier patches are not fewer than six" 'false' \
	"$("$WINNOW" show --format=json 20261110110000.SAMN@smtp.kernel.org | jq -c .newcomer)"
notmuch config set winnow.newcomer 7
expect_eq "winnow.newcomer 7: six are fewer" 'true' \
	"$("$WINNOW" show --format=json 20261110110000.SAMN@smtp.kernel.org | jq -c .newcomer)"
notmuch config set winnow.newcomer 100000
expect_eq "winnow.newcomer 100000, the most it takes: read" 'true' \
	"$("$WINNOW" show --format=json 20261110110000.SAMN@smtp.kernel.org | jq -c .newcomer)"
notmuch config set winnow.newcomer 100001
"$WINNOW" show 20261110110000.SAMN@smtp.kernel.org > /dev/null 2>&1
expect_eq "winnow.newcomer 100001: refused, exit 2" 2 $?
wn_done
