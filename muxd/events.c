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
 * An observer may say which events it wants right now; events_wanted()
 * lets a poster skip building an event nobody takes (a line of text when
 * nobody watches).
 */
#include <stdlib.h>

#include "muxd.h"

#define EVENTS_MAX	8

struct events_observer {
	events_fn	 fn;
	int		 (*wants)(void *, enum protocol_event);
	void		*arg;
};

static struct events_observer	events_observers[EVENTS_MAX];
static size_t			events_count;

/*
 * Add an observer: fn gets every event, wants (or NULL: all) says which
 * it takes now.  Fatal when the table is full: observers are fixed.
 */
void
events_subscribe(events_fn fn, int (*wants)(void *, enum protocol_event),
    void *arg)
{
	if (events_count == EVENTS_MAX)
		fatalx("events: no room for another observer");
	events_observers[events_count].fn = fn;
	events_observers[events_count].wants = wants;
	events_observers[events_count].arg = arg;
	events_count++;
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
		return;
	}
}

/* Tell whether any observer takes an event of this type now. */
int
events_wanted(enum protocol_event type)
{
	size_t	i;

	for (i = 0; i < events_count; i++)
		if (events_observers[i].wants == NULL ||
		    events_observers[i].wants(events_observers[i].arg, type))
			return (1);
	return (0);
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
		if (events_observers[i].wants == NULL ||
		    events_observers[i].wants(events_observers[i].arg,
		    ev->type))
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
