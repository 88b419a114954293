/*
 * Unit tests for the room configuration parser (conf/conf.c,
 * conf-room.c): good configurations must come out as the expected
 * structures; each kind of bad one in the ports, stations and entities
 * must be refused with exactly one message of the form "FILE:LINE: what
 * is wrong" (the table conf_errors, a cmocka test a row).  The schedule
 * and the rules settings have test_conf_schedule.c and test_conf_rules.c,
 * reading files and their includes test_conf_load.c.
 * Run from the repository root (the example files in contrib/examples
 * are loaded by relative path).
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
#include "fixture-conf.h"

#define NAME_RULE	"(1 to 32 characters of A-Z a-z 0-9 _ . -)"

/* Ports alone: every other setting takes its default. */
static void
test_minimal_config_gets_defaults(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("min.conf",
	    "ports = ( { name = \"p\"; address = \"/dev/ttyS0\"; } );\n");
	assert_string_equal(conf->file, "min.conf");
	assert_string_equal(conf->control, PROTOCOL_CONTROL_PATH);
	assert_string_equal(conf->state_dir, CONF_STATE_DIR);
	assert_string_equal(conf->capture_dir, CONF_STATE_DIR "/captures");
	assert_string_equal(conf->transcript_dir,
	    CONF_STATE_DIR "/transcripts");
	assert_int_equal(conf->queue_limit, PORT_QUEUE_LIMIT);
	assert_int_equal(conf->sync_sec, CONF_SYNC_SEC);
	assert_int_equal(conf->nports, 1);
	assert_int_equal(conf->nstations, 0);
	assert_int_equal(conf->nentities, 0);
	assert_int_equal(conf->nrounds, 0);
	assert_null(conf->rounds);
	assert_null(conf->preset);
	assert_int_equal(conf->duration, 0);
	assert_int_equal(conf->seed_set, 0);
	assert_int_equal(conf->ports[0].addr.kind, ADDR_DEVICE);
	assert_string_equal(conf->ports[0].addr.path, "/dev/ttyS0");
	conf_free(conf);
}

/* Every field of a full room comes out where it belongs. */
static void
test_full_config_parses_every_field(void **state)
{
	const struct conf_round	*r;
	struct conf		*conf;

	(void)state;
	conf = fixture_conf_load("full.conf",
	    "# full room\n"						/* 1 */
	    "control = \"/run/test/muxd.sock\";   // comment\n"	/* 2 */
	    "state = \"/srv/muxd\";\n"					/* 3 */
	    "captures = \"/srv/caps\";\n"				/* 4 */
	    "transcripts = \"/srv/trans\";\n"				/* 5 */
	    "queue_limit = 4096;\n"					/* 6 */
	    "ports = (\n"						/* 7 */
	    "  { name = \"j1-left\"; address = "
	    "\"/dev/muxd/j1-left,baud=19200\"; },\n"			/* 8 */
	    "  { name = \"j1-right\"; address = \"pty:/tmp/j1-right\"; },\n"
	    "  { name = \"j2-left\"; address = \"tcp:localhost:7000\"; },\n"
	    "  { name = \"j2-right\"; address = \"/dev/muxd/j2-right\"; },\n"
	    "  { name = \"e1\"; address = \"exec:/usr/local/bin/bot\"; },\n"
	    "  { name = \"c1\"; address = \"tcp-listen:7001\"; },\n"	/* 13 */
	    "  { name = \"c2\"; address = \"/dev/muxd/c2\"; },\n"	/* 14 */
	    "  { name = \"spare\"; address = \"/dev/muxd/spare\"; }\n"	/* 15 */
	    ");\n"							/* 16 */
	    "stations = (\n"						/* 17 */
	    "  { name = \"J1\"; judge = 7; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"				/* 18 */
	    "  { name = \"J2\"; judge = 3; left = \"j2-right\"; "
	    "right = \"j2-left\"; }\n"					/* 19 */
	    ");\n"							/* 20 */
	    "entities = (\n"						/* 21 */
	    "  { name = \"C1\"; kind = \"confederate\"; port = \"c1\"; "
	    "approved = \"John\"; },\n"					/* 22 */
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Mary\"; program = \"ALICE\"; "
	    "contestant = \"Richard Wallace\"; },\n"			/* 23 */
	    "  { name = \"C2\"; kind = \"confederate\"; port = \"c2\"; "
	    "approved = \"Ann Smith\"; contestant = \"Volunteer\"; }\n"	/* 24 */
	    ");\n"							/* 25 */
	    "schedule = {\n"						/* 26 */
	    "  rounds = (\n"						/* 27 */
	    "    { round = 2; pairs = ( (\"J2\", \"E1\", \"C2\") ); },\n"
	    "    { round = 5; pairs = ( [\"J1\", \"E1\", \"C1\"] ); }\n"
	    "  );\n"
	    "  duration = 1500;\n"
	    "  seed = 5000000000L;\n"
	    "};\n");

	assert_string_equal(conf->control, "/run/test/muxd.sock");
	assert_string_equal(conf->state_dir, "/srv/muxd");
	assert_string_equal(conf->capture_dir, "/srv/caps");
	assert_string_equal(conf->transcript_dir, "/srv/trans");
	assert_int_equal(conf->queue_limit, 4096);

	assert_int_equal(conf->nports, 8);
	assert_string_equal(conf->ports[0].name, "j1-left");
	assert_string_equal(conf->ports[0].address,
	    "/dev/muxd/j1-left,baud=19200");
	assert_int_equal(conf->ports[0].addr.kind, ADDR_DEVICE);
	assert_int_equal(conf->ports[0].addr.baud, 19200);
	assert_int_equal(conf->ports[0].line, 8);
	assert_int_equal(conf->ports[1].addr.kind, ADDR_PTY);
	assert_int_equal(conf->ports[2].addr.kind, ADDR_TCP);
	assert_int_equal(conf->ports[4].addr.kind, ADDR_EXEC);
	assert_string_equal(conf->ports[4].addr.path, "/usr/local/bin/bot");
	assert_int_equal(conf->ports[5].addr.kind, ADDR_TCP_LISTEN);
	assert_int_equal(conf->ports[7].line, 15);

	assert_int_equal(conf->nstations, 2);
	assert_string_equal(conf->stations[0].name, "J1");
	assert_int_equal(conf->stations[0].judge, 7);
	assert_int_equal(conf->stations[0].left, 0);
	assert_int_equal(conf->stations[0].right, 1);
	assert_int_equal(conf->stations[0].line, 18);
	assert_int_equal(conf->stations[1].judge, 3);
	assert_int_equal(conf->stations[1].left, 3);
	assert_int_equal(conf->stations[1].right, 2);

	assert_int_equal(conf->nentities, 3);
	assert_string_equal(conf->entities[0].name, "C1");
	assert_int_equal(conf->entities[0].kind, CONF_CONFEDERATE);
	assert_int_equal(conf->entities[0].port, 5);
	assert_string_equal(conf->entities[0].approved, "John");
	assert_string_equal(conf->entities[0].program, "C1");
	assert_string_equal(conf->entities[0].contestant, "");
	assert_int_equal(conf->entities[0].line, 22);
	assert_string_equal(conf->entities[1].name, "E1");
	assert_int_equal(conf->entities[1].kind, CONF_ENTRY);
	assert_int_equal(conf->entities[1].port, 4);
	assert_string_equal(conf->entities[1].approved, "Mary");
	assert_string_equal(conf->entities[1].program, "ALICE");
	assert_string_equal(conf->entities[1].contestant, "Richard Wallace");
	assert_string_equal(conf->entities[2].approved, "Ann Smith");
	assert_string_equal(conf->entities[2].program, "C2");
	assert_string_equal(conf->entities[2].contestant, "Volunteer");

	assert_null(conf->preset);
	assert_int_equal(conf->duration, 1500);
	assert_int_equal(conf->seed_set, 1);
	assert_true(conf->seed == 5000000000ULL);
	assert_int_equal(conf->nrounds, 2);
	assert_int_equal(conf->rounds[0].number, 2);
	assert_int_equal(conf->rounds[0].nparts, 1);
	assert_int_equal(conf->rounds[0].parts[0].station, 1);
	assert_int_equal(conf->rounds[0].parts[0].entry, 1);
	assert_int_equal(conf->rounds[0].parts[0].confederate, 2);
	assert_null(conf->rounds[0].excused);
	assert_int_equal(conf->rounds[1].number, 5);
	assert_int_equal(conf->rounds[1].parts[0].station, 0);
	assert_int_equal(conf->rounds[1].parts[0].entry, 1);
	assert_int_equal(conf->rounds[1].parts[0].confederate, 0);

	r = conf_round_find(conf, 5);
	assert_ptr_equal(r, &conf->rounds[1]);
	assert_ptr_equal(conf_round_find(conf, 2), &conf->rounds[0]);
	assert_null(conf_round_find(conf, 1));
	assert_null(conf_round_find(conf, 0));
	conf_free(conf);
}

/* Ports, stations and entities are found by name, or -1. */
static void
test_find_functions_return_index_or_minus_one(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("room.conf", ROOM);
	assert_int_equal(conf_port_find(conf, "j1-left"), 0);
	assert_int_equal(conf_port_find(conf, "c1"), 3);
	assert_int_equal(conf_port_find(conf, "J1"), -1);
	assert_int_equal(conf_port_find(conf, ""), -1);
	assert_int_equal(conf_station_find(conf, "J1"), 0);
	assert_int_equal(conf_station_find(conf, "E1"), -1);
	assert_int_equal(conf_station_find(conf, "j1"), -1);
	assert_int_equal(conf_entity_find(conf, "E1"), 0);
	assert_int_equal(conf_entity_find(conf, "C1"), 1);
	assert_int_equal(conf_entity_find(conf, "J1"), -1);
	conf_free(conf);
}

/* Relative paths are taken from the configuration's directory. */
static void
test_relative_paths_are_taken_from_the_config_dir(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("/etc/muxd/muxd.conf", PORTS
	    "state = \"state\";\n"
	    "transcripts = \"/pub/transcripts\";\n"
	    "control = \"run/muxd.sock\";\n");
	assert_string_equal(conf->state_dir, "/etc/muxd/state");
	assert_string_equal(conf->capture_dir, "/etc/muxd/state/captures");
	assert_string_equal(conf->transcript_dir, "/pub/transcripts");
	assert_string_equal(conf->control, "/etc/muxd/run/muxd.sock");
	conf_free(conf);

	/* A name without a directory leaves relative paths alone. */
	conf = fixture_conf_load("muxd.conf", PORTS "captures = \"caps\";\n");
	assert_string_equal(conf->capture_dir, "caps");
	assert_string_equal(conf->transcript_dir,
	    CONF_STATE_DIR "/transcripts");
	conf_free(conf);
}

/* The integer settings of the top level take the bounds of their range. */
static void
test_top_level_bounds_are_inclusive(void **state)
{
	static const struct {
		const char	*text;
		size_t		 queue_limit;
		int		 sync_sec;
	} cases[] = {
		{ PORTS "queue_limit = 256;\n", 256, CONF_SYNC_SEC },
		{ PORTS "queue_limit = 16777216;\n", 16777216, CONF_SYNC_SEC },
		{ PORTS "sync = 1;\n", PORT_QUEUE_LIMIT, 1 },
		{ PORTS "sync = 60;\n", PORT_QUEUE_LIMIT, 60 },
	};
	struct conf	*conf;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		conf = fixture_conf_load("b.conf", cases[i].text);
		assert_int_equal(conf->queue_limit, cases[i].queue_limit);
		assert_int_equal(conf->sync_sec, cases[i].sync_sec);
		conf_free(conf);
	}
}

/*
 * entry_user: unset by default (muxd picks its default), a user name
 * kept, root and what is no user name refused with file and line.
 */
static void
test_entry_user(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("e.conf", PORTS);
	assert_null(conf->entry_user);
	conf_free(conf);
	conf = fixture_conf_load("e.conf", PORTS "entry_user = \"bot-1\";\n");
	assert_string_equal(conf->entry_user, "bot-1");
	conf_free(conf);
	fixture_conf_error("entry_user = \"root\";\n" PORTS,
	    "bad.conf:1: entry_user 'root': entries never run as root");
	fixture_conf_error("entry_user = \"-x\";\n" PORTS,
	    "bad.conf:1: entry_user '-x' is not a user name");
	fixture_conf_error("entry_user = \"a b\";\n" PORTS,
	    "bad.conf:1: entry_user 'a b' is not a user name");
	fixture_conf_error("entry_user = \"\";\n" PORTS,
	    "bad.conf:1: entry_user '' is not a user name");
}

/*
 * A station that fails after claiming a port gives it back: the next
 * place that names the port is checked against the places kept (the
 * fuzzer found the freed name read there).
 */
static void
test_failed_station_gives_ports_back(void **state)
{
	(void)state;
	fixture_conf_error(PORTS
	    "stations = ( { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"zz\"; },\n"
	    "  { name = \"J2\"; judge = 2; left = \"j1-left\"; "
	    "right = \"j1-right\"; } );\n",
	    "bad.conf:7: station 'J1': unknown port 'zz'");
}

/* A name of 32 allowed characters is accepted. */
static void
test_names_of_32_allowed_characters_are_accepted(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("n.conf",
	    "ports = ( { name = \"Az09_.-xxxxxxxxxxxxxxxxxxxxxxxxx\"; "
	    "address = \"/dev/x\"; } );\n");
	assert_int_equal(strlen(conf->ports[0].name), 32);
	conf_free(conf);
}

/* Two ports may run the same command. */
static void
test_same_exec_command_twice_is_allowed(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("x.conf", "ports = (\n"
	    "  { name = \"a\"; address = \"exec:/usr/local/bin/bot\"; },\n"
	    "  { name = \"b\"; address = \"exec:/usr/local/bin/bot\"; }\n"
	    ");\n");
	assert_int_equal(conf->nports, 2);
	conf_free(conf);
}

/* The example of the 2004 room parses. */
static void
test_example_room2004_parses(void **state)
{
	struct conf	*conf;
	char		 err[LINE_ERRLEN];
	size_t		 i, ne = 0, nc = 0;

	(void)state;
	conf = conf_load("contrib/examples/room2004.conf", err, sizeof(err));
	if (conf == NULL)
		fail_msg("room2004.conf refused: %s", err);
	assert_int_equal(conf->nstations, 4);
	assert_int_equal(conf->nports, 16);
	for (i = 0; i < conf->nentities; i++) {
		if (conf->entities[i].kind == CONF_ENTRY)
			ne++;
		else
			nc++;
	}
	assert_int_equal(ne, 4);
	assert_int_equal(nc, 4);
	for (i = 0; i < conf->nstations; i++) {
		assert_int_equal(conf->ports[conf->stations[i].left].addr.kind,
		    ADDR_DEVICE);
		assert_int_equal(conf->ports[conf->stations[i].right].addr.kind,
		    ADDR_DEVICE);
	}
	assert_string_equal(conf->ports[conf->stations[0].left].addr.path,
	    "/dev/muxd/j1-left");
	assert_string_equal(conf->preset, "loebner2004");
	assert_int_equal(conf->duration, 1500);
	assert_int_equal(conf->nrounds, 7);
	assert_string_equal(conf->rounds[0].excused, "J4 C3");
	conf_free(conf);
}

/* The small example parses, its state directory made absolute. */
static void
test_example_small_parses(void **state)
{
	struct conf	*conf;
	const char	*slash;
	char		 err[LINE_ERRLEN];

	(void)state;
	conf = conf_load("contrib/examples/small.conf", err, sizeof(err));
	if (conf == NULL)
		fail_msg("small.conf refused: %s", err);
	assert_int_equal(conf->nstations, 1);
	assert_int_equal(conf->nentities, 2);
	assert_null(conf->preset);
	assert_true(conf->nrounds >= 1);
	assert_null(conf->rounds[0].excused);
	assert_int_equal(conf->ports[conf->entities[conf_entity_find(conf,
	    "E1")].port].addr.kind, ADDR_EXEC);
	assert_int_equal(conf->ports[conf->entities[conf_entity_find(conf,
	    "C1")].port].addr.kind, ADDR_TCP_LISTEN);
	/* Its relative state directory was made absolute. */
	assert_true(conf->state_dir[0] == '/');
	slash = strstr(conf->state_dir, "/contrib/examples/state");
	assert_non_null(slash);
	assert_string_equal(slash, "/contrib/examples/state");
	conf_free(conf);
}

/* A message is cut to the caller's buffer. */
static void
test_error_fits_a_small_buffer(void **state)
{
	char	err[16];

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_null(conf_load_string("bad.conf", "", err, sizeof(err)));
	assert_int_equal(strlen(err), sizeof(err) - 1);
	assert_memory_equal(err, "bad.conf:1: no p", sizeof(err) - 1);
}

/* A bad address gets addr.c's message, framed by the port. */
static void
test_error_unknown_address_scheme(void **state)
{
	struct addr	 a;
	char		 aerr[LINE_ERRLEN], want[LINE_ERRLEN + 64];

	(void)state;
	/* The address message itself is addr.c's; conf.c must frame it. */
	assert_int_equal(addr_parse("foo:bar", &a, aerr, sizeof(aerr)), -1);
	assert_non_null(strstr(aerr, "unknown address scheme"));
	snprintf(want, sizeof(want), "bad.conf:3: port 'j1-left': %s", aerr);
	fixture_conf_error("ports = (\n"
	    "  { name = \"j1-left\";\n"
	    "    address = \"foo:bar\"; }\n"
	    ");\n", want);
}

/* A bad line setting likewise. */
static void
test_error_bad_serial_option(void **state)
{
	struct addr	 a;
	char		 aerr[LINE_ERRLEN], want[LINE_ERRLEN + 64];

	(void)state;
	assert_int_equal(addr_parse("/dev/a,baud=12345", &a, aerr,
	    sizeof(aerr)), -1);
	snprintf(want, sizeof(want), "bad.conf:2: port 'p': %s", aerr);
	fixture_conf_error("ports = (\n"
	    "  { name = \"p\"; address = \"/dev/a,baud=12345\"; }\n"
	    ");\n", want);
}

/* Other interfaces, adapters or USB ids of FTDI adapters are other lines. */
static void
test_ftdi_ports_on_other_lines(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("ftdi.conf", "ports = (\n"
	    "  { name = \"a\"; address = \"ftdi:FT4X,usb=0403:6011\"; },\n"
	    "  { name = \"b\"; address = \"ftdi:FT4X,usb=0403:6011,"
	    "interface=B\"; },\n"
	    "  { name = \"c\"; address = \"ftdi:FT4X\"; },\n"
	    "  { name = \"d\"; address = \"ftdi:A1B2C3\"; },\n"
	    "  { name = \"e\"; address = \"/dev/ttyUSB0,serial=A1B2C3\"; }\n"
	    ");\n");
	assert_int_equal(conf->nports, 5);
	assert_int_equal(conf->ports[1].addr.interface, 2);
	assert_string_equal(conf->ports[3].addr.serial, "A1B2C3");
	conf_free(conf);
}

/* Bad configurations, each with the one message it must get. */
static const struct CMUnitTest conf_errors[] = {
	/* Syntax. */
	/* Some syntax errors make libconfig 1.5 leak; this one does not. */
	FIXTURE_CONF_ERROR("syntax error in a port",
	    "ports = (\n"
	    "  { name = \"a\"; address = ; }\n"
	    ");\n",
	    "bad.conf:2: syntax error at \"{ name = \"a\"; address = ; }\""),
	FIXTURE_CONF_ERROR("syntax error after a blank line",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"/dev/a\"; }\n"
	    "\n"
	    "stations = ();\n",
	    "bad.conf:4: syntax error at \"stations = ();\""),
	FIXTURE_CONF_ERROR("duplicate setting in group",
	    "ports = (\n"
	    "  { name = \"a\";\n"
	    "    name = \"b\"; address = \"/dev/a\"; }\n"
	    ");\n",
	    "bad.conf:3: duplicate setting name at \"name = \"b\"; address = "
	    "\"/dev/a\"; }\""),
	/* The top level. */
	FIXTURE_CONF_ERROR("unknown top level setting",
	    PORTS "stattions = ();\n",
	    "bad.conf:7: unknown setting 'stattions' at top level"),
	FIXTURE_CONF_ERROR("no ports in empty config",
	    "# nothing\n",
	    "bad.conf:1: no ports defined (at least one is required)"),
	FIXTURE_CONF_ERROR("empty ports list",
	    "state = \"/x\";\nports = ();\n",
	    "bad.conf:2: no ports defined (at least one is required)"),
	FIXTURE_CONF_ERROR("ports not a list",
	    "ports = { name = \"a\"; };\n",
	    "bad.conf:1: setting 'ports' must be a list: "
	    "ports = ( { ... }, ... );"),
	FIXTURE_CONF_ERROR("port element not a group",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"/dev/a\"; },\n"
	    "  \"b\" );\n",
	    "bad.conf:3: element 2 of 'ports' must be a group { ... }"),
	FIXTURE_CONF_ERROR("queue limit below its range",
	    PORTS "queue_limit = 255;\n",
	    "bad.conf:7: setting 'queue_limit' must be between 256 and "
	    "16777216 bytes"),
	FIXTURE_CONF_ERROR("queue limit above its range",
	    PORTS "queue_limit = 16777217;\n",
	    "bad.conf:7: setting 'queue_limit' must be between 256 and "
	    "16777216 bytes"),
	FIXTURE_CONF_ERROR("queue limit wrong type",
	    PORTS "queue_limit = \"64k\";\n",
	    "bad.conf:7: setting 'queue_limit' at top level must be an "
	    "integer"),
	FIXTURE_CONF_ERROR("sync interval below its range",
	    PORTS "sync = 0;\n",
	    "bad.conf:7: setting 'sync' must be between 1 and 60 seconds"),
	FIXTURE_CONF_ERROR("sync interval above its range",
	    PORTS "sync = 61;\n",
	    "bad.conf:7: setting 'sync' must be between 1 and 60 seconds"),
	FIXTURE_CONF_ERROR("sync interval wrong type",
	    PORTS "sync = 1.5;\n",
	    "bad.conf:7: setting 'sync' at top level must be an integer"),
	FIXTURE_CONF_ERROR("empty directory",
	    PORTS "state = \"\";\n",
	    "bad.conf:7: setting 'state' is empty"),
	/* Ports. */
	FIXTURE_CONF_ERROR("unknown setting in port",
	    "# room\n"
	    "control = \"/tmp/x.sock\";\n"
	    "ports = (\n"
	    "  {\n"
	    "    name = \"j1-left\";\n"
	    "    # typo below\n"
	    "    adress = \"/dev/muxd/j1-left\";\n"
	    "  }\n"
	    ");\n",
	    "bad.conf:7: unknown setting 'adress' in port"),
	FIXTURE_CONF_ERROR("port without address",
	    "ports = (\n"
	    "  { name = \"j1-left\"; }\n"
	    ");\n",
	    "bad.conf:2: missing setting 'address' in port 'j1-left'"),
	FIXTURE_CONF_ERROR("port without name",
	    "ports = (\n"
	    "  { address = \"/dev/a\"; }\n"
	    ");\n",
	    "bad.conf:2: missing setting 'name' in port"),
	FIXTURE_CONF_ERROR("port name wrong type",
	    "ports = (\n"
	    "  { name = 5; address = \"/dev/a\"; }\n"
	    ");\n",
	    "bad.conf:2: setting 'name' in port must be a string"),
	FIXTURE_CONF_ERROR("port name with a space",
	    "ports = (\n"
	    "  { name = \"j1 left\"; address = \"/dev/a\"; }\n"
	    ");\n",
	    "bad.conf:2: invalid port name 'j1 left' " NAME_RULE),
	FIXTURE_CONF_ERROR("empty port name",
	    "ports = (\n"
	    "  { name = \"\"; address = \"/dev/a\"; }\n"
	    ");\n",
	    "bad.conf:2: invalid port name '' " NAME_RULE),
	FIXTURE_CONF_ERROR("port name too long",
	    "ports = (\n"
	    "  { name = \"abcdefghijklmnopqrstuvwxyz0123456\"; "
	    "address = \"/dev/a\"; }\n"
	    ");\n",
	    "bad.conf:2: invalid port name "
	    "'abcdefghijklmnopqrstuvwxyz0123456' " NAME_RULE),
	FIXTURE_CONF_ERROR("duplicate port name",
	    "ports = (\n"
	    "  { name = \"j1-left\"; address = \"/dev/a\"; },\n"
	    "  { name = \"j1-left\"; address = \"/dev/b\"; }\n"
	    ");\n",
	    "bad.conf:3: duplicate port name 'j1-left' (first at line 2)"),
	FIXTURE_CONF_ERROR("two ports on one device",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"/dev/ttyUSB0\"; },\n"
	    "  { name = \"b\"; address = \"/dev/ttyUSB0,baud=19200\"; }\n"
	    ");\n",
	    "bad.conf:3: port 'b': same line as port 'a' at line 2"),
	FIXTURE_CONF_ERROR("two ports on one TCP listener",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"tcp-listen:7001\"; },\n"
	    "  { name = \"b\"; address = \"tcp-listen:7001\"; }\n"
	    ");\n",
	    "bad.conf:3: port 'b': same line as port 'a' at line 2"),
	FIXTURE_CONF_ERROR("two ports on one FTDI adapter",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"ftdi:A1B2C3\"; },\n"
	    "  { name = \"spare\"; address = \"/dev/ttyS0\"; },\n"
	    "  { name = \"b\"; address = \"ftdi:A1B2C3,19200,latency=16\"; }\n"
	    ");\n",
	    "bad.conf:4: port 'b': same line as port 'a' at line 2 "
	    "(FTDI adapter A1B2C3, interface A)"),
	FIXTURE_CONF_ERROR("two ports on interface A of an FTDI adapter",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"ftdi:A1B2C3\"; },\n"
	    "  { name = \"b\"; address = \"ftdi:A1B2C3,interface=A\"; }\n"
	    ");\n",
	    "bad.conf:3: port 'b': same line as port 'a' at line 2 "
	    "(FTDI adapter A1B2C3, interface A)"),
	FIXTURE_CONF_ERROR("two ports on interface C of an FTDI adapter",
	    "ports = (\n"
	    "  { name = \"a\"; address = \"ftdi:FT4X,usb=0403:6011,"
	    "interface=C\"; },\n"
	    "  { name = \"b\"; address = \"ftdi:FT4X,interface=c,"
	    "usb=0403:6011\"; }\n"
	    ");\n",
	    "bad.conf:3: port 'b': same line as port 'a' at line 2 "
	    "(FTDI adapter FT4X, interface C)"),
	/* Stations. */
	FIXTURE_CONF_ERROR("station without judge",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; left = \"j1-left\"; right = \"j1-right\"; }\n"
	    ");\n",
	    "bad.conf:8: missing setting 'judge' in station 'J1'"),
	FIXTURE_CONF_ERROR("judge 100 out of range",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 100; left = \"j1-left\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n",
	    "bad.conf:8: station 'J1': judge 100 out of range 1 to 99"),
	FIXTURE_CONF_ERROR("judge 0 out of range",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 0; left = \"j1-left\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n",
	    "bad.conf:8: station 'J1': judge 0 out of range 1 to 99"),
	FIXTURE_CONF_ERROR("judge wrong type",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = \"1\"; left = \"j1-left\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n",
	    "bad.conf:8: setting 'judge' in station 'J1' must be an "
	    "integer"),
	FIXTURE_CONF_ERROR("judge number used twice",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"
	    "  { name = \"J2\"; judge = 1; left = \"e1\"; right = \"c1\"; }\n"
	    ");\n",
	    "bad.conf:9: station 'J2': judge 1 already sits at "
	    "station 'J1' (line 8)"),
	FIXTURE_CONF_ERROR("station unknown port",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-lft\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n",
	    "bad.conf:8: station 'J1': unknown port 'j1-lft'"),
	FIXTURE_CONF_ERROR("port used by two stations",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"
	    "  { name = \"J2\"; judge = 2; left = \"e1\";\n"
	    "    right = \"j1-left\"; }\n"
	    ");\n",
	    "bad.conf:10: station 'J2': port 'j1-left' already "
	    "belongs to station 'J1' at line 8"),
	FIXTURE_CONF_ERROR("port used twice by one station",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-left\"; }\n"
	    ");\n",
	    "bad.conf:8: station 'J1': port 'j1-left' used twice"),
	FIXTURE_CONF_ERROR("duplicate station name",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"
	    "  { name = \"J1\"; judge = 2; left = \"e1\"; right = \"c1\"; }\n"
	    ");\n",
	    "bad.conf:9: duplicate name 'J1' (station at line 8)"),
	FIXTURE_CONF_ERROR("unknown setting in station",
	    PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\";\n"
	    "    centre = \"e1\"; }\n"
	    ");\n",
	    "bad.conf:9: unknown setting 'centre' in station"),
	/* Entities. */
	FIXTURE_CONF_ERROR("port used by station and entity",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"j1-right\"; "
	    "approved = \"Eliza\"; }\n"
	    ");\n",
	    "bad.conf:11: entity 'E1': port 'j1-right' already "
	    "belongs to station 'J1' at line 8"),
	FIXTURE_CONF_ERROR("port used by two entities",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; },\n"
	    "  { name = \"C1\"; kind = \"confederate\"; port = \"e1\"; "
	    "approved = \"John\"; }\n"
	    ");\n",
	    "bad.conf:12: entity 'C1': port 'e1' already belongs to "
	    "entity 'E1' at line 11"),
	FIXTURE_CONF_ERROR("entity bad kind",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"bot\"; port = \"e1\"; "
	    "approved = \"Eliza\"; }\n"
	    ");\n",
	    "bad.conf:11: entity 'E1': kind 'bot' is neither "
	    "\"entry\" nor \"confederate\""),
	FIXTURE_CONF_ERROR("entity empty approved name",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\";\n"
	    "    approved = \"\"; }\n"
	    ");\n",
	    "bad.conf:12: entity 'E1': approved name is empty"),
	FIXTURE_CONF_ERROR("entity without approved name",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; }\n"
	    ");\n",
	    "bad.conf:11: missing setting 'approved' in entity 'E1'"),
	FIXTURE_CONF_ERROR("entity without port",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; approved = \"Eliza\"; }\n"
	    ");\n",
	    "bad.conf:11: missing setting 'port' in entity 'E1'"),
	FIXTURE_CONF_ERROR("entity named like station",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"J1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; }\n"
	    ");\n",
	    "bad.conf:11: duplicate name 'J1' (station at line 8)"),
	FIXTURE_CONF_ERROR("duplicate entity name",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; },\n"
	    "  { name = \"E1\"; kind = \"confederate\"; port = \"c1\"; "
	    "approved = \"John\"; }\n"
	    ");\n",
	    "bad.conf:12: duplicate name 'E1' (entity at line 11)"),
	FIXTURE_CONF_ERROR("unknown setting in entity",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\";\n"
	    "    aproved = \"Eliza\"; }\n"
	    ");\n",
	    "bad.conf:12: unknown setting 'aproved' in entity"),
	FIXTURE_CONF_ERROR("entity approved name control characters",
	    PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eli\\nza\"; }\n"
	    ");\n",
	    "bad.conf:11: entity 'E1': approved name has control "
	    "characters"),
	/* Whatever follows the first error is not looked at. */
	FIXTURE_CONF_ERROR("only the first error: a top-level setting",
	    "ports = (\n"
	    "  { name = \"a b\"; adress = \"x\"; },\n"
	    "  { name = \"c d\"; address = \"y\"; }\n"
	    ");\nfoo = 1;\n",
	    "bad.conf:5: unknown setting 'foo' at top level"),
	FIXTURE_CONF_ERROR("only the first error: a port name",
	    "ports = (\n"
	    "  { name = \"a b\"; address = \"x\"; },\n"
	    "  { name = \"c d\"; address = \"y\"; }\n"
	    ");\n",
	    "bad.conf:2: invalid port name 'a b' " NAME_RULE),
};

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal_config_gets_defaults),
		cmocka_unit_test(test_full_config_parses_every_field),
		cmocka_unit_test(test_find_functions_return_index_or_minus_one),
		cmocka_unit_test(
		    test_relative_paths_are_taken_from_the_config_dir),
		cmocka_unit_test(test_top_level_bounds_are_inclusive),
		cmocka_unit_test(
		    test_names_of_32_allowed_characters_are_accepted),
		cmocka_unit_test(test_same_exec_command_twice_is_allowed),
		cmocka_unit_test(test_example_room2004_parses),
		cmocka_unit_test(test_example_small_parses),
		cmocka_unit_test(test_error_fits_a_small_buffer),
		cmocka_unit_test(test_error_unknown_address_scheme),
		cmocka_unit_test(test_error_bad_serial_option),
		cmocka_unit_test(test_ftdi_ports_on_other_lines),
		cmocka_unit_test(test_entry_user),
		cmocka_unit_test(test_failed_station_gives_ports_back),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL) +
	    cmocka_run_group_tests(conf_errors, NULL, NULL));
}
