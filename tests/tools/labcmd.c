/*
 * labcmd: run one shell command in the lab guest over its control line.
 *
 * Sends "TAG BASE64" on the endpoint (the host end of the guest's
 * /dev/ttyS1, see tests/lab/init), COMMAND in base64 so that it may hold
 * any byte, prints what the guest answers up to the line "@@TAG STATUS",
 * and exits with STATUS.  Input left over from an earlier command is
 * discarded first.  The guest acknowledges a line as soon as it reads it
 * ("@@TAG +"); a line not acknowledged within LABCMD_ACK_MS is sent again
 * (the guest ignores a tag it has seen), so that a line garbled on the
 * way is not fatal.  Exit status 124 when no answer comes within the
 * timeout, with what was received on stderr.
 */

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "endpoint.h"

#define LABCMD_MAX	(1024 * 1024)	/* longest answer kept, bytes */
#define LABCMD_ACK_MS	4000		/* for the acknowledgement */
#define LABCMD_SENDS	3		/* times a line is sent at most */

static struct endpoint	labcmd_end = { .fd = -1 };

static void		usage(void) __attribute__((noreturn));

/* Print the command line summary and exit. */
static void
usage(void)
{
	fprintf(stderr, "usage: labcmd [-t timeout_ms] endpoint command ...\n"
	    "       default timeout: 30000 ms\n");
	exit(2);
}

/* Write all of buf to the endpoint, waiting while it is full. */
static void
labcmd_write(const char *buf, size_t len)
{
	struct pollfd	pfd;
	ssize_t		n;

	while (len > 0) {
		n = write(labcmd_end.fd, buf, len);
		if (n == -1 && (errno == EAGAIN || errno == EINTR)) {
			pfd.fd = labcmd_end.fd;
			pfd.events = POLLOUT;
			poll(&pfd, 1, 1000);
			continue;
		}
		if (n == -1)
			err(1, "write %s", labcmd_end.name);
		buf += n;
		len -= n;
	}
}

/* Append the base64 encoding of src to dst, which has room for it. */
static void
labcmd_base64(char *dst, const unsigned char *src, size_t len)
{
	static const char digits[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned long	v;
	size_t		i;

	dst += strlen(dst);
	for (i = 0; i < len; i += 3) {
		v = (unsigned long)src[i] << 16;
		if (i + 1 < len)
			v |= (unsigned long)src[i + 1] << 8;
		if (i + 2 < len)
			v |= src[i + 2];
		*dst++ = digits[(v >> 18) & 63];
		*dst++ = digits[(v >> 12) & 63];
		*dst++ = i + 1 < len ? digits[(v >> 6) & 63] : '=';
		*dst++ = i + 2 < len ? digits[v & 63] : '=';
	}
	*dst = '\0';
}

/*
 * Find the status line "@@TAG N\n" at a line start and return its offset;
 * an acknowledgement line "@@TAG +\n" on the way is cut out of the buffer
 * and noted in *acked.
 */
static long
labcmd_find(char *buf, size_t *len, const char *mark, int *status,
    int *acked)
{
	char	*p, *q, *end = buf + *len;
	size_t	 mlen = strlen(mark);

	p = buf;
	while (p + mlen < end) {
		if ((p != buf && p[-1] != '\n') || memcmp(p, mark, mlen) != 0) {
			p++;
			continue;
		}
		for (q = p + mlen; q < end && *q != '\n'; q++)
			;
		if (q == end)
			return (-1);
		if (p[mlen] != '+') {
			*status = atoi(p + mlen);
			return ((long)(p - buf));
		}
		/* Cut the acknowledgement; the next line now starts at p. */
		*acked = 1;
		memmove(p, q + 1, end - (q + 1));
		*len -= (size_t)(q + 1 - p);
		end = buf + *len;
	}
	return (-1);
}

int
main(int argc, char *argv[])
{
	struct pollfd	 pfd;
	char		*buf, *text, *cmd, mark[64], junk[4096];
	size_t		 len = 0, cmdlen = 0;
	long long	 timeout = 30000, deadline, left, resend, now;
	long		 at;
	ssize_t		 n;
	int		 ch, i, status, acked = 0, sends;

	while ((ch = getopt(argc, argv, "t:")) != -1) {
		switch (ch) {
		case 't':
			if (endpoint_number(optarg, 1, 3600000, &timeout) == -1)
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	labcmd_end.name = argv[0];
	endpoint_guard();
	endpoint_open(&labcmd_end);

	for (i = 1; i < argc; i++)
		cmdlen += strlen(argv[i]) + 1;
	if ((text = calloc(1, cmdlen + 1)) == NULL ||
	    (cmd = malloc(cmdlen / 3 * 4 + 80)) == NULL ||
	    (buf = malloc(LABCMD_MAX + 1)) == NULL)
		err(1, NULL);
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strcat(text, " ");
		strcat(text, argv[i]);
	}
	snprintf(mark, sizeof(mark), "@@L%ld-%lld ", (long)getpid(),
	    endpoint_now_us() % 1000000000LL);
	snprintf(cmd, 64, "%.*s", (int)strlen(mark) - 3, mark + 2);
	strcat(cmd, " ");
	labcmd_base64(cmd, (const unsigned char *)text, strlen(text));
	strcat(cmd, "\n");

	while ((n = read(labcmd_end.fd, junk, sizeof(junk))) > 0)
		;
	labcmd_write(cmd, strlen(cmd));
	sends = 1;

	deadline = endpoint_now_ms() + timeout;
	resend = endpoint_now_ms() + LABCMD_ACK_MS;
	for (;;) {
		if ((at = labcmd_find(buf, &len, mark, &status, &acked)) !=
		    -1) {
			fwrite(buf, 1, at, stdout);
			fflush(stdout);
			endpoint_restore();
			free(text);
			free(cmd);
			free(buf);
			return (status);
		}
		now = endpoint_now_ms();
		if ((left = deadline - now) <= 0)
			break;
		if (!acked && sends < LABCMD_SENDS && now >= resend) {
			fprintf(stderr, "labcmd: no acknowledgement in %d ms; "
			    "sending the line again\n", LABCMD_ACK_MS);
			labcmd_write("\n", 1);
			labcmd_write(cmd, strlen(cmd));
			sends++;
			resend = now + LABCMD_ACK_MS;
		}
		if (!acked && sends < LABCMD_SENDS && resend - now < left)
			left = resend - now;
		pfd.fd = labcmd_end.fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left) == -1 && errno != EINTR)
			err(1, "poll");
		n = read(labcmd_end.fd, buf + len, LABCMD_MAX - len);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			if (n == 0 || errno == EIO)
				errx(1, "%s: the guest's control line closed",
				    labcmd_end.name);
			err(1, "read %s", labcmd_end.name);
		}
		len += n;
		if (len == LABCMD_MAX)
			errx(1, "%s: answer longer than %d bytes",
			    labcmd_end.name, LABCMD_MAX);
	}
	buf[len] = '\0';
	fprintf(stderr, "labcmd: no answer to '%s' within %lld ms; "
	    "received %zu bytes:\n%s\n", argv[1], timeout, len, buf);
	endpoint_restore();
	free(text);
	free(cmd);
	free(buf);
	return (124);
}
