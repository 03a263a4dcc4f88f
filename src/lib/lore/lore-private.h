/* winnow — what the files of the lore module share (src/lib/lore). */
#ifndef WINNOW_LORE_PRIVATE_H
#define WINNOW_LORE_PRIVATE_H

#include "winnow/lore.h"

/* The thread of message msgid, oldest first, as an mboxrd file at path
 * (created, mode 0600, replacing one there) for b4's -m; *root, the
 * Message-ID of its first message (malloc'd), names the series.
 * WN_NOT_FOUND when msgid is not in the index. */
wn_status wn_lore_thread_mbox(wn_index *idx, const char *msgid, const char *path, char **root,
			      wn_error *err);

/* What a program said went wrong in its output (text, len), trimmed:
 * its last "error:", "fatal:" or "CRITICAL:" line, else its last line
 * that is neither blank, a "# ..." progress line (lei's) nor a "hint:";
 * *line NULL when there is none. */
void wn_lore_last_line(const char *text, size_t len, const char **line, size_t *n);

/* Run argv in dir (NULL: here) and wait, for at most secs seconds (0:
 * no limit, else winnow.tool_timeout) or until Ctrl-C; what it printed
 * goes to output when not NULL.  When it fails, err is "NAME: " and
 * its last line (wn_lore_last_line), or how it ended when it said nothing
 * or was stopped. */
wn_status wn_lore_run(const char *dir, char *const *argv, int secs, wn_buf *output, wn_error *err);

#endif
