/* winnow — the journal's lines in memory: the entries, and the maps
 * that find the newest decision on a finding in constant time (a line
 * read or written: store-log-line.c; the sendmail records:
 * store-log-sent.c).  See store-private.h for the line formats. */
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

void wn_store_warn(wn_store *s, const char *fmt, ...)
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

struct entry *wn_log_push(wn_store *s)
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

bool wn_log_find(const wn_store *s, const char *msgid, const char *fp, struct finding **out)
{
	/* The key on the stack when it fits (any Message-ID a header line
	 * can hold does): a lookup that cannot fail for memory, since a
	 * lookup that failed would read as "the journal has nothing". */
	char small[1100], *k = small;
	size_t a = strlen(msgid), b = strlen(fp), len = a + b + 1;

	*out = NULL;
	if (len + 1 <= sizeof(small)) {
		memcpy(small, msgid, a + 1);
		memcpy(small + a + 1, fp, b + 1);
	} else if (!(k = finding_key(msgid, fp, &len))) {
		return false;
	}
	*out = wn_map_get(&s->findings, k, len);
	if (k != small)
		free(k);
	return true;
}

wn_status wn_log_index(wn_store *s, size_t i)
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
		if (wn_log_index(s, i) != WN_OK)
			return WN_NOMEM;
	return WN_OK;
}

void wn_log_pop(wn_store *s)
{
	if (s->n)
		entry_clear(&s->e[--s->n]);
}

void wn_log_truncate(wn_store *s, size_t first)
{
	while (s->n > first)
		entry_clear(&s->e[--s->n]);
	if (reindex(s) != WN_OK)
		s->oom = true;
}

void wn_log_reset(void *store)
{
	wn_store *s = store;

	s->lineno = 0;
	s->cut = 0;
	/* Replaced by a compaction: what is read again may call applied
	 * what this store had as pending. */
	s->index_behind = true;
	wn_log_truncate(s, 0);
	wn_map_free(&s->reviews, review_free);
	wn_store_log_sent_free(s);
}

void wn_log_free(wn_store *s)
{
	wn_log_reset(s);
	free(s->e);
	s->e = NULL;
	s->cap = 0;
}

const struct change *wn_log_newest(const wn_store *s, const struct finding *f)
{
	return f->has_v ? &s->e[f->e].c[f->c] : NULL;
}

const struct change *wn_log_newest_sev(const wn_store *s, const struct finding *f)
{
	return f->has_sev ? &s->e[f->se].c[f->sc] : NULL;
}

const struct change *wn_log_newest_note(const wn_store *s, const struct finding *f)
{
	return f->has_note ? &s->e[f->ne].c[f->nc] : NULL;
}

const struct change *wn_log_newest_reason(const wn_store *s, const struct finding *f)
{
	return f->has_reason ? &s->e[f->re].c[f->rc] : NULL;
}

const struct change *wn_log_newest_closed(const wn_store *s, const struct finding *f)
{
	return f->has_closed ? &s->e[f->ce].c[f->cc] : NULL;
}

static bool change_pending(const struct change *c)
{
	return c && !c->applied && !c->rejected;
}

/* Does notmuch still lack the newest decision on f? */
static bool log_pending(const wn_store *s, const struct finding *f)
{
	return change_pending(wn_log_newest(s, f)) || change_pending(wn_log_newest_sev(s, f));
}

bool wn_log_forward_pending(const struct entry *e)
{
	for (size_t k = 0; k < e->nc; k++)
		if (!e->c[k].applied)
			return true;
	return false;
}

bool wn_log_entry_pending(const wn_store *s, size_t i)
{
	const struct entry *e = &s->e[i];

	if (e->forward)
		return wn_log_forward_pending(e);
	for (size_t k = 0; k < e->nc; k++) {
		struct finding *f;
		const struct change *newest;

		/* Out of memory: taken as pending, so the writer still tries. */
		if (!wn_log_find(s, e->msgid, e->c[k].fp, &f))
			return change_pending(&e->c[k]);
		newest = !f ? NULL : e->severity ? wn_log_newest_sev(s, f) : wn_log_newest(s, f);
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

size_t wn_log_pending_count(const wn_store *s)
{
	struct collect c = { s, NULL, 0 };

	wn_map_each(&s->findings, count_pending, &c);
	for (size_t i = 0; s->nforward && i < s->n; i++)
		c.n += s->e[i].forward && wn_log_forward_pending(&s->e[i]);
	return c.n;
}

static int by_review(const void *a, const void *b)
{
	const struct finding *x = *(struct finding *const *) a, *y = *(struct finding *const *) b;
	int r = strcmp(x->msgid, y->msgid);

	return r ? r : strcmp(x->fp, y->fp);
}

struct finding **wn_log_pending_list(const wn_store *s, size_t *n)
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

wn_status wn_log_set_review(wn_store *s, const char *msgid, const char *const *fps, size_t n)
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

const struct review_fps *wn_log_review(const wn_store *s, const char *msgid)
{
	return wn_map_get(&s->reviews, msgid, strlen(msgid));
}

/* --- changes set aside ---------------------------------------------------- */

void wn_log_keep_rejected(const wn_store *s, const char *eid, const char *fp, const char *why)
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
