/*
 * The judge's side of the 1996 terminal convention (data entry rules,
 * section 1): the judge is prompted with ">", sees each keystroke echoed
 * at once, may write several lines, ends a turn with two consecutive
 * carriage returns, and announces himself with "@@nn" CR CR.
 *
 * A judgeterm is fed the judge's keystrokes a byte at a time and says,
 * for each byte, what muxd writes back to the judge's screen (the echo),
 * what it sends to the entity, and what happened (a line, a turn, a judge
 * announcement).  It does no I/O.
 *
 * Line ends.  Terminals send CR, LF, CRLF or LFCR for the Enter key, and
 * each of them is one line end: after a CR, one LF is the other half of
 * the pair and is swallowed (after an LF, one CR), so neither CR LF nor
 * LF CR ever makes two line ends; CR LF CR LF is two, as are CR CR and
 * LF LF.  Two consecutive line ends, with no other byte between them,
 * end the judge's turn.
 *
 * Echo.  A ">" prompt starts each judge line.  After a line end within a
 * turn it is written at once, so the judge sees where to type the next
 * line (1996: "> Republicans can succeed").  After the end of a turn the
 * entity answers, and the prompt for the judge's next line is written
 * only with the judge's first keystroke of it, preceded by CR LF when the
 * entity's answer left the cursor in mid-line (judgeterm_screen follows
 * the entity's output for that); the same happens when the entity writes
 * to the screen after an early prompt and before the judge typed on that
 * line.  judgeterm_prompt writes an owed prompt on demand.  Printable
 * bytes (0x20-0x7e, 0xa0-0xff) are echoed as typed, TAB as one space;
 * BS and DEL erase the last character of the line with "\b \b" (never
 * the prompt); a line end is echoed as CR LF.  Other control bytes, and
 * the escape sequences of function and cursor keys (ESC [ ... final,
 * ESC O x, ESC x), are not echoed.  With the station option "the terminal
 * echoes locally" nothing is echoed (the terminal shows the keystrokes,
 * its line ends included) but prompts are still written.
 *
 * On a UTF-8 link (judgeterm_charset) the keystrokes are read a character
 * at a time (utf8.c): a character of U+00A0 and above is echoed whole
 * when its last byte comes, and BS or DEL erases it whole, with one
 * "\b \b"; a C1 control (U+0080..U+009F), bytes that are no character
 * and a beginning cut off are not echoed.
 *
 * To the entity.  Exactly the judge's keystrokes, never an echo nor a
 * prompt, with each line end replaced by the entity's choice of CR, LF or
 * CRLF (JUDGETERM_EOL_ASIS keeps the judge's bytes, pairs included).
 *
 * Events.  JUDGETERM_LINE when a judge line ends (with its text, edited),
 * JUDGETERM_TURN at the second of two consecutive line ends (the empty
 * line it ends is no LINE), and JUDGETERM_JUDGE instead of LINE when the
 * line that ended is "@@nn" (blanks around allowed, one or two digits):
 * the judge change is reported at its first line end, and a second line
 * end right after it ends the turn as usual, so "@@04" CR and "@@04" CR
 * CR are both one announcement of judge 4.
 */
#include <stddef.h>
#include <string.h>

#include "contest.h"
#include "transcripts.h"

#define JUDGETERM_BS	0x08
#define JUDGETERM_TAB	0x09
#define JUDGETERM_LF	0x0a
#define JUDGETERM_CR	0x0d
#define JUDGETERM_ESC	0x1b
#define JUDGETERM_DEL	0x7f

enum judgeterm_key {
	JUDGETERM_KEY_NONE,
	JUDGETERM_KEY_ESC,	/* after ESC */
	JUDGETERM_KEY_CSI,	/* ESC [ or 0x9b: up to a final byte */
	JUDGETERM_KEY_SS3	/* ESC O or 0x8f: one more byte */
};

static void	judgeterm_echo(struct judgeterm_out *, const char *, size_t);
static void	judgeterm_entity(struct judgeterm_out *, const char *, size_t);
static void	judgeterm_doprompt(struct judgeterm *, struct judgeterm_out *);
static int	judgeterm_key(struct judgeterm *, unsigned char);
static void	judgeterm_lineend(struct judgeterm *, unsigned char, int,
		    struct judgeterm_out *);

/* Set up a judge terminal: localecho if it echoes by itself. */
void
judgeterm_init(struct judgeterm *jt, int localecho, enum judgeterm_eol eol)
{
	memset(jt, 0, sizeof(*jt));
	jt->localecho = localecho;
	jt->eol = eol;
	jt->col0 = 1;
}

/* Read the keystrokes in a character set (judgeterm_init: ISO-8859-1). */
void
judgeterm_charset(struct judgeterm *jt, enum cap_encoding charset)
{
	jt->charset = charset;
}

/*
 * Say where the judge's cursor stands as the terminal is taken over (a
 * new link): at the start of a line (col0), or after text left by what
 * came before, when the first prompt must begin a fresh line.
 */
void
judgeterm_cursor(struct judgeterm *jt, int col0)
{
	jt->col0 = col0;
}

/* The bytes of a line end towards the entity (CR for ASIS). */
const char *
judgeterm_eol_bytes(enum judgeterm_eol eol)
{
	static const char	*ends[] = { "\r", "\n", "\r\n", "\r" };

	return (ends[eol <= JUDGETERM_EOL_ASIS ? eol : JUDGETERM_EOL_CR]);
}

/* Parse an entity line-end option: "cr", "lf", "crlf" or "asis". */
int
judgeterm_eol_parse(const char *s, enum judgeterm_eol *eol)
{
	if (strcmp(s, "cr") == 0)
		*eol = JUDGETERM_EOL_CR;
	else if (strcmp(s, "lf") == 0)
		*eol = JUDGETERM_EOL_LF;
	else if (strcmp(s, "crlf") == 0)
		*eol = JUDGETERM_EOL_CRLF;
	else if (strcmp(s, "asis") == 0)
		*eol = JUDGETERM_EOL_ASIS;
	else
		return (-1);
	return (0);
}

/* Name an entity line-end option. */
const char *
judgeterm_eol_name(enum judgeterm_eol eol)
{
	switch (eol) {
	case JUDGETERM_EOL_CR:
		return ("cr");
	case JUDGETERM_EOL_LF:
		return ("lf");
	case JUDGETERM_EOL_CRLF:
		return ("crlf");
	case JUDGETERM_EOL_ASIS:
		return ("asis");
	}
	return ("unknown");
}

/*
 * Write the announcement of judge nn to an entity, "@@nn" and two line
 * ends (CR CR, or the entity's choice; CR for ASIS).  Returns its length,
 * 0 when judge is not 0..99 or buf too small (JUDGETERM_ANNOUNCEMAX does).
 */
size_t
judgeterm_announce(int judge, enum judgeterm_eol eol, unsigned char *buf,
    size_t len)
{
	const char		*end;
	size_t			 n, e;

	if (judge < 0 || judge > 99)
		return (0);
	end = judgeterm_eol_bytes(eol);
	e = strlen(end);
	n = 4 + 2 * e;
	if (len < n)
		return (0);
	buf[0] = '@';
	buf[1] = '@';
	buf[2] = (unsigned char)('0' + judge / 10);
	buf[3] = (unsigned char)('0' + judge % 10);
	memcpy(buf + 4, end, e);
	memcpy(buf + 4 + e, end, e);
	return (n);
}

/* Append bytes to the echo. */
static void
judgeterm_echo(struct judgeterm_out *out, const char *s, size_t n)
{
	if (out->necho + n > sizeof(out->echo))
		n = sizeof(out->echo) - out->necho;	/* cannot happen */
	memcpy(out->echo + out->necho, s, n);
	out->necho += n;
}

/* Append bytes to what goes to the entity. */
static void
judgeterm_entity(struct judgeterm_out *out, const char *s, size_t n)
{
	if (out->nentity + n > sizeof(out->entity))
		n = sizeof(out->entity) - out->nentity;	/* cannot happen */
	memcpy(out->entity + out->nentity, s, n);
	out->nentity += n;
}

/* Write the prompt, on a fresh screen line. */
static void
judgeterm_doprompt(struct judgeterm *jt, struct judgeterm_out *out)
{
	if (!jt->col0)
		judgeterm_echo(out, "\r\n", 2);
	judgeterm_echo(out, ">", 1);
	jt->col0 = 0;
	jt->prompted = 1;
}

/* Write the prompt of the current line now if it is owed. */
void
judgeterm_prompt(struct judgeterm *jt, struct judgeterm_out *out)
{
	memset(out, 0, sizeof(*out));
	if (!jt->prompted)
		judgeterm_doprompt(jt, out);
}

/*
 * Take back a prompt nothing was typed after, before the entity writes
 * on its line: the entity's text then begins the line, and the judge's
 * next keystroke writes the prompt again (on a fresh line).
 */
void
judgeterm_unprompt(struct judgeterm *jt, struct judgeterm_out *out)
{
	memset(out, 0, sizeof(*out));
	if (!jt->prompted || jt->len > 0 || jt->col0)
		return;
	judgeterm_echo(out, "\b \b", 3);
	jt->prompted = 0;
	jt->col0 = 1;
}

/*
 * Note bytes the entity wrote to the judge's screen: where they leave the
 * cursor, and whether the current line needs its prompt again.
 */
void
judgeterm_screen(struct judgeterm *jt, const unsigned char *buf, size_t n)
{
	size_t	i;
	int	moved = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] == JUDGETERM_CR || buf[i] == JUDGETERM_LF) {
			jt->col0 = 1;
			moved = 1;
		} else if ((buf[i] >= 0x20 && buf[i] < JUDGETERM_DEL) ||
		    buf[i] >= 0xa0 || buf[i] == JUDGETERM_TAB) {
			jt->col0 = 0;
			moved = 1;
		}
	}
	if (moved && jt->len == 0)
		jt->prompted = 0;
}

/*
 * Follow the escape sequences of function and cursor keys; 1 when the
 * byte belongs to one (it is not echoed).
 */
static int
judgeterm_key(struct judgeterm *jt, unsigned char c)
{
	switch (jt->key) {
	case JUDGETERM_KEY_NONE:
		if (c == JUDGETERM_ESC)
			jt->key = JUDGETERM_KEY_ESC;
		else if (c == 0x9b)
			jt->key = JUDGETERM_KEY_CSI;
		else if (c == 0x8f)
			jt->key = JUDGETERM_KEY_SS3;
		return (jt->key != JUDGETERM_KEY_NONE);
	case JUDGETERM_KEY_ESC:
		if (c == '[')
			jt->key = JUDGETERM_KEY_CSI;
		else if (c == 'O')
			jt->key = JUDGETERM_KEY_SS3;
		else if (c >= 0x20 && c < JUDGETERM_DEL)
			jt->key = JUDGETERM_KEY_NONE;	/* ESC x: Alt-x */
		else
			break;
		return (1);
	case JUDGETERM_KEY_CSI:
		if (c >= 0x20 && c < 0x40)
			return (1);
		if (c >= 0x40 && c < JUDGETERM_DEL) {
			jt->key = JUDGETERM_KEY_NONE;
			return (1);
		}
		break;
	case JUDGETERM_KEY_SS3:
		if (c >= 0x20 && c < JUDGETERM_DEL) {
			jt->key = JUDGETERM_KEY_NONE;
			return (1);
		}
		break;
	}
	/* Anything else ends the sequence and counts on its own. */
	jt->key = JUDGETERM_KEY_NONE;
	return (judgeterm_key(jt, c));
}


/*
 * Handle a line end (not the second half of a pair); turn: the second in
 * a row, which ends the turn.
 */
static void
judgeterm_lineend(struct judgeterm *jt, unsigned char c, int turn,
    struct judgeterm_out *out)
{
	size_t	kept;
	int	nn;

	switch (jt->eol) {
	case JUDGETERM_EOL_CR:
		judgeterm_entity(out, "\r", 1);
		break;
	case JUDGETERM_EOL_LF:
		judgeterm_entity(out, "\n", 1);
		break;
	case JUDGETERM_EOL_CRLF:
		judgeterm_entity(out, "\r\n", 2);
		break;
	case JUDGETERM_EOL_ASIS:
		judgeterm_entity(out, (const char *)&c, 1);
		break;
	}
	if (!jt->prompted)
		judgeterm_doprompt(jt, out);
	if (!jt->localecho)
		judgeterm_echo(out, "\r\n", 2);
	jt->col0 = 1;

	kept = jt->len < JUDGETERM_LINEMAX ? jt->len : JUDGETERM_LINEMAX;
	jt->line[kept] = '\0';
	out->line = jt->line;
	out->linelen = jt->len;
	jt->len = 0;

	if (turn) {
		out->event = JUDGETERM_TURN;
		out->line = NULL;
		out->linelen = 0;
		jt->prompted = 0;	/* the entity answers first */
		return;
	}
	nn = out->linelen <= JUDGETERM_LINEMAX ?
	    tx_line_announced(jt->line, out->linelen) : -1;
	if (nn >= 0) {
		out->event = JUDGETERM_JUDGE;
		out->judge = nn;
	} else
		out->event = JUDGETERM_LINE;
	judgeterm_doprompt(jt, out);	/* the next line of this turn */
}

/*
 * Feed one keystroke of the judge: out receives the echo for the judge's
 * screen, the bytes for the entity and the event, if any (out->line stays
 * valid until the next call).
 */
void
judgeterm_byte(struct judgeterm *jt, unsigned char c,
    struct judgeterm_out *out)
{
	const unsigned char	*p = &c;
	size_t			 n = 1;
	enum conv_key		 key;

	memset(out, 0, sizeof(*out));
	/* What the key is, the convention's (transcripts/conv.c) says. */
	if ((key = conv_key(&jt->conv, 1, c)) == CONV_QUERY)
		return;		/* answered by the program (muxd), no key */
	if (jt->u8.held && !utf8_cont(c))
		(void)utf8_byte(&jt->u8, c);	/* a beginning cut off */
	if (key == CONV_EOL_HALF) {
		/* The other half of a CRLF or LFCR pair. */
		jt->key = JUDGETERM_KEY_NONE;
		if (jt->eol == JUDGETERM_EOL_ASIS)
			judgeterm_entity(out, (const char *)&c, 1);
		return;
	}
	if (conv_ends_line(key)) {
		jt->key = JUDGETERM_KEY_NONE;
		judgeterm_lineend(jt, c, key == CONV_TURN, out);
		return;
	}
	judgeterm_entity(out, (const char *)&c, 1);

	if (key == CONV_ERASE) {
		jt->key = JUDGETERM_KEY_NONE;
		if (jt->len == 0)
			return;
		/* A whole character: on UTF-8, its continuation bytes. */
		do
			jt->len--;
		while (jt->charset == CAP_UTF8 && jt->len > 0 &&
		    jt->len < JUDGETERM_LINEMAX &&
		    utf8_cont((unsigned char)jt->line[jt->len]));
		if (!jt->localecho)
			judgeterm_echo(out, "\b \b", 3);
		return;
	}
	if (judgeterm_key(jt, c))
		return;
	if (jt->charset == CAP_UTF8 && c >= 0x80) {
		if (utf8_byte(&jt->u8, c) != UTF8_CHAR || jt->u8.cp < 0xa0)
			return;		/* a part, a control, no character */
		p = jt->u8.b;
		n = jt->u8.n;
	} else if (c != JUDGETERM_TAB && (c < 0x20 || (c >= 0x80 &&
	    c < 0xa0)))
		return;			/* a control: not echoed */

	if (!jt->prompted)
		judgeterm_doprompt(jt, out);
	if (!jt->localecho)
		judgeterm_echo(out, c == JUDGETERM_TAB ? " " :
		    (const char *)p, n);
	jt->col0 = 0;
	for (; n > 0; p++, n--) {
		if (jt->len < JUDGETERM_LINEMAX)
			jt->line[jt->len] = (char)*p;
		jt->len++;
	}
}
