/*
 * Unit tests for the transcript state machine (transcripts/tx-line.c):
 * backspace and DEL, every line ending, the double CR of a turn end,
 * wrapping, tabs, 8-bit bytes, NUL, the "@@nn" judge announcement.
 *
 * Outputs are collected as text: "J04@5:text" for a judge line (judge,
 * start second), "P@5:text" for a program line, "*04" for a judge
 * change, separated by "|".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "transcripts.h"

struct run {
	struct tx_line	m;
	char		log[8192];
	size_t		len;
};

static void	run_out(struct run *, const struct tx_out *);
static void	run_feed(struct run *, enum tx_who, const char *, size_t,
		    int64_t);
static void	run_init(struct run *, int, int);
static void	run_flush(struct run *);
static void	check(struct run *, const char *);

/* Append one output of the machine to the run's log. */
static void
run_out(struct run *r, const struct tx_out *o)
{
	if (o->kind == TX_OUT_JUDGE)
		r->len += (size_t)snprintf(r->log + r->len,
		    sizeof(r->log) - r->len, "*%02d|", o->judge);
	else if (o->who == TX_JUDGE)
		r->len += (size_t)snprintf(r->log + r->len,
		    sizeof(r->log) - r->len, "J%02d@%lld:%.*s|", o->judge,
		    (long long)(o->usec / 1000000), (int)o->len, o->text);
	else
		r->len += (size_t)snprintf(r->log + r->len,
		    sizeof(r->log) - r->len, "P@%lld:%.*s|",
		    (long long)(o->usec / 1000000), (int)o->len, o->text);
	assert_true(r->len < sizeof(r->log));
}

/* Start a run with a width and a judge. */
static void
run_init(struct run *r, int width, int judge)
{
	tx_line_init(&r->m, width, judge);
	r->log[0] = '\0';
	r->len = 0;
}

/* Feed bytes from a side, one second apart from second `at`. */
static void
run_feed(struct run *r, enum tx_who who, const char *s, size_t n, int64_t at)
{
	struct tx_out	o[TX_LINE_OUTS];
	size_t		i;
	int		k, nout;

	for (i = 0; i < n; i++) {
		nout = tx_line_feed(&r->m, who, (unsigned char)s[i],
		    (at + (int64_t)i) * 1000000, o);
		for (k = 0; k < nout; k++)
			run_out(r, &o[k]);
	}
}

/* Flush the unfinished lines into the log. */
static void
run_flush(struct run *r)
{
	struct tx_out	o[2];
	int		i, n;

	n = tx_line_flush(&r->m, o);
	for (i = 0; i < n; i++)
		run_out(r, &o[i]);
}

/* Compare the log with what is expected, and reset it. */
static void
check(struct run *r, const char *want)
{
	if (strcmp(r->log, want) != 0)
		fail_msg("expected \"%s\", got \"%s\"", want, r->log);
	r->log[0] = '\0';
	r->len = 0;
}

#define FEED(r, who, lit, at)	run_feed(r, who, lit, sizeof(lit) - 1, at)

/* Backspace and DEL erase one character each, never past the line start. */
static void
test_backspace(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 80, 3);
	FEED(&r, TX_JUDGE, "helo\bl\x7fo\r", 0);
	check(&r, "J03@0:helo|");
	FEED(&r, TX_JUDGE, "\b\b\bab\b\b\b\bcd\r", 10);
	check(&r, "J03@13:cd|");
	FEED(&r, TX_PROGRAM, "xy\b\b\b\r", 20);
	check(&r, "");
	/* An escape is erased whole. */
	FEED(&r, TX_PROGRAM, "a\x1b\b!\r", 30);
	check(&r, "P@30:a!|");
}

/* A judge's ENQ (a terminal's question) is no text; an entity's is. */
static void
test_enq(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 80, 3);
	FEED(&r, TX_JUDGE, "\x05hi\x05\b!\r", 0);
	check(&r, "J03@1:h!|");
	FEED(&r, TX_PROGRAM, "\x05ok\r", 10);
	check(&r, "P@10:\\x05ok|");
}

/* CR, LF, CRLF and LFCR each end exactly one line. */
static void
test_line_endings(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 80, 1);
	FEED(&r, TX_PROGRAM, "a\rb\nc\r\nd\n\re\r", 0);
	check(&r, "P@0:a|P@2:b|P@4:c|P@7:d|P@10:e|");
	/* CRLF CRLF is two ends: a line and an (omitted) empty one. */
	FEED(&r, TX_PROGRAM, "f\r\n\r\ng\n\r\n\rh\r\n", 20);
	check(&r, "P@20:f|P@25:g|P@30:h|");
	/* CR LF LF: CRLF then LF, the LF being an empty line. */
	FEED(&r, TX_JUDGE, "i\r\n\nj\r", 40);
	check(&r, "J01@40:i|J01@44:j|");
}

/* The empty lines of a double-CR turn end are not written. */
static void
test_double_cr(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 80, 4);
	FEED(&r, TX_JUDGE, "Do you think\rthat?\r\r", 0);
	FEED(&r, TX_PROGRAM, "Only if\r\ndeveloping\r\n", 30);
	check(&r, "J04@0:Do you think|J04@13:that?|P@30:Only if|"
	    "P@39:developing|");
	FEED(&r, TX_JUDGE, "\r\r\r\n\n", 60);
	check(&r, "");
}

/* Lines longer than the width are wrapped; the piece keeps its own time. */
static void
test_wrap(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 8, 2);
	FEED(&r, TX_PROGRAM, "abcdefghijklmnopq\r", 0);
	check(&r, "P@0:abcdefgh|P@8:ijklmnop|P@16:q|");
	/* Exactly the width: no empty continuation. */
	FEED(&r, TX_JUDGE, "12345678\r", 100);
	check(&r, "J02@100:12345678|");
	/* An escape that does not fit goes to the next piece whole. */
	FEED(&r, TX_PROGRAM, "abcdef\x80z\r", 200);
	check(&r, "P@200:abcdef|P@206:\\x80z|");
	/* Backspace does not reach back into a wrapped piece. */
	FEED(&r, TX_JUDGE, "abcdefghi\b\b\bX\r", 300);
	check(&r, "J02@300:abcdefgh|J02@308:X|");
	/* A full piece may still be edited before the next byte. */
	FEED(&r, TX_JUDGE, "abcdefgh\bXY\r", 400);
	check(&r, "J02@400:abcdefgX|J02@410:Y|");
}

/* Tabs become spaces to the next multiple of 8, within the width. */
static void
test_tabs(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 12, 2);
	FEED(&r, TX_PROGRAM, "a\tb\tc\r", 0);
	check(&r, "P@0:a       b   |P@4:c|");
	FEED(&r, TX_PROGRAM, "\t\b.\r", 10);
	check(&r, "P@10:.|");
}

/* 8-bit bytes, controls, NUL and the backslash are escaped. */
static void
test_escapes(void **state)
{
	struct run	r;
	const char	in[] = "\x00\x01\x1b[2J\x7e\x80\xe9\xff\\x\r";

	(void)state;
	run_init(&r, 80, 7);
	run_feed(&r, TX_PROGRAM, in, sizeof(in) - 1, 0);
	check(&r, "P@0:\\x00\\x01\\x1b[2J~\\x80\\xe9\\xff\\\\x|");
}

/* "@@nn" on a judge line changes the judge and is not written. */
static void
test_announce(void **state)
{
	struct run	r;
	struct tx_out	o;

	(void)state;
	run_init(&r, 80, 3);
	FEED(&r, TX_JUDGE, "hi\r\r@@04 \r\rWelcome?\r", 0);
	check(&r, "J03@0:hi|*04|J04@11:Welcome?|");
	/* The same judge again: nothing. */
	FEED(&r, TX_JUDGE, "@@04\r\r", 30);
	check(&r, "");
	/* Not an announcement: three digits, text after, a program line. */
	FEED(&r, TX_JUDGE, "@@123\r@@05x\r", 40);
	check(&r, "J04@40:@@123|J04@46:@@05x|");
	FEED(&r, TX_PROGRAM, "@@06\r", 60);
	check(&r, "P@60:@@06|");
	/* Blanks around and one digit, as muxd's judge terminal takes it. */
	FEED(&r, TX_JUDGE, " @@07 \r\r", 62);
	check(&r, "*07|");
	FEED(&r, TX_JUDGE, "@@4\t\r\r", 64);
	check(&r, "*04|");
	/* A marker first, then the typed line: one change only. */
	assert_int_equal(tx_line_judge(&r.m, 9, &o), 1);
	run_out(&r, &o);
	FEED(&r, TX_JUDGE, "@@09\r\r", 70);
	check(&r, "*09|");
	/* A line begun before a change keeps the judge it began with. */
	FEED(&r, TX_JUDGE, "ab", 80);
	assert_int_equal(tx_line_judge(&r.m, 10, &o), 1);
	run_out(&r, &o);
	FEED(&r, TX_JUDGE, "c\r", 90);
	check(&r, "*10|J09@80:abc|");
}

/* Both sides interleave; flush gives the unfinished lines, oldest first. */
static void
test_interleave_flush(void **state)
{
	struct run	r;

	(void)state;
	run_init(&r, 80, TX_JUDGE_NONE);
	FEED(&r, TX_PROGRAM, "Hel", 0);
	FEED(&r, TX_JUDGE, "x", 5);
	FEED(&r, TX_PROGRAM, "lo\r", 10);
	FEED(&r, TX_JUDGE, "y\r", 20);
	check(&r, "P@0:Hello|J-1@5:xy|");
	FEED(&r, TX_JUDGE, "late", 40);
	FEED(&r, TX_PROGRAM, "early", 30);
	run_flush(&r);
	check(&r, "P@30:early|J-1@40:late|");
	run_flush(&r);
	check(&r, "");
}

/* Every byte value, fed at random, never overflows nor crashes. */
static void
test_random_bytes(void **state)
{
	struct run	r;
	struct tx_out	o[TX_LINE_OUTS];
	unsigned int	seed = 1996;
	int		i;

	(void)state;
	run_init(&r, TX_WIDTH_MIN, 0);
	for (i = 0; i < 200000; i++) {
		if (tx_line_feed(&r.m, rand_r(&seed) & 1 ? TX_JUDGE :
		    TX_PROGRAM, (unsigned char)rand_r(&seed), i, o)) {
			assert_true(o[0].kind == TX_OUT_JUDGE ||
			    (o[0].len > 0 && o[0].len <= TX_WIDTH_MIN));
		}
	}
}

/*
 * UTF-8: a character is kept as it is, one column, erased whole; a C1
 * control and what is no character are escaped; a character cut off at
 * a wrap and a line end gives two lines with one byte.
 */
static void
test_utf8(void **state)
{
	static struct run	r;

	(void)state;
	run_init(&r, 8, 1);
	tx_line_charset(&r.m, CAP_UTF8);
	FEED(&r, TX_PROGRAM, "caf\xc3\xa9\x7f" "e\r", 0);
	check(&r, "P@0:cafe|");
	FEED(&r, TX_PROGRAM, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x80\x99\r", 100);
	check(&r, "P@101:\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9|P@118:\xe2\x80\x99|");
	FEED(&r, TX_JUDGE, "a\xc2\x85\r", 200);
	check(&r, "J01@200:a|J01@202:\\xc2\\x85|");
	FEED(&r, TX_PROGRAM, "abcdefg\xe2\r", 300);
	check(&r, "P@300:abcdefg|P@308:\\xe2|");
	FEED(&r, TX_PROGRAM, "x\x80\r", 400);
	check(&r, "P@400:x\\x80|");
	/* ISO-8859-1: a byte each. */
	run_init(&r, 80, 1);
	FEED(&r, TX_PROGRAM, "caf\xc3\xa9\x7f" "e\r", 0);
	check(&r, "P@0:caf\\xc3e|");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backspace),
		cmocka_unit_test(test_line_endings),
		cmocka_unit_test(test_double_cr),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_tabs),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_announce),
		cmocka_unit_test(test_interleave_flush),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_enq),
		cmocka_unit_test(test_utf8),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
