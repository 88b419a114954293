/*
 * xfer: bulk byte-exact transfer checker across several links at once.
 *
 * For every pair A=B given, a pseudo-random stream goes from A to B and a
 * different one from B to A, all pairs and both directions at the same time
 * in one poll() loop.  Each receiver must get exactly its own stream: no byte
 * lost, altered, duplicated, reordered, added, or taken from another link.
 * The streams hold every byte value, and are biased towards the bytes a line
 * discipline or a careless relay would eat or rewrite (NUL, CR, LF, XON,
 * XOFF, DEL, ESC, 8-bit bytes), often back to back.
 *
 * The KiB/s figure counts every byte delivered: all pairs, both directions.
 * Byte offsets in messages count from 0.
 *
 * When the time runs out, xfer names each direction that did not finish,
 * how far it got, how much its sender wrote and how long ago its last
 * byte came (a stall or a slow line); SIGUSR1 prints that progress for
 * every direction at any time.
 */

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "endpoint.h"

#define XFER_LINGER_MS	200	/* read on after the end for extras */
#define XFER_BURST	16384	/* most bytes written to an end between reads */
#define XFER_SAMPLE	64	/* bytes kept to explain a mismatch */
#define XFER_MINMATCH	4	/* bytes to agree at a known offset */
#define XFER_IDLEN	8	/* bytes that must agree at any offset */
#define PLURAL(n)	((n) == 1 ? "" : "s")

struct xfer_dir;

/* One endpoint, opened once. */
struct xfer_end {
	struct endpoint	 ep;		/* name, fd, saved terminal */
	struct xfer_dir	*out;		/* the stream it sends */
	struct xfer_dir	*in;		/* the stream it receives */
};

/* One direction of one pair: a stream from src to dst. */
struct xfer_dir {
	int		 pair;		/* 1-based, in argument order */
	const char	*label;		/* "B<-A" or "A<-B" */
	struct xfer_end	*src;
	struct xfer_end	*dst;
	unsigned char	*data;		/* the stream, nbytes long */
	size_t		 sent;
	unsigned char	*rbuf;		/* nbytes + XFER_SAMPLE */
	size_t		 rcvd;		/* may exceed rbuf */
	long long	 bad;		/* first wrong byte, or -1 */
	long long	 last;		/* when a byte last came, us, or 0 */
};

static struct xfer_end	*xfer_ends;
static int		 xfer_nends;
static size_t		 xfer_nbytes = 100000;
static volatile sig_atomic_t	 xfer_dump;	/* SIGUSR1 seen */

static void		 usage(void) __attribute__((noreturn));

/* Print the command line summary and exit. */
static void
usage(void)
{
	fprintf(stderr, "usage: xfer [-n bytes] [-s seed] [-t timeout_s] "
	    "[-c chunk] A1=B1 [A2=B2 ...]\n"
	    "       endpoints: a tty or pty path, or tcp:HOST:PORT\n"
	    "       defaults: -n 100000 -s 1 -t 60 -c 64\n");
	exit(1);
}

/* Parse a decimal number within [min, max] or exit naming the option. */
static long long
xfer_num(const char *s, long long min, long long max, const char *what)
{
	long long	v;

	if (endpoint_number(s, min, max, &v) == -1)
		errx(1, "%s must be a number from %lld to %lld: %s", what,
		    min, max, s);
	return (v);
}

/* Return the next value of a splitmix64 generator. */
static uint64_t
xfer_rand(uint64_t *s)
{
	uint64_t	z;

	z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* Fill a stream from (seed, pair, direction). */
static void
xfer_fill(unsigned char *p, size_t n, uint64_t seed, int pair, int dir)
{
	static const unsigned char special[] = {
		0x00, 0x0d, 0x0a, 0x11, 0x13, 0x08, 0x7f, 0x1b,
		0x03, 0x04, 0x1a, 0x40, 0x80, 0x9b, 0xff, 0x0d,
	};
	uint64_t	s, r;
	size_t		i;

	s = seed * 0x100000001b3ULL ^ (uint64_t)pair << 32 ^ (uint64_t)dir;
	xfer_rand(&s);
	for (i = 0; i < n; i++) {
		r = xfer_rand(&s);
		if ((r >> 8 & 7) == 0)
			p[i] = special[r >> 16 & 15];
		else
			p[i] = r & 0xff;
	}
}

/* Take bytes read for a direction, noting the first that is wrong. */
static void
xfer_take(struct xfer_dir *d, const unsigned char *buf, size_t n)
{
	size_t	i, off;

	for (i = 0; i < n; i++) {
		off = d->rcvd++;
		if (off < xfer_nbytes + XFER_SAMPLE)
			d->rbuf[off] = buf[i];
		if (d->bad == -1 &&
		    (off >= xfer_nbytes || buf[i] != d->data[off]))
			d->bad = off;
	}
}

/* Say where the stream sending end e was heading, for cross-talk. */
static void
xfer_source(char *note, size_t sz, const struct xfer_dir *d,
    const struct xfer_dir *e, long long at)
{
	char	where[64] = "";

	if (at >= 0)
		snprintf(where, sizeof where, ", its byte %lld", at);
	if (e->pair == d->pair)
		snprintf(note, sz, " (echo: the receiver's own %s stream "
		    "came back%s)", e->label, where);
	else
		snprintf(note, sz, " (cross-talk from pair %d (%s)%s)",
		    e->pair, e->label, where);
}

/* Explain the bytes that follow a mismatch in a short note. */
static void
xfer_explain(char *note, size_t sz, const struct xfer_dir *d,
    const struct xfer_dir *dirs, int ndirs)
{
	const unsigned char	*s, *p;
	size_t			 k = d->bad, n = xfer_nbytes;
	size_t			 l, m, j, len, kept, at;
	int			 i, o;

	note[0] = '\0';
	kept = d->rcvd < n + XFER_SAMPLE ? d->rcvd : n + XFER_SAMPLE;
	s = d->rbuf + k;
	l = kept - k < XFER_SAMPLE ? kept - k : XFER_SAMPLE;
	m = l < XFER_IDLEN ? l : XFER_IDLEN;
	if (l < XFER_MINMATCH) {
		if (k < n)
			snprintf(note, sz, " (only %zu byte%s received from "
			    "there)", l, PLURAL(l));
		return;
	}
	/* Another stream at the same offset: links crossed or merged. */
	for (i = 0; i < ndirs; i++)
		if (&dirs[i] != d && k + m <= n &&
		    memcmp(dirs[i].data + k, s, m) == 0) {
			xfer_source(note, sz, d, &dirs[i], -1);
			return;
		}
	if (k < n) {
		len = l - 1 < n - k - 1 ? l - 1 : n - k - 1;
		if (len >= XFER_MINMATCH &&
		    memcmp(s + 1, d->data + k + 1, len) == 0) {
			snprintf(note, sz, " (one byte altered, the next %zu "
			    "are right)", len);
			return;
		}
		for (j = 1; j + XFER_MINMATCH <= l; j++) {
			len = l - j < n - k ? l - j : n - k;
			if (memcmp(s + j, d->data + k, len) != 0)
				continue;
			o = snprintf(note, sz, " (%zu byte%s inserted:", j,
			    PLURAL(j));
			for (len = 0; len < j && len < 8 && o > 0 &&
			    (size_t)o < sz; len++)
				o += snprintf(note + o, sz - o, " 0x%02x",
				    s[len]);
			if (o > 0 && (size_t)o < sz)
				snprintf(note + o, sz - o, "%s)",
				    j > 8 ? " ..." : "");
			return;
		}
		if (m == XFER_IDLEN &&
		    (p = memmem(d->data, n, s, m)) != NULL) {
			at = p - d->data;
			if (at > k)
				snprintf(note, sz, " (stream resumes at byte "
				    "%zu: %zu byte%s lost)", at, at - k,
				    PLURAL(at - k));
			else
				snprintf(note, sz, " (byte %zu onwards sent "
				    "again: %zu byte%s duplicated)", at,
				    k - at, PLURAL(k - at));
			return;
		}
	}
	/* Another stream at any offset. */
	for (i = 0; m == XFER_IDLEN && i < ndirs; i++)
		if (&dirs[i] != d &&
		    (p = memmem(dirs[i].data, n, s, m)) != NULL) {
			xfer_source(note, sz, d, &dirs[i],
			    (long long)(p - dirs[i].data));
			return;
		}
	snprintf(note, sz, " (the next %zu bytes match no stream)", m);
}

/* Report every direction that went wrong. */
static void
xfer_report(struct xfer_dir *dirs, int ndirs)
{
	struct xfer_dir	*d;
	char		 note[256];
	int		 i;

	for (i = 0; i < ndirs; i++) {
		d = &dirs[i];
		if (d->bad == -1)
			continue;
		xfer_explain(note, sizeof note, d, dirs, ndirs);
		if ((size_t)d->bad >= xfer_nbytes)
			fprintf(stderr, "xfer: pair %d (%s): %zu extra byte%s "
			    "after the expected %zu (first 0x%02x)%s\n",
			    d->pair, d->label, d->rcvd - xfer_nbytes,
			    PLURAL(d->rcvd - xfer_nbytes),
			    xfer_nbytes, d->rbuf[d->bad], note);
		else
			fprintf(stderr, "xfer: pair %d (%s): byte %lld: "
			    "expected 0x%02x got 0x%02x%s\n", d->pair,
			    d->label, d->bad, d->data[d->bad],
			    d->rbuf[d->bad], note);
	}
}

/* Note that a progress report was asked for. */
static void
xfer_usr1(int sig)
{
	(void)sig;
	xfer_dump = 1;
}

/* Print how far one direction got, and for how long nothing came. */
static void
xfer_progress(const struct xfer_dir *d, long long start, long long now)
{
	char	idle[64];

	if (d->last != 0)
		snprintf(idle, sizeof idle, ", last byte %.1f s ago",
		    (now - d->last) / 1e6);
	else
		snprintf(idle, sizeof idle, ", nothing for %.1f s",
		    (now - start) / 1e6);
	fprintf(stderr, "xfer: pair %d (%s, %s to %s): received %zu of %zu "
	    "bytes, %zu written%s\n", d->pair, d->label, d->src->ep.name,
	    d->dst->ep.name, d->rcvd, xfer_nbytes, d->sent,
	    d->rcvd < xfer_nbytes ? idle : "");
}

/*
 * Report the directions that have not received their whole stream, then
 * the others (all) or only how many they are: the ones that matter come
 * first and survive a log cut short.
 */
static void
xfer_status(const struct xfer_dir *dirs, int ndirs, long long start,
    long long now, int all)
{
	int	i, n = 0;

	for (i = 0; i < ndirs; i++)
		if (dirs[i].rcvd < xfer_nbytes) {
			xfer_progress(&dirs[i], start, now);
			n++;
		}
	if (all) {
		for (i = 0; i < ndirs; i++)
			if (dirs[i].rcvd >= xfer_nbytes)
				xfer_progress(&dirs[i], start, now);
		return;
	}
	fprintf(stderr, "xfer: %d of %d directions incomplete; the other %d "
	    "received all %zu bytes\n", n, ndirs, ndirs - n, xfer_nbytes);
}

/*
 * Write the next chunks of the stream an end sends: up to XFER_BURST bytes,
 * or as far as the end accepts.  All ends are read between two bursts, as
 * a terminal reads while it types.  Writing until the end refused more
 * would let one end send a whole stream while nothing at all is read:
 * muxd, which never holds back both ends of a link at once (port_pause),
 * then queues that stream for the other direction far past its limit, and
 * drops the end of a long one past sixteen times the limit, which xfer
 * sees only as a stall.
 */
static void
xfer_write(struct xfer_end *e, size_t chunk)
{
	struct xfer_dir	*d = e->out;
	size_t		 len, burst = 0;
	ssize_t		 n;

	while (d->sent < xfer_nbytes && burst < XFER_BURST) {
		len = xfer_nbytes - d->sent;
		if (len > chunk)
			len = chunk;
		if (len > XFER_BURST - burst)
			len = XFER_BURST - burst;
		n = write(e->ep.fd, d->data + d->sent, len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			err(1, "pair %d: write %s after %zu bytes", d->pair,
			    e->ep.name, d->sent);
		}
		d->sent += n;
		burst += n;
	}
}

/* Read all that an end has for us. */
static void
xfer_read(struct xfer_end *e)
{
	unsigned char	buf[8192];
	ssize_t		n;

	for (;;) {
		n = read(e->ep.fd, buf, sizeof buf);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			err(1, "pair %d: read %s after %zu bytes", e->in->pair,
			    e->ep.name, e->in->rcvd);
		}
		if (n == 0)
			errx(1, "pair %d: %s: end of file after %zu of %zu "
			    "bytes", e->in->pair, e->ep.name, e->in->rcvd,
			    xfer_nbytes);
		e->in->last = endpoint_now_us();
		xfer_take(e->in, buf, n);
	}
}

/* Parse the pairs, open them, run the transfer, report. */
int
main(int argc, char *argv[])
{
	static struct xfer_dir	*dirs;	/* static: reachable at exit(3) */
	static struct pollfd	*pfd;
	struct xfer_dir		*d;
	long long		 start, now, deadline, done = 0, stop = 0;
	long long		 elapsed = 0, timeout = 60, ms;
	uint64_t		 seed = 1;
	size_t			 chunk = 64;
	char			*eq;
	struct sigaction	 sa;
	int			 ch, npairs, ndirs, i, j, failed = 0;
	int			 complete, r;

	while ((ch = getopt(argc, argv, "c:n:s:t:")) != -1) {
		switch (ch) {
		case 'c':
			chunk = xfer_num(optarg, 1, 1 << 20, "chunk");
			break;
		case 'n':
			xfer_nbytes = xfer_num(optarg, 1, 1LL << 30, "bytes");
			break;
		case 's':
			seed = xfer_num(optarg, 0, LLONG_MAX, "seed");
			break;
		case 't':
			timeout = xfer_num(optarg, 1, 86400, "timeout");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	npairs = argc;
	ndirs = 2 * npairs;
	xfer_nends = 2 * npairs;
	if ((xfer_ends = calloc(xfer_nends, sizeof *xfer_ends)) == NULL ||
	    (dirs = calloc(ndirs, sizeof *dirs)) == NULL ||
	    (pfd = calloc(xfer_nends, sizeof *pfd)) == NULL)
		err(1, NULL);
	for (i = 0; i < xfer_nends; i++)
		xfer_ends[i].ep.fd = -1;
	for (i = 0; i < npairs; i++) {
		if ((eq = strchr(argv[i], '=')) == NULL || eq == argv[i] ||
		    eq[1] == '\0')
			errx(1, "%s: expected A=B", argv[i]);
		*eq = '\0';
		xfer_ends[2 * i].ep.name = argv[i];
		xfer_ends[2 * i + 1].ep.name = eq + 1;
	}
	for (i = 0; i < xfer_nends; i++)
		for (j = 0; j < i; j++)
			if (strcmp(xfer_ends[i].ep.name,
			    xfer_ends[j].ep.name) == 0)
				errx(1, "%s: endpoint given twice",
				    xfer_ends[i].ep.name);

	endpoint_guard();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = xfer_usr1;	/* no SA_RESTART: poll returns */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) == -1)
		err(1, "sigaction");

	for (i = 0; i < ndirs; i++) {
		d = &dirs[i];
		d->pair = i / 2 + 1;
		d->label = i % 2 == 0 ? "B<-A" : "A<-B";
		d->src = &xfer_ends[i];	/* A for A->B, B for B->A */
		d->dst = &xfer_ends[i ^ 1];
		d->bad = -1;
		if ((d->data = malloc(xfer_nbytes)) == NULL ||
		    (d->rbuf = malloc(xfer_nbytes + XFER_SAMPLE)) == NULL)
			err(1, NULL);
		xfer_fill(d->data, xfer_nbytes, seed, d->pair, i % 2);
		d->src->out = d;
		d->dst->in = d;
	}
	for (i = 0; i < xfer_nends; i++)
		endpoint_open(&xfer_ends[i].ep);

	start = endpoint_now_us();
	deadline = start + timeout * 1000000;
	for (;;) {
		for (i = 0; i < xfer_nends; i++) {
			pfd[i].fd = xfer_ends[i].ep.fd;
			pfd[i].events = POLLIN;
			if (xfer_ends[i].out->sent < xfer_nbytes)
				pfd[i].events |= POLLOUT;
		}
		now = endpoint_now_us();
		ms = ((stop ? stop : deadline) - now + 999) / 1000;
		r = poll(pfd, xfer_nends, ms < 0 ? 0 : ms);
		if (xfer_dump) {
			xfer_dump = 0;
			now = endpoint_now_us();
			fprintf(stderr, "xfer: progress after %.1f s:\n",
			    (now - start) / 1e6);
			xfer_status(dirs, ndirs, start, now, 1);
		}
		if (r == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		for (i = 0; i < xfer_nends; i++) {
			if (pfd[i].revents & (POLLOUT | POLLERR))
				xfer_write(&xfer_ends[i], chunk);
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				xfer_read(&xfer_ends[i]);
		}
		now = endpoint_now_us();

		complete = 1;
		for (i = 0; i < ndirs; i++) {
			if (dirs[i].bad != -1 && !failed) {
				/* Read on a little to explain the mismatch. */
				failed = 1;
				if (!stop)
					stop = now + XFER_LINGER_MS * 1000;
			}
			if (dirs[i].rcvd < xfer_nbytes)
				complete = 0;
		}
		if (!failed && complete && !done) {
			done = now;
			elapsed = done - start;
			stop = now + XFER_LINGER_MS * 1000;
		}
		if (stop && now >= stop)
			break;
		if (!stop && now >= deadline) {
			fprintf(stderr, "xfer: timeout after %lld s; not "
			    "complete:\n", timeout);
			xfer_status(dirs, ndirs, start, now, 0);
			exit(1);
		}
	}
	if (failed) {
		xfer_report(dirs, ndirs);
		exit(1);
	}
	printf("xfer: %d pair%s, %zu bytes each way, OK in %.3f s "
	    "(%.1f KiB/s)\n", npairs, PLURAL(npairs), xfer_nbytes,
	    elapsed / 1e6, elapsed > 0 ?
	    (double)ndirs * xfer_nbytes / 1024 / (elapsed / 1e6) : 0.0);
	for (i = 0; i < ndirs; i++) {
		free(dirs[i].data);
		free(dirs[i].rbuf);
	}
	free(dirs);
	free(pfd);
	return (0);
}
