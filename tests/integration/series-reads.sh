#!/usr/bin/env bash
# What stats' series pass reads (src/lib/memory/series.c): a
# later part of a review's series is read for its diff only when the
# hunks linking kept of it (wn_diff_keys) do not rule the finding's
# place out, or when no review's linking read it.  The answers are the
# ones reading every later part gives.  The series pass counts the patch
# mails it reads into $WINNOW_TEST_SERIES_LOG (--enable-test-hooks).
#
# "[PATCH 1/3..3/3] frob: ..." by Ada, each part changing one function
# of its own file; Sashiko reviews 3/3 (newest) and, twice, 1/3: once
# about a function only 1/3 changes, once about the one 3/3 changes.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"

dir=$(mktemp -d "${TMPDIR:-/tmp}/winnow-series-reads.XXXXXX") || exit 99
series=20261102-frob-1-0a1b2c3d@example.net
part() { # N FILE FUNCTION
	cat >"$dir/part-$1.eml" <<EOF
From: Ada Lovelace <ada@example.net>
To: Demo Maintainer <maintainer@example.org>
Cc: linux-frob@lists.example.org
Subject: [PATCH $1/3] frob: rework $3
Date: Mon, 02 Nov 2026 09:00:0$1 +0000
Message-Id: <20261102-frob-1-$1-0a1b2c3d@example.net>
In-Reply-To: <$series>
References: <$series>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Rework $3.

Signed-off-by: Ada Lovelace <ada@example.net>
---
 drivers/frob/$2 | 2 +-

diff --git a/drivers/frob/$2 b/drivers/frob/$2
index 1111111..2222222 100644
--- a/drivers/frob/$2
+++ b/drivers/frob/$2
@@ -10,7 +10,7 @@ static int $3(struct frob *f)
 {
 	int ret;
 
-	ret = frob_old(f);
+	ret = frob_new(f);
 	return ret;
 }
-- 
2.51.0
EOF
}
review() { # NAME PART FILE FUNCTION MINUTE
	cat >"$dir/review-$1.eml" <<EOF
From: sashiko-bot@kernel.org
To: ada@example.net
Cc: linux-frob@lists.example.org
Subject: Re: [PATCH $2/3] frob: rework something
Date: Mon, 02 Nov 2026 10:$5:00 +0000
Message-Id: <20261102-review-$1@smtp.kernel.org>
In-Reply-To: <20261102-frob-1-$2-0a1b2c3d@example.net>
References: <$series> <20261102-frob-1-$2-0a1b2c3d@example.net>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Thank you for your contribution! Sashiko AI review found 1 potential issue(s) to consider:

New issues:
- [Medium] $4() returns before the lock is dropped.
--

commit 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567
Author: Ada Lovelace <ada@example.net>

frob: rework $4

> diff --git a/drivers/frob/$3 b/drivers/frob/$3
> --- a/drivers/frob/$3
> +++ b/drivers/frob/$3
> @@ -10,7 +10,7 @@ static int $4(struct frob *f)
>  {
>  	int ret;
>  
> -	ret = frob_old(f);
> +	ret = frob_new(f);

[Severity: Medium]
$4() returns before the lock is dropped: the error path skips the
unlock.

-- 
Sashiko AI review · https://sashiko.dev/#/patchset/$series?part=$2
EOF
}
cat >"$dir/cover.eml" <<EOF
From: Ada Lovelace <ada@example.net>
To: Demo Maintainer <maintainer@example.org>
Cc: linux-frob@lists.example.org
Subject: [PATCH 0/3] frob: rework
Date: Mon, 02 Nov 2026 09:00:00 +0000
Message-Id: <$series>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Three reworks.
EOF
part 1 alpha.c alpha_init
part 2 beta.c beta_run
part 3 gamma.c gamma_stop
review own 1 alpha.c alpha_init 00
review later 1 gamma.c gamma_stop 05
review last 3 gamma.c gamma_stop 10
wn_world "$dir"
rm -rf "$dir"
export WINNOW_NO_CACHE=1 WINNOW_TEST_SERIES_LOG=$WN_WORLD/series.log

own=id:20261102-review-own@smtp.kernel.org
later=id:20261102-review-later@smtp.kernel.org
last=id:20261102-review-last@smtp.kernel.org
# stats QUERY: "later_patch diff_reads" of one pass over QUERY.
stats() {
	local got
	: >"$WINNOW_TEST_SERIES_LOG"
	got=$("$WINNOW" stats --format=json "$1" | jq '.[] | select(.total) | .later_patch') || return
	echo "$got $(sed -n 's/.*diff_reads=\([0-9]*\).*/\1/p' "$WINNOW_TEST_SERIES_LOG" | tail -n 1)"
}

if [ -z "$(stats "$own" | cut -d' ' -f2)" ]; then
	echo "SKIP: winnow built without --enable-test-hooks (no series counter)"
	exit 77
fi
expect_eq "1/3 alone: both later parts read, neither changes alpha_init()" "0 2" "$(stats "$own")"
# The pass goes newest first: linking reads 3/3 for its review, whose
# hunks then rule out alpha_init(); 2/3, which no review answers, is
# read.
expect_eq "3/3 reviewed too: 3/3 not read again for 1/3's finding" "0 1" "$(stats "$own or $last")"
# Its hunks may hold gamma_stop(): read, and found.
expect_eq "a finding in what 3/3 changes: 3/3 read, the later patch counted" "1 2" \
	"$(stats "$later or $last")"
expect_eq "... as without 3/3's review" "1 2" "$(stats "$later")"
expect_eq "every review" "1 2" "$(stats "$own or $later or $last")"
wn_done
