/* winnow — where a finding stands: file names normalised, the patch's
 * own files (see place.h), and the kernel's generic places. */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "place.h"
#include "winnow/review.h"

/* Drop "." segments and empty ones, and resolve "dir/.." against the
 * segment before it; a ".." with nothing before it stays (it names a
 * place outside the tree and cannot be resolved lexically). */
static char *lexical(const char *path)
{
	size_t n = strlen(path), o = 0, i = 0;
	char *d = malloc(n + 1);

	if (!d)
		return NULL;
	while (i < n) {
		size_t b = i, len;

		while (i < n && path[i] != '/')
			i++;
		len = i - b;
		if (i < n)
			i++;	/* the '/' */
		if (!len || (len == 1 && path[b] == '.'))
			continue;
		if (len == 2 && path[b] == '.' && path[b + 1] == '.' && o) {
			size_t k = o;

			while (k > 0 && d[k - 1] != '/')
				k--;
			if (!(o - k == 2 && d[k] == '.' && d[k + 1] == '.')) {
				o = k ? k - 1 : 0;
				continue;
			}
		}
		if (o)
			d[o++] = '/';
		memcpy(d + o, path + b, len);
		o += len;
	}
	d[o] = '\0';
	return d;
}

/* The one patch file that ends in "/" + tail (or is tail); NULL when
 * none or several do. */
static const char *by_tail(const char *tail, const char *const *files)
{
	size_t tn = strlen(tail);
	const char *hit = NULL;

	for (; files && *files; files++) {
		size_t fn = strlen(*files);

		if (fn < tn || strcmp(*files + fn - tn, tail) != 0 ||
		    (fn > tn && (*files)[fn - tn - 1] != '/'))
			continue;
		if (hit && strcmp(hit, *files) != 0)
			return NULL;
		hit = *files;
	}
	return hit;
}

/* Is path (normalised) one of patch_files? */
static bool rv_in_patch(const char *path, const char *const *patch_files)
{
	for (; path && patch_files && *patch_files; patch_files++)
		if (strcmp(path, *patch_files) == 0)
			return true;
	return false;
}

char *wn_rv_path_normal(const char *file, const char *const *patch_files)
{
	char *d, *whole;
	const char *hit;

	if (!file || !*file)
		return NULL;
	d = lexical(file);
	if (!d || !*d || rv_in_patch(d, patch_files))
		return d;
	/* An older 0-day report names "xfs_buf.c", a linker message
	 * "x.o"'s source by its base name: the patch's own file of that
	 * name, when it has exactly one. */
	hit = by_tail(d, patch_files);
	if (!hit)
		return d;
	whole = strdup(hit);
	if (!whole)
		return d;
	free(d);
	return whole;
}

bool wn_rv_in_patch_n(const char *path, size_t n, const char *const *patch_files)
{
	char *p;
	bool in;

	if (!patch_files || !n)
		return false;
	p = malloc(n + 1);
	if (!p)
		return false;
	memcpy(p, path, n);
	p[n] = '\0';
	{
		char *norm = lexical(p);

		in = norm && rv_in_patch(norm, patch_files);
		free(norm);
	}
	free(p);
	return in;
}

/* In the bots' bottom file: the crash reader places findings with it,
 * review.c calls the bots, and similarity (memory/) asks it too. */
bool wn_place_generic(const char *path, size_t n)
{
	static const char *const dirs[] = {
		"kernel/locking/", "kernel/rcu/", "kernel/sched/", "kernel/entry/", "kernel/time/",
		"kernel/kcsan/", "mm/kasan/", "mm/kmsan/", "mm/kfence/", "arch/", "include/asm-generic/",
	};
	static const char *const files[] = {
		"kernel/irq_work.c", "kernel/workqueue.c", "kernel/softirq.c", "kernel/panic.c",
		"kernel/kthread.c", "kernel/stacktrace.c", "lib/dump_stack.c", "lib/list_debug.c",
		"lib/refcount.c", "lib/string.c", "mm/slub.c", "mm/slab.c", "mm/slab_common.c",
		"include/net/netns/generic.h",
	};
	const char *slash;

	if (!path)
		return false;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (n >= strlen(dirs[i]) && !memcmp(path, dirs[i], strlen(dirs[i])))
			return true;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (n == strlen(files[i]) && !memcmp(path, files[i], n))
			return true;
	/* include/linux/NAME.h, not include/linux/DIR/NAME.h: a
	 * subsystem's own headers are its own place. */
	return n > 16 && !memcmp(path, "include/linux/", 14) &&
	       !((slash = memchr(path + 14, '/', n - 14))) && !memcmp(path + n - 2, ".h", 2);
}
