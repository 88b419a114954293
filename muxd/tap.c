/*
 * The one place every byte passes: read from a port (PORT_IN) and written
 * to a port (PORT_OUT), with its time, port, direction and link.  Bytes read
 * from an unrouted port pass here with a NULL link.  Observers (the capture,
 * the contest rules) register a function; it is called synchronously on the
 * forwarding path and must not block.
 */
#include <stdlib.h>

#include "muxd.h"

#define TAP_MAX	8

struct tap_observer {
	tap_fn	 fn;
	void	*arg;
};

static struct tap_observer	tap_observers[TAP_MAX];
static size_t			tap_count;

/*
 * Hand a chunk of bytes to every observer, with the link it passed in
 * (the port's owner then), or NULL.
 */
void
tap_bytes(struct port *p, void *l, enum port_dir dir,
    const unsigned char *buf, size_t len, const struct timeval *tv)
{
	size_t	i;

	for (i = 0; i < tap_count; i++)
		tap_observers[i].fn(tap_observers[i].arg, p, l, dir, buf, len,
		    tv);
}

/* Add an observer; returns -1 when the table is full. */
int
tap_register(tap_fn fn, void *arg)
{
	if (tap_count == TAP_MAX)
		return (-1);
	tap_observers[tap_count].fn = fn;
	tap_observers[tap_count].arg = arg;
	tap_count++;
	return (0);
}

/* Remove an observer. */
void
tap_unregister(tap_fn fn, void *arg)
{
	size_t	i;

	for (i = 0; i < tap_count; i++) {
		if (tap_observers[i].fn == fn && tap_observers[i].arg == arg) {
			tap_observers[i] = tap_observers[--tap_count];
			return;
		}
	}
}
