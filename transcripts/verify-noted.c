/*
 * The short hashes written down at the rounds' ends.  At each round's
 * end every judge's terminal shows the manifest just sealed as
 * "evidence 0004 sealed: 3f2a 91c0 7be4 5d18" (capture/manifest.c's
 * short form); the judges, the referee, anyone outside the operator's
 * disk, write it down.  An operator who cut the chain at an earlier
 * shutdown (the later runs deleted) or made everything again with a new
 * key leaves a chain that checks, but not the notes: a manifest noted
 * that is missing, or hashes otherwise, is an integrity failure.
 *
 * A note is "SEQ=HEX" (the list of -s, comma-separated), or a line of a
 * file (-S) "SEQ HEX", "SEQ=HEX" or the notice as shown; HEX is 16 to 64
 * hex digits, spaces between groups allowed, compared as a prefix of the
 * manifest's BLAKE2b-256.  In a file, blank lines and lines from "#" on
 * are skipped.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transcripts.h"

#define VERIFY_NOTED_SEQ_MAX	9999999

static int	verify_notes_item(struct verify_notes *, const char *, size_t,
		    const char *, char *, size_t);

/*
 * Parse one note (len bytes of s, where it was: "-s item 2",
 * "FILE:LINE") into notes; -1 with a message in err when it does not
 * read (or out of memory).
 */
static int
verify_notes_item(struct verify_notes *notes, const char *s, size_t len,
    const char *where, char *err, size_t errlen)
{
	struct verify_note	*v;
	const char		*p = s, *end = s + len;
	size_t			 nd = 0, n;
	long			 seq = 0;
	char			 hex[CAP_CHAIN_HEX];

	/* The notice as shown: "*** evidence 0004 sealed: ... ***". */
	while (p < end && (isspace((unsigned char)*p) || *p == '*'))
		p++;
	if ((size_t)(end - p) > 8 && strncasecmp(p, "evidence", 8) == 0 &&
	    isspace((unsigned char)p[8]))
		p += 9;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || !isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "%s: \"%.*s\": not SEQ=HEX (a manifest's "
		    "number, then its short hash)", where, (int)len, s);
		return (-1);
	}
	while (p < end && isdigit((unsigned char)*p) && seq <=
	    VERIFY_NOTED_SEQ_MAX)
		seq = seq * 10 + (*p++ - '0');
	if (seq < 1 || seq > VERIFY_NOTED_SEQ_MAX) {
		snprintf(err, errlen, "%s: \"%.*s\": the manifest's number is "
		    "not 1 to %d", where, (int)len, s, VERIFY_NOTED_SEQ_MAX);
		return (-1);
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && (*p == '=' || *p == ':'))
		p++;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if ((size_t)(end - p) >= 7 && strncasecmp(p, "sealed:", 7) == 0)
		p += 7;
	for (; p < end; p++) {
		if (*p == ' ' || *p == '\t' || *p == '-')
			continue;
		if (!isxdigit((unsigned char)*p) || nd == CAP_CHAIN_HEX - 1)
			break;
		hex[nd++] = (char)tolower((unsigned char)*p);
	}
	/* Trailing blanks and the notice's " ***". */
	while (p < end && (isspace((unsigned char)*p) || *p == '*'))
		p++;
	if (p != end) {
		snprintf(err, errlen, "%s: \"%.*s\": not a hex digit at \"%.*s\"",
		    where, (int)len, s, (int)(end - p), p);
		return (-1);
	}
	if (nd < MANIFEST_SHORT_DIGITS) {
		snprintf(err, errlen, "%s: \"%.*s\": %zu hex digits, fewer than "
		    "the %d of a short hash", where, (int)len, s, nd,
		    MANIFEST_SHORT_DIGITS);
		return (-1);
	}
	hex[nd] = '\0';
	if (notes->n == notes->cap) {
		n = notes->cap == 0 ? 16 : notes->cap * 2;
		if ((v = reallocarray(notes->v, n, sizeof(*v))) == NULL) {
			snprintf(err, errlen, "out of memory");
			return (-1);
		}
		notes->v = v;
		notes->cap = n;
	}
	v = &notes->v[notes->n++];
	v->seq = (int)seq;
	memcpy(v->hex, hex, nd + 1);
	snprintf(v->where, sizeof(v->where), "%s", where);
	return (0);
}

/*
 * Add the notes of text to notes: lines (a file's text, name its path)
 * or else a comma-separated list (name: the option, "-s").  -1 with a
 * message naming where in err when one does not read.
 */
int
verify_notes_parse(struct verify_notes *notes, const char *text, int lines,
    const char *name, char *err, size_t errlen)
{
	const char	*p = text, *e, *hash;
	char		 where[160];
	size_t		 len, k = 0;

	for (;;) {
		e = p + strcspn(p, lines ? "\n" : ",");
		len = (size_t)(e - p);
		k++;
		if (lines && (hash = memchr(p, '#', len)) != NULL)
			len = (size_t)(hash - p);
		if (strspn(p, " \t\r") < len) {
			if (lines)
				snprintf(where, sizeof(where), "%s:%zu", name,
				    k);
			else
				snprintf(where, sizeof(where), "%s item %zu",
				    name, k);
			if (verify_notes_item(notes, p, len, where, err,
			    errlen) == -1)
				return (-1);
		}
		if (*e == '\0')
			break;
		p = e + 1;
	}
	return (0);
}

/* Free the notes. */
void
verify_notes_free(struct verify_notes *notes)
{
	free(notes->v);
	memset(notes, 0, sizeof(*notes));
}

/*
 * Check the notes against the chain (once finished) into rep: a
 * manifest noted must be there, and hash as noted.  -1 when out of
 * memory.
 */
int
verify_room_noted(const struct verify_room *r, const struct verify_notes *notes,
    struct verify_report *rep)
{
	const char	*have;
	size_t		 i, bad = 0;

	for (i = 0; i < notes->n; i++) {
		have = verify_room_hash(r, notes->v[i].seq);
		if (have == NULL) {
			bad++;
			if (verify_add(rep, VERIFY_NOTED, 0, -1, "manifest %04d, "
			    "noted as %s (%s), is missing: the chain was cut "
			    "or made again", notes->v[i].seq, notes->v[i].hex,
			    notes->v[i].where) == -1)
				return (-1);
		} else if (strncmp(have, notes->v[i].hex,
		    strlen(notes->v[i].hex)) != 0) {
			bad++;
			if (verify_add(rep, VERIFY_NOTED, 0, -1, "manifest %04d "
			    "hashes to %.16s, not %s as noted (%s): it was "
			    "replaced", notes->v[i].seq, have, notes->v[i].hex,
			    notes->v[i].where) == -1)
				return (-1);
		}
	}
	if (notes->n > 0 && bad == 0)
		return (verify_add(rep, VERIFY_NOTE, 0, -1, "%zu short hash%s "
		    "noted, every one as sealed", notes->n, notes->n == 1 ?
		    "" : "es"));
	return (0);
}
