/* winnow — sending: the mail to winnow.sendmail, then, only once it
 * took the mail, the record of what was forwarded, the sent copy and
 * the end of the draft.
 *
 * The sent copy (winnow.sent_folder) is written into the maildir by us
 * (tmp/, fsync, rename into cur/) and then indexed by a short-lived
 * child with a read-write notmuch handle, as the store's writer does.
 * Not `notmuch insert`: that needs the notmuch program on PATH and the
 * right config passed along, and it deletes the file when indexing
 * fails.  This way the copy is on disk before anything can block; if
 * another process holds the write lock longer than we wait, the child
 * is stopped and the copy is simply indexed by the next `notmuch new`. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "forward-private.h"
#include "../index/index-nm.h"
#include "winnow/text.h"

/* How long the sent copy's indexing may wait for the write lock. */
#define INDEX_WAIT_MS 5000

/* --- the sent copy --------------------------------------------------------- */

/* The folder under the database: relative, without "..". */
static bool folder_ok(const char *f)
{
	const char *p = f;

	if (!*f || *f == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if ((n == 2 && p[0] == '.' && p[1] == '.') || (n == 1 && p[0] == '.'))
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

static wn_status mkdir_one(const char *path, wn_error *err)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return wn_error_set(err, WN_IO, "cannot create %s: %s", path, strerror(errno));
	return WN_OK;
}

/* DIR, DIR/tmp, DIR/new, DIR/cur (the parents of DIR must exist or
 * are made too). */
static wn_status make_maildir(const char *dir, wn_error *err)
{
	static const char *const subs[] = { "tmp", "new", "cur" };
	char *path = strdup(dir);
	wn_status st = path ? WN_OK : WN_NOMEM;

	for (char *p = path ? strchr(path + 1, '/') : NULL; st == WN_OK && p; p = strchr(p + 1, '/')) {
		*p = '\0';
		st = mkdir_one(path, err);
		*p = '/';
	}
	if (st == WN_OK)
		st = mkdir_one(dir, err);
	free(path);
	for (size_t i = 0; st == WN_OK && i < 3; i++) {
		char *sub = NULL;

		if (asprintf(&sub, "%s/%s", dir, subs[i]) < 0)
			return WN_NOMEM;
		st = mkdir_one(sub, err);
		free(sub);
	}
	return st;
}

static wn_status write_all(int fd, const char *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return WN_IO;
		off += (size_t) w;
	}
	return fsync(fd) < 0 ? WN_IO : WN_OK;
}

/* Write mail into dir/tmp/ (fsync'd) under a new maildir name: *tmp is
 * that file, *path where it goes in cur/ with the maildir flags info
 * ("S": seen; "DS": a draft).  Nothing is left behind on failure. */
static wn_status write_tmp(const char *dir, const char *mail, size_t len, const char *info, char **tmp,
			   char **path, wn_error *err)
{
	static unsigned counter;
	char host[64] = "localhost", *name = NULL;
	struct timespec ts;
	wn_status st;
	int fd;

	*tmp = *path = NULL;
	clock_gettime(CLOCK_REALTIME, &ts);
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, "/:")] = '\0';
	if (asprintf(&name, "%lld.M%ldP%dQ%u.%s", (long long) ts.tv_sec, ts.tv_nsec / 1000, (int) getpid(),
		     ++counter, host) < 0 || asprintf(tmp, "%s/tmp/%s", dir, name) < 0 ||
	    asprintf(path, "%s/cur/%s:2,%s", dir, name, info) < 0) {
		free(name);
		free(*tmp);
		*tmp = NULL;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	free(name);
	fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	st = fd < 0 ? WN_IO : write_all(fd, mail, len);
	if (fd >= 0 && close(fd) < 0)
		st = WN_IO;
	if (st != WN_OK) {
		wn_error_set(err, st, "cannot write into %s: %s", dir, strerror(errno));
		unlink(*tmp);
		free(*tmp);
		free(*path);
		*tmp = *path = NULL;
	}
	return st;
}

/* Deliver mail into dir as a seen message (maildir: tmp, then cur).
 * *path is the file in cur/. */
static wn_status deliver(const char *dir, const char *mail, size_t len, char **path, wn_error *err)
{
	char *tmp = NULL;
	wn_status st = write_tmp(dir, mail, len, "S", &tmp, path, err);

	if (st == WN_OK && rename(tmp, *path) < 0) {
		st = wn_error_set(err, WN_IO, "cannot store the sent copy in %s: %s", dir, strerror(errno));
		unlink(tmp);
		free(*path);
		*path = NULL;
	}
	free(tmp);
	return st;
}

/* The child: index path, then exit 0 (or 1).  flags: tag it from its
 * maildir flags (a draft gets notmuch's "draft" tag, as notmuch new
 * gives it with maildir.synchronize_flags). */
static void __attribute__((noreturn)) index_child(const wn_index *idx, const char *path, bool flags)
{
	notmuch_database_t *db = NULL;
	notmuch_message_t *m = NULL;
	notmuch_status_t nst;
	char *msg = NULL;
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	/* libnotmuch may print on stderr: never onto the TUI's screen. */
	if (devnull >= 0)
		dup2(devnull, STDERR_FILENO);
	nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE, wn_index_config_arg(idx),
						NULL, &db, &msg);
	if (nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_database_index_file(db, path, NULL, &m);
	if (nst == NOTMUCH_STATUS_DUPLICATE_MESSAGE_ID)
		nst = NOTMUCH_STATUS_SUCCESS;
	if (nst == NOTMUCH_STATUS_SUCCESS && m && flags)
		nst = notmuch_message_maildir_flags_to_tags(m);
	if (m)
		notmuch_message_destroy(m);
	if (db && notmuch_database_close(db) != NOTMUCH_STATUS_SUCCESS)
		nst = NOTMUCH_STATUS_XAPIAN_EXCEPTION;
	_exit(nst == NOTMUCH_STATUS_SUCCESS ? 0 : 1);
}

/* Index path in a child, waiting at most INDEX_WAIT_MS. */
static wn_status index_copy(wn_index *idx, const char *path, bool flags, wn_error *err)
{
	pid_t pid, parent = getpid(), r = 0;
	int status = 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return wn_error_set(err, WN_IO, "cannot start the indexer: %s", strerror(errno));
	if (pid == 0) {
#ifdef __linux__
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(5);
#endif
		index_child(idx, path, flags);
	}
	for (int waited = 0; waited <= INDEX_WAIT_MS; waited += 10) {
		r = waitpid(pid, &status, WNOHANG);
		if (r != 0 && !(r < 0 && errno == EINTR))
			break;
		usleep(10000);
	}
	if (r == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return wn_error_set(err, WN_LOCKED, "the notmuch database stayed locked");
	}
	if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return wn_error_set(err, WN_DB, "notmuch could not index it");
	return wn_index_refresh(idx, err);
}

/* Store mail in winnow.sent_folder and index it; a problem is only a
 * warning: the mail is sent. */
static void sent_copy(wn_index *idx, const char *mail, size_t len, wn_buf *warn)
{
	const char *folder = wn_index_conf(idx)->sent_folder;
	wn_error err = WN_ERROR_INIT;
	char *dir = NULL, *path = NULL;

	if (!folder || !*folder)
		return;
	if (!folder_ok(folder)) {
		wn_buf_printf(warn, "%swinnow.sent_folder '%s' must be a folder inside the database "
			      "(relative, without ..): no copy kept", warn->len ? "; " : "", folder);
		return;
	}
	if (asprintf(&dir, "%s/%s", wn_index_db_path(idx), folder) < 0)
		return;
	if (make_maildir(dir, &err) != WN_OK || deliver(dir, mail, len, &path, &err) != WN_OK)
		wn_buf_printf(warn, "%s%s", warn->len ? "; " : "", wn_error_msg(&err));
	else if (index_copy(idx, path, false, &err) != WN_OK)
		wn_buf_printf(warn, "%sthe sent copy %s is not indexed yet (%s): the next 'notmuch new' "
			      "indexes it", warn->len ? "; " : "", path, wn_error_msg(&err));
	free(dir);
	free(path);
	wn_error_clear(&err);
}

/* --- one forwarding run at a time ------------------------------------------ */

/* The lock is a POSIX record lock (fcntl), not flock().  A record lock
 * belongs to this process alone: the background writer and the indexer
 * that winnow forks do not inherit it.  A flock() lock was shared with
 * them through the descriptor they inherit, so while a verdict waited
 * for the notmuch lock, the TUI's own writer kept forward.lock and F
 * was refused as "another winnow forward".  A record lock has two
 * traps of its own, both closed by `held`: taking it again in this
 * process succeeds, and closing any descriptor of the file here drops
 * it.  So a second lock here is refused, and the file is opened once. */
static int held = -1;

static struct flock whole_file(void)
{
	struct flock l;

	memset(&l, 0, sizeof(l));
	l.l_type = F_WRLCK;
	l.l_whence = SEEK_SET;
	return l;
}

wn_status wn_forward_lock(int *fd, bool *waited, wn_error *err)
{
	char *state = NULL, *path = NULL;
	struct flock l = whole_file();
	wn_status st;

	*fd = -1;
	*waited = false;
	if (held >= 0)
		return wn_error_set(err, WN_USAGE,
				    "a forward is open already in this winnow: send, "
				    "postpone or cancel it first");
	if ((st = wn_state_dir(&state, err)) != WN_OK)
		return st;
	if (asprintf(&path, "%s/forward.lock", state) < 0) {
		free(state);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	free(state);
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (*fd < 0) {
		st = wn_error_set(err, WN_IO, "cannot open %s: %s", path, strerror(errno));
		free(path);
		return st;
	}
	free(path);
	held = *fd;
	if (fcntl(*fd, F_SETLK, &l) == 0)
		return WN_OK;
	if (errno != EACCES && errno != EAGAIN) {
		st = wn_error_set(err, WN_IO, "cannot lock the forwarding lock: %s",
				  strerror(errno));
		wn_forward_unlock(fd);
		return st;
	}
	*waited = true;
	return WN_OK;
}

wn_status wn_forward_lock_wait(int fd, wn_error *err)
{
	struct flock l = whole_file();

	while (fcntl(fd, F_SETLKW, &l) < 0)
		if (errno != EINTR)
			return wn_error_set(err, WN_IO, "cannot lock the forwarding lock: %s", strerror(errno));
	return WN_OK;
}

void wn_forward_unlock(int *fd)
{
	if (*fd >= 0) {
		if (*fd == held)
			held = -1;
		close(*fd);
	}
	*fd = -1;
}

/* --- recording -------------------------------------------------------------- */

/* The one place that records findings as forwarded. */
static void record(wn_store *store, const wn_forward *f, time_t when, wn_buf *warn)
{
	wn_error err = WN_ERROR_INIT;
	/* A reply to a bot that reads replies keeps the command it sent. */
	const char *told = wn_forward_syz_told(f);

	for (size_t k = 0; k < f->nparts; k++) {
		const wn_fwd_part *p = &f->parts[k];
		wn_status st = WN_OK;

		if (p->n && told)
			st = wn_store_told(store, p->it, p->findings, p->n, f->message_id, told,
					   when, &err);
		else if (p->n)
			st = wn_store_forwarded(store, p->it, p->findings, p->n, f->message_id,
						when, &err);
		if (st != WN_OK)
			wn_buf_printf(warn, "%sthe mail was sent, but recording its findings as forwarded "
				      "failed: %s", warn->len ? "; " : "", wn_error_msg(&err));
	}
	wn_error_clear(&err);
}

/* --- sending ------------------------------------------------------------------- */

/* The outcome of sendmail's run st, after the mail was handed over:
 * an "accepted" that cannot be journaled only warns (the mail is
 * sent), a "failed" that cannot leaves the mail in doubt, which asks
 * before sending again: safe either way.  Returns st. */
static wn_status handed(wn_store *store, const wn_forward *f, wn_status st, time_t when, wn_buf *warn)
{
	wn_error err = WN_ERROR_INIT;

	if (store && wn_store_sendmail(store, f->message_id, st == WN_OK ? WN_SENT_ACCEPTED : WN_SENT_FAILED,
				       when, &err) != WN_OK && st == WN_OK)
		wn_buf_printf(warn, "%sthe journal could not record that sendmail took the mail: %s",
			      warn->len ? "; " : "", wn_error_msg(&err));
	wn_error_clear(&err);
	return st;
}

/* What sendmail said, on one line, for an error message. */
static char *said(const wn_buf *out)
{
	char *s = wn_text_header_safe(wn_buf_str(out));

	if (s && strlen(s) > 400)
		strcpy(s + 397, "...");
	return s;
}

wn_status wn_forward_send(wn_index *idx, wn_store *store, wn_forward *f, const char *draft_dir,
			  char **warning, wn_error *err)
{
	wn_buf mail = WN_BUF_INIT, out = WN_BUF_INIT, warn = WN_BUF_INIT;
	time_t when = wn_forward_now();
	char **argv = NULL;
	wn_status st;

	*warning = NULL;
	/* Whoever sends (a resumed draft, the TUI) must be able to tell who
	 * opted out: an unreadable winnow.optout stops it here too. */
	if ((st = wn_forward_optout_check(wn_index_conf(idx), err)) != WN_OK)
		return st;
	st = wn_argv_split(wn_index_conf(idx)->sendmail, &argv, err);
	if (st == WN_USAGE)
		st = wn_error_prefix(err, WN_CONFIG, "winnow.sendmail");
	if (st == WN_OK)
		st = wn_forward_render(f, when, &mail, err);
	/* On disk before sendmail may take the mail: a winnow killed while
	 * it has it leaves a trace the next run asks about. */
	if (st == WN_OK && store &&
	    (st = wn_store_sendmail(store, f->message_id, WN_SENT_HANDED, when, err)) != WN_OK)
		st = wn_error_prefix(err, st, "not sent: the journal cannot say it is being sent");
	if (st == WN_OK)
		st = handed(store, f, wn_proc_run(argv, mail.data, mail.len,
						   wn_index_conf(idx)->sendmail_timeout * 1000, &out, err), when, &warn);
	if (st != WN_OK && out.len) {
		/* Its message after ours: "'msmtp' exited with status 1:
		 * msmtp: cannot connect ..." */
		char *s = said(&out), *msg = strdup(wn_error_msg(err));

		wn_error_set(err, st, "%s: %s", msg ? msg : "sending failed", s ? s : "");
		free(s);
		free(msg);
	}
	wn_strv_free(argv);
	if (st == WN_OK) {
		record(store, f, when, &warn);
		if (draft_dir)
			wn_forward_draft_remove(f, draft_dir);
		sent_copy(idx, mail.data, mail.len, &warn);
		/* The mail is sent, so no error; but a warning lost to a
		 * failed allocation must not read as "all went well". */
		if (wn_buf_failed(&warn))
			*warning = strdup("the mail was sent, but memory ran out while noting what else went wrong");
		else
			*warning = warn.len ? wn_buf_steal(&warn) : NULL;
	}
	wn_buf_free(&mail);
	wn_buf_free(&out);
	wn_buf_free(&warn);
	return st;
}

wn_status wn_forward_doubt(wn_store *store, const wn_forward *f, char **doubt, wn_error *err)
{
	wn_sent_state state;
	char stamp[64] = "an unknown time";
	time_t when;
	struct tm tm;
	wn_status st;

	*doubt = NULL;
	if ((st = wn_store_sent(store, f->message_id, &state, &when, err)) != WN_OK)
		return st;
	if (state != WN_SENT_HANDED && state != WN_SENT_ACCEPTED && state != WN_SENT_DRAFTED)
		return WN_OK;
	if (localtime_r(&when, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M %Z", &tm);
	if (asprintf(doubt, state == WN_SENT_HANDED ? "this mail may have been sent already at %s"
		     : state == WN_SENT_DRAFTED ? "this mail was written to the drafts folder at %s "
		     "(winnow.drafts_folder): your mailer may have sent it" : "this mail was sent at %s",
		     stamp) < 0) {
		*doubt = NULL;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return WN_OK;
}

/* --- the drafts folder: the user's mailer sends it ---------------------- */

/* The folder's directory, or WN_CONFIG saying what is wrong. */
static wn_status drafts_dir(wn_index *idx, char **dir, wn_error *err)
{
	const char *folder = wn_index_conf(idx)->drafts_folder;

	*dir = NULL;
	if (!folder || !*folder)
		return wn_error_set(err, WN_CONFIG, "winnow.drafts_folder is not set: no folder to write "
				    "the draft into (for example: notmuch config set winnow.drafts_folder drafts)");
	if (!folder_ok(folder))
		return wn_error_set(err, WN_CONFIG, "winnow.drafts_folder '%s' must be a folder inside the "
				    "database (relative, without ..)", folder);
	if (asprintf(dir, "%s/%s", wn_index_db_path(idx), folder) < 0) {
		*dir = NULL;
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	return WN_OK;
}

/* What f forwards, by review and fingerprint, for the journal. */
static wn_status drafted_findings(const wn_forward *f, wn_drafted_finding **out, size_t *n)
{
	size_t total = 0;

	for (size_t k = 0; k < f->nparts; k++)
		total += f->parts[k].n;
	*n = 0;
	if (!(*out = calloc(total ? total : 1, sizeof(**out))))
		return WN_NOMEM;
	for (size_t k = 0; k < f->nparts; k++)
		for (size_t j = 0; j < f->parts[k].n; j++) {
			const wn_item *it = f->parts[k].it;

			(*out)[*n].review = it->id;
			(*out)[(*n)++].fp = (char *) it->review->findings[f->parts[k].findings[j] - 1].fingerprint;
		}
	return WN_OK;
}

wn_status wn_forward_to_drafts(wn_index *idx, wn_store *store, wn_forward *f, char **path, char **warning,
			       wn_error *err)
{
	wn_buf mail = WN_BUF_INIT;
	wn_drafted_finding *v = NULL;
	time_t when = wn_forward_now();
	char *dir = NULL, *tmp = NULL;
	size_t n = 0;
	wn_status st;

	*path = NULL;
	*warning = NULL;
	if ((st = wn_forward_optout_check(wn_index_conf(idx), err)) != WN_OK ||
	    (st = drafts_dir(idx, &dir, err)) != WN_OK)
		return st;
	if ((st = wn_forward_render(f, when, &mail, err)) == WN_OK && (st = make_maildir(dir, err)) == WN_OK &&
	    (st = write_tmp(dir, mail.data, mail.len, "DS", &tmp, path, err)) == WN_OK) {
		/* Pending before the mailer can see it: the findings are
		 * recorded once the sent copy shows up, and winnow will not
		 * send this mail itself without asking. */
		if (drafted_findings(f, &v, &n) != WN_OK)
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		else
			st = wn_store_drafted(store, f->message_id, v, n, when, err);
		if (st == WN_OK && rename(tmp, *path) < 0)
			st = wn_error_set(err, WN_IO, "cannot move the draft into %s/cur: %s", dir, strerror(errno));
		if (st != WN_OK)
			unlink(tmp);
	}
	if (st == WN_OK) {
		wn_error why = WN_ERROR_INIT;

		if (index_copy(idx, *path, true, &why) != WN_OK &&
		    asprintf(warning, "the draft %s is not indexed yet (%s): the next 'notmuch new' indexes it",
			     *path, wn_error_msg(&why)) < 0)
			*warning = NULL;
		wn_error_clear(&why);
	} else {
		free(*path);
		*path = NULL;
	}
	free(v);
	free(tmp);
	free(dir);
	wn_buf_free(&mail);
	return st;
}

/* Is msg the sent copy: a file of it outside the drafts folder (dir)
 * whose maildir flags have no D?  *when: that file's Date (notmuch
 * keeps the date of the file it indexed first: the draft's); *body
 * its body as sent (malloc'd, or NULL). */
static bool sent_copy_of(notmuch_message_t *msg, const char *dir, time_t *when, char **body)
{
	notmuch_filenames_t *fs = notmuch_message_get_filenames(msg);
	size_t dn = strlen(dir);
	bool sent = false;

	*when = 0;
	for (; fs && !sent && notmuch_filenames_valid(fs); notmuch_filenames_move_to_next(fs)) {
		const char *name = notmuch_filenames_get(fs), *base = strrchr(name, '/');
		const char *info = base ? strstr(base, ":2,") : NULL;
		wn_mail *m = NULL;

		if (!strncmp(name, dir, dn) && name[dn] == '/')
			continue;
		if (!(sent = !info || !strchr(info + 3, 'D')))
			continue;
		if (wn_mail_parse_file(name, &m, NULL) == WN_OK) {
			*when = m->date;
			*body = m->body;
			m->body = NULL;
		}
		wn_mail_free(&m);
	}
	if (fs)
		notmuch_filenames_destroy(fs);
	return sent;
}

/* Record the findings of d (sent at when, body the mail's as sent) as
 * forwarded, review by review, and end its pending state. */
static wn_status record_drafted(wn_index *idx, wn_store *store, const wn_drafted *d, time_t when,
				const char *body, const char *draft_dir, wn_error *err)
{
	wn_status st = WN_OK;

	for (size_t i = 0; st == WN_OK && i < d->n; i++) {
		wn_item *it = NULL;
		size_t *idxs, k = 0;
		bool done = false;

		/* Each review once: its findings gathered at its first. */
		for (size_t j = 0; j < i && !done; j++)
			done = !strcmp(d->findings[j].review, d->findings[i].review);
		if (done)
			continue;
		/* A review gone from the index has nothing left to record. */
		if (wn_index_find(idx, d->findings[i].review, &it, NULL) != WN_OK || !it->review) {
			wn_item_free(&it);
			continue;
		}
		if (!(idxs = calloc(it->review->nfindings + 1, sizeof(*idxs)))) {
			wn_item_free(&it);
			return wn_error_set(err, WN_NOMEM, "out of memory");
		}
		for (size_t f = 0; f < it->review->nfindings; f++)
			for (size_t j = i; j < d->n; j++)
				if (!strcmp(d->findings[j].review, it->id) &&
				    !strcmp(d->findings[j].fp, it->review->findings[f].fingerprint)) {
					idxs[k++] = f + 1;
					break;
				}
		/* A reply to a bot that reads replies keeps its command. */
		if (k && wn_forward_syz_told_body(it, body))
			st = wn_store_told(store, it, idxs, k, d->msgid,
					   wn_forward_syz_told_body(it, body), when, err);
		else if (k)
			st = wn_store_forwarded(store, it, idxs, k, d->msgid, when, err);
		if (st == WN_OK && draft_dir) {
			/* winnow's own copy of this draft is done with too. */
			wn_forward *g = NULL;

			if (wn_forward_draft_find(draft_dir, &it, 1, &g, NULL) == WN_OK &&
			    !strcmp(g->message_id, d->msgid))
				wn_forward_draft_remove(g, draft_dir);
			wn_forward_free(&g);
		}
		free(idxs);
		wn_item_free(&it);
	}
	if (st == WN_OK)
		st = wn_store_sendmail(store, d->msgid, WN_SENT_ACCEPTED, when, err);
	return st;
}

wn_status wn_forward_drafts_resolve(wn_index *idx, wn_store *store, const char *draft_dir, size_t *resolved,
				    wn_error *err)
{
	wn_drafted *v = NULL;
	size_t n = 0;
	char *dir = NULL, *own = NULL;
	wn_status st;

	*resolved = 0;
	if (!store)
		return WN_OK;
	if ((st = wn_store_drafts(store, &v, &n, err)) != WN_OK || !n)
		return st;
	/* winnow's own drafts: without them their copies just stay. */
	if (!draft_dir && wn_draft_dir(&own, NULL) == WN_OK)
		draft_dir = own;
	/* The folder's name may have changed since: without one, any file
	 * without the D flag is the sent copy. */
	if (drafts_dir(idx, &dir, NULL) != WN_OK && !(dir = strdup("\x01")))
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	for (size_t i = 0; st == WN_OK && i < n; i++) {
		notmuch_message_t *msg = wn_index_find_message(idx, v[i].msgid);
		time_t when = 0;
		char *body = NULL;
		bool sent = msg && sent_copy_of(msg, dir, &when, &body);

		if (msg)
			notmuch_message_destroy(msg);
		if (sent)
			st = record_drafted(idx, store, &v[i], when > 0 ? when : wn_forward_now(),
					    body, draft_dir, err);
		free(body);
		if (!sent)
			continue;
		if (st == WN_OK)
			(*resolved)++;
	}
	wn_drafted_free(v, n);
	free(dir);
	free(own);
	return st;
}
