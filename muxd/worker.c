/*
 * A thread of muxd's for work the event loop must not wait for: the
 * syncs of the recordings (record-sync.c), the screens of the control
 * command (control-screens.c).  The loop hands it jobs (worker_put); the
 * thread runs them one after the other with the worker's run function,
 * touching nothing of the loop's but the job, and hands each back; the
 * loop, woken by a byte on a pipe, takes it back in its own turn with the
 * worker's done function.  The two queues between them are under the
 * worker's lock.  The thread sleeps on a condition variable while there
 * is nothing to do, and the loop watches the pipe without a timeout, so
 * an idle worker costs no wake-up.
 */
#include <sys/queue.h>
#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

STAILQ_HEAD(worker_queue, worker_job);

struct worker {
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	struct worker_queue	 todo;		/* under lock */
	struct worker_queue	 done;		/* under lock */
	int			 stopping;	/* under lock; 1: once the
						   jobs queued are run, 2: now */
	int			 nice;
	int			 pipe[2];
	struct event		*ev;
	void			(*run)(struct worker_job *);
	void			(*back)(struct worker_job *);
};

static void	*worker_main(void *);
static void	 worker_back_cb(evutil_socket_t, short, void *);

/*
 * Start a worker whose thread runs each job with run, at priority nice,
 * the loop taking each back with back; NULL with a reason in err.
 */
struct worker *
worker_start(int nice, void (*run)(struct worker_job *),
    void (*back)(struct worker_job *), char *err, size_t errlen)
{
	struct worker	*w;
	sigset_t	 all, old;
	int		 i, flags, e;

	w = xcalloc(1, sizeof(*w));
	w->nice = nice;
	w->run = run;
	w->back = back;
	STAILQ_INIT(&w->todo);
	STAILQ_INIT(&w->done);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pipe2(w->pipe, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		free(w);
		return (NULL);
	}
	for (i = 0; i < 2; i++)
		if ((flags = fcntl(w->pipe[i], F_GETFL)) == -1 ||
		    fcntl(w->pipe[i], F_SETFL, flags | O_NONBLOCK) == -1)
			fatal("worker: pipe");
	if ((w->ev = event_new(muxd_base, w->pipe[0], EV_READ | EV_PERSIST,
	    worker_back_cb, w)) == NULL || event_add(w->ev, NULL) == -1)
		fatalx("worker: cannot watch the thread");
	/* Signals are the loop's: the thread starts with them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		snprintf(err, errlen, "cannot start a thread: %s",
		    strerror(e));
		event_free(w->ev);
		close(w->pipe[0]);
		close(w->pipe[1]);
		free(w);
		return (NULL);
	}
	return (w);
}

/* Hand a job to the thread, after those it has. */
void
worker_put(struct worker *w, struct worker_job *j)
{
	pthread_mutex_lock(&w->lock);
	STAILQ_INSERT_TAIL(&w->todo, j, entry);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* The thread: run the jobs, hand each back and wake the loop. */
static void *
worker_main(void *arg)
{
	struct worker		*w = arg;
	struct worker_job	*j;

	if (w->nice != 0)
		(void)setpriority(PRIO_PROCESS, (id_t)gettid(), w->nice);
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (STAILQ_EMPTY(&w->todo) && !w->stopping)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->stopping == 2 || (j = STAILQ_FIRST(&w->todo)) == NULL)
			break;
		STAILQ_REMOVE_HEAD(&w->todo, entry);
		pthread_mutex_unlock(&w->lock);
		w->run(j);
		pthread_mutex_lock(&w->lock);
		STAILQ_INSERT_TAIL(&w->done, j, entry);
		/* A full pipe means the loop is woken already. */
		if (write(w->pipe[1], "", 1) == -1)
			continue;
	}
	pthread_mutex_unlock(&w->lock);
	return (NULL);
}

/* Take back the jobs the thread is done with, in the loop. */
static void
worker_back_cb(evutil_socket_t fd, short what, void *arg)
{
	struct worker		*w = arg;
	struct worker_queue	 q = STAILQ_HEAD_INITIALIZER(q);
	struct worker_job	*j;
	char			 buf[64];

	(void)what;
	while (fd != -1 && read(fd, buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&w->lock);
	STAILQ_CONCAT(&q, &w->done);
	pthread_mutex_unlock(&w->lock);
	while ((j = STAILQ_FIRST(&q)) != NULL) {
		STAILQ_REMOVE_HEAD(&q, entry);
		w->back(j);
	}
}

/*
 * Stop a worker and free it: after the jobs it has are run (finish),
 * else at once, the jobs not run handed to drop.  The jobs run are
 * taken back first.
 */
void
worker_stop(struct worker *w, int finish, void (*drop)(struct worker_job *))
{
	struct worker_job	*j;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = finish ? 1 : 2;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	worker_back_cb(-1, 0, w);
	while ((j = STAILQ_FIRST(&w->todo)) != NULL) {
		STAILQ_REMOVE_HEAD(&w->todo, entry);
		drop(j);
	}
	event_free(w->ev);
	close(w->pipe[0]);
	close(w->pipe[1]);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}
