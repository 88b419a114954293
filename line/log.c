/*
 * Logging in two tiers: warnings (with or without errno) and fatal errors.
 * Messages go to stderr in the foreground and to syslog as a daemon.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "line.h"

static int	log_to_stderr = 1;
static int	log_level = 0;	/* 0 info, 1 debug */
static void	(*log_sink)(int, const char *);	/* instead of stderr */

static void	log_vwrite(int, const char *, va_list);

/* Choose the destination of messages and the verbosity. */
void
log_init(int foreground, int verbose)
{
	log_to_stderr = foreground;
	log_level = verbose;
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
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(stderr, "%s.%03ld muxd: ", stamp, ts.tv_nsec / 1000000);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Log a warning followed by the text of errno. */
void
log_warn(const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;
	int	 saved = errno;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_warnx("%s: %s", buf, strerror(saved));
	errno = saved;
}

/* Log a warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_WARNING, fmt, ap);
	va_end(ap);
}

/* Log an informational message. */
void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_INFO, fmt, ap);
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
	log_vwrite(LOG_DEBUG, fmt, ap);
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
