/*
 * Unit tests for the line library's memory policy (line/port.c): a port
 * that cannot be allocated is an error returned to the program, never an
 * exit of the library's own.  calloc is wrapped at link time
 * (-Wl,--wrap=calloc) so that the test can make the next one fail.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "line.h"

void	*__real_calloc(size_t, size_t);
void	*__wrap_calloc(size_t, size_t);

static int	fail_next_calloc;

/* calloc, but failing once when told to. */
void *
__wrap_calloc(size_t n, size_t size)
{
	if (fail_next_calloc) {
		fail_next_calloc = 0;
		errno = ENOMEM;
		return (NULL);
	}
	return (__real_calloc(n, size));
}

/* The time of the program (the port library's clock). */
static void
clock_now(struct timeval *tv)
{
	gettimeofday(tv, NULL);
}

/* A port that cannot be allocated: NULL and ENOMEM, no port listed. */
static void
test_port_new_out_of_memory(void **state)
{
	struct addr	 a;
	struct port	*p;
	char		 err[LINE_ERRLEN];

	(void)state;
	assert_int_equal(addr_parse("exec:/bin/cat", &a, err, sizeof(err)), 0);
	fail_next_calloc = 1;
	errno = 0;
	p = port_new("e1", &a, 4096);
	assert_null(p);
	assert_int_equal(errno, ENOMEM);
	assert_null(port_find("e1"));
	/* Memory again: the port is made, and listed. */
	assert_non_null(p = port_new("e1", &a, 4096));
	assert_ptr_equal(port_find("e1"), p);
	port_free(p);
	addr_free(&a);
}

int
main(void)
{
	static const struct port_hooks	hooks = { .clock = clock_now };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_new_out_of_memory),
	};
	struct event_base	*base;
	int			 rc;

	if ((base = event_base_new()) == NULL)
		return (1);
	port_hooks_set(base, &hooks);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	event_base_free(base);
	return (rc);
}
