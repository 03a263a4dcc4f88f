/* winnow — how verdicts and notes are laid out in notmuch properties,
 * for the reader (index.c) and the writer (store-writer.c) alike.
 *
 *   winnow.verdict.<fp>=<state>
 *   winnow.note.<fp>=<first piece of the note>
 *   winnow.note.<fp>.2=<second piece>, .3, ...
 *   winnow.forwarded.<fp>=<time> <message-id>
 *   winnow.severity.<fp>=<the maintainer's severity>
 *   winnow.reported.<fp>=<time> <message-id of the feedback digest>
 *   winnow.reason.<fp>=<why the verdict was given: a WN_REASON_LIST name>
 *   winnow.missed.<id>=<time> <note>  a bug the bot missed (per review)
 *   winnow.closed.<fp>=dup <msgid> | fix <hash>  a syzbot report's
 *       duplicate or fixing commit (WN_CRASH_LIST), set with its verdict
 *
 * Xapian refuses a term longer than 245 bytes, and a property is one
 * term ("XPROPERTY" key "=" value): a note longer than about 200 bytes
 * in one property makes libnotmuch exit.  So a note is cut into pieces
 * of at most WN_NOTE_PIECE bytes, on character boundaries; readers that
 * know only the first key still see the note's beginning, and every
 * piece travels with `notmuch dump --include=properties`. */
#ifndef WINNOW_PROPS_H
#define WINNOW_PROPS_H

#include <notmuch.h>
#include <stdbool.h>

#include "winnow/index.h"
#include "winnow/verdict.h"

#define WN_NOTE_PIECE 150
/* Longest note accepted (bytes): far beyond a reasonable note, and a
 * bound on what one finding can put into the index. */
#define WN_NOTE_MAX 65536

/* Set (value non-empty) or remove (NULL or "") the verdict property. */
notmuch_status_t wn_props_set_verdict(notmuch_message_t *msg, const char *fp, wn_verdict v);
/* Replace the note of fp, in pieces; NULL or "" removes it. */
notmuch_status_t wn_props_set_note(notmuch_message_t *msg, const char *fp, const char *note);

/* The per-finding arrays the properties fill (verdicts, notes,
 * forwarded, severity, reported: n entries, at least one); false when
 * out of memory (then wn_props_free_item() undoes what was made). */
bool wn_props_alloc_item(wn_item *it, size_t n);
/* Free those arrays, n entries each, and the warning; NULL after. */
void wn_props_free_item(wn_item *it, size_t n);

/* Set (or, value NULL or "", remove) the one value of prefix<fp>. */
notmuch_status_t wn_props_set_one(notmuch_message_t *msg, const char *prefix, const char *fp,
				  const char *value);
/* The stored maintainer's severity of fp; WN_SEV_NONE when unset. */
wn_severity wn_props_read_severity(notmuch_message_t *msg, const char *fp);

/* Add a miss record ("<time> <note>") to it->misses, unless it holds
 * that one already; out of memory drops it rather than the item. */
void wn_props_add_miss(wn_item *it, const char *val);

/* The stored reason of fp; WN_REASON_NONE when unset or unknown. */
wn_reason wn_props_read_reason(notmuch_message_t *msg, const char *fp);

/* The stored winnow.closed value of fp (malloc'd); NULL when unset,
 * not of its shape, or out of memory. */
char *wn_props_read_closed(notmuch_message_t *msg, const char *fp);

/* The stored verdict and note (malloc'd, NULL when none) of one
 * finding.  false only when out of memory. */
bool wn_props_read_finding(notmuch_message_t *msg, const char *fp, wn_verdict *v, char **note);

/* Properties of a message into it->verdicts/notes/forwarded, and
 * it->counts recounted (wn_item_count, defined in props.c). */
void wn_props_read_item(wn_item *it, notmuch_message_t *msg);

#endif
