/* winnow — where a kernel test robot diagnostic really is (see
 * lkp-place.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "lkp-place.h"
#include "place.h"

/* "In file included from include/linux/bitops.h:6," / "from x.c:13:" */
void wn_lkp_place_chain(struct lkp_place *p, const char *s, size_t n, bool first)
{
	size_t i = first ? 22 : 5, b;
	long line = 0;

	if (first)
		p->nchain = 0;
	while (i < n && s[i] == ' ')
		i++;
	b = i;
	while (i < n && s[i] != ':' && s[i] != ',' && s[i] != ' ')
		i++;
	if (i == b || p->nchain >= LKP_CHAIN_MAX)
		return;
	if (i < n && s[i] == ':') {
		size_t j = i + 1;

		wn_str_num(s, n, &j, &line);
	}
	p->chain[p->nchain++] = (struct lkp_site) { s + b, i - b, line };
}

void wn_lkp_place_reset(struct lkp_place *p)
{
	p->nchain = 0;
	p->fn = NULL;
	p->fn_n = 0;
	p->fn_file.path = NULL;
	p->fn_file.path_n = 0;
	p->moving = false;
}

static bool same(const char *a, size_t an, const char *b, size_t bn)
{
	return a && b && an == bn && memcmp(a, b, an) == 0;
}

/* Put finding i at path:line, the function the "In function" line
 * names when it names that file; say where it was reported. */
static void move(struct lkp_place *p, struct rv_ctx *c, size_t i, const char *path, size_t pn,
		 long line, int by)
{
	wn_finding *f = &c->r->findings[i];
	char *file = wn_rv_dup(c, path, pn), *fn = NULL;

	if (same(path, pn, p->fn_file.path, p->fn_file.path_n) && p->fn)
		fn = wn_rv_dup(c, p->fn, p->fn_n);
	if (c->oom) {
		free(file);
		free(fn);
		return;
	}
	if (!p->by) {
		if (f->line > 0)
			wn_rv_add_detail(c, f, "reported at %s:%d", f->file, f->line);
		else
			wn_rv_add_detail(c, f, "reported at %s", f->file);
	}
	wn_rv_move(c, i, file, fn, (int) line);
	p->by = by;
}

static bool in_patch(struct rv_ctx *c, const char *path, size_t n)
{
	return wn_rv_in_patch_n(path, n, c->in->patch_files);
}

static bool header(const char *file)
{
	size_t n = strlen(file);

	return file[0] == '<' || (n > 2 && strcmp(file + n - 2, ".h") == 0);
}

void wn_lkp_place_finding(struct lkp_place *p, struct rv_ctx *c, size_t i)
{
	const wn_finding *f = i < c->r->nfindings ? &c->r->findings[i] : NULL;
	size_t k;

	p->moving = false;
	p->by = 0;
	p->cur = i;
	if (!f || !f->file)
		return;
	/* Another place is named for it: the patch's files would tell. */
	if (p->nchain || (p->fn_file.path && !same(f->file, strlen(f->file), p->fn_file.path,
						  p->fn_file.path_n)))
		c->r->wants_patch_files = true;
	if (!c->in->patch_files || in_patch(c, f->file, strlen(f->file)))
		return;
	p->moving = true;
	if (p->fn_file.path && in_patch(c, p->fn_file.path, p->fn_file.path_n)) {
		move(p, c, i, p->fn_file.path, p->fn_file.path_n, 0, 2);
		return;
	}
	/* A header (or the compiler's own "<stdin>") reached through the
	 * patch's #include: the line that brought it in.  A source file
	 * named in a chain is no place inside the header. */
	for (k = 0; k < p->nchain && header(f->file); k++)
		if (in_patch(c, p->chain[k].path, p->chain[k].path_n)) {
			move(p, c, i, p->chain[k].path, p->chain[k].path_n, p->chain[k].line, 1);
			return;
		}
}

void wn_lkp_place_note(struct lkp_place *p, struct rv_ctx *c, const char *path, size_t path_n,
		       long line)
{
	if (p->cur < c->r->nfindings && c->r->findings[p->cur].file &&
	    !same(path, path_n, c->r->findings[p->cur].file, strlen(c->r->findings[p->cur].file)))
		c->r->wants_patch_files = true;
	/* The first expansion in the patch's files is where the macro is
	 * used: better than a whole file or an #include line. */
	if (!p->moving || p->by >= 3 || !in_patch(c, path, path_n))
		return;
	move(p, c, p->cur, path, path_n, line, 3);
}
