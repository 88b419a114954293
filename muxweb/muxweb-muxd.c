/*
 * muxd's control socket, as muxweb uses it: a connection a request (a
 * status, a round command), and one watch for the program's life, made
 * again a second after muxd goes away, whose events go to the ring.  The
 * browsers learn that muxd went and came back from the ring too, as an
 * event of muxweb's own, "web.muxd" with "up" true or false.
 *
 * The screens (muxd's "screens", each link's judge's screen as its
 * transcript has it) are kept for the browsers that arrive: asked again
 * when one arrives (at most once a second), at the first text of a link
 * new since they were asked, and when the ring has taken half its lines
 * since then, each with the ring's number
 * before it was asked (what came after is in the ring, and must still be
 * when a browser arrives).  muxd reads its captures again for them (in
 * a thread of its own), so they are asked no more often than that.  A link
 * gone stays, "ended", until the next round starts: the page of a late
 * arrival shows the round's conversations as they ended.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol.h"
#include "muxweb.h"

#define MUXWEB_MUXD_WAIT_MS	10000	/* for a reply */
#define MUXWEB_MUXD_SCREENS_LINES (MUXWEB_RING / 2) /* ring lines between
						   screens asked */

static char		*muxweb_muxd_path;
static int		 muxweb_muxd_up;
static pthread_mutex_t	 muxweb_muxd_lock = PTHREAD_MUTEX_INITIALIZER;
static long long	 muxweb_muxd_id;
/* The screens kept, by link name, and when asked: under screens_lock. */
static pthread_mutex_t	 muxweb_muxd_screens_lock = PTHREAD_MUTEX_INITIALIZER;
static json_t		*muxweb_muxd_kept;
static time_t		 muxweb_muxd_asked;
static uint64_t		 muxweb_muxd_head;	/* the ring's number when
						   last asked */
static int		 muxweb_muxd_text;	/* text came since */
static int		 muxweb_muxd_new;	/* a link came since */

/* Name the control socket. */
void
muxweb_muxd_init(const char *path)
{
	free(muxweb_muxd_path);
	muxweb_muxd_path = xstrdup(path);
}

/* Connect to the control socket; -1 with a reason. */
static int
muxweb_muxd_connect(char *err, size_t errlen)
{
	struct sockaddr_un	 sun;
	int			 s;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(muxweb_muxd_path) >= sizeof(sun.sun_path)) {
		snprintf(err, errlen, "%s: path too long", muxweb_muxd_path);
		return (-1);
	}
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", muxweb_muxd_path);
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		snprintf(err, errlen, "%s: %s", muxweb_muxd_path,
		    strerror(errno));
		if (s != -1)
			close(s);
		return (-1);
	}
	return (s);
}

/* Send a request line: the command, its arguments, an id; -1 on error. */
static int
muxweb_muxd_send(int s, const char *cmd, json_t *args, long long id)
{
	json_t	*req;
	char	*line;
	size_t	 len, off = 0;
	ssize_t	 n;
	int	 r = 0;

	req = args != NULL ? json_incref(args) : json_object();
	json_object_set_new(req, "v", json_integer(PROTOCOL_VERSION));
	json_object_set_new(req, "id", json_integer(id));
	json_object_set_new(req, "cmd", json_string(cmd));
	line = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (line == NULL)
		return (-1);
	len = strlen(line);
	line[len++] = '\n';	/* json_dumps leaves room: its NUL */
	while (off < len) {
		if ((n = send(s, line + off, len - off, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR)
				continue;
			r = -1;
			break;
		}
		off += (size_t)n;
	}
	free(line);
	return (r);
}

/*
 * Read one line into buf (at most PROTOCOL_LINE_MAX), waiting up to ms
 * milliseconds (-1: forever); its length, or -1 at the end or on error.
 * What came after the line stays in *have.
 */
static ssize_t
muxweb_muxd_line(int s, char *buf, size_t *have, int ms)
{
	struct pollfd	 pfd;
	char		*nl;
	ssize_t		 n, len;

	for (;;) {
		if ((nl = memchr(buf, '\n', *have)) != NULL) {
			len = nl - buf;
			*nl = '\0';
			return (len);
		}
		if (*have >= PROTOCOL_LINE_MAX)
			return (-1);
		pfd.fd = s;
		pfd.events = POLLIN;
		if ((n = poll(&pfd, 1, ms)) == 0)
			return (-1);
		if (n == -1 && errno == EINTR)
			continue;
		if ((n = recv(s, buf + *have, PROTOCOL_LINE_MAX - *have,
		    0)) <= 0)
			return (-1);
		*have += (size_t)n;
	}
}

/* Drop a line and its newline from the front of buf. */
static void
muxweb_muxd_consume(char *buf, size_t *have, size_t len)
{
	memmove(buf, buf + len + 1, *have - len - 1);
	*have -= len + 1;
}

/*
 * Run one command on its own connection: its result (to free), or NULL
 * with muxd's error or why muxd could not be asked.
 */
json_t *
muxweb_muxd_call(const char *cmd, json_t *args, char *err, size_t errlen)
{
	json_t		*o, *result = NULL;
	char		*buf;
	size_t		 have = 0;
	ssize_t		 len;
	long long	 id;
	int		 s;

	if ((s = muxweb_muxd_connect(err, errlen)) == -1)
		return (NULL);
	pthread_mutex_lock(&muxweb_muxd_lock);
	id = ++muxweb_muxd_id;
	pthread_mutex_unlock(&muxweb_muxd_lock);
	if ((buf = malloc(PROTOCOL_LINE_MAX + 1)) == NULL ||
	    muxweb_muxd_send(s, cmd, args, id) == -1) {
		snprintf(err, errlen, "cannot send to muxd");
		goto done;
	}
	for (;;) {
		if ((len = muxweb_muxd_line(s, buf, &have,
		    MUXWEB_MUXD_WAIT_MS)) == -1) {
			snprintf(err, errlen, "no reply from muxd");
			break;
		}
		o = json_loadb(buf, (size_t)len, 0, NULL);
		muxweb_muxd_consume(buf, &have, (size_t)len);
		if (json_integer_value(json_object_get(o, "id")) != id) {
			json_decref(o);
			continue;	/* an event before the reply */
		}
		if (json_is_true(json_object_get(o, "ok")))
			result = json_incref(json_object_get(o, "result"));
		else
			snprintf(err, errlen, "%s", json_string_value(
			    json_object_get(o, "error")) != NULL ?
			    json_string_value(json_object_get(o, "error")) :
			    "muxd refused");
		json_decref(o);
		break;
	}
done:
	free(buf);
	close(s);
	return (result);
}

/*
 * Ask muxd for every link's screen again, into the kept screens (the
 * caller holds muxweb_muxd_screens_lock); -1 with a reason.
 */
static int
muxweb_muxd_refresh(char *err, size_t errlen)
{
	json_t		*st, *res, *l, *args, *old;
	const char	*name;
	size_t		 i;
	uint64_t	 head;

	head = muxweb_ring_head();
	muxweb_muxd_head = head;
	muxweb_muxd_text = muxweb_muxd_new = 0;
	if ((st = muxweb_muxd_call(protocol_cmd_name(PROTOCOL_CMD_STATUS),
	    NULL, err, errlen)) == NULL)
		return (-1);
	if (muxweb_muxd_kept == NULL)
		muxweb_muxd_kept = json_object();
	json_object_foreach(muxweb_muxd_kept, name, old)
		json_object_set_new(old, "ended", json_true());
	json_array_foreach(json_object_get(st, "links"), i, l) {
		if ((name = json_string_value(json_object_get(l, "name"))) ==
		    NULL)
			continue;
		args = json_pack("{ss}", "link", name);
		res = muxweb_muxd_call(protocol_cmd_name(
		    PROTOCOL_CMD_SCREENS), args, err, errlen);
		json_decref(args);
		if ((l = json_array_get(json_object_get(res, "links"), 0)) !=
		    NULL) {
			json_object_set_new(l, "head", json_integer(
			    (json_int_t)head));
			json_object_set_new(l, "ended", json_false());
			json_object_set(muxweb_muxd_kept, name, l);
		}
		json_decref(res);
	}
	json_decref(st);
	muxweb_muxd_asked = time(NULL);
	return (0);
}

/*
 * What a browser that arrives needs: the ring's number it is to follow
 * from, the screens (refreshed unless asked within a second), and the
 * state events kept up to that number; NULL with a reason.
 */
json_t *
muxweb_muxd_screens(char *err, size_t errlen)
{
	json_t		*links, *o;
	const char	*name;
	uint64_t	 head;

	pthread_mutex_lock(&muxweb_muxd_screens_lock);
	head = muxweb_ring_head();
	if (time(NULL) - muxweb_muxd_asked >= 1 &&
	    muxweb_muxd_refresh(err, errlen) == -1 &&
	    muxweb_muxd_kept == NULL) {
		pthread_mutex_unlock(&muxweb_muxd_screens_lock);
		return (NULL);
	}
	links = json_array();
	json_object_foreach(muxweb_muxd_kept, name, o) {
		json_array_append(links, o);
		if ((uint64_t)json_integer_value(json_object_get(o, "head")) <
		    head)
			head = (uint64_t)json_integer_value(
			    json_object_get(o, "head"));
	}
	pthread_mutex_unlock(&muxweb_muxd_screens_lock);
	return (json_pack("{sI so so}", "head", (json_int_t)head, "links",
	    links, "kept", muxweb_ring_kept_json(head)));
}

/* The screens' thread: asked again before the ring forgets, for ever. */
static void *
muxweb_muxd_screens_thread(void *arg)
{
	char	err[MUXWEB_ERRLEN];

	(void)arg;
	for (;;) {
		sleep(1);
		pthread_mutex_lock(&muxweb_muxd_screens_lock);
		if (muxweb_muxd_text && (muxweb_muxd_new ||
		    muxweb_ring_head() - muxweb_muxd_head >=
		    MUXWEB_MUXD_SCREENS_LINES))
			(void)muxweb_muxd_refresh(err, sizeof(err));
		pthread_mutex_unlock(&muxweb_muxd_screens_lock);
	}
	return (NULL);
}

/*
 * Note an event line for the kept screens: text to ask for again; a
 * round's start forgets the links that ended.
 */
static void
muxweb_muxd_note(const char *line)
{
	json_t		*o;
	const char	*name;
	void		*tmp;

	if (strstr(line, "\"event\":\"text\"") != NULL) {
		pthread_mutex_lock(&muxweb_muxd_screens_lock);
		muxweb_muxd_text = 1;
		pthread_mutex_unlock(&muxweb_muxd_screens_lock);
	} else if (strstr(line, "\"event\":\"link.up\"") != NULL) {
		pthread_mutex_lock(&muxweb_muxd_screens_lock);
		muxweb_muxd_new = 1;
		pthread_mutex_unlock(&muxweb_muxd_screens_lock);
	} else if (strstr(line, "\"event\":\"round.start\"") != NULL) {
		pthread_mutex_lock(&muxweb_muxd_screens_lock);
		json_object_foreach_safe(muxweb_muxd_kept, tmp, name, o)
			if (json_is_true(json_object_get(o, "ended")))
				json_object_del(muxweb_muxd_kept, name);
		muxweb_muxd_asked = 0;
		pthread_mutex_unlock(&muxweb_muxd_screens_lock);
	}
}

/* Tell the browsers muxd came or went, as an event of muxweb's own. */
static void
muxweb_muxd_said(int up)
{
	char	line[128];
	int	n;

	pthread_mutex_lock(&muxweb_muxd_lock);
	muxweb_muxd_up = up;
	pthread_mutex_unlock(&muxweb_muxd_lock);
	n = snprintf(line, sizeof(line), "{\"v\":%d,\"event\":\"web.muxd\","
	    "\"time\":%lld,\"up\":%s}", PROTOCOL_VERSION,
	    (long long)time(NULL), up ? "true" : "false");
	muxweb_ring_add(line, (size_t)n);
}

/* Whether the watch is connected to muxd now. */
int
muxweb_muxd_watching(void)
{
	int	up;

	pthread_mutex_lock(&muxweb_muxd_lock);
	up = muxweb_muxd_up;
	pthread_mutex_unlock(&muxweb_muxd_lock);
	return (up);
}

/* The watch thread: muxd's events into the ring, for ever. */
static void *
muxweb_muxd_watch(void *arg)
{
	char		*buf, err[MUXWEB_ERRLEN];
	size_t		 have;
	ssize_t		 len;
	int		 s;

	(void)arg;
	buf = xmalloc(PROTOCOL_LINE_MAX + 1);
	for (;;) {
		if ((s = muxweb_muxd_connect(err, sizeof(err))) == -1 ||
		    muxweb_muxd_send(s, protocol_cmd_name(PROTOCOL_CMD_WATCH),
		    NULL, 0) == -1) {
			if (s != -1)
				close(s);
			sleep(1);
			continue;
		}
		muxweb_muxd_said(1);
		have = 0;
		while ((len = muxweb_muxd_line(s, buf, &have, -1)) != -1) {
			if (len > 0 && strstr(buf, "\"event\":") != NULL) {
				muxweb_muxd_note(buf);
				muxweb_ring_add(buf, (size_t)len);
			}
			muxweb_muxd_consume(buf, &have, (size_t)len);
		}
		close(s);
		muxweb_muxd_said(0);
		sleep(1);
	}
	return (NULL);
}

/* Start the watch's thread and the screens' thread, or exit. */
void
muxweb_muxd_watch_start(void)
{
	void		*(*run[2])(void *) = { muxweb_muxd_watch,
			    muxweb_muxd_screens_thread };
	pthread_t	 t;
	int		 i, e;

	for (i = 0; i < 2; i++) {
		if ((e = pthread_create(&t, NULL, run[i], NULL)) != 0)
			errx(1, "cannot start a thread: %s", strerror(e));
		pthread_detach(t);
	}
}
