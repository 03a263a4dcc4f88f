/* winnow — the pre-existing ledger as mail: one digest per list, ready
 * for forwarding's confirm-then-send path (ledger.h, digest.h). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest-private.h"
#include "winnow/ledger.h"
#include "winnow/text.h"

/* Does list name a list the way a List-Id does: "name.host.tld",
 * letters, digits, '-', '_' and dots, a name and a host of two labels
 * at least?  A List-Id is any header's text: "evil@example.org" or
 * "x, y" would be somebody else. */
static bool names_list(const char *list)
{
	const char *dot = strchr(list, '.');

	if (!dot || dot == list || !strchr(dot + 1, '.') || strstr(list, "..") ||
	    list[strlen(list) - 1] == '.')
		return false;
	for (const char *p = list; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("-_.", *p)))
			return false;
	return true;
}

/* The address of a list named by its List-Id ("netdev.vger.kernel.org"
 * is netdev@vger.kernel.org, as the kernel's lists name themselves);
 * the user's own for bugs without a list, or with a List-Id that names
 * none.  malloc'd. */
static char *list_address(const char *list, const wn_conf *c)
{
	char *a;

	if (!list || !names_list(list))
		return strdup(c->user_email);
	if ((a = strdup(list)))
		*strchr(a, '.') = '@';
	return a;
}

/* "Sashiko, BPF CI": the bots of the reports, once each. */
static wn_status bots_of(const wn_ledger_entry *e, wn_buf *b)
{
	bool seen[WN_BOT_COUNT] = { false };
	wn_status st = WN_OK;

	for (size_t i = 0; st == WN_OK && i < e->nreports; i++) {
		wn_bot bot = e->reports[i].bot;

		if ((unsigned) bot >= WN_BOT_COUNT || seen[bot])
			continue;
		st = wn_buf_printf(b, "%s%s", b->len ? ", " : "", wn_bot_label(bot));
		seen[bot] = true;
	}
	return st;
}

static bool patch_listed(const wn_ledger_entry *e, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (e->reports[k].patch && e->reports[i].patch &&
		    strcmp(e->reports[k].patch, e->reports[i].patch) == 0)
			return true;
	return false;
}

static wn_status where(const wn_ledger_entry *e, size_t k, wn_buf *b)
{
	wn_buf w = WN_BUF_INIT;
	char num[24];
	wn_status st;

	snprintf(num, sizeof(num), "%zu. ", k);
	if (e->file && e->line)
		st = wn_buf_printf(&w, "%s:%d", e->file, e->line);
	else
		st = wn_buf_puts(&w, e->file ? e->file : "the commit message");
	if (st == WN_OK && e->function)
		st = wn_buf_printf(&w, ", in %s()", e->function);
	if (st == WN_OK)
		st = wn_dg_para(b, num, "   ", wn_buf_str(&w));
	wn_buf_free(&w);
	return st;
}

static wn_status when(const wn_ledger_entry *e, wn_buf *b)
{
	wn_buf w = WN_BUF_INIT, bots = WN_BUF_INIT;
	char first[16], last[16];
	const char *sev = wn_severity_name(e->severity);
	wn_status st = bots_of(e, &bots);

	wn_dg_date(e->first, first);
	wn_dg_date(e->last, last);
	if (st == WN_OK && sev)
		st = wn_buf_printf(&w, "Severity (the bot's): %s.  ", sev);
	if (st == WN_OK && e->nreports == 1)
		st = wn_buf_printf(&w, "Reported on %s by %s, on:", first, wn_buf_str(&bots));
	else if (st == WN_OK)
		st = wn_buf_printf(&w, "Reported %zu times, %s to %s, by %s, on:", e->nreports, first, last,
				   wn_buf_str(&bots));
	if (st == WN_OK)
		st = wn_dg_para(b, "   ", "   ", wn_buf_str(&w));
	wn_buf_free(&w);
	wn_buf_free(&bots);
	return st;
}

/* "     <id>": a Message-ID goes on a line of its own, never wrapped. */
static wn_status patch_id(wn_buf *b, const char *id)
{
	char *safe = wn_text_header_safe(id);
	wn_status st = safe ? wn_buf_printf(b, "     <%s>\n", safe) : WN_NOMEM;

	free(safe);
	return st;
}

static wn_status entry_text(const wn_ledger_entry *e, size_t k, wn_buf *b)
{
	wn_status st = where(e, k, b);

	if (st == WN_OK)
		st = wn_dg_para(b, "   ", "   ", e->summary);
	if (st == WN_OK)
		st = when(e, b);
	for (size_t i = 0; st == WN_OK && i < e->nreports; i++) {
		const wn_ledger_report *r = &e->reports[i];

		if (patch_listed(e, i))
			continue;
		st = wn_dg_para(b, "   - ", "     ", r->patch_subject);
		if (st == WN_OK && r->patch)
			st = patch_id(b, r->patch);
	}
	for (size_t i = 0; st == WN_OK && i < e->nnotes; i++)
		st = wn_dg_para(b, "   Note: ", "   ", e->notes[i]);
	if (st == WN_OK)
		st = wn_buf_putc(b, '\n');
	return st;
}

static const char intro[] =
	"Review bots reported these bugs in code sent to %s while reviewing patches "
	"that did not cause them.  I checked each one and marked it pre-existing; "
	"they are listed here for someone with time to fix them.";

/* The digest of entries [from, to), which share a list. */
static wn_status digest(const wn_ledger *l, size_t from, size_t to, const wn_conf *c,
			wn_forward **out, wn_error *err)
{
	const char *list = wn_ledger_at(l, from)->list;
	wn_buf body = WN_BUF_INIT, text = WN_BUF_INIT;
	char *addr = list_address(list, c), *subject = NULL;
	wn_status st = addr ? WN_OK : WN_NOMEM;

	if (st == WN_OK)
		st = wn_buf_printf(&text, intro, list ? list : "no list");
	if (st == WN_OK)
		st = wn_buf_puts(&body, "Hello,\n\n");
	if (st == WN_OK)
		st = wn_dg_para(&body, "", "", wn_buf_str(&text));
	if (st == WN_OK)
		st = wn_buf_putc(&body, '\n');
	for (size_t i = from; st == WN_OK && i < to; i++)
		st = entry_text(wn_ledger_at(l, i), i - from + 1, &body);
	if (st == WN_OK)
		st = wn_buf_printf(&body, "-- \n%s\n", c->user_name ? c->user_name : c->user_email);
	if (st == WN_OK && asprintf(&subject, "Pre-existing bugs found by review bots in %s (%zu)",
				    list ? list : "code on no list", to - from) < 0)
		st = WN_NOMEM;
	if (st == WN_OK)
		st = wn_digest_compose(c, addr, subject, wn_buf_str(&body), out, err);
	else
		wn_error_set(err, st, "out of memory");
	free(addr);
	free(subject);
	wn_buf_free(&body);
	wn_buf_free(&text);
	return st;
}

wn_status wn_ledger_digests(const wn_ledger *l, const wn_conf *c, wn_forward ***out, size_t *n,
			    wn_error *err)
{
	size_t count = wn_ledger_count(l), from = 0;
	wn_status st = WN_OK;

	*out = NULL;
	*n = 0;
	if (count && !(*out = calloc(count, sizeof(**out))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	while (st == WN_OK && from < count) {
		const char *list = wn_ledger_at(l, from)->list;
		size_t to = from + 1;

		while (to < count && !wn_ledger_at(l, to)->list == !list &&
		       (!list || strcmp(wn_ledger_at(l, to)->list, list) == 0))
			to++;
		if ((st = digest(l, from, to, c, &(*out)[*n], err)) == WN_OK)
			(*n)++;
		from = to;
	}
	if (st != WN_OK) {
		for (size_t i = 0; i < *n; i++)
			wn_forward_free(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return st;
}
