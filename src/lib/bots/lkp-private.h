/* winnow — what the files of the kernel test robot's parser share
 * (lkp.c, lkp-diag.c, lkp-listing.c, lkp-report.c): the state of one
 * report's reading and one diagnostic line taken apart.  Calls go one
 * way: lkp.c calls the three others, and they call none of them. */
#ifndef WINNOW_BOTS_LKP_PRIVATE_H
#define WINNOW_BOTS_LKP_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "bots.h"
#include "lkp-place.h"
#include "seen.h"
#include "winnow/buf.h"

enum sect { S_NONE, S_GCC, S_SMATCH, S_SPARSE, S_IGNORE };

#define MAX_QUOTE_LINES 12

struct lkp {
	struct rv_ctx *c;
	enum sect kind;
	bool take_all;			/* section without any ">>": every diagnostic */
	bool pre;			/* "Old smatch warnings:" */
	wn_severity dflt;
	struct lkp_place place;		/* "In function", include chain */
	bool have;			/* a finding takes context lines */
	size_t cur;			/* ... its index */
	wn_buf quote;
	size_t quote_lines;
	bool headings;
	size_t vims;			/* vim listings matched so far */
	const char *ld_fn;		/* the linker's "in function `foo':" */
	size_t ld_fn_n;
	/* The build tool whose line made the current finding ("kismet",
	 * "depmod", "make[5]"; not a linker) and the first words of what
	 * it said: see tool_continues(). */
	const char *tool, *form;
	size_t tool_n, form_n;
	struct rv_seen seen;		/* the diagnostics, each once */
	/* The compiler's "note:" lines under a diagnostic belong to it
	 * (where a macro was expanded, the previous definition): note_ok
	 * while the last diagnostic made finding note_for, noting while
	 * the lines of a note's code follow it. */
	bool note_ok, noting;
	size_t note_for, note_lines;
};

/* A report lists a handful of vim listings; matching each against every
 * finding must not go quadratic on a hostile mail. */
#define MAX_VIM_BLOCKS 64

struct diag {
	const char *path, *func, *msg;
	size_t path_n, func_n, msg_n;
	long line;
	wn_severity sev;
	bool sev_explicit, sparse_cont;
	bool ld_ref;			/* GNU ld's, in the function it named */
	const char *tool;		/* "kismet" of "kismet: WARNING: ..." */
	size_t tool_n;
};

/* --- lkp-diag.c, lkp-listing.c, lkp-report.c: what lkp.c calls --------- */

/* An ASCII letter. */
bool wn_lkp_alpha(int ch);
/* The tool that printed the line, named before it: a linker ("sparc-
 * linux-ld: "), or a tool whose next word is its verdict ("kismet:
 * WARNING: ", "depmod: ERROR: ", "make[6]: *** ").  The index past the
 * name, 0 when there is none; *ld tells a linker. */
size_t wn_lkp_tool_prefix(const char *s, size_t n, bool *ld);
/* A diagnostic line.  loose: the line is new (">>"), so whatever it
 * says is one, with a path when it starts with one ("drivers/x.c:
 * linux/y.h is included more than once"). */
bool wn_lkp_parse_diag(const char *s, size_t n, struct diag *d, bool loose);
/* The first two words of a message: the kind of thing it says. */
size_t wn_lkp_form_of(const char *m, size_t n);
/* What changes from one build to the next, out of the text finding i's
 * fingerprint is made of (its summary keeps all of it, its quote and
 * comment too): section offsets "(.text+0x44)", "foo()+0x4e/0x90",
 * addresses "0xffffffff81a2b3c4", and the folders of absolute paths
 * ("/tmp/kbuild-3f2a/drivers/x.o" is "x.o").  The same undefined
 * reference then keeps one fingerprint, and the verdict given to it.
 * Only for what the linker and the build's tools say. */
void wn_lkp_stable_text(struct rv_ctx *c, size_t at, const char *s);
/* "-- " then "0-DAY CI Kernel Test Service" ends the report; a bare
 * "--" inside a section only separates the outputs of two files. */
bool wn_lkp_signature(const struct rv_lines *L, size_t i);
/* "vim +123 path" / "vim +/sym +123 path": the listing that follows
 * marks the line ("> 123" or "@123"); it becomes the quote of that
 * diagnostic when the diagnostic brought no excerpt of its own. */
size_t wn_lkp_vim_block(struct lkp *k, const struct rv_lines *L, size_t i);
/* What the key/value block says about the patch: "patch subject: [PATCH
 * v2 3/5] x: y" in a reply to a patch, "commit: <sha> x: y" in a tree
 * report, "patch link:" with its Message-ID, the "url:" branch with the
 * time the robot took it.  They link a report whose threading was lost,
 * or a tree report, to the patch mail. */
void wn_lkp_report_refs(struct rv_ctx *c, const struct rv_lines *L);

#endif
