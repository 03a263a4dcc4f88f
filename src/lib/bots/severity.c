/* winnow — the names of severities, kinds of mail and follow-ups
 * (review.h), for review.c, every bot and the front ends. */
#include "autoconfig.h"

#include <stddef.h>
#include <strings.h>

#include "winnow/review.h"

static const char *const severities[] = {
#define WN_X_(e, name, graded) name,
	WN_SEVERITY_LIST(WN_X_)
#undef WN_X_
};

static const bool graded[] = {
#define WN_X_(e, name, graded) graded,
	WN_SEVERITY_LIST(WN_X_)
#undef WN_X_
};

bool wn_severity_graded(wn_severity s)
{
	return (unsigned) s < WN_SEV_COUNT && graded[s];
}

const char *wn_severity_name(wn_severity s)
{
	return (unsigned) s < WN_SEV_COUNT ? severities[s] : NULL;
}

wn_severity wn_severity_parse(const char *word)
{
	unsigned s;

	for (s = 0; word && s < WN_SEV_COUNT; s++)
		if (severities[s] && strcasecmp(word, severities[s]) == 0)
			return (wn_severity) s;
	return WN_SEV_UNKNOWN;
}

static const struct {
	const char *name;
	bool queued;
} kinds[] = {
#define WN_X_(e, name, queued) { name, queued },
	WN_KIND_LIST(WN_X_)
#undef WN_X_
};

const char *wn_kind_name(wn_kind k)
{
	return (unsigned) k < WN_KIND_COUNT ? kinds[k].name : "review";
}

bool wn_kind_queued(wn_kind k)
{
	return (unsigned) k < WN_KIND_COUNT ? kinds[k].queued : true;
}

static const char *const followups[] = {
#define WN_X_(e, name) name,
	WN_FOLLOWUP_LIST(WN_X_)
#undef WN_X_
};

const char *wn_followup_name(wn_followup f)
{
	return (unsigned) f < WN_FOLLOWUP_COUNT ? followups[f] : NULL;
}
