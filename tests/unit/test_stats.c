/*
 * Unit tests for typing cadence and response latency (transcripts/stats.c):
 * bursts and their gaps, quartiles, the mechanical verdict, latency and
 * interruptions, pooling.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "transcripts.h"

#define MS	1000		/* usec */
#define EPS	1e-9

static void	 type(struct stats *, enum cap_kind, const char *, int64_t,
		    int64_t);

/* Type a string one byte per event, every step usec, from usec t. */
static void
type(struct stats *st, enum cap_kind kind, const char *s, int64_t t,
    int64_t step)
{
	for (; *s != '\0'; s++, t += step)
		assert_int_equal(stats_feed(st, kind,
		    (const unsigned char *)s, 1, t), 0);
}

static void
test_regular_typing_is_mechanical(void **state)
{
	const char		*s = "I am a program that types very evenly.";
	struct stats		 st;
	struct stats_summary	 sum;

	(void)state;
	stats_init(&st);
	type(&st, CAP_OUTPUT, s, 0, 109 * MS);
	stats_summary(&st.gaps[STATS_ENTITY], &sum);
	assert_int_equal(sum.keys, strlen(s));
	assert_int_equal(sum.bursts, 1);
	assert_int_equal(sum.n, strlen(s) - 1);
	assert_true(sum.median > 0.109 - EPS && sum.median < 0.109 + EPS);
	assert_true(sum.q3 - sum.q1 < EPS);
	assert_true(sum.qcd < EPS);
	assert_int_equal(sum.mechanical, 1);
	stats_free(&st);
}

static void
test_human_like_typing_is_not(void **state)
{
	static const int	 ms[] = { 120, 250, 90, 170, 310, 140, 200, 80,
				    160, 230, 110, 190, 270, 130, 175, 95, 220,
				    150, 340, 105, 185, 125 };
	struct stats		 st;
	struct stats_summary	 sum;
	int64_t			 t = 0;
	size_t			 i;

	(void)state;
	stats_init(&st);
	for (i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		t += ms[i] * MS;
		assert_int_equal(stats_feed(&st, CAP_INPUT,
		    (const unsigned char *)"x", 1, t), 0);
	}
	stats_summary(&st.gaps[STATS_JUDGE], &sum);
	assert_int_equal(sum.n, sizeof(ms) / sizeof(ms[0]) - 1);
	assert_true(sum.median > 0.10 && sum.median < 0.30);
	assert_true(sum.qcd > STATS_MECHANICAL);
	assert_int_equal(sum.mechanical, 0);
	stats_free(&st);
}

static void
test_quartiles_interpolate(void **state)
{
	struct stats_series	s;
	struct stats_summary	sum;
	int64_t			v[] = { 4000000, 1000000, 3000000,
				    2000000 };

	(void)state;
	memset(&s, 0, sizeof(s));
	s.v = v;
	s.n = 4;
	stats_summary(&s, &sum);
	assert_true(sum.median > 2.5 - EPS && sum.median < 2.5 + EPS);
	assert_true(sum.q1 > 1.75 - EPS && sum.q1 < 1.75 + EPS);
	assert_true(sum.q3 > 3.25 - EPS && sum.q3 < 3.25 + EPS);
	assert_true(sum.min > 1 - EPS && sum.max < 4 + EPS);
	assert_true(sum.mean > 2.5 - EPS && sum.mean < 2.5 + EPS);
	/* Standard deviation sqrt(1.25), over the mean 2.5. */
	assert_true(sum.cv > 0.447213 && sum.cv < 0.447214);
	assert_true(sum.qcd > 0.3 - EPS && sum.qcd < 0.3 + EPS);
	assert_int_equal(sum.mechanical, -1);	/* too few to tell */
	memset(&s, 0, sizeof(s));
	stats_summary(&s, &sum);
	assert_int_equal(sum.n, 0);
	assert_int_equal(sum.mechanical, -1);
}

static void
test_pauses_end_bursts(void **state)
{
	struct stats		st;
	struct stats_summary	sum;

	(void)state;
	stats_init(&st);
	type(&st, CAP_INPUT, "abc", 0, 100 * MS);
	/* 2 s after the last key: a new burst, its gap not counted. */
	type(&st, CAP_INPUT, "de", 200 * MS + STATS_BURST_GAP, 300 * MS);
	/* Just under the threshold: the same burst. */
	type(&st, CAP_INPUT, "f", 200 * MS + STATS_BURST_GAP + 300 * MS +
	    STATS_BURST_GAP - 1, 0);
	stats_summary(&st.gaps[STATS_JUDGE], &sum);
	assert_int_equal(sum.keys, 6);
	assert_int_equal(sum.bursts, 2);
	assert_int_equal(sum.n, 4);
	assert_true(sum.max > 1.999998 && sum.max < 2.0);
	stats_free(&st);
}

static void
test_other_speaker_ends_bursts(void **state)
{
	struct stats		st;
	struct stats_summary	j, o;

	(void)state;
	stats_init(&st);
	type(&st, CAP_INPUT, "hi", 0, 150 * MS);
	type(&st, CAP_OUTPUT, "yo", 400 * MS, 50 * MS);
	type(&st, CAP_INPUT, "ok", 600 * MS, 150 * MS);
	stats_summary(&st.gaps[STATS_JUDGE], &j);
	stats_summary(&st.gaps[STATS_ENTITY], &o);
	assert_int_equal(j.bursts, 2);
	assert_int_equal(j.n, 2);
	assert_true(j.median > 0.15 - EPS && j.median < 0.15 + EPS);
	assert_int_equal(o.bursts, 1);
	assert_int_equal(o.n, 1);
	stats_free(&st);
}

static void
test_bytes_in_one_event(void **state)
{
	struct stats		st;
	struct stats_summary	sum;

	(void)state;
	stats_init(&st);
	assert_int_equal(stats_feed(&st, CAP_OUTPUT,
	    (const unsigned char *)"Hello there\r\n", 13, 5 * MS), 0);
	assert_int_equal(stats_feed(&st, CAP_MARKER,
	    (const unsigned char *)"round start 1", 13, 6 * MS), 0);
	assert_int_equal(stats_feed(&st, CAP_OUTPUT,
	    (const unsigned char *)"", 0, 7 * MS), 0);
	stats_summary(&st.gaps[STATS_ENTITY], &sum);
	assert_int_equal(sum.keys, 13);
	assert_int_equal(sum.n, 12);
	assert_true(sum.max < EPS);
	stats_free(&st);
}

static void
test_latency_and_interruptions(void **state)
{
	struct stats		st;
	struct stats_summary	sum;

	(void)state;
	stats_init(&st);
	type(&st, CAP_INPUT, "Hello\r", 0, 100 * MS);
	type(&st, CAP_OUTPUT, "Hi\r", 3500 * MS, 100 * MS);
	/* The entity begins while the judge is mid-line: no answer. */
	type(&st, CAP_INPUT, "How a", 10000 * MS, 100 * MS);
	type(&st, CAP_OUTPUT, "x", 10600 * MS, 0);
	type(&st, CAP_INPUT, "re you?\n", 11000 * MS, 100 * MS);
	type(&st, CAP_OUTPUT, "Fine", 11700 * MS + 1250 * MS, 100 * MS);
	stats_summary(&st.latency, &sum);
	assert_int_equal(sum.n, 2);
	assert_int_equal(st.latency.bursts, 2);
	assert_int_equal(st.interruptions, 1);
	/* "Hello\r" ends at 0.5 s, "Hi" at 3.5 s: 3.0 s; then 1.25 s. */
	assert_true(sum.max > 3.0 - EPS && sum.max < 3.0 + EPS);
	assert_true(sum.min > 1.25 - EPS && sum.min < 1.25 + EPS);
	stats_free(&st);
}

static void
test_times_never_go_back(void **state)
{
	struct stats		st;
	struct stats_summary	sum;

	(void)state;
	stats_init(&st);
	type(&st, CAP_INPUT, "a", 1000 * MS, 0);
	type(&st, CAP_INPUT, "b", 999 * MS, 0);
	stats_summary(&st.gaps[STATS_JUDGE], &sum);
	assert_int_equal(sum.n, 1);
	assert_true(sum.max < EPS && sum.min > -EPS);
	stats_free(&st);
}

static void
test_pooling(void **state)
{
	struct stats		a, b;
	struct stats_series	pool;
	struct stats_summary	sum;

	(void)state;
	stats_init(&a);
	stats_init(&b);
	memset(&pool, 0, sizeof(pool));
	type(&a, CAP_INPUT, "abcd", 0, 100 * MS);
	type(&b, CAP_INPUT, "abcd", 0, 300 * MS);
	assert_int_equal(stats_add(&pool, &a.gaps[STATS_JUDGE]), 0);
	assert_int_equal(stats_add(&pool, &b.gaps[STATS_JUDGE]), 0);
	stats_summary(&pool, &sum);
	assert_int_equal(sum.keys, 8);
	assert_int_equal(sum.bursts, 2);
	assert_int_equal(sum.n, 6);
	assert_true(sum.median > 0.2 - EPS && sum.median < 0.2 + EPS);
	stats_series_free(&pool);
	stats_free(&a);
	stats_free(&b);
}

/*
 * With the capture's charset utf-8 a character of several bytes is one
 * key, also split over events; with iso-8859-1 each byte is one.
 */
static void
test_utf8_characters_are_keys(void **state)
{
	struct stats		 st;
	struct stats_summary	 sum;

	(void)state;
	stats_init(&st);
	st.charset = CAP_UTF8;
	/* "café" in one event, then "’" in two (one byte, two bytes). */
	assert_int_equal(stats_feed(&st, CAP_OUTPUT, (const unsigned char *)
	    "caf\xc3\xa9", 5, 0), 0);
	assert_int_equal(stats_feed(&st, CAP_OUTPUT, (const unsigned char *)
	    "\xe2", 1, 100 * MS), 0);
	assert_int_equal(stats_feed(&st, CAP_OUTPUT, (const unsigned char *)
	    "\x80\x99", 2, 101 * MS), 0);
	stats_summary(&st.gaps[STATS_ENTITY], &sum);
	assert_int_equal(sum.keys, 5);
	assert_int_equal(sum.n, 4);
	stats_free(&st);
	stats_init(&st);
	assert_int_equal(stats_feed(&st, CAP_OUTPUT, (const unsigned char *)
	    "caf\xc3\xa9", 5, 0), 0);
	stats_summary(&st.gaps[STATS_ENTITY], &sum);
	assert_int_equal(sum.keys, 5);
	assert_int_equal(sum.n, 4);
	stats_free(&st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_typing_is_mechanical),
		cmocka_unit_test(test_human_like_typing_is_not),
		cmocka_unit_test(test_quartiles_interpolate),
		cmocka_unit_test(test_pauses_end_bursts),
		cmocka_unit_test(test_other_speaker_ends_bursts),
		cmocka_unit_test(test_bytes_in_one_event),
		cmocka_unit_test(test_latency_and_interruptions),
		cmocka_unit_test(test_times_never_go_back),
		cmocka_unit_test(test_pooling),
		cmocka_unit_test(test_utf8_characters_are_keys),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
