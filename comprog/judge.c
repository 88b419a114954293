/*
 * The judge's side: a terminal that presents the 1996 convention (data
 * entry rules, section 1).  The judge is prompted with ">", sees each key
 * echoed at once, may write several lines and ends a turn with two line
 * ends; "@@nn" CR CR announces judge nn.
 *
 * Local echo (--local-echo, machine to machine): muxd's judgeterm.c runs
 * here, on the judge's keys; its echo and prompts go to the screen, the
 * keys alone (line ends as the profile says) to the line, and what comes
 * back is the entity's text.  Remote echo (--remote-echo, with muxd in
 * between, which echoes): the keys go out as typed and the screen shows
 * what comes back, sorted by echo.c into muxd's echo and the entity's
 * text.  Either way the entity's text passes muxd's control-sequence
 * filter (filter.c) before the screen, and the transcript gets the keys
 * and the entity's text.
 *
 * By default (auto) comprog asks, each time the line comes up, with an
 * ENQ: muxd's judge terminal answers with an APC string saying whether it
 * echoes ("ESC _ muxd echo ..."), and remote echo is taken; with no answer
 * within JUDGE_ASK_USEC, local echo, and the keys typed meanwhile are
 * echoed then.  Until then keys go out as with remote echo.  Answers are
 * taken out of what the line brings, wherever they come.
 *
 * The answer also names the charset the room reads the line in
 * ("ESC _ muxd echo charset=utf-8 ESC \"; an older muxd's names none).
 * Unless --charset or the profile gave one, comprog takes it: the
 * screen, the filter, the echo sorting and the judge's terminal read the
 * line so, and the recording, held until then (transcript.c), is opened
 * with it; with no answer, or none naming a charset, comprog keeps its
 * own (utf-8 by default).  A charset given that is not the room's wins,
 * but a note on the screen and a warning in the log name both.  comprog
 * asks with remote echo too (muxd is there), not with local echo.
 *
 * A key the line cannot take (down, and its queue full) is refused: not
 * echoed, not sent, a bell and the status line say so.
 */
#include <stdio.h>
#include <string.h>

#include "comprog.h"

#define JUDGE_TICK_USEC	100000	/* echo.c's expiry while keys wait */
#define JUDGE_ASK_USEC	1000000	/* muxd's answer to ENQ comes by then */
#define JUDGE_ANSWERMAX	64	/* the longest answer */
#define JUDGE_APC	"\033_muxd"	/* an answer's beginning (muxd(8)) */

static struct profile		 judge_p;	/* the charset may change */
static const struct profile	*judge_prof = &judge_p;
static struct judgeterm		 judge_jt;	/* local echo */
static struct echo		 judge_echo;	/* remote echo */
static struct pane		 judge_pane;
static int			 judge_esc;	/* inside one of muxd's moves */
static struct filter		 judge_filter;
static struct event		*judge_tick;
static enum profile_echo	 judge_mode;	/* AUTO: not answered yet */
static struct event		*judge_ask_ev;	/* no answer by then: local */
static unsigned char		 judge_ans[JUDGE_ANSWERMAX];
static size_t			 judge_nans;	/* a beginning of an answer */
static int			 judge_number = -1;
static int			 judge_room = -1;	/* the room's charset */
static uint64_t			 judge_refused;
static uint64_t			 judge_filtered;

static void	judge_read(const unsigned char *, size_t,
		    const struct timeval *);
static void	judge_change(enum cline_change, const char *);
static void	judge_status(void);
static void	judge_show_echo(unsigned char, const unsigned char *, size_t);
static void	judge_show_entity(const unsigned char *, size_t);
static int	judge_move(unsigned char);
static void	judge_sorted(void *, int, unsigned char, const unsigned char *,
		    size_t);
static void	judge_tick_cb(evutil_socket_t, short, void *);
static void	judge_arm(void);
static void	judge_filter_cb(void *, const struct filter_span *);
static void	judge_ask(void);
static void	judge_ask_cb(evutil_socket_t, short, void *);
static void	judge_decide(enum profile_echo, const char *);
static size_t	judge_answers(const unsigned char *, size_t, unsigned char *,
		    int *, int *);
static void	judge_answer_words(const unsigned char *, size_t, int *,
		    int *);
static void	judge_charset(int);

const struct cline_cb judge_line_cb = { judge_read, judge_change };

/* Count what the filter kept from the judge's screen. */
static void
judge_filter_cb(void *arg, const struct filter_span *span)
{
	(void)arg;
	judge_filtered += span->len;
	log_debug("filtered %zu bytes (%s) from the entity", span->len,
	    filter_kind_name(span->kind));
}

/* Take the screen and show the banner and the first prompt. */
void
judge_start(const struct profile *prof)
{
	struct judgeterm_out	 out;
	char			 err[LINE_ERRLEN], *s, *nl;
	char			 banner[PROFILE_BANNERMAX];

	judge_p = *prof;
	prof = judge_prof;
	pane_init(&judge_pane);
	pane_charset(&judge_pane, prof->charset);
	filter_init(&judge_filter, 0, 0, judge_filter_cb, NULL);
	filter_charset(&judge_filter, prof->charset);
	if (screen_init(prof, SCREEN_SINGLE, &judge_pane, NULL, err,
	    sizeof(err)) == -1)
		fatalx("%s", err);
	snprintf(banner, sizeof(banner), "%s", prof->banner);
	for (s = banner; *s != '\0'; s = nl + 1) {
		if ((nl = strchr(s, '\n')) == NULL) {
			pane_note(&judge_pane, s);
			break;
		}
		*nl = '\0';
		pane_note(&judge_pane, s);
	}
	echo_init(&judge_echo);
	echo_charset(&judge_echo, prof->charset);
	if ((judge_tick = evtimer_new(comprog_base, judge_tick_cb,
	    NULL)) == NULL || (judge_ask_ev = evtimer_new(comprog_base,
	    judge_ask_cb, NULL)) == NULL)
		fatalx("cannot allocate a timer");
	judge_mode = prof->echo;
	if (judge_mode == PROFILE_ECHO_LOCAL) {
		judgeterm_init(&judge_jt, 0, (enum judgeterm_eol)prof->eol);
		judgeterm_charset(&judge_jt, prof->charset);
		judgeterm_prompt(&judge_jt, &out);
		judge_show_echo(0, out.echo, out.necho);
	}
	if (cline_is_up())
		judge_ask();
	judge_status();
}

/* Give the screen back. */
void
judge_stop(void)
{
	if (judge_tick != NULL)
		event_free(judge_tick);
	judge_tick = NULL;
	if (judge_ask_ev != NULL)
		event_free(judge_ask_ev);
	judge_ask_ev = NULL;
	screen_end();
	pane_free(&judge_pane);
}

/* Write the status line: the line, what waits, the judge, the echo. */
static void
judge_status(void)
{
	static const char *const echo[] = { "", "echo here",
	    "echo by muxd" };
	char	judge[64];

	snprintf(judge, sizeof(judge), "%s", echo[judge_mode]);
	if (judge_number >= 0)
		snprintf(judge, sizeof(judge), "judge %02d%s%s", judge_number,
		    *echo[judge_mode] != '\0' ? " | " : "", echo[judge_mode]);
	comprog_status(judge, judge_refused);
}

/*
 * Ask the far end whether it is muxd's judge terminal (auto echo), as
 * the line comes up.
 */
static void
judge_ask(void)
{
	static const unsigned char	enq = TX_ENQ;
	struct timeval			tv = { 0, JUDGE_ASK_USEC };

	if (judge_prof->echo == PROFILE_ECHO_LOCAL || cline_send(&enq, 1) == -1)
		return;
	if (judge_prof->echo == PROFILE_ECHO_AUTO)
		judge_mode = PROFILE_ECHO_AUTO;
	evtimer_add(judge_ask_ev, &tv);
}

/*
 * No answer came: comprog echoes (auto), and shows the keys typed
 * meanwhile; its charset is the one it has.
 */
static void
judge_ask_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (judge_prof->echo == PROFILE_ECHO_AUTO)
		judge_decide(PROFILE_ECHO_LOCAL, "no answer from muxd: the "
		    "keys are echoed here");
	judge_charset(-1);
	screen_draw();
}

/*
 * Take the room's charset (-1: not said): comprog's own when given,
 * with a note and a warning when the room's differs, else the room's;
 * a held recording is opened with it.
 */
static void
judge_charset(int room)
{
	enum cap_encoding	cs = judge_p.charset;
	char			note[160];

	if (room != -1 && judge_p.charset_set && room != (int)cs &&
	    room != judge_room) {
		snprintf(note, sizeof(note), "*** reading the line as %s; "
		    "the room's charset is %s ***",
		    cap_encoding_name(cs),
		    cap_encoding_name((enum cap_encoding)room));
		pane_note(&judge_pane, note);
		log_warnx("charset %s given, but the room's is %s: text may "
		    "show wrong", cap_encoding_name(cs),
		    cap_encoding_name((enum cap_encoding)room));
	}
	if (room != -1)
		judge_room = room;
	if (room != -1 && !judge_p.charset_set && room != (int)cs) {
		cs = (enum cap_encoding)room;
		log_info("the room's charset: %s", cap_encoding_name(cs));
		judge_p.charset = cs;
		pane_charset(&judge_pane, cs);
		filter_charset(&judge_filter, cs);
		echo_charset(&judge_echo, cs);
		judgeterm_charset(&judge_jt, cs);
	}
	transcript_charset(cs);
}

/*
 * Take who echoes from now on.  For local echo the judge terminal starts
 * here, prompted, and keys still waiting for muxd's echo are echoed.
 */
static void
judge_decide(enum profile_echo mode, const char *why)
{
	struct judgeterm_out	 out;
	size_t			 i;

	evtimer_del(judge_ask_ev);
	if (judge_mode == mode)
		return;
	log_info("%s", why);
	if (mode == PROFILE_ECHO_LOCAL) {
		judgeterm_init(&judge_jt, 0, (enum judgeterm_eol)
		    judge_prof->eol);
		judgeterm_charset(&judge_jt, judge_prof->charset);
		judgeterm_prompt(&judge_jt, &out);
		judge_show_echo(0, out.echo, out.necho);
		for (i = 0; i < judge_echo.npend; i++) {
			judgeterm_byte(&judge_jt, judge_echo.pend[i].key, &out);
			judge_show_echo(judge_echo.pend[i].key, out.echo,
			    out.necho);
		}
	}
	echo_init(&judge_echo);
	echo_charset(&judge_echo, judge_prof->charset);
	judge_mode = mode;
	judge_status();
}

/*
 * Take muxd's answers out of what the line brought (out gets the rest, a
 * beginning of an answer is kept for the next read).  An answer is
 * "ESC _ muxd", words of printable ASCII each after a space, and "ESC \"
 * ("echo" when muxd echoes; "charset=NAME" from a newer muxd).
 * For the last answer *answer gets the echo it asks for and *charset its
 * charset or -1; both are left when there is none.  Returns bytes in out.
 */
static size_t
judge_answers(const unsigned char *buf, size_t n, unsigned char *out,
    int *answer, int *charset)
{
	size_t		pre = strlen(JUDGE_APC), i, m = 0, len;
	unsigned char	c;
	int		taken;

	for (i = 0; i < n; i++) {
		c = buf[i];
		judge_ans[judge_nans++] = c;
		if (judge_nans <= pre)
			taken = c == (unsigned char)JUDGE_APC[judge_nans - 1];
		else if (judge_nans >= pre + 2 &&
		    judge_ans[judge_nans - 2] == 0x1b) {
			if ((taken = c == '\\')) {
				judge_answer_words(judge_ans + pre,
				    judge_nans - pre - 2, answer, charset);
				judge_nans = 0;
				continue;
			}
		} else
			taken = judge_nans < JUDGE_ANSWERMAX &&
			    (c == 0x1b || (c >= 0x20 && c < 0x7f)) &&
			    (judge_nans > pre + 1 || c == ' ' || c == 0x1b);
		if (taken)
			continue;
		/* Not an answer: the bytes are the line's, but a new ESC. */
		len = judge_nans - (c == 0x1b ? 1 : 0);
		memcpy(out + m, judge_ans, len);
		m += len;
		judge_nans -= len;
		if (judge_nans > 0)
			judge_ans[0] = 0x1b;
	}
	return (m);
}

/* Read the words of an answer: "echo", "charset=NAME"; others are left. */
static void
judge_answer_words(const unsigned char *words, size_t len, int *answer,
    int *charset)
{
	char			 text[JUDGE_ANSWERMAX], *w, *save = NULL;
	enum cap_encoding	 cs;

	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	memcpy(text, words, len);
	text[len] = '\0';
	*answer = PROFILE_ECHO_LOCAL;
	*charset = -1;
	for (w = strtok_r(text, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if (strcmp(w, "echo") == 0)
			*answer = PROFILE_ECHO_REMOTE;
		else if (strncmp(w, "charset=", 8) == 0) {
			if (cap_encoding_parse(w + 8, &cs) == 0)
				*charset = (int)cs;
			else
				log_warnx("muxd names a charset comprog does "
				    "not know: %s", w + 8);
		}
	}
}

/* Once a second: the status line. */
void
judge_second(void)
{
	judge_status();
}

/*
 * Follow one of muxd's cursor moves (ESC [ ... final): 1 while the byte
 * belongs to one.  They take the judge's line off the screen while the
 * entity writes, and erase across the wrap; the pane keeps lines, not a
 * screen, so it acts on what they mean rather than on the moves.
 */
static int
judge_move(unsigned char c)
{
	if (judge_esc == 0 && c != 0x1b)
		return (0);
	if (c == 0x1b)
		judge_esc = 1;
	else if (judge_esc == 1)
		judge_esc = c == '[' ? 2 : 0;
	else if (c >= 0x40 && c <= 0x7e)
		judge_esc = 0;
	return (1);
}

/*
 * Show the echo of a key: each ">" in it is a prompt (shown as the
 * profile's), but for the key itself when echoed.  An erase takes back
 * one character whatever muxd wrote for it (BS SP BS, a move up the
 * wrap, the row written again).  muxd's own moves (key 0) take the
 * judge's line off: the entity's text goes on a line of its own, and the
 * line comes back when muxd draws it again.
 */
static void
judge_show_echo(unsigned char key, const unsigned char *echo, size_t n)
{
	size_t	i;
	int	typed;

	if ((key == '\b' || key == 0x7f) && n > 0) {
		pane_feed(&judge_pane, PANE_JUDGE, &key, 1);
		return;
	}
	typed = key != '\r' && key != '\n' && key != '\b' && key != 0x7f &&
	    key != 0 && n > 0 && echo[n - 1] == (key == '\t' ? ' ' : key);
	for (i = 0; i < n; i++) {
		if (key == 0 && echo[i] == 0x1b && judge_esc == 0 &&
		    pane_current_len(&judge_pane) > 0)
			pane_feed(&judge_pane, PANE_JUDGE,
			    (const unsigned char *)"\r\n", 2);
		if (judge_move(echo[i]))
			continue;
		if (echo[i] == '>' && !(typed && i == n - 1))
			pane_text(&judge_pane, PANE_PROMPT, judge_prof->prompt);
		else
			pane_feed(&judge_pane, PANE_JUDGE, &echo[i], 1);
	}
}

/* Show the entity's text. */
static void
judge_show_entity(const unsigned char *buf, size_t n)
{
	pane_feed(&judge_pane, PANE_ENTITY, buf, n);
	if (judge_pane.bells > 0) {
		judge_pane.bells = 0;
		screen_beep();
	}
}

/* Take what echo.c sorted out of muxd's output. */
static void
judge_sorted(void *arg, int isecho, unsigned char key,
    const unsigned char *buf, size_t n)
{
	const struct timeval	*tv = arg;

	if (isecho) {
		judge_show_echo(key, buf, n);
		return;
	}
	transcript_entity(buf, n, tv);
	judge_show_entity(buf, n);
}

/* Take the judge's keys (C-] already handled). */
void
judge_key(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	struct judgeterm	 jt;
	struct judgeterm_out	 out;
	unsigned char		 kept[PORT_CHUNK];
	size_t			 i, nkept = 0;
	int			 refused = 0;

	for (i = 0; i < n && nkept < sizeof(kept); i++) {
		if (judge_mode != PROFILE_ECHO_LOCAL) {
			if (cline_send(&buf[i], 1) == -1) {
				refused++;
				continue;
			}
			echo_key(&judge_echo, buf[i], comprog_usec(tv));
			kept[nkept++] = buf[i];
			continue;
		}
		jt = judge_jt;
		judgeterm_byte(&jt, buf[i], &out);
		if (cline_send(out.entity, out.nentity) == -1) {
			refused++;
			continue;
		}
		judge_jt = jt;
		kept[nkept++] = buf[i];
		judge_show_echo(buf[i], out.echo, out.necho);
		if (out.event == JUDGETERM_JUDGE)
			judge_number = out.judge;
	}
	if (nkept > 0)
		transcript_judge(kept, nkept, tv);
	if (refused > 0) {
		judge_refused += refused;
		transcript_marker("drop %d keys refused line down", refused);
		log_warnx("%d keys refused: the line is down and %zu bytes "
		    "already wait for it", refused, cline_queued());
		screen_beep();
	}
	if (judge_mode != PROFILE_ECHO_LOCAL)
		judge_arm();
	judge_status();
}

/* Take what came from the line: the entity's text, perhaps muxd's echo. */
static void
judge_read(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	unsigned char	out[PORT_CHUNK], in[PORT_CHUNK + JUDGE_ANSWERMAX];
	size_t		m;
	int		answer = -1, charset = -1;

	n = judge_answers(buf, n > PORT_CHUNK ? PORT_CHUNK : n, in, &answer,
	    &charset);
	if (answer != -1 && judge_prof->echo == PROFILE_ECHO_AUTO)
		judge_decide((enum profile_echo)answer, answer ==
		    PROFILE_ECHO_REMOTE ? "muxd answered: it echoes the keys" :
		    "muxd answered: the keys are echoed here");
	if (answer != -1) {
		evtimer_del(judge_ask_ev);
		judge_charset(charset);
	}
	buf = in;
	m = filter_feed(&judge_filter, buf, n, out);
	if (judge_mode != PROFILE_ECHO_LOCAL) {
		echo_feed(&judge_echo, out, m, comprog_usec(tv), judge_sorted,
		    (void *)tv);
		judge_arm();
	} else {
		transcript_entity(buf, n, tv);
		judgeterm_screen(&judge_jt, out, m);
		judge_show_entity(out, m);
	}
	screen_draw();
}

/* Run echo.c's clock while keys or bytes wait. */
static void
judge_arm(void)
{
	struct timeval	tv = { 0, JUDGE_TICK_USEC };

	if (echo_waiting(&judge_echo) && !evtimer_pending(judge_tick, NULL))
		evtimer_add(judge_tick, &tv);
}

/* Let echo.c give up what waited too long. */
static void
judge_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct timeval	tv;
	uint64_t	lost = judge_echo.lost;

	(void)fd;
	(void)what;
	(void)arg;
	comprog_time(&tv);
	echo_expire(&judge_echo, comprog_usec(&tv), judge_sorted, &tv);
	if (judge_echo.lost > lost && judge_mode == PROFILE_ECHO_REMOTE)
		log_warnx("%llu keys were not echoed by the other end (is "
		    "it muxd, with the terminal convention on?)",
		    (unsigned long long)(judge_echo.lost - lost));
	judge_arm();
	screen_draw();
}

/* Follow the line going down and coming back. */
static void
judge_change(enum cline_change what, const char *msg)
{
	(void)msg;
	if (what == CLINE_DOWN)
		screen_beep();
	if (what == CLINE_UP)
		judge_ask();
	judge_status();
}
