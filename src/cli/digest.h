/* winnow — digests (the ledger's, feedback's) out of the command line:
 * as an mbox, or through forwarding's confirm-then-send path: every
 * draft in $VISUAL/$EDITOR at once, the mails listed, one question,
 * then winnow.sendmail. */
#ifndef WINNOW_CLI_DIGEST_H
#define WINNOW_CLI_DIGEST_H

#include <stddef.h>
#include <time.h>

#include "cli.h"
#include "winnow/forward.h"

/* The date of an mbox "From " line for time t, in UTC and asctime's
 * layout ("Sat Nov 14 10:40:00 2026"), with English names whatever the
 * locale: mbox readers parse it.  out holds at least 32 bytes. */
void wn_mbox_date(time_t t, char *out, size_t n);

/* The n mails as an mbox (mboxrd) on standard output: 0, or the exit
 * code (reported). */
int wn_digest_mbox(wn_cli *cli, wn_forward **m, size_t n);

/* Told of mail k once sendmail took it. */
typedef void (*wn_digest_sent_fn)(wn_cli *cli, wn_forward *f, size_t k, void *arg);

/* Save each mail as a draft, open them all in the editor, list them
 * and ask: [y]es, [e]dit again, [c]ancel (no more input: cancel).  On
 * yes each is sent and sent() told; a mail that fails is reported and
 * the others go on.  The drafts are removed either way.  Returns 0, 1
 * when cancelled or 2 when a mail could not be sent. */
int wn_digest_send(wn_cli *cli, wn_forward **m, size_t n, wn_digest_sent_fn sent, void *arg);

#endif
