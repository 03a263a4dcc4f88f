/* winnow — libFuzzer target: what verdict memory reads from mail text: a
 * finding's words (similar.c), a patch subject (subject.c) and a patch's
 * hunks (mail/diff.c). */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/series.h"
#include "winnow/similar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void words(const char *s)
{
	wn_words w;

	if (wn_words_of(s, &w) != WN_OK)
		return;
	/* A set: sorted, each once, none empty. */
	for (size_t i = 0; i < w.n; i++)
		if (!*w.w[i] || (i && strcmp(w.w[i - 1], w.w[i]) >= 0))
			abort();
	if (wn_words_jaccard(&w, &w) != (w.n ? 1.0 : 0.0))
		abort();
	wn_words_free(&w);
}

static void subject(const char *s)
{
	wn_subject sj;

	if (wn_subject_parse(s, &sj) != WN_OK)
		return;
	if (!sj.prefix || !sj.title || sj.part < 0 || sj.total < 0)
		abort();
	for (const char *p = sj.title; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			abort();
	wn_subject_clear(&sj);
}

static void diff(const char *s, size_t n)
{
	wn_diff d;
	wn_diff_keys k, direct;

	if (wn_diff_parse(s, n, &d) != WN_OK)
		return;
	/* Every place the diff holds, its keys may hold (else a series'
	 * pass would miss a later patch); the keys linking takes straight
	 * from the body are the same. */
	if (wn_diff_keys_of(&d, &k) != WN_OK) {
		wn_diff_clear(&d);
		return;
	}
	if (wn_diff_keys_parse(s, n, &direct) == WN_OK) {
		if (direct.n != k.n || (k.n && memcmp(direct.v, k.v, k.n * sizeof(*k.v)) != 0))
			abort();
		wn_diff_keys_clear(&direct);
	}
	for (size_t i = 0; i < d.n; i++) {
		if (!d.h[i].file || !*d.h[i].file || d.h[i].mail_line < 1 ||
		    !wn_diff_keys_may_find(&k, d.h[i].file, NULL))
			abort();
		for (char **f = d.h[i].functions; f && *f; f++)
			if (!**f || wn_diff_find(&d, d.h[i].file, *f) == NULL ||
			    !wn_diff_keys_may_find(&k, d.h[i].file, *f))
				abort();
	}
	wn_diff_keys_clear(&k);
	wn_diff_clear(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	char *p, *f;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	diff(s, size);
	words(s);
	subject(s);
	p = wn_diff_path(s);
	f = wn_sim_function(s);
	if ((p && (!*p || strstr(p, "//"))) || (f && (!*f || strchr(f, '('))))
		abort();
	free(p);
	free(f);
	free(s);
	return 0;
}
