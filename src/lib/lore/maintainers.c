/* winnow — the kernel's MAINTAINERS file: the F: (files) and X:
 * (excluded) lines of the sections a maintainer names in
 * winnow.sections.  A section is its name line followed by "L:\tvalue"
 * lines, up to a blank line:
 *
 *	FROB DRIVER
 *	M:	Frob Maintainer <maintainer@example.org>
 *	F:	drivers/frob/
 *	X:	drivers/frob/legacy/
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/str.h"
#include "winnow/lore.h"
#include "winnow/text.h"

static wn_status push(char ***v, const char *s, size_t n)
{
	size_t k = 0;
	char **nv;

	while (*v && (*v)[k])
		k++;
	if (!(nv = realloc(*v, (k + 2) * sizeof(*nv))))
		return WN_NOMEM;
	*v = nv;
	if (!(nv[k] = wn_strndup(s, n)))
		return WN_NOMEM;
	nv[k + 1] = NULL;
	return WN_OK;
}

/* "F:\tdrivers/frob/" (a tag letter, a colon, blanks, the value). */
static bool tag_line(const char *l, size_t n)
{
	return n >= 2 && l[0] >= 'A' && l[0] <= 'Z' && l[1] == ':';
}

static long section_index(char *const *sections, const char *l, size_t n)
{
	wn_str_trim(&l, &n);
	for (size_t k = 0; sections[k]; k++)
		if (strlen(sections[k]) == n && wn_str_prefix_ci(l, n, sections[k]))
			return (long) k;
	return -1;
}

wn_status wn_maintainers_patterns(const char *text, size_t len, char *const *sections,
				  char ***files, char ***excluded, wn_error *err)
{
	size_t pos = 0, n, nsec = 0;
	const char *l;
	bool *seen, in = false, top = true;
	wn_status st = WN_OK;

	while (sections && sections[nsec])
		nsec++;
	if (!(seen = calloc(nsec + 1, sizeof(*seen))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	while (st == WN_OK && wn_str_next_line(text, len, &pos, &l, &n)) {
		if (wn_str_blank(l, n)) {
			in = false;
			top = true;
			continue;
		}
		if (top && !tag_line(l, n)) {
			long k = section_index(sections, l, n);

			in = k >= 0;
			if (in)
				seen[k] = true;
		} else if (in && (l[0] == 'F' || l[0] == 'X') && tag_line(l, n)) {
			const char *v = l + 2;
			size_t vn = n - 2;

			wn_str_trim(&v, &vn);
			if (vn)
				st = push(l[0] == 'F' ? files : excluded, v, vn);
		}
		top = false;
	}
	if (st != WN_OK) {
		st = wn_error_set(err, st, "out of memory");
	} else {
		for (size_t k = 0; k < nsec; k++)
			if (!seen[k]) {
				st = wn_error_set(err, WN_NOT_FOUND, "MAINTAINERS has no section '%s'",
						  sections[k]);
				break;
			}
	}
	free(seen);
	return st;
}
