/* winnow — the plain mail, read without a GMimeMessage (mail-private.h).
 *
 * A GMimeMessage is dozens of GObjects (one per header, per address,
 * per parameter), and building and freeing them was two thirds of the
 * cost of reading a mail, which a full scan does twice per review (the
 * review and its patch).  Nearly every review and patch is one
 * text/plain part:
 *
 *	From: Some One <some@example.org>
 *	Subject: [PATCH v2 1/3] ...
 *	Content-Type: text/plain; charset="utf-8"
 *	Content-Transfer-Encoding: 8bit
 *
 *	body
 *
 * or a multipart/mixed whose first part is that (first_part()).  For
 * such a mail this file finds the header fields itself and hands each
 * value to the same GMime functions GMime's parser hands it to (RFC
 * 2047 decoding, address lists, Message-IDs, the transfer encodings;
 * the usual date it reads itself), so that the wn_mail is the one
 * mail.c's GMime reader makes, field for field; tests/fuzz/fuzz-mail.c
 * holds the two side by side.  Anything less plain -- another content
 * type, a header GMime would merge or pick among (a second Subject), a
 * line that is not a header, an mbox "From " line -- is left to GMime's
 * parser. */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail-private.h"
#include "winnow/text.h"

/* The header fields besides mail_view's: each may appear at most once. */
enum {
	PH_SUBJECT = MH_COUNT,
	PH_DATE,
	PH_MESSAGE_ID,
	PH_CONTENT_TYPE,
	PH_CTE,
	PH_COUNT
};

/* Every field read, by name, with the name's length: mail_view's
 * (MAIL_HEADER_LIST), then the ones above. */
static const struct field_name {
	const char *name;
	size_t len;
} field_names[PH_COUNT] = {
#define WN_X_(e, name) { name, sizeof(name) - 1 },
	MAIL_HEADER_LIST(WN_X_)
#undef WN_X_
		{ "Subject", 7 },
	{ "Date", 4 },
	{ "Message-ID", 10 }, /* as git send-email spells it */
	{ "Content-Type", 12 },
	{ "Content-Transfer-Encoding", 25 },
};

/* One header field as GMime's parser keeps its raw value: everything
 * after the colon up to and with the line break that ends the field,
 * folds included (" Some One <some@example.org>\n"). */
struct raw {
	const char *s;
	size_t n;
};

/* a and b the same letter but for case (g_ascii_tolower() is a call). */
static bool same_letter(char a, char b)
{
	return (a | 0x20) == (b | 0x20);
}

/* Which of field_names the name of n bytes at name is; -1: none.  The
 * length and the first letter (a pre-check: the compare decides) tell
 * nearly every other field (a mail has two dozen) without a call:
 * strlen() and g_ascii_strncasecmp() for each were a twentieth of the
 * plain reader.  A name spelt as the table spells it needs no call
 * either (g_ascii_strncasecmp() was 0.7% of a cold statistics pass). */
static int field_index(const char *name, size_t n)
{
	for (int i = 0; i < PH_COUNT; i++)
		if (field_names[i].len == n && same_letter(field_names[i].name[0], name[0]) &&
		    (memcmp(field_names[i].name, name, n) == 0 ||
		     g_ascii_strncasecmp(field_names[i].name, name, n) == 0))
			return i;
	return -1;
}

/* Where the line at p ends (after its '\n'), or NULL when the line is
 * one GMime's parser might read differently: no '\n' before end, a NUL,
 * or a CR anywhere but before the '\n'. */
static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t) (end - p));

	if (!nl || memchr(p, '\0', (size_t) (nl - p)))
		return NULL;
	for (const char *cr = memchr(p, '\r', (size_t) (nl - p)); cr;
	     cr = memchr(cr + 1, '\r', (size_t) (nl - cr - 1)))
		if (cr + 1 != nl)
			return NULL;
	return nl + 1;
}

/* A field's name: printable ASCII but ':' (RFC 5322, 2.2), then ':'.
 * Returns its length, 0 when the line does not start with one. */
static size_t name_len(const char *p, const char *eol)
{
	const char *q = p;

	while (q < eol && *q > ' ' && *q < 0x7f && *q != ':')
		q++;
	return q > p && q < eol && *q == ':' ? (size_t) (q - p) : 0;
}

static bool blank_line(const char *p, const char *eol)
{
	for (; p < eol; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			return false;
	return true;
}

/* Find the header fields of data: fields[i] for each field read, the
 * body after the empty line that ends the header.  False when the
 * header is not plain. */
static bool scan(const char *data, size_t len, struct raw fields[PH_COUNT], const char **body)
{
	const char *p = data, *end = data + len;
	struct raw *cur = NULL;	/* a field read, which folds may go on */
	bool any = false;

	while (p < end) {
		const char *eol = line_end(p, end);
		size_t n;
		int i;

		if (!eol)
			return false;
		if (*p == '\n' || (*p == '\r' && p[1] == '\n')) {
			*body = eol;
			return any;
		}
		if (*p == ' ' || *p == '\t') {
			/* A fold; one of nothing but blanks, GMime might take
			 * for the end of the header. */
			if (p == data || blank_line(p, eol))
				return false;
			if (cur)
				cur->n = (size_t) (eol - cur->s);
			p = eol;
			continue;
		}
		if (!(n = name_len(p, eol)))
			return false;
		/* GMime gives the Content-* fields to the part: a mail of
		 * nothing else has no header, and its parser says so. */
		any |= n < 8 || !same_letter(*p, 'C') ||
		       (memcmp(p, "Content-", 8) != 0 &&
			g_ascii_strncasecmp(p, "Content-", 8) != 0);
		cur = NULL;
		if ((i = field_index(p, n)) >= 0) {
			/* GMime picks the first or the last of two, or
			 * merges them: its parser decides. */
			if (fields[i].s)
				return false;
			cur = &fields[i];
			cur->s = p + n + 1;
			cur->n = (size_t) (eol - cur->s);
		}
		p = eol;
	}
	return false;	/* no body: GMime's parser says what that is */
}

/* ---- Content-Type and Content-Transfer-Encoding ------------------------ */

/* RFC 2045 token characters. */
static bool token_char(char c)
{
	return c > ' ' && c < 0x7f && !strchr("()<>@,;:\\\"/[]?=", c);
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

static const char *token(const char *p)
{
	while (token_char(*p))
		p++;
	return p;
}

/* A quoted boundary's characters (RFC 2046, 5.1.1: "bchars" but the
 * blank, which may not end one). */
static const char *bchars(const char *p)
{
	while (token_char(*p) || (*p && strchr("'()+_,-./:=?", *p)))
		p++;
	return p;
}

/* One parameter value: a token, or a quoted string of token
 * characters only (of bchars() for a boundary: boundary true) -- no
 * escapes, no encoded words, nothing GMime's parameter decoder would
 * change.  Returns its end, NULL if not such. */
static const char *param_value(const char *p, bool boundary, const char **v, size_t *vn)
{
	const char *q, *start = *p == '"' ? p + 1 : p;

	q = *p == '"' && boundary ? bchars(start) : token(start);
	if (q == start)
		return NULL;
	if (*p == '"') {
		if (*q != '"')
			return NULL;
		*v = start;
		*vn = (size_t) (q - start);
		return q + 1;
	}
	*v = start;
	*vn = (size_t) (q - start);
	return q;
}

static bool is_word(const char *p, const char *q, const char *word)
{
	size_t n = strlen(word);

	return (size_t) (q - p) == n && g_ascii_strncasecmp(p, word, n) == 0;
}

/* "text/plain" and simple parameters ("; charset=utf-8; format=flowed"),
 * the charset (malloc'd) into *cs, NULL when not given; or, when
 * boundary is not NULL, "multipart/mixed" with its boundary (malloc'd)
 * into *boundary.  False for any other type or anything GMime's parser
 * might read another way (comments, RFC 2231 parameters, a repeated
 * charset or boundary). */
static bool plain_type(const char *value, char **cs, char **boundary)
{
	const char *p = skip_blanks(value), *q;
	bool mixed;

	*cs = NULL;
	q = token(p);
	mixed = boundary && is_word(p, q, "multipart");
	if (!(mixed || is_word(p, q, "text")) || *q != '/')
		return false;
	p = q + 1;
	q = token(p);
	if (!is_word(p, q, mixed ? "mixed" : "plain"))
		return false;
	for (p = skip_blanks(q); *p; p = skip_blanks(p)) {
		const char *name, *v;
		size_t nn, vn;
		bool bound;

		if (*p != ';')
			goto no;
		p = skip_blanks(p + 1);
		if (!*p)
			break;
		name = p;
		p = token(p);
		nn = (size_t) (p - name);
		/* A '*' anywhere in the name is RFC 2231's ("charset*0",
		 * "*a"): GMime reads those its own way, and stops at a name
		 * it cannot make sense of, so the parameters after it (the
		 * charset) are not read at all. */
		if (!nn || memchr(name, '*', nn))
			goto no;
		p = skip_blanks(p);
		if (*p != '=')
			goto no;
		bound = mixed && is_word(name, name + nn, "boundary");
		p = param_value(skip_blanks(p + 1), bound, &v, &vn);
		if (!p)
			goto no;
		if (is_word(name, name + nn, "charset")) {
			if (*cs || !(*cs = wn_strndup(v, vn)))
				goto no;
		} else if (bound) {
			if (*boundary || !(*boundary = wn_strndup(v, vn)))
				goto no;
		}
	}
	if (!mixed || *boundary)
		return true;
no:
	free(*cs);
	*cs = NULL;
	if (boundary) {
		free(*boundary);
		*boundary = NULL;
	}
	return false;
}

/* The transfer encodings read here; x-uuencode and unknown names go to
 * GMime's parser.  value is unfolded (blanks and line breaks trimmed,
 * as GMime's header value is); anything else around the name goes to
 * GMime too: a form feed before it hides the name from GMime, which
 * then decodes nothing (fuzz-mail). */
static bool plain_encoding(const char *value, GMimeContentEncoding *enc)
{
	static const char *const names[] = { "7bit", "8bit", "binary", "base64",
					     "quoted-printable" };
	bool ok = false;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !ok; i++)
		ok = g_ascii_strcasecmp(value, names[i]) == 0;
	if (ok)
		*enc = g_mime_content_encoding_from_string(value);
	return ok;
}

/* ---- Date -------------------------------------------------------------- */

/* n (1 to max) decimal digits at *p into *v, *p moved past them. */
static bool digits(const char **p, int min, int max, int *v)
{
	int n = 0;

	*v = 0;
	while (n < max && **p >= '0' && **p <= '9') {
		*v = *v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n >= min && !(**p >= '0' && **p <= '9');
}

static bool blanks(const char **p)
{
	const char *q = *p;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	return *p > q;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static long long days_from_civil(int y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The date of nearly every mail, "Tue, 3 Jun 2025 10:00:00 +0200"
 * (RFC 5322, 3.3: day name optional, seconds optional, a numeric zone),
 * as the Unix time g_mime_utils_header_decode_date() gives it.  False
 * for anything else -- a zone's name, a comment, two-digit years, a
 * day the month has not, a leap second, a year before 1969 (which
 * GMime reads as no date) -- which GMime reads: parsing
 * each date with GMime was a tenth of the plain reader. */
static bool plain_date(const char *s, time_t *out)
{
	static const char days[] = "MonTueWedThuFriSatSun",
			  months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int day, mon = 0, year, hh, mm, ss = 0, zh, zm, zone;
	const char *p = s;

	blanks(&p);
	if (p[0] && p[1] && p[2] && p[3] == ',') {
		int wd = 0;

		while (wd < 7 && memcmp(p, days + 3 * wd, 3) != 0)
			wd++;
		p += 4;
		if (wd == 7 || !blanks(&p))
			return false;
	}
	if (!digits(&p, 1, 2, &day) || !blanks(&p))
		return false;
	while (mon < 12 && strncmp(p, months + 3 * mon, 3) != 0)
		mon++;
	if (mon == 12 || (p[3] != ' ' && p[3] != '\t'))
		return false;
	p += 3;
	blanks(&p);
	if (!digits(&p, 4, 4, &year) || !blanks(&p) || !digits(&p, 2, 2, &hh) || *p++ != ':' ||
	    !digits(&p, 2, 2, &mm))
		return false;
	if (*p == ':' && (p++, !digits(&p, 2, 2, &ss)))
		return false;
	if (!blanks(&p) || (*p != '+' && *p != '-'))
		return false;
	zone = *p++ == '-' ? -1 : 1;
	if (!digits(&p, 4, 4, &zh))
		return false;
	zm = zh % 100;
	zh /= 100;
	blanks(&p);
	if (*p || year < 1969 || day < 1 ||
	    day > mdays[mon] +
			    (mon == 1 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ||
	    hh > 23 || mm > 59 || ss > 59 || zh > 14 || zm > 59)
		return false;
	*out = (time_t) (days_from_civil(year, mon + 1, day) * 86400 + hh * 3600 + mm * 60 + ss -
			 zone * (zh * 3600 + zm * 60));
	return true;
}

/* ---- the mail ---------------------------------------------------------- */

struct plain {
	mail_view v;
	char *decoded[PH_COUNT];	/* each field's value, as GMime decodes it
					 * (unfolded[i] itself when the same) */
	char *unfolded[PH_COUNT];	/* and before RFC 2047 decoding */
	char *charset;
	GMimeContentEncoding enc;
	char *boundary; /* a multipart/mixed mail's */
};

static void plain_clear(struct plain *pl)
{
	for (int i = 0; i < PH_COUNT; i++) {
		if (pl->decoded[i] != pl->unfolded[i])
			g_free(pl->decoded[i]);
		g_free(pl->unfolded[i]);
	}
	for (int i = 0; i < MH_ADDRESS_COUNT; i++)
		if (pl->v.addrs[i])
			g_object_unref(pl->v.addrs[i]);
	g_free((char *) pl->v.message_id);
	if (pl->v.date)
		g_date_time_unref(pl->v.date);
	free(pl->charset);
	free(pl->boundary);
}

/* Does GMime's RFC 2047 decoding change s?  Not when s is printable
 * ASCII and blanks without an encoded word ("=?"), which most header
 * values are; decoding each was a fifth of reading a plain mail.
 * (tests/unit/test-mail.c holds GMime to this.) */
static bool needs_decoding_at(const unsigned char *p)
{
	return (*p < 0x20 && *p != '\t') || *p > 0x7e || (*p == '=' && p[1] == '?');
}

/* s has n bytes before its NUL.  Eight at a time: a word with no byte
 * below 0x20, above 0x7e or '=' has nothing to decode; the bytes of
 * any other are looked at one by one.  (The byte loop alone was a
 * twentieth of the plain reader.) */
static bool needs_decoding(const char *s, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), tops = UINT64_C(0x8080808080808080);
	const unsigned char *p = (const unsigned char *) s;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v, eq;

		memcpy(&v, p + i, 8);
		eq = v ^ (ones * '=');
		/* A byte below 0x20 (the subtraction borrows into its top
		 * bit); 0x7f (the addition carries into it) or above; '='
		 * (a zero byte of eq). */
		if (!(((v - ones * 0x20) & ~v & tops) | ((v + ones) & tops) | (v & tops) |
		      ((eq - ones) & ~eq & tops)))
			continue;
		for (size_t k = i; k < i + 8; k++)
			if (needs_decoding_at(p + k))
				return true;
	}
	for (; i < n; i++)
		if (needs_decoding_at(p + i))
			return true;
	return false;
}

static bool lwsp(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* g_mime_utils_header_unfold() of the n bytes at s (no NUL among them):
 * blanks and line breaks trimmed at both ends, the line breaks inside
 * dropped.  Made from the raw value in place, not from a copy of it:
 * the copy and GMime's unfolding were a tenth of the plain reader.
 * (test-mail holds it to GMime's.) */
char *wn_mail_unfold(const char *s, size_t n)
{
	const char *end = s + n, *nl, *cr;
	char *out, *o;

	while (s < end && lwsp(*s))
		s++;
	while (end > s && lwsp(end[-1]))
		end--;
	o = out = g_malloc((size_t) (end - s) + 1);
	/* Most fields are one line: one copy.  Each break is looked for
	 * once (a hostile header of many folds stays linear). */
	nl = memchr(s, '\n', (size_t) (end - s));
	cr = memchr(s, '\r', (size_t) (end - s));
	while (s < end) {
		const char *stop;

		if (nl && nl < s)
			nl = memchr(s, '\n', (size_t) (end - s));
		if (cr && cr < s)
			cr = memchr(s, '\r', (size_t) (end - s));
		stop = !nl ? cr : !cr ? nl : nl < cr ? nl : cr;
		if (!stop)
			stop = end;
		memcpy(o, s, (size_t) (stop - s));
		o += stop - s;
		s = stop < end ? stop + 1 : end;
	}
	*o = '\0';
	return out;
}

/* Is f's raw value one line (line breaks at its end alone)? */
static bool one_line_raw(const struct raw *f)
{
	size_t n = f->n;

	while (n && lwsp(f->s[n - 1]))
		n--;
	return !memchr(f->s, '\n', n) && !memchr(f->s, '\r', n);
}

/* What GMime's header makes of field i's raw value: g_mime_header_get_value()
 * (unfolded, RFC 2047 decoded) and, for an address header, the list
 * GMime's message parses from the raw value.  False when that list is
 * not certain: where internet_address_list_parse() gives up on a whole
 * header (an unclosed comment after ten good addresses), the message
 * keeps what it read up to there. */
static bool decode_field(struct plain *pl, int i, const struct raw *f, GMimeParserOptions *opts)
{
	pl->unfolded[i] = wn_mail_unfold(f->s, f->n);
	/* Nothing to decode: the unfolded text is the decoded one (one
	 * string, freed once: plain_clear()). */
	pl->decoded[i] = needs_decoding(pl->unfolded[i], strlen(pl->unfolded[i])) ?
				 g_mime_utils_header_decode_text(opts, pl->unfolded[i]) :
				 pl->unfolded[i];
	if (i == MH_FROM && pl->decoded[i] == pl->unfolded[i] && one_line_raw(f) &&
	    wn_mail_plain_mailbox(pl->unfolded[i], &(size_t){ 0 }, &(const char *){ NULL },
				  &(size_t){ 0 })) {
		pl->v.from_plain = true;
		return true;
	}
	if (i < MH_ADDRESS_COUNT) {
		char *raw = g_strndup(f->s, f->n);

		pl->v.addrs[i] = internet_address_list_parse(opts, raw);
		g_free(raw);
	}
	return i >= MH_ADDRESS_COUNT || pl->v.addrs[i];
}

/* The address lists a lean read leaves out (mail-private.h): a
 * patch's reader keeps Reply-To, which says who its sender is. */
static bool recipient(int i, enum mail_lean lean)
{
	return i == MH_TO || i == MH_CC || (i == MH_REPLY_TO && lean == LEAN_SENDER);
}

/* Fill pl from fields, as GMime's message would be; false when the
 * part is not a plain one after all. */
static bool plain_view(struct plain *pl, const struct raw fields[PH_COUNT], enum mail_lean lean)
{
	GMimeParserOptions *opts = wn_mail_gmime();

	for (int i = 0; i < PH_COUNT; i++)
		if (fields[i].s && !(lean != LEAN_NONE && recipient(i, lean)) && !decode_field(pl, i, &fields[i], opts))
			return false;
	pl->enc = GMIME_CONTENT_ENCODING_DEFAULT;
	/* Undecoded: what passes here has no encoded word to decode. */
	if (pl->unfolded[PH_CONTENT_TYPE] &&
	    !plain_type(pl->unfolded[PH_CONTENT_TYPE], &pl->charset, &pl->boundary))
		return false;
	if (pl->unfolded[PH_CTE] && !plain_encoding(pl->unfolded[PH_CTE], &pl->enc))
		return false;
	/* A multipart is not encoded (RFC 2045, 6.4): GMime's parser reads
	 * one that says it is. */
	if (pl->boundary && pl->enc != GMIME_CONTENT_ENCODING_DEFAULT &&
	    pl->enc != GMIME_CONTENT_ENCODING_7BIT && pl->enc != GMIME_CONTENT_ENCODING_8BIT &&
	    pl->enc != GMIME_CONTENT_ENCODING_BINARY)
		return false;
	for (int i = 0; i < MH_COUNT; i++)
		pl->v.hdr[i] = pl->decoded[i];
	pl->v.subject = pl->decoded[PH_SUBJECT];
	/* The usual "<local@domain>" without GMime's parser (0.4% of a cold
	 * statistics pass). */
	if (pl->decoded[PH_MESSAGE_ID] &&
	    !(pl->v.message_id = wn_mail_plain_msgid(pl->decoded[PH_MESSAGE_ID])))
		pl->v.message_id = g_mime_utils_decode_message_id(pl->decoded[PH_MESSAGE_ID]);
	if (pl->decoded[PH_DATE] && !(pl->v.dated = plain_date(pl->decoded[PH_DATE], &pl->v.when)))
		pl->v.date = g_mime_utils_header_decode_date(pl->decoded[PH_DATE]);
	return true;
}

/* ---- multipart/mixed -------------------------------------------------- */

/* The line from p to eol (its '\n') against the boundary b: 1 when it
 * is "--b", 2 when "--b--", 0 when no boundary line, -1 when it starts
 * like one but goes on (GMime's parser allows blanks after one). */
static int boundary_line(const char *p, const char *eol, const char *b, size_t bn)
{
	size_t n = (size_t) (eol - p);

	if (n < bn + 2 || p[0] != '-' || p[1] != '-' || memcmp(p + 2, b, bn) != 0)
		return 0;
	if (n == bn + 2)
		return 1;
	return n == bn + 4 && p[bn + 2] == '-' && p[bn + 3] == '-' ? 2 : -1;
}

/* The first part of a multipart/mixed body, when it is a plain one:
 * "--b", a header of Content-Type text/plain and at most a
 * Content-Transfer-Encoding, one line each, an empty line, the text up
 * to the line break before the next "--b".  That is the part GMime's
 * reader takes the text of (mail.c, find_text()): the BPF CI's reviews
 * are such, and GMime's parser was a twentieth of a cold list for
 * them.  *body, *n: the part's text; pl's charset and encoding the
 * part's.  False for anything else (a CR or NUL in the body, a line
 * that starts like the boundary, no closing boundary), which GMime's
 * parser reads. */
static bool first_part(struct plain *pl, const char **body, size_t *n, const char *end)
{
	const char *p = *body, *eol, *text;
	size_t bn = strlen(pl->boundary);
	struct raw ct = { 0 }, cte = { 0 };
	char *v;
	bool ok;
	int k;

	if (memchr(p, '\r', (size_t) (end - p)) || memchr(p, '\0', (size_t) (end - p)))
		return false;
	for (;; p = eol + 1) { /* the preamble */
		if (!(eol = memchr(p, '\n', (size_t) (end - p))) ||
		    (k = boundary_line(p, eol, pl->boundary, bn)) < 0 || k == 2)
			return false;
		if (k == 1)
			break;
	}
	for (p = eol + 1; (eol = memchr(p, '\n', (size_t) (end - p))) && eol > p; p = eol + 1) {
		size_t nn = name_len(p, eol + 1);
		struct raw *f = is_word(p, p + nn, "Content-Type")		? &ct :
				is_word(p, p + nn, "Content-Transfer-Encoding") ? &cte :
										  NULL;

		if (!nn || !f || f->s)
			return false;
		f->s = p + nn + 1;
		f->n = (size_t) (eol - f->s);
	}
	if (!eol || !ct.s)
		return false;
	for (text = p = eol + 1;; p = eol + 1) {
		if (!(eol = memchr(p, '\n', (size_t) (end - p))) ||
		    (k = boundary_line(p, eol, pl->boundary, bn)) < 0)
			return false;
		if (k)
			break;
	}
	free(pl->charset);
	pl->charset = NULL;
	v = wn_mail_unfold(ct.s, ct.n);
	ok = plain_type(v, &pl->charset, NULL);
	g_free(v);
	pl->enc = GMIME_CONTENT_ENCODING_DEFAULT;
	if (ok && cte.s) {
		v = wn_mail_unfold(cte.s, cte.n);
		ok = plain_encoding(v, &pl->enc);
		g_free(v);
	}
	/* The line break before the boundary is the boundary's. */
	*body = text;
	*n = p > text ? (size_t) (p - 1 - text) : 0;
	return ok;
}

/* The body with its transfer encoding undone, as GMime's decoding
 * filter gives it; into *out (g_malloc'd) unless it needs no decoding. */
static wn_status body_text(const struct plain *pl, const char *s, size_t n, char **out, size_t *on)
{
	GMimeEncoding st;
	char *buf;

	*out = NULL;
	*on = n;
	if (pl->enc != GMIME_CONTENT_ENCODING_BASE64 && pl->enc != GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE)
		return WN_OK;
	g_mime_encoding_init_decode(&st, pl->enc);
	buf = g_try_malloc(g_mime_encoding_outlen(&st, n) + 1);
	if (!buf)
		return WN_NOMEM;
	*on = g_mime_encoding_flush(&st, s, n, buf);
	*out = buf;
	return WN_OK;
}

/* A lean read (mail-private.h) of a mail whose List-Id names no list:
 * To and Cc after all, for wn_mail_list().  WN_NOT_FOUND when GMime's
 * parser must read them. */
static wn_status lean_recipients(struct plain *pl, const struct raw fields[PH_COUNT], wn_mail *m)
{
	char *list = wn_mail_list(m);
	bool named = list != NULL;

	free(list);
	if (named)
		return WN_OK;
	for (int i = MH_TO; i <= MH_CC; i++) {
		if (fields[i].s && !decode_field(pl, i, &fields[i], wn_mail_gmime()))
			return WN_NOT_FOUND;
		pl->v.hdr[i] = pl->decoded[i];
	}
	return wn_mail_fill_recipients(m, &pl->v);
}

wn_status wn_mail_plain(const char *data, size_t len, wn_mail **out)
{
	return wn_mail_plain_read(data, len, LEAN_NONE, out);
}

wn_status wn_mail_plain_read(const char *data, size_t len, enum mail_lean lean, wn_mail **out)
{
	struct raw fields[PH_COUNT] = { { 0 } };
	struct plain pl = { 0 };
	const char *body;
	char *decoded = NULL;
	size_t n, bn;
	wn_mail *m;
	wn_status st;

	*out = NULL;
	/* An mbox "From " line: GMime's parser skips it.  A mail near the
	 * body limit: GMime's reader stops reading at the limit, and what
	 * the body's charset looks like may change with what was read. */
	if (len > WN_MAIL_PLAIN_MAX || (len >= 5 && memcmp(data, "From ", 5) == 0))
		return WN_NOT_FOUND;
	if (!scan(data, len, fields, &body))
		return WN_NOT_FOUND;
	bn = (size_t) (data + len - body);
	if (!plain_view(&pl, fields, lean) ||
	    (pl.boundary && !first_part(&pl, &body, &bn, data + len))) {
		plain_clear(&pl);
		return WN_NOT_FOUND;
	}
	m = calloc(1, sizeof(*m));
	st = m ? wn_mail_fill_headers(m, &pl.v) : WN_NOMEM;
	if (st == WN_OK && lean == LEAN_LIST)
		st = lean_recipients(&pl, fields, m);
	if (st == WN_OK)
		st = body_text(&pl, body, bn, &decoded, &n);
	if (st == WN_OK)
		st = wn_mail_fill_body(m, pl.charset, decoded ? decoded : body, n);
	g_free(decoded);
	plain_clear(&pl);
	if (st != WN_OK) {
		wn_mail_free(&m);
		return st == WN_NOT_FOUND ? st : WN_NOMEM;
	}
	*out = m;
	return WN_OK;
}
