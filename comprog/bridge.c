/*
 * The LPP bridge (comprog lpp): a program that speaks the Loebner Prize
 * Protocol of the 2009 rules takes part over a muxd line.  The protocol
 * is a directory shared by the two programs: a key press is a
 * sub-directory "TIME.KEY.judge" (the judge's) or "TIME.KEY.other" (the
 * other's), TIME 18 digits of milliseconds that only grow, KEY a single
 * character or a key name of the rules' appendix (capture/lpp.c);
 * the program that reads a key deletes its directory.
 *
 * As the entry's (default), the program is an entry: its ".other" keys
 * go on the line, and the judge's keys from the line become ".judge"
 * directories for it.  With --judge, the program is a judge's (as the
 * rules' JComm): its ".judge" keys go on the line to muxd's judge
 * terminal, and what comes back, less muxd's echo of those keys
 * (echo.c), becomes ".other" directories.  BackSpace is BackSpace both
 * ways; Return is CR on the line, and a CR LF from the line one Return.
 *
 * The directory is watched with inotify and read whole, in name order,
 * at each change (and once a second, for what a watch cannot see on a
 * network filesystem).  A key the bridge cannot name, or a name it
 * cannot read, is logged with its directory name and skipped.
 */
#include <sys/inotify.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "comprog.h"
#include "lpp.h"

#define BRIDGE_SCAN_MAX	4096	/* keys taken in one reading */

static char		*bridge_dir;
static int		 bridge_judge;	/* the program is a judge's */
static int		 bridge_ino = -1;
static struct event	*bridge_ev_ino;
static struct event	*bridge_ev_scan;
static uint64_t		 bridge_last;	/* the last TIME written, ms */
static unsigned char	 bridge_prev;	/* the last byte from the line */
static struct echo	 bridge_echo;	/* --judge: muxd's echo */
static uint64_t		 bridge_keys_in, bridge_keys_out;

static void	bridge_read(const unsigned char *, size_t,
		    const struct timeval *);
static void	bridge_change(enum cline_change, const char *);
static void	bridge_scan(void);
static void	bridge_scan_cb(evutil_socket_t, short, void *);
static void	bridge_ino_cb(evutil_socket_t, short, void *);
static int	bridge_cmp(const void *, const void *);
static void	bridge_put(unsigned char);
static void	bridge_sorted(void *, int, unsigned char, const unsigned char *,
		    size_t);
static void	bridge_from_line(const unsigned char *, size_t);

const struct cline_cb bridge_line_cb = { bridge_read, bridge_change };

/* Start the bridge on a directory: watch it, read what is there. */
void
bridge_start(const char *dir, int judge)
{
	struct timeval	sec = { 1, 0 };
	struct stat	st;

	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		fatalx("lpp: %s: %s", dir, errno != 0 ? strerror(errno) :
		    "not a directory");
	bridge_dir = xstrdup(dir);
	bridge_judge = judge;
	echo_init(&bridge_echo);
	if ((bridge_ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) == -1 ||
	    inotify_add_watch(bridge_ino, dir, IN_CREATE | IN_MOVED_TO |
	    IN_ONLYDIR) == -1)
		log_warn("lpp: inotify on %s (read once a second)", dir);
	if (bridge_ino != -1 && ((bridge_ev_ino = event_new(comprog_base, bridge_ino,
	    EV_READ | EV_PERSIST, bridge_ino_cb, NULL)) == NULL ||
	    event_add(bridge_ev_ino, NULL) == -1))
		fatalx("lpp: cannot watch %s", dir);
	if ((bridge_ev_scan = event_new(comprog_base, -1, EV_PERSIST,
	    bridge_scan_cb, NULL)) == NULL || event_add(bridge_ev_scan, &sec) == -1)
		fatalx("lpp: cannot watch %s", dir);
	log_info("lpp: %s, the program is %s", dir, judge ? "a judge's" :
	    "an entry");
	bridge_scan();
}

/* Stop the bridge. */
void
bridge_stop(void)
{
	if (bridge_ev_ino != NULL)
		event_free(bridge_ev_ino);
	if (bridge_ev_scan != NULL)
		event_free(bridge_ev_scan);
	bridge_ev_ino = bridge_ev_scan = NULL;
	if (bridge_ino != -1)
		close(bridge_ino);
	bridge_ino = -1;
	log_info("lpp: %llu keys to the line, %llu from it",
	    (unsigned long long)bridge_keys_out, (unsigned long long)bridge_keys_in);
	free(bridge_dir);
	bridge_dir = NULL;
}

/* Order directory names (their TIME first). */
static int
bridge_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * Read the directory: each key of the program's side, in name order, goes
 * on the line and its directory is deleted.
 */
static void
bridge_scan(void)
{
	const char	*want = bridge_judge ? ".judge" : ".other";
	DIR		*d;
	struct dirent	*de;
	char		*names[BRIDGE_SCAN_MAX], path[4096], *dot;
	size_t		 n = 0, i, len, wl = strlen(want);
	int		 b;
	unsigned char	 c;
	struct timeval	 tv;

	if ((d = opendir(bridge_dir)) == NULL) {
		log_warn("lpp: %s", bridge_dir);
		return;
	}
	while ((de = readdir(d)) != NULL && n < BRIDGE_SCAN_MAX) {
		len = strlen(de->d_name);
		if (len > wl && strcmp(de->d_name + len - wl, want) == 0 &&
		    (names[n] = strdup(de->d_name)) != NULL)
			n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), bridge_cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", bridge_dir, names[i]);
		len = strlen(names[i]) - wl;	/* TIME.KEY */
		b = -1;
		if (len > 19 && strspn(names[i], "0123456789") == 18 &&
		    names[i][18] == '.') {
			dot = names[i] + 18;
			b = lpp_key_byte(dot + 1, len - 19);
		}
		if (b == -1) {
			log_warnx("lpp: %s: not TIME.KEY%s with a key of the "
			    "rules' table; deleted, not sent", names[i], want);
			rmdir(path);
			free(names[i]);
			continue;
		}
		if (rmdir(path) == -1 && errno != ENOENT)
			log_warn("lpp: %s", path);
		c = (unsigned char)b;
		if (cline_send(&c, 1) == -1)
			log_warnx("lpp: the line refused %s", names[i]);
		else {
			bridge_keys_out++;
			comprog_time(&tv);
			if (bridge_judge) {
				echo_key(&bridge_echo, c, comprog_usec(&tv));
				transcript_judge(&c, 1, &tv);
			} else
				transcript_entity(&c, 1, &tv);
		}
		free(names[i]);
	}
}

/* The directory changed. */
static void
bridge_ino_cb(evutil_socket_t fd, short what, void *arg)
{
	char	buf[4096];

	(void)what;
	(void)arg;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	bridge_scan();
}

/* A second passed: read the directory anyway; let old echoes go. */
static void
bridge_scan_cb(evutil_socket_t fd, short what, void *arg)
{
	struct timeval	tv;

	(void)fd;
	(void)what;
	(void)arg;
	if (bridge_judge) {
		comprog_time(&tv);
		echo_expire(&bridge_echo, comprog_usec(&tv), bridge_sorted, &tv);
	}
	bridge_scan();
}

/* Write a key of the line's side as a directory for the program. */
static void
bridge_put(unsigned char c)
{
	struct timespec	 ts;
	const char	*name;
	char		 path[4096];
	uint64_t	 ms;

	if ((name = lpp_key_name(c)) == NULL) {
		log_warnx("lpp: byte 0x%02x has no LPP key name; not passed",
		    c);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	if (ms <= bridge_last)
		ms = bridge_last + 1;	/* TIME only grows */
	bridge_last = ms;
	snprintf(path, sizeof(path), "%s/%018llu.%s.%s", bridge_dir,
	    (unsigned long long)ms, name, bridge_judge ? "other" : "judge");
	if (mkdir(path, 0777) == -1)
		log_warn("lpp: %s", path);
	else
		bridge_keys_in++;
}

/* Bytes from the line for the program: CR LF is one Return. */
static void
bridge_from_line(const unsigned char *buf, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' && bridge_prev == '\r') {
			bridge_prev = buf[i];
			continue;
		}
		bridge_prev = buf[i];
		bridge_put(buf[i] == '\n' ? '\r' : buf[i]);
	}
}

/* --judge: what echo.c sorted out of muxd's output. */
static void
bridge_sorted(void *arg, int isecho, unsigned char key,
    const unsigned char *buf, size_t n)
{
	const struct timeval	*tv = arg;

	(void)key;
	if (isecho)
		return;
	transcript_entity(buf, n, tv);
	bridge_from_line(buf, n);
}

/* Bytes from the line. */
static void
bridge_read(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	if (bridge_judge) {
		echo_feed(&bridge_echo, buf, n, comprog_usec(tv), bridge_sorted,
		    (void *)tv);
		return;
	}
	transcript_judge(buf, n, tv);
	bridge_from_line(buf, n);
}

/* The line went up or down. */
static void
bridge_change(enum cline_change what, const char *why)
{
	if (what == CLINE_UP)
		log_info("lpp: the line is up");
	else if (what == CLINE_DOWN)
		log_warnx("lpp: the line is down%s%s", why != NULL ? ": " : "",
		    why != NULL ? why : "");
}
