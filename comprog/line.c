/*
 * The line: one port of the line library (line/), with comprog's
 * hooks.  port.c reopens a line that fails with backoff (a pulled cable,
 * a peer gone, a device that vanished), a tcp-listen line waits for its
 * next peer, and what is sent while the line is down waits in the port's
 * queue, bounded by COMPROG_QUEUE, to go out when the line returns.
 *
 * comprog never lets that queue overflow: line_send() refuses, whole,
 * what does not fit, and the side that called it shows the refusal (a
 * bell and the status line), so a keystroke is either sent, or kept and
 * sent on return, or visibly refused; never lost silently.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comprog.h"

static struct port	*line_port;
static struct line_cb	 line_cb;
static char		*line_text;	/* the address, canonical */
static int		 line_downs;	/* times it went down */

static void	line_forward(struct port *, const unsigned char *, size_t,
		    const struct timeval *);
static void	line_event(struct port *, const struct port_event *);

static const struct port_hooks line_hooks = {
	.forward = line_forward,
	.event = line_event,
	.clock = comprog_time
};

/* Hand the bytes read from the line to the side. */
static void
line_forward(struct port *p, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	(void)p;
	if (line_cb.read != NULL)
		line_cb.read(buf, n, tv);
}

/* Take port.c's events: the line up or down, bytes dropped. */
static void
line_event(struct port *p, const struct port_event *ev)
{
	const char	*error = ev->error;
	long long	 bytes = (long long)ev->bytes;
	char		 msg[LINE_ERRLEN + 64];

	(void)p;
	if (ev->kind == PORT_EVENT_UP) {
		if (line_downs > 0)
			transcript_marker("fault line up");
		snprintf(msg, sizeof(msg), "up");
		if (line_cb.change != NULL)
			line_cb.change(LINE_UP, msg);
	} else if (ev->kind == PORT_EVENT_DOWN) {
		line_downs++;
		transcript_marker("fault line down %s",
		    error != NULL ? error : "");
		snprintf(msg, sizeof(msg), "%s", error != NULL ? error : "down");
		if (line_cb.change != NULL)
			line_cb.change(LINE_DOWN, msg);
	} else if (ev->kind == PORT_EVENT_DROP) {
		transcript_marker("drop %lld line", bytes);
		snprintf(msg, sizeof(msg), "%lld bytes dropped", bytes);
		if (line_cb.change != NULL)
			line_cb.change(LINE_DROP, msg);
	}
}

/*
 * Open the line at an address (muxd's syntax); it comes up now or later.
 * -1 with a message when the address is bad.
 */
int
line_open(const char *text, const struct line_cb *cb, char *err,
    size_t errlen)
{
	struct addr	a;
	char		msg[LINE_ERRLEN];

	if (addr_parse(text, &a, msg, sizeof(msg)) == -1) {
		snprintf(err, errlen, "bad address '%s': %s", text, msg);
		return (-1);
	}
	if (a.kind == ADDR_EXEC) {
		snprintf(err, errlen, "bad address '%s': exec: is muxd's; "
		    "run a program with comprog entry ADDRESS -- PROGRAM", text);
		addr_free(&a);
		return (-1);
	}
	line_cb = *cb;
	port_hooks_set(comprog_base, &line_hooks);
	line_port = port_new("line", &a, COMPROG_QUEUE);
	if ((line_text = addr_format(&a)) == NULL)
		line_text = strdup(text);
	addr_free(&a);
	port_start(line_port);
	return (0);
}

/* Close the line, freeing what waits for it. */
void
line_close(void)
{
	if (line_port == NULL)
		return;
	port_free(line_port);
	line_port = NULL;
	free(line_text);
	line_text = NULL;
}

/* The address of the line, canonical. */
const char *
line_address(void)
{
	return (line_text != NULL ? line_text : "");
}

/* Tell whether the line is up. */
int
line_is_up(void)
{
	return (line_port != NULL && line_port->state == PORT_UP);
}

/* Bytes waiting for the line. */
size_t
line_queued(void)
{
	return (line_port != NULL ? evbuffer_get_length(line_port->outq) : 0);
}

/* Bytes the line's queue can still take. */
size_t
line_room(void)
{
	size_t	q;

	if (line_port == NULL)
		return (0);
	q = evbuffer_get_length(line_port->outq);
	return (q < line_port->limit ? line_port->limit - q : 0);
}

/*
 * Send bytes on the line, or keep them for its return; -1 (nothing sent)
 * when they do not fit in what may wait.
 */
int
line_send(const unsigned char *buf, size_t n)
{
	if (line_port == NULL || n > line_room())
		return (-1);
	if (n > 0)
		port_send(line_port, buf, n);
	return (0);
}

/* Say in a few words how the line is, for the status line. */
void
line_describe(char *buf, size_t len)
{
	const struct port	*p = line_port;

	if (p == NULL) {
		snprintf(buf, len, "no line");
		return;
	}
	switch (p->state) {
	case PORT_UP:
		snprintf(buf, len, "%s up", line_text);
		break;
	case PORT_WAITING:
		if (p->addr.kind == ADDR_TCP_LISTEN)
			snprintf(buf, len, "waiting for a peer on %s",
			    line_text);
		else
			snprintf(buf, len, "connecting to %s", line_text);
		break;
	case PORT_DOWN:
		snprintf(buf, len, "LINE DOWN, retrying");
		break;
	}
}

/* Why the line is not up ("" when it is, or nothing is known). */
const char *
line_error(void)
{
	if (line_port == NULL || line_port->state == PORT_UP)
		return ("");
	return (line_port->error);
}
