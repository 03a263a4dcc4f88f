/* winnow — configuration, read from the [winnow] section of the notmuch
 * config (notmuch config set winnow.query ...). */
#ifndef WINNOW_CONF_H
#define WINNOW_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include "winnow/status.h"

#define WN_DEFAULT_SENDMAIL  "sendmail -t -oi"
#define WN_DEFAULT_TAGPREFIX "winnow/"
#define WN_DEFAULT_SENDMAIL_TIMEOUT 120

typedef struct wn_conf {
	char *query;		/* winnow.query; default: every bot's
				 * wn_bot_query() or'ed (review.h) */
	char *theme;		/* winnow.theme: name or path; NULL = built-in */
	char *sendmail;		/* winnow.sendmail: command, split into words */
	int sendmail_timeout;	/* winnow.sendmail_timeout: seconds sendmail may
				 * take before it is stopped; 0: no limit; -1:
				 * not a number (wn_conf_check refuses it) */
	char *sent_folder;	/* winnow.sent_folder: maildir folder under the
				 * database for copies of sent mail; NULL: none */
	char *forward_template;	/* winnow.forward_template: file; NULL: built-in */
	char *cc;		/* winnow.cc: Cc of forwarded findings (see
				 * forward.h); NULL: the patch's lists */
	char *tagprefix;	/* winnow.tagprefix */
	char **optout;		/* winnow.optout: ';'-separated addresses, lower case, NULL-terminated */
	char **bots;		/* winnow.bots: extra senders read with the generic rule, NULL-terminated */
	bool show_summaries;	/* winnow.show_summaries: list the bots' mails
				 * that are no reviews too (summaries,
				 * follow-ups, their own patches) */
	bool no_cache;		/* winnow.cache false: parse every review
				 * each time, keep nothing (index/cache.c) */
	char *user_name;	/* user.name */
	char *user_email;	/* user.primary_email */
} wn_conf;

/* Fill c with the defaults. */
wn_status wn_conf_init(wn_conf *c);
/* Apply one key (with or without the "winnow." prefix; "user.name" and
 * "user.primary_email" too).  Unknown keys are ignored and give WN_OK so
 * that newer configs work with older winnow. */
wn_status wn_conf_set(wn_conf *c, const char *key, const char *value);
/* Refuse values that would do harm, with a message naming the key: an
 * empty or odd winnow.tagprefix would write bare "valid" or "triaged"
 * into the user's own tags. */
wn_status wn_conf_check(const wn_conf *c, wn_error *err);
void wn_conf_clear(wn_conf *c);

#endif
