/* winnow — libFuzzer target: the trailer block and the Assisted-by
 * classification, on raw body text. */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "winnow/trailer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	wn_patch_trailers *t = NULL;
	wn_attribution a;
	size_t i;
	char *z;

	if (wn_trailers_parse((const char *) data, size, &t, NULL) != WN_OK)
		return 0;
	for (i = 0; i < t->ntrailers; i++) {
		if (!t->trailers[i].key || !*t->trailers[i].key || !t->trailers[i].value)
			abort();
		if (strchr(t->trailers[i].key, '\n') || strchr(t->trailers[i].value, '\n'))
			abort();
	}
	switch (t->attr.status) {
	case WN_ATTR_NONE:
		if (t->attr.raw)
			abort();
		break;
	case WN_ATTR_MODEL:
		if (!t->attr.agent || !*t->attr.agent || !t->attr.model || !*t->attr.model)
			abort();
		break;
	case WN_ATTR_GENERIC:
	case WN_ATTR_OTHER:
		if (!t->attr.raw || t->attr.agent || t->attr.model)
			abort();
		break;
	default:
		abort();
	}
	for (i = 0; i < t->attr.ntools; i++)
		if (!t->attr.tools[i] || !*t->attr.tools[i] || strlen(t->attr.tools[i]) > 64 ||
		    strpbrk(t->attr.tools[i], "\n\r\t"))
			abort();
	wn_trailers_free(&t);

	/* The classifier alone, on the input as one value. */
	z = malloc(size + 1);
	if (!z)
		return 0;
	memcpy(z, data, size);
	z[size] = '\0';
	if (wn_attribution_parse(z, &a) == WN_OK)
		wn_attribution_clear(&a);
	/* ... and as a model's name: a bounded key without separators
	 * twice in a row or at the ends. */
	{
		char key[WN_MODEL_KEY_MAX];

		if (wn_model_key(z, key, sizeof(key)) &&
		    (strlen(key) >= sizeof(key) || key[0] == '-' || strstr(key, "--")))
			abort();
	}
	free(z);
	return 0;
}
