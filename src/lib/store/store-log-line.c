/* winnow — the journal's lines as text: each JSON line read into an
 * entry of the store's memory (store-log.c), and an entry written back
 * as its line.  See store-private.h for the line formats. */
#include "autoconfig.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-private.h"
#include "winnow/text.h"

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
	st = wn_log_set_review(s, msgid, v, n);
	free(v);
	if (st == WN_OK)
		((struct review_fps *) wn_log_review(s, msgid))->journaled = true;
	return st;
}

void wn_log_mark_undone(wn_store *s, const char *group)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->e[i].group, group) == 0)
			s->e[i].undone = true;
}

void wn_log_mark_redone(wn_store *s, const char *group)
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
	if (!(e = wn_log_push(s)))
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
		st = wn_log_index(s, first);
	if (st != WN_OK) {
		wn_log_truncate(s, first);
		return st;
	}
	if (e->undo_of)
		wn_log_mark_undone(s, e->undo_of);
	if (e->redo_of)
		wn_log_mark_redone(s, e->redo_of);
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
	if (!(e = wn_log_push(s)))
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
		st = wn_log_index(s, first);
	if (st != WN_OK)
		wn_log_truncate(s, first);
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

		for (size_t k = 0; e && k < e->nc; k++) {
			s->index_behind |= !e->c[k].applied;
			e->c[k].applied = true;
		}
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
			wn_store_warn(
				s,
				"the verdict on finding %s of review <%s> could not be written to notmuch "
				"(%s); it is set aside in %s.rejected",
				fp, e->msgid, why, wn_journal_path(s->j));
	}
	return WN_OK;
}

wn_status wn_log_line(const char *line, size_t len, void *store)
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
		st = wn_store_log_read_sendmail(s, o);
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
		wn_store_warn(s, "journal %s: line %zu is not a winnow entry; ignored",
			      wn_journal_path(s->j), s->lineno);
	}
	return WN_OK;
}

void wn_store_index_refresh(wn_store *s)
{
	s->index_behind = false;
	wn_index_refresh(s->idx, NULL);
}

/* Every file of the module reads newer lines this way, so it sits with
 * the reader rather than above it. */
wn_status wn_store_catch_up(wn_store *s, wn_error *err)
{
	wn_status st = wn_journal_update(s->j, wn_log_reset, wn_log_line, s, err);

	if (st == WN_OK && s->oom) {
		s->oom = false;
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	}
	/* The writer closes the database before it journals "applied": the
	 * index reopened now holds what those lines name.  Without this, a
	 * reader whose index predates another writer's commit would drop
	 * the journal's decision and show the index's older one. */
	if (st == WN_OK && s->index_behind)
		wn_store_index_refresh(s);
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
	if (o && full && !wn_log_forward_pending(e))
		json_object_set_new(o, "applied", json_true());
	return put_json(b, o);
}

wn_status wn_log_put_entry(wn_buf *b, const wn_store *s, size_t i, bool full)
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
	if (o && full && !wn_log_entry_pending(s, i))
		json_object_set_new(o, "applied", json_true());
	if (o && full && e->undone)
		json_object_set_new(o, "undone", json_true());
	return put_json(b, o);
}

wn_status wn_log_put_review(wn_buf *b, const wn_store *s, const char *msgid)
{
	const struct review_fps *r = wn_log_review(s, msgid);
	json_t *fps = json_array();

	if (!r) {
		json_decref(fps);
		return WN_OK;
	}
	for (size_t i = 0; fps && i < r->n; i++)
		json_array_append_new(fps, json_string(r->fps[i]));
	return put_json(b, json_pack("{s:s, s:s, s:o}", "op", "review", "id", msgid, "fps", fps));
}
