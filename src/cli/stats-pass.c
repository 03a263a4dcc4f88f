/* winnow — the statistics pass shared by stats and report (stats-pass.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "stats-pass.h"
#include "stats-text.h"
#include "walk.h"
#include "winnow/facts.h"
#include "winnow/series.h"

/* The pass: the groupings, what the series says of each finding (and
 * the facts kept from earlier runs), and the dates seen. */
struct pass {
	wn_stats **s;
	size_t n;
	wn_series *series;
	wn_facts *kept;
	wn_stats_seen *seen;
};

/* Whether the author answered it and each finding's later patch,
 * derived from the index; false when out of memory. */
static bool derive(wn_cli *cli, struct pass *ps, wn_item *it, bool *replied, unsigned char *flags,
		   size_t n)
{
	wn_later later;
	wn_status st = WN_OK;

	*replied = false;
	if (it->loaded && !it->load_error)
		st = wn_index_author_replied(cli->idx, it, replied, NULL);
	for (size_t i = 0; i < n && st != WN_NOMEM; i++) {
		flags[i] = 0;
		if ((st = wn_series_later(ps->series, it, i, &later, NULL)) == WN_OK)
			flags[i] |= WN_FACT_LATER;
		wn_later_clear(&later);
	}
	return st != WN_NOMEM;
}

/* "Likely fixed in a later version" for the findings valid now that
 * were not asked about yet: only a valid finding is asked (the
 * journal can make one valid between two runs at the same revision).
 * *asked: any was; false when out of memory. */
static bool derive_fixed(struct pass *ps, wn_item *it, unsigned char *flags, size_t n, bool *asked)
{
	wn_fixed fixed;
	wn_status st;

	*asked = false;
	for (size_t i = 0; i < n; i++) {
		if (!it->verdicts || it->verdicts[i] != WN_VERDICT_VALID ||
		    (flags[i] & WN_FACT_FIXED_KNOWN))
			continue;
		st = wn_series_fixed(ps->series, it, i, &fixed, NULL);
		wn_fixed_clear(&fixed);
		if (st == WN_NOMEM)
			return false;
		flags[i] |= WN_FACT_FIXED_KNOWN | (st == WN_OK ? WN_FACT_FIXED : 0);
		*asked = true;
	}
	return true;
}

/* The misses recorded on it, into seen; false when out of memory. */
static bool keep_misses(wn_stats_seen *seen, const wn_item *it)
{
	wn_stats_miss *nv;

	if (!it->nmisses)
		return true;
	nv = realloc(seen->misses, (seen->nmisses + it->nmisses) * sizeof(*nv));
	if (!nv)
		return false;
	seen->misses = nv;
	for (size_t i = 0; i < it->nmisses; i++) {
		const char *sp = strchr(it->misses[i], ' ');
		const char *subject = it->patch && it->patch->subject ? it->patch->subject : it->subject;
		wn_stats_miss *m = &seen->misses[seen->nmisses];

		*m = (wn_stats_miss) { .bot = it->bot };
		m->review = strdup(it->id);
		m->subject = strdup(subject ? subject : "");
		m->when = sp ? wn_strndup(it->misses[i], (size_t) (sp - it->misses[i])) : strdup("");
		m->note = strdup(sp ? sp + 1 : it->misses[i]);
		seen->nmisses++;
		if (!m->review || !m->subject || !m->when || !m->note)
			return false;
	}
	return true;
}

void wn_stats_seen_clear(wn_stats_seen *seen)
{
	for (size_t i = 0; i < seen->nmisses; i++) {
		free(seen->misses[i].review);
		free(seen->misses[i].subject);
		free(seen->misses[i].when);
		free(seen->misses[i].note);
	}
	free(seen->misses);
	seen->misses = NULL;
	seen->nmisses = 0;
}

static int count_one(wn_cli *cli, wn_item *it, void *arg)
{
	struct pass *ps = arg;
	size_t n = it->review && !it->load_error ? it->review->nfindings : 0;
	unsigned *facts = calloc(n ? n : 1, sizeof(*facts));
	unsigned char *flags = calloc(n ? n : 1, 1);
	bool replied, kept, asked = false;
	int rc = 0;

	if (!facts || !flags) {
		free(facts);
		free(flags);
		return wn_cli_nomem(cli);
	}
	kept = it->loaded && !it->load_error && wn_facts_get(ps->kept, it, &replied, flags, n);
	if ((!kept && !derive(cli, ps, it, &replied, flags, n)) ||
	    !derive_fixed(ps, it, flags, n, &asked)) {
		free(facts);
		free(flags);
		return wn_cli_nomem(cli);
	}
	/* wn_stats_add_facts reads it where the derivation left it. */
	if (kept)
		it->author_answered = replied;
	if (it->loaded && !it->load_error && (!kept || asked))
		wn_facts_put(ps->kept, ps->series, it, replied, flags, n);
	for (size_t i = 0; i < n; i++) {
		if (flags[i] & WN_FACT_LATER)
			facts[i] |= WN_STATS_LATER;
		if ((flags[i] & WN_FACT_FIXED) && it->verdicts && it->verdicts[i] == WN_VERDICT_VALID)
			facts[i] |= WN_STATS_FIXED;
	}
	for (size_t k = 0; k < ps->n && !rc; k++)
		if (wn_stats_add_facts(ps->s[k], it, 0, facts) != WN_OK)
			rc = wn_cli_nomem(cli);
	/* The range of what was counted: a review that could not be read
	 * is not. */
	if (ps->seen && !it->load_error && it->date > 0) {
		if (!ps->seen->first || it->date < ps->seen->first)
			ps->seen->first = it->date;
		if (it->date > ps->seen->last)
			ps->seen->last = it->date;
	}
	if (ps->seen && !it->load_error && !rc && !keep_misses(ps->seen, it))
		rc = wn_cli_nomem(cli);
	free(facts);
	free(flags);
	return rc;
}

int wn_stats_pass(wn_cli *cli, const char *query, wn_stats **s, size_t n, wn_stats_seen *seen)
{
	struct pass ps = { s, n, NULL, NULL, seen };
	int rc;

	if (seen)
		*seen = (wn_stats_seen) { 0 };
	if (wn_series_new(cli->idx, &ps.series, NULL) != WN_OK)
		return wn_cli_nomem(cli);
	ps.kept = wn_facts_open(cli->idx, true);
	rc = wn_walk(cli, query, count_one, &ps, NULL);
	/* Kept only after a whole pass: one cut short wrote what it had. */
	wn_facts_close(&ps.kept);
	for (size_t k = 0; !rc && k < n; k++)
		wn_stats_sort(s[k]);
	wn_series_free(&ps.series);
	return rc;
}

static void key_real(wn_printer *p, const char *key, bool has, double v)
{
	p->map_key(p, key);
	if (has)
		p->real(p, v);
	else
		p->null(p);
}

/* {"pre-existing": n, "other": n}: what the maintainer said of the
 * triaged findings the bot gave claim to. */
static void agreement_row(wn_printer *p, const char *key, const unsigned long said[2])
{
	p->map_key(p, key);
	p->begin_map(p);
	wn_pr_key_int(p, wn_verdict_name(WN_VERDICT_PREEXISTING), said[1]);
	wn_pr_key_int(p, "other", said[0]);
	p->end(p);
}

/* One group (g NULL: the total) as a record: its key values, the counts
 * under the verdict names, the rates (null without triaged findings). */
static void wn_stats_record(wn_printer *p, const wn_stats *s, const wn_stats_group *g,
			    const wn_stats_counts *c)
{
	wn_stats_rates r;

	wn_stats_rates_of(c, &r);
	p->begin_map(p);
	for (size_t k = 0; k < wn_stats_nkeys(s); k++) {
		p->map_key(p, wn_stats_key_name(wn_stats_key_at(s, k)));
		p->string(p, g ? g->value[k] : NULL);
	}
	/* The model is the key its spellings share: say which were seen,
	 * blank-separated (an Assisted-by model is one word). */
	for (size_t k = 0; k < wn_stats_nkeys(s); k++)
		if (wn_stats_key_at(s, k) == WN_STATS_BY_MODEL) {
			char *sp = g && g->value[k] ? wn_stats_spellings(g, " ", " ...") : NULL;

			p->map_key(p, "model_spellings");
			p->string(p, sp);
			free(sp);
		}
	p->map_key(p, "total");
	p->boolean(p, !g);
	wn_pr_key_int(p, "reviews", c->reviews);
	wn_pr_key_int(p, "findings", c->findings);
	for (unsigned v = 0; v < WN_VERDICT_COUNT; v++)
		wn_pr_key_int(p, wn_verdict_name((wn_verdict) v), c->verdicts[v]);
	wn_pr_key_int(p, "forwarded", c->forwarded);
	wn_pr_key_int(p, "later_patch", c->later_patch);
	wn_pr_key_int(p, "fixed_later", c->fixed_later);
	wn_pr_key_int(p, "author_replied", c->author_replied);
	wn_pr_key_int(p, "regraded", c->regraded);
	wn_pr_key_int(p, "missed", c->missed);
	p->map_key(p, "false_positive_reasons");
	p->begin_map(p);
	for (unsigned k = 0; k < WN_REASON_COUNT; k++)
		wn_pr_key_int(p, k ? wn_reason_name((wn_reason) k) : "unstated", c->fp_reason[k]);
	p->end(p);
	wn_pr_key_int(p, "triaged", r.triaged);
	key_real(p, "false_positive_rate", r.has_rate, r.fp_rate);
	key_real(p, "false_positive_low", r.has_rate, r.fp_low);
	key_real(p, "false_positive_high", r.has_rate, r.fp_high);
	key_real(p, "preexisting_share", r.has_rate, r.pre_share);
	p->map_key(p, "agreement");
	p->begin_map(p);
	agreement_row(p, "bot_preexisting", c->agree[1]);
	agreement_row(p, "bot_new", c->agree[0]);
	p->end(p);
	p->end(p);
}

void wn_stats_records(wn_printer *p, const wn_stats *s)
{
	p->begin_list(p);
	for (size_t i = 0; i < wn_stats_ngroups(s); i++)
		wn_stats_record(p, s, wn_stats_group_at(s, i), &wn_stats_group_at(s, i)->c);
	wn_stats_record(p, s, NULL, wn_stats_total(s));
	p->end(p);
}

