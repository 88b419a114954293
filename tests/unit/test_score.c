/*
 * Unit tests for the ballots and the scoring of the rule texts
 * (score/score-ballots.c, score.c), on worked cases built from the
 * texts: the 2004 matrix of paired comparisons with a silver medal, a tie
 * broken by total points and one left to the semi-final judging, and
 * ballots that break rule 15; the 2009 picks with a tie broken by the
 * mean rank; the 2003 means with the silver rule (equal placing
 * allowed) and rule 50's tie; the Long Now trial's two tests; CSV and
 * JSON read alike, bad values found by line.  The ballots checked
 * against the schedule (score/score-check.c): a duplicate, a ballot for
 * a pair that never met, a missing ballot, a rank given twice, a 2003
 * mean over fewer ratings, each found at its line and marked partial.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "score.h"

/* The 2004 matrix: judge j (1..4) compares entry e (1..4) with this. */
static const int matrix[4][4] = {
	{ 1, 2, 3, 4 }, { 4, 1, 2, 3 }, { 3, 4, 1, 2 }, { 2, 3, 4, 1 }
};

static void	read_text(const char *, struct score_ballots *);
static enum cap_err read_code(const char *, struct score_ballots *);
static void	score(enum score_rule, const char *, struct score_result *);
static const struct score_entity *entity(const struct score_result *,
		    const char *);
static char	*ballots_2004(const int [4][4]);
static void	check(enum score_rule, const char *, struct score_result *);
static int	found(const struct score_result *, unsigned long,
		    const char *);

/* Read ballots from text, through a file: what the reader returns. */
static enum cap_err
read_code(const char *text, struct score_ballots *bs)
{
	struct cap_error	 e;
	char			 path[] = "/tmp/test_score.XXXXXX";
	enum cap_err		 rc;
	int			 fd;

	assert_true((fd = mkstemp(path)) != -1);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	score_ballots_init(bs);
	rc = score_ballots_read(path, bs, &e);
	unlink(path);
	return (rc);
}

/* Read ballots from text, which must read as a ballots file. */
static void
read_text(const char *text, struct score_ballots *bs)
{
	assert_int_equal(read_code(text, bs), CAP_OK);
}

/* Score ballots given as text; no ballot may fail to read. */
static void
score(enum score_rule r, const char *text, struct score_result *res)
{
	struct score_ballots	bs;

	read_text(text, &bs);
	if (bs.findings.n > 0)
		fail_msg("line %lu: %s", bs.findings.item[0].line,
		    bs.findings.item[0].msg);
	score_run(r, &bs, res);
	score_ballots_free(&bs);
}

/* An entity of a result. */
static const struct score_entity *
entity(const struct score_result *res, const char *name)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (strcmp(res->e[i].name, name) == 0)
			return (&res->e[i]);
	fail_msg("no entity %s", name);
	return (NULL);
}

/*
 * The CSV of a 2004 Final Four: pts[j][e] the points judge j+1 gave
 * entry e+1 (its confederate the rest), pairs as the matrix has them.
 */
static char *
ballots_2004(const int pts[4][4])
{
	char	*s, *p;
	int	 j, e;

	assert_non_null(s = malloc(8192));
	p = s + sprintf(s, "judge,entity,kind,vs,points\n");
	for (j = 0; j < 4; j++)
		for (e = 0; e < 4; e++)
			p += sprintf(p, "J%d,E%d,entry,C%d,%d\n"
			    "J%d,C%d,confederate,E%d,%d\n", j + 1, e + 1,
			    matrix[j][e], pts[j][e], j + 1, matrix[j][e], e + 1,
			    100 - pts[j][e]);
	return (s);
}

/*
 * 2004: "E3 scored 51 or higher against C3" (J1) and against C2 (J2):
 * its column total is 2, the highest, and "2" or higher is the silver.
 */
static void
test_2004_silver(void **state)
{
	static const int	pts[4][4] = {
		{ 30, 40, 60, 20 }, { 10, 45, 55, 20 },
		{ 20, 30, 40, 52 }, { 25, 35, 45, 10 }
	};
	struct score_result	res;
	char			*csv = ballots_2004(pts);

	(void)state;
	score(SCORE_2004, csv, &res);
	assert_int_equal(res.findings.n, 0);
	assert_string_equal(res.winner, "E3");
	assert_string_equal(res.medal, "silver");
	assert_true(entity(&res, "E3")->score == 2);
	assert_true(entity(&res, "E4")->score == 1);
	assert_true(entity(&res, "E1")->score == 0);
	assert_int_equal(entity(&res, "E3")->nvalue, 4);
	assert_non_null(strstr(res.decided, "highest column total"));
	score_result_free(&res);
	free(csv);
}

/*
 * 2004: E1 and E4 each win one pair; the tie goes to the total points
 * they received (E1 51+49+49+49, E4 52+10+10+10); a tie there too goes
 * to the semi-final judging, which the ballots do not hold.
 */
static void
test_2004_ties(void **state)
{
	static const int	pts[4][4] = {
		{ 51, 40, 40, 52 }, { 49, 45, 45, 10 },
		{ 49, 30, 40, 10 }, { 49, 35, 45, 10 }
	};
	static const int	even[4][4] = {
		{ 51, 40, 40, 51 }, { 49, 45, 45, 49 },
		{ 49, 30, 40, 49 }, { 49, 35, 45, 49 }
	};
	struct score_result	res;
	char			*csv;

	(void)state;
	csv = ballots_2004(pts);
	score(SCORE_2004, csv, &res);
	assert_string_equal(res.winner, "E1");
	assert_string_equal(res.medal, "bronze");
	assert_true(entity(&res, "E1")->tiebreak == 198);
	assert_non_null(strstr(res.decided, "total points"));
	score_result_free(&res);
	free(csv);
	csv = ballots_2004(even);
	score(SCORE_2004, csv, &res);
	assert_string_equal(res.winner, "");
	assert_non_null(strstr(res.decided, "semi-final judging"));
	assert_non_null(strstr(res.decided, " E1"));
	assert_non_null(strstr(res.decided, " E4"));
	score_result_free(&res);
	free(csv);
}

/* 2004 rule 15: 100 points, no tie; each fault found at its line. */
static void
test_2004_rule15(void **state)
{
	struct score_ballots	bs;
	struct score_result	res;

	(void)state;
	read_text("judge,entity,kind,vs,points\n"
	    "J1,E1,entry,C1,60\n"
	    "J1,C1,confederate,E1,30\n"
	    "J2,E2,entry,C2,50\n"
	    "J2,C2,confederate,E2,50\n"
	    "J3,E3,entry,C3,51\n"
	    "J3,C3,confederate,E3,49\n"
	    "J4,E4,entry,C4,101\n", &bs);
	assert_int_equal(bs.findings.n, 1);
	assert_int_equal(bs.findings.item[0].line, 8);
	assert_non_null(strstr(bs.findings.item[0].msg, "points 101"));
	score_run(SCORE_2004, &bs, &res);
	assert_int_equal(res.findings.n, 4);
	assert_int_equal(res.findings.item[0].line, 2);
	assert_non_null(strstr(res.findings.item[0].msg, "do not make 100"));
	assert_int_equal(res.findings.item[2].line, 4);
	assert_non_null(strstr(res.findings.item[2].msg, "ties are forbidden"));
	assert_string_equal(res.winner, "E3");
	score_result_free(&res);
	score_ballots_free(&bs);
}

/*
 * 2009: E1 and E2 each picked as the human once; the judges who took E1
 * for the machine ranked it 4 and 2 (mean 3), E2 3, 3 and 2 (2.67): E1.
 */
static void
test_2009_tie_by_rank(void **state)
{
	struct score_result	res;

	(void)state;
	score(SCORE_2009, "[\n"
	    "{\"judge\": \"J1\", \"entity\": \"E1\", \"kind\": \"entry\", "
	    "\"vs\": \"C1\", \"human\": \"yes\"},\n"
	    "{\"judge\": \"J1\", \"entity\": \"C1\", \"kind\": \"confederate\", "
	    "\"vs\": \"E1\", \"human\": \"no\", \"rank\": 4},\n"
	    "{\"judge\": \"J2\", \"entity\": \"E1\", \"kind\": \"entry\", "
	    "\"vs\": \"C2\", \"human\": false, \"rank\": 4},\n"
	    "{\"judge\": \"J3\", \"entity\": \"E1\", \"kind\": \"entry\", "
	    "\"vs\": \"C3\", \"human\": \"no\", \"rank\": 2},\n"
	    "{\"judge\": \"J1\", \"entity\": \"E2\", \"kind\": \"entry\", "
	    "\"vs\": \"C2\", \"human\": \"no\", \"rank\": 3},\n"
	    "{\"judge\": \"J2\", \"entity\": \"E2\", \"kind\": \"entry\", "
	    "\"vs\": \"C1\", \"human\": \"yes\"},\n"
	    "{\"judge\": \"J3\", \"entity\": \"E2\", \"kind\": \"entry\", "
	    "\"vs\": \"C4\", \"human\": \"no\", \"rank\": 3},\n"
	    "{\"judge\": \"J4\", \"entity\": \"E2\", \"kind\": \"entry\", "
	    "\"vs\": \"C3\", \"human\": \"no\", \"rank\": 2}\n"
	    "]\n", &res);
	assert_string_equal(res.winner, "E1");
	assert_string_equal(res.medal, "bronze");
	assert_true(entity(&res, "E1")->score == 1);
	assert_true(entity(&res, "E2")->score == 1);
	assert_true(entity(&res, "E1")->tiebreak == 3);
	assert_true(fabs(entity(&res, "E2")->tiebreak - 8.0 / 3) < 1e-9);
	assert_int_equal(res.findings.n, 0);
	assert_non_null(strstr(res.decided, "mean rank"));
	score_result_free(&res);
}

/*
 * 2003: the means rank them; no confederate above the winning entry is
 * the silver, equal placing allowed; one above it, the bronze; a tie for
 * first goes to the judges (rule 50).
 */
static void
test_2003(void **state)
{
	struct score_result	res;

	(void)state;
	score(SCORE_2003, "judge,entity,kind,rating\n"
	    "J1,E1,entry,3.5\nJ2,E1,entry,3.5\n"
	    "J1,E2,entry,2\nJ2,E2,entry,1.25\n"
	    "J1,C1,confederate,3\nJ2,C1,confederate,4\n", &res);
	assert_string_equal(res.winner, "E1");
	assert_string_equal(res.medal, "silver");
	assert_true(entity(&res, "E2")->score == 1.625);
	score_result_free(&res);
	score(SCORE_2003, "judge,entity,kind,rating\n"
	    "J1,E1,entry,3.5\nJ2,E1,entry,3.5\n"
	    "J1,C1,confederate,3.6\nJ2,C1,confederate,3.5\n", &res);
	assert_string_equal(res.winner, "E1");
	assert_string_equal(res.medal, "bronze");
	assert_non_null(strstr(res.decided, "rule 48"));
	score_result_free(&res);
	score(SCORE_2003, "judge,entity,kind,rating\n"
	    "J1,E1,entry,2\nJ1,E2,entry,2\n", &res);
	assert_string_equal(res.winner, "");
	assert_non_null(strstr(res.decided, "rule 50"));
	score_result_free(&res);
}

/*
 * Long Now: the computer taken for human by J1 and J2 (two of three):
 * the Human Determination Test; its ranks 4, 3, 2 (median 3) at least
 * the medians of two foils (2 and 1): the Rank Order Test.  In trial 2
 * one judge is fooled: not passed.
 */
static void
test_longnow(void **state)
{
	struct score_result	res;
	const char		*t1 =
	    "1,J1,K,computer,yes,4\n1,J2,K,computer,yes,3\n"
	    "1,J3,K,computer,no,2\n"
	    "1,J1,F1,foil,yes,3\n1,J2,F1,foil,yes,4\n1,J3,F1,foil,yes,4\n"
	    "1,J1,F2,foil,no,2\n1,J2,F2,foil,yes,2\n1,J3,F2,foil,yes,3\n"
	    "1,J1,F3,foil,yes,1\n1,J2,F3,foil,no,1\n1,J3,F3,foil,yes,1\n";
	const char		*t2 =
	    "2,J1,K,computer,yes,4\n2,J2,K,computer,no,3\n"
	    "2,J3,K,computer,no,2\n"
	    "2,J1,F1,foil,yes,3\n2,J2,F1,foil,yes,4\n2,J3,F1,foil,yes,4\n"
	    "2,J1,F2,foil,no,2\n2,J2,F2,foil,yes,2\n2,J3,F2,foil,yes,3\n"
	    "2,J1,F3,foil,yes,1\n2,J2,F3,foil,no,1\n2,J3,F3,foil,yes,1\n";
	char			 csv[4096];

	(void)state;
	snprintf(csv, sizeof(csv), "round,judge,entity,kind,human,rank\n%s%s",
	    t1, t2);
	score(SCORE_LONGNOW, csv, &res);
	assert_int_equal(res.findings.n, 0);
	assert_int_equal(res.ntrial, 2);
	assert_int_equal(res.trial[0].round, 1);
	assert_string_equal(res.trial[0].computer, "K");
	assert_int_equal(res.trial[0].fooled, 2);
	assert_true(res.trial[0].computer_median == 3);
	assert_int_equal(res.trial[0].beaten, 2);
	assert_true(res.trial[0].determination);
	assert_true(res.trial[0].rank_order);
	assert_true(res.trial[0].passed);
	assert_int_equal(res.trial[1].fooled, 1);
	assert_false(res.trial[1].determination);
	assert_true(res.trial[1].rank_order);
	assert_false(res.trial[1].passed);
	assert_int_equal(res.passed, 1);
	score_result_free(&res);
}

/* Bad ballots: each found with its line, the rest read. */
static void
test_bad_ballots(void **state)
{
	struct score_ballots	bs;

	(void)state;
	read_text("judge,entity,kind,rating,rank\n"
	    "J1,E1,entry,3,2\n"
	    "J1,E2,robot,3,2\n"
	    "J1,E3,entry,6,2\n"
	    "J1,E4,entry,3,5\n"
	    "J1,E5,entry,3\n"
	    ",E6,entry,3,1\n"
	    "J2,E1,entry,x,1\n", &bs);
	assert_int_equal(bs.n, 1);
	assert_int_equal(bs.findings.n, 6);
	assert_int_equal(bs.findings.item[0].line, 3);
	assert_non_null(strstr(bs.findings.item[0].msg, "kind \"robot\""));
	assert_int_equal(bs.findings.item[1].line, 4);
	assert_int_equal(bs.findings.item[2].line, 5);
	assert_int_equal(bs.findings.item[3].line, 6);
	assert_non_null(strstr(bs.findings.item[3].msg, "4 fields"));
	assert_int_equal(bs.findings.item[5].line, 8);
	score_ballots_free(&bs);
	assert_int_equal(read_code("judge,entity,colour\nJ1,E1,red\n", &bs),
	    CAP_ESYNTAX);
	assert_int_equal(bs.findings.n, 1);
	assert_non_null(strstr(bs.findings.item[0].msg, "column \"colour\""));
	score_ballots_free(&bs);
}

/* Score ballots given as text that read whole, errors and all. */
static void
check(enum score_rule r, const char *text, struct score_result *res)
{
	struct score_ballots	bs;

	read_text(text, &bs);
	assert_int_equal(bs.findings.n, 0);
	score_run(r, &bs, res);
	score_ballots_free(&bs);
}

/* Whether a result has a finding at a line that says what. */
static int
found(const struct score_result *res, unsigned long line, const char *what)
{
	size_t	i;

	for (i = 0; i < res->findings.n; i++)
		if (res->findings.item[i].line == line &&
		    strstr(res->findings.item[i].msg, what) != NULL)
			return (1);
	return (0);
}

/* Judges are compared by number: "J1", "j01", "01" and "1" are one. */
static void
test_judge_same(void **state)
{
	(void)state;
	assert_true(score_judge_same("J1", "01"));
	assert_true(score_judge_same("j01", "1"));
	assert_true(score_judge_same("07", "J7"));
	assert_true(score_judge_same("Ann", "Ann"));
	assert_false(score_judge_same("J1", "J10"));
	assert_false(score_judge_same("J1", "Ann"));
	assert_false(score_judge_same("J", "0"));
}

/*
 * 2004, a judge's pair given twice: copies that agree leave the first
 * scored (E1 wins one pair, not two: bronze, not silver); copies that
 * differ leave neither, and are told as duplicates, not as a pair that
 * does not make 100 with the wrong half.
 */
static void
test_duplicate_2004(void **state)
{
	struct score_result	res;

	(void)state;
	check(SCORE_2004, "round,judge,entity,kind,vs,points\n"
	    "1,J1,E1,entry,C1,60\n1,J1,C1,confederate,E1,40\n"
	    "1,J1,E1,entry,C1,60\n1,J1,C1,confederate,E1,40\n"
	    "1,J2,E2,entry,C2,45\n1,J2,C2,confederate,E2,55\n", &res);
	assert_int_equal(res.findings.n, 2);
	assert_true(found(&res, 4, "judge J1's ballot on E1 again (first at "
	    "line 2): the first is scored"));
	assert_true(found(&res, 5, "on C1 again (first at line 3)"));
	assert_string_equal(res.winner, "E1");
	assert_string_equal(res.medal, "bronze");
	assert_true(entity(&res, "E1")->score == 1);
	assert_int_equal(entity(&res, "E1")->nballot, 1);
	assert_true(entity(&res, "E1")->partial);
	assert_false(entity(&res, "E2")->partial);
	score_result_free(&res);
	check(SCORE_2004, "round,judge,entity,kind,vs,points\n"
	    "1,J1,E1,entry,C1,60\n1,J1,C1,confederate,E1,40\n"
	    "1,J1,E1,entry,C1,55\n1,J1,C1,confederate,E1,45\n"
	    "1,J2,E2,entry,C2,45\n1,J2,C2,confederate,E2,55\n", &res);
	assert_int_equal(res.findings.n, 2);
	assert_true(found(&res, 4, "saying otherwise: neither is scored"));
	assert_true(found(&res, 5, "saying otherwise: neither is scored"));
	assert_false(found(&res, 4, "make 100"));
	assert_int_equal(entity(&res, "E1")->nballot, 0);
	assert_string_equal(res.winner, "E2");
	score_result_free(&res);
}

/*
 * The ballots file's pairs: a ballot for a pair not in them is told at
 * its line and left out with the other of its pair; a missing ballot is
 * told at the line of the other's ballot, or of the pair when neither is
 * there.
 */
static void
test_schedule_pairs(void **state)
{
	struct score_result	res;

	(void)state;
	check(SCORE_2004, "pair,1,J1,E1,C1\n"
	    "pair,1,J2,E2,C2\n"
	    "pair,2,J1,E2,C1\n"
	    "round,judge,entity,kind,vs,points\n"
	    "1,J1,E1,entry,C1,60\n1,J1,C1,confederate,E1,40\n"
	    "1,J2,E2,entry,C2,70\n"
	    "2,J2,E1,entry,C2,80\n2,J2,C2,confederate,E1,20\n", &res);
	assert_true(found(&res, 7, "no ballot of judge J2 on C2, met with "
	    "E2 (the schedule), whose ballot is on this line"));
	assert_true(found(&res, 3, "round 2: no ballot of judge J1 on E2, "
	    "met with C1"));
	assert_true(found(&res, 3, "round 2: no ballot of judge J1 on C1, "
	    "met with E2"));
	assert_true(found(&res, 8, "round 2: judge J2 never met E1 and C2"));
	assert_true(found(&res, 9, "round 2: judge J2 never met C2 and E1"));
	assert_int_equal(res.findings.n, 5);
	assert_string_equal(res.winner, "E1");
	assert_int_equal(entity(&res, "E2")->nballot, 0);
	assert_true(entity(&res, "E2")->partial);
	assert_int_equal(entity(&res, "E1")->nballot, 1);
	assert_true(entity(&res, "E1")->partial);
	score_result_free(&res);
	/* The same pairs as JSON, in an object with the ballots. */
	check(SCORE_2004, "{\"pairs\": [{\"round\": 1, \"judge\": \"J1\", "
	    "\"entity\": \"E1\", \"vs\": \"C1\"}], \"ballots\": ["
	    "{\"round\": 1, \"judge\": \"01\", \"entity\": \"E1\", "
	    "\"kind\": \"entry\", \"vs\": \"C1\", \"points\": 60}]}",
	    &res);
	assert_int_equal(res.findings.n, 1);
	assert_true(found(&res, 1, "no ballot of judge J1 on C1, met with "
	    "E1"));
	score_result_free(&res);
}

/* A pair line that does not read is told at its line. */
static void
test_schedule_bad_pair(void **state)
{
	struct score_ballots	bs;

	(void)state;
	read_text("pair,x,J1,E1,C1\njudge,entity,rating\nJ1,E1,3\n"
	    "pair,1,J1\n", &bs);
	assert_int_equal(bs.findings.n, 2);
	assert_int_equal(bs.findings.item[0].line, 1);
	assert_int_equal(bs.findings.item[1].line, 4);
	assert_non_null(strstr(bs.findings.item[0].msg,
	    "pair,ROUND,JUDGE,ENTITY,VS"));
	assert_int_equal(bs.n, 1);
	score_ballots_free(&bs);
}

/*
 * With no schedule, the pairs the ballots name: a 2003 rating whose
 * pair's other has none from that judge is a missing ballot.
 */
static void
test_schedule_named(void **state)
{
	struct score_result	res;

	(void)state;
	check(SCORE_2003, "round,judge,entity,kind,vs,rating\n"
	    "1,J1,E1,entry,C1,4\n1,J1,C1,confederate,E1,3\n"
	    "1,J2,E1,entry,C1,4\n", &res);
	assert_true(found(&res, 4, "round 1: no ballot of judge J2 on C1, "
	    "met with E1, whose ballot is on this line"));
	assert_true(entity(&res, "C1")->partial);
	score_result_free(&res);
}

/*
 * 2003: an entry rated by one judge of two must not win on its mean
 * silently: told, and marked partial.
 */
static void
test_2003_fewer(void **state)
{
	struct score_result	res;

	(void)state;
	check(SCORE_2003, "judge,entity,kind,rating\n"
	    "J1,E1,entry,3\nJ2,E1,entry,3\n"
	    "J1,C1,confederate,3.5\nJ2,C1,confederate,2\n"
	    "J1,E2,entry,4.5\n", &res);
	assert_int_equal(res.findings.n, 1);
	assert_true(found(&res, 6, "E2 is rated by 1 judge, others by 2: its "
	    "mean is over fewer ratings"));
	assert_true(entity(&res, "E2")->partial);
	assert_false(entity(&res, "E1")->partial);
	score_result_free(&res);
}

/*
 * A rank given twice: in a Long Now trial by one judge; in 2009 by one
 * judge over the contest.  The same rank in another trial, or from
 * another judge, is no fault.
 */
static void
test_rank_twice(void **state)
{
	struct score_result	res;

	(void)state;
	check(SCORE_LONGNOW, "round,judge,entity,kind,human,rank\n"
	    "1,J1,K,computer,yes,4\n1,J1,F1,foil,yes,3\n"
	    "1,J1,F2,foil,no,3\n1,J1,F3,foil,yes,1\n"
	    "2,J1,K,computer,yes,3\n1,J2,K,computer,yes,3\n", &res);
	assert_true(found(&res, 4, "round 1: judge J1 ranks both F1 (line 3) "
	    "and F2 3: a place is given once"));
	assert_false(found(&res, 6, "ranks both"));
	assert_false(found(&res, 7, "ranks both"));
	assert_true(entity(&res, "F2")->partial);
	score_result_free(&res);
	check(SCORE_2009, "round,judge,entity,kind,vs,human,rank\n"
	    "1,J1,E1,entry,C1,no,2\n1,J1,C1,confederate,E1,yes,\n"
	    "2,J1,E2,entry,C2,no,2\n2,J1,C2,confederate,E2,yes,\n", &res);
	assert_true(found(&res, 4, "judge J1 ranks both E1 (line 2) and E2 2"));
	score_result_free(&res);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_2004_silver),
		cmocka_unit_test(test_2004_ties),
		cmocka_unit_test(test_2004_rule15),
		cmocka_unit_test(test_2009_tie_by_rank),
		cmocka_unit_test(test_2003),
		cmocka_unit_test(test_longnow),
		cmocka_unit_test(test_bad_ballots),
		cmocka_unit_test(test_judge_same),
		cmocka_unit_test(test_duplicate_2004),
		cmocka_unit_test(test_schedule_pairs),
		cmocka_unit_test(test_schedule_bad_pair),
		cmocka_unit_test(test_schedule_named),
		cmocka_unit_test(test_2003_fewer),
		cmocka_unit_test(test_rank_twice),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
