/* winnow — the lei query of winnow fetch: the maintainer's files as
 * dfn: terms (public-inbox's "diff file name") and b: (the body),
 * within rt: (received time).  The patterns come from the configuration or MAINTAINERS and
 * go into a query string lei hands to Xapian, so only what a path or a
 * date holds is let through: a quote, a parenthesis or a space would
 * change what is asked. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "winnow/buf.h"
#include "winnow/lore.h"
#include "winnow/text.h"

/* Characters of a kernel path pattern: "drivers/net/", "include/linux/foo[12].h",
 * globs with * and ?, cut off below. */
static bool path_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("/._-+,@*?[]", c);
}

static bool digits(const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

/* "4.weeks.ago", "1.day.ago": a count, a unit and "ago", as git's
 * approxidate reads them for lei. */
static bool ago(const char *s)
{
	static const char *const units[] = { "second", "minute", "hour", "day", "week", "month",
					     "year" };
	size_t n = strspn(s, "0123456789");

	if (!n || n > 6 || s[n] != '.')
		return false;
	s += n + 1;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		size_t u = strlen(units[k]);

		if (!strncmp(s, units[k], u))
			return !strcmp(s + u + (s[u] == 's'), ".ago");
	}
	return false;
}

/* One of the dates lei's rt: takes: "4.weeks.ago", "2026-01-01",
 * "yesterday".  Nothing else: ".." would make "rt:SINCE.." another
 * range, a leading '-' an option where lei hands the date to git, and
 * a space or a parenthesis another query. */
static bool lei_date(const char *s)
{
	return ago(s) || !strcmp(s, "yesterday") ||
	       (strlen(s) == 10 && digits(s, 4) && s[4] == '-' && digits(s + 5, 2) && s[7] == '-' &&
		digits(s + 8, 2));
}

static bool has_control(const char *s)
{
	for (const unsigned char *c = (const unsigned char *) s; *c; c++)
		if (*c < ' ' || *c == 0x7f)
			return true;
	return false;
}

wn_status wn_fetch_check_folder(const char *folder, wn_error *err)
{
	static const char *const own[] = { "cur", "new", "tmp", ".", "..", ".notmuch" };

	if (has_control(folder))
		return wn_error_set(err, WN_CONFIG, "winnow.fetch_folder holds a control character");
	if (!*folder || strchr(folder, '/'))
		return wn_error_set(err, WN_CONFIG, "winnow.fetch_folder '%s' must be one folder's "
				    "name, inside the notmuch database", folder);
	/* The folder is lei's argument: never one of its options. */
	if (*folder == '-')
		return wn_error_set(err, WN_CONFIG, "winnow.fetch_folder '%s' must not start with '-'",
				    folder);
	for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
		if (!strcmp(folder, own[k]))
			return wn_error_set(err, WN_CONFIG, "winnow.fetch_folder must not be '%s' (a "
					    "maildir's own folders cur, new, tmp; '.', '..'; "
					    "notmuch's .notmuch)", folder);
	return WN_OK;
}

/* The part of pattern dfn: can match: up to the folder holding its
 * first glob character (drivers/foo/ for every .c file of it), since
 * Xapian phrases have no wildcards.  Empty when nothing is left. */
static size_t dfn_len(const char *pattern)
{
	size_t n = strcspn(pattern, "*?[");

	if (!pattern[n])
		return n;
	while (n > 0 && pattern[n - 1] != '/')
		n--;
	return n;
}

/* Does folder-or-file pattern outer cover inner ("drivers/x/" covers
 * "drivers/x/y/"; a file covers only itself)? */
static bool covers(const char *outer, size_t on, const char *inner, size_t in)
{
	if (on > in || memcmp(outer, inner, on) != 0)
		return false;
	return on == in || outer[on - 1] == '/';
}

static wn_status check_pattern(const char *p, wn_error *err)
{
	for (const unsigned char *c = (const unsigned char *) p; *c; c++)
		if (!path_char(*c))
			return wn_error_set(err, WN_CONFIG, "the file pattern '%s' holds '%c': a path "
					    "has letters, digits, / . _ - + , @ and globs", p,
					    *c >= ' ' && *c < 0x7f ? *c : '?');
	return WN_OK;
}

/* Is file pattern i left out: inside an excluded pattern (MAINTAINERS'
 * X:)?  A query cannot say "a patch touching only excluded files", so
 * X: narrows by dropping the F: patterns it covers, no more. */
static bool left_out(const char *f, size_t fn, char *const *excluded)
{
	for (size_t k = 0; excluded && excluded[k]; k++) {
		size_t xn = dfn_len(excluded[k]);

		if (xn && covers(excluded[k], xn, f, fn))
			return true;
	}
	return false;
}

wn_status wn_fetch_query(char *const *files, char *const *excluded, const char *since,
			 char **out, wn_error *err)
{
	wn_buf b = WN_BUF_INIT;
	size_t terms = 0;
	wn_status st;

	*out = NULL;
	for (size_t k = 0; excluded && excluded[k]; k++)
		if ((st = check_pattern(excluded[k], err)) != WN_OK)
			return st;
	if (!since || !*since)
		return wn_error_set(err, WN_CONFIG, "winnow.fetch_since is empty");
	if (!lei_date(since))
		return wn_error_set(err, WN_CONFIG, "winnow.fetch_since '%s' is not a date lei "
				    "takes (\"4.weeks.ago\", \"2026-01-01\", \"yesterday\")",
				    has_control(since) ? "?" : since);
	wn_buf_putc(&b, '(');
	for (size_t k = 0; files && files[k]; k++) {
		size_t n = dfn_len(files[k]);

		if ((st = check_pattern(files[k], err)) != WN_OK)
			goto fail;
		if (!n) {
			st = wn_error_set(err, WN_CONFIG, "the file pattern '%s' matches every file",
					  files[k]);
			goto fail;
		}
		if (left_out(files[k], n, excluded))
			continue;
		/* dfn: finds the patches; b: the replies naming the
		 * files (a bot quoting the diff, the robot's "file:line"),
		 * which lei up needs: it looks for new matches only, and a
		 * review arriving after its patch matched is no new match
		 * of dfn:. */
		wn_buf_printf(&b, "%sdfn:%.*s OR b:%.*s", terms++ ? " OR " : "", (int) n, files[k],
			      (int) n, files[k]);
	}
	if (!terms) {
		st = wn_error_set(err, WN_CONFIG, "no files to fetch the patches of: set "
				  "winnow.files or winnow.sections");
		goto fail;
	}
	/* lei reads a range only at the end of the query: "rt:X.. AND y"
	 * makes it fail. */
	wn_buf_printf(&b, ") AND rt:%s..", since);
	if ((st = wn_buf_status(&b)) != WN_OK) {
		st = wn_error_set(err, st, "out of memory");
		goto fail;
	}
	*out = wn_buf_steal(&b);
	return WN_OK;
fail:
	wn_buf_free(&b);
	return st;
}
