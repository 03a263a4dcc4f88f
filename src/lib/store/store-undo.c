/* winnow — undo, redo and the history of actions: an action is reverted
 * from the state its findings hold now, never from what a screen showed
 * (store.c says why).  Line formats: store-private.h. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../index/props.h"
#include "store-private.h"
#include "winnow/text.h"

/* --- undo ------------------------------------------------------------------ */

/* How one action an undo reached went: findings that went back,
 * findings that keep a newer decision (the first of those, and that
 * decision).  A redo refused fills the kept part the same way. */
struct step {
	char *group;		/* the action */
	size_t reverted, kept;
	char *kept_review, *kept_fp;
	wn_verdict kept_v;
	wn_severity kept_sev;
};

struct undo {
	wn_store *s;
	const char *want;	/* the action to undo; NULL: the newest */
	size_t steps;		/* actions to undo at most, newest first */
	bool reach;		/* the newest within s->reach, not spent */
	size_t first;
	struct step *v;		/* the actions reached, newest first */
	size_t n;
	wn_map taken;		/* their groups */
	/* Each one described, before the journal is written: once it is,
	 * nothing may fail, or a caller told "out of memory" would undo
	 * once more an undo that was done. */
	wn_history_item *h;
};

static void step_clear(struct step *p)
{
	free(p->group);
	free(p->kept_review);
	free(p->kept_fp);
	memset(p, 0, sizeof(*p));
}

static void undo_clear(struct undo *u)
{
	wn_history_free(&u->h, u->n);
	for (size_t k = 0; k < u->n; k++)
		step_clear(&u->v[k]);
	free(u->v);
	u->v = NULL;
	u->n = 0;
	wn_map_free(&u->taken, NULL);
}

/* The first finding of p's action found changed since: say which. */
static wn_status note_kept(struct step *p, const char *msgid, const char *fp, wn_verdict v,
			   wn_severity sev)
{
	if (p->kept++)
		return WN_OK;
	p->kept_v = v;
	p->kept_sev = sev;
	if (!(p->kept_review = strdup(msgid)) || !(p->kept_fp = strdup(fp)))
		return WN_NOMEM;
	return WN_OK;
}

/* Can the entry's action be undone (a user's mark or a redo, not yet
 * undone)? */
static bool undoable(const struct entry *e)
{
	return !e->undone && !e->undo_of && !e->forward;
}

/* Does change c (of a verdict or severity entry) still hold, by the
 * finding's state now? */
static bool still_holds(const struct change *c, bool severity, wn_verdict v, const char *note,
			wn_severity sev, wn_reason reason, const char *closed)
{
	if (severity)
		return sev == c->sev;
	return v == c->v && (!c->has_note || strcmp(note ? note : "", c->note ? c->note : "") == 0) &&
	       (!c->has_reason || reason == c->reason) &&
	       (!c->has_closed || strcmp(closed ? closed : "", c->closed ? c->closed : "") == 0);
}

/* The revert of entry oi, in group (NULL: start one), from the state of
 * each finding now.  A finding changed again since (by a later action,
 * or by another program) keeps that newer decision: only what still
 * holds the action's value goes back.  When nothing goes back there is
 * no entry: an undo that changes nothing journals nothing.  A redo
 * reverts an undo's entry the same way, but all or nothing: at the
 * first finding changed since it stops (p->kept), and the caller drops
 * the redo. */
static wn_status push_reverse(wn_store *s, struct step *p, size_t oi, const char *group,
			      notmuch_message_t *msg, bool redo)
{
	struct entry *e = wn_store_new_entry(s, s->e[oi].msgid, group, s->e[oi].nc);
	const struct entry *o = &s->e[oi];	/* new_entry may have moved the array */

	if (!e || !(*(redo ? &e->redo_of : &e->undo_of) = strdup(o->group)))
		return WN_NOMEM;
	e->severity = o->severity;
	for (size_t k = 0; k < o->nc; k++) {
		const struct change *oc = &o->c[k];
		struct change *c = &e->c[e->nc];
		wn_verdict v;
		wn_severity sev;
		wn_reason reason;
		char *note = NULL, *closed = NULL;

		if (!wn_store_current_state(s, msg, o->msgid, oc->fp, &v, &note, &sev, &reason,
					    &closed)) {
			free(note);
			free(closed);
			return WN_NOMEM;
		}
		if (!still_holds(oc, e->severity, v, note, sev, reason, closed)) {
			free(note);
			free(closed);
			if (note_kept(p, o->msgid, oc->fp, v, sev) != WN_OK)
				return WN_NOMEM;
			if (redo)
				return WN_OK;
			continue;
		}
		e->nc++;
		if (!(c->fp = strdup(oc->fp))) {
			free(note);
			free(closed);
			return WN_NOMEM;
		}
		if (e->severity) {
			c->sev = oc->prev_sev;
			c->prev_sev = sev;
			free(note);
			free(closed);
			continue;
		}
		c->has_closed = oc->has_closed;
		c->prev_closed = closed;
		if (oc->has_closed && !(c->closed = strdup(oc->prev_closed ? oc->prev_closed : "")))
			return WN_NOMEM;
		c->v = oc->prev;
		c->prev = v;
		c->prev_note = note;
		c->has_note = oc->has_note;
		c->has_reason = oc->has_reason;
		c->reason = oc->prev_reason;
		c->prev_reason = reason;
		if (oc->has_note && !(c->note = strdup(oc->prev_note ? oc->prev_note : "")))
			return WN_NOMEM;
	}
	p->reverted += e->nc;
	if (e->nc == 0) {
		wn_log_pop(s);
		return WN_OK;
	}
	return wn_log_index(s, s->n - 1);
}

/* The group to undo: want if it can be, else the newest that can (with
 * reach: within the store's reach, and not found spent before), never
 * one taken already. */
static const char *undo_target(const wn_store *s, const char *want, bool reach, const wn_map *taken)
{
	for (size_t i = s->n; i > 0; i--) {
		const struct entry *e = &s->e[i - 1];

		if (!undoable(e) || (want && strcmp(e->group, want) != 0) ||
		    wn_store_in_map(taken, e->group))
			continue;
		if (!want && reach &&
		    (!wn_store_in_map(&s->reach, e->group) || wn_store_in_map(&s->spent, e->group)))
			continue;
		return e->group;
	}
	return NULL;
}

/* The next action to undo, as a new step; *p NULL when none is left. */
static wn_status next_step(struct undo *u, struct step **p)
{
	const char *target = undo_target(u->s, u->want, u->reach, &u->taken);
	struct step *v;

	*p = NULL;
	if (!target)
		return WN_OK;
	if (!(v = realloc(u->v, (u->n + 1) * sizeof(*v))))
		return WN_NOMEM;
	u->v = v;
	*p = &v[u->n++];
	memset(*p, 0, sizeof(**p));
	if (!((*p)->group = strdup(target)) ||
	    wn_map_put(&u->taken, target, strlen(target), (void *) 1) != WN_OK)
		return WN_NOMEM;
	return WN_OK;
}

/* Revert entries from..to-1 that are of group (newest first, so that a
 * finding two of them changed goes back step by step), in *rgroup
 * (NULL: the first revert starts it). */
static wn_status revert_group(wn_store *s, struct step *p, size_t to, char **rgroup)
{
	size_t first = s->n;
	wn_status st = WN_OK;

	for (size_t i = to; i > 0 && st == WN_OK; i--) {
		notmuch_message_t *msg;

		if (!undoable(&s->e[i - 1]) || strcmp(s->e[i - 1].group, p->group) != 0)
			continue;
		if (wn_index_message(s->idx, s->e[i - 1].msgid, &msg, NULL) != WN_OK)
			msg = NULL;
		st = push_reverse(s, p, i - 1, *rgroup, msg, false);
		if (msg)
			notmuch_message_destroy(msg);
		/* Every revert joins the group of the first one. */
		if (st == WN_OK && !*rgroup && s->n > first && !(*rgroup = strdup(s->e[first].group)))
			st = WN_NOMEM;
	}
	return st;
}

static wn_status describe(const wn_store *s, const char *group, wn_history_item *h);

/* The steps of u described (u->h), how each went with them. */
static wn_status describe_steps(struct undo *u)
{
	if (u->n && !(u->h = calloc(u->n, sizeof(*u->h))))
		return WN_NOMEM;
	for (size_t k = 0; k < u->n; k++) {
		struct step *p = &u->v[k];
		wn_status st = describe(u->s, p->group, &u->h[k]);

		if (st != WN_OK)
			return st;
		u->h[k].reverted = p->reverted;
		u->h[k].kept = p->kept;
		u->h[k].kept_v = p->kept_v;
		u->h[k].kept_sev = p->kept_sev;
		u->h[k].kept_review = p->kept_review;
		u->h[k].kept_fp = p->kept_fp;
		p->kept_review = p->kept_fp = NULL;
	}
	return WN_OK;
}

static wn_status compose_undo(wn_buf *out, void *arg, wn_error *err)
{
	struct undo *u = arg;
	wn_store *s = u->s;
	wn_status st = WN_OK;
	size_t first = s->n;
	char *rgroup = NULL;

	u->first = first;
	/* The journal may have been read anew since a try: count afresh. */
	undo_clear(u);
	wn_store_index_refresh(s);
	/* Several actions undone at once are one action (one group), so
	 * one redo brings all of it back. */
	while (st == WN_OK && u->n < u->steps) {
		struct step *p;

		if ((st = next_step(u, &p)) != WN_OK || !p)
			break;
		st = revert_group(s, p, first, &rgroup);
	}
	free(rgroup);
	if (st == WN_OK)
		st = describe_steps(u);
	for (size_t i = first; i < s->n && st == WN_OK; i++)
		st = wn_log_put_entry(out, s, i, false);
	if (st != WN_OK) {
		wn_log_truncate(s, first);
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory" : "cannot journal the undo");
	}
	wn_store_count_lines(s, out);
	return WN_OK;
}

void wn_history_item_clear(wn_history_item *h)
{
	free(h->group);
	free(h->review);
	free(h->fp);
	free(h->kept_review);
	free(h->kept_fp);
	memset(h, 0, sizeof(*h));
}

void wn_history_free(wn_history_item **pv, size_t n)
{
	wn_history_item *v = pv ? *pv : NULL;

	for (size_t i = 0; v && i < n; i++)
		wn_history_item_clear(&v[i]);
	free(v);
	if (pv)
		*pv = NULL;
}

/* Is entry i the group's first about its review?  A bulk mark of two
 * findings of one review is two entries but one review. */
static bool first_of_review(const wn_store *s, size_t i, const char *group)
{
	for (size_t k = 0; k < i; k++)
		if (!s->e[k].forward && strcmp(s->e[k].group, group) == 0 &&
		    strcmp(s->e[k].msgid, s->e[i].msgid) == 0)
			return false;
	return true;
}

/* The actions the undo group reverted (distinct undo_of); 0 when none
 * or out of memory. */
static size_t undo_actions(const wn_store *s, const char *group)
{
	wn_map acts = WN_MAP_INIT;
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct entry *e = &s->e[i];

		if (!e->undo_of || strcmp(e->group, group) != 0 ||
		    wn_store_in_map(&acts, e->undo_of))
			continue;
		if (wn_map_put(&acts, e->undo_of, strlen(e->undo_of), (void *) 1) != WN_OK)
			break;
		n++;
	}
	wn_map_free(&acts, NULL);
	return n;
}

/* Describe the action made of the entries of group.  An entry may hold
 * no change (an undo journaled by an older winnow when nothing went
 * back): the first change is looked for, never assumed. */
static wn_status describe(const wn_store *s, const char *group, wn_history_item *h)
{
	const struct change *first = NULL;
	const char *redo_of = NULL;
	bool kind = false;

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < s->n; i++) {
		const struct entry *e = &s->e[i];

		if (e->forward || strcmp(e->group, group) != 0)
			continue;
		if (!h->group) {
			h->group = strdup(e->group);
			h->review = strdup(e->msgid);
			h->when = (time_t) e->t;
			h->is_undo = e->undo_of != NULL;
			h->is_redo = e->redo_of != NULL;
			redo_of = e->redo_of;
			if (!h->group || !h->review) {
				wn_history_item_clear(h);
				return WN_NOMEM;
			}
		}
		if (!first && e->nc) {
			first = &e->c[0];
			kind = e->severity;
			h->severity = e->severity;
			h->from = first->prev;
			h->to = first->v;
			h->sev_from = first->prev_sev;
			h->sev_to = first->sev;
		}
		h->reviews += first_of_review(s, i, group);
		/* A verdict and a severity of one finding in one action
		 * count it once. */
		if (!first || e->severity == kind)
			h->changes += e->nc;
		h->undone = h->undone || e->undone;
		h->redone = h->redone || e->redone;
		for (size_t k = 0; k < e->nc; k++) {
			h->note = h->note || (e->c[k].has_note &&
					      strcmp(e->c[k].note ? e->c[k].note : "",
						     e->c[k].prev_note ? e->c[k].prev_note : "") != 0);
			if (!h->reason && e->c[k].has_reason && e->c[k].reason != e->c[k].prev_reason) {
				h->reason = true;
				h->reason_to = e->c[k].reason;
			}
		}
	}
	/* An undo of several actions is one; a redo gives them back. */
	h->actions = h->is_undo ? undo_actions(s, group) : redo_of ? undo_actions(s, redo_of) : 1;
	if (h->is_redo && !h->actions)
		h->actions = 1;
	if (!(h->fp = strdup(first ? first->fp : ""))) {
		wn_history_item_clear(h);
		return WN_NOMEM;
	}
	return WN_OK;
}

/* Undo up to steps actions (want, or the newest; within reach when
 * reach) as one action.  *out: one item per action reached, newest
 * first, describing it and how it went (none: nothing left to undo).
 * An action none of whose findings can go back is not undone; this
 * process passes over it next. */
static wn_status undo_steps(wn_store *s, const char *want, bool reach, size_t steps,
			    wn_history_item **out, size_t *nout, wn_error *err)
{
	struct undo u = { .s = s, .want = want, .steps = steps, .reach = reach, .first = s->n };
	wn_status st = wn_journal_txn(s->j, wn_log_reset, wn_log_line, s, compose_undo, &u, err);

	*out = NULL;
	*nout = 0;
	if (st != WN_OK) {
		if (s->n > u.first)
			wn_log_truncate(s, u.first);
		undo_clear(&u);
		return st;
	}
	/* Journaled: from here on nothing fails.  An action none of whose
	 * findings went back is passed over next time (a hint only: kept
	 * when there is memory for it). */
	for (size_t k = 0; k < u.n; k++) {
		struct step *p = &u.v[k];

		if (p->reverted) {
			wn_log_mark_undone(s, p->group);
			u.h[k].undone = true;
		} else {
			(void) wn_map_put(&s->spent, p->group, strlen(p->group), (void *) 1);
		}
	}
	*out = u.h;
	*nout = u.n;
	u.h = NULL;
	undo_clear(&u);
	return WN_OK;
}

/* The one action of undo_steps(s, want, reach, 1) into *what (may be
 * NULL); *none when there was none. */
static wn_status undo_one(wn_store *s, const char *want, bool reach, wn_history_item *what,
			  bool *none, wn_error *err)
{
	wn_history_item *v = NULL;
	size_t n = 0;
	wn_status st = undo_steps(s, want, reach, 1, &v, &n, err);

	*none = st == WN_OK && n == 0;
	if (st == WN_OK && n && what) {
		*what = v[0];
		memset(&v[0], 0, sizeof(v[0]));
	}
	wn_history_free(&v, n);
	return st;
}

wn_status wn_store_undo_group(wn_store *s, const char *group, wn_history_item *what, wn_error *err)
{
	bool none;
	wn_status st = undo_one(s, group, false, what, &none, err);

	if (st == WN_OK && none)
		return wn_error_set(err, WN_NOT_FOUND, "that change is undone already, or no longer "
				    "in the journal");
	return st;
}

wn_status wn_store_undo_last(wn_store *s, wn_history_item *what, wn_error *err)
{
	bool none;
	wn_status st;

	memset(what, 0, sizeof(*what));
	st = undo_one(s, NULL, true, what, &none, err);
	if (st == WN_OK && none)
		return wn_error_set(err, WN_NOT_FOUND, "nothing to undo");
	return st;
}

wn_status wn_store_undo_many(wn_store *s, size_t n, wn_history_item **out, size_t *nout,
			     wn_error *err)
{
	wn_status st = undo_steps(s, NULL, true, n, out, nout, err);

	if (st == WN_OK && *nout == 0)
		return wn_error_set(err, WN_NOT_FOUND, "nothing to undo");
	return st;
}

wn_status wn_store_undo_count(wn_store *s, size_t n, size_t *count, wn_error *err)
{
	wn_map seen = WN_MAP_INIT;
	wn_status st = wn_store_catch_up(s, err);

	*count = 0;
	for (size_t i = s->n; st == WN_OK && i > 0 && *count < n; i--) {
		const struct entry *e = &s->e[i - 1];

		if (!undoable(e) || !wn_store_in_map(&s->reach, e->group) ||
		    wn_store_in_map(&s->spent, e->group) || wn_store_in_map(&seen, e->group))
			continue;
		if (wn_map_put(&seen, e->group, strlen(e->group), (void *) 1) != WN_OK)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		else
			(*count)++;
	}
	wn_map_free(&seen, NULL);
	return st;
}

/* --- redo ------------------------------------------------------------------ */

struct redo {
	wn_store *s;
	size_t first;
	struct step undo;	/* the undo redone; kept: a finding changed since */
	wn_history_item h;	/* the redo, described before it is journaled */
};

/* The newest undo within reach not redone yet. */
static const char *redo_target(const wn_store *s)
{
	for (size_t i = s->n; i > 0; i--) {
		const struct entry *e = &s->e[i - 1];

		if (e->undo_of && !e->redone && e->nc && wn_store_in_map(&s->reach, e->group))
			return e->group;
	}
	return NULL;
}

static wn_status compose_redo(wn_buf *out, void *arg, wn_error *err)
{
	struct redo *r = arg;
	wn_store *s = r->s;
	const char *target = redo_target(s);
	size_t first = s->n;
	char *rgroup = NULL;
	wn_status st = WN_OK;

	r->first = first;
	step_clear(&r->undo);
	wn_history_item_clear(&r->h);
	if (!target)
		return WN_OK;
	if (!(r->undo.group = strdup(target)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	wn_store_index_refresh(s);
	/* Newest first, as the undo went: a finding it took back twice
	 * comes forward step by step. */
	for (size_t i = first; i > 0 && st == WN_OK && !r->undo.kept; i--) {
		const struct entry *e = &s->e[i - 1];
		notmuch_message_t *msg;

		if (!e->undo_of || strcmp(e->group, r->undo.group) != 0)
			continue;
		if (wn_index_message(s->idx, e->msgid, &msg, NULL) != WN_OK)
			msg = NULL;
		st = push_reverse(s, &r->undo, i - 1, rgroup, msg, true);
		if (msg)
			notmuch_message_destroy(msg);
		if (st == WN_OK && !rgroup && s->n > first && !(rgroup = strdup(s->e[first].group)))
			st = WN_NOMEM;
	}
	free(rgroup);
	/* All of it or nothing: a finding changed since the undo is a
	 * decision made after it, which a redo must not overwrite. */
	if (st == WN_OK && r->undo.kept) {
		wn_log_truncate(s, first);
		return WN_OK;
	}
	/* Described now: once journaled, nothing may fail (a redo told
	 * "out of memory" but done would be redone again). */
	if (st == WN_OK && s->n > first)
		st = describe(s, s->e[first].group, &r->h);
	for (size_t i = first; i < s->n && st == WN_OK; i++)
		st = wn_log_put_entry(out, s, i, false);
	if (st != WN_OK) {
		wn_log_truncate(s, first);
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory" : "cannot journal the redo");
	}
	wn_store_count_lines(s, out);
	return WN_OK;
}

wn_status wn_store_redo(wn_store *s, wn_history_item *what, wn_error *err)
{
	struct redo r = { .s = s, .first = s->n };
	wn_status st = wn_journal_txn(s->j, wn_log_reset, wn_log_line, s, compose_redo, &r, err);

	memset(what, 0, sizeof(*what));
	if (st != WN_OK && s->n > r.first)
		wn_log_truncate(s, r.first);
	if (st == WN_OK && !r.undo.group)
		st = wn_error_set(err, WN_NOT_FOUND, "nothing to redo");
	else if (st == WN_OK && r.undo.kept) {
		what->kept = r.undo.kept;
		what->kept_v = r.undo.kept_v;
		what->kept_sev = r.undo.kept_sev;
		what->kept_review = r.undo.kept_review;
		what->kept_fp = r.undo.kept_fp;
		r.undo.kept_review = r.undo.kept_fp = NULL;
		st = wn_error_set(err, WN_USAGE, "a finding the undo reverted was changed since; "
				  "nothing redone");
	} else if (st == WN_OK && s->n > r.first) {
		wn_log_mark_redone(s, r.undo.group);
		*what = r.h;
		memset(&r.h, 0, sizeof(r.h));
		what->reverted = r.undo.reverted;
	}
	step_clear(&r.undo);
	wn_history_item_clear(&r.h);
	return st;
}

wn_status wn_store_history(wn_store *s, wn_history_item **out, size_t *n, wn_error *err)
{
	wn_history_item *v;
	wn_status st = wn_store_catch_up(s, err);

	*out = NULL;
	*n = 0;
	if (st != WN_OK)
		return st;
	if (!(v = calloc(s->n + 1, sizeof(*v))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	/* The entries of one action are journaled together: a new group
	 * starts where the group changes. */
	for (size_t i = s->n; i > 0; i--) {
		const struct entry *e = &s->e[i - 1];

		if (e->forward || (i < s->n && strcmp(s->e[i].group, e->group) == 0))
			continue;
		if (describe(s, e->group, &v[*n]) != WN_OK) {
			wn_history_free(&v, *n);
			*n = 0;
			return wn_error_set(err, WN_NOMEM, "out of memory");
		}
		(*n)++;
	}
	*out = v;
	return WN_OK;
}
