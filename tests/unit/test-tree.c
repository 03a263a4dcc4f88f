/* Unit tests: did the patch's author answer the review, as
 * wn_index_author_replied reads it from the mails' own headers
 * (src/lib/index/tree.c), against notmuch's own tree as
 * wn_index_load_who walks it, review by review, on
 * tests/corpus/who-parent; and the walk after the headers' reading in
 * the same thread, which takes the listing over (the sanitizers watch
 * what the reading kept). */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/winnow.h"
#include "../../src/lib/index/index-nm.h"
#include "../../src/lib/index/link-memo.h"
#include "../../src/lib/index/message.h"

/* tests/corpus/who-parent indexed in the new folder dir (a mkdtemp()
 * template): its notmuch config, malloc'd. */
static char *make_db(char *dir)
{
	const char *src = getenv("WN_TOP_SRCDIR");
	char *cmd = NULL, *cfg = NULL;

	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&cmd, "bash '%s/tests/lib/mkdb.sh' '%s/tests/corpus/who-parent' '%s/db' >/dev/null",
			     src ? src : ".", src ? src : ".", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_true(asprintf(&cfg, "%s/db/notmuch-config", dir) > 0);
	return cfg;
}

/* The index closed, make_db's folder removed, cfg freed. */
static void drop_db(wn_index **idx, const char *dir, char *cfg)
{
	char *cmd = NULL;

	wn_index_close(idx);
	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(cfg);
}

static void test_headers_then_walk(void **state)
{
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cfg = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	wn_list list = { 0 };
	size_t answered = 0;

	(void) state;
	cfg = make_db(dir);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	assert_int_equal(wn_index_query(idx, NULL, &list, &err), WN_OK);
	assert_int_equal(list.n, 8);
	for (size_t i = 0; i < list.n; i++) {
		wn_item *it = wn_list_get(idx, &list, i);
		bool replied = false;

		assert_non_null(it);
		assert_int_equal(wn_index_author_replied(idx, it, &replied, &err), WN_OK);
		/* The walk of notmuch's tree says the same. */
		assert_int_equal(wn_index_load_who(idx, it, &err), WN_OK);
		if (replied != (wn_item_author_reply(it) != NULL))
			fail_msg("%s: the headers say %d, notmuch's tree not", it->id, replied);
		answered += replied;
	}
	assert_int_equal(answered, 4);
	wn_list_free(&list);
	drop_db(&idx, dir, cfg);
	wn_error_clear(&err);
}

/* notmuch's own count of "thread:tid" in the database of config cfg. */
static unsigned long nm_count(const char *cfg, const char *tid)
{
	char *cmd = NULL;
	unsigned long n = 0;
	FILE *p;

	assert_true(asprintf(&cmd, "NOTMUCH_CONFIG='%s' notmuch count thread:%s", cfg, tid) > 0);
	assert_non_null(p = popen(cmd, "r"));
	assert_int_equal(fscanf(p, "%lu", &n), 1);
	assert_int_equal(pclose(p), 0);
	free(cmd);
	return n;
}

/* The first review of the who-parent corpus with a thread, its thread
 * listed by wn_index_author_replied; its thread id into *tid. */
static void list_first_thread(wn_index *idx, char **tid)
{
	wn_error err = WN_ERROR_INIT;
	wn_list list = { 0 };
	bool replied;

	assert_int_equal(wn_index_query(idx, NULL, &list, &err), WN_OK);
	*tid = NULL;
	for (size_t i = 0; i < list.n && !*tid; i++) {
		wn_item *it = wn_list_get(idx, &list, i);

		assert_non_null(it);
		assert_int_equal(wn_index_author_replied(idx, it, &replied, &err), WN_OK);
		if (it->thread_id && it->patch && strstr(it->id, "AAAA"))
			assert_non_null(*tid = strdup(it->thread_id));
	}
	assert_non_null(*tid);
	wn_list_free(&list);
	wn_error_clear(&err);
}

/* The count of a thread's messages its listing kept (what the facts
 * file keeps of each thread, no longer asked of notmuch once more) is
 * notmuch's own count, and after a mail joined the thread and the
 * handle was reopened, no count of the listing before is given: the
 * thread listed again gives the new one. */
static void test_thread_count(void **state)
{
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cmd = NULL, *cfg = NULL, *tid = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	uint64_t n = 0;
	unsigned long before;
	FILE *f;

	(void) state;
	cfg = make_db(dir);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	list_first_thread(idx, &tid);
	before = nm_count(cfg, tid);
	assert_true(before >= 2);
	assert_true(wn_index_thread_count(idx, tid, strlen(tid), &n));
	assert_int_equal(n, before);
	assert_false(wn_index_thread_count(idx, "0000000000000000", 16, &n));

	/* A reply to the review joins its thread. */
	assert_true(asprintf(&cmd, "%s/db/mail/cur/99-late-reply.eml:2,S", dir) > 0);
	assert_non_null(f = fopen(cmd, "w"));
	fputs("From: Someone <someone@example.org>\n"
	      "Subject: Re: [PATCH] who: check alpha before using it\n"
	      "Date: Wed, 18 Nov 2026 09:00:00 +0000\n"
	      "Message-Id: <2026-alpha-late@example.org>\n"
	      "In-Reply-To: <20261120110000.AAAA@smtp.kernel.org>\n"
	      "References: <2026-alpha-patch@example.net> <20261120110000.AAAA@smtp.kernel.org>\n"
	      "\nLate.\n",
	      f);
	assert_int_equal(fclose(f), 0);
	free(cmd);
	assert_true(asprintf(&cmd, "NOTMUCH_CONFIG='%s' notmuch new --quiet", cfg) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(nm_count(cfg, tid), before + 1);
	assert_int_equal(wn_index_refresh(idx, &err), WN_OK);
	/* Stale: the listing was of the revision before. */
	assert_false(wn_index_thread_count(idx, tid, strlen(tid), &n));
	free(tid);
	list_first_thread(idx, &tid);
	assert_true(wn_index_thread_count(idx, tid, strlen(tid), &n));
	assert_int_equal(n, before + 1);

	free(tid);
	drop_db(&idx, dir, cfg);
	wn_error_clear(&err);
}

/* The memo of addresses answers as wn_mail_addr does, for each text
 * its own (a text asked after another is not given the other's), also
 * past its bound, where it starts over. */
static void test_addr_memo(void **state)
{
	static const char *const texts[] = {
		"Ann Author <ANN@Example.NET>",
		"ann@example.net (Ann)",
		"",
		"no address here",
		"\"Author, Ann\" <ann@example.net>",
		"Bob <bob@example.org>",
		"list: a@b.org, c@d.org;",
		"=?utf-8?q?Ann_=C3=85uthor?= <ann+tag@example.net>",
	};
	wn_map memo = WN_MAP_INIT;
	char buf[64];

	(void) state;
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
			char *want = wn_mail_addr(texts[i]),
			     *got = wn_message_addr(&memo, texts[i]);

			assert_non_null(want);
			assert_non_null(got);
			assert_string_equal(got, want);
			free(want);
			free(got);
		}
	for (int i = 0; i < WN_ADDR_MEMO + 10; i++) {
		char *want, *got;

		snprintf(buf, sizeof(buf), "Person %d <P%d@example.org>", i, i);
		want = wn_mail_addr(buf);
		got = wn_message_addr(&memo, buf);
		assert_non_null(want);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(want);
		free(got);
	}
	assert_true(memo.n <= WN_ADDR_MEMO);
	wn_map_free(&memo, free);
}

/* The files of messages read, which tree.c reads again: kept under the
 * id they were found by, bounded, and emptied with a new generation of
 * the index (a reopened handle may name other files). */
static void test_path_memo(void **state)
{
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cfg = NULL, id[64];
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	wn_link_memo *lm = NULL;
	wn_path_memo *m;
	notmuch_message_t *msg;
	char *path;
	size_t kept = 0;

	(void) state;
	cfg = make_db(dir);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	assert_non_null(msg = wn_index_find_message(idx, "2026-alpha-patch@example.net"));
	assert_non_null(path = strdup(notmuch_message_get_filename(msg)));
	assert_non_null(m = wn_link_memo_paths(wn_link_memo_sync(&lm, 1)));
	assert_null(wn_path_memo_get(m, "2026-alpha-patch@example.net"));
	wn_path_memo_keep(NULL, msg, "2026-alpha-patch@example.net");
	wn_path_memo_keep(m, msg, "2026-alpha-patch@example.net");
	assert_non_null(wn_path_memo_get(m, "2026-alpha-patch@example.net"));
	assert_string_equal(wn_path_memo_get(m, "2026-alpha-patch@example.net"), path);
	assert_null(wn_path_memo_get(m, "2026-alpha-patch@example.ne"));
	assert_null(wn_path_memo_get(m, "20261120110000.AAAA@smtp.kernel.org"));
	assert_null(wn_path_memo_get(NULL, "2026-alpha-patch@example.net"));
	/* The same generation keeps it; a new one starts empty. */
	assert_ptr_equal(wn_link_memo_paths(wn_link_memo_sync(&lm, 1)), m);
	assert_non_null(wn_path_memo_get(m, "2026-alpha-patch@example.net"));
	assert_non_null(m = wn_link_memo_paths(wn_link_memo_sync(&lm, 2)));
	assert_null(wn_path_memo_get(m, "2026-alpha-patch@example.net"));
	/* Bounded: more ids than slots keep at most WN_PATH_MEMO, and what
	 * is found is what was kept under that id. */
	for (int i = 0; i < 3 * WN_PATH_MEMO; i++) {
		snprintf(id, sizeof(id), "id-%d@example.org", i);
		wn_path_memo_keep(m, msg, id);
	}
	for (int i = 0; i < 3 * WN_PATH_MEMO; i++) {
		const char *f;

		snprintf(id, sizeof(id), "id-%d@example.org", i);
		if ((f = wn_path_memo_get(m, id))) {
			assert_string_equal(f, path);
			kept++;
		}
	}
	assert_true(kept > 0 && kept <= WN_PATH_MEMO);
	notmuch_message_destroy(msg);
	wn_link_memo_free(&lm);
	free(path);
	drop_db(&idx, dir, cfg);
	wn_error_clear(&err);
}

/* What a thread's listing gave for one message. */
struct listed {
	char *id, *from, *subject;
	time_t date;
};

struct listing {
	struct listed v[32];
	size_t n;
};

static void keep_listed(void *arg, const char *id, const char *from, const char *subject,
			time_t date)
{
	struct listing *l = arg;

	assert_true(l->n < 32);
	l->v[l->n].id = id ? strdup(id) : NULL;
	l->v[l->n].from = from ? strdup(from) : NULL;
	l->v[l->n].subject = subject ? strdup(subject) : NULL;
	l->v[l->n++].date = date;
}

/* Each review's thread listed while a list holds its batch of rows
 * (lazy rows, as a statistics pass reads them): the listing takes the
 * batch's reviews' values instead of reading them again, and every
 * message's date, From and Subject are still notmuch's own for that
 * message, the review's and the others'. */
static void test_listing_values(void **state)
{
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cfg = NULL;
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	wn_list list = { 0 };
	size_t checked = 0, reviews = 0;

	(void) state;
	cfg = make_db(dir);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	/* No row read with the count: every one comes in a batch. */
	setenv("WINNOW_TEST_FIRST_PAGE", "0", 1);
	assert_int_equal(wn_index_query(idx, NULL, &list, &err), WN_OK);
	unsetenv("WINNOW_TEST_FIRST_PAGE");
	list.lazy_rows = true;
	for (size_t i = 0; i < list.n; i++) {
		wn_item *it = wn_list_get(idx, &list, i);
		struct listing l = { .n = 0 };
		bool replied = false;

		assert_non_null(it);
		assert_int_equal(wn_index_author_replied(idx, it, &replied, &err), WN_OK);
		if (!it->thread_id ||
		    !wn_index_thread_each(idx, it->thread_id, 32, keep_listed, &l))
			continue;
		for (size_t k = 0; k < l.n; k++) {
			notmuch_message_t *m;
			const char *v;

			assert_non_null(l.v[k].id);
			assert_non_null(m = wn_index_find_message(idx, l.v[k].id));
			assert_int_equal(l.v[k].date, notmuch_message_get_date(m));
			v = notmuch_message_get_header(m, "from");
			assert_string_equal(l.v[k].from, v ? v : "");
			v = notmuch_message_get_header(m, "subject");
			assert_string_equal(l.v[k].subject, v ? v : "");
			notmuch_message_destroy(m);
			reviews += !strcmp(l.v[k].id, it->id);
			checked++;
			free(l.v[k].id);
			free(l.v[k].from);
			free(l.v[k].subject);
		}
	}
	/* Threads of several messages, each with the review asking. */
	assert_true(checked > list.n);
	assert_true(reviews >= 4);
	wn_list_free(&list);
	drop_db(&idx, dir, cfg);
	wn_error_clear(&err);
}

/* The id of a message whose files were read is the one its value
 * gives (linking keys its memo by it). */
static void test_id_after_read(void **state)
{
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cfg = NULL, *id;
	wn_error err = WN_ERROR_INIT;
	wn_index *idx = NULL;
	notmuch_message_t *msg;
	wn_mail *mail = NULL;

	(void) state;
	cfg = make_db(dir);
	assert_int_equal(wn_index_open(cfg, &idx, &err), WN_OK);
	assert_non_null(msg = wn_index_find_message(idx, "2026-alpha-patch@example.net"));
	assert_non_null(id = strdup(wn_message_id(msg)));
	assert_int_equal(wn_message_read_mail(msg, &mail, &err), WN_OK);
	assert_string_equal(wn_message_id_read(msg), id);
	assert_string_equal(wn_message_id_read(msg), "2026-alpha-patch@example.net");
	wn_mail_free(&mail);
	notmuch_message_destroy(msg);
	free(id);
	drop_db(&idx, dir, cfg);
	wn_error_clear(&err);
}

/* A lookup for a read takes a ghost (an id other mail names, which the
 * index does not hold) for absent, as a lookup does, and finds a mail
 * whose file it then reads. */
static void test_lookup_read(void **state)
{
	char dir[] = "/tmp/winnow-tree.XXXXXX", *cfg = NULL, *msg = NULL;
	wn_error err = WN_ERROR_INIT;
	notmuch_database_t *db = NULL;
	notmuch_message_t *m = NULL;
	wn_mail *mail = NULL;
	bool changed = false;

	(void) state;
	cfg = make_db(dir);
	assert_int_equal(notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_ONLY,
							   cfg, NULL, &db, &msg),
			 NOTMUCH_STATUS_SUCCESS);
	/* The ghost is in the index. */
	assert_int_equal(notmuch_database_find_message(db, "2026-epsilon-gone@example.org", &m),
			 NOTMUCH_STATUS_SUCCESS);
	assert_non_null(m);
	notmuch_message_destroy(m);
	assert_null(wn_message_lookup(db, "2026-epsilon-gone@example.org", NULL));
	assert_null(wn_message_lookup_read(db, "2026-epsilon-gone@example.org", &changed));
	assert_null(wn_message_lookup_read(db, "2026-zeta-gone@example.org", NULL));
	assert_null(wn_message_lookup_read(db, "nobody-at-all@example.org", NULL));
	assert_non_null(m = wn_message_lookup_read(db, "2026-alpha-patch@example.net", &changed));
	assert_false(changed);
	assert_int_equal(wn_message_read_mail(m, &mail, &err), WN_OK);
	assert_string_equal(mail->message_id, "2026-alpha-patch@example.net");
	wn_mail_free(&mail);
	notmuch_message_destroy(m);
	notmuch_database_destroy(db);
	drop_db(NULL, dir, cfg);
	wn_error_clear(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers_then_walk), cmocka_unit_test(test_thread_count),
		cmocka_unit_test(test_addr_memo),	  cmocka_unit_test(test_path_memo),
		cmocka_unit_test(test_listing_values),	  cmocka_unit_test(test_id_after_read),
		cmocka_unit_test(test_lookup_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
