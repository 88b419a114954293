/*
 * A delay line for an entity's output: what the entity writes while its
 * opening assertion is undecided (the "hold" policy) or while muxd types
 * the assertion for it (the "inject" policy) is held back from the judge,
 * each chunk with the time it was read.  On release every chunk goes out
 * as late as the first one was held back, so the judge sees the text with
 * the entity's own key timing, one constant delay late, never as one
 * burst; output that comes while the line still releases joins the end
 * of it.  Once everything has gone out the hold is open and output passes
 * straight through again (the caller checks hold_open()).
 *
 * Memory: at most limit bytes are held; bytes past it are dropped and
 * counted (the capture has them, being written as they are read).  No I/O
 * and no clock: times are microseconds given by the caller.
 */
#include <stdlib.h>
#include <string.h>

#include "contest.h"

struct hold_chunk {
	int64_t		 usec;		/* when it was read */
	size_t		 len;
};

static int	hold_grow(struct hold *);

/* Start holding, keeping at most limit bytes. */
void
hold_init(struct hold *h, size_t limit)
{
	memset(h, 0, sizeof(*h));
	h->state = HOLD_HOLDING;
	h->limit = limit;
}

/* Free what the hold keeps; it is then open. */
void
hold_clear(struct hold *h)
{
	free(h->buf);
	free(h->chunks);
	h->buf = NULL;
	h->chunks = NULL;
	h->len = h->nchunks = h->capchunks = 0;
	h->state = HOLD_OPEN;
}

/* Make room for one more chunk; -1 when memory is short. */
static int
hold_grow(struct hold *h)
{
	struct hold_chunk	*c;
	size_t			 cap;

	if (h->buf == NULL && (h->buf = malloc(h->limit)) == NULL)
		return (-1);
	if (h->nchunks < h->capchunks)
		return (0);
	cap = h->capchunks == 0 ? 16 : h->capchunks * 2;
	if (cap > h->limit + 1)
		cap = h->limit + 1;
	if (cap <= h->nchunks ||
	    (c = reallocarray(h->chunks, cap, sizeof(*c))) == NULL)
		return (-1);
	h->chunks = c;
	h->capchunks = cap;
	return (0);
}

/*
 * Keep a chunk read at usec; the bytes past the limit are dropped.
 * Returns how many bytes were dropped.
 */
size_t
hold_push(struct hold *h, const unsigned char *buf, size_t n, int64_t usec)
{
	size_t	keep;

	if (n == 0)
		return (0);
	keep = h->limit - h->len < n ? h->limit - h->len : n;
	if (keep > 0 && hold_grow(h) == -1)
		keep = 0;
	if (keep > 0) {
		memcpy(h->buf + h->len, buf, keep);
		h->len += keep;
		if (h->nchunks > 0 && h->chunks[h->nchunks - 1].usec == usec)
			h->chunks[h->nchunks - 1].len += keep;
		else {
			h->chunks[h->nchunks].usec = usec;
			h->chunks[h->nchunks].len = keep;
			h->nchunks++;
		}
		h->held += keep;
	}
	h->dropped += n - keep;
	return (n - keep);
}

/*
 * Release at now what is held: every chunk goes out as much later than it
 * was read as the first one.  An empty hold opens at once.
 */
void
hold_release(struct hold *h, int64_t now)
{
	if (h->state != HOLD_HOLDING)
		return;
	h->delay = h->nchunks > 0 && now > h->chunks[0].usec ?
	    now - h->chunks[0].usec : 0;
	h->state = h->nchunks > 0 ? HOLD_RELEASING : HOLD_OPEN;
}

/*
 * Take up to len bytes that are due at now into out; *next is set to
 * the time the next chunk is due, or -1 when nothing waits (the hold is
 * then open).  A holding hold gives nothing.
 */
size_t
hold_take(struct hold *h, int64_t now, unsigned char *out, size_t len,
    int64_t *next)
{
	size_t	n = 0, k, i = 0;

	*next = -1;
	if (h->state == HOLD_HOLDING) {
		if (h->nchunks > 0)
			*next = INT64_MAX;
		return (0);
	}
	while (i < h->nchunks && n < len &&
	    h->chunks[i].usec + h->delay <= now) {
		k = h->chunks[i].len < len - n ? h->chunks[i].len : len - n;
		n += k;
		if ((h->chunks[i].len -= k) == 0)
			i++;
	}
	if (n > 0) {
		memcpy(out, h->buf, n);
		memmove(h->buf, h->buf + n, h->len - n);
		h->len -= n;
	}
	if (i > 0) {
		memmove(h->chunks, h->chunks + i,
		    (h->nchunks - i) * sizeof(*h->chunks));
		h->nchunks -= i;
	}
	if (h->nchunks > 0)
		*next = h->chunks[0].usec + h->delay;
	else if (h->state == HOLD_RELEASING)
		h->state = HOLD_OPEN;
	return (n);
}

/* Forget everything held, keeping the hold's state; the bytes forgotten. */
size_t
hold_discard(struct hold *h)
{
	size_t	n = h->len;

	h->len = h->nchunks = 0;
	if (h->state == HOLD_RELEASING)
		h->state = HOLD_OPEN;
	return (n);
}

/* Whether output passes straight through: nothing held nor releasing. */
int
hold_open(const struct hold *h)
{
	return (h->state == HOLD_OPEN);
}
