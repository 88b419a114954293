/*
 * The judge's side: a terminal that presents the 1996 convention (data
 * entry rules, section 1).  The judge is prompted with ">", sees each key
 * echoed at once, may write several lines and ends a turn with two line
 * ends; "@@nn" CR CR announces judge nn.
 *
 * Local echo (the default, machine to machine): muxd's judgeterm.c runs
 * here, on the judge's keys; its echo and prompts go to the screen, the
 * keys alone (line ends as the profile says) to the line, and what comes
 * back is the entity's text.  Remote echo (--remote-echo, with muxd in
 * between, which echoes): the keys go out as typed and the screen shows
 * what comes back, sorted by echo.c into muxd's echo and the entity's
 * text.  Either way the entity's text passes muxd's control-sequence
 * filter (filter.c) before the screen, and the transcript gets the keys
 * and the entity's text.
 *
 * A key the line cannot take (down, and its queue full) is refused: not
 * echoed, not sent, a bell and the status line say so.
 */
#include <stdio.h>
#include <string.h>

#include "comprog.h"

#define JUDGE_TICK_USEC	100000	/* echo.c's expiry while keys wait */

static const struct profile	*judge_prof;
static struct judgeterm		 judge_jt;	/* local echo */
static struct echo		 judge_echo;	/* remote echo */
static struct pane		 judge_pane;
static struct filter		 judge_filter;
static struct event		*judge_tick;
static int			 judge_number = -1;
static uint64_t			 judge_refused;
static uint64_t			 judge_filtered;

static void	judge_read(const unsigned char *, size_t,
		    const struct timeval *);
static void	judge_change(enum line_change, const char *);
static void	judge_status(void);
static void	judge_show_echo(unsigned char, const unsigned char *, size_t);
static void	judge_show_entity(const unsigned char *, size_t);
static void	judge_sorted(void *, int, unsigned char, const unsigned char *,
		    size_t);
static void	judge_tick_cb(evutil_socket_t, short, void *);
static void	judge_arm(void);
static void	judge_filter_cb(void *, const struct filter_span *);

const struct line_cb judge_line_cb = { judge_read, judge_change };

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

	judge_prof = prof;
	pane_init(&judge_pane);
	filter_init(&judge_filter, 0, 0, judge_filter_cb, NULL);
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
	if (prof->remote_echo) {
		echo_init(&judge_echo);
		if ((judge_tick = evtimer_new(comprog_base, judge_tick_cb,
		    NULL)) == NULL)
			fatalx("cannot allocate a timer");
	} else {
		judgeterm_init(&judge_jt, 0, (enum judgeterm_eol)prof->eol);
		judgeterm_prompt(&judge_jt, &out);
		judge_show_echo(0, out.echo, out.necho);
	}
	judge_status();
}

/* Give the screen back. */
void
judge_stop(void)
{
	if (judge_tick != NULL)
		event_free(judge_tick);
	judge_tick = NULL;
	screen_end();
	pane_free(&judge_pane);
}

/* Write the status line: the line, what waits, the judge. */
static void
judge_status(void)
{
	char	judge[32];

	judge[0] = '\0';
	if (judge_number >= 0)
		snprintf(judge, sizeof(judge), "judge %02d", judge_number);
	comprog_status(judge, judge_refused);
}

/* Once a second: the status line. */
void
judge_second(void)
{
	judge_status();
}

/*
 * Show the echo of a key: each ">" in it is a prompt (shown as the
 * profile's), but for the key itself when echoed.
 */
static void
judge_show_echo(unsigned char key, const unsigned char *echo, size_t n)
{
	size_t	i;
	int	typed;

	typed = key != '\r' && key != '\n' && key != '\b' && key != 0x7f &&
	    key != 0 && n > 0 && echo[n - 1] == (key == '\t' ? ' ' : key);
	for (i = 0; i < n; i++) {
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
		if (judge_prof->remote_echo) {
			if (line_send(&buf[i], 1) == -1) {
				refused++;
				continue;
			}
			echo_key(&judge_echo, buf[i], comprog_usec(tv));
			kept[nkept++] = buf[i];
			continue;
		}
		jt = judge_jt;
		judgeterm_byte(&jt, buf[i], &out);
		if (line_send(out.entity, out.nentity) == -1) {
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
		    "already wait for it", refused, line_queued());
		screen_beep();
	}
	if (judge_prof->remote_echo)
		judge_arm();
	judge_status();
}

/* Take what came from the line: the entity's text, perhaps muxd's echo. */
static void
judge_read(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	unsigned char	out[PORT_CHUNK];
	size_t		m;

	m = filter_feed(&judge_filter, buf, n > sizeof(out) ? sizeof(out) : n,
	    out);
	if (judge_prof->remote_echo) {
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
	if (judge_echo.lost > lost)
		log_warnx("%llu keys were not echoed by the other end (is "
		    "it muxd, with the terminal convention on?)",
		    (unsigned long long)(judge_echo.lost - lost));
	judge_arm();
	screen_draw();
}

/* Follow the line going down and coming back. */
static void
judge_change(enum line_change what, const char *msg)
{
	(void)msg;
	if (what == LINE_DOWN)
		screen_beep();
	judge_status();
}
