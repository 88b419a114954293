/*
 * Unit tests for the judge's side of the 1996 terminal convention
 * (contest/judgeterm.c).
 *
 * A scenario types keystrokes, with the entity's output to the judge's
 * screen in between where it matters, and compares three things byte for
 * byte: the judge's screen (the echo and prompts, interleaved with the
 * entity's output), what the entity receives, and the events, written as
 * "LINE(text) TURN JUDGE(4)".
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
#include "capture.h"

#define BUFLEN	4096

struct term {
	struct judgeterm jt;
	char		 screen[BUFLEN];	/* what the judge sees */
	size_t		 nscreen;
	char		 entity[BUFLEN];	/* what the entity receives */
	size_t		 nentity;
	char		 events[BUFLEN];
};

static void	 start(struct term *, int, enum judgeterm_eol);
static void	 add(char *, size_t *, const void *, size_t);
static void	 out(struct term *, const struct judgeterm_out *);
static void	 keys(struct term *, const char *, size_t);
static void	 answer(struct term *, const char *);
static void	 escape(const char *, size_t, char *, size_t);
static void	 expect(const char *, const char *, size_t, const char *,
		    size_t);
static void	 expect_term(const struct term *, const char *, size_t,
		    const char *, size_t, const char *);

/* Start a scenario. */
static void
start(struct term *t, int localecho, enum judgeterm_eol eol)
{
	memset(t, 0, sizeof(*t));
	judgeterm_init(&t->jt, localecho, eol);
}

/* Append bytes to a buffer. */
static void
add(char *buf, size_t *n, const void *p, size_t len)
{
	if (*n + len > BUFLEN)
		fail_msg("test buffer full");
	memcpy(buf + *n, p, len);
	*n += len;
}

/* Collect what one keystroke gave. */
static void
out(struct term *t, const struct judgeterm_out *o)
{
	char	ev[JUDGETERM_LINEMAX + 32];
	size_t	n;

	add(t->screen, &t->nscreen, o->echo, o->necho);
	add(t->entity, &t->nentity, o->entity, o->nentity);
	switch (o->event) {
	case JUDGETERM_NONE:
		return;
	case JUDGETERM_LINE:
		snprintf(ev, sizeof(ev), "LINE(%s)", o->line);
		break;
	case JUDGETERM_TURN:
		snprintf(ev, sizeof(ev), "TURN");
		break;
	case JUDGETERM_JUDGE:
		snprintf(ev, sizeof(ev), "JUDGE(%d)", o->judge);
		break;
	}
	n = strlen(t->events);
	snprintf(t->events + n, sizeof(t->events) - n, "%s%s",
	    n > 0 ? " " : "", ev);
}

/* Type keystrokes, one byte at a time. */
static void
keys(struct term *t, const char *s, size_t n)
{
	struct judgeterm_out	o;
	size_t			i;

	for (i = 0; i < n; i++) {
		judgeterm_byte(&t->jt, (unsigned char)s[i], &o);
		out(t, &o);
	}
}

/* The entity writes to the judge's screen, through the screen's model. */
static void
answer(struct term *t, const char *s)
{
	static char	buf[VIEW_OUTLEN(256)];
	size_t		n;

	n = view_output(&t->jt.view, (const unsigned char *)s, strlen(s), 0,
	    buf);
	add(t->screen, &t->nscreen, buf, n);
}

/* Write bytes as a C string literal, for messages. */
static void
escape(const char *p, size_t n, char *buf, size_t len)
{
	size_t	i, o = 0;

	for (i = 0; i < n && o + 5 < len; i++) {
		if (p[i] == '\r')
			o += (size_t)snprintf(buf + o, len - o, "\\r");
		else if (p[i] == '\n')
			o += (size_t)snprintf(buf + o, len - o, "\\n");
		else if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			buf[o++] = p[i];
		else
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x",
			    (unsigned char)p[i]);
	}
	buf[o] = '\0';
}

/* Fail unless got is exactly want. */
static void
expect(const char *what, const char *got, size_t ngot, const char *want,
    size_t nwant)
{
	char	g[BUFLEN], w[BUFLEN];

	if (ngot == nwant && memcmp(got, want, ngot) == 0)
		return;
	escape(got, ngot, g, sizeof(g));
	escape(want, nwant, w, sizeof(w));
	fail_msg("%s\n  expected: \"%s\"\n       got: \"%s\"", what, w, g);
}

/* Fail unless screen, entity and events are exactly these. */
static void
expect_term(const struct term *t, const char *screen, size_t nscreen,
    const char *entity, size_t nentity, const char *events)
{
	expect("judge's screen", t->screen, t->nscreen, screen, nscreen);
	expect("to the entity", t->entity, t->nentity, entity, nentity);
	expect("events", t->events, strlen(t->events), events,
	    strlen(events));
}

#define S(lit)	(lit), sizeof(lit) - 1

static void
test_prompt_and_echo(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("Hi"));
	expect_term(&t, S(">Hi"), S("Hi"), "");
	keys(&t, S(" there\r"));
	expect_term(&t, S(">Hi there\r\n>"), S("Hi there\r"),
	    "LINE(Hi there)");
	keys(&t, S("How\r\r"));
	expect_term(&t, S(">Hi there\r\n>How\r\n>\r\n"),
	    S("Hi there\rHow\r\r"), "LINE(Hi there) LINE(How) TURN");
}

static void
test_the_1996_example_screen(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	answer(&t, "[some program comment-completed]\r\n");
	keys(&t, S("@@04\r\r"));
	answer(&t, "Welcome judge 4\r\n");
	keys(&t, S(" Do you think that the\r"
	    " Republicans can succeed\r"
	    " in winning the White House?\r\r"));
	answer(&t, "Only if Newt succeeds in\r\n"
	    "developing a more tolerant image.\r\n");
	keys(&t, S("Wh"));
	expect_term(&t, S(
	    "[some program comment-completed]\r\n"
	    ">@@04\r\n"
	    ">\r\n"
	    "Welcome judge 4\r\n"
	    "> Do you think that the\r\n"
	    "> Republicans can succeed\r\n"
	    "> in winning the White House?\r\n"
	    ">\r\n"
	    "Only if Newt succeeds in\r\n"
	    "developing a more tolerant image.\r\n"
	    ">Wh"),
	    S("@@04\r\r Do you think that the\r Republicans can succeed\r"
	    " in winning the White House?\r\rWh"),
	    "JUDGE(4) TURN LINE( Do you think that the) "
	    "LINE( Republicans can succeed) "
	    "LINE( in winning the White House?) TURN");
}

static void
test_prompt_after_an_answer_left_in_mid_line(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("Why?\r\r"));
	answer(&t, "Because.");
	keys(&t, S("Ok"));
	expect_term(&t, S(">Why?\r\n>\r\nBecause.\r\n>Ok"), S("Why?\r\rOk"),
	    "LINE(Why?) TURN");

	/* The entity writes over an early prompt: a fresh one. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("a\r"));
	answer(&t, "hm\r\n");
	keys(&t, S("b"));
	expect_term(&t, S(">a\r\n>\b \bhm\r\n>b"), S("a\rb"), "LINE(a)");

	/* A prompt on demand, at link start. */
	start(&t, 0, JUDGETERM_EOL_CR);
	{
		struct judgeterm_out	o;

		judgeterm_prompt(&t.jt, &o);
		out(&t, &o);
		judgeterm_prompt(&t.jt, &o);
		out(&t, &o);
	}
	keys(&t, S("x"));
	expect_term(&t, S(">x"), S("x"), "");
}

static void
test_an_unused_prompt_is_taken_back(void **state)
{
	static struct term	t;

	(void)state;
	/* After a line of the turn: the prompt goes, the entity's text
	 * begins the line, and the next key prompts again below it. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("a\r"));
	answer(&t, "hm");
	keys(&t, S("b"));
	expect_term(&t, S(">a\r\n>\b \bhm\r\n>b"), S("a\rb"), "LINE(a)");

	/* At link start, before anything was typed. */
	start(&t, 0, JUDGETERM_EOL_CR);
	{
		struct judgeterm_out	o;

		judgeterm_prompt(&t.jt, &o);
		out(&t, &o);
	}
	answer(&t, "Hello\r\n");
	keys(&t, S("x"));
	expect_term(&t, S(">\b \bHello\r\n>x"), S("x"), "");

	/* A line with text: taken off, drawn again below the output. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("ab"));
	answer(&t, "Hi");
	keys(&t, S("c"));
	expect_term(&t, S(">ab\033[3D\033[KHi\r\n>abc"), S("abc"), "");
}

/*
 * One grammar of "@@nn": every line the judge's terminal reports as a
 * judge change is one for the transcript, and no other.
 */
static void
test_announcements_are_those_of_the_transcript(void **state)
{
	static const char *lines[] = {
		"@@04", " @@07 ", "@@3", "\t@@12\t", "@@123", "@@", "@@ab",
		"@ @04", "x@@04", "@@05x", "@@ 5", "@@99", "@@00", " ",
	};
	struct judgeterm_out	 o;
	struct judgeterm	 jt;
	size_t			 i, k;
	int			 live;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		judgeterm_init(&jt, 0, JUDGETERM_EOL_CR);
		live = -1;
		for (k = 0; k <= strlen(lines[i]); k++) {
			judgeterm_byte(&jt, k < strlen(lines[i]) ?
			    (unsigned char)lines[i][k] : '\r', &o);
			if (o.event == JUDGETERM_JUDGE)
				live = o.judge;
		}
		if (live != tx_line_announced(lines[i], strlen(lines[i])))
			fail_msg("\"%s\": judge terminal %d, transcript %d",
			    lines[i], live,
			    tx_line_announced(lines[i], strlen(lines[i])));
	}
}

static void
test_local_echo_option(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 1, JUDGETERM_EOL_CR);
	{
		struct judgeterm_out	o;

		judgeterm_prompt(&t.jt, &o);	/* the link made */
		out(&t, &o);
	}
	/*
	 * No echo, but the cursor put back after the terminal's BS (CR,
	 * CUF) and the erase drawn, and the next prompt at the end of the
	 * turn, before the judge's next key shows.
	 */
	keys(&t, S("Hi\rthere\b\b\r\r"));
	expect_term(&t, S(">>\r\033[6C\b \b\r\033[5C\b \b>>"),
	    S("Hi\rthere\b\b\r\r"), "LINE(Hi) LINE(the) TURN");
	/* An answer left in mid-row: the key shown there is taken back. */
	answer(&t, "Yes.");
	keys(&t, S("x"));
	expect_term(&t, S(">>\r\033[6C\b \b\r\033[5C\b \b>>\b \bYes."
	    "\033[1D\033[K\r\n>x"), S("Hi\rthere\b\b\r\rx"),
	    "LINE(Hi) LINE(the) TURN");

	/* An answer that ends its row: the prompt with it, no more. */
	start(&t, 1, JUDGETERM_EOL_CR);
	keys(&t, S("a\r\r"));
	answer(&t, "Yes.\r\n");
	keys(&t, S("b"));
	expect_term(&t, S("\033[1D\033[K>a>>\b \bYes.\r\n>"),
	    S("a\r\rb"), "LINE(a) TURN");
}

static void
test_backspace_and_delete_erase(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("ab\bc\x7f" "d\r"));
	expect_term(&t, S(">ab\b \bc\b \bd\r\n>"), S("ab\bc\x7f" "d\r"),
	    "LINE(ad)");

	/* Never the prompt; the entity still gets every keystroke. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("\ba\b\b\x7fz"));
	expect_term(&t, S(">a\b \bz"), S("\ba\b\b\x7fz"), "");
}

static void
test_every_line_end_variant_is_one_line_end(void **state)
{
	static const char *ends[] = { "\r", "\n", "\r\n", "\n\r" };
	static struct term	t;
	char			in[64], ent[64];
	size_t			i;
	int			n;

	(void)state;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		start(&t, 0, JUDGETERM_EOL_CR);
		n = snprintf(in, sizeof(in), "a%sb%sc%s", ends[i], ends[i],
		    ends[i]);
		keys(&t, in, (size_t)n);
		n = snprintf(ent, sizeof(ent), "a\rb\rc\r");
		expect_term(&t, S(">a\r\n>b\r\n>c\r\n>"), ent, (size_t)n,
		    "LINE(a) LINE(b) LINE(c)");

		/* The same end twice is the end of the turn. */
		start(&t, 0, JUDGETERM_EOL_CR);
		n = snprintf(in, sizeof(in), "q%s%s", ends[i], ends[i]);
		keys(&t, in, (size_t)n);
		expect_term(&t, S(">q\r\n>\r\n"), S("q\r\r"), "LINE(q) TURN");
	}
}

static void
test_a_lone_lf_after_cr_is_no_second_line_end(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("a\r\n"));
	expect_term(&t, S(">a\r\n>"), S("a\r"), "LINE(a)");
	keys(&t, S("b\n\r"));
	expect_term(&t, S(">a\r\n>b\r\n>"), S("a\rb\r"), "LINE(a) LINE(b)");
	/* A third byte after a pair is a new line end: the turn ends. */
	keys(&t, S("c\r\n\n"));
	expect_term(&t, S(">a\r\n>b\r\n>c\r\n>\r\n"), S("a\rb\rc\r\r"),
	    "LINE(a) LINE(b) LINE(c) TURN");
}

static void
test_double_cr_and_crlf_crlf_end_the_turn(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("Are you human?\r\r"));
	expect_term(&t, S(">Are you human?\r\n>\r\n"), S("Are you human?\r\r"),
	    "LINE(Are you human?) TURN");

	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("Are you human?\r\n\r\n"));
	expect_term(&t, S(">Are you human?\r\n>\r\n"), S("Are you human?\r\r"),
	    "LINE(Are you human?) TURN");

	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("Are you human?\n\r\n\r"));
	expect_term(&t, S(">Are you human?\r\n>\r\n"), S("Are you human?\r\r"),
	    "LINE(Are you human?) TURN");

	/* Not consecutive: a keystroke between them, even one erased. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("a\rx\b\r"));
	expect_term(&t, S(">a\r\n>x\b \b\r\n>"), S("a\rx\b\r"),
	    "LINE(a) LINE()");

	/* After a turn, counting starts again. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("a\r\r\r\r"));
	expect_term(&t, S(">a\r\n>\r\n>\r\n>\r\n"), S("a\r\r\r\r"),
	    "LINE(a) TURN LINE() TURN");
}

static void
test_judge_announcement_with_one_and_two_crs(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("@@04\r\r"));
	expect_term(&t, S(">@@04\r\n>\r\n"), S("@@04\r\r"), "JUDGE(4) TURN");

	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("@@04\rHello\r"));
	expect_term(&t, S(">@@04\r\n>Hello\r\n>"), S("@@04\rHello\r"),
	    "JUDGE(4) LINE(Hello)");

	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("@@12\r\n\r\n"));
	expect_term(&t, S(">@@12\r\n>\r\n"), S("@@12\r\r"), "JUDGE(12) TURN");

	/* Blanks around, one digit, an edited line. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S(" @@07 \r@@3\r@@05\b4\r"));
	assert_string_equal(t.events, "JUDGE(7) JUDGE(3) JUDGE(4)");

	/* Not announcements. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("@@123\r@@\r@@ab\r@ @04\rx@@04\r"));
	assert_string_equal(t.events, "LINE(@@123) LINE(@@) LINE(@@ab) "
	    "LINE(@ @04) LINE(x@@04)");
}

static void
test_entity_line_end_options(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_LF);
	keys(&t, S("a\rb\r\n\n\r"));
	expect("lf", t.entity, t.nentity, S("a\nb\n\n"));

	start(&t, 0, JUDGETERM_EOL_CRLF);
	keys(&t, S("a\nb\n\r\r\n"));
	expect("crlf", t.entity, t.nentity, S("a\r\nb\r\n\r\n"));

	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("a\nb\r\n"));
	expect("cr", t.entity, t.nentity, S("a\rb\r"));

	start(&t, 0, JUDGETERM_EOL_ASIS);
	keys(&t, S("a\nb\r\nc\n\r"));
	expect("asis", t.entity, t.nentity, S("a\nb\r\nc\n\r"));
	assert_string_equal(t.events, "LINE(a) LINE(b) LINE(c)");
}

static void
test_key_sequences_and_controls_are_not_echoed(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("\033[A\033OB\033[15~\x03\x9b" "1;5C\tx\033y\r"));
	/* Dropped: neither echoed nor sent; the tab to column 8. */
	expect_term(&t, S(">       x\r\n>"), S("\tx\r"), "LINE(       x)");
	/* High Latin-1 bytes are text. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("caf\xe9\r"));
	expect_term(&t, S(">caf\xe9\r\n>"), S("caf\xe9\r"),
	    "LINE(caf\xc3\xa9)");
}

/*
 * A line holds JUDGETERM_LINEMAX bytes: past that its first rows are
 * handed out, and every key still goes on to the entity.
 */
static void
test_a_long_line_is_kept_in_part(void **state)
{
	static struct term	t;
	struct judgeterm_out	o;
	size_t			i, sent = 0;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	for (i = 0; i < JUDGETERM_LINEMAX + 10; i++) {
		judgeterm_byte(&t.jt, '@', &o);
		sent += o.nentity;
	}
	assert_int_equal(sent, JUDGETERM_LINEMAX + 10);
	judgeterm_byte(&t.jt, '\r', &o);
	assert_int_equal(o.event, JUDGETERM_LINE);
	/* 1034 keys: ">" and 79 on the first row, 80 a row after it. */
	assert_int_equal(o.linelen, (JUDGETERM_LINEMAX + 10 - 79) % 80);
}

/* A terminal's ENQ is no key: not echoed, not sent, not in the line. */
static void
test_enq_is_no_key(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("\x05Hi\x05\r"));
	expect_term(&t, S(">Hi\r\n>"), S("Hi\r"), "LINE(Hi)");
}

static void
test_the_announcement_bytes(void **state)
{
	unsigned char	buf[JUDGETERM_ANNOUNCEMAX];
	enum judgeterm_eol eol;

	(void)state;
	assert_int_equal(judgeterm_announce(4, JUDGETERM_EOL_CR, buf,
	    sizeof(buf)), 6);
	assert_memory_equal(buf, "@@04\r\r", 6);
	assert_int_equal(judgeterm_announce(12, JUDGETERM_EOL_CRLF, buf,
	    sizeof(buf)), 8);
	assert_memory_equal(buf, "@@12\r\n\r\n", 8);
	assert_int_equal(judgeterm_announce(0, JUDGETERM_EOL_LF, buf,
	    sizeof(buf)), 6);
	assert_memory_equal(buf, "@@00\n\n", 6);
	assert_int_equal(judgeterm_announce(99, JUDGETERM_EOL_ASIS, buf,
	    sizeof(buf)), 6);
	assert_memory_equal(buf, "@@99\r\r", 6);
	assert_int_equal(judgeterm_announce(100, JUDGETERM_EOL_CR, buf,
	    sizeof(buf)), 0);
	assert_int_equal(judgeterm_announce(-1, JUDGETERM_EOL_CR, buf,
	    sizeof(buf)), 0);
	assert_int_equal(judgeterm_announce(4, JUDGETERM_EOL_CRLF, buf, 7), 0);

	assert_int_equal(judgeterm_eol_parse("crlf", &eol), 0);
	assert_int_equal(eol, JUDGETERM_EOL_CRLF);
	assert_string_equal(judgeterm_eol_name(eol), "crlf");
	assert_int_equal(judgeterm_eol_parse("CRLF", &eol), -1);
}

/*
 * UTF-8: a character is echoed whole when its last byte comes, and an
 * erase takes it back whole; the entity gets the keystrokes as typed.
 */
static void
test_utf8_characters_are_echoed_and_erased_whole(void **state)
{
	static struct term	t;

	(void)state;
	start(&t, 0, JUDGETERM_EOL_CR);
	judgeterm_charset(&t.jt, CAP_UTF8);
	keys(&t, S("caf\xc3\xa9\x7f\xc3\xa9\xe2\x80\x99\x08!\r"));
	expect_term(&t, S(">caf\xc3\xa9\b \b\xc3\xa9\xe2\x80\x99\b \b!\r\n>"),
	    S("caf\xc3\xa9\x7f\xc3\xa9\xe2\x80\x99\x08!\r"),
	    "LINE(caf\xc3\xa9!)");
	/* A C1 control, a byte that begins nothing: not echoed. */
	start(&t, 0, JUDGETERM_EOL_CR);
	judgeterm_charset(&t.jt, CAP_UTF8);
	keys(&t, S("a\xc2\x9b\x80\xe2z\r"));
	expect_term(&t, S(">az\r\n>"), S("az\r"), "LINE(az)");
	/* A UTF-8 terminal, an ISO-8859-1 entity: keys sent converted. */
	start(&t, 0, JUDGETERM_EOL_CR);
	judgeterm_charset(&t.jt, CAP_LATIN1);
	judgeterm_terminal(&t.jt, CAP_UTF8);
	keys(&t, S("\xe2\x80\x9c\xc3\xa9\xe2\x80\x9d\xe6\x97\xa5\\\t\r"));
	expect("to a Latin-1 entity", t.entity, t.nentity,
	    S("\"\xe9\"?\\\t\r"));
	/* ISO-8859-1: each byte is a character. */
	start(&t, 0, JUDGETERM_EOL_CR);
	keys(&t, S("caf\xc3\xa9\x7f\r"));
	expect_term(&t, S(">caf\xc3\xa9\b \b\r\n>"), S("caf\xc3\xa9\x7f\r"),
	    "LINE(caf\xc3\x83)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prompt_and_echo),
		cmocka_unit_test(test_the_1996_example_screen),
		cmocka_unit_test(test_prompt_after_an_answer_left_in_mid_line),
		cmocka_unit_test(test_an_unused_prompt_is_taken_back),
		cmocka_unit_test(test_announcements_are_those_of_the_transcript),
		cmocka_unit_test(test_local_echo_option),
		cmocka_unit_test(test_backspace_and_delete_erase),
		cmocka_unit_test(test_every_line_end_variant_is_one_line_end),
		cmocka_unit_test(test_a_lone_lf_after_cr_is_no_second_line_end),
		cmocka_unit_test(test_double_cr_and_crlf_crlf_end_the_turn),
		cmocka_unit_test(test_judge_announcement_with_one_and_two_crs),
		cmocka_unit_test(test_entity_line_end_options),
		cmocka_unit_test(test_key_sequences_and_controls_are_not_echoed),
		cmocka_unit_test(test_a_long_line_is_kept_in_part),
		cmocka_unit_test(test_the_announcement_bytes),
		cmocka_unit_test(test_enq_is_no_key),
		cmocka_unit_test(
		    test_utf8_characters_are_echoed_and_erased_whole),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
