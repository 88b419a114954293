/*
 * typer: character-by-character delivery checker.
 *
 * Writes TEXT to FROM one byte at a time, and writes the next byte only once
 * exactly that byte has been read from TO.  A relay that holds bytes back for
 * a line, or for a buffer to fill, never delivers the first byte and fails.
 * Prints the per-byte latency on success.  Byte offsets count from 0.
 */

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TYPER_LINGER_MS	200	/* watch for extras after the last */

/* One endpoint, opened once. */
struct typer_end {
	const char	*name;
	int		 fd;
	int		 istty;
	struct termios	 saved;
};

static struct typer_end	typer_ends[2] = { { .fd = -1 }, { .fd = -1 } };

static void		usage(void) __attribute__((noreturn));

/* Print the command line summary and exit. */
static void
usage(void)
{
	fprintf(stderr,
	    "usage: typer [-q] [-t timeout_ms] from to text\n"
	    "       typer [-q] [-t timeout_ms] -f file from to\n"
	    "       endpoints: a tty or pty path, or tcp:HOST:PORT; text takes "
	    "\\r \\n \\t \\e \\\\ \\xHH\n"
	    "       default timeout: 2000 ms per byte\n");
	exit(1);
}

/* Return the monotonic clock in microseconds. */
static long long
typer_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

/* Put the terminals back as they were. */
static void
typer_restore(void)
{
	int	i;

	for (i = 0; i < 2; i++)
		if (typer_ends[i].istty && typer_ends[i].fd != -1)
			tcsetattr(typer_ends[i].fd, TCSANOW,
			    &typer_ends[i].saved);
}

/* Restore the terminals and die on a fatal signal. */
static void
typer_signal(int sig)
{
	typer_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Connect to tcp:HOST:PORT; return the socket. */
static int
typer_tcp(const char *name)
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
typer_unix(const char *path)
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
static void
typer_open(struct typer_end *e)
{
	struct termios	t;
	struct stat	st;

	if (strncmp(e->name, "tcp:", 4) == 0)
		e->fd = typer_tcp(e->name);
	else if (stat(e->name, &st) == 0 && S_ISSOCK(st.st_mode))
		e->fd = typer_unix(e->name);
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
	}
}

/* Return the value of a hex digit, or -1. */
static int
typer_hex(int c)
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
static unsigned char *
typer_unescape(const char *s, size_t *lenp)
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
			if ((h = typer_hex(s[1])) == -1)
				errx(1, "\\x needs a hex digit");
			*p = h;
			s++;
			if ((h = typer_hex(s[1])) != -1) {
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

/* Read a whole file into a new buffer; store its length in *lenp. */
static unsigned char *
typer_slurp(const char *path, size_t *lenp)
{
	unsigned char	*buf = NULL;
	size_t		 len = 0, cap = 0;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "open %s", path);
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			if ((buf = realloc(buf, cap)) == NULL)
				err(1, NULL);
		}
		if ((n = read(fd, buf + len, cap - len)) == -1)
			err(1, "read %s", path);
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	*lenp = len;
	return (buf);
}

/* Show a byte as hex and, when printable, as a character. */
static const char *
typer_show(unsigned char c)
{
	static char	buf[2][16];
	static int	i;

	i = !i;
	if (isprint(c) && c < 0x80)
		snprintf(buf[i], sizeof buf[i], "0x%02x '%c'", c, c);
	else
		snprintf(buf[i], sizeof buf[i], "0x%02x", c);
	return (buf[i]);
}

/* Wait for fd to become ready for events until deadline; 0 on timeout. */
static int
typer_wait(int fd, short events, long long deadline)
{
	struct pollfd	pfd;
	long long	left;
	int		n;

	for (;;) {
		left = (deadline - typer_now() + 999) / 1000;
		if (left <= 0)
			return (0);
		pfd.fd = fd;
		pfd.events = events;
		if ((n = poll(&pfd, 1, left)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (n > 0)
			return (1);
	}
}

/* Read what is waiting on the receiving end; return the count. */
static size_t
typer_read(struct typer_end *e, unsigned char *buf, size_t sz)
{
	ssize_t	n;

	for (;;) {
		if ((n = read(e->fd, buf, sz)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return (0);
			err(1, "read %s", e->name);
		}
		if (n == 0)
			errx(1, "%s: end of file", e->name);
		return (n);
	}
}

/* Compare two latencies for qsort. */
static int
typer_cmp(const void *a, const void *b)
{
	long long	x = *(const long long *)a, y = *(const long long *)b;

	return (x < y ? -1 : x > y);
}

/* Type the text byte by byte and time each delivery. */
int
main(int argc, char *argv[])
{
	struct typer_end	*from = &typer_ends[0], *to = &typer_ends[1];
	unsigned char		*text, buf[256];
	long long		*lat, t0, timeout = 2000;
	const char		*file = NULL;
	char			*end;
	size_t			 len, i, n;
	ssize_t			 w;
	int			 ch, quiet = 0;

	while ((ch = getopt(argc, argv, "f:qt:")) != -1) {
		switch (ch) {
		case 'f':
			file = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			errno = 0;
			timeout = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    timeout < 1 || timeout > 3600000)
				errx(1, "timeout must be 1 to 3600000 ms: %s",
				    optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != (file != NULL ? 2 : 3))
		usage();
	from->name = argv[0];
	to->name = argv[1];
	if (file != NULL)
		text = typer_slurp(file, &len);
	else
		text = typer_unescape(argv[2], &len);
	if ((lat = calloc(len + 1, sizeof *lat)) == NULL)
		err(1, NULL);

	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, typer_signal);
	signal(SIGTERM, typer_signal);
	signal(SIGHUP, typer_signal);
	atexit(typer_restore);
	typer_open(from);
	if (strcmp(from->name, to->name) == 0)
		to = from;		/* a loopback: same line both ways */
	else
		typer_open(to);

	for (i = 0; i < len; i++) {
		t0 = typer_now();
		for (;;) {
			if ((w = write(from->fd, &text[i], 1)) == 1)
				break;
			if (w == -1 && errno != EAGAIN && errno != EINTR)
				err(1, "byte %zu: write %s", i, from->name);
			if (!typer_wait(from->fd, POLLOUT, t0 + timeout * 1000))
				errx(1, "byte %zu (0x%02x): %s accepted "
				    "nothing for %lld ms", i, text[i],
				    from->name, timeout);
		}
		n = 0;
		while (n == 0) {
			if (!typer_wait(to->fd, POLLIN, t0 + timeout * 1000))
				errx(1, "byte %zu (0x%02x) not delivered "
				    "within %lld ms (nothing held back for a "
				    "line is allowed)", i, text[i], timeout);
			n = typer_read(to, buf, sizeof buf);
		}
		lat[i] = typer_now() - t0;
		if (buf[0] != text[i])
			errx(1, "byte %zu: expected %s got %s", i,
			    typer_show(text[i]), typer_show(buf[0]));
		if (n > 1)
			errx(1, "byte %zu (%s): %zu unexpected byte%s after "
			    "it, first %s", i, typer_show(text[i]), n - 1,
			    n == 2 ? "" : "s", typer_show(buf[1]));
	}
	t0 = typer_now() + TYPER_LINGER_MS * 1000;
	while (typer_wait(to->fd, POLLIN, t0))
		if ((n = typer_read(to, buf, sizeof buf)) > 0)
			errx(1, "%zu unexpected byte%s after the last, "
			    "first %s", n, n == 1 ? "" : "s",
			    typer_show(buf[0]));

	if (!quiet && len == 0)
		printf("typer: 0 bytes delivered\n");
	else if (!quiet) {
		qsort(lat, len, sizeof *lat, typer_cmp);
		printf("typer: %zu byte%s delivered one by one, latency p50 "
		    "%lld us, p99 %lld us, max %lld us\n", len,
		    len == 1 ? "" : "s", lat[(len - 1) / 2],
		    lat[(len - 1) * 99 / 100], lat[len - 1]);
	}
	free(text);
	free(lat);
	return (0);
}
