/* winnow — one finding per problem where no summary says what the
 * findings are (group.c): BPF CI, netdev AI reviews without a Sashiko
 * summary, Sashiko's oldest mails.  The unknown bots of the generic rule
 * keep one finding per block. */
#ifndef WINNOW_BOTS_GROUP_H
#define WINNOW_BOTS_GROUP_H

#include "inline.h"

/* Findings from the blocks of one review: a block that only explains
 * the code becomes context of the problem it leads to, one that points
 * back ("Similarly, ...") another place of the problem it points at,
 * and a block that raises several problems ("There is also ...") that
 * many findings.  missing_sev and prose_pre as for
 * wn_rv_blocks_to_findings(); the blocks stay the caller's to free. */
void wn_rv_blocks_group(struct rv_ctx *c, struct rv_blocks *b, wn_severity missing_sev,
			bool prose_pre);

#endif
