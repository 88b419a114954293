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
 * One batch at a time is with the thread: what is added meanwhile waits
 * for it to come back, so a slow disk delays the syncs but never piles up
 * descriptors.  The two queues between the loop and the thread are under
 * record_sync_lock; a byte on a pipe tells the loop a batch is back.  The
 * thread sleeps on a condition variable while there is nothing to sync,
 * and the loop watches the pipe without a timeout: an idle room has no
 * wake-up from either.
 */
#include <sys/queue.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
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
	STAILQ_ENTRY(record_sync_batch) entry;
	struct record_sync_file *files;
	size_t		 n;
	size_t		 size;
};
STAILQ_HEAD(record_sync_queue, record_sync_batch);

/* Shared with the thread, under record_sync_lock. */
static pthread_mutex_t	 record_sync_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 record_sync_cond = PTHREAD_COND_INITIALIZER;
static struct record_sync_queue record_sync_todo =
    STAILQ_HEAD_INITIALIZER(record_sync_todo);
static struct record_sync_queue record_sync_done =
    STAILQ_HEAD_INITIALIZER(record_sync_done);
static int		 record_sync_stopping;

/* The loop's own. */
static pthread_t	 record_sync_thread;
static int		 record_sync_pipe[2] = { -1, -1 };
static struct event	*record_sync_ev;
static struct record_sync_batch *record_sync_next;	/* being filled */
static int		 record_sync_out;	/* batches with the thread */
static int		 record_sync_wanted;	/* a flush waits for them */
static int		 record_sync_on;
static void		(*record_sync_done_cb)(const char *, int);

static void	*record_sync_main(void *);
static void	 record_sync_batch(struct record_sync_batch *);
static void	 record_sync_send(void);
static void	 record_sync_collect(void);
static void	 record_sync_back_cb(evutil_socket_t, short, void *);
static void	 record_sync_free(struct record_sync_batch *);

/* Start the thread that syncs; done is told each file synced, or why not. */
void
record_sync_init(void (*done)(const char *, int))
{
	sigset_t	all, old;
	int		i, flags, e;

	record_sync_done_cb = done;
	if (pipe2(record_sync_pipe, O_CLOEXEC) == -1)
		fatal("record: pipe");
	for (i = 0; i < 2; i++)
		if ((flags = fcntl(record_sync_pipe[i], F_GETFL)) == -1 ||
		    fcntl(record_sync_pipe[i], F_SETFL, flags | O_NONBLOCK) ==
		    -1)
			fatal("record: pipe");
	if ((record_sync_ev = event_new(muxd_base, record_sync_pipe[0],
	    EV_READ | EV_PERSIST, record_sync_back_cb, NULL)) == NULL ||
	    event_add(record_sync_ev, NULL) == -1)
		fatalx("record: cannot watch the sync thread");
	/* Signals are the loop's: the thread starts with them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&record_sync_thread, NULL, record_sync_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0)
		fatalx("record: cannot start the sync thread: %s",
		    strerror(e));
	record_sync_on = 1;
}

/*
 * Sync everything handed over, wait for it, and stop the thread; what
 * failed is logged.
 */
void
record_sync_stop(void)
{
	if (!record_sync_on)
		return;
	if (record_sync_next != NULL)
		record_sync_send();
	pthread_mutex_lock(&record_sync_lock);
	record_sync_stopping = 1;
	pthread_cond_signal(&record_sync_cond);
	pthread_mutex_unlock(&record_sync_lock);
	pthread_join(record_sync_thread, NULL);
	record_sync_collect();
	event_free(record_sync_ev);
	record_sync_ev = NULL;
	close(record_sync_pipe[0]);
	close(record_sync_pipe[1]);
	record_sync_pipe[0] = record_sync_pipe[1] = -1;
	record_sync_stopping = 0;
	record_sync_on = 0;
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
	if (!record_sync_on) {
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
	pthread_mutex_lock(&record_sync_lock);
	STAILQ_INSERT_TAIL(&record_sync_todo, record_sync_next, entry);
	pthread_cond_signal(&record_sync_cond);
	pthread_mutex_unlock(&record_sync_lock);
	record_sync_next = NULL;
	record_sync_out++;
}

/* The thread: sync and close each file of each batch, and hand it back. */
static void *
record_sync_main(void *arg)
{
	struct record_sync_batch	*b;
	size_t				 i;

	(void)arg;
	pthread_mutex_lock(&record_sync_lock);
	for (;;) {
		while (STAILQ_EMPTY(&record_sync_todo) && !record_sync_stopping)
			pthread_cond_wait(&record_sync_cond, &record_sync_lock);
		if ((b = STAILQ_FIRST(&record_sync_todo)) == NULL)
			break;
		STAILQ_REMOVE_HEAD(&record_sync_todo, entry);
		pthread_mutex_unlock(&record_sync_lock);
		record_sync_batch(b);
		for (i = 0; i < b->n; i++)
			close(b->files[i].fd);
		pthread_mutex_lock(&record_sync_lock);
		STAILQ_INSERT_TAIL(&record_sync_done, b, entry);
		/* Wake the loop; a full pipe means it is woken already. */
		if (write(record_sync_pipe[1], "", 1) == -1)
			continue;
	}
	pthread_mutex_unlock(&record_sync_lock);
	return (NULL);
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

/* Take back the batches the thread is done with, logging what failed. */
static void
record_sync_collect(void)
{
	struct record_sync_queue	 q = STAILQ_HEAD_INITIALIZER(q);
	struct record_sync_batch	*b;
	size_t				 i;

	pthread_mutex_lock(&record_sync_lock);
	STAILQ_CONCAT(&q, &record_sync_done);
	pthread_mutex_unlock(&record_sync_lock);
	while ((b = STAILQ_FIRST(&q)) != NULL) {
		STAILQ_REMOVE_HEAD(&q, entry);
		for (i = 0; i < b->n; i++) {
			if (b->files[i].error != 0)
				log_warnx("record %s: sync: %s",
				    b->files[i].path,
				    strerror(b->files[i].error));
			record_sync_done_cb(b->files[i].path,
			    b->files[i].error);
		}
		record_sync_free(b);
		record_sync_out--;
	}
}

/* A batch is back: log it, and send what waited for it. */
static void
record_sync_back_cb(evutil_socket_t fd, short what, void *arg)
{
	char	buf[64];

	(void)what;
	(void)arg;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	record_sync_collect();
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
