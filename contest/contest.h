/*
 * contest: the per-byte machines of the contest rules, pure functions
 * over bytes with no I/O, shared by muxd (live, on every judge's link)
 * and comprog (the judge's and the confederate's screens).
 *
 *	judgeterm	the judge's terminal of the 1996 convention: ">"
 *			prompt, echo, line editing, line ends towards the
 *			entity, two line ends end a turn, "@@nn" lines
 *	assertion	the opening assertion "Hello, my name is X and I am
 *			the human" (2004 rule 3), checked with pcre2
 *	typing		a typing model: key delays like a person's
 *	hold		an entity's output held back until released, then
 *			given out with its own timing
 *
 * Each is fed a byte (or a chunk, decided byte by byte) and says what
 * follows; none keeps a clock of its own (times are passed in).
 */
#ifndef CONTEST_H
#define CONTEST_H

#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>

#include "text.h"	/* enum cap_encoding, struct utf8, struct view */

/* assertion.c */
#define ASSERTION_TEXTMAX	512	/* longest utterance checked, bytes */
#define ASSERTION_NAMEMAX	128
#define ASSERTION_NOJIT		0x1	/* assertion_pattern_new: interpreter */
#define ASSERTION_UTF8		0x2	/* ... also for UTF-8 links */
enum assertion_verdict {
	ASSERTION_PENDING,	/* the text may still become the assertion */
	ASSERTION_PASS,		/* asserted with the approved name */
	ASSERTION_NAME,		/* asserted with another name */
	ASSERTION_FAIL		/* the text departs from the assertion */
};
struct assertion_result {
	enum assertion_verdict verdict;
	int		 final;		/* no later byte can change it */
	uint64_t	 offset;	/* the byte that decided it */
	char		 text[ASSERTION_TEXTMAX + 1];	/* utterance, edited */
	char		 name[ASSERTION_NAMEMAX + 1];	/* PASS, NAME */
	char		 reason[160];	/* FAIL, NAME: why, in words */
};
struct assertion_pattern;
struct assertion;
const char	*assertion_default_pattern(void);
struct assertion_pattern *assertion_pattern_new(const char *, int, char *,
		    size_t);
void		 assertion_pattern_free(struct assertion_pattern *);
int		 assertion_pattern_jit(const struct assertion_pattern *);
struct assertion *assertion_new(struct assertion_pattern *, const char *);
void		 assertion_free(struct assertion *);
int		 assertion_charset(struct assertion *, enum cap_encoding);
int		 assertion_byte(struct assertion *, unsigned char);
enum assertion_verdict assertion_feed(struct assertion *, const void *,
		    size_t);
int		 assertion_finish(struct assertion *);
const struct assertion_result *assertion_result(const struct assertion *);
const char	*assertion_verdict_name(enum assertion_verdict);
int		 assertion_name_equal(const char *, const char *);

/* typing.c: a typing model, key delays like a person's (pure) */
struct typing {
	int		 base;		/* ms per key */
	int		 jitter;	/* +- ms, uniform */
	uint64_t	 state;		/* random generator */
};
int		 typing_parse(const char *, struct typing *, char *, size_t);
void		 typing_seed(struct typing *, uint64_t);
int		 typing_delay(struct typing *, unsigned char, unsigned char);

/* hold.c: an entity's output held back, released with its timing (pure) */
enum hold_state { HOLD_HOLDING, HOLD_RELEASING, HOLD_OPEN };
struct hold_chunk;
struct hold {
	enum hold_state	 state;
	size_t		 limit;		/* most bytes held */
	uint64_t	 held;		/* bytes ever held */
	uint64_t	 dropped;	/* bytes past the limit */
	int64_t		 delay;		/* releasing: usec each chunk is late */
	/* private to hold.c */
	unsigned char	*buf;
	size_t		 len;
	struct hold_chunk *chunks;
	size_t		 nchunks;
	size_t		 capchunks;
};
void		 hold_init(struct hold *, size_t);
void		 hold_clear(struct hold *);
size_t		 hold_push(struct hold *, const unsigned char *, size_t,
		    int64_t);
void		 hold_release(struct hold *, int64_t);
size_t		 hold_take(struct hold *, int64_t, unsigned char *, size_t,
		    int64_t *);
size_t		 hold_discard(struct hold *);
int		 hold_open(const struct hold *);

/* judgeterm.c: the judge's terminal, over the judge's screen (view.c) */
#define JUDGETERM_LINEMAX	VIEW_LINEMAX	/* judge line bytes kept */
#define JUDGETERM_ANNOUNCEMAX	8	/* "@@nn" and two CRLFs */
enum judgeterm_eol {		/* line ends sent to the entity */
	JUDGETERM_EOL_CR,
	JUDGETERM_EOL_LF,
	JUDGETERM_EOL_CRLF,
	JUDGETERM_EOL_ASIS	/* the judge's own bytes */
};
enum judgeterm_event {
	JUDGETERM_NONE,
	JUDGETERM_LINE,		/* a judge line ended */
	JUDGETERM_TURN,		/* two consecutive line ends: turn over */
	JUDGETERM_JUDGE		/* "@@nn" line: judge nn announced */
};
struct judgeterm_out {			/* what one keystroke gives */
	unsigned char	 echo[VIEW_SHOWMAX];	/* for the judge's screen */
	size_t		 necho;
	unsigned char	 entity[8];	/* for the entity */
	size_t		 nentity;
	enum judgeterm_event event;
	int		 judge;		/* JUDGETERM_JUDGE: nn */
	const char	*line;		/* LINE, JUDGE: the line, edited */
	size_t		 linelen;	/* its length */
};
struct judgeterm {
	int		 localecho;	/* the terminal echoes by itself */
	enum judgeterm_eol eol;
	enum cap_encoding charset;	/* how the keystrokes read */
	struct view	 view;		/* the judge's screen (private) */
	unsigned char	 part[4];	/* a character begun (private) */
	size_t		 npart;
	enum cap_encoding tcharset;	/* the terminal's (private) */
};
void		 judgeterm_init(struct judgeterm *, int, enum judgeterm_eol);
void		 judgeterm_byte(struct judgeterm *, unsigned char,
		    struct judgeterm_out *);
void		 judgeterm_charset(struct judgeterm *, enum cap_encoding);
void		 judgeterm_terminal(struct judgeterm *, enum cap_encoding);
void		 judgeterm_cursor(struct judgeterm *, int);
int		 judgeterm_prompted(const struct judgeterm *);
int		 judgeterm_col0(const struct judgeterm *);
int		 judgeterm_typed(const struct judgeterm *);
void		 judgeterm_prompt(struct judgeterm *, struct judgeterm_out *);
void		 judgeterm_screen(struct judgeterm *, const unsigned char *,
		    size_t);
size_t		 judgeterm_screen_out(struct judgeterm *, const unsigned char *,
		    size_t, unsigned char *, size_t *);
size_t		 judgeterm_announce(int, enum judgeterm_eol, unsigned char *,
		    size_t);
int		 judgeterm_eol_parse(const char *, enum judgeterm_eol *);
const char	*judgeterm_eol_name(enum judgeterm_eol);
const char	*judgeterm_eol_bytes(enum judgeterm_eol);

#endif /* CONTEST_H */
