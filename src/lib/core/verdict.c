/* winnow — verdict state names, generated from WN_VERDICT_LIST. */
#include "autoconfig.h"

#include <string.h>

#include "winnow/verdict.h"

static const struct {
	const char *name, *tag, *label, *word;
} verdicts[] = {
#define WN_X_(e, name, tag, label, word) { name, tag, label, word },
	WN_VERDICT_LIST(WN_X_)
#undef WN_X_
};

const char *wn_verdict_name(wn_verdict v)
{
	return (unsigned) v < WN_VERDICT_COUNT ? verdicts[v].name : "untriaged";
}

const char *wn_verdict_tag(wn_verdict v)
{
	return (unsigned) v < WN_VERDICT_COUNT ? verdicts[v].tag : NULL;
}

const char *wn_verdict_label(wn_verdict v)
{
	return (unsigned) v < WN_VERDICT_COUNT ? verdicts[v].label : "untriaged";
}

const char *wn_verdict_word(wn_verdict v)
{
	return (unsigned) v < WN_VERDICT_COUNT ? verdicts[v].word : "u";
}

wn_status wn_verdict_from_name(const char *name, wn_verdict *out)
{
	if (!name)
		return WN_USAGE;
	for (unsigned i = 0; i < WN_VERDICT_COUNT; i++) {
		if (strcmp(name, verdicts[i].name) == 0) {
			*out = (wn_verdict) i;
			return WN_OK;
		}
	}
	return WN_USAGE;
}
