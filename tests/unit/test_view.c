/*
 * Unit tests for the judge's screen (transcripts/view.c): as export shows
 * it, and as muxd writes the entity's output to the live judge's screen
 * (view_live, view_judge).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "transcripts.h"

/* Feed one side's bytes and fail unless the screen bytes are want. */
static void
feed(struct view *v, enum cap_kind kind, const char *in, const char *want)
{
	char	out[VIEW_OUTLEN(256)];
	size_t	n;

	n = view_feed(v, kind, (const unsigned char *)in, strlen(in), out);
	out[n] = '\0';
	if (strcmp(out, want) != 0)
		fail_msg("fed \"%s\": expected \"%s\", got \"%s\"", in, want,
		    out);
}

static void
test_entity_normal_form(void **state)
{
	struct view	v;

	(void)state;
	view_init(&v);
	/* DEL and BS erase the entity's own characters, no further. */
	feed(&v, CAP_OUTPUT, "nane\x7f\x7fme", "nane\b \b\b \bme");
	feed(&v, CAP_OUTPUT, "\r\n\x7f", "\r\n");
	/* Lone LF, lone CR, CRLF and LFCR are each one line end. */
	feed(&v, CAP_OUTPUT, "a\nb\rc\r\nd\n\re", "a\r\nb\r\nc\r\nd\r\ne");
	/* A tab goes to the next stop, as spaces, and is erased whole. */
	view_init(&v);
	feed(&v, CAP_OUTPUT, "ab\t\x7fx", "ab      \b \b\b \b\b \b\b \b\b \b\b \bx");
	/* 8-bit text: UTF-8 for export, as it is for the live screen. */
	view_init(&v);
	feed(&v, CAP_OUTPUT, "caf\xe9", "caf\xc3\xa9");
	view_init(&v);
	view_live(&v);
	feed(&v, CAP_OUTPUT, "caf\xe9", "caf\xe9");
	/*
	 * A backslash is doubled, as the transcript writes it, so that a
	 * typed "\x1b" never reads as an ESC, and erased whole; the live
	 * screen shows it as it is.
	 */
	view_init(&v);
	feed(&v, CAP_OUTPUT, "a\\x1b\x1b", "a\\\\x1b\\x1b");
	feed(&v, CAP_OUTPUT, "\x7f\x7f\x7f\x7f", "\b \b\b \b\b \b\b \b\b \b\b \b\b \b");
	view_init(&v);
	view_live(&v);
	feed(&v, CAP_OUTPUT, "a\\b", "a\\b");
}

static void
test_live_screen_follows_the_judge(void **state)
{
	struct view	v;

	(void)state;
	view_init(&v);
	view_live(&v);
	/* The judge's prompt and echo own the line: the entity's text goes
	 * on a line of its own. */
	view_judge(&v, (const unsigned char *)">Hi", 3);
	feed(&v, CAP_OUTPUT, "Hello", "\r\nHello");
	/* After the judge's line end the entity begins the line. */
	view_init(&v);
	view_live(&v);
	view_judge(&v, (const unsigned char *)">Hi\r\n", 5);
	feed(&v, CAP_OUTPUT, "Hello", "Hello");
	/* A prompt taken back (BS SP BS) leaves the line empty. */
	view_init(&v);
	view_live(&v);
	view_judge(&v, (const unsigned char *)">\b \b", 4);
	feed(&v, CAP_OUTPUT, "Hello", "Hello");
}

/*
 * UTF-8: a character is shown as it is and erased whole, even split
 * across events; a C1 control and what is no character as \xHH.
 */
static void
test_utf8_screen(void **state)
{
	struct view	v;

	(void)state;
	view_init(&v);
	view_charset(&v, CAP_UTF8);
	feed(&v, CAP_OUTPUT, "caf\xc3\xa9\x7f" "e", "caf\xc3\xa9\b \be");
	feed(&v, CAP_OUTPUT, "\xe2\x80", "");
	feed(&v, CAP_OUTPUT, "\x99!", "\xe2\x80\x99!");
	feed(&v, CAP_OUTPUT, "\xc2\x9b\x7f", "\\xc2\\x9b\b \b\b \b\b \b"
	    "\b \b\b \b\b \b\b \b\b \b");
	feed(&v, CAP_OUTPUT, "x\x80y\xe2z", "x\\x80y\\xe2z");
	/* The live screen the same. */
	view_init(&v);
	view_live(&v);
	view_charset(&v, CAP_UTF8);
	feed(&v, CAP_OUTPUT, "don\xe2\x80\x99t", "don\xe2\x80\x99t");
	/* ISO-8859-1: 0x80-0x9f are controls. */
	view_init(&v);
	view_live(&v);
	feed(&v, CAP_OUTPUT, "don\xe2\x80\x99t", "don\xe2\\x80\\x99t");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entity_normal_form),
		cmocka_unit_test(test_live_screen_follows_the_judge),
		cmocka_unit_test(test_utf8_screen),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
