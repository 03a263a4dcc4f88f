/* winnow — running lei, notmuch, git and b4 for the lore module: through
 * core's process runner (argv, no shell), and when one fails, the error
 * is what it said, one line, in its own words. */
#include "autoconfig.h"

#include <string.h>

#include "../core/str.h"
#include "lore-private.h"
#include "winnow/proc.h"

/* git's and b4's own words for what went wrong ("error: drivers/x.c:
 * does not exist in index"), which their hints and advice follow. */
static bool complaint(const char *l, size_t n)
{
	static const char *const words[] = { "error:", "fatal:", "CRITICAL:" };

	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (wn_str_prefix(l, n, words[k]))
			return true;
	return false;
}

void wn_lore_last_line(const char *text, size_t len, const char **line, size_t *n)
{
	size_t pos = 0, ln;
	const char *l;
	bool said = false;

	*line = NULL;
	*n = 0;
	while (wn_str_next_line(text, len, &pos, &l, &ln)) {
		wn_str_trim(&l, &ln);
		if (!ln || l[0] == '#' || wn_str_prefix(l, ln, "hint:") ||
		    (said && !complaint(l, ln)))
			continue;
		said = said || complaint(l, ln);
		*line = l;
		*n = ln;
	}
}

wn_status wn_lore_run(const char *dir, char *const *argv, int secs, wn_buf *output, wn_error *err)
{
	wn_buf own = WN_BUF_INIT, *out = output ? output : &own;
	wn_error run = WN_ERROR_INIT;
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *l;
	size_t n;
	bool stopped = false;
	wn_status st = wn_proc_run_tool(dir, argv, secs, "winnow.tool_timeout", out, &stopped, &run);

	if (wn_buf_failed(out)) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	} else if (st != WN_OK && stopped) {
		/* Whatever it said last, it did not finish. */
		st = wn_error_set(err, st, "%s", wn_error_msg(&run));
	} else if (st != WN_OK) {
		wn_lore_last_line(out->data ? out->data : "", out->len, &l, &n);
		if (l)
			st = wn_error_set(err, st, "%s: %.*s", base, (int) n, l);
		else
			st = wn_error_set(err, st, "%s", wn_error_msg(&run));
	}
	wn_error_clear(&run);
	wn_buf_free(&own);
	return st;
}
