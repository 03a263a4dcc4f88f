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
#include "lkp-private.h"
#include "seen.h"
#include "winnow/subject.h"

/* "kernel test robot", "kbuild test robot" (before 2020). */
static bool robot_name(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	wn_str_trim(&name, &n);
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
	return m->domain && wn_str_host_in(m->domain, "intel.com") && robot_name(m->m->from_name) ?
		       RV_MINE :
		       RV_NOT_MINE;
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
		if (wn_rv_phrase(subject, strlen(subject), summary_phrases[k]))
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

	while (m->body && lines++ < 2000 && wn_str_next_line(m->body, m->body_len, &pos, &t, &n)) {
		if (n && t[0] == '>')
			continue;
		/* A patch that fixes a reported warning may paste the
		 * report into its commit message: it carries a diff. */
		if (wn_str_prefix(t, n, "diff --git "))
			return false;
		wn_str_trim(&t, &n);
		if (lines <= 12 &&
		    wn_str_prefix_ci(t, n, "kernel test robot noticed the following"))
			noticed = true;
		if (wn_str_prefix(t, n, "| "))
			t += 2, n -= 2;
		if (wn_str_prefix(t, n, "Reported-by: kernel test robot <lkp@intel.com>"))
			reported = true;
		if (wn_str_prefix_ci(t, n, "smatch warnings:") ||
		    wn_str_prefix_ci(t, n, "new smatch warnings:") ||
		    wn_str_prefix_ci(t, n, "sparse warnings:") ||
		    wn_str_prefix_ci(t, n, "all warnings (new ones") ||
		    wn_str_prefix_ci(t, n, "all errors (new ones"))
			section = true;
		if (wn_str_prefix(t, n, "0-DAY CI Kernel Test Service"))
			footer = true;
	}
	return reported && (noticed || section || footer);
}

static bool looks_like(const struct rv_mail *m)
{
	return !fixup_subject(m->subject) && forwarded(m->m);
}
static void end_context(struct lkp *k)
{
	if (k->have && k->quote.len && !k->c->oom && k->cur < k->c->r->nfindings &&
	    !k->c->r->findings[k->cur].quote)
		k->c->r->findings[k->cur].quote = wn_rv_take(k->c, &k->quote);
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
		wn_rv_put(c, &b, f->notes, strlen(f->notes));
		wn_rv_put(c, &b, "\n", 1);
	}
	wn_rv_put(c, &b, s, n);
	free(f->notes);
	f->notes = wn_rv_take(c, &b);
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
		wn_rv_put(k->c, &k->quote, "\n", 1);
	wn_rv_put(k->c, &k->quote, s, n);
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
		if (n == strlen(words[k]) && wn_str_prefix_ci(w, n, words[k]))
			return true;
	return false;
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
	if (wn_str_prefix(t, tn, "echo \"") && tn > 7 && t[tn - 1] == '"') {
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
		while (i < tn && (wn_lkp_alpha((unsigned char) t[i]) || t[i] == '/' ||
				  (i > b && t[i] == '-')))
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
	wn_str_trim(&rest, &rn);
	/* "All errors" may stand alone; any other needs its ':' or its
	 * "(new ones prefixed by >>)". */
	if (!(rn ? rest[0] == ':' || rest[0] == '(' : wn_str_prefix_ci(t, tn, "all ")))
		return false;
	if (!words)
		return false;	/* a bare "Errors:" is prose */
	err = wn_str_find_ci(t + b, i - b, "error") && !wn_str_find_ci(t + b, i - b, "warning");
	k->headings = true;
	k->pre = wn_str_prefix_ci(t, tn, "old ");
	k->dflt = err ? WN_SEV_ERROR : WN_SEV_WARNING;
	if (wn_str_prefix_ci(t, tn, "kconfig") || wn_str_find_ci(t, tn, "for reference only"))
		k->kind = S_IGNORE;
	else if (wn_str_find_ci(t, b, "smatch"))
		k->kind = S_SMATCH;
	else if (wn_str_find_ci(t, b, "sparse"))
		k->kind = S_SPARSE;
	else
		k->kind = S_GCC;
	return true;
}

/* "   sparc-linux-ld: drivers/x.o: in function `foo':": the linker
 * names the function the references below it are made from. */
static bool ld_function(struct lkp *k, const char *s, size_t n)
{
	bool ld;
	size_t i = wn_lkp_tool_prefix(s, n, &ld);
	const char *p, *name;

	if (!ld || !(p = wn_str_find(s + i, n - i, ": in function ")))
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
	const char *p = wn_str_find(s, n, ".o:("), *e;

	if (!p || !k->have || k->cur >= c->r->nfindings || c->r->findings[k->cur].function)
		return;
	p += 4;
	for (e = p; e < s + n && str_ident_char((unsigned char) *e); e++)
		;
	if (e > p && e < s + n && *e == ')')
		c->r->findings[k->cur].function = wn_rv_dup(c, p, (size_t) (e - p));
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

	if (wn_str_prefix(s, n, ">>> ") && !wn_str_prefix(s, n, ">>> referenced by ")) {
		lld_function(k, s, n);
		return true;
	}
	if (wn_str_prefix(s, n, "--> ")) {
		s += 4;
		n -= 4;
	} else if (wn_str_prefix(s, n, ">>> referenced by ")) {
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
	wn_str_trim(&s, &n);
	for (e = 0; e < n && s[e] != ':' && s[e] != ' '; e++)
		;
	if (!e)
		return true;
	j = e + 1;
	if (e < n && s[e] == ':')
		wn_str_num(s, n, &j, &line);
	f->file = wn_rv_dup(c, s, e);
	f->line = (int) line;
	return true;
}

/* "drivers/x.c: In function 'foo':" (quotes may be typographic) */
static bool in_function(struct lkp *k, const char *t, size_t tn)
{
	const char *p = wn_str_find(t, tn, ": In function ");
	const char *name, *e;

	if (!p) {
		if (wn_str_find(t, tn, ": At top level:") ||
		    wn_str_find(t, tn, ": In member function")) {
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
	if (!wn_lkp_parse_diag(s, n, &d, false))
		return true;
	if (!d.tool_n)
		return !d.path;
	form = wn_lkp_form_of(d.msg, d.msg_n);
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
	k->form_n = wn_lkp_form_of(d->msg, d->msg_n);
	f = wn_rv_add(c, true);
	if (!f)
		return;
	f->severity = d->sev_explicit ? d->sev : k->dflt;
	f->preexisting = k->pre;
	{
		/* sparse appends "@@ expected T @@ got U @@" to its message;
		 * the types are detail for the comment, not the summary. */
		const char *at = wn_str_find(d->msg, d->msg_n, " @@");
		size_t sn = at && at > d->msg ? (size_t) (at - d->msg) : d->msg_n;

		f->summary = wn_rv_oneline(c, d->msg, sn, RV_SUMMARY_MAX);
	}
	f->comment = wn_rv_oneline(c, raw, rn, RV_NO_CUT);
	if (d->path)
		f->file = wn_rv_dup(c, d->path, d->path_n);
	f->line = (int) d->line;
	if (d->func_n)
		f->function = wn_rv_dup(c, d->func, d->func_n);
	else if (d->path && k->place.fn && k->place.fn_file.path_n == d->path_n &&
		 memcmp(k->place.fn_file.path, d->path, d->path_n) == 0)
		f->function = wn_rv_dup(c, k->place.fn, k->place.fn_n);
	k->have = true;
	k->cur = c->r->nfindings - 1;
	k->note_ok = true;
	k->note_for = k->cur;
	k->note_lines = 0;
	/* A compiler's message at a source line is the problem itself: a
	 * constant in it ("changes value from '0x100000000'") stays. */
	if (f->summary && (!d->line || d->ld_ref))
		wn_lkp_stable_text(c, k->cur, f->summary);
	if (d->ld_ref && k->ld_fn_n && !f->function) {
		/* Shown, not hashed: the fingerprints of references read
		 * before the linker's function was were made without it. */
		wn_rv_fp_pin(c, k->cur);
		f->function = wn_rv_dup(c, k->ld_fn, k->ld_fn_n);
	}
	/* A note is about the diagnostic above it, not a new place. */
	if (!(d->sev_explicit && d->sev == WN_SEV_NOTE))
		wn_lkp_place_finding(&k->place, c, k->cur);
}

/* One finding per distinct diagnostic: the same text (path, line,
 * column, message) printed again for another include chain or another
 * config only counts another time, and its excerpt is not taken. */
static void diagnostic(struct lkp *k, const struct diag *d, const char *raw, size_t rn)
{
	bool oom = false;

	if (wn_rv_seen_add(&k->seen, raw, rn, k->c->r->nfindings, &oom)) {
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
	    (wn_str_find(d->msg, d->msg_n, "in expansion of macro") ||
	     wn_str_find(d->msg, d->msg_n, "in definition of macro")))
		wn_lkp_place_note(&k->place, k->c, d->path, d->path_n, d->line);
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
		wn_rv_add_detail(k->c, &k->c->r->findings[e->at], "reported %u times", e->count);
}

static void repeats(struct lkp *k)
{
	wn_rv_seen_each(&k->seen, repeat, k);
}

/* Does the section starting after line i hold any ">>" diagnostic? */
static bool section_marked(const struct rv_lines *L, size_t i, struct lkp *probe)
{
	for (i++; i < L->n; i++) {
		const char *t = L->v[i].s;
		size_t tn = L->v[i].n;

		if (wn_str_prefix(t, tn, ">>"))
			return true;
		wn_str_trim(&t, &tn);
		if (wn_str_prefix(t, tn, "vim +") || wn_str_eq(L->v[i].s, L->v[i].n, "-- ") ||
		    heading(probe, t, tn))
			return false;
	}
	return false;
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
		wn_rv_explain(
			c, c->r->kind == WN_KIND_SUMMARY ?
				   "a kernel test robot branch summary, not a review of a patch" :
				   "a patch the kernel test robot sent itself, not a review");
		return;
	}
	memset(&k, 0, sizeof(k));
	k.c = c;
	wn_lkp_report_refs(c, L);
	/* what a fix's author needs to build it again */
	wn_rv_report_facts(c, L, 0, 60, facts);
	/* "| Reported-by: kernel test robot <lkp@intel.com>", "| Closes:" */
	wn_rv_asked_tags(c, L, 0, L->n);
	for (i = 0; i < L->n && !c->oom; i++) {
		const struct rv_line *l = &L->v[i];
		const char *t = l->s, *s;
		size_t tn = l->n, sn;
		bool marked;
		struct diag d;

		if (wn_lkp_signature(L, i))
			break;
		wn_str_trim(&t, &tn);
		if (heading(&k, t, tn)) {
			end_context(&k);
			k.note_ok = false;
			wn_lkp_place_reset(&k.place);
			k.ld_fn_n = 0;
			memset(&probe, 0, sizeof(probe));
			k.take_all = !section_marked(L, i, &probe);
			continue;
		}
		if (wn_str_prefix(t, tn, "vim +")) {
			end_context(&k);
			k.note_ok = false;
			k.kind = S_NONE;
			i = wn_lkp_vim_block(&k, L, i);
			continue;
		}
		if (k.kind == S_NONE || k.kind == S_IGNORE)
			continue;
		if (wn_str_eq(t, tn, "--")) {
			end_context(&k);
			k.note_ok = false;
			wn_lkp_place_reset(&k.place);
			k.ld_fn_n = 0;
			continue;
		}
		/* ">>>" opens ld.lld's lines under its error, not a new one */
		marked = wn_str_prefix(l->s, l->n, ">>") && !wn_str_prefix(l->s, l->n, ">>>");
		s = marked ? l->s + 2 : l->s;
		sn = marked ? l->n - 2 : l->n;
		if (wn_str_prefix(l->s, l->n, "<<"))
			continue;	/* fixed by the patch */
		wn_str_trim(&s, &sn);
		if (!sn) {
			/* gcc excerpts hold no blank lines: a blank ends one */
			end_context(&k);
			k.note_ok = false;
			continue;
		}
		if (wn_str_prefix(s, sn, "In file included from") ||
		    wn_str_prefix(s, sn, "from ")) {
			end_context(&k);
			wn_lkp_place_chain(&k.place, s, sn, s[0] == 'I');
			continue;
		}
		if (in_function(&k, s, sn) || wn_str_find(s, sn, " generated.")) {
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
		if (wn_lkp_parse_diag(s, sn, &d, marked)) {
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
	wn_rv_seen_free(&k.seen);
	wn_lkp_families(c);
	if (!c->r->nfindings)
		wn_rv_explain(
			c, k.headings ? "kernel test robot report without new (>>) diagnostics" :
					"kernel test robot mail without a warnings/errors section");
}

const struct rv_bot wn_rv_bot_LKP = {
	.sender = "lkp@intel.com (Intel's kernel test robot)",
	.sent_by = sent_by,
	.looks_like = looks_like,
	.parse = parse,
	.query = LKP_FROM,
	.hidden = LKP_HIDDEN,
	.link_marker = "Closes:", /* "| Closes: https://lore..." */
};
