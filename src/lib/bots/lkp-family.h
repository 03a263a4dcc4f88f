/* winnow — one problem the kernel test robot reports at many places
 * (lkp-family.c).
 *
 * A macro that defines many symbols draws the same diagnostic once per
 * symbol: 86 lines of "symbol 'dev_attr_btn_mapping_m1' was not
 * declared. Should it be static?", one problem to judge once.  Findings
 * of one report that are in one file (as the mail gives it, before the
 * patch's files move them), of one severity, all new or all old,
 * and whose summaries differ only in one quoted identifier, where the
 * identifiers share a stem of at least two words ("dev_attr_"), become
 * one finding when there are at least LKP_FAMILY_MIN of them: its
 * summary names the pattern and the count ("symbol 'dev_attr_*' was not
 * declared. Should it be static? (86 places)"), its places are all of
 * theirs, its quote every diagnostic line with its excerpt.  A finding
 * of no such family keeps its text and its fingerprint. */
#ifndef WINNOW_BOTS_LKP_FAMILY_H
#define WINNOW_BOTS_LKP_FAMILY_H

#include "build.h"

/* Fewer are left as they are.  Two symbols sharing a driver's prefix
 * are as often two problems as one; and a handful of lines (the real
 * reports hold 7 redefinitions, 8 implicit declarations) fit one screen
 * and are judged one by one as quickly, while keeping the robot's own
 * count of diagnostics.  A family that runs into tens of places, as a
 * macro's does, is where judging line by line stops working. */
#define LKP_FAMILY_MIN 10

/* Fold the families among c's findings, each into its first member. */
void wn_lkp_families(struct rv_ctx *c);

#endif
