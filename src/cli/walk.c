/* winnow — one pass over the reviews of a query (walk.h). */
#include "autoconfig.h"

#include <errno.h>
#include <string.h>

#include "walk.h"

/* Review i of l, loaded, handed to fn and freed.  -1 when the index
 * changed under the list and the row is gone. */
static int walk_one(wn_cli *cli, wn_list *l, size_t i, wn_walk_fn fn, void *arg,
		    unsigned long *unreadable)
{
	wn_error err = WN_ERROR_INIT;
	wn_item *it = wn_list_get(cli->idx, l, i);
	int rc;

	if (!it) {
		fprintf(stderr, "%s: the index changed during the pass; %zu of %zu reviews read\n",
			cli->prog, i, l->n);
		return -1;
	}
	if (wn_index_load(cli->idx, it, &err) == WN_OK) {
		wn_cli_overlay(cli, it);
		if (it->load_error && unreadable)
			(*unreadable)++;
		rc = fn(cli, it, arg);
	} else {
		rc = wn_cli_fail(cli, &err);
	}
	wn_list_release(l, i);
	wn_error_clear(&err);
	return rc;
}

int wn_walk(wn_cli *cli, const char *query, wn_walk_fn fn, void *arg, unsigned long *unreadable)
{
	wn_error err = WN_ERROR_INIT;
	wn_list list = { 0 };
	int rc = 0;

	if (wn_index_query(cli->idx, query, &list, &err) != WN_OK)
		rc = wn_cli_fail(cli, &err);
	list.lazy_rows = true;	/* each row is loaded before fn sees it */
	for (size_t i = 0; i < list.n && rc == 0; i++)
		rc = walk_one(cli, &list, i, fn, arg, unreadable);
	wn_list_free(&list);
	wn_error_clear(&err);
	return rc < 0 ? 0 : rc;
}

int wn_walk_output(const wn_cli *cli, FILE *out, int rc)
{
	if (fflush(out) == 0 && !ferror(out))
		return rc;
	/* A reader that went away (`| head`) has what it wanted. */
	if (errno != EPIPE)
		fprintf(stderr, "%s: cannot write the output: %s\n", cli->prog, strerror(errno));
	return 2;
}
