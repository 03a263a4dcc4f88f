/* winnow — the leaves every forward*.c file calls: lists of mailboxes,
 * and what an address, a Message-ID or any header text may hold.  They
 * sit below forward.c and forward-mime.c, which both need them, so that
 * calls between the forward files go one way. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "forward-private.h"

bool wn_fwd_addr_ok(const char *addr)
{
	const char *at = addr ? strchr(addr, '@') : NULL;

	if (!at || at == addr || !at[1] || strchr(at + 1, '@'))
		return false;
	for (const unsigned char *p = (const unsigned char *) addr; *p; p++)
		if (*p <= ' ' || *p == 0x7f || strchr("<>()[],;:\"\\", *p))
			return false;
	return true;
}

wn_status wn_fwd_mboxes_add(fwd_mboxes *l, const char *name, const char *addr)
{
	fwd_mbox *nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		return WN_NOMEM;
	l->v = nv;
	nv[l->n].name = name && *name ? strdup(name) : NULL;
	nv[l->n].addr = strdup(addr);
	if ((name && *name && !nv[l->n].name) || !nv[l->n].addr) {
		free(nv[l->n].name);
		free(nv[l->n].addr);
		return WN_NOMEM;
	}
	l->n++;
	return WN_OK;
}

bool wn_fwd_mboxes_has(const fwd_mboxes *l, const char *addr)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcasecmp(l->v[i].addr, addr) == 0)
			return true;
	return false;
}

void wn_fwd_mboxes_clear(fwd_mboxes *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].addr);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
	wn_buf_free(&l->dropped);
}

bool wn_fwd_has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *) s; p && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

/* A Message-ID fit to be written between <> in a header: printable
 * ASCII, no blank, no bracket (wn_msgid_canon() allowed the rest), and
 * well-formed as RFC 5322 has it: one '@' with text on both sides.  A
 * References header built of anything else threads nowhere. */
bool wn_fwd_msgid_ok(const char *id)
{
	const char *at = id ? strchr(id, '@') : NULL;

	if (!at || at == id || !at[1] || strchr(at + 1, '@'))
		return false;
	for (const unsigned char *p = (const unsigned char *) id; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '<' || *p == '>')
			return false;
	return true;
}
