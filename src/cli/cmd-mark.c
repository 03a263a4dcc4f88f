/* winnow mark — give findings a verdict. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "printer.h"
#include "winnow/forward.h"
#include "winnow/ledger.h"

struct mark_args {
	const char *note;	/* NULL: leave the note as it is */
	int timeout_ms;
	const char *id;
	const char *which;	/* all, 1,3-4, or a fingerprint */
	wn_verdict verdict;
	bool has_verdict;	/* STATE given (it may be left out with --severity) */
	const char *severity;	/* --severity: NULL, or a name or "none" */
	wn_severity sev;
	const char *reason;	/* --reason: NULL, a WN_REASON_LIST name or "none" */
	wn_reason why;
	wn_crash crash;		/* STATE a syzbot report's word (WN_CRASH_LIST); NONE: not */
	const char *of;		/* --of: the report a duplicate duplicates */
	const char *by;		/* --by: the commit that fixed it */
	const char *title;	/* --title: its exact title, typed */
	const char *format;	/* --format: of the list duplicate without --of prints */
	unsigned long of_n;	/* --of N: the Nth report of that list; 0: a Message-ID */
};

/* How many reports duplicate without --of lists. */
#define DUP_LIST_MAX 10

/* clang-format off */
static const wn_opt mark_opts[] = {
	{ .name = "note", .arg = "TEXT", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, note),
	  .help = "attach a note to the finding ('' removes it)" },
	{ .name = "severity", .arg = WN_SEV_GRADES_PIPE "none", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, severity),
	  .help = "your own severity of the finding, beside the bot's\n(none removes it); STATE may then be left out" },
	{ .name = "reason", .arg = "NAME", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, reason),
	  .help = "why a false positive is wrong (see below; none removes it)" },
	{ .name = "of", .arg = "MESSAGE-ID|N", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, of),
	  .help = "with duplicate: the bug report this one duplicates, or the\nnumber of one in the list duplicate prints without --of" },
	{ .name = "by", .arg = "COMMIT", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, by),
	  .help = "with fixed: the commit of winnow.tree that fixed it\n(default: the one whose Reported-by or Closes trailer names the report)" },
	{ .name = "title", .arg = "TEXT", .parse = wn_opt_string,
	  .offset = offsetof(struct mark_args, title),
	  .help = "with fixed: the fixing commit's exact title, typed (no\nwinnow.tree needed); sent as it is" },
	WN_OPT_FORMAT(struct mark_args, format, "with duplicate without --of: the list of reports as text\n(default) or json"),
	WN_OPT_TIMEOUT(struct mark_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};
/* clang-format on */

/* --severity's word: one a maintainer grades by (WN_SEVERITY_LIST), or none. */
static int severity_check(wn_cli *cli, struct mark_args *a)
{
	if (!a->severity)
		return 0;
	a->sev = WN_SEV_NONE;
	if (!strcmp(a->severity, "none"))
		return 0;
	for (int s = 0; s < WN_SEV_COUNT; s++)
		if (wn_severity_graded((wn_severity) s) && !strcmp(a->severity, wn_severity_name((wn_severity) s))) {
			a->sev = (wn_severity) s;
			return 0;
		}
	return wn_cli_usage_error(cli, "unknown severity '%s' (" WN_SEV_GRADES_COMMA "none)", a->severity);
}

/* "misread-code, wrong-rule, ..., " for an error: every reason. */
#define REASON_NAME_(e, name, key, word, label) name ", "
#define REASON_NAMES WN_REASON_LIST(REASON_NAME_)

/* A state by its name, its short word or the interface's letter
 * (wn_verdict_from_word). */
static bool state_from_word(const char *w, wn_verdict *out)
{
	return wn_verdict_from_word(w, out) == WN_OK;
}

/* "untriaged or u, valid or v, ...": the states for an error. */
static char *states_text(void)
{
	wn_buf b = WN_BUF_INIT;

	for (int v = 0; v < WN_VERDICT_COUNT; v++) {
		const char *w = wn_verdict_word((wn_verdict) v);

		wn_buf_printf(&b, "%s%s or %s", v ? ", " : "", wn_verdict_name((wn_verdict) v), w);
		if (w[1])
			wn_buf_printf(&b, " or %c", w[0]);
	}
	return wn_buf_steal(&b);
}

/* "1,3-4": a list of numbers and ranges from 1. */
static bool is_list(const char *s)
{
	if (!isdigit((unsigned char) *s))
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char) *s) && *s != ',' && *s != '-')
			return false;
	return true;
}

/* Every number of a list is a count from 1, none past any sane one
 * (reported as too large rather than wrapped). */
static int check_list(wn_cli *cli, const char *which)
{
	const char *p = which;

	while (*p) {
		size_t len = strspn(p, "0123456789");
		char num[32];
		unsigned long n;

		snprintf(num, sizeof(num), "%.*s", (int) (len < sizeof(num) - 1 ? len : sizeof(num) - 1), p);
		if (len >= sizeof(num) - 1 || wn_cli_count(num, &n) == -2)
			return wn_cli_usage_error(cli, "FINDING '%.*s' is far too large", (int) len, p);
		if (!len || wn_cli_count(num, &n) < 0)
			return wn_cli_usage_error(cli, "FINDING is a number from 1, a list (1,3-4), a "
						  "fingerprint or 'all', not '%s'", which);
		p += len;
		if (*p == ',' || *p == '-')
			p++;
	}
	return 0;
}

static int mark_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct mark_args *a = args;

	if (argc != 3 && !(argc == 2 && a->severity))
		return wn_cli_usage_error(cli, "wants MESSAGE-ID FINDING STATE");
	if (severity_check(cli, a))
		return 1;
	a->id = argv[0];
	a->which = argv[1];
	a->has_verdict = argc == 3;
	if (a->note && !a->has_verdict)
		return wn_cli_usage_error(cli, "--note goes with a STATE");
	if (a->reason && !a->has_verdict)
		return wn_cli_usage_error(cli, "--reason goes with a STATE");
	a->why = WN_REASON_NONE;
	if (a->reason && strcmp(a->reason, "none") && wn_reason_from_name(a->reason, &a->why) != WN_OK)
		return wn_cli_usage_error(cli, "unknown reason '%s' (" REASON_NAMES "or none)", a->reason);
	a->crash = WN_CRASH_NONE;
	if (a->has_verdict && wn_crash_from_word(argv[2], &a->crash) == WN_OK)
		a->verdict = wn_crash_verdict(a->crash);
	else if (a->has_verdict && !state_from_word(argv[2], &a->verdict)) {
		char *states = states_text();
		int rc = states ? wn_cli_usage_error(cli, "unknown state '%s' (%s)", argv[2], states)
				: wn_cli_nomem(cli);

		free(states);
		return rc;
	}
	if (a->of && a->crash != WN_CRASH_DUPLICATE)
		return wn_cli_usage_error(cli, "--of goes with the state duplicate (a bug report's)");
	if (a->by && a->crash != WN_CRASH_FIXED)
		return wn_cli_usage_error(cli, "--by goes with the state fixed (a bug report's)");
	if (a->title && a->crash != WN_CRASH_FIXED)
		return wn_cli_usage_error(cli,
					  "--title goes with the state fixed (a bug report's)");
	if (a->title && a->by)
		return wn_cli_usage_error(cli, "takes --by COMMIT or --title TEXT, not both");
	/* syzbot matches the title byte for byte: one it could not get
	 * unchanged is refused here, not sent mended. */
	if (a->title && !wn_fix_title_ok(a->title))
		return wn_cli_usage_error(
			cli, "--title: a title with a line break, a control character, a "
			     "blank at an end or bytes that are not UTF-8 cannot be sent exactly");
	if (a->title && strlen(a->title) + 5 > WN_CLOSED_MAX)
		return wn_cli_usage_error(cli, "--title: longer than %d bytes, too long to keep",
					  WN_CLOSED_MAX - 5);
	if (a->format && (a->crash != WN_CRASH_DUPLICATE || a->of))
		return wn_cli_usage_error(
			cli, "--format goes with duplicate without --of (the list of reports)");
	if (a->format && wn_cli_check_format(cli, a->format))
		return 1;
	/* A number is a place in the list, never a Message-ID: none is
	 * digits alone, and one that were is given as <ID>. */
	a->of_n = 0;
	if (a->of && *a->of >= '0' && *a->of <= '9' &&
	    strspn(a->of, "0123456789") == strlen(a->of) && wn_cli_count(a->of, &a->of_n) < 0)
		return wn_cli_usage_error(cli, "--of %s: the list of reports counts from 1", a->of);
	/* A reason says why a false positive is wrong: on another verdict
	 * it would be counted and sent to the bot's operators as one.
	 * none, which removes a reason, goes with any. */
	if (a->why != WN_REASON_NONE && a->verdict != WN_VERDICT_FALSE_POSITIVE)
		return wn_cli_usage_error(cli, "--reason %s goes with false-positive (fp), not %s",
					  a->reason, wn_verdict_name(a->verdict));
	if (strcmp(a->which, "all") && !is_list(a->which) &&
	    strspn(a->which, "0123456789abcdef") != strlen(a->which))
		return wn_cli_usage_error(cli, "FINDING is a number from 1, a list (1,3-4), a "
					  "fingerprint or 'all', not '%s'", a->which);
	return is_list(a->which) ? check_list(cli, a->which) : 0;
}

/* Fill pick[0..n) from the list or fingerprint which; false (with a
 * message) when it names no finding of it. */
static bool pick_findings(wn_cli *cli, const wn_item *it, const char *which, bool *pick)
{
	size_t n = it->review->nfindings;
	const char *p = which;

	if (!is_list(which)) {
		/* A fingerprint, whole or a prefix of at least 4 digits as
		 * git takes a commit's. */
		size_t len = strlen(which), hits = 0;

		for (size_t i = 0; len >= 4 && i < n; i++)
			if (!strncmp(it->review->findings[i].fingerprint, which, len)) {
				pick[i] = true;
				hits++;
			}
		if (hits == 1)
			return true;
		wn_cli_usage_error(cli, hits ? "fingerprint '%s' is ambiguous"
				   : "no finding with fingerprint '%s' in this review", which);
		return false;
	}
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (lo == 0 || hi < lo || hi > n || (*end && *end != ',')) {
			wn_cli_usage_error(cli, "FINDING '%s': this review has findings 1 to %zu", which, n);
			return false;
		}
		for (unsigned long i = lo; i <= hi; i++)
			pick[i - 1] = true;
		p = *end ? end + 1 : end;
	}
	return true;
}

/* Give the findings named (all, a list, a fingerprint) the verdict, the
 * severity, or both: one action, one journal line per kind, one undo,
 * whatever the number of findings. */
static int mark_picked(wn_cli *cli, const struct mark_args *a, wn_item *it, const char *closed,
		       wn_error *err)
{
	wn_mark_spec spec = { .verdict = a->has_verdict, .v = a->verdict, .note = a->note,
			      .severity = a->severity != NULL, .sev = a->sev,
			      .reason = a->reason != NULL, .why = a->why, .closed = closed };
	size_t n = it->review ? it->review->nfindings : 0, changed = 0;
	bool *pick = calloc(n ? n : 1, sizeof(*pick));
	int rc = 0;

	if (!pick)
		return wn_cli_nomem(cli);
	if (!strcmp(a->which, "all"))
		for (size_t i = 0; i < n; i++)
			pick[i] = true;
	else if (n && !pick_findings(cli, it, a->which, pick))
		rc = 1;
	if (!rc && wn_store_mark_picked(cli->store, it, pick, &spec, &changed, err) != WN_OK)
		rc = wn_cli_fail(cli, err);
	/* Nothing journaled: no undo step, and the user hears why. */
	if (!rc && !changed)
		fprintf(stderr, "%s: nothing to change: the findings named hold that %s already; "
			"nothing written\n", cli->prog,
			spec.verdict && spec.severity ? "verdict and severity"
			: spec.verdict ? "verdict" : "severity");
	free(pick);
	return rc;
}

/* The reports it may duplicate, best title match first, numbered as
 * --of takes them. */
static void print_candidates(wn_printer *p, const wn_syz_candidate *v, size_t n)
{
	p->begin_list(p);
	for (size_t i = 0; i < n; i++) {
		char date[16] = "(no date)";
		struct tm tm;

		if (v[i].date > 0 && gmtime_r(&v[i].date, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		p->begin_map(p);
		p->map_key(p, "n");
		p->label(p, "");
		p->integer(p, (long long) i + 1);
		wn_pr_text(p, ". %3u%% ", (v[i].match + 5) / 10);
		p->map_key(p, "match");
		p->real(p, v[i].match / 1000.0);
		p->map_key(p, "subject");
		p->label(p, "");
		p->string(p, v[i].subject);
		p->separator(p);
		p->map_key(p, "id");
		p->label(p, "      <");
		p->msgid(p, v[i].id);
		wn_pr_text(p, ">  %s", date);
		wn_pr_key_int(p, "date", (long long) v[i].date);
		p->separator(p);
		p->end(p);
	}
	p->end(p);
}

/* duplicate without --of: the list to choose from, and exit 1. */
static int dup_list(wn_cli *cli, const struct mark_args *a, const wn_item *it, wn_error *err)
{
	wn_syz_candidate *v = NULL;
	wn_printer *p;
	size_t n = 0;

	if (wn_forward_syz_candidates(cli->idx, it, DUP_LIST_MAX, &v, &n, err) != WN_OK)
		return wn_cli_fail(cli, err);
	if (!(p = wn_printer_new(a->format ? a->format : "text", stdout))) {
		wn_syz_candidates_free(&v, n);
		return wn_cli_nomem(cli);
	}
	print_candidates(p, v, n);
	wn_printer_free(&p);
	wn_syz_candidates_free(&v, n);
	if (!n)
		return wn_cli_usage_error(
			cli, "duplicate wants --of MESSAGE-ID, and the index holds no other "
			     "report of that bot");
	return wn_cli_usage_error(cli,
				  "duplicate wants --of: the number of a report above (best title "
				  "match first) or a Message-ID");
}

/* --of N: the Nth report of the list, as its Message-ID (malloc'd). */
static int dup_nth(wn_cli *cli, const struct mark_args *a, const wn_item *it, char **id,
		   wn_error *err)
{
	wn_syz_candidate *v = NULL;
	size_t n = 0;
	int rc = 0;

	*id = NULL;
	if (wn_forward_syz_candidates(cli->idx, it, a->of_n, &v, &n, err) != WN_OK)
		return wn_cli_fail(cli, err);
	if (n < a->of_n)
		rc = wn_cli_usage_error(
			cli,
			"--of %lu: the list of reports holds %zu (see 'winnow mark ID "
			"FINDING duplicate')",
			a->of_n, n);
	else if (!(*id = strdup(v[a->of_n - 1].id)))
		rc = wn_cli_nomem(cli);
	wn_syz_candidates_free(&v, n);
	return rc;
}

/* The duplicated report of --of: a syzbot report of the index, not it. */
static int dup_of(wn_cli *cli, const struct mark_args *a, const wn_item *it, wn_buf *closed, wn_error *err)
{
	wn_item *other = NULL;
	char *nth = NULL;
	int rc = 0;

	if (!a->of)
		return dup_list(cli, a, it, err);
	if (a->of_n && (rc = dup_nth(cli, a, it, &nth, err)))
		return rc;
	if (wn_index_find(cli->idx, nth ? nth : a->of, &other, err) != WN_OK)
		rc = wn_cli_fail(cli, err);
	else if (!wn_forward_is_syz(other))
		rc = wn_cli_usage_error(cli, "--of <%s> is no bug report of that bot", other->id);
	else if (!strcmp(other->id, it->id))
		rc = wn_cli_usage_error(cli, "a report cannot duplicate itself");
	else if (wn_buf_printf(closed, "%s %s", wn_crash_kind(WN_CRASH_DUPLICATE), other->id) != WN_OK)
		rc = wn_cli_nomem(cli);
	else if (!wn_closed_ok(wn_buf_str(closed)))
		rc = wn_cli_usage_error(cli, "the Message-ID <%s> is too long or holds a blank: it cannot be kept",
					other->id);
	wn_item_free(&other);
	free(nth);
	return rc;
}

/* The commit of --by (or the one that names the report) in winnow.tree. */
static int fixed_by(wn_cli *cli, const struct mark_args *a, const wn_item *it, wn_buf *closed, wn_error *err)
{
	const wn_conf *c = wn_index_conf(cli->idx);
	char *hash = NULL, *title = NULL;
	wn_status st;
	int rc = 0;

	if (a->title && wn_buf_printf(closed, "%s %c%s", wn_crash_kind(WN_CRASH_FIXED),
				      WN_CLOSED_TITLE, a->title) != WN_OK)
		return wn_cli_nomem(cli);
	if (a->title)
		return 0;
	if (a->by && (!c->tree || !*c->tree))
		return wn_cli_usage_error(cli, "--by %s: winnow.tree is not set, there is no tree to find it in", a->by);
	st = a->by ? wn_ledger_commit(c->tree, a->by, &hash, &title, err) : wn_forward_syz_fix(cli->idx, it, &hash, err);
	/* A title that could not be sent is the reply's to refuse. */
	if (st == WN_PARSE && hash)
		st = WN_OK;
	if (st != WN_OK) {
		free(hash);
		hash = NULL;
		rc = wn_cli_fail(cli, err);
	} else if (wn_buf_printf(closed, "%s %s", wn_crash_kind(WN_CRASH_FIXED), hash) != WN_OK)
		rc = wn_cli_nomem(cli);
	free(hash);
	free(title);
	return rc;
}

/* A syzbot report's state word: only on a syzbot report; what it names
 * into closed ("" for invalid and real bug: no duplicate, no fix). */
static int crash_closed(wn_cli *cli, const struct mark_args *a, const wn_item *it, wn_buf *closed, wn_error *err)
{
	if (!wn_forward_is_syz(it))
		return wn_cli_usage_error(cli, "'%s' is a state of a bug report the bot tracks by replies; <%s> is a %s %s: use "
					  "valid, false-positive or pre-existing", wn_crash_word(a->crash), it->id,
					  wn_bot_label(it->bot), it->review ? wn_kind_name(it->review->kind) : "mail");
	if (a->crash == WN_CRASH_DUPLICATE)
		return dup_of(cli, a, it, closed, err);
	if (a->crash == WN_CRASH_FIXED)
		return fixed_by(cli, a, it, closed, err);
	return wn_buf_puts(closed, "") == WN_OK ? 0 : wn_cli_nomem(cli);
}

static int mark_run(wn_cli *cli, void *args)
{
	const struct mark_args *a = args;
	wn_error err = WN_ERROR_INIT;
	wn_buf closed = WN_BUF_INIT;
	wn_item *it = NULL;
	int rc;

	if (wn_index_find(cli->idx, a->id, &it, &err) != WN_OK) {
		rc = wn_cli_fail(cli, &err);
	} else {
		wn_cli_overlay(cli, it);
		rc = a->crash != WN_CRASH_NONE ? crash_closed(cli, a, it, &closed, &err) : 0;
		if (!rc)
			rc = mark_picked(cli, a, it, a->crash != WN_CRASH_NONE ? wn_buf_str(&closed) : NULL, &err);
		if (!rc)
			rc = wn_cli_flushed(cli, wn_store_flush(cli->store, a->timeout_ms, &err), &err);
	}
	wn_item_free(&it);
	wn_buf_free(&closed);
	wn_error_clear(&err);
	return rc;
}

/* clang-format off */
const wn_cmd wn_cmd_mark = {
	.args = "MESSAGE-ID FINDING STATE",
	.about = "Give findings of a review a verdict.  FINDING is the 1-based index\n"
		 "shown by 'winnow show', a list of them (1,3-4), a finding's\n"
		 "fingerprint (or its first 4 or more digits), or 'all'.  STATE is one\n"
		 "of these, its short word, or that word's first letter (the key\n"
		 "the interface marks it with):" WN_VERDICT_WORD_LINES "\n"
		 "--severity records your own severity beside the bot's (with or\n"
		 "without a STATE); it is undone like a verdict and reported to the\n"
		 "bot's operators by 'winnow feedback'.  --reason says why a false\n"
		 "positive is wrong (with STATE false-positive only), one of:" WN_REASON_LINES "\n"
		 "It is kept beside the verdict, shared, exported and counted by\n"
		 "'winnow stats --by=reason'.  A bug report of a bot that reads\n"
		 "replies (see BOTS in winnow(1); not a review of a patch) takes its own\n"
		 "words instead, counted as the verdict after them, and 'winnow\n"
		 "forward' then tells the bot (#syz invalid, dup:, fix:, undup):" WN_CRASH_WORD_LINES "\n"
		 "duplicate wants --of MESSAGE-ID (another report of that bot in the\n"
		 "index); without --of it lists the index's other reports, the best\n"
		 "title match first (ties: the older report first), and exits 1:\n"
		 "--of N then takes the Nth of that list.  fixed takes --by COMMIT (of\n"
		 "winnow.tree), else the commit whose Reported-by or Closes trailer\n"
		 "names the report, or --title TEXT, the commit's exact title typed\n"
		 "(one line, no blank at its ends).  One command is one change\n"
		 "for 'winnow undo', however many findings it names; findings that\n"
		 "hold the STATE (and severity) already are left out, and when none\n"
		 "is left nothing is written.\n"
		 "\n"
		 "The verdict is written to the journal first; then winnow waits up to\n"
		 "--timeout seconds (default 5) for the notmuch write lock.  If another\n"
		 "process holds it longer, winnow exits with status 2 and the verdict\n"
		 "stays in the journal; the next winnow command writes it.  Once the\n"
		 "lock is winnow's, the write takes the time its size needs.",
	.opts = mark_opts,
	WN_CMD_ARGS(struct mark_args, .timeout_ms = 5000),
	.check = mark_check,
	.run = mark_run,
};
/* clang-format on */
