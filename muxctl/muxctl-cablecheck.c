/*
 * muxctl cablecheck [PORT ...]: ask muxd to write a banner naming each
 * port on its line and to watch for the banners coming back (see
 * cablecheck.c), then print which port answered where.
 *
 * One connection: "watch" first, so that the outcome event cannot be
 * missed, then "cablecheck"; its reply says which ports were checked and
 * which skipped, and the "cablecheck" event with the same check number
 * brings the outcome.  With -j both are printed as muxd sent them.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "muxctl.h"

#define MUXCTL_CC_LINE	65536
#define MUXCTL_CC_SLACK	10000	/* ms beyond muxd's window */

struct muxctl_cc {
	int		 fd;
	const char	*path;
	char		 buf[MUXCTL_CC_LINE + 1];
	size_t		 len;
};

static json_t	*muxctl_cc_next(struct muxctl_cc *, long long, char **);
static void	 muxctl_cc_send(struct muxctl_cc *, json_t *);
static long long muxctl_cc_now(void);
static void	 muxctl_cc_print(const json_t *, const json_t *);

/* Milliseconds on the monotonic clock. */
static long long
muxctl_cc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Send one request line, taking the object. */
static void
muxctl_cc_send(struct muxctl_cc *c, json_t *req)
{
	char	*s;
	size_t	 n, off = 0;
	ssize_t	 w;

	if (req == NULL || (s = json_dumps(req, JSON_COMPACT)) == NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	json_decref(req);
	n = strlen(s);
	s[n++] = '\n';		/* json_dumps's NUL is not sent */
	while (off < n) {
		if ((w = send(c->fd, s + off, n - off, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR)
				continue;
			err(PROTOCOL_EXIT_PROTOCOL, "%s", c->path);
		}
		off += (size_t)w;
	}
	free(s);
}

/*
 * Read the next JSON object line from muxd before the deadline; its text
 * in *text (valid until the next call).  Exits on EOF, timeout or garbage.
 */
static json_t *
muxctl_cc_next(struct muxctl_cc *c, long long deadline, char **text)
{
	static char	 line[MUXCTL_CC_LINE + 1];
	struct pollfd	 pfd;
	json_error_t	 jerr;
	json_t		*o;
	char		*nl;
	long long	 left;
	ssize_t		 n;
	size_t		 ll;

	for (;;) {
		if ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
			ll = (size_t)(nl - c->buf);
			memcpy(line, c->buf, ll);
			line[ll] = '\0';
			memmove(c->buf, nl + 1, c->len - ll - 1);
			c->len -= ll + 1;
			if (ll == 0)
				continue;
			if ((o = json_loads(line, 0, &jerr)) == NULL ||
			    !json_is_object(o))
				errx(PROTOCOL_EXIT_PROTOCOL, "%s: malformed line "
				    "from muxd", c->path);
			*text = line;
			return (o);
		}
		if (c->len == MUXCTL_CC_LINE)
			errx(PROTOCOL_EXIT_PROTOCOL, "%s: line longer than %d "
			    "bytes", c->path, MUXCTL_CC_LINE);
		if ((left = deadline - muxctl_cc_now()) <= 0)
			errx(PROTOCOL_EXIT_UNREACHABLE, "%s: no outcome from "
			    "muxd in time", c->path);
		pfd.fd = c->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left) == -1 && errno != EINTR)
			err(PROTOCOL_EXIT_PROTOCOL, "poll");
		n = read(c->fd, c->buf + c->len, MUXCTL_CC_LINE - c->len);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			errx(PROTOCOL_EXIT_PROTOCOL, "%s: connection closed "
			    "before the outcome", c->path);
		c->len += (size_t)n;
	}
}

/* Print the outcome for people: one port a line, then what was skipped. */
static void
muxctl_cc_print(const json_t *started, const json_t *ev)
{
	const json_t	*r, *h;
	const char	*port, *res, *why;
	size_t		 i, j, n, w = 4;
	char		 heard[1024];

	json_array_foreach(json_object_get(ev, "results"), i, r)
		if ((port = muxctl_get_str(r, "port")) != NULL &&
		    strlen(port) > w)
			w = strlen(port);
	printf("%-*s  %-8s  %s\n", (int)w, "PORT", "RESULT",
	    "BANNER CAME BACK ON");
	json_array_foreach(json_object_get(ev, "results"), i, r) {
		port = muxctl_get_str(r, "port");
		res = muxctl_get_str(r, "result");
		heard[0] = '\0';
		n = 0;
		json_array_foreach(json_object_get(r, "heard_on"), j, h) {
			if (!json_is_string(h) || n >= sizeof(heard))
				continue;
			n += snprintf(heard + n, sizeof(heard) - n, "%s%s",
			    n > 0 ? " " : "", json_string_value(h));
		}
		printf("%-*s  %-8s  %s\n", (int)w, port != NULL ? port : "?",
		    res != NULL ? res : "?", heard[0] != '\0' ? heard :
		    "- (no loopback plug, nor a cable to another port)");
	}
	json_array_foreach(json_object_get(started, "skipped"), i, r) {
		port = muxctl_get_str(r, "port");
		why = muxctl_get_str(r, "skipped");
		printf("%-*s  skipped   %s\n", (int)w,
		    port != NULL ? port : "?",
		    why != NULL ? why : "");
	}
}

/* Run a cable check of the named ports (all when none) and print it. */
int
muxctl_cablecheck(const char *path, int json, int argc, char **argv)
{
	struct muxctl_cc	 c;
	struct sockaddr_un	 sun;
	json_t			*o, *started = NULL, *names, *id;
	const char		*ev, *msg;
	char			*text;
	long long		 deadline, check = -1;
	int			 i, window;

	memset(&c, 0, sizeof(c));
	c.path = path;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		errx(PROTOCOL_EXIT_USAGE, "%s: socket path too long", path);
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if ((c.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(c.fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		errx(PROTOCOL_EXIT_UNREACHABLE, "%s: %s (is muxd running?)",
		    path, strerror(errno));
	names = json_array();
	for (i = 0; i < argc; i++)
		json_array_append_new(names, json_string(argv[i]));
	muxctl_cc_send(&c, json_pack("{si ss ss}", "v", PROTOCOL_VERSION, "id",
	    "cc-watch", "cmd", protocol_cmd_name(PROTOCOL_CMD_WATCH)));
	muxctl_cc_send(&c, json_pack("{si ss ss so}", "v", PROTOCOL_VERSION,
	    "id", "cc-check", "cmd",
	    protocol_cmd_name(PROTOCOL_CMD_CABLECHECK), "ports", names));
	deadline = muxctl_cc_now() + 30000;
	for (;;) {
		o = muxctl_cc_next(&c, deadline, &text);
		id = json_object_get(o, "id");
		ev = muxctl_get_str(o, "event");
		if (json_is_false(json_object_get(o, "ok"))) {
			msg = muxctl_get_str(o, "error");
			warnx("%s", msg != NULL ? msg : "request failed");
			json_decref(o);
			json_decref(started);
			close(c.fd);
			return (PROTOCOL_EXIT_FAILED);
		}
		if (json_is_string(id) &&
		    strcmp(json_string_value(id), "cc-check") == 0) {
			started = json_incref(json_object_get(o, "result"));
			check = json_integer_value(json_object_get(started,
			    "check"));
			window = (int)json_integer_value(json_object_get(
			    started, "window_ms"));
			deadline = muxctl_cc_now() + window + MUXCTL_CC_SLACK;
			if (json)
				printf("%s\n", text);
		} else if (ev != NULL && protocol_event_find(ev) ==
		    PROTOCOL_EV_CABLECHECK &&
		    check != -1 && json_integer_value(json_object_get(o,
		    "check")) == check) {
			if (json)
				printf("%s\n", text);
			else
				muxctl_cc_print(started, o);
			json_decref(o);
			break;
		}
		json_decref(o);
	}
	json_decref(started);
	close(c.fd);
	if (fflush(stdout) == EOF)
		err(PROTOCOL_EXIT_FAILED, "stdout");
	return (PROTOCOL_EXIT_OK);
}
