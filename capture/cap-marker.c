/*
 * Marker texts ("m" events).  Markers are ASCII words separated by single
 * spaces, the first word naming the marker: "round start 3", "link down
 * EIO", "judge 04 typed".  Only the judge marker changes a transcript.
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"

/*
 * Parse "judge NN" or "judge NN WORDS...": the judge number 0..99, or -1
 * when the text is not a judge marker.
 */
int
cap_marker_judge(const unsigned char *s, size_t len)
{
	if (len < 8 || memcmp(s, "judge ", 6) != 0)
		return (-1);
	if (s[6] < '0' || s[6] > '9' || s[7] < '0' || s[7] > '9')
		return (-1);
	if (len > 8 && s[8] != ' ')
		return (-1);
	return ((s[6] - '0') * 10 + (s[7] - '0'));
}

/* Write "judge NN" (and " HOW" when how is set) into buf; its length. */
size_t
cap_marker_format_judge(char *buf, size_t size, int judge, const char *how)
{
	int	n;

	if (judge < 0 || judge > 99)
		return (0);
	n = snprintf(buf, size, "judge %02d%s%s", judge, how != NULL ? " " : "",
	    how != NULL ? how : "");
	if (n < 0 || (size_t)n >= size)
		return (0);
	return ((size_t)n);
}
