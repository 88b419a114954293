/*
 * Unit tests for the built-in schedules (conf/schedule.c).
 *
 * The loebner2004 preset is checked twice: against the table and matrix
 * as printed in the 2004 rules, and against the properties the rules say
 * the design has (each entry compared with every confederate, each judge
 * sees every entry and every confederate, excused people are exactly
 * those not taking part).
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

#define N	4	/* judges, entries and confederates in 2004 */

static const struct schedule_round *preset(size_t *);
static void	 format_round(const struct schedule_round *, char *, size_t);

/* Fetch the 2004 preset, failing the test when it is missing. */
static const struct schedule_round *
preset(size_t *nrounds)
{
	const struct schedule_round	*r;

	r = schedule_preset("loebner2004", nrounds);
	if (r == NULL)
		fail_msg("schedule_preset(\"loebner2004\") returned NULL");
	return (r);
}

/* Write a round the way the rules print it: "1 J1E1C1 ... | J4 C3". */
static void
format_round(const struct schedule_round *r, char *buf, size_t len)
{
	size_t	i, off;

	off = (size_t)snprintf(buf, len, "%d", r->number);
	for (i = 0; i < r->nparts && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " J%dE%dC%d",
		    r->parts[i].judge, r->parts[i].entry,
		    r->parts[i].confederate);
	if (off < len)
		snprintf(buf + off, len - off, " | %s",
		    r->excused != NULL ? r->excused : "(null)");
}

static void
test_rounds_match_the_printed_2004_table(void **state)
{
	static const char *printed[] = {
		"1 J1E1C1 J2E3C2 J3E2C4 | J4 C3",
		"2 J4E1C2 J3E3C1 J2E4C3 | J1 C4",
		"3 J3E1C3 J4E3C4 J1E2C2 | J2 C1",
		"4 J2E1C4 J3E4C2 J4E2C3 | J1 C1",
		"5 J2E2C1 J1E3C3 | J3 J4 C2 C4",
		"6 J1E4C4 | J2 J3 J4 C1 C2 C3",
		"7 J4E4C1 | J1 J2 J3 C2 C3 C4",
	};
	const struct schedule_round	*r;
	size_t				 n, i;
	char				 buf[256];

	(void)state;
	r = preset(&n);
	assert_int_equal(n, 7);
	for (i = 0; i < n; i++) {
		format_round(&r[i], buf, sizeof(buf));
		if (strcmp(buf, printed[i]) != 0)
			fail_msg("round %zu\n  expected: %s\n       got: %s",
			    i + 1, printed[i], buf);
	}
}

static void
test_matrix_matches_the_printed_2004_matrix(void **state)
{
	static const int printed[N][N] = {
		{ 1, 2, 3, 4 },		/* J1: E1..E4 against C1 C2 C3 C4 */
		{ 4, 1, 2, 3 },
		{ 3, 4, 1, 2 },
		{ 2, 3, 4, 1 },
	};
	int	j, e;

	(void)state;
	for (j = 1; j <= N; j++)
		for (e = 1; e <= N; e++)
			if (schedule_matrix("loebner2004", j, e) !=
			    printed[j - 1][e - 1])
				fail_msg("matrix J%dE%d: expected C%d, got %d",
				    j, e, printed[j - 1][e - 1],
				    schedule_matrix("loebner2004", j, e));
}

static void
test_rounds_are_numbered_one_to_seven(void **state)
{
	const struct schedule_round	*r;
	size_t				 n, i;

	(void)state;
	r = preset(&n);
	for (i = 0; i < n; i++)
		assert_int_equal(r[i].number, (int)i + 1);
}

static void
test_each_cell_once_with_the_matrix_confederate(void **state)
{
	const struct schedule_round	*r;
	size_t				 n, i, k, total = 0;
	int				 seen[N + 1][N + 1];
	int				 j, e, c;

	(void)state;
	memset(seen, 0, sizeof(seen));
	r = preset(&n);
	for (i = 0; i < n; i++) {
		assert_true(r[i].nparts >= 1 && r[i].nparts <= N);
		for (k = 0; k < r[i].nparts; k++) {
			j = r[i].parts[k].judge;
			e = r[i].parts[k].entry;
			c = r[i].parts[k].confederate;
			assert_in_range(j, 1, N);
			assert_in_range(e, 1, N);
			assert_in_range(c, 1, N);
			seen[j][e]++;
			if (c != schedule_matrix("loebner2004", j, e))
				fail_msg("round %d: J%dE%d with C%d, the "
				    "matrix says C%d", r[i].number, j, e, c,
				    schedule_matrix("loebner2004", j, e));
			total++;
		}
	}
	assert_int_equal(total, N * N);
	for (j = 1; j <= N; j++)
		for (e = 1; e <= N; e++)
			if (seen[j][e] != 1)
				fail_msg("cell J%dE%d scheduled %d times", j, e,
				    seen[j][e]);
}

static void
test_every_entry_meets_every_confederate_once(void **state)
{
	const struct schedule_round	*r;
	size_t				 n, i, k;
	int				 met[N + 1][N + 1];
	int				 e, c;

	(void)state;
	memset(met, 0, sizeof(met));
	r = preset(&n);
	for (i = 0; i < n; i++)
		for (k = 0; k < r[i].nparts; k++)
			met[r[i].parts[k].entry][r[i].parts[k].confederate]++;
	for (e = 1; e <= N; e++)
		for (c = 1; c <= N; c++)
			if (met[e][c] != 1)
				fail_msg("E%d meets C%d %d times", e, c,
				    met[e][c]);
}

static void
test_every_judge_sees_every_entry_and_confederate(void **state)
{
	const struct schedule_round	*r;
	size_t				 n, i, k;
	int				 je[N + 1][N + 1], jc[N + 1][N + 1];
	int				 j, x;

	(void)state;
	memset(je, 0, sizeof(je));
	memset(jc, 0, sizeof(jc));
	r = preset(&n);
	for (i = 0; i < n; i++)
		for (k = 0; k < r[i].nparts; k++) {
			j = r[i].parts[k].judge;
			je[j][r[i].parts[k].entry]++;
			jc[j][r[i].parts[k].confederate]++;
		}
	for (j = 1; j <= N; j++)
		for (x = 1; x <= N; x++) {
			if (je[j][x] != 1)
				fail_msg("J%d sees E%d %d times", j, x,
				    je[j][x]);
			if (jc[j][x] != 1)
				fail_msg("J%d sees C%d %d times", j, x,
				    jc[j][x]);
		}
}

static void
test_nobody_in_two_places_in_one_round(void **state)
{
	const struct schedule_round	*r;
	size_t				 n, i, k;
	int				 js[N + 1], es[N + 1], cs[N + 1];

	(void)state;
	r = preset(&n);
	for (i = 0; i < n; i++) {
		memset(js, 0, sizeof(js));
		memset(es, 0, sizeof(es));
		memset(cs, 0, sizeof(cs));
		for (k = 0; k < r[i].nparts; k++) {
			if (js[r[i].parts[k].judge]++)
				fail_msg("round %d: J%d twice", r[i].number,
				    r[i].parts[k].judge);
			if (es[r[i].parts[k].entry]++)
				fail_msg("round %d: E%d twice", r[i].number,
				    r[i].parts[k].entry);
			if (cs[r[i].parts[k].confederate]++)
				fail_msg("round %d: C%d twice", r[i].number,
				    r[i].parts[k].confederate);
		}
	}
}

static void
test_excused_are_exactly_those_not_taking_part(void **state)
{
	const struct schedule_round	*r;
	size_t				 n, i, k;
	int				 inj[N + 1], inc[N + 1];
	int				 exj[N + 1], exc[N + 1];
	int				 x, num, used;
	const char			*p;

	(void)state;
	r = preset(&n);
	for (i = 0; i < n; i++) {
		memset(inj, 0, sizeof(inj));
		memset(inc, 0, sizeof(inc));
		memset(exj, 0, sizeof(exj));
		memset(exc, 0, sizeof(exc));
		for (k = 0; k < r[i].nparts; k++) {
			inj[r[i].parts[k].judge] = 1;
			inc[r[i].parts[k].confederate] = 1;
		}
		assert_non_null(r[i].excused);
		/* The printed text: "Jn" and "Cn" words, judges first. */
		for (p = r[i].excused; *p != '\0'; p += used) {
			if (*p == ' ') {
				used = 1;
				continue;
			}
			if (sscanf(p + 1, "%d%n", &num, &used) != 1 ||
			    (p[0] != 'J' && p[0] != 'C') ||
			    num < 1 || num > N)
				fail_msg("round %d: bad excused text '%s'",
				    r[i].number, r[i].excused);
			if (p[0] == 'J' && exj[num]++)
				fail_msg("round %d: J%d excused twice",
				    r[i].number, num);
			if (p[0] == 'C' && exc[num]++)
				fail_msg("round %d: C%d excused twice",
				    r[i].number, num);
			used++;
		}
		for (x = 1; x <= N; x++) {
			if (inj[x] == exj[x])
				fail_msg("round %d: J%d %s", r[i].number, x,
				    inj[x] ? "takes part and is excused" :
				    "neither takes part nor is excused");
			if (inc[x] == exc[x])
				fail_msg("round %d: C%d %s", r[i].number, x,
				    inc[x] ? "takes part and is excused" :
				    "neither takes part nor is excused");
		}
	}
}

static void
test_matrix_is_a_latin_square(void **state)
{
	int	row[N + 1], col[N + 1];
	int	j, e, c;

	(void)state;
	for (j = 1; j <= N; j++) {
		memset(row, 0, sizeof(row));
		memset(col, 0, sizeof(col));
		for (e = 1; e <= N; e++) {
			c = schedule_matrix("loebner2004", j, e);
			assert_in_range(c, 1, N);
			if (row[c]++)
				fail_msg("row J%d has C%d twice", j, c);
			/* Transposed: column E(j) down the judges. */
			c = schedule_matrix("loebner2004", e, j);
			assert_in_range(c, 1, N);
			if (col[c]++)
				fail_msg("column E%d has C%d twice", j, c);
		}
	}
}

static void
test_matrix_out_of_range_or_unknown_preset_is_zero(void **state)
{
	(void)state;
	assert_int_equal(schedule_matrix("loebner2004", 0, 1), 0);
	assert_int_equal(schedule_matrix("loebner2004", 1, 0), 0);
	assert_int_equal(schedule_matrix("loebner2004", 5, 1), 0);
	assert_int_equal(schedule_matrix("loebner2004", 1, 5), 0);
	assert_int_equal(schedule_matrix("loebner2004", -1, -1), 0);
	assert_int_equal(schedule_matrix("loebner2005", 1, 1), 0);
	assert_int_equal(schedule_matrix(NULL, 1, 1), 0);
}

static void
test_unknown_preset_is_null_with_zero_rounds(void **state)
{
	size_t	n = 99;

	(void)state;
	assert_null(schedule_preset("nonesuch", &n));
	assert_int_equal(n, 0);
	assert_null(schedule_preset("", NULL));
	assert_null(schedule_preset("Loebner2004", NULL));
	assert_non_null(schedule_preset("loebner2004", NULL));
}

static void
test_preset_names_all_resolve(void **state)
{
	const char	*names;
	char		*copy, *p, *name;
	size_t		 n;
	int		 count = 0;

	(void)state;
	names = schedule_preset_names();
	assert_non_null(names);
	assert_non_null(strstr(names, "loebner2004"));
	assert_non_null(copy = strdup(names));
	p = copy;
	while ((name = strsep(&p, ", ")) != NULL) {
		if (*name == '\0')
			continue;
		if (schedule_preset(name, &n) == NULL || n == 0)
			fail_msg("listed preset '%s' does not resolve", name);
		count++;
	}
	free(copy);
	assert_true(count >= 1);
}

/*
 * The Long Now preset: four rounds, each of the three judges interviews
 * one candidate a round (the other label 0), every candidate once; the
 * candidate excused is the one no judge has.
 */
static void
test_longnow_each_judge_meets_each_candidate_once(void **state)
{
	static const char		*labels[4] = { "E1", "C1", "C2", "C3" };
	const struct schedule_round	*r;
	size_t				 n, i, j;
	int				 met[3][4], busy[4], k;

	(void)state;
	r = schedule_preset("longnow", &n);
	assert_non_null(r);
	assert_int_equal(n, 4);
	assert_int_equal(schedule_preset_duration("longnow"), 7200);
	assert_int_equal(schedule_matrix("longnow", 1, 1), 0);
	memset(met, 0, sizeof(met));
	for (i = 0; i < n; i++) {
		assert_int_equal(r[i].number, (int)i + 1);
		assert_int_equal(r[i].nparts, 3);
		memset(busy, 0, sizeof(busy));
		for (j = 0; j < r[i].nparts; j++) {
			assert_true((r[i].parts[j].entry == 0) !=
			    (r[i].parts[j].confederate == 0));
			k = r[i].parts[j].entry != 0 ? 0 :
			    r[i].parts[j].confederate;
			assert_int_equal(busy[k]++, 0);
			met[r[i].parts[j].judge - 1][k]++;
		}
		for (k = 0; k < 4 && busy[k]; k++)
			;
		assert_true(k < 4);
		assert_string_equal(r[i].excused, labels[k]);
	}
	for (i = 0; i < 3; i++)
		for (k = 0; k < 4; k++)
			assert_int_equal(met[i][k], 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds_match_the_printed_2004_table),
		cmocka_unit_test(test_matrix_matches_the_printed_2004_matrix),
		cmocka_unit_test(test_rounds_are_numbered_one_to_seven),
		cmocka_unit_test(
		    test_each_cell_once_with_the_matrix_confederate),
		cmocka_unit_test(test_every_entry_meets_every_confederate_once),
		cmocka_unit_test(
		    test_every_judge_sees_every_entry_and_confederate),
		cmocka_unit_test(test_nobody_in_two_places_in_one_round),
		cmocka_unit_test(
		    test_excused_are_exactly_those_not_taking_part),
		cmocka_unit_test(test_matrix_is_a_latin_square),
		cmocka_unit_test(
		    test_longnow_each_judge_meets_each_candidate_once),
		cmocka_unit_test(
		    test_matrix_out_of_range_or_unknown_preset_is_zero),
		cmocka_unit_test(test_unknown_preset_is_null_with_zero_rounds),
		cmocka_unit_test(test_preset_names_all_resolve),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
