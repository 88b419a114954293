/*
 * The capture reader: the header, then one event per call.  A bad line is
 * reported (file, line, byte offset) and skipped, and the next call goes
 * on with the line after it, so everything readable is read.
 *
 * The buffer holds the unread bytes buf[start..end), the byte buf[start]
 * being at file offset off.  It grows to hold one whole line, up to the
 * line limit; a longer line is skipped without being kept.  Zero bytes
 * after the last line are the unused tail of a capture still being
 * written (cap-write.c), not a torn line: they end the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define CAP_READ_CHUNK	65536

struct cap_reader {
	int		 fd;
	int		 own;		/* close fd at the end */
	char		*name;
	char		*buf;
	size_t		 size;
	size_t		 start;
	size_t		 end;
	int64_t		 off;		/* file offset of buf[start] */
	unsigned long	 line;		/* lines taken so far */
	int		 eof;		/* read(2) returned 0 */
	int		 done;		/* nothing more to deliver */
	size_t		 limit;
	int64_t		 stop;		/* read no further; -1: the end */
	struct cap_meta	 meta;
	json_t		*header;
	unsigned char	*data;
	size_t		 datasize;
	int64_t		 last;		/* time of the previous event */
};

static enum cap_err cap_read_fill(struct cap_reader *, struct cap_error *);
static enum cap_err cap_read_take(struct cap_reader *, char **, size_t *,
		    int64_t *, struct cap_error *);
static enum cap_err cap_read_head(struct cap_reader *, struct cap_error *);
static int	cap_read_zeros(const char *, size_t);

/* Read more of the file into the buffer, making room first. */
static enum cap_err
cap_read_fill(struct cap_reader *r, struct cap_error *err)
{
	size_t	 nsize, want;
	ssize_t	 n;
	int64_t	 at;
	char	*p;

	if (r->start > 0 && (r->end == r->size || r->start > r->size / 2)) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == r->size) {
		nsize = r->size * 2;
		if (nsize > r->limit + CAP_READ_CHUNK)
			nsize = r->limit + CAP_READ_CHUNK;
		if (nsize < r->size + CAP_READ_CHUNK)
			nsize = r->size + CAP_READ_CHUNK;
		if ((p = realloc(r->buf, nsize)) == NULL) {
			cap_error_set(err, CAP_ENOMEM, r->name, r->line + 1,
			    r->off, "line of %zu bytes: out of memory",
			    r->end);
			return (CAP_ENOMEM);
		}
		r->buf = p;
		r->size = nsize;
	}
	want = r->size - r->end;
	at = r->off + (int64_t)(r->end - r->start);
	if (r->stop >= 0 && (int64_t)want > r->stop - at)
		want = r->stop > at ? (size_t)(r->stop - at) : 0;
	for (;;) {
		n = want == 0 ? 0 : read(r->fd, r->buf + r->end, want);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			return (cap_error_sys(err, CAP_ESYS, r->name,
			    r->line + 1, r->off + (int64_t)(r->end - r->start),
			    "read"));
		}
		break;
	}
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return (CAP_OK);
}

/* Tell whether n bytes are all zero (a capture's unused tail). */
static int
cap_read_zeros(const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (p[i] != '\0')
			return (0);
	return (1);
}

/*
 * Take the next line (without its newline): CAP_OK, CAP_EOF, CAP_ETORN
 * for bytes after the last newline, CAP_ELONG for a line over the limit
 * (skipped), or a system error.  *at is the line's file offset.
 */
static enum cap_err
cap_read_take(struct cap_reader *r, char **line, size_t *len, int64_t *at,
    struct cap_error *err)
{
	char		*nl;
	size_t		 scanned = 0, skipped = 0;
	int64_t		 begin;
	enum cap_err	 e;

	if (r->done)
		return (CAP_EOF);
	begin = r->off;
	for (;;) {
		nl = memchr(r->buf + r->start + scanned, '\n',
		    r->end - r->start - scanned);
		if (nl != NULL)
			break;
		scanned = r->end - r->start;
		if (r->eof) {
			r->done = 1;
			if (scanned == 0 && skipped == 0)
				return (CAP_EOF);
			/* The unused tail of a capture being written. */
			if (skipped == 0 && cap_read_zeros(r->buf + r->start,
			    scanned))
				return (CAP_EOF);
			r->line++;
			cap_error_set(err, CAP_ETORN, r->name, r->line, begin,
			    "last line (%zu bytes) has no newline: a torn "
			    "write, skipped", scanned + skipped);
			return (CAP_ETORN);
		}
		if (scanned >= r->limit) {
			/* Drop what we have of a line too long to keep. */
			skipped += scanned;
			r->off += (int64_t)scanned;
			r->start = r->end = 0;
			scanned = 0;
		}
		if ((e = cap_read_fill(r, err)) != CAP_OK) {
			r->done = 1;
			return (e);
		}
	}
	*line = r->buf + r->start;
	*len = (size_t)(nl - *line);
	*at = begin;
	r->line++;
	r->off += (int64_t)(*len + 1);
	r->start += *len + 1;
	if (skipped > 0 || *len > r->limit) {
		cap_error_set(err, CAP_ELONG, r->name, r->line, begin,
		    "line of %zu bytes is longer than the limit of %zu, "
		    "skipped", skipped + *len, r->limit);
		return (CAP_ELONG);
	}
	return (CAP_OK);
}

/* Read and check the header line. */
static enum cap_err
cap_read_head(struct cap_reader *r, struct cap_error *err)
{
	json_error_t	 je;
	char		*p;
	size_t		 len;
	int64_t		 at;
	enum cap_err	 e;

	e = cap_read_take(r, &p, &len, &at, err);
	if (e == CAP_EOF) {
		cap_error_set(err, CAP_EHEADER, r->name, 1, 0,
		    "empty file, no header");
		return (CAP_EHEADER);
	}
	if (e == CAP_ETORN) {
		/* A header without its newline: no events, maybe usable. */
		p = r->buf + r->start;
		len = r->end - r->start;
	} else if (e == CAP_ELONG) {
		cap_error_set(err, CAP_EHEADER, r->name, 1, 0,
		    "header line longer than %zu bytes", r->limit);
		return (CAP_EHEADER);
	} else if (e != CAP_OK)
		return (e);
	r->header = json_loadb(p, len, 0, &je);
	if (r->header == NULL) {
		cap_error_set(err, CAP_EHEADER, r->name, 1,
		    (int64_t)je.position, "header is not valid JSON: %s",
		    je.text);
		return (CAP_EHEADER);
	}
	if ((e = cap_meta_from_json(r->header, &r->meta, err)) != CAP_OK) {
		snprintf(err->file, sizeof(err->file), "%s", r->name);
		return (e);
	}
	return (CAP_OK);
}

/* Open a capture file and read its header. */
enum cap_err
cap_read_open(const char *path, struct cap_reader **rp,
    struct cap_error *err)
{
	int		fd;
	enum cap_err	e;

	*rp = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		cap_error_clear(err);
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1,
		    "cannot open"));
	}
	if ((e = cap_read_fdopen(fd, path, rp, err)) != CAP_OK) {
		close(fd);
		return (e);
	}
	(*rp)->own = 1;
	return (CAP_OK);
}

/* Read a capture from an open descriptor (not closed at the end). */
enum cap_err
cap_read_fdopen(int fd, const char *name, struct cap_reader **rp,
    struct cap_error *err)
{
	struct cap_reader	*r;
	enum cap_err		 e;

	*rp = NULL;
	cap_error_clear(err);
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->name = strdup(name)) == NULL ||
	    (r->buf = malloc(CAP_READ_CHUNK)) == NULL) {
		if (r != NULL) {
			free(r->name);
			free(r);
		}
		cap_error_set(err, CAP_ENOMEM, name, 0, -1,
		    "opening capture: out of memory");
		return (CAP_ENOMEM);
	}
	cap_meta_init(&r->meta);
	r->fd = fd;
	r->size = CAP_READ_CHUNK;
	r->limit = CAP_LINE_LIMIT;
	r->stop = -1;
	if ((e = cap_read_head(r, err)) != CAP_OK) {
		cap_read_close(r);
		return (e);
	}
	*rp = r;
	return (CAP_OK);
}

/* Set the longest line kept (a longer one is skipped as CAP_ELONG). */
void
cap_read_set_limit(struct cap_reader *r, size_t limit)
{
	r->limit = limit < 64 ? 64 : limit;
}

/*
 * Read no further than file offset end, as if the file ended there (a
 * capture being written, read as far as it was when asked); -1 is to
 * its end.
 */
void
cap_read_set_end(struct cap_reader *r, int64_t end)
{
	r->stop = end;
	/* What was read past it already (with the header) is left out. */
	if (end >= 0 && r->off + (int64_t)(r->end - r->start) > end) {
		r->end = end > r->off ? r->start + (size_t)(end - r->off) :
		    r->start;
		r->eof = 1;
	}
}

/*
 * Read the next event.  CAP_OK, CAP_EOF, or an error for one line which
 * is then skipped: call again to go on.  On CAP_EORDER the event is
 * filled all the same.  After CAP_ESYS or CAP_ENOMEM, CAP_EOF follows.
 */
enum cap_err
cap_read_event(struct cap_reader *r, struct cap_event *ev,
    struct cap_error *err)
{
	char		*line, msg[CAP_ERR_MSG];
	size_t		 len, erroff;
	int64_t		 at;
	unsigned char	*p;
	enum cap_err	 e;

	cap_error_clear(err);
	if ((e = cap_read_take(r, &line, &len, &at, err)) != CAP_OK)
		return (e);
	if (len + 1 > r->datasize) {
		if ((p = realloc(r->data, len + 1)) == NULL) {
			r->done = 1;
			cap_error_set(err, CAP_ENOMEM, r->name, r->line, at,
			    "line of %zu bytes: out of memory", len);
			return (CAP_ENOMEM);
		}
		r->data = p;
		r->datasize = len + 1;
	}
	e = cap_json_parse_event(line, len, r->meta.encoding, ev, r->data,
	    &erroff, msg, sizeof(msg));
	if (e != CAP_OK) {
		cap_error_set(err, e, r->name, r->line, at + (int64_t)erroff,
		    "%s", msg);
		return (e);
	}
	ev->line = r->line;
	ev->offset = at;
	if (ev->usec < r->last) {
		cap_error_set(err, CAP_EORDER, r->name, r->line, at,
		    "time %lld.%06lld is before the previous event's "
		    "%lld.%06lld", (long long)(ev->usec / 1000000),
		    (long long)(ev->usec % 1000000),
		    (long long)(r->last / 1000000),
		    (long long)(r->last % 1000000));
		r->last = ev->usec;
		return (CAP_EORDER);
	}
	r->last = ev->usec;
	return (CAP_OK);
}

/* The header, as read. */
const struct cap_meta *
cap_read_meta(const struct cap_reader *r)
{
	return (&r->meta);
}

/* The header as JSON (the reader's; json_incref() to keep it). */
json_t *
cap_read_header(const struct cap_reader *r)
{
	return (r->header);
}

/* The name given when opening. */
const char *
cap_read_name(const struct cap_reader *r)
{
	return (r->name);
}

/* The file offset of the next line. */
int64_t
cap_read_offset(const struct cap_reader *r)
{
	return (r->off);
}

/* The number of lines taken so far, the header included. */
unsigned long
cap_read_line(const struct cap_reader *r)
{
	return (r->line);
}

/* Close a reader and free everything it gave out. */
void
cap_read_close(struct cap_reader *r)
{
	if (r == NULL)
		return;
	if (r->own)
		close(r->fd);
	cap_meta_free(&r->meta);
	json_decref(r->header);
	free(r->data);
	free(r->buf);
	free(r->name);
	free(r);
}
