/* winnow — the structural printer every command writes through, in the
 * manner of notmuch's sprinter: a command walks its data once, as calls
 * on this vtable, and the printer behind it (text or JSON) decides what
 * reaches the output.  Values are written as they come, so a listing of
 * any length holds one review in memory, not all of them.
 *
 * One walk serves both printers by two rules:
 *   - JSON writes the structure and, inside a map, only the values that
 *     follow map_key(); label(), block(), text() and separator() are
 *     layout it ignores.
 *   - Text writes no structure and only the values that follow label()
 *     or block(); map_key() means nothing to it.
 * So a value both show is keyed and labelled; a value only JSON has is
 * keyed only (the text shows it differently, or not at all); a value
 * only text shows is labelled only.  Every string value is sanitised
 * (wn_text_sanitize) by every printer: mail is hostile. */
#ifndef WINNOW_PRINTER_H
#define WINNOW_PRINTER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct wn_printer wn_printer;

struct wn_printer {
	/* Structure.  A container that is a map's value follows its
	 * map_key(); every begin is closed by one end. */
	void (*begin_map)(wn_printer *p);
	void (*begin_list)(wn_printer *p);
	void (*end)(wn_printer *p);
	void (*map_key)(wn_printer *p, const char *key);

	/* Values.  string(NULL) is null. */
	void (*string)(wn_printer *p, const char *s);
	/* A Message-ID, which must survive exactly (a hostile one holds
	 * control characters): JSON has it escaped by JSON's rules, text
	 * as wn_msgid_escape() writes it, which show and mark take back. */
	void (*msgid)(wn_printer *p, const char *id);
	void (*integer)(wn_printer *p, long long v);
	void (*real)(wn_printer *p, double v);	/* four decimals */
	void (*boolean)(wn_printer *p, bool v);
	void (*null)(wn_printer *p);

	/* Text layout.  label: write s (our own words, never mail), then
	 * show the next value on this line (null shows as nothing).
	 * block: show the next string as lines, each after indent.  text:
	 * write our own words.  separator: end the line. */
	void (*label)(wn_printer *p, const char *s);
	void (*block)(wn_printer *p, const char *indent);
	void (*text)(wn_printer *p, const char *fmt, va_list ap);
	void (*separator)(wn_printer *p);

	/* Flush and free. */
	void (*done)(wn_printer *p);

	FILE *out;
	/* notmuch's is_text_printer: a listing shows one line per review
	 * instead of the whole review (see format.h). */
	bool is_text;
};

/* A printer for format name (WN_FORMATS_PRINTER: "text", "json")
 * writing to out; NULL when the name is unknown or memory ran out. */
wn_printer *wn_printer_new(const char *name, FILE *out);
void wn_printer_free(wn_printer **p);

wn_printer *wn_printer_text_new(FILE *out);
wn_printer *wn_printer_json_new(FILE *out);
/* JSON spooled aside: a printer whose values are the elements of a list
 * depth containers deep in another JSON printer's output, written to
 * out (a temporary file) exactly as that printer would write them in
 * place.  NULL when out of memory or depth is beyond any walk. */
wn_printer *wn_printer_json_new_nested(FILE *out, size_t depth);
/* Copy what nested wrote into p, whose innermost open container must be
 * a list as deep as nested's; as if p had written those values itself.
 * False (p unchanged, or partly written on a read error) otherwise. */
bool wn_printer_json_splice(wn_printer *p, wn_printer *nested);
/* CSV (RFC 4180), for the commands that offer it (not in the format
 * table: a review is no row).  A row is a map directly inside the
 * outermost list; its keyed values are the row's fields, containers
 * nested in it flattened ("outer.inner", list elements numbered from
 * 1).  The first row's keys make the header line, so every row must
 * give the same keys in the same order.  Fields that need it are
 * quoted; records end with CRLF; newlines inside fields are kept. */
wn_printer *wn_printer_csv_new(FILE *out);

/* v with four decimals and a '.' whatever LC_NUMERIC says (JSON and
 * CSV must not get "0,1923"); for rates and shares, |v| < 1e14. */
void wn_format_real(double v, char out[32]);

/* p->text with printf arguments.  Never pass mail text: it is written
 * as it is; mail goes through string() and is sanitised. */
void wn_pr_text(wn_printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A map entry KEY: V (the one helper for the counts of every command). */
void wn_pr_key_int(wn_printer *p, const char *key, long long v);

#endif
