/* winnow — a message's place in notmuch's thread tree, from headers
 * (see tree.h).  notmuch 0.37 takes the thread's messages oldest first;
 * each but the first goes under its "replyto" when that is in the
 * thread, else into a list of roots; the first joins that list last
 * unless it has a replyto there and the list is not empty.  Each root
 * and what hangs below it is labelled with its depth; then each root
 * but the last (or every root once one went to the top) goes under the
 * deepest of its references in the thread (the first in the terms'
 * order of those as deep), or to the top when none is there. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "link-memo.h"
#include "message.h"
#include "parent.h"
#include "tree.h"
#include "winnow/mail.h"

/* What a par slot holds besides an index into v. */
enum { PARENT_UNREAD = -1, PARENT_TOP = -2, PARENT_UNSURE = -3 };

bool wn_tree_ready(wn_index *idx, struct wn_who_thread *t)
{
	size_t n = t->n ? t->n : 1;
	bool usable = true, ok;

	if (t->par)
		return true;
	ok = (t->addr = calloc(n, sizeof(*t->addr))) && (t->par = calloc(n, sizeof(*t->par)));
	t->npar = ok ? t->n : 0;
	/* The addresses once for the thread's reviews, not once for each. */
	for (size_t i = 0; ok && i < t->n; i++)
		ok = (t->addr[i] = wn_message_addr(&idx->addrs,
						   t->v[i].from ? t->v[i].from : "")) != NULL;
	/* An id missing or too long for parent.c leaves every parent
	 * unsure: whether an id is in the thread is asked of ids. */
	for (size_t i = 0; ok && usable && i < t->n; i++) {
		const char *id = t->v[i].id;

		if (!id || strlen(id) > WN_PARENT_ID_MAX || wn_map_get(&t->ids, id, strlen(id)))
			usable = false;
		else
			ok = wn_map_put(&t->ids, id, strlen(id), (void *) (uintptr_t) (i + 1)) == WN_OK;
	}
	if (!ok) {
		wn_who_parents_clear(t);
		return false;
	}
	for (size_t i = 0; i < t->n; i++)
		t->par[i].replyto = t->par[i].tree = usable ? PARENT_UNREAD : PARENT_UNSURE;
	return true;
}

size_t wn_tree_at(const struct wn_who_thread *t, const char *id)
{
	return (size_t) (uintptr_t) wn_map_get(&t->ids, id, strlen(id));
}

/* Could message i be the first of notmuch's list: none older? */
static bool maybe_first(const struct wn_who_thread *t, size_t i)
{
	for (size_t k = 0; k < t->n; k++)
		if (t->v[k].date < t->v[i].date)
			return false;
	return true;
}

/* Set par[i].replyto (and refs, for a root) from indexing's terms p:
 * unsure for a message that is its own replyto, or may be the first
 * (which goes under its replyto only when some other is a root). */
static bool take_terms(struct wn_who_thread *t, size_t i, const wn_parent_ids *p)
{
	struct wn_who_par *x = &t->par[i];
	size_t j = p->replyto && *p->replyto ? wn_tree_at(t, p->replyto) : 0;

	if (j) {
		x->replyto = j - 1 == i || maybe_first(t, i) ? PARENT_UNSURE : (long) (j - 1);
		return true;
	}
	x->replyto = PARENT_TOP;
	for (char **r = p->refs; *r; r++) {
		size_t k = wn_tree_at(t, *r), *grown;

		if (!k)
			continue;
		if (!(grown = realloc(x->refs, (x->nrefs + 1) * sizeof(*grown))))
			return false;
		x->refs = grown;
		grown[x->nrefs++] = k - 1;
	}
	return true;
}

/* Read message i's terms once per thread (par[i].replyto); unsure too
 * where notmuch might have indexed other headers than its file's now
 * (several files) or parent.c is unsure of them.  False when out of
 * memory. */
static bool read_terms(wn_index *idx, struct wn_who_thread *t, size_t i)
{
	notmuch_message_t *m;
	wn_parent_ids p = { NULL, NULL };
	bool sure = false, ok = true;
	const wn_path_memo *kept;
	const char *f;

	if (t->par[i].replyto != PARENT_UNREAD)
		return true;
	/* The one file this run read the message from, when it did: else,
	 * or when that is gone or unsure, notmuch's name of it. */
	kept = wn_link_memo_paths(wn_link_memo_sync(&idx->memo, idx->generation));
	if ((f = wn_path_memo_get(kept, t->v[i].id)) &&
	    (ok = wn_parent_read(f, t->v[i].id, &p, &sure) != WN_NOMEM) && !sure)
		wn_parent_ids_clear(&p);
	if (ok && !sure && (m = wn_message_lookup_read(idx->db, t->v[i].id, NULL))) {
		f = notmuch_message_count_files(m) == 1 ? notmuch_message_get_filename(m) : NULL;

		ok = !f || wn_parent_read(f, t->v[i].id, &p, &sure) != WN_NOMEM;
		notmuch_message_destroy(m);
	}
	if (ok && sure)
		ok = take_terms(t, i, &p);
	else if (ok)
		t->par[i].replyto = PARENT_UNSURE;
	wn_parent_ids_clear(&p);
	if (!ok) {
		free(t->par[i].refs);
		t->par[i].refs = NULL;
		t->par[i].nrefs = 0;
		t->par[i].replyto = PARENT_UNREAD;
	}
	return ok;
}

/* The depth notmuch labels message i with: its replyto steps to a
 * root.  -1 when unsure (or in a cycle, never labelled), -2 when out of
 * memory. */
static long depth(wn_index *idx, struct wn_who_thread *t, size_t i)
{
	long d = 0;

	for (size_t x = i; d <= (long) t->n; d++) {
		if (!read_terms(idx, t, x))
			return -2;
		if (t->par[x].replyto == PARENT_UNSURE)
			return -1;
		if (t->par[x].replyto == PARENT_TOP)
			return d;
		x = (size_t) t->par[x].replyto;
	}
	return -1;
}

/* The oldest message, which notmuch's list has first; -1 when two or
 * more are as old. */
static long first(const struct wn_who_thread *t)
{
	long f = -1;

	for (size_t k = 0; k < t->n; k++)
		if (f < 0 || t->v[k].date < t->v[f].date)
			f = (long) k;
	for (size_t k = 0; f >= 0 && k < t->n; k++)
		if (k != (size_t) f && t->v[k].date == t->v[f].date)
			return -1;
	return f;
}

/* Root i's parent by its references: the deepest there (ties: the
 * smallest id, the first term).  Sure only when i is not the list's
 * last root: the first message is, being a root itself. */
static long by_references(wn_index *idx, struct wn_who_thread *t, size_t i, bool *oom)
{
	const struct wn_who_par *x = &t->par[i];
	long f = first(t), best = -1, best_depth = -1;

	if (f < 0 || (size_t) f == i)
		return PARENT_UNSURE;
	if (!read_terms(idx, t, (size_t) f)) {
		*oom = true;
		return PARENT_UNSURE;
	}
	if (t->par[f].replyto != PARENT_TOP)
		return PARENT_UNSURE;
	for (size_t k = 0; k < x->nrefs; k++) {
		size_t r = t->par[i].refs[k];
		long d = depth(idx, t, r);

		if (d < 0) {
			*oom = d == -2;
			return PARENT_UNSURE;
		}
		if (d > best_depth || (d == best_depth && strcmp(t->v[r].id, t->v[best].id) < 0)) {
			best = (long) r;
			best_depth = d;
		}
	}
	return best;
}

/* Message i's parent in notmuch's tree (par[i].tree). */
static long tree_parent(wn_index *idx, struct wn_who_thread *t, size_t i, bool *oom)
{
	struct wn_who_par *x = &t->par[i];

	if (x->tree != PARENT_UNREAD)
		return x->tree;
	if (!read_terms(idx, t, i)) {
		*oom = true;
		return PARENT_UNSURE;
	}
	if (x->replyto != PARENT_TOP)
		x->tree = x->replyto;
	else if (!x->nrefs)
		x->tree = PARENT_TOP;
	else if ((x->tree = by_references(idx, t, i, oom)) == PARENT_UNSURE && *oom)
		x->tree = PARENT_UNREAD;
	return *oom ? PARENT_UNSURE : t->par[i].tree;
}

enum wn_below wn_tree_below(wn_index *idx, struct wn_who_thread *t, size_t c, size_t r)
{
	bool seen = false, oom = false;
	size_t x = c;

	/* Up from c: through r, and on to the top (r itself placed). */
	for (size_t steps = 0; steps <= t->n; steps++) {
		long p = tree_parent(idx, t, x, &oom);

		if (oom)
			return WN_BELOW_NOMEM;
		if (p == PARENT_UNSURE)
			return WN_BELOW_UNSURE;
		if (p == PARENT_TOP)
			return seen ? WN_BELOW_YES : WN_BELOW_NO;
		seen = seen || (size_t) p == r;
		x = (size_t) p;
	}
	return WN_BELOW_UNSURE;	/* a cycle: out of the tree, or not */
}
