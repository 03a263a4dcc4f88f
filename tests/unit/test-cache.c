/* Unit tests: a record of the cache of parsed reviews (cache-record.c).
 * An item goes to bytes and back unchanged; a record cut short or with
 * any byte changed never crashes, never leaks (the sanitizers watch),
 * and a cut one is never taken. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../src/lib/index/cache.h"
#include "../../src/lib/index/message.h"
#include "../../src/lib/index/props.h"
#include "winnow/winnow.h"

static char *dup(const char *s)
{
	char *d = strdup(s);

	assert_non_null(d);
	return d;
}

/* An item with every kind of field set: two findings (one with a
 * further place), a patch with trailers and an attribution, verdicts,
 * a note, a forward. */
static wn_item *sample(void)
{
	wn_item *it = calloc(1, sizeof(*it));
	wn_review *r = calloc(1, sizeof(*r));
	wn_patch *p = calloc(1, sizeof(*p));
	wn_patch_trailers *t = calloc(1, sizeof(*t));

	assert_true(it && r && p && t);
	it->id = dup("review@example.org");
	it->date = 1788220900;
	it->subject = dup("Re: [PATCH v2 3/5] net: fix it");
	it->from = dup("Review Bot <bot@example.org>");
	it->bot = WN_BOT_SASHIKO;
	it->link = WN_LINK_IN_REPLY_TO;
	it->report_id = dup("report@example.org");
	r->bot = WN_BOT_SASHIKO;
	r->declared = 2;
	r->cover_id = dup("cover@example.org");
	r->part = 3;
	r->patch_subject = dup("[PATCH v2 3/5] net: fix it");
	r->kind = (wn_kind) 0;
	r->followup = (wn_followup) 0;
	r->note = dup("passed on by a person");
	r->posted_before = 1788220800;
	r->wants_patch_files = true;
	r->nfindings = 2;
	r->findings = calloc(2, sizeof(*r->findings));
	assert_non_null(r->findings);
	for (int i = 0; i < 2; i++) {
		wn_finding *f = &r->findings[i];

		f->index = i + 1;
		memcpy(f->fingerprint, i ? "0123456789abcdef" : "fedcba9876543210", WN_FP_LEN + 1);
		f->severity = WN_SEV_HIGH;
		f->preexisting = i == 1;
		f->summary = dup(i ? "a use after free" : "a leak on the error path");
		f->file = dup("drivers/net/x.c");
		f->function = i ? NULL : dup("x_probe");
		f->line = 40 + i;
		f->line_approx = i == 0;
		f->quote = dup("> kfree(p);\n> return p->x;");
		f->comment = dup("Is p used after it is freed?");
		f->path = dup("drivers/net/x.c");
	}
	r->findings[1].nalso = 1;
	r->findings[1].also = calloc(1, sizeof(wn_place));
	assert_non_null(r->findings[1].also);
	r->findings[1].also[0].file = dup("include/x.h");
	r->findings[1].also[0].line = 7;
	it->review = r;
	p->id = dup("patch@example.org");
	p->subject = dup("[PATCH v2 3/5] net: fix it");
	p->author = dup("A Developer <a@example.org>");
	p->submitter = dup("A Maintainer <m@example.org>");
	p->date = 1788000000;
	p->list = dup("netdev@vger.kernel.org");
	t->ntrailers = 1;
	t->trailers = calloc(1, sizeof(*t->trailers));
	assert_non_null(t->trailers);
	t->trailers[0].key = dup("Assisted-by");
	t->trailers[0].value = dup("Claude:claude-opus-4-5 coccinelle");
	t->attr.status = (wn_attr_status) 1;
	t->attr.agent = dup("Claude");
	t->attr.model = dup("claude-opus-4-5");
	t->attr.ntools = 1;
	t->attr.tools = calloc(1, sizeof(char *));
	assert_non_null(t->attr.tools);
	t->attr.tools[0] = dup("coccinelle");
	t->attr.raw = dup("Claude:claude-opus-4-5 coccinelle");
	t->submitter = dup("A Developer <a@example.org>");
	p->trailers = t;
	it->patch = p;
	assert_true(wn_props_alloc_item(it, 2));
	it->verdicts[0] = WN_VERDICT_VALID;
	it->verdicts[1] = WN_VERDICT_FALSE_POSITIVE;
	it->reasons[1] = WN_REASON_COUNT - 1;
	it->misses = calloc(1, sizeof(*it->misses));
	assert_non_null(it->misses);
	it->misses[0] = dup("1788000000 a race the bot did not see");
	it->nmisses = 1;
	it->thread_id = dup("00000000000000a1");
	r->findings[1].pairing_unsure = true;
	r->tags = calloc(2, sizeof(*r->tags));
	assert_non_null(r->tags);
	r->tags[0] = dup("Reported-by: kernel test robot <lkp@intel.com>");
	r->tags[1] = dup("Closes: https://lore.example.org/oe-kbuild-all/1@intel.com/");
	r->ntags = 2;
	it->notes[0] = dup("checked: real");
	it->forwarded[0] = dup("1788000000 fwd@example.org");
	it->severity[1] = WN_SEV_HIGH;
	it->warning = dup("an odd stored verdict");
	return it;
}

/* The parsed part of it freed, as the index frees a loaded item. */
static void item_free(wn_item *it)
{
	wn_props_free_item(it, it->review ? it->review->nfindings : 0);
	wn_review_free(&it->review);
	wn_patch_free(it->patch);
	free(it->report_id);
	free(it->thread_id);
	free(it->id);
	free(it->subject);
	free(it->from);
	free(it);
}

static bool decode(const char *p, size_t n, wn_item **out)
{
	wn_cache_rd r = { (const unsigned char *) p, n, 0, false };
	wn_item *it = calloc(1, sizeof(*it));

	assert_non_null(it);
	if (!wn_cache_decode_item(&r, it)) {
		free(it);
		return false;
	}
	*out = it;
	return true;
}

static void test_round_trip(void **state)
{
	wn_item *it = sample(), *back = NULL;
	wn_buf a = WN_BUF_INIT, b = WN_BUF_INIT;

	(void) state;
	wn_cache_encode_item(&a, it);
	assert_false(wn_buf_failed(&a));
	assert_true(decode(a.data, a.len, &back));
	/* Bytes to item to bytes: the same bytes, every field kept. */
	wn_cache_encode_item(&b, back);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	assert_string_equal(back->review->findings[1].also[0].file, "include/x.h");
	assert_string_equal(back->patch->trailers->attr.tools[0], "coccinelle");
	assert_string_equal(back->patch->author, "A Developer <a@example.org>");
	assert_string_equal(back->patch->submitter, "A Maintainer <m@example.org>");
	assert_string_equal(back->notes[0], "checked: real");
	assert_null(back->notes[1]);
	assert_int_equal(back->verdicts[0], WN_VERDICT_VALID);
	assert_string_equal(back->review->findings[0].fingerprint, "fedcba9876543210");
	/* what the other branches added: a reason, a miss, the thread,
	 * the pairing flag and the bot's tags */
	assert_int_equal(back->reasons[1], WN_REASON_COUNT - 1);
	assert_int_equal(back->reasons[0], WN_REASON_NONE);
	assert_int_equal(back->nmisses, 1);
	assert_string_equal(back->misses[0], "1788000000 a race the bot did not see");
	assert_string_equal(back->thread_id, "00000000000000a1");
	assert_true(back->review->findings[1].pairing_unsure);
	assert_false(back->review->findings[0].pairing_unsure);
	assert_int_equal(back->review->ntags, 2);
	assert_string_equal(back->review->tags[1], "Closes: https://lore.example.org/oe-kbuild-all/1@intel.com/");
	/* The row, for a pass that read the id alone (wn_list.lazy_rows). */
	assert_int_equal(back->date, 1788220900);
	assert_string_equal(back->subject, "Re: [PATCH v2 3/5] net: fix it");
	assert_string_equal(back->from, "Review Bot <bot@example.org>");
	back->id = NULL;
	item_free(back);
	item_free(it);
	wn_buf_free(&a);
	wn_buf_free(&b);
}

static void test_cut_and_flipped(void **state)
{
	wn_item *it = sample(), *back;
	wn_buf a = WN_BUF_INIT;
	char *copy;
	size_t taken = 0;

	(void) state;
	wn_cache_encode_item(&a, it);
	copy = malloc(a.len);
	assert_non_null(copy);
	/* Every shorter record is refused. */
	for (size_t n = 0; n < a.len; n++)
		assert_false(decode(a.data, n, &back));
	/* Every byte changed, three ways: refused, or (a letter of a text,
	 * which only the file's checksum catches) taken whole; never a
	 * crash or a leak. */
	for (size_t i = 0; i < a.len; i++) {
		static const unsigned char masks[] = { 0x01, 0x80, 0xff };

		for (size_t m = 0; m < sizeof(masks); m++) {
			memcpy(copy, a.data, a.len);
			copy[i] = (char) (copy[i] ^ masks[m]);
			back = NULL;
			if (decode(copy, a.len, &back)) {
				taken++;
				back->id = NULL;
				item_free(back);
			}
		}
	}
	assert_true(taken < 3 * a.len);
	free(copy);
	wn_buf_free(&a);
	item_free(it);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cut_and_flipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
