/* winnow — status codes and error reports. */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/status.h"

static const struct {
	const char *desc;
	int exit_code;
} status_info[] = {
#define WN_X_(name, desc, code) { desc, code },
	WN_STATUS_LIST(WN_X_)
#undef WN_X_
};

static const char *wn_status_str(wn_status st)
{
	if ((unsigned) st >= WN_STATUS_COUNT)
		return "unknown status";
	return status_info[st].desc;
}

int wn_status_exit_code(wn_status st)
{
	if ((unsigned) st >= WN_STATUS_COUNT)
		return 2;
	return status_info[st].exit_code;
}

static wn_status wn_error_setv(wn_error *err, wn_status st, const char *fmt, va_list ap)
{
	if (!err)
		return st;
	free(err->msg);
	err->msg = NULL;
	err->status = st;
	/* A failed vasprintf leaves msg NULL: wn_error_msg() then falls
	 * back to the static description, so the report is never lost. */
	if (fmt && vasprintf(&err->msg, fmt, ap) < 0)
		err->msg = NULL;
	return st;
}

wn_status wn_error_set(wn_error *err, wn_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wn_error_setv(err, st, fmt, ap);
	va_end(ap);
	return st;
}

const char *wn_error_msg(const wn_error *err)
{
	if (!err)
		return "";
	if (err->msg)
		return err->msg;
	return wn_status_str(err->status);
}

void wn_error_clear(wn_error *err)
{
	if (!err)
		return;
	free(err->msg);
	err->msg = NULL;
	err->status = WN_OK;
}

wn_status wn_error_prefix(wn_error *err, wn_status st, const char *prefix)
{
	char *msg = strdup(wn_error_msg(err));

	wn_error_set(err, st, "%s: %s", prefix, msg ? msg : wn_status_str(st));
	free(msg);
	return st;
}
