/*
 * The event bus of the daemon.  What happens in the room (a line up or
 * down, bytes dropped, a link made or ended, a round, a verdict, a line of
 * text) is posted here, typed by enum protocol_event, with its wire fields
 * and, for a line's events, the port and what the recordings need of it.
 * The bus hands each event to its observers in the order they subscribed:
 * the recordings (markers, record.c) and the control socket (watchers,
 * control.c).  A module that posts knows neither, so no module of the
 * daemon depends on the control socket or the recorder to report.
 *
 * An observer says which events it takes, a mask of EVENTS_BIT(type),
 * and tells the bus whenever that changes (events_want); events_wanted()
 * lets a poster skip building an event nobody takes (a line of text when
 * nobody watches) at the cost of a bit test, since it is asked for every
 * chunk a link forwards.
 */
#include <stdlib.h>

#include "muxd.h"

#define EVENTS_MAX	8

struct events_observer {
	events_fn	 fn;
	void		*arg;
	uint32_t	 mask;		/* the events it takes now */
};

_Static_assert(PROTOCOL_EV_COUNT < 32, "an event's bit in a uint32_t");

static struct events_observer	events_observers[EVENTS_MAX];
static size_t			events_count;
static uint32_t			events_mask;	/* what any takes */

static void	events_remask(void);

/* Gather what the observers take. */
static void
events_remask(void)
{
	size_t	i;

	events_mask = 0;
	for (i = 0; i < events_count; i++)
		events_mask |= events_observers[i].mask;
}

/*
 * Add an observer: fn gets the events of mask (EVENTS_ALL: all).  Fatal
 * when the table is full: observers are fixed.
 */
void
events_subscribe(events_fn fn, void *arg, uint32_t mask)
{
	if (events_count == EVENTS_MAX)
		fatalx("events: no room for another observer");
	events_observers[events_count].fn = fn;
	events_observers[events_count].arg = arg;
	events_observers[events_count].mask = mask;
	events_count++;
	events_remask();
}

/* Change the events an observer takes. */
void
events_want(events_fn fn, void *arg, uint32_t mask)
{
	size_t	i;

	for (i = 0; i < events_count; i++)
		if (events_observers[i].fn == fn &&
		    events_observers[i].arg == arg)
			events_observers[i].mask = mask;
	events_remask();
}

/* Remove an observer. */
void
events_unsubscribe(events_fn fn, void *arg)
{
	size_t	i;

	for (i = 0; i < events_count; i++) {
		if (events_observers[i].fn != fn ||
		    events_observers[i].arg != arg)
			continue;
		events_count--;
		for (; i < events_count; i++)
			events_observers[i] = events_observers[i + 1];
		events_remask();
		return;
	}
}

/* Tell whether any observer takes an event of this type now. */
int
events_wanted(enum protocol_event type)
{
	return ((events_mask & EVENTS_BIT(type)) != 0);
}

/*
 * Hand an event to every observer that takes it, then release its
 * fields (the poster's reference).
 */
void
events_emit(struct events_ev *ev)
{
	size_t	i;

	for (i = 0; i < events_count; i++)
		if (events_observers[i].mask & EVENTS_BIT(ev->type))
			events_observers[i].fn(events_observers[i].arg, ev);
	json_decref(ev->fields);
	ev->fields = NULL;
}

/* Post an event with its wire fields (taken; NULL for none). */
void
events_post(enum protocol_event type, json_t *fields)
{
	struct events_ev	ev = { .type = type, .fields = fields };

	events_emit(&ev);
}

/*
 * Post an event of a port: up, down (error says why) or drop (bytes, with
 * a reason in error or none); the wire fields are made here.
 */
void
events_port(enum protocol_event type, struct port *p, const char *error,
    uint64_t bytes, uint64_t total, int end)
{
	struct events_ev	ev = { .type = type, .port = p,
				    .error = error, .bytes = bytes };

	switch (type) {
	case PROTOCOL_EV_PORT_DOWN:
		ev.fields = json_pack("{ssss}", "port", p->name, "error",
		    error != NULL ? error : "");
		break;
	case PROTOCOL_EV_DROP:
		ev.fields = json_pack("{sssIsIsbss*}", "port", p->name,
		    "bytes", (json_int_t)bytes, "total", (json_int_t)total,
		    "end", end, "reason", error);
		break;
	default:
		ev.fields = json_pack("{ss}", "port", p->name);
		break;
	}
	events_emit(&ev);
}
