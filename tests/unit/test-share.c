/* Unit tests: a shared finding's file (share-file.c): where a review's
 * files go, whatever its Message-ID, and a decision's text there and
 * back. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "share/share-test.h"

static void test_paths(void **state)
{
	char *p, long_id[400];

	(void) state;
	p = wn_sh_review_dir("20261110101500.B1A2C3D4E5F@smtp.kernel.org");
	assert_true(strncmp(p, "reviews/", 8) == 0 && p[10] == '/');
	assert_string_equal(p + 11, "20261110101500.B1A2C3D4E5F@smtp.kernel.org");
	free(p);
	/* Hostile ids: no '/', no "..", no control character, no leading dot. */
	p = wn_sh_review_dir("../../etc/passwd\n\x1b]0;x\x07");
	assert_string_equal(p + 11, "_2E._2F.._2Fetc_2Fpasswd_0A_1B_5D0_3Bx_07");
	free(p);
	p = wn_sh_review_dir("a_b c%d");
	assert_string_equal(p + 11, "a_5Fb_20c_25d");
	free(p);
	/* Too long for a file name: its hash. */
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	p = wn_sh_review_dir(long_id);
	assert_int_equal(strlen(p), 11 + 17);
	assert_int_equal(p[11], '~');
	free(p);
}

static void test_text(void **state)
{
	wn_share_value v = { WN_VERDICT_FALSE_POSITIVE, WN_SEV_HIGH, (char *) "line one\nline two",
			     (char *) "Ann <ann@example.org>", 1796000000, WN_REASON_WRONG_RULE }, back;
	wn_buf b = WN_BUF_INIT;
	char *id = NULL;

	(void) state;
	assert_int_equal(wn_sh_format(&v, "x\x01y@example.org", &b), WN_OK);
	assert_string_equal(wn_buf_str(&b), "review: x\\x01y@example.org\n"
			    "state: false-positive\n"
			    "severity: high\n"
			    "reason: wrong-rule\n"
			    "author: Ann <ann@example.org>\n"
			    "time: 2026-11-30T00:53:20Z\n"
			    "note: line one\n"
			    "note: line two\n");
	assert_int_equal(wn_sh_parse(wn_buf_str(&b), &back, &id, NULL), WN_OK);
	assert_string_equal(id, "x\x01y@example.org");
	assert_int_equal(back.verdict, WN_VERDICT_FALSE_POSITIVE);
	assert_int_equal(back.severity, WN_SEV_HIGH);
	assert_string_equal(back.note, "line one\nline two");
	assert_string_equal(back.author, "Ann <ann@example.org>");
	assert_int_equal(back.when, 1796000000);
	assert_int_equal(back.reason, WN_REASON_WRONG_RULE);
	assert_true(wn_sh_same(&v, &back));
	/* Author and time do not make a decision another. */
	free(back.author);
	back.author = strdup("Bob <bob@example.org>");
	back.when = 1;
	assert_true(wn_sh_same(&v, &back));
	/* Another reason is another decision. */
	back.reason = WN_REASON_STYLE;
	assert_false(wn_sh_same(&v, &back));
	back.reason = v.reason;
	back.severity = WN_SEV_NONE;
	assert_false(wn_sh_same(&v, &back));
	/* So is another note: the same verdict for another stated cause
	 * is a conflict, not a decision already held. */
	back.severity = v.severity;
	assert_true(wn_sh_same(&v, &back));
	free(back.note);
	back.note = strdup("line one");
	assert_false(wn_sh_same(&v, &back));
	wn_share_value_clear(&back);
	free(id);
	/* A file of an older winnow has no reason line: it reads as none;
	 * a reason of a newer list reads as none too, not as a refusal. */
	assert_int_equal(wn_sh_parse("review: a@b\nstate: valid\n", &back, &id, NULL), WN_OK);
	assert_int_equal(back.reason, WN_REASON_NONE);
	wn_share_value_clear(&back);
	free(id);
	assert_int_equal(
		wn_sh_parse("review: a@b\nstate: valid\nreason: newer\n", &back, &id, NULL), WN_OK);
	assert_int_equal(back.reason, WN_REASON_NONE);
	wn_share_value_clear(&back);
	free(id);
	/* Not one of ours: no state, or no review. */
	assert_int_equal(wn_sh_parse("review: a@b\n", &back, &id, NULL), WN_PARSE);
	assert_int_equal(wn_sh_parse("state: valid\n", &back, &id, NULL), WN_PARSE);
	assert_int_equal(wn_sh_parse("review: a@b\nstate: maybe\n", &back, &id, NULL), WN_PARSE);
	assert_null(id);
	wn_buf_free(&b);
}

/* What the store would refuse is refused on reading. */
#define NOTE_MAX 65536
static void test_refused_values(void **state)
{
	wn_share_value v;
	char *id = NULL, *big = malloc(70000 + 64);
	wn_error err = WN_ERROR_INIT;

	(void) state;
	assert_int_equal(wn_sh_parse("review: a@b\nstate: valid\nnote: \xff\xfe\n", &v, &id, &err),
			 WN_PARSE);
	assert_non_null(strstr(wn_error_msg(&err), "UTF-8"));
	strcpy(big, "review: a@b\nstate: valid\nnote: ");
	memset(big + strlen(big), 'x', 70000);
	strcpy(big + strlen("review: a@b\nstate: valid\nnote: ") + 70000, "\n");
	assert_int_equal(wn_sh_parse(big, &v, &id, &err), WN_PARSE);
	assert_non_null(strstr(wn_error_msg(&err), "70000 bytes"));
	assert_null(id);
	/* The store keeps notes of up to WN_NOTE_MAX bytes (NOTE_MAX:
	 * the constant is the index's own): one that long is read, one
	 * byte more is refused. */
	memset(big + strlen("review: a@b\nstate: valid\nnote: "), 'x', NOTE_MAX);
	strcpy(big + strlen("review: a@b\nstate: valid\nnote: ") + NOTE_MAX, "\n");
	assert_int_equal(wn_sh_parse(big, &v, &id, &err), WN_OK);
	assert_int_equal(strlen(v.note), NOTE_MAX);
	wn_share_value_clear(&v);
	free(id);
	id = NULL;
	strcpy(big + strlen("review: a@b\nstate: valid\nnote: ") + NOTE_MAX, "x\n");
	assert_int_equal(wn_sh_parse(big, &v, &id, &err), WN_PARSE);
	assert_null(id);
	free(big);
	wn_error_clear(&err);
}

static void test_layout(void **state)
{
	(void) state;
	assert_null(wn_sh_layout_check(
		"reviews/c9/20261110101500.B1A2C3D4E5F@smtp.kernel.org/3ca8dcf3614911da"));
	assert_null(wn_sh_layout_check(
		"reviews/d0/crlf_0D_0Aid@example.org/c9a683f3a4fbca17.conflict"));
	assert_null(wn_sh_layout_check("reviews/00/~0123456789abcdef/c9a683f3a4fbca17"));
	assert_non_null(wn_sh_layout_check("README"));
	assert_non_null(wn_sh_layout_check("reviews/c9/x@y/../../../etc/passwd"));
	assert_non_null(wn_sh_layout_check("reviews/c9/../c9a683f3a4fbca17"));
	assert_non_null(wn_sh_layout_check("reviews/c9/.x@y/c9a683f3a4fbca17"));
	assert_non_null(wn_sh_layout_check("reviews/C9/x@y/c9a683f3a4fbca17"));
	assert_non_null(wn_sh_layout_check("reviews/c9/x@y/c9a683f3a4fbca1"));
	assert_non_null(wn_sh_layout_check("reviews/c9/x@y/c9a683f3a4fbca17.bak"));
	assert_non_null(wn_sh_layout_check("reviews/c9/x y@z/c9a683f3a4fbca17"));
	assert_non_null(wn_sh_layout_check("reviews/c9/x_2@z/c9a683f3a4fbca17"));
	assert_non_null(wn_sh_layout_check("reviews/c9/x@y/sub/c9a683f3a4fbca17"));
}

/* Links, devices, FIFOs and oversized files: never read, never written
 * through, whatever the working tree holds. */
static void test_files(void **state)
{
	char tmpl[] = "/tmp/test-share.XXXXXX", *dir, path[600], outside[256];
	wn_buf b = WN_BUF_INIT;
	struct stat sb;
	FILE *f;

	(void) state;
	assert_non_null(dir = mkdtemp(tmpl));
	snprintf(outside, sizeof(outside), "%s/outside", dir);
	assert_int_equal(mkdir(outside, 0700), 0);
	snprintf(path, sizeof(path), "%s/tree", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/tree/zero", dir);
	assert_int_equal(symlink("/dev/zero", path), 0);
	snprintf(path, sizeof(path), "%s/tree/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/tree/folder", dir);
	assert_int_equal(symlink(outside, path), 0);
	snprintf(path, sizeof(path), "%s/bashrc", outside);
	assert_non_null(f = fopen(path, "w"));
	fputs("# bashrc\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/tree/rc", dir);
	assert_int_equal(symlink("../outside/bashrc", path), 0);
	snprintf(path, sizeof(path), "%s/tree/big", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("0123456789abcdef", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/tree", dir);

	assert_int_equal(wn_sh_read(path, "zero", 1000, &b, NULL), WN_PARSE);
	assert_int_equal(wn_sh_read(path, "fifo", 1000, &b, NULL), WN_PARSE);
	assert_int_equal(wn_sh_read(path, "folder/bashrc", 1000, &b, NULL), WN_PARSE);
	assert_int_equal(wn_sh_read(path, "rc", 1000, &b, NULL), WN_PARSE);
	assert_int_equal(wn_sh_read(path, "../outside/bashrc", 1000, &b, NULL), WN_PARSE);
	assert_int_equal(wn_sh_read(path, "big", 10, &b, NULL), WN_PARSE);
	assert_int_equal(b.len, 0);
	assert_int_equal(wn_sh_read(path, "none", 10, &b, NULL), WN_NOT_FOUND);
	assert_int_equal(wn_sh_read(path, "big", 16, &b, NULL), WN_OK);
	assert_string_equal(wn_buf_str(&b), "0123456789abcdef");

	/* Written: the links make way, nothing outside changes. */
	assert_int_equal(wn_sh_write(path, "rc", "echo PWNED\n", NULL), WN_OK);
	assert_int_equal(wn_sh_write(path, "folder/bashrc", "echo PWNED\n", NULL), WN_OK);
	assert_int_equal(wn_sh_write(path, "../outside/bashrc", "echo PWNED\n", NULL), WN_IO);
	wn_buf_reset(&b);
	assert_int_equal(wn_sh_read(outside, "bashrc", 100, &b, NULL), WN_OK);
	assert_string_equal(wn_buf_str(&b), "# bashrc\n");
	snprintf(path, sizeof(path), "%s/tree/folder", dir);
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	snprintf(path, sizeof(path), "%s/tree/rc", dir);
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	snprintf(path, sizeof(path), "%s/tree", dir);
	assert_int_equal(wn_sh_unlink(path, "zero"), WN_OK);
	assert_int_equal(access("/dev/zero", F_OK), 0);
	wn_buf_free(&b);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* The user's GIT_DIR stays in this process, and does not send git to
 * another repository than the sharing one. */
static void test_git_env(void **state)
{
	char tmpl[] = "/tmp/test-share.XXXXXX", *dir, cmd[600];
	wn_buf out = WN_BUF_INIT;
	sh_repo r;

	(void) state;
	assert_non_null(dir = mkdtemp(tmpl));
	setenv("XDG_STATE_HOME", dir, 1);
	setenv("GIT_DIR", "/nonexistent/elsewhere.git", 1);
	setenv("GIT_WORK_TREE", "/nonexistent", 1);
	assert_int_equal(wn_sh_repo_open(&r, "/some/database", "Ann", "ann@example.org", NULL),
			 WN_OK);
	assert_string_equal(getenv("GIT_DIR"), "/nonexistent/elsewhere.git");
	assert_string_equal(getenv("GIT_WORK_TREE"), "/nonexistent");
	assert_int_equal(wn_sh_git(&r, &out, NULL, "rev-parse", "--show-toplevel", NULL), WN_OK);
	assert_true(out.len > 0 && out.data[out.len - 1] == '\n');
	out.data[--out.len] = '\0';
	assert_string_equal(out.data, r.dir);
	wn_sh_repo_close(&r);
	wn_buf_free(&out);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_refused_values),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_git_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
