/* winnow — mails of our own that are not replies: the digests of the
 * pre-existing ledger (one per list) and of feedback to a bot's
 * operators.  They are made as a wn_forward without findings, so that
 * they take forwarding's path: draft text in $EDITOR, the list and the
 * question, wn_forward_render() and wn_forward_send() (which records
 * nothing for them: the caller records what it reported). */
#ifndef WINNOW_DIGEST_H
#define WINNOW_DIGEST_H

#include "winnow/conf.h"
#include "winnow/forward.h"
#include "winnow/status.h"

/* A mail From the user (user.name, user.primary_email) To to (an
 * address list), no Cc, with subject and body (plain text, made safe
 * here), a new Message-ID (repeatable under WINNOW_FORWARD_SEED, as
 * forwarded mail's) and no threading.  WN_CONFIG when
 * user.primary_email is not set; WN_PARSE when to holds no usable
 * address. */
wn_status wn_digest_compose(const wn_conf *c, const char *to, const char *subject,
			    const char *body, wn_forward **out, wn_error *err);

#endif
