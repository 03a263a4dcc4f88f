/* winnow — the hunks of a patch mail's diff (winnow/diff.h): which files and
 * functions a patch changes, and where in the mail each hunk starts.
 *
 *	diff --git a/drivers/misc/frobnic/core.c b/drivers/misc/frobnic/core.c
 *	+++ b/drivers/misc/frobnic/core.c
 *	@@ -70,9 +70,11 @@ static void frobnic_remove(struct platform_device *pdev)
 *	+static int frobnic_quiesce(struct frobnic *fd)
 *
 * A hunk changes the function its "@@" line names (where the hunk
 * begins) and every function whose definition line (column 0, a '(',
 * no ';') it holds. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "../core/hash.h"
#include "../core/str.h"
#include "winnow/diff.h"
#include "winnow/text.h"

char *wn_diff_path(const char *file)
{
	wn_buf b = WN_BUF_INIT;
	const char *p = file;

	if (!p)
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/')
		p += 2;
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	for (; *p && *p != ' ' && *p != '\t'; p++) {
		if (*p == '/' && b.len && b.data[b.len - 1] == '/')
			continue;
		if (wn_buf_putc(&b, *p) != WN_OK) {
			wn_buf_free(&b);
			return NULL;
		}
	}
	return b.len ? wn_buf_steal(&b) : NULL;
}

/* Where the name a definition-like line gives is: the identifier
 * before its first '(', or for a macro that defines a function by its
 * first argument ("BPF_CALL_3(bpf_x, ...)", "SYSCALL_DEFINE2(name,
 * ...)") that argument.  False when there is none. */
static bool name_span(const char *s, size_t n, const char **at, size_t *len)
{
	const char *paren = memchr(s, '(', n);
	size_t e, b;
	bool macro = true;

	if (!paren)
		return false;
	e = (size_t) (paren - s);
	while (e && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	for (b = e; b && str_ident_char((unsigned char) s[b - 1]); b--)
		macro &= !(s[b - 1] >= 'a' && s[b - 1] <= 'z');
	if (b == e || (s[b] >= '0' && s[b] <= '9'))
		return false;
	if (macro && memchr(s + b, '_', e - b)) {
		const char *a = paren + 1, *end = s + n;
		size_t k;

		while (a < end && (*a == ' ' || *a == '\t'))
			a++;
		/* Its own length: b still marks the macro's name, which is
		 * the answer when the argument is no identifier. */
		for (k = 0; a + k < end && str_ident_char((unsigned char) a[k]); k++)
			;
		if (k && !(a[0] >= '0' && a[0] <= '9')) {
			*at = a;
			*len = k;
			return true;
		}
	}
	*at = s + b;
	*len = e - b;
	return true;
}

/* A line of code that starts a definition: column 0, a '(', no ';'. */
static bool defines(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n && str_ident_char((unsigned char) s[0]) && s[n - 1] != ';' &&
	       s[n - 1] != ',' && memchr(s, '(', n);
}

/* What one pass over a diff fills: its hunks (d), or only their keys
 * (k), which need no hunk, file or name copied.  Both passes take the
 * same lines for the same hunks, files and functions. */
struct scan {
	wn_diff *d;
	wn_diff_keys *k;
	size_t cap;		/* of k->v */
	uint64_t hunk;		/* k: the hash of the last hunk's file */
	bool in_hunk;		/* k: a hunk began */
};

static uint64_t key_more(uint64_t file_hash, const char *fn, size_t n)
{
	return wn_fnv1a(wn_fnv1a_byte(file_hash, '\0'), fn, n);
}

static bool push_key(struct scan *sc, uint64_t key)
{
	wn_diff_keys *k = sc->k;

	if (k->n == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 16;
		uint64_t *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return false;
		k->v = v;
		sc->cap = cap;
	}
	k->v[k->n++] = key;
	return true;
}

/* The function named at s[0..n) (see name_span) into the last hunk. */
static bool add_function(struct scan *sc, const char *s, size_t n)
{
	wn_hunk *h;
	const char *at;
	size_t len, k = 0;
	char **nv, *name;

	if (!name_span(s, n, &at, &len))
		return true;
	if (sc->k)
		return push_key(sc, key_more(sc->hunk, at, len));
	h = &sc->d->h[sc->d->n - 1];
	for (; h->functions && h->functions[k]; k++)
		if (strlen(h->functions[k]) == len && memcmp(h->functions[k], at, len) == 0)
			return true;
	if (!(name = wn_strndup(at, len)))
		return false;
	if (!(nv = realloc(h->functions, (k + 2) * sizeof(*nv)))) {
		free(name);
		return false;
	}
	nv[k] = name;
	nv[k + 1] = NULL;
	h->functions = nv;
	return true;
}

/* "@@ -a[,b] +c[,d] @@ context": a new hunk at body line. */
static bool hunk_start(struct scan *sc, const char *file, const char *s, size_t n, int line)
{
	const char *plus = memchr(s, '+', n), *close;
	size_t i;
	long start = 0;
	wn_hunk *nh, *h;

	if (!file || !plus)
		return true;
	if (sc->k) {
		sc->hunk = wn_fnv1a_str(WN_FNV_BASIS, file);
		sc->in_hunk = true;
		if (!push_key(sc, sc->hunk))
			return false;
	} else {
		i = (size_t) (plus - s) + 1;
		wn_str_num(s, n, &i, &start);
		if (!(nh = realloc(sc->d->h, (sc->d->n + 1) * sizeof(*nh))))
			return false;
		sc->d->h = nh;
		h = &nh[sc->d->n];
		memset(h, 0, sizeof(*h));
		if (!(h->file = strdup(file)))
			return false;
		sc->d->n++;
		h->new_line = (int) start;
		h->mail_line = line;
	}
	close = n > 2 ? wn_str_find(s + 2, n - 2, "@@") : NULL;
	if (close)
		return add_function(sc, close + 2, (size_t) (s + n - close - 2));
	return true;
}

/* "diff --git a/x b/y" or "+++ b/y": the file the hunks below change. */
static bool new_file(char **file, const char *s, size_t n)
{
	const char *b;
	char *path, *p;

	if (wn_str_prefix(s, n, "+++ "))
		b = s + 4;
	else if ((b = wn_str_find(s, n, " b/")))
		b++;
	else
		return true;
	if (wn_str_prefix(b, (size_t) (s + n - b), "/dev/null"))
		return true;
	if (!(path = wn_strndup(b, (size_t) (s + n - b))))
		return false;
	p = wn_diff_path(path);
	free(path);
	free(*file);
	*file = p;
	return true;
}

/* A line of the last hunk ('+', '-' or ' ' and the code): the function
 * it defines, if any, into the hunk's.  False when out of memory. */
static bool code_line(struct scan *sc, const char *l, size_t n)
{
	if (!(sc->k ? sc->in_hunk : sc->d->n > 0) || n < 2 || wn_str_prefix(l, n, "--- ") ||
	    !defines(l + 1, n - 1))
		return true;
	return add_function(sc, l + 1, n - 1);
}

static bool scan(const char *body, size_t len, struct scan *sc)
{
	size_t pos = 0, n;
	const char *l;
	char *file = NULL;
	int line = 0;
	bool ok = true;

	while (ok && body && wn_str_next_line(body, len, &pos, &l, &n)) {
		/* A mail read as it is may end its lines in CRLF. */
		if (n && l[n - 1] == '\r')
			n--;
		line++;
		/* By the first byte: linking reads every patch through here. */
		switch (n ? l[0] : '\0') {
		case 'd':
			if (wn_str_prefix(l, n, "diff --git "))
				ok = new_file(&file, l, n);
			break;
		case '@':
			if (wn_str_prefix(l, n, "@@ -"))
				ok = hunk_start(sc, file, l, n, line);
			break;
		case '+':
			ok = wn_str_prefix(l, n, "+++ ") ? new_file(&file, l, n) :
							   code_line(sc, l, n);
			break;
		case '-':
		case ' ':
			ok = code_line(sc, l, n);
			break;
		default:
			break;
		}
	}
	free(file);
	return ok;
}

wn_status wn_diff_parse(const char *body, size_t len, wn_diff *out)
{
	struct scan sc = { .d = out };

	memset(out, 0, sizeof(*out));
	if (!scan(body, len, &sc)) {
		wn_diff_clear(out);
		return WN_NOMEM;
	}
	return WN_OK;
}

void wn_diff_clear(wn_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->h[i].file);
		wn_strv_free(d->h[i].functions);
	}
	free(d->h);
	memset(d, 0, sizeof(*d));
}

const wn_hunk *wn_diff_find(const wn_diff *d, const char *file, const char *function)
{
	for (size_t i = 0; file && i < d->n; i++) {
		if (strcmp(d->h[i].file, file) != 0)
			continue;
		if (!function)
			return &d->h[i];
		for (char **f = d->h[i].functions; f && *f; f++)
			if (strcmp(*f, function) == 0)
				return &d->h[i];
	}
	return NULL;
}

/* --- the hunks as keys ----------------------------------------------------- */

/* A file's key, or with a function the pair's: FNV-1a over the file and,
 * after a byte no path or name holds as the diff reader keeps them, the
 * function.  Two places with one key only cost a mail read. */
static uint64_t key_of(const char *file, const char *function)
{
	uint64_t h = wn_fnv1a_str(WN_FNV_BASIS, file);

	return function ? key_more(h, function, strlen(function)) : h;
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Sorted, each once. */
static void keys_sort(wn_diff_keys *keys)
{
	size_t k = 0;

	if (keys->n > 1)
		qsort(keys->v, keys->n, sizeof(*keys->v), key_cmp);
	for (size_t i = 0; i < keys->n; i++)
		if (!k || keys->v[k - 1] != keys->v[i])
			keys->v[k++] = keys->v[i];
	keys->n = k;
}

wn_status wn_diff_keys_of(const wn_diff *d, wn_diff_keys *out)
{
	size_t n = d->n;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < d->n; i++)
		for (char **f = d->h[i].functions; f && *f; f++)
			n++;
	if (!n)
		return WN_OK;
	if (!(out->v = malloc(n * sizeof(*out->v))))
		return WN_NOMEM;
	for (size_t i = 0; i < d->n; i++) {
		out->v[out->n++] = key_of(d->h[i].file, NULL);
		for (char **f = d->h[i].functions; f && *f; f++)
			out->v[out->n++] = key_of(d->h[i].file, *f);
	}
	keys_sort(out);
	return WN_OK;
}

wn_status wn_diff_keys_parse(const char *body, size_t len, wn_diff_keys *out)
{
	struct scan sc = { .k = out };

	memset(out, 0, sizeof(*out));
	if (!scan(body, len, &sc)) {
		wn_diff_keys_clear(out);
		return WN_NOMEM;
	}
	keys_sort(out);
	return WN_OK;
}

bool wn_diff_keys_may_find(const wn_diff_keys *keys, const char *file, const char *function)
{
	uint64_t key;

	if (!file)
		return false;
	key = key_of(file, function);
	return keys->n && bsearch(&key, keys->v, keys->n, sizeof(key), key_cmp) != NULL;
}

void wn_diff_keys_clear(wn_diff_keys *keys)
{
	free(keys->v);
	memset(keys, 0, sizeof(*keys));
}
