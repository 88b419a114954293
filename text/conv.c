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
