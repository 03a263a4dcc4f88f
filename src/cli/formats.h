/* winnow — each command's --format values, one table a command.  The
 * option's help ("json|csv|sarif"), the check of what was given with
 * its error ("(json, csv or sarif)") and winnow(1)'s synopsis
 * (man-lists) are made from these; what a format does stays with its
 * command.  Macros only, so that man-lists includes it too. */
#ifndef WINNOW_CLI_FORMATS_H
#define WINNOW_CLI_FORMATS_H

/* The fake-entry build (tests/fake.am) has one more format in each
 * command's own list, so that a list typed by hand shows
 * (tests/tui/fake-entries.sh). */
#ifdef WN_TEST_FAKE_ENTRIES
#define WN_FORMAT_FAKE_(X) X(fakeformat)
#else
#define WN_FORMAT_FAKE_(X)
#endif

/* X(name).  The printers of printer.c: list, show and every command
 * with WN_OPT_FORMAT. */
#define WN_FORMATS_PRINTER(X) X(text) X(json)
#define WN_FORMATS_STATS(X) WN_FORMATS_PRINTER(X) X(csv) WN_FORMAT_FAKE_(X)
#define WN_FORMATS_LEDGER(X) WN_FORMATS_PRINTER(X) X(mbox) WN_FORMAT_FAKE_(X)
#define WN_FORMATS_EXPORT(X) X(json) X(csv) X(sarif) WN_FORMAT_FAKE_(X)
#define WN_FORMATS_REPORT(X) X(html) X(svg) X(json) WN_FORMAT_FAKE_(X)
#define WN_FORMATS_FEEDBACK(X) X(mail) X(json) WN_FORMAT_FAKE_(X)

/* "text|json", the option's argument in --help. */
#define WN_FORMAT_PIPE_(name) "|" #name
#define WN_FORMATS_ARG(LIST) (LIST(WN_FORMAT_PIPE_) + 1)
/* The names, as an array's initialisers. */
#define WN_FORMAT_NAME_(name) #name,
/* "text | json", the synopsis of winnow(1). */
#define WN_FORMAT_MAN_(name) " | " #name
#define WN_FORMATS_MAN(LIST) (LIST(WN_FORMAT_MAN_) + 3)

#endif
