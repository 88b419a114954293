/*
 * The transcript state machine: judge keystrokes and entity output in,
 * finished screen lines out.  Pure: no I/O, no allocation, no clock.
 *
 * Each side keeps its current screen line as escaped text of at most
 * width columns (one column per output character), with the width of
 * every character so that backspace removes a whole "\x1b" or tab.  The
 * line's time is that of the byte that put its first character there.
 * On a UTF-8 link a character's bytes are read whole (utf8.c): one of
 * U+00A0 and above is kept as it is, one column, and erased whole; a C1
 * control or what is no character is escaped byte by byte, one unit.
 *
 * Which bytes end lines and erase is the convention's (conv.c): CR, LF,
 * CRLF and LFCR each end one line, BS and DEL erase.  Empty lines are
 * never emitted, so the second CR of a turn end gives nothing.  A judge
 * line that reads "@@nn" (1996 rules) is a judge change and is not
 * written.
 */
#include <string.h>

#include "transcripts.h"

static const char tx_line_hex[] = "0123456789abcdef";

static int	tx_line_emit(struct tx_line *, struct tx_side *, enum tx_who,
		    struct tx_out *);
static int	tx_line_end(struct tx_line *, enum tx_who, struct tx_out *);
static int	tx_line_announce(const struct tx_side *);
static int	tx_line_put(struct tx_line *, struct tx_side *, enum tx_who,
		    const char *, size_t, size_t, int64_t, struct tx_out *);
static size_t	tx_line_utf8(const struct utf8 *, enum utf8_step, char *,
		    size_t *);

/* Start a machine: text width (0: the default) and the first judge. */
void
tx_line_init(struct tx_line *m, int width, int judge)
{
	memset(m, 0, sizeof(*m));
	if (width == 0)
		width = TX_WIDTH;
	if (width < TX_WIDTH_MIN)
		width = TX_WIDTH_MIN;
	if (width > TX_WIDTH_MAX)
		width = TX_WIDTH_MAX;
	m->width = (size_t)width;
	m->judge = judge;
	m->side[TX_JUDGE].judge = judge;
	m->side[TX_PROGRAM].judge = judge;
}

/* Read the bytes of a link in a character set (the default ISO-8859-1). */
void
tx_line_charset(struct tx_line *m, enum cap_encoding charset)
{
	m->charset = charset;
}

/*
 * Write the transcript form of a byte that is not a line end, tab,
 * backspace or DEL: printable ASCII as itself, the backslash doubled,
 * anything else as \xHH.  Returns 1, 2 or 4.
 */
size_t
tx_line_escape(char *o, unsigned char b)
{
	if (b >= 0x20 && b < 0x7f && b != '\\') {
		o[0] = (char)b;
		return (1);
	}
	if (b == '\\') {
		o[0] = o[1] = '\\';
		return (2);
	}
	o[0] = '\\';
	o[1] = 'x';
	o[2] = tx_line_hex[b >> 4];
	o[3] = tx_line_hex[b & 0xf];
	return (4);
}

/*
 * Hand out a side's line as finished and empty it; 1.  The two output
 * buffers take turns, so that two lines finished by one byte both stay.
 */
static int
tx_line_emit(struct tx_line *m, struct tx_side *s, enum tx_who who,
    struct tx_out *out)
{
	m->outi ^= 1;
	memcpy(m->out[m->outi], s->text, s->len);
	out->kind = TX_OUT_LINE;
	out->who = who;
	out->judge = s->judge;
	out->usec = s->usec;
	out->text = m->out[m->outi];
	out->len = s->len;
	s->len = 0;
	s->cols = 0;
	s->nunit = 0;
	return (1);
}

/*
 * The one grammar of a judge announcement (1996 rules: "@@nn"), live in
 * muxd's judge terminal and in every rendering of a capture: "@@" and one
 * or two digits, blanks (space, tab) allowed before and after, nothing
 * else on the line.  Returns the judge number, or -1 when the line is no
 * announcement.
 */
int
tx_line_announced(const char *s, size_t n)
{
	size_t	i = 0, d;
	int	nn = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i + 2 > n || s[i] != '@' || s[i + 1] != '@')
		return (-1);
	i += 2;
	for (d = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, d++)
		nn = nn * 10 + (s[i] - '0');
	if (d < 1 || d > 2)
		return (-1);
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return (i == n ? nn : -1);
}

/* Tell the judge number a side's line announces, or -1. */
static int
tx_line_announce(const struct tx_side *s)
{
	if (s->wrapped)
		return (-1);
	return (tx_line_announced(s->text, s->len));
}

/* End a side's line: a line out, a judge change out, or nothing. */
static int
tx_line_end(struct tx_line *m, enum tx_who who, struct tx_out *out)
{
	struct tx_side	*s = &m->side[who];
	int		 j, n = 0;

	if (who == TX_JUDGE && (j = tx_line_announce(s)) != -1) {
		s->len = 0;
		s->cols = 0;
		s->nunit = 0;
		n = tx_line_judge(m, j, out);
	} else if (s->len > 0)
		n = tx_line_emit(m, s, who, out);
	s->started = 0;
	s->wrapped = 0;
	return (n);
}

/*
 * The transcript form of what a utf8 reader took (step: UTF8_CHAR,
 * UTF8_BAD or UTF8_CUT) in rep; its length, its columns in *cols.
 */
static size_t
tx_line_utf8(const struct utf8 *u, enum utf8_step step, char *rep,
    size_t *cols)
{
	size_t	i, n = 0;

	if (step == UTF8_CHAR && u->cp >= 0xa0) {
		memcpy(rep, u->b, u->n);
		*cols = 1;
		return (u->n);
	}
	for (i = 0; i < u->n; i++)
		n += tx_line_escape(rep + n, u->b[i]);
	*cols = n;
	return (n);
}

/*
 * Put a character of n bytes and cols columns on a side's line, ending
 * the line first when it does not fit (a wrap); 1 when a line ended.
 */
static int
tx_line_put(struct tx_line *m, struct tx_side *s, enum tx_who who,
    const char *rep, size_t n, size_t cols, int64_t usec, struct tx_out *out)
{
	int	emitted = 0;

	if (s->cols + cols > m->width) {
		/* A wrap: the line is finished, this byte begins the next. */
		emitted = tx_line_emit(m, s, who, out);
		s->wrapped = 1;
		s->usec = usec;
	}
	if (!s->started) {
		s->started = 1;
		s->usec = usec;
		s->judge = m->judge;
	}
	memcpy(s->text + s->len, rep, n);
	s->len += n;
	s->cols += cols;
	s->unit[s->nunit] = (unsigned char)n;
	s->ucol[s->nunit++] = (unsigned char)cols;
	return (emitted);
}

/*
 * Feed one byte from a side at usec.  Returns how many lines it finished
 * or judge changes it made, 0, 1 or 2 (a character cut off that wraps,
 * then a line end), in out[] (room for TX_LINE_OUTS; their text valid
 * until the next call).
 */
int
tx_line_feed(struct tx_line *m, enum tx_who who, unsigned char b,
    int64_t usec, struct tx_out *out)
{
	struct tx_side	*s = &m->side[who];
	char		 rep[16];
	size_t		 n, room, cols;
	enum utf8_step	 step;
	enum conv_key	 key;
	int		 k = 0;

	if ((key = conv_key(&s->conv, who == TX_JUDGE, b)) == CONV_QUERY)
		return (0);		/* a terminal's question, no text */
	if (s->u8.held && !utf8_cont(b)) {
		/* A character cut off: escaped, then b is read. */
		n = tx_line_utf8(&s->u8, utf8_byte(&s->u8, b), rep, &cols);
		k = tx_line_put(m, s, who, rep, n, cols, usec, out);
	}
	if (key == CONV_EOL_HALF)
		return (k);
	if (conv_ends_line(key))
		return (k + tx_line_end(m, who, out + k));
	if (key == CONV_ERASE) {
		if (s->nunit > 0) {
			s->nunit--;
			s->len -= s->unit[s->nunit];
			s->cols -= s->ucol[s->nunit];
		}
		return (k);
	}
	if (b == '\t') {
		n = conv_tab(s->cols);
		room = m->width - s->cols;
		if (room == 0)
			n = CONV_TABSTOP < m->width ? CONV_TABSTOP : m->width;
		else if (n > room)
			n = room;
		memset(rep, ' ', n);
		cols = n;
	} else if (b >= 0x80 && m->charset == CAP_UTF8) {
		if ((step = utf8_byte(&s->u8, b)) == UTF8_MORE)
			return (k);
		n = tx_line_utf8(&s->u8, step, rep, &cols);
	} else
		cols = n = tx_line_escape(rep, b);
	return (k + tx_line_put(m, s, who, rep, n, cols, usec, out + k));
}

/* Change the judge (a marker).  Returns 1 with *out when it changed. */
int
tx_line_judge(struct tx_line *m, int judge, struct tx_out *out)
{
	if (judge == m->judge)
		return (0);
	m->judge = judge;
	out->kind = TX_OUT_JUDGE;
	out->who = TX_JUDGE;
	out->judge = judge;
	out->usec = 0;
	out->text = "";
	out->len = 0;
	return (1);
}

/*
 * At the end of a conversation, hand out the unfinished lines, the one
 * begun first first (the judge's on a tie): 0, 1 or 2 of them in out[].
 */
int
tx_line_flush(struct tx_line *m, struct tx_out *out)
{
	struct tx_side	*j = &m->side[TX_JUDGE], *p = &m->side[TX_PROGRAM];
	struct tx_side	*order[2];
	enum tx_who	 who[2];
	int		 i, n = 0;

	if (p->len > 0 && j->len > 0 && p->usec < j->usec) {
		order[0] = p; who[0] = TX_PROGRAM;
		order[1] = j; who[1] = TX_JUDGE;
	} else {
		order[0] = j; who[0] = TX_JUDGE;
		order[1] = p; who[1] = TX_PROGRAM;
	}
	for (i = 0; i < 2; i++) {
		if (order[i]->len > 0) {
			out[n].kind = TX_OUT_LINE;
			out[n].who = who[i];
			out[n].judge = order[i]->judge;
			out[n].usec = order[i]->usec;
			out[n].text = order[i]->text;
			out[n].len = order[i]->len;
			n++;
		}
		order[i]->len = 0;
		order[i]->cols = 0;
		order[i]->nunit = 0;
		order[i]->started = 0;
		order[i]->wrapped = 0;
		conv_init(&order[i]->conv);
	}
	return (n);
}
