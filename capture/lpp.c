/*
 * The 2007-2012 Loebner Prize Protocol (LPP) keystroke logs: a pure
 * parser from the bytes of a log to its header, its records and its
 * defects, each defect with file, line and byte offset.  No I/O here.
 *
 * A log is four header lines, then one record per keystroke:
 *
 *	Loebner Prize 2012 15 May  Bletchley Park UK
 *	These transcripts are in the public domain
 *	Transcripts of judge 3 program m_allan_linguo round 1
 *	Left =human
 *	J3 013370843210242371 judge left H
 *
 * A record is the judge ("J" and the judge number, "J" alone when the
 * number was not set), an 18-digit time, who typed ("judge", or the
 * program's name for the other side, whoever is on it), the side of the
 * judge's screen ("left" or "right") and the key name.  The time is "0",
 * ten digits of Unix seconds and seven digits that are a zero-padded count
 * of microseconds (0000000..0999999): in the 2012 logs the seventh digit
 * from the end is always 0, and reading the seven digits as tenths of
 * microseconds would make the gaps between keys jump at every second.
 * Lines end in CRLF (the 2012 logs) or LF.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lpp.h"

struct lpp_name {
	const char	*name;
	unsigned char	 byte;
};

/*
 * The key names of the LPP appendix (2009 rules), which are X11 keysym
 * names, and a few more keysyms a keyboard of the time could send.
 * Return is CR, the terminal convention of our captures (the appendix
 * says "\n"); BackSpace is BS.  Single characters stand for themselves.
 */
static const struct lpp_name lpp_names[] = {
	{ "BackSpace", 0x08 }, { "Delete", 0x7f }, { "Escape", 0x1b },
	{ "Return", 0x0d }, { "KP_Enter", 0x0d }, { "Linefeed", 0x0a },
	{ "Tab", 0x09 }, { "ampersand", '&' }, { "apostrophe", '\'' },
	{ "asciicircum", '^' }, { "asciitilde", '~' }, { "asterisk", '*' },
	{ "at", '@' }, { "backslash", '\\' }, { "bar", '|' },
	{ "braceleft", '{' }, { "braceright", '}' }, { "bracketleft", '[' },
	{ "bracketright", ']' }, { "colon", ':' }, { "comma", ',' },
	{ "dollar", '$' }, { "equal", '=' }, { "exclam", '!' },
	{ "grave", '`' }, { "greater", '>' }, { "less", '<' },
	{ "minus", '-' }, { "numbersign", '#' }, { "parenleft", '(' },
	{ "parenright", ')' }, { "percent", '%' }, { "period", '.' },
	{ "plus", '+' }, { "question", '?' }, { "quotedbl", '"' },
	{ "quoteleft", '`' }, { "quoteright", '\'' }, { "semicolon", ';' },
	{ "slash", '/' }, { "space", ' ' }, { "sterling", 0xa3 },
	{ "underscore", '_' },
};

static const char *lpp_defect_names[LPP_D_COUNT] = {
	"header", "no-judge", "no-round", "header-only", "truncated",
	"syntax", "key", "duplicate", "backwards", "speaker", "judge-id",
	"line-ends", "long-line"
};

static int	lpp_add_defect(struct lpp_log *, enum lpp_defect_kind,
		    unsigned long, int64_t, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
static int	lpp_add_record(struct lpp_log *, const struct lpp_record *);
static int	lpp_strndup(char **, const char *, size_t);
static size_t	lpp_trim(const char *, size_t);
static int	lpp_number(const char *, size_t, int);
static int	lpp_header(struct lpp_log *, const char *, size_t,
		    unsigned long, int64_t, int *);
static int	lpp_record(struct lpp_log *, const char *, size_t,
		    unsigned long, int64_t, struct lpp_record *);
static int	lpp_cmp(const void *, const void *);
static int	lpp_same(const struct lpp_record *,
		    const struct lpp_record *);
static int	lpp_dedupe_self(struct lpp_log *);

/* Turn a key name into the byte it stands for; -1 when unknown. */
int
lpp_key_byte(const char *name, size_t len)
{
	size_t	i;

	/* A character as itself; a space too (the logs have 16 so). */
	if (len == 1 && name[0] >= ' ' && name[0] < 0x7f)
		return ((unsigned char)name[0]);
	for (i = 0; i < sizeof(lpp_names) / sizeof(lpp_names[0]); i++)
		if (strlen(lpp_names[i].name) == len &&
		    memcmp(lpp_names[i].name, name, len) == 0)
			return (lpp_names[i].byte);
	return (-1);
}

/*
 * The key name of a byte, as an LPP program writes it: a letter or digit
 * as itself, the rules' appendix name for the others (Return for CR and
 * LF, BackSpace for BS and DEL: the key the judge pressed), a keysym for
 * the few more; NULL when the byte has none.
 */
const char *
lpp_key_name(int byte)
{
	static char	one[LPP_BYTES][2];
	size_t		i;

	if (byte < 0 || byte >= LPP_BYTES)
		return (NULL);
	if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
	    (byte >= '0' && byte <= '9')) {
		one[byte][0] = (char)byte;
		return (one[byte]);
	}
	switch (byte) {
	case 0x0a:
	case 0x0d:
		return ("Return");
	case 0x08:
	case 0x7f:
		return ("BackSpace");
	case '\'':
		return ("quoteright");
	case '`':
		return ("quoteleft");
	}
	for (i = 0; i < sizeof(lpp_names) / sizeof(lpp_names[0]); i++)
		if (lpp_names[i].byte == byte)
			return (lpp_names[i].name);
	return (NULL);
}

/* Name a defect kind, one word as the import report prints it. */
const char *
lpp_defect_name(enum lpp_defect_kind k)
{
	if ((int)k < 0 || k >= LPP_D_COUNT)
		return ("unknown");
	return (lpp_defect_names[k]);
}

/*
 * Write a key name as an ASCII word: bytes outside '!'..'~' and '%' as
 * %XX, the empty name as "%".  Returns the length written (< size).
 */
size_t
lpp_key_word(char *buf, size_t size, const char *name, size_t len)
{
	static const char	 hex[] = "0123456789ABCDEF";
	size_t			 i, n = 0;
	unsigned char		 c;

	if (size == 0)
		return (0);
	if (len == 0 && size > 1)
		buf[n++] = '%';
	for (i = 0; i < len; i++) {
		c = (unsigned char)name[i];
		if (c > ' ' && c < 0x7f && c != '%') {
			if (n + 1 >= size)
				break;
			buf[n++] = (char)c;
		} else {
			if (n + 3 >= size)
				break;
			buf[n++] = '%';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 0xf];
		}
	}
	buf[n] = '\0';
	return (n);
}

/* Record a defect (message printf-style); -1 when out of memory. */
static int
lpp_add_defect(struct lpp_log *log, enum lpp_defect_kind kind,
    unsigned long line, int64_t offset, const char *fmt, ...)
{
	va_list	ap;
	int	rc;

	log->ndefect_kind[kind]++;
	log->ndefect_all++;
	va_start(ap, fmt);
	rc = finding_add(&log->defects, LPP_DEFECT_MAX, kind, line, offset,
	    fmt, ap);
	va_end(ap);
	return (rc);
}

/* Append a record; -1 when out of memory. */
static int
lpp_add_record(struct lpp_log *log, const struct lpp_record *r)
{
	struct lpp_record	*p;
	size_t			 n;

	if (log->nrecord == log->record_cap) {
		n = log->record_cap == 0 ? 256 : log->record_cap * 2;
		if ((p = reallocarray(log->record, n, sizeof(*p))) == NULL)
			return (-1);
		log->record = p;
		log->record_cap = n;
	}
	log->record[log->nrecord++] = *r;
	return (0);
}

/* Replace *dst by a NUL-terminated copy of s[0..len); -1 on no memory. */
static int
lpp_strndup(char **dst, const char *s, size_t len)
{
	char	*p;

	if ((p = malloc(len + 1)) == NULL)
		return (-1);
	memcpy(p, s, len);
	p[len] = '\0';
	free(*dst);
	*dst = p;
	return (0);
}

/* The length of s[0..len) without its trailing spaces. */
static size_t
lpp_trim(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	return (len);
}

/* Parse 1..maxd decimal digits; -1 when s is not that. */
static int
lpp_number(const char *s, size_t len, int maxd)
{
	int	n = 0;
	size_t	i;

	if (len == 0 || len > (size_t)maxd)
		return (-1);
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		n = n * 10 + (s[i] - '0');
	}
	return (n);
}

/*
 * Take a header line; *known is set when it is one.  Returns -1 when out
 * of memory.
 */
static int
lpp_header(struct lpp_log *log, const char *s, size_t len,
    unsigned long line, int64_t off, int *known)
{
	static const char	 tj[] = "Transcripts of judge";
	static const char	 lt[] = "Left =";
	const char		*p, *q, *end = s + len;
	size_t			 n;

	*known = 1;
	len = lpp_trim(s, len);
	if (len >= 13 && memcmp(s, "Loebner Prize", 13) == 0) {
		log->seen |= LPP_SEEN_TITLE;
		return (lpp_strndup(&log->title, s, len));
	}
	if (len >= 17 && memcmp(s, "These transcripts", 17) == 0 &&
	    memmem(s + 17, len - 17, "public domain", 13) != NULL) {
		log->seen |= LPP_SEEN_PD;
		return (0);
	}
	if (len >= sizeof(lt) - 1 && memcmp(s, lt, sizeof(lt) - 1) == 0) {
		log->seen |= LPP_SEEN_LEFT;
		p = s + sizeof(lt) - 1;
		n = lpp_trim(p, (size_t)(s + len - p));
		if (n == 7 && memcmp(p, "program", 7) == 0)
			log->left = LPP_ROLE_PROGRAM;
		else if (n == 5 && memcmp(p, "human", 5) == 0)
			log->left = LPP_ROLE_HUMAN;
		else
			return (lpp_add_defect(log, LPP_D_HEADER, line, off,
			    "\"Left =\" names neither program nor human"));
		return (0);
	}
	if (len < sizeof(tj) - 1 || memcmp(s, tj, sizeof(tj) - 1) != 0) {
		*known = 0;
		return (0);
	}
	log->seen |= LPP_SEEN_WHO;
	/* "Transcripts of judge J program P round R", J and R may be empty. */
	p = s + sizeof(tj) - 1;
	end = s + len;
	q = memmem(p, (size_t)(end - p), " program ", 9);
	if (q == NULL && (q = memmem(p, (size_t)(end - p), " program",
	    8)) == NULL)
		return (lpp_add_defect(log, LPP_D_HEADER, line, off,
		    "no \"program\" in the judge line"));
	while (p < q && *p == ' ')
		p++;
	if (p == q)
		log->judge = TX_JUDGE_NONE;
	else if ((log->judge = lpp_number(p, (size_t)(q - p), 2)) == -1) {
		log->judge = TX_JUDGE_NONE;
		if (lpp_add_defect(log, LPP_D_HEADER, line, off,
		    "judge \"%.*s\" is not a number 0..99",
		    (int)(q - p > 40 ? 40 : q - p), p) == -1)
			return (-1);
	}
	p = q + 8;
	while (p < end && *p == ' ')
		p++;
	q = memmem(p, (size_t)(end - p), " round", 6);
	if (q == NULL)
		q = end;
	if (lpp_strndup(&log->program, p, lpp_trim(p, (size_t)(q - p))) == -1)
		return (-1);
	log->round = 0;
	if (q == end)
		return (lpp_add_defect(log, LPP_D_HEADER, line, off,
		    "no \"round\" in the judge line"));
	p = q + 6;
	while (p < end && *p == ' ')
		p++;
	if (p < end && (log->round = lpp_number(p, (size_t)(end - p),
	    6)) == -1) {
		log->round = 0;
		return (lpp_add_defect(log, LPP_D_HEADER, line, off,
		    "round \"%.*s\" is not a number",
		    (int)(end - p > 40 ? 40 : end - p), p));
	}
	return (0);
}

/*
 * Parse a record line (without its line end) into r.  Returns 1 when it
 * is a record, 0 when not (a defect is added), -1 when out of memory.
 */
static int
lpp_record(struct lpp_log *log, const char *s, size_t len,
    unsigned long line, int64_t off, struct lpp_record *r)
{
	const char	*f[4], *end = s + len, *p = s;
	size_t		 flen[4], klen;
	int		 i, nf, b;
	int64_t		 sec, usec;
	char		 word[3 * LPP_KEY_MAX + 1];

	memset(r, 0, sizeof(*r));
	r->line = line;
	r->offset = off;
	/* Four fields split on single spaces; the rest is the key name. */
	for (nf = 0; nf < 4; nf++) {
		f[nf] = p;
		while (p < end && *p != ' ')
			p++;
		flen[nf] = (size_t)(p - f[nf]);
		if (p == end)
			break;
		p++;
	}
	if (nf < 4)
		return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "a record has %d fields, expected 5", nf + 1) == -1 ?
		    -1 : 0);
	if (flen[0] < 1 || f[0][0] != 'J' || (flen[0] > 1 &&
	    lpp_number(f[0] + 1, flen[0] - 1, 2) == -1))
		return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "a record does not begin with J and a judge number") ==
		    -1 ? -1 : 0);
	r->judge = flen[0] == 1 ? TX_JUDGE_NONE :
	    lpp_number(f[0] + 1, flen[0] - 1, 2);
	if (flen[1] != LPP_TIME_DIGITS || lpp_number(f[1], 1, 1) != 0)
		return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "the time is not 18 digits beginning with 0") == -1 ?
		    -1 : 0);
	sec = usec = 0;
	for (i = 1; i < LPP_TIME_DIGITS; i++) {
		if (f[1][i] < '0' || f[1][i] > '9')
			return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
			    "the time is not 18 digits") == -1 ? -1 : 0);
		if (i <= 10)
			sec = sec * 10 + (f[1][i] - '0');
		else
			usec = usec * 10 + (f[1][i] - '0');
	}
	if (usec >= 1000000)
		return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "the time's last 7 digits are %lld, not microseconds",
		    (long long)usec) == -1 ? -1 : 0);
	r->usec = sec * 1000000 + usec;
	if (flen[3] == 4 && memcmp(f[3], "left", 4) == 0)
		r->side = LPP_LEFT;
	else if (flen[3] == 5 && memcmp(f[3], "right", 5) == 0)
		r->side = LPP_RIGHT;
	else
		return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "the side is neither left nor right") == -1 ? -1 : 0);
	if (flen[2] == 0)
		return (lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "a record names nobody") == -1 ? -1 : 0);
	r->judge_typed = flen[2] == 5 && memcmp(f[2], "judge", 5) == 0;
	if (!r->judge_typed && log->program != NULL &&
	    log->program[0] != '\0' && (strlen(log->program) != flen[2] ||
	    memcmp(log->program, f[2], flen[2]) != 0) &&
	    lpp_add_defect(log, LPP_D_SPEAKER, line, off,
	    "\"%.*s\" typed: neither judge nor the program %s",
	    (int)(flen[2] > 40 ? 40 : flen[2]), f[2], log->program) == -1)
		return (-1);
	if (r->judge != log->judge && (log->seen & LPP_SEEN_WHO) &&
	    lpp_add_defect(log, LPP_D_JUDGEID, line, off,
	    "the record says judge %d, the header %d", r->judge,
	    log->judge) == -1)
		return (-1);
	klen = (size_t)(end - p);
	memcpy(r->key, p, klen < LPP_KEY_MAX - 1 ? klen : LPP_KEY_MAX - 1);
	r->key[klen < LPP_KEY_MAX - 1 ? klen : LPP_KEY_MAX - 1] = '\0';
	r->keylen = klen < LPP_KEY_MAX - 1 ? klen : LPP_KEY_MAX - 1;
	if ((b = lpp_key_byte(p, klen)) == ' ' && klen == 1) {
		/* A space logged as itself, not as "space": kept, and said. */
		r->byte = ' ';
		if (lpp_add_defect(log, LPP_D_KEY, line, off,
		    "a lone space for the key name, read as space") == -1)
			return (-1);
	} else if (b == -1) {
		r->byte = -1;
		lpp_key_word(word, sizeof(word), p,
		    klen < LPP_KEY_MAX ? klen : LPP_KEY_MAX);
		if (lpp_add_defect(log, LPP_D_KEY, line, off,
		    "unknown key name \"%s\"", word) == -1)
			return (-1);
	} else
		r->byte = b;
	return (1);
}

/* Order records by time, side, who and key, then by line. */
static int
lpp_cmp(const void *a, const void *b)
{
	const struct lpp_record	*x, *y;
	int			 c;

	x = *(const struct lpp_record *const *)a;
	y = *(const struct lpp_record *const *)b;
	if (x->usec != y->usec)
		return (x->usec < y->usec ? -1 : 1);
	if (x->side != y->side)
		return (x->side < y->side ? -1 : 1);
	if (x->judge_typed != y->judge_typed)
		return (x->judge_typed < y->judge_typed ? -1 : 1);
	if (x->keylen != y->keylen)
		return (x->keylen < y->keylen ? -1 : 1);
	if ((c = memcmp(x->key, y->key, x->keylen)) != 0)
		return (c);
	if (x->line != y->line)
		return (x->line < y->line ? -1 : 1);
	return (0);
}

/* Tell whether two records are the same keystroke. */
static int
lpp_same(const struct lpp_record *x, const struct lpp_record *y)
{
	return (x->usec == y->usec && x->side == y->side &&
	    x->judge_typed == y->judge_typed && x->keylen == y->keylen &&
	    memcmp(x->key, y->key, x->keylen) == 0);
}

/*
 * Drop the records logged twice in one log (same time, side, who and
 * key), keeping the first; each copy is a defect.  -1 on no memory.
 */
static int
lpp_dedupe_self(struct lpp_log *log)
{
	struct lpp_record	**v;
	size_t			  i, j;

	if (log->nrecord < 2)
		return (0);
	if ((v = reallocarray(NULL, log->nrecord, sizeof(*v))) == NULL)
		return (-1);
	for (i = 0; i < log->nrecord; i++)
		v[i] = &log->record[i];
	qsort(v, log->nrecord, sizeof(*v), lpp_cmp);
	/* Copies sort together, the first logged first: j starts a run. */
	for (i = 1, j = 0; i < log->nrecord; i++) {
		if (!lpp_same(v[j], v[i])) {
			j = i;
			continue;
		}
		v[i]->dropped = 1;
		if (lpp_add_defect(log, LPP_D_DUPLICATE, v[i]->line,
		    v[i]->offset, "the record of line %lu logged again",
		    v[j]->line) == -1) {
			free(v);
			return (-1);
		}
	}
	free(v);
	for (i = j = 0; i < log->nrecord; i++)
		if (!log->record[i].dropped)
			log->record[j++] = log->record[i];
	log->nduplicate += log->nrecord - j;
	log->nrecord = j;
	return (0);
}

/*
 * Parse the bytes of an LPP log.  file names it in defects and errors.
 * Defects of the log (the data) are in log->defects, and parsing carries
 * on past them; the return is CAP_OK, or CAP_ENOMEM (err filled) when
 * the log could not be held.  Free log with lpp_free() in either case.
 */
enum cap_err
lpp_parse(const char *file, const void *buf, size_t len,
    struct lpp_log *log, struct cap_error *err)
{
	const char		*s = buf, *nl, *end, *p;
	size_t			 n;
	unsigned long		 line = 0;
	int64_t			 off;
	int			 known, r, torn;
	int64_t			 last[2] = { INT64_MIN, INT64_MIN };
	struct lpp_record	 rec;

	memset(log, 0, sizeof(*log));
	if (s == NULL) {
		s = "";
		len = 0;
	}
	end = s + len;
	log->judge = TX_JUDGE_NONE;
	log->left = LPP_ROLE_UNKNOWN;
	if (lpp_strndup(&log->file, file != NULL ? file : "",
	    file != NULL ? strlen(file) : 0) == -1)
		goto nomem;
	for (p = s; p < end; p = nl + 1) {
		line++;
		off = p - s;
		torn = 0;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL) {
			nl = end;
			torn = 1;
		}
		n = (size_t)(nl - p);
		if (!torn && n > 0 && p[n - 1] == '\r') {
			n--;
			log->ncrlf++;
		} else if (!torn)
			log->nlf++;
		log->nline++;
		if (torn && n > 0 && p[n - 1] == '\r') {
			/* The CR shows the record ended; only LF is lost. */
			n--;
			torn = 0;
			if (lpp_add_defect(log, LPP_D_LINE_ENDS, line, off,
			    "the last line ends in CR without LF") == -1)
				goto nomem;
		}
		if (n > LPP_LINE_MAX) {
			if (lpp_add_defect(log, LPP_D_LONG, line, off,
			    "a line of %zu bytes skipped", n) == -1)
				goto nomem;
			continue;
		}
		if (torn) {
			log->torn_line = line;
			log->torn_offset = off;
			log->torn_len = n;
			if (lpp_add_defect(log, LPP_D_TRUNCATED, line, off,
			    "the last record is cut off after %zu bytes "
			    "(\"%.*s\"), dropped", n, (int)(n > 60 ? 60 : n),
			    p) == -1)
				goto nomem;
			break;
		}
		if (n == 0)
			continue;
		if (p[0] == 'J' && n > 1 && (p[1] == ' ' ||
		    (p[1] >= '0' && p[1] <= '9'))) {
			if (!(log->seen & LPP_SEEN_RECORD) &&
			    (log->seen & LPP_SEEN_HEADER) != LPP_SEEN_HEADER &&
			    lpp_add_defect(log, LPP_D_HEADER, line, off,
			    "records begin before a full header") == -1)
				goto nomem;
			log->seen |= LPP_SEEN_RECORD | LPP_SEEN_HEADER;
			if ((r = lpp_record(log, p, n, line, off, &rec)) == -1)
				goto nomem;
			if (r == 0)
				continue;
			if (rec.usec < last[rec.side] &&
			    lpp_add_defect(log, LPP_D_BACKWARDS, line, off,
			    "time %lld us before the previous %s record",
			    (long long)(last[rec.side] - rec.usec),
			    rec.side == LPP_LEFT ? "left" : "right") == -1)
				goto nomem;
			if (rec.usec > last[rec.side])
				last[rec.side] = rec.usec;
			if (lpp_add_record(log, &rec) == -1)
				goto nomem;
			continue;
		}
		if ((r = lpp_header(log, p, n, line, off, &known)) == -1)
			goto nomem;
		if (!known && lpp_add_defect(log, LPP_D_SYNTAX, line, off,
		    "neither a header line nor a record") == -1)
			goto nomem;
		if (known && (log->seen & LPP_SEEN_RECORD) &&
		    lpp_add_defect(log, LPP_D_HEADER, line, off,
		    "a header line after the records") == -1)
			goto nomem;
	}
	if (lpp_dedupe_self(log) == -1)
		goto nomem;
	if (log->ncrlf > 0 && log->nlf > 0 && lpp_add_defect(log,
	    LPP_D_LINE_ENDS, 0, -1, "%zu lines end in CRLF, %zu in LF alone",
	    log->ncrlf, log->nlf) == -1)
		goto nomem;
	if (!(log->seen & LPP_SEEN_TITLE) && lpp_add_defect(log,
	    LPP_D_HEADER, 0, -1, "no \"Loebner Prize\" title line") == -1)
		goto nomem;
	if (!(log->seen & LPP_SEEN_PD) && lpp_add_defect(log, LPP_D_HEADER,
	    0, -1, "no public-domain line") == -1)
		goto nomem;
	if (!(log->seen & LPP_SEEN_WHO) && lpp_add_defect(log, LPP_D_HEADER,
	    0, -1, "no \"Transcripts of judge\" line") == -1)
		goto nomem;
	if (!(log->seen & LPP_SEEN_LEFT) && lpp_add_defect(log, LPP_D_HEADER,
	    0, -1, "no \"Left =\" line") == -1)
		goto nomem;
	if ((log->seen & LPP_SEEN_WHO) && log->judge == TX_JUDGE_NONE &&
	    lpp_add_defect(log, LPP_D_NOJUDGE, 3, -1, "the judge is empty") ==
	    -1)
		goto nomem;
	if ((log->seen & LPP_SEEN_WHO) && log->round == 0 &&
	    lpp_add_defect(log, LPP_D_NOROUND, 3, -1, "the round is empty") ==
	    -1)
		goto nomem;
	if (log->nrecord == 0 && log->ndefect_kind[LPP_D_TRUNCATED] == 0 &&
	    lpp_add_defect(log, LPP_D_EMPTY, log->nline, (int64_t)len,
	    "no records after the header") == -1)
		goto nomem;
	return (CAP_OK);
nomem:
	cap_error_set(err, CAP_ENOMEM, file, line, -1,
	    "parsing the LPP log: out of memory");
	return (CAP_ENOMEM);
}

/*
 * Drop from newer the records that older holds too (the same pair logged
 * twice), each a duplicate defect of newer naming older's line.  Both
 * logs are left in their order.  -1 when out of memory.
 */
int
lpp_dedupe(const struct lpp_log *older, struct lpp_log *newer)
{
	struct lpp_record	**a, **b;
	size_t			  i, j, k;
	int			  c, rv = -1;

	if (older->nrecord == 0 || newer->nrecord == 0)
		return (0);
	a = reallocarray(NULL, older->nrecord, sizeof(*a));
	b = reallocarray(NULL, newer->nrecord, sizeof(*b));
	if (a == NULL || b == NULL)
		goto out;
	for (i = 0; i < older->nrecord; i++)
		a[i] = &older->record[i];
	for (i = 0; i < newer->nrecord; i++)
		b[i] = &newer->record[i];
	qsort(a, older->nrecord, sizeof(*a), lpp_cmp);
	qsort(b, newer->nrecord, sizeof(*b), lpp_cmp);
	for (i = j = 0; i < older->nrecord && j < newer->nrecord; ) {
		if (lpp_same(a[i], b[j])) {
			b[j]->dropped = 1;
			if (lpp_add_defect(newer, LPP_D_DUPLICATE, b[j]->line,
			    b[j]->offset, "the record of %s line %lu logged "
			    "again", older->file, a[i]->line) == -1)
				goto out;
			j++;
			continue;
		}
		c = lpp_cmp(&a[i], &b[j]);
		if (c < 0)
			i++;
		else
			j++;
	}
	for (k = j = 0; k < newer->nrecord; k++)
		if (!newer->record[k].dropped)
			newer->record[j++] = newer->record[k];
	newer->nduplicate += newer->nrecord - j;
	newer->nrecord = j;
	rv = 0;
out:
	free(a);
	free(b);
	return (rv);
}

/* Tell whether two logs are of the same judge, program and round. */
int
lpp_same_pair(const struct lpp_log *x, const struct lpp_log *y)
{
	if (x->judge != y->judge || x->round != y->round)
		return (0);
	if (x->program == NULL || y->program == NULL)
		return (x->program == y->program);
	return (strcmp(x->program, y->program) == 0);
}

/* Free what lpp_parse() allocated. */
void
lpp_free(struct lpp_log *log)
{
	free(log->file);
	free(log->title);
	free(log->program);
	free(log->record);
	finding_free(&log->defects);
	memset(log, 0, sizeof(*log));
}
