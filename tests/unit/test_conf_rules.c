/*
 * Unit tests for the contest-rule settings of the room configuration
 * (conf/conf-rules.c): the room's rules group, a station's localecho and
 * an entity's eol and announce, the room's and an entity's charset;
 * their defaults, every value, and each
 * kind of bad one refused with exactly one message of the form
 * "FILE:LINE: what is wrong" (the table rules_errors, a cmocka test a
 * row).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conf.h"
#include "contest.h"
#include "fixture-conf.h"

/* Lines 7-9: one station with its own echo. */
#define STATION_LOCALECHO(v)						\
	"stations = (\n"						\
	"  { name = \"J1\"; judge = 1; left = \"j1-left\"; "		\
	"right = \"j1-right\"; localecho = " v "; }\n"			\
	");\n"
/* Lines 7-9: one entry with its own settings. */
#define ENTRY(settings)							\
	"entities = (\n"						\
	"  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "		\
	"approved = \"Eliza\"; " settings " }\n"			\
	");\n"

/* A configuration and the rule settings it must give. */
struct rules_case {
	const char	*text;
	int		 convention, filter, assertion, burst;
	const char	*pattern;	/* NULL: the default */
	const char	*typing;	/* NULL: the default, 150+-75 */
	int		 localecho;	/* of the first station */
	int		 eol, announce;	/* of the first entity */
};

/* Good rule settings, each with what it comes out as. */
static const struct rules_case rules_good[] = {
	/* Without rules, the 1996 convention, the filter and the check. */
	{ ROOM, 1, 1, CONF_ASSERT_CHECK, 8, NULL, NULL, 0, JUDGETERM_EOL_CR,
	    0 },
	/* Every setting turned the other way. */
	{ PORTS STATION_LOCALECHO("true")
	    ENTRY("eol = \"crlf\"; announce = true;")
	    "rules = {\n"
	    "  convention = false;\n"
	    "  filter = \"passthrough\";\n"
	    "  assertion = \"off\";\n"
	    "  pattern = \"^I am (?<name>[a-z]+)\";\n"
	    "  burst = 16;\n"
	    "};\n",
	    0, 0, CONF_ASSERT_OFF, 16, "^I am (?<name>[a-z]+)", NULL, 1,
	    JUDGETERM_EOL_CRLF, 1 },
	/* The defaults written out, and the bounds of a burst. */
	{ PORTS STATION_LOCALECHO("false")
	    ENTRY("eol = \"asis\"; announce = false;")
	    "rules = { convention = true; filter = \"on\"; "
	    "assertion = \"check\"; burst = 2; };\n",
	    1, 1, CONF_ASSERT_CHECK, 2, NULL, NULL, 0, JUDGETERM_EOL_ASIS, 0 },
	{ PORTS STATION_LOCALECHO("false") ENTRY("eol = \"lf\";")
	    "rules = { burst = 4096; };\n",
	    1, 1, CONF_ASSERT_CHECK, 4096, NULL, NULL, 0, JUDGETERM_EOL_LF, 0 },
	/* Terminals that show Enter as CR alone (tio), or say CR LF. */
	{ PORTS STATION_LOCALECHO("\"cr\"") ENTITIES,
	    1, 1, CONF_ASSERT_CHECK, 8, NULL, NULL, VIEW_ECHO_CR,
	    JUDGETERM_EOL_CR, 0 },
	{ PORTS STATION_LOCALECHO("\"crlf\"") ENTITIES,
	    1, 1, CONF_ASSERT_CHECK, 8, NULL, NULL, VIEW_ECHO_CRLF,
	    JUDGETERM_EOL_CR, 0 },
	/* The other assertion policies, and the injected typing. */
	{ ROOM "rules = { assertion = \"inject\"; typing = \"20+-10\"; };\n",
	    1, 1, CONF_ASSERT_INJECT, 8, NULL, "20+-10", 0, JUDGETERM_EOL_CR,
	    0 },
	{ ROOM "rules = { assertion = \"hold\"; typing = \"0\"; };\n",
	    1, 1, CONF_ASSERT_HOLD, 8, NULL, "0", 0, JUDGETERM_EOL_CR, 0 },
};

/* Each good configuration gives its rule settings. */
static void
test_rules_good(void **state)
{
	const struct rules_case	*c;
	struct conf		*conf;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(rules_good) / sizeof(rules_good[0]); i++) {
		c = &rules_good[i];
		conf = fixture_conf_load("rules.conf", c->text);
		assert_int_equal(conf->convention, c->convention);
		assert_int_equal(conf->filter, c->filter);
		assert_int_equal(conf->assertion, c->assertion);
		assert_int_equal(conf->burst, c->burst);
		assert_string_equal(conf->typing, c->typing != NULL ?
		    c->typing : "150+-75");
		if (c->pattern == NULL)
			assert_null(conf->pattern);
		else
			assert_string_equal(conf->pattern, c->pattern);
		assert_int_equal(conf->stations[0].localecho, c->localecho);
		assert_int_equal(conf->entities[0].eol, c->eol);
		assert_int_equal(conf->entities[0].announce, c->announce);
		conf_free(conf);
	}
}

/*
 * The character set: the room's (utf-8 unless set) for every entity and
 * station without its own.
 */
static void
test_charset(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("rules.conf", ROOM);
	assert_int_equal(conf->charset, CAP_UTF8);
	assert_int_equal(conf->entities[0].charset, CAP_UTF8);
	assert_int_equal(conf->entities[1].charset, CAP_UTF8);
	assert_int_equal(conf->stations[0].charset, CAP_UTF8);
	assert_true(conf->utf8);
	conf_free(conf);
	conf = fixture_conf_load("rules.conf", ROOM
	    "charset = \"iso-8859-1\";\n");
	assert_int_equal(conf->charset, CAP_LATIN1);
	assert_int_equal(conf->entities[0].charset, CAP_LATIN1);
	assert_int_equal(conf->entities[1].charset, CAP_LATIN1);
	assert_int_equal(conf->stations[0].charset, CAP_LATIN1);
	assert_false(conf->utf8);
	conf_free(conf);
	conf = fixture_conf_load("rules.conf", PORTS STATIONS
	    ENTRY("charset = \"iso-8859-1\";"));
	assert_int_equal(conf->entities[0].charset, CAP_LATIN1);
	assert_int_equal(conf->stations[0].charset, CAP_UTF8);
	assert_false(conf->utf8);
	conf_free(conf);
	conf = fixture_conf_load("rules.conf", PORTS STATIONS
	    ENTRY("charset = \"utf-8\";") "charset = \"iso-8859-1\";\n");
	assert_int_equal(conf->charset, CAP_LATIN1);
	assert_int_equal(conf->entities[0].charset, CAP_UTF8);
	assert_true(conf->utf8);
	conf_free(conf);
	/* A station's terminals of their own charset. */
	conf = fixture_conf_load("rules.conf", PORTS
	    STATION_LOCALECHO("false; charset = \"iso-8859-1\"")
	    ENTRY(""));
	assert_int_equal(conf->stations[0].charset, CAP_LATIN1);
	assert_int_equal(conf->entities[0].charset, CAP_UTF8);
	conf_free(conf);
}

/* Bad rule settings, each with the one message it must get. */
static const struct CMUnitTest rules_errors[] = {
	/* The rules group. */
	FIXTURE_CONF_ERROR("rules not a group",
	    PORTS "rules = 5;\n",
	    "bad.conf:7: setting 'rules' must be a group { ... }"),
	FIXTURE_CONF_ERROR("unknown setting in rules",
	    PORTS "rules = {\n  bursts = 8;\n};\n",
	    "bad.conf:8: unknown setting 'bursts' in rules"),
	FIXTURE_CONF_ERROR("convention not a boolean",
	    PORTS "rules = { convention = 1; };\n",
	    "bad.conf:7: setting 'convention' in rules must be true or false"),
	FIXTURE_CONF_ERROR("filter neither on nor passthrough",
	    PORTS "rules = { filter = \"off\"; };\n",
	    "bad.conf:7: rules: filter 'off' is neither \"on\" nor "
	    "\"passthrough\""),
	FIXTURE_CONF_ERROR("filter not a string",
	    PORTS "rules = { filter = true; };\n",
	    "bad.conf:7: setting 'filter' in rules must be a string"),
	FIXTURE_CONF_ERROR("assertion not a policy",
	    PORTS "rules = { assertion = \"on\"; };\n",
	    "bad.conf:7: rules: assertion 'on' is not \"check\", \"inject\", "
	    "\"hold\" or \"off\""),
	FIXTURE_CONF_ERROR("typing not a model",
	    PORTS "rules = { typing = \"fast\"; };\n",
	    "bad.conf:7: rules: typing 'fast' is not a typing model (ms per "
	    "key, like 100 or 100+-50)"),
	FIXTURE_CONF_ERROR("typing past its range",
	    PORTS "rules = { typing = \"100+-20000\"; };\n",
	    "bad.conf:7: rules: typing '100+-20000': times are 0 to 10000 ms"),
	FIXTURE_CONF_ERROR("typing not a string",
	    PORTS "rules = { typing = 150; };\n",
	    "bad.conf:7: setting 'typing' in rules must be a string"),
	FIXTURE_CONF_ERROR("pattern without the name group",
	    PORTS "rules = { pattern = \"^I am [a-z]+\"; };\n",
	    "bad.conf:7: rules: assertion pattern: no group named \"name\" "
	    "(write (?<name>...) around the entity's name)"),
	FIXTURE_CONF_ERROR("burst below its range",
	    PORTS "rules = { burst = 1; };\n",
	    "bad.conf:7: rules: burst must be between 2 and 4096 characters"),
	FIXTURE_CONF_ERROR("burst above its range",
	    PORTS "rules = { burst = 4097; };\n",
	    "bad.conf:7: rules: burst must be between 2 and 4096 characters"),
	FIXTURE_CONF_ERROR("burst not an integer",
	    PORTS "rules = { burst = \"8\"; };\n",
	    "bad.conf:7: setting 'burst' in rules must be an integer"),
	/* A station's and an entity's own settings. */
	FIXTURE_CONF_ERROR("localecho not a boolean nor an echo",
	    PORTS STATION_LOCALECHO("\"yes\""),
	    "bad.conf:8: setting 'localecho' in station 'J1' must be true, "
	    "false, \"crlf\" or \"cr\""),
	FIXTURE_CONF_ERROR("localecho a number",
	    PORTS STATION_LOCALECHO("1"),
	    "bad.conf:8: setting 'localecho' in station 'J1' must be true, "
	    "false, \"crlf\" or \"cr\""),
	FIXTURE_CONF_ERROR("eol not a line end",
	    PORTS ENTRY("eol = \"crcr\";"),
	    "bad.conf:8: entity 'E1': eol 'crcr' is not \"cr\", \"lf\", "
	    "\"crlf\" or \"asis\""),
	FIXTURE_CONF_ERROR("eol not a string",
	    PORTS ENTRY("eol = 13;"),
	    "bad.conf:8: setting 'eol' in entity 'E1' must be a string"),
	FIXTURE_CONF_ERROR("announce not a boolean",
	    PORTS ENTRY("announce = 1;"),
	    "bad.conf:8: setting 'announce' in entity 'E1' must be true or "
	    "false"),
	/* The character set, the room's and an entity's. */
	FIXTURE_CONF_ERROR("room charset not one",
	    PORTS "charset = \"latin1\";\n",
	    "bad.conf:7: charset 'latin1' at top level is neither "
	    "\"iso-8859-1\" nor \"utf-8\""),
	FIXTURE_CONF_ERROR("entity charset not one",
	    PORTS ENTRY("charset = \"utf8\";"),
	    "bad.conf:8: charset 'utf8' in entity 'E1' is neither "
	    "\"iso-8859-1\" nor \"utf-8\""),
	FIXTURE_CONF_ERROR("entity charset not a string",
	    PORTS ENTRY("charset = 8;"),
	    "bad.conf:8: setting 'charset' in entity 'E1' must be a string"),
	FIXTURE_CONF_ERROR("pattern not UTF-8 for a utf-8 entity",
	    PORTS "rules = { pattern = \"(?<name>\\xff)\"; };\n"
	    ENTRY("charset = \"utf-8\";"),
	    "bad.conf:9: entity 'E1': assertion pattern (utf-8): UTF-8 error: "
	    "illegal byte (0xfe or 0xff) at offset 8"),
};

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_good),
		cmocka_unit_test(test_charset),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL) +
	    cmocka_run_group_tests(rules_errors, NULL, NULL));
}
