/*
 * The confederate's side: a split screen.  The upper pane shows the
 * judge's keystrokes as they arrive (through muxd's control-sequence
 * filter), the lower pane the confederate's own typing; each has a title
 * bar, and the top line always shows the mandatory opening assertion with
 * the approved name (2004 rule 3), with a live verdict on the
 * confederate's first line to each judge (muxd's assertion.c).  The
 * judge's number comes from "@@nn" (muxd sends it when the entity is
 * configured with announce = true; a judge may type it too); the round's
 * clock, when --clock is given, counts down from the announcement.
 *
 * The confederate's keys go out one by one as typed: Enter as the
 * profile's line end (CR LF by default; CR LF and LF CR from the keyboard
 * count once), BS and DEL erase the last character of the current line,
 * as on the judge's side, and are sent only when there is one to erase;
 * the escape sequences of cursor and function keys and other controls
 * are not sent.  A key the line cannot take is refused, visibly.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "comprog.h"

enum confed_key { CONFED_KEY_NONE, CONFED_KEY_ESC, CONFED_KEY_CSI,
    CONFED_KEY_SS3 };

static const struct profile	*confed_prof;
static struct pane		 confed_judge;	/* the judge's keys */
static struct pane		 confed_own;	/* the confederate's */
static struct filter		 confed_filter;
static struct judgeterm		 confed_jt;	/* turns and "@@nn" */
static struct assertion_pattern	*confed_pattern;
static struct assertion		*confed_assertion;
static const char		*confed_name;
static int			 confed_number = -1;
static int			 confed_minutes;
static time_t			 confed_clock;	/* when the clock started */
static int			 confed_waiting;	/* the judge ended a turn */
static int			 confed_announced;	/* "@@nn" just now */
static unsigned char		 confed_last;	/* the last key */
static unsigned char		 confed_pair;	/* a line end not shown */
static enum confed_key		 confed_keystate;
static uint64_t			 confed_refused;

static void	confed_read(const unsigned char *, size_t,
		    const struct timeval *);
static void	confed_change(enum cline_change, const char *);
static void	confed_status(void);
static void	confed_assertion_new(void);
static void	confed_titles(void);
static void	confed_judge_is(int);
static int	confed_skip(unsigned char);
static int	confed_send(const unsigned char *, size_t,
		    const struct timeval *);

const struct cline_cb confed_line_cb = { confed_read, confed_change };

/* Start checking the opening assertion afresh, in the line's charset. */
static void
confed_assertion_new(void)
{
	if ((confed_assertion = assertion_new(confed_pattern,
	    confed_name)) == NULL)
		fatal("assertion_new");
	if (assertion_charset(confed_assertion, confed_prof->charset) == -1)
		fatalx("the assertion pattern is not compiled for %s",
		    cap_encoding_name(confed_prof->charset));
}

/* Take the screen: the reminder, the two panes, the status line. */
void
confed_start(const struct profile *prof, const char *name, int minutes)
{
	char	err[LINE_ERRLEN];

	confed_prof = prof;
	confed_name = name;
	confed_minutes = minutes;
	confed_clock = time(NULL);
	pane_init(&confed_judge);
	pane_init(&confed_own);
	pane_charset(&confed_judge, prof->charset);
	pane_charset(&confed_own, prof->charset);
	filter_init(&confed_filter, 0, 0, NULL, NULL);
	filter_charset(&confed_filter, prof->charset);
	judgeterm_init(&confed_jt, 1, JUDGETERM_EOL_CR);
	judgeterm_charset(&confed_jt, prof->charset);
	if ((confed_pattern = assertion_pattern_new(NULL, prof->charset ==
	    CAP_UTF8 ? ASSERTION_UTF8 : 0, err, sizeof(err))) == NULL)
		fatalx("%s", err);
	confed_assertion_new();
	if (screen_init(prof, SCREEN_SPLIT, &confed_judge, &confed_own, err,
	    sizeof(err)) == -1)
		fatalx("%s", err);
	if (prof->banner[0] != '\0')
		pane_note(&confed_judge, prof->banner);
	confed_status();
}

/* Give the screen back. */
void
confed_stop(void)
{
	screen_end();
	assertion_free(confed_assertion);
	assertion_pattern_free(confed_pattern);
	confed_assertion = NULL;
	confed_pattern = NULL;
	pane_free(&confed_judge);
	pane_free(&confed_own);
}

/* Write the reminder and the title bars. */
static void
confed_titles(void)
{
	const struct assertion_result	*res;
	const char			*verdict = "";
	char				 judge[32], clock[64];
	long				 left;

	res = assertion_result(confed_assertion);
	switch (res->verdict) {
	case ASSERTION_PENDING:
		break;
	case ASSERTION_PASS:
		verdict = "  [opening: OK]";
		break;
	case ASSERTION_NAME:
		verdict = "  [opening: WRONG NAME]";
		break;
	case ASSERTION_FAIL:
		verdict = res->final ? "  [opening: NOT MADE]" :
		    "  [opening: DEPARTS, correct it]";
		break;
	}
	screen_top("Begin with: Hello, my name is %s and I am the human%s",
	    confed_name, verdict);
	if (confed_number >= 0)
		snprintf(judge, sizeof(judge), "Judge %02d", confed_number);
	else
		snprintf(judge, sizeof(judge), "Judge (not announced)");
	clock[0] = '\0';
	if (confed_minutes > 0) {
		left = (long)confed_minutes * 60 -
		    (long)(time(NULL) - confed_clock);
		if (left > 0)
			snprintf(clock, sizeof(clock), " | %ld:%02ld left",
			    left / 60, left % 60);
		else
			snprintf(clock, sizeof(clock), " | TIME IS UP");
	}
	screen_title(0, "%s%s%s", judge, clock, confed_waiting ?
	    " | the judge has finished: your turn" : "");
	screen_title(1, "You (%s): each key goes to the judge as you type it",
	    confed_name);
}

/* Write the bars and the status line, and draw. */
static void
confed_status(void)
{
	confed_titles();
	comprog_status("", confed_refused);
}

/* Once a second: the clock and the status line. */
void
confed_second(void)
{
	confed_status();
}

/* A judge is announced: name him, restart the clock and the check. */
static void
confed_judge_is(int nn)
{
	char	note[32];

	pane_retract(&confed_judge);
	snprintf(note, sizeof(note), "*** JUDGE%02d ***", nn);
	pane_note(&confed_judge, note);
	if (nn != confed_number) {
		assertion_free(confed_assertion);
		confed_assertion_new();
	}
	confed_number = nn;
	confed_clock = time(NULL);
	confed_announced = 1;
	confed_waiting = 0;
	log_info("judge %02d announced", nn);
}

/* Take the judge's keys from the line. */
static void
confed_read(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	struct judgeterm_out	out;
	unsigned char		shown[PORT_CHUNK], c;
	size_t			m, i;

	transcript_judge(buf, n, tv);
	m = filter_feed(&confed_filter, buf, n > sizeof(shown) ?
	    sizeof(shown) : n, shown);
	for (i = 0; i < m; i++) {
		c = shown[i];
		judgeterm_byte(&confed_jt, c, &out);
		/* The line end after an announcement makes no empty line. */
		if (out.event == JUDGETERM_TURN && confed_announced)
			confed_pair = c == '\r' ? '\n' : '\r';
		else if (c == confed_pair)
			confed_pair = 0;
		else {
			confed_pair = 0;
			pane_feed(&confed_judge, PANE_JUDGE, &c, 1);
		}
		switch (out.event) {
		case JUDGETERM_JUDGE:
			confed_judge_is(out.judge);
			break;
		case JUDGETERM_TURN:
			confed_waiting = !confed_announced;
			confed_announced = 0;
			break;
		case JUDGETERM_LINE:
			confed_announced = 0;
			break;
		case JUDGETERM_NONE:
			break;
		}
	}
	if (confed_judge.bells > 0) {
		confed_judge.bells = 0;
		screen_beep();
	}
	confed_status();
}

/*
 * Follow the escape sequences of cursor and function keys; 1 when the key
 * belongs to one (it is not sent).
 */
static int
confed_skip(unsigned char c)
{
	switch (confed_keystate) {
	case CONFED_KEY_NONE:
		if (c != 0x1b)
			return (0);
		confed_keystate = CONFED_KEY_ESC;
		return (1);
	case CONFED_KEY_ESC:
		confed_keystate = c == '[' ? CONFED_KEY_CSI : c == 'O' ?
		    CONFED_KEY_SS3 : CONFED_KEY_NONE;
		return (1);
	case CONFED_KEY_CSI:
		if (c >= 0x40 && c <= 0x7e)
			confed_keystate = CONFED_KEY_NONE;
		return (1);
	case CONFED_KEY_SS3:
		confed_keystate = CONFED_KEY_NONE;
		return (1);
	}
	return (0);
}

/* Send bytes typed by the confederate; -1 when refused. */
static int
confed_send(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	if (cline_send(buf, n) == -1) {
		confed_refused++;
		transcript_marker("drop %zu keys refused line down", n);
		log_warnx("key refused: the line is down and %zu bytes "
		    "already wait for it", cline_queued());
		screen_beep();
		return (-1);
	}
	transcript_entity(buf, n, tv);
	assertion_feed(confed_assertion, buf, n);
	return (0);
}

/* Take the confederate's keys (C-] already handled). */
void
confed_key(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	static const char	*eols[] = { "\r", "\n", "\r\n", "\r\n" };
	const char		*eol;
	unsigned char		 c;
	size_t			 i;

	for (i = 0; i < n; i++) {
		c = buf[i];
		if (confed_skip(c))
			continue;
		if (c == '\r' || c == '\n') {
			if ((c == '\n' && confed_last == '\r') ||
			    (c == '\r' && confed_last == '\n')) {
				confed_last = 0;
				continue;
			}
			confed_last = c;
			eol = eols[confed_prof->eol & 3];
			if (confed_send((const unsigned char *)eol,
			    strlen(eol), tv) == 0) {
				pane_feed(&confed_own, PANE_ENTITY,
				    (const unsigned char *)"\n", 1);
				confed_waiting = 0;
			}
			continue;
		}
		confed_last = c;
		if (c == '\b' || c == 0x7f) {
			if (pane_current_len(&confed_own) == 0)
				screen_beep();
			else if (confed_send(&c, 1, tv) == 0)
				pane_feed(&confed_own, PANE_ENTITY, &c, 1);
			continue;
		}
		if (c != '\t' && (c < 0x20 || (c >= 0x7f && c < 0xa0 &&
		    confed_prof->charset != CAP_UTF8)))
			continue;
		if (confed_send(&c, 1, tv) == 0) {
			pane_feed(&confed_own, PANE_ENTITY, &c, 1);
			confed_waiting = 0;
		}
	}
	confed_status();
}

/* Follow the line going down and coming back. */
static void
confed_change(enum cline_change what, const char *msg)
{
	(void)msg;
	if (what == CLINE_DOWN)
		screen_beep();
	confed_status();
}
