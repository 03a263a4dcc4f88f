/* winnow TUI — the mechanics every view shares: rows and cells, the
 * cursor and scrolling, drawing the title line, the list and the status
 * line.  It calls no view by name and nothing above it (see view.h). */
#include "autoconfig.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "winnow/text.h"
#include "view.h"

/* --- rows ------------------------------------------------------------ */

struct cell *row_add(struct row *r, enum role role, int width, const char *text)
{
	struct cell *c = r->n < ROW_MAX_CELLS ? &r->c[r->n++] : &r->spill;

	memset(c, 0, sizeof(*c));
	c->role = role;
	c->width = width;
	c->pad = 1;
	c->text = text ? text : "";
	return c;
}

struct cell *row_addf(struct row *r, enum role role, int width, const char *fmt, ...)
{
	struct cell *c = row_add(r, role, width, NULL);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->own, sizeof(c->own), fmt, ap);
	va_end(ap);
	c->text = c->own;
	return c;
}

/* Draw the cells of r in the columns [x0, x0 + width).  base: the
 * attribute of the whole line when every cell takes it (cursor bar), or
 * 0 to use each cell's role. */
static void draw_cells(struct tui *t, int y, int x0, int width, const struct row *r,
		       chtype fill, chtype base)
{
	int widths[ROW_MAX_CELLS], fixed = 0, flex = -1, x = 0;

	draw_fill(y, x0, width, fill);
	for (int i = 0; i < r->n; i++) {
		const struct cell *c = &r->c[i];

		if (c->width == CELL_FLEX && flex < 0) {
			flex = i;
			widths[i] = 0;
		} else {
			widths[i] = c->width > 0 ? c->width : text_width(c->text);
		}
		fixed += widths[i] + c->pad;
	}
	if (flex >= 0)
		widths[flex] = width - fixed > 0 ? width - fixed : 0;
	for (int i = 0; i < r->n && x < width; i++) {
		const struct cell *c = &r->c[i];
		chtype a = (base ? base : theme_attr(&t->theme, c->role)) | theme_ta(c->extra);
		int w = widths[i], off = 0;

		if (w > width - x)
			w = width - x;
		if (c->right) {
			int tw = text_width(c->text);

			if (tw < w)
				off = w - tw;
		}
		draw_text_attr(y, x0 + x + off, w - off, a, c->text);
		x += widths[i] + c->pad;
	}
}

void view_draw_row_at(struct tui *t, int y, int x, int width, const struct row *r, bool selected)
{
	if (selected) {
		chtype cur = theme_attr(&t->theme, ROLE_CURSOR);
		draw_cells(t, y, x, width, r, cur, cur);
	} else {
		draw_cells(t, y, x, width, r, theme_attr(&t->theme, ROLE_DEFAULT), 0);
	}
}

void view_draw_row(struct tui *t, int y, const struct row *r, bool selected)
{
	view_draw_row_at(t, y, 0, COLS, r, selected);
}

void view_draw_bar_at(struct tui *t, int y, int x, int width, const struct row *r, enum role fill)
{
	draw_cells(t, y, x, width, r, theme_attr(&t->theme, fill), 0);
}

/* --- cursor and scrolling ---------------------------------------------- */

static void fix_scroll(struct view *v)
{
	size_t h = v->list_h > 0 ? (size_t) v->list_h : 1;

	if (v->lines == 0) {
		v->cursor = v->top = 0;
		return;
	}
	if (v->cursor >= v->lines)
		v->cursor = v->lines - 1;
	if (v->cursor < v->top)
		v->top = v->cursor;
	if (v->cursor >= v->top + h)
		v->top = v->cursor - h + 1;
	/* After a resize or a page down near the end, fill the pane. */
	if (v->top + h > v->lines)
		v->top = v->lines > h ? v->lines - h : 0;
}

void view_goto(struct tui *t, struct view *v, size_t i)
{
	size_t old = v->cursor;

	if (v->lines == 0)
		return;
	v->cursor = i < v->lines ? i : v->lines - 1;
	fix_scroll(v);
	if (v->cursor != old && v->ops->select)
		v->ops->select(t, v);
}

static void page(struct tui *t, struct view *v, bool down)
{
	size_t h = v->list_h > 1 ? (size_t) v->list_h : 1;

	if (down) {
		v->top += h;
		view_goto(t, v, v->cursor + h);
	} else {
		v->top = v->top > h ? v->top - h : 0;
		view_goto(t, v, v->cursor > h ? v->cursor - h : 0);
	}
}

bool view_move(struct tui *t, struct view *v, enum action a)
{
	switch (a) {
	case ACT_MOVE_DOWN:
	case ACT_NEXT_FINDING:
		view_goto(t, v, v->cursor + 1);
		return true;
	case ACT_MOVE_UP:
	case ACT_PREV_FINDING:
		view_goto(t, v, v->cursor ? v->cursor - 1 : 0);
		return true;
	case ACT_MOVE_FIRST:
		view_goto(t, v, 0);
		return true;
	case ACT_MOVE_LAST:
		view_goto(t, v, v->lines ? v->lines - 1 : 0);
		return true;
	case ACT_PAGE_DOWN:
		page(t, v, true);
		return true;
	case ACT_PAGE_UP:
		page(t, v, false);
		return true;
	default:
		return false;
	}
}

/* --- drawing --------------------------------------------------------- */

static int hint_width(struct tui *t, struct view *v, const struct hint *h)
{
	char key[16];

	if (!keymap_key_of(&t->keys, v->id, h->a, key, sizeof(key)))
		return -1;	/* unbound here: no hint */
	return text_width(key) + 1 + text_width(h->label) + 1;
}

static void add_hint(struct tui *t, struct view *v, struct row *r, const struct hint *h)
{
	char key[16];

	keymap_key_of(&t->keys, v->id, h->a, key, sizeof(key));
	row_addf(r, ROLE_HELP_KEY, CELL_NATURAL, "%s", key)->pad = 0;
	row_addf(r, ROLE_HELP_TEXT, CELL_NATURAL, ":%s", h->label);
}

/* Message or key hints on the left, "[view] n/N" on the right.  Hints
 * that do not fit are left out from the end, except help, which is
 * always offered. */
static void draw_status(struct tui *t, struct view *v)
{
	struct row r = { .n = 0 };
	size_t pending = wn_store_pending(t->store);
	struct cell *pos = NULL;
	char where[64] = "";
	int room;

	if (LINES < 1)
		return;
	if (v)
		snprintf(where, sizeof(where), "%s%s%s[%s] %zu/%zu",
			 v->ops->mode ? "by " : "", v->ops->mode ? v->ops->mode(t, v) : "",
			 v->ops->mode ? "  " : "", v->ops->name, v->lines ? v->cursor + 1 : 0, v->lines);
	room = COLS - text_width(where) - 1;
	if (t->msg.len) {
		struct cell *m = row_add(&r, t->msg_role, CELL_NATURAL, wn_buf_str(&t->msg));

		/* The message gives way to the position, never the reverse. */
		m->pad = 2;
		if (text_width(m->text) > room - 2)
			m->width = room - 2 > 1 ? room - 2 : 1;
	}
	if (t->progress.len && t->progress_since &&
	    tui_now_ms() - t->progress_since >= PROGRESS_MS)
		row_add(&r, ROLE_STATUS, CELL_NATURAL, wn_buf_str(&t->progress))->pad = 2;
	if (t->locked && pending)
		row_addf(&r, ROLE_WARNING, CELL_NATURAL, "%zu verdict%s waiting for the index lock",
			 pending, pending == 1 ? "" : "s")->pad = 2;
	if (!r.n && v && v->ops->hints) {
		const struct hint *help = NULL;
		int used = 0, reserve = 0;

		for (const struct hint *h = v->ops->hints; h->a != ACT_NONE; h++)
			if (h->a == ACT_HELP && hint_width(t, v, h) > 0)
				help = h;
		if (help)
			reserve = hint_width(t, v, help);
		for (const struct hint *h = v->ops->hints; h->a != ACT_NONE; h++) {
			int w = hint_width(t, v, h);

			if (h == help || w < 0)
				continue;
			if (used + w > room - reserve)
				break;
			used += w;
			add_hint(t, v, &r, h);
		}
		if (help && used + reserve <= room)
			add_hint(t, v, &r, help);
	}
	row_add(&r, ROLE_STATUS, CELL_FLEX, "")->pad = 0;
	if (v) {
		pos = row_add(&r, ROLE_STATUS, CELL_NATURAL, NULL);
		memcpy(pos->own, where, sizeof(pos->own) < sizeof(where) ? sizeof(pos->own) : sizeof(where));
		pos->own[sizeof(pos->own) - 1] = '\0';
		pos->text = pos->own;
		pos->pad = 0;
	}
	draw_cells(t, LINES - 1, 0, COLS, &r, theme_attr(&t->theme, ROLE_STATUS), 0);
}

void view_draw(struct tui *t)
{
	struct view *v = view_top(t);
	int height = LINES - 2;

	erase();
	if (!v || LINES < 1 || COLS < 1)
		return;
	if (LINES >= 2) {
		struct row title = { .n = 0 };

		v->ops->title(t, v, &title);
		draw_cells(t, 0, 0, COLS, &title, theme_attr(&t->theme, ROLE_TITLE), 0);
	}
	v->list_y = 1;
	v->list_x = 0;
	v->list_w = COLS;
	v->list_h = height > 0 ? height : 0;
	if (v->ops->layout && height > 0)
		v->ops->layout(t, v, 1, height);
	fix_scroll(v);
	for (int i = 0; i < v->list_h; i++) {
		size_t k = v->top + (size_t) i;
		struct row r = { .n = 0 };

		if (k >= v->lines)
			break;
		v->ops->row(t, v, k, &r);
		view_draw_row_at(t, v->list_y + i, v->list_x, v->list_w, &r, k == v->cursor);
	}
	if (v->ops->draw && height > 0)
		v->ops->draw(t, v);
	draw_status(t, v);
}

/* --- shared helpers for views ---------------------------------------- */

/* Each table is indexed by the library's enum; the verdict and
 * attribution roles are named after their values, so a new value
 * without a colour role does not compile. */
static const enum role verdict_roles[WN_VERDICT_COUNT] = {
#define WN_X_(e, name, tag, label, word) [WN_VERDICT_##e] = ROLE_V_##e,
	WN_VERDICT_LIST(WN_X_)
#undef WN_X_
};

static const enum role attr_roles[WN_ATTR_COUNT] = {
#define WN_X_(e, name, badge) [WN_ATTR_##e] = ROLE_A_##e,
	WN_ATTR_LIST(WN_X_)
#undef WN_X_
};

/* No severity given is drawn like one not understood. */
static const enum role severity_roles[WN_SEV_COUNT] = {
	[WN_SEV_NONE] = ROLE_SEV_UNKNOWN,
	[WN_SEV_CRITICAL] = ROLE_SEV_CRITICAL,
	[WN_SEV_HIGH] = ROLE_SEV_HIGH,
	[WN_SEV_MEDIUM] = ROLE_SEV_MEDIUM,
	[WN_SEV_LOW] = ROLE_SEV_LOW,
	[WN_SEV_ERROR] = ROLE_SEV_ERROR,
	[WN_SEV_WARNING] = ROLE_SEV_WARNING,
	[WN_SEV_NOTE] = ROLE_SEV_NOTE,
	[WN_SEV_UNKNOWN] = ROLE_SEV_UNKNOWN,
};

enum role role_of_verdict(wn_verdict v)
{
	return (unsigned) v < WN_VERDICT_COUNT ? verdict_roles[v] : ROLE_V_UNTRIAGED;
}

enum role role_of_severity(wn_severity s)
{
	return (unsigned) s < WN_SEV_COUNT ? severity_roles[s] : ROLE_SEV_UNKNOWN;
}

enum role role_of_attr(wn_attr_status s)
{
	return (unsigned) s < WN_ATTR_COUNT ? attr_roles[s] : ROLE_A_NONE;
}

void format_date(time_t when, char out[16])
{
	struct tm tm;

	out[0] = '\0';
	if (when && localtime_r(&when, &tm))
		strftime(out, 16, "%Y-%m-%d", &tm);
}

void copy_chars(char *out, size_t size, const char *s, size_t n)
{
	if (n >= size) {
		n = size - 1;
		while (n && ((unsigned char) s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(out, s, n);
	out[n] = '\0';
}

void name_of(const char *from, char *out, size_t size)
{
	const char *lt = strchr(from, '<');
	size_t n;

	if (lt && lt > from) {
		n = (size_t) (lt - from);
		while (n && (from[n - 1] == ' ' || from[n - 1] == '"'))
			n--;
		if (*from == '"') {
			from++;
			n = n ? n - 1 : 0;
		}
	} else if (lt) {
		from = lt + 1;
		n = strcspn(from, ">");
	} else {
		n = strlen(from);
	}
	copy_chars(out, size, from, n);
}


bool copy_request(struct tui *t, enum action a, const wn_item *it, const char *id)
{
	const char *what = "review", *copy = id ? id : it ? it->id : NULL;

	if (a != ACT_COPY_ID && a != ACT_COPY_PATCH_ID)
		return false;
	if (a == ACT_COPY_PATCH_ID) {
		what = "patch";
		copy = it && it->patch ? it->patch->id : NULL;
	} else if (id) {
		what = "mail";
	}
	if (!copy)
		tui_msg(t, ROLE_WARNING, "no %s here", a == ACT_COPY_PATCH_ID ? "patch in the index"
									: "Message-ID");
	else if (!display_clipboard(copy))
		tui_msg(t, ROLE_WARNING, "cannot copy that Message-ID");
	else
		tui_msg(t, ROLE_STATUS, "copied %s id %s", what, copy);
	return true;
}
