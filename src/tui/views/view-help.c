/* winnow TUI — the help screen, generated from the action table and the
 * keys bound in the view it was opened from (defaults and winnow.bind.*
 * alike), so it always tells the keys that really work; then a legend
 * of the queue's badges and counts.  The keys of the view it was
 * opened from come first (its view_ops keys), then those every view
 * shares.  Nothing is cut: long texts wrap. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "winnow/review.h"
#include "winnow/text.h"

static const struct hint help_hints[] = {
	{ ACT_BACK, "back" }, { ACT_SEARCH, "search" }, { ACT_QUIT, "quit" },
	{ ACT_NONE, NULL },
};

/* Legend lines after the key list: role, text. */
static const struct {
	enum role role;
	const char *key, *text;
} legend[] = {
	{ ROLE_HEADER, "Queue", "date, bot, highest severity, attribution badge, findings (untriaged/all; wide: by verdict), author, subject" },
	{ ROLE_A_MODEL, "[M]", "Assisted-by names the agent and model (AGENT:MODEL [tools])" },
	{ ROLE_A_GENERIC, "[G]", "Assisted-by discloses a generic LLM, no model (LLM [tools])" },
	{ ROLE_A_OTHER, "[?]", "Assisted-by present in neither form (bare name, free text, empty)" },
	{ ROLE_A_NONE, "[-]", "no Assisted-by trailer" },
	{ ROLE_A_NONE, "[ ]", "the patch is not in the index" },
	{ ROLE_SEV_HIGH, "H M L", "the most severe finding: Critical, High/Error, Medium/Warning, Low/Note" },
	{ ROLE_V_UNTRIAGED, "2/5", "2 of 5 findings untriaged; wide: 5: 2u 1v 1f 1p by verdict (u v f p)" },
	{ ROLE_A_NONE, "dimmed", "a review without findings, with the bot's reason (z hides them)" },
	{ ROLE_WARNING, "!Name", "the patch's author opted out of bot findings (winnow.optout)" },
	{ ROLE_PRECLAIM, "PRE", "the bot itself says the issue predates the patch" },
	{ ROLE_LOCATION, "file:42~", "line counted across a snip in the quote: approximate" },
};

#define NLEGEND (sizeof(legend) / sizeof(legend[0]))

struct hline {
	enum role role;
	char *key;		/* NULL on a continuation line */
	const char *name;	/* the action's name, first line only */
	char *text;
};

struct help {
	int of;			/* the view whose keys are shown */
	const char *of_name;	/* its name */
	bool own[ACT_COUNT];	/* its own actions: listed first */
	bool shared[ACT_COUNT];	/* every view's: listed next */
	struct hline *l;
	size_t n;
	int width, key_w;
};

static void help_clear(struct help *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->l[i].key);
		free(h->l[i].text);
	}
	free(h->l);
	h->l = NULL;
	h->n = 0;
}

/* One entry: the key column, then the text wrapped under itself. */
static void entry(struct help *h, enum role role, const char *key, const char *name,
		  const char *text, int text_w)
{
	char **lines = NULL;
	size_t n = 0;
	struct hline *grown;

	if (!text_wrap(text, text_w, true, &lines, &n) || !n) {
		free(lines);
		return;
	}
	grown = realloc(h->l, (h->n + n) * sizeof(*grown));
	for (size_t i = 0; i < n; i++) {
		if (!grown) {
			free(lines[i]);
			continue;
		}
		grown[h->n].role = role;
		grown[h->n].key = i ? NULL : strdup(key);
		grown[h->n].name = i ? NULL : name;
		grown[h->n++].text = lines[i];
	}
	if (grown)
		h->l = grown;
	free(lines);
}

static void build(struct tui *t, struct help *h)
{
	char keys[ACT_COUNT][64], *bots, *line = NULL;
	int name_w = COLS >= 100 ? 21 : 0, text_w;

	help_clear(h);
	h->width = COLS;
	h->key_w = 6;
	for (int a = 1; a < ACT_COUNT; a++) {
		keymap_keys_of(&t->keys, h->of, (enum action) a, keys[a], sizeof(keys[a]));
		if (text_width(keys[a]) > h->key_w)
			h->key_w = text_width(keys[a]);
	}
	for (size_t i = 0; i < NLEGEND; i++)
		if (text_width(legend[i].key) > h->key_w)
			h->key_w = text_width(legend[i].key);
	if (h->key_w > COLS / 3)
		h->key_w = COLS / 3 > 1 ? COLS / 3 : 1;
	text_w = COLS - h->key_w - 1 - name_w - 1;
	if (text_w < 10)
		text_w = 10;
	/* What winnow.bind.* said that could not be taken, first. */
	for (char **e = t->conf_errors; e && *e; e++)
		entry(h, ROLE_ERROR, e == t->conf_errors ? "config" : "", NULL, *e, text_w + name_w);
	if (t->conf_errors)
		entry(h, ROLE_HEADER, "", NULL, " ", text_w);
	/* The view's own keys, then those every view shares: the key a
	 * maintainer looks for in the review is near the top. */
	if ((line = wn_strdupf("Keys of the %s view", h->of_name))) {
		entry(h, ROLE_HEADER, "", NULL, line, text_w + name_w);
		free(line);
		line = NULL;
	}
	for (int a = 1; a < ACT_COUNT; a++)
		if (h->own[a])
			entry(h, ROLE_HELP_KEY, *keys[a] ? keys[a] : "(none)",
			      action_name((enum action) a), action_help((enum action) a), text_w);
	entry(h, ROLE_HEADER, "", NULL, " ", text_w);
	entry(h, ROLE_HEADER, "", NULL, "Keys every view shares", text_w + name_w);
	for (int a = 1; a < ACT_COUNT; a++)
		if (h->shared[a] && !h->own[a])
			entry(h, ROLE_HELP_KEY, *keys[a] ? keys[a] : "(none)",
			      action_name((enum action) a), action_help((enum action) a), text_w);
	entry(h, ROLE_HEADER, "", NULL, " ", text_w);
	/* Last, what only other views take: the man page's whole list. */
	entry(h, ROLE_HEADER, "", NULL, "Keys of the other views", text_w + name_w);
	for (int a = 1; a < ACT_COUNT; a++)
		if (!h->shared[a] && !h->own[a])
			entry(h, ROLE_HELP_KEY, *keys[a] ? keys[a] : "(none)",
			      action_name((enum action) a), action_help((enum action) a), text_w);
	entry(h, ROLE_HEADER, "", NULL, " ", text_w);
	for (size_t i = 0; i < NLEGEND; i++)
		entry(h, legend[i].role, legend[i].key, NULL, legend[i].text, text_w + name_w);
	/* The bots from WN_BOT_LIST, so that a new bot is never missing. */
	if ((bots = wn_bot_names_text("", " ", true)) &&
	    (line = wn_strdupf("in the limit (l): the bot's mails; NAME: %s", bots)))
		entry(h, ROLE_HEADER, "bot:NAME", NULL, line, text_w + name_w);
	free(line);
	free(bots);
}

static bool help_open(struct tui *t, struct view *v, void *arg)
{
	struct help *h = v->priv;
	struct view *under = view_top(t);

	const struct help_arg *ha = arg;

	h->of = under ? (int) under->id : 0;
	h->of_name = under ? under->ops->name : "";
	for (const enum action *k = under ? under->ops->keys : NULL; k && *k; k++)
		h->own[*k] = true;
	for (int a = 1; a < ACT_COUNT; a++)
		h->shared[a] = ha ? ha->shared[a] : true;
	build(t, h);
	v->lines = h->n;
	return true;
}

static void help_done(struct tui *t, struct view *v)
{
	help_clear(v->priv);
}

static void help_title(struct tui *t, struct view *v, struct row *r)
{
	struct help *h = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s help %s keys of the %s view", ui_dash(),
		 ui_dash(), h->of_name);
	row_add(r, ROLE_TITLE, CELL_FLEX, "");
}

static void help_layout(struct tui *t, struct view *v, int top, int height)
{
	struct help *h = v->priv;

	v->list_y = top;
	v->list_h = height;
	if (h->width != COLS) {
		build(t, h);
		v->lines = h->n;
	}
}

static void help_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct help *h = v->priv;
	const struct hline *l = &h->l[i];

	row_add(r, l->role, h->key_w, l->key ? l->key : "");
	/* The names are for winnow.bind.* and the man page; a narrow
	 * screen is better spent on the help text. */
	if (COLS >= 100 && l->role == ROLE_HELP_KEY)
		row_add(r, ROLE_HELP_TEXT, 20, l->name ? l->name : "")->extra = TA_DIM;
	row_add(r, ROLE_HELP_TEXT, CELL_FLEX, l->text);
}

const struct view_ops help_ops = {
	.name = "help",
	.priv_size = sizeof(struct help),
	.open = help_open,
	.done = help_done,
	.title = help_title,
	.layout = help_layout,
	.row = help_row,
	.hints = help_hints,
};
