/*
 * The two hot paths of the capture format: writing an event line from
 * bytes, and reading one back into bytes.  Both handle exactly the event
 * shape [time, "x", "data"]; anything the reader's fast path does not
 * accept is handed to jansson to tell invalid JSON from a wrong shape, so
 * the verdict always matches jansson's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

static const char cap_json_hex[] = "0123456789abcdef";

static char	*cap_json_time(char *, int64_t);
static enum cap_err cap_json_number(const char *, size_t, size_t *,
		    int64_t *, char *, size_t);
static enum cap_err cap_json_decode(const char *, size_t, size_t *,
		    enum cap_encoding, unsigned char *, size_t *, char *, size_t);
static enum cap_err cap_json_classify(const char *, size_t, size_t *,
		    char *, size_t);

/* Write a time in microseconds as seconds with six decimals; the end. */
static char *
cap_json_time(char *o, int64_t usec)
{
	char		 d[24];
	uint64_t	 u, s;
	int		 n = 0, i;

	if (usec < 0) {
		*o++ = '-';
		u = (uint64_t)-(usec + 1) + 1;
	} else
		u = (uint64_t)usec;
	s = u / 1000000;
	u %= 1000000;
	do {
		d[n++] = (char)('0' + s % 10);
		s /= 10;
	} while (s > 0);
	while (n > 0)
		*o++ = d[--n];
	*o++ = '.';
	for (i = 5; i >= 0; i--) {
		o[i] = (char)('0' + u % 10);
		u /= 10;
	}
	return (o + 6);
}

/*
 * Write a JSON string (with its quotes) for n bytes; at most
 * CAP_JSON_MAX(n) - 64 + 2 bytes.  ISO-8859-1: each byte is a code point,
 * U+00A0..U+00FF written as UTF-8, controls, DEL and U+0080..U+009F as
 * \u escapes.  UTF-8: the bytes are text; invalid sequences become U+FFFD.
 */
size_t
cap_json_string(char *out, const unsigned char *s, size_t n,
    enum cap_encoding enc)
{
	char		*o = out;
	size_t		 i, used;
	unsigned int	 b, cp;

	*o++ = '"';
	for (i = 0; i < n; i++) {
		b = s[i];
		if (b >= 0x20 && b < 0x7f && b != '"' && b != '\\') {
			*o++ = (char)b;
			continue;
		}
		if (b >= 0x80 && enc == CAP_UTF8) {
			if (utf8_decode(s + i, n - i, &used, &cp)) {
				memcpy(o, s + i, used);
				o += used;
				i += used - 1;
			} else {
				memcpy(o, "\xef\xbf\xbd", 3);
				o += 3;
			}
			continue;
		}
		if (b >= 0xa0) {
			*o++ = (char)(0xc0 | (b >> 6));
			*o++ = (char)(0x80 | (b & 0x3f));
			continue;
		}
		*o++ = '\\';
		switch (b) {
		case '"':
		case '\\':
			*o++ = (char)b;
			break;
		case '\b':
			*o++ = 'b';
			break;
		case '\t':
			*o++ = 't';
			break;
		case '\n':
			*o++ = 'n';
			break;
		case '\f':
			*o++ = 'f';
			break;
		case '\r':
			*o++ = 'r';
			break;
		default:
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = cap_json_hex[b >> 4];
			*o++ = cap_json_hex[b & 0xf];
			break;
		}
	}
	*o++ = '"';
	return ((size_t)(o - out));
}

/*
 * Write one event line, newline included, into out (CAP_JSON_MAX(n)
 * bytes): [12.345678, "o", "data"].  Returns its length.
 */
size_t
cap_json_event(char *out, int64_t usec, enum cap_kind kind,
    const unsigned char *s, size_t n, enum cap_encoding enc)
{
	char	*o = out;

	*o++ = '[';
	o = cap_json_time(o, usec);
	*o++ = ',';
	*o++ = ' ';
	*o++ = '"';
	*o++ = (char)kind;
	*o++ = '"';
	*o++ = ',';
	*o++ = ' ';
	o += cap_json_string(o, s, n, enc);
	*o++ = ']';
	*o++ = '\n';
	return ((size_t)(o - out));
}

/*
 * Parse a JSON number at p[*i] into microseconds (rounded to the nearest);
 * leaves *i after it.  CAP_ESYNTAX for a malformed number, CAP_EEVENT for
 * one out of range.
 */
static enum cap_err
cap_json_number(const char *p, size_t len, size_t *i, int64_t *usec,
    char *msg, size_t msglen)
{
	size_t		 j = *i, start = *i, nint = 0, nfrac = 0;
	int64_t		 ip = 0, fp = 0;
	int		 neg = 0, round = 0, expo = 0;
	char		 tmp[64];
	double		 d;

	if (j < len && p[j] == '-') {
		neg = 1;
		j++;
	}
	if (j < len && p[j] == '0')
		j++, nint = 1;
	else
		for (; j < len && p[j] >= '0' && p[j] <= '9'; j++, nint++)
			if (nint < 13)
				ip = ip * 10 + (p[j] - '0');
	if (nint == 0) {
		snprintf(msg, msglen, "time is not a number");
		*i = j;
		return (CAP_ESYNTAX);
	}
	if (j < len && p[j] == '.') {
		j++;
		for (; j < len && p[j] >= '0' && p[j] <= '9'; j++, nfrac++) {
			if (nfrac < 6)
				fp = fp * 10 + (p[j] - '0');
			else if (nfrac == 6)
				round = p[j] >= '5';
		}
		if (nfrac == 0) {
			snprintf(msg, msglen, "no digit after the decimal "
			    "point of the time");
			*i = j;
			return (CAP_ESYNTAX);
		}
	}
	if (j < len && (p[j] == 'e' || p[j] == 'E')) {
		expo = 1;
		j++;
		if (j < len && (p[j] == '+' || p[j] == '-'))
			j++;
		if (j >= len || p[j] < '0' || p[j] > '9') {
			snprintf(msg, msglen, "no digit in the exponent of "
			    "the time");
			*i = j;
			return (CAP_ESYNTAX);
		}
		while (j < len && p[j] >= '0' && p[j] <= '9')
			j++;
	}
	*i = j;
	if (expo) {
		if (j - start >= sizeof(tmp)) {
			snprintf(msg, msglen, "time has too many digits");
			return (CAP_EEVENT);
		}
		memcpy(tmp, p + start, j - start);
		tmp[j - start] = '\0';
		d = strtod(tmp, NULL) * 1e6;
		if (!(d > -9e15 && d < 9e15)) {
			snprintf(msg, msglen, "time %s is out of range", tmp);
			return (CAP_EEVENT);
		}
		*usec = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
	} else {
		if (nint > 12) {
			snprintf(msg, msglen, "time has more than 12 digits "
			    "of seconds");
			return (CAP_EEVENT);
		}
		while (nfrac < 6) {
			fp *= 10;
			nfrac++;
		}
		*usec = ip * 1000000 + fp + round;
		if (neg)
			*usec = -*usec;
	}
	if (*usec < 0) {
		snprintf(msg, msglen, "negative time");
		return (CAP_EEVENT);
	}
	return (CAP_OK);
}

/*
 * Decode the JSON string at p[*i] (at its opening quote) into bytes in
 * out; *i ends after the closing quote.  On error *i is where it is.
 */
static enum cap_err
cap_json_decode(const char *p, size_t len, size_t *i, enum cap_encoding enc,
    unsigned char *out, size_t *outlen, char *msg, size_t msglen)
{
	const unsigned char	*s = (const unsigned char *)p;
	unsigned char		*o = out;
	size_t			 j = *i + 1, used, k, at;
	unsigned int		 cp, lo, c;

	for (;;) {
		while (j < len && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' &&
		    s[j] != '\\')
			*o++ = s[j++];
		if (j >= len) {
			snprintf(msg, msglen, "string not closed");
			*i = j;
			return (CAP_ESYNTAX);
		}
		c = s[j];
		at = j;
		if (c == '"')
			break;
		if (c < 0x20) {
			snprintf(msg, msglen, "control character 0x%02x not "
			    "escaped in a string", c);
			*i = j;
			return (CAP_ESYNTAX);
		}
		if (c >= 0x80) {
			if (!utf8_decode(s + j, len - j, &used, &cp)) {
				snprintf(msg, msglen, "invalid UTF-8");
				*i = j;
				return (CAP_ESYNTAX);
			}
			j += used;
			goto put;
		}
		/* A backslash escape. */
		if (j + 1 >= len) {
			snprintf(msg, msglen, "string not closed");
			*i = j;
			return (CAP_ESYNTAX);
		}
		switch (s[j + 1]) {
		case '"': case '\\': case '/':
			cp = s[j + 1];
			break;
		case 'b':
			cp = '\b';
			break;
		case 'f':
			cp = '\f';
			break;
		case 'n':
			cp = '\n';
			break;
		case 'r':
			cp = '\r';
			break;
		case 't':
			cp = '\t';
			break;
		case 'u':
			cp = 0;
			for (k = 0; k < 4; k++) {
				c = j + 2 + k < len ? s[j + 2 + k] : 0;
				if (c >= '0' && c <= '9')
					cp = cp * 16 + (c - '0');
				else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
					cp = cp * 16 + ((c | 0x20) - 'a' + 10);
				else {
					snprintf(msg, msglen, "invalid \\u "
					    "escape");
					*i = j;
					return (CAP_ESYNTAX);
				}
			}
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				snprintf(msg, msglen, "lone low surrogate "
				    "\\u%04x", cp);
				*i = j;
				return (CAP_ESYNTAX);
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				lo = 0;
				if (j + 11 < len + 0 && s[j + 6] == '\\' &&
				    s[j + 7] == 'u') {
					for (k = 0; k < 4; k++) {
						c = s[j + 8 + k] | 0x20;
						if (c >= '0' && c <= '9')
							lo = lo * 16 + (c - '0');
						else if (c >= 'a' && c <= 'f')
							lo = lo * 16 +
							    (c - 'a' + 10);
						else
							lo = 0x10000;
					}
				}
				if (lo < 0xdc00 || lo > 0xdfff) {
					snprintf(msg, msglen, "lone high "
					    "surrogate \\u%04x", cp);
					*i = j;
					return (CAP_ESYNTAX);
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				j += 6;
			}
			j += 4;
			break;
		default:
			snprintf(msg, msglen, "invalid escape \\%c",
			    s[j + 1] >= 0x20 && s[j + 1] < 0x7f ? s[j + 1] :
			    '?');
			*i = j;
			return (CAP_ESYNTAX);
		}
		j += 2;
put:
		if (enc == CAP_LATIN1) {
			if (cp > 0xff) {
				snprintf(msg, msglen, "code point U+%04X above "
				    "U+00FF in ISO-8859-1 data", cp);
				*i = at;
				return (CAP_ECODE);
			}
			*o++ = (unsigned char)cp;
		} else if (cp < 0x80)
			*o++ = (unsigned char)cp;
		else if (cp < 0x800) {
			*o++ = (unsigned char)(0xc0 | (cp >> 6));
			*o++ = (unsigned char)(0x80 | (cp & 0x3f));
		} else if (cp < 0x10000) {
			*o++ = (unsigned char)(0xe0 | (cp >> 12));
			*o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
			*o++ = (unsigned char)(0x80 | (cp & 0x3f));
		} else {
			*o++ = (unsigned char)(0xf0 | (cp >> 18));
			*o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
			*o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
			*o++ = (unsigned char)(0x80 | (cp & 0x3f));
		}
	}
	*i = j + 1;
	*o = '\0';
	*outlen = (size_t)(o - out);
	return (CAP_OK);
}

/*
 * Tell what is wrong with a line the fast path refused: invalid JSON
 * (jansson's message and position) or a JSON value that is no event.
 */
static enum cap_err
cap_json_classify(const char *p, size_t len, size_t *erroff, char *msg,
    size_t msglen)
{
	json_error_t	 je;
	json_t		*v, *t, *k;
	const char	*what = NULL;

	v = json_loadb(p, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (v == NULL) {
		snprintf(msg, msglen, "invalid JSON: %s", je.text);
		*erroff = je.position >= 0 && (size_t)je.position <= len ?
		    (size_t)je.position : len;
		return (CAP_ESYNTAX);
	}
	*erroff = 0;
	if (!json_is_array(v))
		what = "event is not a JSON array";
	else if (json_array_size(v) != 3)
		what = "event is not an array of 3 elements";
	else if (!json_is_number(t = json_array_get(v, 0)))
		what = "event time is not a number";
	else if (json_number_value(t) < 0)
		what = "event time is negative";
	else if (!json_is_string(k = json_array_get(v, 1)) ||
	    json_string_length(k) != 1)
		what = "event type is not a one-letter string";
	else if (strchr("iomr", json_string_value(k)[0]) == NULL)
		what = "event type is not \"i\", \"o\", \"m\" or \"r\"";
	else if (!json_is_string(json_array_get(v, 2)))
		what = "event data is not a string";
	else
		what = "event not in the form [time, \"x\", \"data\"]";
	snprintf(msg, msglen, "%s", what);
	json_decref(v);
	return (CAP_EEVENT);
}

/*
 * Parse one event line (without its newline) into ev, decoding the data
 * into data (at least len + 1 bytes).  On error, *erroff is the offset of
 * the fault within the line and msg says what it is.
 */
enum cap_err
cap_json_parse_event(const char *p, size_t len, enum cap_encoding enc,
    struct cap_event *ev, unsigned char *data, size_t *erroff, char *msg,
    size_t msglen)
{
	size_t		i = 0, dlen;
	unsigned char	kind;
	enum cap_err	e;

#define WS()	while (i < len && (p[i] == ' ' || p[i] == '\t' || \
	    p[i] == '\r' || p[i] == '\n')) i++
	*erroff = 0;
	msg[0] = '\0';
	WS();
	if (i == len) {
		snprintf(msg, msglen, "empty line");
		return (CAP_ESYNTAX);
	}
	if (p[i] != '[')
		goto slow;
	i++;
	WS();
	if ((e = cap_json_number(p, len, &i, &ev->usec, msg, msglen)) !=
	    CAP_OK) {
		if (e == CAP_EEVENT) {
			*erroff = i;
			return (e);
		}
		goto slow;
	}
	WS();
	if (i >= len || p[i++] != ',')
		goto slow;
	WS();
	if (i + 3 > len || p[i] != '"' || p[i + 2] != '"' ||
	    p[i + 1] == '\\' || p[i + 1] == '"')
		goto slow;
	kind = (unsigned char)p[i + 1];
	if (kind != 'i' && kind != 'o' && kind != 'm' && kind != 'r')
		goto slow;
	ev->kind = (enum cap_kind)kind;
	i += 3;
	WS();
	if (i >= len || p[i++] != ',')
		goto slow;
	WS();
	if (i >= len || p[i] != '"')
		goto slow;
	if ((e = cap_json_decode(p, len, &i, enc, data, &dlen, msg,
	    msglen)) != CAP_OK) {
		*erroff = i;
		return (e);
	}
	WS();
	if (i >= len || p[i++] != ']')
		goto slow;
	WS();
	if (i != len)
		goto slow;
	ev->data = data;
	ev->len = dlen;
	return (CAP_OK);
slow:
#undef WS
	return (cap_json_classify(p, len, erroff, msg, msglen));
}
