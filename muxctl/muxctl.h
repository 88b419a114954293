/*
 * muxctl: the control client of muxd(8).  It speaks the control protocol
 * (protocol.h) and links nothing of the daemon.
 */
#ifndef MUXCTL_H
#define MUXCTL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "protocol.h"

/* muxctl-conn.c */
enum muxctl_rd {
	MUXCTL_RD_LINE,
	MUXCTL_RD_EOF,
	MUXCTL_RD_LONG,			/* a line over PROTOCOL_LINE_MAX */
	MUXCTL_RD_TIMEOUT
};

/*
 * The read buffer holds one line of up to PROTOCOL_LINE_MAX bytes, its
 * newline and a NUL.  A longer line is reported once, then discarded up to
 * its newline so that a watch can carry on after it.  A line handed out by
 * muxctl_conn_read_line() lives in the buffer until the next call.
 */
struct muxctl_conn {
	int		 fd;
	const char	*path;
	char		 buf[PROTOCOL_LINE_MAX + 2];
	size_t		 off;		/* first unread byte */
	size_t		 len;		/* end of the bytes read */
	int		 skipping;	/* inside an overlong line */
	int		 eof;
};
int		 muxctl_conn_open(struct muxctl_conn *, const char *);
void		 muxctl_conn_write(struct muxctl_conn *, const char *, size_t);
struct timespec;
enum muxctl_rd	 muxctl_conn_read_line(struct muxctl_conn *, char **, size_t *,
		    const struct timespec *);

/* muxctl.c */
const char	*muxctl_get_str(const json_t *, const char *);
json_t		*muxctl_ask(const char *, json_t *, json_t **);
int		 muxctl_positive(const char *);
void		 muxctl_print_json(const json_t *);

/* muxctl-witness.c */
int		 muxctl_witness(int, char **, int);

/* muxctl-cablecheck.c */
int		 muxctl_cablecheck(const char *, int, int, char **);

/* muxctl-fmt.c */
struct muxctl_table {			/* columns aligned; cells owned */
	size_t		 ncols;
	const int	*right;		/* per column: align right */
	char		**cells;	/* nrows * ncols */
	char		**notes;	/* per row: a line printed below, or NULL */
	size_t		 nrows;
	size_t		 cap;
};
int		 muxctl_fmt_get_num(const json_t *, const char *, double *);
const char	*muxctl_fmt_int(const json_t *, const char *, char *, size_t);
void		 muxctl_fmt_real(double, char *, size_t);
double		 muxctl_fmt_now(void);
void		 muxctl_fmt_clock(double, int, char *, size_t);
void		 muxctl_fmt_age(double, double, char *, size_t);
void		 muxctl_fmt_duration(long long, char *, size_t);
int		 muxctl_fmt_c1(const unsigned char *);
void		 muxctl_fmt_put_str(FILE *, const char *, int);
char		*muxctl_fmt_clean(const char *);
size_t		 muxctl_fmt_width(const char *);
void		 muxctl_fmt_table_init(struct muxctl_table *, size_t,
		    const int *);
void		 muxctl_fmt_table_add(struct muxctl_table *, const char **,
		    const char *);
void		 muxctl_fmt_table_print(struct muxctl_table *);
const char	*muxctl_fmt_or(const json_t *, const char *);

/* muxctl-show.c */
void		 muxctl_show(const char *, const json_t *);
void		 muxctl_show_event(const json_t *);

/* muxctl-referee.c: watch --text */
void		 muxctl_referee_init(void);
void		 muxctl_referee_event(const json_t *);
int		 muxctl_referee_deadline(struct timespec *);
void		 muxctl_referee_quiet(void);
void		 muxctl_referee_end(void);

#endif /* MUXCTL_H */
