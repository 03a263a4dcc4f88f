/* winnow — the body of a forwarded-findings mail: the template around
 * the findings, each as a maintainer would quote it in a reply.
 *
 * Everything here may come from mail (summaries, quoted code, the
 * bot's comment, the author's name), so the finished body goes through
 * the sanitiser once at the end: only '\n' and '\t' survive of the
 * control characters. */
#include "autoconfig.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "forward-private.h"
#include "../core/str.h"
#include "winnow/text.h"

/* The default opening and closing; {findings} is where they go.  Keys:
 * {first} {author} {bot} {count} {total} {subject} {me} {findings}. */
static const char default_template[] =
	"Hi {first},\n"
	"\n"
	"{bot} reviewed this patch automatically. I went through the\n"
	"findings by hand and kept the ones I believe are real problems\n"
	"in the patch ({count} of {total}):\n"
	"\n"
	"{findings}\n"
	"\n"
	"Thanks,\n"
	"{me}\n";

/* The verdict reply to a review the author has (WN_FWD_VERDICTS): keys
 * as above, and {unchecked}: a paragraph saying how many findings were
 * not checked, or nothing. */
static const char default_reply_template[] =
	"Hi {first},\n"
	"\n"
	"I went through the findings of the {bot} review by hand; my verdict\n"
	"is under each one.\n"
	"{unchecked}"
	"\n"
	"{findings}\n"
	"\n"
	"Thanks,\n"
	"{me}\n";

/* --- text helpers ---------------------------------------------------- */

/* Append prefix and s, wrapped at FWD_WRAP columns (code points) at
 * blanks; a line break in s stays one. */
static wn_status put_wrapped(wn_buf *b, const char *prefix, const char *s)
{
	size_t col;
	wn_status st = wn_text_wrap(b, prefix, "", s, FWD_WRAP, &col);

	if (st == WN_OK && col)
		st = wn_buf_putc(b, '\n');
	return st;
}

/* Does line l (n bytes) belong in a quote?  Diff headers do not: the
 * location line above the quote names the file. */
static bool quotable(const char *l, size_t n)
{
	return !wn_str_prefix(l, n, "diff --git ") && !wn_str_prefix(l, n, "index ") &&
	       !wn_str_prefix(l, n, "--- ") && !wn_str_prefix(l, n, "+++ ");
}

/* The quoted code, "> " in front, trimmed to its last FWD_QUOTE_LINES
 * lines: a bot comments below the code it means, so the end of the
 * quote is what the comment is about. */
static wn_status put_quote(wn_buf *b, const char *q)
{
	size_t len = strlen(q), pos = 0, total = 0, skip, k = 0, n;
	const char *l;
	wn_status st = WN_OK;

	while (wn_str_next_line(q, len, &pos, &l, &n))
		total += quotable(l, n);
	skip = total > FWD_QUOTE_LINES ? total - FWD_QUOTE_LINES : 0;
	if (skip)
		st = wn_buf_puts(b, "> [ ... ]\n");
	for (pos = 0; st == WN_OK && wn_str_next_line(q, len, &pos, &l, &n);) {
		if (!quotable(l, n) || k++ < skip)
			continue;
		st = wn_buf_printf(b, ">%s%.*s\n", n ? " " : "", (int) n, l);
	}
	return st;
}

/* Text as written, without blank lines at either end. */
static wn_status put_block(wn_buf *b, const char *s)
{
	size_t n;

	while (*s == '\n' || *s == ' ' || *s == '\t') {
		const char *nl = strchr(s, '\n');
		if (!nl || !wn_str_blank(s, (size_t) (nl - s)))
			break;
		s = nl + 1;
	}
	n = strlen(s);
	while (n && str_space((unsigned char) s[n - 1]))
		n--;
	return n ? wn_buf_printf(b, "%.*s\n", (int) n, s) : WN_OK;
}

/* --- one finding ------------------------------------------------------- */

static wn_status put_location(wn_buf *b, const wn_site *x)
{
	if (x->about_commit_msg)
		return wn_buf_puts(b, "In the commit message:\n");
	if (!x->file)
		return WN_OK;
	if (wn_buf_printf(b, "At %s", x->file) != WN_OK)
		return WN_NOMEM;
	if (x->line && wn_buf_printf(b, ":%s%d", x->line_approx ? "~" : "", x->line) != WN_OK)
		return WN_NOMEM;
	if (x->function && wn_buf_printf(b, " in %s()", x->function) != WN_OK)
		return WN_NOMEM;
	return wn_buf_puts(b, ":\n");
}

static bool has_words(const char *s)
{
	return s && !wn_str_blank(s, strlen(s));
}

/* Does the comment open with the summary?  Bots without a summary
 * (BPF CI) have theirs made of the comment's first sentence: saying it
 * twice would read oddly. */
static bool summary_opens_comment(const wn_finding *x)
{
	char *s = wn_text_normalize(x->summary), *c = wn_text_normalize(x->comment);
	bool r = s && c && *s && strncmp(c, s, strlen(s)) == 0;

	free(s);
	free(c);
	return r;
}

/* [High] summary
 * At file:line in function():
 * > quoted code
 *
 * the bot's comment
 *
 * Note: the maintainer's note */
static wn_status put_finding(wn_buf *b, const wn_item *it, size_t idx)
{
	const wn_finding *x = &it->review->findings[idx - 1];
	const char *sev = wn_severity_name(x->severity);
	/* Prose is wrapped, so it is made safe first: a control character
	 * must not count as a word. */
	char *note = wn_text_sanitize(it->notes ? it->notes[idx - 1] : NULL, WN_TEXT_KEEP_NEWLINE);
	char *summary = wn_text_sanitize(x->summary, 0);
	char prefix[24] = "";
	wn_status st = note && summary ? WN_OK : WN_NOMEM;

	size_t nsites = wn_finding_nsites(x);

	if (sev)
		snprintf(prefix, sizeof(prefix), "[%c%s] ", toupper((unsigned char) sev[0]), sev + 1);
	if (st == WN_OK && (sev || !summary_opens_comment(x))) {
		st = put_wrapped(b, prefix, summary);
		if (st == WN_OK && (x->quote && *x->quote ? true : x->about_commit_msg || x->file))
			st = wn_buf_putc(b, '\n');
	}
	/* Every place the bot discusses the finding at: its code, then its
	 * words there, so that no words come without what they point at;
	 * the compiler's notes after the first place's code. */
	for (size_t k = 0; k < nsites && st == WN_OK; k++) {
		wn_site site = wn_finding_site(x, k);

		if (k)
			st = wn_buf_putc(b, '\n');
		if (st == WN_OK)
			st = put_location(b, &site);
		if (st == WN_OK && site.code && *site.code)
			st = put_quote(b, site.code);
		if (st == WN_OK && !k && x->notes && *x->notes)
			st = put_quote(b, x->notes);
		if (st == WN_OK && has_words(site.comment)) {
			st = wn_buf_putc(b, '\n');
			if (st == WN_OK)
				st = put_block(b, site.comment);
		}
	}
	if (st == WN_OK && note && !wn_str_blank(note, strlen(note))) {
		st = wn_buf_putc(b, '\n');
		if (st == WN_OK)
			st = put_wrapped(b, "Note: ", note);
	}
	free(note);
	free(summary);
	return st;
}

/* --- a verdict reply's findings ----------------------------------------- */

/* Lines of s, each with "> " in front (">" alone for a blank one). */
static wn_status quote_lines(wn_buf *b, const char *s)
{
	size_t len = strlen(s), pos = 0, n;
	const char *l;
	wn_status st = WN_OK;

	while (st == WN_OK && wn_str_next_line(s, len, &pos, &l, &n)) {
		while (n && str_space((unsigned char) l[n - 1]))
			n--;
		st = wn_buf_printf(b, ">%s%.*s\n", n ? " " : "", (int) n, l);
	}
	return st;
}

/* The block of the bot's mail finding x stands for, quoted as a reply
 * quotes it: its code, then the bot's words.  The one place a verdict
 * reply quotes a finding from. */
static wn_status quote_block(wn_buf *b, const wn_finding *x)
{
	size_t nsites = wn_finding_nsites(x);
	wn_status st = WN_OK;

	/* Each place the bot discusses it at, as the bot wrote it: the
	 * code, the compiler's notes after the first, then the words. */
	for (size_t k = 0; k < nsites && st == WN_OK; k++) {
		wn_site site = wn_finding_site(x, k);
		bool code = site.code && *site.code, words = has_words(site.comment);
		bool notes = !k && x->notes && *x->notes;
		char *comment = NULL;

		if (k)
			st = wn_buf_puts(b, ">\n");
		if (st == WN_OK && code)
			st = put_quote(b, site.code);
		if (st == WN_OK && notes)
			st = put_quote(b, x->notes);
		if (st == WN_OK && (code || notes) && words)
			st = wn_buf_puts(b, ">\n");
		if (st == WN_OK && (words || (!code && !k))) {
			wn_buf t = WN_BUF_INIT;

			/* Trimmed as put_block trims it; the summary when the
			 * bot gave no words of its own. */
			st = put_block(&t, words ? site.comment : x->summary ? x->summary : "");
			comment = st == WN_OK ? wn_buf_steal(&t) : NULL;
			wn_buf_free(&t);
			if (st == WN_OK && comment)
				st = quote_lines(b, comment);
		}
		free(comment);
	}
	return st;
}

/* "Valid: please fix this in the next version.", "False positive, you
 * can ignore this: <reason>; <note>." -- the verdict in plain words. */
static wn_status put_verdict(wn_buf *b, const wn_item *it, size_t i)
{
	wn_verdict v = it->verdicts[i];
	wn_reason r = it->reasons ? it->reasons[i] : WN_REASON_NONE;
	char *note = wn_text_sanitize(it->notes ? it->notes[i] : NULL, 0);
	const char *why = r != WN_REASON_NONE ? wn_reason_label(r) : "";
	wn_buf extra = WN_BUF_INIT, line = WN_BUF_INIT;
	wn_status st = note ? WN_OK : WN_NOMEM;

	if (note)
		wn_text_trim(note);
	if (st == WN_OK && *why)
		st = wn_buf_puts(&extra, why);
	if (st == WN_OK && note && *note)
		st = wn_buf_printf(&extra, "%s%s", extra.len ? "; " : "", note);
	if (st == WN_OK && v == WN_VERDICT_FALSE_POSITIVE) {
		const char *e = wn_buf_str(&extra);
		char last = extra.len ? e[extra.len - 1] : '\0';

		st = extra.len ? wn_buf_printf(&line, "False positive, you can ignore this: %s%s", e,
					       strchr(".!?", last) ? "" : ".")
			       : wn_buf_puts(&line, "False positive, you can ignore this.");
	} else if (st == WN_OK) {
		st = wn_buf_printf(&line, "%s%s%s", v == WN_VERDICT_VALID ? "Valid: please fix this in the next version."
						 : "Pre-existing, not caused by your patch; tracked separately.",
				   extra.len ? " " : "", wn_buf_str(&extra));
	}
	if (st == WN_OK)
		st = put_wrapped(b, "", wn_buf_str(&line));
	wn_buf_free(&extra);
	wn_buf_free(&line);
	free(note);
	return st;
}

/* Each finding of the reply: the bot's block quoted, the verdict under
 * it, a blank line between. */
static wn_status verdicts_block(const wn_forward *f, wn_buf *b)
{
	const wn_fwd_part *p = f->nparts ? &f->parts[0] : NULL;
	wn_status st = WN_OK;

	for (size_t j = 0; p && j < p->n && st == WN_OK; j++) {
		size_t i = p->findings[j] - 1;

		if (j)
			st = wn_buf_putc(b, '\n');
		if (st == WN_OK)
			st = quote_block(b, &p->it->review->findings[i]);
		if (st == WN_OK)
			st = wn_buf_putc(b, '\n');
		if (st == WN_OK)
			st = put_verdict(b, p->it, i);
	}
	while (b->len && b->data[b->len - 1] == '\n')
		b->data[--b->len] = '\0';
	return st;
}

/* --- the findings block ------------------------------------------------ */

static wn_status put_part(wn_buf *b, const wn_fwd_part *p, char *const *links, bool heading)
{
	size_t j, npre = 0;
	wn_status st = WN_OK;

	if (heading)
		/* Not "From the ...": a line starting "From " gets mangled
		 * by mbox tools. */
		st = wn_buf_printf(b, "%sFindings of the %s review:\n\n", b->len ? "\n" : "",
				   wn_bot_label(p->it->bot));
	for (j = 0; j < p->n && st == WN_OK; j++) {
		bool pre = p->it->verdicts[p->findings[j] - 1] != WN_VERDICT_VALID;

		if (pre && !npre++)
			st = wn_buf_printf(b, "%sNot caused by this patch (pre-existing), for your information:\n\n",
					   b->len ? "\n" : "");
		else if (b->len && j)
			st = wn_buf_putc(b, '\n');
		if (st == WN_OK)
			st = put_finding(b, p->it, p->findings[j]);
	}
	for (j = 0; links && links[j] && st == WN_OK; j++)
		st = wn_buf_printf(b, "%s%s review: %s\n", j ? "" : "\n", wn_bot_label(p->it->bot), links[j]);
	/* What the report says to reproduce it with (0-day's config,
	 * compiler and reproduce lines, syzbot's kernel, dashboard and
	 * reproducers), as it wrote them: once, for every finding. */
	if (st == WN_OK && p->it->review && p->n) {
		size_t nf;
		const char *const *facts = wn_finding_facts(p->it->review, p->findings[0] - 1, &nf);

		for (j = 0; j < nf && st == WN_OK; j++)
			st = wn_buf_printf(b, "%s%s\n", j ? "" : "\nThe report:\n\n", facts[j]);
	}
	/* The tags the bot asks a fix to carry, as it wrote them, for the
	 * author to paste (the parser kept only clean ones). */
	for (j = 0; p->it->review && j < p->it->review->ntags && st == WN_OK; j++)
		st = j ? wn_buf_printf(b, "%s\n", p->it->review->tags[j])
		       : wn_buf_printf(b, "\nIf you fix it in a separate commit, %s asks for these tags:\n\n%s\n",
				       wn_bot_label(p->it->bot), p->it->review->tags[j]);
	return st;
}

static wn_status findings_block(const fwd_body_ctx *c, const wn_forward *f, wn_buf *b)
{
	wn_status st = WN_OK;

	for (size_t k = 0; k < f->nparts && st == WN_OK; k++)
		if (f->parts[k].n)
			st = put_part(b, &f->parts[k], c->links ? c->links[k] : NULL, f->nparts > 1);
	/* The template puts its own blank line after {findings}. */
	while (b->len && b->data[b->len - 1] == '\n')
		b->data[--b->len] = '\0';
	return st;
}

static wn_status fwd_bot_names(const wn_forward *f, wn_buf *out)
{
	size_t shown = 0;
	wn_status st = WN_OK;

	for (size_t k = 0; k < f->nparts && st == WN_OK; k++) {
		const char *name = wn_bot_label(f->parts[k].it->bot);
		bool dup = false;

		for (size_t i = 0; i < k; i++)
			dup |= f->parts[i].it->bot == f->parts[k].it->bot;
		if (dup)
			continue;
		st = wn_buf_printf(out, "%s%s", shown ? " and " : "", name);
		shown++;
	}
	return st;
}

/* --- the template -------------------------------------------------------- */

/* Longest template read: a mail's text, not a file to slurp whole. */
#define TEMPLATE_MAX (64 * 1024)

static wn_status read_template(const fwd_body_ctx *c, bool reply, char **out, wn_error *err)
{
	const wn_conf *conf = c->conf;
	const char *path = c->list_template ? c->list_template->line
			   : reply ? conf->reply_template : conf->forward_template;
	const char *key = reply ? "winnow.forward_reply_template" : "winnow.forward_template";
	wn_error why = WN_ERROR_INIT;
	char *full = NULL, keybuf[400];
	wn_status st;

	if (c->list_template) {
		snprintf(keybuf, sizeof(keybuf), "%s.%.300s", key, c->list_template->list);
		key = keybuf;
	}

	if (!path || !*path)
		return (*out = strdup(reply ? default_reply_template : default_template)) ? WN_OK : WN_NOMEM;
	if (path[0] == '~' && path[1] == '/' && getenv("HOME") &&
	    asprintf(&full, "%s%s", getenv("HOME"), path + 1) < 0)
		return WN_NOMEM;
	/* Never a FIFO or /dev/zero: see wn_file_open. */
	st = wn_file_read(full ? full : path, TEMPLATE_MAX, 0, out, NULL, &why);
	if (st == WN_NOMEM)
		wn_error_set(err, st, "out of memory");
	else if (st != WN_OK)
		st = wn_error_set(err, WN_CONFIG, "%s: cannot read %s: %s", key,
				  full ? full : path, wn_error_msg(&why));
	wn_error_clear(&why);
	free(full);
	return st;
}

/* The first word of a name: how a reply greets. */
static char *first_word(const char *name)
{
	while (*name == ' ')
		name++;
	return wn_strndup(name, strcspn(name, " "));
}

struct key_value {
	const char *key;
	const char *value;
};

static wn_status expand(const char *tpl, const struct key_value *kv, size_t nkv, wn_buf *out)
{
	const char *p = tpl;
	wn_status st = WN_OK;

	while (*p && st == WN_OK) {
		const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
		size_t i;

		if (!open || !close) {
			st = wn_buf_puts(out, p);
			break;
		}
		st = wn_buf_append(out, p, (size_t) (open - p));
		for (i = 0; i < nkv; i++)
			if (wn_str_eq(open + 1, (size_t) (close - open - 1), kv[i].key))
				break;
		/* An unknown {word} is text the user wrote: keep it. */
		if (st == WN_OK)
			st = i < nkv ? wn_buf_puts(out, kv[i].value) : wn_buf_append(out, open, (size_t) (close - open + 1));
		p = close + 1;
	}
	return st;
}

/* Drop blanks at line ends (a signature's "-- " keeps its own). */
static void trim_lines(char *s)
{
	char *w = s, *line = s;

	for (char *r = s;; r++) {
		if (*r == '\n' || !*r) {
			char *end = w;

			while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
			if (end - line == 2 && line[0] == '-' && line[1] == '-' && w - line == 3)
				end = w;
			w = end;
			if (!*r)
				break;
			*w++ = '\n';
			line = w;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
}

static wn_status sanitize_into(const char *text, char **out)
{
	*out = wn_text_sanitize(text, WN_TEXT_KEEP_NEWLINE | WN_TEXT_KEEP_TAB);
	if (!*out)
		return WN_NOMEM;
	trim_lines(*out);
	return WN_OK;
}

wn_status wn_fwd_body(const fwd_body_ctx *c, const wn_forward *f, char **out, wn_error *err)
{
	wn_buf findings = WN_BUF_INIT, bots = WN_BUF_INIT, body = WN_BUF_INIT;
	char *tpl = NULL, *first = first_word(c->author), count[24], total[24], unchecked[160] = "";
	bool reply = f->kind == WN_FWD_VERDICTS;
	const char *me = c->conf->user_name && *c->conf->user_name ? c->conf->user_name : c->conf->user_email;
	size_t all = 0;
	wn_status st;

	for (size_t k = 0; k < f->nparts; k++)
		all += f->parts[k].it->review ? f->parts[k].it->review->nfindings : 0;
	snprintf(count, sizeof(count), "%zu", f->nvalid);
	snprintf(total, sizeof(total), "%zu", all);
	if (reply && f->nunchecked)
		snprintf(unchecked, sizeof(unchecked), "\nI have not checked %zu of its %zu finding%s yet; %s left "
			 "out.\n", f->nunchecked, all, all == 1 ? "" : "s", f->nunchecked == 1 ? "it is" : "they are");
	st = first ? read_template(c, reply, &tpl, err) : WN_NOMEM;
	if (st == WN_OK)
		st = reply ? verdicts_block(f, &findings) : findings_block(c, f, &findings);
	if (st == WN_OK)
		st = fwd_bot_names(f, &bots);
	if (st == WN_OK) {
		const struct key_value kv[] = {
			{ "first", first }, { "author", c->author }, { "bot", wn_buf_str(&bots) },
			{ "count", count }, { "total", total }, { "subject", f->subject ? f->subject : "" },
			{ "me", me ? me : "" }, { "findings", wn_buf_str(&findings) },
			{ "unchecked", unchecked },
		};

		st = expand(tpl, kv, sizeof(kv) / sizeof(kv[0]), &body);
		/* A template without {findings} gets them after its text. */
		if (st == WN_OK && !strstr(tpl, "{findings}"))
			st = wn_buf_printf(&body, "%s%s\n", body.len ? "\n" : "", wn_buf_str(&findings));
	}
	if (st == WN_OK)
		st = sanitize_into(wn_buf_str(&body), out);
	if (st == WN_NOMEM)
		wn_error_set(err, WN_NOMEM, "out of memory");
	wn_buf_free(&findings);
	wn_buf_free(&bots);
	wn_buf_free(&body);
	free(tpl);
	free(first);
	return st;
}

/* --- links ----------------------------------------------------------------- */

/* The URL in line l (n bytes), into *out; NULL when none. */
static wn_status url_in(const char *l, size_t n, char **out)
{
	const char *u = wn_str_find(l, n, "https://"), *e;

	*out = NULL;
	if (!u)
		u = wn_str_find(l, n, "http://");
	if (!u)
		return WN_OK;
	for (e = u; e < l + n && (unsigned char) *e > ' ' && (unsigned char) *e < 0x7f; e++)
		;
	while (e > u && strchr(").,;>]'\"", e[-1]))
		e--;
	return (*out = wn_strndup(u, (size_t) (e - u))) ? WN_OK : WN_NOMEM;
}

/* Is l the line that carries bot's link (its descriptor's link_marker)? */
static bool marked(wn_bot bot, const char *l, size_t n)
{
	const char *marker = wn_bot_link_marker(bot);

	return marker && wn_str_find(l, n, marker);
}

wn_status wn_fwd_review_links(wn_bot bot, const char *body, size_t len, char ***out)
{
	char **v = calloc(FWD_MAX_LINKS + 1, sizeof(char *));
	size_t pos = 0, n, got = 0;
	const char *l;

	if (!(*out = v))
		return WN_NOMEM;
	while (body && got < FWD_MAX_LINKS && wn_str_next_line(body, len, &pos, &l, &n)) {
		char *u;
		bool dup = false;

		if (!marked(bot, l, n))
			continue;
		if (url_in(l, n, &u) != WN_OK)
			return WN_NOMEM;
		for (size_t i = 0; u && i < got; i++)
			dup |= strcmp(v[i], u) == 0;
		if (u && !dup)
			v[got++] = u;
		else
			free(u);
	}
	return WN_OK;
}
