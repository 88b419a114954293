/*
 * Unit tests for the contest-rule settings of a room (muxd/conf-rules.c):
 * the defaults, every accepted value, and each bad value refused with
 * exactly one "FILE:LINE: what is wrong" message.  The rules group is on
 * line 1 of every configuration, before a one-station room.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "muxd.h"

#define RULES_ROOM							\
	"ports = ( { name = \"j1l\"; address = \"exec:/bin/cat\"; },\n"	\
	"  { name = \"j1r\"; address = \"exec:/bin/cat\"; },\n"		\
	"  { name = \"e1\"; address = \"exec:/bin/cat\"; },\n"		\
	"  { name = \"c1\"; address = \"exec:/bin/cat\"; } );\n"	\
	"stations = ( { name = \"J1\"; judge = 1; left = \"j1l\"; "	\
	"right = \"j1r\"; } );\n"					\
	"entities = ( { name = \"E1\"; kind = \"entry\"; port = \"e1\"; " \
	"approved = \"Ada\"; },\n"					\
	"  { name = \"C1\"; kind = \"confederate\"; port = \"c1\"; "	\
	"approved = \"Bob\"; } );\n"

/* Load a room whose first line is rules; NULL with the message in err. */
static struct conf *
rules_load(const char *rules, char *err, size_t errlen)
{
	char	text[4096];

	snprintf(text, sizeof(text), "%s\n%s", rules, RULES_ROOM);
	return (conf_load_string("room.conf", text, err, errlen));
}

/* No rules group: the convention, the filter, check, 8, 150+-75. */
static void
test_rules_defaults(void **state)
{
	struct conf	*c;
	char		 err[MUXD_ERRLEN];

	(void)state;
	c = rules_load("", err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->convention, 1);
	assert_int_equal(c->filter, 1);
	assert_int_equal(c->assertion, CONF_ASSERT_CHECK);
	assert_int_equal(c->burst, 8);
	assert_string_equal(c->typing, "150+-75");
	assert_null(c->pattern);
	conf_free(c);
}

/* Every policy and setting as written. */
static void
test_rules_values(void **state)
{
	static const struct {
		const char		*rules;
		enum conf_assert	 assertion;
		const char		*typing;
	} cases[] = {
		{ "rules = { assertion = \"check\"; };", CONF_ASSERT_CHECK,
		    "150+-75" },
		{ "rules = { assertion = \"inject\"; typing = \"20+-10\"; };",
		    CONF_ASSERT_INJECT, "20+-10" },
		{ "rules = { assertion = \"hold\"; };", CONF_ASSERT_HOLD,
		    "150+-75" },
		{ "rules = { assertion = \"off\"; typing = \"0\"; };",
		    CONF_ASSERT_OFF, "0" },
	};
	struct conf	*c;
	char		 err[MUXD_ERRLEN];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = rules_load(cases[i].rules, err, sizeof(err));
		if (c == NULL)
			fail_msg("%s: %s", cases[i].rules, err);
		assert_int_equal(c->assertion, cases[i].assertion);
		assert_string_equal(c->typing, cases[i].typing);
		conf_free(c);
	}
	c = rules_load("rules = { convention = false; filter = "
	    "\"passthrough\"; burst = 16; pattern = \"(?<name>x)\"; };", err,
	    sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->convention, 0);
	assert_int_equal(c->filter, 0);
	assert_int_equal(c->burst, 16);
	assert_string_equal(c->pattern, "(?<name>x)");
	conf_free(c);
}

/* Each bad setting: one message naming the file, the line and the value. */
static void
test_rules_errors(void **state)
{
	static const struct {
		const char	*rules;
		const char	*msg;
	} cases[] = {
		{ "rules = { assertion = \"inject-ish\"; };",
		    "room.conf:1: rules: assertion 'inject-ish' is not "
		    "\"check\", \"inject\", \"hold\" or \"off\"" },
		{ "rules = { typing = \"fast\"; };",
		    "room.conf:1: rules: typing 'fast' is not a typing model "
		    "(ms per key, like 100 or 100+-50)" },
		{ "rules = { typing = \"20000\"; };",
		    "room.conf:1: rules: typing '20000': times are 0 to "
		    "10000 ms" },
		{ "rules = { filter = \"off\"; };",
		    "room.conf:1: rules: filter 'off' is neither \"on\" nor "
		    "\"passthrough\"" },
		{ "rules = { burst = 1; };",
		    "room.conf:1: rules: burst must be between 2 and 4096 "
		    "characters" },
		{ "rules = { convention = 1; };",
		    "room.conf:1: setting 'convention' in rules must be true "
		    "or false" },
		{ "rules = ( 1 );",
		    "room.conf:1: setting 'rules' must be a group { ... }" },
	};
	struct conf	*c;
	char		 err[MUXD_ERRLEN];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		c = rules_load(cases[i].rules, err, sizeof(err));
		if (c != NULL) {
			conf_free(c);
			fail_msg("%s: accepted", cases[i].rules);
		}
		assert_string_equal(err, cases[i].msg);
	}
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_defaults),
		cmocka_unit_test(test_rules_values),
		cmocka_unit_test(test_rules_errors),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
