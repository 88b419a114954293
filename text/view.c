/*
 * The judge's screen: one model of what the judge's terminal shows, fed
 * the judge's keystrokes and the entity's output (filtered, filter.c) in
 * the order they reached the screen.  It writes the bytes for the
 * terminal and hands out the finished screen rows, each the judge's or
 * the program's, which are the transcript's lines (transcripts(5)).  muxd
 * runs it live on every judge's link; the transcript writer
 * (capture/tx-write.c) runs it on a capture's events, live and in
 * `transcripts render`; export and replay show its bytes.  So the screen
 * and the record cannot differ.
 *
 * Rows.  A screen row is the judge's or the entity's.  The entity's
 * current row is finished (handed out) by a line end or by a character
 * that does not fit in the width (the wrap); its erases (BS, DEL) take
 * back its own last character and never reach into a finished row.  The
 * judge's line is one logical line of any number of rows (">" and the
 * text, wrapped at the width) until the judge ends it: only then are its
 * rows handed out, so the judge may erase back across the wrap, as a
 * line editor lets him.  Empty rows are never handed out.
 *
 * Interleaving.  The judge's unfinished line is always the last thing on
 * the screen, below the entity's unfinished row, as readline keeps its
 * line below the output of others: when the entity writes while the
 * judge's line has text, the line is taken off the screen, the entity's
 * text is written where it belongs, and the line (the prompt and the text
 * typed so far) is drawn again below once the entity ends its row, or
 * with the judge's next key, whichever comes first; not after each
 * character of an entity that types, which would send the whole line
 * again for each (at 9600 baud, seconds).  A prompt with nothing typed
 * after it is taken back and written again with the judge's next key.
 * When the judge ends his line, the entity's unfinished row above it is
 * finished first, so that the rows are handed out in screen order.
 *
 * Local echo (VIEW_LOCALECHO: a terminal that shows the keys itself;
 * view-local.c).
 * The terminal shows a key where its cursor stands, before muxd reads
 * it, so muxd keeps the cursor where the next key belongs: the prompt
 * is written as soon as the judge's next line is due and the cursor
 * begins a fresh row (at the end of a turn, with the entity's line end),
 * not with the next key.  The judge's line is taken off and drawn again
 * as above.  A key the terminal showed where the line is not (the entity
 * wrote since, its row unfinished) is taken back, CR LF of the Enter key
 * too, and muxd echoes it on the line drawn again.  After an erase key
 * (shown as a move left by some terminals, as nothing by others) the
 * cursor is put back where the key found it and muxd draws the erase,
 * across the wrap too.  Enter is shown as CR LF (picocom --echo) or, with
 * VIEW_ECHOCR, as CR alone (tio --local-echo), and then muxd writes the
 * LF at once, so that the screen is the same.
 *
 * Widths.  A character takes the columns utf8proc gives it (Unicode's
 * East Asian width): two for CJK and emoji, none for a combining mark,
 * which joins the character before it (and is dropped with no character
 * before it on the row).  A tab is spaces to the next column that is a
 * multiple of 8, one character that one erase takes back.  A row holds
 * width columns: a character that would cross the edge begins the next
 * row, on the screen (CR LF written first) and in the record alike.
 *
 * The judge's keys (transcripts(5), "The judge's keys"): printable
 * characters (a whole UTF-8 character on a UTF-8 link, 0x20-0x7e and
 * 0xa0-0xff on ISO-8859-1) are text; a tab is text as above; BS and DEL
 * erase; CR, LF, CR LF and LF CR end the line (conv.c), two in a row end
 * the turn; ENQ is a terminal's question, no key.  Everything else is
 * dropped, neither shown, recorded nor sent on: other C0 and C1
 * controls, and the escape sequences of cursor and function keys (ESC [
 * ... final, ESC O x, ESC x).  A line holds at most VIEW_LINEMAX bytes of
 * text; a key past that makes room (view_commit): the line's rows but
 * the last are handed out, never to be erased again, and the line goes
 * on from its last row.
 *
 * The entity's output, already filtered: printable characters and tabs
 * as above, BS and DEL erase, line ends as the convention's, BEL rings
 * (on the screen only); what the filter passed through (a room without
 * the filter) is recorded as \xHH text.
 *
 * The bytes for the terminal are plain text, CR LF, BS, and of ECMA-48
 * (VT100) only CUU (ESC [ A), CUF (ESC [ n C), EL (ESC [ K) and ED (ESC
 * [ J), used to erase across a wrap and to take the judge's line off.
 * On an ISO-8859-1 link a character is written as its byte, on UTF-8 as
 * its bytes; the rows are UTF-8 whatever the link, a backslash doubled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "view.h"

static void	view_cell_out(struct view *, const struct view_side *, size_t);
static void	view_emit(struct view *, struct view_side *, enum tx_who,
		    size_t, size_t);
static void	view_line_clear(struct view *);
static void	view_emit_line(struct view *);
static void	view_emit_rows(struct view *, size_t);
static void	view_commit(struct view *);
static void	view_hide(struct view *);
static void	view_entity_finish(struct view *);
static int	view_add(struct view *, struct view_side *, const char *,
		    size_t, int, int64_t);
static void	view_erase(struct view *, struct view_side *, int);
static int	view_risky(const struct view_side *, const struct view_cell *);
static void	view_line_end(struct view *, int, struct view_key *);
static void	view_entity_text(struct view *, const char *, size_t, int,
		    int64_t);

/*
 * Start a screen: width columns (0: the default), the first judge, the
 * link's character set, flags (VIEW_PROMPT: the 1996 prompt and echo
 * are muxd's; VIEW_LOCALECHO: the terminal echoes the keys itself), and
 * where the finished rows go (row may be NULL).
 */
void
view_init(struct view *v, int width, int judge, enum cap_encoding charset,
    int flags, void (*row)(void *, const struct tx_out *), void *arg)
{
	memset(v, 0, sizeof(*v));
	if (width == 0)
		width = TX_WIDTH;
	if (width < TX_WIDTH_MIN)
		width = TX_WIDTH_MIN;
	if (width > VIEW_WIDTHMAX)
		width = VIEW_WIDTHMAX;
	v->width = (size_t)width;
	v->judge = judge;
	v->charset = charset;
	v->tcharset = charset;
	v->flags = flags;
	v->row = row;
	v->arg = arg;
	v->prompt = (flags & VIEW_PROMPT) ? 1 : 0;
	v->draw = v->prompt;
	v->keyecho = v->prompt && !(flags & VIEW_LOCALECHO);
	v->jcol = (size_t)v->prompt;
}

/* Read the link's bytes in a character set from now on. */
void
view_charset(struct view *v, enum cap_encoding charset)
{
	v->charset = charset;
	v->tcharset = charset;
}

/*
 * Say the judge's terminal reads another character set than the link:
 * its keys are read, and the screen written, in that one; a character it
 * lacks is shown (and recorded) as its nearest ASCII (glyph_translit).
 */
void
view_terminal(struct view *v, enum cap_encoding charset)
{
	v->tcharset = charset;
}

/*
 * Say that the terminal's cursor is not at the start of a row as the
 * screen is taken over (text left by what came before): the first thing
 * written begins a fresh row.
 */
void
view_midline(struct view *v)
{
	v->dirty = 1;
}

/* Append bytes for the terminal, up to the buffer's end. */
void
view_put(struct view *v, const void *p, size_t n)
{
	if (v->o == NULL)
		return;
	if (v->olen + n > v->osize)
		n = v->osize - v->olen;		/* cannot happen: sized */
	memcpy(v->o + v->olen, p, n);
	v->olen += n;
}

/* Append a string for the terminal. */
void
view_puts(struct view *v, const char *s)
{
	view_put(v, s, strlen(s));
}

/*
 * Move the cursor along its row from column from (the width: past the
 * last column, where the terminal waits to wrap) to column to, with CUB
 * or CUF: a CR only from past the last column, so that a reader of the
 * stream (comprog) can tell muxd's moves from text by their ESC.
 */
void
view_move(struct view *v, size_t from, size_t to)
{
	char	buf[16];

	if (from >= v->width) {
		/*
		 * Past the last column terminals differ (where the cursor
		 * stands, whether an erase clears the wrap to come): a CR
		 * leaves that state the same way on all of them.
		 */
		view_put(v, "\r", 1);
		from = 0;
	}
	if (to >= v->width)
		to = v->width - 1;
	if (to < from)
		snprintf(buf, sizeof(buf), "\033[%zuD", from - to);
	else if (to > from)
		snprintf(buf, sizeof(buf), "\033[%zuC", to - from);
	else
		return;
	view_puts(v, buf);
}

/* Write a cell of a side for the terminal, in the link's charset. */
static void
view_cell_out(struct view *v, const struct view_side *s, size_t i)
{
	view_text_out(v, (const unsigned char *)s->text + s->cell[i].off,
	    s->cell[i].n);
}

/* Write a character as cells keep it (UTF-8, a backslash doubled). */
void
view_text_out(struct view *v, const unsigned char *p, size_t n)
{
	size_t		 k, used;
	unsigned int	 cp;
	unsigned char	 b;

	if (n == 2 && p[0] == '\\' && p[1] == '\\') {
		view_put(v, "\\", 1);
		return;
	}
	if (v->tcharset != CAP_LATIN1 || (v->flags & VIEW_UTF8OUT)) {
		view_put(v, p, n);
		return;
	}
	for (k = 0; k < n; k += used) {
		if (utf8_decode(p + k, n - k, &used, &cp) == 0) {
			used = 1;
			cp = p[k];
		}
		b = cp <= 0xff ? (unsigned char)cp : '?';
		view_put(v, &b, 1);
	}
}

/*
 * Hand out cells [from, to) of a side as one row of who's (nothing when
 * empty), escaped as a transcript writes them.
 */
static void
view_emit(struct view *v, struct view_side *s, enum tx_who who, size_t from,
    size_t to)
{
	struct tx_out	 out;
	size_t		 i, n = 0;

	if (from >= to || v->row == NULL)
		return;
	for (i = from; i < to; i++) {
		memcpy(v->rowbuf + n, s->text + s->cell[i].off, s->cell[i].n);
		n += s->cell[i].n;
	}
	memset(&out, 0, sizeof(out));
	out.kind = TX_OUT_LINE;
	out.who = who;
	out.judge = s->judge;
	out.usec = s->cell[from].usec;
	out.text = v->rowbuf;
	out.len = n;
	v->row(v->arg, &out);
}

/* Begin a new judge's line, nothing typed, not on the screen. */
static void
view_line_clear(struct view *v)
{
	v->jl.ncell = 0;
	v->jl.len = 0;
	v->jrow = 0;
	v->jcol = (size_t)v->prompt;
	v->shown = 0;
	v->cont = 0;
}

/* Hand out the judge's line, a row for each screen row it took. */
static void
view_emit_line(struct view *v)
{
	view_emit_rows(v, v->jl.ncell);
}

/* Hand out the first n cells of the judge's line, a row a screen row. */
static void
view_emit_rows(struct view *v, size_t n)
{
	struct view_side	*j = &v->jl;
	size_t			 i, from;

	for (i = 0, from = 0; i <= n; i++)
		if (i == n || j->cell[i].row != j->cell[from].row) {
			view_emit(v, j, TX_JUDGE, from, i);
			from = i;
		}
}

/*
 * Make room in a judge's line that holds VIEW_LINEMAX bytes: its rows
 * but the last are handed out, never to be erased, and the line goes on
 * from the last (a line of one row is handed out whole, and the line goes
 * on at the start of the next row).
 */
static void
view_commit(struct view *v)
{
	struct view_side	*j = &v->jl;
	size_t			 keep, i, off;

	for (keep = j->ncell; keep > 0 && j->cell[keep - 1].row == v->jrow;
	    keep--)
		;
	v->cont = 1;
	if (v->below) {
		view_entity_finish(v);	/* above the rows handed out */
		v->below = 0;
	}
	if (keep == 0) {
		view_emit_rows(v, j->ncell);
		j->ncell = 0;
		j->len = 0;
		v->jrow = 0;
		v->jcol = 0;
		if (v->keyecho)
			view_put(v, "\r\n", 2);
		return;
	}
	view_emit_rows(v, keep);
	off = keep < j->ncell ? j->cell[keep].off : j->len;
	memmove(j->text, j->text + off, j->len - off);
	j->len -= off;
	for (i = keep; i < j->ncell; i++) {
		j->cell[i - keep] = j->cell[i];
		j->cell[i - keep].off -= (unsigned short)off;
		j->cell[i - keep].row = 0;
	}
	j->ncell -= keep;
	v->jrow = 0;
}

/* Draw the judge's line (prompt and text) below what is on the screen. */
void
view_show(struct view *v)
{
	struct view_side	*j = &v->jl;
	size_t			 i, row = 0;

	if (v->shown)
		return;
	v->shown = 1;
	v->owed = 0;
	v->below = 0;
	if (!v->prompt)
		return;		/* no convention: the terminal's own */
	if (v->ent.ncell > 0 || v->ent.cols > 0) {
		view_put(v, "\r\n", 2);
		v->below = 1;
	} else if (v->dirty)
		view_put(v, "\r\n", 2);
	v->dirty = 0;
	if (!v->cont)
		view_put(v, ">", 1);
	if (!v->draw)
		return;		/* local echo: what is typed is its own */
	for (i = 0; i < j->ncell; i++) {
		for (; row < j->cell[i].row; row++)
			view_put(v, "\r\n", 2);
		view_cell_out(v, j, i);
	}
	for (; row < v->jrow; row++)
		view_put(v, "\r\n", 2);	/* a row begun, nothing on it */
}

/*
 * Take the judge's line off the screen, the cursor back where the
 * entity's row ends.  A line with nothing typed loses its prompt.
 */
static void
view_hide(struct view *v)
{
	size_t	i;

	if (!v->shown)
		return;
	v->shown = 0;
	if (v->prompt && v->jl.ncell == 0 && !v->cont && !v->below) {
		view_put(v, "\b \b", 3);	/* a prompt alone */
	} else if (v->draw || (v->prompt && v->jl.ncell == 0 && !v->cont)) {
		view_move(v, v->jcol, 0);
		for (i = 0; i < v->jrow; i++)
			view_puts(v, "\033[A");
		view_puts(v, v->jrow > 0 ? "\033[J" : "\033[K");
		if (v->below) {
			view_puts(v, "\033[A");
			view_move(v, 0, v->ent.cols);
		}
	}
	v->below = 0;
}

/*
 * Put a cell of n bytes and w columns (w < 0: a mark that joins the cell
 * before) on a side's line: the entity's row or the judge's line.
 * Returns 0, or -1 when the side has no room for it.
 */
static int
view_add(struct view *v, struct view_side *s, const char *p, size_t n, int w,
    int64_t usec)
{
	struct view_cell	*c;
	int			 judge = s == &v->jl;
	size_t			 max = judge ? VIEW_LINEMAX : sizeof(s->text);

	if (s->len + n > max || s->ncell == VIEW_CELLS)
		return (-1);
	if (w < 0) {
		/* A mark: it joins the last cell, written after it. */
		if (s->ncell == 0 ||
		    s->cell[s->ncell - 1].n + n > VIEW_CELLBYTES)
			return (0);
		memcpy(s->text + s->len, p, n);
		s->len += n;
		s->cell[s->ncell - 1].n += (unsigned char)n;
		if (judge ? v->shown && v->keyecho : 1)
			view_put(v, p, n);
		return (0);
	}
	if (s->ncell == 0) {
		s->judge = v->judge;
		s->usec = usec;
	}
	if (judge) {
		if (v->jcol + (size_t)w > v->width) {
			v->jrow++;
			v->jcol = 0;
			if (v->keyecho)
				view_put(v, "\r\n", 2);
		}
	} else if (s->cols + (size_t)w > v->width) {
		/* The wrap: the row is finished, the cell begins the next. */
		view_emit(v, s, TX_PROGRAM, 0, s->ncell);
		s->ncell = 0;
		s->len = 0;
		s->cols = 0;
		s->judge = v->judge;
		view_put(v, "\r\n", 2);
	}
	c = &s->cell[s->ncell++];
	c->off = (unsigned short)s->len;
	c->n = (unsigned char)n;
	c->w = (unsigned char)w;
	c->usec = usec;
	memcpy(s->text + s->len, p, n);
	s->len += n;
	if (judge) {
		c->row = (unsigned short)v->jrow;
		c->col = (unsigned short)v->jcol;
		v->jcol += (size_t)w;
		if (v->keyecho)
			view_cell_out(v, s, s->ncell - 1);
	} else {
		c->row = 0;
		c->col = (unsigned short)s->cols;
		s->cols += (size_t)w;
		view_cell_out(v, s, s->ncell - 1);
	}
	return (0);
}

/*
 * Take back the last cell of a side: with BS SP BS on its row, or, when
 * the cursor is past it (at the edge, or on the next row of the judge's
 * line), by moving there and erasing to the end of the row.
 */
static void
view_erase(struct view *v, struct view_side *s, int draw)
{
	struct view_cell	*c;
	size_t			 row, col, k;

	if (s->ncell == 0)
		return;
	c = &s->cell[--s->ncell];
	s->len = c->off;
	if (s == &v->jl) {
		row = v->jrow;
		col = v->jcol;
		v->jrow = c->row;
		v->jcol = c->col;
	} else {
		row = 0;
		col = s->cols;
		s->cols = c->col;
	}
	if (!draw)
		return;
	if (row == c->row && col < v->width && !view_risky(s, c)) {
		for (k = 0; k < c->w; k++)
			view_put(v, "\b", 1);
		for (k = 0; k < c->w; k++)
			view_put(v, " ", 1);
		for (k = 0; k < c->w; k++)
			view_put(v, "\b", 1);
		return;
	}
	for (; row > c->row; row--)
		view_puts(v, "\033[A");
	if (!view_risky(s, c)) {
		view_move(v, col, c->col);
		view_puts(v, "\033[K");
		return;
	}
	/*
	 * A wide character, or one of several code points: a terminal of
	 * other width tables may place it otherwise, so the row is written
	 * again from its start up to it, and erased after.
	 */
	view_move(v, v->width, 0);
	if (s == &v->jl && c->row == 0 && v->prompt && !v->cont)
		view_put(v, ">", 1);
	for (k = 0; k < s->ncell; k++)
		if (s->cell[k].row == c->row)
			view_cell_out(v, s, k);
	view_puts(v, "\033[K");
}

/*
 * Tell whether terminals may disagree on a cell's width: a wide
 * character, or a character with marks joined to it.
 */
static int
view_risky(const struct view_side *s, const struct view_cell *c)
{
	const unsigned char	*p = (const unsigned char *)s->text + c->off;

	if (c->n == 0 || p[0] < 0x80)
		return (0);		/* ASCII, a tab, an escape */
	return (c->w == 2 || utf8_len(p[0]) != c->n);
}

/* The entity's text cell: the judge's line off while it is written. */
static void
view_entity_text(struct view *v, const char *rep, size_t n, int w,
    int64_t usec)
{
	char		 tl[GLYPH_TRANSLITMAX + 1];
	size_t		 used;
	unsigned int	 cp;

	if (v->tcharset == CAP_LATIN1 && n > 1 && utf8_decode((const
	    unsigned char *)rep, n, &used, &cp) && cp > 0xff) {
		/* The terminal has no such character: its nearest. */
		if (w < 0)
			return;		/* a mark: nothing to show */
		n = glyph_translit(cp, tl);
		rep = tl;
		w = (int)n;
	}
	if (w < 0 && v->ent.ncell == 0)
		return;		/* a mark with nothing before it */
	if (v->shown) {
		v->owed = v->draw && v->jl.ncell > 0;
		view_hide(v);
	}
	if (v->dirty) {
		view_put(v, "\r\n", 2);
		v->dirty = 0;
	}
	(void)view_add(v, &v->ent, rep, n, w, usec);
}

/* Finish the entity's row: handed out, the cursor to a fresh row. */
static void
view_entity_finish(struct view *v)
{
	struct view_side	*e = &v->ent;

	view_emit(v, e, TX_PROGRAM, 0, e->ncell);
	e->ncell = 0;
	e->len = 0;
	e->cols = 0;
}

/*
 * Feed the entity's output (filtered) that reached the screen at usec;
 * the bytes for the terminal go to out (VIEW_OUTLEN(n) bytes), their
 * length returned.
 */
size_t
view_output(struct view *v, const unsigned char *p, size_t n, int64_t usec,
    char *out)
{
	char		 rep[16];
	size_t		 i, k, m;
	enum conv_key	 key;
	int		 w;

	v->o = out;
	v->olen = 0;
	v->osize = VIEW_OUTLEN(n);
	v->drawn = 0;
	for (i = 0; i < n; i++) {
		key = conv_key(&v->econv, 0, p[i]);
		if (v->eu8.held && !utf8_cont(p[i]) &&
		    glyph_read(v->charset, &v->eu8, p[i], rep, &m, &w))
			view_entity_text(v, rep, m, w, usec);	/* cut off */
		if (key == CONV_EOL_HALF)
			continue;
		if (conv_ends_line(key)) {
			if (v->shown) {
				v->owed = v->draw && v->jl.ncell > 0;
				view_hide(v);
			}
			if (v->ent.ncell > 0 || v->ent.cols > 0) {
				view_entity_finish(v);
				view_put(v, "\r\n", 2);
			} else {
				view_put(v, "\r\n", 2);
				v->dirty = 0;
			}
			continue;
		}
		if (key == CONV_ERASE) {
			if (v->ent.ncell == 0)
				continue;
			if (v->shown) {
				v->owed = v->draw && v->jl.ncell > 0;
				view_hide(v);
			}
			view_erase(v, &v->ent, 1);
			continue;
		}
		if (p[i] == VIEW_BEL) {
			view_put(v, "\a", 1);
			continue;
		}
		if (p[i] == VIEW_TAB) {
			k = conv_tab(v->ent.cols);
			if (v->ent.cols >= v->width)
				k = conv_tab(0);
			else if (v->ent.cols + k > v->width)
				k = v->width - v->ent.cols;
			memset(rep, ' ', k);
			view_entity_text(v, rep, k, (int)k, usec);
			continue;
		}
		if (glyph_read(v->charset, &v->eu8, p[i], rep, &m, &w))
			view_entity_text(v, rep, m, w, usec);
	}
	/*
	 * A line taken off is drawn again once the entity's row is done (its
	 * line end), or with the judge's next key: not after every
	 * character of a typing entity, which would send the whole line
	 * again for each.
	 */
	k = v->olen;
	if (v->owed && v->ent.ncell == 0 && v->ent.cols == 0)
		view_show(v);
	view_local_ready(v);
	v->drawn = v->olen - k;
	view_local_mark(v);
	v->o = NULL;
	return (v->olen);
}

/* Write the prompt now if it is owed (a link made); its bytes' length. */
size_t
view_prompt(struct view *v, char *out)
{
	v->o = out;
	v->olen = 0;
	v->osize = VIEW_SHOWMAX;
	if (v->prompt)
		view_show(v);
	v->o = NULL;
	return (v->olen);
}

/*
 * End the judge's line (turn: the second line end in a row): the entity's
 * row above it finished, its rows handed out, a judge change or the line
 * told in k, the next prompt written within a turn.
 */
static void
view_line_end(struct view *v, int turn, struct view_key *k)
{
	struct view_side	*j = &v->jl;
	size_t			 i;
	int			 nn = -1;

	view_show(v);
	if (v->below)
		view_entity_finish(v);
	v->below = 0;
	/* The line's text, for the caller; "@@nn" is a judge change. */
	for (i = 0, k->linelen = 0; i < j->ncell; i++) {
		memcpy(v->line + k->linelen, j->text + j->cell[i].off,
		    j->cell[i].n);
		k->linelen += j->cell[i].n;
	}
	v->line[k->linelen] = '\0';
	k->line = v->line;
	if (!turn)
		nn = tx_line_announced(v->line, k->linelen);
	if (nn >= 0) {
		k->event = VIEW_EV_JUDGE;
		k->judge = nn;
		(void)view_judge(v, nn);
	} else {
		view_emit_line(v);
		k->event = turn ? VIEW_EV_TURN : VIEW_EV_LINE;
	}
	if (v->keyecho)
		view_put(v, "\r\n", 2);
	view_line_clear(v);
	if (turn) {
		k->line = NULL;
		k->linelen = 0;
		view_local_ready(v);
		return;		/* the entity answers first */
	}
	if (v->prompt)
		view_show(v);	/* the next line of this turn */
}

/*
 * Feed a keystroke of the judge at usec: k says what it is (the bytes to
 * send on, an event), the bytes for the terminal go to out (VIEW_SHOWMAX
 * bytes), their length returned.
 */
size_t
view_key(struct view *v, unsigned char c, int64_t usec, struct view_key *k,
    char *out)
{
	char		 rep[16];
	size_t		 n, t;
	enum conv_key	 key;
	int		 w, echo = 0;

	memset(k, 0, sizeof(*k));
	v->o = out;
	v->olen = 0;
	v->osize = VIEW_SHOWMAX;
	key = conv_key(&v->jconv, 1, c);
	if (key == CONV_QUERY) {
		k->kind = VIEW_KEY_QUERY;
		goto done;
	}
	if (v->ju8.held && !utf8_cont(c))
		(void)utf8_byte(&v->ju8, c);	/* a beginning cut off */
	if (key == CONV_EOL_HALF) {
		v->seq = 0;
		k->kind = VIEW_KEY_EOL_HALF;
		goto done;
	}
	if (conv_ends_line(key)) {
		v->seq = 0;
		k->kind = VIEW_KEY_EOL;
		view_local_enter(v);
		echo = view_local_unecho(v, key, c, 0);
		view_line_end(v, key == CONV_TURN, k);
		goto done;
	}
	if (key == CONV_ERASE) {
		v->seq = 0;
		k->kind = VIEW_KEY_ERASE;
		echo = view_local_unecho(v, key, c, 0);
		if (v->jl.ncell > 0)
			view_erase(v, &v->jl, v->shown && v->keyecho);
		goto done;
	}
	if (conv_keyseq(&v->seq, v->tcharset, c) || (c < 0x20 && c != VIEW_TAB) ||
	    (c >= 0x7f && c < 0xa0 && v->tcharset == CAP_LATIN1)) {
		k->kind = VIEW_KEY_DROP;
		goto done;
	}
	if (c == VIEW_TAB) {
		t = v->jcol >= v->width ? conv_tab(0) : conv_tab(v->jcol);
		if (v->jcol < v->width && v->jcol + t > v->width)
			t = v->width - v->jcol;
		memset(rep, ' ', t);
		n = t;
		w = (int)t;
	} else if (!glyph_read(v->tcharset, &v->ju8, c, rep, &n, &w)) {
		k->kind = VIEW_KEY_PART;	/* a character begun */
		goto done;
	} else if (c >= 0x80 && rep[0] == '\\') {
		k->kind = VIEW_KEY_DROP;	/* a C1 control, no character */
		goto done;
	}
	if (w < 0 && v->jl.ncell == 0) {
		k->kind = VIEW_KEY_DROP;	/* a mark with nothing before */
		goto done;
	}
	echo = view_local_unecho(v, key, c, w);
	view_show(v);
	if (v->jl.len + n > VIEW_LINEMAX || v->jl.ncell == VIEW_CELLS)
		view_commit(v);
	(void)view_add(v, &v->jl, rep, n, w, usec);
	k->kind = VIEW_KEY_TEXT;
	memcpy(v->keytext, rep, n);
	k->text = v->keytext;
	k->ntext = n;
done:
	if (echo)
		v->keyecho = 0;		/* the terminal's again */
	view_local_mark(v);
	v->o = NULL;
	return (v->olen);
}

/* Change the judge (a marker); 1 when it changed, the change handed out. */
int
view_judge(struct view *v, int judge)
{
	struct tx_out	out;

	if (judge == v->judge)
		return (0);
	v->judge = judge;
	if (v->row != NULL) {
		memset(&out, 0, sizeof(out));
		out.kind = TX_OUT_JUDGE;
		out.who = TX_JUDGE;
		out.judge = judge;
		out.text = "";
		v->row(v->arg, &out);
	}
	return (1);
}

/*
 * At the end of a conversation, hand out what is unfinished in screen
 * order: the entity's row, then the judge's line below it.
 */
void
view_flush(struct view *v)
{
	view_entity_finish(v);
	view_emit_line(v);
	view_line_clear(v);
	conv_init(&v->jconv);
	conv_init(&v->econv);
}

/* Tell whether the cursor is at the start of an empty row. */
int
view_atstart(const struct view *v)
{
	return (!v->shown && v->ent.ncell == 0 && v->ent.cols == 0 &&
	    !v->dirty);
}

/* Tell whether the judge's line, its prompt at least, is on the screen. */
int
view_shown(const struct view *v)
{
	return (v->shown);
}

/* Tell whether the judge's line has text typed, on the screen or not. */
int
view_typed(const struct view *v)
{
	return (v->jl.ncell > 0);
}

/* The bytes of the judge's line drawn again at the end of the last output. */
size_t
view_drawn(const struct view *v)
{
	return (v->drawn);
}
