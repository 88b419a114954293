/*
 * The two character sets of a room's links, by the names muxd.conf(5)
 * and the capture header (transcripts(5)) give them: "iso-8859-1", a
 * character a byte, and "utf-8".
 */
#include <string.h>

#include "text.h"

/* Read a character set's name, "iso-8859-1" or "utf-8"; -1 if neither. */
int
cap_encoding_parse(const char *s, enum cap_encoding *enc)
{
	if (strcmp(s, "iso-8859-1") == 0)
		*enc = CAP_LATIN1;
	else if (strcmp(s, "utf-8") == 0)
		*enc = CAP_UTF8;
	else
		return (-1);
	return (0);
}

/* Name a character set as the header and muxd.conf(5) write it. */
const char *
cap_encoding_name(enum cap_encoding enc)
{
	return (enc == CAP_LATIN1 ? "iso-8859-1" : "utf-8");
}
