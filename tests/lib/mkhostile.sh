#!/usr/bin/env bash
# mkhostile.sh OUT_DIR: the hostile mails too large to keep in the tree
# (tests/corpus/hostile holds the small ones): a review whose header is
# 1 MB, one nested 500 MIME parts deep, and one whose Subject has 300,000
# words and no threading headers (so it is linked by subject).
set -euo pipefail
out=${1:?usage: mkhostile.sh OUT_DIR}
mkdir -p "$out"
body() {
	cat <<'MAIL'
Thank you for your contribution! Sashiko AI review found 1 potential issue(s) to consider:

New issues:
- [Low] ring_init() leaves the mask unset when it fails.
--

-- 
Sashiko AI review
MAIL
}
head_common() {
	printf 'From: sashiko-bot@kernel.org\nTo: quinn@example.org\nDate: Tue, 10 Nov 2026 11:00:00 +0000\n'
}
{
	head_common
	printf 'Message-Id: <huge-header@example.org>\nIn-Reply-To: <20261110090000.1-quinn@example.org>\n'
	printf 'Subject: Re: [PATCH] hostile: guard the ring against a zero length\n'
	printf 'X-Padding: '
	head -c 1048576 /dev/zero | tr '\0' 'x'
	printf '\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
	body
} > "$out/huge-header.eml"
{
	head_common
	printf 'Message-Id: <deep-mime@example.org>\nIn-Reply-To: <20261110090000.1-quinn@example.org>\n'
	printf 'Subject: Re: [PATCH] hostile: guard the ring against a zero length\nMIME-Version: 1.0\n'
	printf 'Content-Type: multipart/mixed; boundary="b0"\n\n'
	for ((i = 0; i < 500; i++)); do
		printf -- '--b%d\nContent-Type: multipart/mixed; boundary="b%d"\n\n' "$i" $((i + 1))
	done
	printf -- '--b500\nContent-Type: text/plain; charset=utf-8\n\n'
	body
	for ((i = 500; i >= 0; i--)); do
		printf -- '--b%d--\n' "$i"
	done
} > "$out/deep-mime.eml"
{
	head_common
	printf 'Message-Id: <long-subject@example.org>\n'
	printf 'Subject: Re: [PATCH] hostile:'
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf " w%d", i % 97 }'
	printf '\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
	body
} > "$out/long-subject.eml"
