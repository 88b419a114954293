/*
 * The 1996 convention, one implementation: the same keystrokes of a judge
 * through the live path (contest/judgeterm.c, as muxd runs it) and through
 * the transcript (text/view.c's rows, as render writes it) give the
 * same lines, the same judge changes and, against the statistics
 * (stats.c), the same turn ends.  The streams are edge cases of the
 * convention and every judge's keystrokes of the 24 official 2012 logs
 * (../shared/data/loebner2012, LPP2012 to move them; left out when not
 * there).
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
#include "transcripts.h"
#include "fixture-lpp.h"

#define OUTMAX	(1 << 20)

/* What a path made of a stream: "L:text|" lines, "J:nn|" judge changes. */
struct trace {
	char	s[OUTMAX];
	size_t	n;
	int	turns;
};

/* Append to a trace. */
static void
add(struct trace *t, const char *kind, const char *text, size_t len)
{
	int	n;

	n = snprintf(t->s + t->n, OUTMAX - t->n, "%s%.*s|", kind, (int)len,
	    text);
	if (n < 0 || (size_t)n >= OUTMAX - t->n)
		fail_msg("trace too long");
	t->n += (size_t)n;
}

/*
 * The live path: judgeterm's lines (non-empty, escaped as the transcript
 * escapes), judge changes and turn ends.
 */
static void
live(const unsigned char *keys, size_t n, struct trace *t)
{
	static struct judgeterm	jt;
	struct judgeterm_out	out;
	char			jn[8];
	size_t			i;

	memset(t, 0, sizeof(*t));
	judgeterm_init(&jt, 0, JUDGETERM_EOL_CR);
	for (i = 0; i < n; i++) {
		judgeterm_byte(&jt, keys[i], &out);
		if (out.event == JUDGETERM_TURN)
			t->turns++;
		else if (out.event == JUDGETERM_JUDGE) {
			snprintf(jn, sizeof(jn), "%02d", out.judge);
			add(t, "J:", jn, 2);
		} else if (out.event == JUDGETERM_LINE && out.linelen > 0)
			add(t, "L:", out.line, out.linelen);
	}
}

/* A row or judge change of the transcript's path, into its trace. */
static void
row(void *arg, const struct tx_out *o)
{
	struct trace	*t = arg;
	char		 jn[8];

	if (o->kind == TX_OUT_JUDGE) {
		snprintf(jn, sizeof(jn), "%02d", o->judge);
		add(t, "J:", jn, 2);
	} else if (o->who == TX_JUDGE)
		add(t, "L:", o->text, o->len);
}

/* The transcript's path: the screen's judge rows and judge changes. */
static void
render(const unsigned char *keys, size_t n, struct trace *t)
{
	static struct view	v;
	struct view_key		k;
	size_t			i;

	memset(t, 0, sizeof(*t));
	view_init(&v, TX_WIDTH_MAX, 0, CAP_LATIN1, VIEW_PROMPT, row, t);
	for (i = 0; i < n; i++)
		(void)view_key(&v, keys[i], (int64_t)i, &k, NULL);
}

/*
 * The answers the statistics count: the judge's chunks, each followed by
 * the entity's output; an answer is output after a judge's line end.
 */
static int
stats_answers(const char *const *chunks)
{
	struct stats	st;
	int64_t		t = 0;
	int		answers;

	stats_init(&st);
	for (; *chunks != NULL; chunks++) {
		stats_feed(&st, CAP_INPUT, (const unsigned char *)*chunks,
		    strlen(*chunks), t += 1000);
		stats_feed(&st, CAP_OUTPUT, (const unsigned char *)"x", 1,
		    t += 1000);
	}
	answers = (int)st.latency.bursts;
	stats_free(&st);
	return (answers);
}

/* Both paths agree on a stream; name says which in a failure. */
static void
agree(const char *name, const unsigned char *keys, size_t n)
{
	static struct trace	a, b;

	live(keys, n, &a);
	render(keys, n, &b);
	if (a.n != b.n || memcmp(a.s, b.s, a.n) != 0)
		fail_msg("%s: live and render differ\n  live:   %.*s\n"
		    "  render: %.*s", name, (int)(a.n > 400 ? 400 : a.n), a.s,
		    (int)(b.n > 400 ? 400 : b.n), b.s);
}

#define S(lit)	(const unsigned char *)(lit), sizeof(lit) - 1

/* The convention's edge cases, through both paths. */
static void
test_edge_cases(void **state)
{
	static const struct {
		const char	*name;
		const char	*keys;
	} cases[] = {
		{ "plain", "Hello\r\r" },
		{ "CR LF one end", "one\r\ntwo\r\n\r\n" },
		{ "LF CR one end", "one\n\rtwo\n\r" },
		{ "LF LF two ends", "one\n\ntwo\n" },
		{ "erase", "helo\bl\x7fo\r" },
		{ "erase past the start", "\b\b\bab\b\b\b\bcd\r" },
		{ "announce", "@@07\r\rHello\r\r" },
		{ "announce padded", " @@07 \r\r" },
		{ "announce one digit", "@@7\r\r" },
		{ "text then announce", "Hi @@07\r\r" },
		{ "announce erased", "@@08\b7\r\r" },
		{ "ENQ", "\x05Hi\x05\r\x05\r" },
		{ "CR CRLF", "a\r\r\nb\r" },
		{ "tabs", "a\tb\r" },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		agree(cases[i].name, (const unsigned char *)cases[i].keys,
		    strlen(cases[i].keys));
}

/*
 * The turn ends: judgeterm's, two line ends with nothing between, pairs
 * as one; the statistics' answers, output after a line end read as the
 * convention reads it (a pair's second half, a judge's ENQ after it).
 */
static void
test_turns(void **state)
{
	static const char *const chunks[] = { "a\r\n", "b\n\r", "c\r",
	    "d\r\x05", "e", NULL };
	static struct trace	t;

	(void)state;
	live(S("What?\r\rAnd you?\r\n\r\nOK\r\x05\r"), &t);
	assert_int_equal(t.turns, 3);
	/* "e" is an interruption: output in the middle of a line. */
	assert_int_equal(stats_answers(chunks), 4);
}

/* One 2012 log's judge keystrokes, each side, through both. */
static void
log_2012(const char *file, const struct lpp_log *log, void *arg)
{
	static unsigned char	keys[2][1 << 16];
	char			name[600];
	size_t			i, nk[2] = { 0, 0 };
	int			s;

	(void)arg;
	for (i = 0; i < log->nrecord; i++) {
		s = log->record[i].side == LPP_LEFT ? 0 : 1;
		if (log->record[i].judge_typed && log->record[i].byte >= 0 &&
		    nk[s] < sizeof(keys[0]))
			keys[s][nk[s]++] = (unsigned char)log->record[i].byte;
	}
	for (s = 0; s < 2; s++) {
		snprintf(name, sizeof(name), "%s %s", file, s == 0 ? "left" :
		    "right");
		agree(name, keys[s], nk[s]);
	}
}

/* Every judge's keystrokes of the 2012 logs, each side, through both. */
static void
test_2012_logs(void **state)
{
	(void)state;
	assert_int_equal(fixture_lpp_each(log_2012, NULL), 24);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_turns),
		cmocka_unit_test(test_2012_logs),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
