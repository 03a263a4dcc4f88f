/* winnow TUI — actions and their keys. */
#include "autoconfig.h"

#include <stdio.h>
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
	const unsigned char *u = (const unsigned char *) name;

	for (size_t i = 0; i < sizeof(named_keys) / sizeof(named_keys[0]); i++)
		if (!strcmp(named_keys[i].name, name))
			return named_keys[i].key;
	if (len == 3 && name[0] == 'C' && name[1] == '-' &&
	    name[2] >= 'a' && name[2] <= 'z')
		return name[2] - 'a' + 1;
	if (len == 1 && name[0] > ' ' && name[0] < 127)
		return name[0];
	/* One character beyond ASCII (an umlaut on a German keyboard),
	 * in UTF-8 whatever the locale: config files are UTF-8. */
	if (len == 2 && u[0] >= 0xc2 && u[0] <= 0xdf && (u[1] & 0xc0) == 0x80)
		return ((u[0] & 0x1f) << 6) | (u[1] & 0x3f);
	if (len == 3 && u[0] >= 0xe0 && u[0] <= 0xef && (u[1] & 0xc0) == 0x80 &&
	    (u[2] & 0xc0) == 0x80)
		return ((u[0] & 0x0f) << 12) | ((u[1] & 0x3f) << 6) | (u[2] & 0x3f);
	return -1;
}

void keymap_key_name(int key, char *out, size_t size)
{
	for (size_t i = 0; i < sizeof(named_keys) / sizeof(named_keys[0]); i++)
		if (named_keys[i].key == key) {
			snprintf(out, size, "%s", named_keys[i].name);
			return;
		}
	if (key >= 1 && key <= 26) {
		snprintf(out, size, "C-%c", 'a' + key - 1);
		return;
	}
	if (key > ' ' && key < 127)
		snprintf(out, size, "%c", key);
	else if (key >= 0x80 && key < 0x800)
		snprintf(out, size, "%c%c", 0xc0 | (key >> 6), 0x80 | (key & 0x3f));
	else if (key >= 0x800 && key < 0x10000)
		snprintf(out, size, "%c%c%c", 0xe0 | (key >> 12), 0x80 | ((key >> 6) & 0x3f),
			 0x80 | (key & 0x3f));
	else
		snprintf(out, size, "#%d", key);
}

static bool add(struct keymap *km, int key, enum action a, int view)
{
	struct keymap_binding *grown = realloc(km->b, (km->n + 1) * sizeof(*grown));

	if (!grown)
		return false;
	km->b = grown;
	km->b[km->n].key = key;
	km->b[km->n].action = a;
	km->b[km->n].view = view;
	km->n++;
	return true;
}

bool keymap_bind(struct keymap *km, int view, int key, enum action a)
{
	if (!add(km, key, a, view))
		return false;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (aliases[i].key == key && !add(km, aliases[i].alias, a, view))
			return false;
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
			if (key < 0 || !keymap_bind(km, 0, key, (enum action) a))
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

/* The binding of key in view: the latest one for that view, else the
 * latest for every view. */
static const struct keymap_binding *find(const struct keymap *km, int view, int key)
{
	const struct keymap_binding *any = NULL;

	for (size_t i = km->n; i-- > 0;) {
		const struct keymap_binding *b = &km->b[i];

		if (b->key != key)
			continue;
		if (view && b->view == view)
			return b;
		if (!b->view && !any)
			any = b;
	}
	return any;
}

enum action keymap_lookup(const struct keymap *km, int view, int key)
{
	const struct keymap_binding *b = find(km, view, key);

	return b ? b->action : ACT_NONE;
}

size_t keymap_keys_of(const struct keymap *km, int view, enum action a, char *out, size_t size)
{
	size_t len = 0;

	if (!size)
		return 0;
	out[0] = '\0';
	/* In binding order, each key once, only where it still means a (a
	 * later binding may have taken it), and no alias. */
	for (size_t i = 0; i < km->n; i++) {
		const struct keymap_binding *b = &km->b[i];
		char name[16];
		bool alias = false, seen = false;

		if (b->action != a || (b->view && b->view != view) || find(km, view, b->key) != b)
			continue;
		for (size_t k = 0; k < sizeof(aliases) / sizeof(aliases[0]); k++)
			alias |= aliases[k].alias == b->key;
		for (size_t j = 0; j < i; j++)
			seen |= km->b[j].key == b->key && km->b[j].action == a;
		if (alias || seen)
			continue;
		keymap_key_name(b->key, name, sizeof(name));
		len += (size_t) snprintf(out + len, len < size ? size - len : 0, "%s%s",
					 len ? " " : "", name);
		if (len >= size) {
			len = size - 1;
			break;
		}
	}
	return len;
}

size_t keymap_key_of(const struct keymap *km, int view, enum action a, char *out, size_t size)
{
	size_t len = keymap_keys_of(km, view, a, out, size);
	size_t first = strcspn(out, " ");

	if (first < len)
		out[first] = '\0';
	return first < len ? first : len;
}

const char *action_name(enum action a)
{
	return (unsigned) a < ACT_COUNT ? actions[a].name : "none";
}

enum action action_from_name(const char *name)
{
	for (int a = 0; a < ACT_COUNT; a++)
		if (!strcmp(actions[a].name, name))
			return (enum action) a;
	return ACT_COUNT;
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
