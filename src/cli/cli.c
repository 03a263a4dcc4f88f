/* winnow — what the commands share: messages and small helpers. */
#include "autoconfig.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "printer.h"

void wn_cli_say(const wn_cli *cli, const char *what, const char *msg)
{
	/* Messages quote Message-IDs and journal entries, which come from
	 * mail: sanitise them like everything else bound for a terminal. */
	char *clean = wn_text_sanitize(msg, 0);

	fprintf(stderr, "%s: %s%s\n", cli->prog, what, clean ? clean : "out of memory");
	free(clean);
}

int wn_cli_fail(const wn_cli *cli, const wn_error *err)
{
	wn_cli_say(cli, "", wn_error_msg(err));
	return wn_status_exit_code(err->status);
}

int wn_cli_nomem(const wn_cli *cli)
{
	fprintf(stderr, "%s: out of memory\n", cli->prog);
	return 2;
}

int wn_cli_usage_error(const wn_cli *cli, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", cli->prog, cli->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s %s --help')\n", cli->prog, cli->cmd);
	return 1;
}

int wn_cli_check_format_in(const wn_cli *cli, const char *name, const char *const *names, size_t n)
{
	wn_buf b = WN_BUF_INIT;
	char *all;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return 0;
	/* "json, csv or sarif" */
	for (size_t i = 0; i < n; i++)
		wn_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", names[i]);
	if (!(all = wn_buf_steal(&b)))
		return wn_cli_nomem(cli);
	rc = wn_cli_usage_error(cli, "unknown format '%s' (%s)", name, all);
	free(all);
	return rc;
}

int wn_cli_check_format(const wn_cli *cli, const char *name)
{
	return WN_CLI_CHECK_FORMAT(cli, name, WN_FORMATS_PRINTER);
}

char *wn_cli_join(int argc, char **argv)
{
	wn_buf b = WN_BUF_INIT;

	for (int i = 0; i < argc; i++)
		if ((i && wn_buf_putc(&b, ' ') != WN_OK) || wn_buf_puts(&b, argv[i]) != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	return wn_buf_steal(&b);
}

void wn_cli_overlay(const wn_cli *cli, wn_item *it)
{
	if (cli->store)
		wn_store_overlay(cli->store, it);
}

void wn_cli_store_warning(wn_cli *cli)
{
	const char *w = cli->store ? wn_store_warning(cli->store) : NULL;

	if (!w || (cli->warned && strcmp(w, cli->warned) == 0))
		return;
	wn_cli_say(cli, "warning: ", w);
	free(cli->warned);
	cli->warned = strdup(w);
}

int wn_cli_flushed(wn_cli *cli, wn_status st, const wn_error *err)
{
	wn_cli_store_warning(cli);
	if (st == WN_OK)
		return 0;
	wn_cli_say(cli, "", wn_error_msg(err));
	if (st == WN_LOCKED || st == WN_DB)
		fprintf(stderr, "%s: the verdict is kept in the journal and written by the next "
			"winnow command, or run 'winnow sync-journal'\n", cli->prog);
	return 2;
}

int wn_cli_count(const char *s, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	if (*end || *out == 0)
		return -1;
	return errno == ERANGE || *out > 1000000000UL ? -2 : 0;
}

char *wn_cli_finding_name(const wn_cli *cli, const char *id, const char *fp)
{
	wn_item *it = NULL;
	char *out = NULL;
	size_t k = 0;

	if (wn_index_find(cli->idx, id, &it, NULL) == WN_OK && it->review)
		for (size_t i = 0; i < it->review->nfindings && !k; i++)
			if (!strcmp(it->review->findings[i].fingerprint, fp))
				k = i + 1;
	wn_item_free(&it);
	if ((k ? asprintf(&out, "finding %zu", k) : asprintf(&out, "a finding")) < 0)
		return NULL;
	return out;
}
