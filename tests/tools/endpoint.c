/*
 * endpoint: opening the line ends of the test tools, putting their
 * terminals back, and the helpers the tools share: C-escape decoding,
 * number parsing and the monotonic clock.  See endpoint.h.
 */

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "endpoint.h"

/*
 * The ttys made raw, newest first.  An endpoint joins the list only once
 * its terminal is raw and its settings saved, so a signal handler walking
 * the list finds only complete entries.
 */
static struct endpoint	*endpoint_ttys;

static void	endpoint_signal(int);
static int	endpoint_tcp(const char *);
static int	endpoint_unix(const char *);
static int	endpoint_hex(int);

/* Put the terminals back as they were. */
void
endpoint_restore(void)
{
	struct endpoint	*e;

	for (e = endpoint_ttys; e != NULL; e = e->next)
		if (e->istty && e->fd != -1)
			tcsetattr(e->fd, TCSANOW, &e->saved);
}

/* Restore the terminals and die on a fatal signal. */
static void
endpoint_signal(int sig)
{
	endpoint_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Restore the terminals at exit and on fatal signals; ignore SIGPIPE. */
void
endpoint_guard(void)
{
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, endpoint_signal);
	signal(SIGTERM, endpoint_signal);
	signal(SIGHUP, endpoint_signal);
	atexit(endpoint_restore);
}

/* Connect to tcp:HOST:PORT; return the socket. */
static int
endpoint_tcp(const char *name)
{
	struct addrinfo	 hints, *res, *ai;
	char		*copy, *host, *port;
	int		 fd = -1, e, on = 1;

	if ((host = copy = strdup(name + 4)) == NULL)
		err(1, NULL);
	if ((port = strrchr(host, ':')) == NULL || port[1] == '\0')
		errx(1, "%s: expected tcp:HOST:PORT", name);
	*port++ = '\0';
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		host[strlen(host) - 1] = '\0';
		host++;
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(host, port, &hints, &res)) != 0)
		errx(1, "%s: %s", name, gai_strerror(e));
	free(copy);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype,
		    ai->ai_protocol)) == -1)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
		errno = e;
	}
	if (fd == -1)
		err(1, "connect %s", name);
	freeaddrinfo(res);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
	return (fd);
}

/* Connect to a unix-domain socket at path; return the socket. */
static int
endpoint_unix(const char *path)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path)
		errx(1, "%s: socket path too long", path);
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		err(1, "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1)
		err(1, "connect %s", path);
	return (fd);
}

/* Open one endpoint: raw non-blocking tty, or a connected socket. */
void
endpoint_open(struct endpoint *e)
{
	struct termios	t;
	struct stat	st;

	if (strncmp(e->name, "tcp:", 4) == 0)
		e->fd = endpoint_tcp(e->name);
	else if (stat(e->name, &st) == 0 && S_ISSOCK(st.st_mode))
		e->fd = endpoint_unix(e->name);
	else if ((e->fd = open(e->name, O_RDWR | O_NOCTTY | O_NONBLOCK)) == -1)
		err(1, "open %s", e->name);
	if (fcntl(e->fd, F_SETFL, fcntl(e->fd, F_GETFL) | O_NONBLOCK) == -1)
		err(1, "%s: fcntl", e->name);
	if (isatty(e->fd)) {
		if (tcgetattr(e->fd, &e->saved) == -1)
			err(1, "%s: tcgetattr", e->name);
		t = e->saved;
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL | CREAD;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		if (tcsetattr(e->fd, TCSANOW, &t) == -1)
			err(1, "%s: tcsetattr", e->name);
		e->istty = 1;
		e->next = endpoint_ttys;
		endpoint_ttys = e;
	}
}

/* Return the value of a hex digit, or -1. */
static int
endpoint_hex(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* Decode C escapes in s into a new buffer; store its length in *lenp. */
unsigned char *
endpoint_unescape(const char *s, size_t *lenp)
{
	unsigned char	*buf, *p;
	int		 h;

	if ((buf = p = malloc(strlen(s) + 1)) == NULL)
		err(1, NULL);
	for (; *s != '\0'; s++) {
		if (*s != '\\') {
			*p++ = *s;
			continue;
		}
		switch (*++s) {
		case 'r':	*p++ = '\r'; break;
		case 'n':	*p++ = '\n'; break;
		case 't':	*p++ = '\t'; break;
		case 'e':	*p++ = 0x1b; break;
		case '\\':	*p++ = '\\'; break;
		case 'x':
			if ((h = endpoint_hex(s[1])) == -1)
				errx(1, "\\x needs a hex digit");
			*p = h;
			s++;
			if ((h = endpoint_hex(s[1])) != -1) {
				*p = *p << 4 | h;
				s++;
			}
			p++;
			break;
		case '\0':
			errx(1, "text ends with a lone backslash");
		default:
			errx(1, "unknown escape \\%c (use \\r \\n \\t \\e "
			    "\\\\ \\xHH)", *s);
		}
	}
	*lenp = p - buf;
	return (buf);
}

/*
 * Parse a whole decimal number within [min, max] into *vp; return 0, or -1
 * for the caller to say what was expected.
 */
int
endpoint_number(const char *s, long long min, long long max, long long *vp)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
		return (-1);
	*vp = v;
	return (0);
}

/* Return the monotonic clock in microseconds. */
long long
endpoint_now_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

/* Return the monotonic clock in milliseconds. */
long long
endpoint_now_ms(void)
{
	return (endpoint_now_us() / 1000);
}
