/*
 * ttyio: a scriptable terminal end for shell tests.
 *
 * Opens one endpoint and runs its actions in order, so a shell script can
 * play a judge terminal or an entity:
 *
 *	send:TEXT	write TEXT at once
 *	type:TEXT	write TEXT a byte at a time, -d ms between bytes
 *	expect:TEXT	read until the input since the last expect holds TEXT
 *	quiet:MS	read for MS ms; fail if anything arrives
 *	drain:MS	read for MS ms and forget everything received so far
 *	sleep:MS	wait MS ms (still reading)
 *	print		print everything received so far, escaped
 *	save:FILE	write everything received so far, as it came, to FILE
 *
 * TEXT takes the C escapes \r \n \t \e \\ \xHH.  Input is read all the time,
 * whatever the action, so a peer that writes while we write never blocks.
 * Failures go to stderr with what was received, escaped; exit status 1.
 */

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "endpoint.h"

#define TTYIO_SHOW_MAX	4096	/* input shown in a failure, bytes */

enum ttyio_kind {
	TTYIO_SEND,
	TTYIO_TYPE,
	TTYIO_EXPECT,
	TTYIO_QUIET,
	TTYIO_DRAIN,
	TTYIO_SLEEP,
	TTYIO_PRINT,
	TTYIO_SAVE,
};

/* One parsed action. */
struct ttyio_action {
	enum ttyio_kind	 kind;
	const char	*arg;		/* as given, for messages */
	unsigned char	*text;		/* decoded TEXT */
	size_t		 len;
	long long	 ms;
};

/* The endpoint. */
static struct endpoint	 ttyio_end = { .fd = -1 };

/*
 * Everything received, in order.  Bytes before mark were consumed by an
 * expect (or a drain); expect searches from mark on.
 */
static unsigned char	*ttyio_hist;
static size_t		 ttyio_len, ttyio_cap, ttyio_mark;

/*
 * The peer closed (0 from read, or EIO from a pty): what came before still
 * counts; an expect not yet met fails, quiet, drain and sleep just wait.
 */
static int		 ttyio_eof;
static int		 ttyio_eof_errno;

static void		 usage(void) __attribute__((noreturn));

/* Print the command line summary and exit. */
static void
usage(void)
{
	fprintf(stderr,
	    "usage: ttyio [-d delay_ms] [-t timeout_ms] endpoint [action ...]\n"
	    "       endpoint: a tty or pty path, or tcp:HOST:PORT\n"
	    "       actions: send:TEXT type:TEXT expect:TEXT quiet:MS drain:MS "
	    "sleep:MS print\n"
	    "       TEXT takes \\r \\n \\t \\e \\\\ \\xHH; defaults: -d 20 "
	    "-t 5000\n");
	exit(1);
}

/* Parse a number of milliseconds or exit naming what it is for. */
static long long
ttyio_ms(const char *s, const char *what)
{
	long long	v;

	if (endpoint_number(s, 0, 86400000, &v) == -1)
		errx(1, "%s: expected milliseconds (0 to 86400000): %s", what,
		    s);
	return (v);
}

/* Write bytes to f escaped: printable ASCII as is, the rest as C escapes. */
static void
ttyio_escape(FILE *f, const unsigned char *p, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		switch (p[i]) {
		case '\r':	fputs("\\r", f); break;
		case '\n':	fputs("\\n", f); break;
		case '\t':	fputs("\\t", f); break;
		case 0x1b:	fputs("\\e", f); break;
		case '\\':	fputs("\\\\", f); break;
		default:
			if (p[i] >= 0x20 && p[i] < 0x7f)
				fputc(p[i], f);
			else
				fprintf(f, "\\x%02x", p[i]);
		}
	}
}

/* Show received bytes from off on stderr, the last ones if many. */
static void
ttyio_show(const char *what, size_t off)
{
	size_t	len = ttyio_len - off;

	fprintf(stderr, "ttyio: %s (%zu byte%s): \"", what, len,
	    len == 1 ? "" : "s");
	if (len > TTYIO_SHOW_MAX) {
		fprintf(stderr, "...");
		off = ttyio_len - TTYIO_SHOW_MAX;
		len = TTYIO_SHOW_MAX;
	}
	ttyio_escape(stderr, ttyio_hist + off, len);
	fprintf(stderr, "\"\n");
}

/* Read what is waiting and append it to the history; note end of file. */
static void
ttyio_read(void)
{
	ssize_t	n;

	for (;;) {
		if (ttyio_len == ttyio_cap) {
			ttyio_cap *= 2;
			if ((ttyio_hist = realloc(ttyio_hist, ttyio_cap)) ==
			    NULL)
				err(1, NULL);
		}
		n = read(ttyio_end.fd, ttyio_hist + ttyio_len,
		    ttyio_cap - ttyio_len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n > 0) {
			ttyio_len += n;
			continue;
		}
		if (n == 0 || errno == EIO) {
			ttyio_eof = 1;
			ttyio_eof_errno = n == 0 ? 0 : errno;
			return;
		}
		ttyio_show("received since the last expect", ttyio_mark);
		err(1, "read %s", ttyio_end.name);
	}
}

/*
 * Wait until the deadline (ms, monotonic), reading input meanwhile.  Return
 * 1 early when the fd is writable (if want), when input arrived (if
 * stop_on_input), or at end of file for either; else 0 at the deadline.
 */
static int
ttyio_poll(long long deadline, int want, int stop_on_input)
{
	struct pollfd	pfd;
	long long	left;
	size_t		before;
	int		n;

	for (;;) {
		left = deadline - endpoint_now_ms();
		if (left < 0)
			left = 0;
		if (ttyio_eof) {
			/* Nothing more can arrive: let the caller see it. */
			if (want || stop_on_input)
				return (1);
			if (poll(NULL, 0, left) == -1 && errno == EINTR)
				continue;
			return (0);
		}
		pfd.fd = ttyio_end.fd;
		pfd.events = POLLIN | (want ? POLLOUT : 0);
		if ((n = poll(&pfd, 1, left)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (n == 0)
			return (0);
		before = ttyio_len;
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
			ttyio_read();
		if (want && (pfd.revents & (POLLOUT | POLLERR)))
			return (1);
		if (stop_on_input && ttyio_len > before)
			return (1);
		if (left == 0)
			return (0);
	}
}

/* Write all of a buffer, reading input meanwhile. */
static void
ttyio_write(const struct ttyio_action *a, const unsigned char *p,
    size_t len, long long timeout)
{
	long long	deadline = endpoint_now_ms() + timeout;
	ssize_t		n;

	while (len > 0) {
		if (!ttyio_poll(deadline, 1, 0))
			errx(1, "%s: %s accepted nothing for %lld ms", a->arg,
			    ttyio_end.name, timeout);
		if ((n = write(ttyio_end.fd, p, len)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			err(1, "%s: write %s", a->arg, ttyio_end.name);
		}
		p += n;
		len -= n;
		deadline = endpoint_now_ms() + timeout;
	}
}

/* Read until the input since the last expect holds the text. */
static void
ttyio_expect(const struct ttyio_action *a, long long timeout)
{
	long long	 deadline = endpoint_now_ms() + timeout;
	unsigned char	*p;
	int		 late = 0;

	for (;;) {
		p = memmem(ttyio_hist + ttyio_mark, ttyio_len - ttyio_mark,
		    a->text, a->len);
		if (p != NULL) {
			ttyio_mark = p - ttyio_hist + a->len;
			return;
		}
		if (ttyio_eof) {
			fprintf(stderr, "ttyio: %s: %s%s%s before it came\n",
			    a->arg, ttyio_end.name, ttyio_eof_errno ?
			    ": " : ": end of file", ttyio_eof_errno ?
			    strerror(ttyio_eof_errno) : "");
			ttyio_show("received since the last expect",
			    ttyio_mark);
			exit(1);
		}
		if (late) {
			fprintf(stderr, "ttyio: %s: not received within %lld "
			    "ms\n", a->arg, timeout);
			ttyio_show("received since the last expect",
			    ttyio_mark);
			exit(1);
		}
		if (!ttyio_poll(deadline, 0, 1))
			late = 1;
	}
}

/* Write everything received so far, as it came, to a file. */
static void
ttyio_save(const char *path)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		err(1, "save: %s", path);
	if ((ttyio_len > 0 && fwrite(ttyio_hist, 1, ttyio_len, f) !=
	    ttyio_len) || fclose(f) == EOF)
		err(1, "save: %s", path);
}

/* Parse one action argument. */
static void
ttyio_parse(struct ttyio_action *a, const char *s)
{
	static const struct {
		const char	*name;
		enum ttyio_kind	 kind;
		int		 ms;
	} kinds[] = {
		{ "send:", TTYIO_SEND, 0 },
		{ "type:", TTYIO_TYPE, 0 },
		{ "expect:", TTYIO_EXPECT, 0 },
		{ "quiet:", TTYIO_QUIET, 1 },
		{ "drain:", TTYIO_DRAIN, 1 },
		{ "sleep:", TTYIO_SLEEP, 1 },
	};
	size_t	i, l;

	a->arg = s;
	if (strcmp(s, "print") == 0) {
		a->kind = TTYIO_PRINT;
		return;
	}
	if (strncmp(s, "save:", 5) == 0 && s[5] != '\0') {
		a->kind = TTYIO_SAVE;
		return;
	}
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		l = strlen(kinds[i].name);
		if (strncmp(s, kinds[i].name, l) != 0)
			continue;
		a->kind = kinds[i].kind;
		if (kinds[i].ms)
			a->ms = ttyio_ms(s + l, s);
		else
			a->text = endpoint_unescape(s + l, &a->len);
		if (a->kind == TTYIO_EXPECT && a->len == 0)
			errx(1, "%s: nothing to expect", s);
		return;
	}
	errx(1, "unknown action: %s (send:, type:, expect:, quiet:, drain:, "
	    "sleep:, print)", s);
}

/* Parse the actions, open the endpoint, run the actions in order. */
int
main(int argc, char *argv[])
{
	struct ttyio_action	*acts, *a;
	long long		 timeout = 5000, delay = 20;
	size_t			 i, before;
	int			 ch, n, nacts;

	while ((ch = getopt(argc, argv, "d:t:")) != -1) {
		switch (ch) {
		case 'd':
			delay = ttyio_ms(optarg, "-d");
			break;
		case 't':
			timeout = ttyio_ms(optarg, "-t");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	ttyio_end.name = argv[0];
	nacts = argc - 1;
	if ((acts = calloc(nacts + 1, sizeof *acts)) == NULL)
		err(1, NULL);
	for (n = 0; n < nacts; n++)
		ttyio_parse(&acts[n], argv[n + 1]);
	ttyio_cap = 65536;
	if ((ttyio_hist = malloc(ttyio_cap)) == NULL)
		err(1, NULL);

	endpoint_guard();
	endpoint_open(&ttyio_end);

	for (n = 0; n < nacts; n++) {
		a = &acts[n];
		switch (a->kind) {
		case TTYIO_SEND:
			ttyio_write(a, a->text, a->len, timeout);
			break;
		case TTYIO_TYPE:
			for (i = 0; i < a->len; i++) {
				if (i > 0)
					ttyio_poll(endpoint_now_ms() + delay,
					    0, 0);
				ttyio_write(a, a->text + i, 1, timeout);
			}
			break;
		case TTYIO_EXPECT:
			ttyio_expect(a, timeout);
			break;
		case TTYIO_QUIET:
			before = ttyio_len;
			ttyio_poll(endpoint_now_ms() + a->ms, 0, 0);
			if (ttyio_len > before) {
				fprintf(stderr, "ttyio: %s: input arrived\n",
				    a->arg);
				ttyio_show("received during the quiet time",
				    before);
				exit(1);
			}
			break;
		case TTYIO_DRAIN:
			ttyio_poll(endpoint_now_ms() + a->ms, 0, 0);
			ttyio_mark = ttyio_len;
			break;
		case TTYIO_SLEEP:
			ttyio_poll(endpoint_now_ms() + a->ms, 0, 0);
			break;
		case TTYIO_PRINT:
			ttyio_escape(stdout, ttyio_hist, ttyio_len);
			putchar('\n');
			if (fflush(stdout) == EOF)
				err(1, "stdout");
			break;
		case TTYIO_SAVE:
			ttyio_save(a->arg + 5);
			break;
		}
	}
	for (n = 0; n < nacts; n++)
		free(acts[n].text);
	free(acts);
	free(ttyio_hist);
	return (0);
}
