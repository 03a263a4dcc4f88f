/* winnow — one pass over the reviews of a query, for the commands that
 * read every review (stats, export): each review is read, handed over
 * and freed before the next, so memory stays flat however many match. */
#ifndef WINNOW_WALK_H
#define WINNOW_WALK_H

#include "cli.h"

/* Called with each loaded review (journaled verdicts laid over); 0 to
 * go on, else the exit code to stop with. */
typedef int (*wn_walk_fn)(wn_cli *cli, wn_item *it, void *arg);

/* Walk the reviews matching winnow.query and query (a notmuch query;
 * "" for all), newest first.  Returns 0, fn's exit code, or the exit
 * code of a failure (reported on stderr).  *unreadable (may be NULL)
 * counts the reviews whose mail could not be read; fn sees them too,
 * with it->load_error set. */
int wn_walk(wn_cli *cli, const char *query, wn_walk_fn fn, void *arg, unsigned long *unreadable);

/* Report a failure to write the output (a full disk, a closed pipe):
 * 2 when out has failed, else rc. */
int wn_walk_output(const wn_cli *cli, FILE *out, int rc);

#endif
