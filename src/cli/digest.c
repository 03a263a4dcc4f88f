/* winnow — digests out of the command line (digest.h). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "digest.h"
#include "winnow/text.h"

/* --- mbox ------------------------------------------------------------------- */

/* mboxrd: a "From " line, ">From " lines quoted once more, a blank line. */
static void mbox_one(const wn_buf *mail, const char *date)
{
	const char *p = wn_buf_str(mail);

	printf("From winnow %s\n", date);
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (strncmp(p + strspn(p, ">"), "From ", 5) == 0)
			putchar('>');
		printf("%.*s\n", (int) n, p);
		p += n + (p[n] == '\n');
	}
	putchar('\n');
}

void wn_mbox_date(time_t t, char *out, size_t n)
{
	/* Not strftime's %a %b: they follow LC_TIME, which main sets. */
	static const char day[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char month[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	if (!gmtime_r(&t, &tm) || tm.tm_wday < 0 || tm.tm_wday > 6 || tm.tm_mon < 0 || tm.tm_mon > 11) {
		snprintf(out, n, "Thu Jan  1 00:00:00 1970");
		return;
	}
	snprintf(out, n, "%s %s %2d %02d:%02d:%02d %lld", day[tm.tm_wday], month[tm.tm_mon],
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long long) tm.tm_year + 1900);
}

int wn_digest_mbox(wn_cli *cli, wn_forward **m, size_t n)
{
	wn_error err = WN_ERROR_INIT;
	time_t now = wn_forward_now();
	char date[64];
	int rc = 0;

	wn_mbox_date(now, date, sizeof(date));
	for (size_t k = 0; k < n && !rc; k++) {
		wn_buf mail = WN_BUF_INIT;

		if (wn_forward_render(m[k], now, &mail, &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
		else
			mbox_one(&mail, date);
		wn_buf_free(&mail);
	}
	wn_error_clear(&err);
	return rc;
}

/* --- confirm, then send --------------------------------------------------------- */

static int save(wn_cli *cli, wn_forward **m, size_t n, const char *dir)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	for (size_t k = 0; k < n && !rc; k++)
		if (wn_forward_draft_save(m[k], dir, &err) != WN_OK)
			rc = wn_cli_fail(cli, &err);
	wn_error_clear(&err);
	return rc;
}

/* Every draft in one editor session, then read back; false when one
 * does not read (said why). */
static bool edit(wn_cli *cli, wn_forward **m, size_t n, const char *dir)
{
	wn_error err = WN_ERROR_INIT;
	const char **paths = calloc(n, sizeof(*paths));
	bool ok = paths != NULL;

	for (size_t k = 0; ok && k < n; k++)
		ok = (paths[k] = wn_forward_draft_path(m[k], dir)) != NULL;
	if (ok && wn_run_editor(paths, n, &err) != WN_OK) {
		wn_cli_say(cli, "", wn_error_msg(&err));
		ok = false;
	}
	for (size_t k = 0; paths && k < n; k++) {
		if (wn_forward_draft_reload(m[k], dir, &err) != WN_OK) {
			wn_cli_say(cli, "", wn_error_msg(&err));
			ok = false;
		}
		free((char *) paths[k]);
	}
	free(paths);
	wn_error_clear(&err);
	return ok;
}

static void list(wn_forward **m, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char *line = NULL, *clean;

		if (asprintf(&line, "%zu. To: %s\n   Subject: %s", k + 1, m[k]->to, m[k]->subject) < 0)
			continue;
		clean = wn_text_sanitize(line, WN_TEXT_KEEP_NEWLINE);
		fprintf(stderr, "%s\n", clean ? clean : "");
		free(clean);
		free(line);
	}
}

/* "y", "e" or "c" ("c" at the end of input). */
static char ask(size_t n, bool ok)
{
	char *line = NULL, c = 'c';
	size_t cap = 0;

	for (;;) {
		if (ok)
			fprintf(stderr, "Send %zu mail%s? [y]es, [e]dit again, [c]ancel: ", n, n == 1 ? "" : "s");
		else
			fprintf(stderr, "Fix the draft first: [e]dit again, [c]ancel: ");
		if (getline(&line, &cap, stdin) < 0) {
			c = 'c';
			break;
		}
		c = line[strspn(line, " \t")];
		if (c && strchr(ok ? "yec" : "ec", c))
			break;
	}
	free(line);
	return c;
}

static int send_all(wn_cli *cli, wn_forward **m, size_t n, wn_digest_sent_fn sent, void *arg)
{
	wn_error err = WN_ERROR_INIT;
	int rc = 0;

	for (size_t k = 0; k < n; k++) {
		char *warning = NULL;

		if (wn_forward_send(cli->idx, cli->store, m[k], NULL, &warning, &err) != WN_OK) {
			wn_cli_say(cli, "", wn_error_msg(&err));
			rc = 2;
			continue;
		}
		printf("sent <%s>: %s\n", m[k]->message_id, m[k]->subject);
		if (warning)
			wn_cli_say(cli, "warning: ", warning);
		free(warning);
		if (sent)
			sent(cli, m[k], k, arg);
	}
	wn_error_clear(&err);
	return rc;
}

int wn_digest_send(wn_cli *cli, wn_forward **m, size_t n, wn_digest_sent_fn sent, void *arg)
{
	wn_error err = WN_ERROR_INIT;
	char *dir = NULL;
	int rc = 0;
	char c = 'c';

	if (wn_draft_dir(&dir, &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	if (!rc)
		rc = save(cli, m, n, dir);
	while (!rc) {
		bool ok = edit(cli, m, n, dir);

		list(m, n);
		if ((c = ask(n, ok)) != 'e')
			break;
	}
	if (!rc && c == 'y')
		rc = send_all(cli, m, n, sent, arg);
	else if (!rc) {
		fprintf(stderr, "%s: cancelled; nothing sent\n", cli->prog);
		rc = 1;
	}
	for (size_t k = 0; dir && k < n; k++)
		wn_forward_draft_remove(m[k], dir);
	free(dir);
	wn_error_clear(&err);
	return rc;
}
