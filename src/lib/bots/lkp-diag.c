/* winnow — kernel test robot reports: one diagnostic line read (lkp.c
 * lists the forms): its place, its severity, the tool that said it, and
 * the text its fingerprint is made of. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lkp-private.h"

bool wn_lkp_alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}
static bool sev_word(const char *s, size_t n, size_t *i, wn_severity *sev)
{
	static const struct {
		const char *w;
		wn_severity sev;
	} words[] = {
		{ "fatal error:", WN_SEV_ERROR }, { "error:", WN_SEV_ERROR },
		{ "warning:", WN_SEV_WARNING }, { "warn:", WN_SEV_WARNING },
		{ "note:", WN_SEV_NOTE }, { "info:", WN_SEV_NOTE },
	};
	size_t w;

	for (w = 0; w < sizeof(words) / sizeof(words[0]); w++)
		if (wn_str_prefix_ci(s + *i, n - *i, words[w].w)) {
			*i += strlen(words[w].w);
			*sev = words[w].sev;
			return true;
		}
	/* rustc: "error[E0425]: ...", "warning[E0133]: ..." */
	for (w = 0; w < 2; w++) {
		const char *word = w ? "warning[" : "error[";
		size_t j = *i + strlen(word);

		if (!wn_str_prefix(s + *i, n - *i, word))
			continue;
		while (j < n && j - *i < 20 && s[j] != ']' && s[j] != ' ')
			j++;
		if (j + 1 < n && s[j] == ']' && s[j + 1] == ':') {
			*i = j + 2;
			*sev = w ? WN_SEV_WARNING : WN_SEV_ERROR;
			return true;
		}
	}
	return false;
}

/* "ld", "ld.lld", "/usr/bin/ld", "sparc-linux-ld", "s390x-linux-gnu-ld",
 * "arm-linux-gnueabi-ld.bfd": a linker by its name. */
static bool linker_name(const char *s, size_t n)
{
	const char *b = s + n;

	while (b > s && b[-1] != '/')
		b--;
	n -= (size_t) (b - s);
	for (size_t j = 0; j + 2 <= n; j++) {
		const char *x = b + j + 2;
		size_t xn = n - j - 2;

		if ((j == 0 || b[j - 1] == '-') && memcmp(b + j, "ld", 2) == 0 &&
		    (!xn || wn_str_eq(x, xn, ".lld") || wn_str_eq(x, xn, ".bfd") ||
		     wn_str_eq(x, xn, ".gold")))
			return true;
	}
	return false;
}

/* The tool that printed the line, named before it: a linker ("sparc-
 * linux-ld: "), or a tool whose next word is its verdict ("kismet:
 * WARNING: ", "depmod: ERROR: ", "make[6]: *** ").  The index past the
 * name, 0 when there is none; *ld tells a linker. */
size_t wn_lkp_tool_prefix(const char *s, size_t n, bool *ld)
{
	size_t i = 0, j;
	wn_severity sev;

	*ld = false;
	while (i < n && s[i] != ':' && s[i] != ' ' && s[i] != '\t' && s[i] != '(')
		i++;
	if (!i || i + 1 >= n || s[i] != ':' || s[i + 1] != ' ')
		return 0;
	j = i + 1;
	while (j < n && s[j] == ' ')
		j++;
	if (linker_name(s, i)) {
		*ld = true;
		return j;
	}
	for (size_t k = 0; k < i; k++)
		if (!wn_lkp_alpha((unsigned char) s[k]) && s[k] != '-' && s[k] != '_' &&
		    !(s[k] == '[' && k) && !(s[k] >= '0' && s[k] <= '9') && s[k] != ']')
			return 0;
	if (wn_str_prefix(s + j, n - j, "*** "))
		return j;
	i = j;
	return sev_word(s, n, &i, &sev) ? j : 0;
}

/* A diagnostic line.  loose: the line is new (">>"), so whatever it
 * says is one, with a path when it starts with one ("drivers/x.c:
 * linux/y.h is included more than once"). */
bool wn_lkp_parse_diag(const char *s, size_t n, struct diag *d, bool loose)
{
	size_t i = 0, sp;
	bool linker = false, sparse = false, pathy = false, ld = false;

	memset(d, 0, sizeof(*d));
	if ((sp = wn_lkp_tool_prefix(s, n, &ld))) {
		if (!ld) {
			d->tool = s;
			d->tool_n = (size_t) ((const char *) memchr(s, ':', sp) - s);
		}
		s += sp;
		n -= sp;
		if (wn_str_prefix(s, n, "*** ")) {
			/* make[6]: *** No rule to make target ... */
			d->sev = WN_SEV_ERROR;
			d->sev_explicit = true;
			d->msg = s + 4;
			d->msg_n = n - 4;
			wn_str_trim(&d->msg, &d->msg_n);
			return d->msg_n > 0;
		}
	}
	while (i < n && s[i] != ':' && s[i] != ' ' && s[i] != '\t')
		i++;
	if (i >= n || s[i] != ':' || !i)
		return loose && n ? (d->msg = s, d->msg_n = n, true) : false;
	d->path = s;
	d->path_n = i;
	for (sp = 0; sp < i; sp++)
		if (s[sp] == '/' || s[sp] == '.')
			pathy = true;
	/* "<stdin>", "<built-in>", "<command-line>": the compiler's own
	 * inputs, diagnostics like any other */
	if (s[0] == '<' && s[i - 1] == '>')
		pathy = true;
	i++;
	if (s[0] == '(' && s[i - 2] == ')') {
		/* the linker without a file: "(.text+0x44): undefined ..." */
		d->path = NULL;
		d->path_n = 0;
		linker = true;
	} else if (!pathy) {
		/* "ERROR: modpost: ..." has no path */
		d->path = NULL;
		d->path_n = 0;
		i = 0;
	} else if (wn_str_num(s, n, &i, &d->line)) {
		size_t j = i + 1;
		long col;

		if (i < n && s[i] == ':' && wn_str_num(s, n, &j, &col)) {
			size_t e = j + 1;

			/* coccinelle gives a column range: "12:6-12:" */
			if (j < n && s[j] == '-' && wn_str_num(s, n, &e, &col))
				j = e;
			i = j;
		}
		if (i < n && s[i] == ':') {
			i++;
		} else if (i < n && s[i] == ' ') {
			/* smatch: "path:12 func() warn: ..." */
			const char *p;

			while (i < n && s[i] == ' ')
				i++;
			p = wn_str_find(s + i, n - i, "() ");
			if (p && !memchr(s + i, ' ', (size_t) (p - (s + i)))) {
				d->func = s + i;
				d->func_n = (size_t) (p - (s + i));
				i = (size_t) (p - s) + 3;
			}
		}
	} else if (i < n && s[i] == '(') {
		const char *p = wn_str_find(s + i, n - i, "):");

		if (!p)
			return false;
		i = (size_t) (p - s) + 2;
		linker = true;
	} else if (loose) {
		/* versioncheck: "drivers/x.c: 24 linux/version.h not needed." */
		size_t j = i;
		long line;

		while (j < n && s[j] == ' ')
			j++;
		if (wn_str_num(s, n, &j, &line) && j < n && s[j] == ' ') {
			d->line = line;
			i = j;
		}
	}
	while (i < n && s[i] == ' ')
		i++;
	while (wn_str_prefix_ci(s + i, n - i, "sparse:")) {
		sparse = true;
		i += 7;
		for (sp = 0; i < n && s[i] == ' '; i++)
			sp++;
		if (sp > 1)
			d->sparse_cont = true;	/* "sparse:    expected ..." */
	}
	if (sev_word(s, n, &i, &d->sev))
		d->sev_explicit = true;
	else if (!d->path && (wn_str_prefix(s, n, "ERROR:") || wn_str_prefix(s, n, "WARNING:"))) {
		d->sev = s[0] == 'E' ? WN_SEV_ERROR : WN_SEV_WARNING;
		d->sev_explicit = true;
		i = s[0] == 'E' ? 6 : 8;
	} else if (ld || linker) {
		/* a link that fails is an error, whatever the section says */
		d->sev = WN_SEV_ERROR;
		d->sev_explicit = true;
	}
	d->msg = s + i;
	d->msg_n = n - i;
	wn_str_trim(&d->msg, &d->msg_n);
	if (!d->msg_n)
		return false;
	/* GNU ld's words, with or without its name before them, and its
	 * section after a source line: "x.c:12:(.text+0x44): undefined" */
	d->ld_ref = linker || wn_str_prefix(d->msg, d->msg_n, "undefined reference to") ||
		    (wn_str_prefix(d->msg, d->msg_n, "(.") && wn_str_find(d->msg, d->msg_n, "+0x"));
	if (!d->path && d->sev_explicit) {
		/* kernel-doc: "Warning: drivers/x.c:12 function parameter ..." */
		size_t e = 0;
		long line;

		while (e < d->msg_n && d->msg[e] != ':' && d->msg[e] != ' ')
			e++;
		sp = e + 1;
		if (e < d->msg_n && d->msg[e] == ':' && memchr(d->msg, '/', e) &&
		    wn_str_num(d->msg, d->msg_n, &sp, &line) &&
		    (sp == d->msg_n || d->msg[sp] == ' ' || d->msg[sp] == ':')) {
			d->path = d->msg;
			d->path_n = e;
			d->line = line;
		}
	}
	if (!d->path)
		return d->sev_explicit || loose;
	return d->line > 0 || d->sev_explicit || linker || sparse || loose;
}

static bool hex_digit(int ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static size_t hex_run(const char *s, size_t n, size_t i)
{
	while (i < n && hex_digit((unsigned char) s[i]))
		i++;
	return i;
}

/* What changes from one build to the next, out of the text finding i's
 * fingerprint is made of (its summary keeps all of it, its quote and
 * comment too): section offsets "(.text+0x44)", "foo()+0x4e/0x90",
 * addresses "0xffffffff81a2b3c4", and the folders of absolute paths
 * ("/tmp/kbuild-3f2a/drivers/x.o" is "x.o").  The same undefined
 * reference then keeps one fingerprint, and the verdict given to it.
 * Only for what the linker and the build's tools say. */
void wn_lkp_stable_text(struct rv_ctx *c, size_t at, const char *s)
{
	wn_buf b = WN_BUF_INIT;
	size_t n = strlen(s), i = 0;
	bool changed = false;

	while (i < n) {
		const char *close;
		size_t j;

		if (s[i] == '(' && (close = memchr(s + i, ')', n - i)) &&
		    wn_str_find(s + i, (size_t) (close - (s + i)), "+0x") &&
		    !memchr(s + i + 1, '(', (size_t) (close - (s + i + 1)))) {
			i = (size_t) (close - s) + 1;	/* "(.text+0x44)" */
			changed = true;
			continue;
		}
		if (wn_str_prefix(s + i, n - i, "+0x") && (j = hex_run(s, n, i + 3)) > i + 3) {
			if (wn_str_prefix(s + j, n - j, "/0x"))
				j = hex_run(s, n, j + 3);	/* "+0x4e/0x90" */
			i = j;
			changed = true;
			continue;
		}
		if (wn_str_prefix(s + i, n - i, "0x") &&
		    (!i || !str_ident_char((unsigned char) s[i - 1])) &&
		    (j = hex_run(s, n, i + 2)) > i + 2) {
			wn_rv_put(c, &b, "0x", 2);
			i = j;
			changed = true;
			continue;
		}
		if (s[i] == '/' && (!i || s[i - 1] == ' ' || s[i - 1] == '(' || s[i - 1] == '`' ||
				    s[i - 1] == '\'' || s[i - 1] == '"')) {
			size_t last = i;

			for (j = i; j < n && s[j] != ' ' && s[j] != ':' && s[j] != ',' && s[j] != ')' &&
			     s[j] != '\'' && s[j] != '`' && s[j] != '"'; j++)
				if (s[j] == '/')
					last = j;
			if (last > i) {
				changed = true;
				i = last + 1;
				continue;
			}
		}
		wn_rv_put(c, &b, s + i, 1);
		i++;
	}
	if (changed && !c->oom)
		wn_rv_fp_text(c, at, b.len ? b.data : "", b.len);
	wn_buf_free(&b);
}

/* The first two words of a message: the kind of thing it says. */
size_t wn_lkp_form_of(const char *m, size_t n)
{
	size_t i = 0;

	for (int w = 0; w < 2; w++) {
		while (i < n && m[i] == ' ')
			i++;
		while (i < n && m[i] != ' ')
			i++;
	}
	return i;
}
