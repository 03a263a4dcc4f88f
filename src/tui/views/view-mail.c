/* winnow TUI — the whole mail (m), as mutt's pager shows it: the
 * headers that matter, every line of the decoded body, then the links
 * the mail holds (CI runs, reproducers, dashboards, Closes:) and the
 * Message-IDs a maintainer hands to b4.  | pipes the raw mail to a
 * command the user types: run by sh -c with the mail on its standard
 * input; no text of the mail ever reaches the command line. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "winnow/text.h"
#include "script.h"
#include "view.h"

struct pl {
	char *text;		/* sanitised, wrapped */
	enum role role;
};

struct mail {
	wn_mail *mail;
	char *path;		/* the raw file, for | */
	char *patch_id;		/* of the review's patch; NULL */
	const wn_item *it;	/* the review it was opened about */
	struct pl *l;
	size_t n;
	int width;		/* the body was wrapped for */
};

static const struct hint mail_hints[] = {
	{ ACT_BACK, "back" }, { ACT_PAGE_DOWN, "page" }, { ACT_PIPE, "pipe" },
	{ ACT_SEARCH, "search" }, { ACT_HELP, "help" },
	{ ACT_NONE, NULL },
};

static void add(struct mail *m, enum role role, const char *text, bool wrap)
{
	char **lines = NULL;
	size_t n = 0;
	struct pl *grown;

	if (!text_wrap(text ? text : "", m->width, wrap, &lines, &n))
		return;
	grown = realloc(m->l, (m->n + n + 1) * sizeof(*grown));
	for (size_t i = 0; i < n; i++) {
		if (grown) {
			grown[m->n].text = lines[i];
			grown[m->n++].role = role == ROLE_COMMENT && lines[i][0] == '>' ? ROLE_QUOTE : role;
		} else {
			free(lines[i]);
		}
	}
	if (grown)
		m->l = grown;
	free(lines);
}

static void addf(struct mail *m, enum role role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void addf(struct mail *m, enum role role, const char *fmt, ...)
{
	wn_buf b = WN_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	wn_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	add(m, role, wn_buf_failed(&b) ? "(out of memory)" : wn_buf_str(&b), true);
	wn_buf_free(&b);
}

static void header(struct mail *m, const char *name, const char *value)
{
	if (value && *value)
		addf(m, ROLE_MAIL_HEADER, "%-12s %s", name, value);
}

/* Every http(s) link of the body, once each. */
static void links(struct mail *m)
{
	const char *b = m->mail->body, *p = b;
	char **seen = NULL;
	size_t n = 0;

	while (b && (p = strstr(p, "http"))) {
		size_t len;
		bool dup = false;
		char **grown;

		if (strncmp(p, "http://", 7) && strncmp(p, "https://", 8)) {
			p += 4;
			continue;
		}
		len = strcspn(p, " \t\n<>\"'()[]");
		while (len && strchr(".,;:", p[len - 1]))
			len--;
		for (size_t i = 0; i < n; i++)
			dup |= strlen(seen[i]) == len && !strncmp(seen[i], p, len);
		if (!dup && (grown = realloc(seen, (n + 1) * sizeof(*grown)))) {
			seen = grown;
			if ((seen[n] = wn_strndup(p, len))) {
				/* Whole, alone on their lines: a mouse or the
				 * terminal's URL catcher takes them as they are. */
				if (!n++)
					add(m, ROLE_HEADER, "Links:", false);
				add(m, ROLE_LINK, seen[n - 1], true);
			}
		}
		p += len ? len : 4;
	}
	for (size_t i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
}

/* Lay out the pager for the terminal's width. */
static void build(struct mail *m)
{
	const wn_mail *ml = m->mail;
	char date[64] = "";
	struct tm tm;

	for (size_t i = 0; i < m->n; i++)
		free(m->l[i].text);
	m->n = 0;
	m->width = COLS > 2 ? COLS - 1 : 1;
	if (ml->date && localtime_r(&ml->date, &tm))
		strftime(date, sizeof(date), "%a, %d %b %Y %H:%M", &tm);
	header(m, "From:", ml->from);
	header(m, "To:", ml->to);
	header(m, "Cc:", ml->cc);
	header(m, "Date:", date);
	header(m, "Subject:", ml->subject);
	/* The ids b4 wants, whole, each on a line of its own for the
	 * mouse: b4 am <id>, or notmuch show id:<id>. */
	header(m, "Message-ID:", ml->message_id);
	header(m, "In-Reply-To:", ml->in_reply_to);
	if (m->patch_id)
		header(m, "Patch-ID:", m->patch_id);
	add(m, ROLE_DEFAULT, "", false);
	add(m, ROLE_COMMENT, ml->body, true);
	add(m, ROLE_DEFAULT, "", false);
	links(m);
}

static bool mail_open(struct tui *t, struct view *v, void *arg)
{
	struct mail *m = v->priv;
	const struct about *ab = arg;
	const char *id = ab->msgid ? ab->msgid : ab->it->id;
	wn_error err = WN_ERROR_INIT;

	if (wn_index_read_mail(t->idx, id, &m->mail, &m->path, &err) != WN_OK) {
		tui_msg(t, ROLE_ERROR, "cannot read the mail: %s", wn_error_msg(&err));
		wn_error_clear(&err);
		return false;
	}
	m->it = ab->it;
	if (!ab->msgid && ab->it->patch)
		m->patch_id = strdup(ab->it->patch->id);
	build(m);
	v->lines = m->n;
	return true;
}

static void mail_done(struct tui *t, struct view *v)
{
	struct mail *m = v->priv;

	for (size_t i = 0; i < m->n; i++)
		free(m->l[i].text);
	free(m->l);
	wn_mail_free(&m->mail);
	free(m->path);
	free(m->patch_id);
}

static void mail_title(struct tui *t, struct view *v, struct row *r)
{
	struct mail *m = v->priv;

	row_addf(r, ROLE_TITLE, CELL_NATURAL, "winnow %s mail %s", ui_dash(), ui_dash());
	row_add(r, ROLE_TITLE, CELL_FLEX, m->mail->subject);
}

/* A resize rewraps the body. */
static void mail_layout(struct tui *t, struct view *v, int top, int height)
{
	struct mail *m = v->priv;

	v->list_y = top;
	v->list_h = height;
	if (m->width != (COLS > 2 ? COLS - 1 : 1)) {
		build(m);
		v->lines = m->n;
	}
}

static void mail_row(struct tui *t, struct view *v, size_t i, struct row *r)
{
	struct mail *m = v->priv;

	row_add(r, m->l[i].role, CELL_FLEX, m->l[i].text);
}

static bool mail_match(struct tui *t, struct view *v, size_t i, const char *needle)
{
	struct mail *m = v->priv;

	return wn_text_find_ci(m->l[i].text, needle);
}

/* Run cmd with sh -c, the raw mail on its standard input, on the
 * terminal curses gave back for the while (mutt's pipe-message). */
static void pipe_mail(struct tui *t, struct mail *m)
{
	char *cmd = prompt_line(t, "Pipe the mail to: ", NULL);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int fd, status = 0;
	pid_t pid;

	if (!cmd)
		return;
	wn_text_trim(cmd);
	if (!*cmd) {
		free(cmd);
		return;
	}
	if ((fd = open(m->path, O_RDONLY | O_CLOEXEC)) < 0) {
		tui_msg(t, ROLE_ERROR, "cannot read %s: %s", m->path, strerror(errno));
		free(cmd);
		return;
	}
	def_prog_mode();
	endwin();
	fflush(stdout);
	/* As system() and the pager: Ctrl-C and Ctrl-\ typed while the
	 * command runs are the command's business (it stops, or handles
	 * them); winnow, in the same process group, must not quit on them
	 * and take the user's session with it. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		char sh[] = "/bin/sh", c[] = "-c";
		char *argv[] = { sh, c, cmd, NULL };

		/* The command gets the defaults, not winnow's "ignore". */
		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGQUIT, &dfl, NULL);
		dup2(fd, 0);
		execv(sh, argv);
		_exit(127);
	}
	close(fd);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	/* As mutt: the command's output stays until a key is pressed. */
	fputs("\nPress any key to go back to winnow...", stdout);
	fflush(stdout);
	reset_prog_mode();
	timeout(-1);
	if (!script_active())
		getch();
	refresh();
	if (pid < 0)
		tui_msg(t, ROLE_ERROR, "cannot start the command: %s", strerror(errno));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		tui_msg(t, ROLE_STATUS, "piped the mail to: %s", cmd);
	else
		tui_msg(t, ROLE_WARNING, "the command failed (status %d): %s",
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), cmd);
	free(cmd);
}

static struct view_req mail_request(struct tui *t, struct view *v, enum action a)
{
	struct mail *m = v->priv;

	if (copy_request(t, a, m->it, m->mail->message_id))
		return req_done();
	switch (a) {
	case ACT_PIPE:
		pipe_mail(t, m);
		return req_done();
	case ACT_OPEN:
		/* Enter scrolls a line, as in mutt's pager. */
		view_goto(t, v, v->cursor + 1);
		return req_done();
	case ACT_MAIL:
		return req_done();
	default:
		return req_pass(a);
	}
}

/* The keys this view takes itself: the help lists them first. */
static const enum action mail_keys[] = {
	ACT_OPEN, ACT_PAGE_DOWN, ACT_PIPE, ACT_COPY_ID, ACT_COPY_PATCH_ID, ACT_NONE,
};

const struct view_ops mail_ops = {
	.name = "mail",
	.priv_size = sizeof(struct mail),
	.open = mail_open,
	.done = mail_done,
	.title = mail_title,
	.layout = mail_layout,
	.row = mail_row,
	.match = mail_match,
	.request = mail_request,
	.hints = mail_hints,
	.keys = mail_keys,
};
