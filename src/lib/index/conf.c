/* winnow — configuration keys of the [winnow] notmuch config section. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "winnow/buf.h"
#include "winnow/conf.h"
#include "winnow/review.h"
#include "winnow/text.h"

/* Split a notmuch list value ("a;b; c") into a NULL-terminated vector of
 * trimmed, non-empty items, lower-cased unless keep_case (paths and
 * MAINTAINERS section names are not addresses). */
static wn_status split_list_case(const char *value, bool keep_case, char ***out)
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
		for (char *c = item; *c && !keep_case; c++)
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

static wn_status split_list(const char *value, char ***out)
{
	return split_list_case(value, false, out);
}

static wn_status set_list(char ***field, const char *value)
{
	char **list = NULL;
	wn_status st = split_list_case(value, true, &list);

	if (st != WN_OK)
		return st;
	wn_strv_free(*field);
	*field = list;
	return WN_OK;
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
	    set_str(&c->fetch_since, WN_DEFAULT_FETCH_SINCE) ||
	    set_str(&c->fetch_folder, WN_DEFAULT_FETCH_FOLDER) ||
	    split_list("", &c->optout) || split_list("", &c->bots) ||
	    split_list("", &c->other_email) ||
	    set_list(&c->files, "") || set_list(&c->sections, "")) {
		wn_conf_clear(c);
		return WN_NOMEM;
	}
	c->sendmail_timeout = WN_DEFAULT_SENDMAIL_TIMEOUT;
	c->tool_timeout = WN_DEFAULT_TOOL_TIMEOUT;
	c->ask_reason = true;
	c->newcomer = WN_DEFAULT_NEWCOMER;
	c->max_recipients = WN_DEFAULT_MAX_RECIPIENTS;
	c->undo_confirm = WN_DEFAULT_UNDO_CONFIRM;
	return WN_OK;
}

/* winnow.KEY.<list> into the table *v of *n: set (replacing) or,
 * empty, unset. */
static wn_status set_per_list(wn_conf_trailer **v, size_t *n, const char *list, const char *value)
{
	wn_conf_trailer *t = *v;
	size_t i;
	char *l = strdup(list), *val;

	if (!l)
		return WN_NOMEM;
	for (char *p = l; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char) (*p - 'A' + 'a');
	for (i = 0; i < *n && strcmp(t[i].list, l); i++)
		;
	if (!*value) {
		if (i < *n) {
			free(t[i].list);
			free(t[i].line);
			t[i] = t[--*n];
		}
		free(l);
		return WN_OK;
	}
	if (!(val = strdup(value))) {
		free(l);
		return WN_NOMEM;
	}
	if (i == *n) {
		wn_conf_trailer *nv = realloc(t, (i + 1) * sizeof(*nv));

		if (!nv) {
			free(l);
			free(val);
			return WN_NOMEM;
		}
		*v = t = nv;
		nv[i].list = l;
		nv[i].line = NULL;
		++*n;
	} else {
		free(l);
	}
	free(t[i].line);
	t[i].line = val;
	return WN_OK;
}

static void per_list_free(wn_conf_trailer **v, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		free((*v)[i].list);
		free((*v)[i].line);
	}
	free(*v);
	*v = NULL;
	*n = 0;
}

/* winnow.forward_trailer.<list>: set (replacing) or, empty, unset. */
static wn_status set_trailer(wn_conf *c, const char *list, const char *value)
{
	return set_per_list(&c->forward_trailers, &c->nforward_trailers, list, value);
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

/* A count from 0 to max; def when empty; -1 when not one (wn_conf_check
 * refuses it, naming the key). */
static int count(const char *value, int def, long max)
{
	char *end;
	long v = strtol(value, &end, 10);

	if (!*value)
		return def;
	return *end || v < 0 || v > max || value[0] < '0' || value[0] > '9' ? -1 : (int) v;
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
	if (strcmp(key, "user.other_email") == 0) {
		if ((st = split_list(value, &list)) != WN_OK)
			return st;
		wn_strv_free(c->other_email);
		c->other_email = list;
		return WN_OK;
	}
	if (strcmp(key, "query") == 0)
		/* An empty query would match every mail: keep the default. */
		return *value ? set_str(&c->query, value) : WN_OK;
	if (strcmp(key, "theme") == 0)
		return set_str(&c->theme, value);
	if (strcmp(key, "sendmail") == 0)
		return *value ? set_str(&c->sendmail, value) : WN_OK;
	if (strcmp(key, "sendmail_timeout") == 0) {
		c->sendmail_timeout = count(value, WN_DEFAULT_SENDMAIL_TIMEOUT, 86400);
		return WN_OK;
	}
	if (strcmp(key, "tool_timeout") == 0) {
		c->tool_timeout = count(value, WN_DEFAULT_TOOL_TIMEOUT, 86400);
		return WN_OK;
	}
	if (strcmp(key, "newcomer") == 0) {
		c->newcomer = count(value, WN_DEFAULT_NEWCOMER, 100000);
		return WN_OK;
	}
	if (strcmp(key, "undo_confirm") == 0) {
		c->undo_confirm = count(value, WN_DEFAULT_UNDO_CONFIRM, 1000000);
		return WN_OK;
	}
	if (strncmp(key, "forward_trailer.", 16) == 0 && key[16])
		return set_trailer(c, key + 16, value);
	if (strcmp(key, "sent_folder") == 0)
		return set_str(&c->sent_folder, value);
	if (strcmp(key, "drafts_folder") == 0)
		return set_str(&c->drafts_folder, value);
	if (strcmp(key, "forward_template") == 0)
		return set_str(&c->forward_template, value);
	if (strncmp(key, "forward_template.", 17) == 0 && key[17])
		return set_per_list(&c->list_templates, &c->nlist_templates, key + 17, value);
	if (strncmp(key, "forward_reply_template.", 23) == 0 && key[23])
		return set_per_list(&c->list_reply_templates, &c->nlist_reply_templates, key + 23, value);
	if (strcmp(key, "forward_reply_template") == 0)
		return set_str(&c->reply_template, value);
	if (strcmp(key, "max_recipients") == 0) {
		c->max_recipients = count(value, WN_DEFAULT_MAX_RECIPIENTS, 1000000);
		return WN_OK;
	}
	if (strcmp(key, "cc") == 0)
		return set_str(&c->cc, value);
	if (strcmp(key, "tagprefix") == 0)
		return set_str(&c->tagprefix, value);
	if (strcmp(key, "tree") == 0)
		return *value ? set_str(&c->tree, value) : (free(c->tree), c->tree = NULL, WN_OK);
	if (strcmp(key, "files") == 0)
		return set_list(&c->files, value);
	if (strcmp(key, "sections") == 0)
		return set_list(&c->sections, value);
	if (strcmp(key, "fetch_since") == 0)
		return set_str(&c->fetch_since, *value ? value : WN_DEFAULT_FETCH_SINCE);
	if (strcmp(key, "fetch_folder") == 0)
		return set_str(&c->fetch_folder, *value ? value : WN_DEFAULT_FETCH_FOLDER);
	if (strcmp(key, "ask_reason") == 0) {
		c->ask_reason = truth(value);
		return WN_OK;
	}
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
	free(c->drafts_folder);
	free(c->forward_template);
	free(c->reply_template);
	free(c->cc);
	free(c->tagprefix);
	wn_strv_free(c->optout);
	wn_strv_free(c->bots);
	free(c->tree);
	wn_strv_free(c->files);
	wn_strv_free(c->sections);
	free(c->fetch_since);
	free(c->fetch_folder);
	per_list_free(&c->forward_trailers, &c->nforward_trailers);
	per_list_free(&c->list_templates, &c->nlist_templates);
	per_list_free(&c->list_reply_templates, &c->nlist_reply_templates);
	free(c->user_name);
	free(c->user_email);
	wn_strv_free(c->other_email);
	memset(c, 0, sizeof(*c));
}

/* Longest tag prefix accepted: tags are Xapian terms too (245 bytes). */
#define TAGPREFIX_MAX 64
/* Longest winnow.forward_trailer line: one line of a mail. */
#define TRAILER_MAX 200

wn_status wn_conf_check(const wn_conf *c, wn_error *err)
{
	const char *p = c->tagprefix ? c->tagprefix : "";
	size_t n = strlen(p);

	if (c->sendmail_timeout < 0)
		return wn_error_set(err, WN_CONFIG, "winnow.sendmail_timeout must be a number of seconds "
				    "(0 to 86400; 0: no limit)");
	if (c->max_recipients < 0)
		return wn_error_set(err, WN_CONFIG, "winnow.max_recipients must be a number of addresses");
	if (c->tool_timeout < 0)
		return wn_error_set(err, WN_CONFIG, "winnow.tool_timeout must be a number of seconds "
				    "(0 to 86400; 0: no limit)");
	if (c->newcomer < 0)
		return wn_error_set(err, WN_CONFIG, "winnow.newcomer must be a number of patches "
				    "(0 to 100000; 0: mark nobody)");
	if (c->undo_confirm < 0)
		return wn_error_set(err, WN_CONFIG, "winnow.undo_confirm must be a number of changes "
				    "(0 to 1000000; 0: always ask)");
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
	for (size_t i = 0; i < c->nlist_templates + c->nlist_reply_templates; i++) {
		bool reply = i >= c->nlist_templates;
		const wn_conf_trailer *t = reply ? &c->list_reply_templates[i - c->nlist_templates]
						 : &c->list_templates[i];

		if (!strchr(t->list, '@'))
			return wn_error_set(err, WN_CONFIG, "winnow.%s.%.80s: wants a list's address "
					    "after the dot (for example netdev@vger.kernel.org)",
					    reply ? "forward_reply_template" : "forward_template", t->list);
	}
	for (size_t i = 0; i < c->nforward_trailers; i++) {
		const wn_conf_trailer *t = &c->forward_trailers[i];
		size_t tn = strlen(t->line);
		bool bad = tn > TRAILER_MAX || !wn_text_utf8_valid(t->line, tn) || !strchr(t->list, '@');

		for (const unsigned char *q = (const unsigned char *) t->line; *q && !bad; q++)
			bad = *q < 0x20 || *q == 0x7f;
		if (bad)
			return wn_error_set(err, WN_CONFIG, "winnow.forward_trailer.%.80s: wants a list's "
					    "address and one line of at most %d bytes, no control "
					    "characters (for example 'pw-bot: cr')", t->list, TRAILER_MAX);
	}
	return WN_OK;
}
