/* winnow — a mail's subject taken apart: is it a reply, is it a patch,
 * which version and part of which series, and the title every version
 * shares.  The one reader of "[PATCH v2 3/5]": the index links reviews
 * to patches with it, series memory and the queue group versions by it,
 * the bots tell a patch from a report by it. */
#ifndef WINNOW_SUBJECT_H
#define WINNOW_SUBJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/status.h"

/* "[PATCH bpf-next v2 3/5] bpf: clamp the count", taken apart. */
typedef struct wn_subject {
	char *prefix;		/* the bracket words but version and k/n, lower
				 * case: "patch bpf-next"; "" when none */
	int version;		/* 2; 1 when the subject names none */
	int part, total;	/* 3 and 5; 0 and 0 without "k/n" */
	bool rfc, resend;	/* the group says RFC, RESEND */
	char *tree;		/* the group's words but PATCH, the flags,
				 * version and k/n, as written: "bpf-next",
				 * "6.6.y", the "next" of "PATCH-next"; "" */
	char *title;		/* "bpf: clamp the count", normalised
				 * (wn_text_normalize): what every version shares */
	size_t title_at;	/* where the title begins in the subject given:
				 * subject + title_at is "bpf: Clamp  the count"
				 * as written, for a screen that shows it */
	bool reply;		/* a reply marker ("Re:", "Aw:", wn_text_reply_marker)
				 * came before the title */
	bool patch;		/* a bracket group named PATCH or RFC */
} wn_subject;

/* Parse a subject (may be NULL).  Everything before the title is taken
 * off, in any order: "Re:", "AW:", "Fwd:" and bracket groups; only a
 * group naming "PATCH" or "RFC" ("PATCHv3", "RFC PATCH", "net-next
 * PATCH", words split at blanks and commas) gives prefix, version and
 * k/n, a list's tag ("[Intel-wired-lan]") nothing; a slash splits
 * words too ("PATCH/RFC") but for k/n's, and "PATCH-next" is PATCH with
 * its tree.  WN_NOMEM is the only error. */
wn_status wn_subject_parse(const char *subject, wn_subject *out);
void wn_subject_clear(wn_subject *s);

/* What a posting is known by to a search for the patch a review names
 * by subject (index/link.c, and the cache that asks whether new mail
 * could change such an answer): its whole subject normalised (*key)
 * and its title (*title), both malloc'd; both NULL for a reply, which
 * is no posting.  WN_NOMEM is the only error. */
wn_status wn_subject_posting_keys(const char *subject, char **key, char **title);

/* A patch's own subject, or its cover letter's: a PATCH or RFC group
 * and no reply marker ("Re: [PATCH]" answers one).  May be NULL; reads
 * the subject as wn_subject_parse does, without allocating. */
bool wn_subject_is_patch(const char *subject);

/* Part k of a patch subject ("[PATCH v2 3/5]": 3); 0 when it names none
 * or is a reply.  Without allocating. */
int wn_subject_part(const char *subject);

#endif
