/*
 * Unit tests for the entries' uids (conf/uids.c) and their settings
 * (conf/conf-sandbox.c): the range "LO-HI" read or refused with where it
 * is wrong; each name bound to a uid of its own, the same one when asked
 * again, whatever the order of the names; and the refusals the spawner
 * makes with the same table, whatever muxd asks: a uid outside the range,
 * a uid that is another entry's.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conf.h"
#include "fixture-conf.h"

/* A range is LO-HI or one uid, above the system's, LO not above HI. */
static void
test_uids_parse(void **state)
{
	struct uids_range	 r;
	char			 err[256];
	size_t			 off;

	(void)state;
	assert_int_equal(uids_parse("61000-61099", &r, err, sizeof(err),
	    &off), 0);
	assert_int_equal(r.lo, 61000);
	assert_int_equal(r.hi, 61099);
	assert_int_equal(uids_parse("70000", &r, err, sizeof(err), &off), 0);
	assert_int_equal(r.lo, 70000);
	assert_int_equal(r.hi, 70000);
	assert_int_equal(uids_parse("0-100", &r, err, sizeof(err), &off), -1);
	assert_string_equal(err, "'0-100': uids below 1000 are the system's "
	    "(and 0 is root)");
	assert_int_equal(uids_parse("62000-61000", &r, err, sizeof(err),
	    &off), -1);
	assert_string_equal(err, "'62000-61000': 62000 is above 61000");
	assert_int_equal(uids_parse("61000-x", &r, err, sizeof(err), &off),
	    -1);
	assert_int_equal(off, 6);
	assert_int_equal(uids_parse("61000-61099 ", &r, err, sizeof(err),
	    &off), -1);
	assert_int_equal(off, 11);
	assert_string_equal(err, "'61000-61099 ': ' ' after the range");
	assert_int_equal(uids_parse("", &r, err, sizeof(err), &off), -1);
	assert_int_equal(uids_parse("-5", &r, err, sizeof(err), &off), -1);
	assert_int_equal(uids_parse("1000-4294967295", &r, err, sizeof(err),
	    &off), -1);
	assert_int_equal(uids_parse("99999999999999999999", &r, err,
	    sizeof(err), &off), -1);
}

/*
 * Picked uids: distinct, in the range, the same when asked again, and
 * the same whatever order the names come in.
 */
static void
test_uids_assign_stable(void **state)
{
	static const char	*names[] = { "e1", "e2", "e3", "e4", "e5" };
	struct uids_range	 r = { 61000, 61004 };
	struct uids		 a, b;
	uid_t			 ua[5], ub[5], u;
	char			 err[256];
	size_t			 i, j;

	(void)state;
	uids_init(&a, &r);
	uids_init(&b, &r);
	for (i = 0; i < 5; i++)
		assert_int_equal(uids_assign(&a, names[i], -1, &ua[i], err,
		    sizeof(err)), 0);
	for (i = 5; i-- > 0;)
		assert_int_equal(uids_assign(&b, names[i], -1, &ub[i], err,
		    sizeof(err)), 0);
	for (i = 0; i < 5; i++) {
		assert_true(ua[i] >= 61000 && ua[i] <= 61004);
		for (j = 0; j < i; j++)
			assert_int_not_equal(ua[i], ua[j]);
		assert_int_equal(uids_assign(&a, names[i], -1, &u, err,
		    sizeof(err)), 0);
		assert_int_equal(u, ua[i]);
	}
	/* Without collisions the start alone decides: either order. */
	assert_int_equal(uids_start(&r, "e1"), uids_start(&r, "e1"));
	/* The range is full. */
	assert_int_equal(uids_assign(&a, "e6", -1, &u, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "all 5 uids of 61000-61004 are taken");
	assert_int_equal(uids_of(&a, "e6"), -1);
	uids_clear(&a);
	uids_clear(&b);
}

/*
 * The spawner's refusals: a uid outside the range, or another entry's,
 * whatever muxd asks; a name may be given its own uid again.
 */
static void
test_uids_refusals(void **state)
{
	struct uids_range	 r = { 61000, 61099 };
	struct uids		 u;
	uid_t			 got;
	char			 err[256];

	(void)state;
	uids_init(&u, &r);
	assert_int_equal(uids_assign(&u, "e1", 61010, &got, err,
	    sizeof(err)), 0);
	assert_int_equal(got, 61010);
	assert_int_equal(uids_assign(&u, "e1", 61010, &got, err,
	    sizeof(err)), 0);
	assert_int_equal(uids_assign(&u, "e2", 61010, &got, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "uid 61010 is e1's: an entry's uid is never "
	    "shared");
	assert_int_equal(uids_assign(&u, "e2", 0, &got, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "uid 0 is not in the entries' range "
	    "61000-61099");
	assert_int_equal(uids_assign(&u, "e2", 1000, &got, err,
	    sizeof(err)), -1);
	assert_int_equal(uids_assign(&u, "e2", 61100, &got, err,
	    sizeof(err)), -1);
	assert_int_equal(uids_of(&u, "e2"), -1);
	/* A name moved to another uid frees its old one. */
	assert_int_equal(uids_assign(&u, "e1", 61011, &got, err,
	    sizeof(err)), 0);
	assert_int_equal(uids_assign(&u, "e2", 61010, &got, err,
	    sizeof(err)), 0);
	uids_clear(&u);
}

/* Held by another room: the uids a test says are busy. */
static uid_t	test_uids_held[2];

/* Whether uid is one of test_uids_held. */
static int
test_uids_busy(uid_t uid)
{
	return (uid == test_uids_held[0] || uid == test_uids_held[1]);
}

/*
 * A uid a process of another room holds is passed over when one is
 * picked, not when the room names it.
 */
static void
test_uids_busy_skipped(void **state)
{
	struct uids_range	 r = { 61000, 61099 };
	struct uids		 u;
	uid_t			 got, first;
	char			 err[256];

	(void)state;
	first = uids_start(&r, "e1");
	test_uids_held[0] = first;
	test_uids_held[1] = first == r.hi ? r.lo : first + 1;
	uids_init(&u, &r);
	u.busy = test_uids_busy;
	assert_int_equal(uids_assign(&u, "e1", -1, &got, err, sizeof(err)),
	    0);
	assert_true(got != test_uids_held[0] && got != test_uids_held[1]);
	assert_true(got >= r.lo && got <= r.hi);
	/* Named by the room, it is taken as it is. */
	assert_int_equal(uids_assign(&u, "e2", first, &got, err,
	    sizeof(err)), 0);
	assert_int_equal(got, first);
	uids_clear(&u);
}

/*
 * The room's settings: defaults, each read, and each wrong one refused
 * with its file and line.
 */
static void
test_uids_settings(void **state)
{
	struct conf		*conf;
	struct conf_rlimits	 l;
	int			 network;

	(void)state;
	conf = fixture_conf_load("s.conf", ROOM);
	assert_int_equal(conf->sandbox, 1);
	assert_int_equal(conf->entry_uids.lo, 61000);
	assert_int_equal(conf->entry_uids.hi, 61099);
	assert_int_equal(conf->entry_limits.processes, 64);
	assert_int_equal(conf->entry_log_limit, CONF_ENTRY_LOG_LIMIT);
	assert_int_equal(conf->entities[0].uid, -1);
	assert_int_equal(conf->entities[0].network, 0);
	assert_int_equal(conf->entities[0].limits.cpu, -1);
	assert_int_equal(conf->entry_cgroups, -1);
	assert_int_equal(conf->entry_limits.cpu_percent, 100);
	conf_free(conf);
	conf = fixture_conf_load("s.conf", PORTS STATIONS
	    "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; user = 62005; network = true; "
	    "limits = { processes = 10; cpu = 0; cpu_percent = 250; }; }\n"
	    ");\n"
	    "sandbox = false;\n"
	    "entry_cgroups = false;\n"
	    "entry_uids = \"62000-62009\";\n"
	    "entry_limits = { files = 99; };\n"
	    "entry_log_limit = 8192;\n");
	assert_int_equal(conf->sandbox, 0);
	assert_int_equal(conf->entry_uids.lo, 62000);
	assert_int_equal(conf->entry_uids.hi, 62009);
	assert_int_equal(conf->entry_limits.files, 99);
	assert_int_equal(conf->entry_limits.processes, 64);
	assert_int_equal(conf->entry_log_limit, 8192);
	assert_int_equal(conf->entities[0].uid, 62005);
	assert_int_equal(conf->entities[0].network, 1);
	assert_int_equal(conf->entities[0].limits.processes, 10);
	assert_int_equal(conf->entities[0].limits.cpu, 0);
	assert_int_equal(conf->entities[0].limits.files, -1);
	assert_int_equal(conf->entry_cgroups, 0);
	assert_int_equal(conf->entities[0].limits.cpu_percent, 250);
	conf_sandbox_entry(conf, conf->entities[0].port, &l, &network);
	assert_int_equal(l.processes, 10);
	assert_int_equal(l.files, 99);
	assert_int_equal(l.cpu, 0);
	assert_int_equal(l.cpu_percent, 250);
	assert_int_equal(l.memory, 2048LL * 1024 * 1024);
	assert_int_equal(network, 1);
	conf_sandbox_entry(NULL, -1, &l, &network);
	assert_int_equal(l.processes, 64);
	assert_int_equal(l.cpu_percent, 100);
	assert_int_equal(network, 0);
	conf_free(conf);
	fixture_conf_error(ROOM "entry_cgroups = \"auto\";\n",
	    "bad.conf:14: setting 'entry_cgroups' at top level must be true "
	    "or false (absent: where the host allows)");
	fixture_conf_error(ROOM "entry_limits = { cpu_percent = 100001; };\n",
	    "bad.conf:14: cpu_percent in entry_limits at top level: 100001 is "
	    "more than a thousand CPUs");
	fixture_conf_error(ROOM "entry_uids = \"10-20\";\n",
	    "bad.conf:14: entry_uids '10-20': uids below 1000 are the "
	    "system's (and 0 is root)");
	fixture_conf_error(ROOM "sandbox = 1;\n",
	    "bad.conf:14: setting 'sandbox' at top level must be true or "
	    "false");
	fixture_conf_error(ROOM "entry_limits = { threads = 3; };\n",
	    "bad.conf:14: unknown setting 'threads' in entry_limits at top "
	    "level");
	fixture_conf_error(ROOM "entry_limits = { processes = 1; };\n",
	    "bad.conf:14: processes in entry_limits at top level: 1 is not a "
	    "limit (0: none; a program needs 2 processes or more)");
	fixture_conf_error(PORTS STATIONS
	    "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; user = 5; }\n"
	    ");\n",
	    "bad.conf:11: entity 'E1': user 5 is not in entry_uids "
	    "61000-61099");
	fixture_conf_error(PORTS STATIONS
	    "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; user = 61001; },\n"
	    "  { name = \"E2\"; kind = \"entry\"; port = \"c1\"; "
	    "approved = \"Eve\"; user = 61001; }\n"
	    ");\n",
	    "bad.conf:12: entity 'E2': user needs an exec: port; 'c1' "
	    "is tcp-listen:7001");
	fixture_conf_error(
	    "ports = (\n"
	    "  { name = \"e1\"; address = \"exec:/bin/cat\"; },\n"
	    "  { name = \"e2\"; address = \"exec:/bin/cat\"; }\n"
	    ");\n"
	    "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; user = 61001; },\n"
	    "  { name = \"E2\"; kind = \"entry\"; port = \"e2\"; "
	    "approved = \"Eve\"; user = 61001; }\n"
	    ");\n",
	    "bad.conf:7: entity 'E2': user 61001 is entity 'E1''s: an "
	    "entry's uid is never shared");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uids_parse),
		cmocka_unit_test(test_uids_assign_stable),
		cmocka_unit_test(test_uids_refusals),
		cmocka_unit_test(test_uids_busy_skipped),
		cmocka_unit_test(test_uids_settings),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
