/* winnow — libFuzzer target: a mail's parents as notmuch indexed them
 * (src/lib/index/parent.c), read from the header block of hostile
 * mail: the bytes up to the first empty line, as wn_parent_read()
 * takes them from a file. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index/parent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char self[] = "self@example.org";
	char *head = malloc(size + 1);
	wn_parent_ids p;
	size_t n = 0;
	bool sure;

	if (!head)
		return 0;
	for (; n < size; n++)
		if (data[n] == '\n' && n > 0 && data[n - 1] == '\n')
			break;
	memcpy(head, data, n);
	head[n] = '\0';
	if (wn_parent_parse(head, n, self, &p, &sure) != WN_OK) {
		free(head);
		return 0;
	}
	/* Sure: every reference an id notmuch keeps whole, never the mail's
	 * own; the one parent tried first a whole id too ("" as notmuch
	 * keeps "<>": no parent to its thread).  Unsure: nothing. */
	if (sure != (p.refs != NULL))
		abort();
	for (char **r = p.refs; r && *r; r++)
		if (strlen(*r) > WN_PARENT_ID_MAX || !strcmp(*r, self))
			abort();
	if (p.replyto && strlen(p.replyto) > WN_PARENT_ID_MAX)
		abort();
	if (!sure && p.replyto)
		abort();
	wn_parent_ids_clear(&p);
	free(head);
	return 0;
}
