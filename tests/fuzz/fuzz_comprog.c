/*
 * libFuzzer harness for comprog's byte state machines: the sorting of
 * muxd's echo from the entity's text (comprog/echo.c, over muxd's
 * judgeterm.c) and the text of a screen pane (comprog/pane.c).
 *
 * The input is a program of operations: 'k' sends the next byte as a key,
 * 'r' receives the next n bytes (n the byte after 'r', mod 64) from the
 * line, 't' lets time pass (the next byte, in 10 ms); anything else
 * receives itself.  Besides not crashing, echo.c must give every byte
 * received back exactly once and in order, as echo or as the entity's,
 * once time has run out for what it held.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comprog.h"

struct fuzz_state {
	struct pane	 pane;
	unsigned char	*out;		/* everything given back, in order */
	size_t		 nout;
};

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Take what echo.c sorted: keep it, and draw it as comprog would. */
static void
fuzz_sorted(void *arg, int isecho, unsigned char key, const unsigned char *buf,
    size_t n)
{
	struct fuzz_state	*st = arg;

	(void)key;
	memcpy(st->out + st->nout, buf, n);
	st->nout += n;
	pane_feed(&st->pane, isecho ? PANE_JUDGE : PANE_ENTITY, buf, n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct echo	 e;
	static struct fuzz_state st;
	unsigned char		*in;
	size_t			 i = 0, n, nin = 0;
	int64_t			 now = 0;

	if ((in = malloc(size + 1)) == NULL ||
	    (st.out = malloc(size + 1)) == NULL) {
		free(in);
		return (0);
	}
	st.nout = 0;
	pane_init(&st.pane);
	echo_init(&e);
	while (i < size) {
		switch (data[i]) {
		case 'k':
			if (i + 1 < size)
				echo_key(&e, data[i + 1], now);
			i += 2;
			break;
		case 'r':
			n = i + 1 < size ? data[i + 1] % 64 : 0;
			i += 2;
			if (i > size)
				break;
			if (n > size - i)
				n = size - i;
			memcpy(in + nin, data + i, n);
			nin += n;
			echo_feed(&e, data + i, n, now, fuzz_sorted, &st);
			i += n;
			break;
		case 't':
			now += (i + 1 < size ? data[i + 1] : 1) * 10000;
			echo_expire(&e, now, fuzz_sorted, &st);
			i += 2;
			break;
		default:
			in[nin++] = data[i];
			echo_feed(&e, data + i, 1, now, fuzz_sorted, &st);
			i++;
			break;
		}
	}
	echo_expire(&e, now + ECHO_KEEP_USEC + ECHO_HOLD_USEC, fuzz_sorted,
	    &st);
	if (st.nout != nin || memcmp(st.out, in, nin) != 0)
		abort();	/* a byte lost, doubled or moved */
	pane_free(&st.pane);
	free(in);
	free(st.out);
	return (0);
}
