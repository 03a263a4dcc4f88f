/* winnow — a patch's thread from the notmuch database as an mbox, for
 * b4 (b4 am -m): the series comes from the mail we have, never from the
 * network.  mboxrd: a body line "From ..." (after any '>') gets one more
 * '>', so that every message reads back whole. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <notmuch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/str.h"
#include "../index/index-nm.h"
#include "lore-private.h"
#include "winnow/text.h"

/* A mail larger than this is no patch mail. */
#define MAIL_MAX (64u << 20)

static void put_mboxrd(FILE *out, const char *text, size_t len)
{
	size_t pos = 0, n;
	const char *l;

	fputs("From mboxrd@z Thu Jan  1 00:00:00 1970\n", out);
	while (wn_str_next_line(text, len, &pos, &l, &n)) {
		size_t q = 0;

		while (q < n && l[q] == '>')
			q++;
		if (n - q >= 5 && !memcmp(l + q, "From ", 5))
			fputc('>', out);
		fwrite(l, 1, n, out);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static wn_status write_thread(wn_index *idx, const char *tid, FILE *out, char **root, wn_error *err)
{
	char *qs = wn_strdupf("thread:%s", tid);
	notmuch_query_t *q = qs ? wn_index_query_new(idx, qs) : NULL;
	notmuch_messages_t *msgs = NULL;
	wn_status st = WN_OK;

	if (!q) {
		free(qs);
		return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	if (notmuch_query_search_messages(q, &msgs) != NOTMUCH_STATUS_SUCCESS) {
		st = wn_error_set(err, WN_DB, "cannot read the patch's thread");
		goto out;
	}
	for (; st == WN_OK && notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *m = notmuch_messages_get(msgs);
		const char *file = notmuch_message_get_filename(m);
		wn_error skip = WN_ERROR_INIT;
		char *text = NULL;
		size_t len = 0;

		if (!*root && !(*root = strdup(notmuch_message_get_message_id(m))))
			st = wn_error_set(err, WN_NOMEM, "out of memory");
		/* A file gone since it was indexed: the others still make
		 * the series, or b4 says what is missing. */
		if (st == WN_OK && file && wn_file_read(file, MAIL_MAX, 0, &text, &len, &skip) == WN_OK)
			put_mboxrd(out, text, len);
		free(text);
		wn_error_clear(&skip);
		notmuch_message_destroy(m);
	}
out:
	notmuch_query_destroy(q);
	free(qs);
	return st;
}

wn_status wn_lore_thread_mbox(wn_index *idx, const char *msgid, const char *path, char **root,
			      wn_error *err)
{
	notmuch_message_t *m = wn_index_find_message(idx, msgid);
	char *tid = m ? strdup(notmuch_message_get_thread_id(m)) : NULL;
	int fd;
	FILE *out;
	wn_status st;

	*root = NULL;
	if (m)
		notmuch_message_destroy(m);
	if (!m)
		return wn_error_set(err, WN_NOT_FOUND, "the patch is not in the database");
	if (!tid)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		st = wn_error_set(err, WN_IO, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tid);
		return st;
	}
	st = write_thread(idx, tid, out, root, err);
	if ((ferror(out) | fclose(out)) && st == WN_OK)
		st = wn_error_set(err, WN_IO, "cannot write %s: %s", path, strerror(errno));
	free(tid);
	if (st != WN_OK) {
		free(*root);
		*root = NULL;
	}
	return st;
}
