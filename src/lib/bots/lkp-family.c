/* winnow — one problem the kernel test robot reports at many places
 * (lkp-family.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "lkp-family.h"
#include "../core/map.h"

/* Quoted identifiers of a summary that may vary: a handful is plenty
 * ("'struct x' has no member named 'r10'" has one; the struct's name
 * is no identifier). */
#define MAX_SLOTS 4

struct slot {
	size_t at, end;			/* the identifier, quotes excluded */
};

struct family {
	size_t lead;			/* the first member's finding */
	struct slot slots[MAX_SLOTS];	/* the lead's */
	size_t nslots;
	int slot;			/* the one that varies; -1 until a second member */
	size_t stem;			/* bytes of the lead's identifier all share */
	size_t *member, n, cap;		/* in mail order, the lead first */
};

/* One way into a family, kept under the text around one of its lead's
 * slots; the families of one text are chained, newest first. */
struct door {
	struct family *fam;
	int slot;
	struct door *next;
};

/* How many families of one text a finding tries: a hostile mail may
 * hold a million diagnostics of one message without a shared stem. */
#define MAX_TRIES 8

/* "'" or the typographic quotes gcc prints in a UTF-8 locale. */
static size_t open_quote(const char *s, size_t i, size_t n)
{
	if (s[i] == '\'')
		return 1;
	if (i + 3 <= n && memcmp(s + i, "\xe2\x80\x98", 3) == 0)
		return 3;
	return 0;
}

static size_t close_quote(const char *s, size_t i, size_t n)
{
	if (i < n && s[i] == '\'')
		return 1;
	if (i + 3 <= n && memcmp(s + i, "\xe2\x80\x99", 3) == 0)
		return 3;
	return 0;
}

static bool ident_start(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

/* The quoted identifiers of s, up to MAX_SLOTS. */
static size_t find_slots(const char *s, struct slot *v)
{
	size_t n = strlen(s), i = 0, k = 0;

	while (i < n && k < MAX_SLOTS) {
		size_t q = open_quote(s, i, n), e, c;

		if (!q) {
			i++;
			continue;
		}
		e = i + q;
		if (e < n && ident_start((unsigned char) s[e]))
			while (e < n && str_ident_char((unsigned char) s[e]))
				e++;
		c = e > i + q ? close_quote(s, e, n) : 0;
		if (c) {
			v[k++] = (struct slot) { i + q, e };
			i = e + c;
		} else {
			i += q;
		}
	}
	return k;
}

/* The file of finding i as the mail gives it: where lkp-place moved it
 * depends on the patch's files, and which findings are one family (so
 * which fingerprints there are) must not. */
static const char *mail_file(const struct rv_ctx *c, size_t i)
{
	return c->fp[i].pinned ? c->fp[i].file : c->r->findings[i].file;
}

/* What must be equal for two findings to be one family at slot sl:
 * file, severity, new or old, and the summary but the identifier. */
static char *door_key(struct rv_ctx *c, size_t i, const struct slot *sl, size_t *len)
{
	const wn_finding *f = &c->r->findings[i];
	const char *file = mail_file(c, i);
	wn_buf b = WN_BUF_INIT;
	char head[8] = { (char) ('A' + (int) f->severity), f->preexisting ? 'o' : 'n', 0x1f, 0 };

	wn_rv_put(c, &b, file ? file : "", file ? strlen(file) : 0);
	wn_rv_put(c, &b, "\x1f", 1);
	wn_rv_put(c, &b, head, strlen(head));
	wn_rv_put(c, &b, f->summary, sl->at);
	wn_rv_put(c, &b, "\x1e", 1);
	wn_rv_put(c, &b, f->summary + sl->end, strlen(f->summary + sl->end));
	*len = b.len;
	return wn_rv_take(c, &b);
}

/* The stem two identifiers share: their common start, cut after its
 * last '_'; 0 unless it holds two words ("dev_attr_", not "i2c_"). */
static size_t shared_stem(const char *a, size_t an, const char *b, size_t bn)
{
	size_t n = 0, cut = 0, words = 0;

	while (n < an && n < bn && a[n] == b[n])
		n++;
	for (size_t i = 0; i < n; i++)
		if (a[i] == '_')
			cut = i + 1;
	for (size_t i = 0; i < cut; i++)
		words += a[i] != '_' && (i == 0 || a[i - 1] == '_');
	return words >= 2 ? cut : 0;
}

static bool join(struct rv_ctx *c, struct door *d, size_t i, const struct slot *sl)
{
	struct family *fam = d->fam;
	const wn_finding *lead = &c->r->findings[fam->lead], *f = &c->r->findings[i];
	const struct slot *ls = &fam->slots[d->slot];
	size_t stem, *v;

	if (fam->slot >= 0 && fam->slot != d->slot)
		return false;
	stem = shared_stem(lead->summary + ls->at, fam->slot >= 0 ? fam->stem : ls->end - ls->at,
			   f->summary + sl->at, sl->end - sl->at);
	if (!stem)
		return false;
	if (fam->n == fam->cap) {
		/* doubling: a hostile family may have a million members */
		if (!(v = realloc(fam->member, fam->cap * 2 * sizeof(*v)))) {
			c->oom = true;
			return false;
		}
		fam->member = v;
		fam->cap *= 2;
	}
	fam->member[fam->n++] = i;
	fam->slot = d->slot;
	fam->stem = stem;
	return true;
}

/* The diagnostic line a finding was made from: its comment's first
 * line (what follows is a forwarder's remark). */
static size_t first_line(const char *s)
{
	const char *nl = s ? strchr(s, '\n') : NULL;

	return s ? (nl ? (size_t) (nl - s) : strlen(s)) : 0;
}

/* The lead becomes the family: summary with the pattern and the count,
 * every place, every diagnostic line in the quote. */
static void fold(struct rv_ctx *c, const struct family *fam, bool *drop)
{
	wn_finding *lead = &c->r->findings[fam->lead];
	const struct slot *sl = &fam->slots[fam->slot];
	const char *s = lead->summary, *post = s + sl->end;
	wn_buf sum = WN_BUF_INIT, fp = WN_BUF_INIT, q = WN_BUF_INIT, com = WN_BUF_INIT;
	bool one_fn = true;

	wn_rv_put(c, &sum, s, sl->at);
	wn_rv_put(c, &sum, s + sl->at, fam->stem);
	wn_rv_put(c, &sum, "*", 1);
	wn_rv_put(c, &sum, post, strlen(post));
	/* The fingerprint sees neither the count nor the stem: the same
	 * family reported again with fewer places keeps its verdict. */
	wn_rv_put(c, &fp, s, sl->at);
	wn_rv_put(c, &fp, "*", 1);
	wn_rv_put(c, &fp, post, strlen(post));
	if (lead->comment)
		wn_rv_put(c, &com, lead->comment, strlen(lead->comment));
	for (size_t k = 0; k < fam->n; k++) {
		wn_finding *f = &c->r->findings[fam->member[k]];
		const char *raw = f->comment ? f->comment : f->summary;
		size_t rn = first_line(raw);

		if (q.len)
			wn_rv_put(c, &q, "\n", 1);
		wn_rv_put(c, &q, raw, rn);
		if (f->quote) {
			wn_rv_put(c, &q, "\n", 1);
			wn_rv_put(c, &q, f->quote, strlen(f->quote));
		}
		if (!k)
			continue;
		if (raw[rn])		/* a remark under the member's own line */
			wn_rv_put(c, &com, raw + rn, strlen(raw + rn));
		one_fn = one_fn && (f->function ? lead->function && !strcmp(f->function, lead->function)
						: !lead->function);
		wn_rv_add_place(c, lead, f->file, f->function, f->line, f->line_approx);
		for (size_t a = 0; a < f->nalso; a++)
			wn_rv_add_place(c, lead, f->also[a].file, f->also[a].function,
					f->also[a].line, f->also[a].line_approx);
		drop[fam->member[k]] = true;
	}
	wn_buf_printf(&sum, " (%zu places)", fam->n);
	wn_buf_printf(&com, "\n\nThe same at %zu more places in %s, for other identifiers '%.*s*'; "
		      "the quote lists every one.", fam->n - 1, mail_file(c, fam->lead),
		      (int) fam->stem, s + sl->at);
	if (wn_buf_status(&sum) != WN_OK || wn_buf_status(&com) != WN_OK)
		c->oom = true;
	wn_rv_fp_text(c, fam->lead, fp.data ? fp.data : "", fp.len);
	/* Its places lie in several functions, maybe others next time. */
	wn_rv_fp_pin_file(c, fam->lead);
	if (!c->oom) {
		free(lead->summary);
		lead->summary = wn_rv_take(c, &sum);
		free(lead->quote);
		lead->quote = wn_rv_take(c, &q);
		free(lead->comment);
		lead->comment = wn_rv_take(c, &com);
		if (!one_fn) {
			free(lead->function);
			lead->function = NULL;
		}
	}
	wn_buf_free(&sum);
	wn_buf_free(&fp);
	wn_buf_free(&q);
	wn_buf_free(&com);
}

/* A new family led by finding i, open at each of its slots, before the
 * older families of the same text. */
static struct family *open_family(struct rv_ctx *c, wn_map *doors, size_t i, const struct slot *sl,
				  size_t nsl)
{
	struct family *fam = calloc(1, sizeof(*fam));

	if (!fam || !(fam->member = malloc(sizeof(*fam->member)))) {
		free(fam);
		c->oom = true;
		return NULL;
	}
	fam->lead = i;
	fam->member[0] = i;
	fam->n = fam->cap = 1;
	fam->slot = -1;
	fam->nslots = nsl;
	memcpy(fam->slots, sl, nsl * sizeof(*sl));
	for (size_t k = 0; k < nsl && !c->oom; k++) {
		size_t len;
		char *key = door_key(c, i, &sl[k], &len);
		struct door *d = malloc(sizeof(*d)), *old;

		if (!key || !d) {
			free(key);
			free(d);
			c->oom = true;
			break;
		}
		old = wn_map_get(doors, key, len);
		*d = (struct door) { fam, (int) k, old };
		if (wn_map_put(doors, key, len, d) != WN_OK) {
			free(d);
			c->oom = true;
		}
		free(key);
	}
	return fam;
}

static void free_doors(void *v)
{
	for (struct door *d = v, *next; d; d = next) {
		next = d->next;
		free(d);
	}
}

void wn_lkp_families(struct rv_ctx *c)
{
	size_t n = c->r->nfindings, nfam = 0;
	struct family **fams = calloc(n ? n : 1, sizeof(*fams));
	bool *drop = calloc(n ? n : 1, sizeof(*drop)), any = false;
	wn_map doors = WN_MAP_INIT;

	if (!fams || !drop)
		c->oom = true;
	for (size_t i = 0; i < n && !c->oom; i++) {
		const wn_finding *f = &c->r->findings[i];
		struct slot sl[MAX_SLOTS];
		size_t nsl, k;

		if (!mail_file(c, i) || !f->summary || !(nsl = find_slots(f->summary, sl)))
			continue;
		for (k = 0; k < nsl && !c->oom; k++) {
			size_t len, tries = 0;
			char *key = door_key(c, i, &sl[k], &len);
			struct door *d = key ? wn_map_get(&doors, key, len) : NULL;

			free(key);
			while (d && tries++ < MAX_TRIES && !join(c, d, i, &sl[k]))
				d = d->next;
			if (d && tries <= MAX_TRIES)
				break;
		}
		if (k == nsl && !c->oom && (fams[nfam] = open_family(c, &doors, i, sl, nsl)))
			nfam++;
	}
	for (size_t f = 0; f < nfam && !c->oom; f++)
		if (fams[f]->n >= LKP_FAMILY_MIN) {
			fold(c, fams[f], drop);
			any = true;
		}
	if (any && !c->oom)
		wn_rv_drop(c, drop);
	for (size_t f = 0; f < nfam; f++) {
		free(fams[f]->member);
		free(fams[f]);
	}
	free(fams);
	free(drop);
	wn_map_free(&doors, free_doors);
}
