/* winnow — the write path.
 *
 * A verdict is first a line in the journal (journal.c, fsync'd), then a
 * property and tags in notmuch.  The notmuch write runs in a child
 * process: libnotmuch blocks in open-for-write while another process
 * holds the lock, and neither the TUI nor a CLI with --timeout may wait
 * on that longer than it chose.  Killing a child that waits for the lock
 * or dies mid-batch loses nothing: Xapian commits a batch whole or not at
 * all, and the journal still holds every entry it did not confirm.
 *
 * Journal lines (one JSON object each):
 *   {"op":"mark","eid":E,"group":G,"id":MSGID,"fp":FP,"v":STATE,
 *    "prev":STATE,"prev_note":S|null,["note":S,]["undo_of":G2,]
 *    "fps":[every finding's fingerprint],"t":UNIX}
 *   {"op":"applied","eids":[E...]}
 * A mark with "note" sets it ("" removes it); without, leaves it.  The
 * group ties the entries of one user action, which undo reverts whole.
 * "fps" lets a replay recompute the winnow/triaged tag without parsing
 * the mail again. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "message.h"
#include "private.h"
#include "winnow/store.h"
#include "winnow/text.h"

/* How many of the newest marks compaction keeps for undo.  The journal
 * is compacted once it holds twice as many entries, so it never grows
 * without bound.  WINNOW_JOURNAL_KEEP overrides (tests use it). */
#define KEEP_MARKS 1000

static size_t keep_marks(void)
{
	const char *v = getenv("WINNOW_JOURNAL_KEEP");
	long n = v ? strtol(v, NULL, 10) : 0;

	return n > 0 ? (size_t) n : KEEP_MARKS;
}

struct entry {
	char *eid, *group, *undo_of;
	char *msgid, *fp;
	wn_verdict v, prev;
	bool has_note;
	char *note, *prev_note;
	char **fps;
	size_t nfps;
	bool applied, undone;
};

struct wn_store {
	wn_index *idx;
	wn_journal *j;
	struct entry *e;
	size_t n, cap;
	char *warning;
	unsigned long counter;
	/* the background write, if any */
	pid_t child;
	int child_fd;
	wn_buf child_out;	/* what the writer said so far */
	size_t *child_set;
	size_t nchild;
};

static void entry_clear(struct entry *e)
{
	free(e->eid);
	free(e->group);
	free(e->undo_of);
	free(e->msgid);
	free(e->fp);
	free(e->note);
	free(e->prev_note);
	for (size_t i = 0; i < e->nfps; i++)
		free(e->fps[i]);
	free(e->fps);
	memset(e, 0, sizeof(*e));
}

static void warn(wn_store *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(wn_store *s, const char *fmt, ...)
{
	va_list ap;
	char *m = NULL;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	if (m) {
		free(s->warning);
		s->warning = m;
	}
}

const char *wn_store_warning(const wn_store *s)
{
	return s->warning;
}

const char *wn_store_journal_path(const wn_store *s)
{
	return wn_journal_path(s->j);
}

static struct entry *entry_push(wn_store *s)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 32;
		struct entry *ne = realloc(s->e, ncap * sizeof(*ne));
		if (!ne)
			return NULL;
		s->e = ne;
		s->cap = ncap;
	}
	memset(&s->e[s->n], 0, sizeof(s->e[0]));
	return &s->e[s->n++];
}

static struct entry *entry_by_eid(wn_store *s, const char *eid)
{
	for (size_t i = s->n; i > 0; i--)
		if (strcmp(s->e[i - 1].eid, eid) == 0)
			return &s->e[i - 1];
	return NULL;
}

static void mark_group_undone(wn_store *s, const char *group)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->e[i].group, group) == 0)
			s->e[i].undone = true;
}

/* --- journal lines ----------------------------------------------------- */

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

struct read_ctx {
	wn_store *s;
	size_t lineno;
	size_t bad;
	wn_status st;
};

static wn_status parse_mark(wn_store *s, json_t *o)
{
	const char *eid = jstr(o, "eid"), *group = jstr(o, "group");
	const char *id = jstr(o, "id"), *fp = jstr(o, "fp");
	json_t *fps = json_object_get(o, "fps"), *note = json_object_get(o, "note");
	wn_verdict v, prev = WN_VERDICT_UNTRIAGED;
	struct entry *e;

	if (!eid || !group || !id || !fp || wn_verdict_from_name(jstr(o, "v"), &v) != WN_OK)
		return WN_PARSE;
	if (jstr(o, "prev"))
		wn_verdict_from_name(jstr(o, "prev"), &prev);
	if (!(e = entry_push(s)))
		return WN_NOMEM;
	e->eid = strdup(eid);
	e->group = strdup(group);
	e->undo_of = wn_strdup0(jstr(o, "undo_of"));
	e->msgid = strdup(id);
	e->fp = strdup(fp);
	e->v = v;
	e->prev = prev;
	e->has_note = json_is_string(note);
	e->note = e->has_note ? strdup(json_string_value(note)) : NULL;
	e->prev_note = wn_strdup0(jstr(o, "prev_note"));
	e->applied = json_is_true(json_object_get(o, "applied"));
	e->undone = json_is_true(json_object_get(o, "undone"));
	e->nfps = json_is_array(fps) ? json_array_size(fps) : 0;
	e->fps = calloc(e->nfps + 1, sizeof(char *));
	if (!e->eid || !e->group || !e->msgid || !e->fp || !e->fps ||
	    (e->has_note && !e->note)) {
		entry_clear(e);
		s->n--;
		return WN_NOMEM;
	}
	for (size_t i = 0; i < e->nfps; i++) {
		const char *f = json_string_value(json_array_get(fps, i));
		if (!(e->fps[i] = strdup(f ? f : ""))) {
			entry_clear(e);
			s->n--;
			return WN_NOMEM;
		}
	}
	if (e->undo_of)
		mark_group_undone(s, e->undo_of);
	return WN_OK;
}

static wn_status read_line(const char *line, size_t len, void *arg)
{
	struct read_ctx *c = arg;
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *op = o ? jstr(o, "op") : NULL;
	wn_status st = WN_PARSE;

	c->lineno++;
	if (op && strcmp(op, "mark") == 0) {
		st = parse_mark(c->s, o);
	} else if (op && strcmp(op, "applied") == 0) {
		json_t *eids = json_object_get(o, "eids");
		for (size_t i = 0; json_is_array(eids) && i < json_array_size(eids); i++) {
			const char *eid = json_string_value(json_array_get(eids, i));
			struct entry *e = eid ? entry_by_eid(c->s, eid) : NULL;
			if (e)
				e->applied = true;
		}
		st = WN_OK;
	}
	json_decref(o);
	if (st == WN_NOMEM)
		return st;
	if (st != WN_OK) {
		/* Keep going: one bad line must not cost the others. */
		c->bad++;
		warn(c->s, "journal %s: line %zu is not a winnow entry; ignored",
		     wn_journal_path(c->s->j), c->lineno);
	}
	return WN_OK;
}

static json_t *entry_json(const struct entry *e, bool full)
{
	json_t *fps = json_array(), *o;

	for (size_t i = 0; fps && i < e->nfps; i++)
		json_array_append_new(fps, json_string(e->fps[i]));
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s*, s:o, s:I}",
		      "op", "mark", "eid", e->eid, "group", e->group, "id", e->msgid,
		      "fp", e->fp, "v", wn_verdict_name(e->v), "prev", wn_verdict_name(e->prev),
		      "prev_note", e->prev_note, "fps", fps, "t", (json_int_t) time(NULL));
	if (!o)
		return NULL;
	if (e->has_note)
		json_object_set_new(o, "note", json_string(e->note ? e->note : ""));
	if (e->undo_of)
		json_object_set_new(o, "undo_of", json_string(e->undo_of));
	if (full && e->applied)
		json_object_set_new(o, "applied", json_true());
	if (full && e->undone)
		json_object_set_new(o, "undone", json_true());
	return o;
}

/* Append the JSON of o and a newline to b. */
static wn_status put_line(wn_buf *b, json_t *o)
{
	char *text;
	wn_status st;

	if (!o)
		return WN_NOMEM;
	text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!text)
		return WN_NOMEM;
	st = wn_buf_puts(b, text);
	if (st == WN_OK)
		st = wn_buf_putc(b, '\n');
	free(text);
	return st;
}

/* --- open / close ------------------------------------------------------ */

/* Does notmuch already hold what entry e says (for property prefix)? */
static bool prop_matches(notmuch_message_t *msg, const char *prefix, const char *fp, const char *want)
{
	const char *have = NULL;
	char *key = NULL;
	bool same;

	if (asprintf(&key, "%s%s", prefix, fp) < 0)
		return false;
	if (notmuch_message_get_property(msg, key, &have) != NOTMUCH_STATUS_SUCCESS)
		have = NULL;
	free(key);
	if (!want || !*want)
		return !have;
	same = have && strcmp(have, want) == 0;
	return same;
}

/* Replay recognises what already reached notmuch (the writer committed
 * but died before journaling that it had): for each finding, when the
 * database holds what the newest pending entry says, every pending entry
 * of that finding is done.  Comparing only the newest keeps the order of
 * the user's decisions right. */
static void recognise_applied(wn_store *s)
{
	for (size_t i = s->n; i > 0; i--) {
		struct entry *e = &s->e[i - 1];
		notmuch_message_t *msg;
		bool newest = true, done;

		if (e->applied)
			continue;
		for (size_t k = i; k < s->n && newest; k++)
			newest = !(!s->e[k].applied && strcmp(s->e[k].msgid, e->msgid) == 0 &&
				   strcmp(s->e[k].fp, e->fp) == 0);
		if (!newest)
			continue;
		msg = wn_message_find(s->idx->db, e->msgid);
		if (!msg)
			continue;
		done = prop_matches(msg, WN_PROP_VERDICT, e->fp,
				    e->v == WN_VERDICT_UNTRIAGED ? NULL : wn_verdict_name(e->v));
		/* The note may come from an older pending entry than the
		 * verdict: compare the newest one that set it. */
		for (size_t k = i; done && k > 0; k--) {
			const struct entry *x = &s->e[k - 1];
			if (!x->applied && x->has_note && strcmp(x->msgid, e->msgid) == 0 &&
			    strcmp(x->fp, e->fp) == 0) {
				done = prop_matches(msg, WN_PROP_NOTE, e->fp, x->note);
				break;
			}
		}
		notmuch_message_destroy(msg);
		if (!done)
			continue;
		for (size_t k = 0; k < i; k++)
			if (!s->e[k].applied && strcmp(s->e[k].msgid, e->msgid) == 0 &&
			    strcmp(s->e[k].fp, e->fp) == 0)
				s->e[k].applied = true;
	}
}

wn_status wn_store_open(wn_index *idx, const char *state_dir, wn_store **out, wn_error *err)
{
	wn_store *s = calloc(1, sizeof(*s));
	struct read_ctx c = { s, 0, 0, WN_OK };
	wn_status st;
	int torn = 0;

	*out = NULL;
	if (!s)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	s->idx = idx;
	s->child = -1;
	s->child_fd = -1;
	st = wn_journal_open(state_dir, idx->db_path, &s->j, err);
	if (st == WN_OK)
		st = wn_journal_read(s->j, read_line, &c, &torn, err);
	if (st != WN_OK) {
		wn_store_close(&s);
		return st;
	}
	if (torn)
		warn(s, "journal %s: the last entry was cut short (crash during a write); ignored",
		     wn_journal_path(s->j));
	recognise_applied(s);
	*out = s;
	return WN_OK;
}

void wn_store_close(wn_store **ps)
{
	wn_store *s = ps ? *ps : NULL;

	if (!s)
		return;
	if (s->child > 0) {
		/* Pending entries stay in the journal for the next start. */
		kill(s->child, SIGKILL);
		waitpid(s->child, NULL, 0);
	}
	if (s->child_fd >= 0)
		close(s->child_fd);
	wn_buf_free(&s->child_out);
	for (size_t i = 0; i < s->n; i++)
		entry_clear(&s->e[i]);
	free(s->e);
	free(s->child_set);
	free(s->warning);
	wn_journal_close(&s->j);
	free(s);
	*ps = NULL;
}

size_t wn_store_pending(const wn_store *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += !s->e[i].applied;
	return n;
}

/* --- marking ----------------------------------------------------------- */

static char *new_eid(wn_store *s)
{
	struct timeval tv;
	char *eid = NULL;

	gettimeofday(&tv, NULL);
	if (asprintf(&eid, "%lld.%06ld.%ld.%lu", (long long) tv.tv_sec, (long) tv.tv_usec,
		     (long) getpid(), ++s->counter) < 0)
		return NULL;
	return eid;
}

static void apply_to_item(const struct entry *e, wn_item *it)
{
	if (!it->review || strcmp(e->msgid, it->id) != 0)
		return;
	for (size_t i = 0; i < it->review->nfindings; i++) {
		if (strcmp(it->review->findings[i].fingerprint, e->fp) != 0)
			continue;
		it->verdicts[i] = e->v;
		if (e->has_note) {
			free(it->notes[i]);
			it->notes[i] = (e->note && *e->note) ? strdup(e->note) : NULL;
		}
	}
}

void wn_store_overlay(const wn_store *s, wn_item *it)
{
	if (!it->loaded)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (!s->e[i].applied)
			apply_to_item(&s->e[i], it);
	wn_item_count(it);
}

/* Journal the entries [first, s->n) in one write; on failure forget them. */
static wn_status commit_entries(wn_store *s, size_t first, wn_error *err)
{
	wn_buf b = WN_BUF_INIT;
	wn_status st = WN_OK;

	for (size_t i = first; i < s->n && st == WN_OK; i++)
		st = put_line(&b, entry_json(&s->e[i], false));
	if (st != WN_OK)
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	else
		st = wn_journal_append(s->j, b.data, b.len, err);
	wn_buf_free(&b);
	if (st != WN_OK) {
		while (s->n > first)
			entry_clear(&s->e[--s->n]);
	}
	return st;
}

static wn_status fill_fps(struct entry *e, const wn_item *it)
{
	e->nfps = it->review->nfindings;
	e->fps = calloc(e->nfps + 1, sizeof(char *));
	if (!e->fps)
		return WN_NOMEM;
	for (size_t i = 0; i < e->nfps; i++)
		if (!(e->fps[i] = strdup(it->review->findings[i].fingerprint)))
			return WN_NOMEM;
	return WN_OK;
}

wn_status wn_store_mark(wn_store *s, wn_item *it, size_t finding, wn_verdict v,
			const char *note, wn_error *err)
{
	size_t first = s->n, lo, hi;
	char *group = NULL;
	wn_status st;

	if (!it->loaded || !it->review)
		return wn_error_set(err, WN_USAGE, "review %s is not loaded", it->id);
	if ((unsigned) v >= WN_VERDICT_COUNT)
		return wn_error_set(err, WN_USAGE, "bad verdict");
	if (it->review->nfindings == 0)
		return wn_error_set(err, WN_USAGE, "review <%s> has no findings to mark", it->id);
	if (finding > it->review->nfindings)
		return wn_error_set(err, WN_USAGE, "review <%s> has %zu finding%s, not %zu",
				    it->id, it->review->nfindings,
				    it->review->nfindings == 1 ? "" : "s", finding);
	lo = finding ? finding - 1 : 0;
	hi = finding ? finding : it->review->nfindings;
	for (size_t i = lo; i < hi; i++) {
		struct entry *e = entry_push(s);
		if (!e)
			goto nomem;
		e->eid = new_eid(s);
		e->group = group ? strdup(group) : wn_strdup0(e->eid);
		group = group ? group : e->group;
		e->msgid = strdup(it->id);
		e->fp = strdup(it->review->findings[i].fingerprint);
		e->v = v;
		e->prev = it->verdicts[i];
		e->prev_note = wn_strdup0(it->notes[i]);
		e->has_note = note != NULL;
		e->note = wn_strdup0(note);
		if (!e->eid || !e->group || !e->msgid || !e->fp ||
		    (it->notes[i] && !e->prev_note) || (note && !e->note) ||
		    fill_fps(e, it) != WN_OK)
			goto nomem;
	}
	st = commit_entries(s, first, err);
	if (st != WN_OK)
		return st;
	for (size_t i = first; i < s->n; i++)
		apply_to_item(&s->e[i], it);
	wn_item_count(it);
	return WN_OK;
nomem:
	while (s->n > first)
		entry_clear(&s->e[--s->n]);
	return wn_error_set(err, WN_NOMEM, "out of memory");
}

/* Push the revert of entry i under group (NULL: start a new group). */
static wn_status push_revert(wn_store *s, size_t i, size_t first)
{
	struct entry *e = entry_push(s);
	const struct entry *o;

	if (!e)
		return WN_NOMEM;
	o = &s->e[i];	/* entry_push may have moved the array */
	e->eid = new_eid(s);
	e->group = s->n - 1 > first ? strdup(s->e[first].group) : wn_strdup0(e->eid);
	e->undo_of = strdup(o->group);
	e->msgid = strdup(o->msgid);
	e->fp = strdup(o->fp);
	e->v = o->prev;
	e->prev = o->v;
	e->has_note = true;
	e->note = strdup(o->prev_note ? o->prev_note : "");
	e->prev_note = wn_strdup0(o->note);
	e->nfps = o->nfps;
	e->fps = calloc(o->nfps + 1, sizeof(char *));
	if (!e->eid || !e->group || !e->undo_of || !e->msgid || !e->fp ||
	    !e->note || (o->note && !e->prev_note) || !e->fps)
		return WN_NOMEM;
	for (size_t k = 0; k < o->nfps; k++)
		if (!(e->fps[k] = strdup(o->fps[k])))
			return WN_NOMEM;
	return WN_OK;
}

wn_status wn_store_undo(wn_store *s, size_t n, size_t *undone, char **changed_id, wn_error *err)
{
	*undone = 0;
	if (changed_id)
		*changed_id = NULL;
	while (*undone < n) {
		size_t first = s->n;
		char *group = NULL;
		wn_status st;

		/* The newest user action that is not undone and not an undo. */
		for (size_t i = s->n; i > 0 && !group; i--)
			if (!s->e[i - 1].undone && !s->e[i - 1].undo_of)
				group = strdup(s->e[i - 1].group);
		if (!group)
			break;
		for (size_t i = 0; i < first; i++) {
			if (s->e[i].undone || s->e[i].undo_of || strcmp(s->e[i].group, group) != 0)
				continue;
			if (push_revert(s, i, first) != WN_OK) {
				while (s->n > first)
					entry_clear(&s->e[--s->n]);
				free(group);
				return wn_error_set(err, WN_NOMEM, "out of memory");
			}
		}
		st = commit_entries(s, first, err);
		if (st != WN_OK) {
			free(group);
			return st;
		}
		mark_group_undone(s, group);
		free(group);
		if (changed_id) {
			free(*changed_id);
			*changed_id = strdup(s->e[first].msgid);
		}
		(*undone)++;
	}
	return WN_OK;
}

/* --- writing to notmuch (in the child) --------------------------------- */

static notmuch_status_t set_prop(notmuch_message_t *msg, const char *prefix,
				 const char *fp, const char *value)
{
	char *key = NULL;
	notmuch_status_t nst;

	if (asprintf(&key, "%s%s", prefix, fp) < 0)
		return NOTMUCH_STATUS_OUT_OF_MEMORY;
	nst = notmuch_message_remove_all_properties(msg, key);
	if (nst == NOTMUCH_STATUS_SUCCESS && value && *value)
		nst = notmuch_message_add_property(msg, key, value);
	free(key);
	return nst;
}

/* Keep the coarse tags in step with the per-finding properties. */
static notmuch_status_t sync_tags(notmuch_message_t *msg, const struct entry *e, const char *prefix)
{
	unsigned counts[WN_VERDICT_COUNT] = { 0 };
	notmuch_status_t nst = NOTMUCH_STATUS_SUCCESS;
	char *tag = NULL;

	for (size_t i = 0; i < e->nfps; i++) {
		char *key = NULL;
		const char *val = NULL;
		wn_verdict v = WN_VERDICT_UNTRIAGED;

		if (asprintf(&key, WN_PROP_VERDICT "%s", e->fps[i]) < 0)
			return NOTMUCH_STATUS_OUT_OF_MEMORY;
		if (notmuch_message_get_property(msg, key, &val) == NOTMUCH_STATUS_SUCCESS && val)
			wn_verdict_from_name(val, &v);
		free(key);
		counts[v]++;
	}
	for (unsigned v = 0; v <= WN_VERDICT_COUNT && nst == NOTMUCH_STATUS_SUCCESS; v++) {
		const char *suffix = v == WN_VERDICT_COUNT ? "triaged" : wn_verdict_tag((wn_verdict) v);
		bool on = v == WN_VERDICT_COUNT ? (e->nfps > 0 && counts[WN_VERDICT_UNTRIAGED] == 0)
					       : counts[v] > 0;

		if (!suffix)
			continue;
		if (asprintf(&tag, "%s%s", prefix, suffix) < 0)
			return NOTMUCH_STATUS_OUT_OF_MEMORY;
		nst = on ? notmuch_message_add_tag(msg, tag) : notmuch_message_remove_tag(msg, tag);
		free(tag);
	}
	return nst;
}

/* The journal as it is now, read into a scratch store; NULL on failure
 * (then the batch is written as it was handed over). */
static wn_store *read_fresh(wn_store *s)
{
	wn_store *f = calloc(1, sizeof(*f));
	struct read_ctx c = { f, 0, 0, WN_OK };
	int torn = 0;

	if (!f)
		return NULL;
	f->j = s->j;
	if (wn_journal_read(s->j, read_line, &c, &torn, NULL) != WN_OK || !f->n)
		return NULL;	/* the child exits soon: no need to free */
	return f;
}

static bool has_eid(const wn_store *f, const char *eid)
{
	for (size_t i = f->n; i > 0; i--)
		if (strcmp(f->e[i - 1].eid, eid) == 0)
			return true;
	return false;
}

/* The newest journal entry about e's finding, and in *note the newest
 * one that set its note (left alone when none did). */
static const struct entry *newest(const wn_store *f, const struct entry *e, const struct entry **note)
{
	const struct entry *last = e;
	bool found_note = false;

	for (size_t i = f->n; i > 0; i--) {
		const struct entry *x = &f->e[i - 1];

		if (strcmp(x->msgid, e->msgid) != 0 || strcmp(x->fp, e->fp) != 0)
			continue;
		if (last == e)
			last = x;
		if (x->has_note && !found_note) {
			*note = x;
			found_note = true;
		}
		if (last != e && found_note)
			break;
	}
	return last;
}

static void child_say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void child_say(int fd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
}

/* The child: open read-write (may block on the lock: that is why we are
 * a child), apply the batch in one atomic section, close, then record in
 * the journal which entries made it.  Reports on fd: "missing <eid>" for
 * entries whose review left the index, "error <text>" on failure. */
static void __attribute__((noreturn)) child_write(wn_store *s, int fd)
{
	notmuch_database_t *db = NULL;
	notmuch_status_t nst;
	wn_buf applied = WN_BUF_INIT;
	wn_error err = WN_ERROR_INIT;
	const char *prefix = s->idx->conf.tagprefix;
	char *msg = NULL;
	json_t *eids;
	wn_store *fresh;
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	/* libnotmuch may print on stderr: never onto the TUI's screen. */
	if (devnull >= 0)
		dup2(devnull, STDERR_FILENO);
	nst = notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
						s->idx->config_path, NULL, &db, &msg);
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		child_say(fd, "error cannot open the notmuch database for writing: %s\n",
			  msg ? msg : notmuch_status_to_string(nst));
		_exit(3);
	}
	/* Another winnow (a CLI mark beside the TUI) may have decided
	 * later about the same finding and its writer may have gone first:
	 * now that we hold the lock, write what the journal says last. */
	fresh = read_fresh(s);
	eids = json_array();
	nst = notmuch_database_begin_atomic(db);
	for (size_t k = 0; k < s->nchild && nst == NOTMUCH_STATUS_SUCCESS; k++) {
		const struct entry *e = &s->e[s->child_set[k]];
		const struct entry *orig = e;
		const struct entry *note = e->has_note ? e : NULL;
		notmuch_message_t *m = NULL;

		if (fresh && !has_eid(fresh, orig->eid)) {
			/* Compacted away: only applied entries are, and
			 * newer ones may have followed.  Writing it now
			 * would put an old decision back. */
			json_array_append_new(eids, json_string(orig->eid));
			continue;
		}
		if (fresh)
			e = newest(fresh, e, &note);
		if (notmuch_database_find_message(db, e->msgid, &m) != NOTMUCH_STATUS_SUCCESS || !m) {
			/* Not recorded as applied: if the review comes back
			 * to the index, a later run writes its verdict. */
			child_say(fd, "missing %s\n", orig->eid);
			continue;
		}
		json_array_append_new(eids, json_string(orig->eid));
		if (e != orig)
			json_array_append_new(eids, json_string(e->eid));
		nst = notmuch_message_freeze(m);
		if (nst == NOTMUCH_STATUS_SUCCESS)
			nst = set_prop(m, WN_PROP_VERDICT, e->fp,
				       e->v == WN_VERDICT_UNTRIAGED ? NULL : wn_verdict_name(e->v));
		if (nst == NOTMUCH_STATUS_SUCCESS && note)
			nst = set_prop(m, WN_PROP_NOTE, e->fp, note->note);
		if (nst == NOTMUCH_STATUS_SUCCESS)
			nst = sync_tags(m, e, prefix);
		if (nst == NOTMUCH_STATUS_SUCCESS)
			nst = notmuch_message_thaw(m);
		notmuch_message_destroy(m);
	}
	if (nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_database_end_atomic(db);
	if (nst == NOTMUCH_STATUS_SUCCESS)
		nst = notmuch_database_close(db);
	if (nst != NOTMUCH_STATUS_SUCCESS) {
		child_say(fd, "error writing to the notmuch database: %s\n", notmuch_status_to_string(nst));
		_exit(4);
	}
	notmuch_database_destroy(db);
	/* Without this line the batch is simply applied again next time,
	 * which sets the same values: harmless. */
	if (put_line(&applied, json_pack("{s:s, s:o}", "op", "applied", "eids", eids)) == WN_OK)
		wn_journal_append(s->j, applied.data, applied.len, &err);
	_exit(0);
}

wn_status wn_store_flush_start(wn_store *s, wn_error *err)
{
	int fds[2];
	pid_t pid, parent;

	if (s->child > 0)
		return WN_OK;
	s->nchild = 0;
	free(s->child_set);
	s->child_set = malloc((s->n ? s->n : 1) * sizeof(size_t));
	if (!s->child_set)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	for (size_t i = 0; i < s->n; i++)
		if (!s->e[i].applied)
			s->child_set[s->nchild++] = i;
	if (!s->nchild)
		return WN_OK;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return wn_error_set(err, WN_IO, "cannot create a pipe: %s", strerror(errno));
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return wn_error_set(err, WN_IO, "cannot start the writer: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
#ifdef __linux__
		/* A writer outliving a killed winnow would write its batch
		 * whenever the lock frees, perhaps after newer decisions made
		 * by the next run: die with the parent; the journal keeps
		 * the batch for the next start. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(5);
#endif
		child_write(s, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	s->child = pid;
	s->child_fd = fds[0];
	return WN_OK;
}

/* Read everything the child said (it has exited, so this ends). */
/* Take what the writer has said so far (the pipe is non-blocking), so it
 * never blocks on a full pipe while we wait for it to exit. */
static void child_drain(wn_store *s)
{
	char chunk[4096];
	ssize_t r;

	while ((r = read(s->child_fd, chunk, sizeof(chunk))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0)
			wn_buf_append(&s->child_out, chunk, (size_t) r);
}

static wn_status child_report(wn_store *s, int ok, wn_error *err)
{
	wn_status st = WN_OK;
	char *line, *save = NULL;

	child_drain(s);
	for (line = strtok_r(s->child_out.data ? s->child_out.data : (char[]){ 0 }, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "missing ", 8) == 0) {
			struct entry *e = entry_by_eid(s, line + 8);
			if (e)
				warn(s, "review <%s> is no longer in the index; its verdict stays in %s",
				     e->msgid, wn_journal_path(s->j));
		} else if (strncmp(line, "error ", 6) == 0 && !ok) {
			st = wn_error_set(err, WN_DB, "%s", line + 6);
		}
	}
	if (!ok && st == WN_OK)
		st = wn_error_set(err, WN_DB, "the notmuch writer failed");
	wn_buf_free(&s->child_out);
	return st;
}

/* Parse journal text (as compaction hands it over) into f. */
static wn_status parse_text(wn_store *f, const char *data, size_t len)
{
	struct read_ctx c = { f, 0, 0, WN_OK };

	return wn_journal_lines(data, len, read_line, &c, NULL);
}

struct compaction {
	wn_store *scratch;	/* what the journal holds now */
	size_t keep_from;	/* first scratch entry written back */
};

/* Build the compacted journal from what it holds now, not from what this
 * process remembers: another winnow may have appended entries since we
 * read it, and those must survive.  Keeps every entry from the oldest
 * one not yet in notmuch, and at least the newest marks for undo. */
static wn_status compact_build(const char *data, size_t len, wn_buf *out, void *arg)
{
	struct compaction *c = arg;
	wn_store *f = c->scratch;
	size_t keep = keep_marks(), first_pending = 0;
	wn_status st = parse_text(f, data, len);

	if (st != WN_OK)
		return st;
	while (first_pending < f->n && f->e[first_pending].applied)
		first_pending++;
	c->keep_from = f->n > keep ? f->n - keep : 0;
	if (first_pending < c->keep_from)
		c->keep_from = first_pending;
	/* Never split one action (a mark of every finding): undo reverts
	 * it whole. */
	while (c->keep_from > 0 && c->keep_from < f->n &&
	       strcmp(f->e[c->keep_from - 1].group, f->e[c->keep_from].group) == 0)
		c->keep_from--;
	for (size_t i = c->keep_from; i < f->n; i++)
		if ((st = put_line(out, entry_json(&f->e[i], true))) != WN_OK)
			return st;
	return WN_OK;
}

static void free_entries(wn_store *s)
{
	for (size_t i = 0; i < s->n; i++)
		entry_clear(&s->e[i]);
	free(s->e);
	s->e = NULL;
	s->n = s->cap = 0;
}

static void maybe_compact(wn_store *s)
{
	struct compaction c = { NULL, 0 };
	wn_error err = WN_ERROR_INIT;
	size_t keep = keep_marks();

	/* Applied records are lines too: count the file, not just marks. */
	if (s->n <= 2 * keep && wn_journal_size(s->j) < 2 * keep * 512)
		return;
	c.scratch = calloc(1, sizeof(*c.scratch));
	if (!c.scratch)
		return;
	c.scratch->j = s->j;
	if (wn_journal_compact(s->j, compact_build, &c, &err) != WN_OK) {
		warn(s, "%s", wn_error_msg(&err));
	} else {
		/* Our memory now is the journal as written back. */
		free_entries(s);
		for (size_t i = 0; i < c.keep_from; i++)
			entry_clear(&c.scratch->e[i]);
		memmove(c.scratch->e, c.scratch->e + c.keep_from,
			(c.scratch->n - c.keep_from) * sizeof(*s->e));
		s->e = c.scratch->e;
		s->n = c.scratch->n - c.keep_from;
		s->cap = c.scratch->cap;
		c.scratch->e = NULL;
		c.scratch->n = 0;
	}
	free_entries(c.scratch);
	free(c.scratch->warning);
	free(c.scratch);
	wn_error_clear(&err);
}

wn_status wn_store_poll(wn_store *s, bool *busy, wn_error *err)
{
	int status = 0;
	pid_t r;
	wn_status st;

	*busy = false;
	if (s->child <= 0)
		return WN_OK;
	do
		r = waitpid(s->child, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0) {
		child_drain(s);
		*busy = true;
		return WN_OK;
	}
	s->child = -1;
	if (r < 0) {
		close(s->child_fd);
		s->child_fd = -1;
		wn_buf_free(&s->child_out);
		return wn_error_set(err, WN_IO, "lost the notmuch writer: %s", strerror(errno));
	}
	st = child_report(s, WIFEXITED(status) && WEXITSTATUS(status) == 0, err);
	close(s->child_fd);
	s->child_fd = -1;
	if (st != WN_OK)
		return st;
	for (size_t k = 0; k < s->nchild; k++)
		s->e[s->child_set[k]].applied = true;
	s->nchild = 0;
	if (wn_store_pending(s) == 0)
		maybe_compact(s);
	return wn_index_refresh(s->idx, err);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

wn_status wn_store_flush(wn_store *s, int timeout_ms, wn_error *err)
{
	long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	bool busy = false;
	wn_status st;

	/* Timeout 0: never wait and never kill.  The writer goes on in the
	 * background (it may be queued behind another process's lock) and a
	 * later call, or wn_store_poll(), collects it. */
	if (timeout_ms <= 0) {
		if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
			return st;
		if (!busy && (st = wn_store_flush_start(s, err)) != WN_OK)
			return st;
		if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
			return st;
		if (!wn_store_pending(s))
			return WN_OK;
		return wn_error_set(err, WN_LOCKED, "%zu verdict%s waiting for the index lock",
				    wn_store_pending(s), wn_store_pending(s) == 1 ? "" : "s");
	}
	/* A write started earlier may hold entries made since: finish it,
	 * then start one for whatever is still pending. */
	for (int round = 0; round < 2; round++) {
		if ((st = wn_store_flush_start(s, err)) != WN_OK)
			return st;
		for (;;) {
			if ((st = wn_store_poll(s, &busy, err)) != WN_OK)
				return st;
			if (!busy)
				break;
			if (now_ms() >= deadline) {
				kill(s->child, SIGKILL);
				waitpid(s->child, NULL, 0);
				s->child = -1;
				close(s->child_fd);
				s->child_fd = -1;
				wn_buf_free(&s->child_out);
				return wn_error_set(err, WN_LOCKED,
					"the notmuch database is locked by another process; "
					"%zu verdict%s kept in %s", wn_store_pending(s),
					wn_store_pending(s) == 1 ? "" : "s", wn_journal_path(s->j));
			}
			usleep(5000);
		}
		if (wn_store_pending(s) == 0)
			return WN_OK;
	}
	return WN_OK;
}
