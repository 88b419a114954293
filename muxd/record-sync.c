/*
 * The syncs of the recordings, in a thread of its own: a sync can take
 * tens of milliseconds, or seconds on a busy disk, and the event loop must
 * never wait for one.  The loop hands over duplicates of the descriptors
 * to sync (record_sync_add, from cap_write_sync_fd and rec_sync_fd), so a
 * file closed or rotated meanwhile is still synced, then sends the lot
 * (record_sync_flush).  The thread syncs and closes each, and hands the
 * batch back with the errors, which the loop logs: the thread never logs
 * and never touches the loop.
 *
 * A batch is synced with one syncfs(2) per filesystem its files are on,
 * not an fsync(2) per file: on a journaling filesystem each fsync of a
 * file still being appended to is a journal commit of its own, and a
 * room of 128 links has 256 files, whose commits every second held the
 * loop's own writes back for milliseconds (the 99th percentile of a
 * byte's way through muxd went from under 1 ms to 3-5 ms in the
 * benchmark).  When a syncfs fails, every file of the batch on that
 * filesystem is fsync'ed, so that the error is told with the file it
 * concerns (Linux reports writeback errors to syncfs since 5.8).
 *
 * One batch at a time is with the thread (worker.c): what is added
 * meanwhile waits for it to come back, so a slow disk delays the syncs
 * but never piles up descriptors.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

struct record_sync_file {
	int		 fd;		/* a duplicate, the thread's to close */
	int		 error;		/* errno of the sync, or 0 */
	dev_t		 dev;		/* its filesystem */
	int		 done;		/* synced, or failed */
	char		*path;		/* for the message */
};

struct record_sync_batch {
	struct worker_job job;		/* first: the worker's */
	struct record_sync_file *files;
	size_t		 n;
	size_t		 size;
};

static struct worker	*record_sync_worker;
static struct record_sync_batch *record_sync_next;	/* being filled */
static int		 record_sync_out;	/* batches with the thread */
static int		 record_sync_wanted;	/* a flush waits for them */
static void		(*record_sync_done_cb)(const char *, int);

static void	 record_sync_run(struct worker_job *);
static void	 record_sync_batch(struct record_sync_batch *);
static void	 record_sync_send(void);
static void	 record_sync_back(struct worker_job *);
static void	 record_sync_free(struct record_sync_batch *);

/* Start the thread that syncs; done is told each file synced, or why not. */
void
record_sync_init(void (*done)(const char *, int))
{
	char	err[MUXD_ERRLEN];

	record_sync_done_cb = done;
	if ((record_sync_worker = worker_start(0, record_sync_run,
	    record_sync_back, err, sizeof(err))) == NULL)
		fatalx("record: the sync thread: %s", err);
}

/*
 * Sync everything handed over, wait for it, and stop the thread; what
 * failed is logged.
 */
void
record_sync_stop(void)
{
	if (record_sync_worker == NULL)
		return;
	if (record_sync_next != NULL)
		record_sync_send();
	worker_stop(record_sync_worker, 1, NULL);
	record_sync_worker = NULL;
}

/*
 * Take a descriptor to sync, a duplicate that is then the thread's to
 * close; -1 is nothing.  It goes with the next flush.
 */
void
record_sync_add(int fd, const char *path)
{
	struct record_sync_batch	*b;
	struct record_sync_file		*f;

	if (fd == -1)
		return;
	if (record_sync_worker == NULL) {
		close(fd);
		return;
	}
	if ((b = record_sync_next) == NULL) {
		b = xcalloc(1, sizeof(*b));
		record_sync_next = b;
	}
	if (b->n == b->size) {
		b->size = b->size == 0 ? 16 : b->size * 2;
		b->files = xreallocarray(b->files, b->size,
		    sizeof(*b->files));
	}
	f = &b->files[b->n++];
	f->fd = fd;
	f->error = 0;
	f->done = 0;
	f->dev = 0;
	f->path = xstrdup(path);
}

/*
 * Send what was added to the thread, now if it is free, else as soon as
 * its batch is back.
 */
void
record_sync_flush(void)
{
	if (record_sync_next == NULL)
		return;
	if (record_sync_out > 0) {
		record_sync_wanted = 1;
		return;
	}
	record_sync_send();
}

/* Hand the batch being filled to the thread. */
static void
record_sync_send(void)
{
	worker_put(record_sync_worker, &record_sync_next->job);
	record_sync_next = NULL;
	record_sync_out++;
}

/* The thread: sync and close each file of a batch. */
static void
record_sync_run(struct worker_job *j)
{
	struct record_sync_batch	*b = (struct record_sync_batch *)j;
	size_t				 i;

	record_sync_batch(b);
	for (i = 0; i < b->n; i++)
		close(b->files[i].fd);
}

/*
 * Sync the files of a batch, in the thread: a syncfs(2) for each
 * filesystem, then, where it failed, an fsync(2) for each file on it; an
 * error no fsync repeats is the first file's.
 */
static void
record_sync_batch(struct record_sync_batch *b)
{
	struct record_sync_file	*f, *g;
	struct stat		 st;
	size_t			 i, j;
	int			 e, told;

	for (i = 0; i < b->n; i++) {
		f = &b->files[i];
		if (fstat(f->fd, &st) == -1) {
			f->error = errno;
			f->done = 1;
		} else
			f->dev = st.st_dev;
	}
	for (i = 0; i < b->n; i++) {
		f = &b->files[i];
		if (f->done)
			continue;
		if (syncfs(f->fd) == 0) {
			for (j = i; j < b->n; j++)
				if (b->files[j].dev == f->dev)
					b->files[j].done = 1;
			continue;
		}
		e = errno;
		for (j = i, told = 0; j < b->n; j++) {
			g = &b->files[j];
			if (g->done || g->dev != f->dev)
				continue;
			if (fsync(g->fd) == -1) {
				g->error = errno;
				told = 1;
			}
			g->done = 1;
		}
		if (!told)
			f->error = e;
	}
}

/*
 * A batch is back from the thread: log what failed, tell each file, and
 * send what waited for it.
 */
static void
record_sync_back(struct worker_job *j)
{
	struct record_sync_batch	*b = (struct record_sync_batch *)j;
	size_t				 i;

	for (i = 0; i < b->n; i++) {
		if (b->files[i].error != 0)
			log_warnx("record %s: sync: %s", b->files[i].path,
			    strerror(b->files[i].error));
		record_sync_done_cb(b->files[i].path, b->files[i].error);
	}
	record_sync_free(b);
	record_sync_out--;
	if (record_sync_wanted && record_sync_out == 0) {
		record_sync_wanted = 0;
		record_sync_flush();
	}
}

/* Free a batch whose descriptors the thread has closed. */
static void
record_sync_free(struct record_sync_batch *b)
{
	size_t	i;

	for (i = 0; i < b->n; i++)
		free(b->files[i].path);
	free(b->files);
	free(b);
}
