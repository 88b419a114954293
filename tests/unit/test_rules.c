/*
 * Unit tests for muxd's contest rules on a link (muxd/rules*.c), linked
 * with muxd's own objects (libmuxd.a, all of muxd/ but muxd.c): the
 * opening assertion's verdict for a link, told to the watchers and
 * written to compliance.txt; a pair already judged not checked again;
 * the hold released on the assertion's pass, kept on its failure until
 * a referee releases it; the verdicts kept through the state file and
 * back; and the link's flow rule (a port is not held back when its peer
 * is).  The ports are never opened: what muxd sends a line waits in its
 * queue, where the test reads it.
 */
#include <sys/stat.h>

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
#include "rules.h"
#include "fixture-conf.h"

#define ASSERT_TEXT	"Hello, my name is Eliza and I am the human\r\n"

/* muxd.c's, which the tests do not link. */
struct event_base	*muxd_base;
struct conf		*muxd_conf;

/* The verdicts told to the watchers, as "KIND VERDICT FINAL". */
static char		 verdicts[16][64];
static size_t		 nverdicts;
static char		 statedir[] = "/tmp/test_rules.XXXXXX";
static struct timeval	 t0;		/* the test's start */

/* A room with one station, an entry and a confederate, and rules. */
static struct conf *
room(const char *rules)
{
	char	text[2048];

	snprintf(text, sizeof(text), "%srules = { %s };\n", ROOM, rules);
	return (fixture_conf_load("rules.conf", text));
}

/* Keep the verdicts posted (an events observer). */
static void
on_event(void *arg, const struct events_ev *ev)
{
	const char	*kind = "", *verdict = "";
	int		 final = 0;

	(void)arg;
	if (ev->type != PROTOCOL_EV_VERDICT || nverdicts == 16)
		return;
	assert_int_equal(json_unpack(ev->fields, "{sssssb}", "kind", &kind,
	    "verdict", &verdict, "final", &final), 0);
	snprintf(verdicts[nverdicts++], sizeof(verdicts[0]), "%s %s %d", kind,
	    verdict, final);
}

/* Keep muxd's log lines out of the test's output. */
static void
quiet(int prio, const char *msg)
{
	(void)prio;
	(void)msg;
}

/* The time of the program (the port library's clock). */
static void
clock_now(struct timeval *tv)
{
	gettimeofday(tv, NULL);
}

/* Start a test: an event loop, the state directory, no verdicts. */
static int
setup(void **state)
{
	static const struct port_hooks	hooks = { .clock = clock_now };

	(void)state;
	if ((muxd_base = event_base_new()) == NULL)
		return (-1);
	port_hooks_set(muxd_base, &hooks);
	strcpy(statedir, "/tmp/test_rules.XXXXXX");
	if (mkdtemp(statedir) == NULL)
		return (-1);
	state_init(statedir);
	events_subscribe(on_event, NULL, EVENTS_BIT(PROTOCOL_EV_VERDICT));
	nverdicts = 0;
	gettimeofday(&t0, NULL);
	return (0);
}

/*
 * End a test: what a failed test left (links, ports) ended, the verdicts
 * kept forgotten, the files removed.
 */
static int
teardown(void **state)
{
	struct link	*l;
	struct port	*p;
	char		 path[128];

	(void)state;
	while ((l = TAILQ_FIRST(&links)) != NULL)
		link_free(l, "test");
	while ((p = TAILQ_FIRST(&ports)) != NULL)
		port_free(p);
	link_configure(NULL);
	events_unsubscribe(on_event, NULL);
	rules_configure(NULL, NULL, 0);
	rules_shutdown();
	state_flush();	/* its timer is the loop's */
	snprintf(path, sizeof(path), "%s/compliance.txt", statedir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/state.json", statedir);
	unlink(path);
	rmdir(statedir);
	event_base_free(muxd_base);
	muxd_base = NULL;
	return (0);
}

/* A port that is never opened (what is sent to it waits in its queue). */
static struct port *
port(const char *name)
{
	struct addr	 a;
	struct port	*p;
	char		 err[LINE_ERRLEN];

	assert_int_equal(addr_parse("exec:/bin/cat", &a, err, sizeof(err)), 0);
	p = port_new(name, &a, 1 << 20);
	addr_free(&a);
	assert_non_null(p);
	return (p);
}

/* Link the station's left terminal to the entry E1, with the rules open. */
static struct link *
judge_link(const struct conf *cf)
{
	struct link	*l;
	char		 err[MUXD_ERRLEN];

	link_configure(cf);
	assert_int_equal(rules_configure(cf, err, sizeof(err)), 0);
	l = link_new("J1-left", port("j1-left"), port("e1"), LINK_ROUND, err,
	    sizeof(err));
	assert_non_null(l);
	link_place(l, "J1", 0, "E1");
	rules_link_open(l);
	return (l);
}

/* End a link and free its ports. */
static void
unlink_all(struct link *l)
{
	struct port	*a = l->a, *b = l->b;

	link_free(l, "test");
	port_free(a);
	port_free(b);
	link_configure(NULL);
}

/*
 * The entity writes text to the judge, read from its line at the test's
 * start: what a hold releases is all due at once (it keeps the chunks'
 * own timing, late by the hold).
 */
static void
entity_says(struct link *l, const char *text)
{
	rules_forward(l, l->b, (const unsigned char *)text, strlen(text), &t0,
	    0);
}

/* Tell whether the judge's screen got text (its port's queue). */
static int
judge_saw(struct link *l, const char *text)
{
	struct evbuffer_ptr	pos;

	pos = evbuffer_search(l->a->outq, text, strlen(text), NULL);
	return (pos.pos != -1);
}

/* Tell whether a verdict was told ("KIND VERDICT FINAL"). */
static int
told(const char *want)
{
	size_t	i;

	for (i = 0; i < nverdicts; i++)
		if (strcmp(verdicts[i], want) == 0)
			return (1);
	return (0);
}

/* The file of the state directory, read whole (empty when none). */
static char *
state_file(const char *name)
{
	static char	 buf[4096];
	char		 path[128];
	FILE		*f;
	size_t		 n = 0;

	snprintf(path, sizeof(path), "%s/%s", statedir, name);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return (buf);
}

/*
 * The assertion checked on a link passes as its text ends, is told final
 * to the watchers, written to compliance.txt, and kept for the pair.
 */
static void
test_rules_assertion_pass(void **state)
{
	struct conf	*cf = room("assertion = \"check\";");
	struct link	*l = judge_link(cf);

	(void)state;
	entity_says(l, "Hello, my name is Eliza");
	assert_false(told("assertion PASS 1"));
	entity_says(l, " and I am the human\r\n");
	assert_true(told("assertion PASS 1"));
	/* Checked, not held: the judge saw it at once. */
	assert_true(judge_saw(l, "Hello, my name is Eliza and I am the human"));
	assert_non_null(strstr(state_file("compliance.txt"),
	    " J1-left judge 01 PASS assertion E1 at byte "));
	assert_true(rules_verdict_find("E1", 1));
	assert_false(rules_verdict_find("E1", 2));
	unlink_all(l);
	conf_free(cf);
}

/* Another name than the approved one is no pass. */
static void
test_rules_assertion_name(void **state)
{
	struct conf	*cf = room("assertion = \"check\";");
	struct link	*l = judge_link(cf);

	(void)state;
	entity_says(l, "Hello, my name is Bob and I am the human\r\n");
	assert_true(told("assertion NAME 1"));
	assert_false(told("assertion PASS 1"));
	assert_non_null(strstr(state_file("compliance.txt"), " NAME "));
	unlink_all(l);
	conf_free(cf);
}

/* A pair whose verdict is kept is not checked again on a new link. */
static void
test_rules_pair_checked_once(void **state)
{
	struct conf	*cf = room("assertion = \"check\";");
	struct link	*l;

	(void)state;
	rules_verdict_keep("E1", 1, ASSERTION_PASS);
	l = judge_link(cf);
	entity_says(l, "Hello, my name is Bob and I am the human\r\n");
	assert_false(told("assertion NAME 1"));
	assert_true(judge_saw(l, "my name is Bob"));
	unlink_all(l);
	conf_free(cf);
}

/* Policy hold: nothing reaches the judge until the assertion passes. */
static void
test_rules_hold_released_on_pass(void **state)
{
	struct conf	*cf = room("assertion = \"hold\";");
	struct link	*l = judge_link(cf);
	char		 err[MUXD_ERRLEN];

	(void)state;
	entity_says(l, "Hello, my name is Eliza");
	assert_false(judge_saw(l, "Hello"));
	entity_says(l, " and I am the human\r\n");
	assert_true(told("assertion PASS 1"));
	assert_true(judge_saw(l, "Hello, my name is Eliza and I am the human"));
	/* Released: it holds nothing back any more. */
	assert_int_equal(rules_entity_release(l, err, sizeof(err)), -1);
	assert_string_equal(err, "link J1-left holds nothing back");
	unlink_all(l);
	conf_free(cf);
}

/* A failed assertion keeps the output held until a referee releases it. */
static void
test_rules_hold_kept_until_referee(void **state)
{
	struct conf	*cf = room("assertion = \"hold\";");
	struct link	*l = judge_link(cf);
	char		 err[MUXD_ERRLEN];

	(void)state;
	entity_says(l, "Hello, my name is Bob and I am the human\r\n");
	assert_true(told("assertion NAME 1"));
	assert_false(judge_saw(l, "Hello"));
	entity_says(l, "more\r\n");
	assert_false(judge_saw(l, "more"));
	assert_int_equal(rules_entity_release(l, err, sizeof(err)), 0);
	assert_true(judge_saw(l, "Hello, my name is Bob and I am the human"));
	assert_true(judge_saw(l, "more"));
	unlink_all(l);
	conf_free(cf);
}

/*
 * The kept verdicts go into the state file's "assertions" and come back
 * from it; a check takes nothing back, and what is not a verdict, or a
 * pair already kept, is left out.
 */
static void
test_rules_verdict_round_trip(void **state)
{
	json_t	*o, *a;

	(void)state;
	rules_verdict_keep("E1", 1, ASSERTION_PASS);
	rules_verdict_keep("C1", 2, ASSERTION_FAIL);
	rules_verdict_keep("E1", 1, ASSERTION_FAIL);	/* kept already */
	o = rules_verdict_save();
	a = json_object_get(o, "assertions");
	assert_int_equal(json_array_size(a), 2);
	json_array_append_new(a, json_pack("{sssiss}", "entity", "X",
	    "judge", 3, "verdict", "maybe"));
	json_array_append_new(a, json_pack("{sssiss}", "entity", "E1",
	    "judge", 1, "verdict", "fail"));
	rules_verdict_free();
	assert_false(rules_verdict_find("E1", 1));
	assert_int_equal(rules_verdict_load(o, 1, NULL, 0), 0);
	assert_false(rules_verdict_find("E1", 1));
	assert_int_equal(rules_verdict_load(o, 0, NULL, 0), 0);
	json_decref(o);
	assert_true(rules_verdict_find("E1", 1));
	assert_true(rules_verdict_find("C1", 2));
	assert_false(rules_verdict_find("X", 3));
	o = rules_verdict_save();
	a = json_object_get(o, "assertions");
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(a, 0), "verdict")), "pass");
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(a, 1), "verdict")), "fail");
	json_decref(o);
}

/* A port is held back for a full peer, unless that peer is held itself. */
static void
test_rules_link_flow(void **state)
{
	struct link	*l;
	char		 err[MUXD_ERRLEN];

	(void)state;
	l = link_new("x", port("a"), port("b"), LINK_MANUAL, err, sizeof(err));
	assert_non_null(l);
	link_flow_hold(l->a);
	assert_true(l->a->paused);
	link_flow_hold(l->b);
	assert_false(l->b->paused);
	link_flow_writable(l->b);
	assert_false(l->a->paused);
	unlink_all(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rules_assertion_pass,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_assertion_name,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_pair_checked_once,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_rules_hold_released_on_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_rules_hold_kept_until_referee, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_verdict_round_trip,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_link_flow, setup,
		    teardown),
	};

	log_redirect(quiet);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
