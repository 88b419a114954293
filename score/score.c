/*
 * Scoring the contests of the rule texts from their ballots
 * (score-ballots.c), pure: the result says who won, which medal, and
 * which rule decided; what the ballots get wrong is a finding with the
 * ballot's line.  Before a rule scores, the ballots are checked against
 * the schedule (score-check.c): the ballots it finds in error are left
 * out, and every entity a finding concerns is marked partial.
 *
 * 2004 (rules 12-15 and the scoring of the Final Four): each judge
 * apportions 100 points between the two terminals of a pair, one at
 * least 51, no tie; an entry scores 1 for each pair in which it got 51 or
 * more.  The highest column total wins (bronze); silver when that score
 * is 2 or more; a tie is broken by the total points the tied entries
 * received, and a tie that remains goes to the semi-final judging, which
 * is not in the ballots: it is said, not decided.
 *
 * 2009 (3, Scoring the Final Four): each judge picks the human of each
 * pair and ranks the entities it did not pick from 1 (least human) to 4
 * (most human).  The entry picked as the human most often wins (bronze;
 * the silver is not at risk); a tie is broken by the mean of the ranks
 * the entry got from the judges who took it for the machine, the higher
 * the more human.
 *
 * 2003 (rules 46-48, 50): each judge rates each entity 0 to 5; the
 * arithmetic means, sorted, rank them all.  The highest ranked entry
 * wins: silver when no confederate is ranked higher (equal placing
 * allowed), else bronze.  A tie for first place goes to the judges
 * (rule 50, then a coin): said, not decided.  An entity rated by fewer
 * judges than another is a finding: its mean is not like theirs.  A rating of 0 ("partner
 * not accessible, or severe system malfunction") counts in the mean, as
 * the text makes no exception.
 *
 * Long Now: in each trial (the round) each of three judges says human or
 * machine of each of the four candidates and ranks them 1 (least human)
 * to 4 (most human).  The computer passes the Human Determination Test
 * when two or more judges took it for human, the Rank Order Test when
 * its median rank is at least the median rank of two or more of the
 * three foils, and the Turing test when it passes both.  The text does
 * not say how the trials of a session combine: each is told.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

static const char *score_rule_names[] = { "2004", "2009", "2003",
	"longnow" };

static struct score_entity *score_entity(struct score_result *,
		    const struct score_ballot *);
static int	score_push(struct score_entity *, double, const char *);
static double	score_median(const double *, size_t);
static int	score_cmp_double(const void *, const void *);
static const struct score_ballot *score_other(const struct score_ballots *,
		    const struct score_ballot *);
static ssize_t	score_decide(struct score_result *, const char *, const char *,
		    const char *);
static void	score_2004(const struct score_ballots *, struct score_result *);
static void	score_2009(const struct score_ballots *, struct score_result *);
static void	score_2003(const struct score_ballots *, struct score_result *);
static void	score_longnow(const struct score_ballots *,
		    struct score_result *);
static void	score_flag(struct score_result *, const char *);

/* Read a rule's name: 0, or -1 when it is none. */
int
score_rule_parse(const char *s, enum score_rule *r)
{
	size_t	i;

	for (i = 0; i < sizeof(score_rule_names) / sizeof(*score_rule_names);
	    i++)
		if (strcmp(s, score_rule_names[i]) == 0) {
			*r = (enum score_rule)i;
			return (0);
		}
	return (-1);
}

/* A rule's name. */
const char *
score_rule_name(enum score_rule r)
{
	return (score_rule_names[r]);
}

/*
 * Note what ballots get wrong (what does not read, what a rule refuses)
 * with its line; -1 when out of memory.
 */
int
score_note(struct finding_list *fl, unsigned long line, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	va_start(ap, fmt);
	rc = finding_add(fl, 1000, 0, line, -1, fmt, ap);
	va_end(ap);
	return (rc);
}

/* The result's entry for a ballot's entity (added when new). */
static struct score_entity *
score_entity(struct score_result *res, const struct score_ballot *b)
{
	return (score_result_entity(res, b->entity, b->kind));
}

/* The result's entry for an entity (added when new); NULL out of memory. */
struct score_entity *
score_result_entity(struct score_result *res, const char *name,
    enum score_kind kind)
{
	struct score_entity	*e;
	size_t			 i, n;

	for (i = 0; i < res->n; i++)
		if (strcmp(res->e[i].name, name) == 0) {
			if (res->e[i].kind == SCORE_UNKNOWN)
				res->e[i].kind = kind;
			return (&res->e[i]);
		}
	if (res->n == res->cap) {
		n = res->cap == 0 ? 16 : res->cap * 2;
		if ((e = reallocarray(res->e, n, sizeof(*e))) == NULL)
			return (NULL);
		res->e = e;
		res->cap = n;
	}
	e = &res->e[res->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->kind = kind;
	e->tiebreak = NAN;
	return (e);
}

/* Keep one judge's value of an entity, for the chart; -1 out of memory. */
static int
score_push(struct score_entity *e, double v, const char *judge)
{
	struct score_value	*p;
	size_t			 n;

	if (e->nvalue == e->capvalue) {
		n = e->capvalue == 0 ? 8 : e->capvalue * 2;
		if ((p = reallocarray(e->value, n, sizeof(*p))) == NULL)
			return (-1);
		e->value = p;
		e->capvalue = n;
	}
	p = &e->value[e->nvalue++];
	p->v = v;
	snprintf(p->judge, sizeof(p->judge), "%s", judge);
	return (0);
}

/* Order doubles. */
static int
score_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* The median of n values (sorted in place); NAN when there are none. */
static double
score_median(const double *v, size_t n)
{
	double	*s;
	double	 m;

	if (n == 0 || (s = malloc(n * sizeof(*s))) == NULL)
		return (NAN);
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), score_cmp_double);
	m = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return (m);
}

/* The ballot of the same judge and round on the other of a pair. */
static const struct score_ballot *
score_other(const struct score_ballots *bs, const struct score_ballot *b)
{
	size_t	i;

	for (i = 0; i < bs->n; i++)
		if (&bs->v[i] != b && bs->v[i].round == b->round &&
		    strcmp(bs->v[i].judge, b->judge) == 0 &&
		    strcmp(bs->v[i].entity, b->vs) == 0 &&
		    strcmp(bs->v[i].vs, b->entity) == 0)
			return (&bs->v[i]);
	return (NULL);
}

/* The entries with the top score: how many, and the first in *top. */
static size_t
score_top(struct score_result *res, size_t *top)
{
	size_t	i, n = 0;

	for (i = 0; i < res->n; i++) {
		if (res->e[i].kind != SCORE_ENTRY || res->e[i].nballot == 0)
			continue;
		if (n == 0 || res->e[i].score > res->e[*top].score) {
			*top = i;
			n = 1;
		} else if (res->e[i].score == res->e[*top].score)
			n++;
	}
	return (n);
}

/*
 * Among the entries tied at the top score, the one with the highest
 * tie-break value: 1 and *win when one stands alone, else 0.
 */
static int
score_break(struct score_result *res, size_t top, size_t *win)
{
	size_t	i, n = 0;
	double	best = -INFINITY;

	for (i = 0; i < res->n; i++) {
		if (res->e[i].kind != SCORE_ENTRY || res->e[i].nballot == 0 ||
		    res->e[i].score != res->e[top].score ||
		    isnan(res->e[i].tiebreak))
			continue;
		if (res->e[i].tiebreak > best) {
			best = res->e[i].tiebreak;
			*win = i;
			n = 1;
		} else if (res->e[i].tiebreak == best)
			n++;
	}
	return (n == 1);
}

/* Name the entries tied at the top into res->decided after prefix. */
static void
score_tied(struct score_result *res, size_t top, const char *prefix)
{
	size_t	i, k;

	k = (size_t)snprintf(res->decided, sizeof(res->decided), "%s", prefix);
	for (i = 0; i < res->n && k < sizeof(res->decided); i++)
		if (res->e[i].kind == SCORE_ENTRY && res->e[i].nballot > 0 &&
		    res->e[i].score == res->e[top].score)
			k += (size_t)snprintf(res->decided + k,
			    sizeof(res->decided) - k, " %s", res->e[i].name);
}

/*
 * Decide the winner of a column total (score) with a tie-break: the
 * index of the winning entry with res->decided saying how, or -1 when
 * none won, res->decided saying why (what the column counts, what broke
 * a tie, what the rules do with a tie that remains).
 */
static ssize_t
score_decide(struct score_result *res, const char *counts,
    const char *broken, const char *unbroken)
{
	size_t	top, win = 0;

	if (score_top(res, &top) == 0) {
		snprintf(res->decided, sizeof(res->decided), "no entry has a "
		    "valid ballot");
		return (-1);
	}
	if (score_top(res, &top) == 1) {
		snprintf(res->decided, sizeof(res->decided), "the highest "
		    "column total, %g %s", res->e[top].score, counts);
		return ((ssize_t)top);
	}
	if (score_break(res, top, &win)) {
		snprintf(res->decided, sizeof(res->decided), "a tie at %g %s, "
		    "broken by %s (%.3g)", res->e[win].score, counts, broken,
		    res->e[win].tiebreak);
		return ((ssize_t)win);
	}
	score_tied(res, top, "a tie in column totals and tie-breaks "
	    "between");
	strncat(res->decided, ": ", sizeof(res->decided) -
	    strlen(res->decided) - 1);
	strncat(res->decided, unbroken, sizeof(res->decided) -
	    strlen(res->decided) - 1);
	return (-1);
}

/* 2004: points of 100 in pairs, 51 or more a win. */
static void
score_2004(const struct score_ballots *bs, struct score_result *res)
{
	struct finding_list		*fl = &res->findings;
	const struct score_ballot	*b, *o;
	struct score_entity		*e;
	ssize_t				 win;
	size_t				 i;

	for (i = 0; i < bs->n; i++) {
		b = &bs->v[i];
		if (isnan(b->points)) {
			score_note(fl, b->line, "%s on %s: no points",
			    b->judge, b->entity);
			continue;
		}
		if ((o = score_other(bs, b)) == NULL || isnan(o->points)) {
			score_note(fl, b->line, "%s on %s: no ballot of the "
			    "other of the pair, %s", b->judge, b->entity,
			    b->vs[0] != '\0' ? b->vs : "(vs not given)");
			continue;
		}
		if (b->points + o->points != 100) {
			score_note(fl, b->line, "%s: %s %g and %s %g do not "
			    "make 100 (rule 15)", b->judge, b->entity,
			    b->points, o->entity, o->points);
			continue;
		}
		if (b->points == 50) {
			score_note(fl, b->line, "%s: %s and %s tied at 50: "
			    "ties are forbidden (rule 15)", b->judge,
			    b->entity, o->entity);
			continue;
		}
		if ((e = score_entity(res, b)) == NULL ||
		    score_push(e, b->points, b->judge) == -1)
			return;
		e->score += b->points >= 51;
		e->tiebreak = (isnan(e->tiebreak) ? 0 : e->tiebreak) +
		    b->points;
		e->nballot++;
	}
	if ((win = score_decide(res, "pairs won with 51 points or more",
	    "the total points received", "the rules give it to the "
	    "semi-final judging, which these ballots do not hold")) < 0)
		return;
	snprintf(res->winner, sizeof(res->winner), "%s", res->e[win].name);
	snprintf(res->medal, sizeof(res->medal), "%s", res->e[win].score >= 2 ?
	    "silver" : "bronze");
}

/* 2009: the human picked in each pair, ranks of those not picked. */
static void
score_2009(const struct score_ballots *bs, struct score_result *res)
{
	struct finding_list		*fl = &res->findings;
	const struct score_ballot	*b, *o;
	struct score_entity		*e;
	ssize_t				 win;
	size_t				 i, j;
	double				 sum;
	size_t				 n;

	for (i = 0; i < bs->n; i++) {
		b = &bs->v[i];
		if ((e = score_entity(res, b)) == NULL)
			return;
		if (b->human == -1 && isnan(b->rank)) {
			score_note(fl, b->line, "%s on %s: no pick and no rank",
			    b->judge, b->entity);
			continue;
		}
		if (b->human != -1) {
			o = score_other(bs, b);
			if (o != NULL && o->human == b->human) {
				score_note(fl, b->line, "%s: %s and %s both "
				    "picked as %s: one of a pair is the human",
				    b->judge, b->entity, o->entity,
				    b->human ? "the human" : "the machine");
				continue;
			}
			e->score += b->human == 1;
			e->nballot++;
			if (score_push(e, b->human, b->judge) == -1)
				return;
		}
		if (!isnan(b->rank) && b->human == 1)
			score_note(fl, b->line, "%s ranks %s, whom it took for "
			    "the human: only those it did not are ranked",
			    b->judge, b->entity);
	}
	/* The mean rank from the judges who took each for the machine. */
	for (i = 0; i < res->n; i++) {
		for (j = 0, sum = 0, n = 0; j < bs->n; j++)
			if (strcmp(bs->v[j].entity, res->e[i].name) == 0 &&
			    bs->v[j].human != 1 && !isnan(bs->v[j].rank)) {
				sum += bs->v[j].rank;
				n++;
			}
		res->e[i].tiebreak = n > 0 ? sum / (double)n : NAN;
	}
	if ((win = score_decide(res, "picks as the human", "the mean rank "
	    "from the judges who took it for the machine", "the rules say "
	    "no more")) < 0)
		return;
	snprintf(res->winner, sizeof(res->winner), "%s", res->e[win].name);
	snprintf(res->medal, sizeof(res->medal), "bronze");
}

/* 2003: the mean of the ratings ranks them all. */
static void
score_2003(const struct score_ballots *bs, struct score_result *res)
{
	struct finding_list		*fl = &res->findings;
	const struct score_ballot	*b;
	struct score_entity		*e;
	size_t				 i, k, top, ntop, most;
	unsigned long			 line;

	for (i = 0; i < bs->n; i++) {
		b = &bs->v[i];
		if (isnan(b->rating)) {
			score_note(fl, b->line, "%s on %s: no rating", b->judge,
			    b->entity);
			continue;
		}
		if ((e = score_entity(res, b)) == NULL ||
		    score_push(e, b->rating, b->judge) == -1)
			return;
		e->tiebreak = (isnan(e->tiebreak) ? 0 : e->tiebreak) +
		    b->rating;
		e->nballot++;
	}
	for (i = 0; i < res->n; i++)
		res->e[i].score = res->e[i].nballot > 0 ? res->e[i].tiebreak /
		    (double)res->e[i].nballot : 0;
	/* A mean over fewer ratings than the others' is not like theirs. */
	for (i = 0, most = 0; i < res->n; i++)
		if (res->e[i].nballot > most)
			most = res->e[i].nballot;
	for (i = 0; i < res->n; i++) {
		e = &res->e[i];
		if (e->nballot == most)
			continue;
		for (k = 0, line = 0; k < bs->n && line == 0; k++)
			if (strcmp(bs->v[k].entity, e->name) == 0 &&
			    !isnan(bs->v[k].rating))
				line = bs->v[k].line;
		score_note(fl, line, "%s is rated by %zu judge%s, others by "
		    "%zu: its mean is over fewer ratings", e->name,
		    e->nballot, e->nballot == 1 ? "" : "s", most);
		e->partial = 1;
	}
	for (i = 0; i < res->n; i++)
		res->e[i].tiebreak = NAN;
	if ((ntop = score_top(res, &top)) == 0) {
		snprintf(res->decided, sizeof(res->decided), "no entry has a "
		    "rating");
		return;
	}
	if (ntop > 1) {
		score_tied(res, top, "a tie for the highest mean rating "
		    "between");
		strncat(res->decided, ": rule 50 has the judges confer, and "
		    "a coin decide if they cannot agree",
		    sizeof(res->decided) - strlen(res->decided) - 1);
		return;
	}
	snprintf(res->winner, sizeof(res->winner), "%s", res->e[top].name);
	snprintf(res->medal, sizeof(res->medal), "silver");
	for (i = 0; i < res->n; i++)
		if (res->e[i].kind == SCORE_CONFEDERATE &&
		    res->e[i].score > res->e[top].score)
			snprintf(res->medal, sizeof(res->medal), "bronze");
	snprintf(res->decided, sizeof(res->decided), "the highest mean rating "
	    "of an entry, %.2f (rule 47); %s (rule 48)", res->e[top].score,
	    strcmp(res->medal, "silver") == 0 ? "no confederate ranked "
	    "higher: silver" : "a confederate ranked higher: bronze");
}

/* Long Now: each trial's two tests. */
static void
score_longnow(const struct score_ballots *bs, struct score_result *res)
{
	struct finding_list		*fl = &res->findings;
	const struct score_ballot	*b;
	struct score_entity		*e;
	struct score_trial		*t;
	double				 ranks[16];
	size_t				 i, j, k, n;
	int				 round;

	for (i = 0; i < bs->n; i++) {
		b = &bs->v[i];
		if (b->human == -1 || isnan(b->rank)) {
			score_note(fl, b->line, "%s on %s: a verdict (human) "
			    "and a rank are both needed", b->judge, b->entity);
			continue;
		}
		if ((e = score_entity(res, b)) == NULL ||
		    score_push(e, b->rank, b->judge) == -1)
			return;
		e->score += b->human == 1;
		e->nballot++;
	}
	/* Trials: each round's ballots. */
	for (i = 0; i < bs->n; i++) {
		round = bs->v[i].round;
		for (j = 0; j < res->ntrial; j++)
			if (res->trial[j].round == round)
				break;
		if (j < res->ntrial || res->ntrial == SCORE_TRIALS)
			continue;
		t = &res->trial[res->ntrial++];
		memset(t, 0, sizeof(*t));
		t->round = round;
	}
	for (j = 0; j < res->ntrial; j++) {
		t = &res->trial[j];
		t->computer_median = NAN;
		for (k = 0; k < res->n; k++) {
			for (i = 0, n = 0; i < bs->n && n < 16; i++) {
				b = &bs->v[i];
				if (b->round != t->round || b->human == -1 ||
				    isnan(b->rank) || strcmp(b->entity,
				    res->e[k].name) != 0)
					continue;
				ranks[n++] = b->rank;
				if (res->e[k].kind == SCORE_ENTRY)
					t->fooled += b->human == 1;
			}
			if (n == 0)
				continue;
			if (res->e[k].kind == SCORE_ENTRY) {
				if (t->computer[0] != '\0') {
					score_note(fl, 0, "trial %d has two "
					    "computers, %s and %s", t->round,
					    t->computer, res->e[k].name);
					continue;
				}
				snprintf(t->computer, sizeof(t->computer), "%s",
				    res->e[k].name);
				t->computer_median = score_median(ranks, n);
				t->judges = n;
			} else if (t->nfoil < SCORE_FOILS) {
				snprintf(t->foil[t->nfoil], sizeof(t->foil[0]),
				    "%s", res->e[k].name);
				t->foil_median[t->nfoil++] =
				    score_median(ranks, n);
			}
		}
		if (t->computer[0] == '\0') {
			score_note(fl, 0, "trial %d has no computer", t->round);
			continue;
		}
		if (t->judges != 3 || t->nfoil != 3)
			score_note(fl, 0, "trial %d has %d judges and %d "
			    "foils, the wager's are three and three", t->round,
			    t->judges, t->nfoil);
		t->determination = t->fooled >= 2;
		for (k = 0, n = 0; k < (size_t)t->nfoil; k++)
			n += t->computer_median >= t->foil_median[k];
		t->beaten = (int)n;
		t->rank_order = n >= 2;
		t->passed = t->determination && t->rank_order;
		if (t->passed)
			res->passed++;
	}
	snprintf(res->decided, sizeof(res->decided), "%d of %zu trials passed "
	    "both the Human Determination Test and the Rank Order Test",
	    res->passed, res->ntrial);
}

/* Score ballots by a rule into res (the caller frees it). */
void
score_run(enum score_rule rule, const struct score_ballots *bs,
    struct score_result *res)
{
	struct score_ballots	 kept;
	unsigned char		*keep;
	size_t			 i, k, nf;

	memset(res, 0, sizeof(*res));
	res->rule = rule;
	memset(&kept, 0, sizeof(kept));
	if ((keep = malloc(bs->n + 1)) == NULL || (kept.v =
	    reallocarray(NULL, bs->n + 1, sizeof(*kept.v))) == NULL) {
		free(keep);
		score_note(&res->findings, 0, "out of memory");
		return;
	}
	/* The entities in the order of their ballots, then the checks. */
	memset(keep, 1, bs->n + 1);
	for (i = 0; i < bs->n; i++)
		if (score_entity(res, &bs->v[i]) == NULL)
			break;
	if (i < bs->n || score_check(rule, bs, keep, res) == -1)
		score_note(&res->findings, 0, "out of memory");
	for (i = 0; i < bs->n; i++)
		if (keep[i])
			kept.v[kept.n++] = bs->v[i];
	nf = res->findings.n;
	switch (rule) {
	case SCORE_2004:
		score_2004(&kept, res);
		break;
	case SCORE_2009:
		score_2009(&kept, res);
		break;
	case SCORE_2003:
		score_2003(&kept, res);
		break;
	case SCORE_LONGNOW:
		score_longnow(&kept, res);
		break;
	}
	/*
	 * What the rule found marks the entity of the ballot on its line,
	 * and the other of the pair; what names no ballot (a ballot that
	 * did not read, a trial that does not add up) marks them all.
	 */
	for (i = nf; i < res->findings.n; i++) {
		for (k = 0; k < kept.n; k++)
			if (kept.v[k].line == res->findings.item[i].line)
				break;
		if (k < kept.n) {
			score_flag(res, kept.v[k].entity);
			score_flag(res, kept.v[k].vs);
		} else
			score_flag(res, NULL);
	}
	if (bs->findings.n > 0)
		score_flag(res, NULL);
	free(kept.v);
	free(keep);
}

/* Mark an entity of a result partial (NULL: every entity). */
static void
score_flag(struct score_result *res, const char *name)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (name == NULL || strcmp(res->e[i].name, name) == 0)
			res->e[i].partial = 1;
}

/* Free a result. */
void
score_result_free(struct score_result *res)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		free(res->e[i].value);
	free(res->e);
	finding_free(&res->findings);
	memset(res, 0, sizeof(*res));
}
