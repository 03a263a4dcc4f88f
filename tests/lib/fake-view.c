/* winnow test build — the fake view of -DWN_TEST_FAKE_ENTRIES
 * (TUI_VIEWS in src/tui/view.h).  Nothing opens it: it exists so that
 * tests/tui/fake-entries.sh can check every list of views names it. */
#include "autoconfig.h"

#include "view.h"

static bool fake_open(struct tui *t, struct view *v, void *arg)
{
	(void) t;
	(void) arg;
	v->lines = 0;
	return true;
}

static void fake_title(struct tui *t, struct view *v, struct row *r)
{
	(void) t;
	(void) v;
	(void) r;
}

static void fake_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	(void) t;
	(void) v;
	(void) i;
	(void) r;
}

const struct view_ops fake_ops = {
	.name = "fakeview",
	.open = fake_open,
	.title = fake_title,
	.row = fake_row,
};
