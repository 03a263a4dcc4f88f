/* winnow — findings as a SARIF 2.1.0 log (sarif.h).
 *
 * A finding is a result of its bot's run:
 *   ruleId          the bot and the severity ("sashiko/high"; a bot
 *                   without severities: "syzbot/finding"), one rule
 *                   each in the run's tool.driver.rules, so that
 *                   code-scanning tools group results; ruleIndex is
 *                   the severity's place in the list of severities,
 *                   which the rules follow
 *   level           from the severity (critical, high, error: error;
 *                   medium, warning, none given: warning; low, note: note)
 *   locations       the file (as a URI reference) and line, the
 *                   function as a logical location
 *   partialFingerprints  the finding's fingerprint
 *   suppressions    a false positive: external, accepted, the reason
 *                   and the note as the justification ("wrong-rule: the
 *                   note"), the reason's name in its properties
 *   baselineState   pre-existing: unchanged; valid: new
 *   properties      the finding's record as `winnow export` prints it
 *                   (record.h): review, patch, author, attribution,
 *                   the bot's claim, the verdict, note and forwarding */
#include "autoconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "sarif.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define FINGERPRINT_KEY "winnowFingerprint/v1"
/* Where a run's results sit: the log's map, "runs", the run's map,
 * "results". */
#define RESULTS_DEPTH 4

/* Each bot's results are written, as the reviews come, to a spool of
 * their own, by a printer that writes them exactly as they will stand
 * in the log; the log then copies each spool into its run. */
#define SPOOL_BUF (1u << 16)

struct wn_sarif {
	FILE *spool[WN_BOT_COUNT];	/* each bot's results */
	char *spool_buf[WN_BOT_COUNT];	/* its stdio buffer (SPOOL_BUF) */
	wn_printer *pr[WN_BOT_COUNT];	/* writing them */
};

static const char *const levels[WN_SEV_COUNT] = {
	[WN_SEV_NONE] = "warning",
	[WN_SEV_CRITICAL] = "error",
	[WN_SEV_HIGH] = "error",
	[WN_SEV_MEDIUM] = "warning",
	[WN_SEV_LOW] = "note",
	[WN_SEV_ERROR] = "error",
	[WN_SEV_WARNING] = "warning",
	[WN_SEV_NOTE] = "note",
	[WN_SEV_UNKNOWN] = "warning",
};

wn_status wn_sarif_new(wn_sarif **out, wn_error *err)
{
	*out = calloc(1, sizeof(**out));
	return *out ? WN_OK : wn_error_set(err, WN_NOMEM, "out of memory");
}

void wn_sarif_free(wn_sarif **ps)
{
	wn_sarif *s = ps ? *ps : NULL;

	if (!s)
		return;
	for (int b = 0; b < WN_BOT_COUNT; b++) {
		wn_printer_free(&s->pr[b]);
		if (s->spool[b])
			fclose(s->spool[b]);
		free(s->spool_buf[b]);
	}
	free(s);
	*ps = NULL;
}

static void field(wn_printer *p, const char *key, const char *s)
{
	p->map_key(p, key);
	p->string(p, s);
}

/* A path from mail as a URI reference: every byte but the unreserved
 * ones and '/' percent-encoded ("drivers/net/a b.c" has a space). */
static char *uri_of(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	wn_buf b = WN_BUF_INIT;

	for (const unsigned char *c = (const unsigned char *) path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("-._~/", *c)) {
			wn_buf_putc(&b, (char) *c);
		} else {
			wn_buf_putc(&b, '%');
			wn_buf_putc(&b, hex[*c >> 4]);
			wn_buf_putc(&b, hex[*c & 15]);
		}
	}
	return wn_buf_steal(&b);
}

static void location(wn_printer *p, const wn_finding *f)
{
	char *uri;

	if (f->about_commit_msg || !f->file || !*f->file)
		return;
	uri = uri_of(f->file);
	p->map_key(p, "locations");
	p->begin_list(p);
	p->begin_map(p);
	p->map_key(p, "physicalLocation");
	p->begin_map(p);
	p->map_key(p, "artifactLocation");
	p->begin_map(p);
	field(p, "uri", uri ? uri : "");
	p->end(p);
	if (f->line > 0) {
		p->map_key(p, "region");
		p->begin_map(p);
		p->map_key(p, "startLine");
		p->integer(p, f->line);
		p->end(p);
	}
	p->end(p);
	if (f->function && *f->function) {
		p->map_key(p, "logicalLocations");
		p->begin_list(p);
		p->begin_map(p);
		field(p, "name", f->function);
		field(p, "kind", "function");
		p->end(p);
		p->end(p);
	}
	p->end(p);
	p->end(p);
	free(uri);
}

/* What the maintainer decided, in SARIF's terms. */
static void verdict(wn_printer *p, wn_verdict v, const char *note, wn_reason reason)
{
	const char *why = wn_reason_name(reason);

	if (v == WN_VERDICT_PREEXISTING || v == WN_VERDICT_VALID)
		field(p, "baselineState", v == WN_VERDICT_PREEXISTING ? "unchanged" : "new");
	if (v != WN_VERDICT_FALSE_POSITIVE)
		return;
	p->map_key(p, "suppressions");
	p->begin_list(p);
	p->begin_map(p);
	field(p, "kind", "external");
	field(p, "status", "accepted");
	if (why && note && *note) {
		char *both = wn_strdupf("%s: %s", why, note);

		field(p, "justification", both ? both : why);
		free(both);
	} else if (why || (note && *note)) {
		field(p, "justification", why ? why : note);
	}
	/* The name alone, for tools that count suppressions by reason. */
	if (why) {
		p->map_key(p, "properties");
		p->begin_map(p);
		field(p, "reason", why);
		p->end(p);
	}
	p->end(p);
	p->end(p);
}

/* The rule of bot's findings of severity sev, "sashiko/high", as key:
 * a result's "ruleId", a rule's "id". */
static void rule_id(wn_printer *p, const char *key, wn_bot bot, wn_severity sev)
{
	char id[64];
	const char *name = wn_severity_name(sev);

	snprintf(id, sizeof(id), "%s/%s", wn_bot_name(bot), name ? name : "finding");
	field(p, key, id);
}

static wn_severity severity_of(const wn_finding *f)
{
	return (unsigned) f->severity < WN_SEV_COUNT ? f->severity : WN_SEV_UNKNOWN;
}

static void result(wn_printer *p, const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	wn_severity sev = severity_of(f);

	p->begin_map(p);
	rule_id(p, "ruleId", it->bot, sev);
	p->map_key(p, "ruleIndex");
	p->integer(p, (long long) sev);
	field(p, "level", levels[sev]);
	p->map_key(p, "message");
	p->begin_map(p);
	field(p, "text", f->summary && *f->summary ? f->summary : "(no summary)");
	p->end(p);
	location(p, f);
	p->map_key(p, "partialFingerprints");
	p->begin_map(p);
	field(p, FINGERPRINT_KEY, f->fingerprint);
	p->end(p);
	verdict(p, it->verdicts[i], it->notes[i], it->reasons ? it->reasons[i] : WN_REASON_NONE);
	/* Everything else is the record `winnow export` prints. */
	p->map_key(p, "properties");
	wn_print_finding_record(p, it, i);
	p->end(p);
}

wn_status wn_sarif_add(wn_sarif *s, const wn_item *it, wn_error *err)
{
	unsigned b = (unsigned) it->bot < WN_BOT_COUNT ? (unsigned) it->bot : WN_BOT_GENERIC;

	if (!it->review || !it->review->nfindings)
		return WN_OK;
	if (!s->spool[b]) {
		s->spool[b] = tmpfile();
		if (!s->spool[b])
			return wn_error_set(err, WN_IO, "cannot make a temporary file: %s", strerror(errno));
		/* Tens of MiB at 100k reviews: in big writes, not stdio's
		 * 4 KiB (glibc takes a size only with a buffer given). */
		s->spool_buf[b] = malloc(SPOOL_BUF);
		if (s->spool_buf[b] && setvbuf(s->spool[b], s->spool_buf[b], _IOFBF, SPOOL_BUF) != 0) {
			free(s->spool_buf[b]);
			s->spool_buf[b] = NULL;
		}
		s->pr[b] = wn_printer_json_new_nested(s->spool[b], RESULTS_DEPTH);
		if (!s->pr[b])
			return wn_error_set(err, WN_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < it->review->nfindings; i++)
		result(s->pr[b], it, i);
	if (ferror(s->spool[b]))
		return wn_error_set(err, WN_IO, "cannot write a temporary file: %s", strerror(errno));
	return WN_OK;
}

static wn_status run(wn_sarif *s, wn_printer *p, wn_bot b, wn_error *err)
{
	wn_status st = WN_OK;

	p->begin_map(p);
	p->map_key(p, "tool");
	p->begin_map(p);
	p->map_key(p, "driver");
	p->begin_map(p);
	field(p, "name", wn_bot_name(b));
	field(p, "fullName", wn_bot_label(b));
	/* Every severity's rule, in the order ruleIndex counts. */
	p->map_key(p, "rules");
	p->begin_list(p);
	for (int sev = 0; sev < WN_SEV_COUNT; sev++) {
		const char *name = wn_severity_name((wn_severity) sev);
		char text[128];

		p->begin_map(p);
		rule_id(p, "id", b, (wn_severity) sev);
		p->map_key(p, "shortDescription");
		p->begin_map(p);
		snprintf(text, sizeof(text), "%s finding%s%s", wn_bot_label(b),
			 name ? ", severity " : " without a severity", name ? name : "");
		field(p, "text", text);
		p->end(p);
		p->map_key(p, "defaultConfiguration");
		p->begin_map(p);
		field(p, "level", levels[sev]);
		p->end(p);
		p->end(p);
	}
	p->end(p);
	p->end(p);
	p->end(p);
	p->map_key(p, "results");
	p->begin_list(p);
	if (!wn_printer_json_splice(p, s->pr[b]))
		st = wn_error_set(err, WN_IO, "cannot read back a temporary file: %s", strerror(errno));
	p->end(p);
	p->end(p);
	return st;
}

wn_status wn_sarif_write(wn_sarif *s, wn_printer *p, wn_error *err)
{
	wn_status st = WN_OK;

	p->begin_map(p);
	field(p, "$schema", SARIF_SCHEMA);
	field(p, "version", "2.1.0");
	p->map_key(p, "runs");
	p->begin_list(p);
	for (int b = 0; b < WN_BOT_COUNT && st == WN_OK; b++)
		if (s->spool[b])
			st = run(s, p, (wn_bot) b, err);
	p->end(p);
	p->end(p);
	return st;
}
