/*
 * libFuzzer harness for the control-sequence filter (contest/filter.c), the
 * guard between an entity and a judge's screen.
 *
 * The first byte sets the longest sequence (16 to 271 bytes, so that cuts
 * happen), the second seeds the chunk sizes; the rest is what an entity
 * sends.  It is fed whole, and again in chunks, filtering and in
 * pass-through mode.  Besides not crashing:
 *  - no byte a terminal could act on reaches the judge: ESC, the C1
 *    controls, and C0 controls other than CR, LF, BS, TAB and BEL;
 *  - how the input is split into reads does not change what is forwarded,
 *    nor the sequences reported (runs of lone controls may be reported in
 *    pieces at the end of a chunk, so only their bytes are compared);
 *  - pass-through forwards every byte and reports the same sequences;
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
static void	fuzz_filter_run(struct fuzz_filter_trial *, int, size_t,
		    unsigned, const unsigned char *, size_t);
static int	fuzz_filter_harmful(unsigned char);
static void	fuzz_filter_same(const struct fuzz_filter_trial *,
		    const struct fuzz_filter_trial *);

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
	if (s->end == FILTER_END_CUT && s->len != r->f.limit)
		abort();	/* cut anywhere but at the limit */
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
    unsigned seed, const unsigned char *data, size_t size)
{
	size_t	i = 0, n;

	r->nout = r->nspan = 0;
	r->removed = r->controls = 0;
	filter_init(&r->f, passthrough, limit, fuzz_filter_span, r);
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

/* Compare the sequences two runs reported, lone control runs aside. */
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
		while (i < a->nspan && a->span[i].kind == FILTER_CONTROL)
			i++;
		while (j < b->nspan && b->span[j].kind == FILTER_CONTROL)
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
	size_t			limit, i;
	unsigned		seed;

	if (size < 2)
		return (0);
	limit = 16 + data[0];
	seed = data[1] | 0x100;
	data += 2;
	size -= 2;
	if ((whole.out = malloc(size + 1)) == NULL ||
	    (split.out = malloc(size + 1)) == NULL ||
	    (pass.out = malloc(size + 1)) == NULL)
		abort();
	fuzz_filter_run(&whole, 0, limit, 0, data, size);
	fuzz_filter_run(&split, 0, limit, seed, data, size);
	fuzz_filter_run(&pass, 1, limit, seed, data, size);
	for (i = 0; i < whole.nout; i++)
		if (fuzz_filter_harmful(whole.out[i]))
			abort();	/* a control reached the judge */
	if (split.nout != whole.nout ||
	    memcmp(split.out, whole.out, whole.nout) != 0)
		abort();	/* the reads' sizes changed the output */
	if (pass.nout != size || memcmp(pass.out, data, size) != 0)
		abort();	/* pass-through changed the stream */
	fuzz_filter_same(&whole, &split);
	fuzz_filter_same(&split, &pass);
	free(whole.out);
	free(split.out);
	free(pass.out);
	return (0);
}
