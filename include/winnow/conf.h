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
#define WN_DEFAULT_TOOL_TIMEOUT 300
/* git's approxidate, as lei's rt: takes it */
#define WN_DEFAULT_FETCH_SINCE "4.weeks.ago"
#define WN_DEFAULT_FETCH_FOLDER "lore"
#define WN_DEFAULT_NEWCOMER 5
#define WN_DEFAULT_MAX_RECIPIENTS 100
/* winnow undo N asks before undoing more changes than this. */
#define WN_DEFAULT_UNDO_CONFIRM 5

/* A setting of one mailing list, winnow.KEY.<list-address>: the
 * forward_trailer line added to forwards of a patch sent to that list
 * ("pw-bot: cr" for netdev's patchwork bot), the forward_template and
 * forward_reply_template files used for such a patch. */
typedef struct wn_conf_trailer {
	char *list;		/* the list's address, lower case */
	char *line;		/* the value, as configured */
} wn_conf_trailer;

typedef struct wn_conf {
	char *query;		/* winnow.query; default: every bot's
				 * wn_bot_query() or'ed (review.h) */
	char *theme;		/* winnow.theme: name or path; NULL = built-in */
	char *sendmail;		/* winnow.sendmail: command, split into words */
	int sendmail_timeout;	/* winnow.sendmail_timeout: seconds sendmail may
				 * take before it is stopped; 0: no limit; -1:
				 * not a number (wn_conf_check refuses it) */
	int tool_timeout;	/* winnow.tool_timeout: seconds b4, git and lei
				 * may take (lore.h); 0: no limit; -1: not a
				 * number (wn_conf_check refuses it) */
	char *sent_folder;	/* winnow.sent_folder: maildir folder under the
				 * database for copies of sent mail; NULL: none */
	char *drafts_folder;	/* winnow.drafts_folder: maildir folder under the
				 * database that drafts are written to for the
				 * user's mailer; NULL: none */
	char *forward_template;	/* winnow.forward_template: file; NULL: built-in */
	char *reply_template;	/* winnow.forward_reply_template: file for the
				 * verdict reply to a review the author has;
				 * NULL: built-in */
	int max_recipients;	/* winnow.max_recipients: a mail to more is
				 * confirmed (--force); -1: not a number */
	char *cc;		/* winnow.cc: Cc of forwarded findings (see
				 * forward.h); NULL: everyone on the patch's To
				 * and Cc (a group reply) */
	char *tagprefix;	/* winnow.tagprefix */
	char **optout;		/* winnow.optout: ';'-separated addresses, lower case, NULL-terminated */
	char **bots;		/* winnow.bots: extra senders read with the generic rule, NULL-terminated */
	char *tree;		/* winnow.tree: the maintainer's kernel tree, a
				 * git checkout (the ledger's fixes, winnow fetch's
				 * MAINTAINERS, the tree a finding is read in);
				 * NULL: none */
	char **files;		/* winnow.files: ';'-separated path patterns
				 * whose patches winnow fetch asks lei for,
				 * NULL-terminated */
	char **sections;	/* winnow.sections: ';'-separated MAINTAINERS
				 * section names (read from winnow.tree) */
	char *fetch_since;	/* winnow.fetch_since: how far back winnow
				 * fetch looks, as lei's rt: takes it */
	char *fetch_folder;	/* winnow.fetch_folder: maildir folder under the
				 * database that lei writes into */
	bool show_summaries;	/* winnow.show_summaries: list the bots' mails
				 * that are no reviews too (summaries,
				 * follow-ups, their own patches) */
	int newcomer;		/* winnow.newcomer: a patch author with fewer
				 * earlier patches in the index is new; 0: mark
				 * nobody; -1: not a number (wn_conf_check) */
	wn_conf_trailer *forward_trailers;	/* winnow.forward_trailer.* */
	size_t nforward_trailers;
	wn_conf_trailer *list_templates;	/* winnow.forward_template.* */
	size_t nlist_templates;
	wn_conf_trailer *list_reply_templates;	/* winnow.forward_reply_template.* */
	size_t nlist_reply_templates;
	bool ask_reason;	/* winnow.ask_reason: the interface asks why
				 * after f; default true */
	int undo_confirm;	/* winnow.undo_confirm: undo asks before
				 * undoing more changes than this; -1: not a
				 * number (wn_conf_check) */
	bool no_cache;		/* winnow.cache false: parse every review
				 * each time, keep nothing (index/cache.c) */
	char *user_name;	/* user.name */
	char *user_email;	/* user.primary_email */
	char **other_email;	/* user.other_email: the user's other addresses,
				 * lower case, NULL-terminated */
} wn_conf;

/* Fill c with the defaults. */
wn_status wn_conf_init(wn_conf *c);
/* Apply one key (with or without the "winnow." prefix; "user.name",
 * "user.primary_email" and "user.other_email" too).  Unknown keys are ignored and give WN_OK so
 * that newer configs work with older winnow. */
wn_status wn_conf_set(wn_conf *c, const char *key, const char *value);
/* Refuse values that would do harm, with a message naming the key: an
 * empty or odd winnow.tagprefix would write bare "valid" or "triaged"
 * into the user's own tags; a winnow.forward_trailer line with a line
 * break or control character would be sent as it is. */
wn_status wn_conf_check(const wn_conf *c, wn_error *err);
void wn_conf_clear(wn_conf *c);

#endif
