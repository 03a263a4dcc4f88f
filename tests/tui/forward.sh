#!/usr/bin/env bash
# Forwarding from the TUI, with a scripted $EDITOR (tests/lib/edit-draft)
# and a recording sendmail stand-in (nothing is sent): F opens the draft
# in the editor, the confirm step shows From/To/Cc/Subject and the
# findings; P postpones, F again resumes, e edits again, a failing
# sendmail keeps the draft, y sends and records, q cancels; p adds the
# pre-existing findings; an opted-out author needs a second yes.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
wn_world
export LC_ALL=C.UTF-8 TZ=UTC WINNOW_FORWARD_DATE=1794652800 WINNOW_FORWARD_SEED=tui
export FAKE_SENDMAIL_DIR=$WN_WORLD/sent EDITOR=$WN_TOP_SRCDIR/tests/lib/edit-draft
export EDIT_DRAFT_LOG=$WN_WORLD/editor.log EDIT_DRAFT_LINE="Edited in the TUI."
unset VISUAL
mkdir -p "$FAKE_SENDMAIL_DIR"
notmuch config set winnow.sendmail "$WN_TOP_SRCDIR/tests/lib/fake-sendmail -t -oi"

id=20261102102845.9E02AC4CEF3@smtp.kernel.org
drafts=$XDG_STATE_HOME/winnow/drafts
edits() { if [ -f "$EDIT_DRAFT_LOG" ]; then wc -l < "$EDIT_DRAFT_LOG"; else echo 0; fi; }
calls() { cat "$FAKE_SENDMAIL_DIR/count" 2>/dev/null || echo 0; }

wn_tui_start "'(id:$id)'"
check "queue limited to the review" wn_tui_wait "1 review"
wn_tui_keys Enter
check "review open" wn_tui_wait "finding 1 of 3"
check "F is offered in the review" grep -qF "F:forward" <<<"$(wn_tui_screen)"
wn_tui_keys F
check "F without a valid finding says so" wn_tui_wait "no finding of this review is marked valid"
expect_eq "F without a valid finding: no editor" 0 "$(edits)"
wn_tui_keys v
check "finding 1 marked valid" wn_tui_wait "marked finding 1 valid"

# F: the editor runs on the draft, then the confirm step.  Sashiko
# mailed the review to its author: F writes a reply to it.
wn_tui_keys F
check "the confirm step" wn_tui_wait "[forward]"
expect_eq "the editor ran once" 1 "$(edits)"
expected=$(cat <<'SCREEN'
winnow — forward — Re: [PATCH v2 2/3] frobnic: free the IRQ before unmapping registers
From:     Demo Maintainer <maintainer@example.org>
To:       Jörg Beispiel <joerg.beispiel@example.org>
Cc:       linux-frobnic@lists.example.org
Subject:  Re: [PATCH v2 2/3] frobnic: free the IRQ before unmapping registers
a reply to the review (the author has it) F: the full forward instead
1 valid, 0 false positives, 2 not checked; 2 addresses


Hi Jörg,

I went through the findings of the Sashiko review by hand; my verdict
is under each one.

I have not checked 2 of its 3 findings yet; they are left out.

>       fd->dead = true;
>       mutex_unlock(&fd->lock);
>       wake_up_all(&fd->waitq);
> -     writel(0, fd->regs + FROBNIC_IRQ_MASK);
> -     iounmap(fd->regs);
>       free_irq(fd->irq, fd);
> +     iounmap(fd->regs);
> +     writel(0, fd->regs + FROBNIC_IRQ_MASK);
>     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
>
> Doesn't this write go to a register window that was unmapped on the line
> above? fd->regs is not cleared by iounmap(), so the writel() dereferences
> a stale virtual address and will fault, or worse, hit whatever got mapped
> there in the meantime.
>
> Should the writel() stay before free_irq(), as it was before this patch?

Valid: please fix this in the next version.

Thanks,
Demo Maintainer
Edited in the TUI.

y:send e:edit P:postpone D:drafts p:pre-existing F:reply/full q:cancel ?:help                             [forward] 1/30
SCREEN
)
expect_eq "the author has the review: a reply to it, whole screen" "$expected" "$(wn_tui_screen | sed 's/ *$//')"
# F: the full forward to the patch instead (the draft was edited: it asks).
wn_tui_keys F
check "F asks before dropping the edits" wn_tui_wait "Compose the full forward instead? Your edits are lost (y/n)"
wn_tui_keys y
check "F: the full forward" wn_tui_wait "the full forward to the patch (e: edit)"
expect_eq "switching does not run the editor" 1 "$(edits)"
wn_tui_keys e
check "e: the editor on the full forward" wn_tui_wait "[forward]"
check "... and its edit" wn_tui_wait "[forward] 1/33"
expected=$(cat <<'SCREEN'
winnow — forward — Re: [PATCH v2 2/3] frobnic: free the IRQ before unmapping registers
From:     Demo Maintainer <maintainer@example.org>
To:       Jörg Beispiel <joerg.beispiel@example.org>
Cc:       Fiona Maintainer <fiona.maintainer@example.org>, Erik Reviewer <erik.reviewer@example.org>, linux-frobnic@li…
Subject:  Re: [PATCH v2 2/3] frobnic: free the IRQ before unmapping registers
a forward to the patch (the author has the review; F: a reply to it instead)
1 valid finding; 4 addresses (pre-existing ones left out; p: add them)


Hi Jörg,

Sashiko reviewed this patch automatically. I went through the
findings by hand and kept the ones I believe are real problems
in the patch (1 of 3):

[High] frobnic_remove() now writes FROBNIC_IRQ_MASK through fd->regs
after iounmap(fd->regs).

At drivers/misc/frobnic/core.c:79 in frobnic_remove():
>       fd->dead = true;
>       mutex_unlock(&fd->lock);
>       wake_up_all(&fd->waitq);
> -     writel(0, fd->regs + FROBNIC_IRQ_MASK);
> -     iounmap(fd->regs);
>       free_irq(fd->irq, fd);
> +     iounmap(fd->regs);
> +     writel(0, fd->regs + FROBNIC_IRQ_MASK);
>     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

Doesn't this write go to a register window that was unmapped on the line
above? fd->regs is not cleared by iounmap(), so the writel() dereferences
a stale virtual address and will fault, or worse, hit whatever got mapped
there in the meantime.

Should the writel() stay before free_irq(), as it was before this patch?

Sashiko review: https://sashiko.dev/#/patchset/20261102-frobnic-teardown-v2-0-5c1e2a7d9b30@example.org?part=2

Thanks,
y:send e:edit P:postpone D:drafts p:pre-existing F:reply/full q:cancel ?:help                             [forward] 1/33
SCREEN
)
expect_eq "the confirm step, whole screen" "$expected" "$(wn_tui_screen | sed 's/ *$//')"

# P postpones: back in the review, the draft kept.
wn_tui_keys P
check "postponed" wn_tui_wait "draft postponed: F on this review resumes it"
check "back in the review" grep -qF "[review]" <<<"$(wn_tui_screen)"
check "the draft kept, with the edit" grep -qx "Edited in the TUI." "$drafts"/*.eml
expect_eq "nothing sent" 0 "$(calls)"

# F again offers the draft; y resumes it without the editor.
wn_tui_keys F
check "F again offers the draft" wn_tui_wait "postponed for this review? (n: a new one) (y/n)"
wn_tui_keys y
check "resumed to the confirm step" wn_tui_wait "[forward]"
expect_eq "resuming does not run the editor" 2 "$(edits)"
# (the edit is the draft's 33rd line, one below the screen's last)
check "the resumed draft has the edit" grep -qF "[forward] 1/33" <<<"$(wn_tui_screen)"

# e edits again.
wn_tui_keys e
wn_tui_wait "[forward]" > /dev/null
for _ in $(seq 100); do [ "$(edits)" -ge 3 ] && break; sleep 0.05; done
expect_eq "e runs the editor again" 3 "$(edits)"
check "the second edit shows" wn_tui_wait "[forward] 1/34"

# A failing sendmail: the error is shown, the draft and the view stay.
echo fail > "$FAKE_SENDMAIL_DIR/mode"
sum=$(md5sum < "$drafts"/*.eml)
wn_tui_keys y
check "the failure is shown" wn_tui_wait "not sent, the draft is kept"
check "with sendmail's words" grep -qF "relay refused the mail" <<<"$(wn_tui_screen)"
check "still in the confirm step" grep -qF "[forward]" <<<"$(wn_tui_screen)"
expect_eq "the draft is unchanged" "$sum" "$(md5sum < "$drafts"/*.eml)"
check "nothing recorded" bash -c "! notmuch dump --include=properties id:$id | grep -q winnow.forwarded"

# q asks before discarding; n keeps the draft.
wn_tui_keys q
check "q asks" wn_tui_wait "Discard this draft? (y/n)"
wn_tui_keys n
# (wait for the answer to land: y below must not meet the question)
prompt_gone() {
	local i
	for i in $(seq 200); do
		! wn_tui_screen | grep -qF "Discard this draft?" && wn_tui_screen | grep -qF "[forward]" && return 0
		sleep 0.05
	done
	return 1
}
check "n keeps it" prompt_gone

# y sends.
rm "$FAKE_SENDMAIL_DIR/mode"
wn_tui_keys y
check "sent" wn_tui_wait "sent to Jörg Beispiel <joerg.beispiel@example.org>: 1 finding recorded as forwarded"
expect_eq "sendmail ran twice (failed, sent)" 2 "$(calls)"
check "the mail sent has both edits" bash -c '[ "$(grep -cx "Edited in the TUI." "$1")" = 2 ]' _ "$FAKE_SENDMAIL_DIR/mail.2"
expect_eq "the draft is gone" "" "$(ls "$drafts")"
wn_tui_keys k
check "the finding says it was forwarded" wn_tui_wait "Forwarded: 2026-11-14T10:40:00Z"

# Cancel: a new draft for finding 2, discarded; nothing sent.
wn_tui_keys j v
check "finding 2 marked valid" wn_tui_wait "marked finding 2 valid"
wn_tui_keys F
check "compose again" wn_tui_wait "[forward]"
check "the finding sent before is named" grep -qF "finding 1 of the Sashiko review was already forwarded" <<<"$(wn_tui_screen)"
# p adds the pre-existing findings (the draft was edited: it asks).
wn_tui_keys p
check "p asks before dropping the edits" wn_tui_wait "Compose again with the pre-existing findings? Your edits are lost (y/n)"
wn_tui_keys y
check "p: none marked pre-existing yet" wn_tui_wait "(no pre-existing ones)"
wn_tui_keys q
check "cancel asks" wn_tui_wait "Discard this draft? (y/n)"
wn_tui_keys y
check "discarded" wn_tui_wait "draft discarded, nothing sent"
expect_eq "cancelled: nothing sent" 2 "$(calls)"
expect_eq "cancelled: no draft left" "" "$(ls "$drafts")"
wn_tui_keys Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

# Opt-out: the queue marks the author; sending needs a second yes.
notmuch config set winnow.optout "@example.org"
wn_tui_start "'(id:$id)'"
check "queue marks the opted-out author" wn_tui_wait "!Jörg Beispiel"
wn_tui_keys Enter F
check "confirm step warns" wn_tui_wait "opted out of bot findings (winnow.optout): joerg.beispiel@example.org"
wn_tui_keys y
check "a second question" wn_tui_wait "joerg.beispiel@example.org opted out of bot findings. Send anyway? (y/n)"
wn_tui_keys n
check "n: not sent" wn_tui_wait "not sent; the draft is kept"
expect_eq "opted out: nothing sent" 2 "$(calls)"
wn_tui_keys P Q
check "quit with 0" wn_tui_wait "WINNOW-EXIT=0"

wn_done
