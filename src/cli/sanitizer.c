/* winnow — what a sanitizer build of winnow knows of its libraries.
 *
 * LeakSanitizer reports at exit what GLib, GMime, Xapian and notmuch
 * keep for the life of the process (type tables; notmuch never frees a
 * subject:"/.../" term's compiled pattern), and exits 1 for it.  The
 * test suite suppresses those through tests/lib/lsan.supp; a winnow
 * built with --enable-sanitizers carries the same list (lsan-default.h
 * is made from that file), so that run by hand or by a script its exit
 * status is its own.  winnow's own leaks are never in the list.  Normal
 * builds have none of this. */
#include "autoconfig.h"

#if defined(__SANITIZE_ADDRESS__)
#define WN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WN_ASAN 1
#endif
#endif

#ifdef WN_ASAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return
#include "lsan-default.h"
	       "";
}

/* ... and says nothing of them at exit. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#else
/* ISO C wants something in a translation unit. */
typedef int wn_no_sanitizer;
#endif
