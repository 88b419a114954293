/*
 * muxctl: the referee view, "muxctl watch --text".
 *
 * Every live conversation as readable text, from muxd's "text" events
 * (the judge's keystrokes and the entity's output after filtering, each
 * byte one code point, ISO-8859-1).  Each side of each link has its own
 * stream, assembled into lines as a terminal would show them: CR, LF,
 * CRLF and LFCR each end one line (the second half of a pair is
 * swallowed), BS and DEL erase the last character, empty lines are not
 * printed.  A line is printed when it ends, prefixed with the local time
 * of its first character, the link and the speaker:
 *
 *	10:00:01 J1-left JUDGE07> Hello, who are you?
 *	10:00:04 J1-left E1: Hello, my name is Ada and I am the human.
 *
 * A line still open after MUXCTL_REFEREE_QUIET_MS without a byte is shown
 * as it stands, with " [...]" after it, and printed whole when it ends;
 * when a link goes down, or muxd closes the connection, what is left of
 * its lines is printed.  Control characters are shown escaped ("\t",
 * "\x1b"), and a backslash in the text as "\\", so that nothing an entity
 * sends can drive the referee's terminal.  A line longer than
 * MUXCTL_REFEREE_LINEMAX characters is printed in pieces.
 *
 * Verdicts and faults stand out: "*** FAIL ***", "*** PASS ***", "*** PORT
 * DOWN ***" and so on, in bold colour when standard output is a terminal
 * (and NO_COLOR is not set), plain otherwise.  Rounds and links coming
 * and going are one line each; other events are printed as by "watch".
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "muxctl.h"

#define MUXCTL_REFEREE_LINEMAX	1024	/* characters in one printed line */
#define MUXCTL_REFEREE_QUIET_MS	1000	/* show an open line after this */
#define MUXCTL_REFEREE_STREAMS	4096	/* most streams followed at once */

#define MUXCTL_REFEREE_RED	"\033[1;31m"
#define MUXCTL_REFEREE_GREEN	"\033[1;32m"
#define MUXCTL_REFEREE_YELLOW	"\033[1;33m"
#define MUXCTL_REFEREE_BOLD	"\033[1m"
#define MUXCTL_REFEREE_DIM	"\033[2m"
#define MUXCTL_REFEREE_RESET	"\033[0m"

enum muxctl_referee_who {
	MUXCTL_REFEREE_JUDGE,
	MUXCTL_REFEREE_ENTITY
};

/* One side of one link: the line being typed. */
struct muxctl_referee_stream {
	char			*link;
	enum muxctl_referee_who	 who;
	char			*entity;	/* the entity's name, or NULL */
	int			 judge;		/* -1: not known */
	uint32_t		 text[MUXCTL_REFEREE_LINEMAX];
	size_t			 len;
	uint32_t		 eol;		/* CR or LF just seen, or 0 */
	double			 start;		/* time of the first character */
	struct timespec		 last;		/* when the last byte came */
	int			 dirty;		/* changed since last printed */
	int			 shown;		/* printed as an open line */
};

static struct muxctl_referee_stream **muxctl_referee_streams;
static size_t	muxctl_referee_nstreams;
static int	muxctl_referee_colour;
static int	muxctl_referee_full;		/* too many streams, said once */

static void	muxctl_referee_on(const char *);
static void	muxctl_referee_off(void);
static void	muxctl_referee_clock(double);
static uint32_t	muxctl_referee_utf8(const unsigned char **,
		    const unsigned char *);
static void	muxctl_referee_put_cp(uint32_t, int);
static void	muxctl_referee_put(const char *);
static double	muxctl_referee_time(const json_t *);
static struct muxctl_referee_stream *muxctl_referee_stream(const char *,
		    enum muxctl_referee_who);
static void	muxctl_referee_free(struct muxctl_referee_stream *);
static void	muxctl_referee_line(struct muxctl_referee_stream *, int);
static int	muxctl_referee_announce(const struct muxctl_referee_stream *);
static void	muxctl_referee_byte(struct muxctl_referee_stream *, uint32_t,
		    double);
static void	muxctl_referee_text(const json_t *);
static void	muxctl_referee_link_end(const char *);
static void	muxctl_referee_mark(const json_t *, const char *,
		    const char *);
static void	muxctl_referee_verdict(const json_t *);
static void	muxctl_referee_round(const json_t *, const char *);

/* Choose plain or coloured output: colour only on a terminal. */
void
muxctl_referee_init(void)
{
	const char	*term = getenv("TERM"), *nc = getenv("NO_COLOR");

	muxctl_referee_colour = isatty(STDOUT_FILENO) &&
	    (nc == NULL || *nc == '\0') &&
	    (term == NULL || strcmp(term, "dumb") != 0);
}

/* Start a colour, when colour is on. */
static void
muxctl_referee_on(const char *sgr)
{
	if (muxctl_referee_colour)
		fputs(sgr, stdout);
}

/* End a colour, when colour is on. */
static void
muxctl_referee_off(void)
{
	if (muxctl_referee_colour)
		fputs(MUXCTL_REFEREE_RESET, stdout);
}

/* Print epoch seconds as local "HH:MM:SS " at the start of a line. */
static void
muxctl_referee_clock(double t)
{
	struct tm	tm;
	time_t		s = t > 0 ? (time_t)t : 0;
	char		buf[32];

	if (localtime_r(&s, &tm) == NULL ||
	    strftime(buf, sizeof(buf), "%H:%M:%S", &tm) == 0)
		snprintf(buf, sizeof(buf), "??:??:??");
	printf("%s ", buf);
}

/* Decode one code point of valid UTF-8 (as jansson gives) and step on. */
static uint32_t
muxctl_referee_utf8(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char	*p = *pp;
	uint32_t		 cp;
	int			 n, i;

	if (*p < 0x80) {
		*pp = p + 1;
		return (*p);
	}
	if (*p >= 0xf0) {
		cp = *p & 0x07;
		n = 3;
	} else if (*p >= 0xe0) {
		cp = *p & 0x0f;
		n = 2;
	} else {
		cp = *p & 0x1f;
		n = 1;
	}
	for (i = 1; i <= n && p + i < end; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	*pp = p + i;
	return (cp);
}

/*
 * Print one character, control characters escaped ("\t", "\xHH", C1 as
 * "\xHH" too), a backslash doubled when text (conversation text, where
 * "\x1b" must not be mistaken for what was typed).
 */
static void
muxctl_referee_put_cp(uint32_t cp, int text)
{
	if (cp == '\\' && text)
		fputs("\\\\", stdout);
	else if (cp == '\t')
		fputs("\\t", stdout);
	else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		printf("\\x%02x", (unsigned)cp);
	else if (cp < 0x80)
		putchar((int)cp);
	else if (cp < 0x800) {
		putchar((int)(0xc0 | cp >> 6));
		putchar((int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		putchar((int)(0xe0 | cp >> 12));
		putchar((int)(0x80 | (cp >> 6 & 0x3f)));
		putchar((int)(0x80 | (cp & 0x3f)));
	} else {
		putchar((int)(0xf0 | cp >> 18));
		putchar((int)(0x80 | (cp >> 12 & 0x3f)));
		putchar((int)(0x80 | (cp >> 6 & 0x3f)));
		putchar((int)(0x80 | (cp & 0x3f)));
	}
}

/* Print a string from muxd (a name, a message) with controls escaped. */
static void
muxctl_referee_put(const char *s)
{
	const unsigned char	*p, *end;

	if (s == NULL) {
		putchar('?');
		return;
	}
	p = (const unsigned char *)s;
	end = p + strlen(s);
	while (p < end)
		muxctl_referee_put_cp(muxctl_referee_utf8(&p, end), 0);
}

/* Return the time of an event, or now when it has none. */
static double
muxctl_referee_time(const json_t *ev)
{
	const json_t	*t = json_object_get(ev, "time");

	if (json_is_number(t))
		return (json_number_value(t));
	return ((double)time(NULL));
}

/* Find the stream of a link's side, making it if new; NULL if no room. */
static struct muxctl_referee_stream *
muxctl_referee_stream(const char *link, enum muxctl_referee_who who)
{
	struct muxctl_referee_stream	*s, **v;
	size_t				 i;

	for (i = 0; i < muxctl_referee_nstreams; i++) {
		s = muxctl_referee_streams[i];
		if (s->who == who && strcmp(s->link, link) == 0)
			return (s);
	}
	if (muxctl_referee_nstreams == MUXCTL_REFEREE_STREAMS) {
		if (!muxctl_referee_full)
			warnx("more than %d conversations: text of the others "
			    "not shown", MUXCTL_REFEREE_STREAMS / 2);
		muxctl_referee_full = 1;
		return (NULL);
	}
	v = reallocarray(muxctl_referee_streams, muxctl_referee_nstreams + 1,
	    sizeof(*v));
	if (v == NULL || (s = calloc(1, sizeof(*s))) == NULL ||
	    (s->link = strdup(link)) == NULL)
		err(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	muxctl_referee_streams = v;
	s->who = who;
	s->judge = -1;
	muxctl_referee_streams[muxctl_referee_nstreams++] = s;
	return (s);
}

/* Free a stream. */
static void
muxctl_referee_free(struct muxctl_referee_stream *s)
{
	free(s->link);
	free(s->entity);
	free(s);
}

/* Tell the judge a finished judge's line announces ("@@nn"), or -1. */
static int
muxctl_referee_announce(const struct muxctl_referee_stream *s)
{
	size_t	i = 0, d;
	int	nn = 0;

	while (i < s->len && (s->text[i] == ' ' || s->text[i] == '\t'))
		i++;
	if (i + 2 > s->len || s->text[i] != '@' || s->text[i + 1] != '@')
		return (-1);
	for (i += 2, d = 0; i < s->len && s->text[i] >= '0' &&
	    s->text[i] <= '9'; i++, d++)
		nn = nn * 10 + (int)(s->text[i] - '0');
	while (i < s->len && (s->text[i] == ' ' || s->text[i] == '\t'))
		i++;
	return (d >= 1 && d <= 2 && i == s->len ? nn : -1);
}

/*
 * Print a stream's line: "HH:MM:SS LINK JUDGEnn> text" or "HH:MM:SS LINK
 * ENTITY: text"; open, the line stays and " [...]" follows it.  A judge
 * announcing himself with "@@nn" gives his number to the lines after.
 */
static void
muxctl_referee_line(struct muxctl_referee_stream *s, int open)
{
	size_t	i;
	int	nn;

	muxctl_referee_clock(s->start);
	muxctl_referee_put(s->link);
	putchar(' ');
	muxctl_referee_on(MUXCTL_REFEREE_BOLD);
	if (s->who == MUXCTL_REFEREE_JUDGE) {
		if (s->judge >= 0)
			printf("JUDGE%02d>", s->judge);
		else
			fputs("JUDGE>", stdout);
	} else {
		muxctl_referee_put(s->entity != NULL ? s->entity : "ENTITY");
		putchar(':');
	}
	muxctl_referee_off();
	putchar(' ');
	for (i = 0; i < s->len; i++)
		muxctl_referee_put_cp(s->text[i], 1);
	if (open) {
		muxctl_referee_on(MUXCTL_REFEREE_DIM);
		fputs(" [...]", stdout);
		muxctl_referee_off();
		s->shown = 1;
	} else {
		if (s->who == MUXCTL_REFEREE_JUDGE &&
		    (nn = muxctl_referee_announce(s)) != -1)
			s->judge = nn;
		s->len = 0;
		s->shown = 0;
	}
	s->dirty = 0;
	putchar('\n');
}

/* Feed one character to a stream at event time t. */
static void
muxctl_referee_byte(struct muxctl_referee_stream *s, uint32_t cp, double t)
{
	if (cp == '\r' || cp == '\n') {
		if (s->eol != 0 && s->eol != cp) {
			s->eol = 0;	/* the second half of CRLF or LFCR */
			return;
		}
		s->eol = cp;
		if (s->len > 0)
			muxctl_referee_line(s, 0);
		else if (s->shown) {	/* all erased after it was shown */
			s->shown = 0;
			s->dirty = 0;
		}
		return;
	}
	s->eol = 0;
	if (cp == 0x08 || cp == 0x7f) {
		if (s->len > 0) {
			s->len--;
			s->dirty = 1;
		}
		return;
	}
	if (s->len == MUXCTL_REFEREE_LINEMAX)
		muxctl_referee_line(s, 0);
	if (s->len == 0)
		s->start = t;
	s->text[s->len++] = cp;
	s->dirty = 1;
}

/* Take a text event: its characters into the stream of its side. */
static void
muxctl_referee_text(const json_t *ev)
{
	struct muxctl_referee_stream	*s;
	const json_t			*text, *judge;
	const unsigned char		*p, *end;
	const char			*link, *who, *entity;
	double				 t;

	link = muxctl_get_str(ev, "link");
	who = muxctl_get_str(ev, "who");
	text = json_object_get(ev, "text");
	if (link == NULL || who == NULL || !json_is_string(text)) {
		warnx("text event without link, who or text skipped");
		return;
	}
	s = muxctl_referee_stream(link, strcmp(who, "judge") == 0 ?
	    MUXCTL_REFEREE_JUDGE : MUXCTL_REFEREE_ENTITY);
	if (s == NULL)
		return;
	entity = muxctl_get_str(ev, "entity");
	if (entity != NULL && (s->entity == NULL ||
	    strcmp(entity, s->entity) != 0)) {
		free(s->entity);
		if ((s->entity = strdup(entity)) == NULL)
			err(PROTOCOL_EXIT_PROTOCOL, "out of memory");
	}
	judge = json_object_get(ev, "judge");	/* until one types "@@nn" */
	if (s->judge < 0 && json_is_integer(judge) &&
	    json_integer_value(judge) >= 0 &&
	    json_integer_value(judge) < 100)
		s->judge = (int)json_integer_value(judge);
	t = muxctl_referee_time(ev);
	p = (const unsigned char *)json_string_value(text);
	end = p + json_string_length(text);
	while (p < end)
		muxctl_referee_byte(s, muxctl_referee_utf8(&p, end), t);
	clock_gettime(CLOCK_MONOTONIC, &s->last);
}

/* A link went down: print what is left of its lines, forget them. */
static void
muxctl_referee_link_end(const char *link)
{
	struct muxctl_referee_stream	*s;
	size_t				 i = 0;

	while (i < muxctl_referee_nstreams) {
		s = muxctl_referee_streams[i];
		if (link != NULL && strcmp(s->link, link) != 0) {
			i++;
			continue;
		}
		if (s->len > 0 && (s->dirty || !s->shown))
			muxctl_referee_line(s, 0);
		muxctl_referee_free(s);
		muxctl_referee_streams[i] =
		    muxctl_referee_streams[--muxctl_referee_nstreams];
	}
	if (link == NULL || muxctl_referee_nstreams < MUXCTL_REFEREE_STREAMS)
		muxctl_referee_full = 0;
}

/*
 * Print the start of a marked line, "HH:MM:SS *** WHAT ***", in colour
 * sgr on a terminal; the caller ends the line.
 */
static void
muxctl_referee_mark(const json_t *ev, const char *sgr, const char *what)
{
	muxctl_referee_clock(muxctl_referee_time(ev));
	muxctl_referee_on(sgr);
	printf("*** %s ***", what);
	muxctl_referee_off();
}

/*
 * Print a verdict: "*** PASS ***", "*** FAIL ***" or "*** NAME ***", with
 * "(provisional)" when a later byte can still change it, then the link,
 * judge, round and what was decided.
 */
static void
muxctl_referee_verdict(const json_t *ev)
{
	const json_t	*judge, *round;
	const char	*verdict, *link, *what, *sgr;
	char		 mark[64];
	int		 final;

	verdict = muxctl_get_str(ev, "verdict");
	link = muxctl_get_str(ev, "link");
	what = muxctl_get_str(ev, "what");
	final = !json_is_false(json_object_get(ev, "final"));
	if (verdict == NULL)
		verdict = "VERDICT";
	if (strcmp(verdict, "PASS") == 0)
		sgr = MUXCTL_REFEREE_GREEN;
	else if (strcmp(verdict, "NAME") == 0)
		sgr = MUXCTL_REFEREE_YELLOW;
	else
		sgr = MUXCTL_REFEREE_RED;
	snprintf(mark, sizeof(mark), "%.32s%s", verdict,
	    final ? "" : " (provisional)");
	muxctl_referee_mark(ev, sgr, mark);
	putchar(' ');
	muxctl_referee_put(link != NULL ? link : "-");
	judge = json_object_get(ev, "judge");
	if (json_is_integer(judge))
		printf(" JUDGE%02lld", (long long)json_integer_value(judge));
	round = json_object_get(ev, "round");
	if (json_is_integer(round) && json_integer_value(round) > 0)
		printf(" round %lld", (long long)json_integer_value(round));
	fputs(": ", stdout);
	muxctl_referee_put(what != NULL ? what : "(no details)");
	putchar('\n');
}

/* Print a round starting, resuming or stopping, with its placements. */
static void
muxctl_referee_round(const json_t *ev, const char *verb)
{
	const json_t	*n, *p;
	const char	*reason;
	size_t		 i;

	muxctl_referee_clock(muxctl_referee_time(ev));
	muxctl_referee_on(MUXCTL_REFEREE_BOLD);
	fputs("=== round", stdout);
	n = json_object_get(ev, "number");
	if (json_is_integer(n))
		printf(" %lld", (long long)json_integer_value(n));
	printf(" %s", verb);
	json_array_foreach(json_object_get(ev, "placements"), i, p) {
		fputs(i == 0 ? ": " : "; ", stdout);
		muxctl_referee_put(muxctl_get_str(p, "station"));
		if (json_is_integer(json_object_get(p, "judge")))
			printf(" (judge %02lld)", (long long)
			    json_integer_value(json_object_get(p, "judge")));
		fputs(" left ", stdout);
		muxctl_referee_put(muxctl_get_str(p, "left"));
		fputs(", right ", stdout);
		muxctl_referee_put(muxctl_get_str(p, "right"));
	}
	if ((reason = muxctl_get_str(ev, "reason")) != NULL) {
		fputs(" (", stdout);
		muxctl_referee_put(reason);
		putchar(')');
	}
	fputs(" ===", stdout);
	muxctl_referee_off();
	putchar('\n');
}

/* Show one event of the watch for referees. */
void
muxctl_referee_event(const json_t *ev)
{
	const char	*e = muxctl_get_str(ev, "event"), *s;
	const json_t	*v;
	int		 type = e != NULL ? protocol_event_find(e) : -1;

	if (type == PROTOCOL_EV_TEXT)
		muxctl_referee_text(ev);
	else if (type == PROTOCOL_EV_VERDICT)
		muxctl_referee_verdict(ev);
	else if (type == PROTOCOL_EV_ROUND_START)
		muxctl_referee_round(ev, "started");
	else if (type == PROTOCOL_EV_ROUND_RESUME)
		muxctl_referee_round(ev, "resumed");
	else if (type == PROTOCOL_EV_ROUND_STOP)
		muxctl_referee_round(ev, "stopped");
	else if (type == PROTOCOL_EV_LINK_UP) {
		muxctl_referee_clock(muxctl_referee_time(ev));
		fputs("--- ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "link"));
		fputs(" up: ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "a"));
		fputs(" <-> ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "b"));
		putchar('\n');
	} else if (type == PROTOCOL_EV_LINK_DOWN) {
		muxctl_referee_link_end(muxctl_get_str(ev, "link"));
		muxctl_referee_clock(muxctl_referee_time(ev));
		fputs("--- ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "link"));
		fputs(" down", stdout);
		if ((s = muxctl_get_str(ev, "reason")) != NULL) {
			fputs(": ", stdout);
			muxctl_referee_put(s);
		}
		putchar('\n');
	} else if (type == PROTOCOL_EV_PORT_DOWN) {
		muxctl_referee_mark(ev, MUXCTL_REFEREE_RED, "PORT DOWN");
		putchar(' ');
		muxctl_referee_put(muxctl_get_str(ev, "port"));
		if ((s = muxctl_get_str(ev, "error")) != NULL) {
			fputs(": ", stdout);
			muxctl_referee_put(s);
		}
		putchar('\n');
	} else if (type == PROTOCOL_EV_PORT_UP) {
		muxctl_referee_clock(muxctl_referee_time(ev));
		fputs("--- port ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "port"));
		fputs(" up\n", stdout);
	} else if (type == PROTOCOL_EV_DROP) {
		muxctl_referee_mark(ev, MUXCTL_REFEREE_RED, "DROP");
		fputs(" port ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "port"));
		v = json_object_get(ev, "bytes");
		if (json_is_integer(v))
			printf(": %lld bytes", (long long)json_integer_value(v));
		v = json_object_get(ev, "total");
		if (json_is_integer(v))
			printf(" (%lld in all)", (long long)json_integer_value(v));
		if ((s = muxctl_get_str(ev, "reason")) != NULL) {
			fputs(", ", stdout);
			muxctl_referee_put(s);
		}
		putchar('\n');
	} else if (type == PROTOCOL_EV_JUDGE_MISMATCH) {
		muxctl_referee_mark(ev, MUXCTL_REFEREE_RED, "JUDGE MISMATCH");
		putchar(' ');
		muxctl_referee_put(muxctl_get_str(ev, "link"));
		v = json_object_get(ev, "typed");
		if (json_is_integer(v))
			printf(": @@%02lld typed", (long long)
			    json_integer_value(v));
		v = json_object_get(ev, "schedule");
		if (json_is_integer(v))
			printf(" at the station of judge %02lld", (long long)
			    json_integer_value(v));
		putchar('\n');
	} else if (type == PROTOCOL_EV_FILTER) {
		muxctl_referee_mark(ev, MUXCTL_REFEREE_YELLOW,
		    json_is_true(json_object_get(ev, "passed")) ?
		    "CONTROL PASSED" : "FILTERED");
		putchar(' ');
		muxctl_referee_put(muxctl_get_str(ev, "link"));
		fputs(": ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "kind"));
		v = json_object_get(ev, "bytes");
		if (json_is_integer(v))
			printf(", %lld bytes", (long long)json_integer_value(v));
		putchar('\n');
	} else if (type == PROTOCOL_EV_HOLD || type == PROTOCOL_EV_INJECT) {
		s = muxctl_get_str(ev, "state");
		if (type == PROTOCOL_EV_INJECT)
			muxctl_referee_mark(ev, MUXCTL_REFEREE_YELLOW,
			    s != NULL && strcmp(s, "done") == 0 ?
			    "INJECTED" : "INJECTING");
		else if (s != NULL && strcmp(s, "kept") == 0)
			muxctl_referee_mark(ev, MUXCTL_REFEREE_RED, "HELD");
		else
			muxctl_referee_mark(ev, MUXCTL_REFEREE_YELLOW,
			    "RELEASED");
		putchar(' ');
		muxctl_referee_put(muxctl_get_str(ev, "link"));
		fputs(": ", stdout);
		muxctl_referee_put(muxctl_get_str(ev, "entity"));
		v = json_object_get(ev, "bytes");
		if (json_is_integer(v))
			printf(", %lld bytes", (long long)json_integer_value(v));
		v = json_object_get(ev, "delay_ms");
		if (json_is_integer(v))
			printf(", %lld ms late", (long long)
			    json_integer_value(v));
		if ((s = muxctl_get_str(ev, "why")) != NULL) {
			fputs(", ", stdout);
			muxctl_referee_put(s);
		}
		if (type == PROTOCOL_EV_HOLD && (s = muxctl_get_str(ev,
		    "state")) != NULL && strcmp(s, "kept") == 0)
			fputs(" (muxctl release to let it through)", stdout);
		putchar('\n');
	} else if (type == PROTOCOL_EV_MANIFEST) {
		/* What the judges write down: "evidence 0004 sealed: ...". */
		muxctl_referee_clock(muxctl_referee_time(ev));
		v = json_object_get(ev, "sequence");
		printf("--- evidence %04lld sealed: ", json_is_integer(v) ?
		    (long long)json_integer_value(v) : 0LL);
		muxctl_referee_put(muxctl_get_str(ev, "short"));
		if ((s = muxctl_get_str(ev, "why")) != NULL) {
			fputs(" (", stdout);
			muxctl_referee_put(s);
			putchar(')');
		}
		if (json_is_false(json_object_get(ev, "signed")))
			fputs(", not signed", stdout);
		putchar('\n');
	} else if (type == PROTOCOL_EV_MUXD_STOP) {
		muxctl_referee_clock(muxctl_referee_time(ev));
		muxctl_referee_on(MUXCTL_REFEREE_BOLD);
		fputs("=== muxd stopping ===", stdout);
		muxctl_referee_off();
		putchar('\n');
	} else
		muxctl_show_event(ev);
}

/*
 * When an open line is waiting to be shown: store in *deadline (the
 * CLOCK_MONOTONIC time) when the earliest one will have been quiet long
 * enough, and return 1; return 0 when none waits.
 */
int
muxctl_referee_deadline(struct timespec *deadline)
{
	struct muxctl_referee_stream	*s;
	struct timespec			 t;
	size_t				 i;
	int				 any = 0;

	for (i = 0; i < muxctl_referee_nstreams; i++) {
		s = muxctl_referee_streams[i];
		if (!s->dirty || s->len == 0)
			continue;
		t = s->last;
		t.tv_nsec += (long)MUXCTL_REFEREE_QUIET_MS % 1000 * 1000000;
		t.tv_sec += MUXCTL_REFEREE_QUIET_MS / 1000 +
		    t.tv_nsec / 1000000000;
		t.tv_nsec %= 1000000000;
		if (!any || t.tv_sec < deadline->tv_sec ||
		    (t.tv_sec == deadline->tv_sec &&
		    t.tv_nsec < deadline->tv_nsec))
			*deadline = t;
		any = 1;
	}
	return (any);
}

/* Show the open lines that have been quiet long enough. */
void
muxctl_referee_quiet(void)
{
	struct muxctl_referee_stream	*s;
	struct timespec			 now;
	long long			 ms;
	size_t				 i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; i < muxctl_referee_nstreams; i++) {
		s = muxctl_referee_streams[i];
		if (!s->dirty || s->len == 0)
			continue;
		ms = (long long)(now.tv_sec - s->last.tv_sec) * 1000 +
		    (now.tv_nsec - s->last.tv_nsec) / 1000000;
		if (ms >= MUXCTL_REFEREE_QUIET_MS)
			muxctl_referee_line(s, 1);
	}
}

/* At the end of the watch: print what is left of every line. */
void
muxctl_referee_end(void)
{
	muxctl_referee_link_end(NULL);
	free(muxctl_referee_streams);
	muxctl_referee_streams = NULL;
}
