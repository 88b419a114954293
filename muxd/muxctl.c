/*
 * muxctl: the control client of muxd(8).
 *
 * One connection per run: send one JSON request line, wait for the reply
 * that carries our id (event lines that come first are skipped), print its
 * result and exit.  "watch" then keeps reading and prints every event line
 * until muxd closes the connection or the user interrupts.
 *
 * Exit status: 0 ok, 1 muxd replied with an error, 2 usage, 3 muxd cannot
 * be reached (or does not answer), 4 the connection closed early or a reply
 * was malformed.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

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

#include "muxd.h"

#define MUXCTL_LINE_MAX		65536	/* longest line either way, bytes */
#define MUXCTL_TIMEOUT		30	/* seconds to wait for a reply */

enum {
	MUXCTL_EXIT_OK = 0,
	MUXCTL_EXIT_FAILED = 1,		/* muxd replied with an error */
	MUXCTL_EXIT_USAGE = 2,
	MUXCTL_EXIT_UNREACHABLE = 3,	/* no daemon, or no answer */
	MUXCTL_EXIT_PROTOCOL = 4	/* closed early, or a malformed reply */
};

enum muxctl_rd {
	MUXCTL_RD_LINE,
	MUXCTL_RD_EOF,
	MUXCTL_RD_LONG,			/* a line over MUXCTL_LINE_MAX */
	MUXCTL_RD_TIMEOUT
};

/*
 * The read buffer holds one line of up to MUXCTL_LINE_MAX bytes, its
 * newline and a NUL.  A longer line is reported once, then discarded up to
 * its newline so that a watch can carry on after it.  A line handed out by
 * muxctl_read_line() lives in the buffer until the next call.
 */
struct muxctl_conn {
	int		 fd;
	const char	*path;
	char		 buf[MUXCTL_LINE_MAX + 2];
	size_t		 off;		/* first unread byte */
	size_t		 len;		/* end of the bytes read */
	int		 skipping;	/* inside an overlong line */
	int		 eof;
};

/* A table printed with aligned columns; cells are owned copies. */
struct muxctl_table {
	size_t		 ncols;
	const int	*right;		/* per column: align right */
	char		**cells;	/* nrows * ncols */
	char		**notes;	/* per row: a line printed below, or NULL */
	size_t		 nrows;
	size_t		 cap;
};

/*
 * What must outlive a request: the connection, and the id the reply is
 * matched on (global, so that nothing is lost when an error exits).
 */
static struct muxctl_conn muxctl_c;
static json_t	*muxctl_id;

static void	muxctl_usage(void) __attribute__((noreturn));
static int	muxctl_open(struct muxctl_conn *, const char *);
static void	muxctl_write(struct muxctl_conn *, const char *, size_t);
static enum muxctl_rd muxctl_read_line(struct muxctl_conn *, char **,
		    size_t *, const struct timespec *);
static json_t	*muxctl_reply(struct muxctl_conn *, const json_t *, int,
		    char **, size_t *);
static json_t	*muxctl_call(struct muxctl_conn *, const char *, json_t *,
		    json_t **, char **, size_t *);
static int	 muxctl_member(const char *, size_t, const char *,
		    const char **, size_t *);
static void	 muxctl_print_result(const json_t *, const char *, size_t);
static void	 muxctl_arg_check(const char *);
static int	 muxctl_positive(const char *);
static const char *muxctl_get_str(const json_t *, const char *);
static int	 muxctl_get_num(const json_t *, const char *, double *);
static const char *muxctl_fmt_int(const json_t *, const char *, char *,
		    size_t);
static void	 muxctl_real(double, char *, size_t);
static double	 muxctl_now(void);
static void	 muxctl_clock(double, int, char *, size_t);
static void	 muxctl_age(double, double, char *, size_t);
static void	 muxctl_duration(long long, char *, size_t);
static int	 muxctl_c1(const unsigned char *);
static void	 muxctl_put_str(FILE *, const char *, int);
static char	*muxctl_clean(const char *);
static size_t	 muxctl_width(const char *);
static void	 muxctl_table_init(struct muxctl_table *, size_t, const int *);
static void	 muxctl_table_add(struct muxctl_table *, const char **,
		    const char *);
static void	 muxctl_table_print(struct muxctl_table *);
static void	 muxctl_show_round(const json_t *, const char *);
static void	 muxctl_show_placements(const json_t *);
static void	 muxctl_show_ports(const json_t *);
static void	 muxctl_show_links(const json_t *);
static void	 muxctl_show_status(const json_t *);
static void	 muxctl_show_schedule(const json_t *);
static void	 muxctl_show_value(const json_t *);
static void	 muxctl_show_text(const json_t *);
static void	 muxctl_show_event(const json_t *);
static void	 muxctl_show(const char *, const json_t *);
static void	 muxctl_interrupted(int);
static int	 muxctl_watch(struct muxctl_conn *, int);
static int	 muxctl_send(struct muxctl_conn *, const char *);
static void	 muxctl_flush(void);

/* Print the usage text and exit with the usage status. */
static void
muxctl_usage(void)
{
	fprintf(stderr,
	    "usage: muxctl [-j] [-s socket] status\n"
	    "       muxctl [-j] [-s socket] round start N\n"
	    "       muxctl [-j] [-s socket] round stop\n"
	    "       muxctl [-j] [-s socket] connect PORT PORT\n"
	    "       muxctl [-j] [-s socket] disconnect PORT|LINK\n"
	    "       muxctl [-j] [-s socket] schedule\n"
	    "       muxctl [-j] [-s socket] reload\n"
	    "       muxctl [-j] [-s socket] watch\n"
	    "       muxctl [-s socket] send JSON\n");
	exit(MUXCTL_EXIT_USAGE);
}

/* Connect to the control socket at path; return -1 with errno if not. */
static int
muxctl_open(struct muxctl_conn *c, const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, saved;

	c->path = path;
	c->off = c->len = 0;
	c->skipping = c->eof = 0;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	c->fd = fd;
	return 0;
}

/*
 * Send one request line.  If muxd has already hung up the write fails; the
 * reply it may have sent before hanging up is still read afterwards.
 */
static void
muxctl_write(struct muxctl_conn *c, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		w = send(c->fd, p, n, MSG_NOSIGNAL);
		if (w == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE || errno == ECONNRESET)
				return;
			err(MUXCTL_EXIT_PROTOCOL, "%s", c->path);
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Read the next line from muxd, without its newline, until the deadline. */
static enum muxctl_rd
muxctl_read_line(struct muxctl_conn *c, char **line, size_t *linelen,
    const struct timespec *deadline)
{
	struct pollfd	 pfd;
	struct timespec	 now;
	char		*nl, *start;
	ssize_t		 n;
	long long	 ms;
	int		 r;

	for (;;) {
		nl = memchr(c->buf + c->off, '\n', c->len - c->off);
		if (nl != NULL) {
			start = c->buf + c->off;
			c->off = (size_t)(nl - c->buf) + 1;
			if (c->skipping) {
				c->skipping = 0;
				continue;
			}
			*nl = '\0';
			*line = start;
			*linelen = (size_t)(nl - start);
			if (*linelen > 0 && start[*linelen - 1] == '\r')
				start[--*linelen] = '\0';
			return MUXCTL_RD_LINE;
		}
		if (c->skipping)
			c->off = c->len = 0;
		else if (c->len - c->off > MUXCTL_LINE_MAX) {
			c->skipping = 1;
			c->off = c->len = 0;
			return MUXCTL_RD_LONG;
		}
		if (c->off > 0) {
			memmove(c->buf, c->buf + c->off, c->len - c->off);
			c->len -= c->off;
			c->off = 0;
		}
		if (c->eof) {
			/* A last line without its newline still counts. */
			if (c->len == 0 || c->skipping) {
				c->len = 0;
				return MUXCTL_RD_EOF;
			}
			c->buf[c->len] = '\0';
			*line = c->buf;
			*linelen = c->len;
			c->len = 0;
			if (*linelen > 0 && c->buf[*linelen - 1] == '\r')
				c->buf[--*linelen] = '\0';
			return MUXCTL_RD_LINE;
		}

		ms = -1;
		if (deadline != NULL) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
			    (deadline->tv_nsec - now.tv_nsec) / 1000000;
			if (ms <= 0)
				return MUXCTL_RD_TIMEOUT;
		}
		pfd.fd = c->fd;
		pfd.events = POLLIN;
		r = poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms);
		if (r == -1) {
			if (errno == EINTR)
				continue;
			err(MUXCTL_EXIT_PROTOCOL, "poll");
		}
		if (r == 0)
			continue;	/* the deadline is checked above */

		n = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
		if (n == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno != ECONNRESET)
				err(MUXCTL_EXIT_PROTOCOL, "%s", c->path);
			n = 0;
		}
		if (n == 0)
			c->eof = 1;
		c->len += (size_t)n;
	}
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
		switch (muxctl_read_line(c, &line, &len, &deadline)) {
		case MUXCTL_RD_EOF:
			errx(MUXCTL_EXIT_PROTOCOL,
			    "%s: connection closed before a reply", c->path);
		case MUXCTL_RD_LONG:
			errx(MUXCTL_EXIT_PROTOCOL,
			    "%s: reply line longer than %d bytes", c->path,
			    MUXCTL_LINE_MAX);
		case MUXCTL_RD_TIMEOUT:
			errx(MUXCTL_EXIT_UNREACHABLE,
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
			    json_integer_value(v) != MUXD_PROTOCOL) {
				json_decref(o);
				errx(MUXCTL_EXIT_PROTOCOL, "%s: reply in "
				    "another protocol version (muxctl "
				    "speaks %d)", c->path, MUXD_PROTOCOL);
			}
		}
		if (why != NULL) {
			json_decref(o);		/* why is not in o */
			if (rawmode) {
				printf("%s\n", line);
				muxctl_flush();
			}
			errx(MUXCTL_EXIT_PROTOCOL, "%s: malformed reply: %s",
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
	if ((muxctl_id = json_string(idbuf)) == NULL)
		errx(MUXCTL_EXIT_PROTOCOL, "out of memory");
	req = json_pack("{s:i,s:O,s:s}", "v", MUXD_PROTOCOL, "id",
	    muxctl_id, "cmd", cmd);
	if (req == NULL)
		errx(MUXCTL_EXIT_PROTOCOL, "out of memory");
	if (args != NULL) {
		json_object_update(req, args);
		json_decref(args);
	}
	if ((text = json_dumps(req, JSON_COMPACT)) == NULL)
		errx(MUXCTL_EXIT_PROTOCOL, "out of memory");
	json_decref(req);
	n = strlen(text);
	if (n + 1 > MUXCTL_LINE_MAX) {
		free(text);
		errx(MUXCTL_EXIT_USAGE, "request longer than %d bytes",
		    MUXCTL_LINE_MAX);
	}
	text[n] = '\n';		/* json_dumps's NUL is not sent */
	muxctl_write(c, text, n + 1);
	free(text);

	o = muxctl_reply(c, muxctl_id, 0, raw, rawlen);
	if (!json_is_true(json_object_get(o, "ok"))) {
		msg = muxctl_get_str(o, "error");
		warnx("%s", msg != NULL && *msg != '\0' ? msg :
		    "request failed (no error message)");
		json_decref(o);
		exit(MUXCTL_EXIT_FAILED);
	}
	if ((result = json_object_get(o, "result")) == NULL) {
		json_decref(o);
		errx(MUXCTL_EXIT_PROTOCOL, "%s: malformed reply: no result",
		    c->path);
	}
	*reply = o;
	return result;
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
		errx(MUXCTL_EXIT_PROTOCOL, "out of memory");
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
		muxctl_usage();
	}
	if ((s = json_string(arg)) == NULL) {
		warnx("not valid UTF-8: %s", arg);
		muxctl_usage();
	}
	json_decref(s);
}

/* Parse a positive decimal integer, or return -1. */
static int
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
static const char *
muxctl_get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Store the number member key of o in *d; return 0 if there is none. */
static int
muxctl_get_num(const json_t *o, const char *key, double *d)
{
	const json_t	*v = json_object_get(o, key);

	if (!json_is_number(v))
		return 0;
	*d = json_number_value(v);
	return 1;
}

/* Format the integer member key of o, "-" when absent or null. */
static const char *
muxctl_fmt_int(const json_t *o, const char *key, char *buf, size_t len)
{
	const json_t	*v = json_object_get(o, key);

	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		muxctl_real(json_real_value(v), buf, len);
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

/* Format a real with the fewest digits that read back as the same value. */
static void
muxctl_real(double d, char *buf, size_t len)
{
	int	prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
}

/* Return the wall clock in seconds since the epoch. */
static double
muxctl_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Format epoch seconds as local HH:MM:SS, with milliseconds if ms; a time
 * on another day than today gets its date in front.
 */
static void
muxctl_clock(double t, int ms, char *buf, size_t len)
{
	struct tm	 tm, today;
	time_t		 s, now;
	long long	 total;
	char		 hms[32];
	int		 msec;

	if (t < 0)
		t = 0;
	total = (long long)(t * 1000.0 + 0.5);	/* 0.123 is 0.12299... */
	s = (time_t)(total / 1000);
	msec = (int)(total % 1000);
	now = time(NULL);
	if (localtime_r(&s, &tm) == NULL || localtime_r(&now, &today) == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	if (ms)
		snprintf(buf, len, "%s.%03d", hms, msec);
	else if (tm.tm_year != today.tm_year || tm.tm_yday != today.tm_yday)
		snprintf(buf, len, "%04d-%02d-%02d %s", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, hms);
	else
		snprintf(buf, len, "%s", hms);
}

/* Format how long ago then was, as "3s ago" or "4m05s ago". */
static void
muxctl_age(double then, double now, char *buf, size_t len)
{
	long long	s;

	s = now > then ? (long long)(now - then) : 0;
	if (s < 60)
		snprintf(buf, len, "%llds ago", s);
	else if (s < 3600)
		snprintf(buf, len, "%lldm%02llds ago", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%lldh%02lldm ago", s / 3600,
		    s % 3600 / 60);
	else
		snprintf(buf, len, "%lldd%02lldh ago", s / 86400,
		    s % 86400 / 3600);
}

/* Format a duration in seconds as "25 min" or "90 s". */
static void
muxctl_duration(long long s, char *buf, size_t len)
{
	if (s > 0 && s % 60 == 0)
		snprintf(buf, len, "%lld min", s / 60);
	else
		snprintf(buf, len, "%lld s", s);
}

/* Tell whether p starts a UTF-8 C1 control character (U+0080..U+009F). */
static int
muxctl_c1(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

/*
 * Write a string from muxd with its control characters escaped, so that
 * nothing it contains can drive the terminal; quote wraps it in double
 * quotes and escapes quotes and backslashes too.
 */
static void
muxctl_put_str(FILE *fp, const char *s, int quote)
{
	const unsigned char	*p;

	if (quote)
		putc('"', fp);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (quote && (*p == '"' || *p == '\\'))
			fprintf(fp, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\r')
			fputs("\\r", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else if (muxctl_c1(p)) {
			fprintf(fp, "\\u%04x", p[1]);
			p++;
		} else
			putc(*p, fp);
	}
	if (quote)
		putc('"', fp);
}

/* Return a copy of s with its control characters escaped. */
static char *
muxctl_clean(const char *s)
{
	FILE	*fp;
	char	*out = NULL;
	size_t	 n;

	if ((fp = open_memstream(&out, &n)) == NULL)
		err(MUXCTL_EXIT_PROTOCOL, "open_memstream");
	muxctl_put_str(fp, s, 0);
	if (fclose(fp) != 0)
		err(MUXCTL_EXIT_PROTOCOL, "open_memstream");
	return out;
}

/* Return the number of characters in the UTF-8 string s. */
static size_t
muxctl_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Start an empty table of ncols columns. */
static void
muxctl_table_init(struct muxctl_table *t, size_t ncols, const int *right)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->right = right;
}

/* Add a row (NULL cells print as "-") and a note line below it, or NULL. */
static void
muxctl_table_add(struct muxctl_table *t, const char **row, const char *note)
{
	size_t	i;

	if (t->nrows == t->cap) {
		t->cap = t->cap == 0 ? 16 : t->cap * 2;
		t->cells = reallocarray(t->cells, t->cap * t->ncols,
		    sizeof(*t->cells));
		t->notes = reallocarray(t->notes, t->cap, sizeof(*t->notes));
		if (t->cells == NULL || t->notes == NULL)
			err(MUXCTL_EXIT_PROTOCOL, "reallocarray");
	}
	for (i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] =
		    muxctl_clean(row[i] != NULL ? row[i] : "-");
	t->notes[t->nrows] = note != NULL ? muxctl_clean(note) : NULL;
	t->nrows++;
}

/* Print a table with its columns aligned, then free it. */
static void
muxctl_table_print(struct muxctl_table *t)
{
	size_t	*w, r, i, cw;
	char	*cell;

	if ((w = calloc(t->ncols, sizeof(*w))) == NULL)
		err(MUXCTL_EXIT_PROTOCOL, "calloc");
	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->ncols; i++) {
			cw = muxctl_width(t->cells[r * t->ncols + i]);
			if (cw > w[i])
				w[i] = cw;
		}
	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < t->ncols; i++) {
			cell = t->cells[r * t->ncols + i];
			cw = muxctl_width(cell);
			if (i > 0)
				fputs("  ", stdout);
			if (t->right[i])
				printf("%*s", (int)(w[i] - cw), "");
			fputs(cell, stdout);
			if (!t->right[i] && i + 1 < t->ncols)
				printf("%*s", (int)(w[i] - cw), "");
			free(cell);
		}
		putchar('\n');
		if (t->notes[r] != NULL) {
			printf("    %s\n", t->notes[r]);
			free(t->notes[r]);
		}
	}
	free(w);
	free(t->cells);
	free(t->notes);
	memset(t, 0, sizeof(*t));
}

/*
 * Print the round line: "round 3 running since 10:00:00, ends 10:25:00,
 * seed 42", or "no round running (last round 2)".
 */
static void
muxctl_show_round(const json_t *round, const char *verb)
{
	const json_t	*seed;
	char		 num[32], started[64], ends[64];
	double		 t;

	if (!json_is_object(round)) {
		printf("round unknown\n");
		return;
	}
	if (!json_is_true(json_object_get(round, "active"))) {
		if (json_is_integer(json_object_get(round, "last")))
			printf("no round running (last round %s)\n",
			    muxctl_fmt_int(round, "last", num, sizeof(num)));
		else
			printf("no round running\n");
		return;
	}
	if (muxctl_get_num(round, "started", &t))
		muxctl_clock(t, 0, started, sizeof(started));
	else
		snprintf(started, sizeof(started), "?");
	if (muxctl_get_num(round, "ends", &t)) {
		snprintf(ends, sizeof(ends), "ends ");
		muxctl_clock(t, 0, ends + 5, sizeof(ends) - 5);
	} else
		snprintf(ends, sizeof(ends), "no time limit");
	printf("round %s %s %s, %s", muxctl_fmt_int(round, "number", num,
	    sizeof(num)), verb, started, ends);
	seed = json_object_get(round, "seed");
	if (json_is_integer(seed))	/* muxd's seed is a uint64_t */
		printf(", seed %llu",
		    (unsigned long long)json_integer_value(seed));
	putchar('\n');
}

/* Print the placements of a round: "J1 (judge 1): left E1, right C1". */
static void
muxctl_show_placements(const json_t *round)
{
	const json_t	*pl, *p;
	const char	*station, *left, *right;
	size_t		 i;

	pl = json_object_get(round, "placements");
	json_array_foreach(pl, i, p) {
		station = muxctl_get_str(p, "station");
		left = muxctl_get_str(p, "left");
		right = muxctl_get_str(p, "right");
		muxctl_put_str(stdout, station != NULL ? station : "?", 0);
		if (json_is_integer(json_object_get(p, "judge")))
			printf(" (judge %lld)", (long long)
			    json_integer_value(json_object_get(p, "judge")));
		fputs(": left ", stdout);
		muxctl_put_str(stdout, left != NULL ? left : "-", 0);
		fputs(", right ", stdout);
		muxctl_put_str(stdout, right != NULL ? right : "-", 0);
		putchar('\n');
	}
}

/* Print the table of ports, with the error of each port that is not up. */
static void
muxctl_show_ports(const json_t *list)
{
	static const int	 right[] = { 0, 0, 1, 1, 1, 1, 0, 0, 0 };
	static const char	*head[] = { "NAME", "STATE", "IN", "OUT",
	    "DROP", "QUEUED", "LAST-ACTIVITY", "LINK", "ADDRESS" };
	struct muxctl_table	 t;
	const json_t		*p;
	const char		*row[9], *state, *error;
	char			 in[32], out[32], drop[32], queued[32];
	char			 age[32], *note;
	double			 now, last, t1;
	size_t			 i;

	if (json_array_size(list) == 0) {
		printf("no ports\n");
		return;
	}
	now = muxctl_now();
	muxctl_table_init(&t, 9, right);
	muxctl_table_add(&t, head, NULL);
	json_array_foreach(list, i, p) {
		state = muxctl_get_str(p, "state");
		last = -1;
		if (muxctl_get_num(p, "last_in", &t1))
			last = t1;
		if (muxctl_get_num(p, "last_out", &t1) && t1 > last)
			last = t1;
		if (last >= 0)
			muxctl_age(last, now, age, sizeof(age));
		else
			snprintf(age, sizeof(age), "-");
		row[0] = muxctl_get_str(p, "name");
		row[1] = state;
		row[2] = muxctl_fmt_int(p, "bytes_in", in, sizeof(in));
		row[3] = muxctl_fmt_int(p, "bytes_out", out, sizeof(out));
		row[4] = muxctl_fmt_int(p, "dropped", drop, sizeof(drop));
		row[5] = muxctl_fmt_int(p, "queued", queued, sizeof(queued));
		row[6] = age;
		row[7] = muxctl_get_str(p, "link");
		row[8] = muxctl_get_str(p, "address");
		error = muxctl_get_str(p, "error");
		note = NULL;
		if (error != NULL && *error != '\0' &&
		    (state == NULL || strcmp(state, "up") != 0) &&
		    asprintf(&note, "error: %s", error) == -1)
			err(MUXCTL_EXIT_PROTOCOL, "asprintf");
		muxctl_table_add(&t, row, note);
		free(note);
	}
	muxctl_table_print(&t);
}

/* Print the table of links. */
static void
muxctl_show_links(const json_t *list)
{
	static const int	 right[] = { 0, 0, 0, 0, 1, 0, 0, 0 };
	static const char	*head[] = { "NAME", "A", "B", "ORIGIN",
	    "ROUND", "STATION", "SIDE", "ENTITY" };
	struct muxctl_table	 t;
	const json_t		*l, *r;
	const char		*row[8];
	char			 round[32];
	size_t			 i;

	if (json_array_size(list) == 0) {
		printf("no links\n");
		return;
	}
	muxctl_table_init(&t, 8, right);
	muxctl_table_add(&t, head, NULL);
	json_array_foreach(list, i, l) {
		r = json_object_get(l, "round");
		if (json_is_integer(r) && json_integer_value(r) > 0)
			muxctl_fmt_int(l, "round", round, sizeof(round));
		else
			snprintf(round, sizeof(round), "-");
		row[0] = muxctl_get_str(l, "name");
		row[1] = muxctl_get_str(l, "a");
		row[2] = muxctl_get_str(l, "b");
		row[3] = muxctl_get_str(l, "origin");
		row[4] = round;
		row[5] = muxctl_get_str(l, "station");
		row[6] = muxctl_get_str(l, "side");
		row[7] = muxctl_get_str(l, "entity");
		muxctl_table_add(&t, row, NULL);
	}
	muxctl_table_print(&t);
}

/* Print a status result: the round line, the ports, the links. */
static void
muxctl_show_status(const json_t *st)
{
	muxctl_show_round(json_object_get(st, "round"), "running since");
	putchar('\n');
	muxctl_show_ports(json_object_get(st, "ports"));
	putchar('\n');
	muxctl_show_links(json_object_get(st, "links"));
}

/*
 * Print the schedule like the table in the 2004 rules, one round a line:
 * "1  J1:E1:C1 J2:E3:C2 J3:E2:C4   excused J4 C3".
 */
static void
muxctl_show_schedule(const json_t *sch)
{
	const json_t	*rounds, *r, *pair;
	const char	*preset, *excused, *station, *entry, *conf;
	char		**parts, num[32], dur[32];
	size_t		 i, j, n, w, nw;
	double		 d;
	FILE		*fp;

	preset = muxctl_get_str(sch, "preset");
	printf("schedule: ");
	if (preset != NULL) {
		printf("preset ");
		muxctl_put_str(stdout, preset, 0);
	} else
		printf("from the configuration");
	if (muxctl_get_num(sch, "duration", &d) && d > 0) {
		muxctl_duration((long long)d, dur, sizeof(dur));
		printf(", rounds of %s", dur);
	} else
		printf(", rounds untimed");
	putchar('\n');

	rounds = json_object_get(sch, "rounds");
	if ((n = json_array_size(rounds)) == 0) {
		printf("no rounds\n");
		return;
	}
	if ((parts = calloc(n, sizeof(*parts))) == NULL)
		err(MUXCTL_EXIT_PROTOCOL, "calloc");
	w = nw = 0;
	json_array_foreach(rounds, i, r) {
		if ((fp = open_memstream(&parts[i], &j)) == NULL)
			err(MUXCTL_EXIT_PROTOCOL, "open_memstream");
		json_array_foreach(json_object_get(r, "pairs"), j, pair) {
			station = muxctl_get_str(pair, "station");
			entry = muxctl_get_str(pair, "entry");
			conf = muxctl_get_str(pair, "confederate");
			if (j > 0)
				putc(' ', fp);
			if (station != NULL)
				fputs(station, fp);
			else
				fprintf(fp, "J%s", muxctl_fmt_int(pair,
				    "judge", num, sizeof(num)));
			fprintf(fp, ":%s:%s", entry != NULL ? entry : "?",
			    conf != NULL ? conf : "?");
		}
		if (fclose(fp) != 0)
			err(MUXCTL_EXIT_PROTOCOL, "open_memstream");
		if (muxctl_width(parts[i]) > w)
			w = muxctl_width(parts[i]);
		if (strlen(muxctl_fmt_int(r, "round", num, sizeof(num))) > nw)
			nw = strlen(num);
	}
	json_array_foreach(rounds, i, r) {
		printf("%-*s  ", (int)nw, muxctl_fmt_int(r, "round", num,
		    sizeof(num)));
		if (*parts[i] == '\0') {
			free(parts[i]);
			if ((parts[i] = strdup("-")) == NULL)
				err(MUXCTL_EXIT_PROTOCOL, "strdup");
		}
		muxctl_put_str(stdout, parts[i], 0);
		excused = muxctl_get_str(r, "excused");
		if (excused != NULL && *excused != '\0') {
			printf("%*s   excused ",
			    (int)(w - muxctl_width(parts[i])), "");
			muxctl_put_str(stdout, excused, 0);
		}
		putchar('\n');
		free(parts[i]);
	}
	free(parts);
}

/* Print one event value: bare if it can be, else quoted or as JSON. */
static void
muxctl_show_value(const json_t *v)
{
	const unsigned char	*p;
	char			 buf[64], *text;
	int			 bare;

	if (v == NULL) {
		fputs("-", stdout);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		p = (const unsigned char *)json_string_value(v);
		bare = *p != '\0';
		for (; *p != '\0' && bare; p++)
			if (*p <= ' ' || *p == '"' || *p == '\\' ||
			    *p == '=' || *p == 0x7f || muxctl_c1(p))
				bare = 0;
		muxctl_put_str(stdout, json_string_value(v), !bare);
		break;
	case JSON_INTEGER:
		printf("%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		muxctl_real(json_real_value(v), buf, sizeof(buf));
		fputs(buf, stdout);
		break;
	case JSON_TRUE:
		fputs("true", stdout);
		break;
	case JSON_FALSE:
		fputs("false", stdout);
		break;
	case JSON_NULL:
		fputs("-", stdout);
		break;
	default:
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (text == NULL)
			errx(MUXCTL_EXIT_PROTOCOL, "out of memory");
		muxctl_put_str(stdout, text, 0);
		free(text);
		break;
	}
}

/* Print a value inside a sentence: a string bare, escaped; else as JSON. */
static void
muxctl_show_text(const json_t *v)
{
	if (json_is_string(v))
		muxctl_put_str(stdout, json_string_value(v), 0);
	else
		muxctl_show_value(v);
}

/* Print one event: "10:00:01.234 port.down name=j1-left error=...". */
static void
muxctl_show_event(const json_t *ev)
{
	const char	*key;
	json_t		*v;
	char		 when[64];
	double		 t;

	if (!muxctl_get_num(ev, "time", &t))
		t = muxctl_now();
	muxctl_clock(t, 1, when, sizeof(when));
	printf("%s ", when);
	muxctl_put_str(stdout, muxctl_get_str(ev, "event"), 0);
	json_object_foreach((json_t *)ev, key, v) {
		if (strcmp(key, "v") == 0 || strcmp(key, "event") == 0 ||
		    strcmp(key, "time") == 0)
			continue;
		putchar(' ');
		muxctl_put_str(stdout, key, 0);
		putchar('=');
		muxctl_show_value(v);
	}
	putchar('\n');
}

/* On SIGINT or SIGTERM during a watch: leave quietly, with success. */
static void
muxctl_interrupted(int sig)
{
	(void)sig;
	_exit(MUXCTL_EXIT_OK);
}

/*
 * Subscribe to events and print each one as it comes, until muxd closes
 * the connection (exit 0) or a signal ends the watch (exit 0).  A bad
 * event line is reported and skipped; an error reply ends with status 1.
 */
static int
muxctl_watch(struct muxctl_conn *c, int json)
{
	struct sigaction	 sa;
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
		err(MUXCTL_EXIT_PROTOCOL, "sigaction");
	setvbuf(stdout, NULL, _IOLBF, 0);

	muxctl_call(c, "watch", NULL, &reply, &line, &len);
	json_decref(reply);
	for (;;) {
		switch (muxctl_read_line(c, &line, &len, NULL)) {
		case MUXCTL_RD_EOF:
			return MUXCTL_EXIT_OK;
		case MUXCTL_RD_LONG:
			warnx("%s: event line longer than %d bytes skipped",
			    c->path, MUXCTL_LINE_MAX);
			continue;
		case MUXCTL_RD_TIMEOUT:		/* no deadline: not reached */
		case MUXCTL_RD_LINE:
			break;
		}
		if (len == 0)
			continue;
		o = json_loadb(line, len, 0, &jerr);
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
			} else
				muxctl_show_event(o);
			muxctl_flush();
		} else if (json_is_false(json_object_get(o, "ok"))) {
			msg = muxctl_get_str(o, "error");
			warnx("%s", msg != NULL ? msg :
			    "watch ended with an error");
			json_decref(o);
			exit(MUXCTL_EXIT_FAILED);
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
		err(MUXCTL_EXIT_PROTOCOL, "malloc");
	memcpy(buf, text, n);
	buf[n] = '\n';
	muxctl_write(c, buf, n + 1);
	free(buf);

	o = muxctl_reply(c, muxctl_id, 1, &line, &len);
	fwrite(line, 1, len, stdout);
	putchar('\n');
	rc = MUXCTL_EXIT_OK;
	if (!json_is_true(json_object_get(o, "ok"))) {
		muxctl_flush();
		msg = muxctl_get_str(o, "error");
		warnx("%s", msg != NULL ? msg : "request failed");
		rc = MUXCTL_EXIT_FAILED;
	}
	json_decref(o);
	return rc;
}

/* Flush standard output, or exit if it cannot be written. */
static void
muxctl_flush(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		err(MUXCTL_EXIT_FAILED, "stdout");
}

/* Print the result of a command for people. */
static void
muxctl_show(const char *cmd, const json_t *result)
{
	if (strcmp(cmd, "status") == 0)
		muxctl_show_status(result);
	else if (strcmp(cmd, "round.start") == 0) {
		muxctl_show_round(result, "started at");
		muxctl_show_placements(result);
	} else if (strcmp(cmd, "round.stop") == 0) {
		printf("round ");
		muxctl_show_text(json_object_get(result, "number"));
		printf(" stopped\n");
	} else if (strcmp(cmd, "connect") == 0) {
		result = json_object_get(result, "link");
		printf("connected ");
		muxctl_show_text(json_object_get(result, "a"));
		printf(" <-> ");
		muxctl_show_text(json_object_get(result, "b"));
		printf(" as link ");
		muxctl_show_text(json_object_get(result, "name"));
		putchar('\n');
	} else if (strcmp(cmd, "disconnect") == 0) {
		printf("disconnected link ");
		muxctl_show_text(json_object_get(result, "link"));
		putchar('\n');
	} else if (strcmp(cmd, "reload") == 0) {
		printf("reloaded");
		if (json_is_string(json_object_get(result, "config"))) {
			putchar(' ');
			muxctl_show_text(json_object_get(result, "config"));
		}
		putchar('\n');
	} else if (strcmp(cmd, "schedule") == 0)
		muxctl_show_schedule(result);
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
	int			 ch, json = 0, n, rc, saved;

	path = getenv("MUXD_SOCKET");
	if (path == NULL || *path == '\0')
		path = MUXD_CONTROL_PATH;
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
			if (optopt == 's')
				warnx("option -s needs a socket path");
			else if (optopt > ' ' && optopt < 0x7f)
				warnx("unknown option -%c", optopt);
			else
				warnx("unknown option");
			muxctl_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		muxctl_usage();
	if (*path == '\0') {
		warnx("empty socket path");
		muxctl_usage();
	}

	cmd = argv[0];
	if (strcmp(cmd, "status") == 0 || strcmp(cmd, "schedule") == 0 ||
	    strcmp(cmd, "reload") == 0 || strcmp(cmd, "watch") == 0) {
		if (argc != 1)
			muxctl_usage();
	} else if (strcmp(cmd, "round") == 0) {
		sub = argc > 1 ? argv[1] : "";
		if (strcmp(sub, "start") == 0 && argc == 3) {
			if ((n = muxctl_positive(argv[2])) == -1) {
				warnx("round: not a positive integer: %s",
				    argv[2]);
				muxctl_usage();
			}
			cmd = "round.start";
			args = json_pack("{s:i}", "round", n);
		} else if (strcmp(sub, "stop") == 0 && argc == 2)
			cmd = "round.stop";
		else
			muxctl_usage();
	} else if (strcmp(cmd, "connect") == 0) {
		if (argc != 3)
			muxctl_usage();
		muxctl_arg_check(argv[1]);
		muxctl_arg_check(argv[2]);
		args = json_pack("{s:s,s:s}", "a", argv[1], "b", argv[2]);
	} else if (strcmp(cmd, "disconnect") == 0) {
		if (argc != 2)
			muxctl_usage();
		muxctl_arg_check(argv[1]);
		args = json_pack("{s:s}", "target", argv[1]);
	} else if (strcmp(cmd, "send") == 0) {
		if (argc != 2)
			muxctl_usage();
		if (*argv[1] == '\0' || strchr(argv[1], '\n') != NULL) {
			warnx("send: the request must be one non-empty line");
			muxctl_usage();
		}
		if (strlen(argv[1]) + 1 > MUXCTL_LINE_MAX) {
			warnx("send: request longer than %d bytes",
			    MUXCTL_LINE_MAX);
			muxctl_usage();
		}
	} else {
		warnx("unknown command: %s", cmd);
		muxctl_usage();
	}

	if (muxctl_open(c, path) == -1) {
		saved = errno;
		json_decref(args);
		errx(MUXCTL_EXIT_UNREACHABLE, "%s: %s%s", path,
		    strerror(saved), saved == ENOENT || saved == ECONNREFUSED ?
		    " (is muxd running?)" : "");
	}
	if (strcmp(cmd, "send") == 0)
		rc = muxctl_send(c, argv[1]);
	else if (strcmp(cmd, "watch") == 0)
		rc = muxctl_watch(c, json);
	else {
		result = muxctl_call(c, cmd, args, &reply, &raw, &rawlen);
		if (json)
			muxctl_print_result(result, raw, rawlen);
		else
			muxctl_show(cmd, result);
		json_decref(reply);
		rc = MUXCTL_EXIT_OK;
	}
	close(c->fd);
	json_decref(muxctl_id);
	muxctl_flush();
	return rc;
}
