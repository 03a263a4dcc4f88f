/* winnow — the journal's lines in memory: parsing, serialising, and the
 * maps that find the newest decision on a finding in constant time.
 * See store-private.h for the line formats. */
#include "autoconfig.h"

#include <jansson.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-private.h"
#include "winnow/text.h"

/* The sendmail records are read and reset with the other lines. */
static wn_status log_read_sendmail(wn_store *s, json_t *o);
static void log_sent_free(wn_store *s);

void store_warn(wn_store *s, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	m = wn_vstrdupf(fmt, ap);
	va_end(ap);
	if (m) {
		free(s->warning);
		s->warning = m;
	}
}

/* --- memory -------------------------------------------------------------- */

static void change_clear(struct change *c)
{
	free(c->fp);
	free(c->note);
	free(c->prev_note);
	free(c->closed);
	free(c->prev_closed);
	free(c->rejected);
}

static void entry_clear(struct entry *e)
{
	free(e->eid);
	free(e->group);
	free(e->undo_of);
	free(e->redo_of);
	free(e->msgid);
	free(e->forward);
	for (size_t k = 0; k < e->nc; k++)
		change_clear(&e->c[k]);
	free(e->c);
	memset(e, 0, sizeof(*e));
}

static void review_free(void *v)
{
	struct review_fps *r = v;

	for (size_t i = 0; r && i < r->n; i++)
		free(r->fps[i]);
	if (r)
		free(r->fps);
	free(r);
}

struct entry *log_push(wn_store *s)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 32;
		struct entry *ne = realloc(s->e, ncap * sizeof(*ne));
		if (!ne)
			return NULL;
		s->e = ne;
		s->cap = ncap;
	}
	memset(&s->e[s->n], 0, sizeof(s->e[0]));
	return &s->e[s->n++];
}

/* A finding's key: the Message-ID, a NUL, the fingerprint. */
static char *finding_key(const char *msgid, const char *fp, size_t *len)
{
	size_t a = strlen(msgid), b = strlen(fp);
	char *k = malloc(a + b + 2);

	if (k) {
		memcpy(k, msgid, a + 1);
		memcpy(k + a + 1, fp, b + 1);
		*len = a + b + 1;
	}
	return k;
}

struct finding *log_finding(const wn_store *s, const char *msgid, const char *fp)
{
	size_t len;
	char *k = finding_key(msgid, fp, &len);
	struct finding *f = k ? wn_map_get(&s->findings, k, len) : NULL;

	free(k);
	return f;
}

wn_status log_index(wn_store *s, size_t i)
{
	struct entry *e = &s->e[i];

	if (wn_map_put(&s->eids, e->eid, strlen(e->eid), (void *) (uintptr_t) (i + 1)) != WN_OK)
		return WN_NOMEM;
	/* A forward record says nothing about verdicts. */
	if (e->forward) {
		s->nforward++;
		return WN_OK;
	}
	for (size_t k = 0; k < e->nc; k++) {
		size_t len;
		char *key = finding_key(e->msgid, e->c[k].fp, &len);
		struct finding *f = key ? wn_map_get(&s->findings, key, len) : NULL;

		if (!key)
			return WN_NOMEM;
		if (!f && (!(f = calloc(1, sizeof(*f))) ||
			   wn_map_put(&s->findings, key, len, f) != WN_OK)) {
			free(f);
			free(key);
			return WN_NOMEM;
		}
		free(key);
		f->msgid = e->msgid;
		f->fp = e->c[k].fp;
		if (e->severity) {
			f->has_sev = true;
			f->se = i;
			f->sc = k;
			continue;
		}
		f->has_v = true;
		f->e = i;
		f->c = k;
		if (e->c[k].has_note) {
			f->has_note = true;
			f->ne = i;
			f->nc = k;
		}
		if (e->c[k].has_reason) {
			f->has_reason = true;
			f->re = i;
			f->rc = k;
		}
		if (e->c[k].has_closed) {
			f->has_closed = true;
			f->ce = i;
			f->cc = k;
		}
	}
	return WN_OK;
}

static wn_status reindex(wn_store *s)
{
	s->nforward = 0;
	wn_map_free(&s->findings, free);
	wn_map_free(&s->eids, NULL);
	for (size_t i = 0; i < s->n; i++)
		if (log_index(s, i) != WN_OK)
			return WN_NOMEM;
	return WN_OK;
}

void log_pop(wn_store *s)
{
	if (s->n)
		entry_clear(&s->e[--s->n]);
}

void log_truncate(wn_store *s, size_t first)
{
	while (s->n > first)
		entry_clear(&s->e[--s->n]);
	if (reindex(s) != WN_OK)
		s->oom = true;
}

void log_reset(void *store)
{
	wn_store *s = store;

	s->lineno = 0;
	s->cut = 0;
	log_truncate(s, 0);
	wn_map_free(&s->reviews, review_free);
	log_sent_free(s);
}

void log_free(wn_store *s)
{
	log_reset(s);
	free(s->e);
	s->e = NULL;
	s->cap = 0;
}

const struct change *log_newest(const wn_store *s, const struct finding *f)
{
	return f->has_v ? &s->e[f->e].c[f->c] : NULL;
}

const struct change *log_newest_sev(const wn_store *s, const struct finding *f)
{
	return f->has_sev ? &s->e[f->se].c[f->sc] : NULL;
}

const struct change *log_newest_note(const wn_store *s, const struct finding *f)
{
	return f->has_note ? &s->e[f->ne].c[f->nc] : NULL;
}

const struct change *log_newest_reason(const wn_store *s, const struct finding *f)
{
	return f->has_reason ? &s->e[f->re].c[f->rc] : NULL;
}

const struct change *log_newest_closed(const wn_store *s, const struct finding *f)
{
	return f->has_closed ? &s->e[f->ce].c[f->cc] : NULL;
}

static bool change_pending(const struct change *c)
{
	return c && !c->applied && !c->rejected;
}

bool log_pending(const wn_store *s, const struct finding *f)
{
	return change_pending(log_newest(s, f)) || change_pending(log_newest_sev(s, f));
}

bool log_forward_pending(const struct entry *e)
{
	for (size_t k = 0; k < e->nc; k++)
		if (!e->c[k].applied)
			return true;
	return false;
}

bool log_entry_pending(const wn_store *s, size_t i)
{
	const struct entry *e = &s->e[i];

	if (e->forward)
		return log_forward_pending(e);
	for (size_t k = 0; k < e->nc; k++) {
		const struct finding *f = log_finding(s, e->msgid, e->c[k].fp);
		const struct change *newest = !f ? NULL : e->severity ? log_newest_sev(s, f)
						       : log_newest(s, f);
		if (newest == &e->c[k] && change_pending(newest))
			return true;
	}
	return false;
}

struct collect {
	const wn_store *s;
	struct finding **v;
	size_t n;
};

static void collect_pending(void *val, void *arg)
{
	struct collect *c = arg;

	if (log_pending(c->s, val))
		c->v[c->n++] = val;
}

static void count_pending(void *val, void *arg)
{
	struct collect *c = arg;

	c->n += log_pending(c->s, val);
}

size_t log_pending_count(const wn_store *s)
{
	struct collect c = { s, NULL, 0 };

	wn_map_each(&s->findings, count_pending, &c);
	for (size_t i = 0; s->nforward && i < s->n; i++)
		c.n += s->e[i].forward && log_forward_pending(&s->e[i]);
	return c.n;
}

static int by_review(const void *a, const void *b)
{
	const struct finding *x = *(struct finding *const *) a, *y = *(struct finding *const *) b;
	int r = strcmp(x->msgid, y->msgid);

	return r ? r : strcmp(x->fp, y->fp);
}

struct finding **log_pending_list(const wn_store *s, size_t *n)
{
	struct collect c = { s, malloc((s->findings.n + 1) * sizeof(struct finding *)), 0 };

	*n = 0;
	if (!c.v)
		return NULL;
	wn_map_each(&s->findings, collect_pending, &c);
	if (c.n > 1)
		qsort(c.v, c.n, sizeof(*c.v), by_review);
	*n = c.n;
	return c.v;
}

wn_status log_set_review(wn_store *s, const char *msgid, const char *const *fps, size_t n)
{
	struct review_fps *r = calloc(1, sizeof(*r)), *old;

	if (!r || !(r->fps = calloc(n + 1, sizeof(char *)))) {
		free(r);
		return WN_NOMEM;
	}
	for (r->n = 0; r->n < n; r->n++)
		if (!(r->fps[r->n] = strdup(fps[r->n]))) {
			review_free(r);
			return WN_NOMEM;
		}
	old = wn_map_get(&s->reviews, msgid, strlen(msgid));
	if (wn_map_put(&s->reviews, msgid, strlen(msgid), r) != WN_OK) {
		review_free(r);
		return WN_NOMEM;
	}
	review_free(old);
	return WN_OK;
}

const struct review_fps *log_review(const wn_store *s, const char *msgid)
{
	return wn_map_get(&s->reviews, msgid, strlen(msgid));
}

/* --- reading lines --------------------------------------------------------- */

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool jstate(json_t *v, wn_verdict *out)
{
	return json_is_string(v) && wn_verdict_from_name(json_string_value(v), out) == WN_OK;
}

/* A nullable string into *out (NULL for null); false for other types
 * or out of memory. */
static bool jdup(json_t *v, char **out)
{
	*out = NULL;
	if (!v || json_is_null(v))
		return true;
	return json_is_string(v) && (*out = strdup(json_string_value(v))) != NULL;
}

/* A reason's name, "" or null for none; false for anything else (an
 * unknown name from a newer winnow fails the line, as an unknown
 * verdict does, rather than be written as something else). */
static bool jreason(json_t *v, wn_reason *out)
{
	*out = WN_REASON_NONE;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v))
		return false;
	return !*json_string_value(v) || wn_reason_from_name(json_string_value(v), out) == WN_OK;
}

/* A winnow.closed value, "" for none, or null; false for anything else
 * (a value of another shape fails the line rather than be written). */
static bool jclosed(json_t *v, char **out)
{
	*out = NULL;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v) || (*json_string_value(v) && !wn_closed_ok(json_string_value(v))))
		return false;
	return (*out = strdup(json_string_value(v))) != NULL;
}

/* [FP, STATE, PREV, PREV_NOTE|null, NOTE|null(, REJECTED|null(, REASON|null, PREV_REASON
 *  (, CLOSED, PREV_CLOSED|null)))] */
static wn_status read_change(json_t *a, struct change *c)
{
	json_t *note = json_array_get(a, 4);
	json_t *reason = json_array_get(a, 6), *closed = json_array_get(a, 8);

	if (!json_is_array(a) || json_array_size(a) < 5 || !json_is_string(json_array_get(a, 0)) ||
	    !jstate(json_array_get(a, 1), &c->v) || !jstate(json_array_get(a, 2), &c->prev) ||
	    (!json_is_null(note) && !json_is_string(note)) ||
	    !jreason(reason, &c->reason) || !jreason(json_array_get(a, 7), &c->prev_reason))
		return WN_PARSE;
	c->has_note = json_is_string(note);
	c->has_reason = json_is_string(reason);
	if (!(c->fp = strdup(json_string_value(json_array_get(a, 0)))) ||
	    !jdup(json_array_get(a, 3), &c->prev_note) || !jdup(note, &c->note) ||
	    !jdup(json_array_get(a, 5), &c->rejected))
		return WN_NOMEM;
	c->has_closed = json_is_string(closed);
	if (!jclosed(closed, &c->closed) || !jclosed(json_array_get(a, 9), &c->prev_closed))
		return WN_PARSE;
	return WN_OK;
}

/* The one change of an old-style line (one finding per line). */
static wn_status read_old_change(json_t *o, struct change *c)
{
	json_t *note = json_object_get(o, "note");

	if (!jstr(o, "fp") || !jstate(json_object_get(o, "v"), &c->v))
		return WN_PARSE;
	if (!jstate(json_object_get(o, "prev"), &c->prev))
		c->prev = WN_VERDICT_UNTRIAGED;
	c->has_note = json_is_string(note);
	if (!(c->fp = strdup(jstr(o, "fp"))) || !jdup(note, &c->note) ||
	    !jdup(json_object_get(o, "prev_note"), &c->prev_note))
		return WN_NOMEM;
	return WN_OK;
}

/* A nullable severity name; false for anything else. */
static bool jsev(json_t *v, wn_severity *out)
{
	*out = WN_SEV_NONE;
	if (!v || json_is_null(v))
		return true;
	if (!json_is_string(v))
		return false;
	*out = wn_severity_parse(json_string_value(v));
	return true;
}

/* [FP, SEV|null, PREV_SEV|null(, REJECTED)] */
static wn_status read_sev_change(json_t *a, struct change *c)
{
	if (!json_is_array(a) || json_array_size(a) < 3 || !json_is_string(json_array_get(a, 0)) ||
	    !jsev(json_array_get(a, 1), &c->sev) || !jsev(json_array_get(a, 2), &c->prev_sev))
		return WN_PARSE;
	if (!(c->fp = strdup(json_string_value(json_array_get(a, 0)))) ||
	    !jdup(json_array_get(a, 3), &c->rejected))
		return WN_NOMEM;
	return WN_OK;
}

static wn_status read_fps(wn_store *s, const char *msgid, json_t *fps)
{
	size_t n = json_array_size(fps);
	const char **v = calloc(n + 1, sizeof(char *));
	wn_status st;

	if (!v)
		return WN_NOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] = json_string_value(json_array_get(fps, i)))) {
			free(v);
			return WN_PARSE;
		}
	st = log_set_review(s, msgid, v, n);
	free(v);
	if (st == WN_OK)
		((struct review_fps *) log_review(s, msgid))->journaled = true;
	return st;
}

void log_mark_undone(wn_store *s, const char *group)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->e[i].group, group) == 0)
			s->e[i].undone = true;
}

void log_mark_redone(wn_store *s, const char *group)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->e[i].group, group) == 0)
			s->e[i].redone = true;
}

static wn_status read_mark(wn_store *s, json_t *o, bool severity)
{
	const char *eid = jstr(o, "eid"), *group = jstr(o, "group"), *id = jstr(o, "id");
	json_t *cs = json_object_get(o, "c"), *fps = json_object_get(o, "fps");
	size_t first = s->n, nc = json_is_array(cs) ? json_array_size(cs) : 1;
	wn_status st = WN_OK;
	struct entry *e;

	if (!eid || !group || !id || (cs && !json_is_array(cs)))
		return WN_PARSE;
	if (!(e = log_push(s)))
		return WN_NOMEM;
	e->c = calloc(nc ? nc : 1, sizeof(*e->c));
	e->eid = strdup(eid);
	e->group = strdup(group);
	e->msgid = strdup(id);
	if (!e->c || !e->eid || !e->group || !e->msgid || !jdup(json_object_get(o, "undo_of"), &e->undo_of) ||
	    !jdup(json_object_get(o, "redo_of"), &e->redo_of))
		st = WN_NOMEM;
	e->t = json_integer_value(json_object_get(o, "t"));
	e->undone = json_is_true(json_object_get(o, "undone"));
	e->severity = severity;
	if (severity && !cs)
		st = WN_PARSE;
	for (; st == WN_OK && e->nc < nc; e->nc++)
		st = severity ? read_sev_change(json_array_get(cs, e->nc), &e->c[e->nc])
			: cs ? read_change(json_array_get(cs, e->nc), &e->c[e->nc])
			: read_old_change(o, &e->c[e->nc]);
	/* Only an undo may change nothing: it still records the undo. */
	if (st == WN_OK && nc == 0 && !e->undo_of)
		st = WN_PARSE;
	if (st == WN_OK && json_is_array(fps))
		st = read_fps(s, id, fps);
	for (size_t k = 0; st == WN_OK && k < e->nc; k++)
		e->c[k].applied = json_is_true(json_object_get(o, "applied"));
	if (st == WN_OK)
		st = log_index(s, first);
	if (st != WN_OK) {
		log_truncate(s, first);
		return st;
	}
	if (e->undo_of)
		log_mark_undone(s, e->undo_of);
	if (e->redo_of)
		log_mark_redone(s, e->redo_of);
	return WN_OK;
}

/* {"op":"forward"|"reported",...}: the findings recorded, as changes. */
static wn_status read_forward(wn_store *s, json_t *o, const char *prop)
{
	const char *eid = jstr(o, "eid"), *id = jstr(o, "id"), *value = jstr(o, "value");
	json_t *fps = json_object_get(o, "fps");
	size_t first = s->n, nc = json_array_size(fps);
	bool applied = json_is_true(json_object_get(o, "applied"));
	wn_status st = WN_OK;
	struct entry *e;

	if (!eid || !id || !value || !json_is_array(fps) || nc == 0)
		return WN_PARSE;
	if (!(e = log_push(s)))
		return WN_NOMEM;
	e->c = calloc(nc, sizeof(*e->c));
	e->eid = strdup(eid);
	e->group = strdup(jstr(o, "group") ? jstr(o, "group") : eid);
	e->msgid = strdup(id);
	e->forward = strdup(value);
	e->prop = prop;
	e->t = json_integer_value(json_object_get(o, "t"));
	if (!e->c || !e->eid || !e->group || !e->msgid || !e->forward)
		st = WN_NOMEM;
	for (; st == WN_OK && e->nc < nc; e->nc++) {
		const char *fp = json_string_value(json_array_get(fps, e->nc));
		st = !fp ? WN_PARSE : (e->c[e->nc].fp = strdup(fp)) ? WN_OK : WN_NOMEM;
		e->c[e->nc].applied = applied;
	}
	if (st == WN_OK)
		st = log_index(s, first);
	if (st != WN_OK)
		log_truncate(s, first);
	return st;
}

static struct entry *entry_by_eid(const wn_store *s, const char *eid)
{
	uintptr_t i = (uintptr_t) wn_map_get(&s->eids, eid, strlen(eid));

	return i ? &s->e[i - 1] : NULL;
}

static wn_status read_applied(wn_store *s, json_t *o)
{
	json_t *eids = json_object_get(o, "eids");

	if (!json_is_array(eids))
		return WN_PARSE;
	for (size_t i = 0; i < json_array_size(eids); i++) {
		const char *eid = json_string_value(json_array_get(eids, i));
		struct entry *e = eid ? entry_by_eid(s, eid) : NULL;

		for (size_t k = 0; e && k < e->nc; k++)
			e->c[k].applied = true;
	}
	return WN_OK;
}

static wn_status read_reject(wn_store *s, json_t *o)
{
	const char *eid = jstr(o, "eid"), *fp = jstr(o, "fp"), *why = jstr(o, "why");
	struct entry *e = eid ? entry_by_eid(s, eid) : NULL;

	if (!eid || !fp || !why)
		return WN_PARSE;
	for (size_t k = 0; e && k < e->nc; k++) {
		if (strcmp(e->c[k].fp, fp) != 0 || e->c[k].rejected)
			continue;
		if (!(e->c[k].rejected = strdup(why)))
			return WN_NOMEM;
		/* Said once, by the process whose write set it aside. */
		if (s->announce_rejects)
			store_warn(s, "the verdict on finding %s of review <%s> could not be written to notmuch "
			   "(%s); it is set aside in %s.rejected", fp, e->msgid, why,
			   wn_journal_path(s->j));
	}
	return WN_OK;
}

wn_status log_line(const char *line, size_t len, void *store)
{
	wn_store *s = store;
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *op = o ? jstr(o, "op") : NULL;
	wn_status st = WN_PARSE;
	bool json = o != NULL;

	if (!op)
		st = WN_PARSE;
	else if (strcmp(op, "mark") == 0)
		st = read_mark(s, o, false);
	else if (strcmp(op, "severity") == 0)
		st = read_mark(s, o, true);
	else if (strcmp(op, "applied") == 0)
		st = read_applied(s, o);
	else if (strcmp(op, "review") == 0)
		st = jstr(o, "id") && json_is_array(json_object_get(o, "fps"))
			? read_fps(s, jstr(o, "id"), json_object_get(o, "fps")) : WN_PARSE;
	else if (strcmp(op, "reject") == 0)
		st = read_reject(s, o);
	else if (strcmp(op, "forward") == 0)
		st = read_forward(s, o, WN_PROP_FORWARDED);
	else if (strcmp(op, "missed") == 0)
		st = read_forward(s, o, WN_PROP_MISSED);
	else if (strcmp(op, "reported") == 0)
		st = read_forward(s, o, WN_PROP_REPORTED);
	else if (strcmp(op, "sendmail") == 0)
		st = log_read_sendmail(s, o);
	json_decref(o);
	if (st == WN_NOMEM) {
		s->oom = true;
		return st;
	}
	s->lineno++;
	/* Not JSON: a write cut short, with a later line appended after
	 * it.  (JSON that is no entry of ours may be a newer winnow's.) */
	if (!json)
		s->cut++;
	if (st != WN_OK) {
		/* Keep going: one bad line must not cost the others. */
		store_warn(s, "journal %s: line %zu is not a winnow entry; ignored",
			   wn_journal_path(s->j), s->lineno);
	}
	return WN_OK;
}

/* Every file of the module reads newer lines this way, so it sits with
 * the reader rather than above it. */
wn_status store_catch_up(wn_store *s, wn_error *err)
{
	wn_status st = wn_journal_update(s->j, log_reset, log_line, s, err);

	if (st == WN_OK && s->oom) {
		s->oom = false;
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return st;
}

/* --- writing lines ----------------------------------------------------------- */

/* Append the JSON of o and a newline to b (o is consumed). */
static wn_status put_json(wn_buf *b, json_t *o)
{
	char *text;
	wn_status st;

	/* json_string() refuses text that is not UTF-8: such an id or note
	 * cannot be journaled (marking refuses such notes earlier). */
	if (!o)
		return WN_PARSE;
	text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!text)
		return WN_NOMEM;
	st = wn_buf_puts(b, text);
	if (st == WN_OK)
		st = wn_buf_putc(b, '\n');
	free(text);
	return st;
}

static json_t *jnullable(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *sev_json(wn_severity sev)
{
	return sev == WN_SEV_NONE ? json_null() : json_string(wn_severity_name(sev));
}

static json_t *sev_change_json(const struct change *c, bool full)
{
	json_t *a = json_pack("[s,o,o]", c->fp, sev_json(c->sev), sev_json(c->prev_sev));

	if (a && full && c->rejected)
		json_array_append_new(a, json_string(c->rejected));
	return a;
}

static json_t *change_json(const struct change *c, bool full)
{
	json_t *a = json_pack("[s,s,s,o,o]", c->fp, wn_verdict_name(c->v), wn_verdict_name(c->prev),
			      jnullable(c->prev_note),
			      c->has_note ? json_string(c->note ? c->note : "") : json_null());

	if (a && ((full && c->rejected) || c->has_reason || c->has_closed))
		json_array_append_new(a, jnullable(full ? c->rejected : NULL));
	if (a && c->has_reason) {
		const char *r = wn_reason_name(c->reason), *p = wn_reason_name(c->prev_reason);
		json_array_append_new(a, json_string(r ? r : ""));
		json_array_append_new(a, jnullable(p));
	} else if (a && c->has_closed) {
		json_array_append_new(a, json_null());
		json_array_append_new(a, json_null());
	}
	if (a && c->has_closed) {
		json_array_append_new(a, json_string(c->closed ? c->closed : ""));
		json_array_append_new(a, jnullable(c->prev_closed));
	}
	return a;
}

static wn_status put_forward(wn_buf *b, const struct entry *e, bool full)
{
	json_t *fps = json_array(), *o;

	for (size_t k = 0; fps && k < e->nc; k++)
		json_array_append_new(fps, json_string(e->c[k].fp));
	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:s, s:o}", "op",
		      strcmp(e->prop, WN_PROP_REPORTED) == 0 ? "reported"
		      : strcmp(e->prop, WN_PROP_MISSED) == 0 ? "missed" : "forward", "eid", e->eid,
		      "group", e->group, "id", e->msgid, "t", (json_int_t) e->t,
		      "value", e->forward, "fps", fps);
	if (o && full && !log_forward_pending(e))
		json_object_set_new(o, "applied", json_true());
	return put_json(b, o);
}

wn_status log_put_entry(wn_buf *b, const wn_store *s, size_t i, bool full)
{
	const struct entry *e = &s->e[i];
	json_t *cs, *o;

	if (e->forward)
		return put_forward(b, e, full);
	cs = json_array();
	for (size_t k = 0; cs && k < e->nc; k++)
		if (json_array_append_new(cs, e->severity ? sev_change_json(&e->c[k], full)
							  : change_json(&e->c[k], full)) < 0) {
			json_decref(cs);
			return WN_PARSE;
		}
	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o}", "op", e->severity ? "severity" : "mark",
		      "eid", e->eid,
		      "group", e->group, "id", e->msgid, "t", (json_int_t) e->t, "c", cs);
	if (o && e->undo_of)
		json_object_set_new(o, "undo_of", json_string(e->undo_of));
	if (o && e->redo_of)
		json_object_set_new(o, "redo_of", json_string(e->redo_of));
	if (o && full && !log_entry_pending(s, i))
		json_object_set_new(o, "applied", json_true());
	if (o && full && e->undone)
		json_object_set_new(o, "undone", json_true());
	return put_json(b, o);
}

wn_status log_put_review(wn_buf *b, const wn_store *s, const char *msgid)
{
	const struct review_fps *r = log_review(s, msgid);
	json_t *fps = json_array();

	if (!r) {
		json_decref(fps);
		return WN_OK;
	}
	for (size_t i = 0; fps && i < r->n; i++)
		json_array_append_new(fps, json_string(r->fps[i]));
	return put_json(b, json_pack("{s:s, s:s, s:o}", "op", "review", "id", msgid, "fps", fps));
}

/* --- mails handed to sendmail (see store-sent.c) ---------------------- */

/* A map value; the Message-ID again, as compaction writes the line
 * from the value alone. */
struct sent {
	long long t;
	wn_sent_state state;
	char *findings;		/* a drafted mail's, JSON text; NULL */
	char msgid[];
};

static const char *const state_names[] = {
	[WN_SENT_HANDED] = "handed", [WN_SENT_ACCEPTED] = "accepted", [WN_SENT_FAILED] = "failed",
	[WN_SENT_DRAFTED] = "drafted",
};

wn_status log_sent_remember(wn_store *s, const char *msgid, wn_sent_state state, long long t,
			    const char *findings)
{
	struct sent *r = wn_map_get(&s->sent, msgid, strlen(msgid));
	char *f = findings ? strdup(findings) : NULL;

	if (findings && !f)
		return WN_NOMEM;
	if (!r) {
		size_t len = strlen(msgid);

		if (!(r = calloc(1, sizeof(*r) + len + 1))) {
			free(f);
			return WN_NOMEM;
		}
		memcpy(r->msgid, msgid, len + 1);
		if (wn_map_put(&s->sent, msgid, strlen(msgid), r) != WN_OK) {
			free(r);
			free(f);
			return WN_NOMEM;
		}
	}
	r->t = t;
	r->state = state;
	free(r->findings);
	r->findings = f;
	return WN_OK;
}

static wn_status log_read_sendmail(wn_store *s, json_t *o)
{
	json_t *mail = json_object_get(o, "mail"), *state = json_object_get(o, "state");
	json_t *findings = json_object_get(o, "findings");

	if (!json_is_string(mail) || !json_is_string(state))
		return WN_PARSE;
	for (size_t k = WN_SENT_HANDED; k <= WN_SENT_DRAFTED; k++)
		if (strcmp(json_string_value(state), state_names[k]) == 0) {
			char *text = NULL;
			wn_status st;

			if (k == WN_SENT_DRAFTED) {
				if (!json_is_array(findings))
					return WN_PARSE;
				if (!(text = json_dumps(findings, JSON_COMPACT | JSON_ENSURE_ASCII)))
					return WN_NOMEM;
			}
			st = log_sent_remember(s, json_string_value(mail), (wn_sent_state) k,
					       json_integer_value(json_object_get(o, "t")), text);
			free(text);
			return st;
		}
	return WN_PARSE;
}

static void sent_free(void *v)
{
	struct sent *r = v;

	if (r)
		free(r->findings);
	free(r);
}

static void log_sent_free(wn_store *s)
{
	wn_map_free(&s->sent, sent_free);
}

static char *sent_line(const char *msgid, wn_sent_state state, long long t, const char *findings)
{
	json_t *o = json_pack("{s:s, s:s, s:I, s:s}", "op", "sendmail", "mail", msgid, "t",
			      (json_int_t) t, "state", state_names[state]);
	json_t *f = findings ? json_loads(findings, 0, NULL) : NULL;
	char *text = NULL;

	if (!o) {
		json_decref(f);
		return NULL;
	}
	/* json_object_set_new takes f, whether it succeeds or not. */
	if (!findings || (f && json_object_set_new(o, "findings", f) == 0))
		text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	return text;
}

wn_status log_put_sendmail(wn_buf *out, const char *msgid, wn_sent_state state, long long t,
			   const char *findings)
{
	char *line = sent_line(msgid, state, t, findings);
	wn_status st = line ? wn_buf_puts(out, line) : WN_PARSE;

	free(line);
	if (st == WN_OK)
		st = wn_buf_putc(out, '\n');
	return st;
}

bool log_sent_find(const wn_store *s, const char *msgid, wn_sent_state *state, long long *t)
{
	const struct sent *r = wn_map_get(&s->sent, msgid, strlen(msgid));

	if (!r)
		return false;
	*state = r->state;
	*t = r->t;
	return true;
}

/* How many mails that sendmail took compaction keeps: a winnow killed
 * after sendmail took a mail but before it removed the draft leaves a
 * draft of a mail that was sent, and the journal must still say so when
 * it is resumed.  The newest ones: such a draft is resumed soon, or
 * never. */
#define KEEP_ACCEPTED 200

struct put {
	const struct sent **v;
	size_t n;
};

static void collect(void *val, void *arg)
{
	struct put *p = arg;
	const struct sent *r = val;

	if (r->state == WN_SENT_HANDED || r->state == WN_SENT_ACCEPTED || r->state == WN_SENT_DRAFTED)
		p->v[p->n++] = r;
}

/* Oldest first, so that the lines keep the journal's order. */
static int by_time(const void *a, const void *b)
{
	const struct sent *x = *(const struct sent *const *) a, *y = *(const struct sent *const *) b;

	return x->t < y->t ? -1 : x->t > y->t;
}

wn_status log_put_sent(wn_buf *out, const wn_store *s)
{
	struct put p = { calloc(s->sent.n + 1, sizeof(*p.v)), 0 };
	size_t accepted = 0;
	wn_status st = WN_OK;

	if (!p.v)
		return WN_NOMEM;
	wn_map_each(&s->sent, collect, &p);
	qsort(p.v, p.n, sizeof(*p.v), by_time);
	for (size_t i = 0; i < p.n; i++)
		accepted += p.v[i]->state == WN_SENT_ACCEPTED;
	/* A mail in doubt or in the drafts folder is always kept; a failed
	 * one asks nothing. */
	for (size_t i = 0; i < p.n && st == WN_OK; i++) {
		char *line;

		if (p.v[i]->state == WN_SENT_ACCEPTED && accepted-- > KEEP_ACCEPTED)
			continue;
		if (!(line = sent_line(p.v[i]->msgid, p.v[i]->state, p.v[i]->t, p.v[i]->findings)))
			st = WN_NOMEM;
		else if ((st = wn_buf_puts(out, line)) == WN_OK)
			st = wn_buf_putc(out, '\n');
		free(line);
	}
	free(p.v);
	return st;
}

wn_status log_sent_drafted(const wn_store *s,
			   wn_status (*fn)(void *arg, const char *msgid, long long t, const char *findings),
			   void *arg)
{
	struct put p = { calloc(s->sent.n + 1, sizeof(*p.v)), 0 };
	wn_status st = WN_OK;

	if (!p.v)
		return WN_NOMEM;
	wn_map_each(&s->sent, collect, &p);
	qsort(p.v, p.n, sizeof(*p.v), by_time);
	for (size_t i = 0; i < p.n && st == WN_OK; i++)
		if (p.v[i]->state == WN_SENT_DRAFTED && p.v[i]->findings)
			st = fn(arg, p.v[i]->msgid, p.v[i]->t, p.v[i]->findings);
	free(p.v);
	return st;
}

/* --- changes set aside ---------------------------------------------------- */

void log_keep_rejected(const wn_store *s, const char *eid, const char *fp, const char *why)
{
	uintptr_t i = (uintptr_t) wn_map_get(&s->eids, eid, strlen(eid));
	const struct entry *e = i ? &s->e[i - 1] : NULL;
	char *path = NULL, *text = NULL;
	json_t *o = NULL;
	int fd;

	for (size_t k = 0; e && k < e->nc && !o; k++)
		if (strcmp(e->c[k].fp, fp) == 0)
			o = json_pack("{s:s, s:s, s:s, s:I, s:s, s:o, s:s}", "id", e->msgid, "fp", fp,
				      "eid", eid, "t", (json_int_t) e->t,
				      "v", e->severity ? wn_severity_name(e->c[k].sev) : wn_verdict_name(e->c[k].v),
				      "note", e->c[k].has_note ? json_string(e->c[k].note) : json_null(),
				      "why", why);
	if (!o || !(text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII)) ||
	    asprintf(&path, "%s.rejected", wn_journal_path(s->j)) < 0)
		path = NULL;
	fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600) : -1;
	/* Best effort: the journal keeps the change itself either way. */
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) > 0 && write(fd, "\n", 1) == 1)
			fsync(fd);
		close(fd);
	}
	free(path);
	free(text);
	json_decref(o);
}
