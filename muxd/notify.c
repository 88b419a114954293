/*
 * The service manager: under systemd (Type=notify, NOTIFY_SOCKET set)
 * muxd says when it is ready, reloading and stopping, and keeps a status
 * line for systemctl status: how many lines are up, the round, and a
 * fault while there is one.  Elsewhere sd_notify() does nothing.
 */
#include <stdio.h>
#include <string.h>

#include <systemd/sd-daemon.h>

#include "muxd.h"

static int	notify_ready;	/* READY=1 was sent: statuses follow */
static int	notify_round;	/* the round running, 0: none */
static char	notify_fault[128];

static void	notify_events(void *, const struct events_ev *);

/* Send the status line: lines up, the round, a fault. */
static void
notify_status(const char *state)
{
	struct port	*p;
	int		 up = 0, all = 0;
	char		 round[32];

	if (!notify_ready)
		return;
	TAILQ_FOREACH(p, &ports, entry) {
		all++;
		up += p->state == PORT_UP;
	}
	if (notify_round > 0)
		snprintf(round, sizeof(round), "round %d running", notify_round);
	else
		snprintf(round, sizeof(round), "no round running");
	sd_notifyf(0, "%sSTATUS=%d of %d lines up, %s%s%s", state != NULL ?
	    state : "", up, all, round, notify_fault[0] != '\0' ?
	    "; FAULT: " : "", notify_fault);
}

/* Follow lines, rounds and faults into the status line. */
static void
notify_events(void *arg, const struct events_ev *ev)
{
	json_t		*v;
	const char	*what, *err;

	(void)arg;
	switch (ev->type) {
	case PROTOCOL_EV_ROUND_START:
	case PROTOCOL_EV_ROUND_RESUME:
		v = json_object_get(ev->fields, "number");
		notify_round = json_is_integer(v) ? (int)json_integer_value(v) :
		    0;
		break;
	case PROTOCOL_EV_ROUND_STOP:
		notify_round = 0;
		break;
	case PROTOCOL_EV_FAULT:
		what = json_string_value(json_object_get(ev->fields, "what"));
		err = json_string_value(json_object_get(ev->fields, "error"));
		if (err == NULL)
			notify_fault[0] = '\0';
		else
			snprintf(notify_fault, sizeof(notify_fault), "%s: %s",
			    what != NULL ? what : "?", err);
		break;
	default:
		break;
	}
	notify_status(NULL);
}

/* Tell the service manager muxd is running, and start the status line. */
void
notify_start(void)
{
	/* The events that change the status line. */
	events_subscribe(notify_events, NULL, EVENTS_BIT(PROTOCOL_EV_PORT_UP) |
	    EVENTS_BIT(PROTOCOL_EV_PORT_DOWN) |
	    EVENTS_BIT(PROTOCOL_EV_ROUND_START) |
	    EVENTS_BIT(PROTOCOL_EV_ROUND_RESUME) |
	    EVENTS_BIT(PROTOCOL_EV_ROUND_STOP) | EVENTS_BIT(PROTOCOL_EV_FAULT));
	notify_ready = 1;
	notify_status("READY=1\n");
}

/* A reload starts (READY=1 follows when it is done). */
void
notify_reloading(void)
{
	sd_notify(0, "RELOADING=1\nSTATUS=reloading the configuration");
}

/* A reload has ended, taken or not. */
void
notify_reloaded(void)
{
	notify_status("READY=1\n");
}

/* muxd is stopping. */
void
notify_stopping(void)
{
	events_unsubscribe(notify_events, NULL);
	notify_ready = 0;
	sd_notify(0, "STOPPING=1\nSTATUS=stopping");
}
