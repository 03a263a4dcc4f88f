/* winnow — one mail, decoded (GMime does the MIME work).
 *
 * Fields are copies owned by the wn_mail; strings are UTF-8 but NOT
 * sanitised: they are mail text, hostile until shown through
 * wn_text_sanitize(). */
#ifndef WINNOW_MAIL_H
#define WINNOW_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "winnow/status.h"

typedef struct wn_mail {
	char *message_id;	/* without <>; NULL if the mail has none */
	char *from;		/* decoded, "Name <addr>" or "addr" */
	char *from_addr;	/* lower-case address only; "" if none */
	char *from_name;	/* decoded display name; NULL if none */
	char *subject;		/* decoded and unfolded; "" if none */
	char *to;		/* decoded address lists; NULL if absent */
	char *cc;
	char *reply_to;
	char *original_from;	/* X-Original-From (a relay's mail: who it
				 * sends for), decoded; NULL if absent */
	char *list_id;		/* List-Id (RFC 2919), one line; NULL if absent */
	char *in_reply_to;	/* first Message-ID of In-Reply-To, without <> */
	char **references;	/* References Message-IDs, oldest first, without <> */
	size_t nreferences;
	time_t date;		/* 0 when missing or unparsable */
	char *body;		/* text/plain body, decoded to UTF-8, LF line ends */
	size_t body_len;
} wn_mail;

/* Parse the message in file path.  On success *out is a new wn_mail the
 * caller frees with wn_mail_free(). */
wn_status wn_mail_parse_file(const char *path, wn_mail **out, wn_error *err);
/* The same, and *read_sb (when not NULL) the file's fstat() from the
 * descriptor it was read through, taken before the read; its st_mode
 * is 0 when nothing was read or the file changed while it was read
 * (unless that change gave it a new modification time: a file last
 * written over a second before is not looked at again).
 * A cache keys what it keeps on that without a stat() of its own. */
struct stat;
wn_status wn_mail_parse_file_stat(const char *path, wn_mail **out, struct stat *read_sb, wn_error *err);
/* The same, lean: to, cc and reply_to may be NULL where a mail had
 * them, and every other field is what wn_mail_parse_file_stat() gives.
 * with_list: reply_to read (wn_mail_people() needs it), to and cc
 * only when its List-Id names a list, so that wn_mail_list() is what
 * it would be (a patch's reader); else all three may be NULL and wn_mail_list() says only
 * what the List-Id says (a review's reader, which uses From alone). */
wn_status wn_mail_parse_file_lean(const char *path, wn_mail **out, struct stat *read_sb, bool with_list,
				  wn_error *err);
/* Same from memory (used by tests and fuzzers). */
wn_status wn_mail_parse_mem(const char *data, size_t len, wn_mail **out, wn_error *err);
/* Free and NULL the caller's pointer. */
void wn_mail_free(wn_mail **m);

/* The mailing list m went to, as a List-Id: the id in its List-Id
 * header ("netdev.vger.kernel.org"), else the first list address in To,
 * then Cc, written the way such lists write their List-Id
 * ("netdev@vger.kernel.org" gives "netdev.vger.kernel.org").  A list
 * address is one at a host named lists.* or *.lists.*, vger.*, or
 * googlegroups.com.  Lower case, malloc'd; NULL when there is none (or
 * out of memory). */
char *wn_mail_list(const wn_mail *m);

/* One person a mail names. */
typedef struct wn_person {
	char *text;		/* "Name <addr>" as wn_mail.from writes one,
				 * or "addr"; "" when there is none */
	char *name;		/* display name, decoded, one line; NULL: none */
	char *addr;		/* the address as written; "" when none */
} wn_person;

/* Who a patch mail is from, as git and a reply see it. */
typedef struct wn_people {
	/* The git author: the in-body "From:" at the top of the body (a
	 * maintainer sending a colleague's patch, git send-email's and
	 * b4's way of keeping the author), else the sender.  A malformed
	 * in-body From is no author: the sender is. */
	wn_person author;
	/* Who sent it: From, or, for a mail sent through a relay (B4
	 * Relay: From "Name via B4 Relay <devnull+...@kernel.org>"), the
	 * person the relay sends for, from its X-Original-From, else its
	 * Reply-To. */
	wn_person sender;
	/* Where a reply to the author goes, address list text: To the
	 * author, or, when the author sent it, the Reply-To, as mutt's
	 * reply goes (the author's name kept where Reply-To has their
	 * address alone); NULL when there is no address to write to (only
	 * a relay's).  Cc the sender's (Reply-To, else the sender) when
	 * the sender is not the author; NULL: nobody.  A relay's address
	 * (wn_mail_addr_relay) is in neither. */
	char *to;
	char *cc;
} wn_people;

/* The people of patch mail m into *out (wn_people_clear() frees them).
 * WN_NOMEM is the only error. */
wn_status wn_mail_people(const wn_mail *m, wn_people *out);
void wn_people_clear(wn_people *p);

/* Is addr a relay's that nobody reads (B4 Relay's "devnull+...@")?
 * Nothing is ever sent there. */
bool wn_mail_addr_relay(const char *addr);

/* The address of the first mailbox of an address header's decoded text
 * ("Name <Addr@Host>", "addr@host (Name)", a group), read by GMime as
 * the From of a parsed mail is, lower case: two people are the same when
 * these are equal.  malloc'd; "" when the text holds no address, NULL
 * when out of memory. */
char *wn_mail_addr(const char *text);

#endif
