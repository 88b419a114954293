/*
 * Links join two ports.  A port is in at most one link, so a byte read
 * from a port has exactly one place to go, or none.  When a link ends,
 * bytes still queued at either end belong to the conversation that ended:
 * they are discarded (counted, logged and announced; the capture already
 * holds them) so that nothing reaches the next conversation on that port.
 *
 * A judge's link whose entity's line is not up when it is made (round
 * start --force) is dead until that line comes up: the judge is told so,
 * its keys are refused (told again at most every LINK_NOTICE_SEC seconds,
 * counted, never sent nor recorded as the conversation), and the rules
 * open, with the judge's prompt, only once the line is up, when the judge
 * is told again.  The notices never name the line: a port's name could
 * tell the judge which of the two is the machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "capture.h"

#define LINK_NOTICE_SEC	10	/* typing with no link: a notice each */
#define LINK_TOLD_MAX	256	/* terminals whose last notice is kept */
#define LINK_DEAD_TEXT	"the line of this conversation is down: what you " \
			"type is not sent"
#define LINK_LIVE_TEXT	"the line of this conversation is up: you may type"

struct link_list links = TAILQ_HEAD_INITIALIZER(links);

/* When each judge's terminal was last told it has no conversation. */
static struct link_told {
	char		*port;
	time_t		 at;
} link_told[LINK_TOLD_MAX];
static size_t	 link_ntold;
static const struct conf	*link_conf;
static json_t			*link_kept;	/* as muxd stops, or NULL */
/* The round a line without a link waits for, 0 none (round.c's). */
static int			(*link_waits)(const struct port *);

static void	link_discard(struct port *, const char *);
static const struct conf_station *link_terminal_station(const struct port *);
static const struct conf_entity *link_confederate(const struct port *);
static void	link_answer(struct port *, const unsigned char *, size_t);
static int	link_due(const struct port *, time_t, int);
static void	link_write_notice(struct port *, const char *);
static void	link_refused_note(struct link *);
static void	link_events(void *, const struct events_ev *);
static void	link_drained(void *, struct port *, const unsigned char *,
		    size_t, const struct timeval *);

/* Join two free ports under a name; on failure return NULL with a reason. */
struct link *
link_new(const char *name, struct port *a, struct port *b,
    enum link_origin origin, char *err, size_t errlen)
{
	struct link	*l;

	if (a == b) {
		snprintf(err, errlen, "cannot link port %s to itself",
		    a->name);
		return (NULL);
	}
	if (link_of(a) != NULL || link_of(b) != NULL) {
		snprintf(err, errlen, "port %s is already in link %s",
		    link_of(a) != NULL ? a->name : b->name,
		    link_of(a) != NULL ? link_of(a)->name : link_of(b)->name);
		return (NULL);
	}
	if (link_find(name) != NULL) {
		snprintf(err, errlen, "link %s already exists", name);
		return (NULL);
	}
	l = xcalloc(1, sizeof(*l));
	l->name = xstrdup(name);
	l->a = a;
	l->b = b;
	l->origin = origin;
	l->side = -1;
	port_time(&l->since);
	a->owner = b->owner = l;
	/* A port not read while it had no link is read from now on. */
	port_pause(a, 0);
	port_pause(b, 0);
	TAILQ_INSERT_TAIL(&links, l, entry);
	log_info("link %s: %s <-> %s", name, a->name, b->name);
	events_post(PROTOCOL_EV_LINK_UP, json_pack("{ssssssss}", "link", name,
	    "a", a->name, "b", b->name, "origin",
	    origin == LINK_ROUND ? "round" : "manual"));
	return (l);
}

/* Take the configuration in force (NULL in quick mode). */
void
link_configure(const struct conf *cf)
{
	link_conf = cf;
}

/*
 * Take the function that says which round a line without a link waits
 * for (the round's; link_forward tells the line so).
 */
void
link_waits_set(int (*fn)(const struct port *))
{
	link_waits = fn;
}

/*
 * Set a link's station, side and entity, by name: names outlive a reload,
 * whatever order the new configuration lists things in.
 */
void
link_place(struct link *l, const char *station, int side, const char *entity)
{
	if (station != NULL && (l->station == NULL ||
	    strcmp(l->station, station) != 0)) {
		free(l->station);
		l->station = xstrdup(station);
	}
	if (entity != NULL && (l->entity == NULL ||
	    strcmp(l->entity, entity) != 0)) {
		free(l->entity);
		l->entity = xstrdup(entity);
	}
	if (side != -1)
		l->side = side;
}

/*
 * Give a manual link the station and entity of its ports, when they have
 * them: the judge's terminal first, the entity second.
 */
static void
link_identify(struct link *l)
{
	size_t	s;
	int	i;

	if (link_conf == NULL)
		return;
	if (l->entity == NULL &&
	    (i = conf_port_find(link_conf, l->b->name)) != -1)
		for (s = 0; s < link_conf->nentities; s++)
			if (link_conf->entities[s].port == i)
				link_place(l, NULL, -1,
				    link_conf->entities[s].name);
	if (l->station == NULL &&
	    (i = conf_port_find(link_conf, l->a->name)) != -1)
		for (s = 0; s < link_conf->nstations; s++)
			if (link_conf->stations[s].left == i ||
			    link_conf->stations[s].right == i)
				link_place(l, link_conf->stations[s].name,
				    link_conf->stations[s].left == i ? 0 : 1,
				    NULL);
}

/*
 * Start what a new link carries besides its bytes, once its round,
 * station and entity are set: its recording, then its contest rules.
 */
void
link_started(struct link *l)
{
	static int	subscribed;
	struct timeval	tv;

	link_identify(l);
	record_link_open(l);
	if (l->entity != NULL && l->b->state != PORT_UP &&
	    link_is_terminal(l->a)) {
		/*
		 * The rules, and the judge's prompt, wait for the line.  Its
		 * coming up is watched from the first dead link on: after
		 * the recordings, so that its marker comes first.
		 */
		if (!subscribed) {
			events_subscribe(link_events, NULL,
			    EVENTS_BIT(PROTOCOL_EV_PORT_UP));
			subscribed = 1;
		}
		l->dead = 1;
		port_time(&tv);
		(void)link_due(l->a, tv.tv_sec, 1);
		link_notice(l->a, LINK_DEAD_TEXT);
		log_info("link %s: %s is not up: the judge's keys are refused "
		    "until it is", l->name, l->b->name);
		return;
	}
	rules_link_open(l);
}

/* Note in a dead link's capture how much of the judge's typing it refused. */
static void
link_refused_note(struct link *l)
{
	if (l->refused == 0)
		return;
	record_link_note(l, "refused %s %llu bytes line %s down", l->a->name,
	    (unsigned long long)l->refused, l->b->name);
	log_info("link %s: %llu bytes the judge typed while %s was down "
	    "refused", l->name, (unsigned long long)l->refused, l->b->name);
	l->refused = 0;
}

/*
 * A line came up (an events observer): a dead link waiting for it comes
 * to life, the judge told so and prompted.
 */
static void
link_events(void *arg, const struct events_ev *ev)
{
	struct link	*l;

	(void)arg;
	if (ev->type != PROTOCOL_EV_PORT_UP || ev->port == NULL ||
	    (l = link_of(ev->port)) == NULL || !l->dead || l->b != ev->port)
		return;
	l->dead = 0;
	link_refused_note(l);
	link_notice(l->a, LINK_LIVE_TEXT);
	log_info("link %s: %s is up: the conversation begins", l->name,
	    l->b->name);
	rules_link_open(l);
}

/* Drop what is still queued at one end of an ending link. */
static void
link_discard(struct port *p, const char *link)
{
	size_t	n;

	if ((n = evbuffer_get_length(p->outq)) == 0)
		return;
	evbuffer_drain(p->outq, n);
	p->dropped += n;
	p->dropping = 0;
	log_warnx("port %s: %zu bytes queued from link %s discarded as the "
	    "link ended", p->name, n, link);
	events_port(PROTOCOL_EV_DROP, p, "link ended", n, p->dropped, 1);
}

/*
 * Record what a paused end of an ending link sent before the end, as the
 * conversation's (port_drain_paused): but the entity's output recorded
 * as the judge gets it (the judge gets none of this) and the keys of a
 * dead link's judge (refused).
 */
static void
link_drained(void *arg, struct port *p, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	struct link	*l = arg;

	if ((l->deferred && p == l->b) || (l->dead && p == l->a))
		return;
	record_link_bytes(l, p, buf, n, tv);
}

/* End a link, giving a reason for the log and the watchers. */
void
link_free(struct link *l, const char *reason)
{
	const struct conf_entity	*en;

	l->a->owner = l->b->owner = NULL;
	port_drain_paused(l->a, l, link_drained, l->name);
	port_drain_paused(l->b, l, link_drained, l->name);
	port_pause(l->a, 0);
	port_pause(l->b, 0);
	link_discard(l->a, l->name);
	link_discard(l->b, l->name);
	link_refused_note(l);
	rules_link_close(l);
	record_link_close(l, reason);
	/* A fresh entry program for each conversation: this one ends. */
	if ((en = conf_entity_named(link_conf, l->entity)) != NULL &&
	    en->fresh && l->b->addr.kind == ADDR_EXEC)
		port_restart(l->b);
	TAILQ_REMOVE(&links, l, entry);
	log_info("link %s: ended (%s)", l->name, reason);
	events_post(PROTOCOL_EV_LINK_DOWN, json_pack("{ssss}", "link", l->name,
	    "reason", reason));
	free(l->name);
	free(l->station);
	free(l->entity);
	free(l);
}

/* Find a link by name. */
struct link *
link_find(const char *name)
{
	struct link	*l;

	TAILQ_FOREACH(l, &links, entry)
		if (strcmp(l->name, name) == 0)
			return (l);
	return (NULL);
}

/* Return the other end of a link. */
struct port *
link_peer(const struct link *l, const struct port *p)
{
	return (l->a == p ? l->b : l->a);
}

/* End a port's link, the port's owner, as the port goes (a port hook). */
void
link_port_unlink(void *owner, const char *reason)
{
	link_free(owner, reason);
}

/* Tell whether a port is a judge's terminal of the room, by name. */
int
link_is_terminal(const struct port *p)
{
	return (link_terminal_station(p) != NULL);
}

/*
 * The station whose terminal a port is, when the room keeps the 1996
 * convention (muxd is then the judge's terminal); NULL otherwise.
 */
static const struct conf_station *
link_terminal_station(const struct port *p)
{
	size_t	s;
	int	i;

	if (link_conf == NULL || !link_conf->convention ||
	    (i = conf_port_find(link_conf, p->name)) == -1)
		return (NULL);
	for (s = 0; s < link_conf->nstations; s++)
		if (link_conf->stations[s].left == i ||
		    link_conf->stations[s].right == i)
			return (&link_conf->stations[s]);
	return (NULL);
}

/*
 * Answer a judge terminal's ENQ: muxd is its terminal, says whether it
 * echoes the keys (comprog judge then shows muxd's echo alone) and how
 * the bytes read: the charset of the station's terminals, which muxd
 * converts every entity's text to, as in "ESC _ muxd echo charset=utf-8
 * ESC \" (without "echo" on a station with localecho).
 */
static void
link_answer(struct port *p, const unsigned char *buf, size_t n)
{
	const struct conf_station	*st;
	char				 a[64];
	int				 len;

	if (memchr(buf, TX_ENQ, n) == NULL ||
	    (st = link_terminal_station(p)) == NULL)
		return;
	len = snprintf(a, sizeof(a), "\033_muxd%s charset=%s\033\\",
	    st->localecho ? "" : " echo",
	    cap_encoding_name((enum cap_encoding)st->charset));
	if (len > 0 && (size_t)len < sizeof(a))
		port_send(p, (const unsigned char *)a, (size_t)len);
}

/* Write a notice of muxd's on a line, plain text on lines of its own. */
static void
link_write_notice(struct port *p, const char *text)
{
	char	buf[256];
	int	n;

	n = snprintf(buf, sizeof(buf), "\r\n*** %s ***\r\n", text);
	if (n > 0 && (size_t)n < sizeof(buf))
		port_send(p, (unsigned char *)buf, (size_t)n);
}

/*
 * Write a notice of muxd's on a judge's terminal, on lines of its own
 * (a judge's terminal only, with the 1996 convention: otherwise muxd
 * writes nothing to it).
 */
void
link_notice(struct port *p, const char *text)
{
	if (link_is_terminal(p))
		link_write_notice(p, text);
}

/*
 * The confederate whose line a port is, in a room whose schedule has a
 * ready_wait (its people wait for muxd's word that a round begins);
 * NULL otherwise.
 */
static const struct conf_entity *
link_confederate(const struct port *p)
{
	size_t	s;
	int	i;

	if (link_conf == NULL || link_conf->ready_wait <= 0 ||
	    (i = conf_port_find(link_conf, p->name)) == -1)
		return (NULL);
	for (s = 0; s < link_conf->nentities; s++)
		if (link_conf->entities[s].port == i &&
		    link_conf->entities[s].kind == CONF_CONFEDERATE)
			return (&link_conf->entities[s]);
	return (NULL);
}

/*
 * Write a notice of muxd's on a confederate's line, as on a judge's
 * terminal, in a room with a ready_wait; an entry's line (a program, to
 * which any text is the judge's words) is never written to.  Notices go
 * to the line only: they pass no rules and no recording, so they are
 * neither the judge's input nor the confederate's utterance.
 */
void
link_notice_confederate(struct port *p, const char *text)
{
	if (link_confederate(p) != NULL)
		link_write_notice(p, text);
}

/*
 * Tell whether a line is due a notice about its typing (none in the last
 * LINK_NOTICE_SEC seconds, or force), noting it is told now.
 */
static int
link_due(const struct port *p, time_t now, int force)
{
	size_t	i;

	for (i = 0; i < link_ntold; i++)
		if (strcmp(link_told[i].port, p->name) == 0)
			break;
	if (i == link_ntold) {
		if (link_ntold == LINK_TOLD_MAX)
			return (1);
		link_told[i].port = xstrdup(p->name);
		link_told[i].at = 0;
		link_ntold++;
	}
	if (!force && now - link_told[i].at < LINK_NOTICE_SEC)
		return (0);
	link_told[i].at = now;
	return (1);
}

/*
 * Pass bytes just read from a port to the other end of its link.  A
 * judge who types with no conversation is told so, at most once every
 * LINK_NOTICE_SEC seconds of typing (the keys themselves go nowhere);
 * so is a confederate in a room with a ready_wait.  While a round waits
 * for its lines, each of its lines that types is told that the round has
 * not begun, the same way, and its own capture marked.  A judge facing a
 * dead line is told it is down, and its keys are refused.
 */
void
link_forward(struct port *src, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	struct link	*l;
	char		 text[128];
	int		 w;

	link_answer(src, buf, n);
	if ((l = link_of(src)) == NULL) {
		src->unrouted += n;
		if (ballot_input(src, buf, n))
			return;
		if (!link_is_terminal(src) && link_confederate(src) == NULL)
			return;
		if (!link_due(src, tv->tv_sec, 0))
			return;
		if (link_waits != NULL && (w = link_waits(src)) > 0) {
			snprintf(text, sizeof(text), "round %d has not begun: "
			    "wait for its start", w);
			record_port_note(src, "refused round %d not begun", w);
		} else
			snprintf(text, sizeof(text), "no conversation on this "
			    "%s now: wait for the next round",
			    link_is_terminal(src) ? "terminal" : "line");
		link_notice(src, text);
		link_notice_confederate(src, text);
		return;
	}
	if (l->dead && src == l->a) {
		l->refused += n;
		if (link_due(src, tv->tv_sec, 0))
			link_notice(src, LINK_DEAD_TEXT);
		return;
	}
	if (l->rules != NULL)
		rules_forward(l, src, buf, n, tv, src->waited);
	else {
		record_link_bytes(l, src, buf, n, tv);
		if (port_send(link_peer(l, src), buf, n) == 1)
			link_flow_hold(src);
	}
}

/* Describe a link for the control protocol. */
json_t *
link_json(const struct link *l)
{
	const struct conf_entity	*en;

	en = conf_entity_named(link_conf, l->entity);
	return (json_pack("{ss ss ss ss si ss? ss? ss? ss? sf}",
	    "name", l->name, "a", l->a->name, "b", l->b->name,
	    "origin", l->origin == LINK_ROUND ? "round" : "manual",
	    "round", l->round,
	    "station", l->station,
	    "side", l->side == 0 ? "left" : l->side == 1 ? "right" : NULL,
	    "entity", l->entity,
	    "kind", en == NULL ? NULL : en->kind == CONF_ENTRY ? "entry" :
	    "confederate",
	    "since", l->since.tv_sec + l->since.tv_usec / 1e6));
}

/*
 * The links' member of the state file: those a restart resumes, the
 * links up, or those kept as muxd stops.
 */
json_t *
link_save(void)
{
	struct link	*l;
	json_t		*ls;

	if (link_kept != NULL)
		return (json_pack("{sO}", "links", link_kept));
	ls = json_array();
	TAILQ_FOREACH(l, &links, entry)
		json_array_append_new(ls, json_pack("{ssssssss}", "name",
		    l->name, "a", l->a->name, "b", l->b->name, "origin",
		    l->origin == LINK_ROUND ? "round" : "manual"));
	return (json_pack("{so}", "links", ls));
}

/*
 * Keep the links as they are for every later save (on: muxd is stopping,
 * and the links it ends are the ones a restart resumes), or forget them.
 */
void
link_keep(int on)
{
	json_t	*o;

	if (on && link_kept == NULL && (o = link_save()) != NULL) {
		link_kept = json_incref(json_object_get(o, "links"));
		json_decref(o);
	} else if (!on) {
		json_decref(link_kept);
		link_kept = NULL;
	}
}

/*
 * Make the manual links of the state file again (check: only say whether
 * the file has its links, -1 with a reason).
 */
int
link_load(const json_t *o, int check, char *err, size_t errlen)
{
	json_t		*ls, *e;
	const char	*a, *b, *origin;
	char		 name[128], why[MUXD_ERRLEN];
	struct port	*pa, *pb;
	struct link	*l;
	size_t		 i;

	if ((ls = json_object_get(o, "links")) == NULL || !json_is_array(ls)) {
		snprintf(err, errlen, "no array of links");
		return (-1);
	}
	if (check)
		return (0);
	json_array_foreach(ls, i, e) {
		if (json_unpack(e, "{ssssss}", "a", &a, "b", &b, "origin",
		    &origin) == -1 || strcmp(origin, "manual") != 0)
			continue;
		if ((pa = port_find(a)) == NULL || (pb = port_find(b)) == NULL) {
			log_warnx("state: link %s=%s not restored: port gone",
			    a, b);
			continue;
		}
		snprintf(name, sizeof(name), "%s=%s", a, b);
		if ((l = link_new(name, pa, pb, LINK_MANUAL, why,
		    sizeof(why))) == NULL)
			log_warnx("state: link %s not restored: %s", name, why);
		else
			link_started(l);
	}
	return (0);
}
