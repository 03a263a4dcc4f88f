/* The least libnotmuch does for what a cold `winnow stats` needs: the
 * floor under it (bench/RESULTS.md, "Why stats cold stays over 0.8x").
 * Reads thread ids, one a line, and for each one:
 *
 *   count  counts the thread's messages (one query, no message read);
 *   date   lists them and reads each one's date (one document value);
 *   from   ... and each one's From too (a second value, read after all
 *          the dates, as winnow reads a thread);
 *
 *   batch  with a batch size N after it: the same listing (date and
 *          From) asked N threads at a time, "thread:A or thread:B ...",
 *          each message put back in its thread by its thread id (which
 *          notmuch keeps in the message's term list, not in a value);
 *   or     ... the same queries without the thread ids: what batching
 *          could save if a message's thread came free.
 *
 * or Message-IDs, one a line, and for each one:
 *
 *   file   finds the message, its file name (which notmuch keeps in the
 *          message's term list) and reads the file whole;
 *   name   ... and stops at the file name (the term list's share).
 *
 *   cc -O2 -o floor bench/floor.c -lnotmuch
 *   notmuch search --output=threads "$(winnow list --print-query)" |
 *       sed 's/^thread://' | /usr/bin/time ./floor DATABASE-PATH date
 *   (the same threads) | /usr/bin/time ./floor DATABASE-PATH batch 300
 *   notmuch search --output=messages "$(winnow list --print-query)" |
 *       sed 's/^id://' | /usr/bin/time ./floor DATABASE-PATH file
 *
 * Not built by make: a measuring tool for the benchmark's readers;
 * tests/integration/bench-smoke.sh builds and runs it once. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <notmuch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: floor DATABASE-PATH count|date|from < thread-ids\n"
			"       floor DATABASE-PATH batch|or N < thread-ids\n"
			"       floor DATABASE-PATH file|name < message-ids\n");
	return 2;
}

static notmuch_database_t *open_db(const char *path)
{
	notmuch_database_t *db = NULL;
	char *msg = NULL;

	if (notmuch_database_open_with_config(path, NOTMUCH_DATABASE_MODE_READ_ONLY, "", NULL, &db,
					      &msg) != NOTMUCH_STATUS_SUCCESS) {
		/* notmuch's message ends in a newline of its own. */
		fprintf(stderr, "floor: %s: %s%s", path, msg ? msg : "cannot open",
			msg && *msg && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
		return NULL;
	}
	return db;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The listing of `from`, n threads a query.  With by_thread, each
 * message's thread id is read and looked up among the batch's (the
 * grouping a caller needs), and a message of no thread asked is an
 * error. */
static int batched(const char *path, size_t n, int by_thread)
{
	notmuch_database_t *db = open_db(path);
	char **tids = NULL, line[1024];
	size_t ntids = 0, cap = 0, mcap = 0;
	unsigned long messages = 0, values = 0;
	notmuch_message_t **m = NULL;
	int rc = 0;

	if (!db)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (ntids == cap &&
		    !(tids = realloc(tids, (cap = cap ? 2 * cap : 1024) * sizeof(*tids))))
			return 1;
		if (!(tids[ntids++] = strdup(line)))
			return 1;
	}
	for (size_t b = 0; b < ntids && !rc; b += n) {
		size_t k = ntids - b < n ? ntids - b : n, len = 1, got = 0;
		notmuch_messages_t *ms = NULL;
		notmuch_query_t *q;
		char *qs, *at;

		for (size_t i = 0; i < k; i++)
			len += strlen(tids[b + i]) + 12;
		if (!(at = qs = malloc(len)))
			return 1;
		for (size_t i = 0; i < k; i++)
			at += sprintf(at, "%sthread:%s", i ? " or " : "", tids[b + i]);
		q = notmuch_query_create(db, qs);
		free(qs);
		if (!q)
			return 1;
		/* The batch's ids sorted, for the messages' lookups. */
		qsort(tids + b, k, sizeof(*tids), cmp_str);
		notmuch_query_set_sort(q, NOTMUCH_SORT_UNSORTED);
		if (notmuch_query_search_messages(q, &ms) != NOTMUCH_STATUS_SUCCESS)
			ms = NULL;
		for (; ms && notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
			if (got == mcap &&
			    !(m = realloc(m, (mcap = mcap ? 2 * mcap : 64) * sizeof(*m))))
				return 1;
			m[got++] = notmuch_messages_get(ms);
		}
		for (size_t i = 0; by_thread && i < got; i++) {
			const char *tid = notmuch_message_get_thread_id(m[i]);

			if (!tid || !bsearch(&tid, tids + b, k, sizeof(*tids), cmp_str)) {
				fprintf(stderr, "floor: a message of thread %s, not asked\n",
					tid ? tid : "(none)");
				rc = 1;
			}
		}
		messages += got;
		for (size_t i = 0; i < got; i++)
			values += notmuch_message_get_date(m[i]) > 0;
		for (size_t i = 0; i < got; i++)
			values += notmuch_message_get_header(m[i], "from") != NULL;
		notmuch_query_destroy(q);
	}
	if (!rc)
		printf("%zu threads, %lu messages, %lu values\n", ntids, messages, values);
	for (size_t i = 0; i < ntids; i++)
		free(tids[i]);
	free(tids);
	free(m);
	notmuch_database_destroy(db);
	return rc;
}

int main(int argc, char **argv)
{
	notmuch_database_t *db = NULL;
	notmuch_message_t **m = NULL;
	unsigned long threads = 0, messages = 0, values = 0;
	size_t cap = 0;
	char line[1024], qs[1100];
	int mode;

	if (argc == 4 && (!strcmp(argv[2], "batch") || !strcmp(argv[2], "or"))) {
		long n = strtol(argv[3], NULL, 10);

		return n > 0 ? batched(argv[1], (size_t) n, !strcmp(argv[2], "batch")) : usage();
	}
	if (argc != 3)
		return usage();
	if (!strcmp(argv[2], "count"))
		mode = 0;
	else if (!strcmp(argv[2], "date"))
		mode = 1;
	else if (!strcmp(argv[2], "from"))
		mode = 2;
	else if (!strcmp(argv[2], "file"))
		mode = 3;
	else if (!strcmp(argv[2], "name"))
		mode = 4;
	else
		return usage();
	if (!(db = open_db(argv[1])))
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		notmuch_messages_t *ms = NULL;
		notmuch_query_t *q;
		size_t n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (mode >= 3) {
			notmuch_message_t *message = NULL;
			const char *path;
			char buf[65536];
			ssize_t got;
			int fd;

			if (notmuch_database_find_message(db, line, &message) != NOTMUCH_STATUS_SUCCESS ||
			    !message)
				continue;
			messages++;
			path = notmuch_message_get_filename(message);
			if (mode == 4)
				values += path != NULL;
			else if (path && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
				while ((got = read(fd, buf, sizeof(buf))) > 0)
					values += (unsigned long) got;
				close(fd);
			}
			notmuch_message_destroy(message);
			continue;
		}
		snprintf(qs, sizeof(qs), "thread:%s", line);
		if (!(q = notmuch_query_create(db, qs)))
			return 1;
		notmuch_query_set_sort(q, NOTMUCH_SORT_UNSORTED);
		threads++;
		if (mode == 0) {
			unsigned c = 0;

			if (notmuch_query_count_messages(q, &c) == NOTMUCH_STATUS_SUCCESS)
				messages += c;
		} else if (notmuch_query_search_messages(q, &ms) == NOTMUCH_STATUS_SUCCESS) {
			for (; notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
				if (n == cap) {
					notmuch_message_t **g = realloc(m, (cap = cap ? 2 * cap : 64) * sizeof(*m));

					if (!g)
						return 1;
					m = g;
				}
				m[n++] = notmuch_messages_get(ms);
			}
			messages += n;
			for (size_t i = 0; i < n; i++)
				values += notmuch_message_get_date(m[i]) > 0;
			for (size_t i = 0; mode == 2 && i < n; i++)
				values += notmuch_message_get_header(m[i], "from") != NULL;
		}
		notmuch_query_destroy(q);
	}
	if (mode == 3)
		printf("%lu messages, %lu bytes\n", messages, values);
	else if (mode == 4)
		printf("%lu messages, %lu names\n", messages, values);
	else
		printf("%lu threads, %lu messages, %lu values\n", threads, messages, values);
	free(m);
	notmuch_database_destroy(db);
	return 0;
}
