/* winnow — what the two mail readers share.  mail.c reads any mail
 * through GMime's parser; mail-plain.c reads the plain single-part mails
 * that nearly all review traffic is, without building a GMimeMessage
 * (GMime's objects were two thirds of the cost of reading a mail).
 * Both hand their header fields to the same code as a mail_view, so
 * that what a wn_mail holds cannot depend on which reader read it.
 * That code is mail-fill.c, below both: mail.c calls mail-plain.c and
 * mail-fill.c, mail-plain.c calls mail-fill.c, and nothing calls back
 * up. */
#ifndef WINNOW_MAIL_PRIVATE_H
#define WINNOW_MAIL_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <gmime/gmime.h>

#include "winnow/mail.h"
/* What the tests reach is declared there, once: the two readers. */
#include "mail-test.h"

/* The headers read by name.  X(enum suffix, header name); the address
 * headers come first.  X-Original-From: who a relay (B4 Relay) sends
 * for, its From being the relay's own address. */
#define MAIL_HEADER_LIST(X)                    \
	X(FROM,          "From")               \
	X(TO,            "To")                 \
	X(CC,            "Cc")                 \
	X(REPLY_TO,      "Reply-To")           \
	X(ORIGINAL_FROM, "X-Original-From")    \
	X(LIST_ID,     "List-Id")      \
	X(REFERENCES,  "References")   \
	X(IN_REPLY_TO, "In-Reply-To")

enum mail_header {
#define WN_X_(e, name) MH_##e,
	MAIL_HEADER_LIST(WN_X_)
#undef WN_X_
	MH_COUNT,
	MH_ADDRESS_COUNT = MH_ORIGINAL_FROM + 1
};

extern const char *const wn_mail_header_names[MH_COUNT];

/* A mail's header fields as GMime's GMimeMessage gives them.  Borrowed
 * from the reader that filled it. */
typedef struct mail_view {
	/* Decoded text of the first header of each name; NULL: absent. */
	const char *hdr[MH_COUNT];
	/* The addresses of every header of an address name, as
	 * g_mime_message_get_addresses() has them; NULL: none. */
	InternetAddressList *addrs[MH_ADDRESS_COUNT];
	const char *subject;	/* g_mime_message_get_subject() */
	const char *message_id;	/* g_mime_message_get_message_id() */
	GDateTime *date;	/* g_mime_message_get_date() */
	/* Or, when dated (the plain reader read a plain RFC 5322 date
	 * itself), the Unix time GMime's date would give. */
	bool dated;
	time_t when;
	/* From is one line holding one mailbox as wn_mail_plain_mailbox()
	 * reads it (the plain reader says so): hdr[MH_FROM] says it all,
	 * and addrs[MH_FROM] stays NULL. */
	bool from_plain;
} mail_view;

/* A review is a few KiB; anything beyond this is an attack or an
 * accident, and the parsers downstream need not see it. */
#define WN_MAIL_BODY_MAX ((size_t) 16 << 20)
/* Read/convert in chunks of this size (I/O granularity, not a limit). */
#define WN_MAIL_CHUNK 16384

/* --- mail-fill.c: what both readers call --------------------------------- */

/* Fill the header fields of m from v. */
wn_status wn_mail_fill_headers(wn_mail *m, const mail_view *v);
/* ... of which the address lists to, cc and reply_to, from v's (what m
 * held of them freed first). */
wn_status wn_mail_fill_recipients(wn_mail *m, const mail_view *v);
/* Fill m's body from the n bytes of the text part, transfer encoding
 * undone, in charset cs (NULL: not said). */
wn_status wn_mail_fill_body(wn_mail *m, const char *cs, const char *s, size_t n);

/* The address list of an address header's decoded text, read as GMime
 * reads it, or more laxly when GMime gives up on it (a control
 * character in a name: the address is what matters); NULL when no
 * address can be made of it.  A new reference. */
InternetAddressList *wn_mail_addresses_of(const char *decoded);
/* The first mailbox of list (a group's first member); NULL: none. */
InternetAddressMailbox *wn_mail_first_mailbox(InternetAddressList *list);
/* One mailbox as wn_mail.from writes it: "Name <addr>", names quoted as
 * GMime quotes them, or "addr".  g_malloc'd. */
char *wn_mail_mailbox_text(InternetAddressMailbox *mb);
/* s on one line, valid UTF-8 (header text).  malloc'd; NULL: no memory. */
char *wn_mail_one_line(const char *s);

/* --- mail-plain.c --------------------------------------------------------- */

/* The plain reader reads mails up to this size, whole, in memory;
 * bigger ones GMime's parser reads from the file in pieces (and stops
 * at the body limit). */
#define WN_MAIL_PLAIN_MAX ((size_t) 2 << 20)

#endif
