/*
 * The log's rate limit (line/log.c): a call site writes a burst of lines
 * in a window, the rest are counted and said in one line once its window
 * is over; sites are independent; fatal errors are never held back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <cmocka.h>

#include "line.h"

static time_t	now = 1000;
static char	seen[64][256];
static int	nseen;

/* The test's clock. */
static time_t
clock_now(void)
{
	return (now);
}

/* Keep what the log writes. */
static void
sink(int pri, const char *msg)
{
	(void)pri;
	if (nseen < 64)
		snprintf(seen[nseen], sizeof(seen[0]), "%s", msg);
	nseen++;
}

/* Log from one site, n times. */
static void
site_a(int n)
{
	int	i;

	for (i = 0; i < n; i++)
		log_warnx("refused peer %d", i);
}

/* Log from another site. */
static void
site_b(void)
{
	log_info("another site");
}

/* Count the lines seen that hold a phrase. */
static int
count(const char *phrase)
{
	int	i, n = 0;

	for (i = 0; i < nseen && i < 64; i++)
		n += strstr(seen[i], phrase) != NULL;
	return (n);
}

static int
setup(void **state)
{
	(void)state;
	log_redirect(sink);
	log_set_clock(clock_now);
	nseen = 0;
	now += 1000;	/* every site's window over */
	return (0);
}

/* A flood from one site: the burst, then nothing, then one summary. */
static void
test_burst_then_summary(void **state)
{
	(void)state;
	site_a(2000);
	assert_int_equal(nseen, 100);
	now += 3;
	site_a(5);			/* the same window: left out */
	assert_int_equal(nseen, 100);
	now += 10;
	nseen = 0;
	site_a(1);
	assert_int_equal(count("(1905 more lines like \"refused peer %d\" were "
	    "left out in 13 s)"), 1);
	assert_int_equal(count("refused peer 0"), 1);
	assert_int_equal(nseen, 2);
}

/* Another site is not held back by a flooding one. */
static void
test_sites_are_independent(void **state)
{
	(void)state;
	site_a(500);
	nseen = 0;
	site_b();
	assert_int_equal(count("another site"), 1);
}

/* A summary is written when any site logs after the window is over. */
static void
test_summary_on_any_line(void **state)
{
	(void)state;
	site_a(150);
	now += 11;
	nseen = 0;
	site_b();
	assert_int_equal(count("(50 more lines like"), 1);
	assert_int_equal(count("another site"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_burst_then_summary, setup),
		cmocka_unit_test_setup(test_sites_are_independent, setup),
		cmocka_unit_test_setup(test_summary_on_any_line, setup),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
