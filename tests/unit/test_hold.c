/*
 * Unit tests for the delay line that holds an entity's output back from
 * the judge (contest/hold.c): nothing goes out while holding; on release
 * every chunk goes out with its own timing, one constant delay late;
 * output during the release joins its end; the limit drops and counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "contest.h"

#define MS	1000

/* Take what is due at now as a string; *next as hold_take sets it. */
static size_t
take(struct hold *h, int64_t now, char *out, size_t len, int64_t *next)
{
	size_t	n;

	n = hold_take(h, now, (unsigned char *)out, len - 1, next);
	out[n] = '\0';
	return (n);
}

/* Nothing leaves a holding hold; release replays the key timing late. */
static void
test_hold_release_keeps_timing(void **state)
{
	struct hold	h;
	char		out[64];
	int64_t		next;

	(void)state;
	hold_init(&h, 1024);
	assert_false(hold_open(&h));
	hold_push(&h, (const unsigned char *)"He", 2, 1000 * MS);
	hold_push(&h, (const unsigned char *)"l", 1, 1150 * MS);
	hold_push(&h, (const unsigned char *)"lo", 2, 1400 * MS);
	assert_int_equal(take(&h, 5000 * MS, out, sizeof(out), &next), 0);
	assert_true(next == INT64_MAX);

	/* Released 2 s after the first chunk: each goes out 2 s late. */
	hold_release(&h, 3000 * MS);
	assert_int_equal(h.delay, 2000 * MS);
	assert_int_equal(take(&h, 3000 * MS, out, sizeof(out), &next), 2);
	assert_string_equal(out, "He");
	assert_int_equal(next, 3150 * MS);
	assert_int_equal(take(&h, 3149 * MS, out, sizeof(out), &next), 0);
	assert_int_equal(next, 3150 * MS);
	assert_int_equal(take(&h, 3150 * MS, out, sizeof(out), &next), 1);
	assert_string_equal(out, "l");
	assert_int_equal(next, 3400 * MS);

	/* Output while releasing joins the end, as late as the rest. */
	hold_push(&h, (const unsigned char *)"!", 1, 1500 * MS);
	assert_false(hold_open(&h));
	assert_int_equal(take(&h, 3450 * MS, out, sizeof(out), &next), 2);
	assert_string_equal(out, "lo");
	assert_int_equal(next, 3500 * MS);
	assert_int_equal(take(&h, 3600 * MS, out, sizeof(out), &next), 1);
	assert_string_equal(out, "!");
	assert_int_equal(next, -1);
	assert_true(hold_open(&h));
	assert_int_equal(h.held, 6);
	assert_int_equal(h.dropped, 0);
	hold_clear(&h);
}

/* A late caller gets everything due at once, cut at its buffer. */
static void
test_hold_take_partial(void **state)
{
	struct hold	h;
	char		out[4];
	int64_t		next;

	(void)state;
	hold_init(&h, 1024);
	hold_push(&h, (const unsigned char *)"abcde", 5, 10);
	hold_push(&h, (const unsigned char *)"fg", 2, 20);
	hold_release(&h, 10);
	assert_int_equal(take(&h, 100, out, sizeof(out), &next), 3);
	assert_string_equal(out, "abc");
	assert_int_equal(next, 10);
	assert_int_equal(take(&h, 100, out, sizeof(out), &next), 3);
	assert_string_equal(out, "def");
	assert_int_equal(next, 20);
	assert_int_equal(take(&h, 100, out, sizeof(out), &next), 1);
	assert_string_equal(out, "g");
	assert_true(hold_open(&h));
	hold_clear(&h);
}

/* Past the limit bytes are dropped and counted; chunks of one time merge. */
static void
test_hold_limit(void **state)
{
	struct hold	h;
	char		out[64];
	int64_t		next;

	(void)state;
	hold_init(&h, 8);
	assert_int_equal(hold_push(&h, (const unsigned char *)"12345", 5, 7),
	    0);
	assert_int_equal(hold_push(&h, (const unsigned char *)"6789ab", 6, 7),
	    3);
	assert_int_equal(hold_push(&h, (const unsigned char *)"x", 1, 9), 1);
	assert_int_equal(h.dropped, 4);
	assert_int_equal(h.held, 8);
	hold_release(&h, 7);
	assert_int_equal(take(&h, 7, out, sizeof(out), &next), 8);
	assert_string_equal(out, "12345678");
	assert_int_equal(next, -1);
	hold_clear(&h);
}

/* An empty hold opens on release; discard forgets what was held. */
static void
test_hold_empty_and_discard(void **state)
{
	struct hold	h;
	char		out[64];
	int64_t		next;

	(void)state;
	hold_init(&h, 64);
	assert_int_equal(take(&h, 0, out, sizeof(out), &next), 0);
	assert_int_equal(next, -1);
	hold_release(&h, 50);
	assert_true(hold_open(&h));
	hold_clear(&h);

	hold_init(&h, 64);
	hold_push(&h, (const unsigned char *)"secret", 6, 1);
	assert_int_equal(hold_discard(&h), 6);
	assert_false(hold_open(&h));
	hold_push(&h, (const unsigned char *)"ok", 2, 5);
	hold_release(&h, 5);
	assert_int_equal(take(&h, 5, out, sizeof(out), &next), 2);
	assert_string_equal(out, "ok");
	assert_true(hold_open(&h));
	hold_clear(&h);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hold_release_keeps_timing),
		cmocka_unit_test(test_hold_take_partial),
		cmocka_unit_test(test_hold_limit),
		cmocka_unit_test(test_hold_empty_and_discard),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
