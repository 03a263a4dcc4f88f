/* Unit tests: statistics over verdicts (stats.c) and a mail's list
 * (mail-list.c).  Every expected number is worked out by hand in the
 * comments beside it. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/winnow.h"

#define assert_near(a, b) assert_true(fabs((a) - (b)) < 0.00005)

/* --- the Wilson interval ----------------------------------------------- */

static void test_wilson_by_hand(void **state)
{
	double lo, hi;

	(void) state;
	/* 10 of 30: p = 1/3, z^2 = 3.8415, 1 + z^2/n = 1.12805,
	 * centre = (0.33333 + 0.06402) / 1.12805 = 0.35225,
	 * half = 1.96 * sqrt(0.0074074 + 0.0010671) / 1.12805 = 0.15995. */
	assert_true(wn_wilson(10, 30, &lo, &hi));
	assert_near(lo, 0.1923);
	assert_near(hi, 0.5122);
	/* 0 of 10: the lower bound is 0, the upper z^2/(n + z^2) = 0.2775. */
	assert_true(wn_wilson(0, 10, &lo, &hi));
	assert_near(lo, 0.0);
	assert_near(hi, 0.2775);
	/* 4 of 4 mirrors it: [1 - 0.4899, 1]. */
	assert_true(wn_wilson(4, 4, &lo, &hi));
	assert_near(lo, 0.5101);
	assert_near(hi, 1.0);
	/* Nothing triaged: no interval, no division by zero. */
	lo = hi = 7;
	assert_false(wn_wilson(0, 0, &lo, &hi));
	assert_true(lo == 0 && hi == 0);
}

static void test_rates_of_an_empty_group(void **state)
{
	wn_stats_counts c;
	wn_stats_rates r;

	(void) state;
	memset(&c, 0, sizeof(c));
	c.findings = c.verdicts[WN_VERDICT_UNTRIAGED] = 3;
	wn_stats_rates_of(&c, &r);
	assert_int_equal(r.triaged, 0);
	assert_false(r.has_rate);
	assert_true(r.fp_rate == 0 && r.fp_low == 0 && r.fp_high == 0 && r.pre_share == 0);
	/* 10 false positives, 15 valid, 5 pre-existing: 30 triaged. */
	c.verdicts[WN_VERDICT_FALSE_POSITIVE] = 10;
	c.verdicts[WN_VERDICT_VALID] = 15;
	c.verdicts[WN_VERDICT_PREEXISTING] = 5;
	wn_stats_rates_of(&c, &r);
	assert_int_equal(r.triaged, 30);
	assert_true(r.has_rate);
	assert_near(r.fp_rate, 0.3333);
	assert_near(r.fp_low, 0.1923);
	assert_near(r.fp_high, 0.5122);
	assert_near(r.pre_share, 0.1667);
}

static void test_keys_parse(void **state)
{
	wn_error err = WN_ERROR_INIT;
	wn_stats_key k[WN_STATS_MAX_KEYS];
	size_t n;

	(void) state;
	assert_int_equal(wn_stats_keys_parse("bot", k, &n, &err), WN_OK);
	assert_int_equal(n, 1);
	assert_int_equal(k[0], WN_STATS_BY_BOT);
	assert_int_equal(wn_stats_keys_parse("month,model", k, &n, &err), WN_OK);
	assert_int_equal(n, 2);
	assert_int_equal(k[0], WN_STATS_BY_MONTH);
	assert_int_equal(k[1], WN_STATS_BY_MODEL);
	assert_int_equal(wn_stats_keys_parse("bot,bot", k, &n, &err), WN_USAGE);
	assert_string_equal(wn_error_msg(&err), "key 'bot' given twice");
	assert_int_equal(wn_stats_keys_parse("bot,list,author", k, &n, &err), WN_USAGE);
	assert_int_equal(wn_stats_keys_parse("colour", k, &n, &err), WN_USAGE);
	assert_non_null(strstr(wn_error_msg(&err), "unknown key 'colour'"));
	assert_int_equal(wn_stats_keys_parse("", k, &n, &err), WN_USAGE);
	assert_int_equal(wn_stats_keys_parse("bot,", k, &n, &err), WN_USAGE);
	wn_error_clear(&err);
}

/* --- counting reviews made by hand --------------------------------------- */

struct spec {
	wn_severity sev;
	bool pre;		/* the bot's claim */
	wn_verdict v;
	bool forwarded;
};

static wn_item *mk_item(wn_bot bot, const char *date_utc_2026, size_t n, const struct spec *f)
{
	wn_item *it = calloc(1, sizeof(*it));
	struct tm tm = { 0 };

	assert_non_null(it);
	assert_non_null(strptime(date_utc_2026, "%Y-%m-%d", &tm));
	it->date = timegm(&tm) + 12 * 3600;
	it->id = strdup("x@example.org");
	it->bot = bot;
	it->loaded = true;
	it->review = calloc(1, sizeof(*it->review));
	it->review->findings = calloc(n ? n : 1, sizeof(wn_finding));
	it->review->nfindings = n;
	it->verdicts = calloc(n ? n : 1, sizeof(*it->verdicts));
	it->notes = calloc(n ? n : 1, sizeof(char *));
	it->forwarded = calloc(n ? n : 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		it->review->findings[i].index = (int) i + 1;
		it->review->findings[i].severity = f[i].sev;
		it->review->findings[i].preexisting = f[i].pre;
		it->verdicts[i] = f[i].v;
		if (f[i].forwarded)
			it->forwarded[i] = strdup("2026-11-05T10:00:00Z <fwd@example.org>");
	}
	wn_item_count(it);
	return it;
}

static void mk_patch(wn_item *it, const char *author, const char *list, wn_attr_status a,
		     const char *model)
{
	it->patch = calloc(1, sizeof(*it->patch));
	it->patch->id = strdup("p@example.org");
	it->patch->author = strdup(author);
	it->patch->list = list ? strdup(list) : NULL;
	it->patch->trailers = calloc(1, sizeof(*it->patch->trailers));
	it->patch->trailers->attr.status = a;
	it->patch->trailers->attr.model = model ? strdup(model) : NULL;
}

/* A: Sashiko, November, a patch by Jörg with a model named, on netdev:
 *   1 high  new  false positive  forwarded
 *   2 high  pre  pre-existing
 *   3 low   new  valid
 *   4 low   pre  false positive
 * B: Sashiko, October, patch not in the index: 1 medium new untriaged.
 * C: BPF CI, November, a patch by Alice without Assisted-by: no findings.
 * D: 0-day, could not be read. */
struct world {
	wn_item *it[4];
};

static int world_setup(void **state)
{
	static const struct spec a[] = {
		{ WN_SEV_HIGH, false, WN_VERDICT_FALSE_POSITIVE, true },
		{ WN_SEV_HIGH, true, WN_VERDICT_PREEXISTING, false },
		{ WN_SEV_LOW, false, WN_VERDICT_VALID, false },
		{ WN_SEV_LOW, true, WN_VERDICT_FALSE_POSITIVE, false },
	};
	static const struct spec b[] = { { WN_SEV_MEDIUM, false, WN_VERDICT_UNTRIAGED, false } };
	struct world *w = calloc(1, sizeof(*w));

	w->it[0] = mk_item(WN_BOT_SASHIKO, "2026-11-04", 4, a);
	mk_patch(w->it[0], "J\xc3\xb6rg Beispiel <Joerg.Beispiel@Example.org>", "netdev.vger.kernel.org",
		 WN_ATTR_MODEL, "claude-opus-4-5");
	w->it[1] = mk_item(WN_BOT_SASHIKO, "2026-10-30", 1, b);
	w->it[2] = mk_item(WN_BOT_BPF_CI, "2026-11-01", 0, NULL);
	mk_patch(w->it[2], "Alice Example <alice@example.com>", NULL, WN_ATTR_NONE, NULL);
	w->it[3] = mk_item(WN_BOT_LKP, "2026-11-02", 0, NULL);
	w->it[3]->load_error = strdup("cannot read the mail");
	*state = w;
	return 0;
}

static int world_teardown(void **state)
{
	struct world *w = *state;

	for (int i = 0; i < 4; i++)
		wn_item_free(&w->it[i]);
	free(w);
	return 0;
}

static wn_stats *count(struct world *w, const char *by, unsigned flags)
{
	wn_stats_key keys[WN_STATS_MAX_KEYS];
	wn_stats *s;
	size_t n;

	assert_int_equal(wn_stats_keys_parse(by, keys, &n, NULL), WN_OK);
	assert_int_equal(wn_stats_new(keys, n, flags, &s, NULL), WN_OK);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(wn_stats_add(s, w->it[i], i), WN_OK);
	wn_stats_sort(s);
	return s;
}

static const char *val(const wn_stats *s, size_t g, size_t k)
{
	const char *v = wn_stats_group_at(s, g)->value[k];

	return v ? v : "(none)";
}

static void test_by_bot(void **state)
{
	wn_stats *s = count(*state, "bot", 0);
	const wn_stats_counts *c;
	wn_stats_rates r;

	assert_int_equal(wn_stats_ngroups(s), 2);
	/* The bot table's order: sashiko before bpf-ci. */
	assert_string_equal(val(s, 0, 0), "sashiko");
	assert_string_equal(val(s, 1, 0), "bpf-ci");
	c = &wn_stats_group_at(s, 0)->c;
	assert_int_equal(c->reviews, 2);
	assert_int_equal(c->findings, 5);
	assert_int_equal(c->verdicts[WN_VERDICT_VALID], 1);
	assert_int_equal(c->verdicts[WN_VERDICT_FALSE_POSITIVE], 2);
	assert_int_equal(c->verdicts[WN_VERDICT_PREEXISTING], 1);
	assert_int_equal(c->verdicts[WN_VERDICT_UNTRIAGED], 1);
	assert_int_equal(c->forwarded, 1);
	/* Triaged: A1 new/fp, A2 pre/pre, A3 new/valid, A4 pre/fp. */
	assert_int_equal(c->agree[0][0], 2);
	assert_int_equal(c->agree[0][1], 0);
	assert_int_equal(c->agree[1][0], 1);
	assert_int_equal(c->agree[1][1], 1);
	/* 2 of 4: p = 0.5, 1 + z^2/4 = 1.96037, centre 0.5,
	 * half = 1.96 * sqrt(0.0625 + 0.060023) / 1.96037 = 0.34997. */
	wn_stats_rates_of(c, &r);
	assert_int_equal(r.triaged, 4);
	assert_near(r.fp_rate, 0.5);
	assert_near(r.fp_low, 0.1500);
	assert_near(r.fp_high, 0.8500);
	assert_near(r.pre_share, 0.25);
	/* BPF CI: one review without findings, no rate. */
	c = &wn_stats_group_at(s, 1)->c;
	assert_int_equal(c->reviews, 1);
	assert_int_equal(c->findings, 0);
	wn_stats_rates_of(c, &r);
	assert_false(r.has_rate);
	/* The total: three readable reviews, one unreadable apart. */
	c = wn_stats_total(s);
	assert_int_equal(c->reviews, 3);
	assert_int_equal(c->findings, 5);
	assert_int_equal(wn_stats_unreadable(s), 1);
	wn_stats_free(&s);
	assert_null(s);
}

static void test_by_severity_counts_a_review_in_each(void **state)
{
	wn_stats *s = count(*state, "severity", WN_STATS_MEMBERS);
	const wn_stats_group *g;

	/* Most severe first; C has no findings and is in no group. */
	assert_int_equal(wn_stats_ngroups(s), 3);
	assert_string_equal(val(s, 0, 0), "high");
	assert_string_equal(val(s, 1, 0), "medium");
	assert_string_equal(val(s, 2, 0), "low");
	g = wn_stats_group_at(s, 0);
	assert_int_equal(g->c.reviews, 1);
	assert_int_equal(g->c.findings, 2);
	assert_int_equal(g->nmembers, 1);	/* A once, though two findings */
	assert_int_equal(g->members[0], 0);
	g = wn_stats_group_at(s, 1);
	assert_int_equal(g->members[0], 1);
	g = wn_stats_group_at(s, 2);
	assert_int_equal(g->c.verdicts[WN_VERDICT_VALID], 1);
	assert_int_equal(g->c.verdicts[WN_VERDICT_FALSE_POSITIVE], 1);
	assert_int_equal(wn_stats_total(s)->reviews, 3);
	wn_stats_free(&s);
}

/* False positives by reason, --by=reason, and the misses of
 * a bot beside them. */
static void test_reasons_and_misses(void **state)
{
	struct world *w = *state;
	wn_item *a = w->it[0], *b = w->it[1];
	wn_stats *s;

	a->reasons = calloc(4, sizeof(*a->reasons));
	a->reasons[0] = WN_REASON_WRONG_RULE;	/* A 1: false positive */
	a->reasons[2] = WN_REASON_STYLE;	/* A 3: valid, a reason all the same */
	b->misses = calloc(2, sizeof(char *));
	b->misses[0] = strdup("2026-11-01T00:00:00Z a leak");
	b->misses[1] = strdup("2026-11-02T00:00:00Z a race");
	b->nmisses = 2;
	s = count(w, "bot", 0);
	assert_string_equal(val(s, 0, 0), "sashiko");
	assert_int_equal(wn_stats_group_at(s, 0)->c.missed, 2);
	assert_int_equal(wn_stats_group_at(s, 0)->c.fp_reason[WN_REASON_WRONG_RULE], 1);
	/* A 4 is a false positive without a reason; A 3's reason is no
	 * false positive's. */
	assert_int_equal(wn_stats_group_at(s, 0)->c.fp_reason[WN_REASON_NONE], 1);
	assert_int_equal(wn_stats_group_at(s, 0)->c.fp_reason[WN_REASON_STYLE], 0);
	assert_int_equal(wn_stats_group_at(s, 1)->c.missed, 0);
	assert_int_equal(wn_stats_total(s)->missed, 2);
	wn_stats_free(&s);
	/* By reason: the list's order, then none; a review without
	 * findings is in no group. */
	s = count(w, "reason", 0);
	assert_int_equal(wn_stats_ngroups(s), 3);
	assert_string_equal(val(s, 0, 0), "wrong-rule");
	assert_string_equal(val(s, 1, 0), "style");
	assert_string_equal(val(s, 2, 0), "(none)");
	assert_int_equal(wn_stats_group_at(s, 0)->c.verdicts[WN_VERDICT_FALSE_POSITIVE], 1);
	assert_int_equal(wn_stats_group_at(s, 2)->c.findings, 3);
	wn_stats_free(&s);
}

static void test_review_keys(void **state)
{
	wn_stats *s = count(*state, "author", 0);

	/* By address, lower case; alphabetical; no patch last. */
	assert_int_equal(wn_stats_ngroups(s), 3);
	assert_string_equal(val(s, 0, 0), "alice@example.com");
	assert_string_equal(val(s, 1, 0), "joerg.beispiel@example.org");
	assert_string_equal(val(s, 2, 0), "(none)");
	wn_stats_free(&s);

	s = count(*state, "month", 0);
	assert_int_equal(wn_stats_ngroups(s), 2);
	assert_string_equal(val(s, 0, 0), "2026-10");
	assert_string_equal(val(s, 1, 0), "2026-11");
	assert_int_equal(wn_stats_group_at(s, 1)->c.reviews, 2);
	wn_stats_free(&s);

	s = count(*state, "attribution", 0);
	assert_int_equal(wn_stats_ngroups(s), 3);
	assert_string_equal(val(s, 0, 0), "none");
	assert_string_equal(val(s, 1, 0), "model");
	assert_string_equal(val(s, 2, 0), "(none)");
	wn_stats_free(&s);

	s = count(*state, "model", 0);
	assert_int_equal(wn_stats_ngroups(s), 2);
	assert_string_equal(val(s, 0, 0), "claude-opus-4.5");	/* the model's key */
	assert_int_equal(wn_stats_group_at(s, 1)->c.reviews, 2);
	wn_stats_free(&s);

	s = count(*state, "list", 0);
	assert_int_equal(wn_stats_ngroups(s), 2);
	assert_string_equal(val(s, 0, 0), "netdev.vger.kernel.org");
	assert_string_equal(val(s, 1, 0), "(none)");
	wn_stats_free(&s);
}

static void test_two_keys(void **state)
{
	wn_stats *s = count(*state, "bot,severity", 0);

	/* BPF CI's review has no findings: no severity, no group. */
	assert_int_equal(wn_stats_ngroups(s), 3);
	assert_string_equal(val(s, 0, 0), "sashiko");
	assert_string_equal(val(s, 0, 1), "high");
	assert_string_equal(val(s, 1, 1), "medium");
	assert_string_equal(val(s, 2, 1), "low");
	wn_stats_free(&s);
}

/* Spellings of one model are one group: the key
 * wn_model_key() gives, and the spellings seen beside it. */
static void test_model_spellings(void **state)
{
	static const char *const models[] = {
		"claude-opus-4-7", "claude-opus-4.6-1m", "claude-opus-4.7", "claude-4.6-opus",
		"gpt-4.1", "claude-opus-4-6", "claude-opus-4.7", "CLAUDE-OPUS-4-6",
	};
	wn_stats_key key = WN_STATS_BY_MODEL;
	wn_item *it = mk_item(WN_BOT_SASHIKO, "2026-11-04", 0, NULL);
	const wn_stats_group *g;
	wn_stats *s;

	(void) state;
	assert_int_equal(wn_stats_new(&key, 1, 0, &s, NULL), WN_OK);
	mk_patch(it, "x <a@b>", NULL, WN_ATTR_MODEL, NULL);
	for (size_t i = 0; i < sizeof(models) / sizeof(*models); i++) {
		free(it->patch->trailers->attr.model);
		it->patch->trailers->attr.model = strdup(models[i]);
		assert_int_equal(wn_stats_add(s, it, 0), WN_OK);
	}
	wn_stats_sort(s);
	assert_int_equal(wn_stats_ngroups(s), 3);
	g = wn_stats_group_at(s, 0);
	assert_string_equal(g->value[0], "claude-opus-4.6");
	assert_int_equal(g->c.reviews, 4);
	/* distinct, as written, in byte order */
	assert_int_equal(g->nspellings, 4);
	assert_string_equal(g->spellings[0], "CLAUDE-OPUS-4-6");
	assert_string_equal(g->spellings[1], "claude-4.6-opus");
	assert_string_equal(g->spellings[2], "claude-opus-4-6");
	assert_string_equal(g->spellings[3], "claude-opus-4.6-1m");
	assert_false(g->spellings_cut);
	g = wn_stats_group_at(s, 1);
	assert_string_equal(g->value[0], "claude-opus-4.7");
	assert_int_equal(g->c.reviews, 3);
	assert_int_equal(g->nspellings, 2);
	assert_string_equal(g->spellings[0], "claude-opus-4-7");
	assert_string_equal(g->spellings[1], "claude-opus-4.7");
	g = wn_stats_group_at(s, 2);
	assert_string_equal(g->value[0], "gpt-4.1");
	assert_int_equal(g->nspellings, 1);

	/* Hostile: endless spellings of one model keep a bounded few. */
	for (int i = 0; i < 100; i++) {
		char m[32];

		snprintf(m, sizeof(m), "gpt%.*s4.1", i % 20 + 1, "-_.-_.-_.-_.-_.-_.-_.-_.");
		free(it->patch->trailers->attr.model);
		it->patch->trailers->attr.model = strdup(m);
		assert_int_equal(wn_stats_add(s, it, 0), WN_OK);
	}
	assert_int_equal(wn_stats_ngroups(s), 3);
	g = wn_stats_group_at(s, 2);
	assert_int_equal(g->nspellings, WN_STATS_MAX_SPELLINGS);
	assert_true(g->spellings_cut);
	wn_stats_free(&s);

	/* Other keys keep no spellings. */
	key = WN_STATS_BY_BOT;
	assert_int_equal(wn_stats_new(&key, 1, 0, &s, NULL), WN_OK);
	assert_int_equal(wn_stats_add(s, it, 0), WN_OK);
	assert_int_equal(wn_stats_group_at(s, 0)->nspellings, 0);
	wn_stats_free(&s);
	wn_item_free(&it);
}

/* Many groups: the hash grows and every group is still found. */
static void test_many_groups(void **state)
{
	wn_stats_key key = WN_STATS_BY_AUTHOR;
	wn_item *it = mk_item(WN_BOT_SASHIKO, "2026-11-04", 0, NULL);
	wn_stats *s;
	char author[64];

	(void) state;
	assert_int_equal(wn_stats_new(&key, 1, 0, &s, NULL), WN_OK);
	mk_patch(it, "x <a@b>", NULL, WN_ATTR_NONE, NULL);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 500; i++) {
			snprintf(author, sizeof(author), "A <a%03d@example.org>", i);
			free(it->patch->author);
			it->patch->author = strdup(author);
			assert_int_equal(wn_stats_add(s, it, 0), WN_OK);
		}
	assert_int_equal(wn_stats_ngroups(s), 500);
	wn_stats_sort(s);
	assert_string_equal(wn_stats_group_at(s, 0)->value[0], "a000@example.org");
	assert_string_equal(wn_stats_group_at(s, 499)->value[0], "a499@example.org");
	for (size_t g = 0; g < 500; g++)
		assert_int_equal(wn_stats_group_at(s, g)->c.reviews, 2);
	/* Found again after sorting. */
	assert_int_equal(wn_stats_add(s, it, 0), WN_OK);
	assert_int_equal(wn_stats_ngroups(s), 500);
	wn_stats_free(&s);
	wn_item_free(&it);
}

/* --- bars ------------------------------------------------------------ */

static void test_bars(void **state)
{
	wn_stats_counts c;
	int out[WN_VERDICT_COUNT];

	(void) state;
	memset(&c, 0, sizeof(c));
	c.findings = 5;
	c.verdicts[WN_VERDICT_VALID] = 1;
	c.verdicts[WN_VERDICT_FALSE_POSITIVE] = 2;
	c.verdicts[WN_VERDICT_PREEXISTING] = 1;
	c.verdicts[WN_VERDICT_UNTRIAGED] = 1;
	/* 10 columns for 5 findings: two each. */
	wn_stats_bar(&c, 5, 10, out);
	assert_int_equal(out[WN_VERDICT_VALID], 2);
	assert_int_equal(out[WN_VERDICT_FALSE_POSITIVE], 4);
	assert_int_equal(out[WN_VERDICT_PREEXISTING], 2);
	assert_int_equal(out[WN_VERDICT_UNTRIAGED], 2);
	/* 3 columns: shares 0.6 1.2 0.6 0.6; fp gets its whole one, the two
	 * left go to the largest remainders, ties in bar order (valid,
	 * false positive, pre-existing, untriaged). */
	wn_stats_bar(&c, 5, 3, out);
	assert_int_equal(out[WN_VERDICT_VALID], 1);
	assert_int_equal(out[WN_VERDICT_FALSE_POSITIVE], 1);
	assert_int_equal(out[WN_VERDICT_PREEXISTING], 1);
	assert_int_equal(out[WN_VERDICT_UNTRIAGED], 0);
	/* Half the largest group: half the width. */
	wn_stats_bar(&c, 10, 20, out);
	assert_int_equal(out[0] + out[1] + out[2] + out[3], 10);
	/* A group of 1 beside one of 1000 is still drawn. */
	memset(&c, 0, sizeof(c));
	c.findings = c.verdicts[WN_VERDICT_UNTRIAGED] = 1;
	wn_stats_bar(&c, 1000, 20, out);
	assert_int_equal(out[WN_VERDICT_UNTRIAGED], 1);
	/* Nothing: nothing drawn, no division by zero. */
	memset(&c, 0, sizeof(c));
	wn_stats_bar(&c, 0, 20, out);
	assert_int_equal(out[0] + out[1] + out[2] + out[3], 0);
	assert_string_equal(wn_stats_glyph(WN_VERDICT_FALSE_POSITIVE, false), "x");
	assert_string_equal(wn_stats_glyph(WN_VERDICT_VALID, true), "\u2588");
}

/* --- which list a mail went to ------------------------------------------ */

static char *list_of(const char *headers)
{
	wn_mail *m = NULL;
	wn_buf b = WN_BUF_INIT;
	char *key;

	wn_buf_printf(&b, "From: a@example.org\nSubject: [PATCH] x\nMessage-Id: <m@x>\n%s\nbody\n", headers);
	assert_int_equal(wn_mail_parse_mem(b.data, b.len, &m, NULL), WN_OK);
	key = wn_mail_list(m);
	wn_mail_free(&m);
	wn_buf_free(&b);
	return key;
}

static void check_list(const char *headers, const char *want)
{
	char *got = list_of(headers);

	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
	free(got);
}

static void test_mail_list(void **state)
{
	(void) state;
	check_list("List-Id: Netdev List <Netdev.vger.kernel.org>\nTo: bpf@vger.kernel.org\n",
		   "netdev.vger.kernel.org");
	check_list("List-Id: linux-kernel.vger.kernel.org\n", "linux-kernel.vger.kernel.org");
	/* No List-Id: the first list among the recipients, To before Cc;
	 * a comma inside a quoted name splits nothing. */
	check_list("To: \"Doe, Jane\" <jane@example.org>, Net <NETDEV@vger.kernel.org>\n"
		   "Cc: linux-mm@lists.example.org\n", "netdev.vger.kernel.org");
	check_list("To: jane@example.org\nCc: x@example.com, linux-gpio@lists.example.org\n",
		   "linux-gpio.lists.example.org");
	check_list("To: syzkaller-bugs@googlegroups.com\n", "syzkaller-bugs.googlegroups.com");
	/* "lists" must be a whole label of the host. */
	check_list("To: a@mylists.example.org, b@example.org\n", NULL);
	check_list("", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson_by_hand),
		cmocka_unit_test(test_rates_of_an_empty_group),
		cmocka_unit_test(test_keys_parse),
		cmocka_unit_test_setup_teardown(test_by_bot, world_setup, world_teardown),
		cmocka_unit_test_setup_teardown(test_by_severity_counts_a_review_in_each,
						world_setup, world_teardown),
		cmocka_unit_test_setup_teardown(test_review_keys, world_setup, world_teardown),
		cmocka_unit_test_setup_teardown(test_reasons_and_misses, world_setup, world_teardown),
		cmocka_unit_test_setup_teardown(test_two_keys, world_setup, world_teardown),
		cmocka_unit_test(test_model_spellings),
		cmocka_unit_test(test_many_groups),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_mail_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
