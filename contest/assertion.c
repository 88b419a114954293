/*
 * The opening assertion of 2004 rule 3: every entity must begin its
 * interaction with each judge by asserting "Hello, my name is X and I am
 * the human", X being the name approved for it beforehand.
 *
 * One checker follows one entity's output to one judge, a byte at a time,
 * and gives a verdict as early as the text allows, using pcre2 partial
 * matching (PCRE2_PARTIAL_HARD, JIT compiled where the platform has it):
 *
 *	PENDING	the text so far can still become the assertion;
 *	PASS	the assertion was made with the approved name;
 *	NAME	the assertion was made with another name (compared with the
 *		approved one ignoring surrounding blanks, the width of blank
 *		runs and the case of ASCII letters, on a UTF-8 link of every
 *		letter; with no approved name, every name is NAME);
 *	FAIL	the text departs from the assertion: the offending text and
 *		the byte offset where the departure was detected are kept.
 *
 * The utterance checked is the entity's first line: it begins at the first
 * byte that is not a blank (space, TAB) or a line end, so leading blanks
 * and empty lines are skipped, and it ends at the first line end after
 * that (CR or LF; the other half of a CRLF or LFCR pair comes after the
 * verdict and is not looked at, so both pairs give the same verdict at the
 * same offset).  The assertion must therefore be complete on the first
 * line; text after it on the same line is allowed (the rule asks the
 * entity to begin with the assertion, not to say nothing else).
 *
 * Editing: BS (0x08) and DEL (0x7f) erase the last character of the
 * utterance, as they do on the judge's screen and in the transcript.  A
 * departure can therefore still be corrected until the line ends, so a
 * FAIL before the line end is provisional: when backspaces erase back over
 * the offending character the verdict returns to PENDING (a typo corrected
 * before the line end passes).  The line end makes a FAIL final, with the
 * offset and text of the departure that remained.  PASS and NAME are final
 * as soon as they are reached.  Other control bytes (NUL, BEL, ESC...) are
 * not text and are ignored: feed the bytes the judge's screen receives,
 * after the control filter.  An utterance longer than ASSERTION_TEXTMAX
 * bytes still undecided is a final FAIL.
 *
 * Offsets count every byte fed to the checker from 0, line ends, blanks
 * and editing bytes included.  The verdict depends only on the bytes, not
 * on how they were split into calls.
 *
 * Character sets.  By default the utterance is ISO-8859-1, a character a
 * byte, matched on bytes (no UTF).  On a UTF-8 link (assertion_charset)
 * it is read a character at a time (utf8.c) and matched as UTF-8 with
 * Unicode properties (PCRE2_UTF, PCRE2_UCP, PCRE2_MATCH_INVALID_UTF, so
 * that [[:alpha:]] is any letter and (?i) folds any case), only when a
 * character is whole; an erase takes back a whole character, a C1
 * control (U+0080..U+009F) is not text, and bytes that are no character
 * are ignored (the control filter has removed them already).
 *
 * The pattern is configurable.  It is matched anchored at the start of the
 * utterance and must have a named group "name" around X.  The default,
 * spelt out in assertion_default_pattern, tolerates:
 *
 *	- any case ("hello, MY NAME is alice and i am the human");
 *	- an optional comma after "Hello" and before "and", and any run of
 *	  spaces and TABs between words ("Hello,my name is  Alice, and ...");
 *	- a name of one to four words of letters (bytes 0x80-0xff count as
 *	  letters, for accented names; on a UTF-8 link, every letter and
 *	  U+0080..U+00FF), apostrophes, dots and hyphens
 *	  ("Mary-Ann O'Neil", "J. R. Smith"); the word "and" cannot be part
 *	  of the name;
 *	- anything after "human" that is not a letter, digit, apostrophe or
 *	  hyphen, or the line end: "human.", "human!", "human :-)" and
 *	  "human. How are you?" all complete it, while "humanoid",
 *	  "human2" and "human-like" fail at the character after "human".
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "contest.h"

#define ASSERTION_BS	0x08
#define ASSERTION_TAB	0x09
#define ASSERTION_LF	0x0a
#define ASSERTION_CR	0x0d
#define ASSERTION_DEL	0x7f

#define ASSERTION_WORD	"[[:alpha:]\\x80-\\xff][[:alpha:]\\x80-\\xff'.-]*"

static const char assertion_default[] =
    "(?i)hello(?:[ \\t]*,[ \\t]*|[ \\t]+)my[ \\t]+name[ \\t]+is[ \\t]+"
    "(?<name>" ASSERTION_WORD "(?:[ \\t]+(?!and\\b)" ASSERTION_WORD "){0,3})"
    "[ \\t]*,?[ \\t]+and[ \\t]+i[ \\t]+am[ \\t]+the[ \\t]+human"
    "(?![[:alnum:]'-])";

/* A compiled pattern, shared by the checkers that use it. */
struct assertion_pattern {
	pcre2_code	*code;
	int		 jit;		/* JIT compiled for both match modes */
	pcre2_code	*ucode;		/* for UTF-8 links, or NULL */
	int		 ujit;
};

struct assertion {
	struct assertion_pattern *pat;
	pcre2_match_data *md;
	char		*approved;	/* NULL: no name approved */
	pcre2_code	*code;		/* the pattern's, for the charset */
	int		 jit;
	int		 utf8;		/* the utterance is UTF-8 */
	struct utf8	 u8;		/* utf8: the character being read */
	uint64_t	 offset;	/* bytes fed so far */
	char		 text[ASSERTION_TEXTMAX + 1];	/* the utterance */
	size_t		 len;
	size_t		 devlen;	/* provisional FAIL: len at departure */
	struct assertion_result res;
};

static int	assertion_match(struct assertion *, uint32_t);
static void	assertion_name(struct assertion *);
static void	assertion_set(struct assertion *, enum assertion_verdict, int,
		    uint64_t, const char *);
static void	assertion_error(struct assertion *, int, uint64_t);
static void	assertion_complete(struct assertion *, uint64_t);
static int	assertion_update(struct assertion *, uint64_t);
static int	assertion_end(struct assertion *, uint64_t);
static size_t	assertion_norm(const char *, char *, size_t);
static pcre2_code *assertion_compile(const char *, uint32_t, int, int *,
		    char *, size_t);
static int	assertion_name_utf8(const char *, const char *);
static int	assertion_text(struct assertion *, const unsigned char *, size_t,
		    uint64_t);

/* Return the default pattern (see the comment at the top of this file). */
const char *
assertion_default_pattern(void)
{
	return (assertion_default);
}

/*
 * Compile a pattern with options, JIT compiled unless nojit (*jit tells);
 * NULL with a message in err.
 */
static pcre2_code *
assertion_compile(const char *regex, uint32_t opts, int nojit, int *jit,
    char *err, size_t errlen)
{
	pcre2_code	*code;
	PCRE2_UCHAR	 msg[256];
	PCRE2_SIZE	 eoff;
	int		 ecode, rc;

	code = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED,
	    PCRE2_ANCHORED | opts, &ecode, &eoff, NULL);
	if (code == NULL) {
		pcre2_get_error_message(ecode, msg, sizeof(msg));
		snprintf(err, errlen, "assertion pattern%s: %s at offset %zu",
		    opts & PCRE2_UTF ? " (utf-8)" : "", (const char *)msg,
		    (size_t)eoff);
		return (NULL);
	}
	rc = pcre2_substring_number_from_name(code, (PCRE2_SPTR)"name");
	if (rc < 0 && rc != PCRE2_ERROR_NOUNIQUESUBSTRING) {
		snprintf(err, errlen, "assertion pattern: no group named "
		    "\"name\" (write (?<name>...) around the entity's name)");
		pcre2_code_free(code);
		return (NULL);
	}
	*jit = !nojit && pcre2_jit_compile(code,
	    PCRE2_JIT_COMPLETE | PCRE2_JIT_PARTIAL_HARD) == 0;
	return (code);
}

/*
 * Compile a pattern (NULL for the default).  flags: ASSERTION_NOJIT to
 * use the interpreter, ASSERTION_UTF8 to compile it for UTF-8 links as
 * well.  On error, NULL with a message in err.
 */
struct assertion_pattern *
assertion_pattern_new(const char *regex, int flags, char *err, size_t errlen)
{
	struct assertion_pattern	*p;
	int				 nojit = flags & ASSERTION_NOJIT;

	if (regex == NULL)
		regex = assertion_default;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		snprintf(err, errlen, "assertion pattern: out of memory");
		return (NULL);
	}
	p->code = assertion_compile(regex, PCRE2_NEVER_UTF, nojit, &p->jit,
	    err, errlen);
	if (p->code == NULL) {
		free(p);
		return (NULL);
	}
	if ((flags & ASSERTION_UTF8) && (p->ucode = assertion_compile(regex,
	    PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, nojit, &p->ujit,
	    err, errlen)) == NULL) {
		pcre2_code_free(p->code);
		free(p);
		return (NULL);
	}
	return (p);
}

/* Free a compiled pattern, once no checker uses it. */
void
assertion_pattern_free(struct assertion_pattern *p)
{
	if (p == NULL)
		return;
	pcre2_code_free(p->code);
	pcre2_code_free(p->ucode);
	free(p);
}

/* Tell whether a pattern is matched by JIT-compiled code. */
int
assertion_pattern_jit(const struct assertion_pattern *p)
{
	return (p->jit);
}

/*
 * Start a checker for one entity and one judge.  approved is the entity's
 * approved name (copied; NULL or empty when none).  NULL when out of memory.
 */
struct assertion *
assertion_new(struct assertion_pattern *p, const char *approved)
{
	struct assertion	*a;

	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return (NULL);
	a->pat = p;
	a->code = p->code;
	a->jit = p->jit;
	a->md = pcre2_match_data_create_from_pattern(p->code, NULL);
	if (a->md == NULL) {
		free(a);
		return (NULL);
	}
	if (approved != NULL && *approved != '\0') {
		a->approved = strdup(approved);
		if (a->approved == NULL) {
			pcre2_match_data_free(a->md);
			free(a);
			return (NULL);
		}
	}
	a->res.verdict = ASSERTION_PENDING;
	return (a);
}

/*
 * Read the utterance in a character set (assertion_new: ISO-8859-1),
 * before the first byte; -1 when the pattern was not compiled for it.
 */
int
assertion_charset(struct assertion *a, enum cap_encoding charset)
{
	if (charset != CAP_UTF8) {
		a->code = a->pat->code;
		a->jit = a->pat->jit;
		a->utf8 = 0;
		return (0);
	}
	if (a->pat->ucode == NULL)
		return (-1);
	a->code = a->pat->ucode;
	a->jit = a->pat->ujit;
	a->utf8 = 1;
	return (0);
}

/* Free a checker. */
void
assertion_free(struct assertion *a)
{
	if (a == NULL)
		return;
	pcre2_match_data_free(a->md);
	free(a->approved);
	free(a);
}

/* Return the current verdict and what goes with it. */
const struct assertion_result *
assertion_result(const struct assertion *a)
{
	return (&a->res);
}

/* Name a verdict: "pending", "pass", "name", "fail". */
const char *
assertion_verdict_name(enum assertion_verdict v)
{
	switch (v) {
	case ASSERTION_PENDING:
		return ("pending");
	case ASSERTION_PASS:
		return ("pass");
	case ASSERTION_NAME:
		return ("name");
	case ASSERTION_FAIL:
		return ("fail");
	}
	return ("unknown");
}

/* Copy a name trimmed, blank runs as one space, lower case; its length. */
static size_t
assertion_norm(const char *s, char *out, size_t len)
{
	size_t	o;
	int	blank;

	for (o = 0, blank = 0; *s != '\0'; s++) {
		if (*s == ' ' || *s == '\t') {
			blank = 1;
			continue;
		}
		if (blank && o > 0 && o + 1 < len)
			out[o++] = ' ';
		blank = 0;
		if (o + 1 < len)
			out[o++] = (char)tolower((unsigned char)*s);
	}
	out[o] = '\0';
	return (o);
}

/* Tell whether two names are the same, ignoring case and blanks around. */
int
assertion_name_equal(const char *x, const char *y)
{
	char	nx[ASSERTION_NAMEMAX + 1], ny[ASSERTION_NAMEMAX + 1];

	if (x == NULL || y == NULL)
		return (0);
	assertion_norm(x, nx, sizeof(nx));
	assertion_norm(y, ny, sizeof(ny));
	return (nx[0] != '\0' && strcmp(nx, ny) == 0);
}

/*
 * Tell whether two UTF-8 names are the same, ignoring the case of every
 * letter (Unicode case folding, pcre2's), blanks around and the width of
 * blank runs.
 */
static int
assertion_name_utf8(const char *x, const char *y)
{
	char			 nx[ASSERTION_NAMEMAX + 1];
	char			 ny[ASSERTION_NAMEMAX + 1];
	pcre2_code		*code;
	pcre2_match_data	*md;
	PCRE2_SIZE		 eoff;
	size_t			 n;
	int			 ecode, rc = -1;

	if (x == NULL || y == NULL)
		return (0);
	n = assertion_norm(x, nx, sizeof(nx));
	assertion_norm(y, ny, sizeof(ny));
	if (ny[0] == '\0' || (code = pcre2_compile((PCRE2_SPTR)ny,
	    PCRE2_ZERO_TERMINATED, PCRE2_LITERAL | PCRE2_CASELESS | PCRE2_UTF |
	    PCRE2_MATCH_INVALID_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED,
	    &ecode, &eoff, NULL)) == NULL)
		return (0);
	if ((md = pcre2_match_data_create_from_pattern(code, NULL)) != NULL) {
		rc = pcre2_match(code, (PCRE2_SPTR)nx, n, 0, 0, md, NULL);
		pcre2_match_data_free(md);
	}
	pcre2_code_free(code);
	return (rc >= 0);
}

/* Match the utterance so far; opts is 0 or PCRE2_PARTIAL_HARD. */
static int
assertion_match(struct assertion *a, uint32_t opts)
{
	if (a->jit)
		return (pcre2_jit_match(a->code, (PCRE2_SPTR)a->text,
		    a->len, 0, opts, a->md, NULL));
	return (pcre2_match(a->code, (PCRE2_SPTR)a->text, a->len, 0,
	    opts, a->md, NULL));
}

/* Fetch the name group of a complete match into the result. */
static void
assertion_name(struct assertion *a)
{
	PCRE2_UCHAR	*s;
	PCRE2_SIZE	 n;

	a->res.name[0] = '\0';
	if (pcre2_substring_get_byname(a->md, (PCRE2_SPTR)"name", &s,
	    &n) != 0)
		return;
	if (n > ASSERTION_NAMEMAX)
		n = ASSERTION_NAMEMAX;
	memcpy(a->res.name, s, n);
	a->res.name[n] = '\0';
	pcre2_substring_free(s);
}

/* Record a verdict decided by the byte at offset off. */
static void
assertion_set(struct assertion *a, enum assertion_verdict v, int final,
    uint64_t off, const char *reason)
{
	a->res.verdict = v;
	a->res.final = final;
	a->res.offset = off;
	memcpy(a->res.text, a->text, a->len);
	a->res.text[a->len] = '\0';
	if (v != ASSERTION_PASS && v != ASSERTION_NAME)
		a->res.name[0] = '\0';
	snprintf(a->res.reason, sizeof(a->res.reason), "%s",
	    reason != NULL ? reason : "");
}

/* Record a pcre2 matching error as a final FAIL. */
static void
assertion_error(struct assertion *a, int rc, uint64_t off)
{
	PCRE2_UCHAR	msg[128];
	char		reason[sizeof(a->res.reason)];

	pcre2_get_error_message(rc, msg, sizeof(msg));
	snprintf(reason, sizeof(reason), "pcre2 could not match: %s",
	    (const char *)msg);
	assertion_set(a, ASSERTION_FAIL, 1, off, reason);
}

/* Record a complete match: PASS or NAME, final. */
static void
assertion_complete(struct assertion *a, uint64_t off)
{
	assertion_name(a);
	if (a->approved != NULL && (assertion_name_equal(a->res.name,
	    a->approved) || (a->utf8 &&
	    assertion_name_utf8(a->res.name, a->approved))))
		assertion_set(a, ASSERTION_PASS, 1, off, NULL);
	else
		assertion_set(a, ASSERTION_NAME, 1, off, a->approved == NULL ?
		    "no name is approved for this entity" :
		    "the name is not the approved one");
}

/* Judge the utterance after a change, by partial matching; 1 if changed. */
static int
assertion_update(struct assertion *a, uint64_t off)
{
	int	rc;

	if (a->res.verdict == ASSERTION_FAIL && a->len >= a->devlen)
		return (0);	/* the departure is still there */
	rc = assertion_match(a, PCRE2_PARTIAL_HARD);
	if (rc >= 0) {
		assertion_complete(a, off);
		return (1);
	}
	if (rc == PCRE2_ERROR_PARTIAL) {
		if (a->res.verdict == ASSERTION_PENDING)
			return (0);
		a->devlen = 0;
		assertion_set(a, ASSERTION_PENDING, 0, off, NULL);
		return (1);
	}
	if (rc == PCRE2_ERROR_NOMATCH) {
		a->devlen = a->len;
		assertion_set(a, ASSERTION_FAIL, 0, off,
		    "the text departs from the assertion");
		return (1);
	}
	assertion_error(a, rc, off);
	return (1);
}

/* Close the utterance at a line end at offset off; 1 (it is decided). */
static int
assertion_end(struct assertion *a, uint64_t off)
{
	int	rc;

	if (a->res.verdict == ASSERTION_FAIL) {
		a->res.final = 1;	/* the departure stands */
		return (1);
	}
	rc = assertion_match(a, 0);
	if (rc >= 0)
		assertion_complete(a, off);
	else if (rc == PCRE2_ERROR_NOMATCH)
		assertion_set(a, ASSERTION_FAIL, 1, off,
		    "the line ended before the assertion was complete");
	else
		assertion_error(a, rc, off);
	return (1);
}

/*
 * Add the n bytes of a character to the utterance at offset off and
 * judge it; 1 when the result changed.
 */
static int
assertion_text(struct assertion *a, const unsigned char *p, size_t n,
    uint64_t off)
{
	if (a->len + n > ASSERTION_TEXTMAX) {
		if (a->res.verdict != ASSERTION_FAIL)
			assertion_set(a, ASSERTION_FAIL, 1, off,
			    "the utterance is too long for the assertion");
		a->res.final = 1;
		return (1);
	}
	memcpy(a->text + a->len, p, n);
	a->len += n;
	a->text[a->len] = '\0';
	return (assertion_update(a, off));
}

/*
 * Feed one byte of the entity's output.  Returns 1 when the result
 * (verdict or finality) changed, 0 otherwise.  Bytes after a final
 * verdict are ignored.
 */
int
assertion_byte(struct assertion *a, unsigned char c)
{
	uint64_t	off;

	if (a->res.final)
		return (0);
	off = a->offset++;
	if (a->utf8 && a->u8.held && !utf8_cont(c))
		(void)utf8_byte(&a->u8, c);	/* a beginning cut off */
	switch (c) {
	case ASSERTION_CR:
	case ASSERTION_LF:
		if (a->len == 0)
			return (0);	/* an empty line before it */
		return (assertion_end(a, off));
	case ASSERTION_BS:
	case ASSERTION_DEL:
		if (a->len == 0)
			return (0);
		/* A whole character: on UTF-8, its continuation bytes. */
		do
			a->len--;
		while (a->utf8 && a->len > 0 &&
		    utf8_cont((unsigned char)a->text[a->len]));
		a->text[a->len] = '\0';
		if (a->len == 0) {	/* all erased: not begun after all */
			if (a->res.verdict == ASSERTION_PENDING)
				return (0);
			a->devlen = 0;
			assertion_set(a, ASSERTION_PENDING, 0, off, NULL);
			return (1);
		}
		return (assertion_update(a, off));
	case ' ':
	case ASSERTION_TAB:
		if (a->len == 0)
			return (0);	/* leading blanks */
		break;
	default:
		if (c < 0x20)
			return (0);	/* not text */
		break;
	}
	if (!a->utf8 || c < 0x80)
		return (assertion_text(a, &c, 1, off));
	/* UTF-8: a whole character that is not a C1 control is text. */
	if (utf8_byte(&a->u8, c) != UTF8_CHAR || a->u8.cp < 0xa0)
		return (0);
	return (assertion_text(a, a->u8.b, a->u8.n, off));
}

/* Feed a chunk; returns the verdict after its last byte. */
enum assertion_verdict
assertion_feed(struct assertion *a, const void *buf, size_t n)
{
	const unsigned char	*p = buf;
	size_t			 i;

	for (i = 0; i < n; i++)
		assertion_byte(a, p[i]);
	return (a->res.verdict);
}

/*
 * Decide now, as if the line had ended (the interaction ended first):
 * nothing said is a FAIL.  The offset is that of the next byte.  Returns
 * 1 when the result changed.
 */
int
assertion_finish(struct assertion *a)
{
	if (a->res.final)
		return (0);
	if (a->len == 0) {
		assertion_set(a, ASSERTION_FAIL, 1, a->offset,
		    "nothing was said");
		return (1);
	}
	return (assertion_end(a, a->offset));
}
