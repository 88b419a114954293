/*
 * transcripts replay: play a capture on this terminal as the judge's
 * screen showed it (view.c), with its timing or faster.  Nothing is
 * interpreted: control bytes are shown as \xHH text, and the terminal's
 * modes are never touched.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

static int	cmd_replay_exec(int, char **);
static int	cmd_replay_write(const char *, size_t);
static void	cmd_replay_wait(const struct timespec *, double);
static double	cmd_replay_number(const char *, const char *, double);

const struct cmd_entry cmd_replay_entry = {
	"replay", "[-s speed] [-g max-gap] capture", cmd_replay_exec
};

/* Write to standard output: 0, 1 when the reader has gone, -1 on error. */
static int
cmd_replay_write(const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = write(STDOUT_FILENO, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (errno == EPIPE ? 1 : -1);
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/* Sleep until start + at seconds on the monotonic clock. */
static void
cmd_replay_wait(const struct timespec *start, double at)
{
	struct timespec	t;
	double		s = (double)(time_t)at;

	t.tv_sec = start->tv_sec + (time_t)s;
	t.tv_nsec = start->tv_nsec + (long)((at - s) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) ==
	    EINTR)
		;
}

/* Parse a number of an option, at least min; exits on a bad one. */
static double
cmd_replay_number(const char *what, const char *s, double min)
{
	char	*end;
	double	 d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !isfinite(d) || d < min)
		errx(1, "%s \"%s\": not a number of at least %g", what, s, min);
	return (d);
}

/* transcripts replay [-s speed] [-g max-gap] capture */
static int
cmd_replay_exec(int argc, char **argv)
{
	static const struct option	 opts[] = {
		{ "speed", required_argument, NULL, 's' },
		{ "max-gap", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 }
	};
	struct cap_reader		*r;
	struct cap_event		 ev;
	struct cmd_screen		 v;
	struct timespec			 start;
	double				 speed = 1, maxgap = -1, at = 0, gap;
	int64_t				 prev = 0;
	char				*out = NULL;
	size_t				 outsize = 0;
	ssize_t				 n;
	int				 ch, status = 0, w = 0;

	while ((ch = getopt_long(argc, argv, "s:g:", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			speed = cmd_replay_number("speed", optarg, 1e-6);
			break;
		case 'g':
			maxgap = cmd_replay_number("max-gap", optarg, 0);
			break;
		default:
			cmd_bad_option(&cmd_replay_entry, "s:g:", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		cmd_usage(&cmd_replay_entry);
	signal(SIGPIPE, SIG_IGN);
	if ((r = cmd_capture_open(argv[0])) == NULL)
		return (1);
	cmd_capture_screen(&v, r);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (cmd_capture_next(r, &ev, &status)) {
		gap = ev.usec > prev ? (double)(ev.usec - prev) / 1e6 : 0;
		prev = ev.usec;
		if (maxgap >= 0 && gap > maxgap)
			gap = maxgap;
		at += gap / speed;
		if ((n = cmd_capture_view(&v, &ev, &out, &outsize)) == -1) {
			warnx("%s: event of %zu bytes: out of memory",
			    argv[0], ev.len);
			status = 1;
			continue;
		}
		if (n == 0)
			continue;
		cmd_replay_wait(&start, at);
		if ((w = cmd_replay_write(out, (size_t)n)) != 0)
			goto out;
	}
	if (!view_atstart(&v.v))
		w = cmd_replay_write("\r\n", 2);
out:
	if (w == -1) {
		warn("standard output");
		status = 1;
	}
	free(out);
	cap_read_close(r);
	return (status);
}
