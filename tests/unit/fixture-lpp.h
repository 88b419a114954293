/*
 * A fixture for the unit tests that read the 24 official logs of the
 * 2012 contest (test_convention.c, test_lpp.c): each log read and parsed
 * in turn.  The logs are in ../shared/data/loebner2012, or where LPP2012
 * says; without them the test is skipped, saying so.
 */
#ifndef FIXTURE_LPP_H
#define FIXTURE_LPP_H

#include "lpp.h"

typedef void	(*fixture_lpp_fn)(const char *, const struct lpp_log *, void *);
int		 fixture_lpp_each(fixture_lpp_fn, void *);

#endif /* FIXTURE_LPP_H */
