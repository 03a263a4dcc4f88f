/* winnow — kernel test robot (0-day) build reports.
 *
 * After the greeting and the key/value block come sections such as
 * "All warnings (new ones prefixed by >>):", "smatch warnings:" or
 * "sparse warnings: (new ones prefixed by >>)".  Each new diagnostic is
 * a finding:
 *   >> drivers/x.c:12:5: warning: message [-Wflag]      gcc, clang
 *   >> drivers/x.c:12 func() warn: message              smatch
 *   >> drivers/x.c:12:5: sparse: sparse: message        sparse
 *   >> x.c:(.text+0x2): undefined reference to `y'      the linker
 *   >> sparc-linux-ld: x.c:12: undefined reference to `y'  the linker, named
 *   >> ld.lld: error: undefined symbol: y                 ... with its place
 *      >>> referenced by x.c:12 (drivers/x.c:12)          below
 *   >> kismet: WARNING: unmet direct dependencies ...     a tool, named
 *   >> make[6]: *** No rule to make target ...            make
 *   >> error[E0425]: cannot find value `y` in this scope  rustc, its place
 *      --> rust/kernel/x.rs:12:5                          below
 *   >> drivers/x.c: linux/y.h is included more than once  anything else
 * Source excerpts below a diagnostic and the "vim +12 drivers/x.c"
 * listing give the quote. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bots.h"
#include "lkp-family.h"
#include "lkp-place.h"
#include "seen.h"
#include "winnow/subject.h"

/* "kernel test robot", "kbuild test robot" (before 2020). */
static bool robot_name(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	str_trim(&name, &n);
	return n == 17 && (strncasecmp(name, "kernel test robot", n) == 0 ||
			   strncasecmp(name, "kbuild test robot", n) == 0);
}

/* lkp@intel.com, or a team member's own intel.com address under the
 * robot's display name ("kernel test robot <someone@intel.com>"): the
 * same reports, sent by hand. */
static enum rv_claim sent_by(const struct rv_mail *m)
{
	if (strcasecmp(m->from, "lkp@intel.com") == 0)
		return RV_MINE;
	return m->domain && str_host_in(m->domain, "intel.com") && robot_name(m->m->from_name)
	       ? RV_MINE : RV_NOT_MINE;
}

/* The robot's senders, as a notmuch query. */
#define LKP_FROM "(from:lkp@intel.com or (from:intel.com and " \
		 "(from:\"kernel test robot\" or from:\"kbuild test robot\")))"

/* Branch summaries: "[tree:branch] BUILD SUCCESS <sha>", "BUILD
 * SUCCESS WITH WARNING", "BUILD REGRESSION", "BUILD INCOMPLETE".
 * LKP_HIDDEN selects the same subjects. */
static const char *const summary_phrases[] = {
	"build success", "build regression", "build incomplete",
};

/* The robot's own patches ("[PATCH] x: fix boolreturn.cocci warnings",
 * "[RFC PATCH] x: foo() can be static"): a patch's subject, not a reply
 * to one (wn_subject_is_patch).  LKP_HIDDEN leaves out the forms the
 * robot sends as a regular expression, before loading; any other patch
 * subject is told here. */
static bool fixup_subject(const char *s)
{
	return wn_subject_is_patch(s);
}

#define LKP_HIDDEN LKP_FROM " and (subject:\"BUILD SUCCESS\" or subject:\"BUILD REGRESSION\" or " \
		   "subject:\"BUILD INCOMPLETE\" or subject:\"/^\\[(RFC )?PATCH/\")"

static wn_kind kind_of(const char *subject)
{
	size_t k;

	if (!subject)
		return WN_KIND_REVIEW;
	for (k = 0; k < sizeof(summary_phrases) / sizeof(summary_phrases[0]); k++)
		if (rv_phrase(subject, strlen(subject), summary_phrases[k]))
			return WN_KIND_SUMMARY;
	return fixup_subject(subject) ? WN_KIND_FIXUP : WN_KIND_REVIEW;
}

/* A 0-day report sent by a person rather than by lkp@intel.com: smatch
 * reports are checked and forwarded by hand, with the robot's text
 * unquoted ("tree: ... commit: ...", "| Reported-by: kernel test robot
 * <lkp@intel.com>", "New smatch warnings:", the 0-DAY CI footer).  A
 * reply that quotes a report has all of it behind '>' and is not one.
 * At most the head of the body is read: a report puts all of this first,
 * while a patch that pastes a report is told apart by its diff. */
static bool forwarded(const wn_mail *m)
{
	bool noticed = false, reported = false, section = false, footer = false;
	size_t lines = 0, pos = 0, n;
	const char *t;

	while (m->body && lines++ < 2000 && str_next_line(m->body, m->body_len, &pos, &t, &n)) {
		if (n && t[0] == '>')
			continue;
		/* A patch that fixes a reported warning may paste the
		 * report into its commit message: it carries a diff. */
		if (str_prefix(t, n, "diff --git "))
			return false;
		str_trim(&t, &n);
		if (lines <= 12 && str_prefix_ci(t, n, "kernel test robot noticed the following"))
			noticed = true;
		if (str_prefix(t, n, "| "))
			t += 2, n -= 2;
		if (str_prefix(t, n, "Reported-by: kernel test robot <lkp@intel.com>"))
			reported = true;
		if (str_prefix_ci(t, n, "smatch warnings:") || str_prefix_ci(t, n, "new smatch warnings:") ||
		    str_prefix_ci(t, n, "sparse warnings:") || str_prefix_ci(t, n, "all warnings (new ones") ||
		    str_prefix_ci(t, n, "all errors (new ones"))
			section = true;
		if (str_prefix(t, n, "0-DAY CI Kernel Test Service"))
			footer = true;
	}
	return reported && (noticed || section || footer);
}

static bool looks_like(const struct rv_mail *m)
{
	return !fixup_subject(m->subject) && forwarded(m->m);
}

enum sect { S_NONE, S_GCC, S_SMATCH, S_SPARSE, S_IGNORE };

#define MAX_QUOTE_LINES 12

struct lkp {
	struct rv_ctx *c;
	enum sect kind;
	bool take_all;			/* section without any ">>": every diagnostic */
	bool pre;			/* "Old smatch warnings:" */
	wn_severity dflt;
	struct lkp_place place;		/* "In function", include chain */
	bool have;			/* a finding takes context lines */
	size_t cur;			/* ... its index */
	wn_buf quote;
	size_t quote_lines;
	bool headings;
	size_t vims;			/* vim listings matched so far */
	const char *ld_fn;		/* the linker's "in function `foo':" */
	size_t ld_fn_n;
	/* The build tool whose line made the current finding ("kismet",
	 * "depmod", "make[5]"; not a linker) and the first words of what
	 * it said: see tool_continues(). */
	const char *tool, *form;
	size_t tool_n, form_n;
	struct rv_seen seen;		/* the diagnostics, each once */
	/* The compiler's "note:" lines under a diagnostic belong to it
	 * (where a macro was expanded, the previous definition): note_ok
	 * while the last diagnostic made finding note_for, noting while
	 * the lines of a note's code follow it. */
	bool note_ok, noting;
	size_t note_for, note_lines;
};

/* A report lists a handful of vim listings; matching each against every
 * finding must not go quadratic on a hostile mail. */
#define MAX_VIM_BLOCKS 64

struct diag {
	const char *path, *func, *msg;
	size_t path_n, func_n, msg_n;
	long line;
	wn_severity sev;
	bool sev_explicit, sparse_cont;
	bool ld_ref;			/* GNU ld's, in the function it named */
	const char *tool;		/* "kismet" of "kismet: WARNING: ..." */
	size_t tool_n;
};

static void end_context(struct lkp *k)
{
	if (k->have && k->quote.len && !k->c->oom && k->cur < k->c->r->nfindings &&
	    !k->c->r->findings[k->cur].quote)
		k->c->r->findings[k->cur].quote = rv_take(k->c, &k->quote);
	wn_buf_reset(&k->quote);
	k->quote_lines = 0;
	k->have = false;
	k->noting = false;
}

/* A line of the note (s[0..n), the note's own or its code) onto the
 * notes of the finding it belongs to. */
static void note_line(struct lkp *k, const char *s, size_t n)
{
	struct rv_ctx *c = k->c;
	wn_finding *f;
	wn_buf b = WN_BUF_INIT;

	if (c->oom || k->note_for >= c->r->nfindings || k->note_lines >= MAX_QUOTE_LINES)
		return;
	f = &c->r->findings[k->note_for];
	if (f->notes) {
		rv_put(c, &b, f->notes, strlen(f->notes));
		rv_put(c, &b, "\n", 1);
	}
	rv_put(c, &b, s, n);
	free(f->notes);
	f->notes = rv_take(c, &b);
	k->note_lines++;
}

static void add_context(struct lkp *k, const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (k->noting) {
		note_line(k, s, n);
		return;
	}
	if (!k->have || k->quote_lines >= MAX_QUOTE_LINES)
		return;
	if (k->quote.len)
		rv_put(k->c, &k->quote, "\n", 1);
	rv_put(k->c, &k->quote, s, n);
	k->quote_lines++;
}

/* The word a heading names its section by: "errors", "warnings",
 * "error/warnings" (and singulars). */
static bool section_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"errors", "warnings", "error/warnings", "errors/warnings", "error", "warning",
		"error/warning", "warnings/errors",
	};

	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (n == strlen(words[k]) && str_prefix_ci(w, n, words[k]))
			return true;
	return false;
}

static bool alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* Section headings, in every form the robot has used: "All errors (new
 * ones prefixed by >>):", "All warnings", "All error/warnings (new ones
 * prefixed by >>, old ones prefixed by <<):", "sparse warnings: (new
 * ones prefixed by >>)", "smatch warnings:", "New smatch warnings:",
 * "cocci warnings:", "Kconfig warnings: (for reference only)", and any
 * checker's "<name> warnings:" ("clang-analyzer warnings:").  At most three words of letters come
 * before the section word, so neither a diagnostic ("drivers/x.c:12:
 * warning: ...") nor the greeting ("kernel test robot noticed the
 * following build warnings:") reads as one. */
static bool heading(struct lkp *k, const char *t, size_t tn)
{
	size_t i = 0, words = 0, b = 0;
	const char *rest;
	size_t rn;
	bool err;

	/* A template slip left some as shell: echo "sparse warnings: ..." */
	if (str_prefix(t, tn, "echo \"") && tn > 7 && t[tn - 1] == '"') {
		t += 6;
		tn -= 7;
	}
	/* ... and 2020 reports without the echo: "\"sparse warnings: ...\"" */
	if (tn > 2 && t[0] == '"' && t[tn - 1] == '"') {
		t++;
		tn -= 2;
	}
	if (tn < 6 || tn > 120)
		return false;
	for (;;) {
		b = i;
		while (i < tn && (alpha((unsigned char) t[i]) || t[i] == '/' || (i > b && t[i] == '-')))
			i++;
		if (i == b)
			return false;
		if (section_word(t + b, i - b))
			break;
		if (memchr(t + b, '/', i - b) || ++words > 3 || i >= tn || t[i] != ' ')
			return false;
		i++;
	}
	rest = t + i;
	rn = tn - i;
	str_trim(&rest, &rn);
	/* "All errors" may stand alone; any other needs its ':' or its
	 * "(new ones prefixed by >>)". */
	if (!(rn ? rest[0] == ':' || rest[0] == '(' : str_prefix_ci(t, tn, "all ")))
		return false;
	if (!words)
		return false;	/* a bare "Errors:" is prose */
	err = str_find_ci(t + b, i - b, "error") && !str_find_ci(t + b, i - b, "warning");
	k->headings = true;
	k->pre = str_prefix_ci(t, tn, "old ");
	k->dflt = err ? WN_SEV_ERROR : WN_SEV_WARNING;
	if (str_prefix_ci(t, tn, "kconfig") || str_find_ci(t, tn, "for reference only"))
		k->kind = S_IGNORE;
	else if (str_find_ci(t, b, "smatch"))
		k->kind = S_SMATCH;
	else if (str_find_ci(t, b, "sparse"))
		k->kind = S_SPARSE;
	else
		k->kind = S_GCC;
	return true;
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
		if (str_prefix_ci(s + *i, n - *i, words[w].w)) {
			*i += strlen(words[w].w);
			*sev = words[w].sev;
			return true;
		}
	/* rustc: "error[E0425]: ...", "warning[E0133]: ..." */
	for (w = 0; w < 2; w++) {
		const char *word = w ? "warning[" : "error[";
		size_t j = *i + strlen(word);

		if (!str_prefix(s + *i, n - *i, word))
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
		    (!xn || str_eq(x, xn, ".lld") || str_eq(x, xn, ".bfd") || str_eq(x, xn, ".gold")))
			return true;
	}
	return false;
}

/* The tool that printed the line, named before it: a linker ("sparc-
 * linux-ld: "), or a tool whose next word is its verdict ("kismet:
 * WARNING: ", "depmod: ERROR: ", "make[6]: *** ").  The index past the
 * name, 0 when there is none; *ld tells a linker. */
static size_t tool_prefix(const char *s, size_t n, bool *ld)
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
		if (!alpha((unsigned char) s[k]) && s[k] != '-' && s[k] != '_' &&
		    !(s[k] == '[' && k) && !(s[k] >= '0' && s[k] <= '9') && s[k] != ']')
			return 0;
	if (str_prefix(s + j, n - j, "*** "))
		return j;
	i = j;
	return sev_word(s, n, &i, &sev) ? j : 0;
}

/* A diagnostic line.  loose: the line is new (">>"), so whatever it
 * says is one, with a path when it starts with one ("drivers/x.c:
 * linux/y.h is included more than once"). */
static bool parse_diag(const char *s, size_t n, struct diag *d, bool loose)
{
	size_t i = 0, sp;
	bool linker = false, sparse = false, pathy = false, ld = false;

	memset(d, 0, sizeof(*d));
	if ((sp = tool_prefix(s, n, &ld))) {
		if (!ld) {
			d->tool = s;
			d->tool_n = (size_t) ((const char *) memchr(s, ':', sp) - s);
		}
		s += sp;
		n -= sp;
		if (str_prefix(s, n, "*** ")) {
			/* make[6]: *** No rule to make target ... */
			d->sev = WN_SEV_ERROR;
			d->sev_explicit = true;
			d->msg = s + 4;
			d->msg_n = n - 4;
			str_trim(&d->msg, &d->msg_n);
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
	} else if (str_num(s, n, &i, &d->line)) {
		size_t j = i + 1;
		long col;

		if (i < n && s[i] == ':' && str_num(s, n, &j, &col)) {
			size_t e = j + 1;

			/* coccinelle gives a column range: "12:6-12:" */
			if (j < n && s[j] == '-' && str_num(s, n, &e, &col))
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
			p = str_find(s + i, n - i, "() ");
			if (p && !memchr(s + i, ' ', (size_t) (p - (s + i)))) {
				d->func = s + i;
				d->func_n = (size_t) (p - (s + i));
				i = (size_t) (p - s) + 3;
			}
		}
	} else if (i < n && s[i] == '(') {
		const char *p = str_find(s + i, n - i, "):");

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
		if (str_num(s, n, &j, &line) && j < n && s[j] == ' ') {
			d->line = line;
			i = j;
		}
	}
	while (i < n && s[i] == ' ')
		i++;
	while (str_prefix_ci(s + i, n - i, "sparse:")) {
		sparse = true;
		i += 7;
		for (sp = 0; i < n && s[i] == ' '; i++)
			sp++;
		if (sp > 1)
			d->sparse_cont = true;	/* "sparse:    expected ..." */
	}
	if (sev_word(s, n, &i, &d->sev))
		d->sev_explicit = true;
	else if (!d->path && (str_prefix(s, n, "ERROR:") || str_prefix(s, n, "WARNING:"))) {
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
	str_trim(&d->msg, &d->msg_n);
	if (!d->msg_n)
		return false;
	/* GNU ld's words, with or without its name before them, and its
	 * section after a source line: "x.c:12:(.text+0x44): undefined" */
	d->ld_ref = linker || str_prefix(d->msg, d->msg_n, "undefined reference to") ||
		    (str_prefix(d->msg, d->msg_n, "(.") && str_find(d->msg, d->msg_n, "+0x"));
	if (!d->path && d->sev_explicit) {
		/* kernel-doc: "Warning: drivers/x.c:12 function parameter ..." */
		size_t e = 0;
		long line;

		while (e < d->msg_n && d->msg[e] != ':' && d->msg[e] != ' ')
			e++;
		sp = e + 1;
		if (e < d->msg_n && d->msg[e] == ':' && memchr(d->msg, '/', e) &&
		    str_num(d->msg, d->msg_n, &sp, &line) && (sp == d->msg_n || d->msg[sp] == ' ' ||
							  d->msg[sp] == ':')) {
			d->path = d->msg;
			d->path_n = e;
			d->line = line;
		}
	}
	if (!d->path)
		return d->sev_explicit || loose;
	return d->line > 0 || d->sev_explicit || linker || sparse || loose;
}

/* "   sparc-linux-ld: drivers/x.o: in function `foo':": the linker
 * names the function the references below it are made from. */
static bool ld_function(struct lkp *k, const char *s, size_t n)
{
	bool ld;
	size_t i = tool_prefix(s, n, &ld);
	const char *p, *name;

	if (!ld || !(p = str_find(s + i, n - i, ": in function ")))
		return false;
	name = p + 14;
	if (name < s + n && (*name == '`' || *name == '\''))
		name++;
	k->ld_fn = name;
	for (k->ld_fn_n = 0; name + k->ld_fn_n < s + n &&
	     str_ident_char((unsigned char) name[k->ld_fn_n]); k->ld_fn_n++)
		;
	return true;
}

/* ld.lld's ">>>               drivers/x.o:(foo) in archive vmlinux.a":
 * the function of the reference above. */
static void lld_function(struct lkp *k, const char *s, size_t n)
{
	struct rv_ctx *c = k->c;
	const char *p = str_find(s, n, ".o:("), *e;

	if (!p || !k->have || k->cur >= c->r->nfindings || c->r->findings[k->cur].function)
		return;
	p += 4;
	for (e = p; e < s + n && str_ident_char((unsigned char) *e); e++)
		;
	if (e > p && e < s + n && *e == ')')
		c->r->findings[k->cur].function = rv_dup(c, p, (size_t) (e - p));
}

/* Where a diagnostic printed without a place is, from the line below
 * it: rustc's "--> rust/kernel/x.rs:12:5", ld.lld's ">>> referenced by
 * x.c:12 (drivers/x.c:12)" (or ">>> referenced by x.c" alone) and the
 * object and function on the line after that. */
static bool place_below(struct lkp *k, const char *s, size_t n)
{
	struct rv_ctx *c = k->c;
	wn_finding *f;
	const char *p;
	size_t e, j;
	long line = 0;

	if (str_prefix(s, n, ">>> ") && !str_prefix(s, n, ">>> referenced by ")) {
		lld_function(k, s, n);
		return true;
	}
	if (str_prefix(s, n, "--> ")) {
		s += 4;
		n -= 4;
	} else if (str_prefix(s, n, ">>> referenced by ")) {
		s += 18;
		n -= 18;
		if ((p = memchr(s, '(', n)) && s[n - 1] == ')') {
			n = (size_t) (s + n - 1 - (p + 1));
			s = p + 1;
		}
	} else {
		return false;
	}
	if (!k->have || k->cur >= c->r->nfindings || c->oom)
		return true;
	f = &c->r->findings[k->cur];
	if (f->file)
		return true;
	str_trim(&s, &n);
	for (e = 0; e < n && s[e] != ':' && s[e] != ' '; e++)
		;
	if (!e)
		return true;
	j = e + 1;
	if (e < n && s[e] == ':')
		str_num(s, n, &j, &line);
	f->file = rv_dup(c, s, e);
	f->line = (int) line;
	return true;
}

/* "drivers/x.c: In function 'foo':" (quotes may be typographic) */
static bool in_function(struct lkp *k, const char *t, size_t tn)
{
	const char *p = str_find(t, tn, ": In function ");
	const char *name, *e;

	if (!p) {
		if (str_find(t, tn, ": At top level:") || str_find(t, tn, ": In member function")) {
			k->place.fn = NULL;
			return true;
		}
		return false;
	}
	name = p + 14;
	if (name < t + tn && *name == '\'')
		name++;
	else if (t + tn - name >= 3 && memcmp(name, "\xe2\x80\x98", 3) == 0)
		name += 3;
	for (e = name; e < t + tn && str_ident_char((unsigned char) *e); e++)
		;
	k->place.fn_file = (struct lkp_site) { t, (size_t) (p - t), 0 };
	k->place.fn = e > name ? name : NULL;
	k->place.fn_n = (size_t) (e - name);
	return true;
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
static void stable_text(struct rv_ctx *c, size_t at, const char *s)
{
	wn_buf b = WN_BUF_INIT;
	size_t n = strlen(s), i = 0;
	bool changed = false;

	while (i < n) {
		const char *close;
		size_t j;

		if (s[i] == '(' && (close = memchr(s + i, ')', n - i)) &&
		    str_find(s + i, (size_t) (close - (s + i)), "+0x") &&
		    !memchr(s + i + 1, '(', (size_t) (close - (s + i + 1)))) {
			i = (size_t) (close - s) + 1;	/* "(.text+0x44)" */
			changed = true;
			continue;
		}
		if (str_prefix(s + i, n - i, "+0x") && (j = hex_run(s, n, i + 3)) > i + 3) {
			if (str_prefix(s + j, n - j, "/0x"))
				j = hex_run(s, n, j + 3);	/* "+0x4e/0x90" */
			i = j;
			changed = true;
			continue;
		}
		if (str_prefix(s + i, n - i, "0x") && (!i || !str_ident_char((unsigned char) s[i - 1])) &&
		    (j = hex_run(s, n, i + 2)) > i + 2) {
			rv_put(c, &b, "0x", 2);
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
		rv_put(c, &b, s + i, 1);
		i++;
	}
	if (changed && !c->oom)
		rv_fp_text(c, at, b.len ? b.data : "", b.len);
	wn_buf_free(&b);
}

/* The first two words of a message: the kind of thing it says. */
static size_t form_of(const char *m, size_t n)
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

/* Does line l (s[0..n) without its ">>" and blanks) continue the build
 * tool's finding above it?  Its quote then keeps the lines the tool
 * printed under its first: kconfig's block under kismet's warning
 * ("WARNING: unmet direct dependencies detected for X", "Depends on
 * [n]: ...", "Selected by [y]:", "- Y [=y] && ..."), depmod's "Found 2
 * modules in dependency cycles!" under its cycle.  Such a line is
 * indented and unmarked, and either no diagnostic with a place or the
 * same tool saying something else; the same tool saying the same kind
 * of thing is another, older diagnostic, and a compiler's line with a
 * path is nothing of the tool's. */
static bool tool_continues(const struct lkp *k, const struct rv_line *l, const char *s, size_t n)
{
	struct diag d;
	size_t form;

	if (!k->have || !k->tool_n || !l->n || (l->s[0] != ' ' && l->s[0] != '\t'))
		return false;
	if (!parse_diag(s, n, &d, false))
		return true;
	if (!d.tool_n)
		return !d.path;
	form = form_of(d.msg, d.msg_n);
	return d.tool_n == k->tool_n && memcmp(d.tool, k->tool, d.tool_n) == 0 &&
	       !(form == k->form_n && memcmp(d.msg, k->form, form) == 0);
}

static void finding(struct lkp *k, const struct diag *d, const char *raw, size_t rn)
{
	struct rv_ctx *c = k->c;
	wn_finding *f;

	end_context(k);
	k->tool = d->tool;
	k->tool_n = d->tool_n;
	k->form = d->msg;
	k->form_n = form_of(d->msg, d->msg_n);
	f = rv_add(c, true);
	if (!f)
		return;
	f->severity = d->sev_explicit ? d->sev : k->dflt;
	f->preexisting = k->pre;
	{
		/* sparse appends "@@ expected T @@ got U @@" to its message;
		 * the types are detail for the comment, not the summary. */
		const char *at = str_find(d->msg, d->msg_n, " @@");
		size_t sn = at && at > d->msg ? (size_t) (at - d->msg) : d->msg_n;

		f->summary = rv_oneline(c, d->msg, sn, RV_SUMMARY_MAX);
	}
	f->comment = rv_oneline(c, raw, rn, RV_NO_CUT);
	if (d->path)
		f->file = rv_dup(c, d->path, d->path_n);
	f->line = (int) d->line;
	if (d->func_n)
		f->function = rv_dup(c, d->func, d->func_n);
	else if (d->path && k->place.fn && k->place.fn_file.path_n == d->path_n &&
		 memcmp(k->place.fn_file.path, d->path, d->path_n) == 0)
		f->function = rv_dup(c, k->place.fn, k->place.fn_n);
	k->have = true;
	k->cur = c->r->nfindings - 1;
	k->note_ok = true;
	k->note_for = k->cur;
	k->note_lines = 0;
	/* A compiler's message at a source line is the problem itself: a
	 * constant in it ("changes value from '0x100000000'") stays. */
	if (f->summary && (!d->line || d->ld_ref))
		stable_text(c, k->cur, f->summary);
	if (d->ld_ref && k->ld_fn_n && !f->function) {
		/* Shown, not hashed: the fingerprints of references read
		 * before the linker's function was were made without it. */
		rv_fp_pin(c, k->cur);
		f->function = rv_dup(c, k->ld_fn, k->ld_fn_n);
	}
	/* A note is about the diagnostic above it, not a new place. */
	if (!(d->sev_explicit && d->sev == WN_SEV_NOTE))
		lkp_place_finding(&k->place, c, k->cur);
}

/* One finding per distinct diagnostic: the same text (path, line,
 * column, message) printed again for another include chain or another
 * config only counts another time, and its excerpt is not taken. */
static void diagnostic(struct lkp *k, const struct diag *d, const char *raw, size_t rn)
{
	bool oom = false;

	if (rv_seen_add(&k->seen, raw, rn, k->c->r->nfindings, &oom)) {
		end_context(k);
		k->note_ok = false;	/* its notes came with it the first time */
		return;
	}
	if (oom)
		k->c->oom = true;
	else
		finding(k, d, raw, rn);
}

/* A diagnostic line, new (">>") or not: a finding, the place of the
 * finding above it ("note: in expansion of macro"), or the continuation
 * of a sparse message. */
static void diag_line(struct lkp *k, const struct diag *d, bool marked, const char *s, size_t sn)
{
	if (d->sparse_cont) {
		add_context(k, s, sn);
		return;
	}
	if (d->sev_explicit && d->sev == WN_SEV_NOTE && d->path &&
	    (str_find(d->msg, d->msg_n, "in expansion of macro") ||
	     str_find(d->msg, d->msg_n, "in definition of macro")))
		lkp_place_note(&k->place, k->c, d->path, d->path_n, d->line);
	if (marked || (k->take_all && (k->kind != S_GCC || d->sev_explicit))) {
		diagnostic(k, d, s, sn);
	} else if (d->sev_explicit && d->sev == WN_SEV_NOTE && k->note_ok) {
		end_context(k);
		note_line(k, s, sn);
		k->noting = true;
	} else {
		end_context(k);
		k->note_ok = false;
	}
}

/* A finding has one slot (a text that made no finding can share its
 * number with the next one, and then both add their line): the order
 * of the slots is hardly ever the order of anything shown. */
static void repeat(const struct rv_seen_slot *e, void *arg)
{
	struct lkp *k = arg;

	if (e->count > 1 && e->at < k->c->r->nfindings)
		rv_add_detail(k->c, &k->c->r->findings[e->at], "reported %u times", e->count);
}

static void repeats(struct lkp *k)
{
	rv_seen_each(&k->seen, repeat, k);
}

static bool signature(const struct rv_lines *L, size_t i);

/* The robot's own lines that may follow a listing: where the marked
 * line came from (":::::: The code at line 408 was first introduced by
 * commit"), how to fetch that tree ("# https://...", "git remote add
 * ..."), a rule ("---"). */
static bool robot_after_listing(const char *s, size_t n)
{
	return str_prefix(s, n, ":::") || str_prefix(s, n, "#") || str_prefix(s, n, "git ") ||
	       str_prefix(s, n, "---");
}

/* Prose after a listing, up to the next listing or the signature, that
 * is none of the robot's: a person who forwards the report says there
 * what is wrong ("ret is still zero when dma_pool_create() fails, so
 * probe returns success with no pool.").  It joins the comment of the
 * finding the listing quoted.  Returns the last line it read. */
static size_t remark(struct lkp *k, const struct rv_lines *L, size_t j, wn_finding *fd)
{
	struct rv_ctx *c = k->c;
	wn_buf b = WN_BUF_INIT;
	size_t last = j;
	bool para = false, robot = false;

	/* The rest of the listing: up to its first blank line. */
	for (j++; j < L->n; j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n;

		str_trim(&s, &n);
		if (!n)
			break;
		last = j;
	}
	for (; j < L->n && !signature(L, j); j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n;

		str_trim(&s, &n);
		if (str_prefix(s, n, "vim +") || str_eq(s, n, "--"))
			break;
		if (!n) {
			para = false;
			continue;
		}
		if (!para)	/* a paragraph is the robot's by its first line */
			robot = robot_after_listing(s, n);
		if (!robot) {
			if (b.len)
				rv_put(c, &b, para ? "\n" : "\n\n", para ? 1 : 2);
			rv_put(c, &b, s, n);
		}
		para = true;
		last = j;
	}
	if (b.len && fd) {
		wn_buf all = WN_BUF_INIT;
		char *text;

		if (fd->comment) {
			rv_put(c, &all, fd->comment, strlen(fd->comment));
			rv_put(c, &all, "\n\n", 2);
		}
		rv_put(c, &all, b.data, b.len);
		if ((text = rv_take(c, &all))) {
			free(fd->comment);
			fd->comment = text;
		}
		wn_buf_free(&all);
	}
	wn_buf_free(&b);
	return last;
}

/* "vim +123 path" / "vim +/sym +123 path": the listing that follows
 * marks the line ("> 123" or "@123"); it becomes the quote of that
 * diagnostic when the diagnostic brought no excerpt of its own. */
static size_t vim_block(struct lkp *k, const struct rv_lines *L, size_t i)
{
	struct rv_ctx *c = k->c;
	const struct rv_line *l = &L->v[i];
	const char *t = l->s, *path = NULL;
	size_t tn = l->n, j, path_n = 0, first;
	long line = 0;

	str_trim(&t, &tn);
	for (j = 4; j < tn;) {
		size_t b;

		while (j < tn && t[j] == ' ')
			j++;
		b = j;
		while (j < tn && t[j] != ' ')
			j++;
		if (t[b] == '+' && b + 1 < j && t[b + 1] != '/') {
			size_t x = b + 1;

			str_num(t, tn, &x, &line);
		} else if (j > b) {
			path = t + b;
			path_n = j - b;
		}
	}
	first = i + 1;
	for (j = i + 1; j < L->n; j++) {
		const char *s = L->v[j].s;
		size_t n = L->v[j].n, x;
		const char *at;
		bool mark;

		str_trim(&s, &n);
		if (!n && j == first) {
			first++;	/* the blank line under "vim +..." */
			continue;
		}
		if (!n || str_prefix(s, n, "vim +") || str_prefix(s, n, "--"))
			break;
		at = str_find(s, n, " @");
		x = at ? (size_t) (at - s) + 2 : 0;
		mark = (s[0] == '>' && n > 2 && s[1] == ' ' && s[2] >= '0' && s[2] <= '9') ||
		       (at && x < n && s[x] >= '0' && s[x] <= '9');
		if (!mark)
			continue;
		if (k->vims++ < MAX_VIM_BLOCKS) {
			size_t f, from = j >= first + 3 ? j - 3 : first;
			wn_buf q = WN_BUF_INIT;
			wn_finding *quoted = NULL;

			for (f = 0; f < c->r->nfindings; f++) {
				wn_finding *fd = &c->r->findings[f];
				size_t m;

				if (fd->quote || fd->line != line || !fd->file || !path ||
				    strlen(fd->file) != path_n || memcmp(fd->file, path, path_n))
					continue;
				for (m = from; m <= j; m++) {
					const char *ls = L->v[m].s;
					size_t ln = L->v[m].n;

					while (ln && (ls[ln - 1] == ' ' || ls[ln - 1] == '\t'))
						ln--;
					if (q.len)
						rv_put(c, &q, "\n", 1);
					rv_put(c, &q, ls, ln);
				}
				fd->quote = rv_take(c, &q);
				quoted = fd;
				break;
			}
			wn_buf_free(&q);
			return remark(k, L, j, quoted);
		}
		return j;
	}
	return j > i + 1 ? j - 1 : i;
}

/* Does the section starting after line i hold any ">>" diagnostic? */
static bool section_marked(const struct rv_lines *L, size_t i, struct lkp *probe)
{
	for (i++; i < L->n; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n;

		if (str_prefix(t, tn, ">>"))
			return true;
		str_trim(&t, &tn);
		if (str_prefix(t, tn, "vim +") || str_eq(L->v[i].s, L->v[i].n, "-- ") ||
		    heading(probe, t, tn))
			return false;
	}
	return false;
}

/* "-- " then "0-DAY CI Kernel Test Service" ends the report; a bare
 * "--" inside a section only separates the outputs of two files. */
static bool signature(const struct rv_lines *L, size_t i)
{
	size_t j;

	if (str_eq(L->v[i].s, L->v[i].n, "-- "))
		return true;
	if (!str_eq(L->v[i].s, L->v[i].n, "--"))
		return false;
	for (j = i + 1; j < L->n && j <= i + 2; j++)
		if (str_find_ci(L->v[j].s, L->v[j].n, "0-DAY") ||
		    str_find_ci(L->v[j].s, L->v[j].n, "Test Service"))
			return true;
	return false;
}

/* "patch link:    https://lore.kernel.org/r/<id with %40>": the patch's
 * own Message-ID, the link the robot trusts most. */
static void patch_link(struct rv_ctx *c, const char *t, size_t tn)
{
	const char *seg;
	size_t e = 0;

	while (e < tn && t[e] != ' ' && t[e] != '\t')
		e++;
	while (e && t[e - 1] == '/')
		e--;
	for (seg = t + e; seg > t && seg[-1] != '/'; seg--)
		;
	if (seg < t + e && (memchr(seg, '@', (size_t) (t + e - seg)) ||
			     str_find_ci(seg, (size_t) (t + e - seg), "%40")) && !c->r->patch_id)
		c->r->patch_id = rv_msgid(c, seg, (size_t) (t + e - seg));
}

/* "url: .../commits/Author-Name/subject-words/20231113-034453": the
 * branch the robot made of the patch, named after the time it did, in
 * its own zone (UTC+8).  The patch was posted before it. */
static void branch_time(struct rv_ctx *c, const char *t, size_t tn)
{
	char stamp[16];
	struct tm tm;
	int n = 0;

	while (tn && t[tn - 1] == '/')
		tn--;
	if (tn < 15)
		return;
	memcpy(stamp, t + tn - 15, 15);
	stamp[15] = '\0';
	memset(&tm, 0, sizeof(tm));
	if (sscanf(stamp, "%4d%2d%2d-%2d%2d%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec, &n) != 6 || n != 15 || tm.tm_year < 1990 || tm.tm_mon < 1 ||
	    tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	c->r->posted_before = timegm(&tm) - 8 * 3600;
}

/* "[22/28] " after a tree report's commit id is the commit's place in
 * the branch, not part of its title: the index past it. */
static size_t branch_position(const char *t, size_t tn, size_t k)
{
	size_t j = k;

	while (j < tn && t[j] == ' ')
		j++;
	if (j >= tn || t[j] != '[')
		return k;
	for (j++; j < tn && ((t[j] >= '0' && t[j] <= '9') || t[j] == '/'); j++)
		;
	return j + 1 < tn && t[j] == ']' && t[j + 1] == ' ' ? j + 1 : k;
}

/* What the key/value block says about the patch: "patch subject: [PATCH
 * v2 3/5] x: y" in a reply to a patch, "commit: <sha> x: y" in a tree
 * report, "patch link:" with its Message-ID, the "url:" branch with the
 * time the robot took it.  They link a report whose threading was lost,
 * or a tree report, to the patch mail. */
static void report_refs(struct rv_ctx *c, const struct rv_lines *L)
{
	size_t i;

	for (i = 0; i < L->n && i < 60; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n, k = 0;

		str_trim(&t, &tn);
		if (str_prefix(t, tn, "patch link:") || str_prefix(t, tn, "url:")) {
			bool link = t[0] == 'p';

			k = link ? 11 : 4;
			t += k;
			tn -= k;
			str_trim(&t, &tn);
			if (link)
				patch_link(c, t, tn);
			else if (!c->r->posted_before)
				branch_time(c, t, tn);
			continue;
		}
		if (str_prefix(t, tn, "patch subject:")) {
			k = 14;
		} else if (str_prefix(t, tn, "commit:")) {
			k = 7;
			while (k < tn && t[k] == ' ')
				k++;
			while (k < tn && t[k] != ' ')
				k++;	/* the commit id */
			k = branch_position(t, tn, k);
		} else {
			continue;
		}
		t += k;
		tn -= k;
		str_trim(&t, &tn);
		if (tn && !c->r->patch_subject)
			c->r->patch_subject = rv_oneline(c, t, tn, RV_NO_CUT);
	}
}

/* The key/value block's lines a fix's author needs: the config, the
 * compiler (rustc for Rust), how to reproduce the build. */
static const char *const facts[] = { "config:", "compiler:", "rustc:", "reproduce", NULL };

static void parse(struct rv_ctx *c, const struct rv_lines *L)
{
	struct lkp k, probe;
	size_t i;

	c->r->kind = kind_of(c->in->subject);
	if (c->r->kind != WN_KIND_REVIEW) {
		rv_explain(c, c->r->kind == WN_KIND_SUMMARY
			   ? "a kernel test robot branch summary, not a review of a patch"
			   : "a patch the kernel test robot sent itself, not a review");
		return;
	}
	memset(&k, 0, sizeof(k));
	k.c = c;
	report_refs(c, L);
	/* what a fix's author needs to build it again */
	rv_report_facts(c, L, 0, 60, facts);
	/* "| Reported-by: kernel test robot <lkp@intel.com>", "| Closes:" */
	rv_asked_tags(c, L, 0, L->n);
	for (i = 0; i < L->n && !c->oom; i++) {
		const struct rv_line *l = &L->v[i];
		const char *t = l->s, *s;
		size_t tn = l->n, sn;
		bool marked;
		struct diag d;

		if (signature(L, i))
			break;
		str_trim(&t, &tn);
		if (heading(&k, t, tn)) {
			end_context(&k);
			k.note_ok = false;
			lkp_place_reset(&k.place);
			k.ld_fn_n = 0;
			memset(&probe, 0, sizeof(probe));
			k.take_all = !section_marked(L, i, &probe);
			continue;
		}
		if (str_prefix(t, tn, "vim +")) {
			end_context(&k);
			k.note_ok = false;
			k.kind = S_NONE;
			i = vim_block(&k, L, i);
			continue;
		}
		if (k.kind == S_NONE || k.kind == S_IGNORE)
			continue;
		if (str_eq(t, tn, "--")) {
			end_context(&k);
			k.note_ok = false;
			lkp_place_reset(&k.place);
			k.ld_fn_n = 0;
			continue;
		}
		/* ">>>" opens ld.lld's lines under its error, not a new one */
		marked = str_prefix(l->s, l->n, ">>") && !str_prefix(l->s, l->n, ">>>");
		s = marked ? l->s + 2 : l->s;
		sn = marked ? l->n - 2 : l->n;
		if (str_prefix(l->s, l->n, "<<"))
			continue;	/* fixed by the patch */
		str_trim(&s, &sn);
		if (!sn) {
			/* gcc excerpts hold no blank lines: a blank ends one */
			end_context(&k);
			k.note_ok = false;
			continue;
		}
		if (str_prefix(s, sn, "In file included from") || str_prefix(s, sn, "from ")) {
			end_context(&k);
			lkp_place_chain(&k.place, s, sn, s[0] == 'I');
			continue;
		}
		if (in_function(&k, s, sn) || str_find(s, sn, " generated.")) {
			end_context(&k);
			k.note_ok = false;
			continue;
		}
		if (ld_function(&k, s, sn)) {
			end_context(&k);
			continue;
		}
		if (place_below(&k, s, sn)) {
			add_context(&k, l->s, l->n);
			continue;
		}
		if (!marked && tool_continues(&k, l, s, sn)) {
			add_context(&k, l->s, l->n);
			continue;
		}
		if (parse_diag(s, sn, &d, marked)) {
			diag_line(&k, &d, marked, s, sn);
			continue;
		}
		if (l->s[0] == ' ' || l->s[0] == '\t' || l->s[0] == '|')
			add_context(&k, l->s, l->n);
		else
			end_context(&k);
	}
	end_context(&k);
	wn_buf_free(&k.quote);
	repeats(&k);
	rv_seen_free(&k.seen);
	lkp_families(c);
	if (!c->r->nfindings)
		rv_explain(c, k.headings ? "kernel test robot report without new (>>) diagnostics"
					 : "kernel test robot mail without a warnings/errors section");
}

const struct rv_bot rv_bot_LKP = {
	.sender = "lkp@intel.com (Intel's kernel test robot)",
	.sent_by = sent_by,
	.looks_like = looks_like,
	.parse = parse,
	.query = LKP_FROM,
	.hidden = LKP_HIDDEN,
	.link_marker = "Closes:",		/* "| Closes: https://lore..." */
};
