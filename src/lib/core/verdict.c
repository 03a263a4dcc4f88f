/* winnow — verdict state and reason names, generated from WN_VERDICT_LIST
 * and WN_REASON_LIST. */
#include "autoconfig.h"

#include <string.h>
#include <strings.h>

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

wn_status wn_verdict_from_word(const char *word, wn_verdict *out)
{
	if (!word)
		return WN_USAGE;
	for (unsigned i = 0; i < WN_VERDICT_COUNT; i++) {
		const char *w = verdicts[i].word;

		if (!strcasecmp(word, w) || !strcasecmp(word, verdicts[i].name) ||
		    (word[0] && !word[1] && (word[0] | 0x20) == w[0])) {
			*out = (wn_verdict) i;
			return WN_OK;
		}
	}
	return WN_USAGE;
}

static const struct {
	const char *name;
	char key;
	const char *word, *label;
} reasons[WN_REASON_COUNT] = {
	[WN_REASON_NONE] = { NULL, 0, "", "" },
#define WN_X_(e, name, key, word, label) [WN_REASON_##e] = { name, key, word, label },
	WN_REASON_LIST(WN_X_)
#undef WN_X_
};

const char *wn_reason_name(wn_reason r)
{
	return (unsigned) r < WN_REASON_COUNT ? reasons[r].name : NULL;
}

const char *wn_reason_label(wn_reason r)
{
	return (unsigned) r < WN_REASON_COUNT ? reasons[r].label : "";
}

const char *wn_reason_word(wn_reason r)
{
	return (unsigned) r < WN_REASON_COUNT ? reasons[r].word : "";
}

char wn_reason_key(wn_reason r)
{
	return (unsigned) r < WN_REASON_COUNT ? reasons[r].key : 0;
}

wn_status wn_reason_from_name(const char *name, wn_reason *out)
{
	for (unsigned i = 1; name && i < WN_REASON_COUNT; i++) {
		if (strcmp(name, reasons[i].name) == 0) {
			*out = (wn_reason) i;
			return WN_OK;
		}
	}
	return WN_USAGE;
}

wn_reason wn_reason_from_key(int c)
{
	for (unsigned i = 1; i < WN_REASON_COUNT; i++)
		if (c == reasons[i].key)
			return (wn_reason) i;
	return WN_REASON_NONE;
}
