/*
 * Remote echo: muxd prompts and echoes the judge's keys (judgeterm.c), so
 * what comes back on the line mixes muxd's echo with the entity's text.
 * The screen could show it as it is, but comprog's transcript must have
 * the entity's text alone, and the screen colours the two apart; so this
 * file tells them apart, byte by byte, without I/O.
 *
 * It keeps a shadow of muxd's judge terminal (the same judgeterm.c, fed
 * in the order muxd saw things) and the keys sent whose echo has not come
 * back yet.  The echo muxd will write for the first of those keys is the
 * one judgeterm_byte() gives on a copy of the shadow.  Bytes received that
 * match it are that echo: the key is then fed to the shadow for good.
 * Other bytes are the entity's, and are fed to the shadow with
 * judgeterm_screen(), as muxd does; that may change the expected echo (a
 * fresh prompt, "\r\n>"), which is then computed again.  Keys that muxd
 * does not echo (a second half of CR LF, a control) are fed at once.
 *
 * The CR LF that muxd writes before a prompt when the entity left the
 * cursor in mid-line is never taken for echo: the same bytes are read as
 * the entity ending its line and a prompt at the start of the next, and
 * that reading keeps the entity's line ends in its transcript.
 *
 * A partial match at the end of a read is held, up to ECHO_HOLD_USEC, for
 * the rest of the echo (a serial line delivers a few bytes at a time);
 * if what follows does not match, the held bytes were the entity's.  Keys
 * not echoed within ECHO_KEEP_USEC (no link, or muxd's convention off) are
 * given up and counted in lost.  A ">" received with no key pending at the
 * start of a screen line is muxd's prompt at the start of a link, and
 * starts a fresh shadow, as muxd starts a fresh judge terminal.
 *
 * muxd keeps the judge's unfinished line below the entity's output: it
 * takes the line off with cursor moves (ESC [ ... : the entity's text,
 * filtered, has no ESC, so a sequence is always muxd's own) and draws it
 * again, ">" and the text typed so far, once the entity ends its row or
 * with the next key.  The moves are muxd's, never the entity's; a ">" at
 * the start of a row while the shadow's line waits to be drawn again is
 * that drawing, matched against what the shadow would draw.
 *
 * The limits: an entity byte equal to the expected echo and arriving
 * before it is taken for the echo; an entity line that begins with ">"
 * while no key is pending is taken for a prompt.
 */
#include <string.h>

#include "comprog.h"

#define ECHO_RUNMAX	256

struct echo_run {			/* entity bytes gathered for one call */
	unsigned char	 buf[ECHO_RUNMAX];
	size_t		 n;
	echo_fn		 fn;
	void		*arg;
};

static void	echo_expect(struct echo *);
static void	echo_forget(struct echo *, size_t);
static void	echo_entity(struct echo *, struct echo_run *, unsigned char);
static void	echo_flush(struct echo_run *);
static void	echo_release(struct echo *, struct echo_run *);
static int	echo_redraw(struct echo *);

/* Start with no key pending and a fresh shadow. */
void
echo_init(struct echo *e)
{
	memset(e, 0, sizeof(*e));
	judgeterm_init(&e->shadow, 0, JUDGETERM_EOL_ASIS);
}

/* Say how the keys read, as muxd's judge terminal is told. */
void
echo_charset(struct echo *e, enum cap_encoding charset)
{
	e->charset = charset;
	judgeterm_charset(&e->shadow, charset);
}

/*
 * Note a key sent to muxd at usec.  With every slot taken the oldest key
 * is given up, unless its echo has started to come back (held): then the
 * next one is.
 */
void
echo_key(struct echo *e, unsigned char key, int64_t usec)
{
	if (e->npend == ECHO_PENDMAX) {
		echo_forget(e, e->nheld > 0 ? 1 : 0);
		e->lost++;
	}
	e->pend[e->npend].key = key;
	e->pend[e->npend].usec = usec;
	e->npend++;
}

/* Forget pending key i (the first's expected echo is worked out anew). */
static void
echo_forget(struct echo *e, size_t i)
{
	if (i >= e->npend)
		return;
	memmove(&e->pend[i], &e->pend[i + 1],
	    (e->npend - i - 1) * sizeof(e->pend[0]));
	e->npend--;
	if (i == 0)
		e->expok = 0;
}

/*
 * Work out the echo of the first pending key, feeding the shadow at once
 * the keys that get none.
 */
static void
echo_expect(struct echo *e)
{
	struct judgeterm_out	out;

	while (!e->expok && e->npend > 0) {
		e->next = e->shadow;
		judgeterm_byte(&e->next, e->pend[0].key, &out);
		if (out.necho == 0) {
			e->shadow = e->next;
			echo_forget(e, 0);
			continue;
		}
		memcpy(e->exp, out.echo, out.necho);
		e->nexp = out.necho;
		e->expok = 1;
	}
}

/* Hand the gathered entity bytes to the caller. */
static void
echo_flush(struct echo_run *r)
{
	if (r->n > 0)
		r->fn(r->arg, 0, 0, r->buf, r->n);
	r->n = 0;
}

/* Take one byte as the entity's. */
static void
echo_entity(struct echo *e, struct echo_run *r, unsigned char c)
{
	static unsigned char	out[VIEW_OUTLEN(1)];
	size_t			n, d;
	int			shown = judgeterm_prompted(&e->shadow);

	n = judgeterm_screen_out(&e->shadow, &c, 1, out, &d);
	if (!shown && judgeterm_prompted(&e->shadow) && d > 0 && d <= n) {
		/* The entity's row ended: muxd draws the line again. */
		memcpy(e->own, out + n - d, d);
		e->nown = d;
		e->iown = 0;
		e->redraw = e->shadow;
	}
	e->expok = 0;
	if (r->n == sizeof(r->buf))
		echo_flush(r);
	r->buf[r->n++] = c;
}

/* The held bytes were not an echo after all: they are the entity's. */
static void
echo_release(struct echo *e, struct echo_run *r)
{
	unsigned char	held[sizeof(e->held)];
	size_t		i, n = e->nheld;

	memcpy(held, e->held, n);
	e->nheld = 0;
	for (i = 0; i < n; i++)
		echo_entity(e, r, held[i]);
}

/*
 * A ">" came at the start of a row: when the shadow's line has text that
 * waits to be drawn again, expect the drawing (1); else 0.
 */
static int
echo_redraw(struct echo *e)
{
	struct judgeterm_out	out;

	if (judgeterm_prompted(&e->shadow) || !judgeterm_typed(&e->shadow))
		return (0);
	e->redraw = e->shadow;
	judgeterm_prompt(&e->redraw, &out);
	if (out.necho < 2 || out.echo[0] != '>')
		return (0);
	memcpy(e->own, out.echo, out.necho);
	e->nown = out.necho;
	e->iown = 1;
	return (1);
}

/*
 * Sort bytes received from muxd: fn(arg, 1, key, echo, len) for the echo
 * of a key (key 0: a prompt alone), fn(arg, 0, 0, bytes, len) for the
 * entity's text, in the order received.
 */
void
echo_feed(struct echo *e, const unsigned char *buf, size_t n, int64_t usec,
    echo_fn fn, void *arg)
{
	struct echo_run		r;
	struct judgeterm_out	out;
	size_t			i = 0;
	unsigned char		c;

	r.n = 0;
	r.fn = fn;
	r.arg = arg;
	while (i < n) {
		c = buf[i];
		if (e->nheld == 0 && (e->esc || c == 0x1b)) {
			/* One of muxd's cursor moves: its own. */
			echo_flush(&r);
			e->esc = c == 0x1b ? 1 : (c >= 0x40 && c <= 0x7e &&
			    e->esc == 2) ? 0 : 2;
			fn(arg, 1, 0, &c, 1);
			i++;
			continue;
		}
		if (e->iown < e->nown) {
			if (c == e->own[e->iown]) {
				echo_flush(&r);
				fn(arg, 1, 0, &c, 1);
				i++;
				if (++e->iown == e->nown)
					e->shadow = e->redraw;
				continue;
			}
			if (e->iown > 0 || c != '\n')
				e->nown = e->iown = 0;	/* not the drawing */
		}
		echo_expect(e);
		if (e->npend > 0 && c == e->exp[e->nheld] &&
		    !(e->nheld == 0 && (c == '\r' || c == '\n') &&
		    !judgeterm_prompted(&e->shadow) &&
		    !judgeterm_col0(&e->shadow))) {
			if (e->nheld == 0)
				e->heldsince = usec;
			e->held[e->nheld++] = c;
			i++;
			if (e->nheld < e->nexp)
				continue;
			echo_flush(&r);
			fn(arg, 1, e->pend[0].key, e->held, e->nheld);
			e->shadow = e->next;
			e->nheld = 0;
			echo_forget(e, 0);
			continue;
		}
		if (e->nheld > 0) {
			echo_release(e, &r);
			continue;	/* c again, against a new expectation */
		}
		i++;
		if (c == '>' && e->npend == 0 &&
		    judgeterm_col0(&e->shadow) && echo_redraw(e)) {
			echo_flush(&r);
			fn(arg, 1, 0, &c, 1);
			continue;
		}
		if (c == '>' && e->npend == 0 &&
		    judgeterm_col0(&e->shadow)) {
			echo_flush(&r);
			judgeterm_init(&e->shadow, 0, JUDGETERM_EOL_ASIS);
			judgeterm_charset(&e->shadow, e->charset);
			judgeterm_prompt(&e->shadow, &out);
			e->expok = 0;
			fn(arg, 1, 0, &c, 1);
			continue;
		}
		echo_entity(e, &r, c);
	}
	echo_flush(&r);
}

/*
 * Let time pass: release a partial echo held too long, give up keys that
 * were never echoed.  Returns 1 while something still waits.
 */
int
echo_expire(struct echo *e, int64_t usec, echo_fn fn, void *arg)
{
	struct echo_run	r;

	r.n = 0;
	r.fn = fn;
	r.arg = arg;
	if (e->nheld > 0 && usec - e->heldsince >= ECHO_HOLD_USEC)
		echo_release(e, &r);
	echo_flush(&r);
	while (e->nheld == 0 && e->npend > 0 &&
	    usec - e->pend[0].usec >= ECHO_KEEP_USEC) {
		echo_forget(e, 0);
		e->lost++;
	}
	return (echo_waiting(e));
}

/* Tell whether keys or held bytes wait. */
int
echo_waiting(const struct echo *e)
{
	return (e->npend > 0 || e->nheld > 0);
}
