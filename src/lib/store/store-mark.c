/* winnow — marking: the journal line of a user's verdict, note,
 * reason or severity on findings, decided under the journal's lock
 * (store.c says why), and the records of findings forwarded, reported
 * or missed.  Line formats: store-private.h. */
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
void wn_store_count_lines(wn_store *s, const wn_buf *out)
{
	for (size_t i = 0; i < out->len; i++)
		s->lineno += out->data[i] == '\n';
}

/* A new entry about msgid, in group (NULL: a group of its own). */
struct entry *wn_store_new_entry(wn_store *s, const char *msgid, const char *group, size_t nc)
{
	struct entry *e = wn_log_push(s);

	if (!e)
		return NULL;
	e->eid = new_eid(s);
	e->group = group ? strdup(group) : wn_strdup0(e->eid);
	e->msgid = strdup(msgid);
	e->t = (long long) time(NULL);
	e->c = calloc(nc ? nc : 1, sizeof(*e->c));
	if (!e->eid || !e->group || !e->msgid || !e->c ||
	    wn_store_reach_add(s, e->group) != WN_OK) {
		wn_log_truncate(s, s->n - 1);
		return NULL;
	}
	return e;
}

/* Does the journal know the review's findings as the item has them? */
static bool review_known(const wn_store *s, const wn_item *it)
{
	const struct review_fps *r = wn_log_review(s, it->id);

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
	st = wn_log_set_review(s, it->id, fps, it->review->nfindings);
	free(fps);
	return st == WN_OK ? wn_log_put_review(out, s, it->id) : st;
}

static void reviews_journaled(wn_store *s, const wn_mark_target *t, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct review_fps *r = (struct review_fps *) wn_log_review(s, t[k].it->id);
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
	if (!(e = wn_store_new_entry(s, it->id, group, hi - lo)))
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
		wn_log_pop(s);
		return WN_OK;
	}
	m->changed += e->nc;
	/* The review's line goes before the first mark of it. */
	if ((st = put_review(s, it, out)) != WN_OK)
		return st;
	if ((st = wn_log_index(s, s->n - 1)) != WN_OK)
		return st;
	return wn_log_put_entry(out, s, s->n - 1, false);
}

static wn_status compose_mark(wn_buf *out, void *arg, wn_error *err)
{
	struct mark *m = arg;
	wn_store *s = m->s;
	wn_status st = WN_OK;
	char *group = NULL;

	m->first = s->n;
	m->changed = 0;
	wn_store_index_refresh(s);
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
		wn_log_truncate(s, m->first);
		if (st == WN_PARSE)
			return wn_error_set(err, WN_PARSE, "cannot journal a verdict: "
					    "a Message-ID or a note is not UTF-8");
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	wn_store_count_lines(s, out);
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
	st = wn_journal_txn(s->j, wn_log_reset, wn_log_line, s, compose_mark, m, err);
	s->last_changes = st == WN_OK ? m->changed : 0;
	if (st != WN_OK) {
		if (s->n > m->first)
			wn_log_truncate(s, m->first);
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
				wn_store_set_closed(&it->closed[i], *m->closed ? m->closed : NULL);
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
	if ((e = wn_store_new_entry(s, f->it->id, NULL, f->n)) && (e->forward = strdup(f->value))) {
		e->prop = f->prop;
		st = WN_OK;
		for (size_t k = 0; k < f->n && st == WN_OK; k++) {
			struct change *c = &e->c[e->nc++];
			if (!(c->fp = strdup(f->key ? f->key
					     : f->it->review->findings[f->findings[k] - 1].fingerprint)))
				st = WN_NOMEM;
		}
	}
	if (st == WN_OK && (st = wn_log_index(s, s->n - 1)) == WN_OK)
		st = wn_log_put_entry(out, s, s->n - 1, false);
	if (st != WN_OK) {
		wn_log_truncate(s, f->first);
		return wn_error_set(err, st, st == WN_NOMEM ? "out of memory"
				    : "cannot journal the forward: a Message-ID is not UTF-8");
	}
	wn_store_count_lines(s, out);
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
	st = wn_journal_txn(s->j, wn_log_reset, wn_log_line, s, compose_forward, &f, err);
	if (st != WN_OK && s->n > f.first)
		wn_log_truncate(s, f.first);
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
	st = wn_journal_txn(s->j, wn_log_reset, wn_log_line, s, compose_forward, &f, err);
	if (st != WN_OK && s->n > f.first)
		wn_log_truncate(s, f.first);
	if (st == WN_OK)
		wn_props_add_miss(it, value);
	free(value);
	free(key);
	return st;
}
