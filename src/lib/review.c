/* winnow — bot detection, the review parser's entry point and the
 * finding fingerprint.  The per-bot parsers live in review-*.c. */
#include "autoconfig.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bots/bots.h"

static const struct {
	const char *name, *label;
} bots[] = {
#define WN_X_(e, name, label) { name, label },
	WN_BOT_LIST(WN_X_)
#undef WN_X_
};

static const char *const severities[] = {
#define WN_X_(e, name) name,
	WN_SEVERITY_LIST(WN_X_)
#undef WN_X_
};

const char *wn_bot_name(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].name : "unknown";
}

const char *wn_bot_label(wn_bot b)
{
	return (unsigned) b < WN_BOT_COUNT ? bots[b].label : "unknown";
}

wn_status wn_bot_from_name(const char *name, wn_bot *out)
{
	unsigned b;

	for (b = 0; name && b < WN_BOT_COUNT; b++)
		if (strcmp(name, bots[b].name) == 0) {
			if (out)
				*out = (wn_bot) b;
			return WN_OK;
		}
	return WN_USAGE;
}

const char *wn_severity_name(wn_severity s)
{
	return (unsigned) s < WN_SEV_COUNT ? severities[s] : NULL;
}

wn_severity wn_severity_parse(const char *word)
{
	unsigned s;

	for (s = 0; word && s < WN_SEV_COUNT; s++)
		if (severities[s] && strcasecmp(word, severities[s]) == 0)
			return (wn_severity) s;
	return WN_SEV_UNKNOWN;
}

/* ---- detection ---- */

static bool split_addr(const char *a, const char **local, size_t *ln, const char **dom)
{
	const char *at = a ? strrchr(a, '@') : NULL;

	if (!at || at == a)
		return false;
	*local = a;
	*ln = (size_t) (at - a);
	*dom = at + 1;
	return true;
}

/* Does the body open with the netdev intro sentence ("This is an
 * AI-generated review of your patch.")?  Only the first non-empty line
 * counts (its end may wrap onto the second), and only unquoted: a human
 * reply quoting such a review is not one. */
static bool ai_review_in(const char *s, size_t n)
{
	return str_find_ci(s, n, "AI-generated review") || str_find_ci(s, n, "AI generated review");
}

static bool netdev_intro(const wn_mail *m)
{
	struct rv_line first = { NULL, 0 }, l;
	size_t pos = 0;

	while (m->body && str_next_line(m->body, m->body_len, &pos, &l.s, &l.n)) {
		if (str_blank(l.s, l.n))
			continue;
		if (l.s[0] == '>')
			return false;
		if (!first.s) {
			first = l;
			if (ai_review_in(l.s, l.n))
				return true;
			continue;
		}
		/* "... an AI-generated\nreview of your patch" */
		str_trim(&l.s, &l.n);
		{
			const char *t = first.s;
			size_t tn = first.n, cut;

			str_trim(&t, &tn);
			cut = tn > 20 ? tn - 20 : 0;
			return (str_find_ci(t + cut, tn - cut, "AI-generated") ||
				str_find_ci(t + cut, tn - cut, "AI generated")) &&
			       str_prefix_ci(l.s, l.n, "review");
		}
	}
	return false;
}

/* A 0-day report sent by a person rather than by lkp@intel.com: smatch
 * reports are checked and forwarded by hand, with the robot's text
 * unquoted ("tree: ... commit: ...", "| Reported-by: kernel test robot
 * <lkp@intel.com>", "New smatch warnings:", the 0-DAY CI footer).  A
 * reply that quotes a report has all of it behind '>' and is not one.
 * At most the head of the body is read: a report puts all of this first,
 * while a patch that pastes a report is told apart by its diff. */
static bool lkp_forwarded(const wn_mail *m)
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

bool wn_bot_detect(const wn_mail *m, const char *const *generic_senders, wn_bot *out)
{
	const char *from, *local, *dom, *subj;
	size_t ln;
	wn_bot b;

	if (!m)
		return false;
	from = m->from_addr ? m->from_addr : "";
	subj = m->subject ? m->subject : "";
	if (split_addr(from, &local, &ln, &dom)) {
		if (str_host_in(dom, "kernel.org") && memmem(local, ln, "sashiko", 7)) {
			b = WN_BOT_SASHIKO;
			goto found;
		}
		if (str_host_in(dom, "kernel.org") && ln >= 10 && strncasecmp(local, "bot+bpf-ci", 10) == 0) {
			b = WN_BOT_BPF_CI;
			goto found;
		}
		if (strcasecmp(from, "lkp@intel.com") == 0) {
			/* Tree status mails and the robot's own fix-up patches
			 * are not reviews. */
			if (strstr(subj, "BUILD SUCCESS") || strstr(subj, "BUILD REGRESSION") ||
			    strncmp(subj, "[PATCH", 6) == 0)
				return false;
			b = WN_BOT_LKP;
			goto found;
		}
		if (strcasecmp(dom, "syzkaller.appspotmail.com") == 0 &&
		    ((ln == 6 && strncasecmp(local, "syzbot", 6) == 0) ||
		     (ln > 7 && strncasecmp(local, "syzbot+", 7) == 0))) {
			b = WN_BOT_SYZBOT;
			goto found;
		}
	}
	if (strncasecmp(subj, "[syzbot ci]", 11) == 0) {
		b = WN_BOT_SYZBOT;
		goto found;
	}
	if (netdev_intro(m)) {
		b = WN_BOT_NETDEV_AI;
		goto found;
	}
	if (strncmp(subj, "[PATCH", 6) != 0 && lkp_forwarded(m)) {
		b = WN_BOT_LKP;
		goto found;
	}
	for (; generic_senders && *generic_senders; generic_senders++)
		if (**generic_senders && strcasecmp(*generic_senders, from) == 0) {
			b = WN_BOT_GENERIC;
			goto found;
		}
	return false;
found:
	if (out)
		*out = b;
	return true;
}

/* ---- fingerprint ----
 *
 * FNV-1a, 64 bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3)
 * over:  bot name 0x1f file 0x1f function 0x1f text
 * where a NULL field is empty and the text is normalised on the fly:
 * ASCII letters lower-cased, every run of ASCII whitespace (space, \t,
 * \n, \v, \f, \r) one space, none at either end -- the normalisation
 * wn_text_normalize() documents.  It is spelled out here rather than
 * called so that the fingerprint can never drift: verdicts are stored
 * under it.  Printed as 16 lower-case hex digits.  DO NOT CHANGE. */
#define FNV_BASIS UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t fnv_bytes(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char) *s) * FNV_PRIME;
	return h;
}

static uint64_t fnv_byte(uint64_t h, unsigned char ch)
{
	return (h ^ ch) * FNV_PRIME;
}

static bool fp_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

static uint64_t fnv_normalised(uint64_t h, const char *s)
{
	bool pending = false, any = false;

	for (; s && *s; s++) {
		int ch = (unsigned char) *s;

		if (fp_space(ch)) {
			pending = any;
			continue;
		}
		if (pending)
			h = fnv_byte(h, ' ');
		pending = false;
		any = true;
		if (ch >= 'A' && ch <= 'Z')
			ch += 'a' - 'A';
		h = fnv_byte(h, (unsigned char) ch);
	}
	return h;
}

static uint64_t fp_hash(wn_bot bot, const char *file, const char *function, const char *text)
{
	uint64_t h = FNV_BASIS;

	h = fnv_bytes(h, wn_bot_name(bot));
	h = fnv_byte(h, 0x1f);
	h = fnv_bytes(h, file);
	h = fnv_byte(h, 0x1f);
	h = fnv_bytes(h, function);
	h = fnv_byte(h, 0x1f);
	return fnv_normalised(h, text);
}

static void fp_hex(uint64_t h, char out[WN_FP_LEN + 1])
{
	snprintf(out, WN_FP_LEN + 1, "%016" PRIx64, h);
}

void wn_fingerprint(wn_bot bot, const char *file, const char *function, const char *text,
		    char out[WN_FP_LEN + 1])
{
	fp_hex(fp_hash(bot, file, function, text), out);
}

/* Open-addressing map from hash to a counter: which fingerprints were
 * given out in one review, and how many duplicates a base hash had.
 * Duplicates are rare, but a hostile mail may hold a million of them,
 * so neither lookups nor numbering may go quadratic. */
struct fpmap {
	uint64_t *key;		/* 0: free slot */
	unsigned *val;
	size_t mask;
	bool zero;		/* key 0 itself is present */
	unsigned zero_val;
};

/* The counter of h, inserting it (counter 0) when absent; *fresh tells. */
static unsigned *fpmap_get(struct fpmap *m, uint64_t h, bool *fresh)
{
	size_t i = (size_t) (h ^ (h >> 29)) & m->mask;

	*fresh = false;
	if (!h) {
		*fresh = !m->zero;
		m->zero = true;
		return &m->zero_val;
	}
	while (m->key[i]) {
		if (m->key[i] == h)
			return &m->val[i];
		i = (i + 1) & m->mask;
	}
	m->key[i] = h;
	*fresh = true;
	return &m->val[i];
}

/* Fingerprints, 1-based indexes and the "why nothing" note.  A finding
 * whose fingerprint an earlier one in the same mail already has gets
 * "\x1f#k" (k = 2, 3, ...) hashed on: deterministic, and the first of
 * equal findings keeps the plain one. */
static bool finish(struct rv_ctx *c, wn_bot bot)
{
	wn_review *r = c->r;
	struct fpmap m;
	size_t i, size = 16;
	bool ok = false;

	/* at most two keys per finding (its base and a numbered one) */
	while (size < r->nfindings * 4)
		size *= 2;
	memset(&m, 0, sizeof(m));
	m.key = calloc(size, sizeof(*m.key));
	m.val = calloc(size, sizeof(*m.val));
	if (!m.key || !m.val)
		goto out;
	m.mask = size - 1;
	for (i = 0; i < r->nfindings; i++) {
		wn_finding *f = &r->findings[i];
		bool loc = c->loc_fp[i], fresh;
		uint64_t base, h;
		unsigned *count;

		/* Front ends may count on a summary. */
		if (!f->summary && !(f->summary = calloc(1, 1)))
			goto out;
		base = fp_hash(bot, loc ? f->file : NULL, loc ? f->function : NULL, f->summary);
		h = base;
		count = fpmap_get(&m, base, &fresh);
		while (!fresh) {
			char tag[24];

			/* the base's own counter numbers its duplicates */
			snprintf(tag, sizeof(tag), "#%u", ++*count + 1);
			h = fnv_bytes(fnv_byte(base, 0x1f), tag);
			fpmap_get(&m, h, &fresh);
		}
		fp_hex(h, f->fingerprint);
		f->index = (int) i + 1;
	}
	ok = true;
out:
	free(m.key);
	free(m.val);
	return ok;
}

/* ---- entry point ---- */

wn_status wn_review_parse(wn_bot bot, const char *body, size_t len, wn_review **out, wn_error *err)
{
	struct rv_ctx c;
	struct rv_lines L;
	wn_review *r;
	char *repaired = NULL;
	size_t rlen = 0;

	if (!out)
		return wn_error_set(err, WN_USAGE, "wn_review_parse: no result pointer");
	*out = NULL;
	if ((unsigned) bot >= WN_BOT_COUNT)
		return wn_error_set(err, WN_USAGE, "unknown bot %d", (int) bot);
	r = calloc(1, sizeof(*r));
	if (!r)
		return wn_error_set(err, WN_NOMEM, "out of memory parsing a review");
	r->bot = bot;
	r->declared = -1;
	memset(&c, 0, sizeof(c));
	c.r = r;
	if (!body)
		len = 0;
	/* A copy that was quoted-printable encoded once more than its
	 * headers say (list archives, forwarded copies) is decoded here:
	 * otherwise "part=3D12" and "=\n" soft breaks reach the parsers. */
	if (rv_qp_repair(body, len, &repaired, &rlen) != WN_OK) {
		wn_review_free(&r);
		return wn_error_set(err, WN_NOMEM, "out of memory parsing a review");
	}
	if (repaired) {
		body = repaired;
		len = rlen;
	}
	if (rv_lines_split(body, len, &L) != WN_OK) {
		free(repaired);
		wn_review_free(&r);
		return wn_error_set(err, WN_NOMEM, "out of memory parsing a review");
	}
	switch (bot) {
	case WN_BOT_SASHIKO:
		rv_parse_sashiko(&c, &L);
		break;
	case WN_BOT_BPF_CI:
		rv_parse_bpf_ci(&c, &L);
		break;
	case WN_BOT_NETDEV_AI:
		rv_parse_netdev(&c, &L);
		break;
	case WN_BOT_LKP:
		rv_parse_lkp(&c, &L);
		break;
	case WN_BOT_SYZBOT:
		rv_parse_syzbot(&c, &L);
		break;
	case WN_BOT_GENERIC:
	default:
		rv_parse_generic(&c, &L);
		break;
	}
	rv_lines_free(&L);
	free(repaired);
	if (!c.oom && r->nfindings) {
		free(r->explain);
		r->explain = NULL;
	} else if (!c.oom && !r->explain) {
		rv_explain(&c, "%s mail: nothing parsed", wn_bot_label(bot));
	}
	if (c.oom || !finish(&c, bot)) {
		free(c.loc_fp);
		wn_review_free(&r);
		return wn_error_set(err, WN_NOMEM, "out of memory parsing a review");
	}
	free(c.loc_fp);
	*out = r;
	return WN_OK;
}

void wn_review_free(wn_review **rp)
{
	wn_review *r;
	size_t i;

	if (!rp || !*rp)
		return;
	r = *rp;
	for (i = 0; i < r->nfindings; i++) {
		wn_finding *f = &r->findings[i];

		free(f->summary);
		free(f->file);
		free(f->function);
		free(f->quote);
		free(f->comment);
	}
	free(r->findings);
	free(r->cover_id);
	free(r->patch_subject);
	free(r->explain);
	free(r);
	*rp = NULL;
}
