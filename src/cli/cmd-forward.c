/* winnow forward — mail the findings marked valid to the patch author,
 * as a reply to the patch: composed, opened in $VISUAL/$EDITOR, listed
 * and confirmed, then piped to winnow.sendmail.  --dry-run prints the
 * mail instead, -o DIR writes it to a file; --all does it for every
 * patch with valid findings not forwarded yet, like b4 ty. */
#include "autoconfig.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "digest.h"
#include "winnow/forward.h"
#include "winnow/series.h"

struct fwd_args {
	bool preexisting, force, dry_run, all, resend, to_drafts, full, superseded;
	const char *outdir;
	int timeout_ms;
	int argc;		/* MESSAGE-ID, or with --all the QUERY words */
	char **argv;
};

static const wn_opt fwd_opts[] = {
	{ .name = "pre-existing", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, preexisting),
	  .help = "also send the findings marked pre-existing, under their own heading" },
	{ .name = "force", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, force),
	  .help = "send even to recipients listed in winnow.optout, a review a\n"
		  "person already mailed to the author, or a mail to more than\n"
		  "winnow.max_recipients addresses without a terminal or with --all" },
	{ .name = "full", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, full),
	  .help = "forward the valid findings written out, as a reply to the patch,\n"
		  "even when the author has the review (default then: a reply to\n"
		  "the review with the verdict under each finding)" },
	{ .name = "superseded", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, superseded),
	  .help = "with --all, also the reviews of a patch whose series has a later\n"
		  "version in the index" },
	{ .name = "dry-run", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, dry_run),
	  .help = "print the mail exactly as it would be piped to sendmail\n"
		  "(several: as an mbox); send and record nothing" },
	{ .name = "output-dir", .letter = 'o', .arg = "DIR", .parse = wn_opt_string,
	  .offset = offsetof(struct fwd_args, outdir),
	  .help = "write each mail to DIR as NNNN-subject.eml; send nothing" },
	{ .name = "resend", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, resend),
	  .help = "send a postponed draft again although an earlier run handed it\n"
		  "to sendmail and stopped before it knew the outcome" },
	{ .name = "to-drafts", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, to_drafts),
	  .help = "write the mail into winnow.drafts_folder for your mailer to\n"
		  "finish and send, instead of sending it; the findings count as\n"
		  "forwarded once the sent copy is in the index" },
	{ .name = "all", .parse = wn_opt_flag, .offset = offsetof(struct fwd_args, all),
	  .help = "one mail per patch with valid findings not forwarded yet,\n"
		  "among the reviews matching QUERY (default: all)" },
	WN_OPT_TIMEOUT(struct fwd_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};

/* The mails of one run, each with the reviews it answers. */
struct mail {
	wn_item **items;	/* reviews of one patch; owned by the run */
	size_t n;
	wn_forward *f;
	bool resumed;		/* a postponed draft: its file is the text */
	bool refused;		/* an opted-out recipient, no --force; or held */
	bool held;		/* may have been sent already: not without --resend */
	bool alone;		/* a verdict reply: one review, never grouped */
	char *doubt;		/* why it may have been sent already; NULL */
};

struct run {
	wn_cli *cli;
	const struct fwd_args *a;
	wn_list list;		/* --all: the reviews (own their items) */
	wn_item *single;	/* one MESSAGE-ID */
	struct mail *m;
	size_t n;
	char *drafts;		/* the drafts folder (interactive) */
	int rc;
};

static int fwd_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct fwd_args *a = args;

	if (!a->all && argc != 1)
		return wn_cli_usage_error(cli, "wants one MESSAGE-ID (or --all [QUERY])");
	if (a->dry_run && a->outdir)
		return wn_cli_usage_error(cli, "takes --dry-run or -o DIR, not both");
	if (a->to_drafts && (a->dry_run || a->outdir))
		return wn_cli_usage_error(cli, "takes --to-drafts or --dry-run / -o DIR, not both");
	if (a->superseded && !a->all)
		return wn_cli_usage_error(cli, "takes --superseded with --all only");
	a->argc = argc;
	a->argv = argv;
	return 0;
}

/* --- which mails ------------------------------------------------------- */

/* The mail it goes in: with --all, the reviews of one patch share one,
 * but a verdict reply (alone) answers its review alone. */
static struct mail *mail_for(struct run *r, wn_item *it, bool alone)
{
	struct mail *m, *nm;
	wn_item **ni;

	for (size_t i = 0; r->a->all && !alone && i < r->n; i++)
		if (!r->m[i].alone && strcmp(r->m[i].items[0]->patch->id, it->patch->id) == 0) {
			m = &r->m[i];
			goto add;
		}
	if (!(nm = realloc(r->m, (r->n + 1) * sizeof(*nm))))
		return NULL;
	r->m = nm;
	m = &nm[r->n++];
	memset(m, 0, sizeof(*m));
	m->alone = alone;
add:
	if (!(ni = realloc(m->items, (m->n + 1) * sizeof(*ni))))
		return NULL;
	m->items = ni;
	ni[m->n++] = it;
	return m;
}

/* A review worth a mail in --all: its patch is known and it has valid
 * findings not forwarded yet. */
static bool pending(const wn_item *it)
{
	if (!it->loaded || it->load_error || !it->patch || !it->verdicts)
		return false;
	for (size_t i = 0; i < it->review->nfindings; i++)
		if (it->verdicts[i] == WN_VERDICT_VALID && !(it->forwarded && it->forwarded[i]))
			return true;
	return false;
}

/* "Sashiko's review of 'net: fix ...'" for a message about it. */
static char *review_name(const wn_item *it)
{
	char *s = wn_text_sanitize(it->patch && it->patch->subject ? it->patch->subject : it->subject, 0), *n = NULL;

	if (asprintf(&n, "the %s review <%s> of '%s'", wn_bot_label(it->bot), it->id, s ? s : "") < 0)
		n = NULL;
	free(s);
	return n;
}

/* A review a person already mailed to the author (netdev's "AI-generated
 * review" mails are the maintainer's own triage): say who and when.
 * Returns false when it is to be left alone. */
static bool human_sent(const struct run *r, const wn_item *it, const wn_reached *rc, bool skipping)
{
	char *name = review_name(it), when[32] = "?";
	struct tm tm;

	if (rc->date && gmtime_r(&rc->date, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	if (skipping)
		fprintf(stderr, "%s: skipping %s: %s sent it to the author on %s\n", r->cli->prog,
			name ? name : it->id, rc->by ? rc->by : "", when);
	else
		fprintf(stderr, "%s: %s sent %s to the author on %s%s\n", r->cli->prog, rc->by ? rc->by : "",
			name ? name : it->id, when,
			r->a->force ? "; replying anyway (--force)" : ": not forwarding it again (--force does)");
	free(name);
	return r->a->force && !skipping;
}

/* --all: a review of a patch whose series has moved on is not
 * forwarded unless --superseded. Returns true when it is skipped. */
static bool superseded(struct run *r, wn_series *s, const wn_item *it)
{
	wn_error err = WN_ERROR_INIT;
	wn_fixed later = { 0 };
	bool skip = false;

	if (s && wn_series_superseded(s, it, &later, &err) == WN_OK) {
		char *name = review_name(it), *subj = wn_text_sanitize(later.subject ? later.subject : "", 0);

		skip = !r->a->superseded;
		fprintf(stderr, "%s: %s %s: v%d is in the index ('%s')%s\n", r->cli->prog,
			skip ? "skipping" : "forwarding", name ? name : it->id, later.version, subj ? subj : "",
			skip ? "; --superseded forwards it" : " (--superseded)");
		free(name);
		free(subj);
	}
	wn_fixed_clear(&later);
	wn_error_clear(&err);
	return skip;
}

/* Whether the author has it, for one review: *alone when a verdict
 * reply answers it.  Returns false when it is not to be mailed. */
static bool reachable(struct run *r, wn_item *it, bool *alone)
{
	wn_error err = WN_ERROR_INIT;
	wn_reached rc = { 0 };
	bool go = true;

	*alone = false;
	if (wn_forward_reached(r->cli->idx, it, &rc, &err) != WN_OK) {
		/* Composing says what is wrong with it. */
		wn_error_clear(&err);
		return true;
	}
	if (rc.how == WN_REACH_HUMAN)
		go = human_sent(r, it, &rc, r->a->all);
	*alone = rc.how != WN_REACH_NO && !r->a->full;
	wn_reached_clear(&rc);
	return go;
}

static int collect_all(struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	char *query = wn_cli_join(r->a->argc, r->a->argv);
	wn_series *series = NULL;
	size_t skipped = 0;
	int rc = 0;

	if (!query)
		return wn_cli_nomem(r->cli);
	if (wn_index_query(r->cli->idx, query, &r->list, &err) != WN_OK ||
	    wn_series_new(r->cli->idx, &series, &err) != WN_OK)
		rc = wn_cli_fail(r->cli, &err);
	for (size_t i = 0; rc == 0 && i < r->list.n; i++) {
		wn_item *it = wn_list_get(r->cli->idx, &r->list, i);
		bool alone;

		if (!it || wn_index_load(r->cli->idx, it, &err) != WN_OK)
			continue;
		wn_cli_overlay(r->cli, it);
		if (!pending(it))
			continue;
		if (superseded(r, series, it) || !reachable(r, it, &alone)) {
			skipped++;
			continue;
		}
		if (!mail_for(r, it, alone))
			rc = wn_cli_nomem(r->cli);
	}
	if (rc == 0 && !r->n) {
		fprintf(stderr, "%s: no patch has valid findings that were not forwarded yet%s\n", r->cli->prog,
			skipped ? " (but those skipped above)" : "");
		rc = 1;
	}
	wn_series_free(&series);
	free(query);
	wn_error_clear(&err);
	return rc;
}

static int collect_one(struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	if (wn_index_find(r->cli->idx, r->a->argv[0], &r->single, &err) != WN_OK) {
		rc = wn_cli_fail(r->cli, &err);
	} else {
		bool alone = false;

		wn_cli_overlay(r->cli, r->single);
		if (r->single->loaded && r->single->patch && !reachable(r, r->single, &alone))
			rc = 1;
		else if (!mail_for(r, r->single, alone))
			rc = wn_cli_nomem(r->cli);
	}
	wn_error_clear(&err);
	return rc;
}

/* --- composing ------------------------------------------------------------ */

static void say_notice(const wn_cli *cli, const char *notice)
{
	char *copy = notice ? strdup(notice) : NULL, *save = NULL;

	for (char *l = copy ? strtok_r(copy, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		wn_cli_say(cli, "warning: ", l);
	free(copy);
}

/* A postponed draft of these reviews, when sending interactively. */
static wn_status resume(struct run *r, struct mail *m, wn_error *err)
{
	wn_status st;

	if (!r->drafts)
		return WN_NOT_FOUND;
	st = wn_forward_draft_find(r->drafts, m->items, m->n, &m->f, err);
	m->resumed = st == WN_OK;
	if (st == WN_OK)
		fprintf(stderr, "%s: resuming the draft postponed for '%s'\n", r->cli->prog, m->f->subject);
	/* One that cannot be resumed was set aside: compose anew. */
	if (st == WN_PARSE) {
		wn_cli_say(r->cli, "warning: ", wn_error_msg(err));
		st = WN_NOT_FOUND;
	}
	return st;
}

static int compose(struct run *r, struct mail *m)
{
	wn_fwd_opts o = { r->a->preexisting, r->a->all, r->a->full };
	wn_error err = WN_ERROR_INIT;
	wn_status st = resume(r, m, &err);
	int rc = 0;

	/* A syzbot report's reply is a command to the bot. */
	if (st == WN_NOT_FOUND && m->n == 1 && wn_forward_is_syz(m->items[0]))
		st = wn_forward_syz_compose(r->cli->idx, m->items[0], &m->f, &err);
	else if (st == WN_NOT_FOUND)
		st = wn_forward_compose(r->cli->idx, m->items, m->n, &o, &m->f, &err);
	if (st != WN_OK)
		rc = wn_cli_fail(r->cli, &err);
	else
		say_notice(r->cli, m->f->notice);
	wn_error_clear(&err);
	return rc;
}

/* Refuse mail to someone in winnow.optout, unless --force. */
static void check_optout(struct run *r, struct mail *m)
{
	char *who = wn_forward_optouts(wn_index_conf(r->cli->idx), m->f);

	m->refused = m->held;
	if (!who)
		return;
	if (r->a->force) {
		fprintf(stderr, "%s: warning: %s opted out of bot findings; sending anyway (--force)\n",
			r->cli->prog, who);
	} else {
		fprintf(stderr, "%s: not forwarding '%s': %s opted out of bot findings (winnow.optout; "
			"--force sends anyway)\n", r->cli->prog, m->f->subject, who);
		m->refused = true;
		r->rc = 1;
	}
	free(who);
}

/* A mail to more than winnow.max_recipients addresses (a patch Cc'ing
 * half of MAINTAINERS) is shown and confirmed where a person answers;
 * --all, --to-drafts and runs without a terminal refuse it unless
 * --force. */
static void check_size(struct run *r, struct mail *m)
{
	size_t n = wn_forward_recipients(m->f);
	int max = wn_index_conf(r->cli->idx)->max_recipients;
	char *subject;

	if (m->refused || n <= (size_t) max || r->a->dry_run || r->a->outdir)
		return;
	subject = wn_text_sanitize(m->f->subject, 0);
	if (r->a->force)
		fprintf(stderr, "%s: warning: '%s' goes to %zu addresses, more than winnow.max_recipients (%d); "
			"sending anyway (--force)\n", r->cli->prog, subject ? subject : "", n, max);
	else if (r->a->all || r->a->to_drafts || !isatty(STDIN_FILENO)) {
		fprintf(stderr, "%s: not forwarding '%s': it goes to %zu addresses, more than "
			"winnow.max_recipients (%d); --force sends it\n", r->cli->prog, subject ? subject : "", n,
			max);
		m->refused = true;
		r->rc = 1;
	}
	free(subject);
}

/* A resumed draft that an earlier run handed to sendmail (and was
 * stopped before it knew, or before it removed the draft) is not sent
 * again by surprise: a run that can ask asks (see ask()), one that
 * cannot (--all, no terminal) refuses that mail unless --resend.
 * Returns non-zero when the journal cannot be read. */
static int check_doubt(struct run *r, struct mail *m)
{
	wn_error err = WN_ERROR_INIT;
	char *subject;
	int rc = 0;

	if (!m->resumed)
		return 0;
	if (wn_forward_doubt(r->cli->store, m->f, &m->doubt, &err) != WN_OK)
		rc = wn_cli_fail(r->cli, &err);
	wn_error_clear(&err);
	if (rc || !m->doubt)
		return rc;
	subject = wn_text_sanitize(m->f->subject, 0);
	if (r->a->resend) {
		fprintf(stderr, "%s: warning: '%s' <%s>: %s; sending it again (--resend)\n", r->cli->prog,
			subject ? subject : "", m->f->message_id, m->doubt);
	} else if (r->a->all || r->a->to_drafts || !isatty(STDIN_FILENO)) {
		fprintf(stderr, "%s: not forwarding '%s' <%s>: %s%s; see whether it arrived, then --resend "
			"sends it again\n", r->cli->prog, subject ? subject : "", m->f->message_id, m->doubt,
			strstr(m->doubt, "drafts folder") ? "" : ", by a winnow that stopped while sending it");
		m->held = m->refused = true;
		r->rc = 1;
	}
	free(subject);
	return 0;
}

/* --- dry run and -o DIR ------------------------------------------------------ */

static int render(struct run *r, const struct mail *m, wn_buf *out)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	if (wn_forward_render(m->f, wn_forward_now(), out, &err) != WN_OK)
		rc = wn_cli_fail(r->cli, &err);
	wn_error_clear(&err);
	return rc;
}

/* mboxrd: a "From " line before each mail, ">From " lines quoted once
 * more, a blank line after. */
static void put_mbox(const wn_buf *mail)
{
	const char *p = wn_buf_str(mail);
	time_t now = wn_forward_now();
	char date[64];

	wn_mbox_date(now, date, sizeof(date));
	printf("From winnow %s\n", date);
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (strncmp(p + strspn(p, ">"), "From ", 5) == 0)
			putchar('>');
		fwrite(p, 1, n, stdout);
		putchar('\n');
		p += n + (p[n] == '\n');
	}
	putchar('\n');
}

/* "0001-frobnic-free-the-irq-before-unmapping-registers.eml" */
static char *file_name(const char *dir, size_t k, const char *subject)
{
	char slug[56];
	size_t o = 0;
	char *path = NULL;

	subject += wn_text_reply_marker(subject);
	for (const char *s = subject; *s && o < sizeof(slug) - 1; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char) (*s - 'A' + 'a') : *s;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[o++] = c;
		else if (o && slug[o - 1] != '-')
			slug[o++] = '-';
	}
	while (o && slug[o - 1] == '-')
		o--;
	slug[o] = '\0';
	return asprintf(&path, "%s/%04zu-%s.eml", dir, k, o ? slug : "reply") < 0 ? NULL : path;
}

static int write_eml(struct run *r, size_t k, const wn_buf *mail)
{
	char *path = file_name(r->a->outdir, k, r->m[k - 1].f->subject);
	FILE *fp = path ? fopen(path, "we") : NULL;
	int rc = 0;

	if (!fp || fwrite(mail->data, 1, mail->len, fp) != mail->len) {
		fprintf(stderr, "%s: cannot write %s: %s\n", r->cli->prog, path ? path : r->a->outdir,
			strerror(errno));
		rc = 2;
	}
	if (fp && fclose(fp) != 0 && !rc) {
		fprintf(stderr, "%s: cannot write %s: %s\n", r->cli->prog, path, strerror(errno));
		rc = 2;
	}
	if (!rc)
		printf("%s\n", path);
	free(path);
	return rc;
}

static int output(struct run *r)
{
	if (r->a->outdir && mkdir(r->a->outdir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "%s: cannot create %s: %s\n", r->cli->prog, r->a->outdir, strerror(errno));
		return 2;
	}
	for (size_t k = 0; k < r->n; k++) {
		wn_buf mail = WN_BUF_INIT;
		int rc = r->m[k].refused ? 0 : render(r, &r->m[k], &mail);

		if (!rc && !r->m[k].refused) {
			if (r->a->outdir)
				rc = write_eml(r, k + 1, &mail);
			else if (r->a->all)
				put_mbox(&mail);
			else
				fwrite(mail.data, 1, mail.len, stdout);
		}
		wn_buf_free(&mail);
		if (rc)
			return rc;
	}
	return r->rc;
}

/* --- the interactive flow ----------------------------------------------------- */

static int save_drafts(struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	/* A resumed draft's file is what the user wrote: never rewritten. */
	for (size_t k = 0; k < r->n && !rc; k++)
		if (!r->m[k].refused && !r->m[k].resumed &&
		    wn_forward_draft_save(r->m[k].f, r->drafts, &err) != WN_OK)
			rc = wn_cli_fail(r->cli, &err);
	wn_error_clear(&err);
	return rc;
}

/* Open every draft in one editor session, then read them back.
 * Returns false when a draft does not read (said why). */
static bool edit(struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	const char **paths = calloc(r->n ? r->n : 1, sizeof(*paths));
	size_t np = 0;
	bool ok = true;

	for (size_t k = 0; paths && k < r->n; k++)
		if (!r->m[k].refused)
			paths[np++] = wn_forward_draft_path(r->m[k].f, r->drafts);
	if (!paths || wn_run_editor(paths, np, &err) != WN_OK) {
		wn_cli_say(r->cli, "", paths ? wn_error_msg(&err) : "out of memory");
		ok = false;
	}
	for (size_t k = 0; k < r->n; k++) {
		if (r->m[k].refused)
			continue;
		if (wn_forward_draft_reload(r->m[k].f, r->drafts, &err) != WN_OK) {
			wn_cli_say(r->cli, "", wn_error_msg(&err));
			ok = false;
		} else {
			/* The user may have added someone who opted out, or
			 * a hundred people. */
			check_optout(r, &r->m[k]);
			check_size(r, &r->m[k]);
		}
	}
	for (size_t i = 0; paths && i < np; i++)
		free((char *) paths[i]);
	free(paths);
	wn_error_clear(&err);
	return ok;
}

static size_t sendable(const struct run *r)
{
	size_t n = 0;

	for (size_t k = 0; k < r->n; k++)
		n += !r->m[k].refused;
	return n;
}

/* Recipients, subject and findings of every mail, before asking. */
static void list_mails(const struct run *r)
{
	size_t shown = 0;

	for (size_t k = 0; k < r->n; k++) {
		const wn_forward *f = r->m[k].f;
		char *line = NULL;

		size_t nto = wn_forward_recipients(f);
		int max = wn_index_conf(r->cli->idx)->max_recipients;
		char what[160];

		if (r->m[k].refused)
			continue;
		if (f->kind == WN_FWD_VERDICTS)
			snprintf(what, sizeof(what), "a reply to the review the author has: %zu valid, %zu false "
				 "positive%s%s, %zu not checked", f->nvalid, f->nfalse, f->nfalse == 1 ? "" : "s",
				 f->npre ? ", and the pre-existing ones" : "", f->nunchecked);
		else
			snprintf(what, sizeof(what), "%zu valid finding%s%s", f->nvalid, f->nvalid == 1 ? "" : "s",
				 f->npre ? ", and the pre-existing ones" : "");
		if (asprintf(&line, "%zu. To: %s\n   Cc: %s\n   Subject: %s\n   %s", ++shown,
			     f->to, *f->cc ? f->cc : "(none)", f->subject, what) >= 0) {
			char *clean = wn_text_sanitize(line, WN_TEXT_KEEP_NEWLINE);

			fprintf(stderr, "%s\n", clean ? clean : "");
			free(clean);
			free(line);
		}
		if (r->m[k].doubt && !r->a->resend)
			fprintf(stderr, "   warning: %s\n", r->m[k].doubt);
		if (nto > (size_t) max)
			fprintf(stderr, "   warning: %zu addresses, more than winnow.max_recipients (%d)\n", nto, max);
	}
}

/* The mails that may have been sent already (asked about, not held). */
static size_t doubtful(const struct run *r, const char **doubt)
{
	size_t n = 0;

	for (size_t k = 0; k < r->n; k++)
		if (!r->m[k].refused && r->m[k].doubt && !r->a->resend) {
			*doubt = r->m[k].doubt;
			n++;
		}
	return n;
}

/* The answer to "send?": one of "yepc" ('p' at end of input). */
static char ask(const struct run *r, bool can_send)
{
	char *line = NULL;
	size_t cap = 0;
	char c = 'p';

	for (;;) {
		size_t n = sendable(r), nd;
		const char *doubt = NULL;

		nd = doubtful(r, &doubt);
		if (can_send && nd == 1 && n == 1)
			fprintf(stderr, "%s; send again? [y]es, [e]dit again, [p]ostpone, [c]ancel: ", doubt);
		else if (can_send && nd)
			fprintf(stderr, "Send %zu mails, %zu of which may have been sent already (above)? "
				"[y]es, [e]dit again, [p]ostpone, [c]ancel: ", n, nd);
		else if (can_send)
			fprintf(stderr, "Send %zu mail%s? [y]es, [e]dit again, [p]ostpone, [c]ancel: ", n,
				n == 1 ? "" : "s");
		else
			fprintf(stderr, "Fix the draft first: [e]dit again, [p]ostpone, [c]ancel: ");
		/* No more input: keep the drafts, send nothing. */
		if (getline(&line, &cap, stdin) < 0) {
			c = 'p';
			break;
		}
		c = line[strspn(line, " \t")];
		if (c && strchr(can_send ? "yepc" : "epc", c))
			break;
	}
	free(line);
	return c;
}

/* Send every mail, each recorded as soon as sendmail took it; a
 * failure stops the batch (the rest would likely fail the same way).
 * Returns how many were sent. */
static size_t send_all(struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	size_t sent = 0, total = sendable(r), k;

	for (k = 0; k < r->n && r->rc != 2; k++) {
		struct mail *m = &r->m[k];
		char *warning = NULL;

		if (m->refused)
			continue;
		if (wn_forward_send(r->cli->idx, r->cli->store, m->f, r->drafts, &warning, &err) != WN_OK) {
			wn_cli_say(r->cli, "", wn_error_msg(&err));
			fprintf(stderr, "%s: the draft is kept in %s; run the same command again to resume it\n",
				r->cli->prog, r->drafts);
			r->rc = 2;
			continue;
		}
		sent++;
		printf("sent <%s>: %s\n", m->f->message_id, m->f->subject);
		fflush(stdout);
		if (warning)
			wn_cli_say(r->cli, "warning: ", warning);
		free(warning);
	}
	if (r->rc == 2 && total > 1) {
		fprintf(stderr, "%s: stopped after a failure: %zu of %zu mails sent (listed above, and "
			"recorded as forwarded); not sent:\n", r->cli->prog, sent, total);
		for (size_t i = k - 1; i < r->n; i++)
			if (!r->m[i].refused) {
				char *t = wn_text_sanitize(r->m[i].f->subject, 0);

				fprintf(stderr, "  %s\n", t ? t : "");
				free(t);
			}
	}
	wn_error_clear(&err);
	return sent;
}

static int interactive(struct run *r)
{
	bool ok;
	char c;

	if (save_drafts(r))
		return 2;
	for (ok = edit(r);; ok = edit(r)) {
		if (!sendable(r))
			return r->rc ? r->rc : 1;
		list_mails(r);
		c = ask(r, ok);
		if (c != 'e')
			break;
	}
	if (c == 'c') {
		for (size_t k = 0; k < r->n; k++)
			wn_forward_draft_remove(r->m[k].f, r->drafts);
		fprintf(stderr, "%s: cancelled; the drafts are gone\n", r->cli->prog);
		return r->rc;
	}
	if (c == 'p') {
		fprintf(stderr, "%s: postponed: the drafts are in %s; run the same command again to resume\n",
			r->cli->prog, r->drafts);
		return r->rc;
	}
	/* What was sent is written to notmuch even when a later mail
	 * failed.  Journaled, it counts as forwarded already: a notmuch
	 * that is busy now only delays the write (a warning, not a
	 * failure that would invite sending again). */
	if (send_all(r)) {
		wn_error err = WN_ERROR_INIT;
		wn_status st = wn_store_flush(r->cli->store, r->a->timeout_ms, &err);

		wn_cli_store_warning(r->cli);
		if (st == WN_LOCKED || st == WN_DB) {
			wn_cli_say(r->cli, "warning: ", wn_error_msg(&err));
			fprintf(stderr, "%s: the mail is sent and recorded in the journal; the next winnow "
				"command writes the record to notmuch\n", r->cli->prog);
		} else if (st != WN_OK && !r->rc) {
			r->rc = wn_cli_flushed(r->cli, st, &err);
		}
		wn_error_clear(&err);
	}
	return r->rc;
}

/* --to-drafts: each mail into winnow.drafts_folder, winnow's own draft
 * kept beside it (so that forwarding it again from winnow asks first). */
static int to_drafts(struct run *r)
{
	for (size_t k = 0; k < r->n; k++) {
		struct mail *m = &r->m[k];
		wn_error err = WN_ERROR_INIT;
		char *path = NULL, *warning = NULL, *subject;

		if (m->refused)
			continue;
		if (wn_forward_draft_save(m->f, r->drafts, &err) != WN_OK ||
		    wn_forward_to_drafts(r->cli->idx, r->cli->store, m->f, &path, &warning, &err) != WN_OK) {
			r->rc = wn_cli_fail(r->cli, &err);
			wn_error_clear(&err);
			continue;
		}
		subject = wn_text_sanitize(m->f->subject, 0);
		printf("%s\n", path);
		fprintf(stderr, "%s: '%s' <%s> is in the drafts folder: finish and send it from your mailer; "
			"its findings count as forwarded once the sent copy is in the index\n", r->cli->prog,
			subject ? subject : "", m->f->message_id);
		if (warning)
			wn_cli_say(r->cli, "warning: ", warning);
		free(subject);
		free(warning);
		free(path);
		wn_error_clear(&err);
	}
	return r->rc;
}

/* --- the command --------------------------------------------------------------- */

static void run_free(struct run *r)
{
	for (size_t k = 0; k < r->n; k++) {
		wn_forward_free(&r->m[k].f);
		free(r->m[k].items);
		free(r->m[k].doubt);
	}
	free(r->m);
	wn_item_free(&r->single);
	wn_list_free(&r->list);
	free(r->drafts);
}

static int fwd_run(wn_cli *cli, void *args)
{
	struct run r = { .cli = cli, .a = args };
	bool script = r.a->dry_run || r.a->outdir;
	wn_error err = WN_ERROR_INIT;
	int rc = 0, lock = -1;
	bool waited = false;

	/* Not knowing who opted out, nothing may be composed or sent. */
	if (wn_forward_optout_check(wn_index_conf(cli->idx), &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	if (!rc && !script && wn_draft_dir(&r.drafts, &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	/* Another run sending now: wait for it, then see what it sent
	 * before choosing what to send. */
	if (!rc && !script && wn_forward_lock(&lock, &waited, &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	if (!rc && waited) {
		fprintf(stderr, "%s: waiting for another winnow forward to finish\n", cli->prog);
		if (wn_forward_lock_wait(lock, &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
	}
	if (!rc && waited && (wn_index_refresh(cli->idx, &err) != WN_OK ||
			      (cli->store && wn_store_refresh(cli->store, &err) != WN_OK)))
		rc = wn_cli_fail(cli, &err);
	if (!rc)
		rc = r.a->all ? collect_all(&r) : collect_one(&r);
	for (size_t k = 0; !rc && k < r.n; k++)
		if (!(rc = compose(&r, &r.m[k])) && !(rc = check_doubt(&r, &r.m[k]))) {
			check_optout(&r, &r.m[k]);
			check_size(&r, &r.m[k]);
		}
	if (!rc && !sendable(&r))
		rc = r.rc ? r.rc : 1;
	else if (!rc)
		rc = script ? output(&r) : r.a->to_drafts ? to_drafts(&r) : interactive(&r);
	run_free(&r);
	wn_forward_unlock(&lock);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_forward = {
	.args = "[MESSAGE-ID | --all [QUERY]]",
	.about = "Mail the findings of a review marked valid to the patch's author, as a\n"
		 "reply to the patch (From user.primary_email; Cc per winnow.cc).  A\n"
		 "review the author has already (the bot mailed them, or a person passed\n"
		 "it on) gets a verdict reply instead: a reply to the review, To the\n"
		 "author, Cc its other recipients, each finding marked valid or false\n"
		 "positive quoted with the verdict under it, the untriaged ones counted;\n"
		 "--full writes the full forward all the same.  A review a person sent\n"
		 "is not answered again without --force (--all skips it), nor, with\n"
		 "--all, one of a patch whose series has a later version in the index\n"
		 "without --superseded.  The draft opens in $VISUAL or $EDITOR; after\n"
		 "it, winnow lists the mail and asks: send, edit again, postpone (the\n"
		 "draft is kept and resumed by the next forward of the same review) or\n"
		 "cancel.  The mail is piped to\n"
		 "winnow.sendmail (default 'sendmail -t -oi'); the findings sent are then\n"
		 "recorded (winnow.forwarded.<fp>, tag winnow/forwarded).  Recipients\n"
		 "in winnow.optout are refused unless --force.  --to-drafts writes the\n"
		 "mail into winnow.drafts_folder instead, for your mailer to send.",
	.opts = fwd_opts,
	WN_CMD_ARGS(struct fwd_args, .timeout_ms = 5000),
	.check = fwd_check,
	.run = fwd_run,
};
