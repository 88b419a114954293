/*
 * ptybench: the bytes read at end a, the judge's terminal, checked as a
 * room draws that screen (text/view.c, the 1996 convention of muxd's
 * rules, muxd/rules.c and muxd/rules-screen.c), and no more than that:
 *
 *   - the entity's stream, every letter the next of it, its line end
 *     (turn) as CR LF;
 *   - ">", the prompt, and CR LF, which begin its rows and the screen's;
 *   - BS SP BS, a prompt with nothing typed after it taken back;
 *   - ESC [ n A, C, D, J and K, the moves and erases (CUU, CUF, CUB, ED,
 *     EL) with which the judge's line is taken off the screen when the
 *     entity writes while the judge types, and no other sequence;
 *   - with -e (the room echoes the judge), each of the judge's keys, and
 *     the judge's line drawn again below the entity's text once it has
 *     been taken off: after ">" (or, once the line has passed 1024
 *     letters and its first rows were handed out, at its first letter,
 *     with no prompt), exactly the letters of the line so far, in order
 *     and whole, before the next key's echo.
 *
 * Anything else is a wrong byte, counted, the first one told.  A line
 * (turn) is taken as ended at the first CR after its last key's echo: in
 * turns nothing else is drawn between the two, since the entity writes
 * only once the judge's line end has reached it.  Without -e a forwarder
 * that is no room writes none of these but CR LF of its stream, and
 * none is accepted in place of a byte of a stream.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptybench.h"

enum {
	PTYBENCH_SCREEN_TEXT,		/* no sequence begun */
	PTYBENCH_SCREEN_ESC,		/* ESC read */
	PTYBENCH_SCREEN_CSI,		/* ESC [ and digits read */
	PTYBENCH_SCREEN_BS,		/* BS read */
	PTYBENCH_SCREEN_BSSP		/* BS SP read */
};

static void	ptybench_screen_line(struct ptybench_screen *);
static void	ptybench_screen_hide(struct ptybench_link *);
static void	ptybench_screen_letter(struct ptybench_link *, unsigned char);

/* Start the screen of a link: a prompt on it, nothing typed. */
void
ptybench_screen_init(struct ptybench_link *l)
{
	memset(&l->scr, 0, sizeof(l->scr));
	ptybench_screen_line(&l->scr);
}

/* Begin the judge's next line, after the prompt. */
static void
ptybench_screen_line(struct ptybench_screen *s)
{
	s->lfirst = s->lstart = s->rowstart = s->n;
	s->col = 1;
	s->cont = 0;
	s->replay = 0;
	s->hidden = 0;
}

/*
 * The judge's line taken off the screen (a move or erase, or a lone
 * prompt taken back): a redraw cut short by it is wrong.
 */
static void
ptybench_screen_hide(struct ptybench_link *l)
{
	if (l->scr.replay)
		ptybench_mode_wrong(l, 0, 0x1b, "the judge's line drawn again "
		    "in part");
	l->scr.replay = 0;
	l->scr.hidden = 1;
	l->prompts++;
}

/*
 * A letter of the judge's at end a: of the line drawn again, or the echo
 * of the next key, which the room puts on its line as view.c does (a
 * line of 1024 letters hands out its rows but the last, which is drawn
 * again thereafter without the prompt; a row holds 80 columns).
 */
static void
ptybench_screen_letter(struct ptybench_link *l, unsigned char c)
{
	struct ptybench_screen	*s = &l->scr;

	if (!opt_echo) {
		ptybench_mode_wrong(l, 0, c, "from no stream");
		return;
	}
	if (s->hidden && !s->replay) {
		s->hidden = 0;
		s->rp = s->lstart;
		s->replay = s->rp < s->n;
	}
	if (s->replay) {
		if (c != s->hist[s->rp % PTYBENCH_HIST])
			ptybench_mode_wrong(l, 0, c, "in the judge's line drawn "
			    "again");
		if (++s->rp == s->n)
			s->replay = 0;
		return;
	}
	if (c != ptybench_gen_next(&l->echo))
		ptybench_mode_wrong(l, 0, c, "in the echo");
	if (s->n - s->lstart == PTYBENCH_LINEMAX) {
		s->lstart = s->rowstart;
		s->cont = 1;
	}
	if (s->col + 1 > PTYBENCH_WIDTH) {
		s->col = 0;
		s->rowstart = s->n;
	}
	s->col++;
	s->hist[s->n++ % PTYBENCH_HIST] = c;
	l->echoed++;
}

/* Check a byte read at end a of a link. */
void
ptybench_screen_byte(struct ptybench_link *l, unsigned char c, uint64_t now)
{
	struct ptybench_screen	*s = &l->scr;
	struct ptybench_stream	*st = &l->st[1];
	long			 len = l->st[0].linelen;

	switch (s->seq) {
	case PTYBENCH_SCREEN_ESC:
		s->seq = c == '[' ? PTYBENCH_SCREEN_CSI : PTYBENCH_SCREEN_TEXT;
		if (c != '[')
			ptybench_mode_wrong(l, 0, c, "after ESC, no [");
		return;
	case PTYBENCH_SCREEN_CSI:
		if (isdigit(c))
			return;
		s->seq = PTYBENCH_SCREEN_TEXT;
		if (c == '\0' || strchr("ACDJK", c) == NULL)
			ptybench_mode_wrong(l, 0, c, "a control sequence the "
			    "room does not write");
		else
			ptybench_screen_hide(l);
		return;
	case PTYBENCH_SCREEN_BS:
		s->seq = c == ' ' ? PTYBENCH_SCREEN_BSSP : PTYBENCH_SCREEN_TEXT;
		if (c != ' ')
			ptybench_mode_wrong(l, 0, c, "after BS, no SP");
		return;
	case PTYBENCH_SCREEN_BSSP:
		s->seq = PTYBENCH_SCREEN_TEXT;
		if (c != '\b')
			ptybench_mode_wrong(l, 0, c, "after BS SP, no BS");
		else
			ptybench_screen_hide(l);
		return;
	}
	if (islower(c)) {
		ptybench_screen_letter(l, c);
		return;
	}
	if (c == '\r' || c == '\n') {
		/* The entity's line end, a line end echoed, or the screen's. */
		if (st->linelen > 0 && st->rcol >= st->linelen &&
		    c == (unsigned char)st->eol[st->rcol - st->linelen]) {
			(void)ptybench_mode_recv(l, 0, c, now);
			return;
		}
		if (c == '\r' && opt_echo && len > 0 &&
		    (long)(s->n - s->lfirst) == len) {
			l->echoed++;
			ptybench_screen_line(s);
		}
		l->prompts++;
		return;
	}
	if (s->replay) {
		ptybench_mode_wrong(l, 0, c, "the judge's line drawn again in "
		    "part");
		s->replay = 0;
	}
	switch (c) {
	case 0x1b:
		s->seq = PTYBENCH_SCREEN_ESC;
		return;
	case '\b':
		s->seq = PTYBENCH_SCREEN_BS;
		return;
	case '>':
		l->prompts++;
		s->hidden = 0;
		s->rp = s->lstart;
		s->replay = opt_echo && s->rp < s->n;
		return;
	}
	if (ptybench_mode_recv(l, 0, c, now) == -1)
		ptybench_mode_wrong(l, 0, c, "from no stream");
}
