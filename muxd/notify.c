/*
 * The service manager: under systemd (Type=notify, NOTIFY_SOCKET set)
 * muxd says when it is ready, reloading and stopping, and keeps a status
 * line for systemctl status: how many lines are up, the round, the faults
 * that last now (those muxctl status tells: the state, the recordings,
 * their ends), and the last fault told, with its time.  Elsewhere
 * sd_notify() does nothing.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <systemd/sd-daemon.h>

#include "muxd.h"

static int	notify_ready;	/* READY=1 was sent: statuses follow */
static int	notify_round;	/* the round running, 0: none */
static char	notify_last[160];	/* the last fault told, and when */

static void	notify_events(void *, const struct events_ev *);
static int	notify_record(char *, size_t, int, const char *, json_t *);
static int	notify_lasting(char *, size_t);

/*
 * Count a recording's fault (o, a status object or null, released) into
 * the lasting ones, buf holding the first; the new count.
 */
static int
notify_record(char *buf, size_t len, int n, const char *what, json_t *o)
{
	const char	*err;

	if (json_is_object(o)) {
		err = json_string_value(json_object_get(o, "error"));
		if (n == 0)
			snprintf(buf, len, "%s: %s", what, err != NULL ? err :
			    "?");
		n++;
	}
	json_decref(o);
	return (n);
}

/*
 * Put the first fault that lasts now in buf; how many there are.  The
 * same as muxctl status: the state that cannot be saved, the recordings
 * that cannot write, the ends that wait for the disk.
 */
static int
notify_lasting(char *buf, size_t len)
{
	struct link	*l;
	struct port	*p;
	json_t		*a, *o;
	const char	*err;
	char		 what[96];
	size_t		 i;
	int		 n = 0;

	buf[0] = '\0';
	if ((err = state_failure()) != NULL) {
		snprintf(buf, len, "the state cannot be saved: %s", err);
		n++;
	}
	TAILQ_FOREACH(l, &links, entry) {
		snprintf(what, sizeof(what), "the recording of link %s",
		    l->name);
		n = notify_record(buf, len, n, what, record_link_status(l));
	}
	TAILQ_FOREACH(p, &ports, entry) {
		snprintf(what, sizeof(what), "the recording of port %s",
		    p->name);
		n = notify_record(buf, len, n, what, record_port_status(p));
	}
	a = record_closing_status();
	json_array_foreach(a, i, o) {
		if (n++ > 0)
			continue;
		err = json_string_value(json_object_get(o, "error"));
		snprintf(buf, len, "the end of the recording of %s waits for "
		    "the disk%s%s", json_string_value(json_object_get(o,
		    "record")), err != NULL ? ": " : "", err != NULL ? err : "");
	}
	json_decref(a);
	return (n);
}

/*
 * Send the status line: lines up, the round, the faults that last, the
 * last fault told.
 */
static void
notify_status(const char *state)
{
	struct port	*p;
	int		 up = 0, all = 0, n;
	char		 round[32], fault[256], more[32];

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
	more[0] = '\0';
	if ((n = notify_lasting(fault, sizeof(fault))) > 1)
		snprintf(more, sizeof(more), " (and %d more)", n - 1);
	sd_notifyf(0, "%sSTATUS=%d of %d lines up, %s%s%s%s%s%s", state !=
	    NULL ? state : "", up, all, round, n > 0 ? "; FAULT: " : "",
	    fault, more, notify_last[0] != '\0' ? "; last fault " : "",
	    notify_last);
}

/* Follow lines, rounds and faults into the status line. */
static void
notify_events(void *arg, const struct events_ev *ev)
{
	json_t		*v;
	const char	*what, *err;
	time_t		 now;
	char		 hms[16];

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
			break;	/* a fault cleared: no longer among the lasting */
		now = time(NULL);
		strftime(hms, sizeof(hms), "%H:%M:%S", localtime(&now));
		snprintf(notify_last, sizeof(notify_last), "%s %s: %s", hms,
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
