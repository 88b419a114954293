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
 * Echo.  The judge's screen is one model (text/view.c) shared
 * with the transcript: the ">" prompt, the echo of each key, the line
 * editing (erase across the wrap, tabs to 8-column stops, wide
 * characters), and the judge's line drawn again below the entity's
 * output when it comes while the judge types.  After a line end within
 * a turn the prompt is written at once ("> Republicans can succeed");
 * after the end of a turn the entity answers, and the prompt for the
 * judge's next line is written with the judge's first keystroke of it.
 * With the station option "the terminal echoes locally" nothing typed is
 * echoed (the terminal shows the keystrokes) but prompts are written.
 *
 * To the entity.  The judge's keys that are text, erases and line
 * ends, never an echo nor a prompt, with each line end replaced by the
 * entity's choice of CR, LF or CRLF (JUDGETERM_EOL_ASIS keeps the
 * judge's bytes, pairs included).  The keys the screen drops (cursor and
 * function keys, other controls: view.c) are not sent either, so that
 * the entity gets the conversation the record shows.
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
#include "text.h"

static void	judgeterm_entity(struct judgeterm_out *, const char *, size_t);
static void	judgeterm_convert(struct judgeterm *, const struct view_key *,
		    struct judgeterm_out *);

/* Set up a judge terminal: localecho if it echoes by itself. */
void
judgeterm_init(struct judgeterm *jt, int localecho, enum judgeterm_eol eol)
{
	memset(jt, 0, sizeof(*jt));
	jt->localecho = localecho;
	jt->eol = eol;
	view_init(&jt->view, 0, TX_JUDGE_NONE, CAP_LATIN1, VIEW_PROMPT |
	    view_local_flags(localecho), NULL, NULL);
}

/* Read the keystrokes in a character set (judgeterm_init: ISO-8859-1). */
void
judgeterm_charset(struct judgeterm *jt, enum cap_encoding charset)
{
	jt->charset = charset;
	jt->tcharset = charset;
	view_charset(&jt->view, charset);
}

/*
 * Say the judge's terminal reads another charset than the entity: keys
 * are read in it and sent on in the entity's, as the nearest character
 * the entity's charset has.
 */
void
judgeterm_terminal(struct judgeterm *jt, enum cap_encoding charset)
{
	jt->tcharset = charset;
	view_terminal(&jt->view, charset);
}

/* Send on a character typed, read in another charset than the entity's. */
static void
judgeterm_convert(struct judgeterm *jt, const struct view_key *k,
    struct judgeterm_out *out)
{
	char		 tl[GLYPH_TRANSLITMAX + 1];
	unsigned char	 b;
	size_t		 used;
	unsigned int	 cp;

	if (k->ntext == 2 && k->text[0] == '\\' && k->text[1] == '\\') {
		judgeterm_entity(out, "\\", 1);
		return;
	}
	if (jt->charset == CAP_UTF8 || !utf8_decode((const unsigned char *)
	    k->text, k->ntext, &used, &cp)) {
		judgeterm_entity(out, k->text, k->ntext);
		return;
	}
	if (cp <= 0xff) {
		b = (unsigned char)cp;
		judgeterm_entity(out, (const char *)&b, 1);
		return;
	}
	judgeterm_entity(out, tl, glyph_translit(cp, tl));
}

/*
 * Say where the judge's cursor stands as the terminal is taken over (a
 * new link): at the start of a line (col0), or after text left by what
 * came before, when the first prompt must begin a fresh line.
 */
void
judgeterm_cursor(struct judgeterm *jt, int col0)
{
	if (!col0)
		view_midline(&jt->view);
}

/* Tell whether the judge's line, its prompt at least, is on the screen. */
int
judgeterm_prompted(const struct judgeterm *jt)
{
	return (view_shown(&jt->view));
}

/* Tell whether the judge's line has text typed (shown or not). */
int
judgeterm_typed(const struct judgeterm *jt)
{
	return (view_typed(&jt->view));
}

/* Tell whether the cursor is at the start of an empty screen row. */
int
judgeterm_col0(const struct judgeterm *jt)
{
	return (view_atstart(&jt->view));
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

/* Append bytes to what goes to the entity. */
static void
judgeterm_entity(struct judgeterm_out *out, const char *s, size_t n)
{
	if (out->nentity + n > sizeof(out->entity))
		n = sizeof(out->entity) - out->nentity;	/* cannot happen */
	memcpy(out->entity + out->nentity, s, n);
	out->nentity += n;
}

/* Write the prompt of the current line now if it is owed. */
void
judgeterm_prompt(struct judgeterm *jt, struct judgeterm_out *out)
{
	memset(out, 0, sizeof(*out));
	out->necho = view_prompt(&jt->view, (char *)out->echo);
}

/*
 * Note bytes the entity wrote to the judge's screen: where they leave the
 * cursor, and whether the judge's line is drawn again after them.
 */
void
judgeterm_screen(struct judgeterm *jt, const unsigned char *buf, size_t n)
{
	(void)view_output(&jt->view, buf, n, 0, NULL);
}

/*
 * The same, the bytes muxd writes for them into out (VIEW_OUTLEN(n)
 * bytes): their length, and in *drawn that of the judge's line drawn
 * again at their end (0: none).
 */
size_t
judgeterm_screen_out(struct judgeterm *jt, const unsigned char *buf,
    size_t n, unsigned char *out, size_t *drawn)
{
	size_t	m;

	m = view_output(&jt->view, buf, n, 0, (char *)out);
	*drawn = view_drawn(&jt->view);
	return (m);
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
	struct view_key	k;
	const char	*e;

	out->necho = view_key(&jt->view, c, 0, &k, (char *)out->echo);
	out->nentity = 0;
	out->event = JUDGETERM_NONE;
	out->judge = 0;
	out->line = NULL;
	out->linelen = 0;
	if (!utf8_cont(c))
		jt->npart = 0;		/* a character cut off: not sent */
	if (k.kind == VIEW_KEY_PART && jt->npart < sizeof(jt->part)) {
		jt->part[jt->npart++] = c;	/* sent once it is whole */
		return;
	}
	if (k.kind == VIEW_KEY_TEXT && jt->tcharset != jt->charset &&
	    c != '\t') {
		jt->npart = 0;
		judgeterm_convert(jt, &k, out);
		return;
	}
	if (k.kind == VIEW_KEY_TEXT)
		judgeterm_entity(out, (const char *)jt->part, jt->npart);
	jt->npart = 0;
	switch (k.kind) {
	case VIEW_KEY_TEXT:
	case VIEW_KEY_ERASE:
		judgeterm_entity(out, (const char *)&c, 1);
		break;
	case VIEW_KEY_PART:
		break;
	case VIEW_KEY_EOL_HALF:
		/* The other half of a CRLF or LFCR pair. */
		if (jt->eol == JUDGETERM_EOL_ASIS)
			judgeterm_entity(out, (const char *)&c, 1);
		break;
	case VIEW_KEY_EOL:
		e = jt->eol == JUDGETERM_EOL_ASIS ? (const char *)&c :
		    judgeterm_eol_bytes(jt->eol);
		judgeterm_entity(out, e, jt->eol == JUDGETERM_EOL_ASIS ? 1 :
		    strlen(e));
		out->line = k.line;
		out->linelen = k.linelen;
		out->judge = k.judge;
		out->event = k.event == VIEW_EV_TURN ? JUDGETERM_TURN :
		    k.event == VIEW_EV_JUDGE ? JUDGETERM_JUDGE :
		    JUDGETERM_LINE;
		break;
	case VIEW_KEY_QUERY:
	case VIEW_KEY_DROP:
		break;
	}
}
