/* winnow — the line/finding builder of the bot parsers (see build.h):
 * the body cut into lines, the review's finding list, one-line
 * summaries. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "winnow/text.h"

static wn_status lines_split(const char *body, size_t len, struct rv_lines *out)
{
	size_t count = 1, i, pos = 0;
	const char *s;
	size_t n;

	if (!body || !len)
		return WN_OK;
	for (i = 0; i < len; i++)
		if (body[i] == '\n')
			count++;
	out->v = calloc(count, sizeof(*out->v));
	if (!out->v)
		return WN_NOMEM;
	while (str_next_line(body, len, &pos, &s, &n)) {
		/* CRLF mail, and stray CRs at the end of a line. */
		while (n && s[n - 1] == '\r')
			n--;
		out->v[out->n].s = s;
		out->v[out->n].n = n;
		out->n++;
	}
	return WN_OK;
}

void rv_lines_free(struct rv_lines *l)
{
	free(l->v);
	free(l->repaired);
	memset(l, 0, sizeof(*l));
}

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

wn_finding *rv_add(struct rv_ctx *c, bool loc_in_fp)
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
	return s ? rv_dup(c, s, strlen(s)) : NULL;
}

void rv_fp_place(struct rv_ctx *c, size_t i, const char *file, const char *function)
{
	struct rv_fploc *p;

	if (c->oom || i >= c->r->nfindings || c->fp[i].pinned)
		return;
	p = &c->fp[i];
	p->pinned = true;
	p->file = dup0(c, file);
	p->function = dup0(c, function);
}

void rv_fp_pin(struct rv_ctx *c, size_t i)
{
	if (i < c->r->nfindings)
		rv_fp_place(c, i, c->r->findings[i].file, c->r->findings[i].function);
}

void rv_fp_text(struct rv_ctx *c, size_t i, const char *text, size_t n)
{
	if (c->oom || i >= c->r->nfindings)
		return;
	free(c->fp[i].text);
	c->fp[i].text = rv_dup(c, text, n);
}

void rv_move(struct rv_ctx *c, size_t i, char *file, char *function, int line)
{
	wn_finding *f;

	rv_fp_pin(c, i);
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

void rv_fp_pin_file(struct rv_ctx *c, size_t i)
{
	rv_fp_pin(c, i);
	if (c->oom || i >= c->r->nfindings)
		return;
	free(c->fp[i].function);
	c->fp[i].function = NULL;
}

void rv_finding_free(wn_finding *f)
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

void rv_sites_free(wn_site *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(v[k].file);
		free(v[k].function);
		free(v[k].code);
		free(v[k].comment);
	}
	free(v);
}

void rv_add_site(struct rv_ctx *c, wn_finding *f, const char *file, const char *function, int line,
		 bool approx, bool commit_msg, const char *code, const char *comment, size_t n)
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
	p->comment = comment && n ? rv_dup(c, comment, n) : NULL;
}

void rv_sites_settle(wn_finding *f)
{
	if (f->nsites > 1)
		return;
	rv_sites_free(f->sites, f->nsites);
	f->sites = NULL;
	f->nsites = 0;
}

void rv_drop(struct rv_ctx *c, const bool *drop)
{
	wn_review *r = c->r;
	size_t i, o = 0;

	for (i = 0; i < r->nfindings; i++) {
		if (drop[i]) {
			rv_finding_free(&r->findings[i]);
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

void rv_add_place(struct rv_ctx *c, wn_finding *f, const char *file, const char *function,
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

void rv_add_detail(struct rv_ctx *c, wn_finding *f, const char *fmt, ...)
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

void rv_explain(struct rv_ctx *c, const char *fmt, ...)
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

	str_trim(&t, &n);
	if (n >= 2 && t[0] == '|' && t[1] == ' ') {
		t += 2;
		n -= 2;
		str_trim(&t, &n);
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t kn = strlen(keys[k]);

		if (n > kn + 1 && str_prefix_ci(t, n, keys[k]) && t[kn] == ' ') {
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
	if ((nv[*count] = rv_dup(c, s, n)))
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
	return (l->n && l->s[0] != '>') &&
	       (str_find_ci(l->s, l->n, "add following tag") || str_find_ci(l->s, l->n, "add the following tag"));
}

void rv_asked_tags(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to)
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

/* malloc that records out-of-memory in c. */
static char *alloc(struct rv_ctx *c, size_t n)
{
	char *d = c->oom ? NULL : malloc(n);

	if (!d)
		c->oom = true;
	return d;
}

char *rv_dup(struct rv_ctx *c, const char *s, size_t n)
{
	char *d = alloc(c, n + 1);
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++)
		d[i] = s[i] ? s[i] : ' ';
	d[n] = '\0';
	return d;
}

void rv_put(struct rv_ctx *c, wn_buf *b, const char *s, size_t n)
{
	/* NUL bytes in mail text become spaces: C strings must not end
	 * early, and the text must not vanish after them. */
	while (n && !c->oom) {
		const char *z = memchr(s, '\0', n);
		size_t k = z ? (size_t) (z - s) : n;

		if (wn_buf_append(b, s, k) != WN_OK || (z && wn_buf_putc(b, ' ') != WN_OK))
			c->oom = true;
		k += z ? 1 : 0;
		s += k;
		n -= k;
	}
}

char *rv_take(struct rv_ctx *c, wn_buf *b)
{
	char *s;

	if (c->oom || !b->len) {
		wn_buf_free(b);
		return NULL;
	}
	s = wn_buf_steal(b);
	if (!s)
		c->oom = true;
	return s;
}

char *rv_oneline(struct rv_ctx *c, const char *s, size_t n, size_t max)
{
	char *d = alloc(c, n + 4);
	size_t i, k = 0, cut;
	bool sp = false;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++) {
		if (str_space((unsigned char) s[i])) {
			sp = k > 0;
			continue;
		}
		if (sp)
			d[k++] = ' ';
		sp = false;
		d[k++] = s[i];
	}
	d[k] = '\0';
	if (k <= max)
		return d;
	/* Cut on the last space before max; a single huge word is cut at
	 * a UTF-8 character boundary instead. */
	cut = max;
	while (cut > max / 2 && d[cut] != ' ')
		cut--;
	if (d[cut] != ' ') {
		cut = max;
		while (cut > 0 && ((unsigned char) d[cut] & 0xc0) == 0x80)
			cut--;
	}
	while (cut > 0 && d[cut - 1] == ' ')
		cut--;
	memcpy(d + cut, "...", 4);
	return d;
}

static bool word_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch >= 0x80;
}

/* phrase matched at s[i]?  *end gets where the match stops. */
static bool phrase_at(const char *s, size_t n, size_t i, const char *phrase)
{
	const char *p = phrase;

	while (*p) {
		if (*p == ' ') {
			if (i >= n || word_char((unsigned char) s[i]))
				return false;
			while (i < n && !word_char((unsigned char) s[i]))
				i++;
			p++;
			continue;
		}
		if (i >= n || str_lower((unsigned char) s[i]) != *p)
			return false;
		i++;
		p++;
	}
	return i >= n || !word_char((unsigned char) s[i]);
}

/* The phrase where its first byte, a lower-case letter, starts it in
 * either case: memchr() finds the candidates many bytes at a time. */
static bool phrase_by_letter(const char *s, size_t n, const char *phrase)
{
	char lo = phrase[0], up = (char) (lo - 'a' + 'A');
	const char *l = memchr(s, lo, n), *u = memchr(s, up, n);

	while (l || u) {
		const char *p = !u || (l && l < u) ? l : u;
		size_t i = (size_t) (p - s);

		if ((i == 0 || !word_char((unsigned char) s[i - 1])) && phrase_at(s, n, i, phrase))
			return true;
		if (p == l)
			l = memchr(p + 1, lo, n - i - 1);
		else
			u = memchr(p + 1, up, n - i - 1);
	}
	return false;
}

bool rv_phrase(const char *s, size_t n, const char *phrase)
{
	/* phrase_at() fails at once where the first letter differs: look
	 * no further there (this runs over every line of a review). */
	int first = (unsigned char) phrase[0];
	bool letter = first && first != ' ';
	size_t i;

	if (first >= 'a' && first <= 'z')
		return phrase_by_letter(s, n, phrase);
	for (i = 0; i < n; i++) {
		int c = (unsigned char) s[i];

		/* str_lower(), here where the compiler can inline it */
		if (letter && (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != first)
			continue;
		if ((i == 0 || !word_char((unsigned char) s[i - 1])) && phrase_at(s, n, i, phrase))
			return true;
	}
	return false;
}

bool rv_phrase_lines(const struct rv_lines *L, size_t from, size_t to, const char *phrase)
{
	wn_buf b = WN_BUF_INIT;
	size_t i;
	bool hit = false;

	/* A phrase wrapped over two lines: each line is tried with the
	 * start of the next one (even the line after to). */
	for (i = from; i < to && i < L->n && !hit; i++) {
		size_t k = i + 1 < L->n ? L->v[i + 1].n : 0;

		if (k > 64)
			k = 64;
		wn_buf_reset(&b);
		if (wn_buf_append(&b, L->v[i].s, L->v[i].n) != WN_OK || wn_buf_putc(&b, ' ') != WN_OK ||
		    (k && wn_buf_append(&b, L->v[i + 1].s, k) != WN_OK))
			break;
		hit = rv_phrase(b.data, b.len, phrase);
	}
	wn_buf_free(&b);
	return hit;
}

/* Does a period at s[i] end a sentence?  Not after "e.g", "i.e", "etc"
 * or inside "foo.bar" / "1.5". */
static bool sentence_end(const char *s, size_t n, size_t i)
{
	static const char *const abbrev[] = { "e.g", "i.e", "etc", "vs", "cf" };
	size_t k;

	if (i + 1 < n && !str_space((unsigned char) s[i + 1]))
		return false;
	if (s[i] != '.')
		return true;
	for (k = 0; k < sizeof(abbrev) / sizeof(abbrev[0]); k++) {
		size_t al = strlen(abbrev[k]);

		if (i >= al && str_prefix_ci(s + i - al, al, abbrev[k]) &&
		    (i == al || !str_ident_char((unsigned char) s[i - al - 1])))
			return false;
	}
	return true;
}

/* Does a blank line (or the end) start at s[i]? */
static bool blank_from(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i >= n || s[i] == '\n';
}

/* A line of code or quotation rather than prose: indented or '>'. */
static bool code_line_at(const char *s, size_t n, size_t i)
{
	return i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '>');
}

/* The '\n' ending the line that holds s[i], or n. */
static size_t line_end(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] != '\n')
		i++;
	return i;
}

/* A ':' at s[i] that ends its line. */
static bool colon_at_eol(const char *s, size_t n, size_t i)
{
	return s[i] == ':' && (i + 1 >= n || s[i + 1] == '\n' || s[i + 1] == '\r');
}

/* The next sentence of prose from *pos, code lines and blank lines
 * skipped, into [*a, *b); *pos moved past it.  A sentence ends at '.',
 * '?' or '!' before a blank, at a ':' ending its line (it introduces
 * what follows), at a blank line or before a line of code.  False at
 * the end of s. */
static bool next_sentence(const char *s, size_t n, size_t *pos, size_t *a, size_t *b)
{
	size_t i = *pos;

	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i >= n)
			return false;
		if (s[i] != '\n')
			break;
		i++;
		if (code_line_at(s, n, i))
			i = line_end(s, n, i);
	}
	*a = i;
	for (; i < n; i++) {
		if (s[i] == '\n' && (blank_from(s, n, i + 1) || code_line_at(s, n, i + 1)))
			break;
		if (((s[i] == '.' || s[i] == '?' || s[i] == '!') && sentence_end(s, n, i)) ||
		    colon_at_eol(s, n, i)) {
			i++;
			break;
		}
	}
	*b = *pos = i;
	return true;
}

static char last_char(const char *s, size_t a, size_t b)
{
	while (b > a && str_space((unsigned char) s[b - 1]))
		b--;
	return b > a ? s[b - 1] : '\0';
}

/* A first sentence that ends in ':' only leads in to what it quotes
 * ("The commit message says:", "The old FOO had its own depends on
 * lines:"); the problem is stated after it (from): the first question,
 * or else the first sentence after the quoted block that ends in '.' or
 * '?'.  False: neither. */
static bool after_lead_in(const char *s, size_t n, size_t from, size_t *a, size_t *b)
{
	size_t pos = from;

	while (next_sentence(s, n, &pos, a, b))
		if (last_char(s, *a, *b) == '?')
			return true;
	/* The quoted block: the lines after the lead-in's, blank ones
	 * first, up to the next blank line. */
	pos = line_end(s, n, from);
	while (pos < n && blank_from(s, n, pos + 1) && line_end(s, n, pos + 1) < n)
		pos = line_end(s, n, pos + 1);
	while (pos < n && !blank_from(s, n, pos + 1))
		pos = line_end(s, n, pos + 1);
	while (next_sentence(s, n, &pos, a, b)) {
		char e = last_char(s, *a, *b);

		if (e == '.' || e == '?')
			return true;
	}
	return false;
}

/* Where the first sentence of the first paragraph of s ends: at '.',
 * '?' or '!' before a blank, or (colon) at a ':' ending its line. */
static size_t first_end(const char *s, size_t n, bool colon)
{
	size_t i, end = n;

	/* First paragraph: up to the first blank line. */
	for (i = 0; i < n; i++) {
		if (s[i] == '\n') {
			size_t j = i + 1;

			while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
				j++;
			if (j >= n || s[j] == '\n') {
				end = i;
				break;
			}
		}
	}
	for (i = 0; i < end; i++) {
		if ((s[i] == '.' || s[i] == '?' || s[i] == '!') && sentence_end(s, end, i))
			return i + 1;
		/* "... lines:" ending its line introduces what follows */
		if (colon && colon_at_eol(s, end, i))
			return i + 1;
	}
	return end;
}

char *rv_first_sentence(struct rv_ctx *c, const char *s, size_t n)
{
	size_t end = first_end(s, n, true), a, b;

	if (last_char(s, 0, end) == ':' && after_lead_in(s, n, end, &a, &b))
		return rv_oneline(c, s + a, b - a, RV_SUMMARY_MAX);
	return rv_oneline(c, s, end, RV_SUMMARY_MAX);
}

void rv_summarise(struct rv_ctx *c, wn_finding *f, const char *s, size_t n)
{
	char *before;

	f->summary = rv_first_sentence(c, s, n);
	/* Verdicts are stored under the fingerprint, which hashes the
	 * summary: where telling lead-ins apart changed the summary, the
	 * fingerprint keeps hashing what the summary was before, so no
	 * verdict given then is lost. */
	before = rv_oneline(c, s, first_end(s, n, false), RV_SUMMARY_MAX);
	if (f->summary && before && strcmp(f->summary, before) != 0)
		rv_fp_text(c, (size_t) (f - c->r->findings), before, strlen(before));
	free(before);
}

/* ---- Message-IDs in links ---- */

char *rv_msgid(struct rv_ctx *c, const char *s, size_t n)
{
	char *d = rv_dup(c, s, n), *p, *q;
	size_t len;

	if (!d)
		return NULL;
	for (p = q = d; *p; p++) {
		if (p[0] == '%' && str_hex((unsigned char) p[1]) >= 0 &&
		    str_hex((unsigned char) p[2]) >= 0) {
			*q++ = (char) (str_hex((unsigned char) p[1]) * 16 +
				       str_hex((unsigned char) p[2]));
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

/* ---- quoted-printable left in the text ----
 *
 * Evidence that a body is still quoted-printable: soft line breaks (a
 * '=' ending a line right after a non-blank: code never breaks a word
 * like that, "x =" ends with a blank) and the escapes a QP encoder
 * writes for '=', a trailing blank or a UTF-8 lead byte.  Both kinds
 * must be present, so C code ("a +=", "0x3D") or prose alone never
 * triggers a decode. */
static bool qp_escape(const char *s, size_t n, size_t i)
{
	static const char *const esc[] = { "=3D", "=20", "=09", "=C2=", "=C3=", "=E2=80=" };
	size_t k;

	for (k = 0; k < sizeof(esc) / sizeof(esc[0]); k++)
		if (str_prefix(s + i, n - i, esc[k]))
			return true;
	return false;
}

/* A body that is still quoted-printable encoded: *out gets a decoded
 * copy (malloc'd, *outlen bytes), else NULL.  WN_NOMEM is the only
 * error. */
static wn_status qp_repair(const char *body, size_t len, char **out, size_t *outlen)
{
	size_t i, soft = 0, escapes = 0, o = 0;
	char *d;

	*out = NULL;
	*outlen = 0;
	for (i = 0; i < len; i++) {
		if (body[i] != '=')
			continue;
		if (qp_escape(body, len, i))
			escapes++;
		else if (i > 0 && body[i - 1] != ' ' && body[i - 1] != '\t' && body[i - 1] != '\n' &&
			 ((i + 1 < len && body[i + 1] == '\n') ||
			  (i + 2 < len && body[i + 1] == '\r' && body[i + 2] == '\n')))
			soft++;
	}
	if (soft < 2 || escapes < 2)
		return WN_OK;
	d = malloc(len + 1);
	if (!d)
		return WN_NOMEM;
	for (i = 0; i < len; i++) {
		int hi, lo;

		if (body[i] != '=') {
			d[o++] = body[i];
			continue;
		}
		if (i + 1 < len && body[i + 1] == '\n') {
			i++;	/* soft line break */
			continue;
		}
		if (i + 2 < len && body[i + 1] == '\r' && body[i + 2] == '\n') {
			i += 2;
			continue;
		}
		hi = i + 1 < len ? str_hex((unsigned char) body[i + 1]) : -1;
		lo = i + 2 < len ? str_hex((unsigned char) body[i + 2]) : -1;
		if (hi >= 0 && lo >= 0) {
			d[o++] = (char) (hi * 16 + lo);
			i += 2;
		} else {
			d[o++] = '=';	/* a bare '=' stays what it is */
		}
	}
	d[o] = '\0';
	*out = d;
	*outlen = o;
	return WN_OK;
}

wn_status rv_lines_read(const char *body, size_t len, struct rv_lines *out)
{
	size_t rlen = 0;

	memset(out, 0, sizeof(*out));
	if (!body)
		len = 0;
	if (qp_repair(body, len, &out->repaired, &rlen) != WN_OK)
		return WN_NOMEM;
	if (out->repaired) {
		body = out->repaired;
		len = rlen;
	}
	if (lines_split(body, len, out) != WN_OK) {
		rv_lines_free(out);
		return WN_NOMEM;
	}
	return WN_OK;
}

/* Facts a report holds are a handful of lines; a hostile mail may hold
 * thousands of "config:" lines. */
#define MAX_FACTS 32

static void add_fact(struct rv_ctx *c, const char *s, size_t n)
{
	add_unique(c, &c->r->facts, &c->r->nfacts, MAX_FACTS, s, n);
}

void rv_report_facts(struct rv_ctx *c, const struct rv_lines *L, size_t from, size_t to,
		     const char *const *keys)
{
	for (size_t i = from; i < to && i < L->n && !c->oom; i++) {
		const char *t = L->v[i].s;
		size_t n = L->v[i].n, k;

		if (!n || t[0] == '>' || t[0] == ' ' || t[0] == '\t')
			continue;
		str_trim(&t, &n);
		for (k = 0; keys[k] && !str_prefix_ci(t, n, keys[k]); k++)
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

			str_trim(&u, &un);
			if (!un)
				break;
			rv_put(c, &b, "        ", 8);
			rv_put(c, &b, u, un);
			if ((line = rv_take(c, &b)))
				add_fact(c, line, strlen(line));
			free(line);
		}
	}
}
