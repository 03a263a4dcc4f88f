/* winnow — test driver for trailer-oracle.sh: prints the trailer block
 * that wn_trailers_parse() finds, one "key: value" line per trailer, in
 * the format of `git interpret-trailers --parse`.
 *
 *   trailer-dump FILE          FILE is a mail: parse its decoded body
 *   trailer-dump --body FILE   print the decoded body of the mail FILE
 *   trailer-dump --text FILE   FILE is the body text itself
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/buf.h"
#include "winnow/mail.h"
#include "winnow/trailer.h"

static int read_file(const char *path, wn_buf *b)
{
	char chunk[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (wn_buf_append(b, chunk, n) != WN_OK) {
			fclose(f);
			return -1;
		}
	fclose(f);
	return 0;
}

static int dump(const char *body, size_t len)
{
	wn_patch_trailers *t = NULL;
	wn_error err = WN_ERROR_INIT;
	size_t i;

	if (wn_trailers_parse(body, len, &t, &err) != WN_OK) {
		fprintf(stderr, "trailer-dump: %s\n", wn_error_msg(&err));
		wn_error_clear(&err);
		return 1;
	}
	for (i = 0; i < t->ntrailers; i++)
		printf("%s: %s\n", t->trailers[i].key, t->trailers[i].value);
	wn_trailers_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	wn_mail *m = NULL;
	wn_error err = WN_ERROR_INIT;
	const char *mode = "";
	const char *path;
	int rc;

	if (argc == 3 && argv[1][0] == '-') {
		mode = argv[1];
		path = argv[2];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: trailer-dump [--body|--text] FILE\n");
		return 2;
	}
	if (!strcmp(mode, "--text")) {
		wn_buf b = WN_BUF_INIT;

		if (read_file(path, &b) < 0)
			return 2;
		rc = dump(wn_buf_str(&b), b.len);
		wn_buf_free(&b);
		return rc;
	}
	if (*mode && strcmp(mode, "--body")) {
		fprintf(stderr, "trailer-dump: unknown option %s\n", mode);
		return 2;
	}
	if (wn_mail_parse_file(path, &m, &err) != WN_OK) {
		fprintf(stderr, "trailer-dump: %s\n", wn_error_msg(&err));
		wn_error_clear(&err);
		return 2;
	}
	if (*mode)
		rc = fwrite(m->body, 1, m->body_len, stdout) == m->body_len ? 0 : 2;
	else
		rc = dump(m->body, m->body_len);
	wn_mail_free(&m);
	return rc;
}
