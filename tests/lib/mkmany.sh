#!/usr/bin/env bash
# mkmany.sh N OUT_DIR: write a synthetic corpus of N patches, each with a
# Sashiko review of two findings (one new, one pre-existing), into
# OUT_DIR as .eml files.  For tests that need many findings and for the
# benchmark; the hand-written corpora stay the reference for formats.
set -euo pipefail
n=${1:?usage: mkmany.sh N OUT_DIR}
out=${2:?usage: mkmany.sh N OUT_DIR}
mkdir -p "$out"

attrs=("" "Assisted-by: Claude:claude-opus-4-5 coccinelle sparse" \
	"Assisted-by: LLM sparse" "Assisted-by: Claude")

for ((i = 1; i <= n; i++)); do
	day=$(( (i % 28) + 1 ))
	date=$(printf 'Mon, %02d Nov 2026 %02d:%02d:%02d +0000' "$day" $((i % 24)) $((i % 60)) $(((i * 7) % 60)))
	patch="synth-$i-patch@example.org"
	subj="[PATCH] synth$i: fix the teardown order in synth${i}_remove()"
	attr=${attrs[$((i % 4))]}
	cat > "$out/synth-$i-patch.eml" <<MAIL
From: Dev $i <dev$i@example.org>
To: maintainer@example.org
Subject: $subj
Date: $date
Message-ID: <$patch>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Free the interrupt before the registers it touches are unmapped, so
the handler cannot run against a stale mapping.

${attr:+$attr
}Signed-off-by: Dev $i <dev$i@example.org>
---
 drivers/synth/synth$i.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/drivers/synth/synth$i.c b/drivers/synth/synth$i.c
--- a/drivers/synth/synth$i.c
+++ b/drivers/synth/synth$i.c
@@ -40,7 +40,7 @@ static void synth${i}_remove(struct platform_device *pdev)
 	mutex_lock(&sd->lock);
 	sd->dead = true;
 	mutex_unlock(&sd->lock);
-	iounmap(sd->regs);
 	free_irq(sd->irq, sd);
+	iounmap(sd->regs);
 	kfree(sd);
MAIL
	cat > "$out/synth-$i-review.eml" <<MAIL
From: sashiko-bot@kernel.org
To: dev$i@example.org
Reply-To: sashiko-reviews@lists.example.org
Subject: Re: $subj
Date: $date
Message-ID: <synth-$i-review@smtp.kernel.org>
In-Reply-To: <$patch>
References: <$patch>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Thank you for your contribution! Sashiko AI review found 2 potential issue(s) to consider:

New issues:
- [High] synth${i}_remove() frees the interrupt while sd->regs may still be used by the handler $i.

Pre-existing issues:
- [Low] kfree(sd) in synth${i}_remove() can race with sleepers on sd->waitq $i.
--

--- Patch [1]: $subj ---
commit 0123456789abcdef0123456789abcdef01234567
Author: Dev $i <dev$i@example.org>

> diff --git a/drivers/synth/synth$i.c b/drivers/synth/synth$i.c
> --- a/drivers/synth/synth$i.c
> +++ b/drivers/synth/synth$i.c
> @@ -40,7 +40,7 @@ static void synth${i}_remove(struct platform_device *pdev)
>  	mutex_lock(&sd->lock);
>  	sd->dead = true;
>  	mutex_unlock(&sd->lock);
>  	free_irq(sd->irq, sd);

[Severity: High]
Can the handler still run and use sd->regs here? The interrupt is freed
only after the handler $i may have been scheduled.

> +	iounmap(sd->regs);
>  	kfree(sd);

[Severity: Low]
This problem wasn't introduced by this patch, but sleepers on sd->waitq
may still be running when kfree(sd) frees it ($i).

-- 
Sashiko AI review · https://sashiko.dev/#/patchset/$patch?part=1
MAIL
done
