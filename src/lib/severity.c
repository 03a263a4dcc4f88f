/* winnow — severity names (review.h), for review.c and every bot. */
#include "autoconfig.h"

#include <stddef.h>
#include <strings.h>

#include "winnow/review.h"

static const char *const severities[] = {
#define WN_X_(e, name) name,
	WN_SEVERITY_LIST(WN_X_)
#undef WN_X_
};

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
