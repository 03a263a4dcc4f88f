/* winnow TUI — what the notmuch config holds for the interface beyond
 * wn_conf: the queue's toggles (winnow.hide-triaged, winnow.hide-empty),
 * key bindings (winnow.bind.<view>.<key>=<action>), and writing a
 * toggle back.
 *
 * Writing goes through `notmuch config set`, run without a shell:
 * libnotmuch's own setter (notmuch_database_set_config) writes into the
 * database, which needs the write lock and is not the file the user
 * edits; the notmuch program writes the config file, needs no lock, and
 * keeps the file's layout and comments the way the user knows. */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "view.h"

#define BIND_PREFIX "winnow.bind."

static bool truthy(const char *v)
{
	return v && (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1"));
}

/* The config file notmuch reads, for messages; "" when unknown. */
static const char *config_file(struct tui *t, char *buf, size_t size)
{
	const char *p = wn_index_config_path(t->idx), *env = getenv("NOTMUCH_CONFIG"),
		   *home = getenv("HOME");

	if (*p)
		return p;
	if (env && *env)
		return env;
	if (home && *home) {
		snprintf(buf, size, "%s/.notmuch-config", home);
		return buf;
	}
	return "";
}

/* The line of key (without "winnow.") in the [winnow] section of the
 * file at path; 0 when not found. */
static unsigned line_of(const char *path, const char *key)
{
	FILE *f = *path ? fopen(path, "r") : NULL;
	char line[1024];
	unsigned ln = 0, found = 0;
	bool in = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *s = line, *eq;
		size_t n;

		ln++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[') {
			in = !strncmp(s, "[winnow]", 8);
			continue;
		}
		if (!in || !(eq = strchr(s, '=')))
			continue;
		n = (size_t) (eq - s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n == strlen(key) && !strncmp(s, key, n))
			found = ln;
	}
	if (f)
		fclose(f);
	return found;
}

struct load {
	struct tui *t;
	const char *const *views;	/* names by view id */
	char file[512];
	const char *path;
	size_t nerr;
};

static void conf_error(struct load *l, const char *key, const char *fmt, const char *arg)
{
	wn_buf b = WN_BUF_INIT;
	unsigned ln = line_of(l->path, key + strlen("winnow."));
	char **grown = realloc(l->t->conf_errors, (l->nerr + 2) * sizeof(*grown));

	if (!grown)
		return;
	l->t->conf_errors = grown;
	if (ln)
		wn_buf_printf(&b, "%s:%u: ", l->path, ln);
	else
		wn_buf_printf(&b, "%s: ", *l->path ? l->path : "notmuch config");
	wn_buf_printf(&b, "%s: ", key);
	wn_buf_printf(&b, fmt, arg);
	/* NULL would end the list early: an error cut short by a failed
	 * allocation becomes "out of memory" instead. */
	if (!(grown[l->nerr] = wn_buf_steal(&b)) && !(grown[l->nerr] = strdup("out of memory")))
		return;
	grown[++l->nerr] = NULL;
}

/* winnow.bind.<view>.<key> = <action>; the key may itself be '.'. */
static void bind_one(void *ud, const char *key, const char *value)
{
	struct load *l = ud;
	const char *rest = key + strlen(BIND_PREFIX), *dot = strchr(rest, '.');
	char view[32];
	int id = -1, k;
	enum action a;

	if (!dot || dot == rest || (size_t) (dot - rest) >= sizeof(view)) {
		conf_error(l, key, "%s", "want winnow.bind.VIEW.KEY=ACTION");
		return;
	}
	snprintf(view, sizeof(view), "%.*s", (int) (dot - rest), rest);
	if (!strcmp(view, "generic"))
		id = 0;
	for (int i = 1; id < 0 && i < VIEW_COUNT; i++)
		if (l->views[i] && !strcmp(l->views[i], view))
			id = i;
	if (id < 0) {
		/* The views named from TUI_VIEWS, so that a new view is never
		 * missing here. */
		wn_buf msg = WN_BUF_INIT;

		wn_buf_printf(&msg, "unknown view '%s' (generic", view);
		for (int i = 1; i < VIEW_COUNT; i++)
			if (l->views[i])
				wn_buf_printf(&msg, ", %s", l->views[i]);
		wn_buf_puts(&msg, ")");
		if (wn_buf_failed(&msg))
			conf_error(l, key, "unknown view '%s'", view);
		else
			conf_error(l, key, "%s", wn_buf_str(&msg));
		wn_buf_free(&msg);
		return;
	}
	if ((k = keymap_key_parse(dot + 1)) < 0) {
		conf_error(l, key, "unknown key '%s' (a character, C-x, or Up Down Left Right "
			   "PgUp PgDn Home End Enter Tab BackTab Space Esc Backspace)", dot + 1);
		return;
	}
	a = action_from_name(value ? value : "");
	if (a == ACT_COUNT) {
		conf_error(l, key, "unknown action '%s' (see ? or winnow(1); none unbinds)",
			   value ? value : "");
		return;
	}
	if (!keymap_bind(&l->t->keys, id, k, a))
		conf_error(l, key, "%s", "out of memory");
}

static void toggle_one(void *ud, const char *key, const char *value)
{
	struct tui *t = ud;

	if (!strcmp(key, "winnow.hide-triaged"))
		t->hide_triaged = truthy(value);
	else if (!strcmp(key, "winnow.hide-empty"))
		t->hide_empty = truthy(value);
}

void tui_conf_load(struct tui *t, const char *const *views)
{
	struct load l = { .t = t, .views = views };

	l.path = config_file(t, l.file, sizeof(l.file));
	wn_index_config_each(t->idx, "winnow.hide-", toggle_one, t);
	wn_index_config_each(t->idx, BIND_PREFIX, bind_one, &l);
}

bool tui_conf_set(struct tui *t, const char *key, const char *value)
{
	const char *cfg = wn_index_config_path(t->idx);
	char prog[] = "notmuch", cmd[] = "config", set[] = "set";
	char *opt = NULL;
	char *argv[7];
	int n = 0, status = 0;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	bool ok;

	argv[n++] = prog;
	if (*cfg) {
		if (asprintf(&opt, "--config=%s", cfg) < 0)
			return false;
		argv[n++] = opt;
	}
	argv[n++] = cmd;
	argv[n++] = set;
	argv[n++] = (char *) key;
	argv[n++] = (char *) value;
	argv[n] = NULL;
	/* The screen is curses': notmuch's words go nowhere, its exit
	 * status says it all. */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ok = posix_spawnp(&pid, "notmuch", &fa, NULL, argv, environ) == 0;
	posix_spawn_file_actions_destroy(&fa);
	while (ok && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			ok = false;
	free(opt);
	return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
