/*
 * The events every browser shares: the latest MUXWEB_RING event lines of
 * muxd's watch, numbered from 1.  The watch thread adds; each browser's
 * stream takes the lines after the last it sent, waiting for new ones.  A
 * browser that falls more than the ring behind skips to the oldest kept.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "muxweb.h"

static struct {
	char	*line;
	size_t	 len;
} muxweb_ring[MUXWEB_RING];
static uint64_t		muxweb_ring_last;	/* the newest's number */
static pthread_mutex_t	muxweb_ring_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	muxweb_ring_cond;

/* Set up the ring (its condition on the monotonic clock). */
void
muxweb_ring_init(void)
{
	pthread_condattr_t	a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&muxweb_ring_cond, &a);
	pthread_condattr_destroy(&a);
}

/* Add an event line; its number. */
uint64_t
muxweb_ring_add(const char *line, size_t len)
{
	char		*copy;
	uint64_t	 n;
	size_t		 i;

	if ((copy = malloc(len + 1)) == NULL)
		return (0);
	memcpy(copy, line, len);
	copy[len] = '\0';
	pthread_mutex_lock(&muxweb_ring_lock);
	n = ++muxweb_ring_last;
	i = n % MUXWEB_RING;
	free(muxweb_ring[i].line);
	muxweb_ring[i].line = copy;
	muxweb_ring[i].len = len;
	pthread_cond_broadcast(&muxweb_ring_cond);
	pthread_mutex_unlock(&muxweb_ring_lock);
	return (n);
}

/* The number of the newest line (0: none yet). */
uint64_t
muxweb_ring_head(void)
{
	uint64_t	n;

	pthread_mutex_lock(&muxweb_ring_lock);
	n = muxweb_ring_last;
	pthread_mutex_unlock(&muxweb_ring_lock);
	return (n);
}

/*
 * The line after *seen (a copy to free), waiting up to wait seconds for
 * it; *seen becomes its number.  NULL when none came.
 */
char *
muxweb_ring_next(uint64_t *seen, int wait)
{
	struct timespec	 until;
	char		*line = NULL;
	uint64_t	 n;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += wait;
	pthread_mutex_lock(&muxweb_ring_lock);
	while (muxweb_ring_last <= *seen &&
	    pthread_cond_timedwait(&muxweb_ring_cond, &muxweb_ring_lock,
	    &until) == 0)
		;
	if (muxweb_ring_last > *seen) {
		n = *seen + 1;
		if (muxweb_ring_last - n >= MUXWEB_RING)
			n = muxweb_ring_last - MUXWEB_RING + 1;
		line = strdup(muxweb_ring[n % MUXWEB_RING].line);
		*seen = n;
	}
	pthread_mutex_unlock(&muxweb_ring_lock);
	return (line);
}
