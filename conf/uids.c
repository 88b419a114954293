/*
 * The entries' uids: each exec: entry runs as a uid of its own, taken
 * from the room's range (entry_uids, "LO-HI"), so that no entry can
 * trace, signal or read another.  A table binds names (the entries'
 * ports) to uids: one uid is never given to two names; a name asked for
 * again gets the uid it had; a name with no uid of its own gets the first
 * free one from a start that hangs on its name alone, so that it keeps
 * its uid across restarts whatever the order of the room.  muxd picks the
 * uids with it, and the spawner, root, binds the uid muxd asks for in a
 * table of its own and refuses any outside the range, or another's.
 */
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

static long long	 uids_number(const char *, const char **);
static size_t		 uids_find_uid(const struct uids *, uid_t);

/* Read a decimal number up to *end; -1 when there is none or too big. */
static long long
uids_number(const char *s, const char **end)
{
	long long	 n = 0;

	if (!isdigit((unsigned char)*s))
		return (-1);
	for (; isdigit((unsigned char)*s); s++) {
		n = n * 10 + (*s - '0');
		if (n > UIDS_LAST)
			return (-1);
	}
	*end = s;
	return (n);
}

/*
 * Parse a range "LO-HI" (or one uid "N") into r: at least UIDS_FIRST, at
 * most UIDS_LAST, LO not above HI; -1 with a reason and the offset of
 * what is wrong.
 */
int
uids_parse(const char *s, struct uids_range *r, char *err, size_t errlen,
    size_t *offset)
{
	const char	*p = s, *end;
	long long	 lo, hi;

	*offset = 0;
	if ((lo = uids_number(p, &end)) == -1) {
		snprintf(err, errlen, "'%s' is not LO-HI, two uids from %d "
		    "to %lld", s, UIDS_FIRST, UIDS_LAST);
		return (-1);
	}
	hi = lo;
	p = end;
	if (*p == '-') {
		if ((hi = uids_number(p + 1, &end)) == -1) {
			*offset = (size_t)(p + 1 - s);
			snprintf(err, errlen, "'%s': no uid from %d to %lld after "
			    "'-'", s, UIDS_FIRST, UIDS_LAST);
			return (-1);
		}
		p = end;
	}
	if (*p != '\0') {
		*offset = (size_t)(p - s);
		snprintf(err, errlen, "'%s': '%c' after the range", s, *p);
		return (-1);
	}
	if (lo < UIDS_FIRST) {
		snprintf(err, errlen, "'%s': uids below %d are the system's "
		    "(and 0 is root)", s, UIDS_FIRST);
		return (-1);
	}
	if (lo > hi) {
		snprintf(err, errlen, "'%s': %lld is above %lld", s, lo, hi);
		return (-1);
	}
	r->lo = (uid_t)lo;
	r->hi = (uid_t)hi;
	return (0);
}

/* Start an empty table over a range. */
void
uids_init(struct uids *u, const struct uids_range *r)
{
	memset(u, 0, sizeof(*u));
	u->range = *r;
}

/* Forget every binding and free the table's memory. */
void
uids_clear(struct uids *u)
{
	size_t	i;

	for (i = 0; i < u->n; i++)
		free(u->b[i].name);
	free(u->b);
	u->b = NULL;
	u->n = u->cap = 0;
}

/* The index of the binding of uid, or u->n. */
static size_t
uids_find_uid(const struct uids *u, uid_t uid)
{
	size_t	i;

	for (i = 0; i < u->n; i++)
		if (u->b[i].uid == uid)
			break;
	return (i);
}

/* The uid bound to name, or -1. */
long long
uids_of(const struct uids *u, const char *name)
{
	size_t	i;

	for (i = 0; i < u->n; i++)
		if (strcmp(u->b[i].name, name) == 0)
			return ((long long)u->b[i].uid);
	return (-1);
}

/* Where a name's search for a free uid starts: FNV-1a of the name. */
uid_t
uids_start(const struct uids_range *r, const char *name)
{
	unsigned long	 h = 2166136261UL;
	const char	*p;

	for (p = name; *p != '\0'; p++)
		h = ((h ^ (unsigned char)*p) * 16777619UL) & 0xffffffffUL;
	return (r->lo + (uid_t)(h % ((unsigned long)(r->hi - r->lo) + 1)));
}

/*
 * Bind name to a uid of the range and put it in *uid: want, when it is
 * not -1, else the name's own or a free one.  -1 with a reason when want
 * is outside the range or another name's, or no uid is free; the name
 * keeps what it had then.
 */
int
uids_assign(struct uids *u, const char *name, long long want, uid_t *uid,
    char *err, size_t errlen)
{
	struct uids_binding	*nb;
	unsigned long		 span, k;
	size_t			 i, j;
	uid_t			 c;
	long long		 own;

	own = uids_of(u, name);
	if (want == -1 && own != -1) {
		*uid = (uid_t)own;
		return (0);
	}
	span = (unsigned long)(u->range.hi - u->range.lo) + 1;
	if (want != -1) {
		if (want < (long long)u->range.lo ||
		    want > (long long)u->range.hi) {
			snprintf(err, errlen, "uid %lld is not in the entries' "
			    "range %lu-%lu", want, (unsigned long)u->range.lo,
			    (unsigned long)u->range.hi);
			return (-1);
		}
		c = (uid_t)want;
		if ((i = uids_find_uid(u, c)) < u->n &&
		    strcmp(u->b[i].name, name) != 0) {
			snprintf(err, errlen, "uid %lld is %s's: an entry's uid "
			    "is never shared", want, u->b[i].name);
			return (-1);
		}
	} else {
		c = uids_start(&u->range, name);
		for (k = 0; k < span; k++) {
			if (uids_find_uid(u, c) == u->n &&
			    (u->busy == NULL || !u->busy(c)))
				break;
			c = c == u->range.hi ? u->range.lo : c + 1;
		}
		if (k == span) {
			snprintf(err, errlen, "all %lu uids of %lu-%lu are "
			    "taken", span, (unsigned long)u->range.lo,
			    (unsigned long)u->range.hi);
			return (-1);
		}
	}
	/* A name has one uid: its old one, if any, is free again. */
	for (j = 0; j < u->n; j++)
		if (strcmp(u->b[j].name, name) == 0)
			break;
	if (j == u->n) {
		if (u->n == u->cap) {
			nb = reallocarray(u->b, u->cap ? 2 * u->cap : 16,
			    sizeof(*nb));
			if (nb == NULL) {
				snprintf(err, errlen, "out of memory");
				return (-1);
			}
			u->b = nb;
			u->cap = u->cap ? 2 * u->cap : 16;
		}
		if ((u->b[j].name = strdup(name)) == NULL) {
			snprintf(err, errlen, "out of memory");
			return (-1);
		}
		u->n++;
	}
	u->b[j].uid = c;
	*uid = c;
	return (0);
}
