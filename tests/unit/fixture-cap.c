/*
 * The private directory of a capture or transcript test: made as
 * /tmp/PROGRAM.XXXXXX by the group's setup, removed with everything in
 * it by its teardown; files are named and written there.
 */
#include <sys/stat.h>

#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fixture-cap.h"

char	fixture_cap_dir[64];

static int	fixture_cap_rm(const char *, const struct stat *, int,
		    struct FTW *);

/* Remove one file of the test directory. */
static int
fixture_cap_rm(const char *p, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return (remove(p));
}

/* Make a private directory for the test's files. */
int
fixture_cap_setup(void **state)
{
	(void)state;
	snprintf(fixture_cap_dir, sizeof(fixture_cap_dir), "/tmp/%s.XXXXXX",
	    program_invocation_short_name);
	return (mkdtemp(fixture_cap_dir) == NULL ? -1 : 0);
}

/* Remove the test's directory. */
int
fixture_cap_teardown(void **state)
{
	(void)state;
	return (nftw(fixture_cap_dir, fixture_cap_rm, 8, FTW_DEPTH | FTW_PHYS));
}

/* A file name in the test directory (a static buffer). */
char *
fixture_cap_path(const char *name)
{
	static char	buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", fixture_cap_dir, name);
	return (buf);
}

/* Write a file in the test directory. */
void
fixture_cap_put(const char *name, const char *s, size_t len)
{
	FILE	*f;

	assert_non_null(f = fopen(fixture_cap_path(name), "w"));
	assert_int_equal(fwrite(s, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}
