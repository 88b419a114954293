/*
 * Unit tests for checking a configuration whole (conf/conf.c,
 * conf-syntax.c, conf-listen.c): every error of a room is reported at
 * once, each at its line, past a syntax error too, and not the echoes of
 * one (what refers to a part in error); a listener on loopback that the
 * room's machines cannot reach is warned about, and a warning alone does
 * not refuse the room.
 */
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
static void	expect(const struct conf_msgs *, const char *const *, size_t);

/* Write a file whole. */
static void
put(const char *path, const char *text)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* Check that the messages are exactly these, in this order. */
static void
expect(const struct conf_msgs *msgs, const char *const *want, size_t n)
{
	size_t	i;

	for (i = 0; i < msgs->n && i < n; i++)
		if (strcmp(msgs->v[i].text, want[i]) != 0)
			fail_msg("message %zu\n  expected: %s\n       got: %s",
			    i + 1, want[i], msgs->v[i].text);
	if (msgs->n != n)
		fail_msg("%zu messages, expected %zu; message %zu: %s",
		    msgs->n, n, n + 1 <= msgs->n ? n + 1 : msgs->n,
		    msgs->n > n ? msgs->v[n].text : want[msgs->n]);
}

/* Errors of every part of a room are reported in one check. */
static void
test_check_reports_every_phase(void **state)
{
	static const char *const want[] = {
		"room.conf:1: unknown setting 'colour' at top level",
		"room.conf:2: setting 'queue_limit' must be between 256 and "
		    "16777216 bytes",
		"room.conf:3: rules: filter 'loud' is neither \"on\" nor "
		    "\"passthrough\"",
		"room.conf:6: duplicate port name 'a' (first at line 5)",
		"room.conf:10: station 'J2': unknown port 'zz'",
		"room.conf:12: round 1: unknown entry 'E9'",
	};
	struct conf_msgs	 msgs;
	char			 err[LINE_ERRLEN];
	size_t			 n;

	(void)state;
	memset(&msgs, 0, sizeof(msgs));
	assert_null(conf_check_string("room.conf",
	    "colour = \"red\";\n"
	    "queue_limit = 3;\n"
	    "rules = { filter = \"loud\"; };\n"
	    "ports = (\n"
	    "  { name = \"a\"; address = \"/dev/a\"; },\n"
	    "  { name = \"a\"; address = \"/dev/b\"; },\n"
	    "  { name = \"c\"; address = \"/dev/c\"; }\n"
	    ");\n"
	    "stations = ( { name = \"J1\"; judge = 1; left = \"a\"; right = \"c\"; },\n"
	    "  { name = \"J2\"; judge = 2; left = \"zz\"; right = \"a\"; } );\n"
	    "entities = ( );\n"
	    "schedule = { rounds = ( { round = 1; pairs = ( (\"J1\", \"E9\", "
	    "\"\") ); } ); };\n", &msgs, err, sizeof(err)));
	/* The round's empty confederate is an error of its own. */
	assert_true(msgs.n >= 6);
	n = msgs.n;
	msgs.n = 6;
	expect(&msgs, want, 6);
	msgs.n = n;
	assert_string_equal(err, want[0]);
	conf_msgs_free(&msgs);
}

/*
 * What refers to a part read with errors is not reported again: a
 * station on a port whose address is wrong, a round naming that station.
 */
static void
test_check_no_echoes(void **state)
{
	static const char *const want[] = {
		"room.conf:2: port 'b': impossible baud rate '123' (a standard "
		    "rate from 50 to 4000000)",
		"room.conf:6: round 1: unknown confederate 'C9'",
	};
	struct conf_msgs	 msgs;
	char			 err[LINE_ERRLEN];

	(void)state;
	memset(&msgs, 0, sizeof(msgs));
	assert_null(conf_check_string("room.conf",
	    "ports = ( { name = \"a\"; address = \"/dev/a\"; },\n"
	    "  { name = \"b\"; address = \"/dev/b,baud=123\"; },\n"
	    "  { name = \"e\"; address = \"/dev/e\"; } );\n"
	    "stations = ( { name = \"J1\"; judge = 1; left = \"a\"; right = \"b\"; } );\n"
	    "entities = ( { name = \"E1\"; kind = \"entry\"; port = \"e\"; approved = \"Ada\"; } );\n"
	    "schedule = { rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C9\") ); } ); };\n",
	    &msgs, err, sizeof(err)));
	expect(&msgs, want, 2);
	assert_int_equal(msgs.errors, 2);
	conf_msgs_free(&msgs);
}

/*
 * A syntax error is reported with libconfig's message and line and the
 * text of that line; the statement it is in is left out and the rest
 * checked, without echoes of what was left out.  The messages
 * come in the order of the text.
 */
static void
test_check_past_a_syntax_error(void **state)
{
	static const char *const want[] = {
		"room.conf:3: syntax error at \"stations = ( { name = \"J1\"; "
		    "judge = 1; left = \"a\"; right ...\"; not read: 'ports', "
		    "'stations'",
		"room.conf:4: rules: burst must be between 2 and 4096 "
		    "characters",
		"room.conf:5: syntax error at \"sync = ;\"; not read: 'sync'",
		"room.conf:6: setting 'control_clients' must be between 1 and "
		    "65536 clients",
	};
	struct conf_msgs	 msgs;
	char			 err[LINE_ERRLEN];

	(void)state;
	memset(&msgs, 0, sizeof(msgs));
	assert_null(conf_check_string("room.conf",
	    "ports = ( { name = \"a\"; address = \"/dev/a\"; },\n"
	    "          { name = \"b\"; address = \"/dev/b\"; }\n"
	    "stations = ( { name = \"J1\"; judge = 1; left = \"a\"; right = \"b\"; } );\n"
	    "rules = { burst = 1; };\n"
	    "sync = ;\n"
	    "control_clients = 0;\n"
	    "entities = ( { name = \"E1\"; kind = \"entry\"; port = \"b\"; approved = \"Ada\"; } );\n",
	    &msgs, err, sizeof(err)));
	expect(&msgs, want, 4);
	/* conf_load()'s one message is the first, without the rest. */
	assert_null(conf_load_string("room.conf", "ports = ( { name = \"a\"; "
	    "address = ; } );\n", err, sizeof(err)));
	assert_string_equal(err, "room.conf:1: syntax error at \"ports = ( { "
	    "name = \"a\"; address = ; } );\"");
	conf_msgs_free(&msgs);
}

/*
 * A syntax error in an included file names that file and line; the
 * @include is left out, and the configuration's own errors reported.
 */
static void
test_check_syntax_error_in_include(void **state)
{
	struct conf_msgs	 msgs;
	char			 dir[] = "/tmp/test_conf_check.XXXXXX";
	char			 path[PATH_MAX], inc[PATH_MAX], want[3][PATH_MAX + 128];
	char			 err[LINE_ERRLEN];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/room.conf", dir);
	snprintf(inc, sizeof(inc), "%s/rules.inc", dir);
	put(inc, "rules = {\n  burst = ;\n};\n");
	put(path, "@include \"rules.inc\"\n"
	    "ports = ( { name = \"a\"; address = \"/dev/a\"; },\n"
	    "  { name = \"a\"; address = \"/dev/b\"; } );\n"
	    "schedule = { preset = \"nosuch\"; };\n");
	memset(&msgs, 0, sizeof(msgs));
	assert_null(conf_check(path, &msgs, err, sizeof(err)));
	snprintf(want[0], sizeof(want[0]), "%s:2: syntax error at \"burst = "
	    ";\"; not read: @include \"rules.inc\"", inc);
	snprintf(want[1], sizeof(want[1]), "%s:3: duplicate port name 'a' "
	    "(first at line 2)", path);
	snprintf(want[2], sizeof(want[2]), "%s:4: unknown schedule preset "
	    "'nosuch' (known: ", path);
	assert_int_equal(msgs.n, 3);
	assert_string_equal(msgs.v[0].text, want[0]);
	assert_string_equal(msgs.v[1].text, want[1]);
	assert_memory_equal(msgs.v[2].text, want[2], strlen(want[2]));
	assert_int_equal(msgs.v[0].line, 2);
	assert_string_equal(msgs.v[0].file, inc);
	conf_msgs_free(&msgs);
	unlink(inc);
	unlink(path);
	rmdir(dir);
}

/*
 * A listener on loopback held by a confederate (a person at another
 * machine), or in a room with other machines, is warned about; the room
 * is still accepted.  An entry's on loopback in a room of serial lines,
 * and a listener on the network, are not.
 */
static void
test_check_loopback_listener(void **state)
{
	static const char *const room =
	    "ports = ( { name = \"j1\"; address = \"/dev/a\"; },\n"
	    "  { name = \"j2\"; address = \"/dev/b\"; },\n"
	    "  { name = \"bot\"; address = \"%s\"; },\n"
	    "  { name = \"human\"; address = \"%s\"; } );\n"
	    "stations = ( { name = \"J1\"; judge = 1; left = \"j1\"; right = \"j2\"; } );\n"
	    "entities = ( { name = \"E1\"; kind = \"entry\"; port = \"bot\"; approved = \"Ada\"; },\n"
	    "  { name = \"C1\"; kind = \"confederate\"; port = \"human\"; approved = \"Bob\"; } );\n";
	static const char *const confed[] = {
		"room.conf:4: warning: port 'human': tcp-listen:7001 listens "
		    "on loopback only, and confederate 'C1' is at another "
		    "machine, which cannot connect: write "
		    "tcp-listen:*:7001,allow=NETWORK",
	};
	static const char *const remote[] = {
		"room.conf:3: warning: port 'bot': tcp-listen:127.0.0.1:7000 "
		    "listens on loopback only, while the room has other "
		    "machines (port 'human' at line 4): write "
		    "tcp-listen:*:7000,allow=NETWORK",
	};
	struct conf_msgs	 msgs;
	struct conf		*conf;
	char			 text[2048], err[LINE_ERRLEN];

	(void)state;
	memset(&msgs, 0, sizeof(msgs));
	snprintf(text, sizeof(text), room, "/dev/c", "tcp-listen:7001");
	assert_non_null(conf = conf_check_string("room.conf", text, &msgs,
	    err, sizeof(err)));
	conf_free(conf);
	expect(&msgs, confed, 1);
	assert_int_equal(msgs.errors, 0);
	assert_int_equal(msgs.warnings, 1);
	conf_msgs_free(&msgs);

	snprintf(text, sizeof(text), room, "tcp-listen:127.0.0.1:7000",
	    "tcp:192.0.2.7:7001");
	assert_non_null(conf = conf_check_string("room.conf", text, &msgs,
	    err, sizeof(err)));
	conf_free(conf);
	expect(&msgs, remote, 1);
	conf_msgs_free(&msgs);

	snprintf(text, sizeof(text), room, "exec:/bin/cat",
	    "tcp-listen:*:7001,allow=192.0.2.0/24");
	assert_non_null(conf = conf_check_string("room.conf", text, &msgs,
	    err, sizeof(err)));
	conf_free(conf);
	expect(&msgs, remote, 0);
	conf_msgs_free(&msgs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_reports_every_phase),
		cmocka_unit_test(test_check_no_echoes),
		cmocka_unit_test(test_check_past_a_syntax_error),
		cmocka_unit_test(test_check_syntax_error_in_include),
		cmocka_unit_test(test_check_loopback_listener),
	};

	return (cmocka_run_group_tests_name("tests", tests, NULL, NULL));
}
