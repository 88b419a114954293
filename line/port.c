/*
 * Port lifecycle and I/O, whatever the kind of line.
 *
 * A port reads whenever its line is readable and hands each chunk, as soon
 * as it is read, to the program's forward hook (muxd: link_forward(); see
 * struct port_hooks, which lets comprog run the same line code).  The
 * port's owner (muxd: its link) is the program's; the line code only
 * hands it back through the hooks.  Writing
 * to a port first tries the line
 * directly; what the line does not take waits in outq, and only then is the
 * port watched for writability.  outq is bounded by limit, with a policy
 * that depends on the state of the line:
 *
 *  - line up but slow or stalled: once outq reaches limit, the port that
 *    feeds it (its link peer) is no longer read until outq drains to half
 *    the limit.  Nothing is lost; the bytes wait in the source's own line,
 *    and only that one conversation waits.  outq then stays within limit
 *    plus one read (PORT_READ_SIZE).  port_send() says the queue is
 *    full; the program decides whom to hold back (muxd: the link,
 *    link-flow.c, which holds neither end when both would be), and is
 *    told when the queue takes more again (PORT_EVENT_WRITABLE).  The
 *    queue may grow to PORT_HARD times limit; past that, bytes are
 *    dropped, counted, logged and announced.
 *  - line down: outq keeps what arrives up to limit, to be delivered when
 *    the line returns; bytes beyond it are dropped, counted, logged and
 *    announced ("drop" events), never silently.
 *
 * Either way no port ever waits for another conversation's line.
 *
 * A line that fails is closed and reopened with exponential backoff; a
 * listener waits for its next peer instead.  No timer runs while every port
 * is up.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "line.h"

#define PORT_BACKOFF_MIN	250	/* ms */
#define PORT_BACKOFF_MAX	8000
#define PORT_READ_SIZE		PORT_CHUNK
#define PORT_HARD		16	/* times limit a queue may reach */
#define PORT_STABLE		10	/* s up before the backoff resets */

struct port_list ports = TAILQ_HEAD_INITIALIZER(ports);

static void	port_open(struct port *);
static void	port_read_cb(evutil_socket_t, short, void *);
static void	port_write_cb(evutil_socket_t, short, void *);
static void	port_retry_cb(evutil_socket_t, short, void *);
static void	port_drop(struct port *, size_t, size_t);
static void	port_wrote(struct port *, const unsigned char *, size_t);
static void	port_events_free(struct port *);
static void	port_event(struct port *, enum port_event_kind, const char *,
		    uint64_t, uint64_t, int);
static void	port_writable(struct port *);

static struct port_hooks	 port_hooks;
static struct event_base	*port_evbase;
static struct timeval		 port_now;	/* of the read handed on */
static int			 port_now_on;

/*
 * Set the program's event loop and what the line code calls back; once,
 * before the first port_new().
 */
void
port_hooks_set(struct event_base *base, const struct port_hooks *hooks)
{
	port_evbase = base;
	port_hooks = *hooks;
}

/* Give the event loop the program runs the lines on. */
struct event_base *
port_base(void)
{
	return (port_evbase);
}

/*
 * Start an exec: port's program on the pty given through the program's
 * spawn hook: its pid, -1 with a reason, or 0 when there is no hook.
 */
pid_t
port_spawn(struct port *p, int tty, char *err, size_t errlen)
{
	if (port_hooks.spawn == NULL)
		return (0);
	return (port_hooks.spawn(p, tty, err, errlen));
}

/* Signal the process group of a program an exec: port started. */
void
port_killpg(pid_t pid, int sig)
{
	if (port_hooks.kill != NULL)
		port_hooks.kill(pid, sig);
	else
		kill(-pid, sig);
}

/*
 * Read the program's clock; while a read is handed on, the time of that
 * read, so that what it causes (the bytes written on, the markers) is of
 * one time, and a byte forwarded costs one reading of the clock, not two.
 */
void
port_time(struct timeval *tv)
{
	if (port_now_on)
		*tv = port_now;
	else
		port_hooks.clock(tv);
}

/* Tell the program what happened to a line, if it wants to know. */
static void
port_event(struct port *p, enum port_event_kind kind, const char *error,
    uint64_t bytes, uint64_t total, int end)
{
	struct port_event	ev;

	if (port_hooks.event == NULL)
		return;
	ev.kind = kind;
	ev.error = error;
	ev.bytes = bytes;
	ev.total = total;
	ev.end = end;
	port_hooks.event(p, &ev);
}

/*
 * Tell the program that a port's queue takes more (below half its limit,
 * or the line down), so that what was held back for it is read again.
 */
static void
port_writable(struct port *p)
{
	port_event(p, PORT_EVENT_WRITABLE, NULL, 0, 0, 0);
}

/* Name a port state as the control protocol shows it. */
const char *
port_state_name(enum port_state state)
{
	switch (state) {
	case PORT_UP:
		return ("up");
	case PORT_WAITING:
		return ("waiting");
	case PORT_DOWN:
		break;
	}
	return ("down");
}

/*
 * Create a port for an address; it stays down until port_start().  NULL
 * when out of memory (errno ENOMEM).
 */
struct port *
port_new(const char *name, const struct addr *addr, size_t limit)
{
	struct port	*p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return (NULL);
	if ((p->name = strdup(name)) == NULL) {
		free(p);
		errno = ENOMEM;
		return (NULL);
	}
	if (addr_copy(&p->addr, addr) == -1) {
		free(p->name);
		free(p);
		errno = ENOMEM;
		return (NULL);
	}
	switch (addr->kind) {
	case ADDR_DEVICE:
		p->ops = &port_serial_ops;
		break;
	case ADDR_PTY:
		p->ops = &port_pty_ops;
		break;
	case ADDR_EXEC:
		p->ops = &port_exec_ops;
		break;
	case ADDR_TCP:
		p->ops = &port_tcp_ops;
		break;
	case ADDR_TCP_LISTEN:
		p->ops = &port_tcp_listen_ops;
		break;
	case ADDR_FTDI:
		p->ops = &port_ftdi_ops;
		break;
	case ADDR_RFC2217:
		p->ops = &port_rfc2217_ops;
		break;
	}
	p->fd = p->aux_fd = -1;
	p->pid = -1;
	p->limit = limit;
	p->state = PORT_DOWN;
	p->backoff_ms = PORT_BACKOFF_MIN;
	if ((p->outq = evbuffer_new()) == NULL ||
	    (p->ev_retry = evtimer_new(port_base(), port_retry_cb, p)) == NULL) {
		if (p->outq != NULL)
			evbuffer_free(p->outq);
		addr_free(&p->addr);
		free(p->name);
		free(p);
		errno = ENOMEM;
		return (NULL);
	}
	port_time(&p->since);
	TAILQ_INSERT_TAIL(&ports, p, entry);
	return (p);
}

/* Close a port's line and free it, unlinking it first. */
void
port_free(struct port *p)
{
	if (p->owner != NULL && port_hooks.unlink != NULL)
		port_hooks.unlink(p->owner, "port removed");
	port_events_free(p);
	if (p->state != PORT_DOWN)
		p->ops->close(p);
	p->ops->release(p);
	if (port_hooks.closed != NULL)
		port_hooks.closed(p);
	event_free(p->ev_retry);
	evbuffer_free(p->outq);
	TAILQ_REMOVE(&ports, p, entry);
	addr_free(&p->addr);
	free(p->name);
	free(p);
}

/* Find a port by name. */
struct port *
port_find(const char *name)
{
	struct port	*p;

	TAILQ_FOREACH(p, &ports, entry)
		if (strcmp(p->name, name) == 0)
			return (p);
	return (NULL);
}

/* Open a port's line for the first time. */
void
port_start(struct port *p)
{
	port_open(p);
}

/* Try to open the line; on failure the port stays down and retries. */
static void
port_open(struct port *p)
{
	char	err[LINE_ERRLEN];
	int	r;

	err[0] = '\0';
	r = p->ops->open(p, err, sizeof(err));
	if (r == 0)
		port_up(p);
	else if (r == 1) {
		p->state = PORT_WAITING;
		port_time(&p->since);
	} else
		port_down(p, "%s", err);
}

/*
 * Close a port's line and open it again at once, whatever its state: an
 * exec: program is ended and started anew.  Nothing is reported down.
 */
void
port_restart(struct port *p)
{
	port_events_free(p);
	if (p->state != PORT_DOWN)
		p->ops->close(p);
	p->fd = -1;
	p->state = PORT_DOWN;
	evtimer_del(p->ev_retry);
	log_info("port %s: started anew", p->name);
	port_open(p);
}

/* Retry opening a line after the backoff delay. */
static void
port_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	port_open(arg);
}

/* Free the read and write events of a line. */
static void
port_events_free(struct port *p)
{
	if (p->ev_read != NULL)
		event_free(p->ev_read);
	if (p->ev_write != NULL)
		event_free(p->ev_write);
	p->ev_read = p->ev_write = NULL;
}

/* Mark a port up once its line is open in fd, and deliver what waits. */
void
port_up(struct port *p)
{
	int	flags;

	if ((flags = fcntl(p->fd, F_GETFL)) != -1)
		fcntl(p->fd, F_SETFL, flags | O_NONBLOCK);
	port_events_free(p);
	p->ev_read = event_new(port_base(), p->fd, EV_READ | EV_PERSIST,
	    port_read_cb, p);
	p->ev_write = event_new(port_base(), p->fd, EV_WRITE | EV_PERSIST,
	    port_write_cb, p);
	if (p->ev_read == NULL || p->ev_write == NULL) {
		port_down(p, "cannot allocate its events");
		return;
	}
	if (!p->paused)
		event_add(p->ev_read, NULL);
	p->state = PORT_UP;
	/* What a line kept while it was down comes at once. */
	p->waited = p->downs > 0;
	p->error[0] = '\0';
	port_time(&p->since);
	log_info("port %s: up", p->name);
	port_event(p, PORT_EVENT_UP, NULL, 0, 0, 0);
	if (evbuffer_get_length(p->outq) > 0) {
		log_info("port %s: delivering %zu queued bytes", p->name,
		    evbuffer_get_length(p->outq));
		event_add(p->ev_write, NULL);
	}
}

/*
 * Mark a port down with the reason, close its line and arrange to reopen
 * it: a listener waits for its next peer, anything else retries with
 * backoff.  The reason is logged when it changes.
 */
void
port_down(struct port *p, const char *fmt, ...)
{
	char		 why[LINE_ERRLEN];
	struct timeval	 tv;
	time_t		 up_for;
	va_list		 ap;
	enum port_state	 was = p->state;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);

	port_time(&tv);
	up_for = tv.tv_sec - p->since.tv_sec;
	port_events_free(p);
	if (was != PORT_DOWN)
		p->ops->close(p);
	p->fd = -1;
	port_writable(p);
	if (was == PORT_UP) {
		p->downs++;
		log_warnx("port %s: down: %s", p->name, why);
		port_event(p, PORT_EVENT_DOWN, why, 0, 0, 0);
	} else if (strcmp(why, p->error) != 0)
		log_warnx("port %s: %s; retrying", p->name, why);
	snprintf(p->error, sizeof(p->error), "%s", why);
	port_time(&p->since);

	if (p->addr.kind == ADDR_TCP_LISTEN && p->aux_fd != -1) {
		p->state = PORT_WAITING;
		return;
	}
	p->state = PORT_DOWN;
	/* A line that stayed up a while starts the backoff afresh. */
	if (was == PORT_UP && up_for >= PORT_STABLE)
		p->backoff_ms = PORT_BACKOFF_MIN;
	tv.tv_sec = p->backoff_ms / 1000;
	tv.tv_usec = (p->backoff_ms % 1000) * 1000;
	evtimer_add(p->ev_retry, &tv);
	p->backoff_ms *= 2;
	if (p->backoff_ms > PORT_BACKOFF_MAX)
		p->backoff_ms = PORT_BACKOFF_MAX;
}

/* Read what the line has and forward it at once. */
static void
port_read_cb(evutil_socket_t fd, short what, void *arg)
{
	/* One for every port: the loop is one thread (and see rules.c). */
	static unsigned char buf[PORT_READ_SIZE];
	struct port	*p = arg;
	char		 why[LINE_ERRLEN];
	struct timeval	 tv;
	ssize_t		 n;

	(void)what;
	n = read(fd, buf, sizeof(buf));
	if (n > 0) {
		port_time(&tv);
		port_now = tv;
		port_now_on = 1;
		p->bytes_in += n;
		p->last_in = tv;
		if (port_hooks.tap != NULL)
			port_hooks.tap(p, p->owner, PORT_IN, buf, n, &tv);
		if (port_hooks.forward != NULL)
			port_hooks.forward(p, buf, n, &tv);
		port_now_on = 0;
		/* A short read has emptied what waited in the line. */
		if ((size_t)n < sizeof(buf))
			p->waited = 0;
		return;
	}
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == 0 && p->addr.kind == ADDR_RFC2217)
		port_down(p, "%s", port_rfc2217_why(p, why, sizeof(why)));
	else if (n == 0)
		port_down(p, p->addr.kind == ADDR_TCP ||
		    p->addr.kind == ADDR_TCP_LISTEN ?
		    "peer closed the connection" : "end of file");
	else if (errno == EIO && p->addr.kind == ADDR_EXEC)
		port_down(p, "program ended");
	else
		port_down(p, "read: %s", strerror(errno));
}

/* Account for bytes written to a port's line. */
static void
port_wrote(struct port *p, const unsigned char *buf, size_t n)
{
	struct timeval	tv;

	port_time(&tv);
	p->bytes_out += n;
	p->last_out = tv;
	if (port_hooks.tap != NULL)
		port_hooks.tap(p, p->owner, PORT_OUT, buf, n, &tv);
}

/* Write queued bytes when the line can take them. */
static void
port_write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct port		*p = arg;
	struct evbuffer_iovec	 v;
	ssize_t			 n;

	(void)what;
	if (evbuffer_peek(p->outq, -1, NULL, &v, 1) < 1) {
		event_del(p->ev_write);
		return;
	}
	n = write(fd, v.iov_base, v.iov_len);
	if (n == -1) {
		if (errno != EAGAIN && errno != EINTR)
			port_down(p, "write: %s", strerror(errno));
		return;
	}
	port_wrote(p, v.iov_base, n);
	evbuffer_drain(p->outq, n);
	if (evbuffer_get_length(p->outq) <= p->limit / 2)
		port_writable(p);
	if (evbuffer_get_length(p->outq) > 0)
		return;
	event_del(p->ev_write);
	if (p->dropping > 0) {
		log_warnx("port %s: queue drained; %llu bytes were dropped "
		    "while it was full", p->name,
		    (unsigned long long)p->dropping);
		port_event(p, PORT_EVENT_DROP, NULL, p->dropping, p->dropped,
		    1);
		p->dropping = 0;
	}
}

/*
 * Count bytes dropped on a queue full at size bytes; the first of an
 * episode is logged with the size the queue reached.
 */
static void
port_drop(struct port *p, size_t n, size_t size)
{
	if (p->dropping == 0) {
		log_warnx("port %s: queue full (%zu bytes), dropping bytes "
		    "for it", p->name, size);
		port_event(p, PORT_EVENT_DROP, NULL, n, p->dropped + n, 0);
	}
	p->dropped += n;
	p->dropping += n;
}

/*
 * Send bytes out on a port: at once if its line takes them, else queued.
 * Returns 1 when the queue is full and the caller should stop reading the
 * source until the port drains.
 */
int
port_send(struct port *p, const unsigned char *buf, size_t n)
{
	size_t	queued, room;
	ssize_t	w;

	if (n > 0)
		p->midline = buf[n - 1] != '\r' && buf[n - 1] != '\n';

	if (p->state == PORT_UP && evbuffer_get_length(p->outq) == 0) {
		w = write(p->fd, buf, n);
		if (w == -1 && errno != EAGAIN && errno != EINTR)
			port_down(p, "write: %s", strerror(errno));
		if (w > 0) {
			port_wrote(p, buf, w);
			buf += w;
			n -= w;
		}
		if (n == 0)
			return (0);
	}
	if (p->state == PORT_UP) {
		/*
		 * Past limit the program holds the source back, unless it
		 * cannot (muxd's link-flow.c); then the queue may grow to
		 * PORT_HARD times limit, and what is past that is dropped
		 * and counted.
		 */
		queued = evbuffer_get_length(p->outq);
		room = queued < p->limit * PORT_HARD ?
		    p->limit * PORT_HARD - queued : 0;
		if (n > room) {
			port_drop(p, n - room, p->limit * PORT_HARD);
			n = room;
		}
		if (n > 0)
			evbuffer_add(p->outq, buf, n);
		event_add(p->ev_write, NULL);
		return (evbuffer_get_length(p->outq) >= p->limit);
	}
	queued = evbuffer_get_length(p->outq);
	room = queued < p->limit ? p->limit - queued : 0;
	if (n > room) {
		port_drop(p, n - room, p->limit);
		n = room;
	}
	if (n > 0)
		evbuffer_add(p->outq, buf, n);
	return (0);
}

/*
 * Read and discard what waits in the line of a port that was paused, when
 * its owner (named name) lets it go: those bytes belong to the
 * conversation that ended, so they pass the tap with that owner and go
 * to fn (the owner's recording), nowhere else.
 */
void
port_drain_paused(struct port *p, void *owner, port_drained_fn fn,
    const char *name)
{
	unsigned char	buf[PORT_READ_SIZE];
	struct timeval	tv;
	ssize_t		n;
	size_t		total = 0;

	if (!p->paused || p->state != PORT_UP)
		return;
	port_time(&tv);
	while (total < 16 * 1024 * 1024 &&
	    (n = read(p->fd, buf, sizeof(buf))) > 0) {
		p->bytes_in += n;
		if (port_hooks.tap != NULL)
			port_hooks.tap(p, owner, PORT_IN, buf, n, &tv);
		if (fn != NULL)
			fn(owner, p, buf, n, &tv);
		total += n;
	}
	if (total == 0)
		return;
	p->dropped += total;
	log_warnx("port %s: %zu bytes it sent while link %s was held up "
	    "were discarded as the link ended", p->name, total, name);
	port_event(p, PORT_EVENT_DROP, "link ended while held up", total,
	    p->dropped, 1);
}

/*
 * Stop or resume reading a port's line (whom to stop is the program's
 * decision: muxd's link-flow.c).
 */
void
port_pause(struct port *p, int on)
{
	if (p->paused == on)
		return;
	p->paused = on;
	if (!on)
		p->waited = 1;
	if (p->ev_read == NULL)
		return;
	if (on)
		event_del(p->ev_read);
	else
		event_add(p->ev_read, NULL);
	log_debug("port %s: %s", p->name, on ? "paused" : "resumed");
}

/* Note that a child process has ended; its pty reports the end. */
void
port_child_exited(pid_t pid, int status)
{
	struct port	*p;

	TAILQ_FOREACH(p, &ports, entry) {
		if (p->pid != pid)
			continue;
		p->pid = -1;
		/* What it started in its process group ends with it. */
		port_killpg(pid, SIGTERM);
		if (WIFSIGNALED(status))
			log_warnx("port %s: program killed by signal %d",
			    p->name, WTERMSIG(status));
		else
			log_warnx("port %s: program exited with status %d",
			    p->name, WEXITSTATUS(status));
		return;
	}
}

/* Describe a port for the control protocol (its owner is the program's). */
json_t *
port_json(const struct port *p)
{
	char	*addr;
	json_t	*o;

	addr = addr_format(&p->addr);
	o = json_pack("{ss ss? ss ss ss? sI sI sI sI sI sb sI so so sf}",
	    "name", p->name,
	    "address", addr,
	    "kind", addr_kind_name(p->addr.kind),
	    "state", port_state_name(p->state),
	    "error", p->state == PORT_UP ? NULL : p->error,
	    "bytes_in", (json_int_t)p->bytes_in,
	    "bytes_out", (json_int_t)p->bytes_out,
	    "dropped", (json_int_t)p->dropped,
	    "unrouted", (json_int_t)p->unrouted,
	    "queued", (json_int_t)evbuffer_get_length(p->outq),
	    "paused", p->paused,
	    "downs", (json_int_t)p->downs,
	    "last_in", p->last_in.tv_sec == 0 ? json_null() :
	    json_real(p->last_in.tv_sec + p->last_in.tv_usec / 1e6),
	    "last_out", p->last_out.tv_sec == 0 ? json_null() :
	    json_real(p->last_out.tv_sec + p->last_out.tv_usec / 1e6),
	    "since", p->since.tv_sec + p->since.tv_usec / 1e6);
	free(addr);
	return (o);
}
