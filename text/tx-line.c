/*
 * The transcript's line: the escapes of its text, and the grammar of a
 * judge's announcement.  The lines themselves are the rows of the
 * judge's screen (view.c).
 */
#include <string.h>

#include "text.h"

static const char tx_line_hex[] = "0123456789abcdef";

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
