/* winnow — the journal file: append-only lines, fsync'd, under an
 * exclusive flock so several winnow processes can share it. */
#ifndef WINNOW_JOURNAL_H
#define WINNOW_JOURNAL_H

#include <stddef.h>
#include "winnow/buf.h"
#include "winnow/status.h"

typedef struct wn_journal wn_journal;

/* Open (creating dir and file, mode 0700/0600) the journal for the
 * database at db_path under state_dir (NULL: $XDG_STATE_HOME/winnow or
 * ~/.local/state/winnow). */
wn_status wn_journal_open(const char *state_dir, const char *db_path, wn_journal **out, wn_error *err);
void wn_journal_close(wn_journal **j);
const char *wn_journal_path(const wn_journal *j);

/* Call line() for every complete line (without '\n'); a last line
 * without '\n' is a torn write: it is skipped and *torn set. */
typedef wn_status (*wn_journal_line_fn)(const char *line, size_t len, void *arg);
wn_status wn_journal_read(wn_journal *j, wn_journal_line_fn line, void *arg, int *torn, wn_error *err);
/* The same over text already read (as compaction hands it over); torn
 * may be NULL. */
wn_status wn_journal_lines(const char *data, size_t len, wn_journal_line_fn line, void *arg, int *torn);

/* Lines appended since this process last read or wrote the journal,
 * under the shared lock.  When another process compacted it meanwhile,
 * reset() is called first and every line is handed over again. */
typedef void (*wn_journal_reset_fn)(void *arg);
wn_status wn_journal_update(wn_journal *j, wn_journal_reset_fn reset, wn_journal_line_fn line,
			    void *arg, wn_error *err);

/* Read, decide, write under one exclusive lock: catch up as
 * wn_journal_update() does, then compose() the lines to append (from
 * the state just read), and append and fsync them.  So a change is
 * always based on every change journaled before it, by any process. */
typedef wn_status (*wn_journal_compose_fn)(wn_buf *out, void *arg, wn_error *err);
wn_status wn_journal_txn(wn_journal *j, wn_journal_reset_fn reset, wn_journal_line_fn line,
			 void *line_arg, wn_journal_compose_fn compose, void *compose_arg, wn_error *err);

/* Append text (one or more complete lines) in one write and fsync
 * (the writer child's records; it reads nothing back). */
wn_status wn_journal_append(wn_journal *j, const char *text, size_t len, wn_error *err);

/* Compaction: while holding the journal's exclusive lock (so no other
 * winnow appends in between), hand the current contents to build(),
 * which writes the new contents into out; then replace the journal with
 * them atomically (temp file, fsync, rename, fsync of the directory). */
typedef wn_status (*wn_journal_build_fn)(const char *data, size_t len, wn_buf *out, void *arg);
wn_status wn_journal_compact(wn_journal *j, wn_journal_build_fn build, void *arg, wn_error *err);

/* Size in bytes as last seen, for the compaction policy. */
size_t wn_journal_size(const wn_journal *j);

#endif
