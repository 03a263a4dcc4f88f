/* winnow — what the files of verdict sharing share (share.h):
 *
 *   share-git.c    the repository: where it is, running git in it
 *   share-file.c   one finding's file: its path, its text
 *   share.c        export, merge, import; pull, push, status */
#ifndef WINNOW_SHARE_PRIVATE_H
#define WINNOW_SHARE_PRIVATE_H

#include <stdbool.h>

#include "winnow/buf.h"
#include "winnow/share.h"

#define SH_BRANCH "winnow"
#define SH_CONFLICT ".conflict"

/* share-git.c and share-file.c: declared in share-test.h, once, as
 * what the tests reach. */
#include "share-test.h"

/* --- share.c ---------------------------------------------------------- */

#include "../core/map.h"
#include "../index/index-nm.h"

#define SH_SYNCED ".git/winnow-synced"

/* One finding's local decision. */
struct local {
	char fp[WN_FP_LEN + 1];
	wn_share_value v;
};

struct locals {
	struct local *v;
	size_t n;
};

/* A review's folder in the repository and the files in it. */
struct rdir {
	char *path;		/* "reviews/ab/<encoded id>" */
	char **names;		/* fingerprints, and <fp>.conflict */
	size_t n;
	bool seen;		/* visited by the export's pass over notmuch */
};

struct ctx {
	wn_index *idx;
	wn_store *store;
	sh_repo repo;
	char *me;		/* "Name <address>" */
	time_t now;
	wn_map dirs;		/* path -> struct rdir */
	wn_map synced;		/* "id\x1f" "fp", in step at the last sync (value: the key) */
	wn_map refused;		/* path -> 1, the files already in out->refused */
	wn_share_result *out;
	wn_error *err;
	size_t kept_both;	/* conflicts made by the import (to commit) */
};

void wn_sh_locals_clear(struct locals *l);
/* Set the file at path aside: listed once in c->out->refused. */
void wn_sh_refuse(struct ctx *c, const char *path, const char *reason);
bool wn_sh_is_synced(struct ctx *c, const char *id, const char *fp);
/* Free a struct rdir (a map value). */
void wn_sh_rdir_free(void *d);
struct local *wn_sh_local_find(const struct locals *l, const char *fp);
/* Every finding of msg with a verdict, note or severity of its own. */
wn_status wn_sh_locals_of(notmuch_message_t *msg, struct locals *out);
/* c->dirs: the files of the working tree, by review folder. */
wn_status wn_sh_list_files(struct ctx *c);
/* The value of file name in folder dir (review: its "review:" line,
 * may be NULL); WN_NOT_FOUND when there is none, WN_PARSE (and set
 * aside) when it cannot be taken. */
wn_status wn_sh_file_value(struct ctx *c, const char *dir, const char *name, wn_share_value *v,
			   char **review);
bool wn_sh_is_conflict(const char *name);
/* The findings this database and the repository agree on: read, one
 * more (written into the repository, or taken from it), written. */
void wn_sh_synced_load(struct ctx *c);
void wn_sh_synced_add(struct ctx *c, const char *id, const char *fp);
void wn_sh_synced_save(struct ctx *c);
/* Write the local decisions into the working tree (dry: only count
 * them in c->out->changed); resolve: settle open conflicts with them. */
wn_status wn_sh_export(struct ctx *c, bool dry, bool resolve);
/* git add and commit what changed, "winnow: WHAT by ME". */
wn_status wn_sh_commit(struct ctx *c, const char *what);

#endif
