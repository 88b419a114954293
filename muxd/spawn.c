/*
 * The entries' user: a program on an exec: port is a contestant and must
 * not touch muxd (its control socket, its state, its records), so it runs
 * as a user of its own, entry_user (default muxd-entry, or nobody where
 * that user does not exist), never as muxd's.  Only root can start a
 * program as another user, and muxd gives root up (-u), so when muxd
 * starts as root it first forks a spawner that keeps root and does
 * nothing else, as OpenBSD's privilege-separated daemons do: muxd sends it
 * the pty of the program with the command and the user; the spawner
 * starts the program as that user in a session of its own, answers with
 * its pid, signals its process group when asked (muxd may not signal
 * another user's programs), and reports each end.  It never starts a
 * program as root, and when muxd goes away, it ends every program it
 * started and exits.  A muxd that is not root runs its programs as itself,
 * and says so.
 *
 * Messages are datagrams on a socketpair: a run carries the pty, its
 * answer (started or failed) comes before any other message on the way
 * back, ends (exited) come whenever a program has ended.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

#define SPAWN_USER	"muxd-entry"	/* the default user of entries */
#define SPAWN_FALLBACK	"nobody"	/* where it does not exist */
#define SPAWN_TEXT	8192
#define SPAWN_MAX	1024		/* programs running at once */
#define SPAWN_WAIT_MS	5000		/* for the spawner's answer */

enum spawn_type { SPAWN_RUN, SPAWN_KILL, SPAWN_STARTED, SPAWN_FAILED,
    SPAWN_EXITED };

struct spawn_msg {
	enum spawn_type	 type;
	pid_t		 pid;		/* STARTED, KILL, EXITED */
	int		 arg;		/* KILL: signal; EXITED: status;
					   FAILED: errno */
	char		 text[SPAWN_TEXT];	/* RUN: user, NUL, command;
						   FAILED: what failed */
};

static int		 spawn_fd = -1;	/* muxd's end; -1: no spawner */
static pid_t		 spawn_pid = -1;
static struct event	*spawn_ev;
static char		*spawn_user;	/* entries' user, as configured */
static char		*spawn_muxd;	/* muxd's user (-u), or NULL */
static struct {				/* ends read while waiting */
	pid_t	pid;
	int	status;
}			 spawn_ended[SPAWN_MAX];
static size_t		 spawn_nended;

static void	spawn_serve(int) __attribute__((noreturn));
static void	spawn_read(evutil_socket_t, short, void *);

/* Send a message, with a descriptor when fd is not -1; -1 on error. */
static int
spawn_send(int s, const struct spawn_msg *m, int fd)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*c;
	struct pollfd	 pfd;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = (void *)m;
	iov.iov_len = offsetof(struct spawn_msg, text) +
	    strnlen(m->text, sizeof(m->text)) + 1;
	if (m->type == SPAWN_RUN)
		iov.iov_len += strnlen(m->text + strlen(m->text) + 1,
		    sizeof(m->text) - strlen(m->text) - 1) + 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (fd != -1) {
		memset(&cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf.buf;
		msg.msg_controllen = sizeof(cbuf.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (sendmsg(s, &msg, MSG_NOSIGNAL) == -1) {
		if (errno == EAGAIN) {
			pfd.fd = s;
			pfd.events = POLLOUT;
			if (poll(&pfd, 1, SPAWN_WAIT_MS) != 1)
				return (-1);
		} else if (errno != EINTR)
			return (-1);
	}
	return (0);
}

/*
 * Receive a message and the descriptor it carries (else *fd is -1):
 * 1, 0 at the end, -1 on error.  Text is always terminated.
 */
static int
spawn_recv(int s, struct spawn_msg *m, int *fd)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*c;
	ssize_t		 n;

	memset(&msg, 0, sizeof(msg));
	memset(m, 0, sizeof(*m));
	iov.iov_base = m;
	iov.iov_len = sizeof(*m);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	while ((n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC)) == -1)
		if (errno != EINTR)
			return (-1);
	if (n == 0)
		return (0);
	*fd = -1;
	for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	if ((size_t)n < offsetof(struct spawn_msg, text)) {
		if (*fd != -1)
			close(*fd);
		errno = EPROTO;
		return (-1);
	}
	m->text[sizeof(m->text) - 2] = '\0';
	m->text[sizeof(m->text) - 1] = '\0';
	return (1);
}

/*
 * The spawner's side of a run: start the command as the user on the pty,
 * answer with its pid or what failed.
 */
static void
spawn_serve_run(int s, const struct spawn_msg *m, int tty, pid_t *kids)
{
	struct spawn_msg	 a;
	struct port_exec	 x = { .fd = { -1, -1, -1 } };
	struct passwd		*pw;
	const char		*why;
	size_t			 i;
	pid_t			 pid;

	memset(&a, 0, sizeof(a));
	a.type = SPAWN_FAILED;
	x.user = m->text;
	x.command = m->text + strlen(m->text) + 1;
	for (i = 0; i < SPAWN_MAX && kids[i] != 0; i++)
		;
	errno = 0;
	if (tty == -1)
		snprintf(a.text, sizeof(a.text), "no terminal was given");
	else if ((pw = getpwnam(x.user)) == NULL)
		snprintf(a.text, sizeof(a.text), "user %s: %s", x.user,
		    errno != 0 ? strerror(errno) : "no such user");
	else if (pw->pw_uid == 0)
		snprintf(a.text, sizeof(a.text), "user %s is root: entries "
		    "never run as root", x.user);
	else if (i == SPAWN_MAX)
		snprintf(a.text, sizeof(a.text), "%d programs run already",
		    SPAWN_MAX);
	else if ((pid = fork()) == -1)
		snprintf(a.text, sizeof(a.text), "fork: %s", strerror(errno));
	else if (pid == 0) {
		x.tty = x.fd[0] = x.fd[1] = tty;
		why = port_exec_run(&x);
		fprintf(stderr, "muxd: user %s: %s: %s\n", x.user, why,
		    strerror(errno));
		_exit(127);
	} else {
		kids[i] = pid;
		a.type = SPAWN_STARTED;
		a.pid = pid;
	}
	if (tty != -1)
		close(tty);
	spawn_send(s, &a, -1);
}

/* The spawner's side of an end: report each program that has ended. */
static void
spawn_serve_reap(int s, pid_t *kids)
{
	struct spawn_msg	 a;
	size_t			 i;
	pid_t			 pid;
	int			 status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < SPAWN_MAX && kids[i] != pid; i++)
			;
		if (i == SPAWN_MAX)
			continue;
		/* What it started in its process group ends with it. */
		kill(-pid, SIGTERM);
		kids[i] = 0;
		memset(&a, 0, sizeof(a));
		a.type = SPAWN_EXITED;
		a.pid = pid;
		a.arg = status;
		spawn_send(s, &a, -1);
	}
}

/*
 * The spawner: root, holding nothing of muxd's but its socket and its
 * standard error; it serves runs and signals until muxd goes away.
 */
static void
spawn_serve(int s)
{
	static pid_t		 kids[SPAWN_MAX];
	struct spawn_msg	 m;
	struct pollfd		 pfd[2];
	sigset_t		 set;
	size_t			 i;
	int			 fd, sfd, r;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if ((sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) == -1)
		_exit(1);
	/* Entries do not speak for the service. */
	unsetenv("NOTIFY_SOCKET");
	/* Signals meant for muxd (a terminal's ^C, a reload) are not ours. */
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	for (fd = 3; fd < 1024; fd++)
		if (fd != s && fd != sfd)
			close(fd);
	pfd[0].fd = s;
	pfd[0].events = POLLIN;
	pfd[1].fd = sfd;
	pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) > 0)
				;
			spawn_serve_reap(s, kids);
		}
		if (pfd[0].revents == 0)
			continue;
		if ((r = spawn_recv(s, &m, &fd)) <= 0)
			break;
		if (m.type == SPAWN_RUN)
			spawn_serve_run(s, &m, fd, kids);
		else {
			if (fd != -1)
				close(fd);
			for (i = 0; i < SPAWN_MAX; i++)
				if (m.type == SPAWN_KILL && m.pid > 0 &&
				    kids[i] == m.pid)
					kill(-m.pid, m.arg);
		}
	}
	/* muxd is gone: so is every program it had started. */
	for (i = 0; i < SPAWN_MAX; i++)
		if (kids[i] > 0)
			kill(-kids[i], SIGTERM);
	_exit(0);
}

/*
 * Before muxd gives root up: as root, start the spawner (muxd's user,
 * -u, or NULL); otherwise entries run as muxd itself, said once when
 * there are any.
 */
void
spawn_start(const char *muxd_user, int entries)
{
	int	 sv[2];

	free(spawn_muxd);
	spawn_muxd = muxd_user != NULL ? xstrdup(muxd_user) : NULL;
	spawn_configure(NULL);
	if (geteuid() != 0) {
		if (entries)
			log_warnx("exec: entries run as muxd's own user: muxd "
			    "was not started as root");
		return;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == -1)
		fatal("socketpair");
	switch (spawn_pid = fork()) {
	case -1:
		fatal("fork");
	case 0:
		close(sv[0]);
		spawn_serve(sv[1]);
	}
	close(sv[1]);
	spawn_fd = sv[0];
	/* The loop reads only what is there; a run polls for its answer. */
	if (evutil_make_socket_nonblocking(spawn_fd) == -1)
		fatal("spawner socket");
}

/* Hear the spawner's reports on the event loop. */
void
spawn_listen(struct event_base *base)
{
	if (spawn_fd == -1)
		return;
	spawn_ev = event_new(base, spawn_fd, EV_READ | EV_PERSIST,
	    spawn_read, NULL);
	if (spawn_ev == NULL || event_add(spawn_ev, NULL) == -1)
		fatalx("cannot watch the entries' spawner");
}

/* Stop hearing the spawner; it ends its programs as muxd closes. */
void
spawn_close(void)
{
	if (spawn_ev != NULL)
		event_free(spawn_ev);
	spawn_ev = NULL;
}

/*
 * Take the room's entry_user (NULL: the default); a user that is muxd's
 * own is said in the log, as it gives the entries muxd's files.
 */
void
spawn_configure(const struct conf *cf)
{
	const char	*u = cf != NULL ? cf->entry_user : NULL;

	free(spawn_user);
	spawn_user = NULL;
	if (u == NULL)
		u = getpwnam(SPAWN_USER) != NULL ? SPAWN_USER : SPAWN_FALLBACK;
	spawn_user = xstrdup(u);
	if (spawn_fd != -1 && spawn_muxd != NULL &&
	    strcmp(spawn_muxd, spawn_user) == 0)
		log_warnx("exec: entries run as %s, muxd's own user: they can "
		    "reach its socket and files", spawn_user);
}

/* Read the spawner's reports: programs that have ended. */
static void
spawn_read(evutil_socket_t fd, short what, void *arg)
{
	struct spawn_msg	 m;
	int			 r, pty;

	(void)what;
	(void)arg;
	while (spawn_nended > 0) {
		spawn_nended--;
		port_child_exited(spawn_ended[spawn_nended].pid,
		    spawn_ended[spawn_nended].status);
	}
	if ((r = spawn_recv(fd, &m, &pty)) == -1 && errno == EAGAIN)
		return;
	if (r == 1) {
		if (pty != -1)
			close(pty);
		if (m.type == SPAWN_EXITED)
			port_child_exited(m.pid, m.arg);
		return;
	}
	log_warnx("the entries' spawner is gone%s%s", r == -1 ? ": " : "",
	    r == -1 ? strerror(errno) : "");
	spawn_close();
	close(spawn_fd);
	spawn_fd = -1;
}

/*
 * The spawn hook: start an exec: port's program on tty as the entries'
 * user, through the spawner; its pid, -1 with a reason, 0 without a
 * spawner (muxd starts it as itself).
 */
pid_t
spawn_run(struct port *p, int tty, char *err, size_t errlen)
{
	struct spawn_msg	 m;
	struct pollfd		 pfd;
	size_t			 ul;
	int			 r, fd;

	if (spawn_fd == -1) {
		if (spawn_pid == -1)
			return (0);
		snprintf(err, errlen, "the entries' spawner is gone");
		return (-1);
	}
	memset(&m, 0, sizeof(m));
	m.type = SPAWN_RUN;
	ul = strlen(spawn_user);
	if (ul + strlen(p->addr.path) + 2 > sizeof(m.text)) {
		snprintf(err, errlen, "command too long");
		return (-1);
	}
	memcpy(m.text, spawn_user, ul + 1);
	memcpy(m.text + ul + 1, p->addr.path, strlen(p->addr.path) + 1);
	if (spawn_send(spawn_fd, &m, tty) == -1) {
		snprintf(err, errlen, "entries' spawner: %s", strerror(errno));
		return (-1);
	}
	/* Its answer comes before anything else it says after the run. */
	for (;;) {
		pfd.fd = spawn_fd;
		pfd.events = POLLIN;
		if ((r = poll(&pfd, 1, SPAWN_WAIT_MS)) == 0) {
			snprintf(err, errlen, "entries' spawner: no answer");
			return (-1);
		}
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 || (r = spawn_recv(spawn_fd, &m, &fd)) != 1) {
			snprintf(err, errlen, "entries' spawner: %s", r == 0 ?
			    "gone" : strerror(errno));
			return (-1);
		}
		if (fd != -1)
			close(fd);
		if (m.type != SPAWN_EXITED)
			break;
		if (spawn_nended < SPAWN_MAX) {
			spawn_ended[spawn_nended].pid = m.pid;
			spawn_ended[spawn_nended].status = m.arg;
			spawn_nended++;
			event_active(spawn_ev, EV_READ, 0);
		}
	}
	if (m.type != SPAWN_STARTED) {
		snprintf(err, errlen, "%s", m.text);
		return (-1);
	}
	log_info("port %s: started '%s' as user %s, pid %ld", p->name,
	    p->addr.path, spawn_user, (long)m.pid);
	return (m.pid);
}

/* The kill hook: signal the process group of a program the spawner ran. */
void
spawn_kill(pid_t pid, int sig)
{
	struct spawn_msg	 m;

	if (spawn_fd == -1) {
		if (spawn_pid == -1)
			kill(-pid, sig);
		return;
	}
	memset(&m, 0, sizeof(m));
	m.type = SPAWN_KILL;
	m.pid = pid;
	m.arg = sig;
	spawn_send(spawn_fd, &m, -1);
}

/* The entries' user, for status: its name and whether it is muxd's. */
json_t *
spawn_json(void)
{
	struct passwd	*pw;
	const char	*user = spawn_user;

	if (spawn_fd == -1 && spawn_pid == -1)
		user = (pw = getpwuid(geteuid())) != NULL ? pw->pw_name : NULL;
	return (json_pack("{ss? sb}", "user", user, "own", spawn_fd != -1 &&
	    (spawn_muxd == NULL || user == NULL ||
	    strcmp(spawn_muxd, user) != 0)));
}
