/*
 * Rounds: starting a round links every participating station's left and
 * right terminals to its entry and its confederate.  Which side gets the
 * entry is random (2009 rules) but reproducible: it follows from the
 * round's seed, and the seed and placements are recorded in the state
 * file, the log and the round.start event.  A round with a duration stops
 * itself; that is the only timer a round keeps.
 *
 * In a room whose schedule has a ready_wait, the people of a round wait
 * for muxd's word: when it starts, each of its judges' terminals and its
 * confederates' lines reads "round N begins", before anything of the
 * round; while it waits for its lines, what they type is refused with a
 * notice that it has not begun (link.c).
 */
#include <sys/random.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "muxd.h"

struct round_state	 round_cur;
static struct deadline	*round_timer;
/* A round that waits for its lines to come up (0: none), and until when. */
static int		 round_waiting;
static time_t		 round_wait_until;
static struct deadline	*round_wait_timer;
static const struct conf *round_conf;

static void	round_timer_cb(void *);
static int	round_lines(const struct conf_round *, json_t *, char *,
		    size_t, char *, size_t);
static void	round_begin(const struct conf_round *);
static void	round_wait_end(const char *, const char *);
static void	round_wait_cb(void *);
static void	round_events(void *, const struct events_ev *);
static void	round_arm(void);
static int	round_link(const struct conf_round *, size_t, int, char *,
		    size_t);
static int	round_wanted(const struct conf_round *, const char *);
static void	round_names(const struct conf_part *, int, int *, int *);
static void	round_announce(const struct conf_round *);
static void	round_sealed(int, const char *);

/* Decide from the seed whether a part's entry sits on the right. */
int
round_right_is_entry(uint64_t seed, int round, size_t part)
{
	uint64_t	z;

	/* splitmix64 of the seed, the round and the part */
	z = seed + (uint64_t)round * 0x9e3779b97f4a7c15ULL +
	    (uint64_t)(part + 1) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((int)(z >> 63));
}

/*
 * Give the entity on the left and on the right of a part; a part with
 * one candidate (longnow) has it on the left, and -1 on the right.
 */
static void
round_names(const struct conf_part *pt, int right_entry, int *left,
    int *right)
{
	if (pt->entry < 0 || pt->confederate < 0) {
		*left = pt->entry >= 0 ? pt->entry : pt->confederate;
		*right = -1;
		return;
	}
	*left = right_entry ? pt->confederate : pt->entry;
	*right = right_entry ? pt->entry : pt->confederate;
}

/* An entity's name, or "-" for none. */
static const char *
round_entity_name(int i)
{
	return (i >= 0 ? round_conf->entities[i].name : "-");
}

/*
 * Make the link of one side of one part unless it exists already.
 * Returns -1 with a reason when a port is missing or taken.
 */
static int
round_link(const struct conf_round *r, size_t i, int side, char *err,
    size_t errlen)
{
	const struct conf_part		*pt = &r->parts[i];
	const struct conf_station	*st = &round_conf->stations[pt->station];
	const struct conf_entity	*en;
	struct port			*a, *b;
	struct link			*l;
	char				 name[80];
	int				 left, right, entity;

	round_names(pt, round_right_is_entry(round_cur.seed, r->number, i),
	    &left, &right);
	entity = side == 0 ? left : right;
	snprintf(name, sizeof(name), "%s-%s", st->name,
	    side == 0 ? "left" : "right");
	if (entity < 0) {
		/* No candidate on this side: no link (an old one ends). */
		if ((l = link_find(name)) != NULL && l->origin == LINK_ROUND)
			link_free(l, "round placement changed");
		return (0);
	}
	en = &round_conf->entities[entity];
	a = port_find(round_conf->ports[side == 0 ? st->left :
	    st->right].name);
	b = port_find(round_conf->ports[en->port].name);
	if (a == NULL || b == NULL) {
		snprintf(err, errlen, "round %d: port for %s missing",
		    r->number, a == NULL ? name : en->name);
		return (-1);
	}
	if ((l = link_find(name)) != NULL && l->a == a && l->b == b)
		;
	else {
		if (l != NULL && l->origin == LINK_ROUND)
			link_free(l, "round placement changed");
		if ((l = link_new(name, a, b, LINK_ROUND, err, errlen)) ==
		    NULL)
			return (-1);
	}
	link_place(l, st->name, side, en->name);
	if (l->round == 0) {
		l->round = r->number;
		link_started(l);
	}
	return (0);
}

/*
 * Take the configuration in force (NULL in quick mode); the first time,
 * watch the lines for a round that waits for them.
 */
void
round_configure(const struct conf *cf)
{
	static int	subscribed;

	round_conf = cf;
	/* A line that types while the round waits for it is told so. */
	link_waits_set(round_waits_for);
	if (!subscribed) {
		events_subscribe(round_events, NULL,
		    EVENTS_BIT(PROTOCOL_EV_PORT_UP));
		subscribed = 1;
	}
}

/*
 * Check the lines of a round: -1 with a reason when one is in a link;
 * else the number of lines not up (down or waiting), named with their
 * state and error in lines, and, when list is given, each as {"station",
 * "port", "state", "error"} on it.
 */
static int
round_lines(const struct conf_round *r, json_t *list, char *lines, size_t len,
    char *err, size_t errlen)
{
	struct port	*a;
	size_t		 i, off = 0;
	int		 side, notup = 0;

	lines[0] = '\0';
	for (i = 0; i < r->nparts; i++) {
		const struct conf_part *pt = &r->parts[i];
		const struct conf_station *st = &round_conf->stations[pt->station];
		int one = pt->entry < 0 || pt->confederate < 0;
		int idx[4] = { st->left, one ? -1 : st->right,
		    pt->entry >= 0 ? round_conf->entities[pt->entry].port : -1,
		    pt->confederate >= 0 ?
		    round_conf->entities[pt->confederate].port : -1 };

		for (side = 0; side < 4; side++) {
			if (idx[side] < 0)
				continue;
			a = port_find(round_conf->ports[idx[side]].name);
			if (a != NULL && link_of(a) != NULL) {
				snprintf(err, errlen, "port %s is in link %s; "
				    "disconnect it first", a->name,
				    link_of(a)->name);
				return (-1);
			}
			if (a == NULL || a->state == PORT_UP)
				continue;
			notup++;
			if (list != NULL)
				json_array_append_new(list, json_pack(
				    "{ss ss ss ss?}", "station", st->name,
				    "port", a->name, "state",
				    port_state_name(a->state), "error",
				    a->error[0] != '\0' ? a->error : NULL));
			if (off < len)
				off += snprintf(lines + off, len - off,
				    "%s%s (%s%s%s)", notup > 1 ? ", " : "",
				    a->name, port_state_name(a->state),
				    a->error[0] != '\0' ? ": " : "", a->error);
		}
	}
	return (notup);
}

/*
 * Tell the lines of a round that it begins, in a room with a ready_wait:
 * each judge's terminals and each confederate's line (never an entry's),
 * before the links are made, so that the notice comes before the judge's
 * prompt and nothing typed after it goes unrouted.
 */
static void
round_announce(const struct conf_round *r)
{
	const struct conf_part		*pt;
	const struct conf_station	*st;
	struct port			*p;
	char				 text[64];
	size_t				 i;

	if (round_conf->ready_wait <= 0)
		return;
	snprintf(text, sizeof(text), "round %d begins", r->number);
	for (i = 0; i < r->nparts; i++) {
		pt = &r->parts[i];
		st = &round_conf->stations[pt->station];
		if ((p = port_find(round_conf->ports[st->left].name)) != NULL)
			link_notice(p, text);
		/* A part of one candidate (longnow) has its left alone. */
		if (pt->entry >= 0 && pt->confederate >= 0 && (p = port_find(
		    round_conf->ports[st->right].name)) != NULL)
			link_notice(p, text);
		if (pt->confederate >= 0 && (p = port_find(round_conf->ports[
		    round_conf->entities[pt->confederate].port].name)) != NULL)
			link_notice_confederate(p, text);
	}
}

/*
 * The round a port's line waits for, when a round waits for its lines
 * and the port is one of them (a judge's terminal or an entity's line);
 * 0 otherwise.
 */
int
round_waits_for(const struct port *p)
{
	const struct conf_round		*r;
	const struct conf_part		*pt;
	const struct conf_station	*st;
	size_t				 i;
	int				 k, idx;

	if (round_waiting == 0 || round_conf == NULL ||
	    (r = conf_round_find(round_conf, round_waiting)) == NULL ||
	    (idx = conf_port_find(round_conf, p->name)) == -1)
		return (0);
	for (i = 0; i < r->nparts; i++) {
		pt = &r->parts[i];
		st = &round_conf->stations[pt->station];
		if (st->left == idx || (st->right == idx && pt->entry >= 0 &&
		    pt->confederate >= 0))
			return (round_waiting);
		for (k = 0; k < 2; k++) {
			int e = k == 0 ? pt->entry : pt->confederate;

			if (e >= 0 && round_conf->entities[e].port == idx)
				return (round_waiting);
		}
	}
	return (0);
}

/* Start a round now: place it, link it, record it, tell everyone. */
static void
round_begin(const struct conf_round *r)
{
	char		err[MUXD_ERRLEN];
	size_t		i;
	int		side, number = r->number;
	uint32_t	rnd;

	snprintf(err, sizeof(err), "round %d started", number);
	ballot_cancel(err);
	if (round_conf->seed_set)
		round_cur.seed = round_conf->seed;
	else {
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
			rnd = (uint32_t)time(NULL) ^ (uint32_t)getpid();
		round_cur.seed = rnd;
	}
	round_cur.active = 1;
	round_cur.number = number;
	round_cur.started = time(NULL);
	round_cur.ends = round_conf->duration > 0 ?
	    round_cur.started + round_conf->duration : 0;
	round_announce(r);
	for (i = 0; i < r->nparts; i++)
		for (side = 0; side < 2; side++)
			if (round_link(r, i, side, err, sizeof(err)) == -1)
				log_warnx("%s", err);
	round_arm();
	state_save();
	log_info("round %d started, seed %llu", number,
	    (unsigned long long)round_cur.seed);
	for (i = 0; i < r->nparts; i++) {
		int left, right;

		round_names(&r->parts[i], round_right_is_entry(round_cur.seed,
		    number, i), &left, &right);
		log_info("round %d: %s (judge %d): left %s, right %s", number,
		    round_conf->stations[r->parts[i].station].name,
		    round_conf->stations[r->parts[i].station].judge,
		    round_entity_name(left), round_entity_name(right));
	}
	events_post(PROTOCOL_EV_ROUND_START, round_json());
}

/*
 * Start a round of the schedule: 0 when it started, 1 when it waits for
 * its lines (the schedule's ready_wait), -1 with a reason.  A round starts
 * only with every line it joins up, unless forced: a line that is not up
 * would leave a judge talking to nobody, or an entity unheard.
 */
int
round_start(int number, int force, char *err, size_t errlen)
{
	const struct conf_round	*r;
	struct timeval		 tv;
	char			 lines[MUXD_ERRLEN];
	int			 notup;

	if (round_conf == NULL || round_conf->nrounds == 0) {
		snprintf(err, errlen, "there is no schedule");
		return (-1);
	}
	if (round_cur.active) {
		snprintf(err, errlen, "round %d is running; stop it first",
		    round_cur.number);
		return (-1);
	}
	if (round_waiting != 0) {
		snprintf(err, errlen, "round %d waits for its lines; stop it "
		    "first", round_waiting);
		return (-1);
	}
	if ((r = conf_round_find(round_conf, number)) == NULL) {
		snprintf(err, errlen, "there is no round %d in the schedule",
		    number);
		return (-1);
	}
	/* Check every port first, so that a round starts whole or not. */
	if ((notup = round_lines(r, NULL, lines, sizeof(lines), err,
	    errlen)) == -1)
		return (-1);
	/* A round the state cannot hold would not be resumed by a restart. */
	if (!force && state_save() == -1) {
		snprintf(err, errlen, "the state cannot be saved (%s): a "
		    "restart would not resume round %d; start it anyway with "
		    "--force", state_failure(), number);
		return (-1);
	}
	if (notup > 0 && !force && round_conf->ready_wait > 0) {
		round_waiting = number;
		port_time(&tv);
		round_wait_until = tv.tv_sec + round_conf->ready_wait;
		tv.tv_sec = round_conf->ready_wait;
		tv.tv_usec = 0;
		if (round_wait_timer == NULL)
			round_wait_timer = deadline_new("the round's wait for "
			    "its lines", round_wait_cb, NULL);
		deadline_set(round_wait_timer, &tv);
		log_info("round %d waits up to %d s for %d line%s: %s", number,
		    round_conf->ready_wait, notup, notup == 1 ? "" : "s",
		    lines);
		events_post(PROTOCOL_EV_ROUND_WAIT, json_pack("{sisiss}",
		    "number", number, "seconds", round_conf->ready_wait,
		    "lines", lines));
		return (1);
	}
	if (notup > 0 && !force) {
		snprintf(err, errlen, "round %d: %d line%s not up: %s; start "
		    "it anyway with --force", number, notup, notup == 1 ?
		    " is" : "s are", lines);
		return (-1);
	}
	if (notup > 0)
		log_warnx("round %d started with %d line%s not up: %s",
		    number, notup, notup == 1 ? "" : "s", lines);
	round_begin(r);
	return (0);
}

/*
 * Give up a round's wait for its lines: with a reason, told to the log
 * and the watchers.
 */
static void
round_wait_end(const char *why, const char *lines)
{
	int	number = round_waiting;

	round_waiting = 0;
	if (round_wait_timer != NULL)
		deadline_clear(round_wait_timer);
	log_warnx("round %d not started: %s%s%s", number, why,
	    lines != NULL ? ": " : "", lines != NULL ? lines : "");
	events_post(PROTOCOL_EV_ROUND_REFUSED, json_pack("{siss ss?}",
	    "number", number, "reason", why, "lines", lines));
}

/* The wait of a round for its lines is over: they are not all up. */
static void
round_wait_cb(void *arg)
{
	const struct conf_round	*r;
	char			 lines[MUXD_ERRLEN], err[MUXD_ERRLEN];

	(void)arg;
	if (round_waiting == 0)
		return;
	if ((r = conf_round_find(round_conf, round_waiting)) == NULL) {
		round_wait_end("no longer in the schedule", NULL);
		return;
	}
	if (round_lines(r, NULL, lines, sizeof(lines), err, sizeof(err)) == -1)
		round_wait_end(err, NULL);
	else
		round_wait_end("lines still not up", lines);
}

/*
 * A line came up (an events observer): the round that waits for its
 * lines starts once they are all up.
 */
static void
round_events(void *arg, const struct events_ev *ev)
{
	const struct conf_round	*r;
	char			 lines[MUXD_ERRLEN], err[MUXD_ERRLEN];
	int			 n;

	(void)arg;
	if (ev->type != PROTOCOL_EV_PORT_UP || round_waiting == 0)
		return;
	if ((r = conf_round_find(round_conf, round_waiting)) == NULL) {
		round_wait_end("no longer in the schedule", NULL);
		return;
	}
	if ((n = round_lines(r, NULL, lines, sizeof(lines), err,
	    sizeof(err))) == -1)
		round_wait_end(err, NULL);
	else if (n == 0) {
		round_waiting = 0;
		deadline_clear(round_wait_timer);
		log_info("round %d: every line is up", r->number);
		round_begin(r);
	}
}

/* Cancel a round's wait for its lines: its number, or -1 when none waits. */
int
round_cancel(const char *why)
{
	int	number = round_waiting;

	if (number == 0)
		return (-1);
	round_wait_end(why, NULL);
	return (number);
}

/*
 * Show the manifest a round's end sealed on every judge's terminal, in
 * its short form: "evidence 0004 sealed: 3f2a 91c0 7be4 5d18", for the
 * judges to write down (transcripts verify -s checks what they wrote).
 */
static void
round_sealed(int seq, const char *sh)
{
	const struct conf_station	*st;
	struct port			*p;
	char				 text[64];
	size_t				 i;

	snprintf(text, sizeof(text), "evidence %04d sealed: %s", seq, sh);
	for (i = 0; i < round_conf->nstations; i++) {
		st = &round_conf->stations[i];
		if ((p = port_find(round_conf->ports[st->left].name)) != NULL)
			link_notice(p, text);
		if (st->right != st->left && (p = port_find(
		    round_conf->ports[st->right].name)) != NULL)
			link_notice(p, text);
	}
}

/* Stop the running round, ending its links. */
int
round_stop(const char *reason)
{
	struct link	*l, *next;
	struct port	*a;
	char		 notice[128], sh[SEAL_SHORT_LEN];
	int		 number = round_cur.number, seq;

	if (!round_cur.active)
		return (-1);
	/* Each judge is told, once the conversation (and its record) ended. */
	snprintf(notice, sizeof(notice), "round %d is over: %s", number,
	    reason);
	ballot_round_end(number);
	for (l = TAILQ_FIRST(&links); l != NULL; l = next) {
		next = TAILQ_NEXT(l, entry);
		if (l->origin != LINK_ROUND)
			continue;
		a = l->a;
		link_free(l, "round stopped");
		link_notice(a, notice);
	}
	round_cur.active = 0;
	round_cur.last = number;
	if (round_timer != NULL)
		deadline_clear(round_timer);
	state_save();
	log_info("round %d stopped (%s)", number, reason);
	snprintf(notice, sizeof(notice), "round %d end", number);
	if ((seq = seal_manifest(notice, number, sh)) > 0)
		round_sealed(seq, sh);
	ballot_start();
	events_post(PROTOCOL_EV_ROUND_STOP, json_pack("{siss}", "number", number,
	    "reason", reason));
	return (0);
}

/* Stop the round when its time is up. */
static void
round_timer_cb(void *arg)
{
	(void)arg;
	round_stop("duration elapsed");
}

/* Set the timer that ends the round, if it has a duration. */
static void
round_arm(void)
{
	struct timeval	tv;
	time_t		now = time(NULL);

	if (round_timer == NULL)
		round_timer = deadline_new("the round timer", round_timer_cb,
		    NULL);
	deadline_clear(round_timer);
	if (!round_cur.active || round_cur.ends == 0)
		return;
	tv.tv_sec = round_cur.ends > now ? round_cur.ends - now : 0;
	tv.tv_usec = 0;
	deadline_set(round_timer, &tv);
}

/* Carry on with a round found in the state file after a restart. */
void
round_resume(void)
{
	if (!round_cur.active)
		return;
	log_info("resuming round %d (started %lld, seed %llu)",
	    round_cur.number, (long long)round_cur.started,
	    (unsigned long long)round_cur.seed);
	if (round_cur.ends != 0 && time(NULL) >= round_cur.ends) {
		round_stop("duration elapsed while muxd was not running");
		return;
	}
	round_reload();
	events_post(PROTOCOL_EV_ROUND_RESUME, round_json());
}

/* Tell whether a link name is one the round makes. */
static int
round_wanted(const struct conf_round *r, const char *name)
{
	const char	*st;
	size_t		 i, n;

	for (i = 0; i < r->nparts; i++) {
		st = round_conf->stations[r->parts[i].station].name;
		n = strlen(st);
		if (strncmp(name, st, n) == 0 && (strcmp(name + n, "-left") ==
		    0 || strcmp(name + n, "-right") == 0))
			return (1);
	}
	return (0);
}

/*
 * Bring the running round's links in line with the configuration, after a
 * restart or a reload: links that are right stay up, with their queues.
 */
void
round_reload(void)
{
	const struct conf_round	*r;
	struct link		*l, *next;
	char			 err[MUXD_ERRLEN];
	size_t			 i;
	int			 side;

	round_arm();
	if (!round_cur.active)
		return;
	if ((r = conf_round_find(round_conf, round_cur.number)) == NULL) {
		round_stop("round no longer in the schedule");
		return;
	}
	for (l = TAILQ_FIRST(&links); l != NULL; l = next) {
		next = TAILQ_NEXT(l, entry);
		if (l->origin == LINK_ROUND && !round_wanted(r, l->name))
			link_free(l, "no longer in the round");
	}
	for (i = 0; i < r->nparts; i++)
		for (side = 0; side < 2; side++)
			if (round_link(r, i, side, err, sizeof(err)) == -1)
				log_warnx("%s", err);
}

/* Describe the round for the control protocol. */
json_t *
round_json(void)
{
	const struct conf_round		*r;
	const struct conf_station	*st;
	json_t				*pl;
	char				 lines[1024], err[256];
	size_t				 i;
	int				 left, right;

	if (!round_cur.active && round_waiting != 0) {
		/* The lines it waits for now, station by station. */
		pl = json_array();
		if ((r = conf_round_find(round_conf, round_waiting)) != NULL)
			round_lines(r, pl, lines, sizeof(lines), err,
			    sizeof(err));
		return (json_pack("{sbsos{sisIso}}", "active", 0, "last",
		    round_cur.last > 0 ? json_integer(round_cur.last) :
		    json_null(), "waiting", "number", round_waiting, "until",
		    (json_int_t)round_wait_until, "lines", pl));
	}
	if (!round_cur.active)
		return (json_pack("{sbsosn}", "active", 0, "last",
		    round_cur.last > 0 ? json_integer(round_cur.last) :
		    json_null(), "waiting"));
	pl = json_array();
	r = round_conf != NULL ? conf_round_find(round_conf, round_cur.number) :
	    NULL;
	for (i = 0; r != NULL && i < r->nparts; i++) {
		st = &round_conf->stations[r->parts[i].station];
		round_names(&r->parts[i], round_right_is_entry(round_cur.seed,
		    r->number, i), &left, &right);
		json_array_append_new(pl, json_pack("{sssissss?}",
		    "station", st->name, "judge", st->judge,
		    "left", round_conf->entities[left].name,
		    "right", right >= 0 ? round_conf->entities[right].name :
		    NULL));
	}
	return (json_pack("{sbsisIsIsoso}", "active", 1,
	    "number", round_cur.number, "seed", (json_int_t)round_cur.seed,
	    "started", (json_int_t)round_cur.started, "ends",
	    round_cur.ends ? json_integer(round_cur.ends) : json_null(),
	    "placements", pl));
}

/* Describe the schedule for the control protocol. */
json_t *
round_schedule_json(void)
{
	const struct conf_round	*r;
	const struct conf_part	*pt;
	json_t			*rounds, *pairs;
	size_t			 i, j;

	rounds = json_array();
	for (i = 0; round_conf != NULL && i < round_conf->nrounds; i++) {
		r = &round_conf->rounds[i];
		pairs = json_array();
		for (j = 0; j < r->nparts; j++) {
			pt = &r->parts[j];
			json_array_append_new(pairs, json_pack("{sssiss?ss?}",
			    "station", round_conf->stations[pt->station].name,
			    "judge", round_conf->stations[pt->station].judge,
			    "entry", pt->entry >= 0 ?
			    round_conf->entities[pt->entry].name : NULL,
			    "confederate", pt->confederate >= 0 ?
			    round_conf->entities[pt->confederate].name :
			    NULL));
		}
		json_array_append_new(rounds, json_pack("{siso ss?}", "round",
		    r->number, "pairs", pairs, "excused", r->excused));
	}
	return (json_pack("{ss? si so}", "preset", round_conf != NULL ?
	    round_conf->preset : NULL, "duration", round_conf != NULL ?
	    round_conf->duration : 0, "rounds", rounds));
}

/* The round's members of the state file: the round, its placements. */
json_t *
round_save(void)
{
	json_t	*rj, *pl, *o;

	rj = round_json();
	pl = json_object_get(rj, "placements");
	o = json_pack("{s{sbsisisIsIsI}sO}", "round", "active",
	    round_cur.active, "number", round_cur.number, "last",
	    round_cur.last, "seed", (json_int_t)round_cur.seed, "started",
	    (json_int_t)round_cur.started, "ends", (json_int_t)round_cur.ends,
	    "placements", pl != NULL ? pl : json_null());
	json_decref(rj);
	return (o);
}

/*
 * Take the round back from the state file (check: only say whether it is
 * there, -1 with a reason); round_resume() resumes it.
 */
int
round_load(const json_t *o, int check, char *err, size_t errlen)
{
	json_error_t	jerr;
	json_int_t	seed = 0, started = 0, ends = 0;
	int		active = 0, number = 0, last = 0;

	if (json_unpack_ex((json_t *)o, &jerr, 0, "{s{sb si si sI sI sI}}",
	    "round", "active", &active, "number", &number, "last", &last,
	    "seed", &seed, "started", &started, "ends", &ends) == -1) {
		snprintf(err, errlen, "%s", jerr.text);
		return (-1);
	}
	if (check)
		return (0);
	round_cur.active = active;
	round_cur.number = number;
	round_cur.last = last;
	round_cur.seed = (uint64_t)seed;
	round_cur.started = (time_t)started;
	round_cur.ends = (time_t)ends;
	return (0);
}
