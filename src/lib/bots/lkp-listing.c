/* winnow — kernel test robot reports: the "vim +N path" listings that
 * quote a diagnostic's line, the remarks a person forwarding the report
 * writes under them, and the signature that ends the report (lkp.c
 * reads the rest). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "lkp-private.h"

/* The robot's own lines that may follow a listing: where the marked
 * line came from (":::::: The code at line 408 was first introduced by
 * commit"), how to fetch that tree ("# https://...", "git remote add
 * ..."), a rule ("---"). */
static bool robot_after_listing(const char *s, size_t n)
{
	return wn_str_prefix(s, n, ":::") || wn_str_prefix(s, n, "#") ||
	       wn_str_prefix(s, n, "git ") || wn_str_prefix(s, n, "---");
}

/* Prose after a listing, up to the next listing or the signature, that
 * is none of the robot's: a person who forwards the report says there
 * what is wrong ("ret is still zero when dma_pool_create() fails, so
 * probe returns success with no pool.").  It joins the comment of the
 * finding the listing quoted.  Returns the last line it read. */
static size_t remark(struct lkp *k, const struct rv_lines *L, size_t j, wn_finding *fd)
{
	struct rv_ctx *c = k->c;
	wn_buf b = WN_BUF_INIT;
	size_t last = j;
	bool para = false, robot = false;

	/* The rest of the listing: up to its first blank line. */
	for (j++; j < L->n; j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n;

		wn_str_trim(&s, &n);
		if (!n)
			break;
		last = j;
	}
	for (; j < L->n && !wn_lkp_signature(L, j); j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n;

		wn_str_trim(&s, &n);
		if (wn_str_prefix(s, n, "vim +") || wn_str_eq(s, n, "--"))
			break;
		if (!n) {
			para = false;
			continue;
		}
		if (!para)	/* a paragraph is the robot's by its first line */
			robot = robot_after_listing(s, n);
		if (!robot) {
			if (b.len)
				wn_rv_put(c, &b, para ? "\n" : "\n\n", para ? 1 : 2);
			wn_rv_put(c, &b, s, n);
		}
		para = true;
		last = j;
	}
	if (b.len && fd) {
		wn_buf all = WN_BUF_INIT;
		char *text;

		if (fd->comment) {
			wn_rv_put(c, &all, fd->comment, strlen(fd->comment));
			wn_rv_put(c, &all, "\n\n", 2);
		}
		wn_rv_put(c, &all, b.data, b.len);
		if ((text = wn_rv_take(c, &all))) {
			free(fd->comment);
			fd->comment = text;
		}
		wn_buf_free(&all);
	}
	wn_buf_free(&b);
	return last;
}

/* "vim +123 path" / "vim +/sym +123 path": the listing that follows
 * marks the line ("> 123" or "@123"); it becomes the quote of that
 * diagnostic when the diagnostic brought no excerpt of its own. */
size_t wn_lkp_vim_block(struct lkp *k, const struct rv_lines *L, size_t i)
{
	struct rv_ctx *c = k->c;
	const struct rv_line *l = &L->v[i];
	const char *t = l->s, *path = NULL;
	size_t tn = l->n, j, path_n = 0, first;
	long line = 0;

	wn_str_trim(&t, &tn);
	for (j = 4; j < tn;) {
		size_t b;

		while (j < tn && t[j] == ' ')
			j++;
		b = j;
		while (j < tn && t[j] != ' ')
			j++;
		if (t[b] == '+' && b + 1 < j && t[b + 1] != '/') {
			size_t x = b + 1;

			wn_str_num(t, tn, &x, &line);
		} else if (j > b) {
			path = t + b;
			path_n = j - b;
		}
	}
	first = i + 1;
	for (j = i + 1; j < L->n; j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n, x;
		const char *at;
		bool mark;

		wn_str_trim(&s, &n);
		if (!n && j == first) {
			first++;	/* the blank line under "vim +..." */
			continue;
		}
		if (!n || wn_str_prefix(s, n, "vim +") || wn_str_prefix(s, n, "--"))
			break;
		at = wn_str_find(s, n, " @");
		x = at ? (size_t) (at - s) + 2 : 0;
		mark = (s[0] == '>' && n > 2 && s[1] == ' ' && s[2] >= '0' && s[2] <= '9') ||
		       (at && x < n && s[x] >= '0' && s[x] <= '9');
		if (!mark)
			continue;
		if (k->vims++ < MAX_VIM_BLOCKS) {
			size_t f, from = j >= first + 3 ? j - 3 : first;
			wn_buf q = WN_BUF_INIT;
			wn_finding *quoted = NULL;

			for (f = 0; f < c->r->nfindings; f++) {
				wn_finding *fd = &c->r->findings[f];
				size_t m;

				if (fd->quote || fd->line != line || !fd->file || !path ||
				    strlen(fd->file) != path_n || memcmp(fd->file, path, path_n))
					continue;
				for (m = from; m <= j; m++) {
					const char *ls = L->v[m].s;
					size_t ln = L->v[m].n;

					while (ln && (ls[ln - 1] == ' ' || ls[ln - 1] == '\t'))
						ln--;
					if (q.len)
						wn_rv_put(c, &q, "\n", 1);
					wn_rv_put(c, &q, ls, ln);
				}
				fd->quote = wn_rv_take(c, &q);
				quoted = fd;
				break;
			}
			wn_buf_free(&q);
			return remark(k, L, j, quoted);
		}
		return j;
	}
	return j > i + 1 ? j - 1 : i;
}
/* "-- " then "0-DAY CI Kernel Test Service" ends the report; a bare
 * "--" inside a section only separates the outputs of two files. */
bool wn_lkp_signature(const struct rv_lines *L, size_t i)
{
	size_t j;

	if (wn_str_eq(L->v[i].s, L->v[i].n, "-- "))
		return true;
	if (!wn_str_eq(L->v[i].s, L->v[i].n, "--"))
		return false;
	for (j = i + 1; j < L->n && j <= i + 2; j++)
		if (wn_str_find_ci(L->v[j].s, L->v[j].n, "0-DAY") ||
		    wn_str_find_ci(L->v[j].s, L->v[j].n, "Test Service"))
			return true;
	return false;
}
