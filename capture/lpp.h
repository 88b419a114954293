/*
 * The 2007-2012 LPP keystroke logs of libcapture (lpp.c), parsed, and
 * their key names: for the auditors' tool (transcripts import, the
 * convention's checks) and comprog's LPP bridge, not for muxd.  Errors
 * as in capture.h: an enum cap_err and a struct cap_error.
 */
#ifndef LPP_H
#define LPP_H

#include "capture.h"	/* cap_err, cap_error, finding_list; text.h */

/* lpp.c: the 2007-2012 LPP keystroke logs, parsed (no I/O) */
/*
 * A record's time is "0", ten digits of Unix seconds and seven digits of
 * zero-padded microseconds (transcripts(1), import).  Defects of a log are
 * data, not errors: lpp_parse() keeps them with their line and offset and
 * carries on; it fails only when out of memory.
 */
#define LPP_TIME_DIGITS	18
#define LPP_KEY_MAX	32	/* key names kept up to 31 bytes */
#define LPP_LINE_MAX	4096	/* a longer line is skipped (a defect) */
#define LPP_DEFECT_MAX	1000	/* defects kept per log; all are counted */
enum lpp_side { LPP_LEFT, LPP_RIGHT };
enum lpp_role { LPP_ROLE_UNKNOWN, LPP_ROLE_PROGRAM, LPP_ROLE_HUMAN };
enum lpp_defect_kind {
	LPP_D_HEADER,		/* a header line missing or malformed */
	LPP_D_NOJUDGE,		/* the header's judge is empty */
	LPP_D_NOROUND,		/* the header's round is empty */
	LPP_D_EMPTY,		/* a header and no records */
	LPP_D_TRUNCATED,	/* the last record cut off (dropped) */
	LPP_D_SYNTAX,		/* a line that is no record (skipped) */
	LPP_D_KEY,		/* an unknown key name (kept, byte -1) */
	LPP_D_DUPLICATE,	/* a record logged twice (dropped) */
	LPP_D_BACKWARDS,	/* earlier than the previous one on its side */
	LPP_D_SPEAKER,		/* typed by neither judge nor the program */
	LPP_D_JUDGEID,		/* J<n> differs from the header's judge */
	LPP_D_LINE_ENDS,	/* mixed CRLF and LF, or a last CR alone */
	LPP_D_LONG,		/* a line over LPP_LINE_MAX (skipped) */
	LPP_D_COUNT
};
#define LPP_SEEN_TITLE	0x01	/* "Loebner Prize ..." */
#define LPP_SEEN_PD	0x02	/* "These transcripts are in the public domain" */
#define LPP_SEEN_WHO	0x04	/* "Transcripts of judge J program P round R" */
#define LPP_SEEN_LEFT	0x08	/* "Left =program" or "Left =human" */
#define LPP_SEEN_HEADER	0x0f
#define LPP_SEEN_RECORD	0x10
struct lpp_record {
	int64_t		 usec;		/* Unix time in microseconds */
	int		 judge;		/* J<n>, TX_JUDGE_NONE for "J" */
	int		 judge_typed;	/* typed by the judge, else the other */
	enum lpp_side	 side;
	int		 byte;		/* the key's byte, -1 when unknown */
	char		 key[LPP_KEY_MAX];	/* the name as logged */
	size_t		 keylen;
	unsigned long	 line;		/* 1-based line in the log */
	int64_t		 offset;	/* byte offset of that line */
	int		 dropped;	/* private */
};
struct lpp_log {
	char		*file;		/* the name given to lpp_parse() */
	char		*title;		/* "Loebner Prize 2012 ..." or NULL */
	char		*program;	/* NULL when no judge line */
	int		 judge;		/* TX_JUDGE_NONE when empty */
	int		 round;		/* 0 when empty */
	enum lpp_role	 left;		/* who sat on the left */
	int		 seen;		/* LPP_SEEN_* */
	struct lpp_record *record;	/* kept records, in log order */
	size_t		 nrecord;
	struct finding_list defects;	/* the first LPP_DEFECT_MAX, kinds
					   enum lpp_defect_kind; line 0: the
					   log as a whole */
	size_t		 ndefect_kind[LPP_D_COUNT];	/* all, by kind */
	size_t		 ndefect_all;
	size_t		 nline;		/* lines, a torn last one included */
	size_t		 ncrlf;		/* lines ending in CRLF */
	size_t		 nlf;		/* lines ending in LF alone */
	size_t		 nduplicate;	/* records dropped as logged twice */
	unsigned long	 torn_line;	/* the cut-off last line, 0: none */
	int64_t		 torn_offset;
	size_t		 torn_len;
	size_t		 record_cap;	/* private */
};
enum cap_err	 lpp_parse(const char *, const void *, size_t,
		    struct lpp_log *, struct cap_error *);
int		 lpp_dedupe(const struct lpp_log *, struct lpp_log *);
int		 lpp_same_pair(const struct lpp_log *, const struct lpp_log *);
void		 lpp_free(struct lpp_log *);
#define LPP_BYTES	256
int		 lpp_key_byte(const char *, size_t);
const char	*lpp_key_name(int);
size_t		 lpp_key_word(char *, size_t, const char *, size_t);
const char	*lpp_defect_name(enum lpp_defect_kind);

#endif /* LPP_H */
