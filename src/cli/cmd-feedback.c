/* winnow feedback — tell the bots' operators which findings were false
 * positives or graded wrong (feedback.h): one digest per bot, to
 * winnow.feedback.<bot>, through forwarding's confirm-then-send path,
 * each finding recorded as reported once its mail is sent; or the
 * findings as JSON records for the operators' own tools. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "digest.h"
#include "printer.h"
#include "walk.h"
#include "winnow/feedback.h"

struct fb_args {
	const char *format;
	bool dry_run;
	int timeout_ms;
	int nwords;
	char **words;
};

/* clang-format off */
static const wn_opt fb_opts[] = {
	{ .name = "dry-run", .parse = wn_opt_flag, .offset = offsetof(struct fb_args, dry_run),
	  .help = "print the digests (an mbox) instead of sending them; record nothing" },
	{ .name = "format", .arg = WN_FORMATS_ARG(WN_FORMATS_FEEDBACK), .parse = wn_opt_string,
	  .offset = offsetof(struct fb_args, format),
	  .help = "mail (default): a digest per bot; json: one record per finding\n"
		  "(records nothing)" },
	WN_OPT_TIMEOUT(struct fb_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};
/* clang-format on */

static int fb_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct fb_args *a = args;

	a->nwords = argc;
	a->words = argv;
	return WN_CLI_CHECK_FORMAT(cli, a->format, WN_FORMATS_FEEDBACK);
}

static int add_one(wn_cli *cli, wn_item *it, void *arg)
{
	wn_error err = WN_ERROR_INIT;
	int rc = wn_feedback_add(arg, it, &err) == WN_OK ? 0 : wn_cli_fail(cli, &err);

	wn_error_clear(&err);
	return rc;
}

/* --- JSON ----------------------------------------------------------------------- */

static void field(wn_printer *p, const char *key, const char *v)
{
	p->map_key(p, key);
	p->string(p, v);
}

static void record(wn_printer *p, const wn_feedback_item *x)
{
	char date[32] = "";
	struct tm tm;

	if (x->date > 0 && gmtime_r(&x->date, &tm))
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p->begin_map(p);
	p->map_key(p, "review");
	p->msgid(p, x->review);
	p->map_key(p, "finding");
	p->integer(p, (long long) x->finding);
	field(p, "fingerprint", x->fingerprint);
	field(p, "bot", wn_bot_name(x->bot));
	field(p, "review_date", date);
	p->map_key(p, "false_positive");
	p->boolean(p, x->false_positive);
	field(p, "bot_severity", wn_severity_name(x->bot_severity));
	field(p, "maintainer_severity", wn_severity_name(x->own_severity));
	field(p, "summary", x->summary);
	field(p, "file", x->file);
	p->map_key(p, "line");
	if (x->line)
		p->integer(p, x->line);
	else
		p->null(p);
	field(p, "function", x->function);
	p->map_key(p, "patch");
	p->msgid(p, x->patch);
	field(p, "patch_subject", x->patch_subject);
	field(p, "link", x->link);
	field(p, "note", x->note);
	field(p, "reason", wn_reason_name(x->reason));
	p->end(p);
}

static int print_json(const wn_feedback *fb)
{
	wn_printer *p = wn_printer_new("json", stdout);

	if (!p)
		return 2;
	p->begin_list(p);
	for (size_t i = 0; i < wn_feedback_count(fb); i++)
		record(p, wn_feedback_at(fb, i));
	p->end(p);
	wn_printer_free(&p);
	return 0;
}

/* --- mail ------------------------------------------------------------------------- */

struct run {
	const struct fb_args *a;
	wn_feedback *fb;
	wn_forward **m;		/* one mail per bot with findings and an address */
	wn_bot *bot;		/* the bot of each */
	size_t n;
	int rc;
};

/* Record the findings of mail k as reported in it, review by review. */
static void sent(wn_cli *cli, wn_forward *f, size_t k, void *arg)
{
	struct run *r = arg;
	const wn_feedback *fb = r->fb;
	wn_error err = WN_ERROR_INIT;
	size_t n = wn_feedback_count(fb), *which = calloc(n ? n : 1, sizeof(*which));
	bool *done = calloc(n ? n : 1, sizeof(*done));
	time_t when = wn_forward_now();
	wn_status st;

	for (size_t i = 0; which && done && i < n; i++) {
		const wn_feedback_item *x = wn_feedback_at(fb, i);
		wn_item *it = NULL;
		size_t nw = 0;

		if (done[i] || x->bot != r->bot[k])
			continue;
		for (size_t j = i; j < n; j++)
			if (!done[j] && wn_feedback_at(fb, j)->bot == x->bot &&
			    !strcmp(wn_feedback_at(fb, j)->review, x->review)) {
				done[j] = true;
				which[nw++] = wn_feedback_at(fb, j)->finding;
			}
		st = wn_index_find(cli->idx, x->review, &it, &err);
		if (st == WN_OK) {
			wn_cli_overlay(cli, it);
			st = wn_store_reported(cli->store, it, which, nw, f->message_id, when, &err);
		}
		if (st != WN_OK) {
			wn_cli_say(cli, "warning: the digest was sent, but recording it failed: ", wn_error_msg(&err));
			r->rc = 2;
		}
		wn_item_free(&it);
	}
	if (!which || !done)
		r->rc = wn_cli_nomem(cli);
	free(which);
	free(done);
	wn_error_clear(&err);
}

/* A digest for each bot with findings; a bot without an address is
 * said so and left out. */
static int compose(wn_cli *cli, struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	r->m = calloc(WN_BOT_COUNT, sizeof(*r->m));
	r->bot = calloc(WN_BOT_COUNT, sizeof(*r->bot));
	if (!r->m || !r->bot)
		return wn_cli_nomem(cli);
	for (unsigned b = 0; !rc && b < WN_BOT_COUNT; b++) {
		char *to = NULL;
		bool any = false;

		for (size_t i = 0; i < wn_feedback_count(r->fb) && !any; i++)
			any = wn_feedback_at(r->fb, i)->bot == (wn_bot) b;
		if (!any)
			continue;
		if (!(to = wn_feedback_address(cli->idx, (wn_bot) b))) {
			fprintf(stderr, "%s: no address for the operators of %s: set it with 'notmuch config set "
				"winnow.feedback.%s ADDRESS'\n", cli->prog, wn_bot_label((wn_bot) b),
				wn_bot_name((wn_bot) b));
			r->rc = 1;
			continue;
		}
		if (wn_feedback_digest(r->fb, (wn_bot) b, wn_index_conf(cli->idx), to, &r->m[r->n], &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
		else
			r->bot[r->n++] = (wn_bot) b;
		free(to);
	}
	wn_error_clear(&err);
	return rc;
}

static int mail(wn_cli *cli, struct run *r)
{
	wn_error err = WN_ERROR_INIT;
	int rc = compose(cli, r);

	if (!rc && r->n && r->a->dry_run)
		rc = wn_digest_mbox(cli, r->m, r->n);
	else if (!rc && r->n) {
		rc = wn_digest_send(cli, r->m, r->n, sent, r);
		if (rc != 1) {
			int frc = wn_cli_flushed(cli, wn_store_flush(cli->store, r->a->timeout_ms, &err), &err);

			rc = rc ? rc : frc;
		}
	}
	wn_error_clear(&err);
	return rc ? rc : r->rc;
}

static int fb_run(wn_cli *cli, void *args)
{
	struct run r = { .a = args };
	wn_error err = WN_ERROR_INIT;
	char *query = wn_cli_join(r.a->nwords, r.a->words);
	int rc;

	if (!query || wn_feedback_new(cli->idx, &r.fb, &err) != WN_OK) {
		rc = wn_cli_nomem(cli);
		goto out;
	}
	rc = wn_walk(cli, query, add_one, r.fb, NULL);
	if (!rc && !wn_feedback_count(r.fb) && strcmp(r.a->format, "json"))
		fprintf(stderr, "%s: nothing to report: no false positive or regraded finding that was not "
			"reported before\n", cli->prog);
	else if (!rc)
		rc = strcmp(r.a->format, "json") ? mail(cli, &r) : print_json(r.fb);
	rc = wn_walk_output(cli, stdout, rc);
out:
	for (size_t k = 0; k < r.n; k++)
		wn_forward_free(&r.m[k]);
	free(r.m);
	free(r.bot);
	wn_feedback_free(&r.fb);
	free(query);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_feedback = {
	.args = "[QUERY...]",
	.about = "Tell each bot's operators which of its findings you judged false\n"
		 "positives or graded otherwise (mark --severity), and have not\n"
		 "reported yet: one digest mail per bot, to winnow.feedback.<bot> (set\n"
		 "it with 'notmuch config set winnow.feedback.sashiko ADDRESS'), with\n"
		 "each finding's summary, place, the bot's and your severity, the\n"
		 "patch, the review's link and your note.  The digests open in the\n"
		 "editor and are sent after you confirm, as forward does; each finding\n"
		 "sent is recorded (winnow.reported.<fp>) and never reported again.\n"
		 "--format=json prints one record per finding instead.",
	.opts = fb_opts,
	WN_CMD_ARGS(struct fb_args, .format = "mail", .timeout_ms = 5000),
	.check = fb_check,
	.run = fb_run,
};
