/*
 * Unit tests for the judge's screen (text/view.c).  Each case is
 * a stream of the judge's keys and the entity's output; it runs through
 * the live path (the filter, then the view, as muxd runs them, into a
 * terminal emulator: libvterm) and through render (the transcript writer
 * fed the capture's events), and the rows the terminal shows must be the
 * transcript's lines, in order, in both character sets where the case
 * reads in both.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <vterm.h>

#include "capture.h"

#define ROWS	200
#define COLS	80
#define MAXROWS	256

struct run {
	struct view	 v;		/* the live screen, as muxd's */
	struct filter	 f;
	struct tx_writer *tx;		/* render */
	VTerm		*vt;		/* the judge's terminal */
	VTermScreen	*vs;
	enum cap_encoding cs;		/* the link's */
	enum cap_encoding tcs;		/* the judge's terminal's */
	int		 localecho;	/* how the terminal echoes the keys:
					   an enum view_echo */
	int64_t		 usec;
	char		*screen[MAXROWS];	/* what the terminal shows */
	size_t		 nscreen;
	char		*record[MAXROWS];	/* the transcript's lines */
	size_t		 nrecord;
	char		 out[VIEW_OUTLEN(4096)];
};

static void	run_term(struct run *, const char *, size_t);

/*
 * Start a run: the link's character set, the terminal's, and whether
 * the terminal echoes the keys itself, and how (enum view_echo: then
 * muxd's prompt is written at once, as muxd writes it when the link is
 * made).
 */
static void
run_start3(struct run *r, enum cap_encoding cs, enum cap_encoding tcs,
    int localecho)
{
	struct cap_meta		m;
	struct cap_error	e;
	size_t			n;

	memset(r, 0, sizeof(*r));
	r->cs = cs;
	r->tcs = tcs;
	r->localecho = localecho;
	view_init(&r->v, 0, 1, cs, VIEW_PROMPT | view_local_flags(localecho),
	    NULL, NULL);
	view_terminal(&r->v, tcs);
	filter_init(&r->f, 0, 0, NULL, NULL);
	filter_charset(&r->f, cs);
	cap_meta_init(&m);
	m.judge = 1;
	m.charset = cs;
	m.tcharset = (int)tcs;
	m.utc_offset = 0;
	m.localecho = localecho;
	assert_int_equal(tx_write_memopen(&m, &r->tx, &e), CAP_OK);
	assert_non_null(r->vt = vterm_new(ROWS, COLS));
	vterm_set_utf8(r->vt, 1);
	r->vs = vterm_obtain_screen(r->vt);
	vterm_screen_reset(r->vs, 1);
	if (localecho) {
		n = view_prompt(&r->v, r->out);
		run_term(r, r->out, n);
	}
}

/* Start a run: the link's character set, the terminal's. */
static void
run_start2(struct run *r, enum cap_encoding cs, enum cap_encoding tcs)
{
	run_start3(r, cs, tcs, 0);
}

/* Start a run in a character set, link and terminal alike. */
static void
run_start(struct run *r, enum cap_encoding cs)
{
	run_start2(r, cs, cs);
}

/* Write the live screen's bytes to the terminal, UTF-8 as it reads. */
static void
run_term(struct run *r, const char *p, size_t n)
{
	char	u[2];
	size_t	i;

	if (r->tcs == CAP_UTF8) {
		vterm_input_write(r->vt, p, n);
		return;
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)p[i] < 0x80) {
			vterm_input_write(r->vt, p + i, 1);
			continue;
		}
		u[0] = (char)(0xc0 | ((unsigned char)p[i] >> 6));
		u[1] = (char)(0x80 | ((unsigned char)p[i] & 0x3f));
		vterm_input_write(r->vt, u, 2);
	}
}

/* The judge types keys: the live screen, then the capture's event. */
static void
keys(struct run *r, const char *p, size_t n)
{
	struct view_key		k;
	struct cap_error	e;
	size_t			i, m;

	r->usec += 100000;
	for (i = 0; i < n; i++) {
		/* A terminal's own echo: the key, Enter as CR LF or CR. */
		if (r->localecho == VIEW_ECHO_CR && p[i] == '\r')
			run_term(r, "\r", 1);
		else if (r->localecho && p[i] == '\r')
			run_term(r, "\r\n", 2);
		else if (r->localecho && p[i] != 0x7f)
			run_term(r, p + i, 1);
		m = view_key(&r->v, (unsigned char)p[i], r->usec, &k, r->out);
		run_term(r, r->out, m);
	}
	assert_int_equal(tx_write_event(r->tx, CAP_INPUT, p, n, r->usec, &e),
	    CAP_OK);
}

/* The entity writes: filtered, the live screen, the capture's event. */
static void
output(struct run *r, const char *p, size_t n)
{
	unsigned char		 shown[4096 + FILTER_HELDMAX];
	struct cap_error	 e;
	size_t			 m;

	r->usec += 100000;
	m = filter_feed(&r->f, (const unsigned char *)p, n, shown);
	m = view_output(&r->v, shown, m, r->usec, r->out);
	run_term(r, r->out, m);
	assert_int_equal(tx_write_event(r->tx, CAP_OUTPUT, p, n, r->usec,
	    &e), CAP_OK);
}

#define K(r, s)	keys((r), (s), sizeof(s) - 1)
#define O(r, s)	output((r), (s), sizeof(s) - 1)

/* Undo a transcript line's escapes: "\\" and "\xHH". */
static char *
unescape(const char *s, size_t n)
{
	char	*o = malloc(n + 1), *p = o;
	size_t	 i;

	assert_non_null(o);
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
			*p++ = '\\';
			i++;
		} else if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x') {
			*p++ = (char)strtol((char[]){ s[i + 2], s[i + 3], 0 },
			    NULL, 16);
			i += 3;
		} else
			*p++ = s[i];
	}
	*p = '\0';
	return (o);
}

/*
 * End a run: the screen's rows (a prompt taken off the judge's, rows of
 * nothing but a prompt and blank rows left out) and the transcript's
 * lines (text only); fail unless they are the same.
 */
static void
run_end(struct run *r)
{
	struct cap_error	 e;
	VTermRect		 rect;
	const char		*buf, *p, *q, *nl;
	char			 row[COLS * 8 + 1];
	size_t			 n, len, i;
	int			 y;

	assert_int_equal(tx_write_finish(r->tx, &e), CAP_OK);
	buf = tx_write_buffer(r->tx, &len);
	for (p = buf; p < buf + len; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(buf + len - p))) == NULL)
			nl = buf + len;
		if ((strncmp(p, "JUDGE", 5) == 0 || strncmp(p, "PROGRAM[",
		    8) == 0) && (q = memchr(p, ']', (size_t)(nl - p))) !=
		    NULL) {
			assert_true(r->nrecord < MAXROWS);
			r->record[r->nrecord++] = unescape(q + 1,
			    (size_t)(nl - q - 1));
		}
	}
	for (y = 0; y < ROWS; y++) {
		rect.start_row = y;
		rect.end_row = y + 1;
		rect.start_col = 0;
		rect.end_col = COLS;
		n = vterm_screen_get_text(r->vs, row, sizeof(row) - 1, rect);
		while (n > 0 && row[n - 1] == ' ')
			n--;
		row[n] = '\0';
		p = row[0] == '>' ? row + 1 : row;
		if (*p == '\0')
			continue;
		assert_true(r->nscreen < MAXROWS);
		assert_non_null(r->screen[r->nscreen++] = strdup(p));
	}
	for (i = 0; i < r->nscreen || i < r->nrecord; i++) {
		if (i < r->nscreen && i < r->nrecord &&
		    strcmp(r->screen[i], r->record[i]) == 0)
			continue;
		for (n = 0; n < r->nscreen; n++)
			print_message("screen %zu: [%s]\n", n, r->screen[n]);
		for (n = 0; n < r->nrecord; n++)
			print_message("record %zu: [%s]\n", n, r->record[n]);
		fail_msg("row %zu: the screen shows [%s], the record [%s]", i,
		    i < r->nscreen ? r->screen[i] : "(none)",
		    i < r->nrecord ? r->record[i] : "(none)");
	}
}

/* Free a run. */
static void
run_free(struct run *r)
{
	size_t	i;

	for (i = 0; i < r->nscreen; i++)
		free(r->screen[i]);
	for (i = 0; i < r->nrecord; i++)
		free(r->record[i]);
	tx_write_free(r->tx);
	vterm_free(r->vt);
}

/* Fail unless row i of the record (and so of the screen) is want. */
static void
row_is(struct run *r, size_t i, const char *want)
{
	if (i >= r->nrecord)
		fail_msg("no row %zu, wanted [%s]", i, want);
	if (strcmp(r->record[i], want) != 0)
		fail_msg("row %zu: [%s], wanted [%s]", i, r->record[i], want);
}

/* Fail unless the record has n rows. */
static void
rows_are(struct run *r, size_t n)
{
	if (r->nrecord != n)
		fail_msg("%zu rows, wanted %zu", r->nrecord, n);
}

static struct run	R;

/* Chatbot text: typographic punctuation, emoji, CJK, marks, RTL. */
static void
test_chatbot_text(void **state)
{
	struct run	*r = &R;

	(void)state;
	run_start(r, CAP_UTF8);
	O(r, "\xe2\x80\x9cHello,\xe2\x80\x9d she said \xe2\x80\x94 it\xe2\x80"
	    "\x99s fine\xe2\x80\xa6\r\n");
	O(r, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80 ok\r\n");
	O(r, "cafe\xcc\x81 na\xc3\xafve\r\n");
	O(r, "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xd7\xa2\xd7\x95\xd7\x9c\xd7"
	    "\x9d\r\n");
	K(r, "ok\r\r");
	run_end(r);
	row_is(r, 0, "\xe2\x80\x9cHello,\xe2\x80\x9d she said \xe2\x80\x94 "
	    "it\xe2\x80\x99s fine\xe2\x80\xa6");
	row_is(r, 1, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80 "
	    "ok");
	row_is(r, 2, "cafe\xcc\x81 na\xc3\xafve");
	rows_are(r, 5);
	run_free(r);
}

/* Wide characters take two columns: erased whole, wrapped by columns. */
static void
test_wide_characters(void **state)
{
	struct run	*r = &R;
	int		 i;

	(void)state;
	run_start(r, CAP_UTF8);
	/* The entity erases a CJK character and an emoji: both go whole. */
	O(r, "\xc3\xa9\xe6\x97\xa5\b\xf0\x9f\x98\x80\x7fQ\r\n");
	/* 40 CJK characters fill the 80 columns; the 41st begins a row. */
	for (i = 0; i < 41; i++)
		O(r, "\xe4\xb8\xad");
	O(r, "\r\n");
	/* The judge types wide characters across the wrap, erases back. */
	for (i = 0; i < 45; i++)
		K(r, "\xe5\xad\x97");
	for (i = 0; i < 8; i++)
		K(r, "\x7f");
	K(r, "!\r\r");
	run_end(r);
	row_is(r, 0, "\xc3\xa9Q");
	assert_int_equal(strlen(r->record[1]), 40 * 3);
	row_is(r, 2, "\xe4\xb8\xad");
	/* ">" and 39 fill 79 columns, 6 wrap; 8 erased, the 38th is "!". */
	assert_int_equal(strlen(r->record[3]), 37 * 3 + 1);
	assert_string_equal(r->record[3] + 37 * 3, "!");
	rows_are(r, 4);
	run_free(r);
}

/*
 * Widths as terminals count them: a spacing mark takes a column, a
 * syllable's jamo join it; erasing what has marks or is wide writes the
 * row again, so that no terminal loses more than the character.
 */
static void
test_marks_and_jamo(void **state)
{
	struct run	*r = &R;
	int		 i;

	(void)state;
	run_start(r, CAP_UTF8);
	/* 50 Devanagari "ki": 100 columns, wrapped at 80. */
	for (i = 0; i < 50; i++)
		O(r, "\xe0\xa4\x95\xe0\xa4\xbf");
	O(r, "\r\n");
	/* Hangul in jamo (NFD), one syllable of two columns, erased whole. */
	O(r, "x\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab\bY\r\n");
	/* e and a combining acute, erased whole; the judge likewise. */
	O(r, "cafe\xcc\x81\x7f\xc3\xa9!\r\n");
	K(r, "nai\xcc\x88\x7f\xc3\xafve\r\r");
	run_end(r);
	assert_int_equal(strlen(r->record[0]), 40 * 6);
	assert_int_equal(strlen(r->record[1]), 10 * 6);
	row_is(r, 2, "xY");
	row_is(r, 3, "caf\xc3\xa9!");
	row_is(r, 4, "na\xc3\xafve");
	run_free(r);
}

/* What the filter keeps from the judge is in no row. */
static void
test_filtered_output(void **state)
{
	struct run	*r = &R;
	int		 cs;

	(void)state;
	for (cs = 0; cs < 2; cs++) {
		run_start(r, cs ? CAP_UTF8 : CAP_LATIN1);
		/* An OSC never ended: cut at the line end, the rest shown. */
		O(r, "one\x1b]0;a title that never ends\r\ntwo\r\nthree\r\n");
		/* OSC 52 (the clipboard), a title, CSI colours, clear. */
		O(r, "\x1b]52;c;aGVsbG8=\x07" "clip\x1b]2;t\x1b\\\r\n");
		O(r, "\x1b[2J\x1b[31mred\x1b[0m\r\n");
		/* Invalid UTF-8 (on ISO-8859-1, letters). */
		O(r, "x\xff" "y\r\n");
		run_end(r);
		row_is(r, 0, "one");
		row_is(r, 1, "two");
		row_is(r, 2, "three");
		row_is(r, 3, "clip");
		row_is(r, 4, "red");
		row_is(r, 5, cs ? "xy" : "x\xc3\xbfy");
		rows_are(r, 6);
		run_free(r);
	}
}

/* In an 8-bit room a lone 0x9d (OSC) hides no line. */
static void
test_latin1_c1(void **state)
{
	struct run	*r = &R;

	(void)state;
	run_start(r, CAP_LATIN1);
	/* U+201D written as UTF-8 to an ISO-8859-1 room: E2 80 9D. */
	O(r, "he said \xe2\x80\x9dyes\r\nsecond line\r\nthird line\r\n");
	run_end(r);
	row_is(r, 0, "he said \xc3\xa2");
	row_is(r, 1, "second line");
	row_is(r, 2, "third line");
	run_free(r);
}

/* The judge's editing: erase across the wrap, tabs, dropped keys. */
static void
test_judge_editing(void **state)
{
	struct run	*r = &R;
	int		 i, cs;

	(void)state;
	for (cs = 0; cs < 2; cs++) {
		run_start(r, cs ? CAP_UTF8 : CAP_LATIN1);
		for (i = 0; i < 10; i++)
			K(r, "word word ");
		/* 100 typed, 30 erased: back across the wrap at 79. */
		for (i = 0; i < 30; i++)
			K(r, "\b");
		K(r, "END\r");
		/* Arrow keys, function keys, Ctrl-L, Ctrl-C: dropped. */
		K(r, "wor\x1b[D\x1b[Dld\x0c\x03\x1bOP\x1b[15~!\r");
		/* A tab to the next 8-column stop, erased whole. */
		K(r, "a\tb\t\x7f" "c\r\r");
		run_end(r);
		row_is(r, 0, "word word word word word word word word word "
		    "word word word word word END");
		row_is(r, 1, "world!");
		row_is(r, 2, "a      b" "c");
		rows_are(r, 3);
		run_free(r);
	}
}

/* The entity writes while the judge types: the line drawn again below. */
static void
test_interleaving(void **state)
{
	struct run	*r = &R;

	(void)state;
	run_start(r, CAP_UTF8);
	K(r, "hello wor");
	O(r, "Interrupting");
	O(r, " you!\r\n");
	K(r, "ld\r");
	/* The entity's row begun, the judge ends a line: in screen order. */
	O(r, "Hel");
	K(r, "hi\r");
	O(r, "lo\r\n");
	/* The judge's line across the wrap, redrawn under output. */
	K(r, "0123456789012345678901234567890123456789012345678901234567890"
	    "123456789012345678901234567890");
	O(r, "x\b\by\r\n");
	K(r, "\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b"
	    "\b\b\r\r");
	run_end(r);
	row_is(r, 0, "Interrupting you!");
	row_is(r, 1, "hello world");
	row_is(r, 2, "Hel");
	row_is(r, 3, "hi");
	row_is(r, 4, "lo");
	row_is(r, 5, "y");
	row_is(r, 6, "0123456789012345678901234567890123456789012345678901234"
	    "5678");
	rows_are(r, 7);
	run_free(r);

	/*
	 * The line erased back to the start of its second row, then taken
	 * off and drawn again: the cursor where the next key goes, below.
	 */
	run_start(r, CAP_UTF8);
	K(r, "0123456789012345678901234567890123456789012345678901234567890"
	    "12345678901234567890123456789");
	K(r, "\b\b\b\b\b\b\b\b\b\b\b");
	O(r, "Hm\r\n");
	O(r, "Go on");
	K(r, "\b!\r");
	run_end(r);
	row_is(r, 0, "Hm");
	row_is(r, 1, "Go on");
	row_is(r, 2, "0123456789012345678901234567890123456789012345678901234"
	    "56789012345678901234567!");
	rows_are(r, 3);
	run_free(r);
}

/*
 * A terminal that echoes the keys itself: it shows each key where its
 * cursor is before muxd reads it, so the prompt is there beforehand
 * wherever muxd can tell, and a key shown where the judge's line is not
 * (the entity wrote since) is taken back and drawn on the line again.
 * Terminals that show Enter as CR LF (picocom) and as CR alone (tio)
 * end with the same screen.
 */
static void
test_local_echo(void **state)
{
	struct run	*r = &R;
	int		 cs, echo;

	(void)state;
	for (echo = VIEW_ECHO_CRLF; echo <= VIEW_ECHO_CR; echo++) {
		for (cs = 0; cs < 2; cs++) {
			run_start3(r, cs ? CAP_UTF8 : CAP_LATIN1,
			    cs ? CAP_UTF8 : CAP_LATIN1, echo);
			K(r, "Hi\r");
			K(r, "there\b\b\x7f\r\r");
			/* The answer ends its row: the prompt comes with it. */
			O(r, "Yes.\r\n");
			K(r, "ab");
			O(r, "Interrupting");
			O(r, " you!\r\n");
			K(r, "c\r");
			/* Left in mid-row: the first key is taken back. */
			O(r, "Because.");
			K(r, "ok\tk\r\r");
			O(r, "More");
			K(r, "x\b\by\r");
			/* Across the wrap, and back across it. */
			K(r, "012345678901234567890123456789012345678901234"
			    "56789012345678901234567890123456789");
			O(r, "z\r\n");
			K(r, "\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b"
			    "!\r\r");
			run_end(r);
			row_is(r, 0, "Hi");
			row_is(r, 1, "th");
			row_is(r, 2, "Yes.");
			row_is(r, 3, "Interrupting you!");
			row_is(r, 4, "abc");
			row_is(r, 5, "Because.");
			row_is(r, 6, "ok     k");
			row_is(r, 7, "More");
			row_is(r, 8, "y");
			row_is(r, 9, "z");
			row_is(r, 10, "012345678901234567890123456789012345678"
			    "901234567890123456789!");
			rows_are(r, 11);
			run_free(r);
		}
	}

	/* Typographic and wide characters, taken back and erased whole. */
	for (echo = VIEW_ECHO_CRLF; echo <= VIEW_ECHO_CR; echo++) {
		run_start3(r, CAP_UTF8, CAP_UTF8, echo);
		O(r, "\xe2\x80\x9cWell\xe2\x80\xa6\xe2\x80\x9d");
		K(r, "\xe6\x97\xa5\xe6\x9c\xac\b\xe2\x80\x94ok\r\r");
		O(r, "Caf\xc3\xa9 \xf0\x9f\x98\x80\r\n");
		K(r, "\xe2\x80\x98x\xe2\x80\x99\r\r");
		run_end(r);
		row_is(r, 0, "\xe2\x80\x9cWell\xe2\x80\xa6\xe2\x80\x9d");
		row_is(r, 1, "\xe6\x97\xa5\xe2\x80\x94ok");
		row_is(r, 2, "Caf\xc3\xa9 \xf0\x9f\x98\x80");
		row_is(r, 3, "\xe2\x80\x98x\xe2\x80\x99");
		rows_are(r, 4);
		run_free(r);
	}
}

/* A line longer than the judge's line holds: its first rows handed out. */
static void
test_long_judge_line(void **state)
{
	struct run	*r = &R;
	char		 line[1200];
	size_t		 i;

	(void)state;
	run_start(r, CAP_UTF8);
	O(r, "Tell me more.");
	for (i = 0; i < sizeof(line); i++)
		line[i] = (char)('a' + i % 26);
	keys(r, line, sizeof(line));
	K(r, "\b\b\b!\r\r");
	run_end(r);
	row_is(r, 0, "Tell me more.");
	assert_int_equal(strlen(r->record[1]), 79);
	/* 1198 typed and kept: 79 after the prompt, then 14 rows of 80. */
	rows_are(r, 1 + 1 + 14);
	run_free(r);
}

/* An 8-bit room: 8-bit text as it is on the screen, UTF-8 in the record. */
static void
test_latin1_text(void **state)
{
	struct run	*r = &R;

	(void)state;
	run_start(r, CAP_LATIN1);
	O(r, "caf\xe9 cr\xe8me\x7f\x7f\x7fpe\r\n");
	K(r, "na\xefve\\x1b\r\r");
	run_end(r);
	row_is(r, 0, "caf\xc3\xa9 crpe");
	row_is(r, 1, "na\xc3\xafve\\x1b");
	run_free(r);
}

/* A terminal of another charset: converted, transliterated, never mojibake. */
static void
test_charset_conversion(void **state)
{
	struct run	*r = &R;

	(void)state;
	/* A UTF-8 entity on an ISO-8859-1 terminal. */
	run_start2(r, CAP_UTF8, CAP_LATIN1);
	O(r, "\xe2\x80\x9cHello\xe2\x80\x9d \xe2\x80\x94 it\xe2\x80\x99s "
	    "caf\xc3\xa9\xe2\x80\xa6 \xe6\x97\xa5\xe2\x82\xac na\xc3\xafve\r\n");
	/* The judge types Latin-1, shown as typed. */
	K(r, "d\xe9j\xe0 vu\r\r");
	run_end(r);
	row_is(r, 0, "\"Hello\" - it's caf\xc3\xa9... ?EUR na\xc3\xafve");
	row_is(r, 1, "d\xc3\xa9j\xc3\xa0 vu");
	run_free(r);
	/* An ISO-8859-1 entity on a UTF-8 terminal. */
	run_start2(r, CAP_LATIN1, CAP_UTF8);
	O(r, "caf\xe9 \xab" "bien\xbb\r\n");
	K(r, "\xe2\x80\x9cs\xc3\xbbr\xe2\x80\x9d\r\r");
	run_end(r);
	row_is(r, 0, "caf\xc3\xa9 \xc2\xab" "bien\xc2\xbb");
	row_is(r, 1, "\xe2\x80\x9cs\xc3\xbbr\xe2\x80\x9d");
	run_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chatbot_text),
		cmocka_unit_test(test_wide_characters),
		cmocka_unit_test(test_marks_and_jamo),
		cmocka_unit_test(test_filtered_output),
		cmocka_unit_test(test_latin1_c1),
		cmocka_unit_test(test_judge_editing),
		cmocka_unit_test(test_interleaving),
		cmocka_unit_test(test_local_echo),
		cmocka_unit_test(test_long_judge_line),
		cmocka_unit_test(test_latin1_text),
		cmocka_unit_test(test_charset_conversion),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
