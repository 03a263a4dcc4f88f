/* winnow — configuration keys of the [winnow] notmuch config section. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "winnow/buf.h"
#include "winnow/conf.h"
#include "winnow/review.h"
#include "winnow/text.h"

/* Split a notmuch list value ("a;b; c") into a NULL-terminated vector of
 * trimmed, lower-cased, non-empty items. */
static wn_status split_list(const char *value, char ***out)
{
	size_t n = 0, cap = 4;
	char **v = calloc(cap, sizeof(*v));
	const char *p = value;

	if (!v)
		return WN_NOMEM;
	while (p && *p) {
		const char *end = p + strcspn(p, ";");
		char *item = wn_strndup(p, (size_t) (end - p));

		if (!item)
			goto nomem;
		wn_text_trim(item);
		for (char *c = item; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char) (*c - 'A' + 'a');
		if (!*item) {
			free(item);
		} else {
			if (n + 1 >= cap) {
				char **nv = realloc(v, 2 * cap * sizeof(*v));
				if (!nv) {
					free(item);
					goto nomem;
				}
				v = nv;
				cap *= 2;
			}
			v[n++] = item;
			v[n] = NULL;
		}
		p = *end ? end + 1 : end;
	}
	*out = v;
	return WN_OK;
nomem:
	wn_strv_free(v);
	return WN_NOMEM;
}

static wn_status set_str(char **field, const char *value)
{
	char *copy = strdup(value ? value : "");

	if (!copy)
		return WN_NOMEM;
	free(*field);
	*field = copy;
	return WN_OK;
}

/* The reviews of the known bots: each bot's own query term, or'ed.
 * netdev AI reviews come from humans, so theirs is the sentence that
 * opens them.  NULL when out of memory. */
static char *default_query(void)
{
	wn_buf b = WN_BUF_INIT;
	unsigned k;

	for (k = 0; k < WN_BOT_COUNT; k++) {
		const char *q = wn_bot_query((wn_bot) k);

		if (q && ((b.len && wn_buf_puts(&b, " or ") != WN_OK) || wn_buf_puts(&b, q) != WN_OK)) {
			wn_buf_free(&b);
			return NULL;
		}
	}
	return wn_buf_steal(&b);
}

wn_status wn_conf_init(wn_conf *c)
{
	memset(c, 0, sizeof(*c));
	if (!(c->query = default_query()) ||
	    set_str(&c->sendmail, WN_DEFAULT_SENDMAIL) ||
	    set_str(&c->tagprefix, WN_DEFAULT_TAGPREFIX) ||
	    split_list("", &c->optout) || split_list("", &c->bots)) {
		wn_conf_clear(c);
		return WN_NOMEM;
	}
	c->sendmail_timeout = WN_DEFAULT_SENDMAIL_TIMEOUT;
	return WN_OK;
}

/* notmuch's own booleans: "true"/"false", and what people write. */
static bool truth(const char *v)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };

	for (size_t k = 0; k < sizeof(yes) / sizeof(yes[0]); k++)
		if (wn_text_prefix_ci(v, yes[k]) && !v[strlen(yes[k])])
			return true;
	return false;
}

wn_status wn_conf_set(wn_conf *c, const char *key, const char *value)
{
	char **list = NULL;
	wn_status st;

	if (!value)
		value = "";
	if (strncmp(key, "winnow.", 7) == 0)
		key += 7;
	if (strcmp(key, "user.name") == 0)
		return set_str(&c->user_name, value);
	if (strcmp(key, "user.primary_email") == 0)
		return set_str(&c->user_email, value);
	if (strcmp(key, "query") == 0)
		/* An empty query would match every mail: keep the default. */
		return *value ? set_str(&c->query, value) : WN_OK;
	if (strcmp(key, "theme") == 0)
		return set_str(&c->theme, value);
	if (strcmp(key, "sendmail") == 0)
		return *value ? set_str(&c->sendmail, value) : WN_OK;
	if (strcmp(key, "sendmail_timeout") == 0) {
		char *end;
		long v = strtol(value, &end, 10);

		if (!*value)
			c->sendmail_timeout = WN_DEFAULT_SENDMAIL_TIMEOUT;
		else
			c->sendmail_timeout = *end || v < 0 || v > 86400 || value[0] < '0' || value[0] > '9'
					      ? -1 : (int) v;
		return WN_OK;
	}
	if (strcmp(key, "sent_folder") == 0)
		return set_str(&c->sent_folder, value);
	if (strcmp(key, "forward_template") == 0)
		return set_str(&c->forward_template, value);
	if (strcmp(key, "cc") == 0)
		return set_str(&c->cc, value);
	if (strcmp(key, "tagprefix") == 0)
		return set_str(&c->tagprefix, value);
	if (strcmp(key, "show_summaries") == 0) {
		c->show_summaries = truth(value);
		return WN_OK;
	}
	if (strcmp(key, "cache") == 0) {
		c->no_cache = !truth(value);
		return WN_OK;
	}
	if (strcmp(key, "optout") == 0 || strcmp(key, "bots") == 0) {
		st = split_list(value, &list);
		if (st != WN_OK)
			return st;
		if (strcmp(key, "optout") == 0) {
			wn_strv_free(c->optout);
			c->optout = list;
		} else {
			wn_strv_free(c->bots);
			c->bots = list;
		}
		return WN_OK;
	}
	return WN_OK;
}

void wn_conf_clear(wn_conf *c)
{
	free(c->query);
	free(c->theme);
	free(c->sendmail);
	free(c->sent_folder);
	free(c->forward_template);
	free(c->cc);
	free(c->tagprefix);
	wn_strv_free(c->optout);
	wn_strv_free(c->bots);
	free(c->user_name);
	free(c->user_email);
	memset(c, 0, sizeof(*c));
}

/* Longest tag prefix accepted: tags are Xapian terms too (245 bytes). */
#define TAGPREFIX_MAX 64

wn_status wn_conf_check(const wn_conf *c, wn_error *err)
{
	const char *p = c->tagprefix ? c->tagprefix : "";
	size_t n = strlen(p);

	if (c->sendmail_timeout < 0)
		return wn_error_set(err, WN_CONFIG, "winnow.sendmail_timeout must be a number of seconds "
				    "(0 to 86400; 0: no limit)");
	if (n == 0)
		return wn_error_set(err, WN_CONFIG, "winnow.tagprefix is empty: winnow's tags would "
				    "mix with your own (unset it for the default '%s')", WN_DEFAULT_TAGPREFIX);
	if (n > TAGPREFIX_MAX)
		return wn_error_set(err, WN_CONFIG, "winnow.tagprefix is %zu bytes long; at most %d",
				    n, TAGPREFIX_MAX);
	for (const unsigned char *q = (const unsigned char *) p; *q; q++)
		if (*q <= ' ' || *q == 0x7f || *q == '"' || *q == '(' || *q == ')')
			return wn_error_set(err, WN_CONFIG, "winnow.tagprefix must not hold spaces, "
					    "control characters, quotes or parentheses (they break "
					    "notmuch queries on winnow's tags)");
	if (!wn_text_utf8_valid(p, n))
		return wn_error_set(err, WN_CONFIG, "winnow.tagprefix is not UTF-8");
	return WN_OK;
}
