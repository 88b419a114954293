/*
 * muxd's memory policy: an allocation that fails ends muxd (fatal, with
 * what was asked for), so that the daemon's code never carries a path for
 * it.  The libraries below return an error instead, and muxd decides.
 */
#include <stdlib.h>
#include <string.h>

#include "muxd.h"

/* Allocate size bytes, or end muxd. */
void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		fatal("xmalloc: %zu bytes", size);
	return (p);
}

/* Allocate n zeroed members of size bytes, or end muxd. */
void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		fatal("xcalloc: %zu times %zu bytes", n, size);
	return (p);
}

/* Grow an array to n members of size bytes, or end muxd. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	void	*q;

	if ((q = reallocarray(p, n == 0 ? 1 : n, size == 0 ? 1 : size)) ==
	    NULL)
		fatal("xreallocarray: %zu times %zu bytes", n, size);
	return (q);
}

/* Copy a string, or end muxd. */
char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		fatal("xstrdup: %zu bytes", strlen(s) + 1);
	return (p);
}
