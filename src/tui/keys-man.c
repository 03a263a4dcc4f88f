/* winnow — print the "INTERFACE KEYS" list of the man page from the
 * action table, so doc/winnow.1 can be checked against (or generated
 * from) the keys the program really has:
 *
 *     ./keys-man > keys.roff
 */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>

#include "keymap.h"

/* Roff-escape the few characters a key or help text can hold. */
static void roff(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

int main(void)
{
	puts(".SH \"INTERFACE KEYS\"");
	for (int a = 1; a < ACT_COUNT; a++) {
		const char *k = action_keys((enum action) a);

		puts(".TP");
		fputs(".B \"", stdout);
		while (*k) {
			size_t n = strcspn(k, " ");
			char key[16];

			snprintf(key, sizeof(key), "%.*s", (int) n, k);
			roff(key);
			k += n;
			while (*k == ' ')
				k++;
			if (*k)
				fputs(", ", stdout);
		}
		puts("\"");
		roff(action_help((enum action) a));
		fputs(" (", stdout);
		roff(action_name((enum action) a));
		puts(")");
	}
	return 0;
}
