/* winnow — the finding builder of the bot parsers (see build.h): the
 * review's finding list, their places and fingerprints, the tags and
 * facts a mail asks for (its text: build-text.c; summaries:
 * build-sentence.c). */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "winnow/text.h"

static void rv_sites_free(wn_site *v, size_t n);

/* Room for twice as many findings; false (and c->oom) when there is
 * none. */
static bool grow(struct rv_ctx *c)
{
	size_t cap = c->cap ? c->cap * 2 : 8;
	wn_finding *v;
	struct rv_fploc *fp;

	if (cap > SIZE_MAX / sizeof(*v))
		goto oom;
	v = realloc(c->r->findings, cap * sizeof(*v));
	if (!v)
		goto oom;
	c->r->findings = v;
	fp = realloc(c->fp, cap * sizeof(*fp));
	if (!fp)
		goto oom;
	c->fp = fp;
	c->cap = cap;
	return true;
oom:
	c->oom = true;
	return false;
}

wn_finding *wn_rv_add(struct rv_ctx *c, bool loc_in_fp)
{
	wn_review *r = c->r;
	wn_finding *f;

	if (c->oom || (r->nfindings == c->cap && !grow(c)))
		return NULL;
	f = &r->findings[r->nfindings];
	memset(f, 0, sizeof(*f));
	f->severity = WN_SEV_NONE;
	memset(&c->fp[r->nfindings], 0, sizeof(c->fp[0]));
	c->fp[r->nfindings].loc = loc_in_fp;
	r->nfindings++;
	return f;
}

static char *dup0(struct rv_ctx *c, const char *s)
{
	return s ? wn_rv_dup(c, s, strlen(s)) : NULL;
}

void wn_rv_fp_place(struct rv_ctx *c, size_t i, const char *file, const char *function)
{
	struct rv_fploc *p;

	if (c->oom || i >= c->r->nfindings || c->fp[i].pinned)
		return;
	p = &c->fp[i];
	p->pinned = true;
	p->file = dup0(c, file);
	p->function = dup0(c, function);
}

void wn_rv_fp_pin(struct rv_ctx *c, size_t i)
{
	if (i < c->r->nfindings)
		wn_rv_fp_place(c, i, c->r->findings[i].file, c->r->findings[i].function);
}

void wn_rv_fp_text(struct rv_ctx *c, size_t i, const char *text, size_t n)
{
	if (c->oom || i >= c->r->nfindings)
		return;
	free(c->fp[i].text);
	c->fp[i].text = wn_rv_dup(c, text, n);
}

void wn_rv_move(struct rv_ctx *c, size_t i, char *file, char *function, int line)
{
	wn_finding *f;

	wn_rv_fp_pin(c, i);
	if (c->oom || i >= c->r->nfindings) {
		free(file);
		free(function);
		return;
	}
	f = &c->r->findings[i];
	free(f->file);
	free(f->function);
	free(f->path);
	f->file = file;
	f->function = function;
	f->path = NULL;
	f->line = line;
}

void wn_rv_fp_pin_file(struct rv_ctx *c, size_t i)
{
	wn_rv_fp_pin(c, i);
	if (c->oom || i >= c->r->nfindings)
		return;
	free(c->fp[i].function);
	c->fp[i].function = NULL;
}

void wn_rv_finding_free(wn_finding *f)
{
	free(f->summary);
	free(f->file);
	free(f->function);
	free(f->quote);
	free(f->comment);
	free(f->path);
	free(f->detail);
	for (size_t k = 0; k < f->nalso; k++) {
		free(f->also[k].file);
		free(f->also[k].function);
	}
	free(f->also);
	rv_sites_free(f->sites, f->nsites);
	free(f->notes);
	memset(f, 0, sizeof(*f));
}

static void rv_sites_free(wn_site *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(v[k].file);
		free(v[k].function);
		free(v[k].code);
		free(v[k].comment);
	}
	free(v);
}

void wn_rv_add_site(struct rv_ctx *c, wn_finding *f, const char *file, const char *function,
		    int line, bool approx, bool commit_msg, const char *code, const char *comment,
		    size_t n)
{
	wn_site *v, *p;

	if (c->oom || f->nsites >= RV_MAX_SITES)
		return;
	if (!(f->nsites & (f->nsites - 1))) {
		v = realloc(f->sites, (f->nsites ? f->nsites * 2 : 1) * sizeof(*v));
		if (!v) {
			c->oom = true;
			return;
		}
		f->sites = v;
	}
	p = &f->sites[f->nsites++];
	memset(p, 0, sizeof(*p));
	p->file = dup0(c, file);
	p->function = dup0(c, function);
	p->line = line;
	p->line_approx = approx;
	p->about_commit_msg = commit_msg;
	p->code = dup0(c, code);
	p->comment = comment && n ? wn_rv_dup(c, comment, n) : NULL;
}

void wn_rv_sites_settle(wn_finding *f)
{
	if (f->nsites > 1)
		return;
	rv_sites_free(f->sites, f->nsites);
	f->sites = NULL;
	f->nsites = 0;
}

void wn_rv_drop(struct rv_ctx *c, const bool *drop)
{
	wn_review *r = c->r;
	size_t i, o = 0;

	for (i = 0; i < r->nfindings; i++) {
		if (drop[i]) {
			wn_rv_finding_free(&r->findings[i]);
			free(c->fp[i].file);
			free(c->fp[i].function);
			free(c->fp[i].text);
			continue;
		}
		if (o != i) {
			r->findings[o] = r->findings[i];
			c->fp[o] = c->fp[i];
		}
		o++;
	}
	r->nfindings = o;
}

void wn_rv_add_place(struct rv_ctx *c, wn_finding *f, const char *file, const char *function,
		     int line, bool approx)
{
	wn_place *v, *p;

	if (c->oom)
		return;
	/* doubling at each power of two: a hostile mail may repeat a
	 * finding a hundred thousand times */
	if (!(f->nalso & (f->nalso - 1))) {
		v = realloc(f->also, (f->nalso ? f->nalso * 2 : 1) * sizeof(*v));
		if (!v) {
			c->oom = true;
			return;
		}
		f->also = v;
	}
	v = f->also;
	p = &v[f->nalso++];
	memset(p, 0, sizeof(*p));
	p->file = dup0(c, file);
	p->function = dup0(c, function);
	p->line = line;
	p->line_approx = approx;
}

void wn_rv_add_detail(struct rv_ctx *c, wn_finding *f, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL, *joined = NULL;

	if (c->oom)
		return;
	va_start(ap, fmt);
	s = wn_vstrdupf(fmt, ap);
	va_end(ap);
	if (s && f->detail && asprintf(&joined, "%s; %s", f->detail, s) < 0)
		joined = NULL;
	if (!s || (f->detail && !joined)) {
		free(s);
		c->oom = true;
		return;
	}
	if (joined) {
		free(s);
		s = joined;
	}
	free(f->detail);
	f->detail = s;
}

void wn_rv_explain(struct rv_ctx *c, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (c->r->explain)
		return;
	va_start(ap, fmt);
	if (!(s = wn_vstrdupf(fmt, ap)))
		c->oom = true;
	va_end(ap);
	c->r->explain = s;
}

/* Longest tag taken: a trailer line, not a paragraph. */
#define TAG_MAX 300

/* "Key: value" with one of the keys bots ask for: the length of the
 * tag in s[0..n) (the "| " and blanks taken off, *s moved), or 0. */
static size_t tag_line(const char **s, size_t n)
{
	static const char *const keys[] = { "Reported-by:", "Closes:", "Link:", "Tested-by:" };
	const char *t = *s;

	wn_str_trim(&t, &n);
	if (n >= 2 && t[0] == '|' && t[1] == ' ') {
		t += 2;
		n -= 2;
		wn_str_trim(&t, &n);
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t kn = strlen(keys[k]);

		if (n > kn + 1 && wn_str_prefix_ci(t, n, keys[k]) && t[kn] == ' ') {
			*s = t;
			return n;
		}
	}
	return 0;
}

static bool tag_safe(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char) s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return n <= TAG_MAX && wn_text_utf8_valid(s, n);
}

/* s[0..n) onto the list v of *count lines unless it is there or
 * unsafe, or the list holds max already. */
static void add_unique(struct rv_ctx *c, char ***v, size_t *count, size_t max, const char *s,
		       size_t n)
{
	char **nv;

	if (!n || *count >= max || !tag_safe(s, n))
		return;
	for (size_t i = 0; i < *count; i++)
		if (strlen((*v)[i]) == n && memcmp((*v)[i], s, n) == 0)
			return;
	if (!(nv = realloc(*v, (*count + 1) * sizeof(*nv)))) {
		c->oom = true;
		return;
	}
	*v = nv;
	if ((nv[*count] = wn_rv_dup(c, s, n)))
		(*count)++;
}

static void add_tag(struct rv_ctx *c, const char *s, size_t n)
{
	add_unique(c, &c->r->tags, &c->r->ntags, SIZE_MAX, s, n);
}

/* Does line l ask for tags?  Both robots wrap the sentence where they
 * like ("please add the following tag to the\ncommit:"), so only its
 * words that stay on one line are looked for. */
static bool asks_tags(const struct rv_line *l)
{
	return (l->n && l->s[0] != '>') && (wn_str_find_ci(l->s, l->n, "add following tag") ||
					    wn_str_find_ci(l->s, l->n, "add the following tag"));
}

void wn_rv_asked_tags(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < L->n && !c->oom; i++) {
		size_t k, lead = 0;
		bool took = false;

		if (!asks_tags(&L->v[i]))
			continue;
		/* The request may run on for a line or two ("commit:", "where
		 * applicable") before its tags; the first line that is no tag
		 * after them ends them. */
		for (k = i + 1; k < to && k < L->n && !c->oom; k++) {
			const char *t = L->v[k].s;
			size_t n = L->v[k].n && t[0] == '>' ? 0 : tag_line(&t, L->v[k].n);

			if (n) {
				add_tag(c, t, n);
				took = true;
			} else if (took || ++lead > 2) {
				break;
			}
		}
		i = k - 1;
	}
}
/* ---- Message-IDs in links ---- */

char *wn_rv_msgid(struct rv_ctx *c, const char *s, size_t n)
{
	char *d = wn_rv_dup(c, s, n), *p, *q;
	size_t len;

	if (!d)
		return NULL;
	for (p = q = d; *p; p++) {
		if (p[0] == '%' && wn_str_hex((unsigned char) p[1]) >= 0 &&
		    wn_str_hex((unsigned char) p[2]) >= 0) {
			*q++ = (char) (wn_str_hex((unsigned char) p[1]) * 16 +
				       wn_str_hex((unsigned char) p[2]));
			p += 2;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	p = d;
	while (*p == '<')
		p++;
	len = strlen(p);
	while (len && (p[len - 1] == '>' || p[len - 1] == '.' || p[len - 1] == ')' ||
		       p[len - 1] == ',' || p[len - 1] == ';'))
		len--;
	for (q = p; q < p + len; q++)
		if ((unsigned char) *q <= ' ' || *q == '<' || *q == '>')
			len = 0;	/* not a Message-ID */
	if (!len) {
		free(d);
		return NULL;
	}
	memmove(d, p, len);
	d[len] = '\0';
	return d;
}
/* Facts a report holds are a handful of lines; a hostile mail may hold
 * thousands of "config:" lines. */
#define MAX_FACTS 32

static void add_fact(struct rv_ctx *c, const char *s, size_t n)
{
	add_unique(c, &c->r->facts, &c->r->nfacts, MAX_FACTS, s, n);
}

void wn_rv_report_facts(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
			const char *const *keys)
{
	for (size_t i = from; i < to && i < L->n && !c->oom; i++) {
		const char *t = L->v[i].s;
		size_t n = L->v[i].n, k;

		if (!n || t[0] == '>' || t[0] == ' ' || t[0] == '\t')
			continue;
		wn_str_trim(&t, &n);
		for (k = 0; keys[k] && !wn_str_prefix_ci(t, n, keys[k]); k++)
			;
		if (!keys[k])
			continue;
		add_fact(c, t, n);
		/* "reproduce:" alone: the commands are the indented lines
		 * under it, up to a blank line. */
		while (i + 1 < to && i + 1 < L->n && L->v[i + 1].n &&
		       (L->v[i + 1].s[0] == ' ' || L->v[i + 1].s[0] == '\t')) {
			const char *u = L->v[++i].s;
			size_t un = L->v[i].n;
			wn_buf b = WN_BUF_INIT;
			char *line;

			wn_str_trim(&u, &un);
			if (!un)
				break;
			wn_rv_put(c, &b, "        ", 8);
			wn_rv_put(c, &b, u, un);
			if ((line = wn_rv_take(c, &b)))
				add_fact(c, line, strlen(line));
			free(line);
		}
	}
}
