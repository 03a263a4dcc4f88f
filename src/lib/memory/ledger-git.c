/* winnow — the ledger closes itself: the commits of the maintainer's
 * kernel tree that fixed a pre-existing bug (ledger.h).
 *
 * git is read with git itself, through the one process runner (argv,
 * no shell; the tree's path is an argument, never command text): one
 * `git log` over the commits since the oldest report whose messages
 * carry a Closes:, Link: or Reported-by: line, then `git show` of the
 * few a bot's Reported-by names, to see the file and function their
 * diffs change.  Commit text is the tree's, not mail, yet it is still
 * only matched, and its subject sanitised before anyone shows it. */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../core/str.h"
#include "winnow/ledger.h"
#include "winnow/proc.h"
#include "winnow/text.h"

/* A commit whose Reported-by names a bot, waiting for its diff. */
struct suspect {
	char *hash, *subject;
	wn_bot bot;
};

/* The commits git show reads at most, and how many one git show is
 * given: Reported-by lines of the bots are common in a kernel tree. */
#define MAX_SUSPECTS 4000
#define SHOW_BATCH 64
/* What one git may write: a year of a kernel tree's fixes, and more. */
#define GIT_OUTPUT_MAX ((size_t) 512 << 20)

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does s[0..n) hold word w with no identifier character around it? */
static bool has_word(const char *s, size_t n, const char *w)
{
	size_t wn = strlen(w);

	for (const char *p = wn ? wn_str_find(s, n, w) : NULL; p;
	     p = wn_str_find(p + 1, n - (size_t) (p + 1 - s), w))
		if ((p == s || !word_char(p[-1])) && (p + wn == s + n || !word_char(p[wn])))
			return true;
	return false;
}

/* Does the link value v name Message-ID id: the id whole, between
 * what a lore URL or <> put around it ("/r/ID/", "<ID>")? */
static bool names_id(const char *v, size_t n, const char *id)
{
	size_t idn = id ? strlen(id) : 0;

	for (const char *p = idn ? wn_str_find(v, n, id) : NULL; p;
	     p = wn_str_find(p + 1, n - (size_t) (p + 1 - v), id)) {
		char before = p == v ? ' ' : p[-1], after = p + idn == v + n ? ' ' : p[idn];

		if (strchr(" </:=", before) && strchr(" >/?#", after))
			return true;
	}
	return false;
}

/* v with %xx decoded (lore writes '@' as %40 in some links); malloc'd. */
static char *unescape(const char *v, size_t n)
{
	char *o = malloc(n + 1), *w = o;

	for (size_t i = 0; o && i < n; i++) {
		unsigned x;

		if (v[i] == '%' && i + 2 < n && sscanf(v + i + 1, "%2x", &x) == 1 && x >= 0x20) {
			*w++ = (char) x;
			i += 2;
		} else {
			*w++ = v[i];
		}
	}
	if (o)
		*w = '\0';
	return o;
}

static bool hex_hash(const char *h, size_t n)
{
	if (n != 40 && n != 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return false;
	return true;
}

/* Run git -C dir ARGS into out; WN_CONFIG saying what git said. */
static wn_status git(const char *dir, const char *const *args, wn_buf *out, wn_error *err)
{
	static const char *const head[] = { "git", "-C", NULL, "-c", "log.showSignature=false", "-c",
					    "core.quotePath=false" };
	size_t nh = sizeof(head) / sizeof(head[0]), na = 0, n;
	const char **argv;
	wn_status st;

	while (args[na])
		na++;
	if (!(argv = calloc(nh + na + 1, sizeof(*argv))))
		return wn_error_set(err, WN_NOMEM, "out of memory");
	for (n = 0; n < nh; n++)
		argv[n] = head[n] ? head[n] : dir;
	for (size_t i = 0; i < na; i++)
		argv[n++] = args[i];
	st = wn_proc_run_max((char *const *) argv, GIT_OUTPUT_MAX, out, err);
	free(argv);
	if (st != WN_OK && st != WN_NOMEM) {
		char *said = wn_text_header_safe(wn_buf_str(out));

		if (said && strlen(said) > 200)
			strcpy(said + 197, "...");
		st = wn_error_set(err, WN_CONFIG, "cannot read the kernel tree %s with git: %s", dir,
				  said && *said ? said : wn_error_msg(err));
		free(said);
	}
	return st;
}

/* --- named by a link -------------------------------------------------------- */

/* Did a Closes:/Link: value name one of e's reviews or patches? */
static bool entry_named(const wn_ledger_entry *e, const char *v, size_t n)
{
	for (size_t i = 0; i < e->nreports; i++)
		if (names_id(v, n, e->reports[i].review) || names_id(v, n, e->reports[i].patch))
			return true;
	return false;
}

static bool reported_by(const wn_ledger_entry *e, wn_bot b)
{
	for (size_t i = 0; i < e->nreports; i++)
		if (e->reports[i].bot == b)
			return true;
	return false;
}

/* The address in a Reported-by value: between <>, else the word with
 * an '@'; malloc'd, NULL when none. */
static char *value_addr(const char *v, size_t n)
{
	const char *lt = memchr(v, '<', n), *gt = lt ? memchr(lt, '>', n - (size_t) (lt - v)) : NULL;
	const char *s = v, *e;

	if (lt && gt)
		return wn_strndup(lt + 1, (size_t) (gt - lt - 1));
	for (e = v; e <= v + n; e++) {
		if (e == v + n || *e == ' ' || *e == '\t') {
			if (memchr(s, '@', (size_t) (e - s)))
				return wn_strndup(s, (size_t) (e - s));
			s = e + 1;
		}
	}
	return NULL;
}

struct scan {
	wn_ledger *l;
	const char *const *generic;
	struct suspect *sus;
	size_t nsus;
};

/* One commit's message: its links set fixed_by (the log is newest
 * first: an older fix overwrites a newer one, and the first fix wins);
 * a bot's Reported-by makes it a suspect. */
static wn_status commit_msg(struct scan *sc, const char *hash, const char *body, size_t len)
{
	const char *l, *subj = NULL;
	size_t pos = 0, n, subjn = 0;
	char *subject;
	wn_status st = WN_OK;

	if (!wn_str_next_line(body, len, &pos, &subj, &subjn))
		subj = "";
	if (!(subject = wn_strndup(subj, subjn)))
		return WN_NOMEM;
	for (pos = 0; st == WN_OK && wn_str_next_line(body, len, &pos, &l, &n);) {
		const char *how = NULL;
		char *v;

		wn_str_trim(&l, &n);
		if (wn_str_prefix_ci(l, n, "Closes:"))
			how = "closes";
		else if (wn_str_prefix_ci(l, n, "Link:"))
			how = "link";
		if (how) {
			size_t k = strlen(how) + 1;

			if (!(v = unescape(l + k, n - k))) {
				st = WN_NOMEM;
				break;
			}
			for (size_t i = 0; st == WN_OK && i < wn_ledger_count(sc->l); i++)
				if (entry_named(wn_ledger_at(sc->l, i), v, strlen(v)))
					st = wn_ledger_set_fixed(sc->l, i, hash, subject, how);
			free(v);
			continue;
		}
		if (wn_str_prefix_ci(l, n, "Reported-by:") && sc->nsus < MAX_SUSPECTS) {
			char *addr = value_addr(l + 12, n - 12);
			wn_bot b;

			if (addr && wn_bot_of_address(addr, sc->generic, &b)) {
				struct suspect *ns = realloc(sc->sus, (sc->nsus + 1) * sizeof(*ns));

				if (!ns || !(ns[sc->nsus].hash = strdup(hash)) ||
				    !(ns[sc->nsus].subject = strdup(subject))) {
					if (ns) {
						sc->sus = ns;
						free(ns[sc->nsus].hash);
					}
					free(addr);
					st = WN_NOMEM;
					break;
				}
				sc->sus = ns;
				ns[sc->nsus++].bot = b;
			}
			free(addr);
		}
	}
	free(subject);
	return st;
}

/* --- named by a bot's Reported-by, at the bug's place -------------------- */

/* Does the diff (git show -U0) change file in function: a hunk of that
 * file whose header's context, or a changed line, names it? */
static bool diff_touches(const char *diff, size_t len, const char *file, const char *function)
{
	const char *l;
	size_t pos = 0, n, fn = strlen(file);
	bool in_file = false;

	while (wn_str_next_line(diff, len, &pos, &l, &n)) {
		if (wn_str_prefix_ci(l, n, "diff --git ")) {
			in_file = false;
			continue;
		}
		if (n >= 4 && (!strncmp(l, "+++ ", 4) || !strncmp(l, "--- ", 4))) {
			const char *p = l + 4;
			size_t pn = n - 4;

			if (pn > 2 && (p[0] == 'a' || p[0] == 'b') && p[1] == '/')
				p += 2, pn -= 2;
			in_file |= pn == fn && !memcmp(p, file, fn);
			continue;
		}
		if (in_file && n && (l[0] == '@' || l[0] == '+' || l[0] == '-') && has_word(l, n, function))
			return true;
	}
	return false;
}

/* Is suspect s still worth its diff: a bug it may fix is open? */
static bool wanted(const struct scan *sc, const struct suspect *s)
{
	for (size_t i = 0; i < wn_ledger_count(sc->l); i++) {
		const wn_ledger_entry *e = wn_ledger_at(sc->l, i);

		if (!e->fixed_by && e->file && e->function && reported_by(e, s->bot))
			return true;
	}
	return false;
}

/* One commit's diff (git show -U0): the open bugs of its bot it
 * changes the place of are fixed by it. */
static wn_status judge(struct scan *sc, const struct suspect *s, const char *diff, size_t len)
{
	wn_status st = WN_OK;

	for (size_t i = 0; st == WN_OK && i < wn_ledger_count(sc->l); i++) {
		const wn_ledger_entry *e = wn_ledger_at(sc->l, i);

		if (!e->fixed_by && e->file && e->function && reported_by(e, s->bot) &&
		    diff_touches(diff, len, e->file, e->function))
			st = wn_ledger_set_fixed(sc->l, i, s->hash, s->subject, "reported-by");
	}
	return st;
}

/* The suspects' diffs, SHOW_BATCH commits to a git show, oldest first
 * so that the first fix is the one kept.  Each commit's output opens
 * with 0x1e and its hash. */
static wn_status suspects(struct scan *sc, const char *dir, wn_error *err)
{
	const char *args[SHOW_BATCH + 8] = { "show", "--no-color", "--no-ext-diff", "-U0", "--format=%x1e%H" };
	const struct suspect *batch[SHOW_BATCH];
	wn_status st = WN_OK;
	size_t k = sc->nsus;

	while (st == WN_OK && k > 0) {
		size_t nb = 0, na = 5;
		wn_buf out = WN_BUF_INIT;

		while (k > 0 && nb < SHOW_BATCH) {
			const struct suspect *s = &sc->sus[--k];

			if (wanted(sc, s)) {
				batch[nb++] = s;
				args[na++] = s->hash;
			}
		}
		if (!nb)
			break;
		args[na] = NULL;
		st = git(dir, args, &out, err);
		for (size_t pos = 0; st == WN_OK && pos < out.len;) {
			const char *rec = out.data + pos, *end = memchr(rec + 1, 0x1e, out.len - pos - 1);
			size_t rn = end ? (size_t) (end - rec) : out.len - pos;

			pos += rn;
			if (*rec != 0x1e)
				continue;
			for (size_t b = 0; st == WN_OK && b < nb; b++) {
				size_t hn = strlen(batch[b]->hash);

				if (rn > hn && !memcmp(rec + 1, batch[b]->hash, hn))
					st = judge(sc, batch[b], rec + 1 + hn, rn - 1 - hn);
			}
		}
		wn_buf_free(&out);
	}
	return st;
}

wn_status wn_ledger_fixes(wn_ledger *l, const char *dir, const char *const *generic_senders,
			  wn_error *err)
{
	struct scan sc = { l, generic_senders, NULL, 0 };
	wn_buf out = WN_BUF_INIT;
	time_t since = 0;
	char since_arg[48];
	struct tm tm;
	wn_status st = WN_OK;

	for (size_t i = 0; i < wn_ledger_count(l); i++) {
		time_t f = wn_ledger_at(l, i)->first;

		if (f > 0 && (!since || f < since))
			since = f;
	}
	if (!wn_ledger_count(l))
		return WN_OK;
	/* A day of slack for clocks: a fix comes after the report.  ISO
	 * 8601 in UTC, which every git's date parser reads. */
	since = since > 86400 ? since - 86400 : 0;
	if (!gmtime_r(&since, &tm) || !strftime(since_arg, sizeof(since_arg), "--since=%Y-%m-%dT%H:%M:%SZ", &tm))
		strcpy(since_arg, "--since=1970-01-02T00:00:00Z");
	{
		const char *args[] = { "log", "-z", "--no-merges", "--no-color", "--format=%H%x1f%B", "-E", "-i",
				       "--grep=^[[:space:]]*(closes|link|reported-by):", since_arg, NULL };

		st = git(dir, args, &out, err);
	}
	for (size_t pos = 0; st == WN_OK && pos < out.len;) {
		const char *rec = out.data + pos, *end = memchr(rec, '\0', out.len - pos);
		size_t rn = end ? (size_t) (end - rec) : out.len - pos;
		const char *us = memchr(rec, 0x1f, rn);

		pos += rn + 1;
		/* git -z puts a newline before each record after the first. */
		while (rn && (*rec == '\n')) {
			rec++;
			rn--;
			us = memchr(rec, 0x1f, rn);
		}
		if (!us || !hex_hash(rec, (size_t) (us - rec)))
			continue;
		{
			char hash[65];

			memcpy(hash, rec, (size_t) (us - rec));
			hash[us - rec] = '\0';
			st = commit_msg(&sc, hash, us + 1, rn - (size_t) (us + 1 - rec));
		}
	}
	wn_buf_free(&out);
	if (st == WN_OK)
		st = suspects(&sc, dir, err);
	for (size_t k = 0; k < sc.nsus; k++) {
		free(sc.sus[k].hash);
		free(sc.sus[k].subject);
	}
	free(sc.sus);
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	return st;
}

/* --- one commit; a syzbot report's fix ------------------------ */

/* The first line of message (len bytes) into *title, refused (WN_PARSE,
 * saying why) when the title's paragraph runs over more lines, or a
 * control character is in it: syzbot matches a title byte for byte. */
static wn_status exact_title(const char *msg, size_t len, const char *hash, char **title, wn_error *err)
{
	const char *l = NULL, *next;
	size_t pos = 0, n = 0, nn;

	if (!wn_str_next_line(msg, len, &pos, &l, &n) || !n)
		return wn_error_set(err, WN_PARSE, "commit %.12s has no title", hash);
	if (wn_str_next_line(msg, len, &pos, &next, &nn) && nn)
		return wn_error_set(err, WN_PARSE, "the title of commit %.12s runs over more than one line: "
				    "it cannot be sent exactly (the bot matches it byte for byte)", hash);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char) l[i] < 0x20 || l[i] == 0x7f)
			return wn_error_set(err, WN_PARSE, "the title of commit %.12s holds a control character: "
					    "it cannot be sent exactly", hash);
	if (!wn_text_utf8_valid(l, n))
		return wn_error_set(err, WN_PARSE, "the title of commit %.12s is not UTF-8 text", hash);
	return (*title = wn_strndup(l, n)) ? WN_OK : wn_error_set(err, WN_NOMEM, "out of memory");
}

wn_status wn_ledger_commit(const char *dir, const char *rev, char **hash, char **title, wn_error *err)
{
	/* rev is the user's word: after --end-of-options it is never an
	 * option, and "--" ends the revisions. */
	const char *args[] = { "log", "-1", "--no-color", "--format=%H%x1f%B", "--end-of-options", rev, "--",
			       NULL };
	wn_buf out = WN_BUF_INIT;
	wn_error gerr = WN_ERROR_INIT;
	const char *us;
	wn_status st;

	*hash = *title = NULL;
	if (!rev || !*rev || strchr(rev, '\n'))
		return wn_error_set(err, WN_USAGE, "no commit named");
	st = git(dir, args, &out, &gerr);
	if (st == WN_CONFIG) {
		st = wn_error_set(err, WN_NOT_FOUND, "no commit '%s' in %s", rev, dir);
	} else if (st != WN_OK) {
		wn_error_set(err, st, "%s", wn_error_msg(&gerr));
	} else if (!(us = memchr(out.data ? out.data : "", 0x1f, out.len)) ||
		   !hex_hash(out.data, (size_t) (us - out.data))) {
		st = wn_error_set(err, WN_NOT_FOUND, "no commit '%s' in %s", rev, dir);
	} else if (!(*hash = wn_strndup(out.data, (size_t) (us - out.data)))) {
		st = wn_error_set(err, WN_NOMEM, "out of memory");
	} else {
		st = exact_title(us + 1, out.len - (size_t) (us + 1 - out.data), *hash, title, err);
	}
	wn_error_clear(&gerr);
	wn_buf_free(&out);
	return st;
}

/* Does a commit message name the syzbot report: its Reported-by
 * address, its dashboard's extid, or its Message-ID? */
static bool names_report(const char *body, size_t len, const char *extid, const char *msgid)
{
	size_t pos = 0, n, en = strlen(extid);
	const char *l;

	while (wn_str_next_line(body, len, &pos, &l, &n)) {
		wn_str_trim(&l, &n);
		if (wn_str_prefix_ci(l, n, "Reported-by:")) {
			char *addr = value_addr(l + 12, n - 12);
			size_t hn = 0;
			const char *h = addr ? wn_bot_report_extid(addr, &hn) : NULL;
			bool hit = h && hn == en && !strncasecmp(h, extid, en);

			free(addr);
			if (hit)
				return true;
		} else if (wn_str_prefix_ci(l, n, "Closes:") || wn_str_prefix_ci(l, n, "Link:")) {
			for (const char *p = wn_str_find(l, n, "extid="); p;
			     p = wn_str_find(p + 1, n - (size_t) (p + 1 - l), "extid=")) {
				size_t rest = n - (size_t) (p + 6 - l);

				if (rest >= en && !strncasecmp(p + 6, extid, en) &&
				    (rest == en || !isxdigit((unsigned char) p[6 + en])))
					return true;
			}
			if (msgid && names_id(l, n, msgid))
				return true;
		}
	}
	return false;
}

wn_status wn_ledger_syz_fix(const char *dir, const char *extid, const char *msgid, char **hash,
			    wn_error *err)
{
	wn_buf out = WN_BUF_INIT, grep = WN_BUF_INIT;
	wn_status st;

	*hash = NULL;
	if (!extid || !*extid || strspn(extid, "0123456789abcdefABCDEF") != strlen(extid) || strlen(extid) > 64)
		return wn_error_set(err, WN_USAGE, "the report names no bug of a bot that reads replies (no id in its address)");
	/* A fixed string: nothing of the mail is read as a pattern. */
	if (wn_buf_printf(&grep, "--grep=%s", extid) != WN_OK)
		return wn_error_set(err, WN_NOMEM, "out of memory");
	{
		const char *args[] = { "log", "-z", "--no-merges", "--no-color", "--format=%H%x1f%B", "-F", "-i",
				       wn_buf_str(&grep), NULL };

		st = git(dir, args, &out, err);
	}
	/* Newest first: the last match is the oldest, the fix. */
	for (size_t pos = 0; st == WN_OK && pos < out.len;) {
		const char *rec = out.data + pos, *end = memchr(rec, '\0', out.len - pos), *us;
		size_t rn = end ? (size_t) (end - rec) : out.len - pos;

		pos += rn + 1;
		while (rn && *rec == '\n') {
			rec++;
			rn--;
		}
		us = memchr(rec, 0x1f, rn);
		if (!us || !hex_hash(rec, (size_t) (us - rec)) ||
		    !names_report(us + 1, rn - (size_t) (us + 1 - rec), extid, msgid))
			continue;
		free(*hash);
		if (!(*hash = wn_strndup(rec, (size_t) (us - rec))))
			st = wn_error_set(err, WN_NOMEM, "out of memory");
	}
	wn_buf_free(&out);
	wn_buf_free(&grep);
	if (st == WN_OK && !*hash)
		st = wn_error_set(err, WN_NOT_FOUND, "no commit of %s names this report (a "
				  "Reported-by trailer of its bot's address with %s, or a Closes link "
				  "with extid=%s)", dir, extid, extid);
	return st;
}
