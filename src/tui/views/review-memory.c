/* winnow TUI — seen before, the series hint, likely fixed (review-memory.h). */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "review-memory.h"
#include "winnow/memory.h"
#include "winnow/series.h"
#include "winnow/text.h"

#define MEMO_LINES 4

/* How far the lookups of a finding went: they are one slice of the
 * view's background work (view_ops.busy), after the slice that lets the
 * key be drawn, so that keys are answered between them.  One slice, not
 * one per lookup: a few tens of ms, and a screen that changes once. */
enum step { STEP_NONE, STEP_QUEUED, STEP_DONE };

/* What is known of one finding. */
struct memo {
	enum step step;
	wn_verdict verdict;	/* when it was looked up */
	wn_severity sev;	/* the maintainer's, then */
	bool has_seen, has_later, has_fixed;
	wn_seen seen;
	wn_later later;
	wn_fixed fixed;
	struct memo_line lines[MEMO_LINES + 1];
};

struct review_memory {
	wn_memory *mem;
	wn_series *series;
	struct memo *m;
	size_t n;
};

static void memo_clear(struct memo *m)
{
	wn_seen_clear(&m->seen);
	wn_later_clear(&m->later);
	wn_fixed_clear(&m->fixed);
	for (size_t k = 0; k < MEMO_LINES; k++)
		free(m->lines[k].text);
	memset(m, 0, sizeof(*m));
}

void review_memory_free(struct review_memory **pr)
{
	struct review_memory *r = pr ? *pr : NULL;

	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		memo_clear(&r->m[i]);
	free(r->m);
	wn_memory_free(&r->mem);
	wn_series_free(&r->series);
	free(r);
	*pr = NULL;
}

static struct review_memory *get(struct tui *t, struct review_memory **pr, const wn_item *it)
{
	struct review_memory *r = *pr;
	size_t n = it->review ? it->review->nfindings : 0;

	if (r)
		return r;
	if (!(r = calloc(1, sizeof(*r))) || !(r->m = calloc(n ? n : 1, sizeof(*r->m))) ||
	    wn_memory_new(t->idx, t->store, &r->mem, NULL) != WN_OK ||
	    wn_series_new(t->idx, &r->series, NULL) != WN_OK) {
		*pr = r;
		review_memory_free(pr);
		return NULL;
	}
	r->n = n;
	return *pr = r;
}

/* --- the lines --------------------------------------------------------------- */

static void add_line(struct memo *m, enum role role, char *text)
{
	size_t k = 0;

	while (k < MEMO_LINES && m->lines[k].text)
		k++;
	if (k == MEMO_LINES || !text) {
		free(text);
		return;
	}
	m->lines[k].role = role;
	m->lines[k].text = text;
}

static void seen_lines(struct memo *m, wn_verdict now)
{
	char date[16];

	format_date(m->seen.date, date);
	/* A suggestion is taken only when the maintainer says so: = asks. */
	add_line(m, role_of_verdict(m->seen.verdict),
		 wn_strdupf("%s: %s on %s, %s%s%s%s", m->seen.sure ? "Seen before" : "Suggestion",
		     wn_verdict_label(m->seen.verdict), m->seen.patch_subject, date,
		     now == m->seen.verdict ? "" : m->seen.sure ? "  (= takes it)" : "  (= asks)",
		     /* Last, where a narrow screen may cut it: why it
		      * matched, to weigh a carry on reworded text. */
		     m->seen.why ? "  - " : "", m->seen.why ? m->seen.why : ""));
	if (m->seen.note)
		add_line(m, ROLE_HEADER, wn_strdupf("  its note: %s", m->seen.note));
	/* Two judged findings as alike: both, for the maintainer to pick. */
	if (m->seen.alt_review)
		add_line(m, role_of_verdict(m->seen.alt_verdict),
			 wn_strdupf("  or: %s, finding %zu: %s", wn_verdict_label(m->seen.alt_verdict),
				    m->seen.alt_finding, m->seen.alt_summary));
}

static void make_lines(struct memo *m, const wn_finding *f)
{
	const char *bot = wn_severity_name(f->severity);

	for (size_t k = 0; k < MEMO_LINES; k++) {
		free(m->lines[k].text);
		m->lines[k].text = NULL;
	}

	if (m->sev != WN_SEV_NONE)
		add_line(m, role_of_severity(m->sev), wn_strdupf("Your severity: %s (the bot's: %s)",
							    wn_severity_name(m->sev), bot ? bot : "none"));
	if (m->has_seen)
		seen_lines(m, m->verdict);
	if (m->has_later)
		add_line(m, ROLE_PRECLAIM,
			 wn_strdupf("Patch %d/%d changes this function too: %s  (+ opens it)", m->later.part,
			     m->later.total, m->later.subject ? m->later.subject : m->later.patch));
	if (m->has_fixed)
		add_line(m, ROLE_V_VALID,
			 wn_strdupf("Likely fixed in v%d: the bot no longer reports it on %s", m->fixed.version,
			     m->fixed.subject ? m->fixed.subject : m->fixed.patch));
}

/* The lookups of finding i, the first slice none (so that the key that
 * brought the cursor there is drawn before them).  True while more is
 * left. */
bool review_memory_work(struct tui *t, struct review_memory **pr, wn_item *it, size_t i)
{
	struct review_memory *r;
	struct memo *m;
	wn_verdict v;
	wn_severity sev;

	if (!it->loaded || it->load_error || !it->verdicts || !(r = get(t, pr, it)) || i >= r->n)
		return false;
	m = &r->m[i];
	v = it->verdicts[i];
	sev = it->severity ? it->severity[i] : WN_SEV_NONE;
	if (m->step != STEP_NONE && (m->verdict != v || m->sev != sev))
		memo_clear(m);
	switch (m->step) {
	case STEP_NONE:
		m->verdict = v;
		m->sev = sev;
		break;
	case STEP_QUEUED:
		m->has_seen = wn_memory_lookup(r->mem, it, i, &m->seen, NULL) == WN_OK;
		m->has_later = wn_series_later(r->series, it, i, &m->later, NULL) == WN_OK;
		m->has_fixed = wn_series_fixed(r->series, it, i, &m->fixed, NULL) == WN_OK;
		break;
	case STEP_DONE:
		return false;
	}
	m->step++;
	make_lines(m, &it->review->findings[i]);
	return m->step != STEP_DONE;
}

static void review_memory_prepare(struct tui *t, struct review_memory **pr, wn_item *it, size_t i)
{
	while (review_memory_work(t, pr, it, i))
		;
}

const struct memo_line *review_memory_lines(const struct review_memory *r, size_t i)
{
	return r && i < r->n && r->m[i].step != STEP_NONE ? r->m[i].lines : NULL;
}

/* --- the keys ------------------------------------------------------------------ */

static bool accept_verdict(struct tui *t, wn_item *it, size_t i, wn_verdict v, const char *note,
			   wn_reason reason);

/* = : the verdict and note of the finding seen before. */
static bool accept(struct tui *t, struct review_memory *r, wn_item *it, size_t i)
{
	const struct memo *m = &r->m[i];

	if (!m->has_seen) {
		tui_msg(t, ROLE_WARNING, "no similar finding was judged before");
		return false;
	}
	/* Not sure: the maintainer chooses it, or (two as alike) which. */
	if (m->seen.alt_review) {
		/* Short: the prompt shows half the width of its label, and
		 * 80 columns must show all of it. */
		char *s = prompt_line(t, "Take 1 (seen before) or 2 (or: line)? ", "");
		bool one = s && strcmp(s, "1") == 0, two = s && strcmp(s, "2") == 0;

		free(s);
		if (!one && !two) {
			tui_msg(t, ROLE_STATUS, "nothing taken");
			return false;
		}
		if (two)
			return accept_verdict(t, it, i, m->seen.alt_verdict, NULL, WN_REASON_NONE);
	} else if (!m->seen.sure && !prompt_yesno(t, "Only a suggestion: take its verdict? ")) {
		tui_msg(t, ROLE_STATUS, "nothing taken");
		return false;
	}
	return accept_verdict(t, it, i, m->seen.verdict, m->seen.note, m->seen.reason);
}

/* Mark finding i of it v, with note and reason, as = does. */
static bool accept_verdict(struct tui *t, wn_item *it, size_t i, wn_verdict v, const char *note,
			   wn_reason reason)
{
	wn_error err = WN_ERROR_INIT;
	wn_mark_target tg = { it, i + 1 };
	wn_status st;

	/* Its reason too, when it was given one. */
	st = reason ? wn_store_mark_why(t->store, &tg, 1, v, note, reason, &err)
		    : wn_store_mark(t->store, it, i + 1, v, note, &err);
	if (st != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot mark: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	/* As tui_mark(): the driver tells every view. */
	wn_buf_printf(&t->changed, "%s\n", it->id);
	tui_flush(t);
	if (!t->msg.len)
		tui_msg(t, ROLE_STATUS, "marked finding %zu %s, as before%s", i + 1,
			wn_verdict_name(v), note ? ", with its note" : "");
	return true;
}

/* + : the later patch in the pager, at its hunk. */
static void open_later(struct tui *t, struct review_memory *r, size_t i)
{
	const struct memo *m = &r->m[i];
	wn_error err = WN_ERROR_INIT;
	char *text = NULL;
	int header = 0;
	wn_status st;

	if (!m->has_later) {
		tui_msg(t, ROLE_WARNING, "no later patch of this series changes this function");
		return;
	}
	st = wn_series_patch_text(r->series, m->later.patch, &text, &header, &err);
	if (st == WN_OK) {
		display_suspend();
		st = wn_run_pager(text, header + m->later.mail_line, &err);
		display_resume();
	}
	if (st != WN_OK)
		tui_msg(t, ROLE_ERROR, "cannot show patch %d/%d: %s", m->later.part, m->later.total,
			wn_error_msg(&err));
	free(text);
	wn_error_clear(&err);
}

/* ! : the maintainer's own severity, by its first letter; the grades
 * are WN_SEVERITY_LIST's, so prompt and warning are made from it. */
static void severity(struct tui *t, wn_item *it, size_t i)
{
	wn_severity now = it->severity ? it->severity[i] : WN_SEV_NONE, sev = WN_SEV_COUNT;
	wn_error err = WN_ERROR_INIT;
	/* A default, not text to edit: "h" typed over "none" is "high". */
	char *s = prompt_default(t, "Your severity (" WN_SEV_GRADES_COMMA "empty: none): ",
				 wn_severity_name(now));

	if (!s)
		return;
	wn_text_trim(s);
	if (!*s)
		sev = WN_SEV_NONE;
	for (int k = 0; *s && sev == WN_SEV_COUNT && k < WN_SEV_COUNT; k++)
		if (wn_severity_graded((wn_severity) k) &&
		    !strncasecmp(s, wn_severity_name((wn_severity) k), strlen(s)))
			sev = (wn_severity) k;
	if (sev == WN_SEV_COUNT) {
		tui_msg(t, ROLE_WARNING, "not a severity: " WN_SEV_GRADES_COMMA "or empty");
	} else if (wn_store_set_severity(t->store, it, i + 1, sev, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot set the severity: %s", wn_error_msg(&err));
	} else {
		wn_buf_printf(&t->changed, "%s\n", it->id);
		tui_flush(t);
		if (!t->msg.len)
			tui_msg(t, ROLE_STATUS, "finding %zu: your severity %s", i + 1,
				sev == WN_SEV_NONE ? "removed" : wn_severity_name(sev));
	}
	free(s);
	wn_error_clear(&err);
}

bool review_memory_request(struct tui *t, struct review_memory **pr, wn_item *it, size_t i,
			   enum action a)
{
	struct review_memory *r = *pr;

	if (!it->review || i >= it->review->nfindings) {
		tui_msg(t, ROLE_WARNING, "this review has no findings");
		return false;
	}
	if (a == ACT_SEVERITY) {
		severity(t, it, i);
		return false;
	}
	review_memory_prepare(t, pr, it, i);
	if (!(r = *pr))
		return false;
	if (a == ACT_ACCEPT_SEEN)
		return accept(t, r, it, i);
	open_later(t, r, i);
	return false;
}
