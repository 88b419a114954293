/*
 * The HTTP side (libmicrohttpd, a thread a connection, bound to loopback
 * unless told otherwise):
 *
 *	GET  /			the live room page
 *	GET  /status		muxd's status, as JSON
 *	GET  /events		muxd's events as server-sent events, the
 *				ring's lines from the newest on (id: N,
 *				data: the event line), a comment every 15 s
 *	/audit..., /player/...	the auditor's pages (muxweb-audit.c)
 *	POST /round/start?n=N	round commands: only with a token, given as
 *	POST /round/stop	"Authorization: Bearer TOKEN"; without a
 *	POST /release?link=L	token file muxweb is read-only
 *
 * A reply to a command is muxd's result, or its error with status 409;
 * a missing or wrong token is 403.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "protocol.h"
#include "muxweb.h"

#define MUXWEB_HTTP_KEEPALIVE	15	/* seconds between comments */
#define MUXWEB_HTTP_CLIENTS	256	/* connections at once */

struct muxweb_http {
	struct MHD_Daemon	*mhd;
	char			*token;		/* NULL: read-only */
};

/* One browser's event stream: the last line it was sent, what is left. */
struct muxweb_stream {
	uint64_t	 seen;
	char		*pending;
	size_t		 len, off;
};

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

/* Give a browser the next part of the event stream; block while none. */
static ssize_t
muxweb_http_events_read(void *arg, uint64_t pos, char *buf, size_t max)
{
	struct muxweb_stream	*st = arg;
	char			*line;
	size_t			 n;
	int			 r;

	(void)pos;
	if (st->off == st->len) {
		free(st->pending);
		st->pending = NULL;
		st->off = st->len = 0;
		if ((line = muxweb_ring_next(&st->seen,
		    MUXWEB_HTTP_KEEPALIVE)) == NULL)
			r = asprintf(&st->pending, ": muxweb\n\n");
		else {
			r = asprintf(&st->pending, "id: %llu\ndata: %s\n\n",
			    (unsigned long long)st->seen, line);
			free(line);
		}
		if (r == -1)
			return (MHD_CONTENT_READER_END_WITH_ERROR);
		st->len = (size_t)r;
	}
	n = st->len - st->off < max ? st->len - st->off : max;
	memcpy(buf, st->pending + st->off, n);
	st->off += n;
	return ((ssize_t)n);
}

/* A browser's event stream has ended. */
static void
muxweb_http_events_free(void *arg)
{
	struct muxweb_stream	*st = arg;

	free(st->pending);
	free(st);
}

/* Start a browser's event stream from the newest event on. */
static enum MHD_Result
muxweb_http_events(struct MHD_Connection *c)
{
	struct MHD_Response	*r;
	struct muxweb_stream	*st;
	enum MHD_Result		 ret;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		return (MHD_NO);
	st->seen = muxweb_ring_head();
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096,
	    muxweb_http_events_read, st, muxweb_http_events_free);
	if (r == NULL) {
		free(st);
		return (MHD_NO);
	}
	MHD_add_response_header(r, "Content-Type", "text/event-stream");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return (ret);
}

/* Run a round command for a browser that holds the token. */
static enum MHD_Result
muxweb_http_command(struct muxweb_http *h, struct MHD_Connection *c,
    const char *url)
{
	const char	*auth, *arg;
	char		 err[MUXWEB_ERRLEN];
	json_t		*args = NULL, *res;
	const char	*cmd;

	auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_AUTHORIZATION);
	if (h->token == NULL)
		return (muxweb_http_json(c, MHD_HTTP_FORBIDDEN, NULL,
		    "muxweb is read-only (no token file)"));
	if (auth == NULL || strncmp(auth, "Bearer ", 7) != 0 ||
	    strcmp(auth + 7, h->token) != 0)
		return (muxweb_http_json(c, MHD_HTTP_FORBIDDEN, NULL,
		    "a command needs the token"));
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
		args = json_pack("{ss}", "link", arg);
	} else
		return (muxweb_http_json(c, MHD_HTTP_NOT_FOUND, NULL,
		    "no such command"));
	res = muxweb_muxd_call(cmd, args, err, sizeof(err));
	json_decref(args);
	return (muxweb_http_json(c, res != NULL ? MHD_HTTP_OK :
	    MHD_HTTP_CONFLICT, res, err));
}

/* Answer a request. */
static enum MHD_Result
muxweb_http_request(void *arg, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *data,
    size_t *datalen, void **state)
{
	struct muxweb_http	*h = arg;
	char			 err[MUXWEB_ERRLEN], *body;
	const char		*type;
	size_t			 len;
	unsigned int		 status;
	json_t			*res;

	(void)version;
	(void)data;
	if (*state == NULL) {		/* the headers: wait for the body */
		*state = h;
		return (MHD_YES);
	}
	if (*datalen != 0) {		/* a body is not read */
		*datalen = 0;
		return (MHD_YES);
	}
	if (strcmp(method, "POST") == 0)
		return (muxweb_http_command(h, c, url));
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return (muxweb_http_json(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL,
		    "GET or POST"));
	if (strcmp(url, "/") == 0)
		return (muxweb_http_reply(c, MHD_HTTP_OK,
		    "text/html; charset=utf-8", muxweb_page_live));
	if (strcmp(url, "/status") == 0) {
		res = muxweb_muxd_call(protocol_cmd_name(PROTOCOL_CMD_STATUS),
		    NULL, err, sizeof(err));
		return (muxweb_http_json(c, res != NULL ? MHD_HTTP_OK :
		    MHD_HTTP_BAD_GATEWAY, res, err));
	}
	if (strcmp(url, "/events") == 0)
		return (muxweb_http_events(c));
	if ((status = muxweb_audit_get(url, &body, &len, &type)) != 0) {
		if (body == NULL)
			return (muxweb_http_json(c, status, NULL,
			    "no such file"));
		return (muxweb_http_reply_len(c, status, type, body, len));
	}
	return (muxweb_http_json(c, MHD_HTTP_NOT_FOUND, NULL, "no such page"));
}

/*
 * Listen on [HOST:]PORT (loopback without a host, every address with
 * "*"), with the token for commands or NULL; NULL with a reason.
 */
struct muxweb_http *
muxweb_http_start(const char *listen, const char *service, const char *token,
    char *err, size_t errlen)
{
	struct muxweb_http	*h;
	struct addrinfo		 hints, *res;
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
	if ((h = calloc(1, sizeof(*h))) == NULL ||
	    (token != NULL && (h->token = strdup(token)) == NULL))
		abort();
	h->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
	    MHD_USE_THREAD_PER_CONNECTION | (res->ai_family == AF_INET6 ?
	    MHD_USE_IPv6 : 0), 0, NULL, NULL, muxweb_http_request, h,
	    MHD_OPTION_SOCK_ADDR, res->ai_addr,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MUXWEB_HTTP_CLIENTS,
	    MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
	    MHD_OPTION_END);
	freeaddrinfo(res);
	if (h->mhd == NULL) {
		snprintf(err, errlen, "cannot listen on %s:%s",
		    listen != NULL ? listen : "127.0.0.1", service);
		free(h->token);
		free(h);
		return (NULL);
	}
	return (h);
}

/* Stop serving. */
void
muxweb_http_stop(struct muxweb_http *h)
{
	MHD_stop_daemon(h->mhd);
	free(h->token);
	free(h);
}
