/*
 * Logging in two tiers: warnings (with or without errno) and fatal errors.
 * Messages go to stderr in the foreground (to the journal, when stderr is
 * its stream: no time stamp, the priority as "<N>"), to syslog as a
 * daemon, or to a program's own sink.
 *
 * No source can flood the log: each call site (its format) may write
 * LOG_BURST lines in LOG_WINDOW seconds; past that its lines are counted,
 * not written, and the next time the site logs after its window, or any
 * site logs after that, one line says how many were left out.  Fatal
 * errors are never held back.
 */
#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "line.h"

#define LOG_BURST	100	/* lines of one site in a window */
#define LOG_WINDOW	10	/* seconds */
#define LOG_SITES	128	/* sites followed at once */

static int	log_to_stderr = 1;
static int	log_journal;	/* stderr is the journal's stream */
static int	log_level = 0;	/* 0 info, 1 debug */
static void	(*log_sink)(int, const char *);	/* instead of stderr */
static time_t	(*log_clock)(void);

static struct log_site {
	const char	*fmt;		/* the call site's format */
	time_t		 start;		/* its window's */
	unsigned int	 lines;		/* written in the window */
	unsigned long	 left;		/* left out since */
} log_sites[LOG_SITES];
static pthread_mutex_t	log_lock = PTHREAD_MUTEX_INITIALIZER;

static void	log_vwrite(int, const char *, va_list);
static void	log_emit(const char *, int, const char *, va_list);

/* The monotonic clock, in seconds. */
static time_t
log_now(void)
{
	struct timespec	ts;

	if (log_clock != NULL)
		return (log_clock());
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec);
}

/* Tell whether stderr is the journal's stream (systemd's JOURNAL_STREAM). */
static int
log_is_journal(void)
{
	struct stat	 st;
	const char	*e = getenv("JOURNAL_STREAM");
	unsigned long	 dev, ino;

	if (e == NULL || sscanf(e, "%lu:%lu", &dev, &ino) != 2 ||
	    fstat(2, &st) == -1)
		return (0);
	return ((unsigned long)st.st_dev == dev &&
	    (unsigned long)st.st_ino == ino);
}

/* Choose the destination of messages and the verbosity. */
void
log_init(int foreground, int verbose)
{
	log_to_stderr = foreground;
	log_level = verbose;
	log_journal = foreground && log_is_journal();
	if (!foreground)
		openlog("muxd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

/*
 * Hand every message, with its syslog priority, to fn instead of writing
 * it (comprog, whose screen stderr must not disturb); NULL undoes it.
 */
void
log_redirect(void (*fn)(int, const char *))
{
	log_sink = fn;
}

/* Take another clock for the rate limit (tests); NULL: the monotonic. */
void
log_set_clock(time_t (*fn)(void))
{
	log_clock = fn;
}

/* Change the verbosity. */
void
log_verbose(int verbose)
{
	log_level = verbose;
}

/* Write one message at a syslog priority. */
static void
log_vwrite(int pri, const char *fmt, va_list ap)
{
	struct timespec	ts;
	struct tm	tm;
	char		stamp[32], msg[1024];

	if (log_sink != NULL) {
		vsnprintf(msg, sizeof(msg), fmt, ap);
		log_sink(pri, msg);
		return;
	}
	if (!log_to_stderr) {
		vsyslog(pri, fmt, ap);
		return;
	}
	if (log_journal)
		fprintf(stderr, "<%d>", pri);
	else {
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
		fprintf(stderr, "%s.%03ld muxd: ", stamp, ts.tv_nsec / 1000000);
	}
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Write a line with no arguments of its own to pass. */
static void
log_line(int pri, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(pri, fmt, ap);
	va_end(ap);
}

/*
 * Say how many lines of a site were left out, when its window is over;
 * the caller holds the lock.
 */
static void
log_said(struct log_site *s, time_t now)
{
	if (s->left == 0 || now - s->start < LOG_WINDOW)
		return;
	log_line(LOG_WARNING, "(%lu more lines like \"%s\" were left out in "
	    "%lld s)", s->left, s->fmt, (long long)(now - s->start));
	s->left = 0;
}

/*
 * Tell whether a line of the site key may be written now, counting it;
 * the summaries of sites whose windows are over are written first.
 */
static int
log_pass(const char *key, int pri)
{
	struct log_site	*s, *free_s = NULL, *oldest = NULL;
	time_t		 now;
	size_t		 i;
	int		 pass;

	if (pri <= LOG_CRIT)
		return (1);
	now = log_now();
	pthread_mutex_lock(&log_lock);
	s = NULL;
	for (i = 0; i < LOG_SITES; i++) {
		log_said(&log_sites[i], now);
		if (log_sites[i].fmt == key)
			s = &log_sites[i];
		else if (log_sites[i].fmt == NULL && free_s == NULL)
			free_s = &log_sites[i];
		else if (log_sites[i].left == 0 && (oldest == NULL ||
		    log_sites[i].start < oldest->start))
			oldest = &log_sites[i];
	}
	if (s == NULL && (s = free_s != NULL ? free_s : oldest) != NULL) {
		memset(s, 0, sizeof(*s));
		s->fmt = key;
		s->start = now;
	}
	if (s == NULL)
		pass = 1;	/* every site is holding lines back */
	else {
		if (now - s->start >= LOG_WINDOW) {
			s->start = now;
			s->lines = 0;
		}
		if ((pass = s->lines < LOG_BURST))
			s->lines++;
		else
			s->left++;
	}
	pthread_mutex_unlock(&log_lock);
	return (pass);
}

/* Write a line of the site key, if its rate allows. */
static void
log_emit(const char *key, int pri, const char *fmt, va_list ap)
{
	if (log_pass(key, pri))
		log_vwrite(pri, fmt, ap);
}

/* Log a warning followed by the text of errno. */
void
log_warn(const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;
	int	 saved = errno;

	if (!log_pass(fmt, LOG_WARNING))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_line(LOG_WARNING, "%s: %s", buf, strerror(saved));
	errno = saved;
}

/* Log a warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(fmt, LOG_WARNING, fmt, ap);
	va_end(ap);
}

/* Log an informational message. */
void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(fmt, LOG_INFO, fmt, ap);
	va_end(ap);
}

/* Log a debugging message when verbose. */
void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < 1)
		return;
	va_start(ap, fmt);
	log_emit(fmt, LOG_DEBUG, fmt, ap);
	va_end(ap);
}

/* Log an error with the text of errno and exit. */
void
fatal(const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;
	int	 saved = errno;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fatalx("%s: %s", buf, strerror(saved));
}

/* Log an error and exit. */
void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}
