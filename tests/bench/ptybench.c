/*
 * ptybench: the probe of the forwarder benchmarks (tests/bench/forwarders.sh).
 *
 *	ptybench lat|line|bulk|rate|idle [options] [-- command [arg ...]]
 *	ptybench stats file ...
 *
 * It makes pty pairs, starts a forwarder on their slaves and plays both
 * ends of every link itself on the masters, so that one process stamps a
 * byte with CLOCK_MONOTONIC when it writes it and when it reads it.  The
 * command gets the slave paths appended, a1 b1 a2 b2 ..., and forwards
 * between each ai and a bj: which b each a reaches is learned at start,
 * since a room decides its placements itself.  Without a command the probe
 * measures the kernel alone: end a is the master of one pair, end b its
 * slave, one pty hop with no forwarder (the baseline).
 *
 * End a plays a judge's terminal and end b an entity.  Bytes written at a
 * are lowercase letters and bytes written at b uppercase letters, each
 * stream from its own generator, so that what arrives is checked byte for
 * byte: at b, a's stream only; at a, b's stream and, with -e (a forwarder
 * that echoes the judge, muxd in a room), a's stream again as the echo,
 * and the bytes of the 1996 prompt (">", CR, LF), which are counted.
 *
 * The forwarder and its descendants are watched through /proc: CPU time
 * from schedstat, wake-ups from the context switches in status.
 *
 * Each mode prints one line of name=value figures on standard output.
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

#define PTYBENCH_LINKS_MAX	512
#define PTYBENCH_RING		8192	/* bytes in flight per stream */
#define PTYBENCH_CHUNK		4096
#define PTYBENCH_PATHLEN	64
#define PTYBENCH_TASKS_MAX	2048
#define PTYBENCH_PROCS_MAX	32768
#define PTYBENCH_SEC		1000000000ULL
#define PTYBENCH_MSEC		1000000ULL
#define PTYBENCH_USEC		1000ULL
#define PTYBENCH_BURST		64	/* rate: writes between reads */
#define PTYBENCH_STALL		(2 * PTYBENCH_SEC)	/* drain: no progress */
#define PTYBENCH_DRAIN		(20 * PTYBENCH_SEC)	/* drain: at most */

struct ptybench_gen {			/* a stream of letters */
	uint32_t	x;
	unsigned char	base;		/* 'a' or 'A' */
};

struct ptybench_stream {		/* one direction of one link */
	struct ptybench_gen	 wgen;	/* the bytes written */
	struct ptybench_gen	 rgen;	/* the bytes expected */
	uint64_t		 written;
	uint64_t		 received;
	uint64_t		*due;	/* rate: byte i due at due[i % RING] */
	unsigned char		 pend[PTYBENCH_CHUNK];	/* due, not written */
	size_t			 npend;
	uint64_t		 phase;	/* rate: offset of its ticks, ns */
};

struct ptybench_link {
	int			 m[2], s[2];	/* pairs a and b */
	char			 path[2][PTYBENCH_PATHLEN];
	int			 fd[2];		/* the probe's ends a and b */
	struct ptybench_stream	 st[2];		/* 0: a to b, 1: b to a */
	struct ptybench_gen	 echo;		/* a's stream echoed to a */
	uint64_t		 echoed;
	uint64_t		 prompts;
};

struct ptybench_task {			/* a task of the forwarder */
	int		sched;		/* /proc/P/task/T/schedstat */
	int		status;		/* /proc/P/task/T/status */
	uint64_t	cpu0, csw0;	/* at the start of the window */
	int		ok0;
};

struct ptybench_samples {
	uint64_t	*v;		/* ns */
	size_t		 n, cap;
};

/* Options. */
static int			 opt_echo;	/* -e: the forwarder echoes a */
static int			 opt_links = 1;	/* -l */
static int			 opt_extra;	/* -x: started, not measured */
static long			 opt_n = 20000;	/* -n: samples or lines */
static long			 opt_gmin = 20, opt_gmax = 300;	/* -g, µs */
static long			 opt_block = 50;	/* -k */
static long			 opt_chars = 40;	/* -c */
static double			 opt_secs = 3;	/* -t */
static double			 opt_warm = 0.5;	/* -W */
static double			 opt_settle = 2.5;	/* -S */
static long			 opt_rate = 960;	/* -r, bytes/s a way */
static long			 opt_wsize = 1;	/* -w */
static const char		*opt_out;	/* -o */
static uint64_t			 opt_seed;	/* -s */

static struct ptybench_link	 ptybench_links[PTYBENCH_LINKS_MAX];
static int			 ptybench_nlinks;	/* started */
static int			 ptybench_baseline;
static pid_t			 ptybench_child = -1;
static struct ptybench_task	 ptybench_tasks[PTYBENCH_TASKS_MAX];
static size_t			 ptybench_ntasks;
static uint64_t			 ptybench_rng;
static uint64_t			 ptybench_errors;
static char			 ptybench_error[256];
static struct ptybench_samples	 ptybench_lat;
static uint64_t			 ptybench_win0, ptybench_win1;
static uint64_t			 ptybench_recv_win;	/* rate: moved in it */
static uint64_t			 ptybench_deliv_win;	/* rate: due, arrived */

static void	ptybench_usage(void) __attribute__((noreturn));
static uint64_t	ptybench_now(void);
static void	ptybench_sleep_until(uint64_t);
static uint64_t	ptybench_random(void);
static unsigned char ptybench_gen_next(struct ptybench_gen *);
static void	ptybench_gen_init(struct ptybench_gen *, unsigned char,
		    uint32_t);
static void	ptybench_samples_add(struct ptybench_samples *, uint64_t);
static int	ptybench_cmp(const void *, const void *);
static void	ptybench_samples_print(struct ptybench_samples *, double);
static void	ptybench_samples_save(struct ptybench_samples *, const char *);
static void	ptybench_nonblock(int);
static void	ptybench_pair(int *, int *, char *);
static void	ptybench_kill(void);
static void	ptybench_signal(int);
static void	ptybench_spawn(char **);
static void	ptybench_child_check(void);
static int	ptybench_await(int, unsigned char, int);
static void	ptybench_drain(int);
static void	ptybench_map(void);
static void	ptybench_streams(void);
static void	ptybench_tasks_open(void);
static void	ptybench_tasks_read(int, uint64_t *, uint64_t *);
static void	ptybench_wrong(struct ptybench_link *, int, unsigned char,
		    const char *);
static void	ptybench_check(struct ptybench_link *, int,
		    const unsigned char *, size_t, uint64_t);
static int	ptybench_push(struct ptybench_stream *, int);
static void	ptybench_mode_lat(void);
static void	ptybench_mode_line(void);
static void	ptybench_mode_bulk(void);
static void	ptybench_mode_rate(void);
static void	ptybench_mode_idle(void);
static void	ptybench_mode_stats(int, char **);

/* Say how to run the probe and exit. */
static void
ptybench_usage(void)
{
	fprintf(stderr,
	    "usage: ptybench lat [-e] [-n samples] [-g min,max] [-k block] "
	    "[-o file] [-s seed]\n"
	    "                [-x extra] [-- command ...]\n"
	    "       ptybench line [-e] [-n lines] [-c chars] [-x extra] "
	    "[-- command ...]\n"
	    "       ptybench bulk [-e] [-t secs] [-x extra] [-- command ...]\n"
	    "       ptybench rate [-e] [-l links] [-r bytes/s] [-w size] "
	    "[-t secs] [-W secs]\n"
	    "                [-o file] [-x extra] [-- command ...]\n"
	    "       ptybench idle [-l links] [-t secs] [-S secs] [-x extra] "
	    "[-- command ...]\n"
	    "       ptybench stats file ...\n");
	exit(2);
}

/* Read the monotonic clock, in ns. */
static uint64_t
ptybench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * PTYBENCH_SEC + (uint64_t)ts.tv_nsec);
}

/* Sleep until a time of the monotonic clock. */
static void
ptybench_sleep_until(uint64_t t)
{
	struct timespec	ts;

	ts.tv_sec = t / PTYBENCH_SEC;
	ts.tv_nsec = t % PTYBENCH_SEC;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		;
}

/* Draw a pseudo-random number (xorshift64*). */
static uint64_t
ptybench_random(void)
{
	ptybench_rng ^= ptybench_rng >> 12;
	ptybench_rng ^= ptybench_rng << 25;
	ptybench_rng ^= ptybench_rng >> 27;
	return (ptybench_rng * 2685821657736338717ULL);
}

/* Start a stream of letters from base ('a' or 'A') and a seed. */
static void
ptybench_gen_init(struct ptybench_gen *g, unsigned char base, uint32_t seed)
{
	g->x = seed != 0 ? seed : 1;
	g->base = base;
}

/* The next letter of a stream (xorshift32). */
static unsigned char
ptybench_gen_next(struct ptybench_gen *g)
{
	g->x ^= g->x << 13;
	g->x ^= g->x >> 17;
	g->x ^= g->x << 5;
	return (g->base + g->x % 26);
}

/* Keep a latency sample, in ns. */
static void
ptybench_samples_add(struct ptybench_samples *s, uint64_t ns)
{
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 65536 : s->cap * 2;
		if ((s->v = reallocarray(s->v, s->cap, sizeof(*s->v))) == NULL)
			err(1, "samples");
	}
	s->v[s->n++] = ns;
}

/* Order two samples. */
static int
ptybench_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Print n and the percentiles of the samples, divided by unit. */
static void
ptybench_samples_print(struct ptybench_samples *s, double unit)
{
	static const double	 pct[] = { 0.50, 0.90, 0.99, 0.999 };
	static const char	*name[] = { "p50", "p90", "p99", "p999" };
	size_t			 i, k;

	printf("n=%zu", s->n);
	if (s->n == 0) {
		printf(" p50=- p90=- p99=- p999=- max=-");
		return;
	}
	qsort(s->v, s->n, sizeof(*s->v), ptybench_cmp);
	for (i = 0; i < 4; i++) {
		k = (size_t)(pct[i] * s->n + 0.999999);
		k = k == 0 ? 0 : k - 1;
		printf(" %s=%.1f", name[i], s->v[k] / unit);
	}
	printf(" max=%.1f", s->v[s->n - 1] / unit);
}

/* Write the samples to a file, in ns, one a line, for ptybench stats. */
static void
ptybench_samples_save(struct ptybench_samples *s, const char *path)
{
	FILE	*f;
	size_t	 i;

	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	for (i = 0; i < s->n; i++)
		fprintf(f, "%llu\n", (unsigned long long)s->v[i]);
	if (fclose(f) == EOF)
		err(1, "%s", path);
}

/* Make a descriptor non-blocking and close it on exec. */
static void
ptybench_nonblock(int fd)
{
	int	flags;

	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		err(1, "fcntl");
}

/* Make a pty pair in raw mode; the slave's path goes to path. */
static void
ptybench_pair(int *m, int *s, char *path)
{
	struct termios	t;

	if (openpty(m, s, NULL, NULL, NULL) == -1)
		err(1, "openpty");
	if (ttyname_r(*s, path, PTYBENCH_PATHLEN) != 0)
		errx(1, "ttyname_r failed");
	if (tcgetattr(*s, &t) == -1)
		err(1, "tcgetattr");
	cfmakeraw(&t);
	if (tcsetattr(*s, TCSANOW, &t) == -1)
		err(1, "tcsetattr");
	ptybench_nonblock(*m);
	ptybench_nonblock(*s);
}

/* Stop the forwarder and its process group, at exit. */
static void
ptybench_kill(void)
{
	uint64_t	deadline;
	pid_t		pid = ptybench_child;

	if (pid == -1)
		return;
	ptybench_child = -1;
	kill(-pid, SIGTERM);
	deadline = ptybench_now() + 5 * PTYBENCH_SEC;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (ptybench_now() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
			break;
		}
		usleep(10000);
	}
	/* What is left of the group, such as a helper shell. */
	kill(-pid, SIGKILL);
}

/* Stop the forwarder when the probe is interrupted. */
static void
ptybench_signal(int sig)
{
	(void)sig;
	if (ptybench_child != -1)
		kill(-ptybench_child, SIGTERM);
	_exit(1);
}

/* Start the command, in a process group of its own, on the slave paths. */
static void
ptybench_spawn(char **cmd)
{
	char	**argv;
	size_t	  n, i, k;

	for (n = 0; cmd[n] != NULL; n++)
		;
	if ((argv = calloc(n + 2 * ptybench_nlinks + 1, sizeof(*argv))) ==
	    NULL)
		err(1, "calloc");
	for (i = 0; i < n; i++)
		argv[i] = cmd[i];
	for (k = 0; k < (size_t)ptybench_nlinks; k++) {
		argv[i++] = ptybench_links[k].path[0];
		argv[i++] = ptybench_links[k].path[1];
	}
	switch (ptybench_child = fork()) {
	case -1:
		err(1, "fork");
	case 0:
		setpgid(0, 0);
		dup2(2, 1);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		warn("%s", argv[0]);
		_exit(127);
	}
	setpgid(ptybench_child, ptybench_child);
	free(argv);
}

/* Fail if the forwarder has exited. */
static void
ptybench_child_check(void)
{
	int	status;

	if (ptybench_child == -1 ||
	    waitpid(ptybench_child, &status, WNOHANG) != ptybench_child)
		return;
	ptybench_child = -1;
	if (WIFSIGNALED(status))
		errx(1, "the forwarder was killed by signal %d",
		    WTERMSIG(status));
	errx(1, "the forwarder exited with status %d", WEXITSTATUS(status));
}

/* Read from fd until byte c comes; 0, or -1 after ms milliseconds. */
static int
ptybench_await(int fd, unsigned char c, int ms)
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
static void
ptybench_drain(int fd)
{
	unsigned char	buf[PTYBENCH_CHUNK];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/*
 * Wait until the forwarder carries every link, and learn which end b each
 * end a reaches: write a byte at a until some b not yet taken reads it,
 * then a byte at that b until a reads it.  What arrives meanwhile (more
 * of the same bytes, a room's prompts) is drained at the end.
 */
static void
ptybench_map(void)
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
	deadline = ptybench_now() + 20 * PTYBENCH_SEC;
	for (i = 0; i < ptybench_nlinks; i++) {
		c = 'a' + i % 26;
		for (found = -1; found == -1;) {
			ptybench_child_check();
			if (ptybench_now() > deadline)
				errx(1, "link %d: nothing written at end a "
				    "arrived at an end b in 20 s", i + 1);
			if (write(ptybench_links[i].m[0], &c, 1) != 1 &&
			    errno != EAGAIN)
				err(1, "write");
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
			ptybench_child_check();
			if (ptybench_now() > deadline)
				errx(1, "link %d: nothing written at end b "
				    "arrived at end a in 20 s", i + 1);
			if (write(ptybench_links[i].fd[1], &c, 1) != 1 &&
			    errno != EAGAIN)
				err(1, "write");
		} while (ptybench_await(ptybench_links[i].fd[0], c, 20) ==
		    -1);
	}
	usleep(200000);
	for (i = 0; i < ptybench_nlinks; i++) {
		ptybench_drain(ptybench_links[i].fd[0]);
		ptybench_drain(ptybench_links[i].fd[1]);
	}
}

/* Seed the streams of every measured link. */
static void
ptybench_streams(void)
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
	}
}

/*
 * Open the counters of every task of the forwarder and its descendants,
 * as they are now.
 */
static void
ptybench_tasks_open(void)
{
	static pid_t	 pid[PTYBENCH_PROCS_MAX], ppid[PTYBENCH_PROCS_MAX];
	pid_t		 tree[PTYBENCH_TASKS_MAX];
	char		 path[128], buf[512], *p;
	struct dirent	*de;
	DIR		*d, *td;
	size_t		 n = 0, nt = 1, i, k;
	int		 fd, grew;
	ssize_t		 len;

	if (ptybench_child == -1)
		return;
	if ((d = opendir("/proc")) == NULL)
		err(1, "/proc");
	while ((de = readdir(d)) != NULL && n < PTYBENCH_PROCS_MAX) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if ((p = strrchr(buf, ')')) == NULL)
			continue;
		pid[n] = atoi(de->d_name);
		ppid[n++] = (pid_t)strtol(p + 4, NULL, 10);	/* ") S ppid" */
	}
	closedir(d);
	tree[0] = ptybench_child;
	do {
		grew = 0;
		for (i = 0; i < n; i++)
			for (k = 0; k < nt && nt < PTYBENCH_TASKS_MAX; k++)
				if (ppid[i] == tree[k] && pid[i] != 0) {
					tree[nt++] = pid[i];
					pid[i] = 0;
					grew = 1;
					break;
				}
	} while (grew);
	for (k = 0; k < nt; k++) {
		snprintf(path, sizeof(path), "/proc/%d/task", (int)tree[k]);
		if ((td = opendir(path)) == NULL)
			continue;
		while ((de = readdir(td)) != NULL &&
		    ptybench_ntasks < PTYBENCH_TASKS_MAX) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			snprintf(path, sizeof(path),
			    "/proc/%d/task/%s/schedstat", (int)tree[k],
			    de->d_name);
			ptybench_tasks[ptybench_ntasks].sched = open(path,
			    O_RDONLY | O_CLOEXEC);
			snprintf(path, sizeof(path), "/proc/%d/task/%s/status",
			    (int)tree[k], de->d_name);
			ptybench_tasks[ptybench_ntasks].status = open(path,
			    O_RDONLY | O_CLOEXEC);
			if (ptybench_tasks[ptybench_ntasks].sched != -1 &&
			    ptybench_tasks[ptybench_ntasks].status != -1)
				ptybench_ntasks++;
		}
		closedir(td);
	}
}

/*
 * Read the forwarder's counters: with start set, remember them as the
 * window's start; otherwise add up, over the tasks readable both times,
 * the CPU time (ns) and context switches since then.
 */
static void
ptybench_tasks_read(int start, uint64_t *cpu, uint64_t *csw)
{
	struct ptybench_task	*t;
	char			 buf[2048], *p;
	uint64_t		 c, v;
	ssize_t			 n;
	size_t			 i;

	*cpu = *csw = 0;
	for (i = 0; i < ptybench_ntasks; i++) {
		t = &ptybench_tasks[i];
		if ((n = pread(t->sched, buf, sizeof(buf) - 1, 0)) <= 0)
			continue;
		buf[n] = '\0';
		c = strtoull(buf, NULL, 10);
		if ((n = pread(t->status, buf, sizeof(buf) - 1, 0)) <= 0)
			continue;
		buf[n] = '\0';
		v = 0;
		for (p = buf; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
			if (*p == '\n')
				p++;
			if (strncmp(p, "voluntary_ctxt_switches:", 24) == 0)
				v += strtoull(p + 24, NULL, 10);
			else if (strncmp(p, "nonvoluntary_ctxt_switches:",
			    27) == 0)
				v += strtoull(p + 27, NULL, 10);
		}
		if (start) {
			t->cpu0 = c;
			t->csw0 = v;
			t->ok0 = 1;
		} else if (t->ok0) {
			*cpu += c - t->cpu0;
			*csw += v - t->csw0;
		}
	}
}

/* Count a byte that is not what was expected, keeping the first one. */
static void
ptybench_wrong(struct ptybench_link *l, int end, unsigned char c,
    const char *what)
{
	if (ptybench_errors++ == 0)
		snprintf(ptybench_error, sizeof(ptybench_error),
		    "link %d end %c: byte 0x%02x, %s",
		    (int)(l - ptybench_links) + 1, end == 0 ? 'a' : 'b', c,
		    what);
}

/*
 * Check bytes read at one end of a link against the streams that may
 * arrive there, and take a latency sample for each byte whose due time
 * is known and within the window.
 */
static void
ptybench_check(struct ptybench_link *l, int end, const unsigned char *buf,
    size_t n, uint64_t now)
{
	struct ptybench_stream	*st;
	unsigned char		 c, want;
	uint64_t		 due;
	size_t			 i;

	for (i = 0; i < n; i++) {
		c = buf[i];
		if (end == 0 && opt_echo && islower(c)) {
			if (c != (want = ptybench_gen_next(&l->echo)))
				ptybench_wrong(l, end, c, "in the echo");
			l->echoed++;
			continue;
		}
		if (end == 0 && opt_echo && (c == '>' || c == '\r' ||
		    c == '\n')) {
			l->prompts++;
			continue;
		}
		st = &l->st[end == 1 ? 0 : 1];
		if ((end == 1 && !islower(c)) || (end == 0 && !isupper(c))) {
			ptybench_wrong(l, end, c, "from no stream");
			continue;
		}
		if (c != (want = ptybench_gen_next(&st->rgen)))
			ptybench_wrong(l, end, c, "not the next of its stream");
		if (st->due != NULL) {
			due = st->due[st->received % PTYBENCH_RING];
			if (due >= ptybench_win0 && due < ptybench_win1) {
				ptybench_samples_add(&ptybench_lat, now - due);
				if (now < ptybench_win1)
					ptybench_deliv_win++;
			}
			if (now >= ptybench_win0 && now < ptybench_win1)
				ptybench_recv_win++;
		}
		st->received++;
	}
}

/*
 * Write what a stream has pending, as far as the line takes it; returns
 * -1 when the line is gone.
 */
static int
ptybench_push(struct ptybench_stream *st, int fd)
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
 * One-way latency of single bytes, in blocks of -k samples from a to b
 * then from b to a, with a random gap between samples.
 */
static void
ptybench_mode_lat(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	uint64_t		 t0, t1, next;
	unsigned char		 c;
	long			 k;
	int			 dir;

	next = ptybench_now();
	for (k = 0; k < opt_n; k++) {
		dir = (int)((k / opt_block) % 2);
		c = (dir == 0 ? 'a' : 'A') + k % 26;
		ptybench_drain(l->fd[!dir]);
		next += (uint64_t)(opt_gmin + (long)(ptybench_random() %
		    (uint64_t)(opt_gmax - opt_gmin + 1))) * PTYBENCH_USEC;
		ptybench_sleep_until(next);
		t0 = ptybench_now();
		if (write(l->fd[dir], &c, 1) != 1)
			err(1, "write");
		if (ptybench_await(l->fd[!dir], c, 3000) == -1) {
			ptybench_child_check();
			errx(1, "sample %ld: byte lost (3 s)", k + 1);
		}
		t1 = ptybench_now();
		ptybench_samples_add(&ptybench_lat, t1 - t0);
		next = t1;
	}
	if (opt_out != NULL)
		ptybench_samples_save(&ptybench_lat, opt_out);
	ptybench_samples_print(&ptybench_lat, 1000.0);
	printf("\n");
}

/*
 * A line of -c keys typed at a one at a time, each after the echo of the
 * one before: the probe echoes at b, or with -e the forwarder echoes and
 * each key must also reach b.  The time is from the first key written to
 * the last key's echo read.
 */
static void
ptybench_mode_line(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	struct ptybench_samples	 s = { NULL, 0, 0 };
	uint64_t		 t0;
	unsigned char		 c;
	long			 r, k;

	for (r = 0; r < opt_n; r++) {
		usleep(2000);
		ptybench_drain(l->fd[0]);
		ptybench_drain(l->fd[1]);
		t0 = ptybench_now();
		for (k = 0; k < opt_chars; k++) {
			c = 'a' + (r * opt_chars + k) % 26;
			if (write(l->fd[0], &c, 1) != 1)
				err(1, "write");
			if (ptybench_await(l->fd[1], c, 3000) == -1)
				errx(1, "line %ld key %ld: lost", r + 1, k + 1);
			if (!opt_echo && write(l->fd[1], &c, 1) != 1)
				err(1, "write");
			if (ptybench_await(l->fd[0], c, 3000) == -1)
				errx(1, "line %ld key %ld: no echo", r + 1,
				    k + 1);
		}
		ptybench_samples_add(&s, ptybench_now() - t0);
	}
	printf("chars=%ld ", opt_chars);
	ptybench_samples_print(&s, 1000000.0);
	printf("\n");
}

/*
 * Bulk both ways at once for -t seconds, every byte checked; then wait
 * until everything written has arrived, or nothing has for 2 s.
 */
static void
ptybench_mode_bulk(void)
{
	struct ptybench_link	*l = &ptybench_links[0];
	struct ptybench_stream	*st;
	struct pollfd		 pfd[2];
	unsigned char		 buf[PTYBENCH_CHUNK];
	uint64_t		 t0, tstop, tlast, now, lost;
	ssize_t			 n;
	size_t			 i;
	int			 e, writing = 1;

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
					ptybench_check(l, e, buf, n, now);
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
			if (ptybench_push(st, l->fd[e]) == -1)
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
		ptybench_child_check();
	}
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
	if (ptybench_errors > 0)
		printf(" first_error=\"%s\"", ptybench_error);
	printf("\n");
}

/*
 * A steady load: every stream of -l links writes -w bytes every -w/-r
 * seconds, at its own random phase.  Over a window of -t seconds after
 * -W of warm-up: per-byte latency from when each byte was due, the share
 * of the bytes due in the window that also arrived in it (delivered), the
 * forwarder's CPU time per byte moved in the window,
 * and the share of the bytes the probe itself wrote more than 1 ms late
 * (probe_lag: when it is high, the machine, not the forwarder, is the
 * limit); then everything written must arrive (lost: what has not when
 * nothing has arrived for 2 s, or 20 s after the window).
 */
static void
ptybench_mode_rate(void)
{
	struct epoll_event	 evs[256], ev;
	struct ptybench_link	*l;
	struct ptybench_stream	*st;
	struct timespec		 ts;
	unsigned char		 buf[PTYBENCH_CHUNK];
	int			*order, ep, ns = 2 * opt_links, i, j, k, s;
	uint64_t		 interval, t0, tick = 0, now, cpu = 0, csw = 0;
	uint64_t		 offered = 0, lost = 0, late = 0, lagged = 0;
	uint64_t		 cycle = 0, progress, pending = 0;
	ssize_t			 n;
	int			 nev, burst, writing = 1, snap0 = 0, snap1 = 0;

	interval = (uint64_t)opt_wsize * PTYBENCH_SEC / (uint64_t)opt_rate;
	if ((order = calloc(ns, sizeof(*order))) == NULL ||
	    (ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
		err(1, "setup");
	for (s = 0; s < ns; s++) {
		st = &ptybench_links[s / 2].st[s % 2];
		if ((st->due = calloc(PTYBENCH_RING, sizeof(*st->due))) ==
		    NULL)
			err(1, "calloc");
		st->phase = ptybench_random() % interval;
		for (j = s; j > 0 && ptybench_links[order[j - 1] / 2].st[
		    order[j - 1] % 2].phase > st->phase; j--)
			order[j] = order[j - 1];
		order[j] = s;
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
		if (!snap0 && now >= ptybench_win0) {
			ptybench_tasks_read(1, &cpu, &csw);
			snap0 = 1;
		}
		if (!snap1 && now >= ptybench_win1) {
			ptybench_tasks_read(0, &cpu, &csw);
			snap1 = 1;
		}
		/* The ticks due, at most a burst of them between reads. */
		for (burst = 0; writing; burst++) {
			st = &ptybench_links[order[j] / 2].st[order[j] % 2];
			tick = t0 + cycle * interval + st->phase;
			if (tick >= ptybench_win1)
				writing = 0;
			if (!writing || tick > now ||
			    burst == PTYBENCH_BURST)
				break;
			s = order[j];
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
				if (ptybench_push(st, l->fd[s % 2]) == -1)
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
				if (ptybench_push(st,
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
				ptybench_check(l, s % 2, buf, (size_t)n, now);
				progress = now;
			} else if (n == -1 && errno != EAGAIN)
				err(1, "read");
		}
		if (nev == 0)
			ptybench_child_check();
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
	if (opt_out != NULL)
		ptybench_samples_save(&ptybench_lat, opt_out);
	ptybench_samples_print(&ptybench_lat, 1000.0);
	if (ptybench_errors > 0)
		printf(" first_error=\"%s\"", ptybench_error);
	printf("\n");
}

/*
 * The forwarder left idle: after -S seconds of settling, its wake-ups
 * (context switches) and CPU time over -t seconds.
 */
static void
ptybench_mode_idle(void)
{
	uint64_t	t0, cpu, csw;

	ptybench_sleep_until(ptybench_now() +
	    (uint64_t)(opt_settle * PTYBENCH_SEC));
	t0 = ptybench_now();
	ptybench_tasks_read(1, &cpu, &csw);
	ptybench_sleep_until(t0 + (uint64_t)(opt_secs * PTYBENCH_SEC));
	ptybench_tasks_read(0, &cpu, &csw);
	ptybench_child_check();
	printf("links=%d secs=%.1f wakeups=%llu per_s=%.2f cpu_ns=%llu "
	    "tasks=%zu\n", ptybench_nlinks, opt_secs, (unsigned long long)csw,
	    csw / opt_secs, (unsigned long long)cpu, ptybench_ntasks);
}

/* Percentiles of the samples (ns, one a line) in files written by -o. */
static void
ptybench_mode_stats(int argc, char *argv[])
{
	char	line[64];
	FILE	*f;
	int	i;

	for (i = 0; i < argc; i++) {
		if ((f = fopen(argv[i], "r")) == NULL)
			err(1, "%s", argv[i]);
		while (fgets(line, sizeof(line), f) != NULL)
			ptybench_samples_add(&ptybench_lat,
			    strtoull(line, NULL, 10));
		fclose(f);
	}
	ptybench_samples_print(&ptybench_lat, 1000.0);
	printf("\n");
}

/* Run one mode of the probe. */
int
main(int argc, char *argv[])
{
	struct rlimit	 rl;
	struct sigaction sa;
	const char	*mode;
	char		*end;
	int		 ch, i;

	if (argc < 2)
		ptybench_usage();
	mode = argv[1];
	if (strcmp(mode, "stats") == 0) {
		ptybench_mode_stats(argc - 2, argv + 2);
		return (0);
	}
	argc--;
	argv++;
	opt_seed = (uint64_t)ptybench_now() ^ ((uint64_t)getpid() << 32);
	while ((ch = getopt(argc, argv, "c:eg:k:l:n:o:r:s:S:t:W:w:x:")) != -1) {
		switch (ch) {
		case 'c':
			opt_chars = strtol(optarg, NULL, 10);
			break;
		case 'e':
			opt_echo = 1;
			break;
		case 'g':
			opt_gmin = strtol(optarg, &end, 10);
			if (*end != ',')
				ptybench_usage();
			opt_gmax = strtol(end + 1, NULL, 10);
			break;
		case 'k':
			opt_block = strtol(optarg, NULL, 10);
			break;
		case 'l':
			opt_links = (int)strtol(optarg, NULL, 10);
			break;
		case 'n':
			opt_n = strtol(optarg, NULL, 10);
			break;
		case 'o':
			opt_out = optarg;
			break;
		case 'r':
			opt_rate = strtol(optarg, NULL, 10);
			break;
		case 's':
			opt_seed = strtoull(optarg, NULL, 10);
			break;
		case 'S':
			opt_settle = strtod(optarg, NULL);
			break;
		case 't':
			opt_secs = strtod(optarg, NULL);
			break;
		case 'W':
			opt_warm = strtod(optarg, NULL);
			break;
		case 'w':
			opt_wsize = strtol(optarg, NULL, 10);
			break;
		case 'x':
			opt_extra = (int)strtol(optarg, NULL, 10);
			break;
		default:
			ptybench_usage();
		}
	}
	argc -= optind;
	argv += optind;
	ptybench_nlinks = opt_links + opt_extra;
	if (opt_links < 1 || opt_extra < 0 ||
	    ptybench_nlinks > PTYBENCH_LINKS_MAX / 2 || opt_n < 1 ||
	    opt_gmin < 0 || opt_gmax < opt_gmin || opt_block < 1 ||
	    opt_rate < 1 || opt_wsize < 1 || opt_wsize > PTYBENCH_CHUNK / 2 ||
	    opt_secs <= 0 || opt_chars < 1)
		ptybench_usage();
	ptybench_baseline = argc == 0;
	if (ptybench_baseline && (ptybench_nlinks != 1 || opt_echo))
		errx(2, "without a command: one link, no -e");
	ptybench_rng = opt_seed | 1;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ptybench_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(ptybench_kill);

	for (i = 0; i < ptybench_nlinks; i++) {
		ptybench_pair(&ptybench_links[i].m[0], &ptybench_links[i].s[0],
		    ptybench_links[i].path[0]);
		if (ptybench_baseline) {
			ptybench_links[i].fd[0] = ptybench_links[i].m[0];
			ptybench_links[i].fd[1] = ptybench_links[i].s[0];
			break;
		}
		ptybench_pair(&ptybench_links[i].m[1], &ptybench_links[i].s[1],
		    ptybench_links[i].path[1]);
	}
	if (!ptybench_baseline) {
		ptybench_spawn(argv);
		ptybench_map();
	}
	ptybench_streams();
	ptybench_tasks_open();

	if (strcmp(mode, "lat") == 0)
		ptybench_mode_lat();
	else if (strcmp(mode, "line") == 0)
		ptybench_mode_line();
	else if (strcmp(mode, "bulk") == 0)
		ptybench_mode_bulk();
	else if (strcmp(mode, "rate") == 0)
		ptybench_mode_rate();
	else if (strcmp(mode, "idle") == 0)
		ptybench_mode_idle();
	else
		ptybench_usage();
	fflush(stdout);
	return (0);
}
