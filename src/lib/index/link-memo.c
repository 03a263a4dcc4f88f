/* winnow — the patches linking read this run: see link-memo.h. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "link-memo.h"
#include "message.h"
#include "../core/map.h"
#include "winnow/text.h"

/* Entries per map; two maps, the older dropped when the newer fills, so
 * that at most twice this many are kept (a few MiB at most). */
#define MEMO_GEN 4096

struct wn_link_memo {
	unsigned long generation;
	wn_map cur, old;
	bool hunks;
	wn_path_memo paths;
};

static void entry_free(void *v)
{
	wn_memo_entry *e = v;

	if (e) {
		free(e->ident);
		free(e->rec);
		wn_strv_free(e->files);
		wn_diff_keys_clear(&e->hunks);
	}
	free(e);
}

static void clear(wn_link_memo *m)
{
	wn_map_free(&m->cur, entry_free);
	wn_map_free(&m->old, entry_free);
	wn_path_memo_clear(&m->paths);
}

wn_link_memo *wn_link_memo_sync(wn_link_memo **pm, unsigned long generation)
{
	wn_link_memo *m = *pm;

	if (!m) {
		if (!(m = *pm = calloc(1, sizeof(*m))))
			return NULL;
		m->generation = generation;
	}
	if (m->generation != generation) {
		clear(m);
		m->generation = generation;
	}
	return m;
}

void wn_link_memo_free(wn_link_memo **pm)
{
	if (!pm || !*pm)
		return;
	clear(*pm);
	free(*pm);
	*pm = NULL;
}

wn_path_memo *wn_link_memo_paths(wn_link_memo *m)
{
	return m ? &m->paths : NULL;
}

void wn_link_memo_want_hunks(wn_link_memo *m, bool on)
{
	if (m)
		m->hunks = on;
}

bool wn_link_memo_wants_hunks(const wn_link_memo *m)
{
	return m && m->hunks;
}

const wn_memo_entry *wn_link_memo_get(const wn_link_memo *m, const char *id)
{
	size_t n = strlen(id);
	const wn_memo_entry *e;

	if (!m)
		return NULL;
	e = wn_map_get(&m->cur, id, n);
	return e ? e : wn_map_get(&m->old, id, n);
}

void wn_link_memo_put(wn_link_memo *m, const char *id, bool held, bool ident_known,
		      const char *ident, size_t ident_len, const wn_patch *p, char **files,
		      wn_diff_keys *hunks)
{
	wn_memo_entry *e;
	wn_buf b = WN_BUF_INIT;

	if (!m || wn_link_memo_get(m, id) || !(e = calloc(1, sizeof(*e)))) {
		wn_strv_free(files);
		if (hunks)
			wn_diff_keys_clear(hunks);
		return;
	}
	e->files = files;
	if (hunks) {
		e->hunks_known = true;
		e->hunks = *hunks;
		memset(hunks, 0, sizeof(*hunks));
	}
	e->held = held;
	e->ident_known = ident_known;
	if (ident && (e->ident = malloc(ident_len ? ident_len : 1)))
		memcpy(e->ident, ident, ident_len);
	e->ident_len = ident_len;
	if (p) {
		wn_cache_encode_patch(&b, p);
		e->rec_len = b.len;
		e->rec = wn_buf_steal(&b);	/* NULL when it failed */
	}
	wn_buf_free(&b);
	if ((ident && !e->ident) || (p && !e->rec)) {
		entry_free(e);
		return;
	}
	if (m->cur.n >= MEMO_GEN) {
		wn_map_free(&m->old, entry_free);
		m->old = m->cur;
		memset(&m->cur, 0, sizeof(m->cur));
	}
	if (wn_map_put(&m->cur, id, strlen(id), e) != WN_OK)
		entry_free(e);
}
