/*
 * comprog: the matching communications program of a Turing-test contest
 * room (2004 rule 6).  One program, three sides:
 *
 *	judge		a terminal showing the 1996 convention (">" prompt,
 *			immediate echo, two line ends end a turn)
 *	confederate	a split screen: the judge's keystrokes as they
 *			arrive, the confederate's own typing, the judge's
 *			number and the mandatory opening assertion
 *	entry		an adapter that puts a console chatbot on the line
 *
 * The line is the line library muxd runs on (line/: address syntax,
 * serial, pty, TCP, reopening with backoff, bounded queues), with
 * comprog's hooks (cline.c); the judge's terminal, the control-sequence
 * filter and the opening assertion are the contest's byte machines
 * (contest/), as in muxd.  The transcript is written by libcapture,
 * in muxd's formats.
 */
#ifndef COMPROG_H
#define COMPROG_H

#include <sys/time.h>
#include <stddef.h>
#include <stdint.h>

#include "line.h"
#include "contest.h"
#include "conf.h"
#include "capture.h"

#define COMPROG_QUEUE		4096	/* bytes kept for a line that is down */
#define COMPROG_ESCAPE		0x1d	/* C-]: the command key */

enum comprog_mode { COMPROG_JUDGE, COMPROG_CONFED, COMPROG_ENTRY,
	COMPROG_LPP };

/* profile.c: appearance profiles (2004 rule 6c) */
enum profile_colour {
	PROFILE_JUDGE,		/* the judge's text */
	PROFILE_ENTITY,		/* the entity's text */
	PROFILE_PROMPT,		/* the ">" prompt */
	PROFILE_NOTE,		/* comprog's own notes in a pane */
	PROFILE_STATUS,		/* the status line */
	PROFILE_ALERT,		/* the status line when something is wrong */
	PROFILE_REMINDER,	/* the confederate's opening assertion */
	PROFILE_NCOLOURS
};
#define PROFILE_PROMPTMAX	32
#define PROFILE_BANNERMAX	2048
#define PROFILE_WIDTH_MIN	20
#define PROFILE_WIDTH_MAX	1024
struct profile {
	char		 prompt[PROFILE_PROMPTMAX];	/* shown for ">" */
	char		 banner[PROFILE_BANNERMAX];	/* at the top */
	int		 width;		/* line width, columns */
	enum profile_echo {		/* who echoes the judge's keys */
		PROFILE_ECHO_AUTO,	/* muxd if it answers, else comprog */
		PROFILE_ECHO_LOCAL,	/* comprog */
		PROFILE_ECHO_REMOTE	/* muxd */
	}		 echo;
	int		 eol;		/* enum judgeterm_eol sent for Enter */
	enum cap_encoding charset;	/* how the line's bytes read */
	int		 charset_set;	/* given (option, profile), not
					   the default: the room's loses */
	char		 typing[64];	/* entry: the typing model */
	int		 fg[PROFILE_NCOLOURS];	/* curses colours, -1 default */
	int		 bg[PROFILE_NCOLOURS];
	int		 bold[PROFILE_NCOLOURS];
};
void		 profile_defaults(struct profile *, enum comprog_mode);
int		 profile_load(const char *, struct profile *, char *, size_t);
int		 profile_colour(const char *);

/* pane.c: the text of a screen pane (pure) */
#define PANE_LINES	1000	/* lines kept */
#define PANE_LINEMAX	4096	/* a longer line is ended there */
enum pane_who { PANE_JUDGE, PANE_ENTITY, PANE_PROMPT, PANE_NOTE, PANE_NWHO };
struct pane_cell {
	unsigned int	 c;		/* the character's code point */
	unsigned char	 who;		/* enum pane_who */
	unsigned char	 w;		/* cells BS erases from here: 1, or a tab */
	unsigned char	 cols;		/* columns: 1, 2 (wide), 0 (a mark
					   drawn on the cell before) */
};
struct pane_line {
	struct pane_cell *cell;
	size_t		 len;
	size_t		 cap;
};
struct pane {
	struct pane_line line[PANE_LINES];	/* a ring */
	size_t		 first;		/* the oldest line */
	size_t		 n;		/* lines, the current one included */
	unsigned char	 eol[PANE_NWHO];	/* CR or LF that may pair */
	int		 bells;		/* BEL bytes seen */
	enum cap_encoding charset;	/* how fed bytes read */
	struct utf8	 u[PANE_NWHO];	/* utf-8: a character begun */
};
void		 pane_init(struct pane *);
void		 pane_charset(struct pane *, enum cap_encoding);
void		 pane_free(struct pane *);
void		 pane_feed(struct pane *, enum pane_who, const unsigned char *,
		    size_t);
void		 pane_text(struct pane *, enum pane_who, const char *);
void		 pane_note(struct pane *, const char *);
int		 pane_retract(struct pane *);
size_t		 pane_count(const struct pane *);
const struct pane_line *pane_line(const struct pane *, size_t);
size_t		 pane_current_len(const struct pane *);
int		 pane_charwidth(unsigned int);
size_t		 pane_row_end(const struct pane_line *, size_t, size_t,
		    size_t *);
size_t		 pane_starts(const struct pane_line *, size_t, int, size_t *);
size_t		 pane_rows(const struct pane_line *, size_t, int);

/* screen.c: the terminal (ncurses), restored on every exit */
enum screen_layout { SCREEN_SINGLE, SCREEN_SPLIT };
int		 screen_init(const struct profile *, enum screen_layout,
		    struct pane *, struct pane *, char *, size_t);
void		 screen_end(void);
int		 screen_active(void);
void		 screen_resize(void);
void		 screen_draw(void);
void		 screen_beep(void);
void		 screen_top(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 screen_title(int, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 screen_status(int, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 screen_size(int *, int *);

/* cline.c: comprog's line, muxd's port code with comprog's hooks */
enum cline_change { CLINE_UP, CLINE_DOWN, CLINE_DROP };
struct cline_cb {
	void		 (*read)(const unsigned char *, size_t,
			    const struct timeval *);
	void		 (*change)(enum cline_change, const char *);
};
int		 cline_open(const char *, const struct cline_cb *, char *,
		    size_t);
void		 cline_close(void);
int		 cline_send(const unsigned char *, size_t);
int		 cline_is_up(void);
size_t		 cline_queued(void);
size_t		 cline_room(void);
void		 cline_describe(char *, size_t);
const char	*cline_error(void);
const char	*cline_address(void);

/* transcript.c: comprog's own capture and 1996 transcript */
struct transcript_who {
	const char	*role;		/* "judge", "confederate", "entry" */
	const char	*address;	/* the line */
	const char	*entity;	/* the entity's name, or NULL */
	const char	*program;	/* transcript header */
	const char	*contestant;
	int		 judge_side;	/* comprog is the judge's terminal */
	enum cap_encoding charset;	/* how the line's bytes read */
	int		 hold;		/* open once transcript_charset() */
};
int		 transcript_open(const char *, const struct transcript_who *,
		    char *, size_t);
void		 transcript_charset(enum cap_encoding);
void		 transcript_judge(const void *, size_t, const struct timeval *);
void		 transcript_entity(const void *, size_t,
		    const struct timeval *);
void		 transcript_marker(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 transcript_close(void);
const char	*transcript_path(void);

/* echo.c: what of muxd's output is its echo of the judge's keys (pure) */
#define ECHO_PENDMAX	256	/* keys awaiting their echo */
#define ECHO_KEEP_USEC	2000000	/* a key not echoed by then never will be */
#define ECHO_HOLD_USEC	300000	/* a partial echo held at most so long */
struct echo_key {
	unsigned char	 key;
	int64_t		 usec;		/* when it was sent */
};
struct echo {
	struct judgeterm shadow;	/* muxd's judge terminal as far as seen */
	struct judgeterm next;		/* shadow once the first key is echoed */
	struct echo_key	 pend[ECHO_PENDMAX];
	size_t		 npend;
	unsigned char	 exp[VIEW_SHOWMAX];	/* the echo the first key gets */
	size_t		 nexp;
	int		 expok;		/* exp is up to date */
	unsigned char	 held[VIEW_SHOWMAX];	/* received, matching exp */
	size_t		 nheld;
	int64_t		 heldsince;
	uint64_t	 lost;		/* keys never echoed */
	enum cap_encoding charset;	/* how the keys read */
	int		 esc;		/* in one of muxd's cursor moves */
	struct judgeterm redraw;	/* shadow once the line is drawn */
	unsigned char	 own[VIEW_SHOWMAX];	/* muxd's redraw expected */
	size_t		 nown, iown;
};
typedef void (*echo_fn)(void *, int, unsigned char, const unsigned char *,
    size_t);
void		 echo_init(struct echo *);
void		 echo_charset(struct echo *, enum cap_encoding);
void		 echo_key(struct echo *, unsigned char, int64_t);
void		 echo_feed(struct echo *, const unsigned char *, size_t,
		    int64_t, echo_fn, void *);
int		 echo_expire(struct echo *, int64_t, echo_fn, void *);
int		 echo_waiting(const struct echo *);

/* judge.c */
void		 judge_start(const struct profile *);
void		 judge_key(const unsigned char *, size_t,
		    const struct timeval *);
void		 judge_second(void);
void		 judge_stop(void);
extern const struct cline_cb judge_line_cb;

/* confed.c */
void		 confed_start(const struct profile *, const char *, int);
void		 confed_key(const unsigned char *, size_t,
		    const struct timeval *);
void		 confed_second(void);
void		 confed_stop(void);
extern const struct cline_cb confed_line_cb;

/* entry.c */
void		 entry_start(const struct profile *, const struct typing *,
		    char **, int);
void		 entry_child(pid_t, int);
void		 entry_stop(void);
extern const struct cline_cb entry_line_cb;

/* bridge.c: the LPP bridge (comprog lpp) */
void		 bridge_start(const char *, int);
void		 bridge_stop(void);
extern const struct cline_cb bridge_line_cb;

/* web.c: the web entries' client */
int		 web_client(const char *, const char *, const char *);
int		 web_url_check(const char *, char *, size_t);

/* comprog.c */
extern struct event_base *comprog_base;
void		 comprog_time(struct timeval *);
void		 comprog_quit(int);
void		 comprog_status(const char *, uint64_t);
int64_t		 comprog_usec(const struct timeval *);

#endif /* COMPROG_H */
