/*
 * The 1996 convention's keys, decided here alone (transcripts(5), "The
 * terminal convention"): the live judge's terminal (contest/judgeterm.c),
 * the transcript's lines (tx-line.c), the judge's screen (view.c) and the
 * statistics (transcripts/stats.c) all read bytes through it, so that the
 * same bytes give the same line ends, erases and turn ends everywhere.
 *
 *	CR, LF, CR LF and LF CR each end one line: a CR or LF is remembered
 *	and the other one, next, is the second half of the same line end;
 *	BS and DEL erase;
 *	a tab is spaces to the next column that is a multiple of 8;
 *	a judge's ENQ is a terminal's question, no key (TX_ENQ);
 *	two line ends with nothing between end the judge's turn;
 *	a line that reads "@@nn" announces judge nn (tx_line_announced()).
 */
#include <string.h>

#include "text.h"

enum conv_seq {
	CONV_SEQ_NONE,
	CONV_SEQ_ESC,		/* after ESC */
	CONV_SEQ_CSI,		/* ESC [ or 0x9b: up to a final byte */
	CONV_SEQ_SS3		/* ESC O or 0x8f: one more byte */
};

/* Start reading a side's bytes. */
void
conv_init(struct conv *c)
{
	memset(c, 0, sizeof(*c));
}

/* What a byte of a side is; judge is set for the judge's side. */
enum conv_key
conv_key(struct conv *c, int judge, unsigned char b)
{
	if (judge && b == TX_ENQ)
		return (CONV_QUERY);
	if (b == '\r' || b == '\n') {
		if (c->eol != 0 && c->eol != b) {
			c->eol = 0;
			return (CONV_EOL_HALF);
		}
		c->eol = b;
		if (++c->eols == 2) {
			c->eols = 0;
			return (CONV_TURN);
		}
		return (CONV_EOL);
	}
	c->eol = 0;
	c->eols = 0;
	if (b == '\b' || b == 0x7f)
		return (CONV_ERASE);
	return (CONV_TEXT);
}

/* Tell whether a key ends a line: a line end, the turn's included. */
int
conv_ends_line(enum conv_key k)
{
	return (k == CONV_EOL || k == CONV_TURN);
}

/* The spaces a tab takes at column col (0-based). */
size_t
conv_tab(size_t col)
{
	return (CONV_TABSTOP - col % CONV_TABSTOP);
}

/*
 * Follow the escape sequences of a judge's cursor and function keys
 * (ESC [ ... final, ESC O x, ESC x; 0x9b and 0x8f on ISO-8859-1) in
 * *seq (0 to begin); 1 when the byte belongs to one.
 */
int
conv_keyseq(int *seq, enum cap_encoding cs, unsigned char c)
{
	switch (*seq) {
	case CONV_SEQ_NONE:
		if (c == 0x1b)
			*seq = CONV_SEQ_ESC;
		else if (c == 0x9b && cs == CAP_LATIN1)
			*seq = CONV_SEQ_CSI;
		else if (c == 0x8f && cs == CAP_LATIN1)
			*seq = CONV_SEQ_SS3;
		return (*seq != CONV_SEQ_NONE);
	case CONV_SEQ_ESC:
		if (c == '[')
			*seq = CONV_SEQ_CSI;
		else if (c == 'O')
			*seq = CONV_SEQ_SS3;
		else if (c >= 0x20 && c < 0x7f)
			*seq = CONV_SEQ_NONE;	/* ESC x: Alt-x */
		else
			break;
		return (1);
	case CONV_SEQ_CSI:
		if (c >= 0x20 && c < 0x40)
			return (1);
		if (c >= 0x40 && c < 0x7f) {
			*seq = CONV_SEQ_NONE;
			return (1);
		}
		break;
	case CONV_SEQ_SS3:
		if (c >= 0x20 && c < 0x7f) {
			*seq = CONV_SEQ_NONE;
			return (1);
		}
		break;
	}
	/* Anything else ends the sequence and counts on its own. */
	*seq = CONV_SEQ_NONE;
	return (conv_keyseq(seq, cs, c));
}
