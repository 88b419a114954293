/*
 * ptybench: what the probe's files share (ptybench.c: options, clock,
 * generators and main; ptybench-mode.c: the modes; ptybench-screen.c:
 * the judge's screen as a room draws it; ptybench-proc.c: the
 * forwarder's processes and ptys; ptybench-stats.c: latency samples).
 */
#ifndef PTYBENCH_H
#define PTYBENCH_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#define PTYBENCH_LINKS_MAX	1024
#define PTYBENCH_RING		8192	/* bytes in flight per stream */
#define PTYBENCH_CHUNK		4096
#define PTYBENCH_PATHLEN	64
#define PTYBENCH_TASKS_MAX	2048
#define PTYBENCH_PROCS_MAX	32768
#define PTYBENCH_SEC		1000000000ULL
#define PTYBENCH_MSEC		1000000ULL
#define PTYBENCH_USEC		1000ULL
#define PTYBENCH_BURST		64	/* rate: writes between reads */
#define PTYBENCH_STALL		(2 * PTYBENCH_SEC)	/* drain: no progress */
#define PTYBENCH_DRAIN		(20 * PTYBENCH_SEC)	/* drain: at most */
#define PTYBENCH_HIST		4096	/* the judge's letters kept, a power of 2 */
#define PTYBENCH_LINEMAX	1024	/* a room's judge line: view.c */
#define PTYBENCH_WIDTH		80	/* a room's screen: view.c */

struct ptybench_gen {			/* a stream of letters */
	uint32_t	x;
	unsigned char	base;		/* 'a' or 'A' */
};

struct ptybench_stream {		/* one direction of one link */
	struct ptybench_gen	 wgen;	/* the bytes written */
	struct ptybench_gen	 rgen;	/* the bytes expected */
	uint64_t		 written;
	uint64_t		 received;
	long			 linelen; /* turn: letters a line, then eol */
	const char		*eol;	/* turn: the line end, one key */
	long			 wcol, rcol;	/* keys of the line written, read */
	unsigned char		 half;	/* a line end's other half may come */
	uint64_t		*due;	/* rate: byte i due at due[i % RING] */
	unsigned char		 pend[PTYBENCH_CHUNK];	/* due, not written */
	size_t			 npend;
	uint64_t		 phase;	/* rate: offset of its ticks, ns */
};

/*
 * The judge's screen at end a, as a room draws it (ptybench-screen.c):
 * where a byte stands in a control sequence, and the judge's line, which
 * the room takes off the screen when the entity writes and draws again.
 */
struct ptybench_screen {
	int		 seq;		/* in ESC [ ... or BS SP BS */
	int		 hidden;	/* the line taken off */
	int		 replay;	/* the line being drawn again, at rp */
	uint64_t	 rp;
	uint64_t	 n;		/* the judge's letters echoed */
	uint64_t	 lfirst;	/* the line's first letter */
	uint64_t	 lstart;	/* what is drawn of it (a commit) */
	uint64_t	 rowstart;	/* its last row's first letter */
	size_t		 col;		/* the column after its last letter */
	int		 cont;		/* committed: drawn without ">" */
	unsigned char	 hist[PTYBENCH_HIST];	/* the letters, by number */
};

struct ptybench_link {
	int			 m[2], s[2];	/* pairs a and b */
	char			 path[2][PTYBENCH_PATHLEN];
	int			 fd[2];		/* the probe's ends a and b */
	struct ptybench_stream	 st[2];		/* 0: a to b, 1: b to a */
	struct ptybench_gen	 echo;		/* a's stream echoed to a */
	uint64_t		 echoed;	/* its keys echoed, line ends too */
	uint64_t		 prompts;	/* a room's screen bytes at a */
	struct ptybench_screen	 scr;
};

struct ptybench_task {			/* a task of the forwarder */
	int		sched;		/* /proc/P/task/T/schedstat */
	int		status;		/* /proc/P/task/T/status */
	uint64_t	cpu0, csw0;	/* at the start of the window */
	int		ok0;
};

struct ptybench_samples {
	uint64_t	*v;		/* ns */
	size_t		 n, cap;
};

/* Options. */
extern int			 opt_echo;
extern int			 opt_links;
extern int			 opt_extra;
extern long			 opt_n;
extern long			 opt_gmin, opt_gmax;
extern long			 opt_block;
extern long			 opt_chars;
extern double			 opt_secs;
extern double			 opt_warm;
extern double			 opt_settle;
extern long			 opt_rate;
extern long			 opt_wsize;
extern const char		*opt_out;
extern uint64_t			 opt_seed;

extern struct ptybench_link	 ptybench_links[PTYBENCH_LINKS_MAX];
extern int			 ptybench_nlinks;
extern int			 ptybench_baseline;
extern pid_t			 ptybench_child;
extern struct ptybench_task	 ptybench_tasks[PTYBENCH_TASKS_MAX];
extern size_t			 ptybench_ntasks;
extern uint64_t			 ptybench_rng;
extern uint64_t			 ptybench_errors;
extern char			 ptybench_error[256];
extern struct ptybench_samples	 ptybench_lat;
extern uint64_t			 ptybench_win0, ptybench_win1;
extern uint64_t			 ptybench_recv_win;
extern uint64_t			 ptybench_deliv_win;

void	ptybench_usage(void) __attribute__((noreturn));
uint64_t	ptybench_now(void);
void	ptybench_sleep_until(uint64_t);
uint64_t	ptybench_random(void);
unsigned char ptybench_gen_next(struct ptybench_gen *);
void	ptybench_gen_init(struct ptybench_gen *, unsigned char,
		    uint32_t);
void	ptybench_stats_add(struct ptybench_samples *, uint64_t);
int	ptybench_stats_cmp(const void *, const void *);
void	ptybench_stats_print(struct ptybench_samples *, double);
void	ptybench_stats_save(struct ptybench_samples *, const char *);
void	ptybench_proc_nonblock(int);
void	ptybench_proc_pair(int *, int *, char *);
void	ptybench_proc_kill(void);
void	ptybench_proc_signal(int);
void	ptybench_proc_spawn(char **);
void	ptybench_proc_check(void);
int	ptybench_mode_await(int, unsigned char, int);
void	ptybench_mode_drain(int);
void	ptybench_mode_map(void);
void	ptybench_mode_streams(void);
void	ptybench_proc_tasks_open(void);
void	ptybench_proc_tasks_read(int, uint64_t *, uint64_t *);
void	ptybench_mode_wrong(struct ptybench_link *, int, unsigned char,
		    const char *);
void	ptybench_mode_check(struct ptybench_link *, int,
		    const unsigned char *, size_t, uint64_t);
int	ptybench_mode_recv(struct ptybench_link *, int, unsigned char,
		    uint64_t);
size_t	ptybench_mode_key(struct ptybench_stream *, unsigned char *);
void	ptybench_screen_init(struct ptybench_link *);
void	ptybench_screen_byte(struct ptybench_link *, unsigned char,
		    uint64_t);
int	ptybench_mode_push(struct ptybench_stream *, int);
void	ptybench_mode_lat(void);
void	ptybench_mode_lock(void);
void	ptybench_mode_line(void);
void	ptybench_mode_bulk(void);
void	ptybench_mode_rate(void);
void	ptybench_mode_turn(void);
void	ptybench_mode_idle(void);
void	ptybench_stats_main(int, char **);

#endif /* PTYBENCH_H */
