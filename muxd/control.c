/*
 * The control socket: a unix stream socket, mode 0660, speaking JSON
 * lines.  Each request is one object {"v":1,"id":...,"cmd":...} of at most
 * PROTOCOL_LINE_MAX bytes, checked before use; each gets one reply
 * {"v":1,"id":...,"ok":true,"result":...} or {..."ok":false,"error":...}.
 * A request that is not JSON, not an object, of another version, without
 * a command, or too long is garbage: it gets an error reply and the
 * connection is closed once the reply is out.  Watchers also receive every
 * event line; a watcher that does not read is dropped past
 * CONTROL_WATCH_MAX bytes of backlog, so no client can hold up the daemon.
 * Nor can a client hold a place: one that sends no request for the
 * room's control_idle seconds is told so and closed (a watcher waits for
 * events, and is not), and one user has control_clients_per_user places
 * at most, told by the socket's credentials, so that a program of one
 * user cannot take every place from the operator's.  The commands on the
 * room are control-cmd.c's; "screens" is answered from a thread
 * (control-screens.c), the client's next requests waiting for it.
 *
 * Events are serialised once and gathered for CONTROL_BATCH_MS, then
 * given to every watcher in one go, at the loop's lowest priority: a key
 * typed costs muxd one line added to the batch, not a write to each of
 * hundreds of watchers.  The batch's text is kept once, each watcher's
 * output referring to it, and the loop looks for input between the
 * watchers' writes (MUXD_CONTROL_BURST), so a byte being forwarded waits
 * for a few of them at most.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/listener.h>

#include "muxd.h"

#define CONTROL_WATCH_MAX	(1024 * 1024)
#define CONTROL_PAUSE_MS	250	/* no descriptor: accept again after */
#define CONTROL_BATCH_MS	50	/* events gathered for watchers */
#define CONTROL_LOG_SEC		10	/* one refusal logged per period */

struct control_client {
	TAILQ_ENTRY(control_client) entry;
	struct bufferevent	*bev;
	uid_t			 uid;		/* its user; -1: unknown */
	uint64_t		 num;		/* its number, from 1 */
	int			 watching;
	int			 waiting;	/* for a reply made elsewhere
						   (control-screens.c) */
	int			 closing;	/* 1: once its reply is out;
						   2: dropped, not reading */
};
TAILQ_HEAD(, control_client) control_clients =
    TAILQ_HEAD_INITIALIZER(control_clients);

static struct evconnlistener	*control_listener;
static size_t			 control_nclients;
static int			 control_spare = -1;	/* kept for EMFILE */
static struct event		*control_resume;
static uint64_t			 control_refused;	/* clients refused */
static uint64_t			 control_screens_asked;	/* "screens" asked */
static uint64_t			 control_event_seq;	/* the last event's */
static uint64_t			 control_num;		/* the last client's */
static time_t			 control_logged;
static char			 control_why[128];	/* the last refusal */
static char			*control_path;

static void	control_accept(struct evconnlistener *, evutil_socket_t,
		    struct sockaddr *, int, void *);
static void	control_read(struct bufferevent *, void *);
static void	control_written(struct bufferevent *, void *);
static void	control_error(struct bufferevent *, short, void *);
static void	control_free(struct control_client *);
static void	control_reply(struct control_client *, json_t *, json_t *,
		    const char *);
static void	control_send(struct control_client *, json_t *);
static void	control_send_text(struct control_client *, const char *,
		    size_t);
static void	control_drop_cb(evutil_socket_t, short, void *);
static void	control_refuse(int, const char *);
static void	control_accept_error(struct evconnlistener *, void *);
static void	control_resume_cb(evutil_socket_t, short, void *);
static void	control_request(struct control_client *, const char *, size_t);
static void	control_answer(uint64_t, json_t *, json_t *);
static json_t	*control_dispatch(struct control_client *, const char *,
		    json_t *, json_t *, char *, size_t);
static void	 control_interest(void);
static void	 control_events(void *, const struct events_ev *);
static int	 control_backlog_ok(struct control_client *);
static void	 control_batch_flush(void);
static void	 control_batch_cb(evutil_socket_t, short, void *);

static struct evbuffer	*control_batch;		/* events for watchers */
static struct event	*control_batch_ev;

/*
 * Open the control socket at a path, replacing a stale one, with the
 * function that reloads the configuration ("reload").  It is bound
 * and listening under a temporary name (the path and "~") before it takes
 * its own, so that a client that finds the path never finds a socket
 * nobody listens on yet.
 */
int
control_listen(const char *path, control_reload_fn reload, char *err,
    size_t errlen)
{
	struct sockaddr_un	sun;
	char			dir[sizeof(sun.sun_path)];
	char			tmp[sizeof(sun.sun_path)];
	const char		*slash;
	mode_t			old;
	int			s;

	control_cmd_reloader(reload);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) + 1 >= sizeof(sun.sun_path)) {
		snprintf(err, errlen, "control socket path %s is too long "
		    "(at most %zu bytes)", path, sizeof(sun.sun_path) - 2);
		return (-1);
	}
	strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
	if ((slash = strrchr(path, '/')) != NULL && slash != path) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		if (state_mkdirs(dir) == -1) {
			snprintf(err, errlen, "control socket directory %s: %s",
			    dir, strerror(errno));
			return (-1);
		}
	}
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1) {
		snprintf(err, errlen, "control socket: %s", strerror(errno));
		return (-1);
	}
	/* A socket nobody answers on is stale; one that answers is busy. */
	if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
		snprintf(err, errlen, "control socket %s: another muxd is "
		    "running", path);
		close(s);
		return (-1);
	}
	close(s);
	snprintf(tmp, sizeof(tmp), "%s~", path);
	memcpy(sun.sun_path, tmp, sizeof(tmp));
	unlink(tmp);
	old = umask(0117);
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1 || bind(s, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    chmod(tmp, 0660) == -1 || listen(s, 16) == -1 ||
	    rename(tmp, path) == -1) {
		umask(old);
		snprintf(err, errlen, "control socket %s: %s", path,
		    strerror(errno));
		if (s != -1) {
			close(s);
			unlink(tmp);
		}
		return (-1);
	}
	umask(old);
	control_listener = evconnlistener_new(muxd_base, control_accept, NULL,
	    LEV_OPT_CLOSE_ON_FREE, -1, s);
	if (control_listener == NULL ||
	    (control_resume = evtimer_new(muxd_base, control_resume_cb,
	    NULL)) == NULL)
		fatalx("control socket: cannot allocate listener");
	evconnlistener_set_error_cb(control_listener, control_accept_error);
	/* A descriptor held back, to answer a client when none is left. */
	control_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	control_path = xstrdup(path);
	if ((control_batch = evbuffer_new()) == NULL ||
	    (control_batch_ev = evtimer_new(muxd_base, control_batch_cb,
	    NULL)) == NULL ||
	    event_priority_set(control_batch_ev, MUXD_PRIO_CONTROL) == -1)
		fatalx("control socket: cannot allocate the events' batch");
	events_subscribe(control_events, NULL, 0);
	log_info("control socket %s", path);
	return (0);
}

/* Close the control socket and every client, sending what is pending. */
void
control_close(void)
{
	struct control_client	*c;
	struct evbuffer		*out;
	unsigned char		*p;
	size_t			 len;
	ssize_t			 n;

	/*
	 * The bufferevent owns the draining of its output, so what is
	 * pending is written directly, as far as the socket takes it now.
	 */
	events_unsubscribe(control_events, NULL);
	control_screens_stop();
	control_batch_flush();
	while ((c = TAILQ_FIRST(&control_clients)) != NULL) {
		out = bufferevent_get_output(c->bev);
		len = evbuffer_get_length(out);
		p = evbuffer_pullup(out, -1);
		while (len > 0 && p != NULL &&
		    (n = write(bufferevent_getfd(c->bev), p, len)) > 0) {
			p += n;
			len -= n;
		}
		control_free(c);
	}
	if (control_listener != NULL) {
		evconnlistener_free(control_listener);
		unlink(control_path);
	}
	control_listener = NULL;
	if (control_resume != NULL)
		event_free(control_resume);
	control_resume = NULL;
	if (control_batch_ev != NULL)
		event_free(control_batch_ev);
	control_batch_ev = NULL;
	if (control_batch != NULL)
		evbuffer_free(control_batch);
	control_batch = NULL;
	if (control_spare != -1)
		close(control_spare);
	control_spare = -1;
	free(control_path);
	control_path = NULL;
}

/* The clients of a user at once. */
static int
control_user_clients(uid_t uid)
{
	struct control_client	*c;
	int			 n = 0;

	TAILQ_FOREACH(c, &control_clients, entry)
		if (c->uid == uid)
			n++;
	return (n);
}

/* Give a client that waits for a request the room's idle time. */
static void
control_idle_set(struct control_client *c)
{
	struct timeval	tv = { 0, 0 };

	tv.tv_sec = muxd_conf != NULL ? muxd_conf->control_idle :
	    CONF_CONTROL_IDLE;
	bufferevent_set_timeouts(c->bev, tv.tv_sec > 0 && !c->watching ?
	    &tv : NULL, NULL);
}

/* Take a new client. */
static void
control_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct control_client	*c;
	struct ucred		 cred;
	socklen_t		 credlen = sizeof(cred);
	char			 why[128];
	int			 per_user;

	(void)l;
	(void)sa;
	(void)salen;
	(void)arg;
	if (control_nclients >= (size_t)(muxd_conf != NULL ?
	    muxd_conf->control_clients : CONF_CONTROL_CLIENTS)) {
		control_refuse(fd, "too many control clients");
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &credlen) == -1)
		cred.uid = (uid_t)-1;
	per_user = muxd_conf != NULL ? muxd_conf->control_per_user :
	    CONF_CONTROL_PER_USER;
	if (control_user_clients(cred.uid) >= per_user) {
		snprintf(why, sizeof(why), "too many control clients of user "
		    "%ld (control_clients_per_user = %d)", (long)cred.uid,
		    per_user);
		control_refuse(fd, why);
		return;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL) {
		close(fd);
		return;
	}
	c->uid = cred.uid;
	c->num = ++control_num;
	c->bev = bufferevent_socket_new(muxd_base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		close(fd);
		free(c);
		return;
	}
	/* Lines first: a client never holds back a byte being forwarded. */
	bufferevent_priority_set(c->bev, MUXD_PRIO_CONTROL);
	bufferevent_setcb(c->bev, control_read, control_written,
	    control_error, c);
	control_idle_set(c);
	bufferevent_enable(c->bev, EV_READ);
	TAILQ_INSERT_TAIL(&control_clients, c, entry);
	control_nclients++;
}

/*
 * Refuse a client: one error line, then close.  Refusals are counted,
 * shown in status, and logged once per CONTROL_LOG_SEC.
 */
static void
control_refuse(int fd, const char *why)
{
	char	line[256];
	int	n;
	time_t	now = time(NULL);

	control_refused++;
	snprintf(control_why, sizeof(control_why), "%s", why);
	if (fd != -1) {
		n = snprintf(line, sizeof(line), "{\"v\":%d,\"ok\":false,"
		    "\"error\":\"%s; try again\"}\n", PROTOCOL_VERSION, why);
		/* Unwritten, the client learns it from the close. */
		if (n > 0)
			(void)!write(fd, line, (size_t)n);
		close(fd);
	}
	if (now - control_logged >= CONTROL_LOG_SEC) {
		control_logged = now;
		log_warnx("control: refusing clients: %s (%llu so far)", why,
		    (unsigned long long)control_refused);
	}
}

/*
 * accept(2) failed.  Out of descriptors, the listener would be woken
 * again at once, for ever: the spare descriptor is given up to take the
 * client and tell it, and accepting pauses for CONTROL_PAUSE_MS.
 */
static void
control_accept_error(struct evconnlistener *l, void *arg)
{
	struct timeval	 tv = { 0, CONTROL_PAUSE_MS * 1000 };
	int		 err = errno, fd;

	(void)arg;
	if (err != EMFILE && err != ENFILE && err != ENOBUFS &&
	    err != ENOMEM) {
		if (err != EAGAIN && err != EINTR && err != ECONNABORTED)
			log_warnx("control: accept: %s", strerror(err));
		return;
	}
	if (control_spare != -1) {
		close(control_spare);
		control_spare = -1;
		fd = accept4(evconnlistener_get_fd(l), NULL, NULL,
		    SOCK_CLOEXEC);
		control_refuse(fd, strerror(err));
		control_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	} else
		control_refuse(-1, strerror(err));
	evconnlistener_disable(l);
	evtimer_add(control_resume, &tv);
}

/* Accept clients again after a pause. */
static void
control_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (control_listener != NULL)
		evconnlistener_enable(control_listener);
}

/* Free a client and its connection. */
static void
control_free(struct control_client *c)
{
	TAILQ_REMOVE(&control_clients, c, entry);
	control_nclients--;
	bufferevent_free(c->bev);
	free(c);
	control_interest();
}

/*
 * Close a client whose connection ended or failed; one that sent no
 * request for the idle time is told so first, and one that only closed
 * its side still gets the replies it is owed.
 */
static void
control_error(struct bufferevent *bev, short what, void *arg)
{
	struct control_client	*c = arg;
	char			 why[64];

	if ((what & BEV_EVENT_TIMEOUT) && !c->closing) {
		snprintf(why, sizeof(why), "idle for %d s: closed",
		    muxd_conf != NULL ? muxd_conf->control_idle :
		    CONF_CONTROL_IDLE);
		log_debug("control: a client of user %ld %s", (long)c->uid,
		    why);
		bufferevent_set_timeouts(bev, NULL, NULL);
		control_reply(c, NULL, NULL, why);
		c->closing = 1;
		if (evbuffer_get_length(bufferevent_get_output(bev)) > 0) {
			bufferevent_enable(bev, EV_WRITE);
			return;
		}
	}
	if ((what & BEV_EVENT_EOF) && !c->closing &&
	    evbuffer_get_length(bufferevent_get_output(bev)) > 0) {
		c->closing = 1;
		bufferevent_disable(bev, EV_READ);
		bufferevent_enable(bev, EV_WRITE);
		return;
	}
	control_free(c);
}

/* Close a client marked for closing once its reply is out. */
static void
control_written(struct bufferevent *bev, void *arg)
{
	struct control_client	*c = arg;

	(void)bev;
	if (c->closing)
		control_free(c);
}

/* Handle every complete request line a client has sent. */
static void
control_read(struct bufferevent *bev, void *arg)
{
	struct control_client	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	char			*line;
	size_t			 len;

	while (!c->closing && !c->waiting &&
	    (line = evbuffer_readln(in, &len, EVBUFFER_EOL_LF)) != NULL) {
		if (len > PROTOCOL_LINE_MAX) {
			control_reply(c, NULL, NULL, "request longer than "
			    "65536 bytes");
			c->closing = 1;
		} else
			control_request(c, line, len);
		free(line);
	}
	if (c->waiting) {
		/* The next requests wait in the socket for the reply. */
		bufferevent_disable(bev, EV_READ);
		return;
	}
	if (!c->closing && evbuffer_get_length(in) > PROTOCOL_LINE_MAX) {
		control_reply(c, NULL, NULL, "request longer than 65536 "
		    "bytes without a newline");
		c->closing = 1;
	}
	if (c->closing) {
		bufferevent_disable(bev, EV_READ);
		evbuffer_drain(in, evbuffer_get_length(in));
	}
}

/* Queue one JSON line to a client, taking the reference. */
static void
control_send(struct control_client *c, json_t *o)
{
	char	*s;

	if ((s = json_dumps(o, JSON_COMPACT)) != NULL) {
		control_send_text(c, s, strlen(s));
		free(s);
	}
	json_decref(o);
}

/*
 * Queue a line (without its newline) for a client.  A client whose
 * backlog is past CONTROL_WATCH_MAX does not read: it is dropped, its
 * backlog discarded at once and the client freed from the loop (not here:
 * the caller may still hold it).
 */
static void
control_send_text(struct control_client *c, const char *s, size_t len)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);

	if (!control_backlog_ok(c))
		return;
	evbuffer_add(out, s, len);
	evbuffer_add(out, "\n", 1);
}

/*
 * Tell whether a client may be sent more; one whose backlog is past
 * CONTROL_WATCH_MAX is dropped (see control_send_text()).
 */
static int
control_backlog_ok(struct control_client *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	struct timeval	 now = { 0, 0 };

	if (c->closing == 2)
		return (0);
	if (evbuffer_get_length(out) > CONTROL_WATCH_MAX) {
		log_warnx("control: dropping a client that does not read "
		    "(%zu bytes waiting for it)", evbuffer_get_length(out));
		c->closing = 2;
		bufferevent_disable(c->bev, EV_READ | EV_WRITE);
		evbuffer_drain(out, evbuffer_get_length(out));
		if (event_base_once(muxd_base, -1, EV_TIMEOUT, control_drop_cb,
		    c, &now) == -1)
			fatalx("control: cannot schedule a client's end");
		return (0);
	}
	return (1);
}

/* A batch's text, kept once for the watchers' outputs that refer to it. */
struct control_shared {
	int	refs;
	char	text[];
};

/* A watcher's output is done with a batch's text. */
static void
control_shared_unref(const void *data, size_t len, void *arg)
{
	struct control_shared	*sh = arg;

	(void)data;
	(void)len;
	if (--sh->refs == 0)
		free(sh);
}

/* Give the events gathered to every watcher: one copy, referred to. */
static void
control_batch_flush(void)
{
	struct control_client	*c, *next;
	struct control_shared	*sh;
	size_t			 len;

	if (control_batch == NULL ||
	    (len = evbuffer_get_length(control_batch)) == 0)
		return;
	sh = xmalloc(sizeof(*sh) + len);
	sh->refs = 1;
	evbuffer_remove(control_batch, sh->text, len);
	for (c = TAILQ_FIRST(&control_clients); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		if (!c->watching || c->closing || !control_backlog_ok(c))
			continue;
		sh->refs++;
		if (evbuffer_add_reference(bufferevent_get_output(c->bev),
		    sh->text, len, control_shared_unref, sh) == -1)
			sh->refs--;
	}
	control_shared_unref(NULL, 0, sh);
}

/* The batch's time is up: out to the watchers. */
static void
control_batch_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	control_batch_flush();
}

/* Free a client dropped for not reading, if it is still there. */
static void
control_drop_cb(evutil_socket_t fd, short what, void *arg)
{
	struct control_client	*c;

	(void)fd;
	(void)what;
	TAILQ_FOREACH(c, &control_clients, entry)
		if (c == arg && c->closing == 2) {
			control_free(c);
			return;
		}
}

/*
 * Reply to a request: a result (taken), or an error message.  An error
 * without an id answers garbage, after which the connection closes.
 */
static void
control_reply(struct control_client *c, json_t *id, json_t *result,
    const char *error)
{
	json_t	*o;

	o = json_pack("{si}", "v", PROTOCOL_VERSION);
	if (id != NULL)
		json_object_set(o, "id", id);
	if (error == NULL) {
		json_object_set_new(o, "ok", json_true());
		json_object_set_new(o, "result", result != NULL ? result :
		    json_object());
	} else {
		json_object_set_new(o, "ok", json_false());
		json_object_set_new(o, "error", json_string(error));
	}
	control_send(c, o);
}

/*
 * The reply made elsewhere (control-screens.c) to client number num,
 * taking result: sent if the client is still there, and its next
 * requests read.
 */
static void
control_answer(uint64_t num, json_t *id, json_t *result)
{
	struct control_client	*c;

	TAILQ_FOREACH(c, &control_clients, entry)
		if (c->num == num)
			break;
	if (c == NULL || !c->waiting || c->closing == 2) {
		json_decref(result);
		return;
	}
	c->waiting = 0;
	control_reply(c, id, result, NULL);
	if (c->closing)
		return;
	bufferevent_enable(c->bev, EV_READ);
	control_read(c->bev, c);
}

/* Check one request line and carry it out. */
static void
control_request(struct control_client *c, const char *line, size_t len)
{
	json_error_t	 jerr;
	json_t		*req, *v, *id, *cmd, *result;
	char		 err[MUXD_ERRLEN], msg[MUXD_ERRLEN];

	if (len == 0 || (len == 1 && line[0] == '\r'))
		return;
	if ((req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr)) ==
	    NULL) {
		snprintf(msg, sizeof(msg), "invalid JSON at byte %d: %s",
		    jerr.position, jerr.text);
		goto garbage;
	}
	if (!json_is_object(req)) {
		snprintf(msg, sizeof(msg), "a request must be a JSON object");
		goto garbage;
	}
	id = json_object_get(req, "id");
	if (id != NULL && (json_is_object(id) || json_is_array(id)))
		id = NULL;
	v = json_object_get(req, "v");
	if (!json_is_integer(v) || json_integer_value(v) != PROTOCOL_VERSION) {
		snprintf(msg, sizeof(msg), "unsupported protocol version: "
		    "\"v\" must be %d", PROTOCOL_VERSION);
		goto garbage;
	}
	cmd = json_object_get(req, "cmd");
	if (!json_is_string(cmd)) {
		snprintf(msg, sizeof(msg), "\"cmd\" must be a string");
		goto garbage;
	}
	err[0] = '\0';
	result = control_dispatch(c, json_string_value(cmd), req, id, err,
	    sizeof(err));
	if (!c->waiting)
		control_reply(c, id, result, result == NULL ? err : NULL);
	json_decref(req);
	return;

garbage:
	log_warnx("control: bad request: %s", msg);
	control_reply(c, req != NULL && json_is_object(req) ?
	    json_object_get(req, "id") : NULL, NULL, msg);
	c->closing = 1;
	if (req != NULL)
		json_decref(req);
}

/*
 * Carry out one command, asked with id: the client's own (watch,
 * screens, the socket's part of status) here, the room's in
 * control-cmd.c; NULL with a message in err on failure, or with the
 * client waiting for a reply made elsewhere.
 */
static json_t *
control_dispatch(struct control_client *c, const char *cmd, json_t *req,
    json_t *id, char *err, size_t errlen)
{
	switch (protocol_cmd_find(cmd)) {
	case PROTOCOL_CMD_STATUS:
		return (control_cmd_status(json_pack("{sIsIss?sI}", "clients",
		    (json_int_t)control_nclients, "refused",
		    (json_int_t)control_refused, "refusal", control_refused >
		    0 ? control_why : NULL, "screens",
		    (json_int_t)control_screens_asked)));
	case PROTOCOL_CMD_WATCH:
		c->watching = 1;
		control_idle_set(c);
		control_interest();
		return (json_pack("{sb}", "watching", 1));
	case PROTOCOL_CMD_SCREENS:
		control_screens_asked++;
		if (control_screens_ask(control_answer, c->num, id, req,
		    control_event_seq, err, errlen) == 0)
			c->waiting = 1;
		return (NULL);
	default:
		return (control_cmd_room(cmd, req, err, errlen));
	}
}

/*
 * Tell the bus whether any client watches: then every event is taken.
 * Called where a client starts watching or goes; one closing meanwhile
 * is skipped when the batch is sent.
 */
static void
control_interest(void)
{
	struct control_client	*c;
	uint32_t		 mask = 0;

	TAILQ_FOREACH(c, &control_clients, entry)
		if (c->watching)
			mask = EVENTS_ALL;
	events_want(control_events, NULL, mask);
}

/* Send an event to every watcher (an events observer). */
static void
control_events(void *arg, const struct events_ev *ev)
{
	struct timeval		 tv;
	json_t			*o;
	char			*s;
	size_t			 len;

	(void)arg;
	port_time(&tv);
	o = json_pack("{sisssfsI}", "v", PROTOCOL_VERSION, "event",
	    protocol_event_name(ev->type), "time",
	    tv.tv_sec + tv.tv_usec / 1e6, "seq",
	    (json_int_t)++control_event_seq);
	if (ev->fields != NULL)
		json_object_update(o, ev->fields);
	/* Serialised once for every watcher. */
	if ((s = json_dumps(o, JSON_COMPACT)) == NULL) {
		json_decref(o);
		return;
	}
	len = strlen(s);
	evbuffer_add(control_batch, s, len);
	evbuffer_add(control_batch, "\n", 1);
	if (!evtimer_pending(control_batch_ev, NULL)) {
		tv.tv_sec = 0;
		tv.tv_usec = CONTROL_BATCH_MS * 1000;
		evtimer_add(control_batch_ev, &tv);
	}
	free(s);
	json_decref(o);
}
