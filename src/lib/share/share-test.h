/* winnow — what the tests reach inside share/ (tests/unit/test-share.c,
 * tests/unit/test-edges.c), and nothing more: the repository and one
 * finding's file, the hostile input's first readers.  Tests include
 * this header, never share-private.h, which includes it so that each
 * is declared once. */
#ifndef WINNOW_SHARE_TEST_H
#define WINNOW_SHARE_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/buf.h"
#include "winnow/share.h"

/* --- share-git.c ------------------------------------------------------ */

typedef struct sh_repo {
	char *dir;
	char *name, *email; /* commit identity */
} sh_repo;

/* Open (creating it, with a first empty commit, when new) the
 * repository of the database at db_path. */
wn_status wn_sh_repo_open(sh_repo *r, const char *db_path, const char *name, const char *email,
			  wn_error *err);
void wn_sh_repo_close(sh_repo *r);
/* Run git -C r->dir with the arguments after err (NULL-terminated);
 * what it writes goes to out (may be NULL).  WN_OK only when it exits
 * 0; else err says how it ended, with its words. */
wn_status wn_sh_git(const sh_repo *r, wn_buf *out, wn_error *err, ...) __attribute__((sentinel));

/* --- share-file.c ----------------------------------------------------- */

/* The most a finding's file may hold: a note of WN_NOTE_MAX bytes and
 * its "note: " prefixes, with room.  A larger one is refused. */
#define SH_FILE_MAX (4 * 65536)

/* "reviews/ab/<encoded id>" for review id; malloc'd. */
char *wn_sh_review_dir(const char *id);
/* NULL when path (from the repository) is one wn_sh_review_dir() and a
 * fingerprint make, with or without SH_CONFLICT; else why it is not. */
const char *wn_sh_layout_check(const char *path);
/* A value's text, and back.  wn_sh_parse: WN_PARSE (err says why) for a
 * file that is not one of ours or holds what the store would refuse;
 * *review (malloc'd) from its "review:" line. */
wn_status wn_sh_format(const wn_share_value *v, const char *review, wn_buf *out);
wn_status wn_sh_parse(const char *text, wn_share_value *v, char **review, wn_error *err);
/* Do two values say the same (verdict, severity, note)? */
bool wn_sh_same(const wn_share_value *a, const wn_share_value *b);
/* Read, write and remove a file of the working tree (path relative to
 * dir), never through a symbolic link, "." or "..", nor outside dir.
 * wn_sh_read: WN_NOT_FOUND when there is none; WN_PARSE (err says why)
 * for a link, a device, a FIFO, a folder or a file of more than max
 * bytes. */
wn_status wn_sh_read(const char *dir, const char *path, size_t max, wn_buf *out, wn_error *err);
wn_status wn_sh_write(const char *dir, const char *path, const char *text, wn_error *err);
wn_status wn_sh_unlink(const char *dir, const char *path);

#endif
