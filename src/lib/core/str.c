/* winnow — plain string helpers (see str.h). */
#include "autoconfig.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

#include "str.h"

int wn_str_hex(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

bool wn_str_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!str_space((unsigned char) s[i]))
			return false;
	return true;
}

void wn_str_trim(const char **s, size_t *n)
{
	while (*n && str_space((unsigned char) (*s)[0])) {
		(*s)++;
		(*n)--;
	}
	while (*n && str_space((unsigned char) (*s)[*n - 1]))
		(*n)--;
}

/* Byte by byte, with no strlen() of p first: the parsers ask this of
 * every line and at every place of a search (wn_str_find_ci), and
 * nearly every answer is no at the first byte. */
bool wn_str_prefix(const char *s, size_t n, const char *p)
{
	size_t i;

	for (i = 0; p[i]; i++)
		if (i == n || s[i] != p[i])
			return false;
	return true;
}

bool wn_str_prefix_ci(const char *s, size_t n, const char *p)
{
	size_t i;

	for (i = 0; p[i]; i++)
		if (i == n || str_lower((unsigned char) s[i]) != str_lower((unsigned char) p[i]))
			return false;
	return true;
}

bool wn_str_eq(const char *s, size_t n, const char *p)
{
	return n == strlen(p) && memcmp(s, p, n) == 0;
}

const char *wn_str_find(const char *s, size_t n, const char *needle)
{
	size_t nl = strlen(needle);

	if (!nl)
		return s;
	if (n < nl)
		return NULL;
	return memmem(s, n, needle, nl);
}

/* The next c in [from, end), or NULL. */
static const char *next_byte(const char *from, const char *end, int c)
{
	return from < end ? memchr(from, c, (size_t) (end - from)) : NULL;
}

/* The places the needle's first byte is at, in either case, are found
 * by memchr(), each byte looked at once for each case: the review
 * parsers look for their phrases in every line of every review, and a
 * test of each byte was the largest of winnow's own costs there. */
const char *wn_str_find_ci(const char *s, size_t n, const char *needle)
{
	size_t nl = strlen(needle);
	const char *end, *lo, *up;
	int first, other;

	if (!nl)
		return s;
	if (n < nl)
		return NULL;
	first = str_lower((unsigned char) needle[0]);
	other = first >= 'a' && first <= 'z' ? first - 'a' + 'A' : first;
	end = s + (n - nl) + 1; /* past the last place it may start */
	lo = next_byte(s, end, first);
	up = other != first ? next_byte(s, end, other) : NULL;
	while (lo || up) {
		const char *at = lo && (!up || lo < up) ? lo : up;

		if (wn_str_prefix_ci(at + 1, nl - 1, needle + 1))
			return at;
		if (at == lo)
			lo = next_byte(at + 1, end, first);
		else
			up = next_byte(at + 1, end, other);
	}
	return NULL;
}

bool wn_str_num(const char *s, size_t n, size_t *i, long *out)
{
	long v = 0;
	size_t k = *i;

	if (k >= n || s[k] < '0' || s[k] > '9')
		return false;
	while (k < n && s[k] >= '0' && s[k] <= '9') {
		if (v < INT_MAX / 10)
			v = v * 10 + (s[k] - '0');
		else
			v = INT_MAX;
		k++;
	}
	*i = k;
	*out = v;
	return true;
}

bool wn_str_next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*line = text + *pos;
	nl = memchr(*line, '\n', len - *pos);
	*n = nl ? (size_t) (nl - *line) : len - *pos;
	*pos += *n + (nl ? 1 : 0);
	return true;
}

bool wn_str_host_in(const char *host, const char *domain)
{
	size_t hl = strlen(host), dl = strlen(domain);

	if (strcasecmp(host, domain) == 0)
		return true;
	return hl > dl && host[hl - dl - 1] == '.' && strcasecmp(host + hl - dl, domain) == 0;
}
