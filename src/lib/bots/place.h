/* winnow — file names of findings (place.c): normalised for grouping,
 * and matched against the files the reviewed patch touches. */
#ifndef WINNOW_BOTS_PLACE_H
#define WINNOW_BOTS_PLACE_H

#include <stdbool.h>
#include <stddef.h>

/* file with "./", "x/../" and doubled '/' resolved; a base name (or any
 * tail) that exactly one of patch_files (NULL-terminated, may be NULL)
 * ends in becomes that file.  malloc'd; NULL for no file or no memory. */
char *wn_rv_path_normal(const char *file, const char *const *patch_files);
/* Is path[0..n), normalised, one of patch_files? */
bool wn_rv_in_patch_n(const char *path, size_t n, const char *const *patch_files);

#endif
