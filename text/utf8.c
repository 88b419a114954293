/*
 * UTF-8, strictly (RFC 3629): a character is one to four bytes, the
 * shortest form of a code point up to U+10FFFF that is not a surrogate.
 * Anything else (a continuation byte alone, C0, C1, F5-FF, an overlong
 * form, a surrogate, a beginning cut off by a byte that does not continue
 * it) is no character.
 *
 * utf8_byte() reads a stream a byte at a time, holding a character's
 * beginning until its last byte, so that a character split across reads
 * is still read whole: the control filter, the judge's terminal, the
 * judge's screen and the transcript of a link whose character set is
 * UTF-8 read their bytes with it.  No I/O.
 */
#include <stddef.h>

#include "text.h"

/*
 * Tell the length of the UTF-8 sequence a byte begins (1..4), or 0 when
 * no valid sequence begins with it (a continuation byte, C0, C1, F5-FF).
 */
size_t
utf8_len(unsigned char c)
{
	if (c < 0x80)
		return (1);
	if (c >= 0xc2 && c <= 0xdf)
		return (2);
	if (c >= 0xe0 && c <= 0xef)
		return (3);
	if (c >= 0xf0 && c <= 0xf4)
		return (4);
	return (0);
}

/* Tell whether a byte is a continuation byte (10xxxxxx). */
int
utf8_cont(unsigned char c)
{
	return ((c & 0xc0) == 0x80);
}

/*
 * Count the characters of UTF-8 bytes: those that are no continuation
 * byte, so that a character split over chunks counts once, with its
 * first byte.
 */
size_t
utf8_count(const unsigned char *p, size_t n)
{
	size_t	i, c;

	for (i = 0, c = 0; i < n; i++)
		if (!utf8_cont(p[i]))
			c++;
	return (c);
}

/*
 * Tell the length of the valid UTF-8 sequence at p (1..4) and its code
 * point, or 0 when the bytes there are not valid UTF-8.
 */
int
utf8_decode(const unsigned char *p, size_t len, size_t *used,
    unsigned int *cp)
{
	static const unsigned int mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	static const unsigned int min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned int	c;
	size_t		n, i;

	if (len == 0 || (n = utf8_len(p[0])) == 0 || n > len)
		return (0);
	c = p[0] & mask[n];
	for (i = 1; i < n; i++) {
		if (!utf8_cont(p[i]))
			return (0);
		c = (c << 6) | (p[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return (0);
	*used = n;
	*cp = c;
	return (1);
}

/*
 * Read one byte of a stream (u zeroed to begin): what the bytes in u->b
 * are now.  After UTF8_CUT the byte was not taken and is fed again.
 */
enum utf8_step
utf8_byte(struct utf8 *u, unsigned char c)
{
	size_t	used;

	if (!u->held)
		u->n = 0;
	else if (!utf8_cont(c)) {
		u->held = 0;
		return (UTF8_CUT);
	}
	u->b[u->n++] = c;
	if (u->n < utf8_len(u->b[0])) {
		u->held = 1;
		return (UTF8_MORE);
	}
	u->held = 0;
	return (utf8_decode(u->b, u->n, &used, &u->cp) ? UTF8_CHAR :
	    UTF8_BAD);
}

/*
 * End a stream: 1 when it cut off a character's beginning (its bytes in
 * u->b), else 0; u is ready for another stream.
 */
int
utf8_end(struct utf8 *u)
{
	int	held = u->held;

	u->held = 0;
	return (held);
}
