/* winnow — umbrella header of libwinnow. */
#ifndef WINNOW_WINNOW_H
#define WINNOW_WINNOW_H

#include "winnow/status.h"
#include "winnow/buf.h"
#include "winnow/text.h"
#include "winnow/mail.h"
#include "winnow/review.h"
#include "winnow/trailer.h"
#include "winnow/verdict.h"
#include "winnow/conf.h"
#include "winnow/index.h"
#include "winnow/store.h"
#include "winnow/stats.h"

#endif
