/*
 * Unit tests for comprog's pure modules: the text of a screen pane
 * (comprog/pane.c), the sorting of muxd's echo from the entity's text
 * (comprog/echo.c) and the entry adapter's typing model
 * (contest/typing.c).
 *
 * The echo tests play muxd with its own judgeterm.c: keys go to "muxd",
 * whose echo and the entity's output make one stream, cut into reads as
 * a line would; echo.c must give back the entity's text alone, in order,
 * and the echo of every key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "comprog.h"

#define BUFLEN	4096

struct play {
	struct judgeterm muxd;		/* muxd's judge terminal */
	struct echo	 echo;		/* comprog's view of it */
	unsigned char	 stream[BUFLEN];	/* muxd's output, not yet read */
	size_t		 nstream;
	char		 entity[BUFLEN];	/* what echo.c said was the entity's */
	size_t		 nentity;
	char		 echoed[BUFLEN];	/* what it said was echo */
	size_t		 nechoed;
	int64_t		 now;
};

static void	 sorted(void *, int, unsigned char, const unsigned char *,
		    size_t);
static void	 play_start(struct play *);
static void	 play_key(struct play *, const char *);
static void	 play_entity(struct play *, const char *);
static void	 play_read(struct play *, size_t);
static char	*pane_string(const struct pane *, size_t, char *, size_t);

/* Collect what echo.c sorted. */
static void
sorted(void *arg, int isecho, unsigned char key, const unsigned char *buf,
    size_t n)
{
	struct play	*p = arg;

	(void)key;
	if (isecho) {
		memcpy(p->echoed + p->nechoed, buf, n);
		p->nechoed += n;
	} else {
		memcpy(p->entity + p->nentity, buf, n);
		p->nentity += n;
	}
}

/* Start: muxd's link begins with its prompt. */
static void
play_start(struct play *p)
{
	struct judgeterm_out	out;

	memset(p, 0, sizeof(*p));
	judgeterm_init(&p->muxd, 0, JUDGETERM_EOL_CR);
	echo_init(&p->echo);
	judgeterm_prompt(&p->muxd, &out);
	memcpy(p->stream, out.echo, out.necho);
	p->nstream = out.necho;
}

/* The judge types: comprog sends, muxd echoes into the stream. */
static void
play_key(struct play *p, const char *keys)
{
	struct judgeterm_out	out;

	for (; *keys != '\0'; keys++) {
		p->now += 1000;
		echo_key(&p->echo, (unsigned char)*keys, p->now);
		judgeterm_byte(&p->muxd, (unsigned char)*keys, &out);
		memcpy(p->stream + p->nstream, out.echo, out.necho);
		p->nstream += out.necho;
	}
}

/* The entity writes: muxd draws it on the judge's screen, in the stream. */
static void
play_entity(struct play *p, const char *text)
{
	static char	buf[VIEW_OUTLEN(256)];
	size_t		n;

	n = view_output(&p->muxd.view, (const unsigned char *)text,
	    strlen(text), 0, buf);
	memcpy(p->stream + p->nstream, buf, n);
	p->nstream += n;
}

/* comprog reads what muxd wrote, in reads of at most chunk bytes. */
static void
play_read(struct play *p, size_t chunk)
{
	size_t	off = 0, n;

	while (off < p->nstream) {
		n = p->nstream - off < chunk ? p->nstream - off : chunk;
		echo_feed(&p->echo, p->stream + off, n, p->now, sorted, p);
		off += n;
	}
	p->nstream = 0;
	p->entity[p->nentity] = '\0';
	p->echoed[p->nechoed] = '\0';
}

/* Keys echoed as typed; the entity's answer alone; a fresh prompt. */
static void
test_echo_sorted_from_the_entity(void **state)
{
	struct play	p;
	size_t		chunk;

	(void)state;
	for (chunk = 1; chunk <= 64; chunk *= 4) {
		play_start(&p);
		play_key(&p, "Hi\bey\r\r");
		play_read(&p, chunk);
		assert_string_equal(p.echoed, ">Hi\b \bey\r\n>\r\n");
		assert_string_equal(p.entity, "");
		play_entity(&p, "Hello, judge.\r\n");
		play_key(&p, "ok");
		play_read(&p, chunk);
		assert_string_equal(p.entity, "Hello, judge.\r\n");
		assert_string_equal(p.echoed, ">Hi\b \bey\r\n>\r\n>ok");
		assert_false(echo_waiting(&p.echo));
	}
}

/*
 * A UTF-8 link: muxd echoes a character of several bytes whole once its
 * last byte is typed and erases it whole; all of that is echo, the
 * entity's characters are the entity's.
 */
static void
test_echo_utf8(void **state)
{
	struct play	p;
	size_t		chunk;

	(void)state;
	for (chunk = 1; chunk <= 64; chunk *= 4) {
		play_start(&p);
		judgeterm_charset(&p.muxd, CAP_UTF8);
		echo_charset(&p.echo, CAP_UTF8);
		play_key(&p, "caf\xc3\xa9 \xe2\x80\x94\b!\r\r");
		play_read(&p, chunk);
		assert_string_equal(p.echoed,
		    ">caf\xc3\xa9 \xe2\x80\x94\b \b!\r\n>\r\n");
		assert_string_equal(p.entity, "");
		play_entity(&p, "don\xe2\x80\x99t\r\n");
		play_key(&p, "\xc3\xa9");
		play_read(&p, chunk);
		assert_string_equal(p.entity, "don\xe2\x80\x99t\r\n");
		assert_string_equal(p.echoed,
		    ">caf\xc3\xa9 \xe2\x80\x94\b \b!\r\n>\r\n>\xc3\xa9");
		assert_false(echo_waiting(&p.echo));
	}
}

/* The entity writing while the judge types: muxd's "\r\n>" is echo. */
static void
test_echo_with_the_entity_in_mid_line(void **state)
{
	struct play	p;

	(void)state;
	play_start(&p);
	play_key(&p, "ab\r\r");
	play_entity(&p, "Well");
	play_key(&p, "c");
	play_entity(&p, ", yes>");
	play_key(&p, "d");
	play_read(&p, 3);
	/*
	 * muxd's "\r\n" before the prompt counts as the entity's line end;
	 * its moves that take the judge's line off, and the line drawn
	 * again, are its own, never the entity's text.
	 */
	assert_string_equal(p.entity, "Well\r\n, yes>\r\n");
	assert_string_equal(p.echoed, ">ab\r\n>\r\n>c\033[2D\033[K\033[A"
	    "\033[4C>cd");
}

/* An echo cut by the end of a read is held, then completed. */
static void
test_echo_held_across_reads(void **state)
{
	struct play	p;

	(void)state;
	play_start(&p);
	play_read(&p, 64);
	play_key(&p, "x\r");
	echo_feed(&p.echo, (const unsigned char *)"x\r", 2, p.now, sorted, &p);
	assert_true(echo_waiting(&p.echo));
	assert_int_equal(p.nentity, 0);
	echo_feed(&p.echo, (const unsigned char *)"\n>", 2, p.now, sorted, &p);
	assert_false(echo_waiting(&p.echo));
	assert_int_equal(p.nentity, 0);
}

/* A partial match followed by something else was the entity's. */
static void
test_echo_partial_match_released(void **state)
{
	struct play	p;

	(void)state;
	play_start(&p);
	play_read(&p, 64);
	echo_key(&p.echo, '\r', 0);
	echo_feed(&p.echo, (const unsigned char *)"\r", 1, 0, sorted, &p);
	assert_int_equal(p.nentity, 0);
	assert_true(echo_waiting(&p.echo));
	echo_feed(&p.echo, (const unsigned char *)"z", 1, 0, sorted, &p);
	p.entity[p.nentity] = '\0';
	assert_string_equal(p.entity, "\rz");
	assert_int_equal(p.echo.npend, 1);
}

/* Keys never echoed (no link) are given up; a held byte is released. */
static void
test_echo_expiry(void **state)
{
	struct play	p;

	(void)state;
	play_start(&p);
	play_read(&p, 64);
	echo_key(&p.echo, 'a', 0);
	echo_key(&p.echo, 'b', 10);
	assert_int_equal(echo_expire(&p.echo, ECHO_KEEP_USEC - 1, sorted, &p),
	    1);
	assert_int_equal(echo_expire(&p.echo, ECHO_KEEP_USEC + 10, sorted,
	    &p), 0);
	assert_int_equal(p.echo.lost, 2);

	echo_key(&p.echo, '\r', 0);
	echo_feed(&p.echo, (const unsigned char *)"\r", 1, 0, sorted, &p);
	assert_int_equal(p.nentity, 0);
	assert_int_equal(echo_expire(&p.echo, ECHO_HOLD_USEC - 1, sorted, &p),
	    1);
	assert_int_equal(p.nentity, 0);
	assert_int_equal(echo_expire(&p.echo, ECHO_HOLD_USEC, sorted, &p), 1);
	assert_int_equal(p.nentity, 1);
	assert_int_equal(p.echo.npend, 1);
}

/*
 * With every key slot taken, a key whose echo has started to come back
 * is not the one given up: the rest of its echo is still its echo.
 */
static void
test_echo_full_keeps_a_partial_echo(void **state)
{
	struct play	p;
	int		i;

	(void)state;
	play_start(&p);
	play_read(&p, 64);
	echo_key(&p.echo, '\r', 0);		/* echoed "\r\n>" */
	echo_feed(&p.echo, (const unsigned char *)"\r", 1, 0, sorted, &p);
	for (i = 1; i < ECHO_PENDMAX; i++)
		echo_key(&p.echo, 'x', i);
	echo_key(&p.echo, 'y', ECHO_PENDMAX);	/* one too many */
	assert_int_equal(p.echo.npend, ECHO_PENDMAX);
	assert_int_equal(p.echo.lost, 1);
	assert_int_equal(p.echo.pend[0].key, '\r');
	echo_feed(&p.echo, (const unsigned char *)"\n>", 2, 0, sorted, &p);
	p.entity[p.nentity] = '\0';
	p.echoed[p.nechoed] = '\0';
	assert_string_equal(p.entity, "");
	assert_string_equal(p.echoed, ">\r\n>");	/* prompt, then the key's */
}

/* Lines end once for CR, LF, CRLF and LFCR; BS erases, a tab whole. */
static void
test_pane_line_ends_and_erase(void **state)
{
	struct pane	p;
	char		buf[256];

	(void)state;
	pane_init(&p);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"a\r\nb\n\rc\r\rd",
	    strlen("a\r\nb\n\rc\r\rd"));
	assert_int_equal(pane_count(&p), 5);
	assert_string_equal(pane_string(&p, 0, buf, sizeof(buf)), "a");
	assert_string_equal(pane_string(&p, 2, buf, sizeof(buf)), "c");
	assert_string_equal(pane_string(&p, 3, buf, sizeof(buf)), "");
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"x\ty\b\b\b\bz",
	    strlen("x\ty\b\b\b\bz"));
	assert_string_equal(pane_string(&p, 4, buf, sizeof(buf)), "z");
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\x1b[2J\x07",
	    strlen("\x1b[2J\x07"));
	assert_string_equal(pane_string(&p, 4, buf, sizeof(buf)), "z[2J");
	assert_int_equal(p.bells, 1);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\r@@07\r",
	    strlen("\r@@07\r"));
	assert_int_equal(pane_retract(&p), 1);
	assert_string_equal(pane_string(&p, pane_count(&p) - 1, buf,
	    sizeof(buf)), "");
	pane_note(&p, "*** JUDGE07 ***");
	assert_string_equal(pane_string(&p, pane_count(&p) - 2, buf,
	    sizeof(buf)), "*** JUDGE07 ***");
	pane_free(&p);
}

/* Rows at a width; the ring keeps the last PANE_LINES lines. */
static void
test_pane_rows_and_ring(void **state)
{
	struct pane	p;
	char		buf[64], want[64];
	int		i;

	(void)state;
	pane_init(&p);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"0123456789",
	    strlen("0123456789"));
	assert_int_equal(pane_rows(pane_line(&p, 0), 4, 0), 3);
	assert_int_equal(pane_rows(pane_line(&p, 0), 5, 0), 2);
	assert_int_equal(pane_rows(pane_line(&p, 0), 5, 1), 3);
	for (i = 0; i < PANE_LINES + 5; i++) {
		snprintf(buf, sizeof(buf), "\n%d", i);
		pane_feed(&p, PANE_ENTITY, (const unsigned char *)buf,
		    strlen(buf));
	}
	assert_int_equal(pane_count(&p), PANE_LINES);
	snprintf(want, sizeof(want), "%d", PANE_LINES + 4);
	assert_string_equal(pane_string(&p, PANE_LINES - 1, buf, sizeof(buf)),
	    want);
	assert_string_equal(pane_string(&p, 0, buf, sizeof(buf)), "5");
	/* A reused slot starts empty; a retract on a full ring keeps it. */
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\n", 1);
	assert_int_equal(pane_current_len(&p), 0);
	assert_string_equal(pane_string(&p, 0, buf, sizeof(buf)), "6");
	assert_int_equal(pane_retract(&p), 1);
	assert_int_equal(pane_count(&p), PANE_LINES - 1);
	assert_int_equal(pane_current_len(&p), 0);
	pane_free(&p);
}

/* A line longer than PANE_LINEMAX is ended there; BS stays in its line. */
static void
test_pane_long_lines(void **state)
{
	struct pane	 p;
	unsigned char	*big;
	size_t		 n = PANE_LINEMAX + 10, i;

	(void)state;
	assert_non_null(big = malloc(n));
	memset(big, 'x', n);
	pane_init(&p);
	for (i = 0; i < n; i++)		/* the cells grow a byte at a time */
		pane_feed(&p, PANE_ENTITY, &big[i], 1);
	assert_int_equal(pane_count(&p), 2);
	assert_int_equal(pane_line(&p, 0)->len, PANE_LINEMAX);
	assert_int_equal(pane_current_len(&p), 10);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\b\b\b\b\b\b\b\b"
	    "\b\b\b\b", 12);
	assert_int_equal(pane_count(&p), 2);
	assert_int_equal(pane_current_len(&p), 0);
	assert_int_equal(pane_line(&p, 0)->len, PANE_LINEMAX);

	/* A tab fills the line to its end, and is erased whole. */
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\n", 1);
	pane_feed(&p, PANE_ENTITY, big, PANE_LINEMAX - 3);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\t", 1);
	assert_int_equal(pane_current_len(&p), PANE_LINEMAX);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\t", 1);
	assert_int_equal(pane_count(&p), 4);
	assert_int_equal(pane_current_len(&p), 8);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\b", 1);
	assert_int_equal(pane_current_len(&p), 0);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\b", 1);
	assert_int_equal(pane_count(&p), 4);
	assert_int_equal(pane_line(&p, 2)->len, PANE_LINEMAX);
	assert_int_equal(pane_rows(pane_line(&p, 2), 1024, 0), 4);
	assert_int_equal(pane_rows(pane_line(&p, 2), 1024, 1), 5);
	pane_free(&p);
	free(big);
}

/*
 * With the UTF-8 charset a character is one cell, also when fed a byte at
 * a time between another writer's bytes, and BS erases it whole; C1
 * controls and bytes that are no character are dropped.
 */
static void
test_pane_utf8(void **state)
{
	static const unsigned int want[] = { 'c', 'a', 'f', 0xe9, ' ',
	    0x2014, ' ', 'd', 'o', 'n', 0x2019, 't' };
	const char	*s = "caf\xc3\xa9 \xe2\x80\x94 don\xe2\x80\x99t";
	const struct pane_line *l;
	struct pane	p;
	size_t		i;

	(void)state;
	pane_init(&p);
	pane_charset(&p, CAP_UTF8);
	for (i = 0; s[i] != '\0'; i++) {
		pane_feed(&p, PANE_JUDGE, (const unsigned char *)&s[i], 1);
		if (i == 3)	/* inside the e acute */
			pane_feed(&p, PANE_ENTITY,
			    (const unsigned char *)"\xc2", 1);
	}
	l = pane_line(&p, 0);
	assert_int_equal(l->len, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(l->cell[i].c, want[i]);
	assert_int_equal(l->cell[3].who, PANE_JUDGE);
	pane_free(&p);
	pane_charset(&p, CAP_UTF8);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"don\xe2\x80\x99\b",
	    7);
	assert_int_equal(pane_current_len(&p), 3);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)
	    "\xc2\x80\x80\xe2\x80x\xc3\xa9", 8);
	l = pane_line(&p, 0);
	assert_int_equal(l->len, 5);
	assert_int_equal(l->cell[3].c, 'x');
	assert_int_equal(l->cell[4].c, 0xe9);
	pane_note(&p, "\xc2\xbb caf\xc3\xa9");
	l = pane_line(&p, 1);
	assert_int_equal(l->len, 6);
	assert_int_equal(l->cell[0].c, 0xbb);
	assert_int_equal(l->cell[5].c, 0xe9);
	pane_free(&p);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\xc3\xa9", 2);
	assert_int_equal(pane_current_len(&p), 2);	/* ISO-8859-1 */
	assert_int_equal(pane_line(&p, 0)->cell[0].c, 0xc3);
	pane_free(&p);
}

/*
 * Columns: CJK and emoji take two, a combining mark none (it stays in
 * the row of the character before it, and one BS erases it alone); a
 * wide character that does not fit in a row goes whole to the next.
 */
static void
test_pane_widths(void **state)
{
	const char	*s = "a\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x98\x80" "b";
	const struct pane_line *l;
	struct pane	p;
	size_t		starts[PANE_LINEMAX + 2], cols;

	(void)state;
	assert_int_equal(pane_charwidth('a'), 1);
	assert_int_equal(pane_charwidth(0xe9), 1);
	assert_int_equal(pane_charwidth(0x65e5), 2);
	assert_int_equal(pane_charwidth(0x1f600), 2);
	assert_int_equal(pane_charwidth(0x301), 0);
	pane_init(&p);
	pane_charset(&p, CAP_UTF8);
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)s, strlen(s));
	l = pane_line(&p, 0);
	assert_int_equal(l->len, 5);
	assert_int_equal(l->cell[1].cols, 2);
	assert_int_equal(l->cell[3].cols, 2);
	assert_int_equal(l->cell[4].cols, 1);
	/* "a日" (3 of 4 columns), "本😀", "b". */
	assert_int_equal(pane_starts(l, 4, 0, starts), 3);
	assert_int_equal(starts[1], 2);
	assert_int_equal(starts[2], 4);
	assert_int_equal(pane_row_end(l, 0, 4, &cols), 2);
	assert_int_equal(cols, 3);
	assert_int_equal(pane_rows(l, 80, 0), 1);
	assert_int_equal(pane_rows(l, 8, 1), 2);	/* full: the cursor below */
	assert_int_equal(pane_rows(l, 8, 0), 1);
	assert_int_equal(pane_rows(l, 1, 0), 5);	/* one a row at least */
	pane_feed(&p, PANE_ENTITY, (const unsigned char *)"\b", 1);
	assert_int_equal(pane_rows(pane_line(&p, 0), 7, 1), 2);
	pane_free(&p);

	/* A mark joins the e; one BS erases the e with its mark. */
	pane_charset(&p, CAP_UTF8);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"e\xcc\x81x", 4);
	l = pane_line(&p, 0);
	assert_int_equal(l->len, 3);
	assert_int_equal(l->cell[1].c, 0x301);
	assert_int_equal(l->cell[1].cols, 0);
	assert_int_equal(pane_starts(l, 1, 0, starts), 2);
	assert_int_equal(starts[1], 2);
	assert_int_equal(pane_row_end(l, 0, 1, &cols), 2);
	assert_int_equal(cols, 1);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\b", 1);
	assert_int_equal(pane_current_len(&p), 2);
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\b", 1);
	assert_int_equal(pane_current_len(&p), 0);
	/* A mark that begins a line takes a column (drawn on a space). */
	pane_feed(&p, PANE_JUDGE, (const unsigned char *)"\n\xcc\x81", 3);
	assert_int_equal(pane_line(&p, 1)->cell[0].cols, 1);
	pane_free(&p);
}

/* Write line i of a pane as a string. */
static char *
pane_string(const struct pane *p, size_t i, char *buf, size_t len)
{
	const struct pane_line	*l = pane_line(p, i);
	size_t			 k;

	for (k = 0; k < l->len && k + 1 < len; k++)
		buf[k] = (char)l->cell[k].c;
	buf[k] = '\0';
	return (buf);
}

/* Typing models: parsing, bounds, pauses after punctuation. */
static void
test_typing_model(void **state)
{
	struct typing	t;
	char		err[128];
	int		i, d;

	(void)state;
	assert_int_equal(typing_parse("100+-50", &t, err, sizeof(err)), 0);
	assert_int_equal(t.base, 100);
	assert_int_equal(t.jitter, 50);
	assert_int_equal(typing_parse("0", &t, err, sizeof(err)), 0);
	assert_int_equal(typing_delay(&t, '.', 'a'), 0);
	assert_int_equal(typing_parse("100+/-5", &t, err, sizeof(err)), 0);
	assert_int_equal(typing_parse("fast", &t, err, sizeof(err)), -1);
	assert_int_equal(typing_parse("100+-", &t, err, sizeof(err)), -1);
	assert_int_equal(typing_parse("-5", &t, err, sizeof(err)), -1);
	assert_int_equal(typing_parse("20000", &t, err, sizeof(err)), -1);

	assert_int_equal(typing_parse("100+-50", &t, err, sizeof(err)), 0);
	typing_seed(&t, 42);
	for (i = 0; i < 1000; i++) {
		d = typing_delay(&t, 'a', 'b');
		assert_true(d >= 50 && d <= 150);
		d = typing_delay(&t, '.', ' ');
		assert_true(d >= 450 && d <= 550);
		d = typing_delay(&t, ',', ' ');
		assert_true(d >= 250 && d <= 350);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo_sorted_from_the_entity),
		cmocka_unit_test(test_echo_utf8),
		cmocka_unit_test(test_echo_with_the_entity_in_mid_line),
		cmocka_unit_test(test_echo_held_across_reads),
		cmocka_unit_test(test_echo_partial_match_released),
		cmocka_unit_test(test_echo_expiry),
		cmocka_unit_test(test_echo_full_keeps_a_partial_echo),
		cmocka_unit_test(test_pane_line_ends_and_erase),
		cmocka_unit_test(test_pane_rows_and_ring),
		cmocka_unit_test(test_pane_long_lines),
		cmocka_unit_test(test_pane_utf8),
		cmocka_unit_test(test_pane_widths),
		cmocka_unit_test(test_typing_model),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
