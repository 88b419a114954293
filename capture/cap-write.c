/*
 * The capture writer.  A capture is created, never opened again: when
 * its name exists, the next segment name is taken (NAME.1.cast,
 * NAME.2.cast...), so nothing is ever truncated or overwritten.
 *
 * With CAP_WRITE_MAP (muxd's recordings), each event is one line written,
 * as it happens, into a shared mapping of the file (MAP_SHARED): its
 * pages are the page cache's, so a killed process loses nothing it has
 * written, and writing costs no system call.  The file is extended in
 * steps of CAP_MAP_STEP with its blocks allocated (fallocate(2): a full
 * disk fails there, never as a SIGBUS on a page), so while it is written
 * its tail is the unused, zero-filled part of the last step, which
 * readers take for the end (cap-read.c); closing trims it, and when the
 * writer died first (SIGKILL, a crash) cap_recover() does, or the next
 * segment's opening, so that the file is standard asciicast again.
 * Otherwise (a file others read while it is written, such as comprog's),
 * or where a file cannot be mapped (a filesystem without fallocate, or
 * no room for the first step), each event is one write(2).
 *
 * A write that fails (ENOSPC, EIO; a step the full disk cannot give the
 * mapping) writes nothing: a part of a line written is cut off again
 * (only when that fails too is the line ended with a newline before the
 * next event, so that the reader loses that line only).  The fault's
 * lost events are counted by direction, and the lines written when
 * writing works again begin with the sealed marker "loss input N output
 * M markers K ERRNO" (cap_write_fault() tells the fault under way,
 * cap_write_loss() the marker once written).  fsync(2) is the caller's:
 * cap_write_sync() at most once a second while events are written
 * (transcripts(5)), or cap_write_sync_fd() to have it done elsewhere, in
 * another thread.
 *
 * Every line written extends the capture's hash chain (cap-chain.c):
 * at once with write(2); through the mapping, the chain catches up on
 * what the file holds when a seal is made, before the file is
 * unmapped, and whenever a step's worth is waiting (so that no
 * catch-up holds the caller long, whatever the syncs), so that an
 * event costs its formatting alone (in place, in the mapping) and the
 * stretch between two seals is hashed in one pass.  The writer seals
 * the chain: a "seal" marker comes before (when anything is unsealed)
 * and after every marker, in the same write, the events since the last
 * seal at each sync, and the last line at close.  Seals are the
 * writer's own: one handed to it (copied from another capture) is not
 * written.
 */
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define CAP_MAP_STEP	(256 * 1024)	/* the file grows by so much */

struct cap_writer {
	/* What an event written touches first, on as few cache lines. */
	char		*map;		/* the file, mapped, or NULL */
	size_t		 maplen;	/* its length, the file's size */
	size_t		 off;		/* bytes written */
	size_t		 hashed;	/* of the mapping, fed to the chain */
	int64_t		 last;		/* time of the last event, usec */
	unsigned long	 unsealed;	/* lines since the last seal */
	int		 dirty;		/* written since the last fsync */
	int		 torn;		/* a write was cut short */
	struct cap_meta	 meta;
	int		 fd;
	char		*path;
	struct cap_chain *chain;	/* the lines written */
	char		*prev;		/* the segment before, or NULL */
	int64_t		 prevcut;	/* NUL bytes trimmed off its end */
	int		 ended;		/* the closing seal is written */
	char		*buf;		/* one event line, grown as needed */
	size_t		 size;
	/* A recording fault: what failed, and what it lost meanwhile. */
	int		 fault;		/* errno of the failed write, or 0 */
	uint64_t	 lost[2];	/* "i" and "o" bytes not written */
	unsigned long	 lostmarks;	/* markers not written */
	char		 loss[CAP_MARKER_MAX];	/* the loss marker written,
					   until cap_write_loss() takes it */
};

static char	*cap_write_name(const char *, int);
static enum cap_err cap_write_all(struct cap_writer *, const char *, size_t,
		    struct cap_error *);
static size_t	cap_write_seal_line(struct cap_writer *, size_t, int);
static enum cap_err cap_write_grow(struct cap_writer *, size_t,
		    struct cap_error *);
static int	cap_write_map(struct cap_writer *, size_t);
static int	cap_write_unmap(struct cap_writer *);
static void	cap_write_catchup(struct cap_writer *);
static void	cap_write_mapped(struct cap_writer *);
static int	cap_write_lossy(const struct cap_writer *);
static size_t	cap_write_loss_text(const struct cap_writer *, char *, size_t);
static size_t	cap_write_loss_line(struct cap_writer *, size_t, int64_t);
static void	cap_write_healed(struct cap_writer *, int);

/* Make the name of segment n of path: PATH, STEM.n.cast or PATH.n. */
static char *
cap_write_name(const char *path, int n)
{
	size_t	 len = strlen(path);
	char	*s;

	if (n == 0)
		return (strdup(path));
	if (len > 5 && strcmp(path + len - 5, ".cast") == 0) {
		if (asprintf(&s, "%.*s.%d.cast", (int)(len - 5), path, n) == -1)
			return (NULL);
	} else if (asprintf(&s, "%s.%d", path, n) == -1)
		return (NULL);
	return (s);
}

/*
 * Map the file with room for need more bytes: extended (blocks
 * allocated) to the next step and mapped again.  -1 when it cannot be
 * mapped (a filesystem without fallocate(2)), -2 when there is no room
 * for now (a full disk, an I/O error: errno set; the mapping stays).
 */
static int
cap_write_map(struct cap_writer *w, size_t need)
{
	size_t	 len;
	void	*p;

	len = (w->off + need + CAP_MAP_STEP - 1) / CAP_MAP_STEP * CAP_MAP_STEP;
	if (fallocate(w->fd, 0, 0, (off_t)len) == -1) {
		if (w->map != NULL && errno != EOPNOTSUPP && errno != ENOSYS)
			return (-2);
		return (-1);
	}
	p = w->map == NULL ? mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_SHARED, w->fd, 0) : mremap(w->map, w->maplen, len,
	    MREMAP_MAYMOVE);
	if (p == MAP_FAILED) {
		/* Not mapped yet: the file goes back to what was written. */
		if (w->map == NULL && ftruncate(w->fd, (off_t)w->off) == -1)
			w->torn = 1;	/* its zeros end as a line */
		return (-1);
	}
	w->map = p;
	w->maplen = len;
	return (0);
}

/* Feed the chain what was copied into the mapping since it last was. */
static void
cap_write_catchup(struct cap_writer *w)
{
	if (w->map == NULL || w->hashed == w->off)
		return;
	cap_chain_feed(w->chain, w->map + w->hashed, w->off - w->hashed);
	w->hashed = w->off;
}

/* Bytes were put in the mapping: a long stretch is hashed as it goes. */
static void
cap_write_mapped(struct cap_writer *w)
{
	w->dirty = 1;
	if (w->off - w->hashed >= CAP_MAP_STEP)
		cap_write_catchup(w);
}

/* Unmap the file and trim its unused tail; -1 when the trim fails. */
static int
cap_write_unmap(struct cap_writer *w)
{
	int	rv = 0;

	if (w->map == NULL)
		return (0);
	cap_write_catchup(w);
	munmap(w->map, w->maplen);
	w->map = NULL;
	w->maplen = 0;
	if (ftruncate(w->fd, (off_t)w->off) == -1)
		rv = -1;
	return (rv);
}

/*
 * Write a whole buffer of whole lines: into the mapping, or with
 * write(2), retrying short writes and EINTR.  On failure nothing of it
 * stays: a part written is cut off again (when even that fails, the
 * writer remembers that a line was torn, to end it first next time).
 */
static enum cap_err
cap_write_all(struct cap_writer *w, const char *p, size_t len,
    struct cap_error *err)
{
	size_t	done = 0;
	ssize_t	n;
	int	rv;

	if (w->map != NULL) {
		if (w->off + len <= w->maplen ||
		    (rv = cap_write_map(w, len)) == 0) {
			memcpy(w->map + w->off, p, len);
			w->off += len;
			cap_write_mapped(w);
			return (CAP_OK);
		}
		if (rv == -2) {
			w->fault = errno;
			return (cap_error_sys(err, CAP_ESYS, w->path, 0,
			    (int64_t)w->off, "fallocate"));
		}
		/* A file that cannot be mapped: write(2) from here on. */
		if (cap_write_unmap(w) == -1) {
			w->fault = errno;
			return (cap_error_sys(err, CAP_ESYS, w->path, 0, -1,
			    "ftruncate"));
		}
	}
	while (done < len) {
		n = write(w->fd, p + done, len - done);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			w->fault = errno;
			cap_error_sys(err, CAP_ESYS, w->path, 0,
			    (int64_t)w->off, "write");
			if (done > 0 && ftruncate(w->fd, (off_t)w->off) == -1) {
				/* The part written stays: chained, ended. */
				cap_chain_feed(w->chain, p, done);
				w->off += done;
				w->torn = 1;
			}
			return (CAP_ESYS);
		}
		done += (size_t)n;
	}
	cap_chain_feed(w->chain, p, len);
	w->off += len;
	w->dirty = 1;
	return (CAP_OK);
}

/* Tell whether a fault lost anything (its loss marker is owed). */
static int
cap_write_lossy(const struct cap_writer *w)
{
	return (w->lost[0] > 0 || w->lost[1] > 0 || w->lostmarks > 0);
}

/*
 * The loss marker of a fault: "loss input N output M markers K ERRNO",
 * the bytes of each direction and the markers it did not write.
 */
static size_t
cap_write_loss_text(const struct cap_writer *w, char *buf, size_t size)
{
	const char	*name;
	int		 k;

	name = w->fault != 0 ? strerrorname_np(w->fault) : NULL;
	k = snprintf(buf, size, "loss input %llu output %llu markers %lu %s",
	    (unsigned long long)w->lost[0], (unsigned long long)w->lost[1],
	    w->lostmarks, name != NULL ? name : "unknown");
	return (k > 0 && (size_t)k < size ? (size_t)k : 0);
}

/*
 * Put in the buffer, after its n bytes, the loss marker of a fault that
 * lost something, sealed alone as every marker is; the new length.
 */
static size_t
cap_write_loss_line(struct cap_writer *w, size_t n, int64_t usec)
{
	char	text[CAP_MARKER_MAX];
	size_t	len;

	if (!cap_write_lossy(w))
		return (n);
	len = cap_write_loss_text(w, text, sizeof(text));
	if (w->unsealed > 0)
		n = cap_write_seal_line(w, n, 0);
	if (usec > w->last)
		w->last = usec;
	n += cap_json_event(w->buf + n, w->last, CAP_MARKER,
	    (unsigned char *)text, len, w->meta.encoding);
	return (cap_write_seal_line(w, n, 0));
}

/*
 * The lines in the buffer are written: a fault is over, and the loss
 * marker written (marked) is kept for cap_write_loss().
 */
static void
cap_write_healed(struct cap_writer *w, int marked)
{
	if (marked)
		cap_write_loss_text(w, w->loss, sizeof(w->loss));
	w->fault = 0;
	w->lost[0] = w->lost[1] = 0;
	w->lostmarks = 0;
	w->torn = 0;
}

/*
 * Create a capture at path (or its next free segment) and write its
 * header from meta.  flags: CAP_WRITE_NOSEGMENT, CAP_WRITE_MAP (write
 * through a shared mapping, where the file allows it).
 */
enum cap_err
cap_write_open(const char *path, const struct cap_meta *meta, int flags,
    struct cap_writer **wp, struct cap_error *err)
{
	struct cap_writer	*w;
	json_t			*h = NULL;
	char			*text = NULL;
	size_t			 len;
	int			 n;
	enum cap_err		 e;

	*wp = NULL;
	cap_error_clear(err);
	if (path == NULL || *path == '\0') {
		cap_error_set(err, CAP_EINVAL, NULL, 0, -1,
		    "capture: no file name");
		return (CAP_EINVAL);
	}
	if ((w = calloc(1, sizeof(*w))) == NULL)
		goto nomem;
	w->fd = -1;
	if ((e = cap_meta_copy(&w->meta, meta, err)) != CAP_OK) {
		free(w);
		return (e);
	}
	if ((w->chain = cap_chain_new()) == NULL)
		goto nomem;
	if ((e = cap_meta_normalize(&w->meta, err)) != CAP_OK) {
		snprintf(err->file, sizeof(err->file), "%s", path);
		goto fail;
	}
	for (n = 0; n <= CAP_SEGMENT_MAX; n++) {
		free(w->path);
		if ((w->path = cap_write_name(path, n)) == NULL)
			goto nomem;
		w->fd = open(w->path, O_RDWR | O_CREAT | O_EXCL | O_APPEND |
		    O_NOFOLLOW | O_CLOEXEC, 0666);
		if (w->fd != -1)
			break;
		if (errno != EEXIST) {
			e = cap_error_sys(err, CAP_ESYS, w->path, 0, -1,
			    "cannot create capture");
			goto fail;
		}
		if (flags & CAP_WRITE_NOSEGMENT) {
			cap_error_set(err, CAP_EEXIST, w->path, 0, -1,
			    "file exists, not overwritten");
			e = CAP_EEXIST;
			goto fail;
		}
	}
	if (w->fd == -1) {
		cap_error_set(err, CAP_EEXIST, path, 0, -1,
		    "segments 0 to %d all exist", CAP_SEGMENT_MAX);
		e = CAP_EEXIST;
		goto fail;
	}
	w->meta.segment = n;
	if (n > 0 && (w->prev = cap_write_name(path, n - 1)) == NULL)
		goto nomem;
	/* A segment before left by a writer that died: its tail, trimmed. */
	if (w->prev != NULL && cap_file_trim(w->prev, &w->prevcut,
	    err) != CAP_OK)
		cap_error_clear(err);	/* it stays as it is, readers cope */
	if ((h = cap_meta_to_json(&w->meta)) == NULL ||
	    (text = json_dumps(h, JSON_PRESERVE_ORDER)) == NULL)
		goto nomem;
	len = strlen(text);
	text[len] = '\n';	/* json_dumps() leaves room for its NUL */
	if (flags & CAP_WRITE_MAP)
		cap_write_map(w, len + 1);	/* else write(2) */
	if ((e = cap_write_all(w, text, len + 1, err)) != CAP_OK) {
		unlink(w->path);
		goto fail;
	}
	free(text);
	json_decref(h);
	w->unsealed = 1;
	*wp = w;
	return (CAP_OK);
nomem:
	cap_error_set(err, CAP_ENOMEM, path, 0, -1,
	    "creating capture: out of memory");
	e = CAP_ENOMEM;
fail:
	free(text);
	json_decref(h);
	if (w != NULL) {
		if (w->map != NULL)
			munmap(w->map, w->maplen);
		if (w->fd != -1)
			close(w->fd);
		cap_meta_free(&w->meta);
		cap_chain_free(w->chain);
		free(w->prev);
		free(w->path);
		free(w);
	}
	return (e);
}

/* Write an event at a wall-clock time (the caller's, never read here). */
enum cap_err
cap_write_event(struct cap_writer *w, enum cap_kind kind, const void *data,
    size_t len, const struct timeval *tv, struct cap_error *err)
{
	int64_t	usec;

	usec = ((int64_t)tv->tv_sec - w->meta.timestamp) * 1000000 +
	    tv->tv_usec;
	return (cap_write_event_usec(w, kind, data, len, usec, err));
}

/*
 * Write an event at usec microseconds after the header's timestamp.
 * Times never decrease in a capture: an earlier time (a clock stepped
 * back) is written as the previous event's, and so is a time before 0.
 * cap_write_usec() tells the time written.
 */
enum cap_err
cap_write_event_usec(struct cap_writer *w, enum cap_kind kind,
    const void *data, size_t len, int64_t usec, struct cap_error *err)
{
	unsigned long	 lines, unsealed;
	unsigned char	 head[CAP_CHAIN_BYTES];
	size_t		 n = 0, m;
	int		 end, seal = 0, marked;

	if (kind != CAP_INPUT && kind != CAP_OUTPUT && kind != CAP_MARKER &&
	    kind != CAP_RESIZE) {
		cap_error_set(err, CAP_EINVAL, w->path, 0, -1,
		    "event type 0x%02x is not i, o, m or r", (unsigned)kind);
		return (CAP_EINVAL);
	}
	if (len > (SIZE_MAX - 128) / 6 - CAP_MARKER_MAX) {
		cap_error_set(err, CAP_EINVAL, w->path, 0, -1,
		    "event of %zu bytes is too large", len);
		return (CAP_EINVAL);
	}
	if (kind == CAP_MARKER) {
		if (cap_chain_seal_parse(data, len, &lines, head, &end) != 0)
			return (CAP_OK);	/* the writer seals */
		seal = 1;
	}
	if (usec < w->last)
		usec = w->last;
	/* An event alone, with room in the mapping: written in place. */
	if (!seal && w->fault == 0 && w->map != NULL && w->off +
	    CAP_JSON_MAX(len) <= w->maplen) {
		w->off += cap_json_event(w->map + w->off, usec, kind, data,
		    len, w->meta.encoding);
		cap_write_mapped(w);
		w->last = usec;
		w->unsealed++;
		return (CAP_OK);
	}
	if (cap_write_grow(w, CAP_JSON_MAX(len) +
	    4 * CAP_JSON_MAX(CAP_MARKER_MAX) + 1, err) != CAP_OK)
		return (CAP_ENOMEM);
	if (w->torn)
		w->buf[n++] = '\n';
	/* After a fault, what it lost is marked first. */
	m = n;
	n = cap_write_loss_line(w, n, usec);
	marked = n > m;
	unsealed = marked ? 0 : w->unsealed;
	/*
	 * A marker is sealed alone: the lines before it are sealed first,
	 * and the marker by the line after it.
	 */
	if (seal && unsealed > 0)
		n = cap_write_seal_line(w, n, 0);
	n += cap_json_event(w->buf + n, usec, kind, data, len,
	    w->meta.encoding);
	w->last = usec;
	if (seal)
		n = cap_write_seal_line(w, n, 0);
	if (cap_write_all(w, w->buf, n, err) != CAP_OK) {
		if (kind == CAP_INPUT || kind == CAP_OUTPUT)
			w->lost[kind == CAP_OUTPUT] += len;
		else
			w->lostmarks++;
		return (CAP_ESYS);
	}
	cap_write_healed(w, marked);
	w->unsealed = seal ? 0 : unsealed + 1;
	return (CAP_OK);
}

/* Make room for a line of need bytes in the writer's buffer. */
static enum cap_err
cap_write_grow(struct cap_writer *w, size_t need, struct cap_error *err)
{
	char	*p;

	if (need <= w->size)
		return (CAP_OK);
	if ((p = realloc(w->buf, need)) == NULL) {
		cap_error_set(err, CAP_ENOMEM, w->path, 0, -1,
		    "event of %zu bytes: out of memory", need);
		return (CAP_ENOMEM);
	}
	w->buf = p;
	w->size = need;
	return (CAP_OK);
}

/*
 * Append to the n bytes in the buffer (whole lines, or the newline that
 * ends a torn one first) the seal of the chain they end, at the time of
 * the last event; the new length.
 */
static size_t
cap_write_seal_line(struct cap_writer *w, size_t n, int end)
{
	unsigned char	head[CAP_CHAIN_BYTES];
	unsigned long	lines;
	char		text[CAP_MARKER_MAX];
	size_t		len;

	cap_write_catchup(w);
	cap_chain_peek(w->chain, w->buf, n, head, &lines);
	len = cap_chain_seal_format(text, sizeof(text), lines, head, end);
	return (n + cap_json_event(w->buf + n, w->last, CAP_MARKER,
	    (unsigned char *)text, len, w->meta.encoding));
}

/*
 * Seal the lines written since the last seal (end: the closing seal,
 * written even when all is sealed, once).
 */
enum cap_err
cap_write_seal(struct cap_writer *w, int end, struct cap_error *err)
{
	size_t	n = 0, m;

	if (w->unsealed == 0 && !cap_write_lossy(w) && (!end || w->ended))
		return (CAP_OK);
	if (cap_write_grow(w, 3 * CAP_JSON_MAX(CAP_MARKER_MAX) + 2, err) !=
	    CAP_OK)
		return (CAP_ENOMEM);
	if (w->torn)
		w->buf[n++] = '\n';
	m = n;
	n = cap_write_loss_line(w, n, w->last);
	if (n == m || end)
		n = cap_write_seal_line(w, n, end);
	if (cap_write_all(w, w->buf, n, err) != CAP_OK)
		return (CAP_ESYS);
	cap_write_healed(w, cap_write_lossy(w));
	w->unsealed = 0;
	w->ended = end;
	return (CAP_OK);
}

/*
 * fsync(2) a file if *dirty (written since the last sync), then clear it;
 * the capture and the transcript writers' sync.
 */
enum cap_err
cap_write_fsync(int fd, const char *path, int *dirty, struct cap_error *err)
{
	if (!*dirty)
		return (CAP_OK);
	if (fsync(fd) == -1) {
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1, "fsync"));
	}
	*dirty = 0;
	return (CAP_OK);
}

/*
 * Hand over the next fsync(2) of a file: if *dirty (written since the last
 * sync), *fdp gets a duplicate of fd, close-on-exec, for the caller to
 * fsync and close, from any thread and even once fd is closed, and the
 * file counts as synced; otherwise *fdp is -1.  The capture and the
 * transcript writers' handover.
 */
enum cap_err
cap_write_fsync_fd(int fd, const char *path, int *dirty, int *fdp,
    struct cap_error *err)
{
	*fdp = -1;
	if (!*dirty)
		return (CAP_OK);
	if ((*fdp = fcntl(fd, F_DUPFD_CLOEXEC, 0)) == -1) {
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1,
		    "sync: dup"));
	}
	*dirty = 0;
	return (CAP_OK);
}

/*
 * Seal what was written since the last seal, and fsync(2) the capture if
 * anything was written since the last sync.
 */
enum cap_err
cap_write_sync(struct cap_writer *w, struct cap_error *err)
{
	enum cap_err	e;

	if ((e = cap_write_seal(w, 0, err)) != CAP_OK)
		return (e);
	return (cap_write_fsync(w->fd, w->path, &w->dirty, err));
}

/*
 * Seal what was written since the last seal, and hand over the capture's
 * next fsync(2): *fdp is a duplicate of its file to sync and close, or -1
 * when nothing was written since the last sync.
 */
enum cap_err
cap_write_sync_fd(struct cap_writer *w, int *fdp, struct cap_error *err)
{
	enum cap_err	e;

	*fdp = -1;
	if ((e = cap_write_seal(w, 0, err)) != CAP_OK)
		return (e);
	return (cap_write_fsync_fd(w->fd, w->path, &w->dirty, fdp, err));
}

/*
 * Write the closing seal, trim the file's unused tail, sync and close a
 * capture, and free the writer whatever happens.
 */
enum cap_err
cap_write_close(struct cap_writer *w, struct cap_error *err)
{
	enum cap_err	e;

	if (w == NULL)
		return (CAP_OK);
	e = cap_write_seal(w, 1, err);
	if (cap_write_unmap(w) == -1 && e == CAP_OK) {
		e = cap_error_sys(err, CAP_ESYS, w->path, 0, -1, "ftruncate");
	}
	if (e == CAP_OK)
		e = cap_write_fsync(w->fd, w->path, &w->dirty, err);
	if (close(w->fd) == -1 && e == CAP_OK) {
		e = cap_error_sys(err, CAP_ESYS, w->path, 0, -1, "close");
	}
	cap_meta_free(&w->meta);
	cap_chain_free(w->chain);
	free(w->prev);
	free(w->path);
	free(w->buf);
	free(w);
	return (e);
}

/* The name the capture was created under. */
const char *
cap_write_path(const struct cap_writer *w)
{
	return (w->path);
}

/* The header as written (normalised, with its segment number). */
const struct cap_meta *
cap_write_meta(const struct cap_writer *w)
{
	return (&w->meta);
}

/*
 * The marker a later segment starts with, "resume PREVIOUS LINES HEAD":
 * the segment before it (its name beside this one), its whole lines and
 * the head of their chain, as it is now.  Its length, or 0 for a first
 * segment or when the segment before cannot be read (err filled).
 */
size_t
cap_write_resume(const struct cap_writer *w, char *buf, size_t size,
    struct cap_error *err)
{
	unsigned char	 head[CAP_CHAIN_BYTES];
	char		 hex[CAP_CHAIN_HEX];
	const char	*base;
	unsigned long	 lines;
	int64_t		 bytes;
	int		 n;

	cap_error_clear(err);
	if (w->prev == NULL || cap_chain_file(w->prev, (unsigned long)-1,
	    head, &lines, &bytes, err) != CAP_OK)
		return (0);
	base = strrchr(w->prev, '/') != NULL ? strrchr(w->prev, '/') + 1 :
	    w->prev;
	n = snprintf(buf, size, "resume %s %lu %s", base, lines,
	    cap_chain_hex(head, hex));
	if (n > 0 && (size_t)n < size && w->prevcut > 0)
		n += snprintf(buf + n, size - (size_t)n, " trimmed %lld",
		    (long long)w->prevcut);
	return (n > 0 && (size_t)n < size ? (size_t)n : 0);
}

/* The time of the last event written, in usec after the timestamp. */
int64_t
cap_write_usec(const struct cap_writer *w)
{
	return (w->last);
}

/*
 * What the next seal has to hash: the bytes put in the mapping since the
 * chain last caught up (a file written with write(2) is hashed as it is
 * written, so 0 for it).
 */
size_t
cap_write_unhashed(const struct cap_writer *w)
{
	return (w->map != NULL ? w->off - w->hashed : 0);
}

/* The bytes written so far: where the capture's last line ends. */
int64_t
cap_write_offset(const struct cap_writer *w)
{
	return ((int64_t)w->off);
}

/*
 * The recording fault under way: the errno of the write that failed (0
 * when none), the bytes of each direction ("i", "o") and the markers it
 * has lost so far, in lost[3] when not NULL.
 */
int
cap_write_fault(const struct cap_writer *w, uint64_t lost[3])
{
	if (lost != NULL) {
		lost[0] = w->lost[0];
		lost[1] = w->lost[1];
		lost[2] = w->lostmarks;
	}
	return (w->fault);
}

/*
 * Take the text of the loss marker written since the last call, when a
 * fault that lost something ended: its length, 0 when there is none.
 */
size_t
cap_write_loss(struct cap_writer *w, char *buf, size_t size)
{
	size_t	n = strlen(w->loss);

	if (n == 0 || n >= size)
		return (0);
	memcpy(buf, w->loss, n + 1);
	w->loss[0] = '\0';
	return (n);
}
