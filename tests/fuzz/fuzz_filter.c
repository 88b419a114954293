/*
 * libFuzzer harness for the control-sequence filter (text/filter.c), the
 * guard between an entity and a judge's screen.
 *
 * The first byte sets the longest sequence (16 to 271 bytes, so that cuts
 * happen), the second seeds the chunk sizes and, by its lowest bit, the
 * character set (UTF-8 when set); the rest is what an entity sends.  It
 * is fed whole, and again in chunks, filtering and in pass-through mode,
 * and the stream is ended.  Besides not crashing:
 *  - no byte a terminal could act on reaches the judge: ESC, the C1
 *    controls, and C0 controls other than CR, LF, BS, TAB and BEL; on
 *    UTF-8, what reaches it is UTF-8 with no C1 code point;
 *  - how the input is split into reads does not change what is forwarded,
 *    nor the sequences reported (runs of lone controls may be reported in
 *    pieces at the end of a chunk, so only their bytes are compared);
 *  - pass-through forwards every byte (on UTF-8, but a character the end
 *    cut off) and reports the same sequences;
 *  - every byte is accounted for: forwarded, or in a reported run, or in
 *    the sequence still open at the end.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contest.h"

#define FUZZ_SPANS	4096	/* reported runs kept for comparison */

struct fuzz_filter_trial {
	struct filter	 f;
	unsigned char	*out;
	size_t		 nout;
	size_t		 nspan;
	struct filter_span span[FUZZ_SPANS];	/* text not kept */
	uint64_t	 removed;	/* bytes in reported runs */
	uint64_t	 controls;	/* bytes in reported control runs */
};

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static void	fuzz_filter_span(void *, const struct filter_span *);
static int	fuzz_filter_string(enum filter_kind);
static int	fuzz_filter_introducer(const struct filter_span *,
		    enum cap_encoding);
static void	fuzz_filter_run(struct fuzz_filter_trial *, int, size_t,
		    unsigned, enum cap_encoding, const unsigned char *, size_t);
static int	fuzz_filter_harmful(unsigned char);
static int	fuzz_filter_harmful_utf8(const unsigned char *, size_t);
static void	fuzz_filter_same(const struct fuzz_filter_trial *,
		    const struct fuzz_filter_trial *);

/*
 * Tell whether a run ends with the character that, after ESC, begins a
 * control string (], P, X, ^, _; 0xa0-0xff count as their 7-bit
 * equivalents, a UTF-8 character above U+00FF as 0xff).  Its text is the
 * bytes removed: a control the terminal executes inside the sequence is
 * forwarded and not in it.
 */
static int
fuzz_filter_introducer(const struct filter_span *s, enum cap_encoding cs)
{
	const unsigned char	*t = s->text;
	unsigned int		 c;

	if (s->ntext != s->len)
		return (0);
	c = t[s->len - 1];
	if (cs == CAP_UTF8 && s->len >= 2 && (c & 0xc0) == 0x80) {
		if ((t[s->len - 2] & 0xe0) != 0xc0)
			return (0);	/* three bytes or more: above U+00FF */
		c = (t[s->len - 2] & 0x1fu) << 6 | (c & 0x3f);
	}
	c &= 0x7f;
	return (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_');
}

/*
 * Tell whether a kind is a control string, cut at a line end or at its
 * shorter bound as well as at the limit.
 */
static int
fuzz_filter_string(enum filter_kind k)
{
	return (k == FILTER_OSC || k == FILTER_DCS || k == FILTER_SOS ||
	    k == FILTER_PM || k == FILTER_APC);
}

/* Keep a reported run, checking its offsets against the last one. */
static void
fuzz_filter_span(void *arg, const struct filter_span *s)
{
	struct fuzz_filter_trial	*r = arg;
	const struct filter_span *last;

	if (s->len == 0 || s->ntext > s->len || s->ntext > FILTER_TEXTMAX ||
	    s->out > r->f.out || s->in + s->len > r->f.in)
		abort();	/* a run that does not fit the streams */
	if (r->nspan > 0) {
		last = &r->span[(r->nspan - 1) % FUZZ_SPANS];
		if (s->in < last->in + last->len || s->out < last->out)
			abort();	/* runs overlap or go backwards */
	}
	if (s->end == FILTER_END_CUT && !fuzz_filter_string(s->kind) &&
	    (s->len < r->f.limit || s->len > r->f.limit +
	    (r->f.charset == CAP_UTF8 ? FILTER_HELDMAX : 0)))
		abort();	/* cut anywhere but at the limit (its character) */
	/*
	 * A string is cut at its bound, or at once when the escape sequence
	 * it grew out of (ESC, ignored bytes, then its introducer) was past
	 * that bound already: the cut run then ends at the introducer.
	 */
	if (s->end == FILTER_END_CUT && fuzz_filter_string(s->kind) &&
	    s->len > (r->f.limit < FILTER_STRMAX ? r->f.limit :
	    FILTER_STRMAX) + (r->f.charset == CAP_UTF8 ? FILTER_HELDMAX : 0) &&
	    !fuzz_filter_introducer(s, r->f.charset))
		abort();	/* a control string past its bound */
	r->removed += s->len;
	if (s->kind == FILTER_CONTROL)
		r->controls += s->len;
	r->span[r->nspan % FUZZ_SPANS] = *s;
	r->span[r->nspan % FUZZ_SPANS].text = NULL;
	r->nspan++;
}

/* Filter data in chunks whose sizes come from seed (0: all at once). */
static void
fuzz_filter_run(struct fuzz_filter_trial *r, int passthrough, size_t limit,
    unsigned seed, enum cap_encoding charset, const unsigned char *data,
    size_t size)
{
	size_t	i = 0, n;

	r->nout = r->nspan = 0;
	r->removed = r->controls = 0;
	filter_init(&r->f, passthrough, limit, fuzz_filter_span, r);
	filter_charset(&r->f, charset);
	while (i < size) {
		n = size - i;
		if (seed != 0) {
			seed = seed * 1103515245 + 12345;
			n = 1 + (seed >> 16) % 9;
			if (n > size - i)
				n = size - i;
		}
		r->nout += filter_feed(&r->f, data + i, n, r->out + r->nout);
		i += n;
	}
	filter_finish(&r->f);
	if (r->f.in != size || r->f.out != r->nout)
		abort();	/* the counters disagree with the streams */
	if (!passthrough && r->f.bytes != size - r->nout)
		abort();	/* a byte neither forwarded nor counted */
	if (r->removed > r->f.bytes ||
	    (r->removed < r->f.bytes) != filter_pending(&r->f))
		abort();	/* a removed byte in no run reported or open */
}

/* Tell whether a terminal would act on a forwarded byte. */
static int
fuzz_filter_harmful(unsigned char c)
{
	if (c >= 0x80 && c <= 0x9f)
		return (1);
	if (c >= 0x20 || c == '\r' || c == '\n' || c == '\b' || c == '\t' ||
	    c == 0x07)
		return (0);
	return (1);
}

/* Tell whether UTF-8 output is not UTF-8, or holds a harmful control. */
static int
fuzz_filter_harmful_utf8(const unsigned char *p, size_t n)
{
	size_t		i, used;
	unsigned int	cp;

	for (i = 0; i < n; i += used) {
		if (!utf8_decode(p + i, n - i, &used, &cp) ||
		    (cp >= 0x80 && cp <= 0x9f))
			return (1);
		if (cp < 0x80 && fuzz_filter_harmful((unsigned char)cp))
			return (1);
	}
	return (0);
}

/*
 * Compare the sequences two runs reported, runs of lone controls and of
 * bytes that are no character aside.
 */
static void
fuzz_filter_same(const struct fuzz_filter_trial *a,
    const struct fuzz_filter_trial *b)
{
	size_t	i = 0, j = 0;

	if (a->controls != b->controls)
		abort();	/* lone controls removed differently */
	if (a->nspan > FUZZ_SPANS || b->nspan > FUZZ_SPANS)
		return;
	for (;;) {
		while (i < a->nspan && (a->span[i].kind == FILTER_CONTROL ||
		    a->span[i].kind == FILTER_UTF8))
			i++;
		while (j < b->nspan && (b->span[j].kind == FILTER_CONTROL ||
		    b->span[j].kind == FILTER_UTF8))
			j++;
		if (i == a->nspan || j == b->nspan)
			break;
		if (a->span[i].kind != b->span[j].kind ||
		    a->span[i].end != b->span[j].end ||
		    a->span[i].len != b->span[j].len ||
		    a->span[i].in != b->span[j].in)
			abort();	/* a sequence seen differently */
		i++;
		j++;
	}
	if (i != a->nspan || j != b->nspan)
		abort();	/* a sequence only one of them saw */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_filter_trial	whole, split, pass;
	size_t			limit, i, want;
	unsigned		seed;
	enum cap_encoding	cs;

	if (size < 2)
		return (0);
	limit = 16 + data[0];
	seed = data[1] | 0x100;
	cs = data[1] & 1 ? CAP_UTF8 : CAP_LATIN1;
	data += 2;
	size -= 2;
	if ((whole.out = malloc(size + FILTER_HELDMAX + 1)) == NULL ||
	    (split.out = malloc(size + FILTER_HELDMAX + 1)) == NULL ||
	    (pass.out = malloc(size + FILTER_HELDMAX + 1)) == NULL)
		abort();
	fuzz_filter_run(&whole, 0, limit, 0, cs, data, size);
	fuzz_filter_run(&split, 0, limit, seed, cs, data, size);
	fuzz_filter_run(&pass, 1, limit, seed, cs, data, size);
	if (cs == CAP_UTF8 && fuzz_filter_harmful_utf8(whole.out, whole.nout))
		abort();	/* not UTF-8, or a control reached the judge */
	for (i = 0; cs == CAP_LATIN1 && i < whole.nout; i++)
		if (fuzz_filter_harmful(whole.out[i]))
			abort();	/* a control reached the judge */
	/* On UTF-8 the end may cut a character off, held and not passed. */
	want = size;
	if (cs == CAP_UTF8 && pass.nout < size && size - pass.nout <=
	    FILTER_HELDMAX)
		want = pass.nout;
	if (split.nout != whole.nout ||
	    memcmp(split.out, whole.out, whole.nout) != 0)
		abort();	/* the reads' sizes changed the output */
	if (pass.nout != want || memcmp(pass.out, data, want) != 0)
		abort();	/* pass-through changed the stream */
	fuzz_filter_same(&whole, &split);
	fuzz_filter_same(&split, &pass);
	free(whole.out);
	free(split.out);
	free(pass.out);
	return (0);
}
