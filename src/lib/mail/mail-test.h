/* winnow — what the tests reach inside mail/ (tests/unit/test-mail.c,
 * tests/fuzz/fuzz-mail.c), and nothing more: each reader alone, to hold
 * the two side by side.  Tests include this header, never
 * mail-private.h, which includes it so that each is declared once. */
#ifndef WINNOW_MAIL_TEST_H
#define WINNOW_MAIL_TEST_H

#include <stddef.h>

#include <gmime/gmime.h>

#include "winnow/mail.h"

/* --- mail-fill.c ---------------------------------------------------------- */

/* GMime set up (once) and the parser options both readers use. */
GMimeParserOptions *wn_mail_gmime(void);
/* Is s (unfolded, decoded, NUL-terminated) one mailbox in its plainest
 * spelling, "local@domain" or "Name Words <local@domain>": letters and
 * digits in the name's words, one blank between them and before '<',
 * dot-separated atoms of letters, digits, '_', '+' and '-' in the
 * address?  Then GMime's parser reads it as that name (none for the
 * first) and that address, and *name_len, *addr, *addr_len say where
 * they are.  (tests/unit/test-mail.c holds GMime to this.) */
bool wn_mail_plain_mailbox(const char *s, size_t *name_len, const char **addr, size_t *addr_len);
/* The id of Message-ID value v when it is "<local@domain>" in the atoms
 * wn_mail_plain_mailbox() takes, as g_mime_utils_decode_message_id()
 * gives it (g_malloc'd); NULL for any other value, which GMime reads. */
char *wn_mail_plain_msgid(const char *v);

/* --- mail-plain.c --------------------------------------------------------- */

/* Read data as a plain mail: one text/plain part (or no Content-Type),
 * in 7bit, 8bit, binary, quoted-printable or base64, with each header
 * that is read at most once.  WN_OK: *out is the wn_mail GMime's parser
 * would give, field for field; WN_NOT_FOUND: not plain, read it with
 * GMime; WN_NOMEM. */
wn_status wn_mail_plain(const char *data, size_t len, wn_mail **out);
/* What a read leaves out of the address lists (wn_mail_parse_file_lean()):
 * GMime's address parser and its objects were a tenth of a cold listing.
 * LEAN_LIST: To and Cc when the List-Id names the list (a patch's
 * reader asks wn_mail_list(), and keeps Reply-To, which wn_mail_people()
 * reads); LEAN_SENDER: all three (a review's reader uses From's alone). */
enum mail_lean { LEAN_NONE, LEAN_LIST, LEAN_SENDER };

/* The same, lean when asked. */
wn_status wn_mail_plain_read(const char *data, size_t len, enum mail_lean lean, wn_mail **out);
/* g_mime_utils_header_unfold() of the n bytes at s, which hold no NUL;
 * g_malloc'd. */
char *wn_mail_unfold(const char *s, size_t n);

/* --- mail.c --------------------------------------------------------------- */

/* The GMime reader alone, for tests that hold the two side by side. */
wn_status wn_mail_parse_mem_gmime(const char *data, size_t len, wn_mail **out, wn_error *err);

#endif
