/*
 * comprog's line (cline): one port of the line library (line/), with
 * comprog's hooks.  port.c reopens a line that fails with backoff (a
 * pulled cable, a peer gone, a device that vanished), a tcp-listen line
 * waits for its next peer, and what is sent while the line is down waits
 * in the port's queue, bounded by COMPROG_QUEUE, to go out when the line
 * returns.
 *
 * comprog never lets that queue overflow: cline_send() refuses, whole,
 * what does not fit, and the side that called it shows the refusal (a
 * bell and the status line), so a keystroke is either sent, or kept and
 * sent on return, or visibly refused; never lost silently.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comprog.h"

static struct port	*cline_port;
static struct cline_cb	 cline_cb;
static char		*cline_text;	/* the address, canonical */
static int		 cline_downs;	/* times it went down */

static void	cline_forward(struct port *, const unsigned char *, size_t,
		    const struct timeval *);
static void	cline_event(struct port *, const struct port_event *);

static const struct port_hooks cline_hooks = {
	.forward = cline_forward,
	.event = cline_event,
	.clock = comprog_time
};

/* Hand the bytes read from the line to the side. */
static void
cline_forward(struct port *p, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	(void)p;
	if (cline_cb.read != NULL)
		cline_cb.read(buf, n, tv);
}

/* Take port.c's events: the line up or down, bytes dropped. */
static void
cline_event(struct port *p, const struct port_event *ev)
{
	const char	*error = ev->error;
	long long	 bytes = (long long)ev->bytes;
	char		 msg[LINE_ERRLEN + 64];

	(void)p;
	if (ev->kind == PORT_EVENT_UP) {
		if (cline_downs > 0)
			transcript_marker("fault line up");
		snprintf(msg, sizeof(msg), "up");
		if (cline_cb.change != NULL)
			cline_cb.change(CLINE_UP, msg);
	} else if (ev->kind == PORT_EVENT_DOWN) {
		cline_downs++;
		transcript_marker("fault line down %s",
		    error != NULL ? error : "");
		snprintf(msg, sizeof(msg), "%s", error != NULL ? error : "down");
		if (cline_cb.change != NULL)
			cline_cb.change(CLINE_DOWN, msg);
	} else if (ev->kind == PORT_EVENT_DROP) {
		transcript_marker("drop %lld line", bytes);
		snprintf(msg, sizeof(msg), "%lld bytes dropped", bytes);
		if (cline_cb.change != NULL)
			cline_cb.change(CLINE_DROP, msg);
	}
}

/*
 * Open the line at an address (muxd's syntax); it comes up now or later.
 * -1 with a message when the address is bad.
 */
int
cline_open(const char *text, const struct cline_cb *cb, char *err,
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
	cline_cb = *cb;
	port_hooks_set(comprog_base, &cline_hooks);
	if ((cline_port = port_new("line", &a, COMPROG_QUEUE)) == NULL) {
		snprintf(err, errlen, "%s: %s", text, strerror(errno));
		addr_free(&a);
		return (-1);
	}
	if ((cline_text = addr_format(&a)) == NULL)
		cline_text = strdup(text);
	addr_free(&a);
	port_start(cline_port);
	return (0);
}

/* Close the line, freeing what waits for it. */
void
cline_close(void)
{
	if (cline_port == NULL)
		return;
	port_free(cline_port);
	cline_port = NULL;
	free(cline_text);
	cline_text = NULL;
}

/* The address of the line, canonical. */
const char *
cline_address(void)
{
	return (cline_text != NULL ? cline_text : "");
}

/* Tell whether the line is up. */
int
cline_is_up(void)
{
	return (cline_port != NULL && cline_port->state == PORT_UP);
}

/* Bytes waiting for the line. */
size_t
cline_queued(void)
{
	return (cline_port != NULL ? evbuffer_get_length(cline_port->outq) : 0);
}

/* Bytes the line's queue can still take. */
size_t
cline_room(void)
{
	size_t	q;

	if (cline_port == NULL)
		return (0);
	q = evbuffer_get_length(cline_port->outq);
	return (q < cline_port->limit ? cline_port->limit - q : 0);
}

/*
 * Send bytes on the line, or keep them for its return; -1 (nothing sent)
 * when they do not fit in what may wait.
 */
int
cline_send(const unsigned char *buf, size_t n)
{
	if (cline_port == NULL || n > cline_room())
		return (-1);
	if (n > 0)
		port_send(cline_port, buf, n);
	return (0);
}

/* Say in a few words how the line is, for the status line. */
void
cline_describe(char *buf, size_t len)
{
	const struct port	*p = cline_port;

	if (p == NULL) {
		snprintf(buf, len, "no line");
		return;
	}
	switch (p->state) {
	case PORT_UP:
		snprintf(buf, len, "%s up", cline_text);
		break;
	case PORT_WAITING:
		if (p->addr.kind == ADDR_TCP_LISTEN)
			snprintf(buf, len, "waiting for a peer on %s",
			    cline_text);
		else
			snprintf(buf, len, "connecting to %s", cline_text);
		break;
	case PORT_DOWN:
		snprintf(buf, len, "LINE DOWN, retrying");
		break;
	}
}

/* Why the line is not up ("" when it is, or nothing is known). */
const char *
cline_error(void)
{
	if (cline_port == NULL || cline_port->state == PORT_UP)
		return ("");
	return (cline_port->error);
}
