/*
 * The ballots checked against the schedule, before any is scored: the
 * pairs that met (struct score_pair: from the room's configuration, from
 * the ballots file's own pair lines, or, when neither lists them, the
 * pairs the ballots themselves name in their vs column).  Each of these
 * is a finding with the line of the ballot it concerns:
 *
 *   a duplicate      a second ballot of a judge on an entity in a round;
 *                    copies that agree leave the first scored, copies
 *                    that differ leave none
 *   never met        a ballot for a pair (or a judge and an entity) the
 *                    schedule does not have: left out
 *   missing          a judge who met a pair gave no ballot on one of it
 *                    (the line of the other's ballot, or of the pair)
 *   a rank twice     a judge who gives one rank to two entities (2009:
 *                    over the contest; Long Now: in a trial)
 *
 * (2009 aside: there one pick of a pair says the other's, and a judge
 * ranks only the one not picked.)
 * Under the rules that score a pair as one (2004, 2009), a ballot left
 * out takes the other of its pair with it.  Every entity a finding
 * concerns is marked partial in the result.  Long Now's rounds in the
 * ballots are its trials, not the room's rounds: there the schedule's
 * rounds are not compared.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

static void	score_check_key(const char *, char *, size_t);
static int	score_check_round(enum score_rule, int, int);
static int	score_check_meets(enum score_rule, const struct score_pair *,
		    const struct score_ballot *);
static const struct score_pair *score_check_pair(enum score_rule,
		    const struct score_ballots *, const struct score_ballot *);
static ssize_t	score_check_given(enum score_rule, const struct score_ballots *,
		    const struct score_pair *, const char *);
static const char *score_check_in(int, char *, size_t);
static int	score_check_same(const struct score_ballot *,
		    const struct score_ballot *);
static void	score_check_mate(enum score_rule, const struct score_ballots *,
		    unsigned char *, size_t);
static int	score_check_flag(struct score_result *, const char *,
		    enum score_kind);
static int	score_check_ranks(enum score_rule, const struct score_ballots *,
		    const unsigned char *, struct score_result *);

/*
 * A judge's name as compared: "J1", "j01", "01" and "1" are judge 1;
 * another name is itself.
 */
static void
score_check_key(const char *name, char *key, size_t len)
{
	const char	*p = name;

	if (*p == 'J' || *p == 'j')
		p++;
	if (*p != '\0' && strspn(p, "0123456789") == strlen(p)) {
		while (*p == '0' && p[1] != '\0')
			p++;
		snprintf(key, len, "%s", p);
	} else
		snprintf(key, len, "%s", name);
}

/* Whether two names are the same judge ("J1", "01", "1" alike). */
int
score_judge_same(const char *a, const char *b)
{
	char	ka[SCORE_NAME], kb[SCORE_NAME];

	score_check_key(a, ka, sizeof(ka));
	score_check_key(b, kb, sizeof(kb));
	return (strcmp(ka, kb) == 0);
}

/* "round N: " for a round said, else "", in buf. */
static const char *
score_check_in(int round, char *buf, size_t len)
{
	if (round == 0)
		return ("");
	snprintf(buf, len, "round %d: ", round);
	return (buf);
}

/* Whether a ballot's round and the schedule's agree (0: not said). */
static int
score_check_round(enum score_rule rule, int a, int b)
{
	return (rule == SCORE_LONGNOW || a == 0 || b == 0 || a == b);
}

/* Whether a ballot is one of a pair's: its judge, round and entities. */
static int
score_check_meets(enum score_rule rule, const struct score_pair *p,
    const struct score_ballot *b)
{
	if (!score_check_round(rule, p->round, b->round) ||
	    !score_judge_same(p->judge, b->judge))
		return (0);
	if (strcmp(b->entity, p->a) == 0)
		return (b->vs[0] == '\0' || strcmp(b->vs, p->b) == 0);
	if (p->b[0] != '\0' && strcmp(b->entity, p->b) == 0)
		return (b->vs[0] == '\0' || strcmp(b->vs, p->a) == 0);
	return (0);
}

/* The pair of the schedule a ballot is one of, or NULL. */
static const struct score_pair *
score_check_pair(enum score_rule rule, const struct score_ballots *bs,
    const struct score_ballot *b)
{
	size_t	i;

	for (i = 0; i < bs->npair; i++)
		if (score_check_meets(rule, &bs->pair[i], b))
			return (&bs->pair[i]);
	return (NULL);
}

/*
 * The index of a ballot (scored or not) of a pair's judge on entity e,
 * or -1 when there is none.
 */
static ssize_t
score_check_given(enum score_rule rule, const struct score_ballots *bs,
    const struct score_pair *p, const char *e)
{
	size_t	i;

	for (i = 0; i < bs->n; i++)
		if (strcmp(bs->v[i].entity, e) == 0 &&
		    score_check_meets(rule, p, &bs->v[i]))
			return ((ssize_t)i);
	return (-1);
}

/* Whether two ballots say the same. */
static int
score_check_same(const struct score_ballot *a, const struct score_ballot *b)
{
	return (strcmp(a->vs, b->vs) == 0 && a->kind == b->kind &&
	    a->human == b->human &&
	    (a->points == b->points || (isnan(a->points) && isnan(b->points))) &&
	    (a->rank == b->rank || (isnan(a->rank) && isnan(b->rank))) &&
	    (a->rating == b->rating || (isnan(a->rating) &&
	    isnan(b->rating))));
}

/*
 * Under the rules that score a pair as one (2004, 2009), leave out the
 * other ballot of the pair of ballot i.
 */
static void
score_check_mate(enum score_rule rule, const struct score_ballots *bs,
    unsigned char *keep, size_t i)
{
	const struct score_ballot	*b = &bs->v[i], *o;
	size_t				 k;

	if ((rule != SCORE_2004 && rule != SCORE_2009) || b->vs[0] == '\0')
		return;
	for (k = 0; k < bs->n; k++) {
		o = &bs->v[k];
		if (k != i && o->round == b->round &&
		    score_judge_same(o->judge, b->judge) &&
		    strcmp(o->entity, b->vs) == 0 &&
		    strcmp(o->vs, b->entity) == 0)
			keep[k] = 0;
	}
}

/* Mark an entity of the result partial; -1 when out of memory. */
static int
score_check_flag(struct score_result *res, const char *name,
    enum score_kind kind)
{
	struct score_entity	*e;

	if (name[0] == '\0')
		return (0);
	if ((e = score_result_entity(res, name, kind)) == NULL)
		return (-1);
	e->partial = 1;
	return (0);
}

/*
 * A judge who gives one rank to two entities: in 2009 over the contest,
 * in Long Now in a trial (2004 and 2003 rank nothing).  -1 when out of
 * memory.
 */
static int
score_check_ranks(enum score_rule rule, const struct score_ballots *bs,
    const unsigned char *keep, struct score_result *res)
{
	const struct score_ballot	*a, *b;
	char				 in[32];
	size_t				 i, j;

	if (rule != SCORE_2009 && rule != SCORE_LONGNOW)
		return (0);
	for (i = 0; i < bs->n; i++) {
		b = &bs->v[i];
		if (!keep[i] || isnan(b->rank))
			continue;
		for (j = 0; j < i; j++) {
			a = &bs->v[j];
			if (!keep[j] || a->rank != b->rank ||
			    strcmp(a->entity, b->entity) == 0 ||
			    !score_judge_same(a->judge, b->judge) ||
			    (rule == SCORE_LONGNOW && a->round != b->round))
				continue;
			if (score_note(&res->findings, b->line, "%sjudge %s "
			    "ranks both %s (line %lu) and %s %g: a place is "
			    "given once", score_check_in(rule == SCORE_LONGNOW ?
			    b->round : 0, in, sizeof(in)), b->judge, a->entity,
			    a->line, b->entity, b->rank) == -1 ||
			    score_check_flag(res, a->entity, a->kind) == -1 ||
			    score_check_flag(res, b->entity, b->kind) == -1)
				return (-1);
			break;
		}
	}
	return (0);
}

/*
 * Check ballots against their schedule: findings into res, the entities
 * they concern marked partial, keep[i] cleared for each ballot left out
 * of the scoring.  -1 when out of memory.
 */
int
score_check(enum score_rule rule, const struct score_ballots *bs,
    unsigned char *keep, struct score_result *res)
{
	struct finding_list		*fl = &res->findings;
	const struct score_ballot	*a, *b;
	const struct score_pair		*p;
	struct score_pair		 q;
	char				 in[32];
	ssize_t				 g[2];
	size_t				 i, j, s;
	int				 same;

	/* Duplicates: the first copy kept when all agree, else none. */
	for (i = 0; i < bs->n; i++) {
		b = &bs->v[i];
		for (j = 0; j < i; j++) {
			a = &bs->v[j];
			if (a->round != b->round ||
			    strcmp(a->entity, b->entity) != 0 ||
			    !score_judge_same(a->judge, b->judge))
				continue;
			same = score_check_same(a, b);
			if (score_note(fl, b->line, "%sjudge %s's "
			    "ballot on %s again (first at line %lu)%s",
			    score_check_in(b->round, in, sizeof(in)), b->judge, b->entity, a->line, same ?
			    ": the first is scored" : ", saying otherwise: "
			    "neither is scored") == -1 ||
			    score_check_flag(res, b->entity, b->kind) == -1)
				return (-1);
			keep[i] = 0;
			if (!same) {
				keep[j] = 0;
				score_check_mate(rule, bs, keep, j);
				score_check_mate(rule, bs, keep, i);
			}
			break;
		}
	}
	/* Ballots for a pair the schedule does not have. */
	for (i = 0; i < bs->n && bs->scheduled; i++) {
		b = &bs->v[i];
		if (score_check_pair(rule, bs, b) != NULL)
			continue;
		if (score_note(fl, b->line, "%sjudge %s never met "
		    "%s%s%s (%s)", score_check_in(b->round, in, sizeof(in)),
		    b->judge, b->entity,
		    b->vs[0] != '\0' ? " and " : "", b->vs,
		    bs->schedule[0] != '\0' ? bs->schedule : "the schedule") ==
		    -1 || score_check_flag(res, b->entity, b->kind) == -1)
			return (-1);
		keep[i] = 0;
		score_check_mate(rule, bs, keep, i);
	}
	/* Missing ballots: of the schedule, or of the pairs ballots name. */
	for (i = 0; i < (bs->scheduled ? bs->npair : bs->n); i++) {
		if (bs->scheduled)
			p = &bs->pair[i];
		else {
			b = &bs->v[i];
			if (!keep[i] || b->vs[0] == '\0' || rule == SCORE_2009)
				continue;
			memset(&q, 0, sizeof(q));
			q.round = b->round;
			snprintf(q.judge, sizeof(q.judge), "%s", b->judge);
			snprintf(q.a, sizeof(q.a), "%s", b->entity);
			snprintf(q.b, sizeof(q.b), "%s", b->vs);
			q.kind[0] = b->kind;
			q.kind[1] = b->kind == SCORE_ENTRY ?
			    SCORE_CONFEDERATE : b->kind == SCORE_CONFEDERATE ?
			    SCORE_ENTRY : SCORE_UNKNOWN;
			p = &q;
		}
		/* g[1] -2: a single interview, no other. */
		g[0] = score_check_given(rule, bs, p, p->a);
		g[1] = p->b[0] != '\0' ? score_check_given(rule, bs, p, p->b) :
		    -2;
		/* Told once an entity: on the other's line, or the pair's. */
		for (s = 0; s < 2; s++) {
			if (g[s] != -1)
				continue;
			if (score_note(fl, g[!s] >= 0 ? bs->v[g[!s]].line :
			    p->line, "%sno ballot of judge %s on %s, met %s%s"
			    "%s%s%s%s", score_check_in(p->round, in,
			    sizeof(in)), p->judge, s == 0 ? p->a : p->b,
			    p->b[0] == '\0' ? "alone" : "with ", p->b[0] ==
			    '\0' ? "" : s == 0 ? p->b : p->a,
			    bs->scheduled ? " (" : "", bs->scheduled ?
			    (bs->schedule[0] != '\0' ? bs->schedule :
			    "the schedule") : "", bs->scheduled ? ")" : "",
			    g[!s] >= 0 ? ", whose ballot is on this line" :
			    "") == -1 || score_check_flag(res, s == 0 ? p->a :
			    p->b, p->kind[s]) == -1)
				return (-1);
			if (g[!s] >= 0 && (rule == SCORE_2004 ||
			    rule == SCORE_2009)) {
				keep[g[!s]] = 0;
				if (score_check_flag(res, bs->v[g[!s]].entity,
				    bs->v[g[!s]].kind) == -1)
					return (-1);
			}
		}
	}
	return (score_check_ranks(rule, bs, keep, res));
}
