/* winnow — kernel test robot reports: the head of the report, what it
 * says of the patch it tested (the patch link, the branch and when it
 * was tested), read for linking the report to its patch (lkp.c reads
 * the diagnostics). */
#include "autoconfig.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lkp-private.h"

/* "patch link:    https://lore.kernel.org/r/<id with %40>": the patch's
 * own Message-ID, the link the robot trusts most. */
static void patch_link(struct rv_ctx *c, const char *t, size_t tn)
{
	const char *seg;
	size_t e = 0;

	while (e < tn && t[e] != ' ' && t[e] != '\t')
		e++;
	while (e && t[e - 1] == '/')
		e--;
	for (seg = t + e; seg > t && seg[-1] != '/'; seg--)
		;
	if (seg < t + e &&
	    (memchr(seg, '@', (size_t) (t + e - seg)) ||
	     wn_str_find_ci(seg, (size_t) (t + e - seg), "%40")) &&
	    !c->r->patch_id)
		c->r->patch_id = wn_rv_msgid(c, seg, (size_t) (t + e - seg));
}

/* "url: .../commits/Author-Name/subject-words/20231113-034453": the
 * branch the robot made of the patch, named after the time it did, in
 * its own zone (UTC+8).  The patch was posted before it. */
static void branch_time(struct rv_ctx *c, const char *t, size_t tn)
{
	char stamp[16];
	struct tm tm;
	int n = 0;

	while (tn && t[tn - 1] == '/')
		tn--;
	if (tn < 15)
		return;
	memcpy(stamp, t + tn - 15, 15);
	stamp[15] = '\0';
	memset(&tm, 0, sizeof(tm));
	if (sscanf(stamp, "%4d%2d%2d-%2d%2d%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec, &n) != 6 || n != 15 || tm.tm_year < 1990 || tm.tm_mon < 1 ||
	    tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	c->r->posted_before = timegm(&tm) - 8 * 3600;
}

/* "[22/28] " after a tree report's commit id is the commit's place in
 * the branch, not part of its title: the index past it. */
static size_t branch_position(const char *t, size_t tn, size_t k)
{
	size_t j = k;

	while (j < tn && t[j] == ' ')
		j++;
	if (j >= tn || t[j] != '[')
		return k;
	for (j++; j < tn && ((t[j] >= '0' && t[j] <= '9') || t[j] == '/'); j++)
		;
	return j + 1 < tn && t[j] == ']' && t[j + 1] == ' ' ? j + 1 : k;
}

/* What the key/value block says about the patch: "patch subject: [PATCH
 * v2 3/5] x: y" in a reply to a patch, "commit: <sha> x: y" in a tree
 * report, "patch link:" with its Message-ID, the "url:" branch with the
 * time the robot took it.  They link a report whose threading was lost,
 * or a tree report, to the patch mail. */
void wn_lkp_report_refs(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;

	for (i = 0; i < L->n && i < 60; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n, k = 0;

		wn_str_trim(&t, &tn);
		if (wn_str_prefix(t, tn, "patch link:") || wn_str_prefix(t, tn, "url:")) {
			bool link = t[0] == 'p';

			k = link ? 11 : 4;
			t += k;
			tn -= k;
			wn_str_trim(&t, &tn);
			if (link)
				patch_link(c, t, tn);
			else if (!c->r->posted_before)
				branch_time(c, t, tn);
			continue;
		}
		if (wn_str_prefix(t, tn, "patch subject:")) {
			k = 14;
		} else if (wn_str_prefix(t, tn, "commit:")) {
			k = 7;
			while (k < tn && t[k] == ' ')
				k++;
			while (k < tn && t[k] != ' ')
				k++;	/* the commit id */
			k = branch_position(t, tn, k);
		} else {
			continue;
		}
		t += k;
		tn -= k;
		wn_str_trim(&t, &tn);
		if (tn && !c->r->patch_subject)
			c->r->patch_subject = wn_rv_oneline(c, t, tn, RV_NO_CUT);
	}
}
