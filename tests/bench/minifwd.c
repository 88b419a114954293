/*
 * minifwd: the floor of the forwarder benchmarks.  A minimal poll(2)
 * forwarder between pairs of terminal devices: each chunk read from one
 * end is written to the other end at once, so a byte costs two pty hops
 * and one wake-up per chunk, and nothing else.  With -l it also writes a
 * text line per byte (time, end, value) to a log, one write(2) per chunk:
 * the floor of a forwarder that keeps evidence of every byte.  With -e
 * it also writes each chunk read from an a end back to that end, as a
 * forwarder that echoes the judge does.  With -E it waits with epoll(7),
 * level-triggered, as libevent's loop does (muxd's) and as ser2net's
 * does, in place of poll(2): the floor of a forwarder built on epoll.
 *
 *	minifwd [-Ee] [-l log] path-a path-b [path-a path-b ...]
 */
#include <sys/epoll.h>
#include <sys/time.h>

#include <err.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#define MINIFWD_FDS	1024
#define MINIFWD_CHUNK	4096
#define MINIFWD_LOGLINE	32

static int	minifwd_open(const char *);
static int	minifwd_wait(int, struct pollfd *, int, int *);
static void	minifwd_log(int, int, const unsigned char *, ssize_t);
static void	minifwd_write(int, const char *, const unsigned char *,
		    ssize_t);

/* Open a terminal device in raw mode. */
static int
minifwd_open(const char *path)
{
	struct termios	t;
	int		fd;

	if ((fd = open(path, O_RDWR | O_NOCTTY)) == -1)
		err(1, "%s", path);
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	return (fd);
}

/*
 * Wait until ends can be read, with poll(2), or with epoll(7) when ep is
 * an epoll instance watching them all; put their indices in ready and
 * return how many there are.
 */
static int
minifwd_wait(int ep, struct pollfd *pfd, int nfd, int *ready)
{
	struct epoll_event	ev[MINIFWD_FDS];
	int			i, n = 0, ne;

	if (ep != -1) {
		if ((ne = epoll_wait(ep, ev, nfd, -1)) == -1)
			err(1, "epoll_wait");
		for (i = 0; i < ne; i++)
			ready[n++] = ev[i].data.u32;
		return (n);
	}
	if (poll(pfd, nfd, -1) == -1)
		err(1, "poll");
	for (i = 0; i < nfd; i++)
		if (pfd[i].revents != 0)
			ready[n++] = i;
	return (n);
}

/* Log a chunk, a line per byte, with one write. */
static void
minifwd_log(int log, int end, const unsigned char *buf, ssize_t n)
{
	static char	text[MINIFWD_CHUNK * MINIFWD_LOGLINE];
	struct timeval	tv;
	ssize_t		i;
	int		len = 0;

	gettimeofday(&tv, NULL);
	for (i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - len,
		    "%lld.%06ld %d %02x\n", (long long)tv.tv_sec,
		    (long)tv.tv_usec, end, buf[i]);
	if (write(log, text, len) != len)
		err(1, "log");
}

/* Write a whole chunk to an end. */
static void
minifwd_write(int fd, const char *path, const unsigned char *buf, ssize_t n)
{
	ssize_t	w, off;

	for (off = 0; off < n; off += w)
		if ((w = write(fd, buf + off, n - off)) == -1)
			err(1, "write %s", path);
}

/* Forward every chunk read from one end of a pair to the other end. */
int
main(int argc, char *argv[])
{
	struct pollfd		pfd[MINIFWD_FDS];
	struct epoll_event	ev;
	unsigned char		buf[MINIFWD_CHUNK];
	ssize_t			n;
	int			ready[MINIFWD_FDS];
	int			i, j, nr, nfd, ch, log = -1, echo = 0, ep = -1;

	while ((ch = getopt(argc, argv, "Eel:")) != -1) {
		switch (ch) {
		case 'E':
			if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
				err(1, "epoll_create1");
			break;
		case 'e':
			echo = 1;
			break;
		case 'l':
			if ((log = open(optarg, O_WRONLY | O_CREAT | O_APPEND,
			    0644)) == -1)
				err(1, "%s", optarg);
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || argc % 2 != 0 || argc > MINIFWD_FDS)
		goto usage;
	for (nfd = 0; nfd < argc; nfd++) {
		pfd[nfd].fd = minifwd_open(argv[nfd]);
		pfd[nfd].events = POLLIN;
		ev.events = EPOLLIN;
		ev.data.u32 = nfd;
		if (ep != -1 && epoll_ctl(ep, EPOLL_CTL_ADD, pfd[nfd].fd,
		    &ev) == -1)
			err(1, "epoll_ctl %s", argv[nfd]);
	}
	for (;;) {
		nr = minifwd_wait(ep, pfd, nfd, ready);
		for (j = 0; j < nr; j++) {
			i = ready[j];
			if ((n = read(pfd[i].fd, buf, sizeof(buf))) <= 0)
				err(1, "read %s", argv[i]);
			if (echo && i % 2 == 0)
				minifwd_write(pfd[i].fd, argv[i], buf, n);
			minifwd_write(pfd[i ^ 1].fd, argv[i ^ 1], buf, n);
			if (log != -1)
				minifwd_log(log, i, buf, n);
		}
	}
usage:
	fprintf(stderr, "usage: minifwd [-Ee] [-l log] path-a path-b "
	    "[path-a path-b ...]\n");
	return (2);
}
