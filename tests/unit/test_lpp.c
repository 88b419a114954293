/*
 * Unit tests for the LPP keystroke log parser (capture/lpp.c), on
 * crafted logs shaped like the 2012 ones: good records, a record cut off,
 * CRLF and LF, a record logged twice, unknown key names, an empty judge
 * and round, a header alone, garbage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture.h"
#include "fixture-lpp.h"

#define HDR(j, r, left) \
	"Loebner Prize 2012 15 May  Bletchley Park UK\r\n" \
	"These transcripts are in the public domain\r\n" \
	"Transcripts of judge " j " program m_allan_linguo round " r "\r\n" \
	"Left =" left " \r\n"
#define HEADER	HDR("3", "1", "human")

static void	 parse(const char *, struct lpp_log *);
static size_t	 defects(const struct lpp_log *, enum lpp_defect_kind);
static const struct finding *defect(const struct lpp_log *,
		    enum lpp_defect_kind);

/* Parse a NUL-terminated log, failing the test on an error. */
static void
parse(const char *text, struct lpp_log *log)
{
	struct cap_error	e;

	cap_error_clear(&e);
	if (lpp_parse("t.log", text, strlen(text), log, &e) != CAP_OK)
		fail_msg("lpp_parse failed: %s", e.msg);
}

/* How many defects of a kind the log has. */
static size_t
defects(const struct lpp_log *log, enum lpp_defect_kind k)
{
	return (log->ndefect_kind[k]);
}

/* The first defect of a kind, failing the test when there is none. */
static const struct finding *
defect(const struct lpp_log *log, enum lpp_defect_kind k)
{
	size_t	i;

	for (i = 0; i < log->defects.n; i++)
		if (log->defects.item[i].kind == (int)k)
			return (&log->defects.item[i]);
	fail_msg("no %s defect", lpp_defect_name(k));
	return (NULL);
}

static void
test_good_records(void **state)
{
	struct lpp_log	log;

	(void)state;
	parse(HEADER
	    "J3 013370843210242371 judge left H\r\n"
	    "J3 013370843210442233 judge left space\r\n"
	    "J3 013370843250597200 m_allan_linguo right Return\r\n", &log);
	assert_int_equal(log.judge, 3);
	assert_int_equal(log.round, 1);
	assert_string_equal(log.program, "m_allan_linguo");
	assert_int_equal(log.left, LPP_ROLE_HUMAN);
	assert_int_equal(log.seen & LPP_SEEN_HEADER, LPP_SEEN_HEADER);
	assert_string_equal(log.title,
	    "Loebner Prize 2012 15 May  Bletchley Park UK");
	assert_int_equal(log.nrecord, 3);
	assert_int_equal(log.ndefect_all, 0);
	assert_int_equal(log.nline, 7);
	assert_int_equal(log.ncrlf, 7);
	/* "0", ten digits of seconds, seven of zero-padded microseconds. */
	assert_true(log.record[0].usec == INT64_C(1337084321242371));
	assert_true(log.record[1].usec == INT64_C(1337084321442233));
	assert_true(log.record[2].usec == INT64_C(1337084325597200));
	assert_int_equal(log.record[0].byte, 'H');
	assert_int_equal(log.record[1].byte, ' ');
	assert_int_equal(log.record[2].byte, '\r');
	assert_true(log.record[0].judge_typed);
	assert_false(log.record[2].judge_typed);
	assert_int_equal(log.record[0].side, LPP_LEFT);
	assert_int_equal(log.record[2].side, LPP_RIGHT);
	assert_int_equal(log.record[0].judge, 3);
	assert_int_equal(log.record[0].line, 5);
	assert_int_equal(log.record[0].offset, strlen(HEADER));
	assert_string_equal(log.record[1].key, "space");
	lpp_free(&log);
}

static void
test_truncated_last_record(void **state)
{
	struct lpp_log			 log;
	const struct finding		*d;
	const char			*text = HEADER
	    "J3 013370843210242371 judge left H\r\n"
	    "J3 013370843210442233 judge left e\r\n"
	    "J3 013370843210514";

	(void)state;
	parse(text, &log);
	assert_int_equal(log.nrecord, 2);
	assert_int_equal(defects(&log, LPP_D_TRUNCATED), 1);
	d = defect(&log, LPP_D_TRUNCATED);
	assert_int_equal(d->line, 7);
	assert_int_equal(d->offset, strstr(text, "J3 013370843210514") -
	    text);
	assert_int_equal(log.torn_line, 7);
	assert_int_equal(log.torn_offset, d->offset);
	assert_int_equal(log.torn_len, 18);
	assert_int_equal(log.nline, 7);
	lpp_free(&log);

	/* Cut after the side, before the key: still a torn record. */
	parse(HEADER "J3 013370843210242371 judge left", &log);
	assert_int_equal(log.nrecord, 0);
	assert_int_equal(defects(&log, LPP_D_TRUNCATED), 1);
	assert_int_equal(defects(&log, LPP_D_EMPTY), 0);
	lpp_free(&log);

	/* A CR without its LF: the record is whole, only the LF is lost. */
	parse(HEADER "J3 013370843210242371 judge left H\r", &log);
	assert_int_equal(log.nrecord, 1);
	assert_int_equal(defects(&log, LPP_D_TRUNCATED), 0);
	assert_int_equal(defects(&log, LPP_D_LINE_ENDS), 1);
	lpp_free(&log);
}

static void
test_crlf_and_lf(void **state)
{
	struct lpp_log	a, b, c;

	(void)state;
	parse(HEADER "J3 013370843210242371 judge left H\r\n"
	    "J3 013370843210442233 judge left e\r\n", &a);
	parse("Loebner Prize 2012\n"
	    "These transcripts are in the public domain\n"
	    "Transcripts of judge 3 program m_allan_linguo round 1\n"
	    "Left =human\n"
	    "J3 013370843210242371 judge left H\n"
	    "J3 013370843210442233 judge left e\n", &b);
	assert_int_equal(a.nrecord, 2);
	assert_int_equal(b.nrecord, 2);
	assert_int_equal(a.ncrlf, 6);
	assert_int_equal(b.nlf, 6);
	assert_int_equal(b.ncrlf, 0);
	assert_string_equal(a.record[1].key, b.record[1].key);
	assert_int_equal(a.record[1].byte, 'e');
	assert_int_equal(a.ndefect_all, 0);
	assert_int_equal(b.ndefect_all, 0);
	assert_int_equal(b.left, LPP_ROLE_HUMAN);
	/* Mixed line ends are a defect of the log, the records are kept. */
	parse(HEADER "J3 013370843210242371 judge left H\n"
	    "J3 013370843210442233 judge left e\r\n", &c);
	assert_int_equal(c.nrecord, 2);
	assert_int_equal(defects(&c, LPP_D_LINE_ENDS), 1);
	lpp_free(&a);
	lpp_free(&b);
	lpp_free(&c);
}

static void
test_duplicate_records(void **state)
{
	struct lpp_log			 log;
	const struct finding		*d;

	(void)state;
	parse(HEADER
	    "J3 013370843210242371 judge left H\r\n"
	    "J3 013370843210442233 judge left e\r\n"
	    "J3 013370843210242371 judge left H\r\n"
	    "J3 013370843210242371 judge right H\r\n"
	    "J3 013370843210242371 m_allan_linguo left H\r\n"
	    "J3 013370843210442233 judge left e\r\n", &log);
	/* Same time, side, who and key: the copies (lines 7, 10) go. */
	assert_int_equal(log.nrecord, 4);
	assert_int_equal(log.nduplicate, 2);
	assert_int_equal(defects(&log, LPP_D_DUPLICATE), 2);
	d = defect(&log, LPP_D_DUPLICATE);
	assert_true(d->line == 7 || d->line == 10);
	assert_non_null(strstr(d->msg, d->line == 7 ? "line 5" : "line 6"));
	assert_int_equal(log.record[0].line, 5);
	assert_int_equal(log.record[1].line, 6);
	assert_int_equal(log.record[2].line, 8);
	assert_int_equal(log.record[3].line, 9);
	lpp_free(&log);
}

static void
test_pair_logged_twice(void **state)
{
	struct lpp_log	a, b, c;

	(void)state;
	parse(HEADER "J3 013370843210242371 judge left H\r\n"
	    "J3 013370843210442233 judge left e\r\n", &a);
	parse(HEADER "J3 013370843210442233 judge left e\r\n"
	    "J3 013370843210500000 judge left l\r\n", &b);
	parse(HDR("4", "1", "human") "J4 013370843210442233 judge left e\r\n",
	    &c);
	assert_true(lpp_same_pair(&a, &b));
	assert_false(lpp_same_pair(&a, &c));
	assert_int_equal(lpp_dedupe(&a, &b), 0);
	assert_int_equal(b.nrecord, 1);
	assert_int_equal(b.record[0].byte, 'l');
	assert_int_equal(defects(&b, LPP_D_DUPLICATE), 1);
	assert_non_null(strstr(defect(&b, LPP_D_DUPLICATE)->msg, "t.log"));
	assert_int_equal(a.nrecord, 2);
	lpp_free(&a);
	lpp_free(&b);
	lpp_free(&c);
}

static void
test_unknown_key_names(void **state)
{
	struct lpp_log	log;

	(void)state;
	/*
	 * The 2012 logs have "right  ": a key logged as a lone space, kept
	 * as a space and said (the finding stays).
	 */
	parse(HEADER
	    "J3 013370843210242371 m_allan_linguo right  \r\n"
	    "J3 013370843210242372 judge left F13\r\n"
	    "J3 013370843210242373 judge left \r\n"
	    "J3 013370843210242374 judge left Ret\r\n"
	    "J3 013370843210242375 judge left BackSpace\r\n", &log);
	assert_int_equal(log.nrecord, 5);
	assert_int_equal(defects(&log, LPP_D_KEY), 4);
	assert_int_equal(log.record[0].byte, ' ');
	assert_int_equal(log.record[0].keylen, 1);
	assert_string_equal(log.record[0].key, " ");
	assert_int_equal(log.record[1].byte, -1);
	assert_int_equal(log.record[2].byte, -1);
	assert_int_equal(log.record[2].keylen, 0);
	assert_int_equal(log.record[3].byte, -1);
	assert_int_equal(log.record[4].byte, 0x08);
	assert_non_null(strstr(defect(&log, LPP_D_KEY)->msg,
	    "a lone space for the key name, read as space"));
	assert_int_equal(defect(&log, LPP_D_KEY)->line, 5);
	lpp_free(&log);
}

static void
test_key_table(void **state)
{
	static const struct {
		const char	*name;
		int		 byte;
	} t[] = {
		{ "space", ' ' }, { "Return", '\r' }, { "BackSpace", '\b' },
		{ "Tab", '\t' }, { "quoteright", '\'' }, { "quoteleft", '`' },
		{ "quotedbl", '"' }, { "period", '.' }, { "comma", ',' },
		{ "question", '?' }, { "exclam", '!' }, { "parenleft", '(' },
		{ "parenright", ')' }, { "minus", '-' }, { "numbersign", '#' },
		{ "asciicircum", '^' }, { "backslash", '\\' }, { "less", '<' },
		{ "greater", '>' }, { "braceleft", '{' }, { "bar", '|' },
		{ "braceright", '}' }, { "underscore", '_' }, { "at", '@' },
		{ "apostrophe", '\'' }, { "sterling", 0xa3 },
		{ "a", 'a' }, { "Z", 'Z' }, { "7", '7' }, { "?", '?' },
		{ "return", -1 }, { "Ret", -1 }, { "", -1 }, { " ", ' ' },
		{ "spaces", -1 }, { "\x80", -1 }
	};
	char	w[16];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (lpp_key_byte(t[i].name, strlen(t[i].name)) != t[i].byte)
			fail_msg("key \"%s\": %d, expected %d", t[i].name,
			    lpp_key_byte(t[i].name, strlen(t[i].name)),
			    t[i].byte);
	lpp_key_word(w, sizeof(w), "", 0);
	assert_string_equal(w, "%");
	lpp_key_word(w, sizeof(w), "a b%\x80", 5);
	assert_string_equal(w, "a%20b%25%80");
	lpp_key_word(w, 6, "abcdefgh", 8);
	assert_string_equal(w, "abcde");
}

static void
test_empty_judge_and_round(void **state)
{
	struct lpp_log	log;

	(void)state;
	parse(HDR("", "", "human")
	    "J 013370152380273400 m_allan_linguo left c\r\n", &log);
	assert_int_equal(log.judge, TX_JUDGE_NONE);
	assert_int_equal(log.round, 0);
	assert_string_equal(log.program, "m_allan_linguo");
	assert_int_equal(log.nrecord, 1);
	assert_int_equal(log.record[0].judge, TX_JUDGE_NONE);
	assert_int_equal(defects(&log, LPP_D_NOJUDGE), 1);
	assert_int_equal(defects(&log, LPP_D_NOROUND), 1);
	assert_int_equal(defects(&log, LPP_D_JUDGEID), 0);
	assert_int_equal(defect(&log, LPP_D_NOJUDGE)->line, 3);
	lpp_free(&log);
}

static void
test_header_only(void **state)
{
	struct lpp_log	log;

	(void)state;
	parse(HDR("", "", "human"), &log);
	assert_int_equal(log.nrecord, 0);
	assert_int_equal(defects(&log, LPP_D_EMPTY), 1);
	assert_int_equal(defect(&log, LPP_D_EMPTY)->offset,
	    strlen(HDR("", "", "human")));
	lpp_free(&log);
	parse("", &log);
	assert_int_equal(log.nrecord, 0);
	assert_int_equal(defects(&log, LPP_D_EMPTY), 1);
	assert_int_equal(defects(&log, LPP_D_HEADER), 4);
	lpp_free(&log);
}

static void
test_bad_lines_are_skipped(void **state)
{
	struct lpp_log	log;
	char		big[LPP_LINE_MAX + 64];
	char		*text;

	(void)state;
	parse(HEADER
	    "J3 013370843210242371 judge left H\r\n"
	    "J3 01337084321024237 judge left e\r\n"
	    "J3 013370843219999999 judge left e\r\n"
	    "J3 013370843210442233 judge middle e\r\n"
	    "JX 013370843210442233 judge left e\r\n"
	    "hello\r\n"
	    "J4 013370843210442233 judge left e\r\n"
	    "J3 013370843210442233 someone left e\r\n"
	    "J3 013370843210000000 judge left x\r\n", &log);
	assert_int_equal(defects(&log, LPP_D_SYNTAX), 5);
	assert_int_equal(defects(&log, LPP_D_JUDGEID), 1);
	assert_int_equal(defects(&log, LPP_D_SPEAKER), 1);
	assert_int_equal(defects(&log, LPP_D_BACKWARDS), 1);
	assert_int_equal(log.nrecord, 4);
	assert_int_equal(defect(&log, LPP_D_SYNTAX)->line, 6);
	assert_int_equal(defect(&log, LPP_D_BACKWARDS)->line, 13);
	lpp_free(&log);

	memset(big, 'J', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	if (asprintf(&text, HEADER "%s\r\nJ3 013370843210242371 judge left "
	    "H\r\n", big) == -1)
		fail();
	parse(text, &log);
	assert_int_equal(defects(&log, LPP_D_LONG), 1);
	assert_int_equal(log.nrecord, 1);
	lpp_free(&log);
	free(text);
}

static void
test_binary_garbage(void **state)
{
	struct lpp_log		log;
	struct cap_error	e;
	unsigned char		buf[4096];
	size_t			i;

	(void)state;
	srand(2012);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i % 97 == 0 ? '\n' : rand());
	assert_int_equal(lpp_parse("g", buf, sizeof(buf), &log, &e), CAP_OK);
	assert_true(log.ndefect_all > 0);
	lpp_free(&log);
	buf[0] = '\0';
	assert_int_equal(lpp_parse(NULL, buf, 1, &log, &e), CAP_OK);
	lpp_free(&log);
	assert_int_equal(lpp_parse("z", buf, 0, &log, &e), CAP_OK);
	assert_int_equal(log.nrecord, 0);
	lpp_free(&log);
}

/* Each byte of a 2012 log's keys: a name that gives it back. */
static void
names_2012(const char *file, const struct lpp_log *log, void *arg)
{
	int		*seen = arg, b;
	const char	*n2;
	size_t		 k;

	for (k = 0; k < log->nrecord; k++) {
		b = log->record[k].byte;
		if (b < 0 || seen[b]++)
			continue;
		seen[LPP_BYTES]++;
		if ((n2 = lpp_key_name(b)) == NULL)
			fail_msg("%s: key \"%.*s\" (0x%02x) has no name to "
			    "write", file, (int)log->record[k].keylen,
			    log->record[k].key, b);
		assert_int_equal(lpp_key_byte(n2, strlen(n2)), b);
	}
}

/*
 * The bridge's names (lpp_key_name): every key name of the 2012 logs
 * gives its byte, and that byte a name that gives it back; the
 * appendix's names are the ones written; letters and digits are
 * themselves, BackSpace and Return both ways.
 */
static void
test_key_names_both_ways(void **state)
{
	static const char	*appendix[] = { "braceleft", "braceright",
				    "bracketleft", "bracketright", "parenleft",
				    "parenright", "space", "comma", "period",
				    "greater", "less", "slash", "backslash",
				    "bar", "quotedbl", "quoteright", "Tab",
				    "equal", "underscore", "plus", "minus",
				    "exclam", "at", "numbersign", "dollar",
				    "percent", "asterisk", "asciicircum",
				    "asciitilde", "quoteleft", "ampersand",
				    "Return", "colon", "semicolon",
				    "question" };
	int			 b, seen[LPP_BYTES + 1] = { 0 };
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(appendix) / sizeof(appendix[0]); i++) {
		b = lpp_key_byte(appendix[i], strlen(appendix[i]));
		assert_true(b >= 0);
		assert_string_equal(lpp_key_name(b), appendix[i]);
	}
	assert_string_equal(lpp_key_name('q'), "q");
	assert_string_equal(lpp_key_name('7'), "7");
	assert_string_equal(lpp_key_name(0x08), "BackSpace");
	assert_string_equal(lpp_key_name(0x7f), "BackSpace");
	assert_string_equal(lpp_key_name('\n'), "Return");
	assert_int_equal(lpp_key_byte("BackSpace", 9), 0x08);
	assert_null(lpp_key_name(0x01));
	assert_int_equal(fixture_lpp_each(names_2012, seen), 24);
	assert_true(seen[LPP_BYTES] >= 80);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_records),
		cmocka_unit_test(test_truncated_last_record),
		cmocka_unit_test(test_crlf_and_lf),
		cmocka_unit_test(test_duplicate_records),
		cmocka_unit_test(test_pair_logged_twice),
		cmocka_unit_test(test_unknown_key_names),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_empty_judge_and_round),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_bad_lines_are_skipped),
		cmocka_unit_test(test_binary_garbage),
		cmocka_unit_test(test_key_names_both_ways),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
