#!/usr/bin/env bash
# mkhuge.sh N OUT_DIR: one patch and one Sashiko review of it with N
# findings (summary entries), for tests of reviews far larger than any
# real one: marking every finding must stay linear in N.
set -euo pipefail
n=${1:?usage: mkhuge.sh N OUT_DIR}
out=${2:?usage: mkhuge.sh N OUT_DIR}
mkdir -p "$out"
cat > "$out/huge-patch.eml" <<MAIL
From: Dev Huge <dev.huge@example.org>
To: maintainer@example.org
Subject: [PATCH] huge: rework every helper of the huge driver
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <huge-patch@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Rework every helper.

Signed-off-by: Dev Huge <dev.huge@example.org>
---
 drivers/huge/huge.c | 1 +
 1 file changed, 1 insertion(+)
MAIL
{
	cat <<MAIL
From: sashiko-bot@kernel.org
To: dev.huge@example.org
Subject: Re: [PATCH] huge: rework every helper of the huge driver
Date: Mon, 02 Nov 2026 11:00:00 +0000
Message-ID: <huge-review@example.org>
In-Reply-To: <huge-patch@example.org>
References: <huge-patch@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Thank you for your contribution! Sashiko AI review found $n potential issue(s) to consider:

New issues:
MAIL
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++)
		printf "- [Low] huge_helper_%d() reads field f%d of the ring before checking it.\n", i, i }'
	printf -- '--\n\n-- \nSashiko AI review\n'
} > "$out/huge-review.eml"
