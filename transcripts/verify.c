/*
 * The auditor's checks of captures and transcripts.  Every check adds a
 * finding (kind, line, byte offset, what) to a report and carries on;
 * only running out of memory stops a check.  Nothing is printed here.
 *
 * A capture: the header reads; every line is an event (a torn last line
 * is found with its offset, and the events before it still count); times
 * never go back; no silence between two events is longer than the gap
 * threshold; no fault marker ("fault ...", "drop ...", "link down ...");
 * no forbidden reference in the header or the conversation; and, when its
 * transcript is there, rendering the capture gives that transcript byte
 * for byte.  A transcript: the public-domain line first, the header
 * lines, every line in the 1996 format, no forbidden reference.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "transcripts.h"

#define VERIFY_PD_LINE	"This transcript is in the public domain"
#define VERIFY_TX_MAX	(256UL << 20)	/* longest transcript read */

static const char *verify_kind_names[VERIFY_COUNT] = {
	"note", "open", "header", "event", "order", "torn", "long", "gap",
	"fault", "public-domain", "forbidden", "mismatch", "format", "seal",
	"end", "signature", "manifest", "compliance", "chain", "witness",
	"key", "open", "old-format", "crash", "disconnect", "verdict",
	"noted"
};

/*
 * The class of each kind: what the evidence is when it is found.  The
 * contest's events (silences, faults the room recorded, a forbidden
 * reference someone typed, a crash recovered and sealed, an operator's
 * disconnect, a verdict, a manifest of the older format) leave the
 * evidence intact; everything that says a file is not as muxd wrote and
 * sealed it is an integrity failure.
 */
static const enum verify_class verify_kind_classes[VERIFY_COUNT] = {
	[VERIFY_NOTE] = VERIFY_C_NOTE,
	[VERIFY_OPEN] = VERIFY_C_FAILURE,
	[VERIFY_HEADER] = VERIFY_C_FAILURE,
	[VERIFY_EVENT] = VERIFY_C_FAILURE,
	[VERIFY_ORDER] = VERIFY_C_FAILURE,
	[VERIFY_TORN] = VERIFY_C_FAILURE,
	[VERIFY_LONG] = VERIFY_C_FAILURE,
	[VERIFY_GAP] = VERIFY_C_EVENT,
	[VERIFY_FAULT] = VERIFY_C_EVENT,
	[VERIFY_PD] = VERIFY_C_FAILURE,
	[VERIFY_FORBIDDEN] = VERIFY_C_EVENT,
	[VERIFY_MISMATCH] = VERIFY_C_FAILURE,
	[VERIFY_FORMAT] = VERIFY_C_FAILURE,
	[VERIFY_SEAL] = VERIFY_C_FAILURE,
	[VERIFY_END] = VERIFY_C_FAILURE,
	[VERIFY_SIGNATURE] = VERIFY_C_FAILURE,
	[VERIFY_MANIFEST] = VERIFY_C_FAILURE,
	[VERIFY_COMPLIANCE] = VERIFY_C_FAILURE,
	[VERIFY_CHAIN] = VERIFY_C_FAILURE,
	[VERIFY_WITNESS] = VERIFY_C_FAILURE,
	[VERIFY_KEY] = VERIFY_C_UNVERIFIED,
	[VERIFY_OPENCHAIN] = VERIFY_C_OPEN,
	[VERIFY_OLDFORMAT] = VERIFY_C_EVENT,
	[VERIFY_CRASH] = VERIFY_C_EVENT,
	[VERIFY_DISCONNECT] = VERIFY_C_EVENT,
	[VERIFY_VERDICT] = VERIFY_C_EVENT,
	[VERIFY_NOTED] = VERIFY_C_FAILURE
};

/* Forbidden references (2004 rule 11), matched without regard to case. */
static const char *verify_forbidden_refs[] = {
	"Cambridge Center", "Cambridge Centre", "University of Surrey"
};

static int	verify_from_error(struct verify_report *,
		    const struct cap_error *);
static enum verify_kind verify_is_fault(const unsigned char *, size_t);
static int	verify_tx_line(const char *, size_t);
static int	verify_tx_cut(const char *, size_t, unsigned long long *);
static int	verify_meta_refs(struct verify_report *,
		    const struct cap_meta *);
static int	verify_compare(struct verify_report *, const char *, size_t,
		    const char *, size_t);
static int	verify_conversation(struct verify_report *, const char *,
		    size_t);

/* Name a finding kind, one word. */
const char *
verify_kind_name(enum verify_kind k)
{
	if ((int)k < 0 || k >= VERIFY_COUNT)
		return ("unknown");
	return (verify_kind_names[k]);
}

/* The class of a kind of finding. */
enum verify_class
verify_kind_class(enum verify_kind k)
{
	if ((int)k < 0 || k >= VERIFY_COUNT)
		return (VERIFY_C_FAILURE);
	return (verify_kind_classes[k]);
}

/*
 * The exit status of findings counted by class: the gravest class's,
 * an integrity failure before a missing key before an open chain.
 */
int
verify_status(const size_t *nclass)
{
	if (nclass[VERIFY_C_FAILURE] > 0)
		return (VERIFY_EXIT_FAILURE);
	if (nclass[VERIFY_C_UNVERIFIED] > 0)
		return (VERIFY_EXIT_UNVERIFIED);
	if (nclass[VERIFY_C_OPEN] > 0)
		return (VERIFY_EXIT_OPEN);
	return (VERIFY_EXIT_INTACT);
}

/* Default options: a 120-second gap, transcripts beside the capture. */
void
verify_opts_init(struct verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->gap = VERIFY_GAP_DEFAULT;
}

/* Start a report on a file; -1 when out of memory. */
int
verify_report_init(struct verify_report *rep, const char *file)
{
	memset(rep, 0, sizeof(*rep));
	if ((rep->file = strdup(file)) == NULL)
		return (-1);
	return (0);
}

/* Free a report. */
void
verify_report_free(struct verify_report *rep)
{
	free(rep->file);
	free(rep->transcript);
	finding_free(&rep->findings);
	memset(rep, 0, sizeof(*rep));
}

/* Add a finding; -1 when out of memory.  Notes are not findings. */
int
verify_add(struct verify_report *rep, enum verify_kind kind,
    unsigned long line, int64_t offset, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	rep->count[kind]++;
	rep->nclass[verify_kind_class(kind)]++;
	if (kind != VERIFY_NOTE)
		rep->total++;
	va_start(ap, fmt);
	rc = finding_add(&rep->findings, VERIFY_FINDING_MAX, kind, line,
	    offset, fmt, ap);
	va_end(ap);
	return (rc);
}

/* Turn a reader's error into a finding. */
static int
verify_from_error(struct verify_report *rep, const struct cap_error *e)
{
	enum verify_kind	k;

	switch (e->code) {
	case CAP_ETORN:
		k = VERIFY_TORN;
		break;
	case CAP_EORDER:
		k = VERIFY_ORDER;
		break;
	case CAP_ELONG:
		k = VERIFY_LONG;
		break;
	case CAP_EHEADER:
	case CAP_EVERSION:
		k = VERIFY_HEADER;
		break;
	case CAP_ESYS:
		k = VERIFY_OPEN;
		break;
	default:
		k = VERIFY_EVENT;
		break;
	}
	return (verify_add(rep, k, e->line, e->offset, "%s",
	    e->msg[0] != '\0' ? e->msg : cap_strerror(e->code)));
}

/*
 * Find the first forbidden reference in text: its offset in *at and its
 * words in *which; 0 when there is none.
 */
int
verify_forbidden(const void *text, size_t len, size_t *at,
    const char **which)
{
	const char	*s = text;
	size_t		 i, k, n;

	for (i = 0; i < len; i++) {
		for (k = 0; k < sizeof(verify_forbidden_refs) /
		    sizeof(verify_forbidden_refs[0]); k++) {
			n = strlen(verify_forbidden_refs[k]);
			if (n <= len - i && strncasecmp(s + i,
			    verify_forbidden_refs[k], n) == 0) {
				*at = i;
				*which = verify_forbidden_refs[k];
				return (1);
			}
		}
	}
	return (0);
}

/*
 * Tell what a marker reports: VERIFY_FAULT for a fault, drop(s) or link
 * down, VERIFY_DISCONNECT for the operator's disconnect, VERIFY_VERDICT
 * for a verdict, else VERIFY_NOTE (the link down that ends every round
 * among them).
 */
static enum verify_kind
verify_is_fault(const unsigned char *s, size_t len)
{
	static const char	*words[] = { "fault", "drop", "drops",
				    "dropped", "link down", "loss" };
	static const char	 normal[] = "link down round stopped";
	static const char	 op[] = "link down disconnected by operator";
	size_t			 i, n;

	if (len == sizeof(normal) - 1 && memcmp(s, normal, len) == 0)
		return (VERIFY_NOTE);
	if (len == sizeof(op) - 1 && memcmp(s, op, len) == 0)
		return (VERIFY_DISCONNECT);
	if (len > 8 && memcmp(s, "verdict ", 8) == 0)
		return (VERIFY_VERDICT);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if (len >= n && memcmp(s, words[i], n) == 0 &&
		    (len == n || s[n] == ' '))
			return (VERIFY_FAULT);
	}
	return (VERIFY_NOTE);
}

/*
 * Whether a transcript line (s, n bytes) is a cut line, where a full
 * disk made the writer give text up; the bytes it stands for in *lost.
 */
static int
verify_tx_cut(const char *s, size_t n, unsigned long long *lost)
{
	char			 line[CAP_MARKER_MAX], same[CAP_MARKER_MAX];
	unsigned long long	 k;

	if (n >= sizeof(line))
		return (0);
	memcpy(line, s, n);
	line[n] = '\0';
	if (sscanf(line, TX_WRITE_CUT, &k) != 1 || snprintf(same,
	    sizeof(same), TX_WRITE_CUT, k) <= 0 || strcmp(same, line) != 0)
		return (0);
	if (lost != NULL)
		*lost = k;
	return (1);
}

/* Tell whether a line (no newline) is a transcript line of the format. */
static int
verify_tx_line(const char *s, size_t n)
{
	size_t		i, used;
	unsigned int	cp;

	if (n == 15 && memcmp(s, "*** JUDGE", 9) == 0 &&
	    s[9] >= '0' && s[9] <= '9' && s[10] >= '0' && s[10] <= '9' &&
	    memcmp(s + 11, " ***", 4) == 0)
		return (1);
	/* The gaps: a crash, a recording fault that lost bytes. */
	if (n == 13 && memcmp(s, "*** CRASH ***", 13) == 0)
		return (1);
	if (n > 17 && memcmp(s, "*** LOST JUDGE ", 15) == 0 &&
	    memcmp(s + n - 10, " BYTES ***", 10) == 0 &&
	    strspn(s + 15, "0123456789") > 0 &&
	    strspn(s + 15, "0123456789 BYTESPROGRAM") == n - 15 - 3)
		return (1);
	if (verify_tx_cut(s, n, NULL))
		return (1);
	if (n < 17 || s[7] != '[' || s[10] != ':' || s[13] != ':' ||
	    s[16] != ']')
		return (0);
	if (memcmp(s, "PROGRAM", 7) != 0 && (memcmp(s, "JUDGE", 5) != 0 ||
	    !((s[5] >= '0' && s[5] <= '9' && s[6] >= '0' && s[6] <= '9') ||
	    (s[5] == '?' && s[6] == '?'))))
		return (0);
	for (i = 8; i < 16; i++)
		if (i != 10 && i != 13 && (s[i] < '0' || s[i] > '9'))
			return (0);
	if ((s[8] - '0') * 10 + (s[9] - '0') > 23 || s[11] > '5' ||
	    s[14] > '5')
		return (0);
	for (i = 17; i < n; i += used) {
		used = 1;
		if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f)
			continue;
		/* A UTF-8 link's characters, U+00A0 and above. */
		if (!utf8_decode((const unsigned char *)s + i, n - i, &used,
		    &cp) || cp < 0xa0)
			return (0);
	}
	return (1);
}

/*
 * Check a transcript's text (pure): the public-domain line, the header,
 * the line format, forbidden references.  -1 when out of memory.
 */
int
verify_transcript(struct verify_report *rep, const void *text, size_t len)
{
	const char	*s = text, *p, *nl, *end = s + len, *which;
	unsigned long	 line = 0;
	size_t		 n, at;
	int		 bad = 0;

	if (len == 0)
		return (verify_add(rep, VERIFY_PD, 1, 0, "empty transcript, "
		    "no public-domain line"));
	for (p = s; p < end; p = nl + 1) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			if (verify_add(rep, VERIFY_TORN, line, p - s, "last "
			    "line (%zu bytes) has no newline", (size_t)(end -
			    p)) == -1)
				return (-1);
			nl = end;
		}
		n = (size_t)(nl - p);
		if (line == 1) {
			if ((n != sizeof(VERIFY_PD_LINE) - 1 || memcmp(p,
			    VERIFY_PD_LINE, n) != 0) && verify_add(rep,
			    VERIFY_PD, 1, 0, "the first line is not \"%s\"",
			    VERIFY_PD_LINE) == -1)
				return (-1);
			continue;
		}
		if (line == 2) {
			if (n == 0 && verify_add(rep, VERIFY_FORMAT, 2,
			    p - s, "no program and contestant line") == -1)
				return (-1);
			continue;
		}
		if (line == 3) {
			if ((n != 29 || memcmp(p, "Start at: ", 10) != 0) &&
			    verify_add(rep, VERIFY_FORMAT, 3, p - s, "no "
			    "\"Start at: YYYY/MM/DD HH:MM:SS\" line") == -1)
				return (-1);
			continue;
		}
		if (!verify_tx_line(p, n) && bad++ < 20 && verify_add(rep,
		    VERIFY_FORMAT, line, p - s, "not a JUDGEnn[HH:MM:SS], "
		    "PROGRAM[HH:MM:SS], *** JUDGEnn ***, *** CRASH *** or "
		    "*** LOST ... *** line: \"%.*s\"",
		    (int)(n > 40 ? 40 : n), p) == -1)
			return (-1);
	}
	if (verify_forbidden(s, len, &at, &which)) {
		for (line = 1, p = s; p < s + at; p++)
			line += *p == '\n';
		if (verify_add(rep, VERIFY_FORBIDDEN, line, (int64_t)at,
		    "a reference to the %s", which) == -1)
			return (-1);
	}
	return (0);
}

/* Check a transcript file.  CAP_OK, or CAP_ENOMEM (err filled). */
enum cap_err
verify_transcript_file(const char *path, struct verify_report *rep,
    struct cap_error *err)
{
	struct cap_error	 e;
	char			*buf;
	size_t			 len;
	int			 rv;

	if (cap_file_read(path, VERIFY_TX_MAX, &buf, &len, &e) != CAP_OK) {
		if (verify_add(rep, VERIFY_OPEN, 0, -1, "cannot read: %s",
		    e.sys != 0 ? strerror(e.sys) : "not a regular file of at "
		    "most 256 MB") == -1)
			goto nomem;
		return (CAP_OK);
	}
	rv = verify_transcript(rep, buf, len);
	free(buf);
	if (rv == -1)
		goto nomem;
	return (CAP_OK);
nomem:
	cap_error_set(err, CAP_ENOMEM, path, 0, -1, "verify: out of memory");
	return (CAP_ENOMEM);
}

/* Check the header's strings for forbidden references. */
static int
verify_meta_refs(struct verify_report *rep, const struct cap_meta *m)
{
	const char	*s[] = { m->title, m->program, m->contestant,
			    m->entity, m->station };
	const char	*which;
	size_t		 i, at;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i] != NULL && verify_forbidden(s[i], strlen(s[i]), &at,
		    &which))
			return (verify_add(rep, VERIFY_FORBIDDEN, 1, -1,
			    "the header refers to the %s", which));
	return (0);
}

/*
 * Compare a transcript file's bytes with the capture rendered: the first
 * difference is a finding, with its line and offset in the file.
 */
static int
verify_compare(struct verify_report *rep, const char *txt, size_t tlen,
    const char *ren, size_t rlen)
{
	size_t			 i, k, bol = 0, rbol = 0, n, te, re, r;
	unsigned long		 line = 1;
	unsigned long long	 lost;

again:
	/* txt from bol on is compared with ren from rbol on. */
	n = tlen - bol < rlen - rbol ? tlen - bol : rlen - rbol;
	for (i = 0; i < n && txt[bol + i] == ren[rbol + i]; i++)
		;
	if (i == n && tlen - bol == rlen - rbol)
		return (0);
	/* From the start of the line where they part. */
	for (r = i; r > 0 && txt[bol + r - 1] != '\n'; r--)
		;
	for (k = 0; k < r; k++)
		if (txt[bol + k] == '\n')
			line++;
	bol += r;
	rbol += r;
	for (te = bol; te < tlen && txt[te] != '\n'; te++)
		;
	/*
	 * A cut line, where a full disk made the transcript give text up
	 * (transcripts(5)): a recording fault, the text it stands for
	 * rendered from the capture; the comparison goes on after it.
	 */
	if (te < tlen && verify_tx_cut(txt + bol, te - bol, &lost) &&
	    lost <= rlen - rbol) {
		if (verify_add(rep, VERIFY_FAULT, line, (int64_t)bol,
		    "recording fault: the transcript gave up %llu bytes on a "
		    "full disk here (its cut line); the capture renders them",
		    lost) == -1)
			return (-1);
		bol = te + 1;
		rbol += (size_t)lost;
		line++;
		goto again;
	}
	for (re = rbol; re < rlen && ren[re] != '\n'; re++)
		;
	if (bol == tlen)
		return (verify_add(rep, VERIFY_MISMATCH, line, (int64_t)bol,
		    "the transcript ends where the capture renders \"%.*s\"",
		    (int)(re - rbol > 60 ? 60 : re - rbol), ren + rbol));
	if (rbol == rlen)
		return (verify_add(rep, VERIFY_MISMATCH, line, (int64_t)bol,
		    "the transcript has \"%.*s\" beyond what the capture "
		    "renders", (int)(te - bol > 60 ? 60 : te - bol),
		    txt + bol));
	return (verify_add(rep, VERIFY_MISMATCH, line, (int64_t)bol,
	    "the transcript has \"%.*s\", the capture renders \"%.*s\"",
	    (int)(te - bol > 60 ? 60 : te - bol), txt + bol,
	    (int)(re - rbol > 60 ? 60 : re - rbol), ren + rbol));
}

/*
 * Check the conversation of a rendered transcript (its lines after the
 * three header lines, which come from the capture header, checked apart)
 * for forbidden references.
 */
static int
verify_conversation(struct verify_report *rep, const char *ren, size_t len)
{
	const char	*which;
	size_t		 i, at;
	int		 nl = 0;

	for (i = 0; i < len && nl < 3; i++)
		nl += ren[i] == '\n';
	if (!verify_forbidden(ren + i, len - i, &at, &which))
		return (0);
	return (verify_add(rep, VERIFY_FORBIDDEN, 0, -1, "the conversation "
	    "refers to the %s", which));
}

/*
 * The path of a capture's transcript: the one its header names, looked
 * for in the transcripts' directory (-t) or beside the capture, then in
 * ENTITY/ below either, then where muxd(8) keeps it, ../transcripts/ENTITY/
 * from the captures' directory; else STEM.txt or STEM.TXT beside NAME.cast
 * when one exists; else NULL (*named then says whether the header named
 * one).
 */
char *
verify_tx_path(const char *cap, const struct cap_meta *m,
    const struct verify_opts *o, int *named)
{
	static const char	*ext[] = { ".txt", ".TXT" };
	struct stat		 st;
	const char		*slash;
	char			*p = NULL;
	size_t			 n, i;
	int			 dirlen;

	slash = strrchr(cap, '/');
	dirlen = slash != NULL ? (int)(slash - cap) : 1;
	*named = m->transcript != NULL && m->transcript[0] != '\0' &&
	    strchr(m->transcript, '/') == NULL;
	for (i = 0; *named && i < 3; i++) {
		if (i > 0 && (m->entity == NULL || m->entity[0] == '\0' ||
		    strchr(m->entity, '/') != NULL))
			break;
		if (asprintf(&p, "%.*s/%s%s%s%s", o->txdir != NULL ?
		    (int)strlen(o->txdir) : dirlen, o->txdir != NULL ?
		    o->txdir : slash != NULL ? cap : ".",
		    i == 2 ? "../transcripts/" : "", i > 0 ? m->entity : "",
		    i > 0 ? "/" : "", m->transcript) == -1)
			return (NULL);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			return (p);
		free(p);
	}
	n = strlen(cap);
	if (n <= 5 || strcmp(cap + n - 5, ".cast") != 0)
		return (NULL);
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		if (asprintf(&p, "%.*s%s", (int)(n - 5), cap, ext[i]) == -1)
			return (NULL);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			return (p);
		free(p);
	}
	return (NULL);
}

/*
 * Check a capture (and its transcript, when it is there) into rep.
 * Returns CAP_OK whatever was found, or CAP_ENOMEM (err filled).
 */
enum cap_err
verify_capture(const char *path, const struct verify_opts *o,
    struct verify_report *rep, struct cap_error *err)
{
	struct cap_reader	*r = NULL;
	struct tx_writer	*tw = NULL;
	struct verify_chain	*vc = NULL;
	struct cap_event	 ev;
	struct cap_error	 e;
	const struct cap_meta	*m;
	const char		*ren;
	char			*txt = NULL, *txpath = NULL, mark[120];
	enum verify_kind	 k;
	size_t			 rlen, tlen, i;
	int64_t			 prev = 0;
	unsigned long		 prevline = 0;
	enum cap_err		 rc;
	int			 have = 0, named;

	if (cap_read_open(path, &r, &e) != CAP_OK) {
		if (verify_from_error(rep, &e) == -1)
			goto nomem;
		return (CAP_OK);
	}
	m = cap_read_meta(r);
	if (verify_meta_refs(rep, m) == -1 ||
	    (vc = verify_chain_open(path)) == NULL)
		goto nomem;
	if (tx_write_memopen(m, &tw, &e) != CAP_OK) {
		if (e.code == CAP_ENOMEM)
			goto nomem;
		if (verify_add(rep, VERIFY_HEADER, 1, 0, "cannot render: %s",
		    e.msg) == -1)
			goto nomem;
		tw = NULL;
	}
	for (;;) {
		rc = cap_read_event(r, &ev, &e);
		if (rc == CAP_EOF)
			break;
		if (rc == CAP_ENOMEM)
			goto nomem;
		if (rc != CAP_OK) {
			if (verify_from_error(rep, &e) == -1)
				goto nomem;
			if (rc == CAP_ESYS)
				break;
			if (rc != CAP_EORDER)
				continue;
		}
		rep->nevent++;
		if (verify_chain_event(vc, rep, &ev) == -1)
			goto nomem;
		if (o->verdicts != NULL && ev.kind == CAP_MARKER &&
		    ev.len > 8 && memcmp(ev.data, "verdict ", 8) == 0 &&
		    verify_verdicts_add(o->verdicts, m, path, &ev) == -1)
			goto nomem;
		if (have && ev.usec - prev > o->gap && verify_add(rep,
		    VERIFY_GAP, ev.line, ev.offset, "%.1f s of silence after "
		    "line %lu (%.1f s to %.1f s)", (double)(ev.usec - prev) /
		    1e6, prevline, (double)prev / 1e6, (double)ev.usec / 1e6) ==
		    -1)
			goto nomem;
		if (!have || ev.usec > prev)
			prev = ev.usec;
		prevline = ev.line;
		have = 1;
		rep->duration = prev;
		if (ev.kind == CAP_MARKER && (k = verify_is_fault(ev.data,
		    ev.len)) != VERIFY_NOTE) {
			for (i = 0; i < ev.len && i + 1 < sizeof(mark); i++)
				mark[i] = ev.data[i] >= 0x20 && ev.data[i] <
				    0x7f ? (char)ev.data[i] : '?';
			mark[i] = '\0';
			if (verify_add(rep, k, ev.line, ev.offset,
			    "%smarker \"%s\" at %.1f s", strncmp(mark, "loss ",
			    5) == 0 || strncmp(mark, "fault record ", 13) == 0 ?
			    "recording fault, events lost or not synced: " : "",
			    mark, (double)ev.usec / 1e6) == -1)
				goto nomem;
		}
		if (tw != NULL && tx_write_event(tw, ev.kind, ev.data, ev.len,
		    ev.usec, &e) != CAP_OK && e.code == CAP_ENOMEM)
			goto nomem;
	}
	if (verify_chain_finish(vc, rep, m, o->room) == -1 ||
	    verify_room_check(o->room, path, rep) == -1)
		goto nomem;
	if (tw == NULL)
		goto done;
	if (tx_write_finish(tw, &e) != CAP_OK && e.code == CAP_ENOMEM)
		goto nomem;
	ren = tx_write_buffer(tw, &rlen);
	if (ren == NULL)
		goto nomem;
	if ((txpath = verify_tx_path(path, m, o, &named)) == NULL) {
		if (named && verify_add(rep, VERIFY_NOTE, 0, -1, "transcript "
		    "%s named in the header is not there, not compared",
		    m->transcript) == -1)
			goto nomem;
		/* No transcript: the conversation itself is checked. */
		if (verify_conversation(rep, ren, rlen) == -1)
			goto nomem;
		goto done;
	}
	if (cap_file_read(txpath, VERIFY_TX_MAX, &txt, &tlen, &e) != CAP_OK) {
		if (verify_add(rep, VERIFY_NOTE, 0, -1, "transcript %s not "
		    "compared: %s", txpath, e.sys != 0 ? strerror(e.sys) :
		    "not a regular file") == -1)
			goto nomem;
		if (verify_conversation(rep, ren, rlen) == -1)
			goto nomem;
		goto done;
	}
	if ((rep->transcript = strdup(txpath)) == NULL)
		goto nomem;
	rep->tx_first = rep->findings.n;
	if (verify_transcript(rep, txt, tlen) == -1 ||
	    verify_compare(rep, txt, tlen, ren, rlen) == -1 ||
	    verify_room_check(o->room, txpath, rep) == -1)
		goto nomem;
done:
	verify_chain_close(vc);
	free(txt);
	free(txpath);
	tx_write_free(tw);
	cap_read_close(r);
	return (CAP_OK);
nomem:
	verify_chain_close(vc);
	free(txt);
	free(txpath);
	tx_write_free(tw);
	cap_read_close(r);
	cap_error_set(err, CAP_ENOMEM, path, 0, -1, "verify: out of memory");
	return (CAP_ENOMEM);
}
