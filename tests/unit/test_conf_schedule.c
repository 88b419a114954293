/*
 * Unit tests for the schedule of the room configuration
 * (conf/conf-schedule.c): rounds written out, the loebner2004 preset
 * mapped onto the room's stations, entries and confederates, the seed and
 * the duration; each kind of bad schedule refused with exactly one
 * message of the form "FILE:LINE: what is wrong" (the table
 * schedule_errors, a cmocka test a row).
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
#include "fixture-conf.h"

#define PAIR_FORM \
	"a pair must be (\"STATION\", \"ENTRY\", \"CONFEDERATE\")"

/* A room without a schedule has no rounds. */
static void
test_config_without_schedule_is_valid(void **state)
{
	struct conf	*conf;

	(void)state;
	conf = fixture_conf_load("room.conf", ROOM);
	assert_int_equal(conf->nrounds, 0);
	assert_null(conf->preset);
	assert_int_equal(conf->duration, 0);
	conf_free(conf);
}

/* The preset's labels are the stations, entries and confederates in order. */
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
	conf = fixture_conf_load("preset.conf",
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
	    "schedule = { preset = \"loebner2004\"; duration = 1500; "
	    "ready_wait = 120; };\n");
	/* En: the n-th entry in config order; Cn: the n-th confederate. */
	entry[0] = 1; entry[1] = 2; entry[2] = 5; entry[3] = 7;
	confed[0] = 0; confed[1] = 3; confed[2] = 4; confed[3] = 6;

	assert_non_null(conf->preset);
	assert_string_equal(conf->preset, "loebner2004");
	assert_int_equal(conf->duration, 1500);
	assert_int_equal(conf->ready_wait, 120);
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

/* A room of four of each takes the 2004 preset. */
static void
test_preset_room_built_by_helper_parses(void **state)
{
	struct fixture_conf_room	 r;
	struct conf			*conf;

	(void)state;
	fixture_conf_build(&r, 4, 4, 4);
	fixture_conf_add(&r, "schedule = { preset = \"loebner2004\"; };\n");
	conf = fixture_conf_load("room.conf", r.text);
	assert_int_equal(conf->nstations, 4);
	assert_int_equal(conf->nentities, 8);
	assert_int_equal(conf->nports, 17);
	assert_int_equal(conf->nrounds, 7);
	assert_string_equal(conf->rounds[4].excused, "J3 J4 C2 C4");
	conf_free(conf);
}

/*
 * The Long Now preset on a room of three stations, one entry and three
 * confederates: four rounds of two hours (unless a duration is given),
 * each station interviewing one candidate (the other index -1), each
 * judge every candidate once; printed for muxd -n with the room's names.
 */
static void
test_preset_longnow(void **state)
{
	struct fixture_conf_room	 r;
	struct conf			*conf;
	const struct conf_part		*cp;
	int				 met[3][4], busy[4], i, j, k;
	char				*out = NULL;
	size_t				 len = 0;
	FILE				*f;

	(void)state;
	fixture_conf_build(&r, 3, 1, 3);
	fixture_conf_add(&r, "schedule = { preset = \"longnow\"; };\n");
	conf = fixture_conf_load("room.conf", r.text);
	assert_int_equal(conf->nrounds, 4);
	assert_int_equal(conf->duration, 7200);
	memset(met, 0, sizeof(met));
	for (i = 0; i < 4; i++) {
		assert_int_equal(conf->rounds[i].nparts, 3);
		memset(busy, 0, sizeof(busy));
		for (j = 0; j < 3; j++) {
			cp = &conf->rounds[i].parts[j];
			assert_true((cp->entry < 0) != (cp->confederate < 0));
			k = cp->entry >= 0 ? cp->entry : cp->confederate;
			assert_true(k >= 0 && k < 4);
			assert_int_equal(busy[k]++, 0);
			met[cp->station][k]++;
		}
	}
	for (i = 0; i < 3; i++)
		for (k = 0; k < 4; k++)
			assert_int_equal(met[i][k], 1);
	assert_non_null(f = open_memstream(&out, &len));
	conf_schedule_print(conf, f);
	fclose(f);
	assert_non_null(strstr(out, "schedule: preset longnow, 4 rounds of "
	    "120 min\n"));
	assert_non_null(strstr(out, "round 1: "));
	assert_non_null(strstr(out, " interviews "));
	assert_non_null(strstr(out, "; excused "));
	free(out);
	conf_free(conf);
	/* A duration given wins over the preset's. */
	fixture_conf_build(&r, 3, 1, 3);
	fixture_conf_add(&r, "schedule = { preset = \"longnow\"; "
	    "duration = 60; };\n");
	conf = fixture_conf_load("room.conf", r.text);
	assert_int_equal(conf->duration, 60);
	conf_free(conf);
}

/* A seed may be an int or an int64, 0 included. */
static void
test_seed_accepts_int_and_int64(void **state)
{
	static const struct {
		const char		*text;
		unsigned long long	 seed;
	} seeds[] = {
		{ "12345", 12345 },
		{ "0x7FFFFFFFFFFFFFFFL", 0x7FFFFFFFFFFFFFFFULL },
		{ "0", 0 },
	};
	struct fixture_conf_room	 r;
	struct conf			*conf;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		memset(&r, 0, sizeof(r));
		fixture_conf_add(&r, ROOM "schedule = { rounds = ( { round = "
		    "1; pairs = ( (\"J1\", \"E1\", \"C1\") ); } ); seed = %s; "
		    "};\n", seeds[i].text);
		conf = fixture_conf_load("s.conf", r.text);
		assert_int_equal(conf->seed_set, 1);
		assert_true(conf->seed == seeds[i].seed);
		conf_free(conf);
	}
}

/* Bad schedules, each with the one message it must get. */
static const struct CMUnitTest schedule_errors[] = {
	/* The schedule group. */
	FIXTURE_CONF_ERROR("unknown preset lists known ones",
	    ROOM "schedule = {\n  preset = \"loebner2005\";\n};\n",
	    "bad.conf:15: unknown schedule preset 'loebner2005' "
	    "(known: loebner2004, longnow)"),
	FIXTURE_CONF_ERROR("preset and rounds together",
	    ROOM "schedule = {\n"
	    "  preset = \"loebner2004\";\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "};\n",
	    "bad.conf:16: schedule has both 'preset' and 'rounds'; "
	    "give one of them"),
	FIXTURE_CONF_ERROR("schedule without rounds",
	    ROOM "schedule = { duration = 60; };\n",
	    "bad.conf:14: schedule has neither 'preset' nor 'rounds'"),
	FIXTURE_CONF_ERROR("unknown setting in schedule",
	    ROOM "schedule = {\n  presett = \"loebner2004\";\n};\n",
	    "bad.conf:15: unknown setting 'presett' in schedule"),
	FIXTURE_CONF_ERROR("negative seed",
	    ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  seed = -5;\n"
	    "};\n",
	    "bad.conf:16: setting 'seed' in schedule must not be "
	    "negative (write seeds above 2147483647 with an L suffix)"),
	FIXTURE_CONF_ERROR("duration out of range",
	    ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  duration = -1;\n"
	    "};\n",
	    "bad.conf:16: setting 'duration' in schedule must be "
	    "between 0 and 86400 seconds"),
	FIXTURE_CONF_ERROR("ready_wait out of range",
	    ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  ready_wait = 3601;\n"
	    "};\n",
	    "bad.conf:16: setting 'ready_wait' in schedule must be "
	    "between 0 and 3600 seconds"),
	FIXTURE_CONF_ERROR("duration wrong type",
	    ROOM "schedule = {\n"
	    "  rounds = ( { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); "
	    "} );\n"
	    "  duration = \"25m\";\n"
	    "};\n",
	    "bad.conf:16: setting 'duration' in schedule must be an "
	    "integer"),
	/* Rounds. */
	FIXTURE_CONF_ERROR("round unknown station",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J9\", \"E1\", \"C1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: round 1: unknown station 'J9'"),
	FIXTURE_CONF_ERROR("round entity as station",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"E1\", \"E1\", \"C1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: round 1: 'E1' is an entity, not a station"),
	FIXTURE_CONF_ERROR("round confederate as entry",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"C1\", \"E1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: round 1: 'C1' is a confederate, not an entry"),
	FIXTURE_CONF_ERROR("round unknown confederate",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\",\n"
	    "      \"C9\") ); }\n"
	    "); };\n",
	    "bad.conf:16: round 1: unknown confederate 'C9'"),
	FIXTURE_CONF_ERROR("round number not positive",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 0; pairs = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: round number 0 is not positive"),
	FIXTURE_CONF_ERROR("duplicate round number",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); },\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n",
	    "bad.conf:16: duplicate round 1 (first at line 15)"),
	FIXTURE_CONF_ERROR("round without number",
	    ROOM "schedule = { rounds = (\n"
	    "  { pairs = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: missing setting 'round' in round"),
	FIXTURE_CONF_ERROR("round without pairs",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = (); }\n"
	    "); };\n",
	    "bad.conf:15: round 1 has no pairs"),
	FIXTURE_CONF_ERROR("pair with two members",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: round 1: " PAIR_FORM),
	FIXTURE_CONF_ERROR("unknown setting in round",
	    ROOM "schedule = { rounds = (\n"
	    "  { round = 1; pair = ( (\"J1\", \"E1\", \"C1\") ); }\n"
	    "); };\n",
	    "bad.conf:15: unknown setting 'pair' in round"),
	/* Rooms written to order: the line is where the last part starts. */
	FIXTURE_CONF_ROOM_ERROR("preset with three stations", 3, 4, 4, "",
	    "schedule = {\n  preset = \"loebner2004\";\n};\n",
	    "preset 'loebner2004' needs exactly 4 stations, 4 entries and 4 "
	    "confederates; found 3 stations, 4 entries and 4 confederates"),
	FIXTURE_CONF_ROOM_ERROR("preset with five confederates", 4, 4, 5, "",
	    "schedule = { preset = \"loebner2004\"; };\n",
	    "preset 'loebner2004' needs exactly 4 stations, 4 entries and 4 "
	    "confederates; found 4 stations, 4 entries and 5 confederates"),
	FIXTURE_CONF_ROOM_ERROR("round entry as confederate", 1, 2, 1,
	    "schedule = { rounds = (\n",
	    "  { round = 3; pairs = ( (\"J1\", \"E1\", \"E2\") ); }\n"
	    "); };\n",
	    "round 3: 'E2' is an entry, not a confederate"),
	FIXTURE_CONF_ROOM_ERROR("station in two pairs of a round", 2, 2, 2,
	    "schedule = { rounds = (\n"
	    "  { round = 1; pairs = (\n    (\"J1\", \"E1\", \"C1\"),\n",
	    "    (\"J1\", \"E2\", \"C2\") ); }\n); };\n",
	    "round 1: station 'J1' is in two pairs"),
	FIXTURE_CONF_ROOM_ERROR("entry in two pairs of a round", 2, 2, 2,
	    "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C1\"),\n",
	    "    (\"J2\", \"E1\", \"C2\") ); }\n); };\n",
	    "round 1: entry 'E1' is in two pairs"),
	FIXTURE_CONF_ROOM_ERROR("confederate in two pairs of a round", 2, 2, 2,
	    "schedule = { rounds = (\n"
	    "  { round = 1; pairs = ( (\"J1\", \"E1\", \"C2\"),\n",
	    "    (\"J2\", \"E2\", \"C2\") ); }\n); };\n",
	    "round 1: confederate 'C2' is in two pairs"),
};

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_without_schedule_is_valid),
		cmocka_unit_test(test_preset_maps_labels_in_config_order),
		cmocka_unit_test(test_preset_room_built_by_helper_parses),
		cmocka_unit_test(test_preset_longnow),
		cmocka_unit_test(test_seed_accepts_int_and_int64),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL) +
	    cmocka_run_group_tests(schedule_errors, NULL, NULL));
}
