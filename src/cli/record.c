/* winnow — a finding as one flat record (record.h). */
#include "autoconfig.h"

#include <time.h>

#include "record.h"

static void field(wn_printer *p, const char *key, const char *s)
{
	p->map_key(p, key);
	p->string(p, s);
}

/* Message-IDs survive exactly (see wn_printer.msgid). */
static void field_id(wn_printer *p, const char *key, const char *id)
{
	p->map_key(p, key);
	p->msgid(p, id);
}

static void field_int(wn_printer *p, const char *key, bool has, long long v)
{
	p->map_key(p, key);
	if (has)
		p->integer(p, v);
	else
		p->null(p);
}

/* "2026-11-04T10:12:00Z"; "" for no date. */
static void iso_date(time_t t, char out[32])
{
	struct tm tm;

	out[0] = '\0';
	if (t > 0 && gmtime_r(&t, &tm))
		strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void patch_fields(wn_printer *p, const wn_item *it)
{
	const wn_patch *pt = it->patch;
	const wn_attribution *a = pt && pt->trailers ? &pt->trailers->attr : NULL;

	field_id(p, "patch", pt ? pt->id : NULL);
	field(p, "patch_subject", pt ? pt->subject : NULL);
	field(p, "author", pt ? pt->author : NULL);
	field(p, "list", pt ? pt->list : NULL);
	field(p, "attribution", a ? wn_attr_name(a->status) : NULL);
	field(p, "model", a && a->status == WN_ATTR_MODEL ? a->model : NULL);
}

void wn_print_finding_record(wn_printer *p, const wn_item *it, size_t i)
{
	const wn_finding *f = &it->review->findings[i];
	char date[32];

	iso_date(it->date, date);
	p->begin_map(p);
	field_id(p, "review", it->id);
	field(p, "bot", wn_bot_name(it->bot));
	field(p, "review_date", *date ? date : NULL);
	patch_fields(p, it);
	field_int(p, "finding", true, f->index);
	field(p, "fingerprint", f->fingerprint);
	field(p, "severity", wn_severity_name(f->severity));
	p->map_key(p, "preexisting_claim");
	p->boolean(p, f->preexisting);
	field(p, "file", f->about_commit_msg ? NULL : f->file);
	field_int(p, "line", f->line > 0 && !f->about_commit_msg, f->line);
	field(p, "function", f->about_commit_msg ? NULL : f->function);
	p->map_key(p, "about_commit_message");
	p->boolean(p, f->about_commit_msg);
	field(p, "summary", f->summary);
	field(p, "verdict", wn_verdict_name(it->verdicts[i]));
	field(p, "note", it->notes[i]);
	field(p, "reason", it->reasons ? wn_reason_name(it->reasons[i]) : NULL);
	field(p, "forwarded", it->forwarded[i]);
	p->end(p);
}
