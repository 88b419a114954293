/*
 * TCP ports.  tcp:HOST:PORT connects without blocking the loop and
 * reconnects with backoff when the peer goes.  tcp-listen:[HOST:]PORT keeps
 * a listener and takes one peer at a time; a second peer is told why and
 * closed.  Nagle is off on every connection: each byte goes out at once.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

static int	port_tcp_open(struct port *, char *, size_t);
static void	port_tcp_close(struct port *);
static void	port_tcp_release(struct port *);
static void	port_tcp_connected(evutil_socket_t, short, void *);
static int	port_tcp_listen_open(struct port *, char *, size_t);
static void	port_tcp_listen_close(struct port *);
static void	port_tcp_listen_release(struct port *);
static void	port_tcp_accept(evutil_socket_t, short, void *);
static void	port_tcp_peer(const struct sockaddr_storage *, char *, size_t);
static int	port_tcp_resolve(const struct addr *, int, struct addrinfo **,
		    char *, size_t);
static int	port_tcp_socket(struct port *, int, struct addrinfo **, char *,
		    size_t);
static void	port_tcp_watch(struct port *, int, short, event_callback_fn);
static void	port_tcp_unwatch(struct port *);

const struct port_ops port_tcp_ops = {
	"tcp", port_tcp_open, port_tcp_close, port_tcp_release
};
const struct port_ops port_tcp_listen_ops = {
	"tcp-listen", port_tcp_listen_open, port_tcp_listen_close,
	port_tcp_listen_release
};

/* Look up the address's host and port. */
static int
port_tcp_resolve(const struct addr *a, int passive, struct addrinfo **res,
    char *err, size_t errlen)
{
	struct addrinfo	hints;
	int		r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	if ((r = getaddrinfo(a->host, a->service, &hints, res)) != 0) {
		snprintf(err, errlen, "%s:%s: %s", a->host ? a->host : "*",
		    a->service, gai_strerror(r));
		return (-1);
	}
	return (0);
}

/*
 * Resolve the port's address and make a non-blocking socket for its first
 * result; return the socket, with *res for the caller to free, or -1.
 */
static int
port_tcp_socket(struct port *p, int passive, struct addrinfo **res,
    char *err, size_t errlen)
{
	int	s;

	if (port_tcp_resolve(&p->addr, passive, res, err, errlen) == -1)
		return (-1);
	s = socket((*res)->ai_family, (*res)->ai_socktype | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, (*res)->ai_protocol);
	if (s == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		freeaddrinfo(*res);
		return (-1);
	}
	return (s);
}

/* Make socket s the port's auxiliary descriptor and watch it for events. */
static void
port_tcp_watch(struct port *p, int s, short events, event_callback_fn cb)
{
	p->aux_fd = s;
	p->ev_aux = event_new(muxd_base, s, events, cb, p);
	if (p->ev_aux == NULL)
		fatalx("port %s: cannot allocate event", p->name);
	event_add(p->ev_aux, NULL);
}

/* Stop watching the port's auxiliary socket and close it. */
static void
port_tcp_unwatch(struct port *p)
{
	if (p->ev_aux != NULL)
		event_free(p->ev_aux);
	p->ev_aux = NULL;
	if (p->aux_fd != -1)
		close(p->aux_fd);
	p->aux_fd = -1;
}

/* Write a peer's address as text. */
static void
port_tcp_peer(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char	host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getnameinfo((const struct sockaddr *)ss, sizeof(*ss), host,
	    sizeof(host), serv, sizeof(serv),
	    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s%s%s:%s", strchr(host, ':') ? "[" : "",
		    host, strchr(host, ':') ? "]" : "", serv);
}

/* Start connecting; the port waits until the connection completes. */
static int
port_tcp_open(struct port *p, char *err, size_t errlen)
{
	struct addrinfo	*res;
	int		 s, one = 1;

	if ((s = port_tcp_socket(p, 0, &res, err, errlen)) == -1)
		return (-1);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	if (connect(s, res->ai_addr, res->ai_addrlen) == -1 &&
	    errno != EINPROGRESS) {
		snprintf(err, errlen, "connect to %s:%s: %s", p->addr.host,
		    p->addr.service, strerror(errno));
		freeaddrinfo(res);
		close(s);
		return (-1);
	}
	freeaddrinfo(res);
	port_tcp_watch(p, s, EV_WRITE, port_tcp_connected);
	return (1);
}

/* Finish a connection attempt: the port is up or down. */
static void
port_tcp_connected(evutil_socket_t s, short what, void *arg)
{
	struct port	*p = arg;
	socklen_t	 len = sizeof(int);
	int		 error = 0;

	(void)what;
	if (getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &len) == -1)
		error = errno;
	if (error != 0) {
		port_down(p, "connect to %s:%s: %s", p->addr.host,
		    p->addr.service, strerror(error));
		return;
	}
	event_free(p->ev_aux);
	p->ev_aux = NULL;
	p->fd = p->aux_fd;
	p->aux_fd = -1;
	port_up(p);
}

/* Close the connection, or the attempt in progress. */
static void
port_tcp_close(struct port *p)
{
	port_tcp_unwatch(p);
	if (p->fd != -1)
		close(p->fd);
	p->fd = -1;
}

/* A connecting port holds nothing beyond its connection. */
static void
port_tcp_release(struct port *p)
{
	port_tcp_close(p);
}

/* Open the listener; the port waits for a peer. */
static int
port_tcp_listen_open(struct port *p, char *err, size_t errlen)
{
	struct addrinfo	*res;
	int		 s, one = 1;

	if (p->aux_fd != -1)
		return (1);
	if ((s = port_tcp_socket(p, 1, &res, err, errlen)) == -1)
		return (-1);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, res->ai_addr, res->ai_addrlen) == -1 ||
	    listen(s, 4) == -1) {
		snprintf(err, errlen, "listen on %s:%s: %s",
		    p->addr.host ? p->addr.host : "*", p->addr.service,
		    strerror(errno));
		freeaddrinfo(res);
		close(s);
		return (-1);
	}
	freeaddrinfo(res);
	port_tcp_watch(p, s, EV_READ | EV_PERSIST, port_tcp_accept);
	log_info("port %s: listening on %s:%s", p->name,
	    p->addr.host ? p->addr.host : "*", p->addr.service);
	return (1);
}

/* Take a peer, or tell a second one that the port is busy. */
static void
port_tcp_accept(evutil_socket_t s, short what, void *arg)
{
	struct port		*p = arg;
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof(ss);
	char			 peer[NI_MAXHOST + NI_MAXSERV + 4], msg[256];
	int			 c, one = 1, n;

	(void)what;
	c = accept4(s, (struct sockaddr *)&ss, &len,
	    SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (c == -1) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("port %s: accept", p->name);
		return;
	}
	port_tcp_peer(&ss, peer, sizeof(peer));
	if (p->fd != -1) {
		n = snprintf(msg, sizeof(msg), "muxd: port %s is busy: "
		    "another peer is connected; closing\r\n", p->name);
		if (write(c, msg, n) == -1)
			log_debug("port %s: refusal to %s not sent", p->name,
			    peer);
		close(c);
		log_warnx("port %s: refused a second peer from %s", p->name,
		    peer);
		return;
	}
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(c, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	p->fd = c;
	log_info("port %s: peer connected from %s", p->name, peer);
	port_up(p);
}

/* Close the peer's connection; the listener stays. */
static void
port_tcp_listen_close(struct port *p)
{
	if (p->fd != -1)
		close(p->fd);
	p->fd = -1;
}

/* Close the listener. */
static void
port_tcp_listen_release(struct port *p)
{
	port_tcp_unwatch(p);
}
