/*
 * The HTTP side (libmicrohttpd, bound to loopback unless told otherwise):
 *
 *	GET  /			the live room page
 *	GET  /status		muxd's status, as JSON
 *	GET  /events		muxd's events as server-sent events, the
 *				ring's lines from the newest on, or after
 *				?after=N or the Last-Event-ID of a browser
 *				coming back (id: N, data: the event line),
 *				a comment every 15 s
 *	GET  /screens		what a browser that arrives needs: each
 *				link's screen so far, the round's state
 *				events, the number to follow from
 *				(muxweb-muxd.c)
 *	GET  /favicon.ico	the room's icon (no token needed)
 *	/audit..., /player/...	the auditor's pages (muxweb-audit.c)
 *	POST /round/start?n=N	the round commands
 *	POST /round/stop
 *	POST /release?link=L
 *	GET  /login?token=T	the login link: a cookie with the token
 *
 * Each needs the room's token (muxweb-guard.c), but the live page of a
 * public room; a request without it is 401.  A reply to a command is
 * muxd's result, or its error with status 409.
 *
 * A room's audience can be hundreds of browsers, each holding an event
 * stream open for hours, so the connections share one thread (an epoll
 * loop): a stream with nothing to send is suspended, and the ring's
 * new lines, or the keepalive's tick, resume the suspended ones.
 * libmicrohttpd does not watch a suspended connection, so the keepalive's
 * thread looks every second for the browsers that went away and lets
 * their connections go, or they would hold their places until the next
 * line or tick, and a full muxweb would keep the next browser waiting.  What
 * can take time (muxd's replies, the audit's files and tools) is done in
 * a thread of its own, the request's connection suspended meanwhile, so
 * a slow muxd never holds the streams back.
 */
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "protocol.h"
#include "muxweb.h"

#define MUXWEB_HTTP_KEEPALIVE	15	/* seconds between comments */
#define MUXWEB_HTTP_WATCH	1	/* seconds between looks for the gone */
#define MUXWEB_HTTP_CLIENTS	2000	/* connections at once */
#define MUXWEB_HTTP_WORKERS	64	/* slow requests at once */
/* Descriptors kept for the rest: muxd's sockets, the audit's files... */
#define MUXWEB_HTTP_SPARE	(2 * MUXWEB_HTTP_WORKERS + 16)

struct muxweb_http {
	struct MHD_Daemon	*mhd;
	pthread_t		 ticker;
};

/*
 * One browser's event stream: its connection's socket, whether the
 * browser went away, the last line it was sent, what is left of the text
 * being sent, the keepalive tick of its last send, and its place among
 * the suspended.
 */
struct muxweb_stream {
	struct MHD_Connection	*c;
	int			 fd, gone;
	uint64_t		 seen;
	char			*pending;
	size_t			 len, off;
	unsigned long		 tick;
	LIST_ENTRY(muxweb_stream) entry;
};

/* A slow request, answered in a thread of its own. */
struct muxweb_job {
	struct muxweb_http	*h;
	struct MHD_Connection	*c;
	char			*url;
	int			 post;
};

/*
 * The suspended streams, the keepalive's tick, the slow requests under
 * way, and whether muxweb is stopping: under muxweb_http_lock.
 */
static LIST_HEAD(, muxweb_stream) muxweb_http_waiting =
    LIST_HEAD_INITIALIZER(muxweb_http_waiting);
static pthread_mutex_t	 muxweb_http_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 muxweb_http_cond;	/* monotonic; muxweb_http_start */
static unsigned long	 muxweb_http_tick;
static int		 muxweb_http_jobs;
static int		 muxweb_http_stopping;
static char		 muxweb_http_asked;	/* a request's state: handed over */

/* The room's icon: two terminals, as SVG. */
static const char muxweb_http_icon[] =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\">"
    "<rect width=\"32\" height=\"32\" rx=\"5\" fill=\"#1f3a5f\"/>"
    "<rect x=\"4\" y=\"8\" width=\"11\" height=\"16\" fill=\"#fff\"/>"
    "<rect x=\"17\" y=\"8\" width=\"11\" height=\"16\" fill=\"#fff\"/>"
    "<path d=\"M6 12h6M6 16h4M19 12h6M19 16h5\" stroke=\"#1f3a5f\" "
    "stroke-width=\"2\"/></svg>\n";

/* Queue a reply of len bytes (taken) with a type and a status. */
static enum MHD_Result
muxweb_http_reply_len(struct MHD_Connection *c, unsigned int status,
    const char *type, char *body, size_t len)
{
	struct MHD_Response	*r;
	enum MHD_Result		 ret;

	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(body);
		return (MHD_NO);
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	muxweb_guard_headers(r, type, body, len);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return (ret);
}

/* Queue a reply of text (a copy of it) with a type and a status. */
static enum MHD_Result
muxweb_http_reply(struct MHD_Connection *c, unsigned int status,
    const char *type, const char *body)
{
	char	*copy;

	if ((copy = strdup(body)) == NULL)
		return (MHD_NO);
	return (muxweb_http_reply_len(c, status, type, copy, strlen(copy)));
}

/* Queue a JSON reply (taken), or {"error": why} when it is NULL. */
static enum MHD_Result
muxweb_http_json(struct MHD_Connection *c, unsigned int status, json_t *o,
    const char *why)
{
	char	*text;

	if (o == NULL)
		o = json_pack("{ss}", "error", why);
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (text == NULL)
		return (MHD_NO);
	return (muxweb_http_reply_len(c, status, "application/json", text,
	    strlen(text)));
}

/*
 * Take a stream's next text: the ring's line after the last it was sent,
 * or a comment at a keepalive tick it has not sent at; 0 when there is
 * none, -1 when out of memory.
 */
static int
muxweb_http_events_next(struct muxweb_stream *st)
{
	char		*line;
	unsigned long	 tick;
	int		 r;

	free(st->pending);
	st->pending = NULL;
	st->off = st->len = 0;
	pthread_mutex_lock(&muxweb_http_lock);
	tick = muxweb_http_tick;
	pthread_mutex_unlock(&muxweb_http_lock);
	if ((line = muxweb_ring_next(&st->seen)) != NULL) {
		r = asprintf(&st->pending, "id: %llu\ndata: %s\n\n",
		    (unsigned long long)st->seen, line);
		free(line);
	} else if (st->tick != tick)
		r = asprintf(&st->pending, ": muxweb\n\n");
	else
		return (0);
	if (r == -1)
		return (-1);
	st->len = (size_t)r;
	st->tick = tick;
	return (1);
}

/*
 * Give a browser the next part of its event stream, as much as is there;
 * with nothing to send, suspend the stream among the waiting (unless a
 * line came meanwhile), and end it when muxweb stops.
 */
static ssize_t
muxweb_http_events_read(void *arg, uint64_t pos, char *buf, size_t max)
{
	struct muxweb_stream	*st = arg;
	size_t			 done = 0, n;
	int			 r;

	(void)pos;
	if (st->gone)
		return (MHD_CONTENT_READER_END_WITH_ERROR);
	for (;;) {
		while (done < max) {
			if (st->off == st->len &&
			    (r = muxweb_http_events_next(st)) <= 0) {
				if (r == -1)
					return (MHD_CONTENT_READER_END_WITH_ERROR);
				break;
			}
			n = st->len - st->off < max - done ?
			    st->len - st->off : max - done;
			memcpy(buf + done, st->pending + st->off, n);
			st->off += n;
			done += n;
		}
		if (done > 0)
			return ((ssize_t)done);
		pthread_mutex_lock(&muxweb_http_lock);
		if (muxweb_http_stopping) {
			pthread_mutex_unlock(&muxweb_http_lock);
			return (MHD_CONTENT_READER_END_OF_STREAM);
		}
		if (muxweb_ring_head() == st->seen &&
		    st->tick == muxweb_http_tick)
			break;
		pthread_mutex_unlock(&muxweb_http_lock);
	}
	LIST_INSERT_HEAD(&muxweb_http_waiting, st, entry);
	MHD_suspend_connection(st->c);
	pthread_mutex_unlock(&muxweb_http_lock);
	return (0);
}

/* A browser's event stream has ended. */
static void
muxweb_http_events_free(void *arg)
{
	struct muxweb_stream	*st = arg;

	free(st->pending);
	free(st);
}

/*
 * Start a browser's event stream from the newest event on, or after the
 * line it names (?after=N, or Last-Event-ID when it comes back).
 */
static enum MHD_Result
muxweb_http_events(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci;
	struct MHD_Response	*r;
	struct muxweb_stream	*st;
	enum MHD_Result		 ret;
	const char		*after;
	char			*end;
	unsigned long long	 n;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return (MHD_NO);
	st->c = c;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	st->fd = ci != NULL ? ci->connect_fd : -1;
	st->seen = muxweb_ring_head();
	if ((after = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
	    "after")) == NULL)
		after = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
		    "Last-Event-ID");
	if (after != NULL && *after != '\0') {
		n = strtoull(after, &end, 10);
		if (*end == '\0' && n < st->seen)
			st->seen = n;
	}
	pthread_mutex_lock(&muxweb_http_lock);
	st->tick = muxweb_http_tick;
	pthread_mutex_unlock(&muxweb_http_lock);
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096,
	    muxweb_http_events_read, st, muxweb_http_events_free);
	if (r == NULL) {
		free(st);
		return (MHD_NO);
	}
	MHD_add_response_header(r, "Content-Type", "text/event-stream");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	muxweb_guard_headers(r, "text/event-stream", "", 0);
	/* A stream is a request under way: never idle, however quiet. */
	MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT,
	    (unsigned int)0);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return (ret);
}

/* Resume every suspended stream (the caller holds muxweb_http_lock). */
static void
muxweb_http_resume(void)
{
	struct muxweb_stream	*st;

	while ((st = LIST_FIRST(&muxweb_http_waiting)) != NULL) {
		LIST_REMOVE(st, entry);
		MHD_resume_connection(st->c);
	}
}

/* The ring has a new line: resume the streams waiting for one. */
void
muxweb_http_wake(void)
{
	pthread_mutex_lock(&muxweb_http_lock);
	muxweb_http_resume();
	pthread_mutex_unlock(&muxweb_http_lock);
}

/*
 * Let go of the suspended streams whose browsers went away (hung up or
 * closed their side): each is resumed marked gone, and libmicrohttpd
 * closes it.  A suspended connection stays open, so its socket is its
 * own while the caller holds muxweb_http_lock.  *pfd and *size: the
 * poll(2) array, kept from one look to the next.
 */
static void
muxweb_http_reap(struct pollfd **pfd, size_t *size)
{
	struct muxweb_stream	*st, *next;
	size_t			 n = 0, i;

	LIST_FOREACH(st, &muxweb_http_waiting, entry) {
		if (st->fd < 0)
			continue;
		if (n == *size) {
			*size = *size != 0 ? 2 * *size : 64;
			*pfd = xreallocarray(*pfd, *size, sizeof(**pfd));
		}
		(*pfd)[n].fd = st->fd;
		(*pfd)[n++].events = POLLRDHUP; /* not POLLIN: a browser may
						   send more, and stay */
	}
	if (n == 0 || poll(*pfd, n, 0) <= 0)
		return;
	i = 0;
	for (st = LIST_FIRST(&muxweb_http_waiting); st != NULL; st = next) {
		next = LIST_NEXT(st, entry);
		if (st->fd < 0)
			continue;
		if ((*pfd)[i++].revents != 0) {
			st->gone = 1;
			LIST_REMOVE(st, entry);
			MHD_resume_connection(st->c);
		}
	}
}

/*
 * The keepalive's thread: a tick every MUXWEB_HTTP_KEEPALIVE seconds, and
 * every MUXWEB_HTTP_WATCH a look for the browsers that went away.
 */
static void *
muxweb_http_ticker(void *arg)
{
	struct pollfd	*pfd = NULL;
	size_t		 size = 0;
	struct timespec	 until;
	int		 i;

	(void)arg;
	pthread_mutex_lock(&muxweb_http_lock);
	while (!muxweb_http_stopping) {
		for (i = 0; i < MUXWEB_HTTP_KEEPALIVE / MUXWEB_HTTP_WATCH &&
		    !muxweb_http_stopping; i++) {
			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_sec += MUXWEB_HTTP_WATCH;
			while (!muxweb_http_stopping &&
			    pthread_cond_timedwait(&muxweb_http_cond,
			    &muxweb_http_lock, &until) == 0)
				;
			muxweb_http_reap(&pfd, &size);
			muxweb_guard_sweep();
		}
		muxweb_http_tick++;
		muxweb_http_resume();
	}
	pthread_mutex_unlock(&muxweb_http_lock);
	free(pfd);
	return (NULL);
}

/* Run a round command (the request holds the token). */
static enum MHD_Result
muxweb_http_command(struct MHD_Connection *c, const char *url)
{
	const char	*arg;
	char		 err[MUXWEB_ERRLEN];
	json_t		*args = NULL, *res;
	const char	*cmd;

	if (strcmp(url, "/round/start") == 0) {
		cmd = protocol_cmd_name(PROTOCOL_CMD_ROUND_START);
		arg = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
		    "n");
		if (arg == NULL || atoi(arg) < 1)
			return (muxweb_http_json(c, MHD_HTTP_BAD_REQUEST,
			    NULL, "round start needs n=ROUND"));
		args = json_pack("{si}", "round", atoi(arg));
	} else if (strcmp(url, "/round/stop") == 0)
		cmd = protocol_cmd_name(PROTOCOL_CMD_ROUND_STOP);
	else if (strcmp(url, "/release") == 0) {
		cmd = protocol_cmd_name(PROTOCOL_CMD_RELEASE);
		arg = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
		    "link");
		if (arg == NULL)
			return (muxweb_http_json(c, MHD_HTTP_BAD_REQUEST,
			    NULL, "release needs link=LINK"));
		args = json_pack("{ss}", "target", arg);
	} else
		return (muxweb_http_json(c, MHD_HTTP_NOT_FOUND, NULL,
		    "no such command"));
	res = muxweb_muxd_call(cmd, args, err, sizeof(err));
	json_decref(args);
	return (muxweb_http_json(c, res != NULL ? MHD_HTTP_OK :
	    MHD_HTTP_CONFLICT, res, err));
}

/*
 * Answer a request that may take time: a command, the status, the audit's
 * pages; in a job's thread.
 */
static enum MHD_Result
muxweb_http_answer(struct muxweb_http *h, struct MHD_Connection *c,
    const char *url, int post)
{
	char			 err[MUXWEB_ERRLEN], *body;
	const char		*type;
	size_t			 len;
	unsigned int		 status;
	json_t			*res;

	(void)h;
	if (post)
		return (muxweb_http_command(c, url));
	if (strcmp(url, "/screens") == 0) {
		res = muxweb_muxd_screens(err, sizeof(err));
		return (muxweb_http_json(c, res != NULL ? MHD_HTTP_OK :
		    MHD_HTTP_BAD_GATEWAY, res, err));
	}
	if (strcmp(url, "/status") == 0) {
		res = muxweb_muxd_call(protocol_cmd_name(PROTOCOL_CMD_STATUS),
		    NULL, err, sizeof(err));
		return (muxweb_http_json(c, res != NULL ? MHD_HTTP_OK :
		    MHD_HTTP_BAD_GATEWAY, res, err));
	}
	if ((status = muxweb_audit_get(url, &body, &len, &type)) != 0) {
		if (body == NULL)
			return (muxweb_http_json(c, status, NULL,
			    "no such file"));
		return (muxweb_http_reply_len(c, status, type, body, len));
	}
	return (muxweb_http_json(c, MHD_HTTP_NOT_FOUND, NULL, "no such page"));
}

/* A job's thread: answer its request, and give the connection back. */
static void *
muxweb_http_job(void *arg)
{
	struct muxweb_job	*j = arg;

	muxweb_http_answer(j->h, j->c, j->url, j->post);
	MHD_resume_connection(j->c);
	pthread_mutex_lock(&muxweb_http_lock);
	muxweb_http_jobs--;
	pthread_cond_broadcast(&muxweb_http_cond);
	pthread_mutex_unlock(&muxweb_http_lock);
	free(j->url);
	free(j);
	return (NULL);
}

/*
 * Hand a request that may take time to a thread of its own, its
 * connection suspended until the reply is queued; 503 when
 * MUXWEB_HTTP_WORKERS are under way.
 */
static enum MHD_Result
muxweb_http_hand(struct muxweb_http *h, struct MHD_Connection *c,
    const char *url, int post, void **state)
{
	struct muxweb_job	*j;
	char			 why[128];
	pthread_attr_t		 a;
	pthread_t		 t;
	int			 e;

	pthread_mutex_lock(&muxweb_http_lock);
	if (muxweb_http_stopping || muxweb_http_jobs >= MUXWEB_HTTP_WORKERS) {
		if (muxweb_http_stopping)
			snprintf(why, sizeof(why), "muxweb is stopping");
		else
			snprintf(why, sizeof(why), "muxweb is busy: %d "
			    "requests already wait for muxd or the audit's "
			    "files; try again", MUXWEB_HTTP_WORKERS);
		pthread_mutex_unlock(&muxweb_http_lock);
		return (muxweb_http_json(c, MHD_HTTP_SERVICE_UNAVAILABLE,
		    NULL, why));
	}
	muxweb_http_jobs++;
	pthread_mutex_unlock(&muxweb_http_lock);
	j = xcalloc(1, sizeof(*j));
	j->url = xstrdup(url);
	j->h = h;
	j->c = c;
	j->post = post;
	*state = &muxweb_http_asked;
	MHD_suspend_connection(c);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	e = pthread_create(&t, &a, muxweb_http_job, j);
	pthread_attr_destroy(&a);
	if (e != 0)			/* answered here, then */
		muxweb_http_job(j);
	return (MHD_YES);
}

/*
 * Answer a request without the token: 401, a page that says how to come
 * in for the pages, else JSON.
 */
static enum MHD_Result
muxweb_http_denied(struct MHD_Connection *c, const char *url)
{
	if (strcmp(url, "/") == 0 || strcmp(url, "/audit") == 0)
		return (muxweb_http_reply(c, MHD_HTTP_UNAUTHORIZED,
		    "text/html; charset=utf-8", "<!DOCTYPE html>\n"
		    "<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<title>muxweb: the room's link is needed</title></head>"
		    "<body><h1>The room's link is needed</h1><p>This page "
		    "shows a contest room: open it with the login link that "
		    "muxweb printed when it started (/login?token=...), which "
		    "the room's operator gives to the referees. See "
		    "muxweb(8).</p></body></html>\n"));
	return (muxweb_http_json(c, MHD_HTTP_UNAUTHORIZED, NULL,
	    "the room's token is needed: an Authorization: Bearer header, "
	    "or the cookie of the login link"));
}

/* Answer a request. */
static enum MHD_Result
muxweb_http_request(void *arg, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *data,
    size_t *datalen, void **state)
{
	struct muxweb_http	*h = arg;

	(void)version;
	(void)data;
	if (*state == NULL) {		/* the headers: wait for the body */
		*state = h;
		muxweb_guard_asked(c, 1);
		return (MHD_YES);
	}
	if (*datalen != 0) {		/* a body is not read */
		*datalen = 0;
		return (MHD_YES);
	}
	if (*state == &muxweb_http_asked)	/* its job queued no reply */
		return (MHD_NO);
	if (strcmp(url, "/login") == 0 && strcmp(method, "GET") == 0)
		return (muxweb_guard_login(c));
	if (strcmp(url, "/favicon.ico") == 0)
		return (muxweb_http_reply(c, MHD_HTTP_OK, "image/svg+xml",
		    muxweb_http_icon));
	if (!muxweb_guard_allowed(c, url))
		return (muxweb_http_denied(c, url));
	if (strcmp(method, "POST") == 0)
		return (muxweb_http_hand(h, c, url, 1, state));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return (muxweb_http_json(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL,
		    "GET or POST"));
	if (strcmp(url, "/") == 0)
		return (muxweb_http_reply(c, MHD_HTTP_OK,
		    "text/html; charset=utf-8", muxweb_page_live));
	if (strcmp(url, "/events") == 0)
		return (muxweb_http_events(c));
	return (muxweb_http_hand(h, c, url, 0, state));
}

/*
 * The connections muxweb can take: MUXWEB_HTTP_CLIENTS, the soft limit on
 * descriptors raised for them as far as the hard limit allows (the soft
 * limit is often 1024), with MUXWEB_HTTP_SPARE kept for the rest; fewer
 * when the limit is lower, and said.  Past the descriptor limit a
 * connection would wait unanswered, where past this one it is closed.
 */
static unsigned int
muxweb_http_nofile(void)
{
	struct rlimit	rl;
	rlim_t		want = MUXWEB_HTTP_CLIENTS + MUXWEB_HTTP_SPARE;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return (MUXWEB_HTTP_CLIENTS);
	if (rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max != RLIM_INFINITY &&
		    rl.rlim_max < want ? rl.rlim_max : want;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur >= want)
		return (MUXWEB_HTTP_CLIENTS);
	rl.rlim_cur = rl.rlim_cur > MUXWEB_HTTP_SPARE + 16 ?
	    rl.rlim_cur - MUXWEB_HTTP_SPARE : 16;
	fprintf(stderr, "muxweb: %llu connections at most, not %d: the limit "
	    "on open files (RLIMIT_NOFILE) is too low for more\n",
	    (unsigned long long)rl.rlim_cur, MUXWEB_HTTP_CLIENTS);
	return ((unsigned int)rl.rlim_cur);
}

/*
 * Listen on [HOST:]PORT (loopback without a host, every address with
 * "*"), with a limit on the connections of one address and the idle time
 * in seconds (0: none); NULL with a reason.
 */
struct muxweb_http *
muxweb_http_start(const char *listen, const char *service,
    unsigned int per_address, unsigned int idle, char *err, size_t errlen)
{
	struct muxweb_http	*h;
	struct addrinfo		 hints, *res;
	pthread_condattr_t	 ca;
	unsigned int		 clients;
	int			 r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((r = getaddrinfo(listen != NULL && strcmp(listen, "*") == 0 ?
	    NULL : listen != NULL ? listen : "127.0.0.1", service, &hints,
	    &res)) != 0) {
		snprintf(err, errlen, "%s:%s: %s", listen != NULL ? listen :
		    "127.0.0.1", service, gai_strerror(r));
		return (NULL);
	}
	h = xcalloc(1, sizeof(*h));
	clients = muxweb_http_nofile();
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&muxweb_http_cond, &ca);
	pthread_condattr_destroy(&ca);
	h->mhd = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD |
	    MHD_ALLOW_SUSPEND_RESUME | (res->ai_family == AF_INET6 ?
	    MHD_USE_IPv6 : 0), 0, NULL, NULL, muxweb_http_request, h,
	    MHD_OPTION_SOCK_ADDR, res->ai_addr,
	    MHD_OPTION_CONNECTION_LIMIT, clients,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
	    MHD_OPTION_CONNECTION_TIMEOUT, idle,
	    MHD_OPTION_NOTIFY_CONNECTION, muxweb_guard_notify, NULL,
	    MHD_OPTION_NOTIFY_COMPLETED, muxweb_guard_completed, NULL,
	    MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
	    MHD_OPTION_END);
	freeaddrinfo(res);
	if (h->mhd == NULL) {
		snprintf(err, errlen, "cannot listen on %s:%s",
		    listen != NULL ? listen : "127.0.0.1", service);
		goto fail;
	}
	if ((r = pthread_create(&h->ticker, NULL, muxweb_http_ticker,
	    NULL)) != 0) {
		snprintf(err, errlen, "cannot start the keepalive thread: %s",
		    strerror(r));
		MHD_stop_daemon(h->mhd);
		goto fail;
	}
	return (h);
fail:
	free(h);
	return (NULL);
}

/*
 * Stop serving: the streams end, the requests under way are answered
 * first.
 */
void
muxweb_http_stop(struct muxweb_http *h)
{
	pthread_mutex_lock(&muxweb_http_lock);
	muxweb_http_stopping = 1;
	pthread_cond_broadcast(&muxweb_http_cond);
	muxweb_http_resume();
	while (muxweb_http_jobs > 0)
		pthread_cond_wait(&muxweb_http_cond, &muxweb_http_lock);
	pthread_mutex_unlock(&muxweb_http_lock);
	pthread_join(h->ticker, NULL);
	MHD_stop_daemon(h->mhd);
	free(h);
}
