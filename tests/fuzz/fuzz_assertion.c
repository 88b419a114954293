/*
 * libFuzzer harness for the opening assertion checker (contest/assertion.c),
 * which decides 2004 rule 3 live, by pcre2 partial matching.
 *
 * The first byte picks the approved name (or none) and the character set
 * (ISO-8859-1 or UTF-8); the rest is what the entity sends.
 * It is checked twice, by the JIT-compiled pattern fed all at once and by
 * the interpreter fed a byte at a time: both must give the same verdict,
 * offset, text, name and reason.  And, in ISO-8859-1, when the first line
 * has no erasing in it and is short enough to be checked whole, the
 * verdict must be what one plain match of the whole line gives: a match
 * is PASS or NAME with the name it captured, anything else FAIL.  So a
 * verdict decided early, from part of the line, is never one the line as
 * a whole would contradict.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "contest.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
static struct assertion *fuzz_assertion_check(struct assertion_pattern *,
		    const char *, enum cap_encoding, const uint8_t *, size_t, int);
static void	fuzz_assertion_same(const struct assertion_result *,
		    const struct assertion_result *);
static size_t	fuzz_assertion_line(const uint8_t *, size_t, char *, size_t);
static void	fuzz_assertion_oracle(const struct assertion_result *,
		    const char *, const char *, size_t);

static const char *fuzz_assertion_names[] = {
	"Alice", "Mary-Ann O'Neil", "J. R. Smith", "Jos\xc3\xa9", NULL
};

/* Check data with a new checker, all at once or a byte at a time. */
static struct assertion *
fuzz_assertion_check(struct assertion_pattern *p, const char *approved,
    enum cap_encoding cs, const uint8_t *data, size_t size, int bytewise)
{
	struct assertion	*a;
	size_t			 i;

	if ((a = assertion_new(p, approved)) == NULL ||
	    assertion_charset(a, cs) == -1)
		abort();
	if (bytewise) {
		for (i = 0; i < size; i++)
			assertion_byte(a, data[i]);
	} else
		assertion_feed(a, data, size);
	assertion_finish(a);
	if (!assertion_result(a)->final ||
	    assertion_result(a)->verdict == ASSERTION_PENDING)
		abort();	/* undecided after the end */
	return (a);
}

/* Abort unless two results are the same in every field. */
static void
fuzz_assertion_same(const struct assertion_result *x,
    const struct assertion_result *y)
{
	if (x->verdict != y->verdict || x->final != y->final ||
	    x->offset != y->offset || strcmp(x->text, y->text) != 0 ||
	    strcmp(x->name, y->name) != 0 || strcmp(x->reason, y->reason) != 0)
		abort();	/* JIT and interpreter disagree */
}

/*
 * The first line as the checker reads it: blanks and line ends before it
 * skipped, other controls left out, up to a line end.  Its length, or
 * (size_t)-1 when it erases (BS, DEL) or does not fit in buf.
 */
static size_t
fuzz_assertion_line(const uint8_t *data, size_t size, char *buf, size_t len)
{
	size_t	i, n = 0;

	for (i = 0; i < size; i++) {
		if (data[i] == '\r' || data[i] == '\n') {
			if (n > 0)
				break;
			continue;
		}
		if (data[i] == 0x08 || data[i] == 0x7f) {
			if (n > 0)
				return ((size_t)-1);
			continue;
		}
		if ((data[i] == ' ' || data[i] == '\t') && n == 0)
			continue;
		if (data[i] < 0x20 && data[i] != '\t')
			continue;
		if (n + 1 >= len)
			return ((size_t)-1);
		buf[n++] = (char)data[i];
	}
	buf[n] = '\0';
	return (n);
}

/* Abort unless the verdict is what a plain match of the line gives. */
static void
fuzz_assertion_oracle(const struct assertion_result *r, const char *approved,
    const char *line, size_t n)
{
	static pcre2_code	*code;
	pcre2_match_data	*md;
	PCRE2_UCHAR		*name;
	PCRE2_SIZE		 eoff, nname;
	int			 ecode, rc;

	if (code == NULL && (code = pcre2_compile((PCRE2_SPTR)
	    assertion_default_pattern(), PCRE2_ZERO_TERMINATED,
	    PCRE2_ANCHORED | PCRE2_NEVER_UTF, &ecode, &eoff, NULL)) == NULL)
		abort();
	if ((md = pcre2_match_data_create_from_pattern(code, NULL)) == NULL)
		abort();
	rc = pcre2_match(code, (PCRE2_SPTR)line, n, 0, 0, md, NULL);
	if (rc < 0) {
		if (r->verdict != ASSERTION_FAIL)
			abort();	/* passed what the line does not say */
	} else {
		if (r->verdict == ASSERTION_FAIL)
			abort();	/* failed what the line says */
		if (pcre2_substring_get_byname(md, (PCRE2_SPTR)"name", &name,
		    &nname) != 0)
			abort();
		if (nname <= ASSERTION_NAMEMAX &&
		    (strlen(r->name) != nname ||
		    memcmp(r->name, name, nname) != 0))
			abort();	/* another name than the line's */
		if ((r->verdict == ASSERTION_PASS) !=
		    assertion_name_equal(r->name, approved))
			abort();	/* PASS and NAME mixed up */
		pcre2_substring_free(name);
	}
	pcre2_match_data_free(md);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct assertion_pattern	*jit, *interp;
	struct assertion		*a, *b;
	const char			*approved;
	char				 err[256], line[ASSERTION_TEXTMAX];
	size_t				 n;
	enum cap_encoding		 cs;

	if (jit == NULL &&
	    ((jit = assertion_pattern_new(NULL, ASSERTION_UTF8, err,
	    sizeof(err))) == NULL ||
	    (interp = assertion_pattern_new(NULL, ASSERTION_NOJIT |
	    ASSERTION_UTF8, err, sizeof(err))) == NULL))
		abort();
	if (size < 1)
		return (0);
	approved = fuzz_assertion_names[data[0] % 5];
	cs = data[0] / 5 % 2 ? CAP_UTF8 : CAP_LATIN1;
	data++;
	size--;
	a = fuzz_assertion_check(jit, approved, cs, data, size, 0);
	b = fuzz_assertion_check(interp, approved, cs, data, size, 1);
	fuzz_assertion_same(assertion_result(a), assertion_result(b));
	if (cs == CAP_LATIN1 && (n = fuzz_assertion_line(data, size, line,
	    sizeof(line))) != (size_t)-1)
		fuzz_assertion_oracle(assertion_result(a), approved, line, n);
	assertion_free(a);
	assertion_free(b);
	return (0);
}
