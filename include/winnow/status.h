/* winnow — status codes and error reports of libwinnow.
 *
 * Every fallible library call returns a wn_status and, when the caller
 * passes a wn_error, a one-line human message saying what failed.  The
 * library never prints and never exits: front ends decide. */
#ifndef WINNOW_STATUS_H
#define WINNOW_STATUS_H

#include <stdarg.h>

/* X(name, description, exit code of a front end that stops on it).
 * Exit codes follow the CLI contract: 1 for a user error, 2 when the
 * environment fails. */
#define WN_STATUS_LIST(X)                                              \
	X(OK,        "success",                          0)             \
	X(USAGE,     "invalid argument",                 1)             \
	X(NOT_FOUND, "not found",                        1)             \
	X(PARSE,     "malformed input",                  1)             \
	X(NOMEM,     "out of memory",                    2)             \
	X(IO,        "input/output error",               2)             \
	X(DB,        "notmuch database error",           2)             \
	X(LOCKED,    "notmuch database is locked",       2)             \
	X(CONFIG,    "configuration error",              2)

typedef enum {
#define WN_X_(name, desc, code) WN_##name,
	WN_STATUS_LIST(WN_X_)
#undef WN_X_
	WN_STATUS_COUNT
} wn_status;

/* A status plus a message; message is malloc'd and owned by the struct. */
typedef struct wn_error {
	wn_status status;
	char *msg;
} wn_error;

#define WN_ERROR_INIT { WN_OK, NULL }

/* The process exit code a front end uses when it stops on st. */
int wn_status_exit_code(wn_status st);

/* Record st and a printf-style message in err (err may be NULL).
 * Replaces an earlier message.  Returns st, so callers can write
 * `return wn_error_set(err, WN_NOT_FOUND, "no message %s", id);`. */
wn_status wn_error_set(wn_error *err, wn_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The message, or the status description when none was recorded. */
const char *wn_error_msg(const wn_error *err);
/* Put prefix (and ": ") before err's message, with status st: the
 * message is copied first, as wn_error_set() frees the one it
 * replaces.  Returns st. */
wn_status wn_error_prefix(wn_error *err, wn_status st, const char *prefix);
void wn_error_clear(wn_error *err);

#endif
