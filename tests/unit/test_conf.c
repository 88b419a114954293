/*
 * Unit tests for the room configuration parser (muxd/conf.c).
 *
 * Good configurations must come out as the expected structures; each kind
 * of bad configuration must be refused with exactly one message of the
 * form "FILE:LINE: what is wrong".  Configurations are written one source
 * line per string literal so that the expected line numbers can be read
 * off the test.  Run from the repository root (the example files in
 * contrib/examples are loaded by relative path).
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

#include "muxd.h"

/* Lines 1-6: four ports. */
#define PORTS								\
	"ports = (\n"							\
	"  { name = \"j1-left\"; address = \"/dev/muxd/j1-left\"; },\n"	\
	"  { name = \"j1-right\"; address = \"/dev/muxd/j1-right\"; },\n" \
	"  { name = \"e1\"; address = \"exec:/bin/cat\"; },\n"		\
	"  { name = \"c1\"; address = \"tcp-listen:7001\"; }\n"		\
	");\n"
/* Lines 7-9: one station. */
#define STATIONS							\
	"stations = (\n"						\
	"  { name = \"J1\"; judge = 1; left = \"j1-left\"; "		\
	"right = \"j1-right\"; }\n"					\
	");\n"
/* Lines 10-13: one entry, one confederate. */
#define ENTITIES							\
	"entities = (\n"						\
	"  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "		\
	"approved = \"Eliza\"; },\n"					\
	"  { name = \"C1\"; kind = \"confederate\"; port = \"c1\"; "	\
	"approved = \"John\"; }\n"					\
	");\n"
/* Lines 1-13; a schedule added after it starts on line 14. */
#define ROOM	PORTS STATIONS ENTITIES

#define PAIR_FORM \
	"a pair must be (\"STATION\", \"ENTRY\", \"CONFEDERATE\")"
#define NAME_RULE	"(1 to 32 characters of A-Z a-z 0-9 _ . -)"

/* A room written by room_build(), with the number of its next line. */
struct room {
	char	text[16384];
	size_t	len;
	int	line;
};

static void	 room_add(struct room *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	 room_build(struct room *, int, int, int);
static void	 expect_error(const char *, const char *);
static struct conf *load_ok(const char *, const char *);

/* Append text to a room, counting its lines. */
static void
room_add(struct room *r, const char *fmt, ...)
{
	va_list	ap;
	size_t	i;
	int	n;

	if (r->line == 0)
		r->line = 1;
	va_start(ap, fmt);
	n = vsnprintf(r->text + r->len, sizeof(r->text) - r->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(r->text) - r->len);
	for (i = r->len; i < r->len + (size_t)n; i++)
		if (r->text[i] == '\n')
			r->line++;
	r->len += n;
}

/*
 * Write a room of nst stations (Jn, ports jn-left and jn-right), nen
 * entries (En on en) and ncn confederates (Cn on cn), one item a line.
 */
static void
room_build(struct room *r, int nst, int nen, int ncn)
{
	int	i;

	memset(r, 0, sizeof(*r));
	room_add(r, "ports = (\n");
	for (i = 1; i <= nst; i++)
		room_add(r, "  { name = \"j%d-left\"; address = "
		    "\"/dev/muxd/j%d-left\"; },\n  { name = \"j%d-right\"; "
		    "address = \"/dev/muxd/j%d-right\"; },\n", i, i, i, i);
	for (i = 1; i <= nen; i++)
		room_add(r, "  { name = \"e%d\"; address = "
		    "\"/dev/muxd/e%d\"; },\n", i, i);
	for (i = 1; i <= ncn; i++)
		room_add(r, "  { name = \"c%d\"; address = "
		    "\"/dev/muxd/c%d\"; },\n", i, i);
	room_add(r, "  { name = \"spare\"; address = \"/dev/muxd/spare\"; }\n"
	    ");\n");
	if (nst > 0) {
		room_add(r, "stations = (\n");
		for (i = 1; i <= nst; i++)
			room_add(r, "  { name = \"J%d\"; judge = %d; left = "
			    "\"j%d-left\"; right = \"j%d-right\"; }%s\n", i, i,
			    i, i, i < nst ? "," : "");
		room_add(r, ");\n");
	}
	if (nen + ncn > 0) {
		room_add(r, "entities = (\n");
		for (i = 1; i <= nen; i++)
			room_add(r, "  { name = \"E%d\"; kind = \"entry\"; "
			    "port = \"e%d\"; approved = \"Entry%d\"; }%s\n",
			    i, i, i, i < nen || ncn > 0 ? "," : "");
		for (i = 1; i <= ncn; i++)
			room_add(r, "  { name = \"C%d\"; kind = "
			    "\"confederate\"; port = \"c%d\"; approved = "
			    "\"Human%d\"; }%s\n", i, i, i, i < ncn ? "," : "");
		room_add(r, ");\n");
	}
}

/* Check that a configuration is refused with exactly this message. */
static void
expect_error(const char *text, const char *want)
{
	struct conf	*conf;
	char		 err[MUXD_ERRLEN];

	memset(err, 0, sizeof(err));
	conf = conf_load_string("bad.conf", text, err, sizeof(err));
	if (conf != NULL) {
		conf_free(conf);
		fail_msg("configuration accepted; expected \"%s\"", want);
	}
	if (strcmp(err, want) != 0)
		fail_msg("wrong error\n  expected: %s\n       got: %s", want,
		    err);
}

/* Load a configuration that must be accepted. */
static struct conf *
load_ok(const char *name, const char *text)
{
	struct conf	*conf;
	char		 err[MUXD_ERRLEN];

	memset(err, 0, sizeof(err));
	if ((conf = conf_load_string(name, text, err, sizeof(err))) == NULL)
		fail_msg("configuration refused: %s", err);
	return (conf);
}

/*
 * Good configurations.
 */

static void
test_minimal_config_gets_defaults(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("min.conf",
	    "ports = ( { name = \"p\"; address = \"/dev/ttyS0\"; } );\n");
	assert_string_equal(conf->file, "min.conf");
	assert_string_equal(conf->control, MUXD_CONTROL_PATH);
	assert_string_equal(conf->state_dir, MUXD_STATE_DIR);
	assert_string_equal(conf->capture_dir, MUXD_STATE_DIR "/captures");
	assert_string_equal(conf->transcript_dir,
	    MUXD_STATE_DIR "/transcripts");
	assert_int_equal(conf->queue_limit, MUXD_QUEUE_LIMIT);
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

static void
test_full_config_parses_every_field(void **state)
{
	const struct conf_round	*r;
	struct conf		*conf;

	(void)state;
	conf = load_ok("full.conf",
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

static void
test_find_functions_return_index_or_minus_one(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("room.conf", ROOM);
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

static void
test_config_without_schedule_is_valid(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("room.conf", ROOM);
	assert_int_equal(conf->nrounds, 0);
	assert_null(conf->preset);
	assert_int_equal(conf->duration, 0);
	conf_free(conf);
}

static void
test_preset_maps_labels_in_config_order(void **state)
{
	const struct schedule_round	*pr;
	const struct conf_part		*cp;
	struct conf			*conf;
	size_t				 nr, i, j;
	int				 entry[4], confed[4];

	(void)state;
	/* Judge numbers unlike the order; entries and confederates mixed. */
	conf = load_ok("preset.conf",
	    "ports = (\n"
	    "  { name = \"a1\"; address = \"/dev/a1\"; },\n"
	    "  { name = \"a2\"; address = \"/dev/a2\"; },\n"
	    "  { name = \"b1\"; address = \"/dev/b1\"; },\n"
	    "  { name = \"b2\"; address = \"/dev/b2\"; },\n"
	    "  { name = \"c1\"; address = \"/dev/c1\"; },\n"
	    "  { name = \"c2\"; address = \"/dev/c2\"; },\n"
	    "  { name = \"d1\"; address = \"/dev/d1\"; },\n"
	    "  { name = \"d2\"; address = \"/dev/d2\"; },\n"
	    "  { name = \"x1\"; address = \"/dev/x1\"; },\n"
	    "  { name = \"x2\"; address = \"/dev/x2\"; },\n"
	    "  { name = \"x3\"; address = \"/dev/x3\"; },\n"
	    "  { name = \"x4\"; address = \"/dev/x4\"; },\n"
	    "  { name = \"x5\"; address = \"/dev/x5\"; },\n"
	    "  { name = \"x6\"; address = \"/dev/x6\"; },\n"
	    "  { name = \"x7\"; address = \"/dev/x7\"; },\n"
	    "  { name = \"x8\"; address = \"/dev/x8\"; }\n"
	    ");\n"
	    "stations = (\n"
	    "  { name = \"North\"; judge = 40; left = \"a1\"; "
	    "right = \"a2\"; },\n"
	    "  { name = \"East\"; judge = 10; left = \"b1\"; "
	    "right = \"b2\"; },\n"
	    "  { name = \"South\"; judge = 30; left = \"c1\"; "
	    "right = \"c2\"; },\n"
	    "  { name = \"West\"; judge = 20; left = \"d1\"; "
	    "right = \"d2\"; }\n"
	    ");\n"
	    "entities = (\n"
	    "  { name = \"h1\"; kind = \"confederate\"; port = \"x1\"; "
	    "approved = \"A\"; },\n"
	    "  { name = \"p1\"; kind = \"entry\"; port = \"x2\"; "
	    "approved = \"B\"; },\n"
	    "  { name = \"p2\"; kind = \"entry\"; port = \"x3\"; "
	    "approved = \"C\"; },\n"
	    "  { name = \"h2\"; kind = \"confederate\"; port = \"x4\"; "
	    "approved = \"D\"; },\n"
	    "  { name = \"h3\"; kind = \"confederate\"; port = \"x5\"; "
	    "approved = \"E\"; },\n"
	    "  { name = \"p3\"; kind = \"entry\"; port = \"x6\"; "
	    "approved = \"F\"; },\n"
	    "  { name = \"h4\"; kind = \"confederate\"; port = \"x7\"; "
	    "approved = \"G\"; },\n"
	    "  { name = \"p4\"; kind = \"entry\"; port = \"x8\"; "
	    "approved = \"H\"; }\n"
	    ");\n"
	    "schedule = { preset = \"loebner2004\"; duration = 1500; };\n");
	/* En: the n-th entry in config order; Cn: the n-th confederate. */
	entry[0] = 1; entry[1] = 2; entry[2] = 5; entry[3] = 7;
	confed[0] = 0; confed[1] = 3; confed[2] = 4; confed[3] = 6;

	assert_non_null(conf->preset);
	assert_string_equal(conf->preset, "loebner2004");
	assert_int_equal(conf->duration, 1500);
	pr = schedule_preset("loebner2004", &nr);
	assert_non_null(pr);
	assert_int_equal(conf->nrounds, nr);
	assert_int_equal(nr, 7);
	for (i = 0; i < nr; i++) {
		assert_int_equal(conf->rounds[i].number, pr[i].number);
		assert_non_null(conf->rounds[i].excused);
		assert_string_equal(conf->rounds[i].excused, pr[i].excused);
		assert_int_equal(conf->rounds[i].nparts, pr[i].nparts);
		for (j = 0; j < pr[i].nparts; j++) {
			cp = &conf->rounds[i].parts[j];
			assert_int_equal(cp->station, pr[i].parts[j].judge - 1);
			assert_int_equal(cp->entry,
			    entry[pr[i].parts[j].entry - 1]);
			assert_int_equal(cp->confederate,
			    confed[pr[i].parts[j].confederate - 1]);
		}
	}
	/* Round 1 as printed: J1E1C1 J2E3C2 J3E2C4, excused J4 C3. */
	assert_string_equal(
	    conf->stations[conf->rounds[0].parts[1].station].name, "East");
	assert_string_equal(conf->entities[conf->rounds[0].parts[1].entry].name,
	    "p3");
	assert_string_equal(
	    conf->entities[conf->rounds[0].parts[2].confederate].name, "h4");
	assert_string_equal(conf->rounds[0].excused, "J4 C3");
	assert_ptr_equal(conf_round_find(conf, 7), &conf->rounds[6]);
	conf_free(conf);
}

static void
test_preset_room_built_by_helper_parses(void **state)
{
	struct conf	*conf;
	struct room	 r;

	(void)state;
	room_build(&r, 4, 4, 4);
	room_add(&r, "schedule = { preset = \"loebner2004\"; };\n");
	conf = load_ok("room.conf", r.text);
	assert_int_equal(conf->nstations, 4);
	assert_int_equal(conf->nentities, 8);
	assert_int_equal(conf->nports, 17);
	assert_int_equal(conf->nrounds, 7);
	assert_string_equal(conf->rounds[4].excused, "J3 J4 C2 C4");
	conf_free(conf);
}

static void
test_seed_accepts_int_and_int64(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("s.conf", ROOM
	    "schedule = { rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", "
	    "\"C1\") ); } ); seed = 12345; };\n");
	assert_int_equal(conf->seed_set, 1);
	assert_true(conf->seed == 12345);
	conf_free(conf);
	conf = load_ok("s.conf", ROOM
	    "schedule = { rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", "
	    "\"C1\") ); } ); seed = 0x7FFFFFFFFFFFFFFFL; };\n");
	assert_true(conf->seed == 0x7FFFFFFFFFFFFFFFULL);
	conf_free(conf);
	conf = load_ok("s.conf", ROOM
	    "schedule = { rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", "
	    "\"C1\") ); } ); seed = 0; };\n");
	assert_int_equal(conf->seed_set, 1);
	assert_true(conf->seed == 0);
	conf_free(conf);
}

static void
test_relative_paths_are_taken_from_the_config_dir(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("/etc/muxd/muxd.conf", PORTS
	    "state = \"state\";\n"
	    "transcripts = \"/pub/transcripts\";\n"
	    "control = \"run/muxd.sock\";\n");
	assert_string_equal(conf->state_dir, "/etc/muxd/state");
	assert_string_equal(conf->capture_dir, "/etc/muxd/state/captures");
	assert_string_equal(conf->transcript_dir, "/pub/transcripts");
	assert_string_equal(conf->control, "/etc/muxd/run/muxd.sock");
	conf_free(conf);

	/* A name without a directory leaves relative paths alone. */
	conf = load_ok("muxd.conf", PORTS "captures = \"caps\";\n");
	assert_string_equal(conf->capture_dir, "caps");
	assert_string_equal(conf->transcript_dir,
	    MUXD_STATE_DIR "/transcripts");
	conf_free(conf);
}

static void
test_queue_limit_bounds_are_inclusive(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("q.conf", PORTS "queue_limit = 256;\n");
	assert_int_equal(conf->queue_limit, 256);
	conf_free(conf);
	conf = load_ok("q.conf", PORTS "queue_limit = 16777216;\n");
	assert_int_equal(conf->queue_limit, 16777216);
	conf_free(conf);
}

static void
test_names_of_32_allowed_characters_are_accepted(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("n.conf",
	    "ports = ( { name = \"Az09_.-xxxxxxxxxxxxxxxxxxxxxxxxx\"; "
	    "address = \"/dev/x\"; } );\n");
	assert_int_equal(strlen(conf->ports[0].name), 32);
	conf_free(conf);
}

static void
test_same_exec_command_twice_is_allowed(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = load_ok("x.conf", "ports = (\n"
	    "  { name = \"a\"; address = \"exec:/usr/local/bin/bot\"; },\n"
	    "  { name = \"b\"; address = \"exec:/usr/local/bin/bot\"; }\n"
	    ");\n");
	assert_int_equal(conf->nports, 2);
	conf_free(conf);
}

static void
test_example_room2004_parses(void **state)
{
	struct conf	*conf;
	char		 err[MUXD_ERRLEN];
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

static void
test_example_small_parses(void **state)
{
	struct conf	*conf;
	const char	*slash;
	char		 err[MUXD_ERRLEN];

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

static void
test_load_missing_file_names_it(void **state)
{
	char	err[MUXD_ERRLEN];

	(void)state;
	assert_null(conf_load("/nonexistent/muxd.conf", err, sizeof(err)));
	assert_string_equal(err,
	    "/nonexistent/muxd.conf: No such file or directory");
}

static void
test_load_file_errors_name_file_and_line(void **state)
{
	struct conf	*conf;
	FILE		*f;
	char		 dir[] = "/tmp/test_conf.XXXXXX", path[PATH_MAX];
	char		 inc[PATH_MAX], want[PATH_MAX + 128];
	char		 err[MUXD_ERRLEN];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/muxd.conf", dir);
	snprintf(inc, sizeof(inc), "%s/ports.inc", dir);

	/* A syntax error. */
	assert_non_null(f = fopen(path, "w"));
	fputs("# test\nports = (\n  { name = \"a\"; address = ; }\n"
	    ");\n", f);
	fclose(f);
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:3: syntax error", path);
	assert_string_equal(err, want);

	/* A semantic error. */
	assert_non_null(f = fopen(path, "w"));
	fputs("# test\n\nports = (\n  { name = \"a\"; address = \"/dev/a\"; }"
	    "\n);\nstate = 7;\n", f);
	fclose(f);
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:6: setting 'state' at top level "
	    "must be a string", path);
	assert_string_equal(err, want);

	/* Includes are found beside the file; their errors name them. */
	assert_non_null(f = fopen(inc, "w"));
	fputs("ports = (\n  { name = \"a\"; adress = \"/dev/a\"; }\n);\n", f);
	fclose(f);
	assert_non_null(f = fopen(path, "w"));
	fputs("# test\n@include \"ports.inc\"\nstate = \"st\";\n", f);
	fclose(f);
	assert_null(conf_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2: unknown setting 'adress' in port",
	    inc);
	assert_string_equal(err, want);

	/* Fixed, the include works and state is beside the file. */
	assert_non_null(f = fopen(inc, "w"));
	fputs("ports = (\n  { name = \"a\"; address = \"/dev/a\"; }\n);\n", f);
	fclose(f);
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

/*
 * Bad configurations: syntax.
 */

static void
test_error_syntax(void **state)
{
	(void)state;
	/* Some syntax errors make libconfig 1.5 leak; this one does not. */
	expect_error("ports = (\n"
	    "  { name = \"a\"; address = ; }\n"
	    ");\n", "bad.conf:2: syntax error");
	expect_error("ports = (\n"
	    "  { name = \"a\"; address = \"/dev/a\"; }\n"
	    "\n"
	    "stations = ();\n", "bad.conf:4: syntax error");
}

static void
test_error_duplicate_setting_in_group(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"a\";\n"
	    "    name = \"b\"; address = \"/dev/a\"; }\n"
	    ");\n", "bad.conf:3: duplicate setting name");
}

/*
 * Bad configurations: top level.
 */

static void
test_error_unknown_top_level_setting(void **state)
{
	(void)state;
	expect_error(PORTS "stattions = ();\n",
	    "bad.conf:7: unknown setting 'stattions' at top level");
}

static void
test_error_no_ports_in_empty_config(void **state)
{
	(void)state;
	expect_error("# nothing\n",
	    "bad.conf:1: no ports defined (at least one is required)");
}

static void
test_error_empty_ports_list(void **state)
{
	(void)state;
	expect_error("state = \"/x\";\nports = ();\n",
	    "bad.conf:2: no ports defined (at least one is required)");
}

static void
test_error_ports_not_a_list(void **state)
{
	(void)state;
	expect_error("ports = { name = \"a\"; };\n",
	    "bad.conf:1: setting 'ports' must be a list: "
	    "ports = ( { ... }, ... );");
}

static void
test_error_port_element_not_a_group(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"a\"; address = \"/dev/a\"; },\n"
	    "  \"b\" );\n",
	    "bad.conf:3: element 2 of 'ports' must be a group { ... }");
}

static void
test_error_queue_limit_out_of_range(void **state)
{
	(void)state;
	expect_error(PORTS "queue_limit = 255;\n",
	    "bad.conf:7: setting 'queue_limit' must be between 256 and "
	    "16777216 bytes");
	expect_error(PORTS "queue_limit = 16777217;\n",
	    "bad.conf:7: setting 'queue_limit' must be between 256 and "
	    "16777216 bytes");
}

static void
test_error_queue_limit_wrong_type(void **state)
{
	(void)state;
	expect_error(PORTS "queue_limit = \"64k\";\n",
	    "bad.conf:7: setting 'queue_limit' at top level must be an "
	    "integer");
}

static void
test_error_empty_directory(void **state)
{
	(void)state;
	expect_error(PORTS "state = \"\";\n",
	    "bad.conf:7: setting 'state' is empty");
}

/*
 * Bad configurations: ports.
 */

static void
test_error_unknown_setting_in_port(void **state)
{
	(void)state;
	expect_error("# room\n"
	    "control = \"/tmp/x.sock\";\n"
	    "ports = (\n"
	    "  {\n"
	    "    name = \"j1-left\";\n"
	    "    # typo below\n"
	    "    adress = \"/dev/muxd/j1-left\";\n"
	    "  }\n"
	    ");\n", "bad.conf:7: unknown setting 'adress' in port");
}

static void
test_error_port_without_address(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"j1-left\"; }\n"
	    ");\n", "bad.conf:2: missing setting 'address' in port 'j1-left'");
}

static void
test_error_port_without_name(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { address = \"/dev/a\"; }\n"
	    ");\n", "bad.conf:2: missing setting 'name' in port");
}

static void
test_error_port_name_wrong_type(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = 5; address = \"/dev/a\"; }\n"
	    ");\n", "bad.conf:2: setting 'name' in port must be a string");
}

static void
test_error_port_name_bad_characters(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"j1 left\"; address = \"/dev/a\"; }\n"
	    ");\n", "bad.conf:2: invalid port name 'j1 left' " NAME_RULE);
	expect_error("ports = (\n"
	    "  { name = \"\"; address = \"/dev/a\"; }\n"
	    ");\n", "bad.conf:2: invalid port name '' " NAME_RULE);
}

static void
test_error_port_name_too_long(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"abcdefghijklmnopqrstuvwxyz0123456\"; "
	    "address = \"/dev/a\"; }\n"
	    ");\n", "bad.conf:2: invalid port name "
	    "'abcdefghijklmnopqrstuvwxyz0123456' " NAME_RULE);
}

static void
test_error_duplicate_port_name(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"j1-left\"; address = \"/dev/a\"; },\n"
	    "  { name = \"j1-left\"; address = \"/dev/b\"; }\n"
	    ");\n", "bad.conf:3: duplicate port name 'j1-left' "
	    "(first at line 2)");
}

static void
test_error_unknown_address_scheme(void **state)
{
	struct addr	 a;
	char		 aerr[MUXD_ERRLEN], want[MUXD_ERRLEN + 64];

	(void)state;
	/* The address message itself is addr.c's; conf.c must frame it. */
	assert_int_equal(addr_parse("foo:bar", &a, aerr, sizeof(aerr)), -1);
	assert_non_null(strstr(aerr, "unknown address scheme"));
	snprintf(want, sizeof(want), "bad.conf:3: port 'j1-left': %s", aerr);
	expect_error("ports = (\n"
	    "  { name = \"j1-left\";\n"
	    "    address = \"foo:bar\"; }\n"
	    ");\n", want);
}

static void
test_error_bad_serial_option(void **state)
{
	struct addr	 a;
	char		 aerr[MUXD_ERRLEN], want[MUXD_ERRLEN + 64];

	(void)state;
	assert_int_equal(addr_parse("/dev/a,baud=12345", &a, aerr,
	    sizeof(aerr)), -1);
	snprintf(want, sizeof(want), "bad.conf:2: port 'p': %s", aerr);
	expect_error("ports = (\n"
	    "  { name = \"p\"; address = \"/dev/a,baud=12345\"; }\n"
	    ");\n", want);
}

static void
test_error_two_ports_on_one_device(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"a\"; address = \"/dev/ttyUSB0\"; },\n"
	    "  { name = \"b\"; address = \"/dev/ttyUSB0,baud=19200\"; }\n"
	    ");\n", "bad.conf:3: port 'b': same line as port 'a' at line 2");
	expect_error("ports = (\n"
	    "  { name = \"a\"; address = \"tcp-listen:7001\"; },\n"
	    "  { name = \"b\"; address = \"tcp-listen:7001\"; }\n"
	    ");\n", "bad.conf:3: port 'b': same line as port 'a' at line 2");
}

/*
 * Bad configurations: stations.
 */

static void
test_error_station_without_judge(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; left = \"j1-left\"; right = \"j1-right\"; }\n"
	    ");\n", "bad.conf:8: missing setting 'judge' in station 'J1'");
}

static void
test_error_judge_out_of_range(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 100; left = \"j1-left\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n", "bad.conf:8: station 'J1': judge 100 out of range 1 to 99");
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 0; left = \"j1-left\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n", "bad.conf:8: station 'J1': judge 0 out of range 1 to 99");
}

static void
test_error_judge_wrong_type(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = \"1\"; left = \"j1-left\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n", "bad.conf:8: setting 'judge' in station 'J1' must be an "
	    "integer");
}

static void
test_error_judge_number_used_twice(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"
	    "  { name = \"J2\"; judge = 1; left = \"e1\"; right = \"c1\"; }\n"
	    ");\n", "bad.conf:9: station 'J2': judge 1 already sits at "
	    "station 'J1' (line 8)");
}

static void
test_error_station_unknown_port(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-lft\"; "
	    "right = \"j1-right\"; }\n"
	    ");\n", "bad.conf:8: station 'J1': unknown port 'j1-lft'");
}

static void
test_error_port_used_by_two_stations(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"
	    "  { name = \"J2\"; judge = 2; left = \"e1\";\n"
	    "    right = \"j1-left\"; }\n"
	    ");\n", "bad.conf:10: station 'J2': port 'j1-left' already "
	    "belongs to station 'J1' at line 8");
}

static void
test_error_port_used_twice_by_one_station(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-left\"; }\n"
	    ");\n", "bad.conf:8: station 'J1': port 'j1-left' used twice");
}

static void
test_error_duplicate_station_name(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\"; },\n"
	    "  { name = \"J1\"; judge = 2; left = \"e1\"; right = \"c1\"; }\n"
	    ");\n", "bad.conf:9: duplicate name 'J1' (station at line 8)");
}

static void
test_error_unknown_setting_in_station(void **state)
{
	(void)state;
	expect_error(PORTS "stations = (\n"
	    "  { name = \"J1\"; judge = 1; left = \"j1-left\"; "
	    "right = \"j1-right\";\n"
	    "    centre = \"e1\"; }\n"
	    ");\n", "bad.conf:9: unknown setting 'centre' in station");
}

/*
 * Bad configurations: entities.
 */

static void
test_error_port_used_by_station_and_entity(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"j1-right\"; "
	    "approved = \"Eliza\"; }\n"
	    ");\n", "bad.conf:11: entity 'E1': port 'j1-right' already "
	    "belongs to station 'J1' at line 8");
}

static void
test_error_port_used_by_two_entities(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; },\n"
	    "  { name = \"C1\"; kind = \"confederate\"; port = \"e1\"; "
	    "approved = \"John\"; }\n"
	    ");\n", "bad.conf:12: entity 'C1': port 'e1' already belongs to "
	    "entity 'E1' at line 11");
}

static void
test_error_entity_bad_kind(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"bot\"; port = \"e1\"; "
	    "approved = \"Eliza\"; }\n"
	    ");\n", "bad.conf:11: entity 'E1': kind 'bot' is neither "
	    "\"entry\" nor \"confederate\"");
}

static void
test_error_entity_empty_approved_name(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\";\n"
	    "    approved = \"\"; }\n"
	    ");\n", "bad.conf:12: entity 'E1': approved name is empty");
}

static void
test_error_entity_without_approved_name(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; }\n"
	    ");\n", "bad.conf:11: missing setting 'approved' in entity 'E1'");
}

static void
test_error_entity_without_port(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; approved = \"Eliza\"; }\n"
	    ");\n", "bad.conf:11: missing setting 'port' in entity 'E1'");
}

static void
test_error_entity_named_like_station(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"J1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; }\n"
	    ");\n", "bad.conf:11: duplicate name 'J1' (station at line 8)");
}

static void
test_error_duplicate_entity_name(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eliza\"; },\n"
	    "  { name = \"E1\"; kind = \"confederate\"; port = \"c1\"; "
	    "approved = \"John\"; }\n"
	    ");\n", "bad.conf:12: duplicate name 'E1' (entity at line 11)");
}

static void
test_error_unknown_setting_in_entity(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\";\n"
	    "    aproved = \"Eliza\"; }\n"
	    ");\n", "bad.conf:12: unknown setting 'aproved' in entity");
}

static void
test_error_entity_approved_name_control_characters(void **state)
{
	(void)state;
	expect_error(PORTS STATIONS "entities = (\n"
	    "  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "
	    "approved = \"Eli\\nza\"; }\n"
	    ");\n", "bad.conf:11: entity 'E1': approved name has control "
	    "characters");
}

/*
 * Bad configurations: schedule.
 */

static void
test_error_preset_with_three_stations(void **state)
{
	struct room	r;
	char		want[256];
	int		line;

	(void)state;
	room_build(&r, 3, 4, 4);
	line = r.line;
	room_add(&r, "schedule = {\n  preset = \"loebner2004\";\n};\n");
	snprintf(want, sizeof(want), "bad.conf:%d: preset 'loebner2004' "
	    "needs exactly 4 stations, 4 entries and 4 confederates; found 3 "
	    "stations, 4 entries and 4 confederates", line);
	expect_error(r.text, want);
}

static void
test_error_preset_with_five_confederates(void **state)
{
	struct room	r;
	char		want[256];
	int		line;

	(void)state;
	room_build(&r, 4, 4, 5);
	line = r.line;
	room_add(&r, "schedule = { preset = \"loebner2004\"; };\n");
	snprintf(want, sizeof(want), "bad.conf:%d: preset 'loebner2004' "
	    "needs exactly 4 stations, 4 entries and 4 confederates; found 4 "
	    "stations, 4 entries and 5 confederates", line);
	expect_error(r.text, want);
}

static void
test_error_unknown_preset_lists_known_ones(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = {\n  preset = \"loebner2005\";\n};\n",
	    "bad.conf:15: unknown schedule preset 'loebner2005' "
	    "(known: loebner2004)");
}

static void
test_error_preset_and_rounds_together(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = {\n"
	    "  preset = \"loebner2004\";\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "};\n", "bad.conf:16: schedule has both 'preset' and 'rounds'; "
	    "give one of them");
}

static void
test_error_schedule_without_rounds(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { duration = 60; };\n",
	    "bad.conf:14: schedule has neither 'preset' nor 'rounds'");
}

static void
test_error_unknown_setting_in_schedule(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = {\n  presett = \"loebner2004\";\n};\n",
	    "bad.conf:15: unknown setting 'presett' in schedule");
}

static void
test_error_negative_seed(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  seed = -5;\n"
	    "};\n", "bad.conf:16: setting 'seed' in schedule must not be "
	    "negative (write seeds above 2147483647 with an L suffix)");
}

static void
test_error_duration_out_of_range(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  duration = -1;\n"
	    "};\n", "bad.conf:16: setting 'duration' in schedule must be "
	    "between 0 and 86400 seconds");
	expect_error(ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  duration = \"25m\";\n"
	    "};\n", "bad.conf:16: setting 'duration' in schedule must be an "
	    "integer");
}

static void
test_error_round_unknown_station(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J9\", \"E1\", \"C1\") ); }\n"
	    "); };\n", "bad.conf:15: round 1: unknown station 'J9'");
}

static void
test_error_round_entity_as_station(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"E1\", \"E1\", \"C1\") ); }\n"
	    "); };\n", "bad.conf:15: round 1: 'E1' is an entity, not a "
	    "station");
}

static void
test_error_round_confederate_as_entry(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"C1\", \"E1\") ); }\n"
	    "); };\n", "bad.conf:15: round 1: 'C1' is a confederate, not an "
	    "entry");
}

static void
test_error_round_entry_as_confederate(void **state)
{
	struct room	r;
	char		want[256];
	int		line;

	(void)state;
	room_build(&r, 1, 2, 1);
	room_add(&r, "schedule = { rounds = (\n");
	line = r.line;
	room_add(&r, "  { round = 3; pairs = ( (\"J1\", \"E1\", \"E2\") ); }\n"
	    "); };\n");
	snprintf(want, sizeof(want), "bad.conf:%d: round 3: 'E2' is an entry, "
	    "not a confederate", line);
	expect_error(r.text, want);
}

static void
test_error_round_unknown_confederate(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\",\n"
	    "      \"C9\") ); }\n"
	    "); };\n", "bad.conf:16: round 1: unknown confederate 'C9'");
}

static void
test_error_round_number_not_positive(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 0; pairs = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n", "bad.conf:15: round number 0 is not positive");
}

static void
test_error_duplicate_round_number(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); },\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n", "bad.conf:16: duplicate round 1 (first at line 15)");
}

static void
test_error_round_without_number(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { pairs = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n", "bad.conf:15: missing setting 'round' in round");
}

static void
test_error_round_without_pairs(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = (); }\n"
	    "); };\n", "bad.conf:15: round 1 has no pairs");
}

static void
test_error_pair_with_two_members(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\") ); }\n"
	    "); };\n", "bad.conf:15: round 1: " PAIR_FORM);
}

static void
test_error_station_in_two_pairs_of_a_round(void **state)
{
	struct room	r;
	char		want[256];
	int		line;

	(void)state;
	room_build(&r, 2, 2, 2);
	room_add(&r, "schedule = { rounds = (\n"
	    "  { round = 1; pairs = (\n    (\"J1\", \"E1\", \"C1\"),\n");
	line = r.line;
	room_add(&r, "    (\"J1\", \"E2\", \"C2\") ); }\n); };\n");
	snprintf(want, sizeof(want), "bad.conf:%d: round 1: station 'J1' is "
	    "in two pairs", line);
	expect_error(r.text, want);
}

static void
test_error_entry_in_two_pairs_of_a_round(void **state)
{
	struct room	r;
	char		want[256];
	int		line;

	(void)state;
	room_build(&r, 2, 2, 2);
	room_add(&r, "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\"),\n");
	line = r.line;
	room_add(&r, "    (\"J2\", \"E1\", \"C2\") ); }\n); };\n");
	snprintf(want, sizeof(want), "bad.conf:%d: round 1: entry 'E1' is in "
	    "two pairs", line);
	expect_error(r.text, want);
}

static void
test_error_confederate_in_two_pairs_of_a_round(void **state)
{
	struct room	r;
	char		want[256];
	int		line;

	(void)state;
	room_build(&r, 2, 2, 2);
	room_add(&r, "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C2\"),\n");
	line = r.line;
	room_add(&r, "    (\"J2\", \"E2\", \"C2\") ); }\n); };\n");
	snprintf(want, sizeof(want), "bad.conf:%d: round 1: confederate 'C2' "
	    "is in two pairs", line);
	expect_error(r.text, want);
}

static void
test_error_unknown_setting_in_round(void **state)
{
	(void)state;
	expect_error(ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pair = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n", "bad.conf:15: unknown setting 'pair' in round");
}

static void
test_error_only_first_error_is_reported(void **state)
{
	(void)state;
	expect_error("ports = (\n"
	    "  { name = \"a b\"; adress = \"x\"; },\n"
	    "  { name = \"c d\"; address = \"y\"; }\n"
	    ");\nfoo = 1;\n",
	    "bad.conf:5: unknown setting 'foo' at top level");
	expect_error("ports = (\n"
	    "  { name = \"a b\"; address = \"x\"; },\n"
	    "  { name = \"c d\"; address = \"y\"; }\n"
	    ");\n",
	    "bad.conf:2: invalid port name 'a b' " NAME_RULE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal_config_gets_defaults),
		cmocka_unit_test(test_full_config_parses_every_field),
		cmocka_unit_test(test_find_functions_return_index_or_minus_one),
		cmocka_unit_test(test_config_without_schedule_is_valid),
		cmocka_unit_test(test_preset_maps_labels_in_config_order),
		cmocka_unit_test(test_preset_room_built_by_helper_parses),
		cmocka_unit_test(test_seed_accepts_int_and_int64),
		cmocka_unit_test(
		    test_relative_paths_are_taken_from_the_config_dir),
		cmocka_unit_test(test_queue_limit_bounds_are_inclusive),
		cmocka_unit_test(
		    test_names_of_32_allowed_characters_are_accepted),
		cmocka_unit_test(test_same_exec_command_twice_is_allowed),
		cmocka_unit_test(test_example_room2004_parses),
		cmocka_unit_test(test_example_small_parses),
		cmocka_unit_test(test_load_missing_file_names_it),
		cmocka_unit_test(test_load_file_errors_name_file_and_line),
		cmocka_unit_test(test_error_fits_a_small_buffer),
		cmocka_unit_test(test_error_syntax),
		cmocka_unit_test(test_error_duplicate_setting_in_group),
		cmocka_unit_test(test_error_unknown_top_level_setting),
		cmocka_unit_test(test_error_no_ports_in_empty_config),
		cmocka_unit_test(test_error_empty_ports_list),
		cmocka_unit_test(test_error_ports_not_a_list),
		cmocka_unit_test(test_error_port_element_not_a_group),
		cmocka_unit_test(test_error_queue_limit_out_of_range),
		cmocka_unit_test(test_error_queue_limit_wrong_type),
		cmocka_unit_test(test_error_empty_directory),
		cmocka_unit_test(test_error_unknown_setting_in_port),
		cmocka_unit_test(test_error_port_without_address),
		cmocka_unit_test(test_error_port_without_name),
		cmocka_unit_test(test_error_port_name_wrong_type),
		cmocka_unit_test(test_error_port_name_bad_characters),
		cmocka_unit_test(test_error_port_name_too_long),
		cmocka_unit_test(test_error_duplicate_port_name),
		cmocka_unit_test(test_error_unknown_address_scheme),
		cmocka_unit_test(test_error_bad_serial_option),
		cmocka_unit_test(test_error_two_ports_on_one_device),
		cmocka_unit_test(test_error_station_without_judge),
		cmocka_unit_test(test_error_judge_out_of_range),
		cmocka_unit_test(test_error_judge_wrong_type),
		cmocka_unit_test(test_error_judge_number_used_twice),
		cmocka_unit_test(test_error_station_unknown_port),
		cmocka_unit_test(test_error_port_used_by_two_stations),
		cmocka_unit_test(test_error_port_used_twice_by_one_station),
		cmocka_unit_test(test_error_duplicate_station_name),
		cmocka_unit_test(test_error_unknown_setting_in_station),
		cmocka_unit_test(test_error_port_used_by_station_and_entity),
		cmocka_unit_test(test_error_port_used_by_two_entities),
		cmocka_unit_test(test_error_entity_bad_kind),
		cmocka_unit_test(test_error_entity_empty_approved_name),
		cmocka_unit_test(test_error_entity_without_approved_name),
		cmocka_unit_test(test_error_entity_without_port),
		cmocka_unit_test(test_error_entity_named_like_station),
		cmocka_unit_test(test_error_duplicate_entity_name),
		cmocka_unit_test(test_error_unknown_setting_in_entity),
		cmocka_unit_test(
		    test_error_entity_approved_name_control_characters),
		cmocka_unit_test(test_error_preset_with_three_stations),
		cmocka_unit_test(test_error_preset_with_five_confederates),
		cmocka_unit_test(test_error_unknown_preset_lists_known_ones),
		cmocka_unit_test(test_error_preset_and_rounds_together),
		cmocka_unit_test(test_error_schedule_without_rounds),
		cmocka_unit_test(test_error_unknown_setting_in_schedule),
		cmocka_unit_test(test_error_negative_seed),
		cmocka_unit_test(test_error_duration_out_of_range),
		cmocka_unit_test(test_error_round_unknown_station),
		cmocka_unit_test(test_error_round_entity_as_station),
		cmocka_unit_test(test_error_round_confederate_as_entry),
		cmocka_unit_test(test_error_round_entry_as_confederate),
		cmocka_unit_test(test_error_round_unknown_confederate),
		cmocka_unit_test(test_error_round_number_not_positive),
		cmocka_unit_test(test_error_duplicate_round_number),
		cmocka_unit_test(test_error_round_without_number),
		cmocka_unit_test(test_error_round_without_pairs),
		cmocka_unit_test(test_error_pair_with_two_members),
		cmocka_unit_test(test_error_station_in_two_pairs_of_a_round),
		cmocka_unit_test(test_error_entry_in_two_pairs_of_a_round),
		cmocka_unit_test(
		    test_error_confederate_in_two_pairs_of_a_round),
		cmocka_unit_test(test_error_unknown_setting_in_round),
		cmocka_unit_test(test_error_only_first_error_is_reported),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
