/* winnow — syzbot bug reports and syzbot ci series reports.
 *
 * A syzbot report is one finding: the subject carries the title, but the
 * parser only has the body, so the title is rebuilt from the first crash
 * line ("BUG: KASAN: ...", "WARNING: ...") the way syzbot names bugs
 * ("WARNING in func").  syzbot ci replies to a series with sections
 * separated by "***": the intro, one section per finding (title line,
 * tree/arch/config block, crash text) and a closing note. */
#include "autoconfig.h"

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

#define CRASH_QUOTE_LINES 40

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

static char *crash_quote(struct rv_ctx *c, const struct rv_lines *L, size_t k, size_t to)
{
	wn_buf b = WN_BUF_INIT;
	size_t j;

	for (j = k; j < to && j < k + CRASH_QUOTE_LINES; j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n;

		if (j > k && (str_prefix(s, n, "=====") || str_prefix(s, n, "---") ||
			      str_prefix(s, n, "Code disassembly") || str_eq(s, n, "***")))
			break;
		if (j > k)
			rv_put(c, &b, "\n", 1);
		rv_put(c, &b, s, n);
	}
	while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
		b.data[--b.len] = '\0';
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

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;
	bool ci = false;

	for (i = 0; i < L->n && i < 20; i++)
		if (str_find_ci(L->v[i].s, L->v[i].n, "syzbot ci has tested"))
			ci = true;
	ci_sections(c, L);
	if (!c->r->nfindings && ci)
		ci_intro(c, L);
	if (c->r->nfindings)
		return;
	for (i = 0; i < L->n; i++)
		if (crash_head(L->v[i].s, L->v[i].n))
			break;
	if (i < L->n)
		crash_finding(c, L, i, L->n, NULL, 0);
	else
		rv_explain(c, ci ? "syzbot ci report without findings"
				 : "syzbot mail without a crash report (a status or test reply?)");
}

const struct rv_bot rv_bot_SYZBOT = {
	.sent_by = sent_by,
	.parse = parse,
	.query = "from:syzbot",
};
