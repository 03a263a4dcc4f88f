/* winnow show --tree (show-tree.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "show-tree.h"
#include "winnow/lore.h"

/* A source file larger than this is nobody's C. */
#define SOURCE_MAX (16u << 20)
/* Lines shown either side of the finding in a longer function. */
#define AROUND 100

/* The start of line k (from 1) of text, and its length. */
static const char *nth_line(const char *text, size_t len, int k, size_t *n)
{
	const char *p = text, *end = text + len, *nl;

	for (int i = 1; i < k && p < end; i++) {
		nl = memchr(p, '\n', (size_t) (end - p));
		p = nl ? nl + 1 : end;
	}
	nl = memchr(p, '\n', (size_t) (end - p));
	*n = (size_t) ((nl ? nl : end) - p);
	return p;
}

static void code(wn_printer *p, const wn_finding *f, const char *text, size_t len)
{
	wn_buf shown = WN_BUF_INIT;
	int start, end;

	if (!wn_tree_function(text, len, f->line, &start, &end)) {
		p->map_key(p, "start");
		p->null(p);
		wn_pr_text(p, "  (not inside a function)\n");
		return;
	}
	if (end - start > 2 * AROUND) {
		start = f->line - AROUND > start ? f->line - AROUND : start;
		end = f->line + AROUND < end ? f->line + AROUND : end;
	}
	p->map_key(p, "start");
	p->integer(p, start);
	p->map_key(p, "lines");
	p->begin_list(p);
	for (int k = start; k <= end; k++) {
		size_t n;
		const char *l = nth_line(text, len, k, &n);
		char *one = strndup(l, n);

		p->string(p, one);
		wn_buf_printf(&shown, "%c%5d  %s\n", k == f->line ? '>' : ' ', k, one ? one : "");
		free(one);
	}
	p->end(p);
	p->block(p, "  ");
	p->string(p, wn_buf_failed(&shown) ? "(out of memory)" : wn_buf_str(&shown));
	wn_buf_free(&shown);
}

static void finding(wn_printer *p, const wn_tree *t, const wn_finding *f, size_t i)
{
	wn_error err = WN_ERROR_INIT;
	char *text = NULL;
	size_t len = 0;

	p->begin_map(p);
	p->map_key(p, "index");
	p->label(p, "#");
	p->integer(p, (long long) i + 1);
	p->map_key(p, "file");
	p->label(p, " ");
	p->string(p, f->path ? f->path : f->file);
	p->map_key(p, "line");
	p->label(p, ":");
	p->integer(p, f->line);
	p->separator(p);
	p->map_key(p, "error");
	if (wn_tree_read(t, f, SOURCE_MAX, &text, &len, &err) != WN_OK) {
		p->label(p, "  ");
		p->string(p, wn_error_msg(&err));
		p->separator(p);
	} else {
		p->null(p);
		code(p, f, text, len);
	}
	p->end(p);
	free(text);
	wn_error_clear(&err);
}

int wn_show_tree(wn_cli *cli, wn_printer *p, const wn_item *it)
{
	wn_error err = WN_ERROR_INIT;
	size_t n = it->review ? it->review->nfindings : 0;
	wn_tree t;
	int rc;

	if (wn_tree_prepare(cli->idx, it, &t, &err) != WN_OK) {
		p->null(p);
		rc = wn_cli_fail(cli, &err);
		wn_error_clear(&err);
		return rc;
	}
	p->begin_map(p);
	wn_pr_text(p, "\n");
	p->map_key(p, "root");
	p->label(p, "Tree: ");
	p->string(p, t.root);
	p->map_key(p, "applied");
	p->boolean(p, t.applied);
	if (t.applied)
		wn_pr_text(p, " (the series applied by b4, at patch %d of %d)", t.upto, t.patches);
	p->map_key(p, "patch");
	p->integer(p, t.upto);
	p->map_key(p, "patches");
	p->integer(p, t.patches);
	p->map_key(p, "why");
	if (t.why)
		p->label(p, " (the tree as it is: ");
	p->string(p, t.why);
	if (t.why)
		wn_pr_text(p, ")");
	p->separator(p);
	p->map_key(p, "findings");
	p->begin_list(p);
	for (size_t i = 0; i < n; i++)
		finding(p, &t, &it->review->findings[i], i);
	p->end(p);
	p->end(p);
	wn_tree_clear(&t);
	return 0;
}
