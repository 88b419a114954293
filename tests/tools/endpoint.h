/*
 * endpoint: the line ends the test tools (ttyio, typer, xfer) work on.
 *
 * An endpoint is a tty or pty path, opened raw; tcp:HOST:PORT, connected
 * with Nagle off; or the path of a unix-domain socket, connected.  Every
 * endpoint is non-blocking once open.  Failing to open exits through err(3).
 *
 * Each tty opened is put back as it was by endpoint_restore(), which
 * endpoint_guard() arranges to run at exit and on SIGINT, SIGTERM and
 * SIGHUP.  An endpoint must stay in place (not be moved or freed) while
 * open, since the list of ttys to restore points at it.
 */

#ifndef ENDPOINT_H
#define ENDPOINT_H

#include <stddef.h>
#include <termios.h>

struct endpoint {
	const char	*name;		/* as on the command line */
	int		 fd;		/* -1 until opened */
	int		 istty;
	struct termios	 saved;		/* restored on exit */
	struct endpoint	*next;		/* in the list of ttys to restore */
};

void		 endpoint_guard(void);
void		 endpoint_restore(void);
void		 endpoint_open(struct endpoint *);
unsigned char	*endpoint_unescape(const char *, size_t *);
int		 endpoint_number(const char *, long long, long long,
		    long long *);
long long	 endpoint_now_ms(void);
long long	 endpoint_now_us(void);

#endif /* ENDPOINT_H */
