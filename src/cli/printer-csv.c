/* winnow — the CSV printer (RFC 4180): rows of flat records for
 * spreadsheets and scripts, from the same walk as JSON (see printer.h
 * for what makes a row).  Fields are sanitised like every string, then
 * quoted when they hold a comma, a quote or a line break.  A text cell
 * that a spreadsheet would read as a formula gets a leading ' (OWASP's
 * "CSV injection" advice): a finding's summary is the bot's, and the
 * README sends these files to spreadsheets. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "printer.h"
#include "winnow/text.h"

/* Rows nest no deeper than this (a row's map, its maps, their lists). */
#define CSV_MAX_DEPTH 8

struct csv_level {
	bool is_map;
	size_t count;		/* list elements so far: their field names */
	size_t name_len;	/* of name when this level began */
};

struct csv_printer {
	wn_printer p;
	struct csv_level stack[CSV_MAX_DEPTH];
	size_t depth;		/* containers open */
	size_t skip;		/* > 0: inside a container too deep */
	const char *key;	/* of the next value */
	wn_buf name;		/* field name of the next value: "outer.inner" */
	wn_buf header;		/* the first row's field names */
	wn_buf row;		/* the row being written */
	size_t fields;		/* in this row so far */
	size_t columns;		/* of the header; 0 until the first row ends */
	bool in_row;
};

/* A field as RFC 4180 wants it.  @text: the cell holds text (from mail,
 * a note, a name), never a number winnow formatted itself; a text cell
 * starting with a character that makes Excel, LibreOffice or Sheets
 * evaluate it ("=HYPERLINK(...)", "+1", "-1", "@SUM", a tab or CR
 * before any of them) is prefixed with ', which they show as text and
 * do not evaluate.  Numbers stay numbers: "-3" printed by csv_integer
 * is winnow's own, not the mail's. */
static void put_field(wn_buf *b, const char *s, bool text)
{
	const char *defuse = text && *s && strchr("=+-@\t\r", *s) ? "'" : "";

	if (!strpbrk(s, ",\"\r\n")) {
		wn_buf_puts(b, defuse);
		wn_buf_puts(b, s);
		return;
	}
	wn_buf_putc(b, '"');
	wn_buf_puts(b, defuse);
	for (; *s; s++) {
		if (*s == '"')
			wn_buf_putc(b, '"');
		wn_buf_putc(b, *s);
	}
	wn_buf_putc(b, '"');
}

/* The name of the value about to come in a row, into cp->name; false
 * when the value is not in a row (outside one, or too deep). */
static bool field_name(struct csv_printer *cp)
{
	const char *key = cp->key;
	struct csv_level *top;
	char num[24];

	cp->key = NULL;
	if (cp->skip || !cp->in_row || cp->depth < 2)
		return false;
	top = &cp->stack[cp->depth - 1];
	if (top->is_map && !key)
		return false;	/* layout for the text printer only */
	if (!top->is_map) {
		snprintf(num, sizeof(num), "%zu", ++top->count);
		key = num;
	}
	if (cp->name.len)
		wn_buf_putc(&cp->name, '.');
	wn_buf_puts(&cp->name, key);
	return true;
}

/* Drop what field_name() added for a scalar. */
static void name_pop(struct csv_printer *cp, size_t len)
{
	cp->name.len = len;
	if (cp->name.data)
		cp->name.data[len] = '\0';
}

/* Write one field of the row, @s already as it should read; @text as
 * for put_field(). */
static void field(wn_printer *p, const char *s, bool text)
{
	struct csv_printer *cp = (struct csv_printer *) p;
	size_t len = cp->name.len;

	if (!field_name(cp))
		return;
	if (!cp->columns) {
		if (cp->fields)
			wn_buf_putc(&cp->header, ',');
		put_field(&cp->header, wn_buf_str(&cp->name), true);
	}
	name_pop(cp, len);
	if (cp->columns && cp->fields >= cp->columns)
		return;		/* a row longer than the header */
	if (cp->fields++)
		wn_buf_putc(&cp->row, ',');
	put_field(&cp->row, s, text);
}

static void end_row(struct csv_printer *cp)
{
	bool failed;

	if (!cp->columns) {
		cp->columns = cp->fields ? cp->fields : 1;
		/* A row cut short would shift every later column: out of
		 * memory leaves it out, says so, and starts the next afresh. */
		if (wn_buf_failed(&cp->header) || wn_buf_failed(&cp->name))
			fputs("winnow: out of memory: the CSV header is missing\n", stderr);
		else
			fprintf(cp->p.out, "%s\r\n", wn_buf_str(&cp->header));
	}
	for (; cp->fields < cp->columns; cp->fields++)
		wn_buf_putc(&cp->row, ',');
	/* (name only makes the header; it is never freed mid-walk, as
	 * name_pop() cuts it back to lengths taken before.) */
	failed = wn_buf_failed(&cp->row);
	if (failed) {
		fputs("winnow: out of memory: a CSV row is missing\n", stderr);
		wn_buf_free(&cp->row);
	} else {
		fprintf(cp->p.out, "%s\r\n", wn_buf_str(&cp->row));
	}
	wn_buf_reset(&cp->row);
	cp->fields = 0;
	cp->in_row = false;
}

static void csv_begin(wn_printer *p, bool is_map)
{
	struct csv_printer *cp = (struct csv_printer *) p;
	size_t len = cp->name.len;

	if (cp->skip || cp->depth == CSV_MAX_DEPTH) {
		cp->skip++;
		return;
	}
	/* A map straight inside the outermost list starts a row. */
	if (is_map && cp->depth == 1 && !cp->stack[0].is_map) {
		cp->key = NULL;
		cp->in_row = true;
		wn_buf_reset(&cp->name);
		len = 0;
	} else if (cp->in_row && !field_name(cp)) {
		cp->skip++;
		return;
	}
	cp->key = NULL;
	cp->stack[cp->depth++] = (struct csv_level) { .is_map = is_map, .name_len = len };
}

static void csv_begin_map(wn_printer *p)
{
	csv_begin(p, true);
}

static void csv_begin_list(wn_printer *p)
{
	csv_begin(p, false);
}

static void csv_end(wn_printer *p)
{
	struct csv_printer *cp = (struct csv_printer *) p;

	if (cp->skip) {
		cp->skip--;
		return;
	}
	if (!cp->depth)
		return;
	cp->depth--;
	name_pop(cp, cp->stack[cp->depth].name_len);
	if (cp->in_row && cp->depth == 1)
		end_row(cp);
}

static void csv_map_key(wn_printer *p, const char *key)
{
	((struct csv_printer *) p)->key = key;
}

static void csv_string(wn_printer *p, const char *s)
{
	char *clean = s ? wn_text_sanitize(s, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB) : NULL;

	field(p, clean ? clean : "", true);
	free(clean);
}

/* As text output shows it (wn_msgid_escape): inert wherever the file
 * is shown, and taken back by every command. */
static void csv_msgid(wn_printer *p, const char *id)
{
	char *e = wn_msgid_escape(id);

	field(p, e ? e : "", true);
	free(e);
}

static void csv_integer(wn_printer *p, long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", v);
	field(p, buf, false);
}

static void csv_real(wn_printer *p, double v)
{
	char buf[32];

	wn_format_real(v, buf);
	field(p, buf, false);
}

static void csv_boolean(wn_printer *p, bool v)
{
	field(p, v ? "true" : "false", false);
}

static void csv_null(wn_printer *p)
{
	field(p, "", false);
}

/* Text layout is not CSV's. */
static void csv_label(wn_printer *p, const char *s)
{
	(void) p;
	(void) s;
}

static void csv_text(wn_printer *p, const char *fmt, va_list ap)
{
	(void) p;
	(void) fmt;
	(void) ap;
}

static void csv_separator(wn_printer *p)
{
	(void) p;
}

static void csv_done(wn_printer *p)
{
	struct csv_printer *cp = (struct csv_printer *) p;

	fflush(p->out);
	wn_buf_free(&cp->name);
	wn_buf_free(&cp->header);
	wn_buf_free(&cp->row);
	free(cp);
}

wn_printer *wn_printer_csv_new(FILE *out)
{
	struct csv_printer *cp = calloc(1, sizeof(*cp));

	if (!cp)
		return NULL;
	cp->p = (wn_printer) {
		.begin_map = csv_begin_map, .begin_list = csv_begin_list,
		.end = csv_end, .map_key = csv_map_key,
		.string = csv_string, .msgid = csv_msgid, .integer = csv_integer,
		.real = csv_real,
		.boolean = csv_boolean, .null = csv_null,
		.label = csv_label, .block = csv_label,
		.text = csv_text, .separator = csv_separator,
		.done = csv_done, .out = out,
	};
	return &cp->p;
}
