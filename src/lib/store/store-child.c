/* winnow — the writer's child: the process that opens notmuch for
 * writing and writes every decision the journal holds and notmuch does
 * not, telling the parent what it does on a pipe (store-writer.c says
 * why a child, and what each line on the pipe means). */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "../index/props.h"
#include "store-private.h"

static void child_say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void child_say(int fd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
}

/* Keep the coarse tags in step with the per-finding properties. */
static notmuch_status_t sync_tags(notmuch_message_t *msg, const struct review_fps *r, const char *prefix)
{
	unsigned counts[WN_VERDICT_COUNT] = { 0 };
	notmuch_status_t nst = NOTMUCH_STATUS_SUCCESS;

	for (size_t i = 0; i < r->n; i++) {
		char *key = NULL;
		const char *val = NULL;
		wn_verdict v = WN_VERDICT_UNTRIAGED;

		if (asprintf(&key, WN_PROP_VERDICT "%s", r->fps[i]) < 0)
			return NOTMUCH_STATUS_OUT_OF_MEMORY;
		if (notmuch_message_get_property(msg, key, &val) == NOTMUCH_STATUS_SUCCESS && val)
			wn_verdict_from_name(val, &v);
		free(key);
		counts[v]++;
	}
	for (unsigned v = 0; v <= WN_VERDICT_COUNT && nst == NOTMUCH_STATUS_SUCCESS; v++) {
		const char *suffix = v == WN_VERDICT_COUNT ? "triaged" : wn_verdict_tag((wn_verdict) v);
		bool on = v == WN_VERDICT_COUNT ? (r->n > 0 && counts[WN_VERDICT_UNTRIAGED] == 0)
					       : counts[v] > 0;
		char *tag = NULL;

		if (!suffix)
			continue;
		if (asprintf(&tag, "%s%s", prefix, suffix) < 0)
			return NOTMUCH_STATUS_OUT_OF_MEMORY;
		nst = on ? notmuch_message_add_tag(msg, tag) : notmuch_message_remove_tag(msg, tag);
		free(tag);
	}
	return nst;
}

/* What the child records when it is done. */
struct outcome {
	json_t *applied;	/* eids */
	wn_buf rejects;		/* reject lines */
	/* The messages written (their ids are f's), for the queue's first
	 * rows (wn_index_recent_carry); lost: one could not be noted. */
	const char **touched;
	size_t ntouched;
	bool lost;
};

static void touched(struct outcome *o, const char *msgid)
{
	const char **t;

	if (o->ntouched && strcmp(o->touched[o->ntouched - 1], msgid) == 0)
		return;
	if (!(t = realloc(o->touched, (o->ntouched + 1) * sizeof(*t)))) {
		o->lost = true;
		return;
	}
	o->touched = t;
	o->touched[o->ntouched++] = msgid;
}

static void reject(const wn_store *f, struct outcome *o, const char *eid, const char *fp, const char *why)
{
	char *line = NULL;
	json_t *j = json_pack("{s:s, s:s, s:s, s:s}", "op", "reject", "eid", eid, "fp", fp, "why", why);

	if (j && (line = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII))) {
		wn_buf_puts(&o->rejects, line);
		wn_buf_putc(&o->rejects, '\n');
	}
	wn_log_keep_rejected(f, eid, fp, why);
	free(line);
	json_decref(j);
}

/* Write the findings v[lo..hi) (all of one review) into msg. */
static notmuch_status_t write_review(const wn_store *f, notmuch_message_t *msg, struct finding **v,
				     size_t lo, size_t hi, int fd, struct outcome *o)
{
	const struct review_fps *r = wn_log_review(f, v[lo]->msgid);
	notmuch_status_t nst = notmuch_message_freeze(msg);

	for (size_t i = lo; i < hi && nst == NOTMUCH_STATUS_SUCCESS; i++) {
		const struct change *c = wn_log_newest(f, v[i]), *n = wn_log_newest_note(f, v[i]);
		const struct change *sc = wn_log_newest_sev(f, v[i]);
		const struct change *rc = wn_log_newest_reason(f, v[i]);
		const struct change *cc = wn_log_newest_closed(f, v[i]);
		notmuch_status_t w;

		/* One change notmuch refuses must not cost the others. */
		if (c) {
			const char *eid = f->e[v[i]->e].eid;

			child_say(fd, "w %s %s\n", eid, v[i]->fp);
			w = wn_props_set_verdict(msg, v[i]->fp, c->v);
			if (w == NOTMUCH_STATUS_SUCCESS && n)
				w = wn_props_set_note(msg, v[i]->fp, n->note);
			if (w == NOTMUCH_STATUS_SUCCESS && rc)
				w = wn_props_set_one(msg, WN_PROP_REASON, v[i]->fp,
						     wn_reason_name(rc->reason));
			if (w == NOTMUCH_STATUS_SUCCESS && cc)
				w = wn_props_set_one(msg, WN_PROP_CLOSED, v[i]->fp, cc->closed);
			if (w != NOTMUCH_STATUS_SUCCESS)
				reject(f, o, eid, v[i]->fp, notmuch_status_to_string(w));
		}
		if (sc) {
			const char *eid = f->e[v[i]->se].eid;

			child_say(fd, "w %s %s\n", eid, v[i]->fp);
			w = wn_props_set_one(msg, WN_PROP_SEVERITY, v[i]->fp,
					     sc->sev == WN_SEV_NONE ? NULL : wn_severity_name(sc->sev));
			if (w != NOTMUCH_STATUS_SUCCESS)
				reject(f, o, eid, v[i]->fp, notmuch_status_to_string(w));
		}
	}
	if (nst == NOTMUCH_STATUS_SUCCESS && r)
		nst = sync_tags(msg, r, wn_index_conf(f->idx)->tagprefix);
	if (nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_message_thaw(msg);
	return nst;
}

/* Every entry of a review that was written is applied: its changes are
 * in notmuch, or superseded by newer ones that are. */
static void applied_entries(const wn_store *f, const char *msgid, struct outcome *o)
{
	for (size_t i = 0; i < f->n; i++) {
		bool open = false;

		if (f->e[i].forward || strcmp(f->e[i].msgid, msgid) != 0)
			continue;
		for (size_t k = 0; k < f->e[i].nc && !open; k++)
			open = !f->e[i].c[k].applied;
		if (open)
			json_array_append_new(o->applied, json_string(f->e[i].eid));
	}
}

/* The records (forwards, reports) notmuch does not hold yet: properties
 * and the winnow/forwarded tag. */
static notmuch_status_t write_forwards(notmuch_database_t *db, const wn_store *f, int fd,
				       struct outcome *o)
{
	notmuch_status_t nst = NOTMUCH_STATUS_SUCCESS;
	char *tag = NULL;

	if (asprintf(&tag, "%sforwarded", wn_index_conf(f->idx)->tagprefix) < 0)
		return NOTMUCH_STATUS_OUT_OF_MEMORY;
	for (size_t i = 0; i < f->n && f->nforward && nst == NOTMUCH_STATUS_SUCCESS; i++) {
		const struct entry *e = &f->e[i];
		notmuch_message_t *msg = NULL;

		if (!e->forward || !wn_log_forward_pending(e))
			continue;
		if (notmuch_database_find_message(db, e->msgid, &msg) != NOTMUCH_STATUS_SUCCESS || !msg) {
			child_say(fd, "missing %s\n", e->msgid);
			continue;
		}
		touched(o, e->msgid);
		nst = notmuch_message_freeze(msg);
		for (size_t k = 0; k < e->nc && nst == NOTMUCH_STATUS_SUCCESS; k++) {
			child_say(fd, "w %s %s\n", e->eid, e->c[k].fp);
			nst = wn_props_set_one(msg, e->prop, e->c[k].fp, e->forward);
		}
		/* Forwarded reviews are searchable by tag; reports are the
		 * operators' business and need none. */
		if (nst == NOTMUCH_STATUS_SUCCESS && strcmp(e->prop, WN_PROP_FORWARDED) == 0)
			nst = notmuch_message_add_tag(msg, tag);
		if (nst == NOTMUCH_STATUS_SUCCESS)
			nst = notmuch_message_thaw(msg);
		notmuch_message_destroy(msg);
		json_array_append_new(o->applied, json_string(e->eid));
	}
	free(tag);
	return nst;
}

/* Is f's newest change (verdict or severity) the change eid on fp? */
static bool is_change(const wn_store *f, const struct finding *v, const char *eid, const char *fp)
{
	if (strcmp(v->fp, fp) != 0)
		return false;
	return (wn_log_newest(f, v) && strcmp(f->e[v->e].eid, eid) == 0) ||
	       (wn_log_newest_sev(f, v) && strcmp(f->e[v->se].eid, eid) == 0);
}

/* Write every pending decision, or (suspect_eid set) the suspect change
 * alone: then nothing is recorded as applied, the next batch writes the
 * rest and says so. */
static notmuch_status_t write_all(notmuch_database_t *db, const wn_store *f, int fd, struct outcome *o,
				  const char *suspect_eid, const char *suspect_fp)
{
	size_t n = 0, records = 0, work;
	struct finding **v = wn_log_pending_list(f, &n);
	notmuch_status_t nst;

	if (!v)
		return NOTMUCH_STATUS_OUT_OF_MEMORY;
	if (suspect_eid) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (is_change(f, v[i], suspect_eid, suspect_fp))
				v[k++] = v[i];
		n = k;
	} else {
		for (size_t i = 0; i < f->n && f->nforward; i++)
			records += f->e[i].forward && wn_log_forward_pending(&f->e[i]);
	}
	/* The parent gives the write time by its size: every change, and
	 * every finding of the reviews whose tags are brought in step. */
	work = n + records;
	for (size_t i = 0; i < n; i++) {
		const struct review_fps *r;

		if (i > 0 && strcmp(v[i]->msgid, v[i - 1]->msgid) == 0)
			continue;
		if ((r = wn_log_review(f, v[i]->msgid)))
			work += r->n;
	}
	child_say(fd, "batch %zu\n", work);
	nst = notmuch_database_begin_atomic(db);
	for (size_t lo = 0, hi; lo < n && nst == NOTMUCH_STATUS_SUCCESS; lo = hi) {
		notmuch_message_t *msg = NULL;

		for (hi = lo + 1; hi < n && strcmp(v[hi]->msgid, v[lo]->msgid) == 0; hi++)
			;
		if (notmuch_database_find_message(db, v[lo]->msgid, &msg) != NOTMUCH_STATUS_SUCCESS || !msg) {
			/* Not recorded as applied: if the review comes back
			 * to the index, a later run writes its verdict. */
			child_say(fd, "missing %s\n", v[lo]->msgid);
			continue;
		}
		touched(o, v[lo]->msgid);
		nst = write_review(f, msg, v, lo, hi, fd, o);
		notmuch_message_destroy(msg);
		if (!suspect_eid)
			applied_entries(f, v[lo]->msgid, o);
	}
	free(v);
	if (nst == NOTMUCH_STATUS_SUCCESS && !suspect_eid)
		nst = write_forwards(db, f, fd, o);
	child_say(fd, "commit\n");
	if (nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_database_end_atomic(db);
	return nst;
}

/* The child's end: what it allocated is freed first, so that memcheck
 * following the child (valgrind --trace-children) finds no leak. */
static void __attribute__((noreturn)) child_exit(wn_store *f, struct outcome *o, int code)
{
	if (f) {
		wn_log_free(f);
		free(f->warning);
		free(f);
	}
	json_decref(o->applied);
	wn_buf_free(&o->rejects);
	free(o->touched);
	_exit(code);
}

void __attribute__((noreturn)) wn_store_child_write(wn_store *s, int fd)
{
	struct outcome o = { json_array(), WN_BUF_INIT, NULL, 0, false };
	wn_store *f = calloc(1, sizeof(*f));
	notmuch_database_t *db = NULL;
	notmuch_status_t nst;
	wn_buf out = WN_BUF_INIT;
	unsigned long from;
	char *msg = NULL;
	int torn = 0, devnull = open("/dev/null", O_RDWR | O_CLOEXEC);

	/* libnotmuch may print on stderr, and exit() would flush the stdio
	 * buffers inherited from the parent a second time: neither may
	 * reach the parent's terminal or output file. */
	if (devnull >= 0) {
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
	}
	nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
						wn_index_config_arg(s->idx), NULL, &db, &msg);
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		child_say(fd, "error cannot open the notmuch database for writing: %s\n",
			  msg ? msg : notmuch_status_to_string(nst));
		free(msg);
		if (db)
			notmuch_database_destroy(db);
		child_exit(f, &o, 3);
	}
	child_say(fd, "open\n");
#ifdef WN_TEST_HOOKS
	/* For tests of a slow write (the lock held, the time running out):
	 * nothing else can make a writer slow on demand.  Only in builds
	 * configured with --enable-test-hooks. */
	if (getenv("WINNOW_TEST_STALL_WRITER"))
		pause();
#endif
	/* Another winnow may have journaled later decisions and its writer
	 * may have gone first: now that we hold the lock, write what the
	 * journal says last. */
	if (!f || !o.applied) {
		child_say(fd, "error out of memory\n");
		notmuch_database_destroy(db);
		child_exit(f, &o, 4);
	}
	f->idx = s->idx;
	f->j = s->j;
	if (wn_journal_read(s->j, wn_log_line, f, &torn, NULL) != WN_OK || f->oom) {
		child_say(fd, "error cannot read the journal %s\n", wn_journal_path(s->j));
		notmuch_database_destroy(db);
		child_exit(f, &o, 4);
	}
	from = notmuch_database_get_revision(db, NULL);
	nst = write_all(db, f, fd, &o, s->suspect_eid, s->suspect_fp);
	/* Committed, the lock still held: the revision moved by this
	 * write alone, and the queue's first rows kept are carried over
	 * it. */
	if (nst == NOTMUCH_STATUS_SUCCESS && !o.lost)
		wn_index_recent_carry(s->idx, db, from, notmuch_database_get_revision(db, NULL),
				      o.touched, o.ntouched);
	if (nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_database_close(db);
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		/* Not destroyed: nothing of a failed batch may be committed. */
		child_say(fd, "error writing to the notmuch database: %s\n", notmuch_status_to_string(nst));
		child_exit(f, &o, 4);
	}
	notmuch_database_destroy(db);
	/* Without these lines the batch is simply written again next time,
	 * which sets the same values: harmless. */
	if (json_array_size(o.applied)) {
		json_t *j = json_pack("{s:s, s:O}", "op", "applied", "eids", o.applied);
		char *line = j ? json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;

		if (line && wn_buf_puts(&out, line) == WN_OK)
			wn_buf_putc(&out, '\n');
		free(line);
		json_decref(j);
	}
	if (o.rejects.len)
		wn_buf_append(&out, o.rejects.data, o.rejects.len);
	/* Out of memory on the way: a line cut short must never reach the
	 * journal; the batch is written again instead. */
	if (out.len && !wn_buf_failed(&out) && !wn_buf_failed(&o.rejects))
		wn_journal_append(s->j, out.data, out.len, NULL);
	wn_buf_free(&out);
	child_exit(f, &o, 0);
}
