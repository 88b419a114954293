/*
 * Built-in contest schedules.
 *
 * A preset is static data copied from the rules that define it, with the
 * labels the rules use: judges J1..Jn, entries E1..En, confederates
 * C1..Cn, all 1-based.  conf.c maps the labels onto the stations and
 * entities of a room (Jn is the n-th station in the configuration, En the
 * n-th entity of kind entry, Cn the n-th confederate).
 *
 * loebner2004: the 2004 Loebner Prize rules, Final Four.  Each of the
 * four judges compares every entry with a confederate; the confederate
 * for a (judge, entry) cell comes from the paired-comparison matrix, and
 * the sixteen cells are spread over seven rounds exactly as the table in
 * the rules prints them, excused judges and confederates included.
 *
 * longnow: the session of the Kurzweil-Kapor "Long Now" wager.  Three
 * judges interview each of the four candidates, the computer (E1) and
 * the three human foils (C1..C3), two hours each: four rounds in which
 * each judge interviews one candidate, on the left terminal, and the
 * candidate no judge has is excused.  A part with one candidate has 0
 * for the other.  The wager leaves the order to its committee; this one
 * is a cyclic Latin square: judge j has candidate j + r - 1 (mod 4) of
 * E1 C1 C2 C3 in round r.
 */
#include <stddef.h>
#include <string.h>

#include "conf.h"

#define SCHEDULE_MAXN	4

struct schedule_preset {
	const char			*name;
	int				 n;	/* judges = entries = confeds */
	const int			(*matrix)[SCHEDULE_MAXN];
	const struct schedule_round	*rounds;
	size_t				 nrounds;
	int				 duration;	/* default, s */
};

/* Rows are judges J1..J4, columns entries E1..E4, cells confederates. */
static const int schedule_loebner2004_matrix[4][SCHEDULE_MAXN] = {
	{ 1, 2, 3, 4 },
	{ 4, 1, 2, 3 },
	{ 3, 4, 1, 2 },
	{ 2, 3, 4, 1 },
};

/* The seven rounds, as printed: triples are { judge, entry, confederate }. */
static const struct schedule_round schedule_loebner2004_rounds[] = {
	{ 1, { { 1, 1, 1 }, { 2, 3, 2 }, { 3, 2, 4 } }, 3, "J4 C3" },
	{ 2, { { 4, 1, 2 }, { 3, 3, 1 }, { 2, 4, 3 } }, 3, "J1 C4" },
	{ 3, { { 3, 1, 3 }, { 4, 3, 4 }, { 1, 2, 2 } }, 3, "J2 C1" },
	{ 4, { { 2, 1, 4 }, { 3, 4, 2 }, { 4, 2, 3 } }, 3, "J1 C1" },
	{ 5, { { 2, 2, 1 }, { 1, 3, 3 } }, 2, "J3 J4 C2 C4" },
	{ 6, { { 1, 4, 4 } }, 1, "J2 J3 J4 C1 C2 C3" },
	{ 7, { { 4, 4, 1 } }, 1, "J1 J2 J3 C2 C3 C4" },
};

/* The four two-hour rounds: { judge, entry, confederate }, 0: none. */
static const struct schedule_round schedule_longnow_rounds[] = {
	{ 1, { { 1, 1, 0 }, { 2, 0, 1 }, { 3, 0, 2 } }, 3, "C3" },
	{ 2, { { 1, 0, 1 }, { 2, 0, 2 }, { 3, 0, 3 } }, 3, "E1" },
	{ 3, { { 1, 0, 2 }, { 2, 0, 3 }, { 3, 1, 0 } }, 3, "C1" },
	{ 4, { { 1, 0, 3 }, { 2, 1, 0 }, { 3, 0, 1 } }, 3, "C2" },
};

static const struct schedule_preset schedule_presets[] = {
	{ "loebner2004", 4, schedule_loebner2004_matrix,
	    schedule_loebner2004_rounds,
	    sizeof(schedule_loebner2004_rounds) /
	    sizeof(schedule_loebner2004_rounds[0]), 0 },
	{ "longnow", 3, NULL, schedule_longnow_rounds,
	    sizeof(schedule_longnow_rounds) /
	    sizeof(schedule_longnow_rounds[0]), 2 * 3600 },
};

static const struct schedule_preset *schedule_lookup(const char *);

/* Find a preset by name. */
static const struct schedule_preset *
schedule_lookup(const char *name)
{
	size_t	i;

	if (name == NULL)
		return (NULL);
	for (i = 0; i < sizeof(schedule_presets) / sizeof(schedule_presets[0]);
	    i++)
		if (strcmp(schedule_presets[i].name, name) == 0)
			return (&schedule_presets[i]);
	return (NULL);
}

/* Return the rounds of a named preset and their count, or NULL. */
const struct schedule_round *
schedule_preset(const char *name, size_t *nrounds)
{
	const struct schedule_preset	*p;

	if ((p = schedule_lookup(name)) == NULL) {
		if (nrounds != NULL)
			*nrounds = 0;
		return (NULL);
	}
	if (nrounds != NULL)
		*nrounds = p->nrounds;
	return (p->rounds);
}

/* Return the confederate a preset's matrix gives a judge and entry, or 0. */
int
schedule_matrix(const char *name, int judge, int entry)
{
	const struct schedule_preset	*p;

	if ((p = schedule_lookup(name)) == NULL || p->matrix == NULL)
		return (0);
	if (judge < 1 || judge > p->n || entry < 1 || entry > p->n)
		return (0);
	return (p->matrix[judge - 1][entry - 1]);
}

/* The round duration a preset gives when none is set, seconds; 0: none. */
int
schedule_preset_duration(const char *name)
{
	const struct schedule_preset	*p;

	return ((p = schedule_lookup(name)) != NULL ? p->duration : 0);
}

/* Return the names of the known presets, separated by ", ". */
const char *
schedule_preset_names(void)
{
	return ("loebner2004, longnow");
}
