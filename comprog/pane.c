/*
 * The text of a screen pane, the model the screen is drawn from: the last
 * PANE_LINES lines, each a row of cells (a byte and who wrote it), fed
 * bytes as a terminal would take them.
 *
 * CR, LF, CRLF and LFCR each end one line: after a CR one LF from the
 * same writer is the other half of the pair and is swallowed (after an
 * LF, one CR), as judgeterm.c and the transcripts count them.  BS and DEL
 * erase the last character of the current line (a whole tab at once) and
 * never reach back into an ended line.  TAB becomes spaces up to the next
 * multiple of 8.  Printable ASCII and 0xa0-0xff (ISO-8859-1) are kept;
 * with the UTF-8 charset (pane_charset) each writer's bytes are read a
 * character at a time (utf8.c) and a character from U+00A0 on is kept
 * whole in one cell, erased whole by one BS; C1 controls and bytes that
 * are no character are dropped;
 * BEL is counted so the screen can ring; every other control byte is
 * dropped, so nothing fed here can move the cursor or change the screen.
 * A line longer than PANE_LINEMAX cells is ended there.
 *
 * A cell knows the columns its character takes (glyph_width, muxd's
 * model of the judge's screen): two for CJK and emoji, none for a
 * combining mark, which is drawn on the cell before it (a mark that
 * begins a line is drawn on a space of its own).  BS erases a character
 * with its marks, as muxd's judge terminal and the transcript erase it.
 *
 * Lines are wrapped only when drawn (pane_starts), in columns: a wide
 * character that does not fit in a row's last column goes whole to the
 * next row, leaving that column empty; a resized screen wraps everything
 * again.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "comprog.h"

#define PANE_BEL	0x07
#define PANE_BS		0x08
#define PANE_TAB	0x09
#define PANE_LF		0x0a
#define PANE_CR		0x0d
#define PANE_DEL	0x7f

static struct pane_line *pane_cur(struct pane *);
static void	pane_newline(struct pane *);
static void	pane_put(struct pane *, enum pane_who, unsigned int,
		    unsigned char);
static int	pane_utf8(struct pane *, enum pane_who, unsigned char);
static void	pane_erase(struct pane *);

/* Start a pane with one empty line. */
void
pane_init(struct pane *p)
{
	memset(p, 0, sizeof(*p));
	p->n = 1;
}

/* Say how the bytes fed to a pane read. */
void
pane_charset(struct pane *p, enum cap_encoding charset)
{
	p->charset = charset;
	memset(p->u, 0, sizeof(p->u));
}

/* Free the text of a pane. */
void
pane_free(struct pane *p)
{
	size_t	i;

	for (i = 0; i < PANE_LINES; i++)
		free(p->line[i].cell);
	pane_init(p);
}

/* The current (last) line. */
static struct pane_line *
pane_cur(struct pane *p)
{
	return (&p->line[(p->first + p->n - 1) % PANE_LINES]);
}

/* End the current line; the oldest line goes when the ring is full. */
static void
pane_newline(struct pane *p)
{
	if (p->n == PANE_LINES) {
		p->line[p->first].len = 0;
		p->first = (p->first + 1) % PANE_LINES;
	} else
		p->n++;
	pane_cur(p)->len = 0;
}

/* Append a cell to the current line; w is what a BS there erases. */
static void
pane_put(struct pane *p, enum pane_who who, unsigned int c, unsigned char w)
{
	struct pane_line	*l = pane_cur(p);
	struct pane_cell	*cell;
	size_t			 cap;
	int			 cols;

	if (l->len >= PANE_LINEMAX) {
		pane_newline(p);
		l = pane_cur(p);
	}
	if (l->len == l->cap) {
		cap = l->cap == 0 ? 128 : l->cap * 2;
		if ((cell = reallocarray(l->cell, cap, sizeof(*cell))) == NULL)
			return;		/* the character is not shown */
		l->cell = cell;
		l->cap = cap;
	}
	l->cell[l->len].c = c;
	l->cell[l->len].who = (unsigned char)who;
	l->cell[l->len].w = w;
	cols = pane_charwidth(c);
	l->cell[l->len].cols = (unsigned char)(cols == 0 && l->len == 0 ? 1 :
	    cols);
	l->len++;
}

/* Erase the last character of the current line, with its marks. */
static void
pane_erase(struct pane *p)
{
	struct pane_line	*l = pane_cur(p);
	size_t			 w;

	while (l->len > 1 && l->cell[l->len - 1].cols == 0)
		l->len--;
	if (l->len == 0)
		return;
	w = l->cell[l->len - 1].w;
	if (w == 0 || w > l->len)
		w = 1;
	l->len -= w;
}

/*
 * Read a byte of a UTF-8 writer: 1 when it was taken (part or end of a
 * character, kept when from U+00A0 on), 0 when it is to be read as a
 * single byte, a control or ASCII.
 */
static int
pane_utf8(struct pane *p, enum pane_who who, unsigned char c)
{
	struct utf8	*u = &p->u[who];

	if (c < 0x80 && !u->held)
		return (0);
	switch (utf8_byte(u, c)) {
	case UTF8_CHAR:
		if (u->cp >= 0xa0)
			pane_put(p, who, u->cp, 1);
		return (1);
	case UTF8_CUT:
		return (pane_utf8(p, who, c));
	default:
		return (1);
	}
}

/* Take bytes written by who. */
void
pane_feed(struct pane *p, enum pane_who who, const unsigned char *buf,
    size_t n)
{
	unsigned char	*eol = &p->eol[who], c;
	size_t		 i, k, w;

	for (i = 0; i < n; i++) {
		c = buf[i];
		if (p->charset == CAP_UTF8 && pane_utf8(p, who, c))
			continue;
		if (c == PANE_CR || c == PANE_LF) {
			if (*eol != 0 && *eol != c) {
				*eol = 0;
				continue;
			}
			*eol = c;
			pane_newline(p);
			continue;
		}
		*eol = 0;
		if (c == PANE_BS || c == PANE_DEL)
			pane_erase(p);
		else if (c == PANE_TAB) {
			w = 8 - pane_cur(p)->len % 8;
			for (k = 0; k < w; k++)
				pane_put(p, who, ' ', k + 1 == w ? w : 1);
		} else if (c == PANE_BEL)
			p->bells++;
		else if ((c >= 0x20 && c < PANE_DEL) || c >= 0xa0)
			pane_put(p, who, c, 1);
	}
}

/*
 * Append text as it is (a prompt, say): each byte one cell, or with the
 * UTF-8 charset each character.
 */
void
pane_text(struct pane *p, enum pane_who who, const char *s)
{
	for (; *s != '\0'; s++)
		if (p->charset != CAP_UTF8 || !pane_utf8(p, who,
		    (unsigned char)*s))
			pane_put(p, who, (unsigned char)*s, 1);
	p->eol[who] = 0;
}

/* Write a note on a line of its own, leaving an empty current line. */
void
pane_note(struct pane *p, const char *s)
{
	if (pane_cur(p)->len > 0)
		pane_newline(p);
	pane_text(p, PANE_NOTE, s);
	pane_newline(p);
}

/*
 * Remove the last ended line when the current one is empty (the "@@nn"
 * line that a note replaces); 1 when one was removed.
 */
int
pane_retract(struct pane *p)
{
	if (p->n < 2 || pane_cur(p)->len > 0)
		return (0);
	p->n--;
	pane_cur(p)->len = 0;
	return (1);
}

/* The number of lines, the current one included. */
size_t
pane_count(const struct pane *p)
{
	return (p->n);
}

/* Line i, 0 being the oldest kept. */
const struct pane_line *
pane_line(const struct pane *p, size_t i)
{
	return (&p->line[(p->first + i) % PANE_LINES]);
}

/* The length of the current line, in cells. */
size_t
pane_current_len(const struct pane *p)
{
	return (p->line[(p->first + p->n - 1) % PANE_LINES].len);
}

/*
 * The columns a character takes on the screen: 0, 1 or 2, as muxd's
 * model of the judge's screen counts them (glyph_width).
 */
int
pane_charwidth(unsigned int c)
{
	if (c < 0x80 || c > 0x10ffff)
		return (1);
	return (glyph_width(c));
}

/*
 * The end of a screen row of a line that begins at cell from, wrapped at
 * width columns (the marks after its last character stay in it); the
 * columns it fills go to *cols.  A row holds one character at least.
 */
size_t
pane_row_end(const struct pane_line *l, size_t from, size_t width,
    size_t *cols)
{
	size_t	i, col = 0, w;

	for (i = from; i < l->len; i++) {
		w = l->cell[i].cols;
		if (w > 0 && col > 0 && col + w > width)
			break;
		col += w;
	}
	*cols = col;
	return (i);
}

/*
 * The screen rows a line takes at a width, and the cell each begins with
 * in starts[] (PANE_LINEMAX + 2 of them, or NULL); the current line
 * (last) takes one more when full to the edge, for the cursor, which
 * begins at the line's end.
 */
size_t
pane_starts(const struct pane_line *l, size_t width, int last,
    size_t *starts)
{
	size_t	n = 0, i = 0, cols = 0;

	if (width == 0)
		width = 1;
	do {
		if (starts != NULL)
			starts[n] = i;
		n++;
		i = pane_row_end(l, i, width, &cols);
	} while (i < l->len);
	if (last && l->len > 0 && cols >= width) {
		if (starts != NULL)
			starts[n] = l->len;
		n++;
	}
	return (n);
}

/* The screen rows a line takes at a width (pane_starts). */
size_t
pane_rows(const struct pane_line *l, size_t width, int last)
{
	return (pane_starts(l, width, last, NULL));
}
