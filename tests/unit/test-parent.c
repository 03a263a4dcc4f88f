/* Unit tests: a message's parents as notmuch 0.37 indexed them
 * (src/lib/index/parent.c): its "replyto" term (In-Reply-To's id when
 * it is one id alone, else the last of References, else the last of
 * In-Reply-To; never the mail's own id from a list) and its
 * "reference" terms, with notmuch's parser's quirks; and "unsure" for
 * every header GMime might hand notmuch as other text than its bytes. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/lib/index/parent.h"

#define SELF "self@example.org"

/* wn_parent_read of a file holding text; *sure as it said. */
static wn_parent_ids read_text(const char *text, bool *sure)
{
	char path[] = "/tmp/winnow-test-parent.XXXXXX";
	int fd = mkstemp(path);
	wn_parent_ids p;
	FILE *f;

	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(wn_parent_read(path, SELF, &p, sure), WN_OK);
	unlink(path);
	return p;
}

/* The terms of a mail whose header block is head: replyto (NULL: none)
 * and the references, space-separated in order. */
static void expect(const char *head, const char *replyto, const char *refs)
{
	char *text = NULL;
	char got[1024] = "";
	bool sure;
	wn_parent_ids p;

	assert_true(asprintf(&text, "From: a@example.org\n%s\nbody\nIn-Reply-To: <body@x>\n",
			     head) > 0);
	p = read_text(text, &sure);
	free(text);
	if (!sure)
		fail_msg("unsure of: %s", head);
	for (char **r = p.refs; *r; r++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", *got ? " " : "", *r);
	if (replyto)
		assert_string_equal(p.replyto, replyto);
	else
		assert_null(p.replyto);
	assert_string_equal(got, refs);
	wn_parent_ids_clear(&p);
}

static void expect_unsure(const char *text)
{
	bool sure = true;
	wn_parent_ids p = read_text(text, &sure);

	if (sure)
		fail_msg("sure of: %s", text);
	assert_null(p.replyto);
	assert_null(p.refs);
}

static void test_choice(void **state)
{
	(void) state;
	expect("In-Reply-To: <b@x>\nReferences: <a@x> <c@x>\n", "b@x", "a@x c@x b@x");
	/* Not one id alone: the last of References. */
	expect("In-Reply-To: <b@x> sent from the road\nReferences: <a@x> <c@x>\n", "c@x",
	       "a@x c@x b@x");
	expect("In-Reply-To: <b@x> <d@x>\nReferences: <a@x>\n", "a@x", "a@x b@x d@x");
	/* ... else the last of In-Reply-To. */
	expect("In-Reply-To: <b@x> <d@x>\n", "d@x", "b@x d@x");
	expect("In-Reply-To: Your mail <b@x>\n", "b@x", "b@x");
	expect("Subject: no parents\n", NULL, "");
	/* Blanks about the one id are no text. */
	expect("In-Reply-To:   <b@x>  \nReferences: <a@x>\n", "b@x", "a@x b@x");
}

static void test_self(void **state)
{
	(void) state;
	/* Its own id is no reference, nor the last of a list ... */
	expect("References: <a@x> <" SELF ">\n", "a@x", "a@x");
	expect("In-Reply-To: <a@x> <" SELF ">\n", "a@x", "a@x");
	/* ... but In-Reply-To's one id alone is taken as it is. */
	expect("In-Reply-To: <" SELF ">\n", SELF, "");
}

static void test_quirks(void **state)
{
	(void) state;
	/* notmuch's parser drops a one-character id, keeps an unclosed
	 * one, and the strict one takes an empty id. */
	expect("References: <a> <b@x>\n", "b@x", "b@x");
	expect("References: <a@x> <b@x\n", "b@x", "a@x b@x");
	expect("In-Reply-To: <>\nReferences: <a@x>\n", "", "a@x");
	/* Header names in any case; folded lines between ids. */
	expect("in-reply-to: <b@x>\nREFERENCES: <a@x>\n <c@x>\n\t<e@x>\n", "b@x",
	       "a@x c@x e@x b@x");
	/* 8-bit text in another header is not read. */
	expect("Subject: caf\xc3\xa9\nIn-Reply-To: <b@x>\n", "b@x", "b@x");
}

static void test_unsure(void **state)
{
	(void) state;
	expect_unsure("In-Reply-To: <b@x>\nIn-Reply-To: <c@x>\n\n");
	expect_unsure("References: <a@x>\nreferences: <c@x>\n\n");
	expect_unsure("In-Reply-To: <b@\n x>\n\n");
	expect_unsure("In-Reply-To: <b @x>\n\n");
	expect_unsure("In-Reply-To: =?utf-8?q?=3Cb@x=3E?=\n\n");
	expect_unsure("In-Reply-To: <b@x> (Bob's mail)\n\n");
	expect_unsure("In-Reply-To: \"Bob\" <b@x>\n\n");
	expect_unsure("In-Reply-To: <b@x>\r\n\r\n");
	expect_unsure("In-Reply-To: <b@x\xc3\xa9>\n\n");
	expect_unsure("From someone Mon Nov  2 09:00:00 2026\nIn-Reply-To: <b@x>\n\n");
	expect_unsure("\x1f\x8b\x08");
	expect_unsure("In-Reply-To <b@x>\n\n");
	expect_unsure(" In-Reply-To: <b@x>\n\n");
	expect_unsure("Subject: x\n \nIn-Reply-To: <b@x>\n\n");
	expect_unsure("Subject: x\n\t");
	{
		char text[512];

		snprintf(text, sizeof(text), "References: <%0*d@x>\n\n", WN_PARENT_ID_MAX, 7);
		expect_unsure(text);
		/* An id too long after one kept: the kept one freed once
		 * (fuzz-parent found it freed twice). */
		snprintf(text, sizeof(text), "References: <a@x> <%0*d@x>\n\n", WN_PARENT_ID_MAX, 7);
		expect_unsure(text);
		snprintf(text, sizeof(text), "References: <a@x>\nIn-Reply-To: <b@x> <%0*d@x>\n\n",
			 WN_PARENT_ID_MAX, 7);
		expect_unsure(text);
	}
	{
		bool sure = true;
		wn_parent_ids p;

		assert_int_equal(wn_parent_read("/nonexistent/winnow/mail", SELF, &p, &sure), WN_OK);
		assert_false(sure);
	}
}

/* A header block longer than one read, and one with no body. */
static void test_long_head(void **state)
{
	size_t n = 20000;
	char *text = malloc(2 * n), *w = text;
	bool sure;
	wn_parent_ids p;

	(void) state;
	assert_non_null(text);
	w += sprintf(w, "Subject: x");
	for (size_t i = 0; i < n / 10; i++)
		w += sprintf(w, "\n long text");
	sprintf(w, "\nIn-Reply-To: <b@x>");
	p = read_text(text, &sure);
	assert_true(sure);
	assert_string_equal(p.replyto, "b@x");
	wn_parent_ids_clear(&p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_quirks),
		cmocka_unit_test(test_unsure),
		cmocka_unit_test(test_long_head),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
