/* winnow — print the lists of doc/winnow.1 that come from the library's
 * X-macro tables (bots, severities, verdicts and mark's short words,
 * kinds of mail, attribution statuses, each command's --format values),
 * one block each, blocks
 * separated by an empty line.  doc/fill-man.sh puts block N where
 * doc/winnow.1.in has its @MAN-LIST N@ line, so a new bot, grade or
 * verdict reaches the page without an edit of it:
 *
 *     ./man-lists
 *
 * The key list is keys-man's (tests/unit/man-keys.sh). */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "winnow/review.h"
#include "winnow/trailer.h"
#include "winnow/verdict.h"

/* s, padded with spaces to width columns. */
static void col(const char *s, int width)
{
	printf("%-*s", width, s);
}

int main(void)
{
	int idw = 2, labelw = 5;
	const char *sep = "";

	/* BOTS: the table of ids, labels and senders. */
	for (int b = 0; b < WN_BOT_COUNT; b++) {
		int n = (int) strlen(wn_bot_name((wn_bot) b)), l = (int) strlen(wn_bot_label((wn_bot) b));

		idw = n > idw ? n : idw;
		labelw = l > labelw ? l : labelw;
	}
	puts(".nf");
	col("id", idw + 3);
	col("label", labelw + 2);
	puts("sender");
	for (int b = 0; b < WN_BOT_COUNT; b++) {
		col(wn_bot_name((wn_bot) b), idw + 3);
		col(wn_bot_label((wn_bot) b), labelw + 2);
		puts(wn_bot_sender((wn_bot) b));
	}
	puts(".fi");

	/* JSON OUTPUT: the values of "bot". */
	fputs("\n{\"id\", \"bot\": \"", stdout);
	for (int b = 0; b < WN_BOT_COUNT; b++)
		printf("%s%s", b ? "|" : "", wn_bot_name((wn_bot) b));
	puts("\",");

	/* JSON OUTPUT: the values of "kind" (WN_KIND_LIST) and of an
	 * attribution's "status" (WN_ATTR_LIST). */
	fputs("\n \"kind\": \"", stdout);
	for (int k = 0; k < WN_KIND_COUNT; k++)
		printf("%s%s", k ? "|" : "", wn_kind_name((wn_kind) k));
	puts("\",");
	fputs("\n     \"attribution\": {\"status\": \"", stdout);
	for (int a = 0; a < WN_ATTR_COUNT; a++)
		printf("%s%s", a ? "|" : "", wn_attr_name((wn_attr_status) a));
	puts("\",");

	/* SYNOPSIS: mark --severity's words. */
	fputs("\n.RB [ \\-\\-severity=", stdout);
	for (int s = 0; s < WN_SEV_COUNT; s++)
		if (wn_severity_graded((wn_severity) s))
			printf("%s | ", wn_severity_name((wn_severity) s));
	puts("none ]");

	/* JSON OUTPUT: every severity a finding may have. */
	putchar('\n');
	for (int s = 0; s < WN_SEV_COUNT; s++)
		if (wn_severity_name((wn_severity) s)) {
			printf("%s%s", sep, wn_severity_name((wn_severity) s));
			sep = ", ";
		}
	putchar('\n');

	/* COMMANDS, mark: its STATEs and their short words. */
	puts("\n.I STATE\nis");
	for (int v = 0; v < WN_VERDICT_COUNT; v++) {
		printf(".B %s\n.RB ( %s )%s\n", wn_verdict_name((wn_verdict) v), wn_verdict_word((wn_verdict) v),
		       v == WN_VERDICT_COUNT - 1 ? "." : v == WN_VERDICT_COUNT - 2 ? "" : ",");
		if (v == WN_VERDICT_COUNT - 2)
			puts("or");
	}
	puts("A short word's first letter, the key the interface marks with, names\nits state too.");

	/* JSON OUTPUT of stats: one count per verdict. */
	putchar('\n');
	for (int v = 0; v < WN_VERDICT_COUNT; v++)
		printf(" \"%s\",", wn_verdict_name((wn_verdict) v));
	putchar('\n');

	/* COMMANDS, mark: --reason's names and what each means. */
	puts("\n.RS\n.PD 0");
	for (int r = 1; r < WN_REASON_COUNT; r++)
		printf(".TP 19\n.B %s\n%s\n", wn_reason_name((wn_reason) r), wn_reason_label((wn_reason) r));
	puts(".PD\n.RE");

	/* SYNOPSIS: each command's --format values (formats.h); ledger's
	 * line goes on with --send, the other way to use it. */
	printf("\n.RB [ \\-\\-format=%s ]\n", WN_FORMATS_MAN(WN_FORMATS_PRINTER));
	printf("\n.RB [ \\-\\-format=%s ]\n", WN_FORMATS_MAN(WN_FORMATS_STATS));
	printf("\n.RB [ \\-\\-format=%s ]\n", WN_FORMATS_MAN(WN_FORMATS_REPORT));
	printf("\n.RB [ \\-\\-format=%s ]\n", WN_FORMATS_MAN(WN_FORMATS_EXPORT));
	printf("\n.RB [ \\-\\-format=%s \" | \" \\-\\-send ]\n", WN_FORMATS_MAN(WN_FORMATS_LEDGER));
	printf("\n.RB [ \\-\\-format=%s ]\n", WN_FORMATS_MAN(WN_FORMATS_FEEDBACK));
	return 0;
}
