/*
 * The characters of a link as the judge's screen and the record take
 * them: a byte read into a character's text (glyph_read), the columns a
 * character takes on a terminal (glyph_width), and the nearest ASCII of
 * one a terminal's charset lacks (glyph_translit).  From utf8proc, the
 * same whatever the locale, so that render gives what muxd gave live.
 * Pure: no I/O, no state but the caller's.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "text.h"

/*
 * Read a byte of a character: 1 with its text (UTF-8, a backslash
 * doubled, what is no character as \xHH) in rep, *n bytes, *w columns
 * (-1: a mark), 0 while a character is begun.
 */
int
glyph_read(enum cap_encoding cs, struct utf8 *u, unsigned char b, char *rep,
    size_t *n, int *w)
{
	enum utf8_step	step;
	size_t		i;
	int		cw;

	if (b < 0x80 || cs == CAP_LATIN1) {
		if (b == '\\') {
			memcpy(rep, "\\\\", 2);
			*n = 2;
			*w = 1;
		} else if ((b >= 0x20 && b < 0x7f)) {
			rep[0] = (char)b;
			*n = 1;
			*w = 1;
		} else if (b >= 0xa0) {
			rep[0] = (char)(0xc0 | (b >> 6));
			rep[1] = (char)(0x80 | (b & 0x3f));
			*n = 2;
			*w = 1;
		} else {
			*n = tx_line_escape(rep, b);
			*w = (int)*n;
		}
		return (1);
	}
	if ((step = utf8_byte(u, b)) == UTF8_MORE)
		return (0);
	if (step == UTF8_CHAR && u->cp >= 0xa0) {
		memcpy(rep, u->b, u->n);
		*n = u->n;
		cw = glyph_width(u->cp);
		*w = cw > 0 ? cw : -1;
		return (1);
	}
	*n = 0;
	for (i = 0; i < u->n; i++)
		*n += tx_line_escape(rep + *n, u->b[i]);
	*w = (int)*n;
	return (1);
}

/*
 * Write the nearest ASCII of a character above U+00FF into out (at most
 * GLYPH_TRANSLITMAX bytes and a NUL): utf8proc's compatibility form with
 * marks stripped and lookalikes lumped (U+2019 ', U+2014 -, U+2026 ...,
 * U+0151 o), then the quotes it leaves, else "?".  Returns its length.
 * The same everywhere, whatever the locale, so that render is the live
 * transcript.
 */
size_t
glyph_translit(unsigned int cp, char *out)
{
	static const struct {
		unsigned int	 cp;
		const char	*s;
	} more[] = {
		{ 0x201c, "\"" }, { 0x201d, "\"" }, { 0x201e, "\"" },
		{ 0x201f, "\"" }, { 0x2022, "*" }, { 0x20ac, "EUR" },
	};
	utf8proc_uint8_t	 in[8], *m = NULL;
	utf8proc_ssize_t	 k, n;
	size_t			 i;

	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (more[i].cp == cp) {
			strcpy(out, more[i].s);
			return (strlen(out));
		}
	k = utf8proc_encode_char((utf8proc_int32_t)cp, in);
	n = utf8proc_map(in, k, &m, UTF8PROC_COMPAT | UTF8PROC_COMPOSE |
	    UTF8PROC_LUMP | UTF8PROC_STRIPMARK);
	if (n > 0 && (size_t)n <= GLYPH_TRANSLITMAX) {
		for (i = 0; i < (size_t)n; i++)
			if (m[i] < 0x20 || m[i] >= 0x7f)
				break;
		if (i == (size_t)n) {
			memcpy(out, m, (size_t)n);
			out[n] = '\0';
			free(m);
			return ((size_t)n);
		}
	}
	free(m);
	strcpy(out, "?");
	return (1);
}

/*
 * The columns a character takes: 0 (it joins the one before), 1 or 2.
 * utf8proc's East Asian widths, with the terminals' (wcwidth's) reading
 * of the marks: a nonspacing or enclosing mark, a format character and a
 * Hangul vowel or final consonant (a syllable's jamo) join; a spacing
 * mark, the soft hyphen and the prepended concatenation marks (U+0600)
 * take a column of their own.
 */
int
glyph_width(unsigned int cp)
{
	utf8proc_category_t	c = utf8proc_category((utf8proc_int32_t)cp);
	int			w = utf8proc_charwidth((utf8proc_int32_t)cp);

	if ((cp >= 0x1160 && cp <= 0x11ff) || (cp >= 0xd7b0 && cp <= 0xd7ff))
		return (0);
	if (c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_ME)
		return (0);
	if (c == UTF8PROC_CATEGORY_CF && cp != 0xad &&
	    !(cp >= 0x600 && cp <= 0x605) && cp != 0x6dd && cp != 0x70f &&
	    cp != 0x890 && cp != 0x891 && cp != 0x8e2 && cp != 0x110bd &&
	    cp != 0x110cd)
		return (0);
	return (w < 1 ? 1 : w > 2 ? 2 : w);
}
