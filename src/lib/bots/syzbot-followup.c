/* winnow — syzbot's follow-ups (see syzbot.h): what a reply in a
 * report's thread says, and a patch test that still triggers the bug. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "syzbot.h"

bool wn_rv_syz_still_triggers(const struct rv_lines *L)
{
	return wn_rv_phrase_lines(L, 0, L->n, "still triggering") ||
	       wn_rv_phrase_lines(L, 0, L->n, "still triggered");
}

/* The phrases of syzbot's answers to a "#syz" command it could not
 * carry out; SYZ_HIDDEN holds the same phrases. */
bool wn_rv_syz_command_error(const struct rv_lines *L)
{
	return wn_rv_phrase_lines(L, 0, L->n, "does not look like a valid git repo address");
}

/* What a follow-up says, by its opening sentence. */
static const struct {
	const char *phrase;
	wn_followup what;
} followup_phrases[] = {
	{ "syzbot has found a reproducer", WN_FOLLOWUP_REPRODUCER },
	{ "syzbot has bisected this", WN_FOLLOWUP_BISECTED },
	{ "fixed by commit", WN_FOLLOWUP_FIXED_BY },
	{ "did not trigger", WN_FOLLOWUP_TEST_OK },
	{ "build boot failed", WN_FOLLOWUP_TEST_FAILED },
	{ "failed to apply", WN_FOLLOWUP_TEST_FAILED },
};

/* The follow-up sentence among the first unquoted lines: *what and the
 * line it is on; false when there is none (a reply to a command). */
bool wn_rv_syz_followup_line(const struct rv_lines *L, wn_followup *what, size_t *at)
{
	size_t i, k, seen = 0;

	for (i = 0; i < L->n && seen < 12; i++) {
		const struct rv_line *l = &L->v[i];

		if (!l->n || l->s[0] == '>' || wn_str_blank(l->s, l->n))
			continue;
		seen++;
		for (k = 0; k < sizeof(followup_phrases) / sizeof(followup_phrases[0]); k++)
			if (wn_rv_phrase_lines(L, i, i + 1, followup_phrases[k].phrase)) {
				*what = followup_phrases[k].what;
				*at = i;
				return true;
			}
	}
	return false;
}

/* The first non-blank line after line i (within a few); SIZE_MAX. */
static size_t next_text(const struct rv_lines *L, size_t i)
{
	size_t lim = i + 6;

	for (i++; i < L->n && i < lim; i++)
		if (!wn_str_blank(L->v[i].s, L->v[i].n) && L->v[i].s[0] != '>')
			return i;
	return SIZE_MAX;
}

/* The value of a "key:   value" line in [from, L->n); NULL. */
static const struct rv_line *key_line(const struct rv_lines *L, size_t from, const char *key,
				      size_t *vo)
{
	size_t i, kn = strlen(key);

	for (i = from; i < L->n; i++)
		if (wn_str_prefix(L->v[i].s, L->v[i].n, key) && L->v[i].n > kn) {
			size_t o = kn;

			while (o < L->v[i].n && (L->v[i].s[o] == ' ' || L->v[i].s[o] == '\t'))
				o++;
			*vo = o;
			return &L->v[i];
		}
	return NULL;
}

static void says_line(struct rv_ctx *c, const char *prefix, const char *s, size_t n)
{
	wn_buf b = WN_BUF_INIT;

	wn_rv_put(c, &b, prefix, strlen(prefix));
	wn_rv_put(c, &b, s, n);
	c->r->followup_says = b.len ? wn_rv_oneline(c, b.data, b.len, RV_SUMMARY_MAX) : NULL;
	wn_buf_free(&b);
}

/* "commit 859bdc359567f5fa..." then Author, Date and the indented
 * title: 'commit 859bdc359567 ("title")', as a Fixes: line names it. */
static void says_commit(struct rv_ctx *c, const struct rv_lines *L, size_t from)
{
	size_t i, j;

	for (i = from; i < L->n && i < from + 6; i++)
		if (wn_str_prefix(L->v[i].s, L->v[i].n, "commit ") && L->v[i].n >= 19)
			break;
	if (i >= L->n || i >= from + 6)
		return;
	for (j = i + 1; j < L->n && j < i + 8; j++) {
		const char *t = L->v[j].s;
		size_t tn = L->v[j].n;

		if (tn && (t[0] == ' ' || t[0] == '\t')) {
			wn_buf b = WN_BUF_INIT;

			wn_str_trim(&t, &tn);
			wn_rv_put(c, &b, L->v[i].s, 19);
			wn_rv_put(c, &b, " (\"", 3);
			wn_rv_put(c, &b, t, tn);
			wn_rv_put(c, &b, "\")", 2);
			c->r->followup_says = wn_rv_oneline(c, b.data, b.len, RV_SUMMARY_MAX);
			wn_buf_free(&b);
			return;
		}
	}
	says_line(c, "", L->v[i].s, L->v[i].n);
}

void wn_rv_syz_followup(struct rv_ctx *c, const struct rv_lines *L)
{
	wn_followup what = WN_FOLLOWUP_COMMAND_REPLY;
	size_t at = 0, t, vo = 0;
	const struct rv_line *kv;

	if (!wn_rv_syz_followup_line(L, &what, &at)) {
		/* A reply to a "#syz" command: what it says is its first
		 * line of its own ("unknown command", "I see the command
		 * but can't find the corresponding bug"). */
		for (at = 0; at < L->n; at++)
			if (!wn_str_blank(L->v[at].s, L->v[at].n) && L->v[at].s[0] != '>' &&
			    !wn_str_prefix_ci(L->v[at].s, L->v[at].n, "Hello"))
				break;
		if (at < L->n)
			says_line(c, "", L->v[at].s, L->v[at].n);
	} else if (what == WN_FOLLOWUP_BISECTED || what == WN_FOLLOWUP_FIXED_BY) {
		says_commit(c, L, at + 1);
	} else if (what == WN_FOLLOWUP_REPRODUCER &&
		   ((kv = key_line(L, at, "C reproducer:", &vo)) ||
		    (kv = key_line(L, at, "syz repro:", &vo)))) {
		says_line(c, "reproducer: ", kv->s + vo, kv->n - vo);
	} else if (what == WN_FOLLOWUP_TEST_OK && (kv = key_line(L, at, "commit:", &vo))) {
		says_line(c, "tested on ", kv->s + vo, kv->n - vo);
	} else if (what == WN_FOLLOWUP_TEST_FAILED && (t = next_text(L, at)) != SIZE_MAX) {
		says_line(c, "", L->v[t].s, L->v[t].n);
	}
	c->r->kind = WN_KIND_FOLLOWUP;
	c->r->followup = what;
	wn_rv_explain(c, "a syzbot follow-up (%s), not a new report", wn_followup_name(what));
}

/* "syzbot has tested the proposed patch but the reproducer is still
 * triggering an issue:" then the title, then the crash: one finding on
 * the tested patch. */
void wn_rv_syz_still_triggered(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i, t = SIZE_MAX, k;

	c->r->kind = WN_KIND_REVIEW;
	c->r->followup = WN_FOLLOWUP_STILL_TRIGGERS;
	for (i = 0; i < L->n; i++)
		if (wn_rv_phrase_lines(L, i, i + 1, "still triggering") ||
		    wn_rv_phrase_lines(L, i, i + 1, "still triggered"))
			break;
	/* The title follows the sentence, which ends in ':' and may wrap
	 * ("... still triggered\ncrash:"). */
	for (k = i; k < L->n && k < i + 3; k++) {
		const char *s = L->v[k].s;
		size_t n = L->v[k].n;

		wn_str_trim(&s, &n);
		if (n && s[n - 1] == ':') {
			t = next_text(L, k);
			break;
		}
	}
	for (k = t == SIZE_MAX ? 0 : t + 1; k < L->n; k++)
		if (wn_rv_syz_crash_head(L->v[k].s, L->v[k].n))
			break;
	if (t != SIZE_MAX)
		says_line(c, "", L->v[t].s, L->v[t].n);
	if (k < L->n)
		wn_rv_syz_crash_finding(c, L, k, L->n, t != SIZE_MAX ? L->v[t].s : NULL,
					t != SIZE_MAX ? L->v[t].n : 0);
	else if (t != SIZE_MAX && wn_rv_add(c, false))
		c->r->findings[c->r->nfindings - 1].summary =
			wn_rv_oneline(c, L->v[t].s, L->v[t].n, RV_SUMMARY_MAX);
}
