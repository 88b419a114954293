/*
 * The judges' ballots at their terminals.  With rules.ballot set, when a
 * round stops each judge of the round is asked, on the left terminal of
 * the station, for the ballot of the rule (the rule texts, score.c):
 *
 *   2004      the points of 100 for the left terminal (the right gets
 *             the rest; 50 is not allowed, ties are forbidden)
 *   2009      which terminal was the human, L or R
 *   2003      a rating of each terminal, 0 to 5 (fractions allowed)
 *   longnow   human or machine, for each terminal that had a candidate
 *
 * The judge types the answer and Enter; BackSpace or DEL erases; what is
 * not an answer is asked again.  Nothing says which entity was where.
 * Each ballot goes into the ballots file of the state directory
 * (ballots.csv, which `transcripts score` reads), into the capture of
 * the judge's terminal as a "ballot" marker (with the keys typed, which
 * the capture of a port with no link keeps), and to the watchers as a
 * "ballot" event.  A ballot not given when the next round starts is
 * told and dropped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "../capture/capture.h"
#include "../score/score.h"

#define BALLOT_MAX	64		/* stations asked at once */
#define BALLOT_LINE	16		/* the longest answer */
#define BALLOT_HEADER	"round,judge,entity,kind,vs,points,human,rating\n"
#define BALLOT_THANKS	"\r\n*** Ballot recorded. Thank you. ***\r\n"

struct ballot {
	char		 port[64];	/* the left terminal's port */
	char		 station[64];
	int		 round;
	int		 judge;
	char		 entity[2][SCORE_NAME];	/* left, right; "" none */
	int		 kind[2];	/* enum conf_kind */
	int		 step;		/* the side asked next (2004: 0) */
	double		 value[2];
	char		 line[BALLOT_LINE];
	size_t		 len;
};

static const struct conf *ballot_conf;
static struct ballot	 ballot_v[BALLOT_MAX];
static size_t		 ballot_n;

static void	ballot_ask(struct ballot *, const char *);
static int	ballot_take(struct ballot *);
static void	ballot_write(struct ballot *, struct port *);
static void	ballot_end(size_t);

/* Take the configuration in force. */
void
ballot_configure(const struct conf *cf)
{
	ballot_conf = cf;
}

/*
 * Note the judges of the round that stops, before its links end: the
 * station, its judge and which entity was on which side.
 */
void
ballot_round_end(int round)
{
	const struct conf_station	*st;
	const struct conf_entity	*en;
	struct ballot			*b;
	struct link			*l;
	size_t				 i;

	if (ballot_conf == NULL || ballot_conf->ballot < 0)
		return;
	TAILQ_FOREACH(l, &links, entry) {
		if (l->origin != LINK_ROUND || l->station == NULL ||
		    l->entity == NULL || l->side < 0 || l->side > 1 ||
		    (st = conf_station_named(ballot_conf, l->station)) ==
		    NULL)
			continue;
		for (i = 0; i < ballot_n; i++)
			if (strcmp(ballot_v[i].station, l->station) == 0)
				break;
		if (i == ballot_n) {
			if (ballot_n == BALLOT_MAX)
				continue;
			b = &ballot_v[ballot_n++];
			memset(b, 0, sizeof(*b));
			snprintf(b->station, sizeof(b->station), "%s",
			    l->station);
			snprintf(b->port, sizeof(b->port), "%s",
			    ballot_conf->ports[st->left].name);
			b->round = round;
			b->judge = st->judge;
			b->value[0] = b->value[1] = NAN;
		}
		b = &ballot_v[i];
		en = conf_entity_named(ballot_conf, l->entity);
		snprintf(b->entity[l->side], sizeof(b->entity[0]), "%s",
		    l->entity);
		b->kind[l->side] = en != NULL ? (int)en->kind : CONF_ENTRY;
	}
	/* One side alone (Long Now): it is the one asked. */
	for (i = 0; i < ballot_n; i++)
		ballot_v[i].step = ballot_v[i].entity[0][0] == '\0' ? 1 : 0;
}

/* Ask the judges whose round just ended for their ballots. */
void
ballot_start(void)
{
	size_t	i;

	for (i = 0; i < ballot_n; i++)
		ballot_ask(&ballot_v[i], NULL);
}

/* Ask a judge for the next answer, after a word of why, if any. */
static void
ballot_ask(struct ballot *b, const char *why)
{
	struct port	*p;
	char		 text[512];
	const char	*side = b->step == 0 ? "LEFT" : "RIGHT";
	int		 n = 0;

	if ((p = port_find(b->port)) == NULL)
		return;
	if (why != NULL)
		n = snprintf(text, sizeof(text), "\r\n%s", why);
	switch (ballot_conf->ballot) {
	case SCORE_2004:
		snprintf(text + n, sizeof(text) - n, "\r\nBALLOT, round %d: "
		    "of 100 points for how human each terminal seemed, give "
		    "the LEFT one's (the right gets the rest; not 50), then "
		    "Enter: ", b->round);
		break;
	case SCORE_2009:
		snprintf(text + n, sizeof(text) - n, "\r\nBALLOT, round %d: "
		    "which terminal was the human, L or R? Then Enter: ",
		    b->round);
		break;
	case SCORE_2003:
		snprintf(text + n, sizeof(text) - n, "\r\nBALLOT, round %d: "
		    "was your %s partner a human or a machine? 0 not "
		    "accessible, 1 definitely a machine ... 5 definitely a "
		    "human (fractions allowed), then Enter: ", b->round, side);
		break;
	default:
		snprintf(text + n, sizeof(text) - n, "\r\nBALLOT, round %d: "
		    "was the candidate on your %s terminal a human or a "
		    "machine, H or M? Then Enter: ", b->round, side);
		break;
	}
	port_send(p, (unsigned char *)text, strlen(text));
}

/*
 * Take the answer typed: 1 when it is one (the ballot moves on), else 0
 * with the judge asked again.
 */
static int
ballot_take(struct ballot *b)
{
	char	*end;
	double	 d;

	b->line[b->len] = '\0';
	switch (ballot_conf->ballot) {
	case SCORE_2004:
		d = strtod(b->line, &end);
		if (b->len == 0 || *end != '\0' || d < 0 || d > 100 ||
		    d != floor(d) || d == 50)
			return (0);
		b->value[0] = d;
		b->value[1] = 100 - d;
		b->step = 2;
		return (1);
	case SCORE_2009:
		if (b->len != 1 || strchr("LlRr", b->line[0]) == NULL)
			return (0);
		b->value[0] = b->line[0] == 'L' || b->line[0] == 'l';
		b->value[1] = !b->value[0];
		b->step = 2;
		return (1);
	case SCORE_2003:
		d = strtod(b->line, &end);
		if (b->len == 0 || *end != '\0' || !(d >= 0 && d <= 5))
			return (0);
		b->value[b->step++] = d;
		return (1);
	default:
		if (b->len != 1 || strchr("HhMm", b->line[0]) == NULL)
			return (0);
		b->value[b->step++] = b->line[0] == 'H' || b->line[0] == 'h';
		return (1);
	}
}

/*
 * Write a ballot given: a line per entity in ballots.csv, a marker in
 * the terminal's capture, an event.
 */
static void
ballot_write(struct ballot *b, struct port *p)
{
	char		 line[512], judge[8];
	const char	*kind;
	int		 side, n, k = 0;

	snprintf(judge, sizeof(judge), "%02d", b->judge);
	for (side = 0; side < 2; side++) {
		if (b->entity[side][0] == '\0')
			continue;
		kind = b->kind[side] == CONF_ENTRY ? "entry" : "confederate";
		n = snprintf(line + k, sizeof(line) - k, "%d,%s,%s,%s,%s,",
		    b->round, judge, b->entity[side], kind,
		    b->entity[!side]);
		if (ballot_conf->ballot == SCORE_2004)
			n += snprintf(line + k + n, sizeof(line) - k - n,
			    "%g,,\n", b->value[side]);
		else if (ballot_conf->ballot == SCORE_2003)
			n += snprintf(line + k + n, sizeof(line) - k - n,
			    ",,%g\n", b->value[side]);
		else
			n += snprintf(line + k + n, sizeof(line) - k - n,
			    ",%s,\n", b->value[side] != 0 ? "yes" : "no");
		record_port_note(p, "ballot round %d judge %s %s %s %g",
		    b->round, judge, b->entity[side],
		    ballot_conf->ballot == SCORE_2004 ? "points" :
		    ballot_conf->ballot == SCORE_2003 ? "rating" : "human",
		    b->value[side]);
		events_post(PROTOCOL_EV_BALLOT, json_pack("{sisissssssf}",
		    "round", b->round, "judge", b->judge, "station",
		    b->station, "entity", b->entity[side], "rule",
		    score_rule_name((enum score_rule)ballot_conf->ballot),
		    "value", b->value[side]));
		k += n;
	}
	if (state_append("ballots.csv", BALLOT_HEADER, line, (size_t)k,
	    "ballots") == 0)
		log_info("ballot of judge %s, round %d, written", judge,
		    b->round);
}

/* Forget the ballot at index i. */
static void
ballot_end(size_t i)
{
	ballot_v[i] = ballot_v[--ballot_n];
}

/*
 * Take the bytes a terminal with no conversation typed: 1 when a ballot
 * is asked of it (they are its answer, echoed), 0 when not.
 */
int
ballot_input(struct port *p, const unsigned char *buf, size_t n)
{
	struct ballot	*b;
	size_t		 i, k;
	unsigned char	 c;

	for (i = 0; i < ballot_n; i++)
		if (strcmp(ballot_v[i].port, p->name) == 0)
			break;
	if (i == ballot_n)
		return (0);
	b = &ballot_v[i];
	for (k = 0; k < n; k++) {
		c = buf[k];
		if (c == '\r' || c == '\n') {
			if (b->len == 0)
				continue;
			port_send(p, (const unsigned char *)"\r\n", 2);
			if (!ballot_take(b))
				ballot_ask(b, ballot_conf->ballot == SCORE_2004 ?
				    "A whole number from 0 to 100, not 50." :
				    "Not an answer.");
			else if (b->step >= 2 || (b->step == 1 &&
			    b->entity[1][0] == '\0')) {
				ballot_write(b, p);
				port_send(p, (const unsigned char *)
				    BALLOT_THANKS, sizeof(BALLOT_THANKS) - 1);
				ballot_end(i);
				return (1);
			} else if (b->step == 1 && b->entity[1][0] != '\0')
				ballot_ask(b, NULL);
			b->len = 0;
		} else if (c == 0x08 || c == 0x7f) {
			if (b->len > 0) {
				b->len--;
				port_send(p, (const unsigned char *)"\b \b",
				    3);
			}
		} else if (c >= 0x20 && c < 0x7f && b->len < BALLOT_LINE - 1) {
			b->line[b->len++] = (char)c;
			port_send(p, &c, 1);
		}
	}
	return (1);
}

/* Drop the ballots not given, telling each (a round starts, muxd stops). */
void
ballot_cancel(const char *why)
{
	while (ballot_n > 0) {
		log_warnx("judge %02d gave no ballot for round %d (%s)",
		    ballot_v[0].judge, ballot_v[0].round, why);
		events_post(PROTOCOL_EV_FAULT, json_pack("{sssisiss}", "what",
		    "ballot", "judge", ballot_v[0].judge, "round",
		    ballot_v[0].round, "error", "no ballot given"));
		ballot_end(0);
	}
}
