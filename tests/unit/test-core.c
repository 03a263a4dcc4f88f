/* Unit tests: status, buffers, verdict names, configuration, journal. */
#include "autoconfig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/lib/core/file.h"
#include "../../src/lib/core/fileid.h"
#include "../../src/lib/core/hash.h"
#include "../../src/lib/core/str.h"
#include "../../src/lib/store/journal.h"
#include "winnow/proc.h"
#include "winnow/winnow.h"

static void test_status_codes(void **state)
{
	wn_error err = WN_ERROR_INIT;

	(void) state;
	assert_int_equal(wn_status_exit_code(WN_OK), 0);
	assert_int_equal(wn_status_exit_code(WN_USAGE), 1);
	assert_int_equal(wn_status_exit_code(WN_NOT_FOUND), 1);
	assert_int_equal(wn_status_exit_code(WN_LOCKED), 2);
	assert_int_equal(wn_status_exit_code(WN_DB), 2);
	assert_string_equal(wn_error_msg(&err), "success");
	assert_int_equal(wn_error_set(&err, WN_NOT_FOUND, "no message <%s>", "x@y"), WN_NOT_FOUND);
	assert_string_equal(wn_error_msg(&err), "no message <x@y>");
	assert_int_equal(err.status, WN_NOT_FOUND);
	wn_error_clear(&err);
	assert_null(err.msg);
	/* A NULL err is allowed everywhere. */
	assert_int_equal(wn_error_set(NULL, WN_IO, "x"), WN_IO);
}

static void test_buf(void **state)
{
	wn_buf b = WN_BUF_INIT;
	char *s;

	(void) state;
	assert_string_equal(wn_buf_str(&b), "");
	for (int i = 0; i < 1000; i++)
		assert_int_equal(wn_buf_printf(&b, "%d,", i), WN_OK);
	assert_int_equal(strncmp(wn_buf_str(&b), "0,1,2,", 6), 0);
	assert_int_equal(b.len, strlen(b.data));
	wn_buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_int_equal(wn_buf_append(&b, "a\0b", 3), WN_OK);
	assert_int_equal(b.len, 3);
	s = wn_buf_steal(&b);
	assert_memory_equal(s, "a\0b", 4);
	assert_null(b.data);
	free(s);
	s = wn_buf_steal(&b);	/* empty steal gives "" */
	assert_string_equal(s, "");
	free(s);
	/* Byte by byte across every growth, each time terminated. */
	for (int i = 0; i < 300; i++) {
		assert_int_equal(wn_buf_putc(&b, (char) ('a' + i % 26)), WN_OK);
		assert_int_equal(b.len, (size_t) i + 1);
		assert_int_equal(b.data[b.len], '\0');
	}
	assert_memory_equal(b.data + 260, "abcdef", 6);
	/* A failure is sticky, room or not: nothing more goes in. */
	b.failed = true;
	assert_true(b.cap - b.len > 8);
	assert_int_equal(wn_buf_putc(&b, 'x'), WN_NOMEM);
	assert_int_equal(wn_buf_append(&b, "yz", 2), WN_NOMEM);
	assert_int_equal(b.len, 300);
	assert_null(wn_buf_steal(&b));
	wn_buf_free(&b);
}

/* The cache's record checksum: a flipped bit in any byte, at any
 * length (whole words and a tail), or a byte more or less, changes it. */
/* The string helpers the parsers call on every line (core/str.c): a
 * prefix never read past n, a search in either case that finds the
 * first place, at the very end too, and none cut short by n. */
static void test_str_find(void **state)
{
	static const char s[] = "xAbAbAB tail";

	(void) state;
	assert_true(wn_str_prefix("abc", 3, "ab"));
	assert_true(wn_str_prefix("abc", 3, ""));
	assert_false(wn_str_prefix("abc", 2, "abc"));
	assert_false(wn_str_prefix("abd", 3, "abc"));
	assert_true(wn_str_prefix_ci("ABc", 3, "abC"));
	assert_false(wn_str_prefix_ci("AB", 2, "abc"));
	assert_ptr_equal(wn_str_find_ci(s, strlen(s), "abab"), s + 1);
	assert_ptr_equal(wn_str_find_ci(s, strlen(s), "BAB"), s + 2);
	assert_ptr_equal(wn_str_find_ci(s, strlen(s), "ab t"), s + 5);
	assert_ptr_equal(wn_str_find_ci(s, strlen(s), "TAIL"), s + 8);
	assert_ptr_equal(wn_str_find_ci(s, strlen(s), "x"), s);
	assert_ptr_equal(wn_str_find_ci(s, strlen(s), ""), s);
	assert_null(wn_str_find_ci(s, strlen(s) - 1, "tail"));
	assert_null(wn_str_find_ci(s, strlen(s), "tails"));
	assert_null(wn_str_find_ci(s, strlen(s), "abx"));
	assert_ptr_equal(wn_str_find_ci("a-1 A-1", 7, "a-1 a"), "a-1 A-1" + 0);
	assert_ptr_equal(wn_str_find_ci("--+-+", 5, "-+"), "--+-+" + 1);
}

static void test_sum64(void **state)
{
	unsigned char buf[41];

	(void) state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char) (i * 37 + 11);
	for (size_t n = 0; n <= sizeof(buf); n++) {
		uint64_t sum = wn_sum64(buf, n);

		if (n < sizeof(buf))
			assert_true(wn_sum64(buf, n + 1) != sum);
		for (size_t i = 0; i < n; i++)
			for (int bit = 0; bit < 8; bit++) {
				buf[i] ^= (unsigned char) (1u << bit);
				assert_true(wn_sum64(buf, n) != sum);
				buf[i] ^= (unsigned char) (1u << bit);
			}
		assert_true(wn_sum64(buf, n) == sum);
	}
	/* Zeros: only the length tells them apart. */
	memset(buf, 0, sizeof(buf));
	assert_true(wn_sum64(buf, 3) != wn_sum64(buf, 4));
}

static uint32_t fnv32(const char *s)
{
	uint32_t h = WN_FNV32_BASIS;

	for (; *s; s++)
		h = wn_fnv1a32_byte(h, (unsigned char) *s);
	return h;
}

/* The 32-bit FNV-1a is FNV-1a's own (its published test values), so
 * summary.c's word hashes are those its loop of its own gave. */
static void test_fnv32(void **state)
{
	(void) state;
	assert_int_equal(fnv32(""), 0x811c9dc5);
	assert_int_equal(fnv32("a"), 0xe40c292c);
	assert_int_equal(fnv32("foobar"), 0xbf9cf968);
}

static void test_verdict_names(void **state)
{
	wn_verdict v;

	(void) state;
	for (unsigned i = 0; i < WN_VERDICT_COUNT; i++) {
		assert_int_equal(wn_verdict_from_name(wn_verdict_name((wn_verdict) i), &v), WN_OK);
		assert_int_equal(v, i);
	}
	assert_int_equal(wn_verdict_from_name("false-positive", &v), WN_OK);
	assert_int_equal(v, WN_VERDICT_FALSE_POSITIVE);
	assert_string_equal(wn_verdict_tag(WN_VERDICT_PREEXISTING), "pre-existing");
	assert_null(wn_verdict_tag(WN_VERDICT_UNTRIAGED));
	assert_int_equal(wn_verdict_from_name("Valid", &v), WN_USAGE);
	assert_int_equal(wn_verdict_from_name("", &v), WN_USAGE);
	assert_int_equal(wn_verdict_from_name(NULL, &v), WN_USAGE);
}

/* The reasons round-trip by name and by the prompt's key,
 * which is each name's first letter, and no two share one. */
static void test_reason_names(void **state)
{
	wn_reason r;
	char seen[128] = { 0 };

	(void) state;
	for (unsigned i = 1; i < WN_REASON_COUNT; i++) {
		const char *name = wn_reason_name((wn_reason) i);

		assert_int_equal(wn_reason_from_name(name, &r), WN_OK);
		assert_int_equal(r, i);
		assert_int_equal(wn_reason_key((wn_reason) i), name[0]);
		assert_int_equal(wn_reason_from_key(name[0]), i);
		assert_false(seen[(unsigned char) name[0]]);
		seen[(unsigned char) name[0]] = 1;
		assert_true(*wn_reason_label((wn_reason) i) && *wn_reason_word((wn_reason) i));
	}
	assert_null(wn_reason_name(WN_REASON_NONE));
	assert_null(wn_reason_name(WN_REASON_COUNT));
	assert_int_equal(wn_reason_from_key('\n'), WN_REASON_NONE);
	assert_int_equal(wn_reason_from_key(27), WN_REASON_NONE);
	assert_int_equal(wn_reason_from_name("Wrong-Rule", &r), WN_USAGE);
	assert_int_equal(wn_reason_from_name("", &r), WN_USAGE);
	assert_int_equal(wn_reason_from_name(NULL, &r), WN_USAGE);
}

/* WINNOW_NOW fixes "now" for whatever counts days back from it (the
 * queue's first screen); anything but a plain number is the clock. */
static void test_now(void **state)
{
	time_t before;

	(void) state;
	setenv("WINNOW_NOW", "1788220800", 1);
	assert_int_equal(wn_now(), 1788220800);
	setenv("WINNOW_NOW", "1788220800x", 1);
	before = time(NULL);
	assert_true(wn_now() >= before);
	unsetenv("WINNOW_NOW");
	assert_true(wn_now() >= before);
}

static void test_conf(void **state)
{
	wn_conf c;

	(void) state;
	assert_int_equal(wn_conf_init(&c), WN_OK);
	/* the default: every bot's own query term, or'ed */
	assert_true(strncmp(c.query, "from:sashiko-bot@kernel.org or ", 31) == 0);
	for (unsigned b = 0; b < WN_BOT_COUNT; b++)
		if (wn_bot_query((wn_bot) b))
			assert_non_null(strstr(c.query, wn_bot_query((wn_bot) b)));
	assert_string_equal(c.tagprefix, "winnow/");
	/* The interface asks why after f unless told not to. */
	assert_true(c.ask_reason);
	assert_int_equal(wn_conf_set(&c, "winnow.ask_reason", "false"), WN_OK);
	assert_false(c.ask_reason);
	assert_int_equal(wn_conf_set(&c, "ask_reason", "true"), WN_OK);
	assert_true(c.ask_reason);
	assert_string_equal(c.sendmail, "sendmail -t -oi");
	assert_null(c.optout[0]);
	assert_int_equal(wn_conf_set(&c, "winnow.query", "from:bot@example.org"), WN_OK);
	assert_string_equal(c.query, "from:bot@example.org");
	/* An empty query would match all mail: ignored. */
	assert_int_equal(wn_conf_set(&c, "winnow.query", ""), WN_OK);
	assert_string_equal(c.query, "from:bot@example.org");
	assert_int_equal(wn_conf_set(&c, "optout", " A@Example.org ;;b@example.org; "), WN_OK);
	assert_string_equal(c.optout[0], "a@example.org");
	assert_string_equal(c.optout[1], "b@example.org");
	assert_null(c.optout[2]);
	assert_int_equal(wn_conf_set(&c, "winnow.bots", "ai@example.org"), WN_OK);
	assert_string_equal(c.bots[0], "ai@example.org");
	assert_int_equal(wn_conf_set(&c, "winnow.future-key", "x"), WN_OK);
	/* winnow.newcomer: 5 by default, a count, refused otherwise. */
	assert_int_equal(c.newcomer, 5);
	assert_int_equal(wn_conf_set(&c, "winnow.newcomer", "12"), WN_OK);
	assert_int_equal(c.newcomer, 12);
	assert_int_equal(wn_conf_check(&c, NULL), WN_OK);
	assert_int_equal(wn_conf_set(&c, "winnow.newcomer", "0"), WN_OK);
	assert_int_equal(c.newcomer, 0);
	assert_int_equal(wn_conf_set(&c, "winnow.newcomer", "-3"), WN_OK);
	assert_int_equal(wn_conf_check(&c, NULL), WN_CONFIG);
	assert_int_equal(wn_conf_set(&c, "winnow.newcomer", "5x"), WN_OK);
	assert_int_equal(wn_conf_check(&c, NULL), WN_CONFIG);
	assert_int_equal(wn_conf_set(&c, "winnow.newcomer", ""), WN_OK);
	assert_int_equal(c.newcomer, 5);
	wn_conf_clear(&c);
}

/* --- journal --- */

static char tmpdir[64];

static int journal_setup(void **state)
{
	(void) state;
	strcpy(tmpdir, "/tmp/wn-journal-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int journal_teardown(void **state)
{
	char cmd[256];

	(void) state;
	snprintf(cmd, sizeof(cmd), "chmod -R u+w %s; rm -rf %s", tmpdir, tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

struct lines {
	int n;
	char text[8][64];
};

static wn_status collect(const char *line, size_t len, void *arg)
{
	struct lines *l = arg;

	if (l->n < 8)
		snprintf(l->text[l->n++], 64, "%.*s", (int) len, line);
	return WN_OK;
}

/* A compaction that keeps the last complete line. */
static wn_status keep_last(const char *data, size_t len, wn_buf *out, void *arg)
{
	const char *end = data + len, *p;

	(void) arg;
	assert_true(len > 0);
	assert_int_equal(data[len - 1], '\n');
	for (p = end - 1; p > data && p[-1] != '\n'; p--)
		;
	return wn_buf_append(out, p, (size_t) (end - p));
}

static void test_journal_roundtrip_and_torn(void **state)
{
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	struct lines l = { 0 };
	char dir[128];
	int torn = -1, fd;

	(void) state;
	snprintf(dir, sizeof(dir), "%s/state/winnow", tmpdir);
	assert_int_equal(wn_journal_open(dir, "/mail/db", &j, &err), WN_OK);
	assert_int_equal(wn_journal_append(j, "one\ntwo\n", 8, &err), WN_OK);
	/* A crash mid-write leaves a line without its newline. */
	fd = open(wn_journal_path(j), O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "thr", 3), 3);
	close(fd);
	assert_int_equal(wn_journal_read(j, collect, &l, &torn, &err), WN_OK);
	assert_int_equal(torn, 1);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.text[1], "two");
	/* The next append starts on a fresh line: the torn bytes stay an
	 * ignorable line of their own and the new entry is intact. */
	assert_int_equal(wn_journal_append(j, "four\n", 5, &err), WN_OK);
	memset(&l, 0, sizeof(l));
	assert_int_equal(wn_journal_read(j, collect, &l, &torn, &err), WN_OK);
	assert_int_equal(torn, 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.text[2], "thr");
	assert_string_equal(l.text[3], "four");
	/* Compaction sees the whole file and replaces it whole. */
	assert_int_equal(wn_journal_compact(j, keep_last, NULL, &err), WN_OK);
	memset(&l, 0, sizeof(l));
	assert_int_equal(wn_journal_read(j, collect, &l, &torn, &err), WN_OK);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.text[0], "four");
	wn_journal_close(&j);
	assert_null(j);
	wn_error_clear(&err);
}

/* Open a journal under DIR, made read-only here: 0 when the open fails
 * the way it should (WN_IO, "cannot create", permission denied). */
static int readonly_dir_case(const char *dir)
{
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	char sub[256];
	int rc;

	if (mkdir(dir, 0500) != 0)
		return 2;
	snprintf(sub, sizeof(sub), "%s/winnow", dir);
	rc = wn_journal_open(sub, "/mail/db", &j, &err) == WN_IO && !j &&
	     strstr(wn_error_msg(&err), "cannot create") &&
	     strstr(wn_error_msg(&err), strerror(EACCES)) ? 0 : 1;
	wn_journal_close(&j);
	wn_error_clear(&err);
	return rc;
}

static void test_journal_readonly_dir(void **state)
{
	char dir[128];
	const struct passwd *pw;
	uid_t uid = 65534;
	gid_t gid = 65534;
	pid_t pid;
	int status;

	(void) state;
	if (geteuid() != 0) {
		snprintf(dir, sizeof(dir), "%s/ro", tmpdir);
		assert_int_equal(readonly_dir_case(dir), 0);
		return;
	}
	/* Root writes through permissions, and CI runs as root: the case
	 * runs in a child that has become nobody, inside a directory of
	 * nobody's own (the path to it from / need not be searchable by
	 * nobody: the child enters it before it drops root). */
	pw = getpwnam("nobody");
	if (pw) {
		uid = pw->pw_uid;
		gid = pw->pw_gid;
	}
	snprintf(dir, sizeof(dir), "%s/nobody", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chown(dir, uid, gid), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (chdir(dir) != 0 || setgroups(0, NULL) != 0 || setgid(gid) != 0 ||
		    setuid(uid) != 0 || geteuid() == 0)
			_exit(3);
		_exit(readonly_dir_case("ro"));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_journal_disk_full(void **state)
{
	wn_journal *j = NULL;
	wn_error err = WN_ERROR_INIT;
	char dir[128];

	(void) state;
	snprintf(dir, sizeof(dir), "%s/full", tmpdir);
	assert_int_equal(wn_journal_open(dir, "/mail/db", &j, &err), WN_OK);
	/* /dev/full fails every write with ENOSPC, for root too. */
	assert_int_equal(unlink(wn_journal_path(j)), 0);
	assert_int_equal(symlink("/dev/full", wn_journal_path(j)), 0);
	assert_int_equal(wn_journal_append(j, "entry\n", 6, &err), WN_IO);
	assert_non_null(strstr(wn_error_msg(&err), "cannot write journal"));
	wn_journal_close(&j);
	wn_error_clear(&err);
}

static void test_journal_per_database(void **state)
{
	wn_journal *a = NULL, *b = NULL;
	char dir[128];

	(void) state;
	snprintf(dir, sizeof(dir), "%s/multi", tmpdir);
	assert_int_equal(wn_journal_open(dir, "/mail/one", &a, NULL), WN_OK);
	assert_int_equal(wn_journal_open(dir, "/mail/two", &b, NULL), WN_OK);
	assert_string_not_equal(wn_journal_path(a), wn_journal_path(b));
	wn_journal_close(&a);
	wn_journal_close(&b);
}

/* --- files a user names (wn_file_open, wn_file_read) --- */

static void test_file_regular(void **state)
{
	char path[128], link[128], fifo[128], big[128], *text = NULL;
	wn_error err = WN_ERROR_INIT;
	size_t len = 0;
	FILE *f;
	int fd;

	(void) state;
	snprintf(path, sizeof(path), "%s/plain", tmpdir);
	snprintf(link, sizeof(link), "%s/link", tmpdir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	snprintf(big, sizeof(big), "%s/big", tmpdir);
	assert_non_null(f = fopen(path, "w"));
	fputs("[winnow]\nquery=tag:x\n", f);
	fclose(f);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_non_null(f = fopen(big, "w"));
	for (int i = 0; i < 2048; i++)
		fputc('#', f);
	fclose(f);

	assert_int_equal(wn_file_read(path, 1024, 0, &text, &len, &err), WN_OK);
	assert_string_equal(text, "[winnow]\nquery=tag:x\n");
	assert_int_equal(len, 21);
	free(text);
	/* A link is followed unless told not to. */
	assert_int_equal(wn_file_read(link, 1024, 0, &text, NULL, &err), WN_OK);
	free(text);
	assert_int_equal(wn_file_read(link, 1024, WN_FILE_NOFOLLOW, &text, NULL, &err), WN_CONFIG);
	assert_null(text);
	assert_non_null(strstr(wn_error_msg(&err), "symbolic link"));
	/* A FIFO with no writer: refused at once, not waited on. */
	assert_int_equal(wn_file_open(fifo, 1024, 0, &err), -1);
	assert_int_equal(err.status, WN_CONFIG);
	assert_string_equal(wn_error_msg(&err), "not a regular file");
	assert_int_equal(wn_file_read(tmpdir, 1024, 0, &text, NULL, &err), WN_CONFIG);
	assert_string_equal(wn_error_msg(&err), "not a regular file");
	assert_int_equal(wn_file_read("/dev/zero", 1024, 0, &text, NULL, &err), WN_CONFIG);
	assert_int_equal(wn_file_read(big, 1024, 0, &text, NULL, &err), WN_CONFIG);
	assert_string_equal(wn_error_msg(&err), "larger than 1 KiB");
	assert_int_equal(wn_file_read(big, 100, 0, &text, NULL, &err), WN_CONFIG);
	assert_string_equal(wn_error_msg(&err), "larger than 100 bytes");
	assert_int_equal(wn_file_read(big, 2048, 0, &text, &len, &err), WN_OK);
	assert_int_equal(len, 2048);
	free(text);
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	assert_int_equal(wn_file_read(path, 1024, 0, &text, NULL, &err), WN_NOT_FOUND);
	assert_int_equal(wn_file_read(path, 1024, 0, &text, NULL, NULL), WN_NOT_FOUND);
	assert_true((fd = wn_file_open(big, 4096, 0, NULL)) >= 0);
	close(fd);
	wn_error_clear(&err);
}

/* --- files inside a tree (file.h): walked, never through a link --- */

static void test_file_in_tree(void **state)
{
	char tree[128], p[192], *text = NULL;
	wn_error err = WN_ERROR_INIT;
	FILE *f;

	(void) state;
	snprintf(tree, sizeof(tree), "%s/tree", tmpdir);
	snprintf(p, sizeof(p), "%s/tree/drivers/frob", tmpdir);
	assert_int_equal(wn_mkdirs(p, NULL), WN_OK);
	/* The file outside and the one inside, each written by its name. */
	for (int k = 0; k < 2; k++) {
		snprintf(p, sizeof(p), k ? "%s/tree/drivers/frob/frob.c" : "%s/secret", tmpdir);
		assert_non_null(f = fopen(p, "w"));
		fputs(k ? "int x;\n" : "secret\n", f);
		fclose(f);
	}
	/* A patch adding links: to a file outside, to a folder outside. */
	snprintf(p, sizeof(p), "%s/tree/drivers/frob/evil.c", tmpdir);
	assert_int_equal(symlink("../../../secret", p), 0);
	snprintf(p, sizeof(p), "%s/tree/drivers/evil", tmpdir);
	assert_int_equal(symlink(tmpdir, p), 0);

	assert_int_equal(wn_file_read_in(tree, "drivers/frob/frob.c", 100, &text, NULL, &err), WN_OK);
	assert_string_equal(text, "int x;\n");
	free(text);
	assert_int_equal(wn_file_read_in(tree, "drivers/frob/evil.c", 100, &text, NULL, &err), WN_CONFIG);
	assert_null(text);
	assert_string_equal(wn_error_msg(&err), "a symbolic link, not a regular file");
	assert_int_equal(wn_file_read_in(tree, "drivers/evil/secret", 100, &text, NULL, &err), WN_CONFIG);
	assert_string_equal(wn_error_msg(&err), "under a symbolic link");
	assert_int_equal(wn_file_open_in(tree, "drivers/../../secret", 100, &err), -1);
	assert_int_equal(err.status, WN_CONFIG);
	assert_int_equal(wn_file_open_in(tree, "/etc/passwd", 100, &err), -1);
	assert_int_equal(err.status, WN_CONFIG);
	assert_int_equal(wn_file_open_in(tree, "drivers/frob", 100, &err), -1);
	assert_string_equal(wn_error_msg(&err), "not a regular file");
	assert_int_equal(wn_file_read_in(tree, "drivers/none.c", 100, &text, NULL, NULL), WN_NOT_FOUND);
	assert_int_equal(wn_file_read_in(tree, "drivers/frob/frob.c/x", 100, &text, NULL, &err),
			 WN_NOT_FOUND);
	wn_error_clear(&err);
}

/* winnow.closed: a commit hash, or a fixed bug's title typed after '='
 * which must go into a "#syz fix:" line exactly. */
static void test_closed_values(void **state)
{
	const char *what = NULL;

	(void) state;
	assert_true(wn_closed_ok("fix 0123456789abcdef"));
	assert_true(wn_closed_ok("dup a@b.example"));
	assert_false(wn_closed_ok("dup a b"));
	assert_true(wn_closed_ok("fix =quill: check the mapping in quill_write_begin()"));
	assert_true(wn_closed_ok("fix =caf\xc3\xa9: UTF-8 is sent as it is"));
	assert_false(wn_closed_ok("fix =two\nlines"));
	assert_false(wn_closed_ok("fix =a\rb"));
	assert_false(wn_closed_ok("fix =blank at its end "));
	assert_false(wn_closed_ok("fix = blank first"));
	assert_false(wn_closed_ok("fix ="));
	assert_false(wn_closed_ok("fix =not \xff UTF-8"));
	/* only a fixed bug's what is a title */
	assert_false(wn_closed_ok("dup =a title"));
	assert_int_equal(wn_crash_of(WN_VERDICT_VALID, "fix =a title", &what), WN_CRASH_FIXED);
	assert_string_equal(wn_closed_title(WN_CRASH_FIXED, what), "a title");
	assert_int_equal(wn_crash_of(WN_VERDICT_VALID, "fix 0123abc", &what), WN_CRASH_FIXED);
	assert_null(wn_closed_title(WN_CRASH_FIXED, what));
	assert_null(wn_closed_title(WN_CRASH_DUPLICATE, "=x"));
}

/* A log's older paths (fill) are known before its first path is put,
 * and only then: a path the older log holds is not put again, a new
 * one is, and a run that puts none never reads the older paths. */
static int fills;

static bool fill_old(void *arg)
{
	fills++;
	return wn_readlog_know(arg, "/m/old", 6);
}

/* A file's identity as "%lld %lld.%09ld %lld.%09ld %llu %llu" writes
 * its numbers (fileid.c writes them itself), at the edges too. */
static void test_file_ident_numbers(void **state)
{
	static const long long sizes[] = { 0, 7, 1234567890123LL, -1, LLONG_MIN, LLONG_MAX };
	static const long nsecs[] = { 0, 5, 999999999, 120000000 };
	(void) state;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (size_t k = 0; k < sizeof(nsecs) / sizeof(nsecs[0]); k++) {
			struct stat sb = { 0 };
			char want[256], *got = NULL;
			size_t n = 0, wn;

			sb.st_mode = S_IFREG | 0644;
			sb.st_size = (off_t) sizes[i];
			sb.st_mtim.tv_sec = 1000000000 + (time_t) i;
			sb.st_mtim.tv_nsec = nsecs[k];
			sb.st_ctim.tv_sec = (time_t) k;
			sb.st_ctim.tv_nsec = nsecs[(k + 1) % 4];
			sb.st_ino = i ? (ino_t) -1 : 0;
			sb.st_dev = (dev_t) (k * 1000003);
			wn = (size_t) snprintf(
				want, sizeof(want), "/m/a%c%lld %lld.%09ld %lld.%09ld %llu %llu", 0,
				(long long) sb.st_size, (long long) sb.st_mtim.tv_sec,
				(long) sb.st_mtim.tv_nsec, (long long) sb.st_ctim.tv_sec,
				(long) sb.st_ctim.tv_nsec, (unsigned long long) sb.st_ino,
				(unsigned long long) sb.st_dev);
			assert_true(wn_file_ident("/m/a", &sb, &got, &n));
			assert_int_equal(n, wn);
			assert_memory_equal(got, want, n);
			free(got);
		}
}

static void test_readlog_fill(void **state)
{
	wn_readlog log = WN_READLOG_INIT;
	struct stat sb = { .st_mode = S_IFREG | 0644, .st_size = 10 };
	FILE *tmp = tmpfile();

	(void) state;
	assert_non_null(tmp);
	sb.st_mtim.tv_sec = sb.st_ctim.tv_sec = time(NULL) - 3600;
	log.fd = dup(fileno(tmp));
	fclose(tmp);
	log.fill = fill_old;
	log.fill_arg = &log;
	fills = 0;
	assert_true(wn_readlog_watch(&log));
	assert_int_equal(fills, 0);
	wn_readlog_note("/m/old", &sb);
	assert_int_equal(fills, 1);
	assert_int_equal(log.added, 0);
	wn_readlog_note("/m/new", &sb);
	wn_readlog_note("/m/old", &sb);
	assert_int_equal(fills, 1);
	assert_int_equal(log.added, 1);
	assert_false(log.unsure);
	wn_readlog_free(&log);
}

/* path written with text, and its identity in *sb. */
static void write_text(const char *path, const char *text, struct stat *sb)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(stat(path, sb), 0);
}

/* The entry the log holds (the first), its hash in *hash. */
static void first_entry(const wn_readlog *log, const char *path, uint64_t *hash)
{
	wn_readlog_rd rd = WN_READLOG_RD_INIT;
	const char *got = wn_readlog_next(log, &rd, hash);

	assert_non_null(got);
	assert_string_equal(got, path);
	wn_buf_free(&rd.buf);
}

static void watch_new(wn_readlog *log)
{
	FILE *tmp = tmpfile();

	assert_non_null(tmp);
	*log = (wn_readlog) WN_READLOG_INIT;
	log->fd = dup(fileno(tmp));
	fclose(tmp);
	assert_true(wn_readlog_watch(log));
}

static bool gone_ok(const char *path, void *arg)
{
	(void) path;
	(void) arg;
	return true;
}

/* A file the facts found as it was at their open is vouched for: a
 * cache's check of the same identity in that pass needs no stat() and is
 * noted as one; any other identity, another path, a file that is gone,
 * or no log watched is no vouch (the check then asks the file). */
static void test_readlog_vouch(void **state)
{
#ifdef WN_TEST_HOOKS
	char dir[] = "/tmp/winnow-vouch.XXXXXX", path[64], other[64];
	char *ident = NULL, *ident2 = NULL, *bad = NULL;
	size_t n = 0, n2 = 0;
	wn_readlog log;
	struct stat sb, sb2;
	uint64_t now;

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m", dir);
	snprintf(other, sizeof(other), "%s/n", dir);
	/* Every file as if delivered long ago: each has an identity. */
	setenv("WINNOW_TEST_SETTLE_SHIFT", "86400", 1);
	write_text(path, "Subject: x\n\nbody\n", &sb);
	write_text(other, "Subject: y\n\nbody\n", &sb2);
	assert_true(wn_file_ident(path, &sb, &ident, &n));
	assert_true(wn_file_ident(other, &sb2, &ident2, &n2));
	watch_new(&log);
	assert_false(wn_file_ident_vouched(ident, n)); /* nothing vouched yet */
	assert_true(wn_readlog_holds(&log, path, wn_readlog_hash(&sb), 0, &now, NULL, NULL));
	assert_int_equal(log.vn, 1);
	assert_true(wn_file_ident_vouched(ident, n));
	assert_int_equal(log.added, 1); /* noted, as the stat() would be */
	assert_false(log.unsure);
	/* The other file was never checked. */
	assert_false(wn_file_ident_vouched(ident2, n2));
	/* The same path with another identity (one byte of its size). */
	bad = malloc(n);
	assert_non_null(bad);
	memcpy(bad, ident, n);
	bad[strlen(path) + 1] =
		bad[strlen(path) + 1] == '9' ? '8' : (char) (bad[strlen(path) + 1] + 1);
	assert_false(wn_file_ident_vouched(bad, n));
	/* Cut short, or no path's end in it. */
	assert_false(wn_file_ident_vouched(ident, n - 1));
	assert_false(wn_file_ident_vouched(ident, strlen(path)));
	/* A file gone that the caller lets hold is vouched for by no one. */
	assert_true(wn_readlog_holds(&log, "/nonexistent/winnow/m", 12345, 0, &now, gone_ok, NULL));
	assert_int_equal(log.vn, 1);
	/* Another identity than the file's: no hold, no vouch. */
	assert_false(wn_readlog_holds(&log, other, wn_readlog_hash(&sb2) ^ 2, 0, &now, NULL, NULL));
	assert_int_equal(log.vn, 1);
	/* Not watched: no vouch. */
	wn_readlog_watch(NULL);
	assert_false(wn_file_ident_vouched(ident, n));
	wn_readlog_free(&log);
	/* Unsettled now (just delivered): no identity, no vouch. */
	watch_new(&log);
	assert_true(wn_readlog_holds(&log, path, wn_readlog_hash(&sb), 0, &now, NULL, NULL));
	setenv("WINNOW_TEST_SETTLE_SHIFT", "-86400", 1);
	assert_false(wn_file_ident_vouched(ident, n));
	wn_readlog_free(&log);
	unsetenv("WINNOW_TEST_SETTLE_SHIFT");
	free(ident);
	free(ident2);
	free(bad);
	unlink(path);
	unlink(other);
	rmdir(dir);
#else
	(void) state;
	skip();
#endif
}

/* A file read before it had an identity is noted by its bytes, which
 * hold while they are the same (whatever its identity does) and not
 * once one changes, the file grows or it is gone; once it has an
 * identity, that is what it is noted by from then on. */
static void test_readlog_bytes(void **state)
{
#ifdef WN_TEST_HOOKS
	const char *text = "From: a@example.org\nSubject: x\n\nbody\n";
	char dir[] = "/tmp/winnow-readlog.XXXXXX", path[64], other[64];
	wn_readlog log;
	struct stat sb, now_sb;
	uint64_t hash, now, seed;
	int fd;
	char head[8];

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m", dir);
	snprintf(other, sizeof(other), "%s/n", dir);
	/* Every file as if just delivered. */
	setenv("WINNOW_TEST_SETTLE_SHIFT", "-86400", 1);
	write_text(path, text, &sb);
	watch_new(&log);
	wn_readlog_note_read(path, &sb, text, strlen(text));
	assert_false(log.unsure);
	assert_int_equal(log.added, 1);
	assert_true(wn_readlog_flush(&log));
	first_entry(&log, path, &hash);
	assert_true(hash & WN_READLOG_BYTES);
	seed = log.content_seed;
	assert_true(seed != 0);
	assert_true(wn_readlog_holds(NULL, path, hash, seed, &now, NULL, NULL));
	assert_true(now == hash); /* no identity yet: still its bytes */
	assert_false(wn_readlog_holds(NULL, path, hash, seed + 1, &now, NULL, NULL));
	/* One byte changed, the size kept: not the same. */
	write_text(path, "From: b@example.org\nSubject: x\n\nbody\n", &now_sb);
	assert_false(wn_readlog_holds(NULL, path, hash, seed, &now, NULL, NULL));
	/* The same bytes again (another identity): the same. */
	write_text(path, text, &now_sb);
	assert_true(wn_readlog_holds(NULL, path, hash, seed, &now, NULL, NULL));
	write_text(path, "From: a@example.org\nSubject: x\n\nbody\n\n", &now_sb);
	assert_false(wn_readlog_holds(NULL, path, hash, seed, &now, NULL, NULL));
	assert_int_equal(unlink(path), 0);
	assert_false(wn_readlog_holds(NULL, path, hash, seed, &now, NULL, NULL));
	/* Settled: its identity from now on. */
	write_text(path, text, &now_sb);
	setenv("WINNOW_TEST_SETTLE_SHIFT", "86400", 1);
	assert_true(wn_readlog_holds(NULL, path, hash, seed, &now, NULL, NULL));
	assert_int_equal(stat(path, &now_sb), 0);
	assert_true(now == wn_readlog_hash(&now_sb));
	assert_false(now & WN_READLOG_BYTES);
	wn_readlog_free(&log);

	/* Read by its head (parent.c): noted by its bytes when the head is
	 * what the file starts with, else unsure; read with neither an
	 * identity nor its bytes: unsure. */
	setenv("WINNOW_TEST_SETTLE_SHIFT", "-86400", 1);
	watch_new(&log);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, head, sizeof(head)), (ssize_t) sizeof(head));
	wn_readlog_note_fd(path, fd, &sb, head, sizeof(head));
	assert_false(log.unsure);
	assert_true(wn_readlog_flush(&log));
	first_entry(&log, path, &hash);
	assert_true(hash & WN_READLOG_BYTES);
	assert_true(wn_readlog_holds(NULL, path, hash, log.content_seed, &now, NULL, NULL));
	head[0] ^= 1;
	wn_readlog_note_fd(other, fd, &sb, head, sizeof(head));
	assert_true(log.unsure);
	close(fd);
	wn_readlog_free(&log);
	watch_new(&log);
	wn_readlog_note_read(path, &sb, NULL, 0);
	assert_true(log.unsure);
	wn_readlog_free(&log);
	unsetenv("WINNOW_TEST_SETTLE_SHIFT");
	unlink(path);
	rmdir(dir);
#else
	(void) state;
	skip();
#endif
}

/* The first line of the file open at fd (closed). */
static void expect_text(int fd, const char *want)
{
	char got[64] = "";
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	assert_true(n >= 0);
	got[n] = '\0';
	assert_string_equal(got, want);
}

/* Mail opened through its folder's kept descriptor: the same file as
 * by its path; a folder replaced since is left for the path; a file not
 * there says so. */
static void test_open_mail(void **state)
{
	char dir[] = "/tmp/winnow-open.XXXXXX", sub[64], old[64], a[80], b[80], c[80];
	struct stat sb;

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/cur", dir);
	snprintf(old, sizeof(old), "%s/was", dir);
	snprintf(a, sizeof(a), "%s/a", sub);
	snprintf(b, sizeof(b), "%s/b", sub);
	snprintf(c, sizeof(c), "%s/c", sub);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_text(a, "first", &sb);
	write_text(b, "second", &sb);
	expect_text(wn_open_mail(a), "first");
	expect_text(wn_open_mail(b), "second");
	errno = 0;
	assert_int_equal(wn_open_mail(c), -1);
	assert_int_equal(errno, ENOENT);
	/* The folder moved away and another put at its path. */
	assert_int_equal(rename(sub, old), 0);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_text(c, "third", &sb);
	expect_text(wn_open_mail(c), "third");
	expect_text(wn_open_mail(c), "third");
	unlink(c);
	rmdir(sub);
	snprintf(c, sizeof(c), "%s/a", old);
	unlink(c);
	snprintf(c, sizeof(c), "%s/b", old);
	unlink(c);
	rmdir(old);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_codes),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_readlog_fill),
		cmocka_unit_test(test_readlog_bytes),
		cmocka_unit_test(test_readlog_vouch),
		cmocka_unit_test(test_open_mail),
		cmocka_unit_test(test_file_ident_numbers),
		cmocka_unit_test(test_str_find),
		cmocka_unit_test(test_sum64),
		cmocka_unit_test(test_fnv32),
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_reason_names),
		cmocka_unit_test(test_closed_values),
		cmocka_unit_test(test_now),
		cmocka_unit_test(test_conf),
		cmocka_unit_test_setup_teardown(test_journal_roundtrip_and_torn, journal_setup,
						journal_teardown),
		cmocka_unit_test_setup_teardown(test_journal_readonly_dir, journal_setup,
						journal_teardown),
		cmocka_unit_test_setup_teardown(test_journal_disk_full, journal_setup,
						journal_teardown),
		cmocka_unit_test_setup_teardown(test_journal_per_database, journal_setup,
						journal_teardown),
		cmocka_unit_test_setup_teardown(test_file_regular, journal_setup, journal_teardown),
		cmocka_unit_test_setup_teardown(test_file_in_tree, journal_setup, journal_teardown),
	};

	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
