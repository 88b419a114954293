/*
 * rfc2217:HOST:PORT ports: a serial port on another host, served by a
 * telnet server that speaks RFC 2217 (ser2net's telnet(rfc2217)
 * accepter): the line's settings (baud, data bits, parity, stop bits,
 * flow) are set on the remote port, and the data passes the telnet layer
 * exactly (0xFF escaped and unescaped, negotiation kept out of it).
 *
 * The protocol is libgensio's ("telnet(rfc2217),tcp,HOST,PORT").  gensio
 * runs its own loop, so the connections live in one thread of their own:
 * each port is a socketpair, whose one end is the port's descriptor in
 * the program's loop like any line, and whose other end the thread
 * relays to and from the gensio.  The thread writes one byte, 'U', when
 * the connection is open and set up, then the data; when it cannot open
 * or the connection is lost, it notes why and shuts its end, and the
 * port goes down with that reason and is opened again with backoff.
 * Closing the port's end is how the port ends its connection.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gensio/gensio.h>
#include <gensio/gensio_os_funcs.h>
#include <gensio/gensio_os_funcs_public.h>
#include <gensio/sergensio.h>

#include "line.h"

#define RFC2217_UP	'U'		/* the connection is ready */

/*
 * One connection, shared by the port (until it closes its end) and the
 * thread (until it has seen that close): the settings are written before
 * the thread sees it, the reason before the thread shuts its end.
 */
struct rfc2217_conn {
	struct rfc2217_conn	*next;		/* waiting to be started */
	char			*target;	/* the gensio string */
	struct addr		 addr;
	int			 fd;		/* the thread's end */
	struct gensio		*io;
	struct gensio_iod	*iod;
	int			 up;
	int			 step;		/* the next setting */
	int			 failed;	/* its end is shut */
	int			 closing;
	unsigned char		 out[PORT_CHUNK];	/* for the gensio */
	size_t			 nout, offout;
	unsigned char		 early[PORT_CHUNK];	/* came before up */
	size_t			 nearly;
	pthread_mutex_t		 lock;
	char			 why[LINE_ERRLEN];
};

static int	port_rfc2217_open(struct port *, char *, size_t);
static void	port_rfc2217_close(struct port *);
static void	port_rfc2217_release(struct port *);
static void	port_rfc2217_ready(evutil_socket_t, short, void *);

const struct port_ops port_rfc2217_ops = {
	"rfc2217", port_rfc2217_open, port_rfc2217_close,
	port_rfc2217_release
};

static struct gensio_os_funcs	*rfc2217_o;
static pthread_mutex_t		 rfc2217_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rfc2217_conn	*rfc2217_new;	/* to start, locked */
static int			 rfc2217_wake[2] = { -1, -1 };
static struct gensio_iod	*rfc2217_wake_iod;
static char			 rfc2217_broken[LINE_ERRLEN];	/* init's */

/* In the thread: give up a connection, saying why; the port sees EOF. */
static void
rfc2217_fail(struct rfc2217_conn *c, const char *fmt, ...)
{
	va_list	ap;

	if (c->failed)
		return;
	pthread_mutex_lock(&c->lock);
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&c->lock);
	c->failed = 1;
	shutdown(c->fd, SHUT_WR);
	if (c->io != NULL)
		gensio_set_read_callback_enable(c->io, false);
}

/* In the thread: the connection's descriptor is let go: free it all. */
static void
rfc2217_cleared(struct gensio_iod *iod, void *arg)
{
	struct rfc2217_conn	*c = arg;

	(void)iod;
	rfc2217_o->close(&c->iod);
	pthread_mutex_destroy(&c->lock);
	free(c->target);
	addr_free(&c->addr);
	free(c);
}

/* In the thread: the gensio has closed: let the descriptor go. */
static void
rfc2217_closed(struct gensio *io, void *arg)
{
	struct rfc2217_conn	*c = arg;

	gensio_free(io);
	c->io = NULL;
	rfc2217_o->clear_fd_handlers(c->iod);
}

/*
 * In the thread: the port has closed its end: close the gensio, then let
 * the descriptor go, then free the connection.
 */
static void
rfc2217_end(struct rfc2217_conn *c)
{
	if (c->closing)
		return;
	c->closing = 1;
	rfc2217_o->set_read_handler(c->iod, false);
	rfc2217_o->set_write_handler(c->iod, false);
	if (c->io != NULL && gensio_close(c->io, rfc2217_closed, c) == 0)
		return;
	if (c->io != NULL)
		gensio_free(c->io);
	c->io = NULL;
	rfc2217_o->clear_fd_handlers(c->iod);
}

/* In the thread: what the port writes goes to the gensio. */
static void
rfc2217_from_port(struct gensio_iod *iod, void *arg)
{
	struct rfc2217_conn	*c = arg;
	gensiods		 count;
	ssize_t			 n;

	(void)iod;
	if (c->nout == 0) {
		n = read(c->fd, c->out, sizeof(c->out));
		if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
			rfc2217_end(c);
			return;
		}
		if (n <= 0)
			return;
		c->nout = (size_t)n;
		c->offout = 0;
	}
	if (c->failed || !c->up) {
		c->nout = 0;	/* a line down: nothing is carried */
		return;
	}
	if (gensio_write(c->io, &count, c->out + c->offout,
	    c->nout - c->offout, NULL) != 0) {
		rfc2217_fail(c, "connection lost");
		c->nout = 0;
		return;
	}
	c->offout += count;
	if (c->offout < c->nout) {
		/* The connection is full: wait for it, not the port. */
		rfc2217_o->set_read_handler(c->iod, false);
		gensio_set_write_callback_enable(c->io, true);
		return;
	}
	c->nout = 0;
}

/* In the thread: the port can take data again. */
static void
rfc2217_port_writable(struct gensio_iod *iod, void *arg)
{
	struct rfc2217_conn	*c = arg;

	(void)iod;
	rfc2217_o->set_write_handler(c->iod, false);
	if (c->io != NULL && !c->failed)
		gensio_set_read_callback_enable(c->io, true);
}

/* In the thread: what the remote port sends, and room to write to it. */
static int
rfc2217_event(struct gensio *io, void *arg, int event, int err,
    unsigned char *buf, gensiods *buflen, const char *const *auxdata)
{
	struct rfc2217_conn	*c = arg;
	ssize_t			 n;

	(void)io;
	(void)auxdata;
	switch (event) {
	case GENSIO_EVENT_READ:
		if (err != 0) {
			rfc2217_fail(c, "connection lost: %s",
			    gensio_err_to_str(err));
			return (0);
		}
		if (!c->up) {
			/* The settings' answers are read with it: kept. */
			n = *buflen < sizeof(c->early) - c->nearly ? *buflen :
			    sizeof(c->early) - c->nearly;
			memcpy(c->early + c->nearly, buf, n);
			c->nearly += n;
			return (0);
		}
		n = write(c->fd, buf, *buflen);
		if (n == -1 && errno != EAGAIN && errno != EINTR) {
			*buflen = 0;
			return (0);
		}
		if (n < 0)
			n = 0;
		if ((gensiods)n < *buflen) {
			/* The port is full: hold the rest until it drains. */
			gensio_set_read_callback_enable(c->io, false);
			rfc2217_o->set_write_handler(c->iod, true);
		}
		*buflen = (gensiods)n;
		return (0);
	case GENSIO_EVENT_WRITE_READY:
		gensio_set_write_callback_enable(c->io, false);
		rfc2217_o->set_read_handler(c->iod, true);
		rfc2217_from_port(c->iod, c);
		return (0);
	default:
		return (GE_NOTSUP);
	}
}

/*
 * In the thread: set the line's settings on the remote port one after
 * the other (each waits for the server's answer to the one before); when
 * the last is answered, the line is up.
 */
static void
rfc2217_settings(struct sergensio *sio, int err, unsigned int val, void *arg)
{
	static const unsigned int parities[] = { SERGENSIO_PARITY_NONE,
	    SERGENSIO_PARITY_ODD, SERGENSIO_PARITY_EVEN,
	    SERGENSIO_PARITY_MARK, SERGENSIO_PARITY_SPACE };
	static const unsigned int flows[] = { SERGENSIO_FLOWCONTROL_NONE,
	    SERGENSIO_FLOWCONTROL_RTS_CTS, SERGENSIO_FLOWCONTROL_XON_XOFF };
	static const char	 up = RFC2217_UP;
	struct rfc2217_conn	*c = arg;
	const struct addr	*a = &c->addr;
	int			 r = 0;

	(void)val;
	if (err != 0) {
		rfc2217_fail(c, "the remote port refused its settings: %s",
		    gensio_err_to_str(err));
		return;
	}
	if (c->failed)
		return;
	switch (c->step++) {
	case 0:
		r = sergensio_baud(sio, (unsigned int)a->baud,
		    rfc2217_settings, c);
		break;
	case 1:
		r = sergensio_datasize(sio, (unsigned int)a->databits,
		    rfc2217_settings, c);
		break;
	case 2:
		r = sergensio_parity(sio, parities[a->parity],
		    rfc2217_settings, c);
		break;
	case 3:
		r = sergensio_stopbits(sio, (unsigned int)a->stopbits,
		    rfc2217_settings, c);
		break;
	case 4:
		r = sergensio_flowcontrol(sio, flows[a->flow],
		    rfc2217_settings, c);
		break;
	default:
		c->up = 1;
		if (write(c->fd, &up, 1) != 1 || (c->nearly > 0 &&
		    write(c->fd, c->early, c->nearly) != (ssize_t)c->nearly)) {
			rfc2217_fail(c, "the port went away");
			return;
		}
		rfc2217_o->set_read_handler(c->iod, true);
		return;
	}
	if (r != 0)
		rfc2217_fail(c, "cannot set the remote port's settings: %s",
		    gensio_err_to_str(r));
}

/* In the thread: the connection is open: set the remote port up. */
static void
rfc2217_opened(struct gensio *io, int err, void *arg)
{
	struct rfc2217_conn	*c = arg;
	struct sergensio	*sio;
	const struct addr	*a = &c->addr;

	if (err != 0) {
		rfc2217_fail(c, "connect to %s:%s: %s", a->host, a->service,
		    gensio_err_to_str(err));
		return;
	}
	if ((sio = gensio_to_sergensio(io)) == NULL) {
		rfc2217_fail(c, "%s:%s is no RFC 2217 server", a->host,
		    a->service);
		return;
	}
	/* The answers to the settings come in with the data. */
	gensio_set_read_callback_enable(io, true);
	rfc2217_settings(sio, 0, 0, c);
}

/* In the thread: start the connections the ports have asked for. */
static void
rfc2217_start(struct gensio_iod *iod, void *arg)
{
	struct rfc2217_conn	*c, *next;
	char			 b[64];
	int			 r;

	(void)iod;
	(void)arg;
	while (read(rfc2217_wake[0], b, sizeof(b)) > 0)
		;
	pthread_mutex_lock(&rfc2217_lock);
	c = rfc2217_new;
	rfc2217_new = NULL;
	pthread_mutex_unlock(&rfc2217_lock);
	for (; c != NULL; c = next) {
		next = c->next;
		if (rfc2217_o->add_iod(rfc2217_o, GENSIO_IOD_SOCKET, c->fd,
		    &c->iod) != 0 || rfc2217_o->set_fd_handlers(c->iod, c,
		    rfc2217_from_port, rfc2217_port_writable, NULL,
		    rfc2217_cleared) != 0)
			fatalx("rfc2217: cannot watch a connection");
		rfc2217_o->set_read_handler(c->iod, true);
		r = str_to_gensio(c->target, rfc2217_o, rfc2217_event, c,
		    &c->io);
		if (r == 0)
			r = gensio_open(c->io, rfc2217_opened, c);
		if (r != 0)
			rfc2217_fail(c, "%s: %s", c->target,
			    gensio_err_to_str(r));
	}
}

/* The thread: gensio's loop, for the program's whole life. */
static void *
rfc2217_thread(void *arg)
{
	(void)arg;
	for (;;)
		gensio_os_funcs_service(rfc2217_o, NULL);
	return (NULL);
}

/*
 * Start the thread, once: gensio's functions, the pipe that wakes it,
 * every signal blocked in it (the program's loop takes them).
 */
static int
rfc2217_init(char *err, size_t errlen)
{
	sigset_t	 all, old;
	pthread_t	 t;
	int		 r;

	if (rfc2217_broken[0] != '\0') {
		snprintf(err, errlen, "%s", rfc2217_broken);
		return (-1);
	}
	if (rfc2217_o != NULL)
		return (0);
	if ((r = gensio_default_os_hnd(0, &rfc2217_o)) != 0) {
		snprintf(err, errlen, "gensio: %s", gensio_err_to_str(r));
		rfc2217_o = NULL;
		return (-1);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
	    rfc2217_wake) == -1 ||
	    rfc2217_o->add_iod(rfc2217_o, GENSIO_IOD_SOCKET,
	    rfc2217_wake[0], &rfc2217_wake_iod) != 0 ||
	    rfc2217_o->set_fd_handlers(rfc2217_wake_iod, NULL, rfc2217_start,
	    NULL, NULL, NULL) != 0) {
		snprintf(rfc2217_broken, sizeof(rfc2217_broken), "rfc2217: "
		    "cannot set up the connections' thread");
		snprintf(err, errlen, "%s", rfc2217_broken);
		return (-1);
	}
	rfc2217_o->set_read_handler(rfc2217_wake_iod, true);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&t, NULL, rfc2217_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		snprintf(rfc2217_broken, sizeof(rfc2217_broken), "rfc2217: "
		    "cannot start the connections' thread: %s", strerror(r));
		snprintf(err, errlen, "%s", rfc2217_broken);
		return (-1);
	}
	pthread_detach(t);
	return (0);
}

/* Ask the thread for a connection; the port waits for its 'U'. */
static int
port_rfc2217_open(struct port *p, char *err, size_t errlen)
{
	struct rfc2217_conn	*c;
	const struct addr	*a = &p->addr;
	int			 sv[2];

	if (a->flow == ADDR_FLOW_DTRDSR) {
		snprintf(err, errlen, "flow=dtrdsr cannot be set on a remote "
		    "port (none, rtscts, xonxoff)");
		return (-1);
	}
	if (rfc2217_init(err, errlen) == -1)
		return (-1);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0, sv) == -1) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return (-1);
	}
	if ((c = calloc(1, sizeof(*c))) == NULL)
		goto nomem;
	if (addr_copy(&c->addr, a) == -1) {
		free(c);
		goto nomem;
	}
	if (asprintf(&c->target, "telnet(rfc2217),tcp,%s,%s", a->host,
	    a->service) == -1)
		c->target = NULL;
	if (c->target == NULL || (p->ev_aux = event_new(port_base(), sv[0],
	    EV_READ, port_rfc2217_ready, p)) == NULL) {
		free(c->target);
		addr_free(&c->addr);
		free(c);
		goto nomem;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->fd = sv[1];
	p->aux_fd = sv[0];
	p->rfc2217 = c;
	event_add(p->ev_aux, NULL);
	pthread_mutex_lock(&rfc2217_lock);
	c->next = rfc2217_new;
	rfc2217_new = c;
	pthread_mutex_unlock(&rfc2217_lock);
	if (write(rfc2217_wake[1], "", 1) == -1 && errno != EAGAIN)
		fatal("rfc2217: wake");
	return (1);
nomem:
	close(sv[0]);
	close(sv[1]);
	snprintf(err, errlen, "%s:%s: out of memory", a->host, a->service);
	return (-1);
}

/* The connection answered: up, or down with the thread's reason. */
static void
port_rfc2217_ready(evutil_socket_t fd, short what, void *arg)
{
	struct port		*p = arg;
	struct rfc2217_conn	*c = p->rfc2217;
	char			 b, why[LINE_ERRLEN];
	ssize_t			 n;

	(void)what;
	n = recv(fd, &b, 1, 0);
	if (n == -1 && (errno == EAGAIN || errno == EINTR)) {
		event_add(p->ev_aux, NULL);
		return;
	}
	event_free(p->ev_aux);
	p->ev_aux = NULL;
	if (n == 1 && b == RFC2217_UP) {
		p->fd = p->aux_fd;
		p->aux_fd = -1;
		log_info("port %s: connected to %s:%s (RFC 2217)", p->name,
		    p->addr.host, p->addr.service);
		port_up(p);
		return;
	}
	pthread_mutex_lock(&c->lock);
	snprintf(why, sizeof(why), "%s", c->why[0] != '\0' ? c->why :
	    "the connection ended");
	pthread_mutex_unlock(&c->lock);
	port_down(p, "%s", why);
}

/* Why the connection of a port that was up has ended (its end of file). */
const char *
port_rfc2217_why(const struct port *p, char *buf, size_t len)
{
	struct rfc2217_conn	*c = p->rfc2217;

	if (c == NULL)
		return ("connection lost");
	pthread_mutex_lock(&c->lock);
	snprintf(buf, len, "%s", c->why[0] != '\0' ? c->why :
	    "connection lost");
	pthread_mutex_unlock(&c->lock);
	return (buf);
}

/* Close the connection (the thread sees the end, closes and frees it). */
static void
port_rfc2217_close(struct port *p)
{
	if (p->ev_aux != NULL)
		event_free(p->ev_aux);
	p->ev_aux = NULL;
	if (p->fd != -1)
		close(p->fd);
	if (p->aux_fd != -1)
		close(p->aux_fd);
	p->fd = p->aux_fd = -1;
	p->rfc2217 = NULL;
}

/* The port is removed: as closed. */
static void
port_rfc2217_release(struct port *p)
{
	port_rfc2217_close(p);
}
