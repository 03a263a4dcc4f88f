/* winnow — the hedge an AI reviewer opens a finding with, and that the
 * displayed summary leaves out (build.h: wn_rv_hedge).
 *
 *	This is a pre-existing issue, but the lock is never dropped.
 *	This isn't a bug introduced by this patch, but is it safe to ...?
 *	Not a bug introduced by this patch, but the count can wrap.
 *	This problem wasn't introduced by this patch, but an out-of-bounds
 *	read occurs when ...
 *
 * The reviewers (Sashiko, netdev's and BPF CI's) write such a clause to
 * say how sure or how new the problem is before saying what it is; in
 * the queue's narrow column it leaves no room for the problem.  A hedge
 * is a first clause of a few words that ends in ", but" (or "; however,"
 * / ", however,"), denies the problem is a bug or the patch's own (a
 * negation and a word for a problem or for causing one) or calls it
 * pre-existing.  A clause that states a problem ("X was removed, but it
 * is still called") is no hedge: it neither denies nor dates one. */
#include "autoconfig.h"

#include <stdbool.h>
#include <string.h>

#include "build.h"
#include "../core/str.h"

/* Longest clause read as a hedge, in words: the real ones have at most
 * ten ("This isn't a bug introduced by this patch, but"). */
#define HEDGE_WORDS 14
/* Fewest words the problem must keep after the hedge: else the hedge
 * is the summary and stays. */
#define PROBLEM_WORDS 3

static const char *const ends[] = { ", but ", "; however, ", ", however, ", NULL };
/* Words that deny ("not", "isn't", "wasn't") or date the problem. */
static const char *const denials[] = { "not", "isn't", "wasn't", "aren't", "doesn't", "didn't", NULL };
static const char *const dated[] = { "pre-existing", "preexisting", "pre-existed", NULL };
static const char *const problems[] = { "bug", "issue", "problem", "regression", "introduced",
					"caused", "nit", NULL };

static bool letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'' || c == '-';
}

/* Does s[0..n) hold one of words as a whole word, any case? */
static bool has_word(const char *s, size_t n, const char *const *words)
{
	for (size_t i = 0; i < n; i++) {
		if (!letter(s[i]) || (i > 0 && letter(s[i - 1])))
			continue;
		size_t j = i;

		while (j < n && letter(s[j]))
			j++;
		for (const char *const *w = words; *w; w++)
			if (j - i == strlen(*w) && wn_str_prefix_ci(s + i, j - i, *w))
				return true;
		i = j;
	}
	return false;
}

static size_t count_words(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && (i == 0 || s[i - 1] == ' '))
			k++;
	return k;
}

/* Words a sentence opens with that are no identifier: the one after a
 * hedge gets its capital back ("but is it safe" -> "Is it safe"), an
 * identifier keeps its case ("but qsw_port_unregister() leaves"). */
static const char *const openers[] = {
	"a", "after", "all", "an", "any", "are", "as", "because", "both", "calling", "can", "could",
	"did", "do", "does", "each", "every", "how", "if", "in", "is", "it", "its", "looking",
	"modifying", "no", "on", "once", "only", "returning", "should", "since", "some", "that",
	"the", "there", "these", "this", "under", "what", "when", "where", "whether", "while",
	"why", "will", "with", "would", NULL
};

bool wn_rv_hedge_capital(const char *s)
{
	size_t n = 0;

	while (s[n] >= 'a' && s[n] <= 'z')
		n++;
	if (!n || s[n] != ' ')
		return false;
	for (const char *const *w = openers; *w; w++)
		if (strlen(*w) == n && !strncmp(s, *w, n))
			return true;
	return false;
}

size_t wn_rv_hedge(const char *s)
{
	size_t n = s ? strlen(s) : 0, at = SIZE_MAX, len = 0;

	for (const char *const *e = ends; *e; e++) {
		const char *p = strstr(s ? s : "", *e);

		if (p && (size_t) (p - s) < at) {
			at = (size_t) (p - s);
			len = strlen(*e);
		}
	}
	if (at == SIZE_MAX || count_words(s, at) > HEDGE_WORDS ||
	    count_words(s + at + len, n - at - len) < PROBLEM_WORDS)
		return 0;
	if (has_word(s, at, dated) ||
	    (has_word(s, at, denials) && has_word(s, at, problems)))
		return at + len;
	return 0;
}
