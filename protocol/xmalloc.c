/*
 * The programs' memory policy: an allocation that fails ends the program
 * with what was asked for, so that a program's code never carries a path
 * for it.  The libraries return an error instead, and the program
 * decides.  The end is the program's: xmalloc_fatal, when it sets one
 * (muxd's fatal, which logs), else a line on standard error and exit 1.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

void	(*xmalloc_fatal)(const char *, ...);

static void	xmalloc_end(const char *, ...)
		    __attribute__((format(printf, 1, 2), noreturn));

/* End the program: what was asked for could not be had. */
static void
xmalloc_end(const char *fmt, ...)
{
	char	msg[128];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (xmalloc_fatal != NULL)
		xmalloc_fatal("%s", msg);
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, msg,
	    strerror(ENOMEM));
	exit(1);
}

/* Allocate size bytes, or end the program. */
void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		xmalloc_end("xmalloc: %zu bytes", size);
	return (p);
}

/* Allocate n zeroed members of size bytes, or end the program. */
void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		xmalloc_end("xcalloc: %zu times %zu bytes", n, size);
	return (p);
}

/* Grow an array to n members of size bytes, or end the program. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	void	*q;

	if ((q = reallocarray(p, n == 0 ? 1 : n, size == 0 ? 1 : size)) ==
	    NULL)
		xmalloc_end("xreallocarray: %zu times %zu bytes", n, size);
	return (q);
}

/* Copy a string, or end the program. */
char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		xmalloc_end("xstrdup: %zu bytes", strlen(s) + 1);
	return (p);
}

/* Print into a string of its own, or end the program. */
char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n == -1)
		xmalloc_end("xasprintf: %s", fmt);
	return (p);
}
