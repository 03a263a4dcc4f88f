/* winnow TUI — the review view's header block: the patch, the AI
 * attribution, the trailers, who answered the review. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "winnow/text.h"
#include "review-private.h"

static void attribution_row(const struct review *rv, const wn_attribution *a, struct row *r)
{
	row_add(r, ROLE_HEADER, CELL_NATURAL, "AI:");
	switch (a->status) {
	case WN_ATTR_MODEL:
		row_add(r, ROLE_A_MODEL, CELL_NATURAL, "model")->pad = 2;
		row_add(r, ROLE_A_MODEL, CELL_NATURAL, rv->model)->pad = 2;
		break;
	case WN_ATTR_GENERIC:
		row_add(r, ROLE_A_GENERIC, CELL_NATURAL, "generic LLM")->pad = 2;
		break;
	case WN_ATTR_OTHER:
		row_add(r, ROLE_A_OTHER, CELL_NATURAL, "other")->pad = 2;
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, "\"")->pad = 0;
		row_add(r, ROLE_A_OTHER, CELL_NATURAL, a->raw ? a->raw : "")->pad = 0;
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, "\"")->pad = 2;
		break;
	default:
		row_add(r, ROLE_A_NONE, CELL_NATURAL, "none disclosed");
		return;
	}
	if (a->ntools) {
		row_add(r, ROLE_HEADER, CELL_NATURAL, "tools:");
		row_add(r, ROLE_DEFAULT, CELL_FLEX, rv->tools);
	}
}

static bool is_assisted_by(const char *key)
{
	return key && !strcasecmp(key, "Assisted-by");
}

/* The trailer the compact header shows: Assisted-by, else the first. */
static size_t shown_trailer(const wn_patch_trailers *tr)
{
	for (size_t i = 0; i < tr->ntrailers; i++)
		if (is_assisted_by(tr->trailers[i].key))
			return i;
	return 0;
}

size_t review_header_count(const struct review *rv)
{
	const wn_item *it = rv->it;
	const wn_patch_trailers *tr = it->patch ? it->patch->trailers : NULL;
	/* subject, patch, review, reached the author, pw-bot */
	size_t n = 3 + (rv->reach ? 1 : 0) + (rv->npw ? 1 : 0);

	if (!tr)
		return n;
	if (!rv->details)
		return n + 1 + (tr->ntrailers || tr->codev_unsigned ? 1 : 0);
	return n + 1 + tr->ntrailers + (tr->codev_unsigned ? 1 : 0);
}

static void trailer_row(const wn_patch_trailers *tr, size_t k, struct row *r)
{
	const wn_trailer *x = &tr->trailers[k];
	bool ab = is_assisted_by(x->key);
	struct cell *c;

	/* The Assisted-by value in the colour of its class (model,
	 * generic, other), as the queue's badge. */
	c = row_add(r, ab ? role_of_attr(tr->attr.status) : ROLE_TRAILER_KEY, CELL_NATURAL, NULL);
	snprintf(c->own, sizeof(c->own), "  %.40s:", x->key);
	c->text = c->own;
	row_add(r, ab ? role_of_attr(tr->attr.status) : ROLE_TRAILER_VALUE, CELL_FLEX, x->value);
}

/* "Author replied 2026-11-03" (the first time), else "Mark replied
 * 2026-11-03" (the first human to): r lists them. */
static void replied_cells(const wn_item *it, struct row *r)
{
	const wn_reply *first = wn_item_author_reply(it);
	struct cell *c;
	char date[16];

	if (!first && (!it->who_read || !it->nreplies))
		return;
	if (!first)
		first = &it->replies[0];
	format_date(first->date, date);
	if (first->author) {
		c = row_addf(r, ROLE_REPLIED_AUTHOR, CELL_NATURAL, "Author replied %s", date);
	} else {
		char name[64];

		name_of(first->from, name, sizeof(name));
		c = row_addf(r, ROLE_REPLIED, CELL_NATURAL, "%s replied %s", name, date);
	}
	c->pad = it->newcomer ? 2 : 0;
}

/* "pw-bot:  cr  Name  date": the patchwork commands of the thread, the
 * newest last, as netdev's bot takes the last one. */
static void pwbot_row(const struct review *rv, struct row *r)
{
	char date[16];

	row_add(r, ROLE_HEADER, CELL_NATURAL, "pw-bot:");
	for (size_t i = 0; i < rv->npw; i++) {
		format_date(rv->pw[i].date, date);
		row_add(r, ROLE_WARNING, CELL_NATURAL, rv->pw[i].state);
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, rv->pw[i].from);
		row_addf(r, ROLE_DATE, CELL_NATURAL, "%s", date)->pad = 2;
	}
}

/* Header line k (k < review_header_count()). */
void review_header_row(struct tui *t, const struct review *rv, size_t k, struct row *r)
{
	const wn_item *it = rv->it;
	const wn_patch *p = it->patch;
	const wn_patch_trailers *tr = p ? p->trailers : NULL;
	struct cell *c;
	char date[16];

	if (k == 0) {
		/* Who answered and a newcomer's patch beside the subject:
		 * the one line with room to spare at 80 columns. */
		c = row_add(r, ROLE_SUBJECT, CELL_FLEX, p ? p->subject : it->subject);
		c->extra = TA_BOLD;
		replied_cells(it, r);
		if (it->newcomer)
			row_add(r, ROLE_NEWCOMER, CELL_NATURAL, "newcomer")->pad = 0;
		return;
	}
	if (k == 1) {
		if (!p) {
			row_add(r, ROLE_WARNING, CELL_NATURAL, "patch not in index");
			row_add(r, ROLE_DEFAULT, CELL_FLEX,
				"(the review is shown alone; its patch was not found in notmuch)");
			return;
		}
		format_date(p->date, date);
		row_add(r, ROLE_HEADER, CELL_NATURAL, "Patch:");
		row_add(r, ROLE_AUTHOR, CELL_NATURAL, p->author)->pad = 2;
		row_addf(r, ROLE_DATE, CELL_NATURAL, "%s", date)->pad = 2;
		row_addf(r, ROLE_DEFAULT, CELL_NATURAL, "linked by %s", wn_link_name(it->link));
		return;
	}
	if (k == 2) {
		format_date(it->date, date);
		row_add(r, ROLE_HEADER, CELL_NATURAL, "Review:");
		row_add(r, ROLE_BOT, CELL_NATURAL, wn_bot_label(it->bot));
		row_add(r, ROLE_DEFAULT, CELL_NATURAL, it->from)->pad = 2;
		row_addf(r, ROLE_DATE, CELL_NATURAL, "%s", date)->pad = 2;
		if (it->review && it->review->declared >= 0 &&
		    (size_t) it->review->declared != it->review->nfindings)
			row_addf(r, ROLE_WARNING, CELL_NATURAL, "%zu findings (the bot says %d)",
				 nfindings(rv), it->review->declared);
		else
			row_addf(r, ROLE_NCOUNT, CELL_NATURAL, "%zu finding%s", nfindings(rv),
				 nfindings(rv) == 1 ? "" : "s");
		return;
	}
	if (rv->reach && k == 3) {
		row_add(r, ROLE_HEADER, CELL_NATURAL, "Reached the author:");
		row_add(r, ROLE_DEFAULT, CELL_FLEX, rv->reach);
		return;
	}
	if (rv->reach)
		k--;
	if (rv->npw && k == 3) {
		pwbot_row(rv, r);
		return;
	}
	if (rv->npw)
		k--;
	if (!tr)
		return;
	if (k == 3) {
		attribution_row(rv, &tr->attr, r);
		return;
	}
	k -= 4;
	if (!rv->details) {
		/* One line: the telling trailer, and how to see them all. */
		if (tr->ntrailers)
			trailer_row(tr, shown_trailer(tr), r);
		if (tr->codev_unsigned)
			row_add(r, ROLE_WARNING, CELL_NATURAL, "! Co-developed-by unsigned");
		if (tr->ntrailers > 1 || tr->codev_unsigned) {
			char key[16] = "h";

			keymap_key_of(&t->keys, VIEW_REVIEW, ACT_DETAILS, key, sizeof(key));
			row_addf(r, ROLE_A_NONE, CELL_NATURAL, "%s: all %zu trailers", key,
				 tr->ntrailers)->pad = 0;
		}
		return;
	}
	if (k < tr->ntrailers) {
		trailer_row(tr, k, r);
		return;
	}
	row_add(r, ROLE_WARNING, CELL_FLEX,
		"  ! a Co-developed-by is not followed by the same person's Signed-off-by");
}
