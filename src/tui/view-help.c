/* winnow TUI — the help screen, generated from the action table so it
 * always tells the keys that really work, followed by a legend of the
 * queue's badges and counts. */
#include "autoconfig.h"

#include <stdlib.h>

#include "view.h"

static const struct hint help_hints[] = {
	{ ACT_BACK, "back" }, { ACT_SEARCH, "search" }, { ACT_QUIT, "quit" },
	{ ACT_NONE, NULL },
};

/* Legend lines after the key list: role, text. */
static const struct {
	enum role role;
	const char *key, *text;
} legend[] = {
	{ ROLE_HEADER, "", "" },
	{ ROLE_HEADER, "Queue columns", "date, bot, attribution badge, findings by verdict, author, subject" },
	{ ROLE_A_MODEL, "[M]", "Assisted-by names the agent and model (AGENT:MODEL [tools])" },
	{ ROLE_A_GENERIC, "[G]", "Assisted-by discloses a generic LLM, no model (LLM [tools])" },
	{ ROLE_A_OTHER, "[?]", "Assisted-by present in neither form (bare name, free text, empty)" },
	{ ROLE_A_NONE, "[-]", "no Assisted-by trailer" },
	{ ROLE_A_NONE, "[ ]", "the patch is not in the index" },
	{ ROLE_V_UNTRIAGED, "5: 2u", "5 findings, 2 untriaged (u), then valid (v), false positive (f), pre-existing (p)" },
	{ ROLE_WARNING, "!Name", "the patch's author opted out of bot findings (winnow.optout)" },
	{ ROLE_PRECLAIM, "PRE", "the bot itself says the issue predates the patch" },
	{ ROLE_LOCATION, "file:42~", "line counted across a snip in the quote: approximate" },
};

#define NLEGEND (sizeof(legend) / sizeof(legend[0]))

static bool help_open(struct tui *t, struct view *v, void *arg)
{
	v->lines = (ACT_COUNT - 1) + NLEGEND;
	return true;
}

static void help_title(struct tui *t, struct view *v, struct row *r)
{
	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s help %s keys", ui_dash(), ui_dash());
	row_add(r, ROLE_TITLE, CELL_FLEX, "");
	row_add(r, ROLE_TITLE, CELL_NATURAL, "q: back");
}

static void help_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	if (i < ACT_COUNT - 1) {
		enum action a = (enum action) (i + 1);

		row_add(r, ROLE_HELP_KEY, 12, action_keys(a));
		/* The names are for the man page and future key bindings;
		 * a narrow screen is better spent on the help text. */
		if (COLS >= 100)
			row_add(r, ROLE_HELP_TEXT, 20, action_name(a))->extra = TA_DIM;
		row_add(r, ROLE_HELP_TEXT, CELL_FLEX, action_help(a));
		return;
	}
	i -= ACT_COUNT - 1;
	row_add(r, legend[i].role, 12, legend[i].key);
	row_add(r, ROLE_HELP_TEXT, CELL_FLEX, legend[i].text);
}

const struct view_ops help_ops = {
	.name = "help",
	.open = help_open,
	.title = help_title,
	.row = help_row,
	.hints = help_hints,
};
