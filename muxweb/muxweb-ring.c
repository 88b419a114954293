/*
 * The events every browser shares: the latest MUXWEB_RING event lines of
 * muxd's watch, numbered from 1.  The watch thread adds, and wakes the
 * browsers' streams that wait (muxweb_http_wake); each stream takes the
 * lines after the last it sent.  A browser that falls more than the ring
 * behind skips to the oldest kept.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "muxweb.h"

static struct {
	char	*line;
	size_t	 len;
} muxweb_ring[MUXWEB_RING];
static uint64_t		muxweb_ring_last;	/* the newest's number */
static pthread_mutex_t	muxweb_ring_lock = PTHREAD_MUTEX_INITIALIZER;

/* Add an event line, and wake the streams waiting; its number. */
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
	pthread_mutex_unlock(&muxweb_ring_lock);
	muxweb_http_wake();
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
 * The line after *seen (a copy to free), and *seen becomes its number;
 * NULL when there is none yet.
 */
char *
muxweb_ring_next(uint64_t *seen)
{
	char		*line = NULL;
	uint64_t	 n;

	pthread_mutex_lock(&muxweb_ring_lock);
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
