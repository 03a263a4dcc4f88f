/* winnow — the one printer every command writes through (text or JSON),
 * in the spirit of notmuch's sprinter: commands never format by hand. */
#ifndef WINNOW_FORMAT_H
#define WINNOW_FORMAT_H

#include <stdio.h>

#include "winnow/index.h"

typedef struct wn_format wn_format;

struct wn_format {
	/* A list of reviews: begin, one call per review, end. */
	void (*list_begin)(wn_format *f);
	void (*list_item)(wn_format *f, const wn_item *it);
	void (*list_end)(wn_format *f);
	/* One review in full. */
	void (*review)(wn_format *f, const wn_item *it);
	void (*done)(wn_format *f);	/* flush and free */
	FILE *out;
};

/* name: "text" or "json"; NULL when unknown. */
wn_format *wn_format_new(const char *name, FILE *out);

#endif
