/*
 * exec:COMMAND ports: a local entry.  COMMAND runs under /bin/sh on a raw
 * pty, its standard input and output being the line (standard error stays
 * muxd's, for the operator).  When the program ends its pty reports EIO,
 * the port goes down and the program is started again with backoff.
 * The program leads a session and a process group of its own: when it is
 * ended, or ends, the whole group is ended with it, so that nothing it
 * started keeps the old pty or piles up across restarts.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"

static int	port_exec_open(struct port *, char *, size_t);
static void	port_exec_close(struct port *);
static void	port_exec_release(struct port *);
static void	port_exec_child(int, const char *) __attribute__((noreturn));

const struct port_ops port_exec_ops = {
	"exec", port_exec_open, port_exec_close, port_exec_release
};

/*
 * In a child about to run a program (muxd's exec: ports, comprog's
 * entry): close every descriptor above standard error and give the
 * program the default signal actions and an empty signal mask.
 */
void
port_exec_reset(void)
{
	sigset_t	set;
	int		fd;

	for (fd = 3; fd < 1024; fd++)
		close(fd);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGWINCH, SIG_DFL);
	sigemptyset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);
}

/* In the child: make the pty the controlling terminal and run the command. */
static void
port_exec_child(int slave, const char *command)
{
	setsid();
	ioctl(slave, TIOCSCTTY, 0);
	dup2(slave, STDIN_FILENO);
	dup2(slave, STDOUT_FILENO);
	port_exec_reset();
	execl("/bin/sh", "sh", "-c", command, (char *)NULL);
	fprintf(stderr, "muxd: exec /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

/* Start the program on a new pty. */
static int
port_exec_open(struct port *p, char *err, size_t errlen)
{
	char	name[PATH_MAX];
	int	master, slave;
	pid_t	pid;

	master = port_pty_create(&p->addr, name, sizeof(name), &slave, err,
	    errlen);
	if (master == -1)
		return (-1);
	switch (pid = fork()) {
	case -1:
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(slave);
		close(master);
		return (-1);
	case 0:
		port_exec_child(slave, p->addr.path);
	}
	close(slave);
	p->fd = master;
	p->pid = pid;
	log_info("port %s: started '%s', pid %ld", p->name, p->addr.path,
	    (long)pid);
	return (0);
}

/* Close the pty and end the program if it still runs. */
static void
port_exec_close(struct port *p)
{
	if (p->fd != -1)
		close(p->fd);
	p->fd = -1;
	if (p->pid > 0)
		kill(-p->pid, SIGTERM);
}

/* Make sure the program is gone when the port is removed. */
static void
port_exec_release(struct port *p)
{
	if (p->pid > 0)
		kill(-p->pid, SIGTERM);
}
