/* winnow — files inside a tree someone else wrote (file.c), for every
 * file of src/lib: the sharing repository, the worktree b4 applied a
 * series in, the kernel tree.  Every path is walked one folder at a
 * time from the tree's root (the root itself may be a link: the
 * user's), never through a symbolic link, never to "." or "..", so
 * that nothing outside the tree is read or written whatever it holds. */
#ifndef WINNOW_FILE_H
#define WINNOW_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "winnow/status.h"

/* wn_walk_parent: make the missing folders (mode 0700), removing a
 * link or a file that stands where one goes. */
#define WN_WALK_CREATE 1u

/* The folder holding path (relative, '/' between its parts) below dir,
 * opened (O_DIRECTORY; the caller closes it); *leaf is path's last
 * part, inside path.  -1 with errno set: EINVAL for an empty, "." or
 * ".." part (an absolute path has an empty first part), ELOOP when a
 * folder on the way is a symbolic link, ENOTDIR when it is no folder,
 * ENOENT when it is missing. */
int wn_walk_parent(const char *dir, const char *path, unsigned flags, const char **leaf);
/* Writing, a link or a file where a folder or our file goes (a link
 * of a sharing repository's, checked out as a file without
 * core.symlinks, or left by an older winnow) is junk, set aside by
 * the listing: remove name in the folder dfd, when it is one of those.
 * True when it went. */
bool wn_walk_make_way(int dfd, const char *name);

/* path below dir, opened for reading as wn_file_open opens a file (a
 * regular file of at most max bytes) but walked as above, its last
 * part not followed either.  -1 with err, the reason alone: WN_NOT_FOUND
 * "no such file"; WN_CONFIG "a symbolic link, not a regular file",
 * "under a symbolic link", "not a path inside DIR", "not a regular
 * file", "larger than N KiB"; WN_IO. */
int wn_file_open_in(const char *dir, const char *path, size_t max, wn_error *err);
/* Its whole text, as wn_file_read gives a file's (malloc'd into *out,
 * NUL-terminated, *len long when len is not NULL). */
wn_status wn_file_read_in(const char *dir, const char *path, size_t max, char **out, size_t *len,
			  wn_error *err);

/* The whole of the regular file open at fd, which fstat said holds
 * size bytes: malloc'd with room for a NUL after it, its length in *n
 * (fewer than size when it shrank).  NULL when size is over max, out
 * of memory, a read failed, or it holds more than size bytes now (one
 * byte more is asked for to see a file that grew). */
char *wn_fd_read_all(int fd, size_t size, size_t max, size_t *n);

/* path (absolute, a mail's, as notmuch names it) opened for reading
 * (O_CLOEXEC), through a descriptor kept of the folder it is in: a
 * cold pass opens 66,000 mail files at 100,000 messages, most of them
 * in a few folders, and the kernel walked every part of each path
 * again.  A file not found that way (its folder replaced since) is
 * opened by its path.  -1 with errno as open(2). */
int wn_open_mail(const char *path);

#endif
