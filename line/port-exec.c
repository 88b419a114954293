/*
 * exec:COMMAND ports: a local entry.  COMMAND runs under /bin/sh on a raw
 * pty, its standard input and output being the line (standard error is
 * the program's that runs the port's, unless its spawn hook says other:
 * muxd's spawner gives each entry a log of its own).  When the program ends its pty reports EIO,
 * the port goes down and the program is started again with backoff.
 * The program leads a session and a process group of its own: when it is
 * ended, or ends, the whole group is ended with it, so that nothing it
 * started keeps the old pty or piles up across restarts.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"

static int	port_exec_open(struct port *, char *, size_t);
static void	port_exec_close(struct port *);
static void	port_exec_release(struct port *);

const struct port_ops port_exec_ops = {
	"exec", port_exec_open, port_exec_close, port_exec_release
};

/*
 * Become user for good, as a program on a line runs: its groups, gid
 * and uid, and the variables that name its home.  Root is refused.
 */
static const char *
port_exec_user(const char *user)
{
	struct passwd	*pw;

	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		if (errno == 0)
			errno = ENOENT;
		return ("no such user");
	}
	if (pw->pw_uid == 0) {
		errno = EPERM;
		return ("the user is root");
	}
	if (initgroups(pw->pw_name, pw->pw_gid) == -1 ||
	    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) == -1 ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) == -1)
		return ("cannot become the user");
	setenv("USER", pw->pw_name, 1);
	setenv("LOGNAME", pw->pw_name, 1);
	setenv("HOME", pw->pw_dir, 1);
	return (NULL);
}

/*
 * In a child after fork(), run a program as x says (muxd's exec: ports,
 * comprog's entry): its terminal and session, its standard input, output
 * and error, every other descriptor closed, the default signal actions
 * and an empty signal mask, its user and variables; then the program.
 * Returns only if the program could not be run: what failed, errno set.
 */
const char *
port_exec_run(const struct port_exec *x)
{
	const char *const *e;
	const char	*why;
	sigset_t	set;
	int		fd;

	if (x->tty != -1) {
		setsid();
		ioctl(x->tty, TIOCSCTTY, 0);
	}
	for (fd = 0; fd < 3; fd++)
		if (x->fd[fd] != -1)
			dup2(x->fd[fd], fd);
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
	if (x->user != NULL && (why = port_exec_user(x->user)) != NULL)
		return (why);
	if (x->user == NULL && x->uid != 0 && (setgroups(0, NULL) == -1 ||
	    setresgid(x->uid, x->uid, x->uid) == -1 ||
	    setresuid(x->uid, x->uid, x->uid) == -1))
		return ("cannot become the entry's uid");
	for (e = x->env; e != NULL && e[0] != NULL && e[1] != NULL; e += 2)
		setenv(e[0], e[1], 1);
	if (x->command != NULL) {
		execl("/bin/sh", "sh", "-c", x->command, (char *)NULL);
		return ("exec /bin/sh");
	}
	execvp(x->argv[0], x->argv);
	return ("exec");
}

/* Start the program on a new pty. */
static int
port_exec_open(struct port *p, char *err, size_t errlen)
{
	struct port_exec x = { .tty = -1, .fd = { -1, -1, -1 } };
	const char	*why;
	char		name[PATH_MAX];
	int		master, slave;
	pid_t		pid;

	master = port_pty_create(&p->addr, name, sizeof(name), &slave, err,
	    errlen);
	if (master == -1)
		return (-1);
	/* The program's own hook may start it elsewhere, as another user. */
	if ((pid = port_spawn(p, slave, err, errlen)) != 0) {
		close(slave);
		if (pid == -1) {
			close(master);
			return (-1);
		}
		p->fd = master;
		p->pid = pid;
		return (0);
	}
	switch (pid = fork()) {
	case -1:
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(slave);
		close(master);
		return (-1);
	case 0:
		/* The pty is its terminal, input and output; stderr is ours. */
		x.tty = x.fd[0] = x.fd[1] = slave;
		x.command = p->addr.path;
		why = port_exec_run(&x);
		fprintf(stderr, "muxd: %s: %s\n", why, strerror(errno));
		_exit(127);
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
		port_killpg(p->pid, SIGTERM);
}

/* Make sure the program is gone when the port is removed. */
static void
port_exec_release(struct port *p)
{
	if (p->pid > 0)
		port_killpg(p->pid, SIGTERM);
}
