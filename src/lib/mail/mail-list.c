/* winnow — which mailing list a mail went to, for grouping statistics
 * by list.
 *
 * Archives (lore, lei, a list subscription) keep the List-Id header:
 *
 *	List-Id: <netdev.vger.kernel.org>
 *
 * A copy that reached the maintainer directly has none, only the list
 * among its recipients ("Cc: netdev@vger.kernel.org").  Both give the
 * same key, the List-Id form, so one list is one group however the mail
 * arrived. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "winnow/mail.h"
#include "winnow/text.h"

/* Lower-case copy of s[0..n), trimmed; NULL when empty. */
static char *lower_dup(const char *s, size_t n)
{
	char *r;

	wn_str_trim(&s, &n);
	if (!n || !(r = wn_strndup(s, n)))
		return NULL;
	for (char *p = r; *p; p++)
		*p = (char) str_lower((unsigned char) *p);
	return r;
}

/* "Netdev List <netdev.vger.kernel.org>" → "netdev.vger.kernel.org"; a
 * value without brackets is taken whole. */
static char *from_list_id(const char *v)
{
	const char *lt = strrchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt)
		return lower_dup(lt + 1, (size_t) (gt - lt - 1));
	return lower_dup(v, strlen(v));
}

/* Is one of host's dot-separated labels label? */
static bool has_label(const char *host, size_t n, const char *label)
{
	size_t len = strlen(label);

	for (size_t i = 0; i + len <= n; i++)
		if ((i == 0 || host[i - 1] == '.') && strncmp(host + i, label, len) == 0 &&
		    (i + len == n || host[i + len] == '.'))
			return true;
	return false;
}

/* addr[0..n) is "local@host" (lower case): a list's address? */
static bool list_address(const char *addr, size_t n)
{
	const char *at = memchr(addr, '@', n);
	const char *host;
	size_t hn;

	if (!at || at == addr)
		return false;
	host = at + 1;
	hn = n - (size_t) (host - addr);
	return has_label(host, hn, "lists") || has_label(host, hn, "vger") ||
	       (hn == strlen("googlegroups.com") && strncmp(host, "googlegroups.com", hn) == 0);
}

/* The address of one entry of an address list: inside its last <...>,
 * else the entry itself; into *s, *n (trimmed). */
static void entry_address(const char **s, size_t *n)
{
	const char *lt = NULL, *gt;

	for (size_t i = 0; i < *n; i++)
		if ((*s)[i] == '<')
			lt = *s + i;
	gt = lt ? memchr(lt, '>', *n - (size_t) (lt - *s)) : NULL;
	if (lt && gt) {
		*n = (size_t) (gt - lt - 1);
		*s = lt + 1;
	}
	wn_str_trim(s, n);
}

/* The first list address of a decoded address list ("A <a@x>, b@y"),
 * in List-Id form; NULL when it has none.  Commas inside quoted names
 * and angle brackets do not split entries. */
static char *first_list(const char *v)
{
	const char *start = v;
	bool quoted = false;
	int angle = 0;

	for (const char *p = v;; p++) {
		if (*p == '"' && (p == v || p[-1] != '\\'))
			quoted = !quoted;
		else if (!quoted && *p == '<')
			angle++;
		else if (!quoted && *p == '>' && angle)
			angle--;
		if (*p == '\0' || (*p == ',' && !quoted && !angle)) {
			const char *a = start;
			size_t n = (size_t) (p - start);
			char *key;

			entry_address(&a, &n);
			key = lower_dup(a, n);
			if (key && list_address(key, strlen(key))) {
				*strchr(key, '@') = '.';
				return key;
			}
			free(key);
			if (*p == '\0')
				return NULL;
			start = p + 1;
		}
	}
}

char *wn_mail_list(const wn_mail *m)
{
	char *key = NULL;

	if (m->list_id)
		key = from_list_id(m->list_id);
	if (!key && m->to)
		key = first_list(m->to);
	if (!key && m->cc)
		key = first_list(m->cc);
	return key;
}
