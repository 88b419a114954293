/*
 * Errors of the library: a code, and where and what went wrong.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"

/* Reset an error to "no error". */
void
cap_error_clear(struct cap_error *e)
{
	if (e == NULL)
		return;
	e->code = CAP_OK;
	e->sys = 0;
	e->file[0] = '\0';
	e->line = 0;
	e->offset = -1;
	e->msg[0] = '\0';
}

/* Fill an error's code, place and message from fmt and ap. */
static void
cap_error_vset(struct cap_error *e, enum cap_err code, const char *file,
    unsigned long line, int64_t offset, const char *fmt, va_list ap)
{
	e->code = code;
	e->sys = 0;
	snprintf(e->file, sizeof(e->file), "%s", file != NULL ? file : "");
	e->line = line;
	e->offset = offset;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
}

/* Fill an error: code, file (or NULL), line (0: none), offset (-1: none). */
void
cap_error_set(struct cap_error *e, enum cap_err code, const char *file,
    unsigned long line, int64_t offset, const char *fmt, ...)
{
	va_list	ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	cap_error_vset(e, code, file, line, offset, fmt, ap);
	va_end(ap);
}

/*
 * Fill an error from errno, which is read before anything else runs: the
 * code, .sys, and the message "fmt: strerror" (strerror alone when fmt is
 * NULL), as log_warn() writes one.  errno is left as it was found.
 * Returns the code.
 */
enum cap_err
cap_error_sys(struct cap_error *e, enum cap_err code, const char *file,
    unsigned long line, int64_t offset, const char *fmt, ...)
{
	va_list	ap;
	size_t	n;
	int	sys = errno;

	if (e == NULL)
		return (code);
	va_start(ap, fmt);
	cap_error_vset(e, code, file, line, offset, fmt != NULL ? fmt : "",
	    ap);
	va_end(ap);
	e->sys = sys;
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, "%s%s", n > 0 ? ": " : "",
	    strerror(sys));
	errno = sys;
	return (code);
}

/* Write an error as "file:line: offset N: message" into buf. */
const char *
cap_error_format(const struct cap_error *e, char *buf, size_t len)
{
	char	where[CAP_ERR_FILE + 64];
	size_t	n = 0;

	where[0] = '\0';
	if (e->file[0] != '\0')
		n += (size_t)snprintf(where + n, sizeof(where) - n, "%s:",
		    e->file);
	if (e->line > 0 && n < sizeof(where))
		n += (size_t)snprintf(where + n, sizeof(where) - n, "%lu:",
		    e->line);
	if (e->offset >= 0 && n < sizeof(where))
		n += (size_t)snprintf(where + n, sizeof(where) - n,
		    " offset %lld:", (long long)e->offset);
	snprintf(buf, len, "%s%s%s", where, n > 0 ? " " : "",
	    e->msg[0] != '\0' ? e->msg : cap_strerror(e->code));
	return (buf);
}

/* Name an error code. */
const char *
cap_strerror(enum cap_err code)
{
	switch (code) {
	case CAP_OK:
		return ("no error");
	case CAP_EOF:
		return ("end of file");
	case CAP_ESYS:
		return ("system error");
	case CAP_ENOMEM:
		return ("out of memory");
	case CAP_EINVAL:
		return ("invalid argument");
	case CAP_EEXIST:
		return ("no free file name");
	case CAP_EHEADER:
		return ("bad header");
	case CAP_EVERSION:
		return ("not asciicast version 2");
	case CAP_ESYNTAX:
		return ("invalid JSON");
	case CAP_EEVENT:
		return ("not an event");
	case CAP_ECODE:
		return ("code point above U+00FF");
	case CAP_EORDER:
		return ("time goes backwards");
	case CAP_ETORN:
		return ("torn last line");
	case CAP_ELONG:
		return ("line too long");
	}
	return ("unknown error");
}
