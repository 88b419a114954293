/*
 * muxctl's connection to muxd's control socket: connecting, writing a
 * request whole, and reading the lines that come back one at a time,
 * with a deadline (see struct muxctl_conn in muxctl.h).
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "muxctl.h"

/* Connect to the control socket at path; return -1 with errno if not. */
int
muxctl_conn_open(struct muxctl_conn *c, const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, saved;

	c->path = path;
	c->off = c->len = 0;
	c->skipping = c->eof = 0;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	c->fd = fd;
	return 0;
}

/*
 * Send one request line.  If muxd has already hung up the write fails; the
 * reply it may have sent before hanging up is still read afterwards.
 */
void
muxctl_conn_write(struct muxctl_conn *c, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		w = send(c->fd, p, n, MSG_NOSIGNAL);
		if (w == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE || errno == ECONNRESET)
				return;
			err(PROTOCOL_EXIT_PROTOCOL, "%s", c->path);
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Read the next line from muxd, without its newline, until the deadline. */
enum muxctl_rd
muxctl_conn_read_line(struct muxctl_conn *c, char **line, size_t *linelen,
    const struct timespec *deadline)
{
	struct pollfd	 pfd;
	struct timespec	 now;
	char		*nl, *start;
	ssize_t		 n;
	long long	 ms;
	int		 r;

	for (;;) {
		nl = memchr(c->buf + c->off, '\n', c->len - c->off);
		if (nl != NULL) {
			start = c->buf + c->off;
			c->off = (size_t)(nl - c->buf) + 1;
			if (c->skipping) {
				c->skipping = 0;
				continue;
			}
			*nl = '\0';
			*line = start;
			*linelen = (size_t)(nl - start);
			if (*linelen > 0 && start[*linelen - 1] == '\r')
				start[--*linelen] = '\0';
			return MUXCTL_RD_LINE;
		}
		if (c->skipping)
			c->off = c->len = 0;
		else if (c->len - c->off > PROTOCOL_LINE_MAX) {
			c->skipping = 1;
			c->off = c->len = 0;
			return MUXCTL_RD_LONG;
		}
		if (c->off > 0) {
			memmove(c->buf, c->buf + c->off, c->len - c->off);
			c->len -= c->off;
			c->off = 0;
		}
		if (c->eof) {
			/* A last line without its newline still counts. */
			if (c->len == 0 || c->skipping) {
				c->len = 0;
				return MUXCTL_RD_EOF;
			}
			c->buf[c->len] = '\0';
			*line = c->buf;
			*linelen = c->len;
			c->len = 0;
			if (*linelen > 0 && c->buf[*linelen - 1] == '\r')
				c->buf[--*linelen] = '\0';
			return MUXCTL_RD_LINE;
		}

		ms = -1;
		if (deadline != NULL) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
			    (deadline->tv_nsec - now.tv_nsec) / 1000000;
			if (ms <= 0)
				return MUXCTL_RD_TIMEOUT;
		}
		pfd.fd = c->fd;
		pfd.events = POLLIN;
		r = poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms);
		if (r == -1) {
			if (errno == EINTR)
				continue;
			err(PROTOCOL_EXIT_PROTOCOL, "poll");
		}
		if (r == 0)
			continue;	/* the deadline is checked above */

		n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
		if (n == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno != ECONNRESET)
				err(PROTOCOL_EXIT_PROTOCOL, "%s", c->path);
			n = 0;
		}
		if (n == 0)
			c->eof = 1;
		c->len += (size_t)n;
	}
}
