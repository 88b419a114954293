/*
 * muxctl: the control client of muxd(8).
 *
 * One connection per run: send one JSON request line, wait for the reply
 * that carries our id (event lines that come first are skipped), print its
 * result and exit.  "watch" then keeps reading and prints every event line
 * until muxd closes the connection or the user interrupts.  With -j the
 * result and the events are printed as muxd sent them; without, they are
 * printed for people: "watch" shows the conversations as lines of text
 * with the other events among them (muxctl-referee.c), "watch --events"
 * each event on a line of its own (muxctl-show.c).
 *
 * Exit status: 0 ok, 1 muxd replied with an error, 2 usage, 3 muxd cannot
 * be reached (or does not answer), 4 the connection closed early or a reply
 * was malformed.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "muxctl.h"

#define MUXCTL_TIMEOUT		30	/* seconds to wait for a reply */
#ifndef MUXCTL_MUXD	/* muxd, installed, from the Makefile */
#error "MUXCTL_MUXD is not defined: build muxctl with its Makefile"
#endif

/*
 * What must outlive a request: the connection, and the id the reply is
 * matched on (global, so that nothing is lost when an error exits).
 */
static struct muxctl_conn muxctl_c;
static json_t	*muxctl_id;

static void	muxctl_usage(int) __attribute__((noreturn));
static json_t	*muxctl_reply(struct muxctl_conn *, const json_t *, int,
		    char **, size_t *);
static json_t	*muxctl_call(struct muxctl_conn *, const char *, json_t *,
		    json_t **, char **, size_t *);
static int	 muxctl_member(const char *, size_t, const char *,
		    const char **, size_t *);
static void	 muxctl_print_result(const json_t *, const char *, size_t);
static void	 muxctl_arg_check(const char *);
static void	 muxctl_interrupted(int);
static int	 muxctl_watch(struct muxctl_conn *, int, int);
static int	 muxctl_send(struct muxctl_conn *, const char *);
static void	 muxctl_flush(void);
static json_t	*muxctl_ports_run(void);
static int	 muxctl_ports_local(int);

/* Print the usage text and exit: on stdout with 0 (--help), else stderr. */
static void
muxctl_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: muxctl [-j] [-s socket] status\n"
	    "       muxctl [-j] [-s socket] round start N [--force]\n"
	    "       muxctl [-j] [-s socket] round stop\n"
	    "       muxctl [-j] [-s socket] connect PORT PORT\n"
	    "       muxctl [-j] [-s socket] disconnect PORT|LINK\n"
	    "       muxctl [-j] [-s socket] release PORT|LINK\n"
	    "       muxctl [-j] [-s socket] schedule\n"
	    "       muxctl [-j] [-s socket] reload\n"
	    "       muxctl [-j] [-s socket] watch [--events]\n"
	    "       muxctl [-j] [-s socket] ports [--local]\n"
	    "       muxctl [-j] [-s socket] cablecheck [PORT ...]\n"
	    "       muxctl [-j] [-s socket] witness [-s referee.key] [SEQ]\n"
	    "       muxctl [-s socket] watch --text\n"
	    "       muxctl [-s socket] send JSON\n"
	    "       muxctl --help | --version\n");
	exit(status);
}

/*
 * Wait for the reply to our request: the first object with an "ok" member
 * and our id, or with no id (how muxd answers a line it could not read).
 * Events and replies carrying another id are skipped; with id NULL any
 * reply will do.  In raw mode ("send") the protocol version is not checked
 * and a malformed reply is printed before giving up on it.  Returns the
 * reply and its text; exits on a closed connection or a malformed reply.
 */
static json_t *
muxctl_reply(struct muxctl_conn *c, const json_t *id, int rawmode,
    char **raw, size_t *rawlen)
{
	struct timespec	 deadline;
	json_error_t	 jerr;
	json_t		*o, *rid, *ok, *v;
	const char	*why;
	char		*line;
	size_t		 len;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += MUXCTL_TIMEOUT;
	for (;;) {
		switch (muxctl_conn_read_line(c, &line, &len, &deadline)) {
		case MUXCTL_RD_EOF:
			errx(PROTOCOL_EXIT_PROTOCOL,
			    "%s: connection closed before a reply", c->path);
		case MUXCTL_RD_LONG:
			errx(PROTOCOL_EXIT_PROTOCOL,
			    "%s: reply line longer than %d bytes", c->path,
			    PROTOCOL_LINE_MAX);
		case MUXCTL_RD_TIMEOUT:
			errx(PROTOCOL_EXIT_UNREACHABLE,
			    "%s: no reply within %d seconds", c->path,
			    MUXCTL_TIMEOUT);
		case MUXCTL_RD_LINE:
			break;
		}
		if (len == 0)
			continue;

		why = NULL;
		o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
		if (o == NULL)
			why = jerr.text;
		else if (!json_is_object(o))
			why = "not a JSON object";
		else if (json_object_get(o, "event") != NULL &&
		    json_object_get(o, "ok") == NULL) {
			json_decref(o);		/* an event: not ours */
			continue;
		} else if ((ok = json_object_get(o, "ok")) == NULL)
			why = "no \"ok\" member";
		else if (!json_is_boolean(ok))
			why = "\"ok\" is not true or false";
		if (why == NULL && id != NULL) {
			rid = json_object_get(o, "id");
			if (rid != NULL && !json_is_null(rid) &&
			    !json_equal(rid, id)) {
				json_decref(o);	/* someone else's */
				continue;
			}
		}
		if (why == NULL && !rawmode) {
			v = json_object_get(o, "v");
			if (v == NULL)
				why = "no protocol version";
			else if (!json_is_integer(v) ||
			    json_integer_value(v) != PROTOCOL_VERSION) {
				json_decref(o);
				errx(PROTOCOL_EXIT_PROTOCOL, "%s: reply in "
				    "another protocol version (muxctl "
				    "speaks %d)", c->path, PROTOCOL_VERSION);
			}
		}
		if (why != NULL) {
			json_decref(o);		/* why is not in o */
			if (rawmode) {
				printf("%s\n", line);
				muxctl_flush();
			}
			errx(PROTOCOL_EXIT_PROTOCOL, "%s: malformed reply: %s",
			    c->path, why);
		}
		*raw = line;
		*rawlen = len;
		return o;
	}
}

/*
 * Send the request cmd with the members of args (stolen, may be NULL) and
 * wait for its reply.  On an error reply print it and exit 1.  Returns the
 * result (owned by *reply, which the caller frees) and the reply's text.
 */
static json_t *
muxctl_call(struct muxctl_conn *c, const char *cmd, json_t *args,
    json_t **reply, char **raw, size_t *rawlen)
{
	json_t		*req, *o, *result;
	const char	*msg;
	char		*text, idbuf[32];
	size_t		 n;

	snprintf(idbuf, sizeof(idbuf), "muxctl-%ld", (long)getpid());
	json_decref(muxctl_id);
	if ((muxctl_id = json_string(idbuf)) == NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	req = json_pack("{s:i,s:O,s:s}", "v", PROTOCOL_VERSION, "id",
	    muxctl_id, "cmd", cmd);
	if (req == NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	if (args != NULL) {
		json_object_update(req, args);
		json_decref(args);
	}
	if ((text = json_dumps(req, JSON_COMPACT)) == NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	json_decref(req);
	n = strlen(text);
	if (n + 1 > PROTOCOL_LINE_MAX) {
		free(text);
		errx(PROTOCOL_EXIT_USAGE, "request longer than %d bytes",
		    PROTOCOL_LINE_MAX);
	}
	text[n] = '\n';		/* json_dumps's NUL is not sent */
	muxctl_conn_write(c, text, n + 1);
	free(text);

	o = muxctl_reply(c, muxctl_id, 0, raw, rawlen);
	if (!json_is_true(json_object_get(o, "ok"))) {
		msg = muxctl_get_str(o, "error");
		warnx("%s", msg != NULL && *msg != '\0' ? msg :
		    "request failed (no error message)");
		json_decref(o);
		exit(PROTOCOL_EXIT_FAILED);
	}
	if ((result = json_object_get(o, "result")) == NULL) {
		json_decref(o);
		errx(PROTOCOL_EXIT_PROTOCOL, "%s: malformed reply: no result",
		    c->path);
	}
	*reply = o;
	return result;
}

/*
 * Send a request on the open connection and wait for its reply, as
 * muxctl_call does (an error reply is printed, and muxctl exits 1); the
 * result, owned by *reply.
 */
json_t *
muxctl_ask(const char *cmd, json_t *args, json_t **reply)
{
	char	*raw;
	size_t	 rawlen;

	return (muxctl_call(&muxctl_c, cmd, args, reply, &raw, &rawlen));
}

/* Print a JSON value on a line of its own (-j). */
void
muxctl_print_json(const json_t *v)
{
	char	*s;

	if ((s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY)) == NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	printf("%s\n", s);
	free(s);
}

/*
 * Find the top-level member key of the JSON object text p (already known
 * to be valid) and return its value's span, so that -j prints the value
 * byte for byte as muxd wrote it.  Keys written with escapes do not match.
 */
static int
muxctl_member(const char *p, size_t n, const char *key, const char **vp,
    size_t *vn)
{
	const char	*end = p + n, *k, *v;
	size_t		 kn, klen = strlen(key);
	int		 depth, instr;

#define MUXCTL_WS(q) ((q) < end && (*(q) == ' ' || *(q) == '\t' || \
	    *(q) == '\r' || *(q) == '\n'))
	while (MUXCTL_WS(p))
		p++;
	if (p >= end || *p++ != '{')
		return 0;
	for (;;) {
		while (MUXCTL_WS(p))
			p++;
		if (p >= end || *p != '"')
			return 0;
		k = ++p;
		while (p < end && *p != '"')
			p += *p == '\\' ? 2 : 1;
		if (p >= end)
			return 0;
		kn = (size_t)(p - k);
		p++;
		while (MUXCTL_WS(p))
			p++;
		if (p >= end || *p++ != ':')
			return 0;
		while (MUXCTL_WS(p))
			p++;
		v = p;
		depth = instr = 0;
		for (; p < end; p++) {
			if (instr) {
				if (*p == '\\')
					p++;
				else if (*p == '"')
					instr = 0;
				else
					continue;
				if (depth == 0 && !instr) {
					p++;
					break;
				}
				continue;
			}
			if (*p == '"')
				instr = 1;
			else if (*p == '{' || *p == '[')
				depth++;
			else if (*p == '}' || *p == ']') {
				if (depth == 0)
					break;
				if (--depth == 0) {
					p++;
					break;
				}
			} else if (depth == 0 && (*p == ',' || *p == ' ' ||
			    *p == '\t' || *p == '\r' || *p == '\n'))
				break;
		}
		if (kn == klen && memcmp(k, key, klen) == 0) {
			*vp = v;
			*vn = (size_t)(p - v);
			return 1;
		}
		while (MUXCTL_WS(p))
			p++;
		if (p >= end || *p++ != ',')
			return 0;
	}
#undef MUXCTL_WS
}

/* Print the result of a reply as one line of JSON, as muxd sent it. */
static void
muxctl_print_result(const json_t *result, const char *raw, size_t rawlen)
{
	const char	*v;
	size_t		 vn;
	char		*text;

	if (muxctl_member(raw, rawlen, "result", &v, &vn)) {
		fwrite(v, 1, vn, stdout);
		putchar('\n');
		return;
	}
	if ((text = json_dumps(result, JSON_COMPACT | JSON_ENCODE_ANY)) ==
	    NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	printf("%s\n", text);
	free(text);
}

/* Check that an argument can be a name: not empty, valid UTF-8. */
static void
muxctl_arg_check(const char *arg)
{
	json_t	*s;

	if (*arg == '\0') {
		warnx("empty name");
		muxctl_usage(PROTOCOL_EXIT_USAGE);
	}
	if ((s = json_string(arg)) == NULL) {
		warnx("not valid UTF-8: %s", arg);
		muxctl_usage(PROTOCOL_EXIT_USAGE);
	}
	json_decref(s);
}

/* Parse a positive decimal integer, or return -1. */
int
muxctl_positive(const char *s)
{
	long long	v = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -1;
	}
	return v > 0 ? (int)v : -1;
}

/* Return the string member key of o, or NULL. */
const char *
muxctl_get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* On SIGINT or SIGTERM during a watch: leave quietly, with success. */
static void
muxctl_interrupted(int sig)
{
	(void)sig;
	_exit(PROTOCOL_EXIT_OK);
}

/*
 * Subscribe to events and print each one as it comes, until muxd closes
 * the connection (exit 0) or a signal ends the watch (exit 0).  A bad
 * event line is reported and skipped; an error reply ends with status 1.
 * With text, the conversations are shown as text (muxctl-referee.c),
 * their open lines once they have been quiet for a while.
 */
static int
muxctl_watch(struct muxctl_conn *c, int json, int text)
{
	struct sigaction	 sa;
	struct timespec		 quiet;
	json_error_t		 jerr;
	json_t			*reply, *o;
	const char		*msg;
	char			*line;
	size_t			 len;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = muxctl_interrupted;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) == -1 ||
	    sigaction(SIGTERM, &sa, NULL) == -1)
		err(PROTOCOL_EXIT_PROTOCOL, "sigaction");
	setvbuf(stdout, NULL, _IOLBF, 0);

	muxctl_call(c, protocol_cmd_name(PROTOCOL_CMD_WATCH), NULL, &reply, &line, &len);
	json_decref(reply);
	if (text)
		muxctl_referee_init();
	for (;;) {
		switch (muxctl_conn_read_line(c, &line, &len, text &&
		    muxctl_referee_deadline(&quiet) ? &quiet : NULL)) {
		case MUXCTL_RD_EOF:
			if (text)
				muxctl_referee_end();
			return PROTOCOL_EXIT_OK;
		case MUXCTL_RD_LONG:
			warnx("%s: event line longer than %d bytes skipped",
			    c->path, PROTOCOL_LINE_MAX);
			continue;
		case MUXCTL_RD_TIMEOUT:		/* text: a line went quiet */
			muxctl_referee_quiet();
			muxctl_flush();
			continue;
		case MUXCTL_RD_LINE:
			break;
		}
		if (len == 0)
			continue;
		o = json_loadb(line, len, JSON_ALLOW_NUL, &jerr);
		if (!json_is_object(o)) {
			warnx("%s: malformed event line skipped: %s", c->path,
			    o == NULL ? jerr.text : "not a JSON object");
			json_decref(o);
			continue;
		}
		if (json_is_string(json_object_get(o, "event"))) {
			if (json) {
				fwrite(line, 1, len, stdout);
				putchar('\n');
			} else if (text)
				muxctl_referee_event(o);
			else
				muxctl_show_event(o);
			muxctl_flush();
		} else if (json_is_false(json_object_get(o, "ok"))) {
			msg = muxctl_get_str(o, "error");
			warnx("%s", msg != NULL ? msg :
			    "watch ended with an error");
			json_decref(o);
			exit(PROTOCOL_EXIT_FAILED);
		} else if (!json_is_true(json_object_get(o, "ok")))
			warnx("%s: malformed event line skipped: no event",
			    c->path);
		json_decref(o);
	}
}

/*
 * Send a request line as given and print the reply line as received.
 * The reply is the one carrying the request's id, if it has one.
 */
static int
muxctl_send(struct muxctl_conn *c, const char *text)
{
	json_t		*req, *o;
	const char	*msg;
	char		*line, *buf;
	size_t		 n, len;
	int		 rc;

	n = strlen(text);
	req = json_loads(text, JSON_DECODE_ANY, NULL);
	if (json_is_object(req) &&
	    (muxctl_id = json_object_get(req, "id")) != NULL)
		json_incref(muxctl_id);
	json_decref(req);

	if ((buf = malloc(n + 1)) == NULL)
		err(PROTOCOL_EXIT_PROTOCOL, "malloc");
	memcpy(buf, text, n);
	buf[n] = '\n';
	muxctl_conn_write(c, buf, n + 1);
	free(buf);

	o = muxctl_reply(c, muxctl_id, 1, &line, &len);
	fwrite(line, 1, len, stdout);
	putchar('\n');
	rc = PROTOCOL_EXIT_OK;
	if (!json_is_true(json_object_get(o, "ok"))) {
		muxctl_flush();
		msg = muxctl_get_str(o, "error");
		warnx("%s", msg != NULL ? msg : "request failed");
		rc = PROTOCOL_EXIT_FAILED;
	}
	json_decref(o);
	return rc;
}

/* Flush standard output, or exit if it cannot be written. */
static void
muxctl_flush(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		err(PROTOCOL_EXIT_FAILED, "stdout");
}

/*
 * Run "muxd --ports" and return what it printed, parsed: the serial ports
 * of this host.  muxd is $MUXD, else the installed one, else the first on
 * the PATH.
 */
static json_t *
muxctl_ports_run(void)
{
	const char	*muxd = getenv("MUXD");
	char		 buf[PROTOCOL_LINE_MAX * 4];
	json_t		*list;
	json_error_t	 jerr;
	size_t		 len = 0;
	ssize_t		 n;
	pid_t		 pid;
	int		 fds[2], status;

	if (pipe(fds) == -1)
		err(PROTOCOL_EXIT_FAILED, "pipe");
	if ((pid = fork()) == -1)
		err(PROTOCOL_EXIT_FAILED, "fork");
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) == -1)
			_exit(127);
		if (muxd != NULL && muxd[0] != '\0')
			execl(muxd, "muxd", "--ports", (char *)NULL);
		else {
			execl(MUXCTL_MUXD, "muxd", "--ports", (char *)NULL);
			execlp("muxd", "muxd", "--ports", (char *)NULL);
		}
		warn("cannot run %s --ports (set MUXD to muxd's path)",
		    muxd != NULL && muxd[0] != '\0' ? muxd : "muxd");
		_exit(127);
	}
	close(fds[1]);
	while (len < sizeof(buf) && ((n = read(fds[0], buf + len,
	    sizeof(buf) - len)) > 0 || (n == -1 && errno == EINTR)))
		if (n > 0)
			len += n;
	close(fds[0]);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			err(PROTOCOL_EXIT_FAILED, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		exit(PROTOCOL_EXIT_FAILED);
	if ((list = json_loadb(buf, len, 0, &jerr)) == NULL ||
	    !json_is_array(list))
		errx(PROTOCOL_EXIT_PROTOCOL, "muxd --ports printed no list of "
		    "ports: %s", list == NULL ? jerr.text : "not an array");
	return (list);
}

/*
 * List the serial ports without a running muxd ("ports --local"), as muxd
 * would list them, but with the holders found from their locks.
 */
static int
muxctl_ports_local(int json)
{
	json_t	*o;
	char	*s;

	o = json_pack("{so}", "ports", muxctl_ports_run());
	if (json) {
		if ((s = json_dumps(o, JSON_COMPACT)) == NULL)
			errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
		printf("%s\n", s);
		free(s);
	} else
		muxctl_show("ports", o);
	json_decref(o);
	muxctl_flush();
	return PROTOCOL_EXIT_OK;
}

/* Parse the command line, send the request and print the reply. */
int
main(int argc, char *argv[])
{
	struct muxctl_conn	*c = &muxctl_c;
	const char		*path, *cmd, *sub;
	json_t			*args = NULL, *reply, *result;
	char			*raw;
	size_t			 rawlen;
	int			 ch, json = 0, text = 0, n, rc, saved;

	path = getenv("MUXD_SOCKET");
	if (path == NULL || *path == '\0')
		path = PROTOCOL_CONTROL_PATH;
	switch (protocol_std_option(argc, argv, "muxctl")) {
	case 0:
		return (PROTOCOL_EXIT_OK);
	case 1:
		muxctl_usage(PROTOCOL_EXIT_OK);
	}
	opterr = 0;
	while ((ch = getopt(argc, argv, "+js:")) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		case 's':
			path = optarg;
			break;
		default:
			protocol_bad_option("muxctl", "+js:", argv);
			muxctl_usage(PROTOCOL_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		muxctl_usage(PROTOCOL_EXIT_USAGE);
	if (*path == '\0') {
		warnx("empty socket path");
		muxctl_usage(PROTOCOL_EXIT_USAGE);
	}

	cmd = argv[0];
	if (strcmp(cmd, "status") == 0 || strcmp(cmd, "schedule") == 0 ||
	    strcmp(cmd, "reload") == 0) {
		if (argc != 1)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
	} else if (strcmp(cmd, "watch") == 0) {
		/* For people, conversations as lines; --events, each event. */
		text = !json;
		if (argc == 2 && strcmp(argv[1], "--text") == 0) {
			if (json) {
				warnx("watch --text: not with -j");
				muxctl_usage(PROTOCOL_EXIT_USAGE);
			}
		} else if (argc == 2 && strcmp(argv[1], "--events") == 0)
			text = 0;
		else if (argc != 1)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
	} else if (strcmp(cmd, "round") == 0) {
		sub = argc > 1 ? argv[1] : "";
		if (strcmp(sub, "start") == 0 && (argc == 3 || (argc == 4 &&
		    strcmp(argv[3], "--force") == 0))) {
			if ((n = muxctl_positive(argv[2])) == -1) {
				warnx("round: not a positive integer: %s",
				    argv[2]);
				muxctl_usage(PROTOCOL_EXIT_USAGE);
			}
			cmd = protocol_cmd_name(PROTOCOL_CMD_ROUND_START);
			args = json_pack("{s:i,s:b}", "round", n, "force",
			    argc == 4);
		} else if (strcmp(sub, "stop") == 0 && argc == 2)
			cmd = protocol_cmd_name(PROTOCOL_CMD_ROUND_STOP);
		else
			muxctl_usage(PROTOCOL_EXIT_USAGE);
	} else if (strcmp(cmd, "connect") == 0) {
		if (argc != 3)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
		muxctl_arg_check(argv[1]);
		muxctl_arg_check(argv[2]);
		args = json_pack("{s:s,s:s}", "a", argv[1], "b", argv[2]);
	} else if (strcmp(cmd, "disconnect") == 0 ||
	    strcmp(cmd, "release") == 0) {
		if (argc != 2)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
		muxctl_arg_check(argv[1]);
		args = json_pack("{s:s}", "target", argv[1]);
	} else if (strcmp(cmd, "cablecheck") == 0) {
		for (n = 1; n < argc; n++)
			muxctl_arg_check(argv[n]);
		return muxctl_cablecheck(path, json, argc - 1, argv + 1);
	} else if (strcmp(cmd, "witness") == 0) {
		;	/* its arguments: muxctl_witness() */
	} else if (strcmp(cmd, "ports") == 0) {
		if (argc == 2 && strcmp(argv[1], "--local") == 0)
			return muxctl_ports_local(json);
		if (argc != 1)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
	} else if (strcmp(cmd, "send") == 0) {
		if (argc != 2)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
		if (*argv[1] == '\0' || strchr(argv[1], '\n') != NULL) {
			warnx("send: the request must be one non-empty line");
			muxctl_usage(PROTOCOL_EXIT_USAGE);
		}
		if (strlen(argv[1]) + 1 > PROTOCOL_LINE_MAX) {
			warnx("send: request longer than %d bytes",
			    PROTOCOL_LINE_MAX);
			muxctl_usage(PROTOCOL_EXIT_USAGE);
		}
	} else {
		warnx("unknown command: %s", cmd);
		muxctl_usage(PROTOCOL_EXIT_USAGE);
	}

	if (muxctl_conn_open(c, path) == -1) {
		saved = errno;
		json_decref(args);
		errx(PROTOCOL_EXIT_UNREACHABLE, "%s: %s%s", path,
		    strerror(saved), saved == ENOENT || saved == ECONNREFUSED ?
		    " (is muxd running?)" : "");
	}
	if (strcmp(cmd, "send") == 0)
		rc = muxctl_send(c, argv[1]);
	else if (strcmp(cmd, "witness") == 0) {
		if ((rc = muxctl_witness(argc, argv, json)) == -1)
			muxctl_usage(PROTOCOL_EXIT_USAGE);
	}
	else if (strcmp(cmd, "watch") == 0)
		rc = muxctl_watch(c, json, text);
	else {
		result = muxctl_call(c, cmd, args, &reply, &raw, &rawlen);
		if (json)
			muxctl_print_result(result, raw, rawlen);
		else
			muxctl_show(cmd, result);
		json_decref(reply);
		rc = PROTOCOL_EXIT_OK;
	}
	close(c->fd);
	json_decref(muxctl_id);
	muxctl_flush();
	return rc;
}
