/* winnow — syzbot bug reports and syzbot ci series reports.
 *
 * A syzbot report is one finding: the subject carries the title, but the
 * parser only has the body, so the title is rebuilt from the first crash
 * line ("BUG: KASAN: ...", "WARNING: ...") the way syzbot names bugs
 * ("WARNING in func").  syzbot ci replies to a series with sections
 * separated by "***": the intro, one section per finding (title line,
 * tree/arch/config block, crash text) and a closing note. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bots.h"

/* syzbot@ or syzbot+<hash>@syzkaller.appspotmail.com, or a "[syzbot ci]"
 * subject (syzbot ci's series reports, and copies of them). */
static enum rv_claim sent_by(const struct rv_mail *m)
{
	bool addr = m->domain && strcasecmp(m->domain, "syzkaller.appspotmail.com") == 0 &&
		    ((m->local_n == 6 && strncasecmp(m->local, "syzbot", 6) == 0) ||
		     (m->local_n > 7 && strncasecmp(m->local, "syzbot+", 7) == 0));

	return addr || strncasecmp(m->subject, "[syzbot ci]", 11) == 0 ? RV_MINE : RV_NOT_MINE;
}

/* Lines of a crash report kept as its quote (real ones hold a few
 * hundred). */
#define CRASH_QUOTE_MAX 5000

struct crash {
	const char *func, *file;
	size_t func_n, file_n;
	long line;
};

static const char *const crash_heads[] = {
	"BUG:", "WARNING:", "KASAN:", "KMSAN:", "KCSAN:", "UBSAN:", "INFO:", "Oops:",
	"general protection fault", "kernel BUG at", "Kernel panic", "panic:",
	"unregister_netdevice:", "divide error:", "stack segment:", "possible deadlock",
	"BUG kmalloc", "WARNING in", "KFENCE:",
};

/* Kernel log prefixes "[  12.345][ T123] " come off first. */
static void strip_log_prefix(const char **s, size_t *n)
{
	int k;

	str_trim(s, n);
	for (k = 0; k < 2 && *n && (*s)[0] == '['; k++) {
		const char *e = memchr(*s, ']', *n);

		if (!e)
			return;
		*n -= (size_t) (e + 1 - *s);
		*s = e + 1;
		str_trim(s, n);
	}
}

static bool crash_head(const char *s, size_t n)
{
	size_t k;

	strip_log_prefix(&s, &n);
	for (k = 0; k < sizeof(crash_heads) / sizeof(crash_heads[0]); k++)
		if (str_prefix(s, n, crash_heads[k]))
			return true;
	return false;
}

/* Walk the space-separated words of s; for each, call-back style. */
static bool is_path_line(const char *w, size_t n, size_t *colon, long *line)
{
	const char *slash = NULL, *c;
	size_t i;

	/* "fs/inode.c:341" in a stack trace; "drivers/x.c:91:2:" in a
	 * compiler error: the line follows the first ':' after the file
	 * name. */
	while (n && w[n - 1] == ':')
		n--;
	for (i = n; i > 0; i--)
		if (w[i - 1] == '/') {
			slash = w + i - 1;
			break;
		}
	if (!slash)
		return false;
	c = memchr(slash, ':', n - (size_t) (slash - w));
	if (!c)
		return false;
	i = (size_t) (c - w) + 1;
	if (!str_num(w, n, &i, line) || (i < n && w[i] != ':'))
		return false;
	*colon = (size_t) (c - w);
	return true;
}

/* "name+0x12/0x34" -> name */
static bool func_word(const char *w, size_t n, size_t *fn)
{
	const char *p = str_find(w, n, "+0x");
	size_t i;

	if (!p || p == w)
		return false;
	for (i = 0; w + i < p; i++)
		if (!str_ident_char((unsigned char) w[i]) && w[i] != '.')
			return false;
	*fn = (size_t) (p - w);
	return true;
}

static void scan_words(const char *s, size_t n, struct crash *cr)
{
	size_t i = 0;

	while (i < n) {
		size_t b, colon, fn;
		long line;

		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ','))
			i++;
		b = i;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != ',')
			i++;
		if (i == b)
			break;
		if (!cr->func && func_word(s + b, i - b, &fn)) {
			cr->func = s + b;
			cr->func_n = fn;
		} else if (!cr->file && is_path_line(s + b, i - b, &colon, &line)) {
			cr->file = s + b;
			cr->file_n = colon;
			cr->line = line;
		}
	}
}

/* Where it crashed: words of the crash line, else the first RIP/pc line
 * that is not an inlined frame. */
static void locate(const struct rv_lines *L, size_t k, size_t to, struct crash *cr)
{
	size_t j;

	memset(cr, 0, sizeof(*cr));
	scan_words(L->v[k].s, L->v[k].n, cr);
	for (j = k + 1; j < to && j < k + 80 && !cr->func; j++) {
		const char *s = L->v[j].s, *p;
		size_t n = L->v[j].n;

		strip_log_prefix(&s, &n);
		if (str_prefix(s, n, "RIP: ") && (p = memchr(s + 5, ':', n - 5)) && str_find(s, n, "+0x")) {
			n -= (size_t) (p + 1 - s);
			s = p + 1;
		} else if (str_prefix(s, n, "pc : ") && str_find(s, n, "+0x")) {
			s += 5;
			n -= 5;
		} else {
			continue;
		}
		scan_words(s, n, cr);
	}
}

/* syzbot-like title from the crash line. */
/* KASAN names the access on the line after the report line ("Read of
 * size 8 at addr ..."); syzbot puts it in the title ("KASAN:
 * slab-use-after-free Read in foo").  NULL when there is none. */
static const char *kasan_access(const struct rv_lines *L, size_t k, size_t to)
{
	size_t j;

	if (!str_find(L->v[k].s, L->v[k].n, "KASAN:"))
		return NULL;
	for (j = k + 1; j < to && j <= k + 2; j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n;

		strip_log_prefix(&s, &n);
		if (str_prefix(s, n, "Read of size"))
			return "Read";
		if (str_prefix(s, n, "Write of size"))
			return "Write";
	}
	return NULL;
}

/* syzbot-like title from the crash line; access: see kasan_access(). */
static char *title(struct rv_ctx *c, const char *s, size_t n, const struct crash *cr,
		   const char *access)
{
	wn_buf b = WN_BUF_INIT;
	char *t;
	size_t i = 0;
	const char *cpu;

	strip_log_prefix(&s, &n);
	/* "BUG: KASAN: ..." is titled "KASAN: ..." (KMSAN, KCSAN, KFENCE
	 * alike): the sanitizer's name is the headline. */
	if (str_prefix(s, n, "BUG: K") && (str_prefix(s + 5, n - 5, "KASAN:") || str_prefix(s + 5, n - 5, "KMSAN:") ||
					  str_prefix(s + 5, n - 5, "KCSAN:") || str_prefix(s + 5, n - 5, "KFENCE:"))) {
		s += 5;
		n -= 5;
	}
	if (cr->func && ((str_prefix(s, n, "WARNING:") &&
			  (str_find(s, n, "CPU:") || str_find(s, n, "CPU#") || str_find(s, n, " at "))) ||
			 str_find(s, n, "general protection fault") || str_prefix(s, n, "kernel BUG at"))) {
		const char *what = s[0] == 'W' ? "WARNING" :
				   s[0] == 'k' ? "kernel BUG" : "general protection fault";

		rv_put(c, &b, what, strlen(what));
		rv_put(c, &b, " in ", 4);
		rv_put(c, &b, cr->func, cr->func_n);
		goto out;
	}
	cpu = str_find(s, n, ", CPU#");
	if (cpu)
		n = (size_t) (cpu - s);
	/* Offsets and source positions change with every build: drop them
	 * so that the title (and the fingerprint) stay put. */
	while (i < n) {
		size_t bw, colon, fn;
		long line;

		bw = i;
		while (i < n && s[i] != ' ')
			i++;
		if (is_path_line(s + bw, i - bw, &colon, &line)) {
			/* dropped */
		} else if (func_word(s + bw, i - bw, &fn)) {
			rv_put(c, &b, " ", b.len ? 1 : 0);
			rv_put(c, &b, s + bw, fn);
		} else if (i > bw) {
			rv_put(c, &b, " ", b.len ? 1 : 0);
			rv_put(c, &b, s + bw, i - bw);
		}
		while (i < n && s[i] == ' ')
			i++;
	}
	if (b.len > 3 && str_eq(b.data + b.len - 3, 3, " in") && cr->func) {
		rv_put(c, &b, " ", 1);
		rv_put(c, &b, cr->func, cr->func_n);
	}
	if (access && !c->oom && b.len) {
		const char *in = str_find(b.data, b.len, " in ");

		if (in) {
			wn_buf x = WN_BUF_INIT;
			size_t at = (size_t) (in - b.data);

			rv_put(c, &x, b.data, at);
			rv_put(c, &x, " ", 1);
			rv_put(c, &x, access, strlen(access));
			rv_put(c, &x, b.data + at, b.len - at);
			wn_buf_free(&b);
			b = x;
		}
	}
out:
	t = b.len ? rv_oneline(c, b.data, b.len, RV_SUMMARY_MAX) : NULL;
	wn_buf_free(&b);
	return t;
}

/* The report's end: syzbot's footer ("---" alone, then "This report
 * is generated by a bot"), a syzbot ci section's "***", or the "Tested
 * on:" block of a test result. */
static bool report_end(const char *s, size_t n)
{
	return str_eq(s, n, "---") || str_eq(s, n, "***") || str_eq(s, n, "Tested on:");
}

/* The whole report from its first line k: the stacks of a
 * use-after-free ("Allocated by", "Freed by") come late, and cutting
 * them off silently would hide what the report says.  Only a hostile
 * mail reaches CRASH_QUOTE_MAX; then the quote says what it left out. */
static char *crash_quote(struct rv_ctx *c, const struct rv_lines *L, size_t k, size_t to)
{
	wn_buf b = WN_BUF_INIT;
	size_t j, end = k + 1;

	while (end < to && !report_end(L->v[end].s, L->v[end].n))
		end++;
	for (j = k; j < end && j < k + CRASH_QUOTE_MAX; j++) {
		if (j > k)
			rv_put(c, &b, "\n", 1);
		rv_put(c, &b, L->v[j].s, L->v[j].n);
	}
	while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
		b.data[--b.len] = '\0';
	if (end > k + CRASH_QUOTE_MAX) {
		char more[64];

		snprintf(more, sizeof(more), "\n[... %zu more lines not kept]", end - (k + CRASH_QUOTE_MAX));
		rv_put(c, &b, more, strlen(more));
	}
	return rv_take(c, &b);
}

static void crash_finding(struct rv_ctx *c, const struct rv_lines *L, size_t k, size_t to,
			  const char *sum, size_t sum_n)
{
	struct crash cr;
	wn_finding *f = rv_add(c, true);

	if (!f)
		return;
	locate(L, k, to, &cr);
	f->summary = sum ? rv_oneline(c, sum, sum_n, RV_SUMMARY_MAX) : title(c, L->v[k].s, L->v[k].n, &cr,
								       kasan_access(L, k, to));
	if (!f->summary)
		f->summary = rv_oneline(c, L->v[k].s, L->v[k].n, RV_SUMMARY_MAX);
	if (cr.func)
		f->function = rv_dup(c, cr.func, cr.func_n);
	if (cr.file) {
		f->file = rv_dup(c, cr.file, cr.file_n);
		f->line = (int) cr.line;
	}
	f->quote = crash_quote(c, L, k, to);
}

/* syzbot ci: a section is a finding when a "tree:"/"arch:" block
 * follows its title line. */
static void ci_sections(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i, start = 0;

	for (i = 0; i <= L->n && !c->oom; i++) {
		const char *t, *tl = NULL;
		size_t tn, tln = 0, j, crash = SIZE_MAX, tline = 0;
		bool block = false;

		if (i < L->n) {
			t = L->v[i].s;
			tn = L->v[i].n;
			str_trim(&t, &tn);
			if (!str_eq(t, tn, "***"))
				continue;
		}
		for (j = start; j < i; j++) {
			const char *s = L->v[j].s;
			size_t n = L->v[j].n;

			str_trim(&s, &n);
			if (!tl) {
				if (n) {
					tl = s;
					tln = n;
					tline = j;
				}
				continue;
			}
			if (j <= tline + 4 && (str_prefix(s, n, "tree:") || str_prefix(s, n, "arch:") ||
					       str_prefix(s, n, "base:")))
				block = true;
			if (block && crash == SIZE_MAX && n && crash_head(s, n))
				crash = j;
		}
		if (block) {
			const char *in = tl ? str_find(tl, tln, " in ") : NULL;
			size_t before = c->r->nfindings, text = tline + 1;

			/* No crash line (a build error): quote the text under
			 * the tree/arch block instead. */
			while (text < i && str_blank(L->v[text].s, L->v[text].n))
				text++;
			while (text < i && !str_blank(L->v[text].s, L->v[text].n))
				text++;
			while (text < i && str_blank(L->v[text].s, L->v[text].n))
				text++;
			if (crash == SIZE_MAX && text < i)
				crash = text;
			crash_finding(c, L, crash != SIZE_MAX ? crash : tline, i, tl, tln);
			if (c->r->nfindings > before && in && !c->oom) {
				/* "WARNING in reg_bounds_sanity_check": syzbot's
				 * own name for the function */
				wn_finding *f = &c->r->findings[c->r->nfindings - 1];
				const char *e = in + 4;
				size_t fl = 0;

				while (e + fl < tl + tln && str_ident_char((unsigned char) e[fl]))
					fl++;
				if (fl && e + fl == tl + tln) {
					free(f->function);
					f->function = rv_dup(c, e, fl);
				}
			}
			if (crash == SIZE_MAX && c->r->nfindings > before) {
				wn_finding *f = &c->r->findings[c->r->nfindings - 1];

				free(f->quote);
				f->quote = NULL;
			}
		}
		start = i + 1;
	}
}

/* Fallback: the intro's "and found the following issue(s):" list. */
static void ci_intro(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;

	for (i = 0; i < L->n; i++)
		if (str_find_ci(L->v[i].s, L->v[i].n, "found the following issue"))
			break;
	for (i++; i < L->n && !c->oom; i++) {
		const char *s = L->v[i].s;
		size_t n = L->v[i].n;
		wn_finding *f;

		str_trim(&s, &n);
		if (!n)
			break;
		f = rv_add(c, true);
		if (f)
			f->summary = rv_oneline(c, s, n, RV_SUMMARY_MAX);
	}
}

/* ---- what kind of mail ----
 *
 * A report starts a thread ("[syzbot] [subsys?] TITLE"; before 2021 the
 * bare title).  syzbot's replies in it ("Re: ...") are follow-ups, and
 * "[syzbot] Monthly <subsys> report" is a summary.  A patch test that
 * still triggers the bug is a finding on the tested patch: a review.
 * SYZ_HIDDEN selects the mails given a kind the queue leaves out, by the
 * same rules: the subject's start, and the phrases of still_triggers(). */
#define SYZ_HIDDEN "from:syzbot and (subject:\"/^\\[syzbot\\] Monthly /\" or " \
		   "(subject:\"/^[Rr][Ee]:/\" and not body:\"still triggering\" and " \
		   "not body:\"still triggered\"))"

static bool reply_subject(const char *s)
{
	return (s[0] == 'R' || s[0] == 'r') && (s[1] == 'E' || s[1] == 'e') && s[2] == ':';
}

static bool monthly_subject(const char *s)
{
	return strncmp(s, "[syzbot] Monthly ", 17) == 0;
}

static bool still_triggers(const struct rv_lines *L)
{
	return rv_phrase_lines(L, 0, L->n, "still triggering") ||
	       rv_phrase_lines(L, 0, L->n, "still triggered");
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
static bool followup_line(const struct rv_lines *L, wn_followup *what, size_t *at)
{
	size_t i, k, seen = 0;

	for (i = 0; i < L->n && seen < 12; i++) {
		const struct rv_line *l = &L->v[i];

		if (!l->n || l->s[0] == '>' || str_blank(l->s, l->n))
			continue;
		seen++;
		for (k = 0; k < sizeof(followup_phrases) / sizeof(followup_phrases[0]); k++)
			if (rv_phrase_lines(L, i, i + 1, followup_phrases[k].phrase)) {
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
		if (!str_blank(L->v[i].s, L->v[i].n) && L->v[i].s[0] != '>')
			return i;
	return SIZE_MAX;
}

/* The value of a "key:   value" line in [from, L->n); NULL. */
static const struct rv_line *key_line(const struct rv_lines *L, size_t from, const char *key,
				      size_t *vo)
{
	size_t i, kn = strlen(key);

	for (i = from; i < L->n; i++)
		if (str_prefix(L->v[i].s, L->v[i].n, key) && L->v[i].n > kn) {
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

	rv_put(c, &b, prefix, strlen(prefix));
	rv_put(c, &b, s, n);
	c->r->followup_says = b.len ? rv_oneline(c, b.data, b.len, RV_SUMMARY_MAX) : NULL;
	wn_buf_free(&b);
}

/* "commit 859bdc359567f5fa..." then Author, Date and the indented
 * title: 'commit 859bdc359567 ("title")', as a Fixes: line names it. */
static void says_commit(struct rv_ctx *c, const struct rv_lines *L, size_t from)
{
	size_t i, j;

	for (i = from; i < L->n && i < from + 6; i++)
		if (str_prefix(L->v[i].s, L->v[i].n, "commit ") && L->v[i].n >= 19)
			break;
	if (i >= L->n || i >= from + 6)
		return;
	for (j = i + 1; j < L->n && j < i + 8; j++) {
		const char *t = L->v[j].s;
		size_t tn = L->v[j].n;

		if (tn && (t[0] == ' ' || t[0] == '\t')) {
			wn_buf b = WN_BUF_INIT;

			str_trim(&t, &tn);
			rv_put(c, &b, L->v[i].s, 19);
			rv_put(c, &b, " (\"", 3);
			rv_put(c, &b, t, tn);
			rv_put(c, &b, "\")", 2);
			c->r->followup_says = rv_oneline(c, b.data, b.len, RV_SUMMARY_MAX);
			wn_buf_free(&b);
			return;
		}
	}
	says_line(c, "", L->v[i].s, L->v[i].n);
}

static void followup(struct rv_ctx *c, const struct rv_lines *L)
{
	wn_followup what = WN_FOLLOWUP_COMMAND_REPLY;
	size_t at = 0, t, vo = 0;
	const struct rv_line *kv;

	if (!followup_line(L, &what, &at)) {
		/* A reply to a "#syz" command: what it says is its first
		 * line of its own ("unknown command", "I see the command
		 * but can't find the corresponding bug"). */
		for (at = 0; at < L->n; at++)
			if (!str_blank(L->v[at].s, L->v[at].n) && L->v[at].s[0] != '>' &&
			    !str_prefix_ci(L->v[at].s, L->v[at].n, "Hello"))
				break;
		if (at < L->n)
			says_line(c, "", L->v[at].s, L->v[at].n);
	} else if (what == WN_FOLLOWUP_BISECTED || what == WN_FOLLOWUP_FIXED_BY) {
		says_commit(c, L, at + 1);
	} else if (what == WN_FOLLOWUP_REPRODUCER &&
		   ((kv = key_line(L, at, "C reproducer:", &vo)) || (kv = key_line(L, at, "syz repro:", &vo)))) {
		says_line(c, "reproducer: ", kv->s + vo, kv->n - vo);
	} else if (what == WN_FOLLOWUP_TEST_OK && (kv = key_line(L, at, "commit:", &vo))) {
		says_line(c, "tested on ", kv->s + vo, kv->n - vo);
	} else if (what == WN_FOLLOWUP_TEST_FAILED && (t = next_text(L, at)) != SIZE_MAX) {
		says_line(c, "", L->v[t].s, L->v[t].n);
	}
	c->r->kind = WN_KIND_FOLLOWUP;
	c->r->followup = what;
	rv_explain(c, "a syzbot follow-up (%s), not a new report", wn_followup_name(what));
}

/* "syzbot has tested the proposed patch but the reproducer is still
 * triggering an issue:" then the title, then the crash: one finding on
 * the tested patch. */
static void still_triggered(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i, t = SIZE_MAX, k;

	c->r->kind = WN_KIND_REVIEW;
	c->r->followup = WN_FOLLOWUP_STILL_TRIGGERS;
	for (i = 0; i < L->n; i++)
		if (rv_phrase_lines(L, i, i + 1, "still triggering") ||
		    rv_phrase_lines(L, i, i + 1, "still triggered"))
			break;
	/* The title follows the sentence, which ends in ':' and may wrap
	 * ("... still triggered\ncrash:"). */
	for (k = i; k < L->n && k < i + 3; k++) {
		const char *s = L->v[k].s;
		size_t n = L->v[k].n;

		str_trim(&s, &n);
		if (n && s[n - 1] == ':') {
			t = next_text(L, k);
			break;
		}
	}
	for (k = t == SIZE_MAX ? 0 : t + 1; k < L->n; k++)
		if (crash_head(L->v[k].s, L->v[k].n))
			break;
	if (t != SIZE_MAX)
		says_line(c, "", L->v[t].s, L->v[t].n);
	if (k < L->n)
		crash_finding(c, L, k, L->n, t != SIZE_MAX ? L->v[t].s : NULL,
			      t != SIZE_MAX ? L->v[t].n : 0);
	else if (t != SIZE_MAX && rv_add(c, false))
		c->r->findings[c->r->nfindings - 1].summary =
			rv_oneline(c, L->v[t].s, L->v[t].n, RV_SUMMARY_MAX);
}

/* The kind, from the subject when the caller gave it, else from the
 * body's opening sentence. */
static wn_kind kind_of(struct rv_ctx *c, const struct rv_lines *L, bool ci)
{
	const char *subject = c->in->subject;
	wn_followup what;
	size_t at;

	if (ci)
		return WN_KIND_REVIEW;
	if (subject) {
		if (monthly_subject(subject))
			return WN_KIND_SUMMARY;
		if (!reply_subject(subject))
			return WN_KIND_REPORT;
	} else if (!followup_line(L, &what, &at)) {
		return WN_KIND_REPORT;
	}
	return still_triggers(L) ? WN_KIND_REVIEW : WN_KIND_FOLLOWUP;
}

static void report(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;

	for (i = 0; i < L->n; i++)
		if (crash_head(L->v[i].s, L->v[i].n))
			break;
	if (i < L->n)
		crash_finding(c, L, i, L->n, NULL, 0);
	else
		rv_explain(c, "syzbot mail without a crash report");
}

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;
	bool ci = false;

	for (i = 0; i < L->n && i < 20; i++)
		if (str_find_ci(L->v[i].s, L->v[i].n, "syzbot ci has tested"))
			ci = true;
	c->r->kind = kind_of(c, L, ci);
	switch (c->r->kind) {
	case WN_KIND_SUMMARY:
		rv_explain(c, "a syzbot monthly report, a summary, not a review");
		return;
	case WN_KIND_FOLLOWUP:
		followup(c, L);
		return;
	case WN_KIND_REPORT:
		report(c, L);
		return;
	default:
		break;
	}
	if (!ci) {
		still_triggered(c, L);
		return;
	}
	ci_sections(c, L);
	if (!c->r->nfindings)
		ci_intro(c, L);
	if (!c->r->nfindings)
		rv_explain(c, "syzbot ci report without findings");
}

const struct rv_bot rv_bot_SYZBOT = {
	.sent_by = sent_by,
	.parse = parse,
	.query = "from:syzbot",
	.hidden = SYZ_HIDDEN,
};
