/*
 * libtext: the text of a contest room's links, as the 1996 rules read
 * it.  Pure machines over bytes, with no I/O, no clock (times are passed
 * in) and no global state: muxd runs them live on every judge's link,
 * comprog on its screens, and the capture library (libcapture) on a
 * capture's events, so that the screen, the transcript and the
 * statistics read the same bytes the same way.  The convention and the
 * transcript's text are specified in transcripts(5).
 *
 *	cap-encoding	a link's character set: ISO-8859-1 or UTF-8
 *	utf8		UTF-8 read a character at a time
 *	filter		the control-sequence filter: an entity's bytes on
 *			their way to the judge's screen
 *	glyph		a character read, its columns, its nearest ASCII
 *	conv		the 1996 convention's keys: line ends, erases,
 *			turn ends, tabs
 *	tx-line		the transcript line's escapes, the "@@nn"
 *			announcement, the judge's ENQ and muxd's answer
 *	view		the judge's screen: the bytes for the terminal,
 *			and its rows, which are the transcript's lines
 *
 * The caller allocates every structure (none holds memory to free);
 * fields marked private are not to be touched.  The screen's widths and
 * transliterations come from libutf8proc.  This header includes nothing
 * of the project's, and changes to it are additive.
 */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>
#include <stdint.h>

#define TX_WIDTH		80	/* default transcript text width */
#define TX_WIDTH_MIN		8
#define TX_WIDTH_MAX		1024
#define TX_JUDGE_NONE		(-1)	/* judge number not known */

/* cap-encoding.c: a link's character set, by its names */
enum cap_encoding {
	CAP_LATIN1,	/* "iso-8859-1": a byte per code point (ours) */
	CAP_UTF8	/* "utf-8": plain asciicast text (exports, others) */
};
int		 cap_encoding_parse(const char *, enum cap_encoding *);
const char	*cap_encoding_name(enum cap_encoding);

/* utf8.c: UTF-8 read a character at a time (pure) */
struct utf8 {
	unsigned char	 b[4];		/* the character's bytes */
	size_t		 n;		/* bytes in b */
	unsigned int	 cp;		/* UTF8_CHAR: its code point */
	int		 held;		/* b begins a character (read only) */
};
enum utf8_step {
	UTF8_MORE,	/* the byte begins or continues a character */
	UTF8_CHAR,	/* b is a whole character, code point cp */
	UTF8_BAD,	/* b (the byte last) is no character */
	UTF8_CUT	/* b began a character the byte cut off; the byte
			   was not taken: feed it again */
};
size_t		 utf8_len(unsigned char);
int		 utf8_decode(const unsigned char *, size_t, size_t *,
		    unsigned int *);
enum utf8_step	 utf8_byte(struct utf8 *, unsigned char);
int		 utf8_end(struct utf8 *);
int		 utf8_cont(unsigned char);
size_t		 utf8_count(const unsigned char *, size_t);

/* filter.c */
#define FILTER_LIMIT		4096	/* default longest sequence, bytes */
#define FILTER_TEXTMAX		4096	/* removed bytes kept for a report */
#define FILTER_STRMAX		256	/* longest control string, bytes */
#define FILTER_HELDMAX		3	/* utf-8: most bytes given late */
enum filter_kind {
	FILTER_CONTROL,		/* a run of lone C0 or C1 controls */
	FILTER_ESC,		/* ESC x, or ESC, intermediates, final */
	FILTER_CSI,		/* ESC [ or 0x9b ... final byte */
	FILTER_OSC,		/* ESC ] or 0x9d ... BEL or ST */
	FILTER_DCS,		/* ESC P or 0x90 ... ST */
	FILTER_SOS,		/* ESC X or 0x98 ... ST */
	FILTER_PM,		/* ESC ^ or 0x9e ... ST */
	FILTER_APC,		/* ESC _ or 0x9f ... ST */
	FILTER_UTF8		/* utf-8: bytes that are no character */
};
enum filter_end {
	FILTER_END_DONE,	/* ended as a terminal would end it */
	FILTER_END_ABORT,	/* CAN, SUB, or a new ESC or C1 sequence */
	FILTER_END_CUT		/* reached the limit: cut off, state reset */
};
struct filter_span {			/* one removed run, for a marker */
	enum filter_kind kind;
	enum filter_end	 end;
	const unsigned char *text;	/* its first ntext bytes */
	size_t		 ntext;
	size_t		 len;		/* bytes removed in all */
	uint64_t	 in;		/* input offset of its first byte */
	uint64_t	 out;		/* output offset where it was removed */
	int		 passed;	/* pass-through: forwarded after all */
};
struct filter {
	int		 passthrough;	/* report, remove nothing */
	size_t		 limit;
	void		(*cb)(void *, const struct filter_span *);
	void		*arg;
	uint64_t	 seqs;		/* escape sequences, strings removed */
	uint64_t	 controls;	/* lone control bytes removed */
	uint64_t	 bytes;		/* bytes removed in all */
	uint64_t	 cuts;		/* sequences cut off at the limit */
	uint64_t	 in;		/* bytes fed */
	uint64_t	 out;		/* bytes forwarded */
	enum cap_encoding charset;	/* how the bytes read */
	/* private to filter.c */
	struct utf8	 u8;		/* utf-8: the character being read */
	const unsigned char *cur;	/* utf-8: the character being decided */
	size_t		 ncur;
	uint64_t	 cin;		/* input offset of its first byte */
	int		 state;
	enum filter_kind kind;
	size_t		 len;
	uint64_t	 span_in;
	uint64_t	 span_out;
	unsigned char	 text[FILTER_TEXTMAX];
};
void		 filter_init(struct filter *, int, size_t,
		    void (*)(void *, const struct filter_span *), void *);
void		 filter_charset(struct filter *, enum cap_encoding);
int		 filter_byte(struct filter *, unsigned char);
void		 filter_flush(struct filter *);
void		 filter_finish(struct filter *);
size_t		 filter_feed(struct filter *, const unsigned char *, size_t,
		    unsigned char *);
size_t		 filter_count(const struct filter *, const unsigned char *,
		    size_t);
int		 filter_pending(const struct filter *);
const char	*filter_kind_name(enum filter_kind);
const char	*filter_end_name(enum filter_end);

/* glyph.c: characters, their columns, their nearest ASCII (pure) */
#define GLYPH_TRANSLITMAX 8		/* nearest ASCII of a character */
int		 glyph_read(enum cap_encoding, struct utf8 *, unsigned char,
		    char *, size_t *, int *);
int		 glyph_width(unsigned int);
size_t		 glyph_translit(unsigned int, char *);

/* conv.c */
enum conv_key {
	CONV_TEXT,	/* a character, or a control shown as text */
	CONV_ERASE,	/* BS or DEL */
	CONV_EOL,	/* a line end */
	CONV_TURN,	/* a line end that ends the judge's turn */
	CONV_EOL_HALF,	/* the second half of CR LF or LF CR: nothing */
	CONV_QUERY	/* a judge's ENQ: no key at all */
};
struct conv {
	unsigned char	 eol;	/* CR or LF that may pair, else 0 */
	int		 eols;	/* line ends in a row */
};
void		 conv_init(struct conv *);
enum conv_key	 conv_key(struct conv *, int, unsigned char);
int		 conv_ends_line(enum conv_key);
#define CONV_TABSTOP	8
size_t		 conv_tab(size_t);
int		 conv_keyseq(int *, enum cap_encoding, unsigned char);

/* tx-line.c */
/*
 * The transcript's line: what the judge's screen (view.c) hands out as
 * a row, a screen line of the judge's or the program's.  Text is UTF-8;
 * the backslash and what is no character are escaped (transcripts(5)).
 *
 * A judge's ENQ is no text: it asks whether the far end of the line is
 * muxd's judge terminal (comprog judge asks, to take muxd's echo), and
 * muxd answers with an APC string, which terminals do not show, saying
 * whether it echoes and the terminal's charset ("ESC _ muxd echo
 * charset=utf-8 ESC \\", muxd(8)).  The judge's terminal, the transcript
 * and the screen all leave the ENQ out.
 */
#define TX_ENQ			0x05
enum tx_who { TX_JUDGE, TX_PROGRAM };
enum tx_out_kind {
	TX_OUT_LINE,	/* a screen line: who, judge, usec, text, len */
	TX_OUT_JUDGE	/* the judge changed to .judge */
};
struct tx_out {
	enum tx_out_kind kind;
	enum tx_who	 who;
	int		 judge;		/* TX_JUDGE_NONE when not known */
	int64_t		 usec;		/* when the line began */
	const char	*text;		/* the machine's, until the next call */
	size_t		 len;
};
size_t		 tx_line_escape(char *, unsigned char);
int		 tx_line_announced(const char *, size_t);

/* view.c: the judge's screen, live and from a capture (one model) */
#define VIEW_WIDTHMAX	TX_WIDTH_MAX	/* most columns of a row */
#define VIEW_CELLS	1024		/* most characters on a side's line */
#define VIEW_CELLBYTES	32		/* a character and its marks */
#define VIEW_TEXTMAX	4096		/* bytes of a side's line */
#define VIEW_LINEMAX	1024		/* bytes of a judge's line */
#define VIEW_SHOWMAX	8448		/* most bytes for one key */
#define VIEW_OUTLEN(n)	((n) * 32 + 2 * VIEW_SHOWMAX)	/* ... for n output */
#define VIEW_PROMPT	0x1		/* the 1996 prompt and echo */
#define VIEW_LOCALECHO	0x2		/* the terminal echoes the keys */
#define VIEW_UTF8OUT	0x4		/* write UTF-8 whatever the link */
#define VIEW_ECHOCR	0x8		/* LOCALECHO, Enter shown as CR alone */
/* How a station's terminals echo the judge's keys (its "localecho"). */
enum view_echo { VIEW_ECHO_NONE, VIEW_ECHO_CRLF, VIEW_ECHO_CR };
enum view_key_kind {
	VIEW_KEY_TEXT,		/* a character, or a tab */
	VIEW_KEY_ERASE,		/* BS or DEL */
	VIEW_KEY_EOL,		/* a line end: see event */
	VIEW_KEY_EOL_HALF,	/* the second half of CR LF or LF CR */
	VIEW_KEY_PART,		/* a character begun */
	VIEW_KEY_QUERY,		/* ENQ, a terminal's question */
	VIEW_KEY_DROP		/* a control or a key's sequence: nothing */
};
enum view_event { VIEW_EV_NONE, VIEW_EV_LINE, VIEW_EV_TURN, VIEW_EV_JUDGE };
struct view_key {			/* what one keystroke was */
	enum view_key_kind kind;
	enum view_event	 event;		/* VIEW_KEY_EOL */
	int		 judge;		/* VIEW_EV_JUDGE: nn */
	const char	*line;		/* LINE, JUDGE: its text (UTF-8) */
	size_t		 linelen;
	const char	*text;		/* TEXT: the character as recorded */
	size_t		 ntext;
};
struct view_cell {			/* private */
	int64_t		 usec;		/* when it was written */
	unsigned short	 off;		/* its bytes in the side's text */
	unsigned short	 row;		/* judge's line: its row, column */
	unsigned short	 col;
	unsigned char	 n;		/* bytes */
	unsigned char	 w;		/* columns */
};
struct view_side {			/* private */
	size_t		 ncell;
	size_t		 len;		/* bytes in text */
	size_t		 cols;		/* entity: columns of its row */
	int64_t		 usec;
	int		 judge;		/* judge when the line began */
	char		 text[VIEW_TEXTMAX];
	struct view_cell cell[VIEW_CELLS];
};
struct view {				/* private */
	size_t		 width;
	enum cap_encoding charset;	/* how the link's bytes read */
	enum cap_encoding tcharset;	/* the judge's terminal's */
	int		 flags;
	int		 prompt;	/* 1: the prompt takes column 0 */
	int		 draw;		/* the judge's line is muxd's to draw */
	int		 keyecho;	/* ... and its keys' echo */
	int		 judge;
	void		(*row)(void *, const struct tx_out *);
	void		*arg;
	struct conv	 jconv, econv;	/* the judge's, the entity's ends */
	struct utf8	 ju8, eu8;
	int		 seq;		/* inside a key's escape sequence */
	int		 shown;		/* the judge's line is on the screen */
	int		 cont;		/* ... its first rows handed out */
	int		 below;		/* ... below the entity's open row */
	int		 dirty;		/* the cursor is on a foreign row */
	int		 owed;		/* ... taken off, to be drawn again */
	size_t		 drawn;		/* bytes of the last output's drawing */
	size_t		 jrow, jcol;	/* the cursor on the judge's line */
	struct view_side ent;		/* the entity's open row */
	struct view_side jl;		/* the judge's line */
	char		*o;		/* bytes for the terminal */
	size_t		 olen, osize;
	char		 rowbuf[VIEW_TEXTMAX];
	char		 line[VIEW_LINEMAX + 1];
	char		 keytext[16];
};
void		 view_init(struct view *, int, int, enum cap_encoding, int,
		    void (*)(void *, const struct tx_out *), void *);
void		 view_midline(struct view *);
void		 view_charset(struct view *, enum cap_encoding);
void		 view_terminal(struct view *, enum cap_encoding);
size_t		 view_prompt(struct view *, char *);
size_t		 view_key(struct view *, unsigned char, int64_t,
		    struct view_key *, char *);
size_t		 view_output(struct view *, const unsigned char *, size_t,
		    int64_t, char *);
int		 view_judge(struct view *, int);
void		 view_flush(struct view *);
size_t		 view_local_key(struct view *, unsigned char,
		    const struct view_key *, char *);
int		 view_local_flags(int);
int		 view_atstart(const struct view *);
int		 view_shown(const struct view *);
int		 view_typed(const struct view *);
size_t		 view_drawn(const struct view *);

#endif /* TEXT_H */
