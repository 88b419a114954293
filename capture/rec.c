/*
 * Live recording: a capture and the transcript made from it, fed the same
 * events at the same times, so that `transcripts render` of the capture
 * gives back the transcript byte for byte.  The transcript sees an event
 * only once the capture holds it, at the time the capture holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

struct rec {
	struct cap_writer	*cap;
	struct tx_writer	*tx;
};

/*
 * Create the capture at cappath (or its next segment; flags as
 * cap_write_open's) and, when txdir is set, the next transcript
 * LPyy-nn.TXT in txdir, whose name goes into the capture's header.
 */
enum cap_err
rec_open(const char *cappath, const char *txdir, const struct cap_meta *meta,
    int flags, struct rec **rp, struct cap_error *err)
{
	struct rec	*r;
	struct cap_meta	 m;
	const char	*base;
	enum cap_err	 e;

	*rp = NULL;
	cap_error_clear(err);
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		cap_error_set(err, CAP_ENOMEM, cappath, 0, -1,
		    "recording: out of memory");
		return (CAP_ENOMEM);
	}
	if ((e = cap_meta_copy(&m, meta, err)) != CAP_OK) {
		free(r);
		return (e);
	}
	if ((e = cap_meta_normalize(&m, err)) != CAP_OK)
		goto fail;
	if (txdir != NULL) {
		if ((e = tx_write_open(txdir, &m, 0, &r->tx, err)) != CAP_OK)
			goto fail;
		base = strrchr(tx_write_path(r->tx), '/');
		base = base != NULL ? base + 1 : tx_write_path(r->tx);
		if (cap_meta_set(&m.transcript, base) == -1) {
			cap_error_set(err, CAP_ENOMEM, cappath, 0, -1,
			    "recording: out of memory");
			e = CAP_ENOMEM;
			goto fail;
		}
	}
	if ((e = cap_write_open(cappath, &m, flags, &r->cap, err)) != CAP_OK)
		goto fail;
	cap_meta_free(&m);
	*rp = r;
	return (CAP_OK);
fail:
	if (r->tx != NULL) {
		unlink(tx_write_path(r->tx));
		tx_write_free(r->tx);
	}
	cap_meta_free(&m);
	free(r);
	return (e);
}

/*
 * Give the transcript the loss marker the capture wrote, when a fault
 * that lost events ended, so that it marks the gap where the capture
 * does.
 */
static enum cap_err
rec_loss(struct rec *r, struct cap_error *err)
{
	char	text[CAP_MARKER_MAX];
	size_t	n;

	if ((n = cap_write_loss(r->cap, text, sizeof(text))) == 0 ||
	    r->tx == NULL)
		return (CAP_OK);
	return (tx_write_event(r->tx, CAP_MARKER, text, n,
	    cap_write_usec(r->cap), err));
}

/*
 * Record an event at the caller's time: the capture, then the
 * transcript.  An event the capture could not write is in neither: the
 * loss marker that follows the fault says what was lost.
 */
enum cap_err
rec_event(struct rec *r, enum cap_kind kind, const void *data, size_t len,
    const struct timeval *tv, struct cap_error *err)
{
	enum cap_err	e;

	if ((e = cap_write_event(r->cap, kind, data, len, tv, err)) != CAP_OK)
		return (e);
	if (r->tx == NULL)
		return (CAP_OK);
	(void)rec_loss(r, err);
	return (tx_write_event(r->tx, kind, data, len,
	    cap_write_usec(r->cap), err));
}

/*
 * The recording fault under way: the errno of the capture's or else the
 * transcript's failed write, 0 when none; lost[3] as cap_write_fault's.
 */
int
rec_fault(const struct rec *r, uint64_t lost[3])
{
	int	e;

	if ((e = cap_write_fault(r->cap, lost)) != 0 || r->tx == NULL)
		return (e);
	return (tx_write_fault(r->tx, NULL));
}

/* fsync(2) what was written since the last sync: call at most once a second. */
enum cap_err
rec_sync(struct rec *r, struct cap_error *err)
{
	enum cap_err	e;

	if ((e = cap_write_sync(r->cap, err)) != CAP_OK)
		return (e);
	if (r->tx == NULL)
		return (CAP_OK);
	(void)rec_loss(r, err);
	return (tx_write_sync(r->tx, err));
}

/*
 * Hand over the next fsync(2) of what was written since the last sync:
 * fd[0] the capture's, fd[1] the transcript's, each a duplicate to sync
 * and close (from any thread), or -1 when that file needs none.
 */
enum cap_err
rec_sync_fd(struct rec *r, int fd[2], struct cap_error *err)
{
	enum cap_err	e;

	fd[1] = -1;
	if ((e = cap_write_sync_fd(r->cap, &fd[0], err)) != CAP_OK)
		return (e);
	if (r->tx == NULL)
		return (CAP_OK);
	(void)rec_loss(r, err);
	return (tx_write_sync_fd(r->tx, &fd[1], err));
}

/*
 * End the conversation without closing: the capture's closing seal and
 * the transcript's unfinished lines are written, so that a rec_sync_fd()
 * that follows covers them.
 */
enum cap_err
rec_finish(struct rec *r, struct cap_error *err)
{
	enum cap_err	e;

	if ((e = cap_write_seal(r->cap, 1, err)) != CAP_OK || r->tx == NULL)
		return (e);
	(void)rec_loss(r, err);
	return (tx_write_finish(r->tx, err));
}

/* End a recording: the transcript's unfinished lines, sync, close. */
enum cap_err
rec_close(struct rec *r, struct cap_error *err)
{
	struct cap_error	 e2;
	enum cap_err		 e = CAP_OK, e3;

	if (r == NULL)
		return (CAP_OK);
	if (r->tx != NULL)
		e = tx_write_close(r->tx, err);
	e3 = cap_write_close(r->cap, e == CAP_OK ? err : &e2);
	if (e == CAP_OK)
		e = e3;
	free(r);
	return (e);
}

/* The capture's writer. */
struct cap_writer *
rec_capture(const struct rec *r)
{
	return (r->cap);
}

/* The capture's file name. */
const char *
rec_capture_path(const struct rec *r)
{
	return (cap_write_path(r->cap));
}

/* The transcript's file name, or NULL when there is none. */
const char *
rec_transcript_path(const struct rec *r)
{
	return (r->tx != NULL ? tx_write_path(r->tx) : NULL);
}

/*
 * Close a recording its writer left open (a crash): the capture as
 * cap_recover() does, then its transcript, found as txroot/ENTITY/NAME
 * (the name its header gives): what the capture renders beyond the
 * transcript's text (the lines unfinished at the crash, the judge's
 * typed after the last line end among them, then "*** CRASH ***") is
 * appended, when the transcript is the start of that rendering.
 * *txpath gets the transcript completed (to free), or NULL.
 */
enum cap_err
rec_recover(const char *cappath, const char *txroot, struct cap_recovery *rc,
    char **txpath, struct cap_error *err)
{
	struct cap_reader	*r = NULL;
	struct tx_writer	*tw = NULL;
	struct cap_event	 ev;
	struct cap_error	 e;
	const struct cap_meta	*m;
	const char		*ren;
	char			*txt = NULL, *path = NULL;
	size_t			 rlen, tlen;
	enum cap_err		 rv;
	int			 fd;

	*txpath = NULL;
	if ((rv = cap_recover(cappath, rc, err)) != CAP_OK || !rc->crashed ||
	    txroot == NULL)
		return (rv);
	if ((rv = cap_read_open(cappath, &r, err)) != CAP_OK)
		return (rv);
	m = cap_read_meta(r);
	if (m->transcript == NULL || m->entity == NULL ||
	    strchr(m->transcript, '/') != NULL || strchr(m->entity, '/') !=
	    NULL || m->transcript[0] == '.' || m->entity[0] == '.') {
		cap_read_close(r);
		return (CAP_OK);
	}
	if (asprintf(&path, "%s/%s/%s", txroot, m->entity, m->transcript) ==
	    -1) {
		path = NULL;
		goto nomem;
	}
	if (cap_file_read(path, SIZE_MAX / 2, &txt, &tlen, &e) != CAP_OK) {
		rv = e.sys == ENOENT ? CAP_OK : e.code;
		if (rv != CAP_OK)
			*err = e;
		goto done;
	}
	if ((rv = tx_write_memopen(m, &tw, err)) != CAP_OK)
		goto done;
	while ((rv = cap_read_event(r, &ev, &e)) != CAP_EOF) {
		if (rv == CAP_ENOMEM || rv == CAP_ESYS) {
			*err = e;
			goto done;
		}
		if (rv == CAP_OK || rv == CAP_EORDER)
			(void)tx_write_event(tw, ev.kind, ev.data, ev.len,
			    ev.usec, &e);
	}
	(void)tx_write_finish(tw, &e);
	ren = tx_write_buffer(tw, &rlen);
	if (rlen < tlen || memcmp(ren, txt, tlen) != 0) {
		cap_error_set(err, CAP_EINVAL, path, 0, -1, "the transcript "
		    "is not the start of what the capture renders: left as "
		    "it is");
		rv = CAP_EINVAL;
		goto done;
	}
	rv = CAP_OK;
	if (rlen > tlen) {
		if ((fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW |
		    O_CLOEXEC)) == -1) {
			rv = cap_error_sys(err, CAP_ESYS, path, 0, -1, "open");
			goto done;
		}
		if (write(fd, ren + tlen, rlen - tlen) != (ssize_t)(rlen -
		    tlen) || fsync(fd) == -1) {
			rv = cap_error_sys(err, CAP_ESYS, path, 0,
			    (int64_t)tlen, "write");
			if (ftruncate(fd, (off_t)tlen) == -1)
				err->offset = (int64_t)tlen;
		}
		close(fd);
	}
	if (rv == CAP_OK) {
		*txpath = path;
		path = NULL;
	}
done:
	free(path);
	free(txt);
	tx_write_free(tw);
	cap_read_close(r);
	return (rv);
nomem:
	cap_read_close(r);
	cap_error_set(err, CAP_ENOMEM, cappath, 0, -1, "out of memory");
	return (CAP_ENOMEM);
}
