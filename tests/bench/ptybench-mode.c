/*
 * ptybench: the modes (lat, lock, line, bulk, rate, turn, idle) and the
 * checking of every byte against its stream.
 */
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ptybench.h"

/* Read from fd until byte c comes; 0, or -1 after ms milliseconds. */
int
ptybench_mode_await(int fd, unsigned char c, int ms)
{
	unsigned char	buf[PTYBENCH_CHUNK];
	struct pollfd	pfd;
	uint64_t	deadline;
	ssize_t		n;
	int		left;

	deadline = ptybench_now() + (uint64_t)ms * PTYBENCH_MSEC;
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		if ((n = read(fd, buf, sizeof(buf))) > 0) {
			if (memchr(buf, c, n) != NULL)
				return (0);
			continue;
		}
		if (n == -1 && errno != EAGAIN && errno != EINTR)
			err(1, "read");
		left = (int)(((int64_t)deadline - (int64_t)ptybench_now()) /
		    (int64_t)PTYBENCH_MSEC);
		if (left <= 0)
			return (-1);
		if (poll(&pfd, 1, left) == -1 && errno != EINTR)
			err(1, "poll");
	}
}

/* Read and discard what waits at a descriptor. */
void
ptybench_mode_drain(int fd)
{
	unsigned char	buf[PTYBENCH_CHUNK];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/*
 * How long the forwarder may take to carry every link, in seconds:
 * PTYBENCH_WAIT, or 20 (a forwarder under valgrind needs longer).
 */
static int
ptybench_mode_wait(void)
{
	const char	*s = getenv("PTYBENCH_WAIT");
	char		*end;
	long		 n;

	if (s == NULL || *s == '\0')
		return (20);
	n = strtol(s, &end, 10);
	if (*end != '\0' || n < 1 || n > 86400)
		errx(2, "PTYBENCH_WAIT=%s: not a number of seconds, 1 to 86400",
		    s);
	return ((int)n);
}

/*
 * Write byte c at an end of link i while the forwarder lives and the
 * deadline is not past; what says where nothing that was written arrived.
 */
static void
ptybench_mode_poke(int fd, unsigned char c, uint64_t deadline, int i,
    const char *what)
{
	ptybench_proc_check();
	if (ptybench_now() > deadline)
		errx(1, "link %d: nothing written %s in %d s", i + 1, what,
		    ptybench_mode_wait());
	if (write(fd, &c, 1) != 1 && errno != EAGAIN)
		err(1, "write");
}

/*
 * Wait, while the forwarder lives and the deadline is not past, for the
 * file PTYBENCH_READY names, if any: what the forwarder's helpers write
 * once they are attached (the watchers of tests/bench/fwd), so that no
 * sample is taken without them.
 */
static void
ptybench_mode_ready(uint64_t deadline)
{
	const char	*path = getenv("PTYBENCH_READY");

	if (path == NULL || *path == '\0')
		return;
	while (access(path, F_OK) == -1) {
		ptybench_proc_check();
		if (ptybench_now() > deadline)
			errx(1, "PTYBENCH_READY: %s did not appear within "
			    "%d s of the forwarder's start", path,
			    ptybench_mode_wait());
		usleep(20000);
	}
}

/*
 * Wait until the forwarder carries every link, and learn which end b each
 * end a reaches: write a byte at a until some b not yet taken reads it,
 * then a byte at that b until a reads it.  What arrives meanwhile (more
 * of the same bytes, a room's prompts) is drained at the end.  With -e
 * each a then ends its line (CR), so that a room that echoes starts the
 * measure with a prompt and nothing typed, and draws again only what the
 * probe checks.
 */
void
ptybench_mode_map(void)
{
	struct pollfd	 pfd[PTYBENCH_LINKS_MAX];
	unsigned char	 buf[PTYBENCH_CHUNK], c;
	int		 owner[PTYBENCH_LINKS_MAX], bfd[PTYBENCH_LINKS_MAX];
	int		 taken[PTYBENCH_LINKS_MAX];
	uint64_t	 deadline;
	ssize_t		 n;
	int		 i, j, np, found;

	if (ptybench_baseline)
		return;
	for (j = 0; j < ptybench_nlinks; j++) {
		bfd[j] = ptybench_links[j].m[1];
		taken[j] = 0;
	}
	deadline = ptybench_now() + ptybench_mode_wait() * PTYBENCH_SEC;
	for (i = 0; i < ptybench_nlinks; i++) {
		c = 'a' + i % 26;
		for (found = -1; found == -1;) {
			ptybench_mode_poke(ptybench_links[i].m[0], c, deadline,
			    i, "at end a arrived at an end b");
			for (j = np = 0; j < ptybench_nlinks; j++) {
				if (taken[j])
					continue;
				owner[np] = j;
				pfd[np].fd = bfd[j];
				pfd[np++].events = POLLIN;
			}
			if (poll(pfd, np, 20) <= 0)
				continue;
			for (j = 0; j < np && found == -1; j++) {
				if (pfd[j].revents == 0)
					continue;
				n = read(pfd[j].fd, buf, sizeof(buf));
				if (n > 0 && memchr(buf, c, n) != NULL)
					found = owner[j];
			}
		}
		taken[found] = 1;
		ptybench_links[i].fd[0] = ptybench_links[i].m[0];
		ptybench_links[i].fd[1] = bfd[found];
		c = 'A' + i % 26;
		do {
			ptybench_mode_poke(ptybench_links[i].fd[1], c, deadline,
			    i, "at end b arrived at end a");
		} while (ptybench_mode_await(ptybench_links[i].fd[0], c, 20) ==
		    -1);
	}
	ptybench_mode_ready(deadline);
	for (i = 0; opt_echo && i < ptybench_nlinks; i++)
		if (write(ptybench_links[i].fd[0], "\r", 1) != 1)
			err(1, "write");
	usleep(200000);
	for (i = 0; i < ptybench_nlinks; i++) {
		ptybench_mode_drain(ptybench_links[i].fd[0]);
		ptybench_mode_drain(ptybench_links[i].fd[1]);
	}
}

/* Seed the streams of every measured link. */
void
ptybench_mode_streams(void)
{
	struct ptybench_link	*l;
	uint32_t		 seed;
	int			 i;

	for (i = 0; i < opt_links; i++) {
		l = &ptybench_links[i];
		seed = (uint32_t)(2654435761U * (uint32_t)(i + 1));
		ptybench_gen_init(&l->st[0].wgen, 'a', seed);
		ptybench_gen_init(&l->st[0].rgen, 'a', seed);
		ptybench_gen_init(&l->echo, 'a', seed);
		ptybench_gen_init(&l->st[1].wgen, 'A', seed ^ 0x5bd1e995U);
		ptybench_gen_init(&l->st[1].rgen, 'A', seed ^ 0x5bd1e995U);
		ptybench_screen_init(l);
	}
}

/* Count a byte that is not what was expected, keeping the first one. */
void
ptybench_mode_wrong(struct ptybench_link *l, int end, unsigned char c,
    const char *what)
{
	if (ptybench_errors++ == 0)
		snprintf(ptybench_error, sizeof(ptybench_error),
		    "link %d end %c: byte 0x%02x, %s",
		    (int)(l - ptybench_links) + 1, end == 0 ? 'a' : 'b', c,
		    what);
}

/*
 * Take byte c, read at an end of a link, as the next of the stream that
 * arrives there, and a latency sample for it when its due time is known
 * and within the window; -1 when it is of no stream that arrives there.
 * A line end (turn) is one key: the entity's CR LF, or the judge's CR,
 * which the entity may get as CR, LF, CR LF or LF CR (a room's "eol").
 */
int
ptybench_mode_recv(struct ptybench_link *l, int end, unsigned char c,
    uint64_t now)
{
	struct ptybench_stream	*st = &l->st[end == 1 ? 0 : 1];
	uint64_t		 due;
	unsigned char		 half = st->half;
	int			 eol = st->linelen > 0 && st->rcol >= st->linelen;

	st->half = 0;
	if (half != 0 && c == half)
		return (0);		/* the other half of a line end */
	if (c == '\r' || c == '\n') {
		if (!eol)
			return (-1);
		if (end == 1)
			st->half = c == '\r' ? '\n' : '\r';
		else if (c != (unsigned char)st->eol[st->rcol - st->linelen])
			ptybench_mode_wrong(l, end, c, "not the next of its "
			    "stream");
		if (++st->rcol == st->linelen + (long)strlen(st->eol))
			st->rcol = 0;
	} else {
		if ((end == 1 && !islower(c)) || (end == 0 && !isupper(c)))
			return (-1);
		if (eol) {
			ptybench_mode_wrong(l, end, c, "where its line ends");
			st->rcol = 0;
		}
		if (c != ptybench_gen_next(&st->rgen))
			ptybench_mode_wrong(l, end, c,
			    "not the next of its stream");
		st->rcol++;
	}
	if (st->due != NULL) {
		due = st->due[st->received % PTYBENCH_RING];
		if (due >= ptybench_win0 && due < ptybench_win1) {
			ptybench_stats_add(&ptybench_lat, now - due);
			if (now < ptybench_win1)
				ptybench_deliv_win++;
		}
		if (now >= ptybench_win0 && now < ptybench_win1)
			ptybench_recv_win++;
	}
	st->received++;
	return (0);
}

/*
 * Check bytes read at one end of a link against the streams that may
 * arrive there: at b, a's stream only; at a, b's stream, and what a room
 * draws on the judge's screen (ptybench-screen.c), with -e the echo of
 * a's stream among it.
 */
void
ptybench_mode_check(struct ptybench_link *l, int end, const unsigned char *buf,
    size_t n, uint64_t now)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (end == 0)
			ptybench_screen_byte(l, buf[i], now);
		else if (ptybench_mode_recv(l, 1, buf[i], now) == -1)
			ptybench_mode_wrong(l, end, buf[i], "from no stream");
	}
}

/*
 * The next key of a stream, its bytes in buf: a letter, or (turn) its
 * line end once the line has its letters; the number of bytes returned.
 */
size_t
ptybench_mode_key(struct ptybench_stream *st, unsigned char *buf)
{
	size_t	n;

	if (st->linelen > 0 && st->wcol == st->linelen) {
		n = strlen(st->eol);
		memcpy(buf, st->eol, n);
		st->wcol = 0;
		return (n);
	}
	buf[0] = ptybench_gen_next(&st->wgen);
	st->wcol++;
	return (1);
}

/*
 * Write what a stream has pending, as far as the line takes it; returns
 * -1 when the line is gone.
 */
int
ptybench_mode_push(struct ptybench_stream *st, int fd)
{
	ssize_t	w;

	if (st->npend == 0)
		return (0);
	if ((w = write(fd, st->pend, st->npend)) == -1)
		return (errno == EAGAIN || errno == EINTR ? 0 : -1);
	st->written += (uint64_t)w;
	st->npend -= (size_t)w;
	memmove(st->pend, st->pend + w, st->npend);
	return (0);
}

/*
 * End a mode's line of figures: the latency percentiles (and the samples
 * to opt_out) when lat, then the first wrong byte, if any.
 */
static void
ptybench_mode_end(int lat)
{
	if (lat && opt_out != NULL)
		ptybench_stats_save(&ptybench_lat, opt_out);
	if (lat)
		ptybench_stats_print(&ptybench_lat, 1000.0);
	if (ptybench_errors > 0)
		printf(" first_error=\"%s\"", ptybench_error);
	printf("\n");
}

/*
 * One sample: c written at end dir of link l and awaited at the other
 * end (sample k, for the error), its time taken; when it arrived.
 */
static uint64_t
ptybench_mode_sample(struct ptybench_link *l, int dir, unsigned char c,
    long k)
{
	uint64_t	t0, t1;

	t0 = ptybench_now();
	if (write(l->fd[dir], &c, 1) != 1)
		err(1, "write");
	if (ptybench_mode_await(l->fd[!dir], c, 3000) == -1) {
		ptybench_proc_check();
		errx(1, "sample %ld: byte lost (3 s)", k + 1);
	}
	t1 = ptybench_now();
	ptybench_stats_add(&ptybench_lat, t1 - t0);
	return (t1);
}

/*
 * One-way latency of single bytes, in blocks of -k samples from a to b
 * then from b to a, with a random gap between samples.
 */
void
ptybench_mode_lat(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	uint64_t		 next;
	unsigned char		 c;
	long			 k;
	int			 dir;

	next = ptybench_now();
	for (k = 0; k < opt_n; k++) {
		dir = (int)((k / opt_block) % 2);
		c = (dir == 0 ? 'a' : 'A') + k % 26;
		ptybench_mode_drain(l->fd[!dir]);
		next += (uint64_t)(opt_gmin + (long)(ptybench_random() %
		    (uint64_t)(opt_gmax - opt_gmin + 1))) * PTYBENCH_USEC;
		ptybench_sleep_until(next);
		next = ptybench_mode_sample(l, dir, c, k);
	}
	if (opt_out != NULL)
		ptybench_stats_save(&ptybench_lat, opt_out);
	ptybench_stats_print(&ptybench_lat, 1000.0);
	printf("\n");
}

/*
 * Lockstep: one byte written at an end, the next only once it has been
 * read at the other end, the directions alternating byte by byte, with
 * no gap: a judge who types and waits for each echo, at the speed of the
 * machine.  Every byte is a sample, from its write to its read.
 */
void
ptybench_mode_lock(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	unsigned char		 c;
	long			 k;
	int			 dir;

	ptybench_mode_drain(l->fd[0]);
	ptybench_mode_drain(l->fd[1]);
	for (k = 0; k < opt_n; k++) {
		dir = (int)(k % 2);
		c = (dir == 0 ? 'a' : 'A') + k % 26;
		(void)ptybench_mode_sample(l, dir, c, k);
	}
	if (opt_out != NULL)
		ptybench_stats_save(&ptybench_lat, opt_out);
	ptybench_stats_print(&ptybench_lat, 1000.0);
	printf("\n");
}

/*
 * A line of -c keys typed at a one at a time, each after the echo of the
 * one before: the probe echoes at b, or with -e the forwarder echoes and
 * each key must also reach b.  The time is from the first key written to
 * the last key's echo read; -o keeps each line's, in ns.
 */
void
ptybench_mode_line(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	struct ptybench_samples	 s = { NULL, 0, 0 };
	uint64_t		 t0;
	unsigned char		 c;
	long			 r, k;

	for (r = 0; r < opt_n; r++) {
		usleep(2000);
		ptybench_mode_drain(l->fd[0]);
		ptybench_mode_drain(l->fd[1]);
		t0 = ptybench_now();
		for (k = 0; k < opt_chars; k++) {
			c = 'a' + (r * opt_chars + k) % 26;
			if (write(l->fd[0], &c, 1) != 1)
				err(1, "write");
			if (ptybench_mode_await(l->fd[1], c, 3000) == -1)
				errx(1, "line %ld key %ld: lost", r + 1, k + 1);
			if (!opt_echo && write(l->fd[1], &c, 1) != 1)
				err(1, "write");
			if (ptybench_mode_await(l->fd[0], c, 3000) == -1)
				errx(1, "line %ld key %ld: no echo", r + 1,
				    k + 1);
		}
		ptybench_stats_add(&s, ptybench_now() - t0);
	}
	if (opt_out != NULL)
		ptybench_stats_save(&s, opt_out);
	printf("chars=%ld ", opt_chars);
	ptybench_stats_print(&s, 1000000.0);
	printf("\n");
	free(s.v);
}

/*
 * Bulk both ways at once for -t seconds, every byte checked; then wait
 * until everything written has arrived, or nothing has for 2 s.  The
 * forwarder's CPU time over the run is told per byte moved.
 */
void
ptybench_mode_bulk(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	struct ptybench_stream	*st;
	struct pollfd		 pfd[2];
	unsigned char		 buf[PTYBENCH_CHUNK];
	uint64_t		 t0, tstop, tlast, tend, now, lost, cpu, csw, total;
	ssize_t			 n;
	size_t			 i;
	int			 e, writing = 1;

	ptybench_proc_tasks_read(1, &cpu, &csw);
	t0 = tlast = ptybench_now();
	tstop = t0 + (uint64_t)(opt_secs * PTYBENCH_SEC);
	for (;;) {
		for (e = 0; e < 2; e++) {
			pfd[e].fd = l->fd[e];
			pfd[e].events = POLLIN | (writing ? POLLOUT : 0);
		}
		if (poll(pfd, 2, 100) == -1 && errno != EINTR)
			err(1, "poll");
		now = ptybench_now();
		for (e = 0; e < 2; e++) {
			if (pfd[e].revents & (POLLIN | POLLHUP | POLLERR)) {
				n = read(l->fd[e], buf, sizeof(buf));
				if (n > 0) {
					ptybench_mode_check(l, e, buf, n, now);
					tlast = now;
				} else if (n == -1 && errno != EAGAIN)
					err(1, "read");
			}
			st = &l->st[e];
			if (!writing || !(pfd[e].revents & POLLOUT))
				continue;
			if (st->npend == 0) {
				for (i = 0; i < sizeof(st->pend); i++)
					st->pend[i] = ptybench_gen_next(
					    &st->wgen);
				st->npend = sizeof(st->pend);
			}
			if (ptybench_mode_push(st, l->fd[e]) == -1)
				err(1, "write");
		}
		if (writing && now >= tstop)
			writing = 0;
		if (!writing && l->st[0].received == l->st[0].written &&
		    l->st[1].received == l->st[1].written &&
		    (!opt_echo || l->echoed == l->st[0].written))
			break;
		if (!writing && (now > tlast + PTYBENCH_STALL ||
		    now > tstop + PTYBENCH_DRAIN))
			break;
		ptybench_proc_check();
	}
	ptybench_proc_tasks_read(0, &cpu, &csw);
	tend = ptybench_now();
	total = l->st[0].received + l->st[1].received;
	lost = (l->st[0].written - l->st[0].received) +
	    (l->st[1].written - l->st[1].received) +
	    (opt_echo ? l->st[0].written - l->echoed : 0);
	printf("ab=%.2f ba=%.2f bytes_ab=%llu bytes_ba=%llu secs=%.3f "
	    "lost=%llu errors=%llu prompts=%llu",
	    l->st[0].received / ((tlast - t0) / 1e3),
	    l->st[1].received / ((tlast - t0) / 1e3),
	    (unsigned long long)l->st[0].received,
	    (unsigned long long)l->st[1].received, (tlast - t0) / 1e9,
	    (unsigned long long)lost, (unsigned long long)ptybench_errors,
	    (unsigned long long)l->prompts);
	printf(" cpu_pct=%.1f cpu_ns_per_byte=%.2f",
	    tend > t0 ? 100.0 * cpu / (tend - t0) : 0.0,
	    total > 0 ? (double)cpu / total : 0.0);
	ptybench_mode_end(0);
}

/*
 * The forwarder's CPU and context switches read as the measured window
 * opens (*open) and as it closes (*closed), once each, by now.
 */
static void
ptybench_mode_window(uint64_t now, int *open, int *closed, uint64_t *cpu,
    uint64_t *csw)
{
	if (!*open && now >= ptybench_win0) {
		ptybench_proc_tasks_read(1, cpu, csw);
		*open = 1;
	}
	if (!*closed && now >= ptybench_win1) {
		ptybench_proc_tasks_read(0, cpu, csw);
		*closed = 1;
	}
}

/*
 * A steady load: every stream of -l links writes -w bytes every -w/-r
 * seconds, the streams' phases spread evenly over that interval, so that
 * no two writes fall together by chance: each is a wake-up of its own for
 * the forwarder, and the CPU time per byte of two runs, or of two
 * forwarders, compare alike (random phases made it depend on how close
 * the two streams of one link happened to fall).  Over a window of -t
 * seconds after -W of warm-up: per-byte latency from when each byte was
 * due, the share of the bytes due in the window that also arrived in it
 * (delivered), the forwarder's CPU time per byte moved in the window,
 * and the share of the bytes the probe itself wrote more than 1 ms late
 * (probe_lag: when it is high, the machine, not the forwarder, is the
 * limit); then everything written must arrive (lost: what has not when
 * nothing has arrived for 2 s, or 20 s after the window).
 */
void
ptybench_mode_rate(void)
{
	struct epoll_event	 evs[256], ev;
	struct ptybench_link	*l;
	struct ptybench_stream	*st;
	struct timespec		 ts;
	unsigned char		 buf[PTYBENCH_CHUNK];
	int			 ep, ns = 2 * opt_links, i, j, k, s;
	uint64_t		 interval, t0, tick = 0, now, cpu = 0, csw = 0;
	uint64_t		 offered = 0, lost = 0, late = 0, lagged = 0;
	uint64_t		 cycle = 0, progress, pending = 0;
	ssize_t			 n;
	int			 nev, burst, writing = 1, snap0 = 0, snap1 = 0;

	interval = (uint64_t)opt_wsize * PTYBENCH_SEC / (uint64_t)opt_rate;
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
		err(1, "setup");
	for (s = 0; s < ns; s++) {
		st = &ptybench_links[s / 2].st[s % 2];
		if ((st->due = calloc(PTYBENCH_RING, sizeof(*st->due))) ==
		    NULL)
			err(1, "calloc");
		st->phase = (uint64_t)s * interval / (uint64_t)ns;
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)s;
		if (epoll_ctl(ep, EPOLL_CTL_ADD,
		    ptybench_links[s / 2].fd[s % 2], &ev) == -1)
			err(1, "epoll_ctl");
	}
	t0 = ptybench_now() + 10 * PTYBENCH_MSEC;
	ptybench_win0 = t0 + (uint64_t)(opt_warm * PTYBENCH_SEC);
	ptybench_win1 = ptybench_win0 + (uint64_t)(opt_secs * PTYBENCH_SEC);
	progress = ptybench_win1;
	j = 0;
	for (;;) {
		now = ptybench_now();
		ptybench_mode_window(now, &snap0, &snap1, &cpu, &csw);
		/* The ticks due, at most a burst of them between reads. */
		for (burst = 0; writing; burst++) {
			st = &ptybench_links[j / 2].st[j % 2];
			tick = t0 + cycle * interval + st->phase;
			if (tick >= ptybench_win1)
				writing = 0;
			if (!writing || tick > now ||
			    burst == PTYBENCH_BURST)
				break;
			s = j;
			l = &ptybench_links[s / 2];
			if (tick >= ptybench_win0 && now - tick > PTYBENCH_MSEC)
				lagged += opt_wsize;
			if (st->written + st->npend + opt_wsize - st->received >
			    PTYBENCH_RING ||
			    st->npend + opt_wsize > sizeof(st->pend))
				late += opt_wsize;
			else {
				if (st->npend > 0)
					late += st->npend;
				for (k = 0; k < opt_wsize; k++) {
					st->due[(st->written + st->npend) %
					    PTYBENCH_RING] = tick;
					st->pend[st->npend++] =
					    ptybench_gen_next(&st->wgen);
				}
				if (ptybench_mode_push(st, l->fd[s % 2]) == -1)
					err(1, "write");
			}
			if (tick >= ptybench_win0)
				offered += opt_wsize;
			if (++j == ns) {
				j = 0;
				cycle++;
			}
		}
		if (!writing) {
			for (s = 0, lost = pending = 0; s < ns; s++) {
				st = &ptybench_links[s / 2].st[s % 2];
				if (ptybench_mode_push(st,
				    ptybench_links[s / 2].fd[s % 2]) == -1)
					err(1, "write");
				lost += st->written - st->received;
				pending += st->npend;
				if (s % 2 == 0 && opt_echo)
					lost += st->written -
					    ptybench_links[s / 2].echoed;
			}
			if (snap1 && ((lost == 0 && pending == 0) ||
			    now > progress + PTYBENCH_STALL ||
			    now > ptybench_win1 + PTYBENCH_DRAIN))
				break;
		}
		ts.tv_sec = 0;
		ts.tv_nsec = 10 * PTYBENCH_MSEC;
		if (writing && burst == PTYBENCH_BURST)
			ts.tv_nsec = 0;
		else if (writing && tick - now < 10 * PTYBENCH_MSEC)
			ts.tv_nsec = (long)(tick - now);
		if ((nev = epoll_pwait2(ep, evs, 256, &ts, NULL)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "epoll_pwait2");
		}
		now = ptybench_now();
		for (i = 0; i < nev; i++) {
			s = (int)evs[i].data.u32;
			l = &ptybench_links[s / 2];
			n = read(l->fd[s % 2], buf, sizeof(buf));
			if (n > 0) {
				ptybench_mode_check(l, s % 2, buf, (size_t)n, now);
				progress = now;
			} else if (n == -1 && errno != EAGAIN)
				err(1, "read");
		}
		if (nev == 0)
			ptybench_proc_check();
	}
	printf("links=%d wsize=%ld rate=%ld offered=%llu delivered=%llu "
	    "moved=%llu share=%.4f lost=%llu late=%llu probe_lag=%.4f "
	    "errors=%llu cpu_ns=%llu cpu_pct=%.2f cpu_ns_per_byte=%.1f "
	    "csw=%llu ",
	    opt_links, opt_wsize, opt_rate, (unsigned long long)offered,
	    (unsigned long long)ptybench_deliv_win,
	    (unsigned long long)ptybench_recv_win,
	    offered > 0 ? (double)ptybench_deliv_win / offered : 0.0,
	    (unsigned long long)lost, (unsigned long long)late,
	    offered > 0 ? (double)lagged / offered : 0.0,
	    (unsigned long long)ptybench_errors, (unsigned long long)cpu,
	    100.0 * cpu / (opt_secs * PTYBENCH_SEC),
	    ptybench_recv_win > 0 ? (double)cpu / ptybench_recv_win : 0.0,
	    (unsigned long long)csw);
	ptybench_mode_end(1);
}

/*
 * Turns, as a conversation takes them: the judge (end a) types a line of
 * -c letters and its line end (CR), a key every 1/-r seconds, and the
 * entity (end b) answers, once that whole line has reached it, with a
 * line of as many letters and CR LF (one key) at the same rate; the
 * judge's next line begins once the answer has reached a.  So a room
 * draws a prompt once a line, as in a contest, not once a key as in rate,
 * where the two streams interleave byte by byte.  Over a window of -t
 * seconds after -W of warm-up, as in rate: latency from when each key
 * was due, the share of the bytes due in the window that arrived in it,
 * the forwarder's CPU time per byte moved in the window (echoes and
 * prompts are not bytes moved), probe_lag; lines: the lines begun in the
 * window.  The line under way when the window ends is finished, then
 * everything written must arrive.
 */
void
ptybench_mode_turn(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	struct ptybench_stream	*st;
	struct pollfd		 pfd[2];
	struct timespec		 ts;
	unsigned char		 buf[PTYBENCH_CHUNK], key[4];
	uint64_t		 interval, t0, tline, tick, now, next, cpu = 0;
	uint64_t		 csw = 0, offered = 0, lagged = 0, lines = 0;
	uint64_t		 lost = 0, progress;
	long			 k = 0, keys = opt_chars + 1;
	size_t			 nk, i;
	ssize_t			 n;
	int			 side = 0, e, writing = 1, snap0 = 0, snap1 = 0;

	if (opt_links != 1)
		errx(2, "turn: one link (-l 1)");
	interval = PTYBENCH_SEC / (uint64_t)opt_rate;
	for (e = 0; e < 2; e++) {
		st = &l->st[e];
		if ((st->due = calloc(PTYBENCH_RING, sizeof(*st->due))) == NULL)
			err(1, "calloc");
		st->linelen = opt_chars;
		st->eol = e == 0 ? "\r" : "\r\n";
		pfd[e].fd = l->fd[e];
		pfd[e].events = POLLIN;
	}
	t0 = tline = ptybench_now() + 10 * PTYBENCH_MSEC;
	ptybench_win0 = t0 + (uint64_t)(opt_warm * PTYBENCH_SEC);
	ptybench_win1 = ptybench_win0 + (uint64_t)(opt_secs * PTYBENCH_SEC);
	progress = ptybench_win1;
	for (;;) {
		now = ptybench_now();
		ptybench_mode_window(now, &snap0, &snap1, &cpu, &csw);
		st = &l->st[side];
		/* The keys of the line that are due. */
		while (writing && k < keys &&
		    (tick = tline + (uint64_t)k * interval) <= now) {
			nk = ptybench_mode_key(st, key);
			if (tick >= ptybench_win0 && now - tick > PTYBENCH_MSEC)
				lagged += nk;
			if (tick >= ptybench_win0 && tick < ptybench_win1)
				offered += nk;
			for (i = 0; i < nk; i++) {
				st->due[(st->written + st->npend) %
				    PTYBENCH_RING] = tick;
				st->pend[st->npend++] = key[i];
			}
			k++;
		}
		if (ptybench_mode_push(st, l->fd[side]) == -1)
			err(1, "write");
		/* The line has reached the other end: the other side's turn. */
		if (writing && k == keys && st->npend == 0 &&
		    st->received == st->written) {
			if (tline >= ptybench_win0 && tline < ptybench_win1)
				lines++;
			if (now >= ptybench_win1)
				writing = 0;
			side = !side;
			tline = now;
			k = 0;
		}
		if (!writing) {
			lost = (l->st[0].written - l->st[0].received) +
			    (l->st[1].written - l->st[1].received) +
			    (opt_echo ? l->st[0].written - l->echoed : 0);
			if (snap1 && (lost == 0 ||
			    now > progress + PTYBENCH_STALL ||
			    now > ptybench_win1 + PTYBENCH_DRAIN))
				break;
		}
		/* Until the next key, or the window's edge, or 10 ms. */
		next = now + 10 * PTYBENCH_MSEC;
		if (writing && k < keys && tline + (uint64_t)k * interval < next)
			next = tline + (uint64_t)k * interval;
		if (!snap0 && ptybench_win0 < next)
			next = ptybench_win0;
		else if (!snap1 && ptybench_win1 < next)
			next = ptybench_win1;
		next = next > now ? next - now : 0;
		ts.tv_sec = (time_t)(next / PTYBENCH_SEC);
		ts.tv_nsec = (long)(next % PTYBENCH_SEC);
		if ((n = ppoll(pfd, 2, &ts, NULL)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "ppoll");
		}
		if (n == 0) {
			ptybench_proc_check();
			continue;
		}
		now = ptybench_now();
		for (e = 0; e < 2; e++) {
			if (!(pfd[e].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(l->fd[e], buf, sizeof(buf));
			if (n > 0) {
				ptybench_mode_check(l, e, buf, (size_t)n, now);
				progress = now;
			} else if (n == -1 && errno != EAGAIN)
				err(1, "read");
		}
	}
	printf("links=1 chars=%ld rate=%ld lines=%llu offered=%llu "
	    "delivered=%llu moved=%llu share=%.4f lost=%llu late=0 "
	    "probe_lag=%.4f errors=%llu cpu_ns=%llu cpu_pct=%.2f "
	    "cpu_ns_per_byte=%.1f csw=%llu prompts=%llu ",
	    opt_chars, opt_rate, (unsigned long long)lines,
	    (unsigned long long)offered,
	    (unsigned long long)ptybench_deliv_win,
	    (unsigned long long)ptybench_recv_win,
	    offered > 0 ? (double)ptybench_deliv_win / offered : 0.0,
	    (unsigned long long)lost,
	    offered > 0 ? (double)lagged / offered : 0.0,
	    (unsigned long long)ptybench_errors, (unsigned long long)cpu,
	    100.0 * cpu / (opt_secs * PTYBENCH_SEC),
	    ptybench_recv_win > 0 ? (double)cpu / ptybench_recv_win : 0.0,
	    (unsigned long long)csw, (unsigned long long)l->prompts);
	ptybench_mode_end(1);
}

/*
 * The forwarder left idle: after -S seconds of settling, its wake-ups
 * (context switches) and CPU time over -t seconds.
 */
void
ptybench_mode_idle(void)
{
	uint64_t	t0, cpu, csw;

	ptybench_sleep_until(ptybench_now() +
	    (uint64_t)(opt_settle * PTYBENCH_SEC));
	t0 = ptybench_now();
	ptybench_proc_tasks_read(1, &cpu, &csw);
	ptybench_sleep_until(t0 + (uint64_t)(opt_secs * PTYBENCH_SEC));
	ptybench_proc_tasks_read(0, &cpu, &csw);
	ptybench_proc_check();
	printf("links=%d secs=%.1f wakeups=%llu per_s=%.2f cpu_ns=%llu "
	    "tasks=%zu\n", ptybench_nlinks, opt_secs, (unsigned long long)csw,
	    csw / opt_secs, (unsigned long long)cpu, ptybench_ntasks);
}
