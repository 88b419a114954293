/*
 * TCP ports.  tcp:HOST:PORT connects without blocking the loop and
 * reconnects with backoff when the peer goes: the host name is looked up
 * with libevent's asynchronous resolver (evdns: /etc/hosts, then the
 * name servers of /etc/resolv.conf), and each address found is tried in
 * turn until one connects.  tcp-listen:[HOST:]PORT keeps a listener, on
 * loopback unless HOST says otherwise ("*": every address), and takes one
 * peer at a time, of its allow= networks when it has any; a second peer
 * is told why and closed, a peer not allowed closed at once.  Nagle is off
 * on every connection: each byte goes out at once.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <netdb.h>

#include <event2/dns.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"

static int	port_tcp_open(struct port *, char *, size_t);
static void	port_tcp_close(struct port *);
static void	port_tcp_release(struct port *);
static void	port_tcp_connected(evutil_socket_t, short, void *);
#define PORT_TCP_LOOPBACK	"127.0.0.1"	/* tcp-listen:PORT binds it */

static int	port_tcp_listen_open(struct port *, char *, size_t);
static void	port_tcp_listen_close(struct port *);
static void	port_tcp_listen_release(struct port *);
static void	port_tcp_accept(evutil_socket_t, short, void *);
static void	port_tcp_peer(const struct sockaddr_storage *, char *, size_t);
static int	port_tcp_resolve(const struct addr *, int, struct addrinfo **,
		    char *, size_t);
static int	port_tcp_socket(struct port *, int, struct addrinfo **, char *,
		    size_t);
static int	port_tcp_watch(struct port *, int, short, event_callback_fn);
static void	port_tcp_unwatch(struct port *);
static void	port_tcp_resolved(int, struct evutil_addrinfo *, void *);
static int	port_tcp_try(struct port *, char *, size_t);
static struct evdns_base *port_tcp_dns(void);

/* A connecting port's lookup and the addresses it has still to try. */
struct port_tcp {
	struct evdns_getaddrinfo_request *req;	/* lookup under way */
	struct evutil_addrinfo	*res;		/* its result */
	struct evutil_addrinfo	*next;		/* the address to try next */
	char			 last[128];	/* why the last one failed */
	int			 opening;	/* inside port_tcp_open */
	int			 result;	/* of a lookup done at once */
};

static struct evdns_base	*port_tcp_dnsbase;

const struct port_ops port_tcp_ops = {
	"tcp", port_tcp_open, port_tcp_close, port_tcp_release
};
const struct port_ops port_tcp_listen_ops = {
	"tcp-listen", port_tcp_listen_open, port_tcp_listen_close,
	port_tcp_listen_release
};

/*
 * The host a listener binds: loopback unless the address names one ("*"
 * for every address of the host, as NULL to getaddrinfo).
 */
static const char *
port_tcp_bind_host(const struct addr *a)
{
	if (a->host == NULL)
		return (PORT_TCP_LOOPBACK);
	return (strcmp(a->host, "*") == 0 ? NULL : a->host);
}

/* Look up the address's host and port. */
static int
port_tcp_resolve(const struct addr *a, int passive, struct addrinfo **res,
    char *err, size_t errlen)
{
	struct addrinfo	hints;
	const char	*host = passive ? port_tcp_bind_host(a) : a->host;
	int		r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	if ((r = getaddrinfo(host, a->service, &hints, res)) != 0) {
		snprintf(err, errlen, "%s:%s: %s", host != NULL ? host : "*",
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

/*
 * Make socket s the port's auxiliary descriptor and watch it for events;
 * -1 when out of memory (s is closed).
 */
static int
port_tcp_watch(struct port *p, int s, short events, event_callback_fn cb)
{
	if ((p->ev_aux = event_new(port_base(), s, events, cb, p)) == NULL) {
		close(s);
		return (-1);
	}
	p->aux_fd = s;
	event_add(p->ev_aux, NULL);
	return (0);
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

/*
 * The loop's resolver, made on first use; idle, it keeps no timer and no
 * socket.  Without a usable resolv.conf, /etc/hosts and numeric
 * addresses still work.  NULL when it cannot be made.
 */
static struct evdns_base *
port_tcp_dns(void)
{
	if (port_tcp_dnsbase != NULL)
		return (port_tcp_dnsbase);
	port_tcp_dnsbase = evdns_base_new(port_base(),
	    EVDNS_BASE_INITIALIZE_NAMESERVERS |
	    EVDNS_BASE_DISABLE_WHEN_INACTIVE);
	if (port_tcp_dnsbase == NULL &&
	    (port_tcp_dnsbase = evdns_base_new(port_base(),
	    EVDNS_BASE_DISABLE_WHEN_INACTIVE)) != NULL)
		evdns_base_load_hosts(port_tcp_dnsbase, NULL);
	return (port_tcp_dnsbase);
}

/* Start looking the host up; the port waits until it connects. */
static int
port_tcp_open(struct port *p, char *err, size_t errlen)
{
	struct evutil_addrinfo	 hints;
	struct port_tcp		*t;

	if ((t = p->tcp) == NULL && (t = p->tcp = calloc(1, sizeof(*t))) ==
	    NULL) {
		snprintf(err, errlen, "%s:%s: out of memory", p->addr.host,
		    p->addr.service);
		return (-1);
	}
	if (port_tcp_dns() == NULL) {
		snprintf(err, errlen, "%s:%s: cannot make a DNS resolver",
		    p->addr.host, p->addr.service);
		return (-1);
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	hints.ai_flags = EVUTIL_AI_ADDRCONFIG;
	/* A numeric address or a name in /etc/hosts is looked up at once. */
	t->opening = 1;
	t->result = -1;
	t->req = evdns_getaddrinfo(port_tcp_dns(), p->addr.host,
	    p->addr.service, &hints, port_tcp_resolved, p);
	t->opening = 0;
	if (t->result == -1)
		return (1);
	t->req = NULL;
	if (t->result != 0) {
		snprintf(err, errlen, "%s:%s: %s", p->addr.host,
		    p->addr.service, evutil_gai_strerror(t->result));
		return (-1);
	}
	return (port_tcp_try(p, err, errlen) == -1 ? -1 : 1);
}

/* The host was looked up: try its addresses, or the port is down. */
static void
port_tcp_resolved(int result, struct evutil_addrinfo *res, void *arg)
{
	struct port	*p = arg;
	struct port_tcp	*t;
	char		 err[LINE_ERRLEN];

	if (result == EVUTIL_EAI_CANCEL)
		return;		/* the port closed meanwhile */
	t = p->tcp;
	if (t->opening) {
		t->result = result;
		t->res = t->next = res;
		t->last[0] = '\0';
		return;
	}
	t->req = NULL;
	if (result != 0) {
		port_down(p, "%s:%s: %s", p->addr.host, p->addr.service,
		    evutil_gai_strerror(result));
		return;
	}
	t->res = t->next = res;
	t->last[0] = '\0';
	if (port_tcp_try(p, err, sizeof(err)) == -1)
		port_down(p, "%s", err);
}

/*
 * Start connecting to the next address of the lookup; -1 with the reason
 * the last one failed when none is left.
 */
static int
port_tcp_try(struct port *p, char *err, size_t errlen)
{
	struct port_tcp		*t = p->tcp;
	struct evutil_addrinfo	*ai;
	int			 s, one = 1;

	while ((ai = t->next) != NULL) {
		t->next = ai->ai_next;
		s = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (s == -1) {
			snprintf(t->last, sizeof(t->last), "socket: %s",
			    strerror(errno));
			continue;
		}
		setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
		if (connect(s, ai->ai_addr, ai->ai_addrlen) == -1 &&
		    errno != EINPROGRESS) {
			snprintf(t->last, sizeof(t->last), "%s",
			    strerror(errno));
			close(s);
			continue;
		}
		if (port_tcp_watch(p, s, EV_WRITE, port_tcp_connected) == -1) {
			snprintf(err, errlen, "connect to %s:%s: out of memory",
			    p->addr.host, p->addr.service);
			return (-1);
		}
		return (0);
	}
	snprintf(err, errlen, "connect to %s:%s: %s", p->addr.host,
	    p->addr.service, t->last[0] != '\0' ? t->last :
	    "no address found");
	return (-1);
}

/* Finish a connection attempt: up, or on to the next address. */
static void
port_tcp_connected(evutil_socket_t s, short what, void *arg)
{
	struct port	*p = arg;
	struct port_tcp	*t = p->tcp;
	socklen_t	 len = sizeof(int);
	char		 err[LINE_ERRLEN];
	int		 error = 0;

	(void)what;
	if (getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &len) == -1)
		error = errno;
	if (error != 0) {
		snprintf(t->last, sizeof(t->last), "%s", strerror(error));
		port_tcp_unwatch(p);
		if (port_tcp_try(p, err, sizeof(err)) == -1)
			port_down(p, "%s", err);
		return;
	}
	event_free(p->ev_aux);
	p->ev_aux = NULL;
	p->fd = p->aux_fd;
	p->aux_fd = -1;
	evutil_freeaddrinfo(t->res);
	t->res = t->next = NULL;
	port_up(p);
}

/* Close the connection, or the lookup or attempt in progress. */
static void
port_tcp_close(struct port *p)
{
	struct port_tcp	*t = p->tcp;

	port_tcp_unwatch(p);
	if (p->fd != -1)
		close(p->fd);
	p->fd = -1;
	if (t == NULL)
		return;
	if (t->req != NULL) {
		evdns_getaddrinfo_cancel(t->req);
		t->req = NULL;
	}
	if (t->res != NULL)
		evutil_freeaddrinfo(t->res);
	t->res = t->next = NULL;
}

/* Free what a connecting port holds. */
static void
port_tcp_release(struct port *p)
{
	port_tcp_close(p);
	free(p->tcp);
	p->tcp = NULL;
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
		    port_tcp_bind_host(&p->addr) != NULL ?
		    port_tcp_bind_host(&p->addr) : "*", p->addr.service,
		    strerror(errno));
		freeaddrinfo(res);
		close(s);
		return (-1);
	}
	freeaddrinfo(res);
	if (port_tcp_watch(p, s, EV_READ | EV_PERSIST, port_tcp_accept) ==
	    -1) {
		snprintf(err, errlen, "listen on %s:%s: out of memory",
		    port_tcp_bind_host(&p->addr) != NULL ?
		    port_tcp_bind_host(&p->addr) : "*", p->addr.service);
		return (-1);
	}
	log_info("port %s: listening on %s:%s%s", p->name,
	    port_tcp_bind_host(&p->addr) != NULL ?
	    port_tcp_bind_host(&p->addr) : "*", p->addr.service,
	    p->addr.nallow > 0 ? ", for the allowed peers alone" : "");
	return (1);
}

/*
 * Tell whether a peer's connection is gone: reset (a pending error), or
 * closed with nothing left to read.  A port held back is not read, so
 * its peer's end would otherwise go unnoticed.
 */
static int
port_tcp_gone(int fd, char *why, size_t whylen)
{
	socklen_t	len = sizeof(int);
	ssize_t		n;
	char		b;
	int		err = 0;

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
	    err != 0) {
		snprintf(why, whylen, "%s", strerror(err));
		return (1);
	}
	n = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	if (n == 0) {
		snprintf(why, whylen, "peer closed the connection");
		return (1);
	}
	if (n == -1 && errno != EAGAIN && errno != EWOULDBLOCK &&
	    errno != EINTR) {
		snprintf(why, whylen, "%s", strerror(errno));
		return (1);
	}
	return (0);
}

/*
 * Take a peer, or tell a second one that the port is busy.  A peer whose
 * connection is gone (reset while the port was held back) makes room.
 */
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
	if (!addr_allowed(&p->addr, (struct sockaddr *)&ss)) {
		close(c);
		log_warnx("port %s: refused %s: not an allowed peer", p->name,
		    peer);
		return;
	}
	if (p->fd != -1 && port_tcp_gone(p->fd, msg, sizeof(msg)))
		port_down(p, "%s (noticed as a new peer came)", msg);
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
