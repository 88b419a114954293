/*
 * The hash chain of a capture.  The file's lines, the header first,
 * newlines included, are hashed in stretches cut just before each seal
 * line: the head at a cut is BLAKE2b-256 of the head at the cut before
 * (32 zero bytes at the start of the file) followed by every byte since
 * that cut, the seal line that began it included.  Removing, inserting,
 * reordering or editing a line changes the head at the next cut and so
 * at every cut after it.  A line is a seal line when it begins as the
 * writer writes one, '[', the time, then ", "m", "seal ".
 *
 * The writer puts the head in the capture itself, in "seal" markers:
 * "seal N HEX" says that the N lines before the seal's own line have the
 * head HEX; "seal N HEX end" is the last line of a capture closed
 * properly.  Seals come before and after every marker, in the same
 * write, and after the events written since the last seal at each sync
 * (at most a second later) and at close.  A verifier recomputes the
 * chain from the file and compares at every seal, which locates a change
 * between two seals; the signed round manifest (manifest.c) holds the
 * last head and the file's hash, so that a file re-sealed after an edit
 * fails there.  An event costs the hash of its own bytes, a seal one
 * BLAKE2b finalisation.
 */
#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

#define CAP_CHAIN_SEAL	", \"m\", \"seal "
#define CAP_CHAIN_LOOK	48	/* a line's start that tells a seal line */

struct cap_chain {
	crypto_generichash_state st;	/* the stretch since the last cut */
	unsigned char		 cut[CAP_CHAIN_BYTES];	/* the head there */
	unsigned char		 head[CAP_CHAIN_BYTES];	/* cap_chain_head's */
	unsigned long		 lines;	/* whole lines fed */
	int			 fed;	/* bytes hashed since the last cut */
	int			 midline; /* the line being fed was told */
	unsigned char		 look[CAP_CHAIN_LOOK];
	size_t			 nlook;	/* a line's start, not yet told */
};

static void	cap_chain_restart(struct cap_chain *);
static int	cap_chain_is_seal(const unsigned char *, size_t);
static void	cap_chain_begin(struct cap_chain *, const unsigned char *,
		    size_t);

/* Start a stretch from the head at the cut. */
static void
cap_chain_restart(struct cap_chain *c)
{
	crypto_generichash_init(&c->st, NULL, 0, CAP_CHAIN_BYTES);
	crypto_generichash_update(&c->st, c->cut, sizeof(c->cut));
	c->fed = 0;
}

/*
 * Whether the start of a line (len bytes, all of it or CAP_CHAIN_LOOK)
 * is a seal line's: '[', digits and points, then CAP_CHAIN_SEAL.
 */
static int
cap_chain_is_seal(const unsigned char *p, size_t len)
{
	const unsigned char	*q;
	size_t			 i, n = sizeof(CAP_CHAIN_SEAL) - 1;

	/* An event's kind first ('m' after ", \""): most lines are not. */
	if (len < 2 || p[0] != '[' || (q = memchr(p, ',', len)) == NULL ||
	    (size_t)(q - p) + n > len || q[3] != 'm' ||
	    memcmp(q, CAP_CHAIN_SEAL, n) != 0 || q == p + 1)
		return (0);
	for (i = 1; p + i < q; i++)
		if ((p[i] < '0' || p[i] > '9') && p[i] != '.')
			return (0);
	return (1);
}

/*
 * Begin a line whose start is told by p (len bytes: the whole line, or
 * at least CAP_CHAIN_LOOK of it): a seal line cuts the chain first.
 */
static void
cap_chain_begin(struct cap_chain *c, const unsigned char *p, size_t len)
{
	if (c->fed && cap_chain_is_seal(p, len)) {
		crypto_generichash_final(&c->st, c->cut, sizeof(c->cut));
		cap_chain_restart(c);
	}
	c->midline = 1;
	c->fed = 1;
}

/* A new chain, before the first line; NULL when out of memory. */
struct cap_chain *
cap_chain_new(void)
{
	struct cap_chain	*c;

	if (sodium_init() == -1 || (c = malloc(sizeof(*c))) == NULL)
		return (NULL);
	memset(c, 0, sizeof(*c));
	cap_chain_restart(c);
	return (c);
}

/* Free a chain. */
void
cap_chain_free(struct cap_chain *c)
{
	free(c);
}

/*
 * Feed bytes of the file, split anywhere; a line's start is held back
 * until it tells whether the line is a seal's.
 */
void
cap_chain_feed(struct cap_chain *c, const void *buf, size_t len)
{
	const unsigned char	*p = buf, *nl;
	size_t			 n;

	while (len > 0) {
		nl = memchr(p, '\n', len);
		n = nl != NULL ? (size_t)(nl - p) + 1 : len;
		if (!c->midline && c->nlook == 0 &&
		    (nl != NULL || n >= CAP_CHAIN_LOOK))
			cap_chain_begin(c, p, n);
		else if (!c->midline) {
			/* A line's start split between feeds: keep it. */
			if (n > CAP_CHAIN_LOOK - c->nlook)
				n = CAP_CHAIN_LOOK - c->nlook;
			memcpy(c->look + c->nlook, p, n);
			c->nlook += n;
			p += n;
			len -= n;
			if (c->nlook < CAP_CHAIN_LOOK &&
			    c->look[c->nlook - 1] != '\n')
				break;
			cap_chain_begin(c, c->look, c->nlook);
			crypto_generichash_update(&c->st, c->look, c->nlook);
			if (c->look[c->nlook - 1] == '\n') {
				c->lines++;
				c->midline = 0;
			}
			c->nlook = 0;
			continue;
		}
		crypto_generichash_update(&c->st, p, n);
		p += n;
		len -= n;
		if (nl != NULL) {
			c->lines++;
			c->midline = 0;
		}
	}
}

/*
 * The head that whole lines (buf ends with a newline) would give, the
 * chain left as it is: the writer's seal for what it is about to write.
 */
void
cap_chain_peek(const struct cap_chain *c, const void *buf, size_t len,
    unsigned char *head, unsigned long *lines)
{
	struct cap_chain	t = *c;

	cap_chain_feed(&t, buf, len);
	memcpy(head, cap_chain_head(&t), CAP_CHAIN_BYTES);
	*lines = t.lines;
}

/*
 * Take a head and a line count as the chain's, a cut made there (a
 * verifier goes on from a seal's head).
 */
void
cap_chain_set(struct cap_chain *c, const unsigned char *head,
    unsigned long lines)
{
	memcpy(c->cut, head, sizeof(c->cut));
	c->lines = lines;
	c->midline = 0;
	c->nlook = 0;
	cap_chain_restart(c);
}

/*
 * The head after the whole lines fed: that of a cut made after the last
 * one (the chain goes on uncut).
 */
const unsigned char *
cap_chain_head(struct cap_chain *c)
{
	crypto_generichash_state	t;

	if (!c->fed)
		return (c->cut);
	t = c->st;
	crypto_generichash_final(&t, c->head, sizeof(c->head));
	return (c->head);
}

/* The whole lines fed. */
unsigned long
cap_chain_lines(const struct cap_chain *c)
{
	return (c->lines);
}

/* Write a head as 64 lowercase hex digits and a NUL. */
char *
cap_chain_hex(const unsigned char *head, char *hex)
{
	sodium_bin2hex(hex, CAP_CHAIN_HEX, head, CAP_CHAIN_BYTES);
	return (hex);
}

/* Read 64 lowercase hex digits (and nothing else) as a head; -1 if not. */
int
cap_chain_unhex(const char *hex, unsigned char *head)
{
	size_t	n;

	if (strlen(hex) != CAP_CHAIN_HEX - 1 ||
	    strspn(hex, "0123456789abcdef") != CAP_CHAIN_HEX - 1 ||
	    sodium_hex2bin(head, CAP_CHAIN_BYTES, hex, CAP_CHAIN_HEX - 1, NULL,
	    &n, NULL) != 0 || n != CAP_CHAIN_BYTES)
		return (-1);
	return (0);
}

/*
 * The chain of a file's whole lines: *lines of them in *bytes, and in
 * head the head after the first upto (all, when there are fewer).
 */
enum cap_err
cap_chain_file(const char *path, unsigned long upto, unsigned char *head,
    unsigned long *lines, int64_t *bytes, struct cap_error *err)
{
	struct cap_chain	*c;
	FILE			*f;
	char			*buf = NULL;
	size_t			 size = 0;
	ssize_t			 len;
	int			 got = 0;

	*lines = 0;
	*bytes = 0;
	if ((c = cap_chain_new()) == NULL) {
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	if ((f = fopen(path, "re")) == NULL) {
		cap_error_sys(err, CAP_ESYS, path, 0, -1, NULL);
		cap_chain_free(c);
		return (CAP_ESYS);
	}
	while ((len = getline(&buf, &size, f)) > 0 && buf[len - 1] == '\n') {
		cap_chain_feed(c, buf, (size_t)len);
		*bytes += len;
		if (cap_chain_lines(c) == upto) {
			memcpy(head, cap_chain_head(c), CAP_CHAIN_BYTES);
			got = 1;
		}
	}
	if (!got)
		memcpy(head, cap_chain_head(c), CAP_CHAIN_BYTES);
	*lines = cap_chain_lines(c);
	free(buf);
	fclose(f);
	cap_chain_free(c);
	return (CAP_OK);
}

/*
 * Format a seal's marker text, "seal N HEX" or "seal N HEX end"; its
 * length.
 */
size_t
cap_chain_seal_format(char *buf, size_t size, unsigned long lines,
    const unsigned char *head, int end)
{
	char	hex[CAP_CHAIN_HEX];
	int	n;

	n = snprintf(buf, size, "seal %lu %s%s", lines, cap_chain_hex(head,
	    hex), end ? " end" : "");
	if (n < 0 || (size_t)n >= size)
		return (0);
	return ((size_t)n);
}

/*
 * Parse a marker's text as a seal: 1 and the lines, head and end flag it
 * gives; 0 when the text is not "seal ..." at all; -1 when it starts so
 * but is not well formed.
 */
int
cap_chain_seal_parse(const unsigned char *s, size_t len, unsigned long *lines,
    unsigned char *head, int *end)
{
	char		 text[CAP_MARKER_MAX], *p, *q;
	unsigned long	 n;

	if (len < 5 || memcmp(s, "seal ", 5) != 0)
		return (0);
	if (len >= sizeof(text) || memchr(s, '\0', len) != NULL)
		return (-1);
	memcpy(text, s, len);
	text[len] = '\0';
	p = text + 5;
	if (*p < '0' || *p > '9')
		return (-1);
	n = strtoul(p, &q, 10);
	if (*q != ' ' || q - p > 12)
		return (-1);
	p = q + 1;
	if (strlen(p) < CAP_CHAIN_HEX - 1)
		return (-1);
	q = p + CAP_CHAIN_HEX - 1;
	if (*q == '\0')
		*end = 0;
	else if (strcmp(q, " end") == 0)
		*end = 1;
	else
		return (-1);
	*q = '\0';
	if (cap_chain_unhex(p, head) == -1)
		return (-1);
	*lines = n;
	return (1);
}
