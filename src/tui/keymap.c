/* winnow TUI — actions and their keys. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "tcurses.h"
#include "keymap.h"

static const struct {
	const char *name, *keys, *help;
} actions[] = {
	[ACT_NONE] = { "none", "", "" },
#define KEYMAP_X_(e, name, keys, help) [ACT_##e] = { name, keys, help },
	KEYMAP_ACTIONS(KEYMAP_X_)
#undef KEYMAP_X_
};

static const struct {
	const char *name;
	int key;
} named_keys[] = {
	{ "Up", KEYMAP_FN(KEY_UP) },
	{ "Down", KEYMAP_FN(KEY_DOWN) },
	{ "Left", KEYMAP_FN(KEY_LEFT) },
	{ "Right", KEYMAP_FN(KEY_RIGHT) },
	{ "PgUp", KEYMAP_FN(KEY_PPAGE) },
	{ "PgDn", KEYMAP_FN(KEY_NPAGE) },
	{ "Home", KEYMAP_FN(KEY_HOME) },
	{ "End", KEYMAP_FN(KEY_END) },
	{ "Enter", '\n' },
	{ "Tab", '\t' },
	{ "BackTab", KEYMAP_FN(KEY_BTAB) },
	{ "Space", ' ' },
	{ "Esc", 27 },
	{ "Backspace", KEYMAP_FN(KEY_BACKSPACE) },
};

/* Other codes terminals send for a named key. */
static const struct {
	int key, alias;
} aliases[] = {
	{ '\n', '\r' },
	{ '\n', KEYMAP_FN(KEY_ENTER) },
	{ KEYMAP_FN(KEY_BACKSPACE), 127 },
	{ KEYMAP_FN(KEY_BACKSPACE), 8 },
	{ KEYMAP_FN(KEY_HOME), KEYMAP_FN(KEY_A1) },
	{ KEYMAP_FN(KEY_END), KEYMAP_FN(KEY_C1) },
	{ KEYMAP_FN(KEY_HOME), KEYMAP_FN(KEY_FIND) },
	{ KEYMAP_FN(KEY_END), KEYMAP_FN(KEY_SELECT) },
};

int keymap_key_parse(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(named_keys) / sizeof(named_keys[0]); i++)
		if (!strcmp(named_keys[i].name, name))
			return named_keys[i].key;
	if (len == 3 && name[0] == 'C' && name[1] == '-' &&
	    name[2] >= 'a' && name[2] <= 'z')
		return name[2] - 'a' + 1;
	if (len == 1 && name[0] > ' ' && name[0] < 127)
		return name[0];
	return -1;
}

static bool add(struct keymap *km, int key, enum action a)
{
	struct keymap_binding *grown = realloc(km->b, (km->n + 1) * sizeof(*grown));

	if (!grown)
		return false;
	km->b = grown;
	km->b[km->n].key = key;
	km->b[km->n].action = a;
	km->n++;
	return true;
}

bool keymap_init(struct keymap *km)
{
	km->b = NULL;
	km->n = 0;
	for (int a = 1; a < ACT_COUNT; a++) {
		const char *p = actions[a].keys;

		while (*p) {
			size_t len = strcspn(p, " ");
			char name[16];
			int key;

			if (len == 0 || len >= sizeof(name))
				return false;
			memcpy(name, p, len);
			name[len] = '\0';
			key = keymap_key_parse(name);
			if (key < 0 || !add(km, key, (enum action) a))
				return false;
			for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
				if (aliases[i].key == key && !add(km, aliases[i].alias, (enum action) a))
					return false;
			p += len;
			while (*p == ' ')
				p++;
		}
	}
	return true;
}

void keymap_free(struct keymap *km)
{
	free(km->b);
	km->b = NULL;
	km->n = 0;
}

enum action keymap_lookup(const struct keymap *km, int key)
{
	for (size_t i = 0; i < km->n; i++)
		if (km->b[i].key == key)
			return km->b[i].action;
	return ACT_NONE;
}

const char *action_name(enum action a)
{
	return (unsigned) a < ACT_COUNT ? actions[a].name : "none";
}

const char *action_keys(enum action a)
{
	return (unsigned) a < ACT_COUNT ? actions[a].keys : "";
}

size_t action_first_key(enum action a, char *out, size_t size)
{
	const char *k = action_keys(a);
	size_t len = strcspn(k, " ");

	if (!size)
		return 0;
	if (len >= size)
		len = size - 1;
	memcpy(out, k, len);
	out[len] = '\0';
	return len;
}

const char *action_help(enum action a)
{
	return (unsigned) a < ACT_COUNT ? actions[a].help : "";
}
