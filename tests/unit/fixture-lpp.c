/*
 * The 2012 logs for the unit tests: each read and parsed, handed to a
 * function with its file name (fixture-lpp.h).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture-lpp.h"

/*
 * Hand each 2012 log, parsed, to fn: the number of logs; the test is
 * skipped when the logs are not there.
 */
int
fixture_lpp_each(fixture_lpp_fn fn, void *arg)
{
	const char		*dir = getenv("LPP2012");
	struct lpp_log		 log;
	struct cap_error	 e;
	struct dirent		*de;
	DIR			*d;
	char			 path[4096], *text;
	size_t			 len;
	int			 logs = 0;

	if (dir == NULL)
		dir = "../shared/data/loebner2012";
	if ((d = opendir(dir)) == NULL) {
		print_message("the 2012 logs are not at %s: left out\n", dir);
		skip();
		return (0);
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "logfile.", 8) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (cap_file_read(path, 16 * 1024 * 1024, &text, &len,
		    &e) != CAP_OK)
			fail_msg("cannot read %s", path);
		memset(&log, 0, sizeof(log));
		if (lpp_parse(path, text, len, &log, &e) != CAP_OK)
			fail_msg("cannot parse %s", path);
		fn(de->d_name, &log, arg);
		lpp_free(&log);
		free(text);
		logs++;
	}
	closedir(d);
	return (logs);
}
