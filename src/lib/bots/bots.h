/* winnow — the bot interface: what one file in src/lib/bots/ provides.
 *
 * Every bot is one file that ends with one descriptor, as htop's meters
 * end with a MeterClass:
 *
 *	const struct rv_bot wn_rv_bot_SASHIKO = {
 *		.sent_by = sent_by,
 *		.parse = parse,
 *		.query = "from:sashiko-bot@kernel.org",
 *	};
 *
 * Its key is its line in WN_BOT_LIST (include/winnow/review.h): the enum
 * suffix names the descriptor, and the line gives the bot its id, the
 * name used in JSON, the CLI and the config, and the label the TUI
 * shows.  The order of that list is the order review.c asks the bots.
 * Adding a bot: a file here (named in src/lib/bots/bots.am too: automake
 * lists every source), a line in WN_BOT_LIST before GENERIC, a folder
 * in tests/corpus/. */
#ifndef WINNOW_BOTS_H
#define WINNOW_BOTS_H

#include "build.h"
#include "winnow/mail.h"

/* A mail as the detection rules see it. */
struct rv_mail {
	const wn_mail *m;
	const char *from;		/* the sender's address, "" when none */
	const char *subject;		/* "" when none */
	const char *local;		/* from before its last '@'; NULL when */
	size_t local_n;			/* from has no '@' (or starts with it) */
	const char *domain;		/* from after that '@'; NULL with local */
	const char *const *generic_senders;	/* winnow.bots, lower case; may be NULL */
};

/* What a bot's headers rule says.  A bot's mails that are no reviews
 * (status mails, follow-ups) are still its own: its parser gives them
 * their wn_kind. */
enum rv_claim {
	RV_NOT_MINE,
	RV_MINE,
};

struct rv_bot {
	/* The headers name the bot as the sender (its address, its subject
	 * tag).  Asked of every bot, in table order, before any
	 * looks_like(): the first answer other than RV_NOT_MINE decides.
	 * NULL: the bot has no sender of its own. */
	enum rv_claim (*sent_by)(const struct rv_mail *m);
	/* Weaker evidence, asked in table order once no sent_by() decided:
	 * the text reads as the bot's whoever sent it (a maintainer passing
	 * a review on), or the user listed the sender.  NULL: never. */
	bool (*looks_like)(const struct rv_mail *m);
	/* Split the body into findings (see build.h).  Never fails: a mail
	 * that yields nothing gets wn_rv_explain()'d. */
	void (*parse)(struct rv_ctx *c, const struct rv_lines *L);
	/* The notmuch query term that finds the bot's mails, or'ed into
	 * the default winnow.query.  NULL: none. */
	const char *query;
	/* Who sends its mails, in words, for winnow(1)'s BOTS table
	 * ("lkp@intel.com (Intel's kernel test robot)"). */
	const char *sender;
	/* The notmuch query of its mails whose kind the queue leaves out
	 * (wn_kind_queued()): it must select what parse() gives such a
	 * kind, by the same rule.  NULL: none. */
	const char *hidden;
	/* What marks the line of its mails that links to the review online
	 * ("Sashiko AI review · https://..."): forwarded findings and
	 * feedback quote that link.  NULL: its mails carry none. */
	const char *link_marker;
	/* Tags it puts before the subject of the patch it answers, ahead of
	 * any "Re:" ("[syzbot ci] Re: [PATCH ...]"), stripped when a review
	 * is matched to its patch by subject.  NULL-terminated; NULL: none. */
	const char *const *subject_tags;
	/* Each finding's summary is the title of one bug ("KASAN:
	 * use-after-free Read in foo"): two findings with different titles
	 * are different bugs however alike their text, and no verdict is
	 * carried between them (wn_sim_same_bug). */
	bool title_names_bug;
	/* A person sends its reviews on to the patch's thread (netdev's
	 * maintainers send the AI review), so that two may send the same
	 * one: the index takes the later for a copy (wn_bot_passed_on). */
	bool passed_on;
	/* The bot reads replies to its reports: a line "#syz invalid",
	 * "#syz dup: ..." changes the report's state, so a report gets a
	 * state of its own (invalid, duplicate of, fixed by) and a reply
	 * that tells the bot (wn_review_tracks_state). */
	bool reads_replies;
};

/* One descriptor per line of WN_BOT_LIST. */
#define WN_X_(e, name, label) extern const struct rv_bot wn_rv_bot_##e;
WN_BOT_LIST(WN_X_)
#undef WN_X_

#endif
