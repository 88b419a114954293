/*
 * Unit tests for the auditor's checks (transcripts/verify.c): transcript
 * text, forbidden references, and captures written to a temporary
 * directory: a clean one, a torn one (offset of the torn line), one with
 * silences, a fault marker and time going back, one beside a transcript
 * that differs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "transcripts.h"

#define HEAD	"{\"version\": 2, \"width\": 80, \"height\": 24, " \
	"\"timestamp\": 1337084321, \"muxd\": {\"encoding\": \"iso-8859-1\", " \
	"\"judge\": 3, \"program\": \"Eliza\", \"utc_offset\": 3600}}\n"
#define TX_OK	"This transcript is in the public domain\n" \
	"Eliza -\n" \
	"Start at: 2012/05/15 13:18:41\n" \
	"*** JUDGE03 ***\n" \
	"JUDGE03[13:18:41]Hello\n" \
	"PROGRAM[13:18:44]Hi\n"

static char	 dir[64];

static const char *put(const char *, const char *);
static size_t	 count(const struct verify_report *, enum verify_kind);
static const struct finding *find(const struct verify_report *,
		    enum verify_kind);
static void	 check(const char *, const char *, struct verify_report *,
		    int64_t);

/* Write a file in the test's directory; its path (static, one at a time). */
static const char *
put(const char *name, const char *text)
{
	static char	 path[128];
	FILE		*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) == EOF)
		fail_msg("cannot write %s", path);
	return (path);
}

/* The findings of a kind. */
static size_t
count(const struct verify_report *rep, enum verify_kind k)
{
	return (rep->count[k]);
}

/* The first finding of a kind, failing the test when there is none. */
static const struct finding *
find(const struct verify_report *rep, enum verify_kind k)
{
	size_t	i;

	for (i = 0; i < rep->findings.n; i++)
		if (rep->findings.item[i].kind == (int)k)
			return (&rep->findings.item[i]);
	fail_msg("no %s finding", verify_kind_name(k));
	return (NULL);
}

/* Verify a capture written from text, with a gap threshold in seconds. */
static void
check(const char *name, const char *text, struct verify_report *rep,
    int64_t gap)
{
	struct verify_opts	o;
	struct cap_error	e;
	const char		*path = put(name, text);

	verify_opts_init(&o);
	o.gap = gap * 1000000;
	assert_int_equal(verify_report_init(rep, path), 0);
	assert_int_equal(verify_capture(path, &o, rep, &e), CAP_OK);
}

static void
test_transcript_text(void **state)
{
	struct verify_report	 rep;
	const char		*bad =
	    "This transcript is in the public domain.\n"
	    "Eliza -\n"
	    "Start: today\n"
	    "JUDGE03[24:00:00]late\n"
	    "JUDGE3[13:18:41]short\n"
	    "PROGRAM[13:18:44]made at the University of Surrey\n"
	    "PROGRAM[13:18:45]cut";

	(void)state;
	assert_int_equal(verify_report_init(&rep, "t"), 0);
	assert_int_equal(verify_transcript(&rep, TX_OK, strlen(TX_OK)), 0);
	assert_int_equal(rep.total, 0);
	verify_report_free(&rep);

	assert_int_equal(verify_report_init(&rep, "t"), 0);
	assert_int_equal(verify_transcript(&rep, bad, strlen(bad)), 0);
	assert_int_equal(count(&rep, VERIFY_PD), 1);
	assert_int_equal(count(&rep, VERIFY_FORMAT), 3);
	assert_int_equal(count(&rep, VERIFY_FORBIDDEN), 1);
	assert_int_equal(count(&rep, VERIFY_TORN), 1);
	assert_int_equal(find(&rep, VERIFY_FORBIDDEN)->line, 6);
	assert_int_equal(find(&rep, VERIFY_TORN)->line, 7);
	assert_int_equal(find(&rep, VERIFY_TORN)->offset,
	    strstr(bad, "PROGRAM[13:18:45]") - bad);
	assert_int_equal(find(&rep, VERIFY_FORBIDDEN)->offset,
	    strstr(bad, "University") - bad);
	verify_report_free(&rep);
}

static void
test_forbidden_references(void **state)
{
	const char	*which;
	size_t		 at;

	(void)state;
	assert_int_equal(verify_forbidden("a CAMBRIDGE centre b", 20, &at,
	    &which), 1);
	assert_int_equal(at, 2);
	assert_string_equal(which, "Cambridge Centre");
	assert_int_equal(verify_forbidden("the Cambridge Cent", 18, &at,
	    &which), 0);
	assert_int_equal(verify_forbidden("", 0, &at, &which), 0);
}

static void
test_clean_capture(void **state)
{
	struct verify_report	rep;

	(void)state;
	check("clean.cast", HEAD "[0.5, \"i\", \"Hello\\r\"]\n"
	    "[3.0, \"o\", \"Hi\\r\"]\n", &rep, 120);
	assert_int_equal(rep.total, 0);
	assert_int_equal(rep.nevent, 2);
	assert_null(rep.transcript);
	verify_report_free(&rep);
}

static void
test_torn_capture(void **state)
{
	struct verify_report	rep;

	(void)state;
	check("torn.cast", HEAD "[0.5, \"i\", \"Hello\\r\"]\n"
	    "[3.0, \"o\", \"Hi", &rep, 120);
	assert_int_equal(rep.total, 1);
	assert_int_equal(count(&rep, VERIFY_TORN), 1);
	assert_int_equal(find(&rep, VERIFY_TORN)->line, 3);
	assert_int_equal(find(&rep, VERIFY_TORN)->offset, strlen(HEAD) +
	    strlen("[0.5, \"i\", \"Hello\\r\"]\n"));
	assert_int_equal(rep.nevent, 1);	/* the one before still reads */
	verify_report_free(&rep);
}

static void
test_gaps_faults_order(void **state)
{
	struct verify_report	rep;

	(void)state;
	check("gaps.cast", HEAD "[1.0, \"i\", \"a\"]\n"
	    "[11.0, \"o\", \"b\"]\n"
	    "[12.0, \"m\", \"link down EIO\"]\n"
	    "[11.5, \"o\", \"c\"]\n"
	    "[12.5, \"m\", \"drop 12 e1\"]\n"
	    "[12.6, \"m\", \"round stop 1\"]\n"
	    "[12.7, \"m\", \"faulty words\"]\n"
	    "not json\n"
	    "[30.0, \"o\", \"Cambridge Center\"]\n", &rep, 9);
	assert_int_equal(count(&rep, VERIFY_GAP), 2);
	assert_int_equal(find(&rep, VERIFY_GAP)->line, 3);
	assert_int_equal(count(&rep, VERIFY_FAULT), 2);
	assert_int_equal(find(&rep, VERIFY_FAULT)->line, 4);
	assert_int_equal(count(&rep, VERIFY_ORDER), 1);
	assert_int_equal(find(&rep, VERIFY_ORDER)->line, 5);
	assert_int_equal(count(&rep, VERIFY_EVENT), 1);
	assert_int_equal(find(&rep, VERIFY_EVENT)->line, 9);
	assert_int_equal(count(&rep, VERIFY_FORBIDDEN), 1);
	assert_int_equal(rep.total, 7);
	verify_report_free(&rep);
}

static void
test_capture_and_transcript(void **state)
{
	struct verify_report	 rep;
	const char		*tx =
	    "This transcript is in the public domain\n"
	    "Eliza -\n"
	    "Start at: 2012/05/15 13:18:41\n"
	    "*** JUDGE03 ***\n"
	    "JUDGE03[13:18:41]Hellp\n"
	    "PROGRAM[13:18:44]Hi\n";
	const char		*cap = HEAD "[0.0, \"m\", \"judge 03\"]\n"
	    "[0.5, \"i\", \"Hello\\r\"]\n"
	    "[3.0, \"o\", \"Hi\\r\"]\n";

	(void)state;
	put("pair.txt", TX_OK);
	check("pair.cast", cap, &rep, 120);
	assert_non_null(rep.transcript);
	if (rep.total != 0)
		fail_msg("%s", rep.findings.item[0].msg);
	verify_report_free(&rep);

	put("pair.txt", tx);
	check("pair.cast", cap, &rep, 120);
	assert_int_equal(rep.total, 1);
	assert_int_equal(count(&rep, VERIFY_MISMATCH), 1);
	assert_int_equal(find(&rep, VERIFY_MISMATCH)->line, 5);
	assert_int_equal(find(&rep, VERIFY_MISMATCH)->offset,
	    strstr(tx, "JUDGE03[") - tx);
	verify_report_free(&rep);
}

/*
 * The gaps of a recording: a loss marker is a fault where it is, and
 * renders "*** LOST ... ***" after the unfinished lines; a crash
 * recovered is a note, and renders the judge's unfinished line, then
 * "*** CRASH ***"; the transcript with them verifies.
 */
static void
test_gap_markers(void **state)
{
	struct verify_report	 rep;
	const char		*tx =
	    "This transcript is in the public domain\n"
	    "Eliza -\n"
	    "Start at: 2012/05/15 13:18:41\n"
	    "*** JUDGE03 ***\n"
	    "JUDGE03[13:18:41]Hello\n"
	    "PROGRAM[13:18:44]Hi\n"
	    "JUDGE03[13:18:45]unfin\n"
	    "*** LOST JUDGE 3 BYTES PROGRAM 4 BYTES ***\n"
	    "PROGRAM[13:18:46]Back\n"
	    "JUDGE03[13:18:47]abc\n"
	    "*** CRASH ***\n";
	const char		*cap = HEAD "[0.0, \"m\", \"judge 03\"]\n"
	    "[0.5, \"i\", \"Hello\\r\"]\n"
	    "[3.0, \"o\", \"Hi\\r\"]\n"
	    "[4.0, \"i\", \"unfin\"]\n"
	    "[4.5, \"m\", \"loss input 3 output 4 markers 0 ENOSPC\"]\n"
	    "[5.0, \"o\", \"Back\\r\"]\n"
	    "[6.0, \"i\", \"abc\"]\n"
	    "[6.0, \"m\", \"crash trimmed 10 torn 0\"]\n";
	const struct finding	*f;

	(void)state;
	put("pair.txt", tx);
	check("pair.cast", cap, &rep, 120);
	assert_non_null(rep.transcript);
	assert_int_equal(count(&rep, VERIFY_MISMATCH), 0);
	assert_int_equal(count(&rep, VERIFY_FORMAT), 0);
	assert_int_equal(rep.total, 1);
	f = find(&rep, VERIFY_FAULT);
	assert_int_equal(f->line, 6);
	assert_non_null(strstr(f->msg, "recording fault"));
	assert_non_null(strstr(f->msg, "loss input 3 output 4"));
	assert_non_null(strstr(find(&rep, VERIFY_NOTE)->msg,
	    "a crash recovered at line 9"));
	verify_report_free(&rep);
}

static void
test_unreadable(void **state)
{
	struct verify_report	rep;
	struct verify_opts	o;
	struct cap_error	e;

	(void)state;
	verify_opts_init(&o);
	assert_int_equal(verify_report_init(&rep, "none"), 0);
	assert_int_equal(verify_capture("/nonexistent/x.cast", &o, &rep, &e),
	    CAP_OK);
	assert_int_equal(count(&rep, VERIFY_OPEN), 1);
	verify_report_free(&rep);
	check("bad.cast", "{\"version\": 1}\n", &rep, 120);
	assert_int_equal(count(&rep, VERIFY_HEADER), 1);
	verify_report_free(&rep);
}

/* Make the directory the captures are written in. */
static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_verify.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	return (mkdtemp(dir) == NULL ? -1 : 0);
}

/* Remove the directory and what is in it. */
static int
teardown(void **state)
{
	static const char	*names[] = { "clean.cast", "torn.cast",
				    "gaps.cast", "pair.cast", "pair.txt",
				    "bad.cast" };
	char			 path[128];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return (rmdir(dir));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transcript_text),
		cmocka_unit_test(test_forbidden_references),
		cmocka_unit_test(test_clean_capture),
		cmocka_unit_test(test_torn_capture),
		cmocka_unit_test(test_gaps_faults_order),
		cmocka_unit_test(test_capture_and_transcript),
		cmocka_unit_test(test_gap_markers),
		cmocka_unit_test(test_unreadable),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
