/* winnow carry — give untriaged findings the verdict of the most similar
 * finding judged before (memory.h), in bulk: v2 and v3 of a series
 * take what was decided on v1.  Every change is printed before any is
 * made, then made, or (with --dry-run) not.
 *
 * One pass finds the suggestions (each review is read and freed before
 * the next; the memory keeps only the judged findings it read); then
 * the reviews that take one are read again and marked, one journal
 * action per verdict and note. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "printer.h"
#include "walk.h"
#include "winnow/memory.h"

struct carry_args {
	const char *format;
	bool dry_run;
	int timeout_ms;
	int nwords;
	char **words;
};

static const wn_opt carry_opts[] = {
	{ .name = "dry-run", .parse = wn_opt_flag, .offset = offsetof(struct carry_args, dry_run),
	  .help = "print what would be carried; mark nothing" },
	WN_OPT_FORMAT(struct carry_args, format, "output format (default text)"),
	WN_OPT_TIMEOUT(struct carry_args, timeout_ms, "wait this long for the write lock (default 5)"),
	{ 0 },
};

/* One change: finding of review takes seen's verdict and note. */
struct change {
	char *review;
	size_t finding;		/* 1-based */
	char *summary;
	wn_seen seen;
};

struct carry {
	const struct carry_args *a;
	wn_memory *mem;
	struct change *v;
	size_t n;
	int rc;
};

static int carry_check(wn_cli *cli, void *args, int argc, char **argv)
{
	struct carry_args *a = args;

	a->nwords = argc;
	a->words = argv;
	return wn_cli_check_format(cli, a->format);
}

static bool add_change(struct carry *c, const wn_item *it, size_t i, wn_seen *seen)
{
	struct change *nv = realloc(c->v, (c->n + 1) * sizeof(*nv)), *ch;

	if (!nv)
		return false;
	c->v = nv;
	ch = &nv[c->n];
	ch->review = strdup(it->id);
	ch->finding = i + 1;
	ch->summary = strdup(it->review->findings[i].summary);
	ch->seen = *seen;
	if (!ch->review || !ch->summary) {
		free(ch->review);
		free(ch->summary);
		return false;
	}
	c->n++;
	return true;
}

/* The walk: every untriaged finding of a review, looked up. */
static int suggest(wn_cli *cli, wn_item *it, void *arg)
{
	struct carry *c = arg;
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	for (size_t i = 0; !it->load_error && i < it->review->nfindings && !rc; i++) {
		wn_seen seen;
		wn_status st;

		if (it->verdicts[i] != WN_VERDICT_UNTRIAGED)
			continue;
		st = wn_memory_lookup(c->mem, it, i, &seen, &err);
		if (st == WN_OK && !add_change(c, it, i, &seen)) {
			wn_seen_clear(&seen);
			rc = wn_cli_nomem(cli);
		} else if (st != WN_OK && st != WN_NOT_FOUND) {
			rc = wn_cli_fail(cli, &err);
		}
	}
	wn_error_clear(&err);
	return rc;
}

static void print_change(wn_printer *p, const struct change *ch)
{
	char date[16] = "";
	struct tm tm;

	if (ch->seen.date > 0 && localtime_r(&ch->seen.date, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	p->begin_map(p);
	p->map_key(p, "review");
	p->label(p, "");
	p->msgid(p, ch->review);
	p->map_key(p, "finding");
	p->label(p, " #");
	p->integer(p, (long long) ch->finding);
	p->map_key(p, "verdict");
	p->label(p, ": ");
	p->string(p, wn_verdict_name(ch->seen.verdict));
	/* Sure ones are applied; a suggestion is only shown (winnow(1),
	 * SIMILAR FINDINGS). */
	p->map_key(p, "sure");
	p->boolean(p, ch->seen.sure);
	if (!ch->seen.sure)
		wn_pr_text(p, " (suggestion, not applied)");
	p->map_key(p, "summary");
	p->label(p, "  ");
	p->string(p, ch->summary);
	p->separator(p);
	p->map_key(p, "from");
	p->begin_map(p);
	p->map_key(p, "review");
	p->label(p, "    as ");
	p->msgid(p, ch->seen.review);
	p->map_key(p, "finding");
	p->label(p, " #");
	p->integer(p, (long long) ch->seen.finding);
	p->map_key(p, "bot");
	p->string(p, wn_bot_name(ch->seen.bot));
	p->map_key(p, "patch_subject");
	p->label(p, " on ");
	p->string(p, ch->seen.patch_subject);
	p->map_key(p, "date");
	p->label(p, ", ");
	p->string(p, date);
	p->map_key(p, "similarity");
	p->label(p, " (similarity ");
	p->real(p, ch->seen.score);
	/* Which signals matched, so that a carry on reworded text can be
	 * checked at a glance. */
	p->map_key(p, "why");
	p->label(p, ": ");
	p->string(p, ch->seen.why);
	wn_pr_text(p, ")");
	p->separator(p);
	p->map_key(p, "note");
	if (ch->seen.note)
		p->label(p, "    note: ");
	p->string(p, ch->seen.note);
	if (ch->seen.note)
		p->separator(p);
	/* Only when given, so carries without reasons print as they did. */
	if (wn_reason_name(ch->seen.reason)) {
		p->map_key(p, "reason");
		p->label(p, "    reason: ");
		p->string(p, wn_reason_name(ch->seen.reason));
		p->separator(p);
	}
	p->end(p);
	/* The close second the maintainer picks between. */
	if (ch->seen.alt_review) {
		p->map_key(p, "or");
		p->begin_map(p);
		p->map_key(p, "review");
		p->label(p, "    or ");
		p->msgid(p, ch->seen.alt_review);
		p->map_key(p, "finding");
		p->label(p, " #");
		p->integer(p, (long long) ch->seen.alt_finding);
		p->map_key(p, "verdict");
		p->label(p, ": ");
		p->string(p, wn_verdict_name(ch->seen.alt_verdict));
		p->map_key(p, "summary");
		p->label(p, "  ");
		p->string(p, ch->seen.alt_summary);
		p->separator(p);
		p->end(p);
	}
	p->end(p);
}

/* --- marking ------------------------------------------------------------------ */

/* The targets of changes [from, to) that share change from's verdict
 * and note, marked as one action; done[] says which were taken. */
static int mark_group(wn_cli *cli, struct carry *c, size_t from, bool *done, wn_item **items)
{
	const wn_seen *s = &c->v[from].seen;
	wn_mark_target *t = calloc(c->n, sizeof(*t));
	wn_error err = WN_ERROR_INIT;
	size_t nt = 0;
	int rc = 0;

	if (!t)
		return wn_cli_nomem(cli);
	for (size_t k = from; k < c->n; k++) {
		const wn_seen *o = &c->v[k].seen;

		if (done[k] || !items[k] || !o->sure || o->verdict != s->verdict || o->reason != s->reason ||
		    (o->note ? !s->note || strcmp(o->note, s->note) : s->note != NULL))
			continue;
		done[k] = true;
		t[nt++] = (wn_mark_target) { items[k], c->v[k].finding };
	}
	/* The reason goes with the verdict it explains. */
	if (nt && (s->reason ? wn_store_mark_why(cli->store, t, nt, s->verdict, s->note, s->reason, &err)
		   : wn_store_mark_many(cli->store, t, nt, s->verdict, s->note, &err)) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	free(t);
	wn_error_clear(&err);
	return rc;
}

/* Read each review that takes a verdict again (one item per review,
 * shared by its changes). */
static int read_targets(wn_cli *cli, struct carry *c, wn_item **items)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	for (size_t k = 0; k < c->n && !rc; k++) {
		for (size_t j = 0; j < k && !items[k]; j++)
			if (strcmp(c->v[j].review, c->v[k].review) == 0)
				items[k] = items[j];
		if (items[k])
			continue;
		if (wn_index_find(cli->idx, c->v[k].review, &items[k], &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
		else
			wn_cli_overlay(cli, items[k]);
	}
	wn_error_clear(&err);
	return rc;
}

static int apply(wn_cli *cli, struct carry *c)
{
	wn_item **items = calloc(c->n, sizeof(*items));
	bool *done = calloc(c->n, sizeof(*done));
	wn_error err = WN_ERROR_INIT;
	int rc = items && done ? read_targets(cli, c, items) : wn_cli_nomem(cli);

	for (size_t k = 0; k < c->n && !rc; k++)
		if (!done[k])
			rc = mark_group(cli, c, k, done, items);
	if (!rc)
		rc = wn_cli_flushed(cli, wn_store_flush(cli->store, c->a->timeout_ms, &err), &err);
	for (size_t k = 0; items && k < c->n; k++) {
		bool shared = false;

		for (size_t j = k + 1; j < c->n && !shared; j++)
			shared = items[j] == items[k];
		if (!shared)
			wn_item_free(&items[k]);
	}
	free(items);
	free(done);
	wn_error_clear(&err);
	return rc;
}

static void carry_free(struct carry *c)
{
	for (size_t k = 0; k < c->n; k++) {
		free(c->v[k].review);
		free(c->v[k].summary);
		wn_seen_clear(&c->v[k].seen);
	}
	free(c->v);
	wn_memory_free(&c->mem);
}

static int carry_run(wn_cli *cli, void *args)
{
	struct carry c = { .a = args };
	wn_error err = WN_ERROR_INIT;
	char *query = wn_cli_join(c.a->nwords, c.a->words);
	wn_printer *p = query ? wn_printer_new(c.a->format, stdout) : NULL;
	int rc;

	if (!p || wn_memory_new(cli->idx, cli->store, &c.mem, &err) != WN_OK) {
		rc = wn_cli_nomem(cli);
		goto out;
	}
	rc = wn_walk(cli, query, suggest, &c, NULL);
	if (rc)
		goto out;
	/* Every change is printed, and out, before the first is marked:
	 * a run that stops half way (the write lock held, a full disk)
	 * has still shown each verdict it journaled, and nothing is ever
	 * marked that was not shown. */
	p->begin_list(p);
	for (size_t k = 0; k < c.n; k++)
		print_change(p, &c.v[k]);
	p->end(p);
	rc = wn_walk_output(cli, stdout, 0);
	if (!rc && !c.a->dry_run)
		rc = apply(cli, &c);
	if (!rc && p->is_text) {
		size_t sure = 0;

		for (size_t k = 0; k < c.n; k++)
			sure += c.v[k].seen.sure;
		fprintf(stderr, "%s: %s %zu verdict%s", cli->prog,
			c.a->dry_run ? "would carry" : "carried", sure, sure == 1 ? "" : "s");
		if (c.n > sure)
			fprintf(stderr, "; %zu suggestion%s not applied", c.n - sure,
				c.n - sure == 1 ? "" : "s");
		fputc('\n', stderr);
	}
out:
	wn_printer_free(&p);
	carry_free(&c);
	free(query);
	wn_error_clear(&err);
	return rc;
}

const wn_cmd wn_cmd_carry = {
	.args = "[QUERY...]",
	.about = "Give every untriaged finding of the reviews matching winnow.query (and\n"
		 "QUERY) the verdict and note of the most similar finding judged before\n"
		 "(see SIMILAR FINDINGS in winnow(1)): what v1 of a series was given,\n"
		 "v2 and v3 take.  Prints each change, all before marking any, with the\n"
		 "finding it comes from and how similar they are; --dry-run prints them\n"
		 "and marks nothing.  A finding of a bot whose titles name bugs (see\n"
		 "BOTS in winnow(1)) takes only the verdict of the identical title.\n"
		 "Changes with the same verdict and note are one action of the journal:\n"
		 "'winnow undo' reverts them together.",
	.opts = carry_opts,
	WN_CMD_ARGS(struct carry_args, .format = "text", .timeout_ms = 5000),
	.check = carry_check,
	.run = carry_run,
};
