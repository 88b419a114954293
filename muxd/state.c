/*
 * The persisted state: the running round (number, seed, times), its
 * placements as shown to operators, every link and the verdicts on the
 * opening assertion.  It is rewritten whole (temporary file, fsync,
 * rename), so a daemon killed at any moment finds either the old state or
 * the new one, and a restarted daemon resumes the round and the manual
 * links.
 *
 * A round started or stopped, a link made or ended by an operator and a
 * reload are saved at once (state_save), before the reply.  Verdicts,
 * which can come by the dozen as a round ends, are saved at most
 * STATE_SOON_SEC later (state_save_soon): at once when the last save is
 * older, else by a one-shot timer, so saves never follow each other
 * closer than that, and a save at once takes a pending one with it.
 * When muxd stops, the links it ends are the ones a restart must resume:
 * link.c keeps them as they were (link_keep) for the last save
 * (state_flush).
 *
 * The state knows none of its parts: each (the round, the links, the
 * verdicts) registers a function that gives its members of the file and
 * one that takes them back (state_register), in the order of the file.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "muxd.h"

#define STATE_SOON_SEC	1

static char		 state_path[PATH_MAX];
static char		 state_dir[PATH_MAX];
static struct timespec	 state_last;	/* CLOCK_MONOTONIC of the last save */
static struct event	*state_timer;	/* a save deferred */
static char		 state_error[LINE_ERRLEN];	/* last save's fault */

#define STATE_PARTS	8
/* The parts of the state, in the order of the file. */
static struct state_part {
	state_save_fn	 save;
	state_load_fn	 load;
} state_parts[STATE_PARTS];
static size_t		 state_nparts;

static int	 state_write(json_t *);
static void	 state_fault(const char *);
static void	 state_timer_cb(evutil_socket_t, short, void *);

/*
 * Create a directory and its parents (mode 0750).  The directory itself
 * must not be a symbolic link: muxd writes into it, and a link planted
 * there would send its files elsewhere (-1 with ELOOP).
 */
int
state_mkdirs(const char *dir)
{
	struct stat	 sb;
	char		 tmp[PATH_MAX], *s;

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (s = tmp + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(tmp, 0750) == -1 && errno != EEXIST)
			return (-1);
		*s = '/';
	}
	if (mkdir(tmp, 0750) == -1 && errno != EEXIST)
		return (-1);
	if (lstat(tmp, &sb) == -1)
		return (-1);
	if (S_ISLNK(sb.st_mode)) {
		errno = ELOOP;
		return (-1);
	}
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		return (-1);
	}
	return (0);
}

/* Choose the state directory, creating it if needed. */
void
state_init(const char *dir)
{
	snprintf(state_dir, sizeof(state_dir), "%s", dir);
	snprintf(state_path, sizeof(state_path), "%s/state.json", dir);
	if (state_mkdirs(dir) == -1)
		log_warn("state directory %s", dir);
}

/*
 * Add a part to the state: save gives an object whose members join the
 * file, load takes them back from the whole file (or, with check set,
 * says whether they are well formed: -1 with a reason).
 */
void
state_register(state_save_fn save, state_load_fn load)
{
	if (state_nparts == STATE_PARTS)
		fatalx("state: too many parts");
	state_parts[state_nparts].save = save;
	state_parts[state_nparts].load = load;
	state_nparts++;
}

/*
 * Write the state file atomically: the whole text with one write(2) to a
 * temporary file, fsync, rename, and sync the directory.
 */
static int
state_write(json_t *o)
{
	char	 tmp[PATH_MAX + 8], why[LINE_ERRLEN], *text;
	size_t	 len;
	int	 fd, dfd;

	if ((text = json_dumps(o, JSON_INDENT(1))) == NULL) {
		state_fault("out of memory");
		return (-1);
	}
	len = strlen(text);
	text[len++] = '\n';	/* json_dumps() leaves room for its NUL */
	snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
	/*
	 * The temporary file is made anew, never opened through what is
	 * there: a file left by a crash, or a symbolic link planted to make
	 * muxd write elsewhere, is removed first (unlink(2) removes a link,
	 * not its target).
	 */
	if (unlink(tmp) == -1 && errno != ENOENT)
		log_warn("state %s", tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0640)) == -1) {
		snprintf(why, sizeof(why), "%s: %s", tmp, strerror(errno));
		state_fault(why);
		free(text);
		return (-1);
	}
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) == -1) {
		snprintf(why, sizeof(why), "%s: %s", tmp, strerror(errno));
		state_fault(why);
		close(fd);
		unlink(tmp);
		free(text);
		return (-1);
	}
	free(text);
	if (close(fd) == -1 || rename(tmp, state_path) == -1) {
		snprintf(why, sizeof(why), "%s: %s", state_path,
		    strerror(errno));
		state_fault(why);
		return (-1);
	}
	if ((dfd = open(state_dir, O_RDONLY | O_DIRECTORY)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	state_fault(NULL);
	return (0);
}

/*
 * Note how the last save went: a failure, or its end, is a fault that is
 * logged and told on watch once (and shown in status), not each time.
 */
static void
state_fault(const char *why)
{
	if (why != NULL && strcmp(why, state_error) != 0) {
		snprintf(state_error, sizeof(state_error), "%s", why);
		log_warnx("state: cannot be saved: %s; a restart would not "
		    "resume what runs now", why);
		events_post(PROTOCOL_EV_FAULT, json_pack("{ssss}", "what",
		    "state", "error", why));
	} else if (why == NULL && state_error[0] != '\0') {
		state_error[0] = '\0';
		log_info("state: saved again");
		events_post(PROTOCOL_EV_FAULT, json_pack("{sssn}", "what",
		    "state", "error"));
	}
}

/*
 * Append a record (len bytes of text) to a file of the state directory
 * (compliance.txt, ballots.csv) with one write(2), after the header when
 * the file is new or empty; a failure is logged with the file and told
 * as a fault of what ("compliance", "ballots").  -1 on failure.
 */
int
state_append(const char *name, const char *header, const char *text,
    size_t len, const char *what)
{
	struct stat	 st;
	char		 path[PATH_MAX], *buf = NULL;
	size_t		 hl = header != NULL ? strlen(header) : 0;
	int		 fd, rv = -1;

	snprintf(path, sizeof(path), "%s/%s", state_dir, name);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0640)) != -1 && fstat(fd, &st) == 0) {
		if (st.st_size > 0)
			hl = 0;
		buf = xmalloc(hl + len);
		if (hl > 0)
			memcpy(buf, header, hl);
		memcpy(buf + hl, text, len);
		if (write(fd, buf, hl + len) == (ssize_t)(hl + len))
			rv = 0;
	}
	if (rv == -1) {
		log_warn("%s: not written", path);
		events_post(PROTOCOL_EV_FAULT, json_pack("{ssss+}", "what",
		    what, "error", path, ": not written"));
	}
	if (fd != -1)
		close(fd);
	free(buf);
	return (rv);
}

/* Why the state could not be saved the last time, or NULL. */
const char *
state_failure(void)
{
	return (state_error[0] != '\0' ? state_error : NULL);
}

/*
 * Save the state now, with any save that was deferred; failures are
 * logged, not fatal.
 */
int
state_save(void)
{
	json_t	*o, *part;
	size_t	 i;
	int	 r;

	if (state_path[0] == '\0')
		return (0);
	if (state_timer != NULL)
		evtimer_del(state_timer);
	o = json_pack("{sisI}", "v", 1, "saved", (json_int_t)time(NULL));
	for (i = 0; o != NULL && i < state_nparts; i++) {
		if ((part = state_parts[i].save()) == NULL ||
		    json_object_update(o, part) == -1) {
			json_decref(part);
			json_decref(o);
			o = NULL;
			break;
		}
		json_decref(part);
	}
	if (o == NULL) {
		state_fault("out of memory");
		r = -1;
	} else {
		r = state_write(o);
		json_decref(o);
	}
	clock_gettime(CLOCK_MONOTONIC, &state_last);
	return (r);
}

/*
 * Save the state within STATE_SOON_SEC: now when the last save is that
 * old, else once it is.
 */
void
state_save_soon(void)
{
	struct timespec	now;
	struct timeval	tv;
	int64_t		since;

	if (state_path[0] == '\0' ||
	    (state_timer != NULL && evtimer_pending(state_timer, NULL)))
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	since = (int64_t)(now.tv_sec - state_last.tv_sec) * 1000000 +
	    (now.tv_nsec - state_last.tv_nsec) / 1000;
	if (state_last.tv_sec == 0 || since >= STATE_SOON_SEC * 1000000) {
		state_save();
		return;
	}
	if (state_timer == NULL &&
	    (state_timer = evtimer_new(muxd_base, state_timer_cb, NULL)) ==
	    NULL)
		fatalx("state: cannot allocate the save timer");
	since = STATE_SOON_SEC * 1000000 - since;
	tv.tv_sec = since / 1000000;
	tv.tv_usec = since % 1000000;
	evtimer_add(state_timer, &tv);
}

/* Save the state that was deferred. */
static void
state_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	state_save();
}

/* Write a save that was deferred, as muxd stops. */
void
state_flush(void)
{
	if (state_timer != NULL && evtimer_pending(state_timer, NULL))
		state_save();
	if (state_timer != NULL)
		event_free(state_timer);
	state_timer = NULL;
}

/*
 * Read the state file, each part taking its own back once all are found
 * well formed: 1 when it was read, 0 when there is none, -1 when it is
 * not a state file.
 */
int
state_load(void)
{
	json_error_t	 jerr;
	json_t		*o;
	char		 why[LINE_ERRLEN];
	size_t		 i;
	int		 v = 0;

	if ((o = json_load_file(state_path, 0, &jerr)) == NULL) {
		if (access(state_path, F_OK) == 0)
			log_warnx("state %s:%d: %s; starting afresh",
			    state_path, jerr.line, jerr.text);
		return (0);
	}
	why[0] = '\0';
	if (json_unpack_ex(o, &jerr, 0, "{si}", "v", &v) == -1)
		snprintf(why, sizeof(why), "%s", jerr.text);
	else if (v != 1)
		snprintf(why, sizeof(why), "version %d", v);
	for (i = 0; why[0] == '\0' && i < state_nparts; i++)
		(void)state_parts[i].load(o, 1, why, sizeof(why));
	if (why[0] != '\0') {
		log_warnx("state %s: not a muxd state file (%s); starting "
		    "afresh", state_path, why);
		json_decref(o);
		return (-1);
	}
	for (i = 0; i < state_nparts; i++)
		(void)state_parts[i].load(o, 0, why, sizeof(why));
	json_decref(o);
	return (1);
}
