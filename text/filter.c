/*
 * The control-sequence filter: bytes from an entity on their way to a
 * judge's screen.
 *
 * A judge's terminal must show what the entity typed and nothing it could
 * interpret: an entity must not clear the screen, move the cursor, set
 * the window title or the clipboard (OSC 52), or redefine keys.  Removed
 * are ESC and whole escape sequences (ESC x, ESC with intermediates, CSI
 * up to its final byte, OSC up to BEL or ST, DCS, SOS, PM and APC up to
 * ST), the C0 controls other than CR, LF, BS, TAB and BEL, and the C1
 * controls 0x80-0x9f, including the 8-bit introducers (0x9b CSI and so
 * on), whose sequences are removed whole as well.  Everything else passes:
 * printable ASCII, DEL and 0xa0-0xff.
 *
 * The recogniser follows the DEC/ECMA-48 parser a terminal runs, so that
 * what is removed is what the terminal would have consumed: CAN and SUB
 * abort a sequence, ESC or a C1 control starts a new one, CR, LF, BS, TAB
 * and BEL inside an escape or control sequence are executed by a terminal
 * and so pass, while inside a control string (OSC, DCS...) every byte
 * but a line end is part of the string (below).  0xa0-0xff inside a sequence counts as its 7-bit
 * equivalent.  Bytes are judged one at a time and never held back: a
 * sequence split across reads is still recognised, its bytes removed as
 * they arrive.
 *
 * Nothing is dropped silently.  Each removed run (one sequence, or a run
 * of consecutive lone controls) is counted and reported to a callback with
 * its text (the first FILTER_TEXTMAX bytes) and its offsets in the input
 * and output streams.  A sequence longer than the limit is cut off there
 * and reported as cut; the state returns to ground and what follows
 * passes as text.  A control string (OSC, DCS, SOS, PM, APC) has a
 * shorter bound, FILTER_STRMAX bytes, and never goes on past a line end
 * (CR or LF): an unterminated OSC is cut there, so that it can never hide
 * the lines that follow it from the judge (a terminal would swallow them
 * until a BEL or ST).  The line end itself passes.  In pass-through mode the same
 * runs are recognised, counted and reported, but every byte is forwarded.
 *
 * A link whose character set is UTF-8 (filter_charset) is read as a
 * terminal in UTF-8 reads it: a character at a time (utf8.c), the state
 * machine above run on its code point, so that a C1 control is U+0080..
 * U+009F (C2 80..C2 9F) and the bytes 0x80-0xbf of other characters are
 * text.  A character passes or is removed whole; its beginning is held
 * until its last byte comes (at most FILTER_HELDMAX bytes, given with the
 * chunk that completes it).  Inside a sequence a character above U+00FF
 * counts as 0xff, and a cut falls after the character that reaches the
 * limit.  Bytes that are no character (a continuation byte
 * alone, C0, C1, F5-FF, an overlong form, a surrogate, a beginning cut
 * off by another byte or by the end of the link) are removed and
 * reported as a run of kind "utf8", like a run of lone controls; inside
 * a sequence they belong to it.
 *
 * This file does no I/O and keeps no global state.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "text.h"

#define FILTER_MINLIMIT	16

#define FILTER_BEL	0x07
#define FILTER_BS	0x08
#define FILTER_TAB	0x09
#define FILTER_LF	0x0a
#define FILTER_CR	0x0d
#define FILTER_CAN	0x18
#define FILTER_SUB	0x1a
#define FILTER_ESCB	0x1b
#define FILTER_DEL	0x7f
#define FILTER_ST	0x9c

enum filter_state {
	FILTER_GROUND,		/* text; a run of lone controls when len > 0 */
	FILTER_S_ESC,		/* after ESC */
	FILTER_S_ESCI,		/* ESC and intermediates, waiting for a final */
	FILTER_S_CSI,		/* parameters and intermediates of a CSI */
	FILTER_S_STR,		/* the body of OSC, DCS, SOS, PM, APC */
	FILTER_S_STRESC		/* ESC inside a string: ST or a new sequence */
};

static int	filter_allowed(unsigned char);
static void	filter_begin(struct filter *, enum filter_kind, uint64_t);
static void	filter_add(struct filter *, unsigned char);
static void	filter_done(struct filter *, enum filter_end);
static int	filter_limit(struct filter *);
static int	filter_ground(struct filter *, unsigned char);
static enum filter_kind filter_introducer(unsigned char);
static void	filter_enter(struct filter *, enum filter_kind);
static int	filter_c1(struct filter *, unsigned char);
static int	filter_common(struct filter *, unsigned char, int *);
static int	filter_esc(struct filter *, unsigned char);
static int	filter_seq(struct filter *, unsigned char);
static void	filter_stresc(struct filter *);
static int	filter_str(struct filter *, unsigned char);
static int	filter_step(struct filter *, unsigned char);
static size_t	filter_bad(struct filter *, const struct utf8 *,
		    unsigned char *);
static size_t	filter_utf8(struct filter *, unsigned char, unsigned char *);

/* Set up a filter; limit 0 means FILTER_LIMIT. */
void
filter_init(struct filter *f, int passthrough, size_t limit,
    void (*cb)(void *, const struct filter_span *), void *arg)
{
	memset(f, 0, sizeof(*f));
	f->passthrough = passthrough;
	if (limit == 0)
		limit = FILTER_LIMIT;
	if (limit < FILTER_MINLIMIT)
		limit = FILTER_MINLIMIT;
	f->limit = limit;
	f->cb = cb;
	f->arg = arg;
	f->state = FILTER_GROUND;
}

/* Read the bytes in a character set (filter_init: ISO-8859-1). */
void
filter_charset(struct filter *f, enum cap_encoding charset)
{
	f->charset = charset;
}

/* Name a kind of removed run, for markers and messages. */
const char *
filter_kind_name(enum filter_kind kind)
{
	switch (kind) {
	case FILTER_CONTROL:
		return ("control");
	case FILTER_ESC:
		return ("esc");
	case FILTER_CSI:
		return ("csi");
	case FILTER_OSC:
		return ("osc");
	case FILTER_DCS:
		return ("dcs");
	case FILTER_SOS:
		return ("sos");
	case FILTER_PM:
		return ("pm");
	case FILTER_APC:
		return ("apc");
	case FILTER_UTF8:
		return ("utf8");
	}
	return ("unknown");
}

/* Name the way a removed run ended. */
const char *
filter_end_name(enum filter_end end)
{
	switch (end) {
	case FILTER_END_DONE:
		return ("done");
	case FILTER_END_ABORT:
		return ("abort");
	case FILTER_END_CUT:
		return ("cut");
	}
	return ("unknown");
}

/* Tell whether a control byte is one a judge's screen may receive. */
static int
filter_allowed(unsigned char c)
{
	return (c == FILTER_CR || c == FILTER_LF || c == FILTER_BS ||
	    c == FILTER_TAB || c == FILTER_BEL);
}

/* Start a removed run whose first byte is at input offset in. */
static void
filter_begin(struct filter *f, enum filter_kind kind, uint64_t in)
{
	f->kind = kind;
	f->len = 0;
	f->span_in = in;
	f->span_out = f->out;
}

/*
 * Add a byte to the current run; c standing for the UTF-8 character
 * being decided adds its bytes.
 */
static void
filter_add(struct filter *f, unsigned char c)
{
	const unsigned char	*p = &c;
	size_t			 n = 1, i;

	if (f->ncur > 0 && c >= 0x80) {
		p = f->cur;
		n = f->ncur;
		f->ncur = 0;
	}
	for (i = 0; i < n; i++) {
		if (f->len < sizeof(f->text))
			f->text[f->len] = p[i];
		f->len++;
		f->bytes++;
		if (f->kind == FILTER_CONTROL)
			f->controls++;
	}
}

/* End the current run: count it, report it, return to ground. */
static void
filter_done(struct filter *f, enum filter_end end)
{
	struct filter_span	span;

	if (f->kind != FILTER_CONTROL && f->kind != FILTER_UTF8)
		f->seqs++;
	if (end == FILTER_END_CUT)
		f->cuts++;
	if (f->cb != NULL) {
		memset(&span, 0, sizeof(span));
		span.kind = f->kind;
		span.end = end;
		span.text = f->text;
		span.ntext = f->len < sizeof(f->text) ? f->len :
		    sizeof(f->text);
		span.len = f->len;
		span.in = f->span_in;
		span.out = f->span_out;
		span.passed = f->passthrough;
		f->cb(f->arg, &span);
	}
	f->len = 0;
	f->state = FILTER_GROUND;
}

/*
 * Cut the current sequence off when it reached the limit (a control
 * string: FILTER_STRMAX, when less); 1 if cut.
 */
static int
filter_limit(struct filter *f)
{
	if (f->len < f->limit && !((f->state == FILTER_S_STR ||
	    f->state == FILTER_S_STRESC) && f->len >= FILTER_STRMAX))
		return (0);
	filter_done(f, FILTER_END_CUT);
	return (1);
}

/* Report a pending run of lone controls (call at the end of a chunk). */
void
filter_flush(struct filter *f)
{
	if (f->state == FILTER_GROUND && f->len > 0)
		filter_done(f, FILTER_END_DONE);
}

/* Tell whether the filter is inside an escape sequence or string. */
int
filter_pending(const struct filter *f)
{
	return (f->state != FILTER_GROUND);
}

/* Decide a byte in ground state: 1 to forward it, 0 to remove it. */
static int
filter_ground(struct filter *f, unsigned char c)
{
	if (filter_allowed(c) || (c >= 0x20 && c <= FILTER_DEL) || c >= 0xa0) {
		filter_flush(f);
		return (1);
	}
	if (c == FILTER_ESCB) {
		filter_flush(f);
		filter_begin(f, FILTER_ESC, f->cin);
		filter_add(f, c);
		f->state = FILTER_S_ESC;
		return (0);
	}
	if (c >= 0x80)
		return (filter_c1(f, c));

	/* Another C0 control: extend the run of lone controls. */
	if (f->kind != FILTER_CONTROL)
		filter_flush(f);
	if (f->len == 0)
		filter_begin(f, FILTER_CONTROL, f->cin);
	filter_add(f, c);
	if (f->len >= f->limit)
		filter_done(f, FILTER_END_DONE);
	return (0);
}

/*
 * The sequence a C1 introducer starts: CSI (0x9b), OSC (0x9d), DCS (0x90),
 * SOS (0x98), PM (0x9e) or APC (0x9f); FILTER_CONTROL for any other byte.
 * ESC and the byte 0x40 below the introducer start the same sequence.
 */
static enum filter_kind
filter_introducer(unsigned char c)
{
	switch (c) {
	case 0x9b:
		return (FILTER_CSI);
	case 0x9d:
		return (FILTER_OSC);
	case 0x90:
		return (FILTER_DCS);
	case 0x98:
		return (FILTER_SOS);
	case 0x9e:
		return (FILTER_PM);
	case 0x9f:
		return (FILTER_APC);
	}
	return (FILTER_CONTROL);
}

/* Enter the body of a CSI sequence or of a control string. */
static void
filter_enter(struct filter *f, enum filter_kind kind)
{
	f->kind = kind;
	f->state = kind == FILTER_CSI ? FILTER_S_CSI : FILTER_S_STR;
}

/* Remove a C1 control (0x80-0x9f), starting a sequence if it is one. */
static int
filter_c1(struct filter *f, unsigned char c)
{
	enum filter_kind	kind = filter_introducer(c);

	filter_flush(f);
	filter_begin(f, kind, f->cin);
	filter_add(f, c);
	if (kind != FILTER_CONTROL)
		filter_enter(f, kind);
	return (0);
}

/*
 * The bytes every escape and control sequence state treats alike.
 * Returns 1 with *pass set when the byte was handled, 0 when the state
 * decides (the byte then added to the sequence).
 */
static int
filter_common(struct filter *f, unsigned char c, int *pass)
{
	*pass = 0;
	if (c == FILTER_ESCB) {
		filter_done(f, FILTER_END_ABORT);
		*pass = filter_ground(f, c);
		return (1);
	}
	if (c == FILTER_CAN || c == FILTER_SUB) {
		filter_add(f, c);
		filter_done(f, FILTER_END_ABORT);
		return (1);
	}
	if (c >= 0x80 && c < 0xa0) {
		filter_done(f, FILTER_END_ABORT);
		*pass = filter_c1(f, c);
		return (1);
	}
	if (filter_allowed(c)) {
		*pass = 1;		/* executed by the terminal */
		return (1);
	}
	filter_add(f, c);
	if (c < 0x20 || (c & 0x7f) == FILTER_DEL) {
		filter_limit(f);	/* executed or ignored: removed */
		return (1);
	}
	return (0);
}

/* Decide a byte after ESC. */
static int
filter_esc(struct filter *f, unsigned char c)
{
	enum filter_kind	kind;
	unsigned char		g;
	int			pass;

	if (filter_common(f, c, &pass))
		return (pass);
	g = c & 0x7f;
	/* ESC [, ESC ], ESC P, ESC X, ESC ^ and ESC _: g is below 0x80. */
	if ((kind = filter_introducer((unsigned char)(g + 0x40))) !=
	    FILTER_CONTROL) {
		filter_enter(f, kind);
		filter_limit(f);
		return (0);
	}
	if (g < 0x30) {
		f->state = FILTER_S_ESCI;
		filter_limit(f);
	} else
		filter_done(f, FILTER_END_DONE);
	return (0);
}

/* Decide a byte inside ESC-with-intermediates or a CSI sequence. */
static int
filter_seq(struct filter *f, unsigned char c)
{
	unsigned char	g;
	int		pass;

	if (filter_common(f, c, &pass))
		return (pass);
	g = c & 0x7f;
	if (g < 0x30 || (f->state == FILTER_S_CSI && g < 0x40))
		filter_limit(f);	/* intermediate or parameter */
	else
		filter_done(f, FILTER_END_DONE);
	return (0);
}

/*
 * After ESC inside a control string, a byte that is not '\\': the string
 * ended before the ESC, which begins a new sequence (the byte at offset
 * f->cin comes next).
 */
static void
filter_stresc(struct filter *f)
{
	f->len--;
	f->bytes--;
	filter_done(f, FILTER_END_ABORT);
	filter_begin(f, FILTER_ESC, f->cin - 1);
	filter_add(f, FILTER_ESCB);
	f->state = FILTER_S_ESC;
}

/* Decide a byte inside a control string (OSC, DCS, SOS, PM, APC). */
static int
filter_str(struct filter *f, unsigned char c)
{
	if (f->state == FILTER_S_STRESC) {
		if (c == '\\') {
			filter_add(f, c);
			filter_done(f, FILTER_END_DONE);
			return (0);
		}
		filter_stresc(f);
		return (filter_esc(f, c));
	}
	if (c == FILTER_ESCB) {
		filter_add(f, c);
		f->state = FILTER_S_STRESC;
		filter_limit(f);
		return (0);
	}
	if (c == FILTER_CR || c == FILTER_LF) {
		/* No string goes on past a line end: cut, the end shown. */
		filter_done(f, FILTER_END_CUT);
		return (filter_ground(f, c));
	}
	filter_add(f, c);
	if (c == FILTER_CAN || c == FILTER_SUB)
		filter_done(f, FILTER_END_ABORT);
	else if (c == FILTER_ST || (c == FILTER_BEL && f->kind == FILTER_OSC))
		filter_done(f, FILTER_END_DONE);
	else
		filter_limit(f);
	return (0);
}

/* Run the state machine on one byte: 1 to forward it, 0 to remove it. */
static int
filter_step(struct filter *f, unsigned char c)
{
	switch (f->state) {
	case FILTER_GROUND:
		return (filter_ground(f, c));
	case FILTER_S_ESC:
		return (filter_esc(f, c));
	case FILTER_S_ESCI:
	case FILTER_S_CSI:
		return (filter_seq(f, c));
	case FILTER_S_STR:
	case FILTER_S_STRESC:
		return (filter_str(f, c));
	}
	return (0);
}

/*
 * Decide one byte: 1 to forward it to the judge, 0 when it is removed.
 * Always 1 in pass-through mode.
 */
int
filter_byte(struct filter *f, unsigned char c)
{
	int	pass;

	f->cin = f->in++;
	pass = filter_step(f, c);
	if (f->passthrough)
		pass = 1;
	if (pass)
		f->out++;
	return (pass);
}

/*
 * Remove what a UTF-8 reader took that is no character: in ground, a run
 * of kind FILTER_UTF8; inside a sequence, part of it.  Returns the bytes
 * forwarded to out (pass-through: all of them; none when out is NULL).
 */
static size_t
filter_bad(struct filter *f, const struct utf8 *u, unsigned char *out)
{
	size_t	i;

	f->cin = f->in - u->n;
	if (f->state == FILTER_S_STRESC)
		filter_stresc(f);
	if (f->state == FILTER_GROUND) {
		if (f->kind != FILTER_UTF8)
			filter_flush(f);
		if (f->len == 0)
			filter_begin(f, FILTER_UTF8, f->cin);
	}
	for (i = 0; i < u->n; i++)
		filter_add(f, u->b[i]);
	if (f->state == FILTER_GROUND) {
		if (f->len >= f->limit)
			filter_done(f, FILTER_END_DONE);
	} else
		filter_limit(f);
	if (!f->passthrough || out == NULL)
		return (0);
	memcpy(out, u->b, u->n);
	f->out += u->n;
	return (u->n);
}

/*
 * Decide one byte of a UTF-8 link: the bytes forwarded to out, a whole
 * character or nothing (held, or removed).
 */
static size_t
filter_utf8(struct filter *f, unsigned char c, unsigned char *out)
{
	struct utf8	*u = &f->u8;
	size_t		 n;
	int		 pass;

	switch (utf8_byte(u, c)) {
	case UTF8_MORE:
		f->in++;
		return (0);
	case UTF8_CUT:
		n = filter_bad(f, u, out);
		return (n + filter_utf8(f, c, out + n));
	case UTF8_BAD:
		f->in++;
		return (filter_bad(f, u, out));
	case UTF8_CHAR:
		break;
	}
	f->cin = f->in - (u->n - 1);
	f->in++;
	f->cur = u->b;
	f->ncur = u->n;
	pass = filter_step(f, u->cp < 0x100 ? (unsigned char)u->cp : 0xff);
	f->ncur = 0;
	if (!pass && !f->passthrough)
		return (0);
	memcpy(out, u->b, u->n);
	f->out += u->n;
	return (u->n);
}

/*
 * Filter a chunk into out and report a trailing run of lone controls.
 * Returns the bytes to forward.  ISO-8859-1: out has room for n bytes
 * and may be in itself.  UTF-8: out has room for n + FILTER_HELDMAX
 * bytes (a character begun in the chunk before) and is apart from in.
 */
size_t
filter_feed(struct filter *f, const unsigned char *in, size_t n,
    unsigned char *out)
{
	size_t	i, o;

	for (i = 0, o = 0; i < n; i++) {
		if (f->charset == CAP_UTF8)
			o += filter_utf8(f, in[i], out + o);
		else if (filter_byte(f, in[i]))
			out[o++] = in[i];
	}
	filter_flush(f);
	return (o);
}

/*
 * End the stream: the beginning of a UTF-8 character it cut off is
 * removed and reported, then the pending run.
 */
void
filter_finish(struct filter *f)
{
	if (utf8_end(&f->u8))
		filter_bad(f, &f->u8, NULL);
	filter_flush(f);
}

/*
 * Count the characters of a chunk for the burst rule: its bytes, but on
 * a UTF-8 link the bytes that are no continuation byte, so that each
 * character counts once wherever the chunks split it.
 */
size_t
filter_count(const struct filter *f, const unsigned char *p, size_t n)
{
	return (f->charset == CAP_UTF8 ? utf8_count(p, n) : n);
}
