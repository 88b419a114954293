/*
 * Unit tests for the opening-assertion checker (contest/assertion.c), 2004
 * rule 3: "Hello, my name is X and I am the human".
 *
 * Each scenario feeds an entity's output and checks the verdict, whether
 * it is final, the offset of the byte that decided it and the text kept.
 * The same scenarios run with the JIT and with the interpreter, and fed
 * at random split points, and must give identical results.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contest.h"

#define ASSERTED	"Hello, my name is Alice and I am the human"
#define MAXCHANGES	32

struct change {				/* one change of the result */
	enum assertion_verdict verdict;
	int		 final;
	uint64_t	 offset;
};

struct outcome {
	struct assertion_result res;
	struct change	 changes[MAXCHANGES];
	size_t		 nchanges;
};

static struct assertion_pattern *pattern(const char *, int);
static void	 feed(struct assertion_pattern *, const char *, const void *,
		    size_t, size_t, struct outcome *);
static void	 check(const char *, const void *, size_t, enum assertion_verdict,
		    int, uint64_t);
static void	 escape(const void *, size_t, char *, size_t);
static void	 same(const struct outcome *, const struct outcome *,
		    const char *);
static const struct assertion_result *utf8_feed(struct assertion **,
		    struct assertion_pattern *, const char *, const char *);

/* Compile a pattern, failing the test on error. */
static struct assertion_pattern *
pattern(const char *regex, int flags)
{
	struct assertion_pattern	*p;
	char				 err[256];

	p = assertion_pattern_new(regex, flags, err, sizeof(err));
	if (p == NULL)
		fail_msg("assertion_pattern_new: %s", err);
	return (p);
}

/*
 * Feed n bytes to a new checker for approved name approved, in chunks of
 * at most chunk bytes (0: random sizes from 1 to 9), recording every
 * change of the result.
 */
static void
feed(struct assertion_pattern *p, const char *approved, const void *buf,
    size_t n, size_t chunk, struct outcome *o)
{
	const unsigned char	*s = buf;
	const struct assertion_result *r;
	struct assertion	*a;
	size_t			 off, len, i;

	memset(o, 0, sizeof(*o));
	a = assertion_new(p, approved);
	assert_non_null(a);
	for (off = 0; off < n; off += len) {
		len = chunk != 0 ? chunk : 1 + (size_t)rand() % 9;
		if (len > n - off)
			len = n - off;
		if (len == 1 || chunk == 0) {
			for (i = 0; i < len; i++) {
				if (!assertion_byte(a, s[off + i]))
					continue;
				r = assertion_result(a);
				if (o->nchanges == MAXCHANGES)
					fail_msg("too many changes");
				o->changes[o->nchanges].verdict = r->verdict;
				o->changes[o->nchanges].final = r->final;
				o->changes[o->nchanges].offset = r->offset;
				o->nchanges++;
			}
		} else
			assertion_feed(a, s + off, len);
	}
	o->res = *assertion_result(a);
	assertion_free(a);
}

/* Write bytes as a C string literal, for messages. */
static void
escape(const void *buf, size_t n, char *out, size_t len)
{
	const unsigned char	*p = buf;
	size_t			 i, o = 0;

	for (i = 0; i < n && o + 5 < len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			out[o++] = (char)p[i];
		else
			o += (size_t)snprintf(out + o, len - o, "\\x%02x",
			    p[i]);
	}
	out[o] = '\0';
}

/* Fail unless two outcomes are identical. */
static void
same(const struct outcome *a, const struct outcome *b, const char *how)
{
	size_t	i;

	if (a->res.verdict != b->res.verdict || a->res.final != b->res.final ||
	    a->res.offset != b->res.offset ||
	    strcmp(a->res.text, b->res.text) != 0 ||
	    strcmp(a->res.name, b->res.name) != 0 ||
	    strcmp(a->res.reason, b->res.reason) != 0)
		fail_msg("%s: %s%s at %llu \"%s\", byte by byte %s%s at %llu "
		    "\"%s\"", how, assertion_verdict_name(b->res.verdict),
		    b->res.final ? "" : " (provisional)",
		    (unsigned long long)b->res.offset, b->res.text,
		    assertion_verdict_name(a->res.verdict),
		    a->res.final ? "" : " (provisional)",
		    (unsigned long long)a->res.offset, a->res.text);
	if (b->nchanges == 0)
		return;		/* fed in chunks: no history recorded */
	if (a->nchanges != b->nchanges)
		fail_msg("%s: %zu changes, %zu byte by byte", how,
		    b->nchanges, a->nchanges);
	for (i = 0; i < a->nchanges; i++)
		if (a->changes[i].verdict != b->changes[i].verdict ||
		    a->changes[i].final != b->changes[i].final ||
		    a->changes[i].offset != b->changes[i].offset)
			fail_msg("%s: change %zu differs", how, i);
}

/*
 * Check the verdict for an entity approved as "Alice": byte by byte, in
 * one feed, at random split points, with and without the JIT.
 */
static void
check(const char *approved, const void *buf, size_t n,
    enum assertion_verdict verdict, int final, uint64_t offset)
{
	struct assertion_pattern	*jit, *interp;
	struct outcome			 bytewise, other;
	char				 in[1024];
	int				 trial;

	jit = pattern(NULL, 0);
	interp = pattern(NULL, ASSERTION_NOJIT);
	feed(jit, approved, buf, n, 1, &bytewise);
	escape(buf, n, in, sizeof(in));
	if (bytewise.res.verdict != verdict || bytewise.res.final != final ||
	    bytewise.res.offset != offset)
		fail_msg("\"%s\"\n  expected: %s%s at %llu\n       got: %s%s "
		    "at %llu (text \"%s\", %s)", in,
		    assertion_verdict_name(verdict),
		    final ? "" : " (provisional)", (unsigned long long)offset,
		    assertion_verdict_name(bytewise.res.verdict),
		    bytewise.res.final ? "" : " (provisional)",
		    (unsigned long long)bytewise.res.offset,
		    bytewise.res.text, bytewise.res.reason);
	feed(jit, approved, buf, n, n > 0 ? n : 1, &other);
	same(&bytewise, &other, "whole");
	feed(interp, approved, buf, n, 1, &other);
	same(&bytewise, &other, "interpreter");
	srand(2004);
	for (trial = 0; trial < 200; trial++) {
		feed(jit, approved, buf, n, 0, &other);
		same(&bytewise, &other, "random split");
	}
	assertion_pattern_free(jit);
	assertion_pattern_free(interp);
}

#define S(lit)	(lit), sizeof(lit) - 1

static void
test_the_assertion_passes_at_the_line_end(void **state)
{
	(void)state;
	check("Alice", S(ASSERTED "\r\n"), ASSERTION_PASS, 1, 42);
	check("Alice", S(ASSERTED "\n"), ASSERTION_PASS, 1, 42);
}

static void
test_trailing_punctuation_passes_at_once(void **state)
{
	(void)state;
	check("Alice", S(ASSERTED "."), ASSERTION_PASS, 1, 42);
	check("Alice", S(ASSERTED "!"), ASSERTION_PASS, 1, 42);
	check("Alice", S(ASSERTED " :-)"), ASSERTION_PASS, 1, 42);
	check("Alice", S(ASSERTED ". How are you today?\r\n"),
	    ASSERTION_PASS, 1, 42);
	/* Before the next character, nothing is decided. */
	check("Alice", S(ASSERTED), ASSERTION_PENDING, 0, 0);
}

static void
test_humanoid_fails_at_the_letter(void **state)
{
	struct assertion_pattern	*p;
	struct outcome			 o;

	(void)state;
	check("Alice", S(ASSERTED "o"), ASSERTION_FAIL, 0, 42);
	check("Alice", S(ASSERTED "oid\r\n"), ASSERTION_FAIL, 1, 42);
	check("Alice", S(ASSERTED "2\r"), ASSERTION_FAIL, 1, 42);
	check("Alice", S(ASSERTED "-like robot\r"), ASSERTION_FAIL, 1, 42);

	p = pattern(NULL, 0);
	feed(p, "Alice", S(ASSERTED "oid\r\n"), 1, &o);
	assert_string_equal(o.res.text, ASSERTED "o");
	assert_string_equal(o.res.reason, "the text departs from the "
	    "assertion");
	assertion_pattern_free(p);
}

static void
test_lower_case_and_spacing_pass(void **state)
{
	(void)state;
	check("Alice", S("hello, my name is alice and i am the human.\r"),
	    ASSERTION_PASS, 1, 42);
	check("Alice", S("HELLO MY NAME IS ALICE AND I AM THE HUMAN\r"),
	    ASSERTION_PASS, 1, 41);
	check("Alice", S("Hello,my  name is\tAlice, and I am   the human!"),
	    ASSERTION_PASS, 1, 45);
	check("Alice", S("Hello , my name is Alice and I am the human\r"),
	    ASSERTION_PASS, 1, 43);
}

static void
test_a_name_not_approved_gives_name(void **state)
{
	struct assertion_pattern	*p;
	struct outcome			 o;

	(void)state;
	check("Alice", S("Hello, my name is Bob and I am the human.\r\n"),
	    ASSERTION_NAME, 1, 40);
	p = pattern(NULL, 0);
	feed(p, "Alice", S("Hello, my name is Bob and I am the human."), 1,
	    &o);
	assert_string_equal(o.res.name, "Bob");
	assert_string_equal(o.res.reason, "the name is not the approved one");
	/* With no approved name, every name is NAME. */
	feed(p, NULL, S(ASSERTED "."), 1, &o);
	assert_int_equal(o.res.verdict, ASSERTION_NAME);
	assert_string_equal(o.res.name, "Alice");
	feed(p, "", S(ASSERTED "."), 1, &o);
	assert_int_equal(o.res.verdict, ASSERTION_NAME);
	assertion_pattern_free(p);
}

static void
test_names_compare_without_case_and_blanks(void **state)
{
	struct assertion_pattern	*p;
	struct outcome			 o;

	(void)state;
	check(" mary  SMITH ", S("Hello, my name is Mary Smith and I am the "
	    "human.\r"), ASSERTION_PASS, 1, 47);
	check("Mary Smith", S("Hello, my name is mary\t smith and I am the "
	    "human.\r"), ASSERTION_PASS, 1, 48);
	check("Mary Anderson", S("hello my name is Mary Anderson and i am the "
	    "human\r"), ASSERTION_PASS, 1, 49);
	check("Mary-Ann O'Neil", S("Hello, my name is Mary-Ann O'Neil and I "
	    "am the human\n"), ASSERTION_PASS, 1, 52);
	p = pattern(NULL, 0);
	feed(p, "Mary Smith", S("Hello, my name is Mary  Smith and I am the "
	    "human."), 1, &o);
	assert_string_equal(o.res.name, "Mary  Smith");
	assertion_pattern_free(p);
	assert_true(assertion_name_equal("Alice", " ALICE "));
	assert_false(assertion_name_equal("Alice", "Alicia"));
	assert_false(assertion_name_equal("", ""));
	assert_false(assertion_name_equal(NULL, "Alice"));
	/* Five words are not a name. */
	check("A B C D E", S("Hello, my name is A B C D E and I am the human"),
	    ASSERTION_FAIL, 0, 26);
}

static void
test_an_early_departure_fails_at_once(void **state)
{
	(void)state;
	check("Alice", S("Goodbye"), ASSERTION_FAIL, 0, 0);
	check("Alice", S("Hi there\r\n"), ASSERTION_FAIL, 1, 1);
	check("Alice", S("Hello, my name is Alice and I am a robot\r\n"),
	    ASSERTION_FAIL, 1, 33);
	check("Alice", S("Hello, I am Alice\r"), ASSERTION_FAIL, 1, 7);
}

static void
test_an_incomplete_line_fails_at_its_end(void **state)
{
	struct assertion_pattern	*p;
	struct outcome			 o;

	(void)state;
	check("Alice", S("Hello, my name is Alice\r\nand I am the human\r\n"),
	    ASSERTION_FAIL, 1, 23);
	p = pattern(NULL, 0);
	feed(p, "Alice", S("Hello, my name is Alice\r\n"), 1, &o);
	assert_string_equal(o.res.text, "Hello, my name is Alice");
	assert_string_equal(o.res.reason, "the line ended before the "
	    "assertion was complete");
	assertion_pattern_free(p);
}

static void
test_crlf_and_lfcr_give_the_same_verdict(void **state)
{
	struct assertion_pattern	*p;
	struct outcome			 crlf, lfcr;

	(void)state;
	p = pattern(NULL, 0);
	feed(p, "Alice", S(ASSERTED "\r\nhow are you?\r\n"), 1, &crlf);
	feed(p, "Alice", S(ASSERTED "\n\rhow are you?\n\r"), 1, &lfcr);
	same(&crlf, &lfcr, "LFCR against CRLF");
	assert_int_equal(crlf.res.verdict, ASSERTION_PASS);
	assert_int_equal(crlf.res.offset, 42);

	feed(p, "Alice", S("Hello, my name\r\nis Alice\r\n"), 1, &crlf);
	feed(p, "Alice", S("Hello, my name\n\ris Alice\n\r"), 1, &lfcr);
	same(&crlf, &lfcr, "LFCR against CRLF, incomplete");
	assert_int_equal(crlf.res.verdict, ASSERTION_FAIL);
	assert_int_equal(crlf.res.offset, 14);

	/* Empty lines and blanks before the utterance are skipped. */
	feed(p, "Alice", S("\r\n\r\n  " ASSERTED "\r\n"), 1, &crlf);
	feed(p, "Alice", S("\n\r\n\r  " ASSERTED "\n\r"), 1, &lfcr);
	same(&crlf, &lfcr, "LFCR against CRLF, empty lines first");
	assert_int_equal(crlf.res.verdict, ASSERTION_PASS);
	assert_int_equal(crlf.res.offset, 48);
	assertion_pattern_free(p);
	check("Alice", S("\r\r\n\n \t" ASSERTED "\r"), ASSERTION_PASS, 1, 48);
}

static void
test_a_typo_corrected_with_backspace_passes(void **state)
{
	static const char	typo[] = "Hello, my nmae\b\b\bame is Alice and I"
	    " am the human\r\n";
	struct assertion_pattern	*p;
	struct outcome			 o;

	(void)state;
	check("Alice", S(typo), ASSERTION_PASS, 1, sizeof(typo) - 3);
	p = pattern(NULL, 0);
	feed(p, "Alice", S(typo), 1, &o);
	/* FAIL at the 'm' of "nm", until the third backspace erases it. */
	assert_int_equal(o.nchanges, 3);
	assert_int_equal(o.changes[0].verdict, ASSERTION_FAIL);
	assert_int_equal(o.changes[0].final, 0);
	assert_int_equal(o.changes[0].offset, 11);
	assert_int_equal(o.changes[1].verdict, ASSERTION_PENDING);
	assert_int_equal(o.changes[1].offset, 16);
	assert_int_equal(o.changes[2].verdict, ASSERTION_PASS);
	assert_string_equal(o.res.text, ASSERTED "\0");
	assertion_pattern_free(p);

	/* DEL erases too, and so does a typo found much later. */
	check("Alice", S("Hello, my name is Alcie\x7f\x7f\x7f" "ice and I am "
	    "the human\r"), ASSERTION_PASS, 1, 48);
	check("Alice", S("Hello, my nmae is Alice\b\b\b\b\b\b\b\b\b\b\b\b\b"
	    "name is Alice and I am the human\r"), ASSERTION_PASS, 1, 68);
	/* Not corrected: the first departure stands. */
	check("Alice", S("Hello, my nmae is Alice and I am the human\r"),
	    ASSERTION_FAIL, 1, 11);
	/* "humanoid" corrected back to "human". */
	check("Alice", S(ASSERTED "oid\b\b\b.\r"), ASSERTION_PASS, 1, 48);
	/* Everything erased: the utterance has not begun. */
	check("Alice", S("Hx\b\b\r\n" ASSERTED "\r"), ASSERTION_PASS, 1, 48);
}

static void
test_random_splits_give_identical_verdicts(void **state)
{
	static const char *inputs[] = {
		ASSERTED "\r\n",
		ASSERTED "oid\r\n",
		"Hello, my nmae\b\b\bame is Alice and I am the human\r\n",
		"hello my name is bob and i am the human.",
		"\n\r\n\r   Hello,  my name is Alice and I am the human!\n\r",
		"Hello, my name is Alice\r\n",
		"Hi!",
	};
	struct assertion_pattern	*p;
	struct outcome			 bytewise, split;
	size_t				 i;
	int				 trial;

	(void)state;
	p = pattern(NULL, 0);
	srand(19);
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		feed(p, "Alice", inputs[i], strlen(inputs[i]), 1, &bytewise);
		for (trial = 0; trial < 500; trial++) {
			feed(p, "Alice", inputs[i], strlen(inputs[i]), 0,
			    &split);
			same(&bytewise, &split, inputs[i]);
		}
	}
	assertion_pattern_free(p);
}

static void
test_controls_are_not_text_and_late_bytes_are_ignored(void **state)
{
	struct assertion_pattern	*p;
	struct assertion		*a;

	(void)state;
	check("Alice", S("\aHello, my name\0 is Alice and I am the human\r"),
	    ASSERTION_PASS, 1, 44);
	p = pattern(NULL, 0);
	a = assertion_new(p, "Alice");
	assertion_feed(a, S(ASSERTED "."));
	assert_int_equal(assertion_byte(a, 'x'), 0);
	assert_int_equal(assertion_feed(a, S("\b\b\b\b\b\bdroid\r")),
	    ASSERTION_PASS);
	assert_int_equal(assertion_result(a)->offset, 42);
	assertion_free(a);
	assertion_pattern_free(p);
}

static void
test_a_long_utterance_fails(void **state)
{
	struct assertion_pattern	*p;
	struct assertion		*a;
	size_t				 i;

	(void)state;
	p = pattern(NULL, 0);
	a = assertion_new(p, "Alice");
	assertion_feed(a, S("Hello, my name is "));
	for (i = 0; i < 2 * ASSERTION_TEXTMAX &&
	    !assertion_result(a)->final; i++)
		assertion_byte(a, 'a');
	assert_int_equal(assertion_result(a)->verdict, ASSERTION_FAIL);
	assert_int_equal(assertion_result(a)->final, 1);
	assert_int_equal(assertion_result(a)->offset, ASSERTION_TEXTMAX);
	assert_string_equal(assertion_result(a)->reason,
	    "the utterance is too long for the assertion");
	assertion_free(a);
	assertion_pattern_free(p);
}

static void
test_finish_decides_what_was_said(void **state)
{
	struct assertion_pattern	*p;
	struct assertion		*a;

	(void)state;
	p = pattern(NULL, 0);
	a = assertion_new(p, "Alice");
	assertion_feed(a, S("\r\n"));
	assert_int_equal(assertion_finish(a), 1);
	assert_int_equal(assertion_result(a)->verdict, ASSERTION_FAIL);
	assert_string_equal(assertion_result(a)->reason, "nothing was said");
	assert_int_equal(assertion_result(a)->offset, 2);
	assert_int_equal(assertion_finish(a), 0);
	assertion_free(a);

	a = assertion_new(p, "Alice");
	assertion_feed(a, S(ASSERTED));
	assert_int_equal(assertion_result(a)->verdict, ASSERTION_PENDING);
	assertion_finish(a);
	assert_int_equal(assertion_result(a)->verdict, ASSERTION_PASS);
	assert_int_equal(assertion_result(a)->final, 1);
	assertion_free(a);
	assertion_pattern_free(p);
}

static void
test_a_custom_pattern_with_the_name_group(void **state)
{
	static const char	re[] = "(?i)greetings,? I am (?<name>[a-z]+),?"
	    " the human(?![a-z])";
	struct assertion_pattern	*p;
	struct outcome			 o;

	(void)state;
	p = pattern(re, 0);
	feed(p, "Alice", S("Greetings, I am Alice, the human.\r\n"), 1, &o);
	assert_int_equal(o.res.verdict, ASSERTION_PASS);
	assert_int_equal(o.res.offset, 32);
	assert_string_equal(o.res.name, "Alice");
	feed(p, "Alice", S("greetings I am Carol the human\r"), 1, &o);
	assert_int_equal(o.res.verdict, ASSERTION_NAME);
	assert_string_equal(o.res.name, "Carol");
	feed(p, "Alice", S(ASSERTED "\r"), 1, &o);
	assert_int_equal(o.res.verdict, ASSERTION_FAIL);
	assert_int_equal(o.res.offset, 0);
	assertion_pattern_free(p);

	/* The pattern is anchored at the start of the utterance. */
	p = pattern("human (?<name>x)", 0);
	feed(p, "x", S("I am human x\r"), 1, &o);
	assert_int_equal(o.res.verdict, ASSERTION_FAIL);
	assert_int_equal(o.res.offset, 0);
	assertion_pattern_free(p);
}

static void
test_a_pattern_without_the_name_group_is_an_error(void **state)
{
	char	err[256];

	(void)state;
	assert_null(assertion_pattern_new("(?i)hello, my name is (\\w+)", 0,
	    err, sizeof(err)));
	assert_string_equal(err, "assertion pattern: no group named \"name\" "
	    "(write (?<name>...) around the entity's name)");
	assert_null(assertion_pattern_new("(?<nom>\\w+)", 0, err,
	    sizeof(err)));
	assert_non_null(strstr(err, "no group named \"name\""));
}

static void
test_a_bad_regex_reports_pcre2_message_and_offset(void **state)
{
	char	err[256];

	(void)state;
	assert_null(assertion_pattern_new("(?<name>abc", 0, err,
	    sizeof(err)));
	assert_string_equal(err, "assertion pattern: missing closing "
	    "parenthesis at offset 11");
	assert_null(assertion_pattern_new("hello [a-", 0, err, sizeof(err)));
	assert_non_null(strstr(err, "missing terminating ] for character "
	    "class at offset 9"));
	assert_null(assertion_pattern_new("(*UTF)(?<name>x)", 0, err,
	    sizeof(err)));
	assert_non_null(strstr(err, "assertion pattern: "));
}

static void
test_the_default_pattern_compiles_with_jit(void **state)
{
	struct assertion_pattern	*p;

	(void)state;
	p = pattern(NULL, 0);
	print_message("# default pattern: %s\n# JIT: %s\n",
	    assertion_default_pattern(),
	    assertion_pattern_jit(p) ? "yes" : "not available");
	assertion_pattern_free(p);
	p = pattern(NULL, ASSERTION_NOJIT);
	assert_false(assertion_pattern_jit(p));
	assertion_pattern_free(p);
	assert_string_equal(assertion_verdict_name(ASSERTION_NAME), "name");
}

/*
 * Feed an utterance to a checker for a UTF-8 link (nojit: the
 * interpreter), a byte at a time; the result.
 */
static const struct assertion_result *
utf8_feed(struct assertion **ap, struct assertion_pattern *p,
    const char *approved, const char *text)
{
	struct assertion	*a;
	size_t			 i;

	a = assertion_new(p, approved);
	assert_non_null(a);
	assert_int_equal(assertion_charset(a, CAP_UTF8), 0);
	for (i = 0; text[i] != '\0'; i++)
		assertion_byte(a, (unsigned char)text[i]);
	*ap = a;
	return (assertion_result(a));
}

/*
 * UTF-8: a name with letters of several bytes passes; an erase takes a
 * whole character back; a C1 control is not text.  On ISO-8859-1 the
 * same bytes are other characters.
 */
static void
test_utf8_names_erase_and_c1(void **state)
{
	static const struct {
		const char		*approved, *text;
		enum assertion_verdict	 verdict;
		const char		*name;	/* NULL: not checked */
	} utf8_cases[] = {
		{ "Jos\xc3\xa9", "Hello, my name is Jos\xc3\xa9 and I am the "
		    "human\r\n", ASSERTION_PASS, "Jos\xc3\xa9" },
		/* Cyrillic and Polish letters are letters. */
		{ "\xc5\x81ukasz \xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd", "hello, my "
		    "name is \xc5\x81ukasz \xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd and i "
		    "am the human!", ASSERTION_PASS, NULL },
		/* Two erases take back "\xc3\xa9" and "x", not a byte each. */
		{ "Jos\xc3\xa9", "Hello, my name is Josx\xc3\xa9\x7f\b\xc3\xa9 "
		    "and I am the human.", ASSERTION_PASS, NULL },
		/* Any letter's case is ignored, not the letter. */
		{ "Jos\xc3\xa9 \xc5\x81ukasz", "HELLO, MY NAME IS JOS\xc3\x89  "
		    "\xc5\x82UKASZ AND I AM THE HUMAN.", ASSERTION_PASS, NULL },
		{ "Jos\xc3\xa9", "Hello, my name is Jos\xc3\xa8 and I am the "
		    "human.", ASSERTION_NAME, NULL },
		/* U+0085 is a control, not a letter of the name. */
		{ "Jos\xc3\xa9", "Hello, my name is Jo\xc2\x85s\xc3\xa9 and I "
		    "am the human.", ASSERTION_PASS, "Jos\xc3\xa9" },
		{ NULL, NULL, ASSERTION_PENDING, NULL }
	}, *c;
	struct assertion_pattern	*p;
	struct assertion		*a;
	const struct assertion_result	*r;
	int				 flags;

	(void)state;
	for (flags = 0; flags <= ASSERTION_NOJIT; flags += ASSERTION_NOJIT) {
		p = pattern(NULL, flags | ASSERTION_UTF8);
		for (c = utf8_cases; c->approved != NULL; c++) {
			r = utf8_feed(&a, p, c->approved, c->text);
			if (r->verdict != c->verdict || (c->name != NULL &&
			    strcmp(r->name, c->name) != 0))
				fail_msg("\"%s\": %s \"%s\"", c->text,
				    assertion_verdict_name(r->verdict), r->name);
			assertion_free(a);
		}
		assertion_pattern_free(p);
	}
	/* ISO-8859-1: the erases take back one byte each. */
	p = pattern(NULL, 0);
	a = assertion_new(p, "Jos\xc3\xa9");
	assertion_feed(a, "Hello, my name is Josx\xc3\xa9\x7f\b\xc3\xa9 and "
	    "I am the human.", 48);
	assert_int_equal(assertion_result(a)->verdict, ASSERTION_NAME);
	/* A pattern compiled for ISO-8859-1 alone takes no UTF-8 link. */
	assert_int_equal(assertion_charset(a, CAP_UTF8), -1);
	assertion_free(a);
	assertion_pattern_free(p);
}

/* UTF-8: bytes that are no character are not text. */
static void
test_utf8_invalid_bytes_are_not_text(void **state)
{
	struct assertion_pattern	*p;
	struct assertion		*a;
	const struct assertion_result	*r;

	(void)state;
	p = pattern(NULL, ASSERTION_UTF8);
	r = utf8_feed(&a, p, "Ada", "Hello, my name is A\x80\xc3" "da and I "
	    "am the human.");
	assert_int_equal(r->verdict, ASSERTION_PASS);
	assertion_free(a);
	assertion_pattern_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_assertion_passes_at_the_line_end),
		cmocka_unit_test(test_trailing_punctuation_passes_at_once),
		cmocka_unit_test(test_humanoid_fails_at_the_letter),
		cmocka_unit_test(test_lower_case_and_spacing_pass),
		cmocka_unit_test(test_a_name_not_approved_gives_name),
		cmocka_unit_test(test_names_compare_without_case_and_blanks),
		cmocka_unit_test(test_an_early_departure_fails_at_once),
		cmocka_unit_test(test_an_incomplete_line_fails_at_its_end),
		cmocka_unit_test(test_crlf_and_lfcr_give_the_same_verdict),
		cmocka_unit_test(test_a_typo_corrected_with_backspace_passes),
		cmocka_unit_test(test_random_splits_give_identical_verdicts),
		cmocka_unit_test(
		    test_controls_are_not_text_and_late_bytes_are_ignored),
		cmocka_unit_test(test_a_long_utterance_fails),
		cmocka_unit_test(test_finish_decides_what_was_said),
		cmocka_unit_test(test_a_custom_pattern_with_the_name_group),
		cmocka_unit_test(
		    test_a_pattern_without_the_name_group_is_an_error),
		cmocka_unit_test(
		    test_a_bad_regex_reports_pcre2_message_and_offset),
		cmocka_unit_test(test_the_default_pattern_compiles_with_jit),
		cmocka_unit_test(test_utf8_names_erase_and_c1),
		cmocka_unit_test(test_utf8_invalid_bytes_are_not_text),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
