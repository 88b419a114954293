/*
 * Deadlines: the long timers that stay pending while bytes flow (the
 * end of a timed round, the next sync of the recordings).  A libevent
 * timer makes every wait of the loop pass a timeout to epoll_wait(2), and
 * the kernel arms and cancels a timer for each wait, once per byte at
 * typing speed; on a virtual machine that costs about a microsecond.  A
 * deadline is a timerfd(2) watched by the loop like any descriptor: it is
 * armed once, and the loop's waits carry no timeout.
 */
#include <sys/timerfd.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

struct deadline {
	int		 fd;		/* the timerfd */
	struct event	*ev;		/* its read event, always added */
	int		 armed;		/* set and not yet fired */
	void		(*cb)(void *);
	void		*arg;
	char		*what;		/* for messages */
};

static void	deadline_read_cb(evutil_socket_t, short, void *);
static void	deadline_settime(struct deadline *, const struct timeval *);

/* Make a deadline that calls cb(arg) when it passes; what names it. */
struct deadline *
deadline_new(const char *what, void (*cb)(void *), void *arg)
{
	struct deadline	*d;

	d = xcalloc(1, sizeof(*d));
	d->what = xstrdup(what);
	d->cb = cb;
	d->arg = arg;
	if ((d->fd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC)) == -1)
		fatal("%s: timerfd_create", what);
	if ((d->ev = event_new(muxd_base, d->fd, EV_READ | EV_PERSIST,
	    deadline_read_cb, d)) == NULL || event_add(d->ev, NULL) == -1)
		fatalx("%s: cannot watch its timer", what);
	return (d);
}

/* Stop watching a deadline and free it; NULL is allowed. */
void
deadline_free(struct deadline *d)
{
	if (d == NULL)
		return;
	event_free(d->ev);
	close(d->fd);
	free(d->what);
	free(d);
}

/* Set the deadline tv from now, replacing any earlier setting. */
void
deadline_set(struct deadline *d, const struct timeval *tv)
{
	struct timeval	 soon = { 0, 1 };

	/* a zero time would disarm a timerfd: pass as soon as it can */
	if (tv->tv_sec <= 0 && tv->tv_usec <= 0)
		tv = &soon;
	deadline_settime(d, tv);
	d->armed = 1;
}

/* Cancel the deadline if it is set. */
void
deadline_clear(struct deadline *d)
{
	struct timeval	 zero = { 0, 0 };

	if (!d->armed)
		return;
	deadline_settime(d, &zero);
	d->armed = 0;
}

/* Whether the deadline is set and has not passed yet. */
int
deadline_pending(const struct deadline *d)
{
	return (d->armed);
}

/* Arm the timerfd tv from now, or disarm it for a zero tv. */
static void
deadline_settime(struct deadline *d, const struct timeval *tv)
{
	struct itimerspec	its;

	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = tv->tv_sec;
	its.it_value.tv_nsec = (long)tv->tv_usec * 1000;
	if (timerfd_settime(d->fd, 0, &its, NULL) == -1)
		fatal("%s: timerfd_settime", d->what);
}

/* The timerfd is readable: the deadline passed, unless cleared since. */
static void
deadline_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct deadline	*d = arg;
	uint64_t	 n;

	(void)what;
	if (read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n)) {
		if (errno != EAGAIN && errno != EINTR)
			log_warn("%s: reading its timer", d->what);
		return;
	}
	if (!d->armed)
		return;
	d->armed = 0;
	d->cb(d->arg);
}
