/* winnow TUI — the thread (r): the human replies to the review first
 * (the patch author's marked), then those to the patch (and to its
 * series' cover letter), oldest first, with who wrote, when, and the
 * first words that are not quotes, so a maintainer sees at once whether
 * someone already answered the bot.  Enter opens one in the pager. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "winnow/text.h"
#include "view.h"

struct thread {
	wn_item *it;
	wn_reply *r;
	size_t n;
	size_t nreview;		/* r[0..nreview): answers to the review */
	char **first;		/* each reply's first own words; NULL */
	struct about open;	/* the reply Enter opens */
};

static const struct hint thread_hints[] = {
	{ ACT_BACK, "back" }, { ACT_OPEN, "read" }, { ACT_SEARCH, "search" },
	{ ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

/* The first lines of a reply that are its own: no quotes, no "On ...
 * wrote:", no blank lines; joined, at most about a line of text. */
static char *first_words(const char *body)
{
	wn_buf b = WN_BUF_INIT;
	const char *p = body;

	while (p && *p && b.len < 200) {
		size_t len = strcspn(p, "\n");
		const char *s = p;

		while (*s == ' ' || *s == '\t')
			s++;
		/* Not a quote, an attribution line, a snip mark nor a
		 * signature. */
		if (*s && *s != '>' && !(len > 6 && !strncmp(p + len - 6, "wrote:", 6)) &&
		    strncmp(s, "--", 2) && strncmp(s, "[...]", 5) && strncmp(s, "[ ... ]", 7)) {
			if (b.len)
				wn_buf_putc(&b, ' ');
			wn_buf_append(&b, s, len - (size_t) (s - p));
		}
		p += len;
		if (*p)
			p++;
	}
	return wn_buf_steal(&b);
}

/* Is id one of the review's replies? */
static bool answers_review(const wn_item *it, const char *id)
{
	for (size_t i = 0; i < it->nreplies; i++)
		if (!strcmp(it->replies[i].id, id))
			return true;
	return false;
}

/* Put the replies to the review (it->replies, copied) before the
 * patch's, whose list holds them too when the review answers the
 * patch: there they are dropped.  False when out of memory. */
static bool review_first(struct thread *th)
{
	const wn_item *it = th->it;
	wn_reply *v = calloc(th->n + it->nreplies + 1, sizeof(*v));
	size_t n = 0;
	bool oom = !v;

	for (size_t i = 0; !oom && i < it->nreplies; i++) {
		const wn_reply *r = &it->replies[i];

		v[n] = *r;
		v[n].id = strdup(r->id);
		v[n].from = strdup(r->from);
		v[n].subject = strdup(r->subject);
		oom = !v[n].id || !v[n].from || !v[n].subject;
		n++;
	}
	if (oom) {
		wn_replies_free(v, n);
		return false;
	}
	th->nreview = n;
	for (size_t k = 0; k < th->n; k++) {
		if (answers_review(it, th->r[k].id)) {
			free(th->r[k].id);
			free(th->r[k].from);
			free(th->r[k].subject);
		} else {
			v[n++] = th->r[k];
		}
	}
	free(th->r);
	th->r = v;
	th->n = n;
	return true;
}

static bool thread_open(struct tui *t, struct view *v, void *arg)
{
	struct thread *th = v->priv;
	const struct about *ab = arg;
	wn_error err = WN_ERROR_INIT;

	th->it = ab->it;
	if (!th->it->patch) {
		tui_msg(t, ROLE_WARNING, "the patch is not in the index: no thread to show");
		return false;
	}
	if (wn_index_load_who(t->idx, th->it, &err) != WN_OK ||
	    wn_index_replies(t->idx, th->it, &th->r, &th->n, &err) != WN_OK ||
	    !review_first(th)) {
		tui_msg(t, ROLE_ERROR, "cannot read the thread: %s",
			err.msg ? wn_error_msg(&err) : "out of memory");
		wn_error_clear(&err);
		return false;
	}
	th->first = calloc(th->n ? th->n : 1, sizeof(*th->first));
	for (size_t i = 0; th->first && i < th->n; i++) {
		wn_mail *m = NULL;

		if (wn_index_read_mail(t->idx, th->r[i].id, &m, NULL, &err) == WN_OK)
			th->first[i] = first_words(m->body);
		wn_mail_free(&m);
		wn_error_clear(&err);
	}
	v->lines = th->n;
	if (!th->n)
		tui_msg(t, ROLE_STATUS, "no human replies in the patch's thread yet");
	return true;
}

static void thread_done(struct tui *t, struct view *v)
{
	struct thread *th = v->priv;

	for (size_t i = 0; th->first && i < th->n; i++)
		free(th->first[i]);
	free(th->first);
	wn_replies_free(th->r, th->n);
}

static void thread_title(struct tui *t, struct view *v, struct row *r)
{
	struct thread *th = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s replies %s", ui_dash(), ui_dash());
	row_add(r, ROLE_TITLE, CELL_FLEX, th->it->patch->subject);
	row_addf(r, ROLE_TITLE, CELL_NATURAL, "%zu repl%s", th->n, th->n == 1 ? "y" : "ies");
}

static void thread_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct thread *th = v->priv;
	const wn_reply *rp = &th->r[i];
	bool wide = COLS >= 120;
	struct cell *c;
	char date[16];

	format_date(rp->date, date);
	row_addf(r, ROLE_DATE, 10, "%s", date);
	/* The patch's author answering the review stands out: the words
	 * to read first. */
	c = row_add(r, rp->author ? ROLE_REPLIED_AUTHOR : ROLE_AUTHOR, wide ? 24 : 16, NULL);
	name_of(rp->from, c->own, sizeof(c->own));
	c->text = c->own;
	if (i < th->nreview)
		row_add(r, rp->author ? ROLE_REPLIED_AUTHOR : ROLE_REPLIED, 6,
			rp->author ? "author" : "review");
	else
		row_add(r, ROLE_HEADER, 6, rp->to_cover ? "cover" : "patch");
	row_addf(r, ROLE_DEFAULT, CELL_NATURAL, "%*s", 2 * (rp->depth > 1 ? rp->depth - 1 : 0), "")->pad = 0;
	row_add(r, ROLE_COMMENT, CELL_FLEX, th->first && th->first[i] && *th->first[i] ? th->first[i]
										      : rp->subject);
}

static bool thread_match(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct thread *th = v->priv;

	return wn_text_find_ci(th->r[i].from, needle) || wn_text_find_ci(th->r[i].subject, needle) ||
	       (th->first && th->first[i] && wn_text_find_ci(th->first[i], needle));
}

static struct view_req thread_request(struct tui *t, struct view *v, enum action a)
{
	struct thread *th = v->priv;

	if (copy_request(t, a, th->it, th->n && a == ACT_COPY_ID ? th->r[v->cursor].id : NULL))
		return req_done();
	switch (a) {
	case ACT_OPEN:
	case ACT_MAIL:
		if (!th->n) {
			tui_msg(t, ROLE_STATUS, "no human replies in the patch's thread yet");
			return req_done();
		}
		th->open.it = th->it;
		th->open.msgid = th->r[v->cursor].id;
		return req_open(VIEW_MAIL, &th->open);
	case ACT_THREAD:
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action thread_keys[] = {
	ACT_OPEN, ACT_MAIL, ACT_COPY_ID, ACT_COPY_PATCH_ID, ACT_NONE,
};

const struct view_ops thread_ops = {
	.name = "thread",
	.priv_size = sizeof(struct thread),
	.open = thread_open,
	.done = thread_done,
	.title = thread_title,
	.row = thread_row,
	.match = thread_match,
	.request = thread_request,
	.hints = thread_hints,
	.keys = thread_keys,
};
