/* winnow — the write path: opening the store and what the views see
 * (marking: store-mark.c; undo, redo, history: store-undo.c).
 *
 * A verdict is first a line in the journal (journal.c, fsync'd), then a
 * property and tags in notmuch, written by a short-lived child process
 * (store-writer.c).  Every change is decided under the journal's
 * exclusive lock from the state at that moment (notmuch, plus whatever
 * any winnow journaled and notmuch does not hold yet), never from what a
 * screen showed earlier: a stale view must not undo another program's
 * write.  Line formats: store-private.h. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../index/props.h"
#include "store-private.h"
#include "winnow/text.h"

const char *wn_store_warning(const wn_store *s)
{
	return s->warning;
}

const char *wn_store_journal_path(const wn_store *s)
{
	return wn_journal_path(s->j);
}

/* --- what the journal says about a finding ------------------------------ */

/* What the journal decided about a finding that notmuch does not hold
 * yet: each part only when it is pending. */
struct jview {
	bool has_v, has_note, has_sev, has_reason, has_closed;
	wn_verdict v;
	const char *note;	/* NULL: removed */
	wn_severity sev;
	wn_reason reason;
	const char *closed;	/* NULL: removed */
};

static bool pending_change(const struct change *c)
{
	return c && !c->applied && !c->rejected;
}

/* False when out of memory (never read as "the journal says nothing"). */
static bool journal_view(const wn_store *s, const char *msgid, const char *fp, struct jview *j)
{
	struct finding *f;
	const struct change *c;

	memset(j, 0, sizeof(*j));
	if (!wn_log_find(s, msgid, fp, &f))
		return false;
	if (!f)
		return true;
	if (pending_change(c = wn_log_newest(s, f))) {
		j->has_v = true;
		j->v = c->v;
	}
	if (pending_change(c = wn_log_newest_note(s, f))) {
		j->has_note = true;
		j->note = c->note && *c->note ? c->note : NULL;
	}
	if (pending_change(c = wn_log_newest_sev(s, f))) {
		j->has_sev = true;
		j->sev = c->sev;
	}
	if (pending_change(c = wn_log_newest_reason(s, f))) {
		j->has_reason = true;
		j->reason = c->reason;
	}
	if (pending_change(c = wn_log_newest_closed(s, f))) {
		j->has_closed = true;
		j->closed = c->closed && *c->closed ? c->closed : NULL;
	}
	return true;
}

/* Replace *slot by a copy of value (NULL: none); false when out of
 * memory, *slot kept. */
bool wn_store_set_closed(char **slot, const char *value)
{
	char *copy = value ? strdup(value) : NULL;

	if (value && !copy)
		return false;
	free(*slot);
	*slot = copy;
	return true;
}

static void overlay_finding(const wn_store *s, wn_item *it, size_t i)
{
	struct jview j;

	journal_view(s, it->id, it->review->findings[i].fingerprint, &j);
	if (j.has_v)
		it->verdicts[i] = j.v;
	if (j.has_sev && it->severity)
		it->severity[i] = j.sev;
	if (j.has_reason && it->reasons)
		it->reasons[i] = j.reason;
	if (j.has_closed && it->closed)
		wn_store_set_closed(&it->closed[i], j.closed);
	if (j.has_note) {
		char *copy = j.note ? strdup(j.note) : NULL;
		/* Out of memory keeps the stored note rather than losing it. */
		if (j.note && !copy)
			return;
		free(it->notes[i]);
		it->notes[i] = copy;
	}
}

/* Records (forwards, reports) journaled but not in notmuch yet. */
static void overlay_records(const wn_store *s, wn_item *it)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct entry *e = &s->e[i];
		char **into;

		if (!e->forward || strcmp(e->msgid, it->id) != 0 || !wn_log_forward_pending(e))
			continue;
		if (strcmp(e->prop, WN_PROP_MISSED) == 0) {
			wn_props_add_miss(it, e->forward);
			continue;
		}
		into = strcmp(e->prop, WN_PROP_REPORTED) == 0 ? it->reported : it->forwarded;
		for (size_t k = 0; into && k < e->nc; k++)
			for (size_t f = 0; f < it->review->nfindings; f++) {
				char *copy;
				if (strcmp(it->review->findings[f].fingerprint, e->c[k].fp) != 0 ||
				    !(copy = strdup(e->forward)))
					continue;
				free(into[f]);
				into[f] = copy;
			}
	}
}

void wn_store_overlay(const wn_store *s, wn_item *it)
{
	if (!it->loaded || !it->review)
		return;
	if (s->nforward)
		overlay_records(s, it);
	if (s->findings.n == 0)
		return;
	for (size_t i = 0; i < it->review->nfindings; i++)
		overlay_finding(s, it, i);
	wn_item_count(it);
}

/* The state of a finding right now: notmuch (msg, may be NULL) under the
 * journal's pending decisions.  *note and *closed are malloc'd (NULL:
 * none; false with either set: the caller frees them). */
bool wn_store_current_state(const wn_store *s, notmuch_message_t *msg, const char *msgid,
			    const char *fp, wn_verdict *v, char **note, wn_severity *sev,
			    wn_reason *reason, char **closed)
{
	struct jview j;

	*v = WN_VERDICT_UNTRIAGED;
	*note = NULL;
	*closed = msg ? wn_props_read_closed(msg, fp) : NULL;
	*sev = msg ? wn_props_read_severity(msg, fp) : WN_SEV_NONE;
	*reason = msg ? wn_props_read_reason(msg, fp) : WN_REASON_NONE;
	if (msg && !wn_props_read_finding(msg, fp, v, note))
		return false;
	if (!journal_view(s, msgid, fp, &j)) {
		free(*note);
		free(*closed);
		*note = *closed = NULL;
		return false;
	}
	if (j.has_v)
		*v = j.v;
	if (j.has_sev)
		*sev = j.sev;
	if (j.has_reason)
		*reason = j.reason;
	if (j.has_closed && !wn_store_set_closed(closed, j.closed))
		return false;
	if (j.has_note) {
		free(*note);
		*note = j.note ? strdup(j.note) : NULL;
		if (j.note && !*note)
			return false;
	}
	return true;
}

size_t wn_store_last_changes(const wn_store *s)
{
	return s->last_changes;
}

size_t wn_store_pending(const wn_store *s)
{
	return wn_log_pending_count(s);
}

wn_status wn_store_pending_judged(const wn_store *s, char ***ids, size_t *n, wn_error *err)
{
	size_t np = 0, k = 0;
	struct finding **p = wn_log_pending_list(s, &np);
	wn_status st = WN_OK;

	*ids = NULL;
	*n = 0;
	if (!p || !(*ids = calloc(np + 1, sizeof(**ids)))) {
		free(p);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	/* The list is sorted by review: each review once. */
	for (size_t i = 0; st == WN_OK && i < np; i++) {
		const struct change *c = wn_log_newest(s, p[i]);

		if (!pending_change(c) || c->v == WN_VERDICT_UNTRIAGED ||
		    (k && strcmp((*ids)[k - 1], p[i]->msgid) == 0))
			continue;
		if (!((*ids)[k++] = strdup(p[i]->msgid)))
			st = WN_NOMEM;
	}
	free(p);
	*n = k;
	if (st != WN_OK) {
		wn_store_ids_free(*ids, *n);
		*ids = NULL;
		*n = 0;
		return wn_error_set(err, st, "out of memory");
	}
	return WN_OK;
}

void wn_store_ids_free(char **ids, size_t n)
{
	for (size_t i = 0; ids && i < n; i++)
		free(ids[i]);
	free(ids);
}

/* --- open / close ---------------------------------------------------------- */

/* Replay recognises what already reached notmuch (the writer committed
 * but died before journaling that it had): a finding whose newest
 * decision notmuch holds is done. */
static void recognise_applied(wn_store *s)
{
	size_t n = 0;
	struct finding **v = wn_log_pending_list(s, &n);
	notmuch_message_t *msg = NULL;
	const char *msg_of = NULL;

	for (size_t i = 0; i < n; i++) {
		struct change *c = (struct change *) wn_log_newest(s, v[i]);
		struct change *sc = (struct change *) wn_log_newest_sev(s, v[i]);
		const struct change *nc = wn_log_newest_note(s, v[i]);
		const struct change *rc = wn_log_newest_reason(s, v[i]);
		const struct change *cc = wn_log_newest_closed(s, v[i]);
		wn_verdict have;
		char *note = NULL;
		bool same;

		if (!msg_of || strcmp(msg_of, v[i]->msgid) != 0) {
			if (msg)
				notmuch_message_destroy(msg);
			if (wn_index_message(s->idx, v[i]->msgid, &msg, NULL) != WN_OK)
				msg = NULL;
			msg_of = v[i]->msgid;
		}
		if (!msg || !wn_props_read_finding(msg, v[i]->fp, &have, &note))
			continue;
		same = !c || have == c->v;
		if (same && nc)
			same = nc->note && *nc->note ? note && strcmp(note, nc->note) == 0 : !note;
		free(note);
		if (same && rc)
			same = wn_props_read_reason(msg, v[i]->fp) == rc->reason;
		if (same && cc) {
			char *have_closed = wn_props_read_closed(msg, v[i]->fp);

			same = strcmp(have_closed ? have_closed : "", cc->closed ? cc->closed : "") == 0;
			free(have_closed);
		}
		if (same && c)
			c->applied = true;
		if (sc && wn_props_read_severity(msg, v[i]->fp) == sc->sev)
			sc->applied = true;
	}
	if (msg)
		notmuch_message_destroy(msg);
	free(v);
}

wn_status wn_store_reach_add(wn_store *s, const char *group)
{
	return wn_map_put(&s->reach, group, strlen(group), (void *) 1);
}

bool wn_store_in_map(const wn_map *m, const char *group)
{
	return wn_map_get(m, group, strlen(group)) != NULL;
}

wn_status wn_store_open(wn_index *idx, const char *state_dir, wn_store **out, wn_error *err)
{
	wn_store *s = calloc(1, sizeof(*s));
	wn_status st;
	int torn = 0;

	*out = NULL;
	if (!s)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	s->idx = idx;
	s->child = -1;
	s->child_fd = -1;
	st = wn_journal_open(state_dir, wn_index_db_path(idx), &s->j, err);
#ifdef WN_TEST_HOOKS
	/* For the test of a write landing between the index's opening and
	 * the journal's reading: nothing else can hold a reader there.
	 * Says it waits ($WINNOW_TEST_JOURNAL_GATE.waiting), then waits
	 * for the gate file, a minute at most. */
	{
		const char *gate = getenv("WINNOW_TEST_JOURNAL_GATE");
		char *waiting = NULL;
		FILE *w;

		if (gate && asprintf(&waiting, "%s.waiting", gate) >= 0 && (w = fopen(waiting, "w")))
			fclose(w);
		for (int i = 0; gate && i < 6000 && access(gate, F_OK) != 0; i++)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		free(waiting);
	}
#endif
	if (st == WN_OK)
		st = wn_journal_read(s->j, wn_log_line, s, &torn, err);
	if (st == WN_OK && s->oom)
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	/* A write cut short (power loss): its warning is given now, once,
	 * and the journal written again without it, so that the next
	 * command does not give it again.  Every entry is kept. */
	if (st == WN_OK && (torn || s->cut)) {
		char *what = torn ? wn_strdupf("the last entry was cut short (crash during a write)")
			: wn_strdupf("%zu line%s %s not a winnow entry (a write cut short)", s->cut,
				     s->cut == 1 ? "" : "s", s->cut == 1 ? "is" : "are");
		wn_error rerr = WN_ERROR_INIT;
		size_t cut = s->cut;

		if (wn_store_repair(s, &rerr) == WN_OK)
			wn_store_warn(
				s,
				"journal %s: %s; ignored, and the journal written again without %s",
				wn_journal_path(s->j), what ? what : "an entry was cut short",
				cut > 1 ? "them" : "it");
		else
			wn_store_warn(s, "journal %s: %s; ignored (%s)", wn_journal_path(s->j),
				      what ? what : "an entry was cut short", wn_error_msg(&rerr));
		free(what);
		wn_error_clear(&rerr);
		if (s->oom)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (size_t i = 0; st == WN_OK && i < s->n; i++)
		if (wn_store_reach_add(s, s->e[i].group) != WN_OK)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
	if (st != WN_OK) {
		wn_store_close(&s);
		return st;
	}
	/* A writer journals "applied" after its commit.  The index, opened
	 * before the journal was read, may predate a commit the journal
	 * already calls applied: it would show neither that decision nor
	 * the journal's (a verdict read back as untriaged just after the
	 * interface acknowledged it).  The index as it is now holds every
	 * commit the journal read names. */
	wn_store_index_refresh(s);
	recognise_applied(s);
	*out = s;
	return WN_OK;
}

void wn_store_close(wn_store **ps)
{
	wn_store *s = ps ? *ps : NULL;

	if (!s)
		return;
	wn_store_writer_stop(s);
	wn_log_free(s);
	wn_map_free(&s->reach, NULL);
	wn_map_free(&s->spent, NULL);
	free(s->warning);
	wn_journal_close(&s->j);
	free(s);
	*ps = NULL;
}

wn_status wn_store_refresh(wn_store *s, wn_error *err)
{
	return wn_store_catch_up(s, err);
}
