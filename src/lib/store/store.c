/* winnow — the write path: marking, undo, and what the views see.
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

static void journal_view(const wn_store *s, const char *msgid, const char *fp, struct jview *j)
{
	const struct finding *f = log_finding(s, msgid, fp);
	const struct change *c;

	memset(j, 0, sizeof(*j));
	if (!f)
		return;
	if (pending_change(c = log_newest(s, f))) {
		j->has_v = true;
		j->v = c->v;
	}
	if (pending_change(c = log_newest_note(s, f))) {
		j->has_note = true;
		j->note = c->note && *c->note ? c->note : NULL;
	}
	if (pending_change(c = log_newest_sev(s, f))) {
		j->has_sev = true;
		j->sev = c->sev;
	}
	if (pending_change(c = log_newest_reason(s, f))) {
		j->has_reason = true;
		j->reason = c->reason;
	}
	if (pending_change(c = log_newest_closed(s, f))) {
		j->has_closed = true;
		j->closed = c->closed && *c->closed ? c->closed : NULL;
	}
}

/* Replace *slot by a copy of value (NULL: none); false when out of
 * memory, *slot kept. */
static bool set_closed(char **slot, const char *value)
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
		set_closed(&it->closed[i], j.closed);
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

		if (!e->forward || strcmp(e->msgid, it->id) != 0 || !log_forward_pending(e))
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
static bool current_state(const wn_store *s, notmuch_message_t *msg, const char *msgid,
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
	journal_view(s, msgid, fp, &j);
	if (j.has_v)
		*v = j.v;
	if (j.has_sev)
		*sev = j.sev;
	if (j.has_reason)
		*reason = j.reason;
	if (j.has_closed && !set_closed(closed, j.closed))
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
	return log_pending_count(s);
}

wn_status wn_store_pending_judged(const wn_store *s, char ***ids, size_t *n, wn_error *err)
{
	size_t np = 0, k = 0;
	struct finding **p = log_pending_list(s, &np);
	wn_status st = WN_OK;

	*ids = NULL;
	*n = 0;
	if (!p || !(*ids = calloc(np + 1, sizeof(**ids)))) {
		free(p);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	/* The list is sorted by review: each review once. */
	for (size_t i = 0; st == WN_OK && i < np; i++) {
		const struct change *c = log_newest(s, p[i]);

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
	struct finding **v = log_pending_list(s, &n);
	notmuch_message_t *msg = NULL;
	const char *msg_of = NULL;

	for (size_t i = 0; i < n; i++) {
		struct change *c = (struct change *) log_newest(s, v[i]);
		struct change *sc = (struct change *) log_newest_sev(s, v[i]);
		const struct change *nc = log_newest_note(s, v[i]);
		const struct change *rc = log_newest_reason(s, v[i]);
		const struct change *cc = log_newest_closed(s, v[i]);
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

static wn_status reach_add(wn_store *s, const char *group)
{
	return wn_map_put(&s->reach, group, strlen(group), (void *) 1);
}

static bool in_map(const wn_map *m, const char *group)
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
		st = wn_journal_read(s->j, log_line, s, &torn, err);
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

		if (store_repair(s, &rerr) == WN_OK)
			store_warn(s, "journal %s: %s; ignored, and the journal written again without %s",
				   wn_journal_path(s->j), what ? what : "an entry was cut short",
				   cut > 1 ? "them" : "it");
		else
			store_warn(s, "journal %s: %s; ignored (%s)", wn_journal_path(s->j),
				   what ? what : "an entry was cut short", wn_error_msg(&rerr));
		free(what);
		wn_error_clear(&rerr);
		if (s->oom)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (size_t i = 0; st == WN_OK && i < s->n; i++)
		if (reach_add(s, s->e[i].group) != WN_OK)
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
	wn_index_refresh(idx, NULL);
	recognise_applied(s);
	*out = s;
	return WN_OK;
}

void wn_store_close(wn_store **ps)
{
	wn_store *s = ps ? *ps : NULL;

	if (!s)
		return;
	store_writer_stop(s);
	log_free(s);
	wn_map_free(&s->reach, NULL);
	wn_map_free(&s->spent, NULL);
	free(s->warning);
	wn_journal_close(&s->j);
	free(s);
	*ps = NULL;
}

wn_status wn_store_refresh(wn_store *s, wn_error *err)
{
	return store_catch_up(s, err);
}

/* --- marking ------------------------------------------------------------------- */

static char *new_eid(wn_store *s)
{
	struct timeval tv;
	char *eid = NULL;

	gettimeofday(&tv, NULL);
	if (asprintf(&eid, "%lld.%06ld.%ld.%lu", (long long) tv.tv_sec, (long) tv.tv_usec,
		     (long) getpid(), ++s->counter) < 0)
		return NULL;
	return eid;
}

/* Our own lines are not read back: count them, so that a warning about
 * a later line names the right one. */
static void count_lines(wn_store *s, const wn_buf *out)
{
	for (size_t i = 0; i < out->len; i++)
		s->lineno += out->data[i] == '\n';
}

/* A new entry about msgid, in group (NULL: a group of its own). */
static struct entry *new_entry(wn_store *s, const char *msgid, const char *group, size_t nc)
{
	struct entry *e = log_push(s);

	if (!e)
		return NULL;
	e->eid = new_eid(s);
	e->group = group ? strdup(group) : wn_strdup0(e->eid);
	e->msgid = strdup(msgid);
	e->t = (long long) time(NULL);
	e->c = calloc(nc ? nc : 1, sizeof(*e->c));
	if (!e->eid || !e->group || !e->msgid || !e->c || reach_add(s, e->group) != WN_OK) {
		log_truncate(s, s->n - 1);
		return NULL;
	}
	return e;
}

/* Does the journal know the review's findings as the item has them? */
static bool review_known(const wn_store *s, const wn_item *it)
{
	const struct review_fps *r = log_review(s, it->id);

	if (!r || !r->journaled || r->n != it->review->nfindings)
		return false;
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->fps[i], it->review->findings[i].fingerprint) != 0)
			return false;
	return true;
}

/* Journal the review's findings (once), so the writer can keep
 * winnow/triaged right without parsing its mail. */
static wn_status put_review(wn_store *s, const wn_item *it, wn_buf *out)
{
	const char **fps;
	wn_status st;

	if (review_known(s, it))
		return WN_OK;
	if (!(fps = calloc(it->review->nfindings + 1, sizeof(char *))))
		return WN_NOMEM;
	for (size_t i = 0; i < it->review->nfindings; i++)
		fps[i] = it->review->findings[i].fingerprint;
	st = log_set_review(s, it->id, fps, it->review->nfindings);
	free(fps);
	return st == WN_OK ? log_put_review(out, s, it->id) : st;
}

static void reviews_journaled(wn_store *s, const wn_mark_target *t, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct review_fps *r = (struct review_fps *) log_review(s, t[k].it->id);
		if (r)
			r->journaled = true;
	}
}

struct mark {
	wn_store *s;
	const wn_mark_target *t;
	size_t n;
	bool severity;		/* sets the maintainer's severity, not v and note */
	wn_verdict v;
	const char *note;
	wn_severity sev;
	bool set_reason;	/* sets the reason (WN_REASON_NONE removes it) */
	wn_reason reason;
	const char *closed;	/* sets winnow.closed ("" removes it); NULL: leaves it */
	size_t first;		/* s->n before: entries from here are ours */
	const bool *pick;	/* of the one target's findings; NULL: all of range_of */
	bool and_severity;	/* a verdict entry, then a severity one */
	bool skip_same;		/* leave out findings that hold the value already */
	size_t changed;		/* changes journaled */
};

/* Bring the item to the state notmuch and the journal hold now (another
 * winnow, notmuch restore, a script may have written since the view
 * loaded it). */
static void refresh_item(wn_store *s, wn_item *it)
{
	notmuch_message_t *msg = NULL;

	if (wn_index_message(s->idx, it->id, &msg, NULL) == WN_OK && msg) {
		wn_props_read_item(it, msg);
		notmuch_message_destroy(msg);
	}
	wn_store_overlay(s, it);
}

static void range_of(const wn_mark_target *t, size_t *lo, size_t *hi)
{
	*lo = t->finding ? t->finding - 1 : 0;
	*hi = t->finding ? t->finding : t->it->review->nfindings;
}

/* Would change c (filled) leave its finding as it is? */
static bool change_is_same(const struct change *c, bool severity)
{
	if (severity)
		return c->sev == c->prev_sev;
	return c->v == c->prev && (!c->has_reason || c->reason == c->prev_reason) &&
	       (!c->has_closed || strcmp(c->closed, c->prev_closed ? c->prev_closed : "") == 0) &&
	       (!c->has_note || strcmp(c->note ? c->note : "", c->prev_note ? c->prev_note : "") == 0);
}

/* The entry of one target, in group (NULL: a group of its own); none
 * when m->skip_same leaves no change in it. */
static wn_status mark_entry(struct mark *m, const wn_mark_target *t, const char *group, wn_buf *out)
{
	wn_store *s = m->s;
	wn_item *it = t->it;
	size_t lo, hi;
	struct entry *e;
	wn_status st;

	range_of(t, &lo, &hi);
	refresh_item(s, it);
	if (!(e = new_entry(s, it->id, group, hi - lo)))
		return WN_NOMEM;
	e->severity = m->severity;
	for (size_t i = lo; i < hi; i++) {
		struct change *c = &e->c[e->nc];

		if (m->pick && !m->pick[i])
			continue;
		e->nc++;
		c->fp = strdup(it->review->findings[i].fingerprint);
		if (m->severity) {
			c->sev = m->sev;
			c->prev_sev = it->severity ? it->severity[i] : WN_SEV_NONE;
			if (!c->fp)
				return WN_NOMEM;
		} else {
			c->v = m->v;
			c->prev = it->verdicts[i];
			/* The journal is JSON and takes only UTF-8: a note another
			 * tool stored as other bytes is kept for undo as it would
			 * be shown, rather than refusing the mark. */
			if (it->notes[i] && !wn_text_utf8_valid(it->notes[i], strlen(it->notes[i])))
				c->prev_note = wn_text_sanitize(it->notes[i], WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB);
			else
				c->prev_note = wn_strdup0(it->notes[i]);
			c->has_note = m->note != NULL;
			c->note = wn_strdup0(m->note);
			c->has_reason = m->set_reason;
			c->reason = m->reason;
			c->prev_reason = it->reasons ? it->reasons[i] : WN_REASON_NONE;
			c->has_closed = m->closed != NULL;
			c->closed = wn_strdup0(m->closed);
			c->prev_closed = wn_strdup0(it->closed ? it->closed[i] : NULL);
			if (!c->fp || (it->notes[i] && !c->prev_note) || (m->note && !c->note) ||
			    (m->closed && !c->closed) || (it->closed && it->closed[i] && !c->prev_closed))
				return WN_NOMEM;
		}
		if (m->skip_same && change_is_same(c, m->severity)) {
			free(c->fp);
			free(c->note);
			free(c->prev_note);
			free(c->closed);
			free(c->prev_closed);
			memset(c, 0, sizeof(*c));
			e->nc--;
		}
	}
	/* Nothing to change: no entry, and no "review" line either. */
	if (e->nc == 0) {
		log_pop(s);
		return WN_OK;
	}
	m->changed += e->nc;
	/* The review's line goes before the first mark of it. */
	if ((st = put_review(s, it, out)) != WN_OK)
		return st;
	if ((st = log_index(s, s->n - 1)) != WN_OK)
		return st;
	return log_put_entry(out, s, s->n - 1, false);
}

static wn_status compose_mark(wn_buf *out, void *arg, wn_error *err)
{
	struct mark *m = arg;
	wn_store *s = m->s;
	wn_status st = WN_OK;
	char *group = NULL;

	m->first = s->n;
	m->changed = 0;
	wn_index_refresh(s->idx, NULL);
	for (size_t k = 0; k < m->n && st == WN_OK; k++) {
		st = mark_entry(m, &m->t[k], group, out);
		/* Every entry joins the group of the first one. */
		if (st == WN_OK && !group && s->n > m->first && !(group = strdup(s->e[m->first].group)))
			st = WN_NOMEM;
		/* The severity of the same findings, in the same action. */
		if (st == WN_OK && m->and_severity) {
			m->severity = true;
			st = mark_entry(m, &m->t[k], group, out);
			m->severity = false;
			if (st == WN_OK && !group && s->n > m->first &&
			    !(group = strdup(s->e[m->first].group)))
				st = WN_NOMEM;
		}
	}
	free(group);
	if (st != WN_OK) {
		log_truncate(s, m->first);
		if (st == WN_PARSE)
			return wn_error_set(err, WN_PARSE, "cannot journal a verdict: "
					    "a Message-ID or a note is not UTF-8");
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	count_lines(s, out);
	return WN_OK;
}

static wn_status check_note(const char *note, wn_error *err)
{
	size_t n = note ? strlen(note) : 0;

	if (n > WN_NOTE_MAX)
		return wn_error_set(err, WN_USAGE, "the note is %zu bytes long; at most %d are kept",
				    n, WN_NOTE_MAX);
	if (!wn_text_utf8_valid(note, n))
		return wn_error_set(err, WN_USAGE, "the note is not valid UTF-8 text "
				    "(check the terminal's or the shell's character set)");
	return WN_OK;
}

static wn_status check_target(const wn_mark_target *t, wn_error *err)
{
	const wn_item *it = t->it;

	if (!it->loaded || !it->review)
		return wn_error_set(err, WN_USAGE, "review %s is not loaded", it->id);
	if (it->review->nfindings == 0)
		return wn_error_set(err, WN_USAGE, "review <%s> has no findings to mark", it->id);
	if (t->finding > it->review->nfindings)
		return wn_error_set(err, WN_USAGE, "review <%s> has %zu finding%s, not %zu",
				    it->id, it->review->nfindings,
				    it->review->nfindings == 1 ? "" : "s", t->finding);
	return WN_OK;
}

/* Journal m (its targets checked), then show it on the items. */
static wn_status mark_run(struct mark *m, wn_error *err)
{
	wn_store *s = m->s;
	wn_status st;

	s->last_changes = 0;
	if (m->n == 0)
		return wn_error_set(err, WN_USAGE, "nothing to mark");
	for (size_t k = 0; k < m->n; k++)
		if ((st = check_target(&m->t[k], err)) != WN_OK)
			return st;
	m->first = s->n;
	st = wn_journal_txn(s->j, log_reset, log_line, s, compose_mark, m, err);
	s->last_changes = st == WN_OK ? m->changed : 0;
	if (st != WN_OK) {
		if (s->n > m->first)
			log_truncate(s, m->first);
		return st;
	}
	if (s->n == m->first)
		return WN_OK;
	reviews_journaled(s, m->t, m->n);
	for (size_t k = 0; k < m->n; k++) {
		wn_item *it = m->t[k].it;
		size_t lo, hi;

		range_of(&m->t[k], &lo, &hi);
		for (size_t i = lo; i < hi; i++) {
			if (m->pick && !m->pick[i])
				continue;
			if (m->severity || m->and_severity) {
				if (it->severity)
					it->severity[i] = m->sev;
				if (m->severity)
					continue;
			}
			it->verdicts[i] = m->v;
			if (m->set_reason && it->reasons)
				it->reasons[i] = m->reason;
			if (m->closed && it->closed)
				set_closed(&it->closed[i], *m->closed ? m->closed : NULL);
			if (m->note) {
				free(it->notes[i]);
				it->notes[i] = *m->note ? strdup(m->note) : NULL;
			}
		}
		wn_item_count(it);
	}
	return WN_OK;
}

wn_status wn_store_mark_many(wn_store *s, const wn_mark_target *t, size_t n, wn_verdict v,
			     const char *note, wn_error *err)
{
	struct mark m = { .s = s, .t = t, .n = n, .v = v, .note = note, .skip_same = true };
	wn_status st;

	if ((unsigned) v >= WN_VERDICT_COUNT)
		return wn_error_set(err, WN_USAGE, "bad verdict");
	if ((st = check_note(note, err)) != WN_OK)
		return st;
	return mark_run(&m, err);
}

wn_status wn_store_mark_why(wn_store *s, const wn_mark_target *t, size_t n, wn_verdict v,
			    const char *note, wn_reason reason, wn_error *err)
{
	struct mark m = { .s = s, .t = t, .n = n, .v = v, .note = note,
			  .set_reason = true, .reason = reason, .skip_same = true };
	wn_status st;

	if ((unsigned) reason >= WN_REASON_COUNT)
		return wn_error_set(err, WN_USAGE, "bad reason");
	if ((unsigned) v >= WN_VERDICT_COUNT)
		return wn_error_set(err, WN_USAGE, "bad verdict");
	if ((st = check_note(note, err)) != WN_OK)
		return st;
	return mark_run(&m, err);
}

wn_status wn_store_mark_picked(wn_store *s, wn_item *it, const bool *pick, const wn_mark_spec *spec,
			       size_t *changed, wn_error *err)
{
	wn_mark_target t = { it, 0 };
	struct mark m = { .s = s, .t = &t, .n = 1, .pick = pick, .skip_same = true,
			  .severity = !spec->verdict, .and_severity = spec->verdict && spec->severity,
			  .v = spec->v, .note = spec->note, .sev = spec->sev,
			  .set_reason = spec->verdict && spec->reason, .reason = spec->why,
			  .closed = spec->verdict ? spec->closed : NULL };
	wn_status st;

	if (changed)
		*changed = 0;
	if (!spec->verdict && !spec->severity)
		return wn_error_set(err, WN_USAGE, "nothing to mark");
	if (spec->verdict && (unsigned) spec->v >= WN_VERDICT_COUNT)
		return wn_error_set(err, WN_USAGE, "bad verdict");
	if (spec->severity && (unsigned) spec->sev >= WN_SEV_COUNT)
		return wn_error_set(err, WN_USAGE, "bad severity");
	if (!spec->verdict && spec->note)
		return wn_error_set(err, WN_USAGE, "a note goes with a verdict");
	if (!spec->verdict && spec->reason)
		return wn_error_set(err, WN_USAGE, "a reason goes with a verdict");
	if (spec->reason && (unsigned) spec->why >= WN_REASON_COUNT)
		return wn_error_set(err, WN_USAGE, "bad reason");
	if (!spec->verdict && spec->closed)
		return wn_error_set(err, WN_USAGE, "a duplicate or a fixing commit goes with a verdict");
	if (spec->closed && *spec->closed && !wn_closed_ok(spec->closed))
		return wn_error_set(err, WN_USAGE, "bad winnow.closed value");
	if ((st = check_note(spec->note, err)) != WN_OK)
		return st;
	st = mark_run(&m, err);
	if (st == WN_OK && changed)
		*changed = m.changed;
	return st;
}

wn_status wn_store_set_severity(wn_store *s, wn_item *it, size_t finding, wn_severity sev,
				wn_error *err)
{
	wn_mark_target t = { it, finding };
	struct mark m = { .s = s, .t = &t, .n = 1, .severity = true, .sev = sev, .skip_same = true };

	if ((unsigned) sev >= WN_SEV_COUNT)
		return wn_error_set(err, WN_USAGE, "bad severity");
	return mark_run(&m, err);
}

wn_status wn_store_mark(wn_store *s, wn_item *it, size_t finding, wn_verdict v,
			const char *note, wn_error *err)
{
	wn_mark_target t = { it, finding };

	return wn_store_mark_many(s, &t, 1, v, note, err);
}

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
	struct entry *e = new_entry(s, s->e[oi].msgid, group, s->e[oi].nc);
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

		if (!current_state(s, msg, o->msgid, oc->fp, &v, &note, &sev, &reason, &closed)) {
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
		log_pop(s);
		return WN_OK;
	}
	return log_index(s, s->n - 1);
}

/* The group to undo: want if it can be, else the newest that can (with
 * reach: within the store's reach, and not found spent before), never
 * one taken already. */
static const char *undo_target(const wn_store *s, const char *want, bool reach, const wn_map *taken)
{
	for (size_t i = s->n; i > 0; i--) {
		const struct entry *e = &s->e[i - 1];

		if (!undoable(e) || (want && strcmp(e->group, want) != 0) || in_map(taken, e->group))
			continue;
		if (!want && reach && (!in_map(&s->reach, e->group) || in_map(&s->spent, e->group)))
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
	wn_index_refresh(s->idx, NULL);
	/* Several actions undone at once are one action (one group), so
	 * one redo brings all of it back. */
	while (st == WN_OK && u->n < u->steps) {
		struct step *p;

		if ((st = next_step(u, &p)) != WN_OK || !p)
			break;
		st = revert_group(s, p, first, &rgroup);
	}
	free(rgroup);
	for (size_t i = first; i < s->n && st == WN_OK; i++)
		st = log_put_entry(out, s, i, false);
	if (st != WN_OK) {
		log_truncate(s, first);
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory" : "cannot journal the undo");
	}
	count_lines(s, out);
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

		if (!e->undo_of || strcmp(e->group, group) != 0 || in_map(&acts, e->undo_of))
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
			    wn_history_item **out, size_t *nout, char **changed_id, wn_error *err)
{
	struct undo u = { .s = s, .want = want, .steps = steps, .reach = reach, .first = s->n };
	wn_status st = wn_journal_txn(s->j, log_reset, log_line, s, compose_undo, &u, err);
	bool wrote = st == WN_OK && s->n > u.first;
	wn_history_item *v = NULL;

	*out = NULL;
	*nout = 0;
	if (st != WN_OK && s->n > u.first)
		log_truncate(s, u.first);
	if (st == WN_OK && u.n && !(v = calloc(u.n, sizeof(*v))))
		st = WN_NOMEM;
	for (size_t k = 0; st == WN_OK && k < u.n; k++) {
		struct step *p = &u.v[k];

		if (p->reverted)
			log_mark_undone(s, p->group);
		else if (wn_map_put(&s->spent, p->group, strlen(p->group), (void *) 1) != WN_OK)
			st = WN_NOMEM;
		if (st == WN_OK && (st = describe(s, p->group, &v[k])) == WN_OK) {
			v[k].reverted = p->reverted;
			v[k].kept = p->kept;
			v[k].kept_v = p->kept_v;
			v[k].kept_sev = p->kept_sev;
			v[k].kept_review = p->kept_review;
			v[k].kept_fp = p->kept_fp;
			p->kept_review = p->kept_fp = NULL;
		}
	}
	if (st == WN_OK && changed_id && wrote) {
		free(*changed_id);
		if (!(*changed_id = strdup(s->e[u.first].msgid)))
			st = WN_NOMEM;
	}
	if (st == WN_OK) {
		*out = v;
		*nout = u.n;
	} else {
		wn_history_free(&v, u.n);
		if (st == WN_NOMEM)
			wn_error_set(err, st, "out of memory");
	}
	undo_clear(&u);
	return st;
}

/* The one action of undo_steps(s, want, reach, 1) into *what (may be
 * NULL); *none when there was none. */
static wn_status undo_one(wn_store *s, const char *want, bool reach, wn_history_item *what,
			  bool *none, char **changed_id, wn_error *err)
{
	wn_history_item *v = NULL;
	size_t n = 0;
	wn_status st = undo_steps(s, want, reach, 1, &v, &n, changed_id, err);

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
	wn_status st = undo_one(s, group, false, what, &none, NULL, err);

	if (st == WN_OK && none)
		return wn_error_set(err, WN_NOT_FOUND, "that change is undone already, or no longer "
				    "in the journal");
	return st;
}

wn_status wn_store_undo(wn_store *s, size_t n, size_t *undone, char **changed_id, wn_error *err)
{
	*undone = 0;
	if (changed_id)
		*changed_id = NULL;
	while (*undone < n) {
		bool none;
		wn_history_item what = { 0 };
		wn_status st = undo_one(s, NULL, true, &what, &none, changed_id, err);
		size_t reverted = what.reverted;

		wn_history_item_clear(&what);
		if (st != WN_OK)
			return st;
		if (none)
			break;
		/* An action wholly changed since is passed over, not undone. */
		*undone += reverted > 0;
		if (!reverted)
			n--;
	}
	return WN_OK;
}

wn_status wn_store_undo_last(wn_store *s, wn_history_item *what, wn_error *err)
{
	bool none;
	wn_status st;

	memset(what, 0, sizeof(*what));
	st = undo_one(s, NULL, true, what, &none, NULL, err);
	if (st == WN_OK && none)
		return wn_error_set(err, WN_NOT_FOUND, "nothing to undo");
	return st;
}

wn_status wn_store_undo_many(wn_store *s, size_t n, wn_history_item **out, size_t *nout,
			     wn_error *err)
{
	wn_status st = undo_steps(s, NULL, true, n, out, nout, NULL, err);

	if (st == WN_OK && *nout == 0)
		return wn_error_set(err, WN_NOT_FOUND, "nothing to undo");
	return st;
}

wn_status wn_store_undo_count(wn_store *s, size_t n, size_t *count, wn_error *err)
{
	wn_map seen = WN_MAP_INIT;
	wn_status st = store_catch_up(s, err);

	*count = 0;
	for (size_t i = s->n; st == WN_OK && i > 0 && *count < n; i--) {
		const struct entry *e = &s->e[i - 1];

		if (!undoable(e) || !in_map(&s->reach, e->group) || in_map(&s->spent, e->group) ||
		    in_map(&seen, e->group))
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
};

/* The newest undo within reach not redone yet. */
static const char *redo_target(const wn_store *s)
{
	for (size_t i = s->n; i > 0; i--) {
		const struct entry *e = &s->e[i - 1];

		if (e->undo_of && !e->redone && e->nc && in_map(&s->reach, e->group))
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
	if (!target)
		return WN_OK;
	if (!(r->undo.group = strdup(target)))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	wn_index_refresh(s->idx, NULL);
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
		log_truncate(s, first);
		return WN_OK;
	}
	for (size_t i = first; i < s->n && st == WN_OK; i++)
		st = log_put_entry(out, s, i, false);
	if (st != WN_OK) {
		log_truncate(s, first);
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory" : "cannot journal the redo");
	}
	count_lines(s, out);
	return WN_OK;
}

wn_status wn_store_redo(wn_store *s, wn_history_item *what, wn_error *err)
{
	struct redo r = { .s = s, .first = s->n };
	wn_status st = wn_journal_txn(s->j, log_reset, log_line, s, compose_redo, &r, err);

	memset(what, 0, sizeof(*what));
	if (st != WN_OK && s->n > r.first)
		log_truncate(s, r.first);
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
		log_mark_redone(s, r.undo.group);
		if (describe(s, s->e[r.first].group, what) != WN_OK)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		else
			what->reverted = r.undo.reverted;
	}
	step_clear(&r.undo);
	return st;
}

wn_status wn_store_history(wn_store *s, wn_history_item **out, size_t *n, wn_error *err)
{
	wn_history_item *v;
	wn_status st = store_catch_up(s, err);

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

/* --- forwarded ---------------------------------------------------------------- */

struct fwd {
	wn_store *s;
	const char *prop;	/* WN_PROP_FORWARDED or WN_PROP_REPORTED */
	wn_item *it;
	const size_t *findings;
	size_t n;
	const char *value;
	const char *key;	/* a miss: the one record's key, instead of findings */
	size_t first;
};

static wn_status compose_forward(wn_buf *out, void *arg, wn_error *err)
{
	struct fwd *f = arg;
	wn_store *s = f->s;
	struct entry *e;
	wn_status st = WN_NOMEM;

	f->first = s->n;
	if ((e = new_entry(s, f->it->id, NULL, f->n)) && (e->forward = strdup(f->value))) {
		e->prop = f->prop;
		st = WN_OK;
		for (size_t k = 0; k < f->n && st == WN_OK; k++) {
			struct change *c = &e->c[e->nc++];
			if (!(c->fp = strdup(f->key ? f->key
					     : f->it->review->findings[f->findings[k] - 1].fingerprint)))
				st = WN_NOMEM;
		}
	}
	if (st == WN_OK && (st = log_index(s, s->n - 1)) == WN_OK)
		st = log_put_entry(out, s, s->n - 1, false);
	if (st != WN_OK) {
		log_truncate(s, f->first);
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory"
				    : "cannot journal the forward: a Message-ID is not UTF-8");
	}
	count_lines(s, out);
	return WN_OK;
}

/* Journal a record of findings (prop) sent in the mail msgid at when;
 * told: the command a reply to a bot carried, or NULL. */
static wn_status record(wn_store *s, const char *prop, wn_item *it, const size_t *findings,
			size_t n, const char *sent_msgid, const char *told, time_t when,
			wn_error *err)
{
	struct fwd f = { s, prop, it, findings, n, NULL, NULL, s->n };
	char stamp[64], *value = NULL, **into;
	struct tm tm;
	wn_status st;

	if (!it->loaded || !it->review)
		return wn_error_set(err, WN_USAGE, "review %s is not loaded", it->id);
	for (size_t k = 0; k < n; k++)
		if (findings[k] < 1 || findings[k] > it->review->nfindings)
			return wn_error_set(err, WN_USAGE, "review <%s> has no finding %zu",
					    it->id, findings[k]);
	if (!sent_msgid || !*sent_msgid || strpbrk(sent_msgid, " \t\r\n<>"))
		return wn_error_set(err, WN_USAGE, "bad Message-ID of the mail sent");
	if (told && (!*told || strspn(told, "abcdefghijklmnopqrstuvwxyz") != strlen(told)))
		return wn_error_set(err, WN_USAGE, "bad command word '%s' for the mail sent", told);
	if (!gmtime_r(&when, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    asprintf(&value, "%s %s%s%s", stamp, sent_msgid, told ? " " : "", told ? told : "") < 0)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	f.value = value;
	st = wn_journal_txn(s->j, log_reset, log_line, s, compose_forward, &f, err);
	if (st != WN_OK && s->n > f.first)
		log_truncate(s, f.first);
	into = strcmp(prop, WN_PROP_REPORTED) == 0 ? it->reported : it->forwarded;
	for (size_t k = 0; st == WN_OK && into && k < n; k++) {
		char *copy = strdup(value);
		if (copy) {
			free(into[findings[k] - 1]);
			into[findings[k] - 1] = copy;
		}
	}
	free(value);
	return st;
}

wn_status wn_store_forwarded(wn_store *s, wn_item *it, const size_t *findings, size_t n,
			     const char *sent_msgid, time_t when, wn_error *err)
{
	return record(s, WN_PROP_FORWARDED, it, findings, n, sent_msgid, NULL, when, err);
}

wn_status wn_store_told(wn_store *s, wn_item *it, const size_t *findings, size_t n,
			const char *sent_msgid, const char *told, time_t when, wn_error *err)
{
	if (!told)
		return wn_error_set(err, WN_USAGE, "no command word for the mail sent");
	return record(s, WN_PROP_FORWARDED, it, findings, n, sent_msgid, told, when, err);
}

const char *wn_forwarded_told(const char *value)
{
	/* "TIME MESSAGE-ID TOLD": neither of the first two holds a blank. */
	const char *sp = value ? strchr(value, ' ') : NULL;

	sp = sp ? strchr(sp + 1, ' ') : NULL;
	return sp && sp[1] ? sp + 1 : NULL;
}

wn_status wn_store_reported(wn_store *s, wn_item *it, const size_t *findings, size_t n,
			    const char *msgid, time_t when, wn_error *err)
{
	return record(s, WN_PROP_REPORTED, it, findings, n, msgid, NULL, when, err);
}

/* --- missed findings ------------------------------------------------------------ */

wn_status wn_store_missed(wn_store *s, wn_item *it, const char *note, time_t when, wn_error *err)
{
	struct fwd f = { s, WN_PROP_MISSED, it, NULL, 1, NULL, NULL, s->n };
	size_t len = note ? strlen(note) : 0;
	char stamp[64], *value = NULL, *key = NULL;
	struct tm tm;
	wn_status st;

	if (!it->loaded || !it->review)
		return wn_error_set(err, WN_USAGE, "review %s is not loaded", it->id);
	if (len == 0)
		return wn_error_set(err, WN_USAGE, "say in a note what the bot missed");
	if (len > WN_MISS_NOTE_MAX)
		return wn_error_set(err, WN_USAGE, "the note is %zu bytes long; a missed finding's "
				    "note is at most %d", len, WN_MISS_NOTE_MAX);
	if (!wn_text_utf8_valid(note, len))
		return wn_error_set(err, WN_USAGE, "the note is not valid UTF-8 text");
	for (size_t i = 0; i < len; i++)
		if ((unsigned char) note[i] < 0x20 || note[i] == 0x7f)
			return wn_error_set(err, WN_USAGE, "the note of a missed finding is one line "
					    "without control characters");
	/* Its own key, so misses recorded on one review never replace
	 * each other, whichever process records them. */
	if (!gmtime_r(&when, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) ||
	    asprintf(&value, "%s %s", stamp, note) < 0 ||
	    asprintf(&key, "%llx-%lx-%lx", (long long) time(NULL), (long) getpid(), ++s->counter) < 0) {
		free(value);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	f.value = value;
	f.key = key;
	st = wn_journal_txn(s->j, log_reset, log_line, s, compose_forward, &f, err);
	if (st != WN_OK && s->n > f.first)
		log_truncate(s, f.first);
	if (st == WN_OK)
		wn_props_add_miss(it, value);
	free(value);
	free(key);
	return st;
}
