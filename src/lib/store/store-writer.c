/* winnow — writing journaled verdicts into notmuch.
 *
 * The write runs in a child process: libnotmuch blocks in open-for-write
 * while another process holds the lock, and neither the TUI nor a CLI
 * with --timeout may wait on that longer than it chose.  Killing a child
 * that waits for the lock or dies mid-batch loses nothing: Xapian commits
 * a batch whole or not at all, and the journal still holds every entry
 * it did not confirm.
 *
 * Once it holds the lock the child reads the journal afresh and writes,
 * for every finding notmuch does not hold yet, the newest decision any
 * winnow journaled: one atomic section, one freeze/thaw per review.  It
 * tells the parent what it does on a pipe:
 *   open                 the database is open for writing
 *   batch N              the size of its work (the parent's time limit)
 *   w EID FP             about to write this finding
 *   missing MSGID        that review left the index
 *   commit               all written, committing
 *   error TEXT           it gave up (exit status 3 or 4)
 * libnotmuch exit()s on some errors (a term longer than Xapian allows):
 * a writer that dies by its own hand after "w" and before "commit" names
 * the change that may have killed it.  That change is written alone by
 * the next writer, and set aside (so that it never blocks the others)
 * only if that one dies on it too.  A writer killed from outside blames
 * no change: its batch is simply written again. */
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

/* How many of the newest changes compaction keeps for undo.  The journal
 * is compacted once it holds twice as many, so it never grows without
 * bound.  WINNOW_JOURNAL_KEEP overrides (tests use it). */
#define KEEP_CHANGES 1000

static size_t keep_changes(void)
{
	const char *v = getenv("WINNOW_JOURNAL_KEEP");
	long n = v ? strtol(v, NULL, 10) : 0;

	return n > 0 ? (size_t) n : KEEP_CHANGES;
}

static void store_maybe_compact(wn_store *s);

/* --- the child ----------------------------------------------------------- */

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
};

static void reject(const wn_store *f, struct outcome *o, const char *eid, const char *fp, const char *why)
{
	char *line = NULL;
	json_t *j = json_pack("{s:s, s:s, s:s, s:s}", "op", "reject", "eid", eid, "fp", fp, "why", why);

	if (j && (line = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII))) {
		wn_buf_puts(&o->rejects, line);
		wn_buf_putc(&o->rejects, '\n');
	}
	log_keep_rejected(f, eid, fp, why);
	free(line);
	json_decref(j);
}

/* Write the findings v[lo..hi) (all of one review) into msg. */
static notmuch_status_t write_review(const wn_store *f, notmuch_message_t *msg, struct finding **v,
				     size_t lo, size_t hi, int fd, struct outcome *o)
{
	const struct review_fps *r = log_review(f, v[lo]->msgid);
	notmuch_status_t nst = notmuch_message_freeze(msg);

	for (size_t i = lo; i < hi && nst == NOTMUCH_STATUS_SUCCESS; i++) {
		const struct change *c = log_newest(f, v[i]), *n = log_newest_note(f, v[i]);
		const struct change *sc = log_newest_sev(f, v[i]);
		const struct change *rc = log_newest_reason(f, v[i]);
		const struct change *cc = log_newest_closed(f, v[i]);
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

		if (!e->forward || !log_forward_pending(e))
			continue;
		if (notmuch_database_find_message(db, e->msgid, &msg) != NOTMUCH_STATUS_SUCCESS || !msg) {
			child_say(fd, "missing %s\n", e->msgid);
			continue;
		}
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
	return (log_newest(f, v) && strcmp(f->e[v->e].eid, eid) == 0) ||
	       (log_newest_sev(f, v) && strcmp(f->e[v->se].eid, eid) == 0);
}

/* Write every pending decision, or (suspect_eid set) the suspect change
 * alone: then nothing is recorded as applied, the next batch writes the
 * rest and says so. */
static notmuch_status_t write_all(notmuch_database_t *db, const wn_store *f, int fd, struct outcome *o,
				  const char *suspect_eid, const char *suspect_fp)
{
	size_t n = 0, records = 0, work;
	struct finding **v = log_pending_list(f, &n);
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
			records += f->e[i].forward && log_forward_pending(&f->e[i]);
	}
	/* The parent gives the write time by its size: every change, and
	 * every finding of the reviews whose tags are brought in step. */
	work = n + records;
	for (size_t i = 0; i < n; i++) {
		const struct review_fps *r;

		if (i > 0 && strcmp(v[i]->msgid, v[i - 1]->msgid) == 0)
			continue;
		if ((r = log_review(f, v[i]->msgid)))
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
		log_free(f);
		free(f->warning);
		free(f);
	}
	json_decref(o->applied);
	wn_buf_free(&o->rejects);
	_exit(code);
}

static void __attribute__((noreturn)) child_write(wn_store *s, int fd)
{
	struct outcome o = { json_array(), WN_BUF_INIT };
	wn_store *f = calloc(1, sizeof(*f));
	notmuch_database_t *db = NULL;
	notmuch_status_t nst;
	wn_buf out = WN_BUF_INIT;
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
	if (wn_journal_read(s->j, log_line, f, &torn, NULL) != WN_OK || f->oom) {
		child_say(fd, "error cannot read the journal %s\n", wn_journal_path(s->j));
		notmuch_database_destroy(db);
		child_exit(f, &o, 4);
	}
	nst = write_all(db, f, fd, &o, s->suspect_eid, s->suspect_fp);
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

/* --- the parent ------------------------------------------------------------ */

static void said_clear(struct said *w)
{
	free(w->w_eid);
	free(w->w_fp);
	free(w->error);
	memset(w, 0, sizeof(*w));
}

/* Name the change the next writer writes alone (NULL: none); false when
 * out of memory, and then none. */
static bool suspect_set(wn_store *s, const char *eid, const char *fp)
{
	char *e = eid ? strdup(eid) : NULL, *f = fp ? strdup(fp) : NULL;

	free(s->suspect_eid);
	free(s->suspect_fp);
	s->suspect_eid = s->suspect_fp = NULL;
	if (eid && (!e || !f)) {
		free(e);
		free(f);
		return false;
	}
	s->suspect_eid = e;
	s->suspect_fp = f;
	return true;
}

wn_status wn_store_flush_start(wn_store *s, wn_error *err)
{
	int fds[2];
	pid_t pid, parent;
	wn_status st;

	if (s->child > 0)
		return WN_OK;
	if ((st = store_catch_up(s, err)) != WN_OK)
		return st;
	if (!log_pending_count(s))
		return WN_OK;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return wn_error_set(err, WN_IO, "cannot create a pipe: %s", strerror(errno));
	/* Whatever the caller buffered is its own to print, once. */
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return wn_error_set(err, WN_IO, "cannot start the writer: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
#ifdef __linux__
		/* A writer outliving a killed winnow would write its batch
		 * whenever the lock frees, perhaps after newer decisions made
		 * by the next run: die with the parent; the journal keeps
		 * the batch for the next start. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(5);
		/* So that ps, top and a user about to kill something can
		 * tell the writer from winnow itself. */
		prctl(PR_SET_NAME, "winnow-writer");
#endif
		child_write(s, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	s->child = pid;
	s->child_fd = fds[0];
	wn_buf_reset(&s->child_out);
	said_clear(&s->said);
	return WN_OK;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Take one line of the writer's. */
static void said_line(wn_store *s, char *line)
{
	struct said *w = &s->said;
	char *sp;

	if (strcmp(line, "open") == 0) {
		w->open = true;
		w->open_ms = now_ms();
	} else if (strcmp(line, "commit") == 0) {
		w->commit = true;
	} else if (strncmp(line, "batch ", 6) == 0) {
		w->batch = strtoul(line + 6, NULL, 10);
	} else if (strncmp(line, "w ", 2) == 0 && (sp = strchr(line + 2, ' '))) {
		free(w->w_eid);
		free(w->w_fp);
		w->w_eid = strndup(line + 2, (size_t) (sp - line - 2));
		w->w_fp = strdup(sp + 1);
	} else if (strncmp(line, "missing ", 8) == 0) {
		store_warn(s, "review <%s> is no longer in the index; its verdict stays in %s",
			   line + 8, wn_journal_path(s->j));
	} else if (strncmp(line, "error ", 6) == 0) {
		free(w->error);
		w->error = strdup(line + 6);
	}
}

/* Take what the writer has said so far (the pipe is non-blocking), so it
 * never blocks on a full pipe while we wait for it to exit.  Each whole
 * line is read as it comes: a batch of 10,000 "w" lines must not push
 * its "open" out of a buffer. */
static void child_drain(wn_store *s)
{
	char chunk[8192];
	ssize_t r;

	while ((r = read(s->child_fd, chunk, sizeof(chunk))) > 0 || (r < 0 && errno == EINTR)) {
		char *start, *nl;
		size_t used;

		if (r <= 0 || wn_buf_append(&s->child_out, chunk, (size_t) r) != WN_OK)
			continue;
		start = s->child_out.data;
		while ((nl = memchr(start, '\n', s->child_out.len - (size_t) (start - s->child_out.data)))) {
			*nl = 0;
			said_line(s, start);
			start = nl + 1;
		}
		used = (size_t) (start - s->child_out.data);
		memmove(s->child_out.data, start, s->child_out.len - used);
		s->child_out.len -= used;
		s->child_out.data[s->child_out.len] = 0;
	}
}

void store_writer_stop(wn_store *s)
{
	if (s->child > 0) {
		/* Pending entries stay in the journal for the next start. */
		kill(s->child, SIGKILL);
		waitpid(s->child, NULL, 0);
		s->child = -1;
	}
	if (s->child_fd >= 0)
		close(s->child_fd);
	s->child_fd = -1;
	wn_buf_free(&s->child_out);
	said_clear(&s->said);
	suspect_set(s, NULL, NULL);
}

/* Set the change the dead writer was writing aside: a reject line in
 * the journal, and the user's decision copied where they can find it. */
static wn_status set_aside(wn_store *s, const char *eid, const char *fp, const char *why, wn_error *err)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "op", "reject", "eid", eid, "fp", fp, "why", why);
	char *line = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_NOMEM;

	json_decref(o);
	if (line && wn_buf_puts(&b, line) == WN_OK && wn_buf_putc(&b, '\n') == WN_OK)
		st = wn_journal_append(s->j, b.data, b.len, err);
	else
		wn_error_set(err, WN_NOMEM, "out of memory");
	if (st == WN_OK) {
		s->rejected++;
		log_keep_rejected(s, eid, fp, why);
		s->announce_rejects = true;
		st = store_catch_up(s, err);
		s->announce_rejects = false;
	}
	free(line);
	wn_buf_free(&b);
	return st;
}

static void status_text(int status, char *buf, size_t n)
{
	if (WIFSIGNALED(status))
		snprintf(buf, n, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, n, "exit status %d", WEXITSTATUS(status));
}

/* Was the writer killed by someone else (kill -9, the OOM killer, a
 * signal to the whole process group)?  Then no change of its batch is to
 * blame.  A change kills the writer itself: libnotmuch exit()s, aborts
 * or crashes on it. */
static bool killed_from_outside(int status)
{
	if (!WIFSIGNALED(status))
		return false;
	switch (WTERMSIG(status)) {
	case SIGKILL: case SIGTERM: case SIGINT: case SIGHUP: case SIGQUIT:
		return true;
	default:
		return false;
	}
}

/* The writer died without saying why.  Its batch is still journaled and
 * is written again.  Only a change the writer died on by its own hand,
 * then died on again when it was written alone, is set aside. */
static wn_status child_died(wn_store *s, int status, wn_error *err)
{
	const struct said *w = &s->said;
	char how[64], *why = NULL;
	wn_status st = WN_OK;

	s->deaths++;
	s->death_status = status;
	if (!w->w_eid || w->commit || killed_from_outside(status))
		return WN_OK;
	if (!s->suspect_eid || strcmp(s->suspect_eid, w->w_eid) != 0 || strcmp(s->suspect_fp, w->w_fp) != 0)
		return suspect_set(s, w->w_eid, w->w_fp) ? WN_OK
			: wn_error_set(err, WN_NOMEM, "out of memory");
	status_text(status, how, sizeof(how));
	if (asprintf(&why, "the notmuch writer died writing it alone, %s", how) < 0)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	st = set_aside(s, w->w_eid, w->w_fp, why, err);
	if (st == WN_OK)
		suspect_set(s, NULL, NULL);
	free(why);
	return st;
}

/* The writer has ended: take its outcome. */
static wn_status child_done(wn_store *s, int status, wn_error *err)
{
	wn_status st = WN_OK;

	child_drain(s);
	close(s->child_fd);
	s->child_fd = -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		/* The child journaled what it applied and set aside.  A
		 * suspect written alone was no poison after all. */
		suspect_set(s, NULL, NULL);
		s->announce_rejects = true;
		st = store_catch_up(s, err);
		s->announce_rejects = false;
		if (st == WN_OK && log_pending_count(s) == 0)
			store_maybe_compact(s);
		if (st == WN_OK)
			st = wn_index_refresh(s->idx, err);
	} else if (s->said.error) {
		st = wn_error_set(err, WN_DB, "%s", s->said.error);
	} else {
		st = child_died(s, status, err);
	}
	wn_buf_free(&s->child_out);
	return st;
}

wn_status wn_store_poll(wn_store *s, bool *busy, wn_error *err)
{
	int status = 0;
	pid_t r;

	*busy = false;
	if (s->child <= 0)
		return WN_OK;
	do
		r = waitpid(s->child, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0) {
		child_drain(s);
		*busy = true;
		return WN_OK;
	}
	s->child = -1;
	if (r < 0) {
		store_writer_stop(s);
		return wn_error_set(err, WN_IO, "lost the notmuch writer: %s", strerror(errno));
	}
	return child_done(s, status, err);
}

/* How long a writer holding the lock may take: its work's size, at a
 * pace far slower than any disk (a sanitizer or valgrind build, a busy
 * machine), and never less than the caller's timeout.  The timeout is
 * for waiting on other processes' locks, not on our own write. */
#define WRITE_MS_PER_CHANGE 10

static size_t changes_of(const wn_store *s);

/* The writer reads the whole journal once it has the lock, then writes
 * its batch (which it sizes in "batch N"; until it says, what is pending
 * here). */
static long long write_deadline(const wn_store *s, int timeout_ms, size_t pending)
{
	size_t n = (s->said.batch > pending ? s->said.batch : pending) + changes_of(s);

	return s->said.open_ms + timeout_ms + (long long) n * WRITE_MS_PER_CHANGE;
}

/* Time ran out: stop the writer and say what it was doing. */
static wn_status timed_out(wn_store *s, int timeout_ms, wn_error *err)
{
	bool open;
	long long took;
	size_t n;

	child_drain(s);
	open = s->said.open;
	took = open ? now_ms() - s->said.open_ms : 0;
	store_writer_stop(s);
	n = log_pending_count(s);
	if (!open && s->deaths) {
		char how[64];

		status_text(s->death_status, how, sizeof(how));
		wn_error_set(err, WN_LOCKED, "the notmuch writer died %u time%s (last %s), and the "
			     "next had no lock after %.1f s; %zu verdict%s kept in %s", s->deaths,
			     s->deaths == 1 ? "" : "s", how, timeout_ms / 1000.0, n, n == 1 ? "" : "s",
			     wn_journal_path(s->j));
	} else if (!open) {
		wn_error_set(err, WN_LOCKED, "the notmuch database stayed locked by another process "
			     "for %.1f s (notmuch new, a tagging script?); %zu verdict%s kept in %s",
			     timeout_ms / 1000.0, n, n == 1 ? "" : "s", wn_journal_path(s->j));
	} else {
		wn_error_set(err, WN_LOCKED, "writing %zu verdict%s to notmuch took longer than %.1f s, "
			     "far longer than that needs: winnow stopped its own writer; they are "
			     "kept in %s", n, n == 1 ? "" : "s", took / 1000.0, wn_journal_path(s->j));
	}
	return WN_LOCKED;
}

/* Writers kept dying until the time ran out. */
static wn_status died_out(wn_store *s, wn_error *err)
{
	char how[64];
	size_t n = log_pending_count(s);

	status_text(s->death_status, how, sizeof(how));
	return wn_error_set(err, WN_DB, "the notmuch writer died %u time%s (last %s); %zu verdict%s "
			    "kept in %s", s->deaths, s->deaths == 1 ? "" : "s", how, n,
			    n == 1 ? "" : "s", wn_journal_path(s->j));
}

/* Does a process other than this one hold the notmuch write lock?
 * Xapian locks the file flintlock in its database directory (fcntl, OFD
 * or classic: F_GETLK sees either); notmuch keeps that directory in
 * .notmuch/xapian under the mail root, or in xapian/ under a separate
 * database path.  When no lock file is found we cannot tell, and say
 * yes: the caller then waits no longer than it always did. */
static bool lock_held_elsewhere(const wn_store *s)
{
	static const char *const where[] = { "/.notmuch/xapian/flintlock", "/xapian/flintlock" };
	const char *db = s->idx ? wn_index_db_path(s->idx) : NULL;

	for (size_t i = 0; db && i < sizeof(where) / sizeof(where[0]); i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		char *path = NULL;
		int fd, r;

		if (asprintf(&path, "%s%s", db, where[i]) < 0)
			return true;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		free(path);
		if (fd < 0)
			continue;
		r = fcntl(fd, F_GETLK, &fl);
		/* Closing drops this process's own fcntl locks on the file:
		 * it holds none (the writer is a child process). */
		close(fd);
		return r < 0 || fl.l_type != F_UNLCK;
	}
	return true;
}

/* The waiting of wn_store_flush and wn_store_replay.  lock_only: only
 * time during which another process holds the lock counts against
 * timeout_ms, and a writer holding the lock is never stopped; time our
 * own writer spends opening the database or writing on a busy machine
 * does not count.  Otherwise timeout_ms bounds the wait for the lock
 * and a writer holding it gets the time its batch needs
 * (write_deadline). */
static wn_status flush_wait(wn_store *s, int timeout_ms, bool lock_only, wn_error *err)
{
	long long start = now_ms(), last = start, locked = 0;
	/* Writers that keep dying are restarted until this, in either mode:
	 * nothing else bounds a replay whose writers are killed. */
	long long deadline = start + (timeout_ms > 0 ? timeout_ms : 0);
	unsigned clean = 0;
	bool busy = false;
	wn_status st;

	/* Timeout 0: never wait and never kill.  The writer goes on in the
	 * background (it may be queued behind another process's lock) and a
	 * later call, or wn_store_poll(), collects it. */
	if (timeout_ms <= 0) {
		if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
			return st;
		if (!busy && (st = wn_store_flush_start(s, err)) != WN_OK)
			return st;
		if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
			return st;
		if (!log_pending_count(s))
			return WN_OK;
		return wn_error_set(err, WN_LOCKED, "%zu verdict%s waiting for the index lock",
				    log_pending_count(s), log_pending_count(s) == 1 ? "" : "s");
	}
	s->deaths = 0;
	/* A write started earlier may hold entries made since: finish it,
	 * then start one for whatever is still pending.  A writer that dies
	 * (killed from outside, or on a change it is then given alone) is
	 * started again while the time lasts. */
	for (;;) {
		unsigned deaths = s->deaths;
		bool alone = s->suspect_eid != NULL, ran = s->child > 0;
		size_t pending;

		if ((st = wn_store_flush_start(s, err)) != WN_OK)
			return st;
		ran = ran || s->child > 0;
		/* What the writer is to write, until it says (journal caught up). */
		pending = log_pending_count(s);
		for (;;) {
			long long now;
			bool out;

			if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
				return st;
			if (!busy)
				break;
			now = now_ms();
			if (!lock_only)
				locked = now - start;
			else if (!s->said.open && lock_held_elsewhere(s))
				locked += now - last;
			last = now;
			if (s->said.open)
				out = !lock_only && now >= write_deadline(s, timeout_ms, pending) &&
				      locked >= timeout_ms;
			else
				out = locked >= timeout_ms;
			if (out)
				return timed_out(s, timeout_ms, err);
			usleep(2000);
		}
		if (log_pending_count(s) == 0 || !ran)
			return WN_OK;
		if (s->deaths == deaths && !alone && ++clean >= 2)
			return WN_OK;
		if (s->deaths != deaths && now_ms() >= deadline)
			return died_out(s, err);
	}
}

wn_status wn_store_flush(wn_store *s, int timeout_ms, wn_error *err)
{
	return flush_wait(s, timeout_ms, false, err);
}

wn_status wn_store_replay(wn_store *s, int lock_ms, wn_error *err)
{
	return flush_wait(s, lock_ms, true, err);
}

/* --- compaction ----------------------------------------------------------- */

struct compaction {
	wn_store *scratch;	/* what the journal holds now */
	bool all;		/* keep every entry: only lines cut short go */
};

/* Build the compacted journal from what it holds now, not from what this
 * process remembers: another winnow may have appended entries since we
 * read it, and those must survive.  Keeps every entry from the oldest
 * pending one on, and at least the newest changes for undo. */
static wn_status compact_build(const char *data, size_t len, wn_buf *out, void *arg)
{
	struct compaction *c = arg;
	wn_store *f = c->scratch;
	size_t keep = keep_changes(), kept = 0, from;
	wn_map seen = WN_MAP_INIT;
	wn_status st = WN_OK;

	if (wn_journal_lines(data, len, log_line, f, NULL) != WN_OK || f->oom)
		return WN_NOMEM;
	from = c->all ? 0 : f->n;
	while (from > 0 && kept < keep)
		kept += f->e[--from].nc;
	for (size_t i = 0; i < from; i++)
		if (log_entry_pending(f, i)) {
			from = i;
			break;
		}
	/* Never split one action: undo reverts it whole. */
	while (from > 0 && from < f->n && strcmp(f->e[from - 1].group, f->e[from].group) == 0)
		from--;
	/* The findings of every review still named, then the entries. */
	for (size_t i = from; i < f->n && st == WN_OK; i++) {
		const char *id = f->e[i].msgid;
		if (wn_map_get(&seen, id, strlen(id)))
			continue;
		st = wn_map_put(&seen, id, strlen(id), (void *) 1);
		if (st == WN_OK)
			st = log_put_review(out, f, id);
	}
	for (size_t i = from; i < f->n && st == WN_OK; i++)
		st = log_put_entry(out, f, i, true);
	/* A mail whose sending may have been cut short stays in doubt. */
	if (st == WN_OK)
		st = log_put_sent(out, f);
	wn_map_free(&seen, NULL);
	return st;
}

static size_t changes_of(const wn_store *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->e[i].nc;
	return n;
}

/* Write the journal again from what it holds now; all keeps every
 * entry. */
static wn_status compact(wn_store *s, bool all, wn_error *err)
{
	wn_store scratch = { .idx = s->idx, .j = s->j, .child = -1, .child_fd = -1 };
	struct compaction c = { &scratch, all };
	int torn = 0;
	wn_status st = wn_journal_compact(s->j, compact_build, &c, err);

	if (st == WN_OK) {
		/* Our memory is the journal as written back. */
		log_reset(s);
		st = wn_journal_read(s->j, log_line, s, &torn, err);
	}
	log_free(&scratch);
	free(scratch.warning);
	return st;
}

static void store_maybe_compact(wn_store *s)
{
	size_t keep = keep_changes();
	wn_error err = WN_ERROR_INIT;

	/* Applied records are lines too: count the file, not just marks. */

	if (changes_of(s) <= 2 * keep && wn_journal_size(s->j) < 2 * keep * 512)
		return;
	if (compact(s, false, &err) != WN_OK)
		store_warn(s, "%s", wn_error_msg(&err));
	wn_error_clear(&err);
}

wn_status store_repair(wn_store *s, wn_error *err)
{
	return compact(s, true, err);
}
