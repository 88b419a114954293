/*
 * The events every browser shares: the latest MUXWEB_RING event lines of
 * muxd's watch, numbered from 1.  The watch thread adds, and wakes the
 * browsers' streams that wait (muxweb_http_wake); each stream takes the
 * lines after the last it sent.  A browser that falls more than the ring
 * behind skips to the oldest kept.
 *
 * Besides, the state a page needs on arrival that the screens do not
 * have: every event but the conversation's text since the last round
 * started (verdicts, holds, faults, the round's end, a refusal, the
 * seals), the latest MUXWEB_KEPT of them, numbered as in the ring.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "muxweb.h"

static struct {
	char	*line;
	size_t	 len;
} muxweb_ring[MUXWEB_RING];
static struct {
	char	*line;
	uint64_t n;
} muxweb_ring_kept[MUXWEB_KEPT];
static size_t		muxweb_ring_nkept;	/* the oldest kept first */
static uint64_t		muxweb_ring_last;	/* the newest's number */
static pthread_mutex_t	muxweb_ring_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Keep a line numbered n among the state events (the caller holds the
 * lock): not the text; a round's start forgets what came before.
 */
static void
muxweb_ring_keep(const char *line, uint64_t n)
{
	char	*copy;
	size_t	 i;

	if (strstr(line, "\"event\":\"text\"") != NULL)
		return;
	if (strstr(line, "\"event\":\"round.start\"") != NULL) {
		for (i = 0; i < muxweb_ring_nkept; i++)
			free(muxweb_ring_kept[i].line);
		muxweb_ring_nkept = 0;
	}
	if ((copy = strdup(line)) == NULL)
		return;
	if (muxweb_ring_nkept == MUXWEB_KEPT) {
		free(muxweb_ring_kept[0].line);
		memmove(muxweb_ring_kept, muxweb_ring_kept + 1,
		    (MUXWEB_KEPT - 1) * sizeof(muxweb_ring_kept[0]));
		muxweb_ring_nkept--;
	}
	muxweb_ring_kept[muxweb_ring_nkept].line = copy;
	muxweb_ring_kept[muxweb_ring_nkept++].n = n;
}

/*
 * The state events kept, numbered upto or before, as a JSON array of
 * the events, each with its number as "id".
 */
json_t *
muxweb_ring_kept_json(uint64_t upto)
{
	json_t	*a = json_array(), *o;
	size_t	 i;

	pthread_mutex_lock(&muxweb_ring_lock);
	for (i = 0; i < muxweb_ring_nkept; i++) {
		if (muxweb_ring_kept[i].n > upto ||
		    (o = json_loads(muxweb_ring_kept[i].line, 0, NULL)) ==
		    NULL)
			continue;
		json_object_set_new(o, "id", json_integer(
		    (json_int_t)muxweb_ring_kept[i].n));
		json_array_append_new(a, o);
	}
	pthread_mutex_unlock(&muxweb_ring_lock);
	return (a);
}

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
	muxweb_ring_keep(copy, n);
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
