/*
 * The judge's screen as the judge saw it, made harmless for another
 * terminal: the entity's output ("o") and the judge's keystrokes ("i")
 * echoed after a ">" prompt, as muxd shows them (transcripts(5)).
 *
 * A screen line belongs to the side that wrote on it first (owner); when
 * the other side writes, a new line is begun, and a judge line always
 * begins with the prompt.  Backspace and DEL erase the last character of
 * the owner's own text, never the prompt or the other side's.  CR, LF,
 * CRLF and LFCR end the current line as "\r\n", whoever owns it.  Tabs
 * become spaces; printable ISO-8859-1 becomes UTF-8; every other byte is
 * shown as the text \xHH, so no control sequence ever reaches the
 * terminal, and a backslash as "\\", so that it never reads as one (but
 * on the live judge's screen, view_live, where nothing is escaped but
 * controls).  When the link's character set is UTF-8 (view_charset), a
 * character of U+00A0 and above is shown as it is, one column that one
 * erase takes back whole; a C1 control (U+0080..U+009F) and a sequence
 * that is no character are shown as the \xHH of their bytes, one unit.
 * A character's beginning is held until its last byte comes.
 *
 * muxd writes the entity's output to the live judge's screen through the
 * same machine (view_live: 8-bit characters as they are), so that what the
 * judge sees is what export shows; the judge's side of that screen is
 * muxd's own prompt and echo, which view_judge() follows.
 */
#include <string.h>

#include "transcripts.h"

static const char view_hex_digits[] = "0123456789abcdef";

static char	*view_own(struct view *, int, char *);
static char	*view_hex(const unsigned char *, size_t, char *);
static char	*view_utf8(struct utf8 *, unsigned char, char *, size_t *);
static void	 view_unit(struct view *, size_t);

/* Start with the cursor at the start of an empty screen. */
void
view_init(struct view *v)
{
	memset(v, 0, sizeof(*v));
}

/*
 * Make a view the live judge's screen: the room's 8-bit characters
 * (0xa0-0xff) are written as they are, for the judge's terminal.
 */
void
view_live(struct view *v)
{
	v->raw8 = 1;
}

/* Read the bytes of a link in a character set (the default ISO-8859-1). */
void
view_charset(struct view *v, enum cap_encoding charset)
{
	v->charset = charset;
}

/*
 * Follow what was written on a live screen for the judge (muxd's prompt
 * and echo): whose the line is now and where the cursor stands, so that
 * the entity's output after it begins as export shows it.
 */
void
view_judge(struct view *v, const unsigned char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			v->owner = 0;
			v->col = 0;
			v->nunit = 0;
		} else if (p[i] == '\r')
			v->col = 0;
		else if (p[i] == '\b') {
			if (v->col > 0 && --v->col == 0)
				v->owner = 0;
		} else if (p[i] >= 0x20) {
			v->owner = 'i';
			v->col++;
		}
	}
}

/* Give the current line to a side, beginning a new line if need be. */
static char *
view_own(struct view *v, int side, char *o)
{
	if (v->owner == side)
		return (o);
	if (v->owner != 0) {
		*o++ = '\r';
		*o++ = '\n';
	}
	v->owner = side;
	v->nunit = 0;
	v->col = 0;
	if (side == 'i') {
		*o++ = '>';
		v->col = 1;
	}
	return (o);
}

/* Show bytes as the text \xHH each. */
static char *
view_hex(const unsigned char *p, size_t n, char *o)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		*o++ = '\\';
		*o++ = 'x';
		*o++ = view_hex_digits[p[i] >> 4];
		*o++ = view_hex_digits[p[i] & 0xf];
	}
	return (o);
}

/*
 * Show a byte of a UTF-8 link: a whole character as it is (*w 1), a C1
 * control or what is no character as \xHH (*w its columns); NULL while
 * a character's beginning is held.
 */
static char *
view_utf8(struct utf8 *u, unsigned char b, char *o, size_t *w)
{
	switch (utf8_byte(u, b)) {
	case UTF8_MORE:
		return (NULL);
	case UTF8_CHAR:
		if (u->cp >= 0xa0) {
			memcpy(o, u->b, u->n);
			*w = 1;
			return (o + u->n);
		}
		break;
	case UTF8_BAD:
	case UTF8_CUT:
		break;
	}
	*w = 4 * u->n;
	return (view_hex(u->b, u->n, o));
}

/*
 * Turn the bytes of an event into what the judge's screen showed, in
 * out (at least VIEW_OUTLEN(n) bytes).  Returns the length written.
 * Markers and resizes show nothing.
 */
size_t
view_feed(struct view *v, enum cap_kind kind, const unsigned char *p,
    size_t n, char *out)
{
	char		*o = out, *c;
	size_t		 i, w, k;
	int		 side;
	struct conv	*cv;
	struct utf8	*u;
	enum conv_key	 key;
	unsigned char	 b;

	if (kind != CAP_INPUT && kind != CAP_OUTPUT)
		return (0);
	side = kind;
	cv = &v->conv[kind == CAP_INPUT ? 0 : 1];
	u = &v->u8[kind == CAP_INPUT ? 0 : 1];
	for (i = 0; i < n; i++) {
		b = p[i];
		if ((key = conv_key(cv, kind == CAP_INPUT, b)) == CONV_QUERY)
			continue;	/* a terminal's question: not shown */
		if (u->held && !utf8_cont(b)) {
			/* A character cut off: shown as \xHH, b read next. */
			o = view_utf8(u, b, o, &w);
			view_unit(v, w);
		}
		if (key == CONV_EOL_HALF)
			continue;
		if (conv_ends_line(key)) {
			if (v->owner == 0)
				o = view_own(v, side, o);
			*o++ = '\r';
			*o++ = '\n';
			v->owner = 0;
			v->nunit = 0;
			v->col = 0;
			continue;
		}
		o = view_own(v, side, o);
		if (key == CONV_ERASE) {
			if (v->nunit == 0)
				continue;
			v->nunit--;
			w = v->unit[v->nunit % sizeof(v->unit)];
			for (k = 0; k < w; k++) {
				memcpy(o, "\b \b", 3);
				o += 3;
			}
			v->col -= w < v->col ? w : v->col;
			continue;
		}
		if (b == '\t') {
			w = conv_tab(v->col);
			memset(o, ' ', w);
			o += w;
		} else if (b == '\\' && !v->raw8) {
			/* Doubled, as a transcript writes it: no escape. */
			*o++ = '\\';
			*o++ = '\\';
			w = 2;
		} else if (b >= 0x20 && b < 0x7f) {
			*o++ = (char)b;
			w = 1;
		} else if (b >= 0x80 && v->charset == CAP_UTF8) {
			if ((c = view_utf8(u, b, o, &w)) == NULL)
				continue;
			o = c;
		} else if (b >= 0xa0 && v->raw8) {
			*o++ = (char)b;
			w = 1;
		} else if (b >= 0xa0) {
			*o++ = (char)(0xc0 | (b >> 6));
			*o++ = (char)(0x80 | (b & 0x3f));
			w = 1;
		} else {
			o = view_hex(&b, 1, o);
			w = 4;
		}
		view_unit(v, w);
	}
	return ((size_t)(o - out));
}

/* Note a character of w columns written on the current line. */
static void
view_unit(struct view *v, size_t w)
{
	v->unit[v->nunit % sizeof(v->unit)] = (unsigned char)w;
	v->nunit++;
	v->col += w;
}
