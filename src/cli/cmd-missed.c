/* winnow missed — record a bug the bot did not report, so
 * statistics count both of a bot's errors, not only its false positives. */
#include "autoconfig.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"
#include "printer.h"
#include "winnow/subject.h"

struct missed_args {
	const char *note;
	const char *format;
	int timeout_ms;
	const char *id;
};

static const wn_opt missed_opts[] = {
	{ .name = "note", .arg = "TEXT", .parse = wn_opt_string,
	  .offset = offsetof(struct missed_args, note),
	  .help = "what the bot missed (required; one line)" },
	WN_OPT_FORMAT(struct missed_args, format, "what was recorded, as text (default) or json"),
	WN_OPT_TIMEOUT(struct missed_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};

static int missed_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct missed_args *a = args;

	if (argc != 1)
		return wn_cli_usage_error(cli, "wants MESSAGE-ID");
	if (!a->note || !*a->note)
		return wn_cli_usage_error(cli, "wants --note TEXT saying what the bot missed");
	a->id = argv[0];
	return wn_cli_check_format(cli, a->format);
}

static void print_missed(wn_printer *p, const wn_item *it)
{
	p->begin_map(p);
	p->label(p, "missed by ");
	p->map_key(p, "bot");
	p->string(p, wn_bot_name(it->bot));
	p->label(p, " on ");
	p->map_key(p, "review");
	p->msgid(p, it->id);
	p->separator(p);
	p->map_key(p, "misses");
	p->label(p, "misses recorded on it: ");
	p->integer(p, (long long) it->nmisses);
	p->separator(p);
	p->end(p);
}

/* A miss is recorded on what the list shows and stats counts: a bot's
 * review or report the query matches (its summaries and follow-ups too
 * with winnow.show_summaries).  Anything else would hold a record no
 * command shows: refuse it (1, as an id not in the index), saying what
 * the mail is instead.  0 when it is a review. */
static int refuse_non_review(wn_cli *cli, const wn_item *it)
{
	char *id = wn_msgid_escape(it->id), *msg = NULL;
	const char *who = it->from && *it->from ? it->from : "an unknown sender";
	int n;

	if (wn_index_is_review(cli->idx, it->id)) {
		if (wn_kind_queued(it->review->kind) || wn_index_conf(cli->idx)->show_summaries) {
			free(id);
			return 0;
		}
		n = asprintf(&msg, "<%s> is a %s by %s, not a review (winnow.show_summaries lists "
			     "those)", id ? id : it->id, wn_kind_name(it->review->kind),
			     wn_bot_label(it->bot));
	} else if (wn_subject_is_patch(it->subject)) {
		n = asprintf(&msg, "<%s> is a patch by %s, not a bot review (winnow show <%s> lists "
			     "its reviews)", id ? id : it->id, who, id ? id : it->id);
	} else {
		n = asprintf(&msg, "<%s> is a mail by %s, not a bot review", id ? id : it->id, who);
	}
	free(id);
	if (n < 0)
		return wn_cli_nomem(cli);
	wn_cli_say(cli, "", msg);
	free(msg);
	return 1;
}

static int missed_run(wn_cli *cli, void *args)
{
	const struct missed_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_item *it = NULL;
	wn_printer *p = NULL;
	int rc;

	if (wn_index_find(cli->idx, a->id, &it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else if ((rc = refuse_non_review(cli, it)) == 0) {
		wn_cli_overlay(cli, it);
		if (wn_store_missed(cli->store, it, a->note, time(NULL), &err) != WN_OK) {
			rc = wn_cli_fail(cli, &err);
		} else if (!(p = wn_printer_new(a->format, stdout))) {
			rc = wn_cli_nomem(cli);
		} else {
			print_missed(p, it);
			wn_printer_free(&p);
			rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
		}
	}
	wn_item_free(&it);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_missed = {
	.args = "MESSAGE-ID --note TEXT",
	.about = "Record on a review that its bot missed a bug you found: a false\n"
		 "negative, counted by 'winnow stats' beside the bot's false positives\n"
		 "and shown by 'winnow show' and 'winnow report'.  The note is one line\n"
		 "of at most 160 bytes.  A review may hold several; each is its own\n"
		 "record (winnow.missed.<id>) and is never undone.  MESSAGE-ID is a\n"
		 "review or report of a bot, as the list shows them; a patch, a\n"
		 "person's mail or a hidden summary is refused (exit status 1).\n"
		 "\n"
		 "Written to the journal first, as a verdict is; then winnow waits up\n"
		 "to --timeout seconds (default 5) for the notmuch write lock and exits\n"
		 "with status 2 if another process holds it longer (the record stays in\n"
		 "the journal; the next winnow command writes it).",
	.opts = missed_opts,
	WN_CMD_ARGS(struct missed_args, .format = "text", .timeout_ms = 5000),
	.check = missed_check,
	.run = missed_run,
};
