/* winnow — verdict state and reason names, generated from WN_VERDICT_LIST
 * and WN_REASON_LIST. */
#include "autoconfig.h"

#include <string.h>
#include <strings.h>

#include "winnow/text.h"
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

static const struct {
	const char *word, *label, *kind;
	wn_verdict v;
} crashes[WN_CRASH_COUNT] = {
	[WN_CRASH_NONE] = { NULL, "", NULL, WN_VERDICT_UNTRIAGED },
#define WN_X_(e, word, v, label, kind) [WN_CRASH_##e] = { word, label, kind, WN_VERDICT_##v },
	WN_CRASH_LIST(WN_X_)
#undef WN_X_
};

const char *wn_crash_word(wn_crash c)
{
	return (unsigned) c < WN_CRASH_COUNT ? crashes[c].word : NULL;
}

const char *wn_crash_label(wn_crash c)
{
	return (unsigned) c < WN_CRASH_COUNT ? crashes[c].label : "";
}

wn_verdict wn_crash_verdict(wn_crash c)
{
	return (unsigned) c < WN_CRASH_COUNT ? crashes[c].v : WN_VERDICT_UNTRIAGED;
}

const char *wn_crash_kind(wn_crash c)
{
	return (unsigned) c < WN_CRASH_COUNT ? crashes[c].kind : NULL;
}

wn_status wn_crash_from_word(const char *word, wn_crash *out)
{
	for (unsigned i = 1; word && i < WN_CRASH_COUNT; i++)
		if (strcmp(word, crashes[i].word) == 0) {
			*out = (wn_crash) i;
			return WN_OK;
		}
	return WN_USAGE;
}

bool wn_fix_title_ok(const char *title)
{
	size_t n = title ? strlen(title) : 0;

	if (!n || title[0] == ' ' || title[n - 1] == ' ' || !wn_text_utf8_valid(title, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char) title[i] < 0x20 || title[i] == 0x7f)
			return false;
	return true;
}

const char *wn_closed_title(wn_crash c, const char *what)
{
	return c == WN_CRASH_FIXED && what && what[0] == WN_CLOSED_TITLE ? what + 1 : NULL;
}

bool wn_closed_ok(const char *value)
{
	const char *sp = value ? strchr(value, ' ') : NULL;
	bool kind = false;

	if (!sp || !sp[1] || strlen(value) > WN_CLOSED_MAX)
		return false;
	for (unsigned i = 1; i < WN_CRASH_COUNT; i++)
		kind |= crashes[i].kind && strlen(crashes[i].kind) == (size_t) (sp - value) &&
			!strncmp(value, crashes[i].kind, (size_t) (sp - value));
	if (kind && sp[1] == WN_CLOSED_TITLE &&
	    (size_t) (sp - value) == strlen(crashes[WN_CRASH_FIXED].kind) &&
	    !strncmp(value, crashes[WN_CRASH_FIXED].kind, (size_t) (sp - value)))
		return wn_fix_title_ok(sp + 2);
	for (const char *p = sp + 1; kind && *p; p++)
		if (*p <= ' ' || *p > '~')
			return false;
	return kind;
}

wn_crash wn_crash_of(wn_verdict v, const char *closed, const char **what)
{
	if (what)
		*what = NULL;
	if (closed && wn_closed_ok(closed))
		for (unsigned i = 1; i < WN_CRASH_COUNT; i++) {
			size_t kn = crashes[i].kind ? strlen(crashes[i].kind) : 0;

			if (kn && crashes[i].v == v && !strncmp(closed, crashes[i].kind, kn) && closed[kn] == ' ') {
				if (what)
					*what = closed + kn + 1;
				return (wn_crash) i;
			}
		}
	for (unsigned i = 1; i < WN_CRASH_COUNT; i++)
		if (!crashes[i].kind && crashes[i].v == v)
			return (wn_crash) i;
	return WN_CRASH_NONE;
}
