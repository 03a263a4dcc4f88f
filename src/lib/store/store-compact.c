/* winnow — compacting the journal: it is written again from what it
 * holds now, keeping every entry not yet in notmuch and the newest
 * changes for undo, so it never grows without bound. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "store-private.h"

/* How many of the newest changes compaction keeps for undo.  The journal
 * is compacted once it holds twice as many, so it never grows without
 * bound.  WINNOW_JOURNAL_KEEP overrides (tests use it). */
#define KEEP_CHANGES 1000

static size_t keep_changes(void)
{
	const char *v = getenv("WINNOW_JOURNAL_KEEP");
	long n = v ? strtol(v, NULL, 10) : 0;

	return n > 0 ? (size_t) n : KEEP_CHANGES;
}

struct compaction {
	wn_store *scratch;	/* what the journal holds now */
	bool all;		/* keep every entry: only lines cut short go */
};

/* Build the compacted journal from what it holds now, not from what this
 * process remembers: another winnow may have appended entries since we
 * read it, and those must survive.  Keeps every entry from the oldest
 * pending one on, and at least the newest changes for undo. */
static wn_status compact_build(const char *data, size_t len, wn_buf *out, void *arg)
{
	struct compaction *c = arg;
	wn_store *f = c->scratch;
	size_t keep = keep_changes(), kept = 0, from;
	wn_map seen = WN_MAP_INIT;
	wn_status st = WN_OK;

	if (wn_journal_lines(data, len, wn_log_line, f, NULL) != WN_OK || f->oom)
		return WN_NOMEM;
	from = c->all ? 0 : f->n;
	while (from > 0 && kept < keep)
		kept += f->e[--from].nc;
	for (size_t i = 0; i < from; i++)
		if (wn_log_entry_pending(f, i)) {
			from = i;
			break;
		}
	/* Never split one action: undo reverts it whole. */
	while (from > 0 && from < f->n && strcmp(f->e[from - 1].group, f->e[from].group) == 0)
		from--;
	/* The findings of every review still named, then the entries. */
	for (size_t i = from; i < f->n && st == WN_OK; i++) {
		const char *id = f->e[i].msgid;
		if (wn_map_get(&seen, id, strlen(id)))
			continue;
		st = wn_map_put(&seen, id, strlen(id), (void *) 1);
		if (st == WN_OK)
			st = wn_log_put_review(out, f, id);
	}
	for (size_t i = from; i < f->n && st == WN_OK; i++)
		st = wn_log_put_entry(out, f, i, true);
	/* A mail whose sending may have been cut short stays in doubt. */
	if (st == WN_OK)
		st = wn_log_put_sent(out, f);
	wn_map_free(&seen, NULL);
	return st;
}

size_t wn_store_changes_of(const wn_store *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->e[i].nc;
	return n;
}

/* Write the journal again from what it holds now; all keeps every
 * entry. */
static wn_status compact(wn_store *s, bool all, wn_error *err)
{
	wn_store scratch = { .idx = s->idx, .j = s->j, .child = -1, .child_fd = -1 };
	struct compaction c = { &scratch, all };
	int torn = 0;
	wn_status st = wn_journal_compact(s->j, compact_build, &c, err);

	if (st == WN_OK) {
		/* Our memory is the journal as written back, which calls
		 * applied only what we already had as applied. */
		bool behind = s->index_behind;

		wn_log_reset(s);
		st = wn_journal_read(s->j, wn_log_line, s, &torn, err);
		s->index_behind = behind;
	}
	wn_log_free(&scratch);
	free(scratch.warning);
	return st;
}

void wn_store_maybe_compact(wn_store *s)
{
	size_t keep = keep_changes();
	wn_error err = WN_ERROR_INIT;

	/* Applied records are lines too: count the file, not just marks. */

	if (wn_store_changes_of(s) <= 2 * keep && wn_journal_size(s->j) < 2 * keep * 512)
		return;
	if (compact(s, false, &err) != WN_OK)
		wn_store_warn(s, "%s", wn_error_msg(&err));
	wn_error_clear(&err);
}

wn_status wn_store_repair(wn_store *s, wn_error *err)
{
	return compact(s, true, err);
}
