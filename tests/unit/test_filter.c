/*
 * Unit tests for the control-sequence filter (text/filter.c).
 *
 * Each scenario feeds real escape sequences, the kind an entity could use
 * to take over a judge's screen, and checks three things: the bytes that
 * reach the judge, the removed runs reported (kind, text, how they ended,
 * offsets) and the counters.  Every scenario is run three ways, whole,
 * byte by byte and at random split points, and must give the same result.
 * The UTF-8 scenarios run the same way with the link's character set
 * UTF-8 (run_charset).
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

#define MAXSPANS	64
#define MAXOUT		16384

struct rec_span {
	enum filter_kind kind;
	enum filter_end	 end;
	unsigned char	 text[64];
	size_t		 ntext;
	size_t		 len;
	uint64_t	 in;
	uint64_t	 out;
	int		 passed;
};

struct rec {
	struct rec_span	 spans[MAXSPANS];
	size_t		 nspans;
	unsigned char	 out[MAXOUT];
	size_t		 nout;
	struct filter	 f;
};

/* The character set run() gives the filter. */
static enum cap_encoding run_charset = CAP_LATIN1;

static void	 record(void *, const struct filter_span *);
static void	 run(struct rec *, int, size_t, const void *, size_t, int);
static void	 run_utf8(struct rec *, const void *, size_t);
static void	 escape(const unsigned char *, size_t, char *, size_t);
static void	 expect_out(const struct rec *, const char *, size_t);
static void	 expect_span(const struct rec *, size_t, enum filter_kind,
		    enum filter_end, const char *);
static size_t	 next_seq(const struct rec *, size_t);
static void	 expect_same(const struct rec *, const struct rec *,
		    const char *);
static void	 check_splits(int, const void *, size_t);

/* Record one removed run reported by the filter. */
static void
record(void *arg, const struct filter_span *s)
{
	struct rec	*r = arg;
	struct rec_span	*rs;

	if (r->nspans == MAXSPANS)
		fail_msg("more than %d spans reported", MAXSPANS);
	rs = &r->spans[r->nspans++];
	memset(rs, 0, sizeof(*rs));
	rs->kind = s->kind;
	rs->end = s->end;
	rs->ntext = s->ntext < sizeof(rs->text) ? s->ntext : sizeof(rs->text);
	memcpy(rs->text, s->text, rs->ntext);
	rs->len = s->len;
	rs->in = s->in;
	rs->out = s->out;
	rs->passed = s->passed;
}

/*
 * Filter n bytes in chunks: split 0 whole, 1 byte by byte, 2 at random
 * points.
 */
static void
run(struct rec *r, int passthrough, size_t limit, const void *buf, size_t n,
    int split)
{
	const unsigned char	*p = buf;
	size_t			 off, len;

	memset(r, 0, sizeof(*r));
	filter_init(&r->f, passthrough, limit, record, r);
	filter_charset(&r->f, run_charset);
	for (off = 0; off < n; off += len) {
		if (split == 0)
			len = n;
		else if (split == 1)
			len = 1;
		else
			len = 1 + (size_t)rand() % 7;
		if (len > n - off)
			len = n - off;
		if (r->nout + len + FILTER_HELDMAX > MAXOUT)
			fail_msg("output too long for the test buffer");
		r->nout += filter_feed(&r->f, p + off, len, r->out + r->nout);
	}
}

/* Filter n bytes whole on a UTF-8 link (run_charset stays UTF-8). */
static void
run_utf8(struct rec *r, const void *buf, size_t n)
{
	run_charset = CAP_UTF8;
	run(r, 0, 0, buf, n, 0);
}

/* Write bytes as a C string literal, for messages. */
static void
escape(const unsigned char *p, size_t n, char *buf, size_t len)
{
	size_t	i, o = 0;

	for (i = 0; i < n && o + 5 < len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			buf[o++] = (char)p[i];
		else
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x",
			    p[i]);
	}
	buf[o] = '\0';
}

/* Fail unless the forwarded bytes are exactly these. */
static void
expect_out(const struct rec *r, const char *want, size_t n)
{
	char	got[512], exp[512];

	if (r->nout == n && memcmp(r->out, want, n) == 0)
		return;
	escape(r->out, r->nout, got, sizeof(got));
	escape((const unsigned char *)want, n, exp, sizeof(exp));
	fail_msg("forwarded to the judge\n  expected: \"%s\"\n       got: "
	    "\"%s\"", exp, got);
}

/* Fail unless span i is of this kind and end, with this text. */
static void
expect_span(const struct rec *r, size_t i, enum filter_kind kind,
    enum filter_end end, const char *text)
{
	char	got[512], exp[512];

	if (i >= r->nspans)
		fail_msg("span %zu: only %zu spans reported", i, r->nspans);
	escape(r->spans[i].text, r->spans[i].ntext, got, sizeof(got));
	escape((const unsigned char *)text, strlen(text), exp, sizeof(exp));
	if (r->spans[i].kind != kind || r->spans[i].end != end ||
	    strcmp(got, exp) != 0)
		fail_msg("span %zu\n  expected: %s %s \"%s\"\n       got: "
		    "%s %s \"%s\"", i, filter_kind_name(kind),
		    filter_end_name(end), exp,
		    filter_kind_name(r->spans[i].kind),
		    filter_end_name(r->spans[i].end), got);
}

/*
 * The index of the next span at or after i that is not a run of lone
 * controls or of bytes that are no UTF-8 character.
 */
static size_t
next_seq(const struct rec *r, size_t i)
{
	while (i < r->nspans && (r->spans[i].kind == FILTER_CONTROL ||
	    r->spans[i].kind == FILTER_UTF8))
		i++;
	return (i);
}

/*
 * Fail unless two runs forwarded the same bytes and reported the same
 * sequences.  Runs of lone controls and of bytes that are no character
 * are reported per chunk, so for them only the counters are compared.
 */
static void
expect_same(const struct rec *a, const struct rec *b, const char *how)
{
	const struct rec_span	*x, *y;
	size_t			 i, j;

	if (a->nout != b->nout || memcmp(a->out, b->out, a->nout) != 0)
		fail_msg("%s: forwarded bytes differ from a whole feed", how);
	if (a->f.seqs != b->f.seqs || a->f.bytes != b->f.bytes ||
	    a->f.cuts != b->f.cuts || a->f.controls != b->f.controls)
		fail_msg("%s: counters differ from a whole feed", how);
	for (i = next_seq(a, 0), j = next_seq(b, 0); i < a->nspans &&
	    j < b->nspans; i = next_seq(a, i + 1), j = next_seq(b, j + 1)) {
		x = &a->spans[i];
		y = &b->spans[j];
		if (x->kind != y->kind || x->end != y->end ||
		    x->len != y->len || x->in != y->in || x->out != y->out ||
		    x->ntext != y->ntext ||
		    memcmp(x->text, y->text, x->ntext) != 0)
			fail_msg("%s: span %zu differs from a whole feed", how,
			    j);
	}
	if (i < a->nspans || j < b->nspans)
		fail_msg("%s: not the same number of sequences as a whole "
		    "feed", how);
}

/* Check that byte-by-byte and random splits give the whole-feed result. */
static void
check_splits(int passthrough, const void *buf, size_t n)
{
	static struct rec	whole, part;
	int			trial;

	run(&whole, passthrough, 0, buf, n, 0);
	run(&part, passthrough, 0, buf, n, 1);
	expect_same(&whole, &part, "byte by byte");
	srand(4);
	for (trial = 0; trial < 50; trial++) {
		run(&part, passthrough, 0, buf, n, 2);
		expect_same(&whole, &part, "random split");
	}
}

#define S(lit)	(lit), sizeof(lit) - 1

static void
test_text_and_harmless_controls_pass(void **state)
{
	static const char	in[] = "Hello, judge!\r\n\tx\by\a\x7f"
	    " caf\xe9 \xa0\xff";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S(in));
	assert_int_equal(r.nspans, 0);
	assert_int_equal(r.f.bytes, 0);
	check_splits(0, S(in));
}

static void
test_cursor_movement_is_removed(void **state)
{
	static const char	in[] = "abc\033[2J\033[Hdef\033[10;20H\033[?25l!";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("abcdef!"));
	assert_int_equal(r.nspans, 4);
	expect_span(&r, 0, FILTER_CSI, FILTER_END_DONE, "\033[2J");
	expect_span(&r, 1, FILTER_CSI, FILTER_END_DONE, "\033[H");
	expect_span(&r, 2, FILTER_CSI, FILTER_END_DONE, "\033[10;20H");
	expect_span(&r, 3, FILTER_CSI, FILTER_END_DONE, "\033[?25l");
	assert_int_equal(r.spans[0].in, 3);
	assert_int_equal(r.spans[0].out, 3);
	assert_int_equal(r.spans[1].in, 7);
	assert_int_equal(r.spans[2].out, 6);
	assert_int_equal(r.f.seqs, 4);
	assert_int_equal(r.f.bytes, 4 + 3 + 8 + 6);
	assert_int_equal(r.f.in, sizeof(in) - 1);
	assert_int_equal(r.f.out, 7);
	check_splits(0, S(in));
}

static void
test_title_setting_osc_bel_is_removed(void **state)
{
	static const char	in[] = "hi\033]0;I am the human\athere\033]2;x"
	    "\033\\.";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("hithere."));
	assert_int_equal(r.nspans, 2);
	expect_span(&r, 0, FILTER_OSC, FILTER_END_DONE,
	    "\033]0;I am the human\a");
	expect_span(&r, 1, FILTER_OSC, FILTER_END_DONE, "\033]2;x\033\\");
	check_splits(0, S(in));
}

static void
test_osc52_clipboard_is_removed(void **state)
{
	static const char	in[] = "Sure.\033]52;c;cm0gLXJmIH4K\033\\ Next";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("Sure. Next"));
	assert_int_equal(r.nspans, 1);
	expect_span(&r, 0, FILTER_OSC, FILTER_END_DONE,
	    "\033]52;c;cm0gLXJmIH4K\033\\");
	assert_int_equal(r.spans[0].len, sizeof("\033]52;c;cm0gLXJmIH4K\033\\")
	    - 1);
	check_splits(0, S(in));
}

static void
test_8bit_c1_sequences_are_removed(void **state)
{
	static const char	in[] = "a\x9b" "31mb\x9d" "0;t\x9c" "c\x85"
	    "d\x90q\x9c" "e";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("abcde"));
	assert_int_equal(r.nspans, 4);
	expect_span(&r, 0, FILTER_CSI, FILTER_END_DONE, "\x9b" "31m");
	expect_span(&r, 1, FILTER_OSC, FILTER_END_DONE, "\x9d" "0;t\x9c");
	expect_span(&r, 2, FILTER_CONTROL, FILTER_END_DONE, "\x85");
	expect_span(&r, 3, FILTER_DCS, FILTER_END_DONE, "\x90q\x9c");
	assert_int_equal(r.f.seqs, 3);
	assert_int_equal(r.f.controls, 1);
	check_splits(0, S(in));
}

static void
test_split_byte_by_byte_still_caught(void **state)
{
	static const char	in[] = "x\033[2J\033]0;t\a\033]52;c;QUJD\033\\"
	    "\x9b" "1m\033P1$r\033\\\033(B\033cy";
	static struct rec	r;
	size_t			i;

	(void)state;
	run(&r, 0, 0, S(in), 1);
	expect_out(&r, S("xy"));
	assert_int_equal(r.nspans, 7);
	expect_span(&r, 5, FILTER_ESC, FILTER_END_DONE, "\033(B");
	expect_span(&r, 6, FILTER_ESC, FILTER_END_DONE, "\033c");
	/* Inside a sequence between bytes, the filter says so. */
	filter_init(&r.f, 0, 0, NULL, NULL);
	for (i = 0; i < 3; i++)
		filter_byte(&r.f, (unsigned char)"\033[1"[i]);
	assert_true(filter_pending(&r.f));
	filter_byte(&r.f, 'm');
	assert_false(filter_pending(&r.f));
	check_splits(0, S(in));
}

static void
test_lone_controls_removed_in_runs(void **state)
{
	static const char	in[] = "a\0\0\x01\x0e" "b\x0c" "c";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("abc"));
	assert_int_equal(r.nspans, 2);
	assert_int_equal(r.spans[0].kind, FILTER_CONTROL);
	assert_int_equal(r.spans[0].len, 4);
	assert_int_equal(r.spans[0].in, 1);
	assert_int_equal(r.spans[0].out, 1);
	assert_memory_equal(r.spans[0].text, "\0\0\x01\x0e", 4);
	expect_span(&r, 1, FILTER_CONTROL, FILTER_END_DONE, "\x0c");
	assert_int_equal(r.f.controls, 5);
	assert_int_equal(r.f.seqs, 0);
	check_splits(0, S(in));
}

static void
test_a_trailing_control_run_is_reported_with_its_chunk(void **state)
{
	static struct rec	r;
	unsigned char		out[8];

	(void)state;
	memset(&r, 0, sizeof(r));
	filter_init(&r.f, 0, 0, record, &r);
	assert_int_equal(filter_feed(&r.f, (const unsigned char *)"ok\0\0",
	    4, out), 2);
	assert_int_equal(r.nspans, 1);
	assert_int_equal(r.spans[0].len, 2);
}

static void
test_can_sub_and_new_esc_abort_a_sequence(void **state)
{
	static const char	in[] = "\033[12\030x\033]0;ti\032y\033[1\033[2Jz"
	    "\033]0;t\033[Hw";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("xyzw"));
	assert_int_equal(r.nspans, 6);
	expect_span(&r, 0, FILTER_CSI, FILTER_END_ABORT, "\033[12\030");
	expect_span(&r, 1, FILTER_OSC, FILTER_END_ABORT, "\033]0;ti\032");
	expect_span(&r, 2, FILTER_CSI, FILTER_END_ABORT, "\033[1");
	expect_span(&r, 3, FILTER_CSI, FILTER_END_DONE, "\033[2J");
	expect_span(&r, 4, FILTER_OSC, FILTER_END_ABORT, "\033]0;t");
	expect_span(&r, 5, FILTER_CSI, FILTER_END_DONE, "\033[H");
	assert_int_equal(r.spans[5].in, sizeof("\033[12\030x\033]0;ti\032y"
	    "\033[1\033[2Jz\033]0;t") - 1);
	check_splits(0, S(in));
}

static void
test_line_controls_inside_a_csi_pass(void **state)
{
	static const char	in[] = "\033[1\r\n2\bm.";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("\r\n\b."));
	expect_span(&r, 0, FILTER_CSI, FILTER_END_DONE, "\033[12m");
	check_splits(0, S(in));
}

static void
test_dcs_sos_pm_apc_strings_are_removed(void **state)
{
	static const char	in[] = "1\033P+q544e\033\\2\033Xsos\033\\3"
	    "\033^pm\a still pm\033\\4\033_Gf=100;AAAA\033\\5";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("12345"));
	assert_int_equal(r.nspans, 4);
	expect_span(&r, 0, FILTER_DCS, FILTER_END_DONE, "\033P+q544e\033\\");
	expect_span(&r, 1, FILTER_SOS, FILTER_END_DONE, "\033Xsos\033\\");
	expect_span(&r, 2, FILTER_PM, FILTER_END_DONE,
	    "\033^pm\a still pm\033\\");
	expect_span(&r, 3, FILTER_APC, FILTER_END_DONE,
	    "\033_Gf=100;AAAA\033\\");
	check_splits(0, S(in));
}

/*
 * A control string never goes on past a line end: an OSC or DCS left
 * open is cut there, and the line end and the lines after it are shown.
 */
static void
test_string_ends_at_a_line_end(void **state)
{
	static const char	in[] = "a\033]0;a title never ended\r\nb\033Pq\n"
	    "c\r\n";
	static struct rec	r;

	(void)state;
	run(&r, 0, 0, S(in), 0);
	expect_out(&r, S("a\r\nb\nc\r\n"));
	assert_int_equal(r.nspans, 2);
	expect_span(&r, 0, FILTER_OSC, FILTER_END_CUT,
	    "\033]0;a title never ended");
	expect_span(&r, 1, FILTER_DCS, FILTER_END_CUT, "\033Pq");
	assert_int_equal(r.f.cuts, 2);
	check_splits(0, S(in));
}

static void
test_pass_through_forwards_and_still_reports(void **state)
{
	static const char	in[] = "a\033[2J\033]0;t\ab\x9b" "1m\0c";
	static struct rec	r;

	(void)state;
	run(&r, 1, 0, S(in), 0);
	expect_out(&r, S(in));
	assert_int_equal(r.nspans, 4);
	expect_span(&r, 0, FILTER_CSI, FILTER_END_DONE, "\033[2J");
	assert_int_equal(r.spans[0].passed, 1);
	assert_int_equal(r.spans[1].out, 5);
	assert_int_equal(r.f.out, sizeof(in) - 1);
	check_splits(1, S(in));
}

static void
test_endless_osc_is_cut_off(void **state)
{
	static struct rec	r;
	static unsigned char	in[10000];
	size_t			i;

	(void)state;
	memcpy(in, "\033]0;", 4);
	for (i = 4; i < sizeof(in); i++)
		in[i] = 'A';
	run(&r, 0, 0, in, sizeof(in), 0);
	assert_int_equal(r.nspans, 1);
	assert_int_equal(r.spans[0].kind, FILTER_OSC);
	assert_int_equal(r.spans[0].end, FILTER_END_CUT);
	assert_int_equal(r.spans[0].len, FILTER_STRMAX);
	assert_int_equal(r.f.cuts, 1);
	assert_int_equal(r.f.bytes, FILTER_STRMAX);
	assert_int_equal(r.nout, sizeof(in) - FILTER_STRMAX);
	assert_false(filter_pending(&r.f));
	/* After the cut, a new sequence is caught again. */
	filter_feed(&r.f, (const unsigned char *)"\033[2J", 4, r.out);
	assert_int_equal(r.f.seqs, 2);
	check_splits(0, in, sizeof(in));

	/* A smaller limit, and an endless CSI. */
	memset(in, '1', sizeof(in));
	memcpy(in, "\033[", 2);
	run(&r, 0, 100, in, 1000, 0);
	assert_int_equal(r.f.cuts, 1);
	assert_int_equal(r.spans[0].kind, FILTER_CSI);
	assert_int_equal(r.spans[0].len, 100);
	assert_int_equal(r.nout, 900);
}

/*
 * A sequence is cut at the limit whichever byte brings it there, also the
 * one that turns ESC into a CSI or a string (ESC, 14 ignored NULs, then
 * "[": 16 bytes with the smallest limit).
 */
static void
test_cut_exactly_at_the_limit(void **state)
{
	static struct rec	r;
	static const char	csi[] = "\033\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
				    "[1;2Hok";
	static const char	osc[] = "\033\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
				    "]0;title";

	(void)state;
	run(&r, 0, 16, csi, sizeof(csi) - 1, 0);
	assert_int_equal(r.f.cuts, 1);
	assert_int_equal(r.spans[0].kind, FILTER_CSI);
	assert_int_equal(r.spans[0].end, FILTER_END_CUT);
	assert_int_equal(r.spans[0].len, 16);
	expect_out(&r, "1;2Hok", 6);
	run(&r, 0, 16, osc, sizeof(osc) - 1, 1);
	assert_int_equal(r.f.cuts, 1);
	assert_int_equal(r.spans[0].kind, FILTER_OSC);
	assert_int_equal(r.spans[0].len, 16);
	expect_out(&r, "0;title", 7);
}

static void
test_feeding_in_place(void **state)
{
	struct filter	f;
	unsigned char	buf[] = "a\033[1mb\033[0mc";
	size_t		n;

	(void)state;
	filter_init(&f, 0, 0, NULL, NULL);
	n = filter_feed(&f, buf, sizeof(buf) - 1, buf);
	assert_int_equal(n, 3);
	assert_memory_equal(buf, "abc", 3);
}

/* UTF-8: whole characters pass, their bytes 0x80-0x9f included. */
static void
test_utf8_characters_pass_whole(void **state)
{
	static struct rec	r;
	static const char	text[] = "don\xe2\x80\x99t \xe2\x80\x94 "
	    "caf\xc3\xa9 \xf0\x9f\x98\x80 \xc2\xa0!";

	(void)state;
	run_utf8(&r, S(text));
	expect_out(&r, S(text));
	assert_int_equal(r.nspans, 0);
	assert_int_equal(r.f.bytes, 0);
	check_splits(0, S(text));
	/* ISO-8859-1, as before: 0x80-0x9f are C1 controls. */
	run_charset = CAP_LATIN1;
	run(&r, 0, 0, S("don\xe2\x80\x99t \xe2\x80\x94 caf\xc3\xa9"), 0);
	expect_out(&r, S("don\xe2t \xe2 caf\xc3\xa9"));
}

/* UTF-8: C1 controls are the code points U+0080..U+009F. */
static void
test_utf8_c1_code_points_are_removed(void **state)
{
	static struct rec	r;
	static const char	text[] = "A\xc2\x9b" "31mB\xc2\x85" "C\xc2\x9d"
	    "0;x\xc2\x9c" "D";

	(void)state;
	run_utf8(&r, S(text));
	expect_out(&r, S("ABCD"));
	expect_span(&r, 0, FILTER_CSI, FILTER_END_DONE, "\xc2\x9b" "31m");
	expect_span(&r, 1, FILTER_CONTROL, FILTER_END_DONE, "\xc2\x85");
	expect_span(&r, 2, FILTER_OSC, FILTER_END_DONE,
	    "\xc2\x9d" "0;x\xc2\x9c");
	assert_int_equal(r.spans[0].in, 1);
	assert_int_equal(r.spans[0].len, 5);
	assert_int_equal(r.f.seqs, 2);
	assert_int_equal(r.f.bytes, 14);
	check_splits(0, S(text));
	run_charset = CAP_LATIN1;
}

/*
 * UTF-8: what is no character (a continuation byte alone, a beginning
 * cut off, an overlong form, a surrogate, F5-FF) is removed as a run of
 * kind utf8; the byte that cut a beginning off is read anew.
 */
static void
test_utf8_invalid_sequences_are_removed(void **state)
{
	static struct rec	r;
	static const char	text[] = "x\x80y\xc3z\xed\xa0\x80w\xc0\xafv"
	    "\xe0\x80\x80u\xf5!\xe2\x80\xc3\xa9";

	(void)state;
	run_utf8(&r, S(text));
	expect_out(&r, S("xyzwvu!\xc3\xa9"));
	expect_span(&r, 0, FILTER_UTF8, FILTER_END_DONE, "\x80");
	expect_span(&r, 1, FILTER_UTF8, FILTER_END_DONE, "\xc3");
	expect_span(&r, 2, FILTER_UTF8, FILTER_END_DONE, "\xed\xa0\x80");
	expect_span(&r, 3, FILTER_UTF8, FILTER_END_DONE, "\xc0\xaf");
	expect_span(&r, 4, FILTER_UTF8, FILTER_END_DONE, "\xe0\x80\x80");
	expect_span(&r, 5, FILTER_UTF8, FILTER_END_DONE, "\xf5");
	expect_span(&r, 6, FILTER_UTF8, FILTER_END_DONE, "\xe2\x80");
	assert_int_equal(r.spans[6].in, 18);
	assert_int_equal(r.f.bytes, 13);
	assert_int_equal(r.f.seqs, 0);
	check_splits(0, S(text));
	/* After ESC in a string: the string ends, ESC begins a sequence. */
	run_utf8(&r, S("\033]0;x\033\x80y!"));
	expect_out(&r, S("!"));
	expect_span(&r, 0, FILTER_OSC, FILTER_END_ABORT, "\033]0;x");
	expect_span(&r, 1, FILTER_ESC, FILTER_END_DONE, "\033\x80y");
	assert_int_equal(r.spans[1].in, 5);
	check_splits(0, S("\033]0;x\033\x80y!"));
	/* Pass-through forwards them, and reports them. */
	run(&r, 1, 0, S(text), 0);
	expect_out(&r, S(text));
	expect_span(&r, 0, FILTER_UTF8, FILTER_END_DONE, "\x80");
	run_charset = CAP_LATIN1;
}

/* UTF-8: a character is held until its last byte, and the end cuts it. */
static void
test_utf8_character_held_until_whole(void **state)
{
	static struct rec	r;

	(void)state;
	run_charset = CAP_UTF8;
	run(&r, 0, 0, S("ok\xe2\x80"), 0);
	expect_out(&r, S("ok"));
	assert_int_equal(r.nspans, 0);
	r.nout += filter_feed(&r.f, (const unsigned char *)"\x99!", 2,
	    r.out + r.nout);
	expect_out(&r, S("ok\xe2\x80\x99!"));
	r.nout += filter_feed(&r.f, (const unsigned char *)"\xf0\x9f", 2,
	    r.out + r.nout);
	assert_int_equal(r.nspans, 0);
	filter_finish(&r.f);
	expect_span(&r, 0, FILTER_UTF8, FILTER_END_DONE, "\xf0\x9f");
	assert_int_equal(r.spans[0].in, 6);
	run_charset = CAP_LATIN1;
}

/* UTF-8: a character inside a sequence is removed with it, whole. */
static void
test_utf8_character_inside_a_sequence(void **state)
{
	static struct rec	r;
	static const char	text[] = "\033]0;caf\xc3\xa9\007a\033[\xc3\xa9"
	    "b\033[1\xe2\x80\x94" "5mc";

	(void)state;
	run_utf8(&r, S(text));
	expect_out(&r, S("abc"));
	expect_span(&r, 0, FILTER_OSC, FILTER_END_DONE,
	    "\033]0;caf\xc3\xa9\007");
	/* U+00E9 counts as 'i', a final byte; U+2014 as 0xff, ignored. */
	expect_span(&r, 1, FILTER_CSI, FILTER_END_DONE, "\033[\xc3\xa9");
	expect_span(&r, 2, FILTER_CSI, FILTER_END_DONE,
	    "\033[1\xe2\x80\x94" "5m");
	check_splits(0, S(text));
	run_charset = CAP_LATIN1;
}

/* The burst rule's characters: on UTF-8, a character of several bytes is one. */
static void
test_utf8_count_characters(void **state)
{
	struct filter	f;

	(void)state;
	filter_init(&f, 0, 0, NULL, NULL);
	assert_int_equal(filter_count(&f, (const unsigned char *)
	    "caf\xc3\xa9", 5), 5);
	filter_charset(&f, CAP_UTF8);
	assert_int_equal(filter_count(&f, (const unsigned char *)
	    "caf\xc3\xa9", 5), 4);
	/* Split: the character counts with its first byte. */
	assert_int_equal(filter_count(&f, (const unsigned char *)
	    "caf\xc3", 4) + filter_count(&f, (const unsigned char *)
	    "\xa9", 1), 4);
	assert_int_equal(filter_count(&f, (const unsigned char *)
	    "\xf0\x9f\x98\x80\xe2\x80\x94", 7), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_harmless_controls_pass),
		cmocka_unit_test(test_cursor_movement_is_removed),
		cmocka_unit_test(test_title_setting_osc_bel_is_removed),
		cmocka_unit_test(test_osc52_clipboard_is_removed),
		cmocka_unit_test(test_8bit_c1_sequences_are_removed),
		cmocka_unit_test(test_split_byte_by_byte_still_caught),
		cmocka_unit_test(test_lone_controls_removed_in_runs),
		cmocka_unit_test(
		    test_a_trailing_control_run_is_reported_with_its_chunk),
		cmocka_unit_test(test_can_sub_and_new_esc_abort_a_sequence),
		cmocka_unit_test(test_line_controls_inside_a_csi_pass),
		cmocka_unit_test(test_dcs_sos_pm_apc_strings_are_removed),
		cmocka_unit_test(test_string_ends_at_a_line_end),
		cmocka_unit_test(test_pass_through_forwards_and_still_reports),
		cmocka_unit_test(test_endless_osc_is_cut_off),
		cmocka_unit_test(test_cut_exactly_at_the_limit),
		cmocka_unit_test(test_feeding_in_place),
		cmocka_unit_test(test_utf8_characters_pass_whole),
		cmocka_unit_test(test_utf8_c1_code_points_are_removed),
		cmocka_unit_test(test_utf8_invalid_sequences_are_removed),
		cmocka_unit_test(test_utf8_character_held_until_whole),
		cmocka_unit_test(test_utf8_character_inside_a_sequence),
		cmocka_unit_test(test_utf8_count_characters),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
