/*
 * A capture whose writer died (SIGKILL, a crash, a power cut) closed by
 * whoever finds it next: the unused tail of its mapping (NUL bytes) cut
 * off, a torn last line cut off too, and its end marked with a "crash"
 * marker sealed alone and the closing seal, so that it reads as standard
 * asciicast and verifies as a crash recovered.  Only captures written by
 * muxd (the "muxd" software in the header) and not closed (no closing
 * seal at their end) are touched; one closed properly loses at most a
 * NUL tail a failed ftruncate(2) left.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

static enum cap_err cap_recover_scan(const char *, struct cap_recovery *,
		    int64_t *, int *, int *, struct cap_error *);
static int	cap_recover_closed(const char *);
static enum cap_err cap_recover_mark(const char *, struct cap_recovery *,
		    int64_t, int, struct cap_error *);

/*
 * Tell, from its last line alone, whether a capture ends with its
 * closing seal (the common case, told without reading it through).
 */
static int
cap_recover_closed(const char *path)
{
	char		 buf[CAP_JSON_MAX(CAP_MARKER_MAX)], *nl;
	struct stat	 st;
	ssize_t		 n;
	off_t		 at;
	int		 fd, rv = 0;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return (0);
	if (fstat(fd, &st) == 0 && st.st_size > 1) {
		at = st.st_size > (off_t)sizeof(buf) - 1 ? st.st_size -
		    (off_t)sizeof(buf) + 1 : 0;
		if ((n = pread(fd, buf, sizeof(buf) - 1, at)) > 1 &&
		    buf[n - 1] == '\n') {
			buf[n - 1] = '\0';
			nl = strrchr(buf, '\n');
			nl = nl != NULL ? nl + 1 : buf;
			rv = strstr(nl, ", \"m\", \"seal ") != NULL &&
			    strcmp(buf + n - 7, " end\"]") == 0;
		}
	}
	close(fd);
	return (rv);
}

/*
 * Read a capture through: *usec the last event's time, *seal whether the
 * last event is a seal (2: the closing one), *muxd whether muxd wrote
 * it; rc->torn the bytes of a torn last line, rc->tornat its offset.
 */
static enum cap_err
cap_recover_scan(const char *path, struct cap_recovery *rc, int64_t *usec,
    int *seal, int *muxd, struct cap_error *err)
{
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;
	const struct cap_meta	*m;
	unsigned char		 head[CAP_CHAIN_BYTES];
	unsigned long		 lines;
	struct stat		 st;
	enum cap_err		 rv;
	int			 end;

	*usec = 0;
	*seal = 0;
	if ((rv = cap_read_open(path, &r, err)) != CAP_OK)
		return (rv);
	m = cap_read_meta(r);
	*muxd = m->software != NULL && strncmp(m->software, "muxd ", 5) == 0;
	while ((rv = cap_read_event(r, &ev, &e)) != CAP_EOF) {
		if (rv == CAP_ENOMEM || rv == CAP_ESYS) {
			*err = e;
			cap_read_close(r);
			return (rv);
		}
		if (rv == CAP_ETORN) {
			rc->tornat = e.offset;
			continue;
		}
		if (rv != CAP_OK && rv != CAP_EORDER)
			continue;
		*usec = ev.usec;
		*seal = 0;
		if (ev.kind == CAP_MARKER && cap_chain_seal_parse(ev.data,
		    ev.len, &lines, head, &end) == 1)
			*seal = end ? 2 : 1;
	}
	cap_read_close(r);
	if (rc->tornat >= 0) {
		if (stat(path, &st) == -1)
			return (cap_error_sys(err, CAP_ESYS, path, 0, -1,
			    "stat"));
		rc->torn = (int64_t)st.st_size - rc->tornat;
	}
	return (CAP_OK);
}

/*
 * Append to a capture whose torn line (if any) is cut off: a seal of the
 * lines not sealed yet (unless the last one is a seal), the crash marker,
 * the closing seal, at the last event's time, in one write(2).
 */
static enum cap_err
cap_recover_mark(const char *path, struct cap_recovery *rc, int64_t usec,
    int sealed, struct cap_error *err)
{
	unsigned char		 head[CAP_CHAIN_BYTES], h2[CAP_CHAIN_BYTES];
	struct cap_chain	*c;
	unsigned long		 lines, l2;
	int64_t			 bytes;
	char			 text[CAP_MARKER_MAX];
	char			 buf[4 * CAP_JSON_MAX(CAP_MARKER_MAX)];
	size_t			 n = 0, k, len;
	char			*text_all;
	enum cap_err		 rv;
	int			 fd;

	/* The chain as the writer had it: every whole line fed. */
	if ((rv = cap_file_read(path, SIZE_MAX / 2, &text_all, &len, err)) !=
	    CAP_OK)
		return (rv);
	while (len > 0 && text_all[len - 1] != '\n')
		len--;
	bytes = (int64_t)len;
	if ((c = cap_chain_new()) == NULL) {
		free(text_all);
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	cap_chain_feed(c, text_all, len);
	free(text_all);
	memcpy(head, cap_chain_head(c), CAP_CHAIN_BYTES);
	lines = cap_chain_lines(c);
	if (!sealed) {
		k = cap_chain_seal_format(text, sizeof(text), lines, head, 0);
		n += cap_json_event(buf + n, usec, CAP_MARKER,
		    (unsigned char *)text, k, CAP_LATIN1);
	}
	n += cap_json_event(buf + n, usec, CAP_MARKER,
	    (unsigned char *)rc->marker, strlen(rc->marker), CAP_LATIN1);
	cap_chain_peek(c, buf, n, h2, &l2);
	k = cap_chain_seal_format(text, sizeof(text), l2, h2, 1);
	n += cap_json_event(buf + n, usec, CAP_MARKER, (unsigned char *)text,
	    k, CAP_LATIN1);
	cap_chain_free(c);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)) ==
	    -1)
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1, "open"));
	if (write(fd, buf, n) != (ssize_t)n || fsync(fd) == -1) {
		cap_error_sys(err, CAP_ESYS, path, 0, bytes, "write");
		if (ftruncate(fd, (off_t)bytes) == -1)
			err->offset = bytes;	/* told as it is */
		close(fd);
		return (CAP_ESYS);
	}
	if (close(fd) == -1)
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1, "close"));
	return (CAP_OK);
}

/*
 * Close a capture its writer left open: rc says what was done
 * (rc->crashed 0 and rc->trimmed 0: nothing, the capture was closed).
 * The marker is "crash trimmed N torn M": N NUL bytes cut off the end, M
 * bytes of a torn last line cut off (with its offset in the capture,
 * "at OFFSET").
 */
enum cap_err
cap_recover(const char *path, struct cap_recovery *rc, struct cap_error *err)
{
	int64_t		 usec;
	int		 seal, muxd;
	enum cap_err	 rv;
	size_t		 n;

	memset(rc, 0, sizeof(*rc));
	rc->tornat = -1;
	cap_error_clear(err);
	if ((rv = cap_file_trim(path, &rc->trimmed, err)) != CAP_OK)
		return (rv);
	if (cap_recover_closed(path))
		return (CAP_OK);
	if ((rv = cap_recover_scan(path, rc, &usec, &seal, &muxd, err)) !=
	    CAP_OK)
		return (rv);
	if (!muxd)
		return (CAP_OK);
	if (rc->tornat >= 0 && truncate(path, (off_t)rc->tornat) == -1)
		return (cap_error_sys(err, CAP_ESYS, path, 0, rc->tornat,
		    "truncate"));
	if (seal == 2)
		return (CAP_OK);	/* closed: nothing follows its seal */
	n = (size_t)snprintf(rc->marker, sizeof(rc->marker),
	    "crash trimmed %lld torn %lld", (long long)rc->trimmed,
	    (long long)rc->torn);
	if (rc->tornat >= 0)
		snprintf(rc->marker + n, sizeof(rc->marker) - n, " at %lld",
		    (long long)rc->tornat);
	if ((rv = cap_recover_mark(path, rc, usec, seal != 0, err)) != CAP_OK)
		return (rv);
	rc->crashed = 1;
	return (CAP_OK);
}
