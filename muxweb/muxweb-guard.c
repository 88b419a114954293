/*
 * Who may see the room, and what a connection may cost.
 *
 * Every page, stream, file and command of muxweb needs the room's token,
 * but the live page and its stream when the room makes them public (-P):
 * a browser is given it once, by the login link (/login?token=T), and
 * holds it in a cookie; a program sends it in an "Authorization: Bearer
 * T" header.  Without a token file muxweb makes a token, and prints the
 * login link.  The room's entries and confederates' typing, the captures
 * and the round commands are thus no one's who has not been given the
 * link, not even another program on the host.
 *
 * A connection that has sent no whole request within the idle time of
 * its start or of its last reply is closed, whether it sends nothing or
 * a byte now and then, and each address has a limit on its connections
 * at once (libmicrohttpd's), so that one machine cannot take every place
 * and lock the referee out.  An event stream is a request under way, and
 * is not closed.
 *
 * Every reply says what a browser may do with it: a Content-Security-
 * Policy that allows the page's own inline scripts by their hashes and
 * nothing from elsewhere, nosniff, no framing, no referrer.
 */
#include <sys/queue.h>
#include <sys/socket.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>
#include <sodium.h>

#include "protocol.h"
#include "muxweb.h"

#define MUXWEB_GUARD_COOKIE	"muxweb"
#define MUXWEB_GUARD_TOKENLEN	24	/* random bytes of a made token */
#define MUXWEB_GUARD_CSP	4096

/* A connection: its socket, when its wait began, whether it has asked. */
struct muxweb_guard_conn {
	int			 fd;
	time_t			 since;
	int			 asked;
	LIST_ENTRY(muxweb_guard_conn) entry;
};

static LIST_HEAD(, muxweb_guard_conn) muxweb_guard_conns =
    LIST_HEAD_INITIALIZER(muxweb_guard_conns);
static pthread_mutex_t	 muxweb_guard_lock = PTHREAD_MUTEX_INITIALIZER;
static char		*muxweb_guard_token;
static int		 muxweb_guard_public;
static unsigned int	 muxweb_guard_idle;

/* The monotonic clock, in seconds. */
static time_t
muxweb_guard_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec);
}

/*
 * Take the room's token (a copy; NULL: make one), whether the live page
 * is public, and the idle time in seconds; the token, or NULL when
 * libsodium cannot start.
 */
const char *
muxweb_guard_init(const char *token, int public, unsigned int idle)
{
	unsigned char	 raw[MUXWEB_GUARD_TOKENLEN];
	size_t		 len;

	if (sodium_init() < 0)
		return (NULL);
	muxweb_guard_public = public;
	muxweb_guard_idle = idle;
	if (token != NULL) {
		muxweb_guard_token = xstrdup(token);
		return (muxweb_guard_token);
	}
	randombytes_buf(raw, sizeof(raw));
	len = sodium_base64_ENCODED_LEN(sizeof(raw),
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	muxweb_guard_token = xmalloc(len);
	sodium_bin2base64(muxweb_guard_token, len, raw, sizeof(raw),
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return (muxweb_guard_token);
}

/* Let the token go. */
void
muxweb_guard_free(void)
{
	free(muxweb_guard_token);
	muxweb_guard_token = NULL;
}

/* Whether text is the token, in a time that does not tell how close. */
static int
muxweb_guard_match(const char *text, size_t len)
{
	size_t	n = strlen(muxweb_guard_token);

	return (text != NULL && len == n &&
	    sodium_memcmp(text, muxweb_guard_token, n) == 0);
}

/* The token a request carries in its cookie; NULL, or its length in *len. */
static const char *
muxweb_guard_cookie(struct MHD_Connection *c, size_t *len)
{
	const char	*v;

	v = MHD_lookup_connection_value(c, MHD_COOKIE_KIND,
	    MUXWEB_GUARD_COOKIE);
	*len = v != NULL ? strlen(v) : 0;
	return (v);
}

/*
 * Whether a request may have url: it carries the token (bearer or
 * cookie), or it asks for the live page or its stream of a public room.
 */
int
muxweb_guard_allowed(struct MHD_Connection *c, const char *url)
{
	const char	*v;
	size_t		 len;

	if (muxweb_guard_public && (strcmp(url, "/") == 0 ||
	    strcmp(url, "/events") == 0 || strcmp(url, "/status") == 0))
		return (1);
	v = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_AUTHORIZATION);
	if (v != NULL && strncmp(v, "Bearer ", 7) == 0 &&
	    muxweb_guard_match(v + 7, strlen(v + 7)))
		return (1);
	v = muxweb_guard_cookie(c, &len);
	return (muxweb_guard_match(v, len));
}

/*
 * The Content-Security-Policy of a reply: for a page, its inline scripts
 * allowed by their SHA-256 (and WebAssembly, which the player compiles);
 * for anything else, nothing at all.  Into buf; 0, or -1 when it does not
 * fit.
 */
static int
muxweb_guard_csp(const char *type, const char *body, size_t len, char *buf,
    size_t size)
{
	unsigned char	 h[crypto_hash_sha256_BYTES];
	char		 b64[sodium_base64_ENCODED_LEN(crypto_hash_sha256_BYTES,
			    sodium_base64_VARIANT_ORIGINAL)];
	const char	*p, *end = body + len, *gt, *close;
	int		 n;

	if (strncmp(type, "text/html", 9) != 0) {
		n = snprintf(buf, size, "default-src 'none'; "
		    "frame-ancestors 'none'; sandbox");
		return (n < 0 || (size_t)n >= size ? -1 : 0);
	}
	n = snprintf(buf, size, "default-src 'none'; script-src 'self' "
	    "'wasm-unsafe-eval'");
	for (p = body; n > 0 && (size_t)n < size &&
	    (p = memmem(p, (size_t)(end - p), "<script", 7)) != NULL;
	    p = close) {
		if ((gt = memchr(p, '>', (size_t)(end - p))) == NULL ||
		    (close = memmem(gt, (size_t)(end - gt), "</script>", 9)) ==
		    NULL)
			break;
		if (close == gt + 1)	/* <script src=...></script> */
			continue;
		crypto_hash_sha256(h, (const unsigned char *)gt + 1,
		    (unsigned long long)(close - gt - 1));
		sodium_bin2base64(b64, sizeof(b64), h, sizeof(h),
		    sodium_base64_VARIANT_ORIGINAL);
		n += snprintf(buf + n, size - (size_t)n, " 'sha256-%s'", b64);
	}
	if (n > 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "; style-src 'self' "
		    "'unsafe-inline'; img-src 'self' data:; font-src 'self' "
		    "data:; connect-src 'self'; base-uri 'none'; "
		    "form-action 'self'; frame-ancestors 'none'");
	return (n < 0 || (size_t)n >= size ? -1 : 0);
}

/* Add what a browser may do with a reply of type to its headers. */
void
muxweb_guard_headers(struct MHD_Response *r, const char *type,
    const char *body, size_t len)
{
	char	csp[MUXWEB_GUARD_CSP];

	if (muxweb_guard_csp(type, body, len, csp, sizeof(csp)) == -1)
		snprintf(csp, sizeof(csp), "default-src 'none'; "
		    "frame-ancestors 'none'");
	MHD_add_response_header(r, "Content-Security-Policy", csp);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
}

/*
 * The login link: with the token, a cookie that holds it and the way to
 * the page asked for (next=, a path of muxweb's) or the live page; else
 * 403.
 */
enum MHD_Result
muxweb_guard_login(struct MHD_Connection *c)
{
	struct MHD_Response	*r;
	const char		*t, *next;
	char			 cookie[512];
	enum MHD_Result		 ret;
	int			 ok;

	t = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
	next = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "next");
	if (next == NULL || next[0] != '/' || next[1] == '/' ||
	    strpbrk(next, "\r\n\\") != NULL)
		next = "/";
	ok = t != NULL && muxweb_guard_match(t, strlen(t));
	r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return (MHD_NO);
	muxweb_guard_headers(r, "text/plain", "", 0);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	if (ok) {
		snprintf(cookie, sizeof(cookie), "%s=%s; Path=/; HttpOnly; "
		    "SameSite=Strict", MUXWEB_GUARD_COOKIE, muxweb_guard_token);
		MHD_add_response_header(r, "Set-Cookie", cookie);
		MHD_add_response_header(r, "Location", next);
	}
	ret = MHD_queue_response(c, ok ? MHD_HTTP_SEE_OTHER :
	    MHD_HTTP_FORBIDDEN, r);
	MHD_destroy_response(r);
	return (ret);
}

/*
 * libmicrohttpd's word on a connection: one opened joins the watched,
 * its wait from now; one closed leaves.
 */
void
muxweb_guard_notify(void *arg, struct MHD_Connection *c, void **ctx,
    enum MHD_ConnectionNotificationCode what)
{
	const union MHD_ConnectionInfo	*ci;
	struct muxweb_guard_conn	*g;

	(void)arg;
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		g = xcalloc(1, sizeof(*g));
		ci = MHD_get_connection_info(c,
		    MHD_CONNECTION_INFO_CONNECTION_FD);
		g->fd = ci != NULL ? ci->connect_fd : -1;
		g->since = muxweb_guard_now();
		pthread_mutex_lock(&muxweb_guard_lock);
		LIST_INSERT_HEAD(&muxweb_guard_conns, g, entry);
		pthread_mutex_unlock(&muxweb_guard_lock);
		*ctx = g;
	} else if (what == MHD_CONNECTION_NOTIFY_CLOSED && *ctx != NULL) {
		g = *ctx;
		pthread_mutex_lock(&muxweb_guard_lock);
		LIST_REMOVE(g, entry);
		pthread_mutex_unlock(&muxweb_guard_lock);
		free(g);
		*ctx = NULL;
	}
}

/* Mark a connection's request as asked (1) or answered (0). */
void
muxweb_guard_asked(struct MHD_Connection *c, int asked)
{
	const union MHD_ConnectionInfo	*ci;
	struct muxweb_guard_conn	*g;

	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (ci == NULL || (g = ci->socket_context) == NULL)
		return;
	pthread_mutex_lock(&muxweb_guard_lock);
	g->asked = asked;
	g->since = muxweb_guard_now();
	pthread_mutex_unlock(&muxweb_guard_lock);
}

/* A request has been answered (or given up): its connection waits anew. */
void
muxweb_guard_completed(void *arg, struct MHD_Connection *c, void **state,
    enum MHD_RequestTerminationCode why)
{
	(void)arg;
	(void)state;
	(void)why;
	muxweb_guard_asked(c, 0);
}

/*
 * Close the connections that have waited longer than the idle time
 * without asking: their sockets are shut down, and libmicrohttpd closes
 * them.  Called every second or so.
 */
void
muxweb_guard_sweep(void)
{
	struct muxweb_guard_conn	*g;
	time_t				 now = muxweb_guard_now();

	if (muxweb_guard_idle == 0)
		return;
	pthread_mutex_lock(&muxweb_guard_lock);
	LIST_FOREACH(g, &muxweb_guard_conns, entry)
		if (!g->asked && g->fd >= 0 &&
		    now - g->since > (time_t)muxweb_guard_idle) {
			shutdown(g->fd, SHUT_RDWR);
			g->fd = -1;
		}
	pthread_mutex_unlock(&muxweb_guard_lock);
}
