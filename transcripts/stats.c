/*
 * Typing cadence and response latency of a capture, for `transcripts
 * stats`.  Pure: events in (kind, length, time), figures out.
 *
 * Each character is a key: a byte, or with the capture's "charset"
 * "utf-8" (st->charset) a character of one to four bytes, which counts
 * with its first byte (utf8_count).  A speaker's keys fall into bursts: a
 * burst ends
 * when the next key comes STATS_BURST_GAP or more later, or when the
 * other speaker sent something in between.  The cadence is the set of
 * gaps between consecutive keys of a burst (an event of n keys gives
 * n - 1 gaps of 0: keys that came in one piece).  Its median is "seconds
 * per key"; its quartiles give the spread (IQR) and the regularity: the
 * quartile coefficient of dispersion QCD = (Q3 - Q1) / (Q3 + Q1), which
 * unlike the coefficient of variation is not thrown by the odd long
 * pause inside a burst.  Typing with a QCD under STATS_MECHANICAL over at
 * least STATS_MIN_GAPS gaps is flagged mechanical.
 *
 * The latency of an answer is the time from the end of the judge's turn
 * to the entity's first byte after it.  A turn ends at the judge's last
 * key before the entity's output when that key ends a line (Return, as
 * the convention reads keys: conv.c): output that begins while the judge
 * is still in the middle of a line is an interruption, counted but not an
 * answer.
 */
#include <stdlib.h>
#include <string.h>

#include "transcripts.h"

static int	stats_push(struct stats_series *, int64_t);
static int	stats_cmp(const void *, const void *);
static double	stats_quantile(const int64_t *, size_t, double);
static double	stats_sqrt(double);

/* Start empty figures. */
void
stats_init(struct stats *st)
{
	memset(st, 0, sizeof(*st));
	st->last_who = -1;
}

/* Append a value to a series; -1 when out of memory. */
static int
stats_push(struct stats_series *s, int64_t v)
{
	int64_t	*p;
	size_t	 n;

	if (s->n == s->cap) {
		n = s->cap == 0 ? 256 : s->cap * 2;
		if ((p = reallocarray(s->v, n, sizeof(*p))) == NULL)
			return (-1);
		s->v = p;
		s->cap = n;
	}
	s->v[s->n++] = v;
	return (0);
}

/*
 * Feed an event: "i" bytes are the judge's keys, "o" the entity's; other
 * kinds are ignored.  Times must not decrease (a capture's never do); an
 * earlier one counts as the previous.  -1 when out of memory.
 */
int
stats_feed(struct stats *st, enum cap_kind kind, const unsigned char *data,
    size_t len, int64_t usec)
{
	struct stats_series	*s;
	enum conv_key		 k;
	int			 who;
	size_t			 i, keys;

	if (kind == CAP_INPUT)
		who = STATS_JUDGE;
	else if (kind == CAP_OUTPUT)
		who = STATS_ENTITY;
	else
		return (0);
	keys = st->charset == CAP_UTF8 ? utf8_count(data, len) : len;
	if (keys == 0)
		return (0);	/* nothing, or the rest of a character */
	s = &st->gaps[who];
	if (st->have[who] && usec < st->last[who])
		usec = st->last[who];
	if (st->last_who == who && usec - st->last[who] < STATS_BURST_GAP) {
		if (stats_push(s, usec - st->last[who]) == -1)
			return (-1);
	} else
		s->bursts++;
	if (who == STATS_ENTITY && st->last_who == STATS_JUDGE) {
		if (!st->judge_eol)
			st->interruptions++;
		else if (stats_push(&st->latency, usec -
		    st->last[STATS_JUDGE]) == -1)
			return (-1);
		else
			st->latency.bursts++;
	}
	for (i = 0; who == STATS_JUDGE && i < len; i++)
		if ((k = conv_key(&st->judge_conv, 1, data[i])) != CONV_QUERY)
			st->judge_eol = conv_ends_line(k) ||
			    k == CONV_EOL_HALF;
	for (i = 1; i < keys; i++)
		if (stats_push(s, 0) == -1)
			return (-1);
	s->keys += keys;
	st->last[who] = usec;
	st->have[who] = 1;
	st->last_who = who;
	return (0);
}

/* Add the values of one series to another (pooling); -1 on no memory. */
int
stats_add(struct stats_series *dst, const struct stats_series *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++)
		if (stats_push(dst, src->v[i]) == -1)
			return (-1);
	dst->keys += src->keys;
	dst->bursts += src->bursts;
	return (0);
}

/* Order microsecond values. */
static int
stats_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

/* The square root of x >= 0 by Newton's method (no libm to link). */
static double
stats_sqrt(double x)
{
	double	r, prev;
	int	i;

	if (x <= 0)
		return (0);
	r = x >= 1 ? x : 1;
	for (i = 0; i < 1100; i++) {
		prev = r;
		r = (r + x / r) / 2;
		if (r >= prev)
			break;
	}
	return (r);
}

/* The q-quantile (0..1) of n sorted values, interpolated; in seconds. */
static double
stats_quantile(const int64_t *v, size_t n, double q)
{
	double	pos, frac;
	size_t	i;

	if (n == 0)
		return (0);
	pos = q * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	if (i + 1 >= n)
		return ((double)v[n - 1] / 1e6);
	return (((double)v[i] * (1 - frac) + (double)v[i + 1] * frac) / 1e6);
}

/*
 * Summarise a series (its values are sorted in place): quartiles, mean,
 * coefficient of variation, QCD and the mechanical verdict.
 */
void
stats_summary(struct stats_series *s, struct stats_summary *out)
{
	double	sum = 0, sq = 0, d;
	size_t	i;

	memset(out, 0, sizeof(*out));
	out->keys = s->keys;
	out->bursts = s->bursts;
	out->n = s->n;
	out->mechanical = -1;
	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof(*s->v), stats_cmp);
	out->min = (double)s->v[0] / 1e6;
	out->max = (double)s->v[s->n - 1] / 1e6;
	out->q1 = stats_quantile(s->v, s->n, 0.25);
	out->median = stats_quantile(s->v, s->n, 0.5);
	out->q3 = stats_quantile(s->v, s->n, 0.75);
	for (i = 0; i < s->n; i++)
		sum += (double)s->v[i] / 1e6;
	out->mean = sum / (double)s->n;
	for (i = 0; i < s->n; i++) {
		d = (double)s->v[i] / 1e6 - out->mean;
		sq += d * d;
	}
	out->cv = out->mean > 0 ? stats_sqrt(sq / (double)s->n) / out->mean : 0;
	out->qcd = out->q3 + out->q1 > 0 ?
	    (out->q3 - out->q1) / (out->q3 + out->q1) : 0;
	if (s->n >= STATS_MIN_GAPS)
		out->mechanical = out->qcd < STATS_MECHANICAL;
}

/* Free a series' values. */
void
stats_series_free(struct stats_series *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Free what the figures hold. */
void
stats_free(struct stats *st)
{
	stats_series_free(&st->gaps[STATS_JUDGE]);
	stats_series_free(&st->gaps[STATS_ENTITY]);
	stats_series_free(&st->latency);
}
