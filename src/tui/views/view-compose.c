/* winnow TUI — forwarding a review's valid findings, the way mutt's
 * compose menu does it: the draft opens in $VISUAL/$EDITOR at once,
 * then this view shows From/To/Cc/Subject, the findings and the body,
 * and waits for: y send, e edit again, P postpone, p add or drop the
 * pre-existing findings, F switch between the reply to the review and
 * the full forward, q cancel.  F on a review with a postponed draft
 * offers to resume it.
 *
 * A review the author has already (wn_forward_reached: the bot mailed
 * them, or a maintainer passed it on) gets a reply to it with the
 * verdicts, as `winnow forward` writes; the header says which kind of
 * mail it is.
 *
 * The view holds forward.lock from opening to closing, as a CLI
 * `forward` holds it from composing to sending: the two never send
 * the same patch's mail at once.  A resumed draft that a killed winnow
 * had handed to sendmail asks before it is sent again.
 *
 * The draft file is the truth: every step reads it back, and it stays
 * on disk until the mail is sent or the user discards it, whatever
 * fails in between. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "winnow/forward.h"
#include "winnow/text.h"
#include "view.h"

struct compose {
	wn_item *it;		/* the review (the queue's) */
	wn_forward *f;
	char *dir;		/* the drafts folder */
	char *composed;		/* the draft text as composed, to see edits */
	char **lines;		/* the body, for the list */
	size_t nlines;
	char *problem;		/* why it cannot be sent now; NULL */
	char *optout;		/* recipients in winnow.optout; NULL */
	char *doubt;		/* it may have been sent already: why; NULL */
	int lock;		/* forward.lock, held while the view is open */
	bool full;		/* F: the full forward even though the author has the review */
	wn_reached reach;	/* has the author the review; WN_REACH_NO when
				 * it cannot be told (the full forward) */
	int header_y, header_h;
};

static const struct hint compose_hints[] = {
	{ ACT_SEND, "send" }, { ACT_EDIT, "edit" }, { ACT_POSTPONE, "postpone" }, { ACT_TO_DRAFTS, "drafts" },
	{ ACT_MARK_PRE, "pre-existing" }, { ACT_FORWARD, "reply/full" }, { ACT_BACK, "cancel" },
	{ ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

/* --- state ------------------------------------------------------------- */

static void set_problem(struct compose *c, const char *what, const wn_error *err)
{
	wn_buf b = WN_BUF_INIT;

	free(c->problem);
	c->problem = NULL;
	if (what && wn_buf_printf(&b, "%s%s%s", what, err ? ": " : "", err ? wn_error_msg(err) : "") == WN_OK)
		c->problem = wn_buf_steal(&b);
	wn_buf_free(&b);
}

static void lines_free(struct compose *c)
{
	for (size_t i = 0; i < c->nlines; i++)
		free(c->lines[i]);
	free(c->lines);
	c->lines = NULL;
	c->nlines = 0;
}

/* The body as list rows, and who of the recipients opted out. */
static void refresh_view(struct tui *t, struct view *v, struct compose *c)
{
	lines_free(c);
	text_wrap(c->f->body ? c->f->body : "", COLS > 4 ? COLS - 2 : 2, false, &c->lines, &c->nlines);
	v->lines = c->nlines;
	if (v->cursor >= v->lines)
		v->cursor = v->lines ? v->lines - 1 : 0;
	free(c->optout);
	c->optout = wn_forward_optouts(wn_index_conf(t->idx), c->f);
}

static bool save(struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	wn_buf text = WN_BUF_INIT;
	bool ok = wn_forward_draft_save(c->f, c->dir, &err) == WN_OK;

	if (!ok)
		set_problem(c, "cannot save the draft", &err);
	free(c->composed);
	c->composed = ok && wn_forward_draft_text(c->f, &text) == WN_OK ? wn_buf_steal(&text) : NULL;
	wn_buf_free(&text);
	wn_error_clear(&err);
	return ok;
}

/* Read the draft file back into f. */
static bool reload(struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	bool ok = wn_forward_draft_reload(c->f, c->dir, &err) == WN_OK;

	set_problem(c, ok ? NULL : "the draft does not read (e: edit it)", ok ? NULL : &err);
	wn_error_clear(&err);
	return ok;
}

/* The editor on the draft, curses put aside meanwhile. */
static void edit(struct tui *t, struct view *v, struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	char *path = wn_forward_draft_path(c->f, c->dir);
	const char *paths[1] = { path };
	wn_status st;

	if (!path) {
		tui_msg(t, ROLE_ERROR, "out of memory");
		return;
	}
	display_suspend();
	st = wn_run_editor(paths, 1, &err);
	display_resume();
	if (reload(c) && st != WN_OK)
		set_problem(c, "the editor failed; the draft is kept", &err);
	refresh_view(t, v, c);
	free(path);
	wn_error_clear(&err);
}

/* --- opening: resume or compose --------------------------------------- */

static bool offer_draft(struct tui *t, struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	wn_forward *f = NULL;
	wn_status st = wn_forward_draft_find(c->dir, &c->it, 1, &f, &err);
	char when[32] = "", question[96];
	struct tm tm;

	/* One that cannot be resumed was set aside: a new one follows. */
	if (st != WN_OK && st != WN_NOT_FOUND)
		tui_msg(t, ROLE_WARNING, "the postponed draft cannot be resumed: %s", wn_error_msg(&err));
	wn_error_clear(&err);
	if (st != WN_OK)
		return false;
	if (localtime_r(&f->created, &tm))
		strftime(when, sizeof(when), " of %Y-%m-%d %H:%M", &tm);
	snprintf(question, sizeof(question), "Resume the draft%s postponed for this review? (n: a new one)",
		 when);
	if (!prompt_yesno(t, question)) {
		wn_forward_free(&f);
		return false;
	}
	c->f = f;
	return true;
}

static bool compose_new(struct tui *t, struct compose *c, bool preexisting)
{
	wn_fwd_opts o = { preexisting, false, c->full };
	wn_error err = WN_ERROR_INIT;
	wn_forward *f = NULL;

	/* A syzbot report's reply is a command to the bot. */
	wn_status st = wn_forward_is_syz(c->it) ? wn_forward_syz_compose(t->idx, c->it, &f, &err)
						 : wn_forward_compose(t->idx, &c->it, 1, &o, &f, &err);

	if (st != WN_OK) {
		tui_msg(t, ROLE_WARNING, "%s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	/* Reading the mails may leave a message behind on success. */
	wn_error_clear(&err);
	wn_forward_free(&c->f);
	c->f = f;
	return save(c);
}

/* forward.lock, or say who has it.  Never waits: the other holder may
 * be a CLI forward with its editor open for as long as it likes.  With
 * it, what other runs sent is read in before anything is composed. */
static bool take_lock(struct tui *t, struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	bool busy = false;

	if (wn_forward_lock(&c->lock, &busy, &err) != WN_OK)
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
	else if (busy)
		tui_msg(t, ROLE_WARNING, "another winnow forward is running: F again when it has finished");
	else if (wn_store_refresh(t->store, &err) != WN_OK)
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
	else {
		wn_store_overlay(t->store, c->it);
		return true;
	}
	wn_forward_unlock(&c->lock);
	wn_error_clear(&err);
	return false;
}

/* Did a winnow that stopped half-way hand this draft to sendmail? */
static void find_doubt(struct tui *t, struct compose *c)
{
	wn_error err = WN_ERROR_INIT;

	free(c->doubt);
	c->doubt = NULL;
	if (wn_forward_doubt(t->store, c->f, &c->doubt, &err) != WN_OK)
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
	wn_error_clear(&err);
}

static bool compose_open(struct tui *t, struct view *v, void *arg)
{
	struct compose *c = v->priv;
	wn_error err = WN_ERROR_INIT;
	bool resumed;

	c->it = arg;
	c->lock = -1;
	if (!take_lock(t, c))
		return false;
	if (wn_draft_dir(&c->dir, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "%s", wn_error_msg(&err));
		wn_error_clear(&err);
		wn_forward_unlock(&c->lock);
		return false;
	}
	/* Who has the review decides the kind of mail; not knowing (a mail
	 * that does not read) leaves the full forward, which composing
	 * refuses with the reason if it must. */
	if (wn_forward_reached(t->idx, c->it, &c->reach, NULL) != WN_OK)
		wn_reached_clear(&c->reach);
	resumed = offer_draft(t, c);
	/* A postponed full forward of a review the author has stays one. */
	if (resumed)
		c->full = c->f->kind == WN_FWD_FULL && c->reach.how != WN_REACH_NO;
	if (!resumed && !compose_new(t, c, false)) {
		if (c->f)
			tui_msg(t, ROLE_ERROR, "%s", c->problem ? c->problem : "cannot save the draft");
		wn_forward_free(&c->f);
		free(c->dir);
		free(c->composed);
		free(c->problem);
		wn_reached_clear(&c->reach);
		wn_forward_unlock(&c->lock);
		return false;
	}
	/* Only a resumed draft keeps a Message-ID that may have gone out. */
	if (resumed)
		find_doubt(t, c);
	if (resumed) {
		/* A resumed draft goes straight to the question, as in mutt:
		 * e opens it again. */
		reload(c);
		refresh_view(t, v, c);
	} else {
		edit(t, v, c);
	}
	return true;
}

static void compose_done(struct tui *t, struct view *v)
{
	struct compose *c = v->priv;

	wn_forward_free(&c->f);
	lines_free(c);
	free(c->dir);
	free(c->composed);
	free(c->problem);
	free(c->optout);
	free(c->doubt);
	wn_reached_clear(&c->reach);
	wn_forward_unlock(&c->lock);
}

/* --- drawing ------------------------------------------------------------ */

/* The header lines: fields, the findings, then what stands in the way. */
enum { H_FROM, H_TO, H_CC, H_SUBJECT, H_KIND, H_FINDINGS, H_NOTICE, H_BLANK, H_COUNT };

/* Which kind of mail this is, the first thing the confirm step says:
 * a reply to the review the author holds, or a forward to the patch. */
static void kind_row(const struct compose *c, struct row *r)
{
	char when[16];

	if (c->f->kind == WN_FWD_VERDICTS) {
		row_add(r, ROLE_HEADER, CELL_NATURAL, "a reply to the review (the author has it)");
		if (c->reach.how == WN_REACH_HUMAN) {
			format_date(c->reach.date, when);
			row_addf(r, ROLE_WARNING, CELL_FLEX, "%s sent it to them on %s", c->reach.by, when);
		} else {
			row_add(r, ROLE_DEFAULT, CELL_FLEX, "F: the full forward instead");
		}
		return;
	}
	row_add(r, ROLE_HEADER, CELL_NATURAL, "a forward to the patch");
	if (c->reach.how != WN_REACH_NO)
		row_add(r, ROLE_DEFAULT, CELL_FLEX, "(the author has the review; F: a reply to it instead)");
}

static void header_row(struct compose *c, int k, struct row *r)
{
	static const char *const names[] = { "From:", "To:", "Cc:", "Subject:" };
	const wn_forward *f = c->f;
	const char *values[] = { f->from, f->to, f->cc && *f->cc ? f->cc : "(none)", f->subject };

	if (k == H_KIND) {
		kind_row(c, r);
	} else if (k <= H_SUBJECT) {
		row_add(r, ROLE_HEADER, 9, names[k]);
		row_add(r, k == H_TO && c->optout ? ROLE_WARNING : ROLE_DEFAULT, CELL_FLEX, values[k]);
	} else if (k == H_FINDINGS && f->kind == WN_FWD_VERDICTS) {
		/* The author has the review: this answers it. */
		size_t n = wn_forward_recipients(f);

		/* (A cell holds so much: the kind row above says what it is.) */
		row_addf(r, ROLE_NCOUNT, CELL_NATURAL, "%zu valid, %zu false positive%s, %zu not checked;",
			 f->nvalid, f->nfalse, f->nfalse == 1 ? "" : "s", f->nunchecked);
		row_addf(r, ROLE_NCOUNT, CELL_NATURAL, "%zu address%s", n, n == 1 ? "" : "es");
		if (f->preexisting || f->npre)
			row_add(r, ROLE_V_PREEXISTING, CELL_FLEX, f->npre ? "and the pre-existing ones (p: drop them)"
									  : "(no pre-existing ones)");
	} else if (k == H_FINDINGS) {
		size_t n = wn_forward_recipients(f);

		row_addf(r, ROLE_NCOUNT, CELL_NATURAL, "%zu valid finding%s; %zu address%s", f->nvalid,
			 f->nvalid == 1 ? "" : "s", n, n == 1 ? "" : "es");
		row_add(r, ROLE_V_PREEXISTING, CELL_FLEX,
			f->preexisting ? (f->npre ? "and the pre-existing ones (p: drop them)"
						  : "(no pre-existing ones)")
				       : "(pre-existing ones left out; p: add them)");
	} else if (k == H_NOTICE) {
		if (c->problem)
			row_add(r, ROLE_ERROR, CELL_FLEX, c->problem);
		else if (c->doubt)
			row_add(r, ROLE_WARNING, CELL_FLEX, c->doubt);
		else if (c->optout)
			row_addf(r, ROLE_WARNING, CELL_NATURAL, "opted out of bot findings (winnow.optout):");
		else if (f->notice)
			row_add(r, ROLE_WARNING, CELL_FLEX, f->notice);
		if (!c->problem && !c->doubt && c->optout)
			row_add(r, ROLE_WARNING, CELL_FLEX, c->optout);
	}
}

static void compose_layout(struct tui *t, struct view *v, int top, int height)
{
	struct compose *c = v->priv;
	int h = height > H_COUNT + 2 ? H_COUNT : height / 2;

	c->header_y = top;
	c->header_h = h;
	v->list_y = top + h;
	v->list_h = height - h;
}

static void compose_draw(struct tui *t, struct view *v)
{
	struct compose *c = v->priv;

	for (int k = 0; k < c->header_h; k++) {
		struct row r = { .n = 0 };

		header_row(c, k, &r);
		view_draw_row(t, c->header_y + k, &r, false);
	}
}

static void compose_title(struct tui *t, struct view *v, struct row *r)
{
	struct compose *c = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s forward %s", ui_dash(), ui_dash());
	row_add(r, ROLE_TITLE, CELL_FLEX, c->f->subject);
}

static void compose_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct compose *c = v->priv;
	const char *l = c->lines[i];

	row_add(r, l[0] == '>' ? ROLE_QUOTE : ROLE_DEFAULT, CELL_FLEX, l);
}

/* --- actions -------------------------------------------------------------- */

/* The draft read back, then the questions before the mail leaves: it
 * may be out already (again: "send again?"), someone opted out
 * (anyway: "Send anyway?").  true to go on; *said: the reason not to
 * is on the status line already. */
static bool go_ahead(struct tui *t, struct view *v, struct compose *c, const char *again, const char *anyway,
		     bool *said)
{
	wn_buf q = WN_BUF_INIT;
	bool go = true;

	*said = false;
	if (!reload(c)) {
		refresh_view(t, v, c);
		tui_msg(t, ROLE_ERROR, "%s", c->problem);
		*said = true;
		return false;
	}
	refresh_view(t, v, c);
	if (c->doubt) {
		find_doubt(t, c);
		if (c->doubt) {
			/* Half of this question could read as a yes to something else. */
			if (wn_buf_printf(&q, "%s; %s", c->doubt, again) != WN_OK)
				go = false;
			else
				go = prompt_yesno(t, wn_buf_str(&q));
			wn_buf_free(&q);
		}
	}
	if (go && c->optout) {
		if (wn_buf_printf(&q, "%s opted out of bot findings. %s", c->optout, anyway) != WN_OK)
			go = false;	/* "not sent; the draft is kept" */
		else
			go = prompt_yesno(t, wn_buf_str(&q));
		wn_buf_free(&q);
	}
	/* A mail to half of MAINTAINERS is confirmed, with its size. */
	if (go && wn_forward_recipients(c->f) > (size_t) wn_index_conf(t->idx)->max_recipients) {
		if (wn_buf_printf(&q, "This mail goes to %zu addresses, more than winnow.max_recipients (%d). %s",
				  wn_forward_recipients(c->f), wn_index_conf(t->idx)->max_recipients, anyway) != WN_OK)
			go = false;
		else
			go = prompt_yesno(t, wn_buf_str(&q));
		wn_buf_free(&q);
	}
	return go;
}

/* Send, after the second question when someone opted out. */
static struct view_req send(struct tui *t, struct view *v, struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	char *warning = NULL;
	bool said;

	if (!go_ahead(t, v, c, "send again?", "Send anyway?", &said)) {
		if (!said)
			tui_msg(t, ROLE_STATUS, "not sent; the draft is kept");
		return req_done();
	}
	tui_msg(t, ROLE_STATUS, "sending%s", ui_ellipsis());
	view_draw(t);
	refresh();
	if (wn_forward_send(t->idx, t->store, c->f, c->dir, &warning, &err) != WN_OK) {
		set_problem(c, "not sent, the draft is kept", &err);
		tui_msg(t, ROLE_ERROR, "%s", c->problem);
		wn_error_clear(&err);
		return req_done();
	}
	tui_flush(t);
	if (warning)
		tui_msg(t, ROLE_WARNING, "sent, but %s", warning);
	else
		tui_msg(t, ROLE_STATUS, "sent to %s: %zu finding%s recorded as forwarded", c->f->to,
			c->f->nvalid + c->f->npre, c->f->nvalid + c->f->npre == 1 ? "" : "s");
	free(warning);
	return req_pass(ACT_BACK);
}

/* D: the mail into winnow.drafts_folder for the user's mailer, after
 * the same questions as sending (a mail that may have gone out already,
 * someone who opted out).  Forwarded once the sent copy is indexed. */
static struct view_req to_drafts(struct tui *t, struct view *v, struct compose *c)
{
	wn_error err = WN_ERROR_INIT;
	char *path = NULL, *warning = NULL;
	bool said;

	if (!go_ahead(t, v, c, "write it again?", "Write it anyway?", &said)) {
		if (!said)
			tui_msg(t, ROLE_STATUS, "not written; the draft is kept");
		return req_done();
	}
	if (wn_forward_to_drafts(t->idx, t->store, c->f, &path, &warning, &err) != WN_OK) {
		set_problem(c, "not written to the drafts folder, the draft is kept", &err);
		tui_msg(t, ROLE_ERROR, "%s", c->problem);
		wn_error_clear(&err);
		return req_done();
	}
	if (warning)
		tui_msg(t, ROLE_WARNING, "in the drafts folder, but %s", warning);
	else
		tui_msg(t, ROLE_STATUS, "in the drafts folder for your mailer: forwarded once the sent copy is indexed");
	free(path);
	free(warning);
	return req_pass(ACT_BACK);
}

/* Composing again loses the draft's edits: true when there are some
 * and the user does not want that (question). */
static bool keep_edits(struct tui *t, struct compose *c, const char *question)
{
	wn_buf now = WN_BUF_INIT;
	bool edited;

	if (wn_forward_draft_reload(c->f, c->dir, NULL) == WN_OK)
		wn_forward_draft_text(c->f, &now);
	edited = !c->composed || strcmp(wn_buf_str(&now), c->composed) != 0;
	wn_buf_free(&now);
	return edited && !prompt_yesno(t, question);
}

/* p: the pre-existing findings in or out, composed again (after asking,
 * when the draft was edited). */
static void toggle_pre(struct tui *t, struct view *v, struct compose *c)
{
	bool pre = !c->f->preexisting;

	if (keep_edits(t, c, pre ? "Compose again with the pre-existing findings? Your edits are lost"
				 : "Compose again without the pre-existing findings? Your edits are lost"))
		return;
	if (compose_new(t, c, pre)) {
		set_problem(c, NULL, NULL);
		tui_msg(t, ROLE_STATUS, "pre-existing findings %s (e: edit)", pre ? "added" : "left out");
	}
	refresh_view(t, v, c);
}

/* F: the other kind of mail for a review the author has -- the reply
 * to the review or the full forward to the patch -- composed again
 * (after asking, when the draft was edited).  A review the author lacks
 * has the forward alone. */
static void toggle_kind(struct tui *t, struct view *v, struct compose *c)
{
	bool full = !c->full;

	if (c->reach.how == WN_REACH_NO) {
		tui_msg(t, ROLE_STATUS, "the author does not have this review: the forward to the patch is the only mail");
		return;
	}
	if (keep_edits(t, c, full ? "Compose the full forward instead? Your edits are lost"
				  : "Compose a reply to the review instead? Your edits are lost"))
		return;
	/* One draft file for these reviews: the new kind's replaces it.
	 * Not composed (no valid finding for the full forward): the old
	 * mail stays, the reason on the status line. */
	c->full = full;
	if (compose_new(t, c, c->f->preexisting)) {
		set_problem(c, NULL, NULL);
		tui_msg(t, ROLE_STATUS, "%s (e: edit)", full ? "the full forward to the patch"
							 : "a reply to the review the author has");
	} else {
		c->full = !full;
	}
	refresh_view(t, v, c);
}

static struct view_req compose_request(struct tui *t, struct view *v, enum action a)
{
	struct compose *c = v->priv;

	switch (a) {
	case ACT_SEND:
		return send(t, v, c);
	case ACT_EDIT:
		edit(t, v, c);
		return req_done();
	case ACT_POSTPONE:
		tui_msg(t, ROLE_STATUS, "draft postponed: F on this review resumes it");
		return req_pass(ACT_BACK);
	case ACT_TO_DRAFTS:
		return to_drafts(t, v, c);
	case ACT_MARK_PRE:
		toggle_pre(t, v, c);
		return req_done();
	case ACT_BACK:
		if (!prompt_yesno(t, "Discard this draft?"))
			return req_done();
		wn_forward_draft_remove(c->f, c->dir);
		tui_msg(t, ROLE_STATUS, "draft discarded, nothing sent");
		return req_pass(ACT_BACK);
	case ACT_FORWARD:
		toggle_kind(t, v, c);
		return req_done();
	case ACT_MARK_VALID:
	case ACT_MARK_FALSE:
	case ACT_MARK_UNTRIAGED:
		tui_msg(t, ROLE_WARNING, "send, postpone or cancel the mail first");
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action compose_keys[] = {
	ACT_SEND, ACT_EDIT, ACT_POSTPONE, ACT_TO_DRAFTS, ACT_MARK_PRE, ACT_FORWARD, ACT_NONE,
};

const struct view_ops compose_ops = {
	.name = "forward",
	.priv_size = sizeof(struct compose),
	.open = compose_open,
	.done = compose_done,
	.title = compose_title,
	.row = compose_row,
	.layout = compose_layout,
	.draw = compose_draw,
	.request = compose_request,
	.hints = compose_hints,
	.keys = compose_keys,
};
