/*
 * Findings: what a check of a file found, and where (a line, a byte
 * offset), kept in order up to a bound while every one is counted by the
 * caller.  The LPP import's defects and the auditor's verify findings
 * are both such lists.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture.h"

/*
 * Append a finding to a list of at most max (past it nothing is kept and
 * 0 is returned, the caller counting it); -1 when out of memory.
 */
int
finding_add(struct finding_list *fl, size_t max, int kind,
    unsigned long line, int64_t offset, const char *fmt, va_list ap)
{
	struct finding	*f;
	size_t		 n;

	if (fl->n >= max)
		return (0);
	if (fl->n == fl->cap) {
		n = fl->cap == 0 ? 16 : fl->cap * 2;
		if ((f = reallocarray(fl->item, n, sizeof(*f))) == NULL)
			return (-1);
		fl->item = f;
		fl->cap = n;
	}
	f = &fl->item[fl->n++];
	f->kind = kind;
	f->line = line;
	f->offset = offset;
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	return (0);
}

/* Free a list's findings and empty it. */
void
finding_free(struct finding_list *fl)
{
	free(fl->item);
	fl->item = NULL;
	fl->n = fl->cap = 0;
}
