/* The least libnotmuch does for what a cold `winnow stats` needs: the
 * floor under it (bench/RESULTS.md, "Why stats cold stays over 0.8x").
 * Reads thread ids, one a line, and for each one:
 *
 *   count  counts the thread's messages (one query, no message read);
 *   date   lists them and reads each one's date (one document value);
 *   from   ... and each one's From too (a second value, read after all
 *          the dates, as winnow reads a thread);
 *
 * or Message-IDs, one a line, and for each one:
 *
 *   file   finds the message, its file name (which notmuch keeps in the
 *          message's term list) and reads the file whole.
 *
 *   cc -O2 -o floor bench/floor.c -lnotmuch
 *   notmuch search --output=threads "$(winnow list --print-query)" |
 *       sed 's/^thread://' | /usr/bin/time ./floor DATABASE-PATH date
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
			"       floor DATABASE-PATH file < message-ids\n");
	return 2;
}

int main(int argc, char **argv)
{
	notmuch_database_t *db = NULL;
	notmuch_message_t **m = NULL;
	unsigned long threads = 0, messages = 0, values = 0;
	size_t cap = 0;
	char *msg = NULL, line[1024], qs[1100];
	int mode;

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
	else
		return usage();
	if (notmuch_database_open_with_config(argv[1], NOTMUCH_DATABASE_MODE_READ_ONLY, "", NULL,
					      &db, &msg) != NOTMUCH_STATUS_SUCCESS) {
		/* notmuch's message ends in a newline of its own. */
		fprintf(stderr, "floor: %s: %s%s", argv[1], msg ? msg : "cannot open",
			msg && *msg && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		notmuch_messages_t *ms = NULL;
		notmuch_query_t *q;
		size_t n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (mode == 3) {
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
			if (path && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
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
	else
		printf("%lu threads, %lu messages, %lu values\n", threads, messages, values);
	free(m);
	notmuch_database_destroy(db);
	return 0;
}
