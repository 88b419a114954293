/*
 * typer: character-by-character delivery checker.
 *
 * Writes TEXT to FROM one byte at a time, and writes the next byte only once
 * exactly that byte has been read from TO.  A relay that holds bytes back for
 * a line, or for a buffer to fill, never delivers the first byte and fails.
 * Prints the per-byte latency on success.  Byte offsets count from 0.
 */

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "endpoint.h"

#define TYPER_LINGER_MS	200	/* watch for extras after the last */

/* FROM and TO, each opened once. */
static struct endpoint	typer_ends[2] = { { .fd = -1 }, { .fd = -1 } };

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
		left = (deadline - endpoint_now_us() + 999) / 1000;
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
typer_read(struct endpoint *e, unsigned char *buf, size_t sz)
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
	struct endpoint	*from = &typer_ends[0], *to = &typer_ends[1];
	unsigned char		*text, buf[256];
	long long		*lat, t0, timeout = 2000;
	const char		*file = NULL;
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
			if (endpoint_number(optarg, 1, 3600000,
			    &timeout) == -1)
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
		text = endpoint_unescape(argv[2], &len);
	if ((lat = calloc(len + 1, sizeof *lat)) == NULL)
		err(1, NULL);

	endpoint_guard();
	endpoint_open(from);
	if (strcmp(from->name, to->name) == 0)
		to = from;		/* a loopback: same line both ways */
	else
		endpoint_open(to);

	for (i = 0; i < len; i++) {
		t0 = endpoint_now_us();
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
		lat[i] = endpoint_now_us() - t0;
		if (buf[0] != text[i])
			errx(1, "byte %zu: expected %s got %s", i,
			    typer_show(text[i]), typer_show(buf[0]));
		if (n > 1)
			errx(1, "byte %zu (%s): %zu unexpected byte%s after "
			    "it, first %s", i, typer_show(text[i]), n - 1,
			    n == 2 ? "" : "s", typer_show(buf[1]));
	}
	t0 = endpoint_now_us() + TYPER_LINGER_MS * 1000;
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
