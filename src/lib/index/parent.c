/* winnow — a message's parents as notmuch indexed them (see parent.h).
 * The id parsers are notmuch 0.37's lib/message-id.c, and the choice
 * of "replyto" its add-message.cc's, so that the same header text gives
 * the same terms. */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parent.h"
#include "../core/file.h"
#include "../core/fileid.h"
#include "winnow/text.h"

/* A header block longer than this is left to notmuch. */
#define HEAD_MAX (256 * 1024)

void wn_parent_ids_clear(wn_parent_ids *p)
{
	free(p->replyto);
	wn_strv_free(p->refs);
	p->replyto = NULL;
	p->refs = NULL;
}

/* The bytes of the file before its first empty line (all of it when it
 * has none), NUL-terminated in *out; false when it cannot be read or
 * is longer than HEAD_MAX.  *oom on out of memory. */
static bool read_head(const char *path, char **out, size_t *len, bool *oom)
{
	int fd = wn_open_mail(path);
	size_t n = 0, cap = 0, have = 0;
	char *b = NULL;
	bool done = false, noting = wn_readlog_on();
	struct stat sb;

	*out = NULL;
	if (fd < 0) {
		/* What was read (or that nothing was there) goes into the
		 * read log (core/fileid.h) when one is watched. */
		if (errno == ENOENT)
			wn_readlog_note(path, NULL);
		else
			wn_readlog_unsure();
		return false;
	}
	if (noting && fstat(fd, &sb) != 0)
		sb.st_mode = 0;
	while (!done && n < HEAD_MAX) {
		ssize_t got;
		char *grown;

		if (cap - n < 4097) {
			cap = cap ? 2 * cap : 8192;
			if (!(grown = realloc(b, cap))) {
				*oom = true;
				break;
			}
			b = grown;
		}
		got = read(fd, b + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		done = got == 0;
		have = n + (size_t) got;
		/* The blank line may straddle two reads. */
		for (size_t i = n ? n - 1 : 0; !done && i < n + (size_t) got; i++)
			if (b[i] == '\n' && (i == 0 || b[i - 1] == '\n')) {
				n = i;
				done = true;
			}
		if (!done)
			n += (size_t) got;
		else if (got == 0)
			break;
	}
	if (noting) {
		struct stat now;
		bool steady = sb.st_mode && fstat(fd, &now) == 0 &&
			      wn_readlog_hash(&now) == wn_readlog_hash(&sb);

		wn_readlog_note_fd(path, fd, steady ? &sb : NULL, b, have);
	}
	close(fd);
	if (!done || *oom) {
		free(b);
		return false;
	}
	if (!b && !(b = malloc(1))) {
		*oom = true;
		return false;
	}
	b[n] = '\0';
	*out = b;
	*len = n;
	return true;
}

/* notmuch's skip_space_and_comments. */
static void skip_space_and_comments(const char **str)
{
	const char *s = *str;

	while (*s && (isspace((unsigned char) *s) || *s == '(')) {
		while (*s && isspace((unsigned char) *s))
			s++;
		if (*s == '(') {
			int nesting = 1;

			s++;
			while (*s && nesting) {
				if (*s == '(')
					nesting++;
				else if (*s == ')')
					nesting--;
				else if (*s == '\\' && s[1])
					s++;
				s++;
			}
		}
	}
	*str = s;
}

/* notmuch's _notmuch_message_id_parse: the next id of s, *next after
 * it; NULL when none (or, with *oom, out of memory). */
static char *id_parse(const char *s, const char **next, bool *oom)
{
	const char *end;
	char *r, *w;

	if (!*s)
		return NULL;
	skip_space_and_comments(&s);
	while (*s && *s != '<')
		s++;
	if (*s != '<') {
		*next = s;
		return NULL;
	}
	s++;
	skip_space_and_comments(&s);
	for (end = s; *end && *end != '>'; end++)
		;
	*next = *end ? end + 1 : end;
	if (end > s && *end == '>')
		end--;
	if (end <= s)
		return NULL;
	if (!(r = strndup(s, (size_t) (end - s + 1)))) {
		*oom = true;
		return NULL;
	}
	/* Collapse the blanks within the id. */
	w = r;
	for (const char *c = r; *c; c++)
		if (*c != ' ' && *c != '\t')
			*w++ = *c;
	*w = '\0';
	return r;
}

/* notmuch's _notmuch_message_id_parse_strict: the id of a value that
 * is one "<id>" alone, else NULL (and, with *oom, out of memory). */
static char *id_parse_strict(const char *s, bool *oom)
{
	const char *end, *last;
	char *r;

	while (isspace((unsigned char) *s))
		s++;
	if (*s++ != '<')
		return NULL;
	for (end = s; *end && *end != '>'; end++)
		if (isspace((unsigned char) *end))
			return NULL;
	if (*end != '>')
		return NULL;
	for (last = end + 1; isspace((unsigned char) *last); last++)
		;
	if (*last)
		return NULL;
	if (!(r = strndup(s, (size_t) (end - s))))
		*oom = true;
	return r;
}

/* notmuch's parse_references: every id of v but self onto *refs (n of
 * them), and *last a copy of the last of them (NULL: none).  False
 * when out of memory or an id is longer than notmuch keeps whole. */
static bool parse_refs(const char *v, const char *self, char ***refs, size_t *n, char **last,
		       bool *oom)
{
	/* Into *refs until the end: a copy only then, so that a false
	 * return leaves *last NULL, never an alias of what *refs frees. */
	const char *at = NULL;

	*last = NULL;
	while (*v) {
		char *id = id_parse(v, &v, oom), **grown;

		if (*oom)
			return false;
		if (!id)
			continue;
		if (strlen(id) > WN_PARENT_ID_MAX) {
			free(id);
			return false;
		}
		if (!strcmp(id, self)) {
			free(id);
			continue;
		}
		if (!(grown = realloc(*refs, (*n + 2) * sizeof(*grown)))) {
			free(id);
			*oom = true;
			return false;
		}
		*refs = grown;
		grown[(*n)++] = id;
		grown[*n] = NULL;
		at = id;
	}
	if (at && !(*last = strdup(at))) {
		*oom = true;
		return false;
	}
	return true;
}

/* Could GMime give this header value other text than its bytes, or
 * hold an id notmuch's parsers read other than they read these?  Yes
 * for anything but plain printable ASCII with no encoded word, comment,
 * quote or escape, and for blanks inside an id (folding may have put
 * them there, and unfolding differ). */
static bool plain_value(const char *v, size_t n)
{
	bool in_id = false;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) v[i];

		if (c == '<')
			in_id = true;
		else if (c == '>')
			in_id = false;
		if ((c < ' ' && c != '\t' && c != '\n') || c > '~' || c == '(' || c == '"' ||
		    c == '\\' || (c == '=' && i + 1 < n && v[i + 1] == '?') ||
		    (in_id && (c == ' ' || c == '\t' || c == '\n')))
			return false;
	}
	return true;
}

/* The values of In-Reply-To (irt) and References (refs) in head, which
 * point into it (NUL-terminated there), "" for one absent.  False when
 * head is not plainly a block of header lines, or either header comes
 * twice or is not plain_value. */
static bool find_headers(char *head, size_t len, const char **irt, const char **refs)
{
	static const char *const names[2] = { "in-reply-to", "references" };
	const char **out[2] = { irt, refs };
	bool seen[2] = { false, false };
	char *p = head, *end = head + len;

	*irt = *refs = "";
	/* mbox's "From " line, gzip: notmuch's reader, not this one. */
	if (len >= 2 && (!strncmp(head, "From ", 5) || ((unsigned char) head[0] == 0x1f &&
							    (unsigned char) head[1] == 0x8b)))
		return false;
	if (memchr(head, '\0', len) || memchr(head, '\r', len))
		return false;
	while (p < end) {
		char *colon = p, *v, *e;
		int which = -1;

		while (colon < end && *colon > ' ' && *colon <= '~' && *colon != ':')
			colon++;
		if (colon == p || colon >= end || *colon != ':')
			return false;
		/* The value runs on over the lines that start with a blank;
		 * one of blanks alone might end the block for GMime. */
		for (e = colon; e < end; e++) {
			char *z = e + 1;

			if (*e != '\n')
				continue;
			if (z >= end || (*z != ' ' && *z != '\t'))
				break;
			while (z < end && (*z == ' ' || *z == '\t'))
				z++;
			if (z >= end || *z == '\n')
				return false;
		}
		for (int k = 0; k < 2; k++)
			if ((size_t) (colon - p) == strlen(names[k]) &&
			    !strncasecmp(p, names[k], strlen(names[k])))
				which = k;
		v = colon + 1;
		if (which >= 0) {
			if (seen[which] || !plain_value(v, (size_t) (e - v)))
				return false;
			seen[which] = true;
			*e = '\0';
			*out[which] = v;
		}
		p = e + 1;
	}
	return true;
}

wn_status wn_parent_parse(char *head, size_t len, const char *self, wn_parent_ids *out, bool *sure)
{
	const char *irt, *refs;
	char *refs_last = NULL, *irt_last = NULL, *strict = NULL;
	size_t n = 0;
	bool oom = false;

	out->replyto = NULL;
	out->refs = NULL;
	*sure = false;
	if (strlen(self) > WN_PARENT_ID_MAX || !find_headers(head, len, &irt, &refs))
		return WN_OK;
	/* add-message.cc: In-Reply-To's id when it is one id alone, else
	 * the last of References, else the last of In-Reply-To. */
	*sure = parse_refs(refs, self, &out->refs, &n, &refs_last, &oom) &&
		(strict = id_parse_strict(irt, &oom), !oom) &&
		(!strict || strlen(strict) <= WN_PARENT_ID_MAX) &&
		parse_refs(irt, self, &out->refs, &n, &irt_last, &oom);
	if (*sure && !out->refs && !(out->refs = calloc(1, sizeof(*out->refs))))
		oom = true;
	if (*sure && !oom) {
		char **take = strict ? &strict : refs_last ? &refs_last : &irt_last;

		out->replyto = *take;
		*take = NULL;
	}
	free(strict);
	free(refs_last);
	free(irt_last);
	if (oom || !*sure) {
		wn_parent_ids_clear(out);
		*sure = false;
	}
	return oom ? WN_NOMEM : WN_OK;
}

wn_status wn_parent_read(const char *path, const char *self, wn_parent_ids *out, bool *sure)
{
	char *head = NULL;
	size_t len;
	bool oom = false;
	wn_status st;

	out->replyto = NULL;
	out->refs = NULL;
	*sure = false;
	if (!read_head(path, &head, &len, &oom))
		return oom ? WN_NOMEM : WN_OK;
	st = wn_parent_parse(head, len, self, out, sure);
	free(head);
	return st;
}
