/* winnow — statistics over verdicts: how often each bot is right.
 *
 * A wn_stats counts loaded reviews (wn_item) into groups, one review at
 * a time, so a pass over any number of reviews holds the groups only,
 * never the reviews: the caller loads a review, adds it and frees it.
 * `winnow stats` and the TUI's stats view both count through here, so
 * they cannot disagree. */
#ifndef WINNOW_STATS_H
#define WINNOW_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include "winnow/status.h"
#include "winnow/index.h"
#include "winnow/verdict.h"

/* What reviews are grouped by.  X(enum suffix, name, help) */
#define WN_STATS_KEY_LIST(X)                                                          \
	X(BOT,         "bot",         "the bot that wrote the review")                 \
	X(SEVERITY,    "severity",    "the finding's severity")                        \
	X(LIST,        "list",        "the patch's mailing list (List-Id, else its first list address)") \
	X(AUTHOR,      "author",      "the patch author's address")                    \
	X(ATTRIBUTION, "attribution", "the patch's AI attribution: none, model, generic, other") \
	X(MODEL,       "model",       "the model the patch's Assisted-by names")       \
	X(MONTH,       "month",       "the month of the review, UTC (YYYY-MM)")         \
	X(MAINTAINER_SEVERITY, "maintainer-severity", "your own severity of the finding (mark --severity)") \
	X(REASON,      "reason",      "why you gave the verdict (mark --reason)")

typedef enum {
#define WN_X_(e, name, help) WN_STATS_BY_##e,
	WN_STATS_KEY_LIST(WN_X_)
#undef WN_X_
	WN_STATS_KEY_COUNT
} wn_stats_key;

/* At most this many keys at once (--by=bot,severity). */
#define WN_STATS_MAX_KEYS 2

const char *wn_stats_key_name(wn_stats_key k);
const char *wn_stats_key_help(wn_stats_key k);
/* Parse "bot" or "bot,severity" into keys[], *n of them.  WN_USAGE
 * (with a message) for an unknown or repeated key, or too many. */
wn_status wn_stats_keys_parse(const char *spec, wn_stats_key keys[WN_STATS_MAX_KEYS],
			      size_t *n, wn_error *err);

/* The counts of one group.  A review counts once in every group one of
 * its findings falls in (grouped by severity, a review with a high and
 * a low finding is in both); a review without findings falls in the
 * groups of its review-wide keys only, never in a severity. */
typedef struct wn_stats_counts {
	unsigned long reviews;
	unsigned long findings;
	unsigned long verdicts[WN_VERDICT_COUNT];	/* findings by verdict */
	unsigned long forwarded;
	/* Triaged findings: agree[the bot called it pre-existing][the
	 * maintainer marked it pre-existing]. */
	unsigned long agree[2][2];
	/* Findings whose own severity the maintainer set to another than
	 * the bot's. */
	unsigned long regraded;
	/* With facts (wn_stats_add_facts): findings a later patch of their
	 * series changes the function of (WN_STATS_LATER), and findings
	 * judged valid that a later version no longer has (WN_STATS_FIXED). */
	unsigned long later_patch, fixed_later;
	/* Reviews the patch's author answered (wn_index_load_who read:
	 * the author replied; a review whose replies were not read counts
	 * as not answered). */
	unsigned long author_replied;
	/* False positives by their reason; [WN_REASON_NONE]:
	 * those given without one. */
	unsigned long fp_reason[WN_REASON_COUNT];
	/* Bugs the bot missed (winnow missed), recorded on its reviews: a
	 * review's count once in every group it falls in, as reviews. */
	unsigned long missed;
} wn_stats_counts;

/* What the counts say.  With no triaged finding there is no rate: the
 * has_rate flag is false and the numbers are 0. */
typedef struct wn_stats_rates {
	unsigned long triaged;		/* valid + false positive + pre-existing */
	bool has_rate;
	double fp_rate;			/* false positives / triaged */
	double fp_low, fp_high;		/* its 95% Wilson score interval */
	double pre_share;		/* pre-existing / triaged */
} wn_stats_rates;

void wn_stats_rates_of(const wn_stats_counts *c, wn_stats_rates *out);

/* The 95% Wilson score interval of k successes in n trials into *lo,
 * *hi; false (and 0, 0) when n is 0. */
bool wn_wilson(unsigned long k, unsigned long n, double *lo, double *hi);

#define WN_STATS_MAX_SPELLINGS 8
#define WN_STATS_SPELLING_MAX 64

typedef struct wn_stats_group {
	/* The group's value of each key, in the order of the keys; NULL
	 * when a review has none (no patch in the index, no severity, no
	 * model named).  Bot and attribution by their JSON names. */
	char *value[WN_STATS_MAX_KEYS];
	wn_stats_counts c;
	/* Grouped by model, the value is the key wn_model_key() gives every
	 * spelling of one model ("claude-opus-4.6"); these are the model
	 * names as the patches wrote them, distinct, in byte order after
	 * wn_stats_sort(): at most WN_STATS_MAX_SPELLINGS of them, each cut
	 * to WN_STATS_SPELLING_MAX bytes; spellings_cut when there were
	 * more.  None for the other keys. */
	char *spellings[WN_STATS_MAX_SPELLINGS];
	size_t nspellings;
	bool spellings_cut;
	/* With WN_STATS_MEMBERS: the tags (wn_stats_add) of its reviews,
	 * in the order they were added. */
	size_t *members;
	size_t nmembers;
} wn_stats_group;

typedef struct wn_stats wn_stats;

enum {
	/* Keep each group's members (for a front end that lists them);
	 * memory then grows with the reviews, not only the groups. */
	WN_STATS_MEMBERS = 1 << 0,
};

wn_status wn_stats_new(const wn_stats_key *keys, size_t nkeys, unsigned flags,
		       wn_stats **out, wn_error *err);
void wn_stats_free(wn_stats **s);

/* Count a loaded review (it->loaded); tag names it among the members
 * (see WN_STATS_MEMBERS).  A review that could not be read
 * (it->load_error) is counted as unreadable only.  WN_NOMEM is the only
 * error. */
wn_status wn_stats_add(wn_stats *s, const wn_item *it, size_t tag);

/* What the review alone does not say of a finding; series.h finds it. */
enum {
	WN_STATS_LATER = 1 << 0,	/* a later patch of the series changes its function */
	WN_STATS_FIXED = 1 << 1,	/* valid, and likely fixed in a later version */
};

/* wn_stats_add() with facts[i] (WN_STATS_*) for finding i; NULL: none. */
wn_status wn_stats_add_facts(wn_stats *s, const wn_item *it, size_t tag, const unsigned *facts);

/* Put the groups in their order: each key's natural order (the bot
 * table, most severe first, none/model/generic/other, months oldest
 * first), the others alphabetically; no value last. */
void wn_stats_sort(wn_stats *s);

size_t wn_stats_nkeys(const wn_stats *s);
wn_stats_key wn_stats_key_at(const wn_stats *s, size_t i);
size_t wn_stats_ngroups(const wn_stats *s);
/* Group i (< ngroups); valid until the next wn_stats_add(). */
const wn_stats_group *wn_stats_group_at(const wn_stats *s, size_t i);

/* The spellings of group g's model (wn_stats_group), each followed by
 * sep but the last, then more when there were more than it keeps.
 * malloc'd; "" for a group without spellings; NULL when out of memory.
 * Mail text, not sanitised: print it through a printer or the screen's
 * own sanitising. */
char *wn_stats_spellings(const wn_stats_group *g, const char *sep, const char *more);
/* Group g's model key v with the spellings it groups, when they are
 * not just the key: "claude-opus-4.6 (claude-4.6-opus, claude-opus-4-6)",
 * else v alone; more as for wn_stats_spellings().  Malloc'd, NULL when
 * out of memory.  The command line's table and the interface's S view
 * say a model so. */
char *wn_stats_model_label(const wn_stats_group *g, const char *v, const char *more);
/* Every review counted (each once), and how many could not be read. */
const wn_stats_counts *wn_stats_total(const wn_stats *s);
unsigned long wn_stats_unreadable(const wn_stats *s);

/* --- bars ----------------------------------------------------------- */

/* The order of a bar's segments: the decided verdicts, then what is
 * left to decide. */
extern const wn_verdict wn_stats_bar_order[WN_VERDICT_COUNT];

/* Split a bar of width columns for findings out of max (the largest
 * group's findings) into segments per verdict, by largest remainder:
 * out[v] columns for verdict v, summing to the bar's length. */
void wn_stats_bar(const wn_stats_counts *c, unsigned long max, int width,
		  int out[WN_VERDICT_COUNT]);

/* The character a bar draws verdict v with where colour cannot tell
 * them apart (plain text, NO_COLOR): ASCII, or when utf8 a block
 * character. */
const char *wn_stats_glyph(wn_verdict v, bool utf8);

#endif
