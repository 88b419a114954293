/*
 * Unit tests for reading a configuration from files (conf/conf.c,
 * conf-include.c): a missing file is named, every error names the file
 * and line it is in, included files too, and an @include must name a
 * regular file, as a reload of a running muxd relies on.
 */
#include <sys/stat.h>

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "conf.h"

static void	put(const char *, const char *);

/* Write a file whole, for the tests that load files. */
static void
put(const char *path, const char *text)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* A missing file is named in the message. */
static void
test_load_missing_file_names_it(void **state)
{
	char	err[LINE_ERRLEN];

	(void)state;
	assert_null(conf_load("/nonexistent/muxd.conf", err, sizeof(err)));
	assert_string_equal(err,
	    "/nonexistent/muxd.conf: No such file or directory");
}

/* Errors in files, included ones too, name the file and line. */
static void
test_load_file_errors_name_file_and_line(void **state)
{
	struct conf	*conf;
	char		 dir[] = "/tmp/test_conf_load.XXXXXX", path[PATH_MAX];
	char		 inc[PATH_MAX], want[PATH_MAX + 128];
	char		 err[LINE_ERRLEN];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/muxd.conf", dir);
	snprintf(inc, sizeof(inc), "%s/ports.inc", dir);

	/* A syntax error. */
	put(path, "# test\nports = (\n  { name = \"a\"; address = ; }\n"
	    ");\n");
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:3: syntax error at \"{ name = \"a\"; "
	    "address = ; }\"", path);
	assert_string_equal(err, want);

	/* A semantic error. */
	put(path, "# test\n\nports = (\n  { name = \"a\"; address = \"/dev/a\"; }"
	    "\n);\nstate = 7;\n");
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:6: setting 'state' at top level "
	    "must be a string", path);
	assert_string_equal(err, want);

	/* Includes are found beside the file; their errors name them. */
	put(inc, "ports = (\n  { name = \"a\"; adress = \"/dev/a\"; }\n);\n");
	put(path, "# test\n@include \"ports.inc\"\nstate = \"st\";\n");
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2: unknown setting 'adress' in port",
	    inc);
	assert_string_equal(err, want);

	/* Fixed, the include works and state is beside the file. */
	put(inc, "ports = (\n  { name = \"a\"; address = \"/dev/a\"; }\n);\n");
	conf = conf_load(path, err, sizeof(err));
	if (conf == NULL)
		fail_msg("refused: %s", err);
	snprintf(want, sizeof(want), "%s/st", dir);
	assert_string_equal(conf->state_dir, want);
	assert_string_equal(conf->file, path);
	conf_free(conf);

	unlink(inc);
	unlink(path);
	rmdir(dir);
}

/*
 * An @include must name a regular file: libconfig itself would end the
 * process on a directory and wait forever on a FIFO.  So would a reload of
 * a running muxd.  Commented out, such a line is not read.
 */
static void
test_load_include_must_name_a_file(void **state)
{
	FILE		*f;
	struct conf	*conf;
	char		 dir[] = "/tmp/test_conf_load.XXXXXX", path[PATH_MAX];
	char		 inc[PATH_MAX], fifo[PATH_MAX], want[PATH_MAX + 128];
	char		 abs[PATH_MAX], cinc[PATH_MAX];
	char		 err[LINE_ERRLEN];
	static const struct {
		const char	*text;
		int		 line;
		const char	*what;
	} cases[] = {
		{ "# test\n@include \"sub\"\n", 2, "\"sub\": a directory" },
		{ "\n\n  @include \"fifo\"\n", 3, "\"fifo\": a FIFO" },
		{ "@include \"/dev/null\"\n", 1, "\"/dev/null\": a device" },
		{ "state = \"a\nb\\\"\";\n@include \"sub\"\n", 3,
		    "\"sub\": a directory" },
	};
	static const char nul[] = "# test\nstate = \"st\";\0\nports = 7;\n";
	size_t		 i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/muxd.conf", dir);
	snprintf(inc, sizeof(inc), "%s/sub", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkdir(inc, 0700), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put(path, cases[i].text);
		assert_null(conf_load(path, err, sizeof(err)));
		snprintf(want, sizeof(want), "%s:%d: @include %s, not a file",
		    path, cases[i].line, cases[i].what);
		assert_string_equal(err, want);
	}

	/* In an included file, the message names that file and line. */
	snprintf(inc, sizeof(inc), "%s/ports.inc", dir);
	put(inc, "ports = (\n  { name = \"a\"; address = \"/dev/a\"; }\n);\n"
	    "@include \"sub\"\n");
	put(path, "@include \"ports.inc\"\n");
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:4: @include \"sub\": a directory, "
	    "not a file", inc);
	assert_string_equal(err, want);

	/*
	 * Relative names are taken from the configuration's directory, also
	 * in a file included by its absolute name from elsewhere: here
	 * sub/abs.inc includes "c.inc", which is DIR/c.inc.
	 */
	snprintf(abs, sizeof(abs), "%s/sub/abs.inc", dir);
	put(abs, "@include \"c.inc\"\n");
	snprintf(cinc, sizeof(cinc), "%s/c.inc", dir);
	put(cinc, "\n@include \"fifo\"\n");
	snprintf(want, sizeof(want), "@include \"%s\"\n", abs);
	put(path, want);
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2: @include \"fifo\": a FIFO, not a "
	    "file", cinc);
	assert_string_equal(err, want);
	unlink(abs);
	unlink(cinc);

	/* Commented out, it is not an include. */
	put(path, "@include \"ports.inc\"\n");
	put(inc, "ports = (\n  { name = \"a\"; address = \"/dev/a\"; }\n);\n"
	    "/* old:\n@include \"sub\"\n*/ # @include \"sub\"\n");
	conf = conf_load(path, err, sizeof(err));
	if (conf == NULL)
		fail_msg("refused: %s", err);
	conf_free(conf);

	/* A NUL byte is not text: libconfig would stop reading there. */
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fwrite(nul, 1, sizeof(nul) - 1, f), sizeof(nul) - 1);
	fclose(f);
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2: a NUL byte (offset 20): not text",
	    path);
	assert_string_equal(err, want);

	unlink(path);
	unlink(inc);
	unlink(fifo);
	snprintf(inc, sizeof(inc), "%s/sub", dir);
	rmdir(inc);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_missing_file_names_it),
		cmocka_unit_test(test_load_file_errors_name_file_and_line),
		cmocka_unit_test(test_load_include_must_name_a_file),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
