/* winnow — the output formats by name. */
#include "autoconfig.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "printer.h"

static const struct {
	const char *name;
	wn_printer *(*create)(FILE *out);
} formats[] = {
#define WN_X_(name) { #name, wn_printer_##name##_new },
	WN_FORMATS_PRINTER(WN_X_)
#undef WN_X_
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

wn_printer *wn_printer_new(const char *name, FILE *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, formats[i].name) == 0)
			return formats[i].create(out);
	return NULL;
}

void wn_printer_free(wn_printer **p)
{
	if (!p || !*p)
		return;
	(*p)->done(*p);
	*p = NULL;
}

void wn_pr_text(wn_printer *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	p->text(p, fmt, ap);
	va_end(ap);
}

void wn_pr_key_int(wn_printer *p, const char *key, long long v)
{
	p->map_key(p, key);
	p->integer(p, v);
}

void wn_format_real(double v, char out[32])
{
	long long x = isfinite(v) ? llround(fabs(v) * 10000) : 0;

	snprintf(out, 32, "%s%lld.%04lld", v < 0 && x ? "-" : "", x / 10000, x % 10000);
}
