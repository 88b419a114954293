/*
 * ptybench: the probe of the forwarder benchmarks (tests/bench/forwarders.sh).
 *
 *	ptybench lat|lock|line|bulk|rate|turn|idle [options] [-- command ...]
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
 * byte: at b, a's stream only; at a, b's stream, with -e (a forwarder
 * that echoes the judge, muxd in a room by default) a's stream again as
 * the echo, and what a room draws on a judge's screen by the 1996
 * convention (the prompt, the judge's line taken off and drawn again
 * when the entity writes while the judge types: ptybench-screen.c),
 * which is counted and checked.  In turn, the streams are lines: a's
 * of letters and CR, b's of letters and CR LF.
 *
 * The forwarder and its descendants are watched through /proc: CPU time
 * from schedstat, wake-ups from the context switches in status.  The
 * environment: PTYBENCH_WAIT, the seconds the forwarder may take to carry
 * every link (20); PTYBENCH_READY, a file to wait for, within the same
 * time, once it does and before measuring: what the forwarder's helpers
 * write when they are attached.
 *
 * Each mode prints one line of name=value figures on standard output.
 * The parts: ptybench-mode.c (the modes), ptybench-proc.c (the ptys and
 * the forwarder's processes), ptybench-stats.c (latency samples).
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

/* Options. */
int			 opt_echo;	/* -e: the forwarder echoes a */
int			 opt_links = 1;	/* -l */
int			 opt_extra;	/* -x: started, not measured */
long			 opt_n = 20000;	/* -n: samples or lines */
long			 opt_gmin = 20, opt_gmax = 300;	/* -g, µs */
long			 opt_block = 50;	/* -k */
long			 opt_chars = 40;	/* -c */
double			 opt_secs = 3;	/* -t */
double			 opt_warm = 0.5;	/* -W */
double			 opt_settle = 2.5;	/* -S */
long			 opt_rate = 960;	/* -r, bytes/s a way */
long			 opt_wsize = 1;	/* -w */
const char		*opt_out;	/* -o */
uint64_t			 opt_seed;	/* -s */

struct ptybench_link	 ptybench_links[PTYBENCH_LINKS_MAX];
int			 ptybench_nlinks;	/* started */
int			 ptybench_baseline;
pid_t			 ptybench_child = -1;
struct ptybench_task	 ptybench_tasks[PTYBENCH_TASKS_MAX];
size_t			 ptybench_ntasks;
uint64_t			 ptybench_rng;
uint64_t			 ptybench_errors;
char			 ptybench_error[256];
struct ptybench_samples	 ptybench_lat;
uint64_t			 ptybench_win0, ptybench_win1;
uint64_t			 ptybench_recv_win;	/* rate: moved in it */
uint64_t			 ptybench_deliv_win;	/* rate: due, arrived */

/* Say how to run the probe and exit. */
void
ptybench_usage(void)
{
	fprintf(stderr,
	    "usage: ptybench lat [-e] [-n samples] [-g min,max] [-k block] "
	    "[-o file] [-s seed]\n"
	    "                [-x extra] [-- command ...]\n"
	    "       ptybench lock [-n samples] [-o file] [-x extra] "
	    "[-- command ...]\n"
	    "       ptybench line [-e] [-n lines] [-c chars] [-o file] "
	    "[-x extra]\n"
	    "                [-- command ...]\n"
	    "       ptybench bulk [-e] [-t secs] [-x extra] [-- command ...]\n"
	    "       ptybench rate [-e] [-l links] [-r bytes/s] [-w size] "
	    "[-t secs] [-W secs]\n"
	    "                [-o file] [-x extra] [-- command ...]\n"
	    "       ptybench turn [-e] [-c chars] [-r bytes/s] [-t secs] "
	    "[-W secs] [-o file]\n"
	    "                [-x extra] [-- command ...]\n"
	    "       ptybench idle [-l links] [-t secs] [-S secs] [-x extra] "
	    "[-- command ...]\n"
	    "       ptybench stats file ...\n");
	exit(2);
}

/* Read the monotonic clock, in ns. */
uint64_t
ptybench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * PTYBENCH_SEC + (uint64_t)ts.tv_nsec);
}

/* Sleep until a time of the monotonic clock. */
void
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
uint64_t
ptybench_random(void)
{
	ptybench_rng ^= ptybench_rng >> 12;
	ptybench_rng ^= ptybench_rng << 25;
	ptybench_rng ^= ptybench_rng >> 27;
	return (ptybench_rng * 2685821657736338717ULL);
}

/* Start a stream of letters from base ('a' or 'A') and a seed. */
void
ptybench_gen_init(struct ptybench_gen *g, unsigned char base, uint32_t seed)
{
	g->x = seed != 0 ? seed : 1;
	g->base = base;
}

/* The next letter of a stream (xorshift32). */
unsigned char
ptybench_gen_next(struct ptybench_gen *g)
{
	g->x ^= g->x << 13;
	g->x ^= g->x >> 17;
	g->x ^= g->x << 5;
	return (g->base + g->x % 26);
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
		ptybench_stats_main(argc - 2, argv + 2);
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
	sa.sa_handler = ptybench_proc_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(ptybench_proc_kill);

	for (i = 0; i < ptybench_nlinks; i++) {
		ptybench_proc_pair(&ptybench_links[i].m[0], &ptybench_links[i].s[0],
		    ptybench_links[i].path[0]);
		if (ptybench_baseline) {
			ptybench_links[i].fd[0] = ptybench_links[i].m[0];
			ptybench_links[i].fd[1] = ptybench_links[i].s[0];
			break;
		}
		ptybench_proc_pair(&ptybench_links[i].m[1], &ptybench_links[i].s[1],
		    ptybench_links[i].path[1]);
	}
	if (!ptybench_baseline) {
		ptybench_proc_spawn(argv);
		ptybench_mode_map();
	}
	ptybench_mode_streams();
	ptybench_proc_tasks_open();

	if (strcmp(mode, "lat") == 0)
		ptybench_mode_lat();
	else if (strcmp(mode, "lock") == 0)
		ptybench_mode_lock();
	else if (strcmp(mode, "line") == 0)
		ptybench_mode_line();
	else if (strcmp(mode, "bulk") == 0)
		ptybench_mode_bulk();
	else if (strcmp(mode, "rate") == 0)
		ptybench_mode_rate();
	else if (strcmp(mode, "turn") == 0)
		ptybench_mode_turn();
	else if (strcmp(mode, "idle") == 0)
		ptybench_mode_idle();
	else
		ptybench_usage();
	fflush(stdout);
	return (0);
}
