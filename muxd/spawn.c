/*
 * The entries' spawner: a program on an exec: port is a contestant, and
 * a stranger to muxd and to every other entry.  Only root can start a
 * program as another user, and muxd gives root up (-u), so when muxd
 * starts as root it first forks a spawner that keeps root and does
 * nothing else, as OpenBSD's privilege-separated daemons do: muxd sends it
 * the pty of the program with the command, the uid and what its sandbox
 * allows; the spawner starts the program in a session of its own,
 * answers with its pid, signals its process group when asked (muxd may
 * not signal another user's programs), and reports each end with why.
 * When muxd goes away, it ends every program it started and exits.
 *
 * The sandbox (sandbox = true, the default): each entry runs as a uid of
 * its own from entry_uids, bound to its port's name for the spawner's
 * life (uids.c): the spawner takes only uids of the range it was given
 * at start and never gives one to two names, whatever muxd asks.  The
 * program runs under bubblewrap (bwrap), unprivileged: user, pid, ipc,
 * uts and network namespaces of its own (the network only when the room
 * gives it one), no_new_privs, no capabilities, a read-only view of
 * /usr, /etc, /lib*, /bin, /sbin and the program's own directory, with
 * muxd's state, captures, transcripts, keys and socket hidden where they
 * would show, a private /tmp and home.  Its uid's own makes tracing,
 * signalling or reading another entry or muxd impossible; its pid
 * namespace hides them.  Where bwrap is missing or cannot make its
 * namespaces, muxd refuses to start with exec: entries, unless the room
 * says sandbox = false: then every entry runs as entry_user, as one
 * user, and muxd warns.
 *
 * Either way the spawner sets the entry's resource limits (setrlimit)
 * before it runs it, stops an entry whose processes reach its limit
 * (counted per uid, every SPAWN_TICK_MS), and takes its standard error
 * through a pipe into a log of its own in the state directory's logs/
 * (root's, 0750, the files 0640), cut at entry_log_limit with the cut
 * said in the log; nothing of an entry reaches muxd's own log.
 *
 * Messages go both ways on a socketpair (spawn-msg.c).  The spawner
 * keeps a copy of an ended program's pty until muxd has heard of the end
 * (it signals the pid) or SPAWN_HOLD_SEC have passed, so that muxd marks
 * the line down with the reason before its pty reports the end.
 */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"

#define SPAWN_USER	"muxd-entry"	/* the default user of entries */
#define SPAWN_FALLBACK	"nobody"	/* where it does not exist */
#define SPAWN_TICK_MS	500		/* processes counted this often */
#define SPAWN_HOLD_SEC	2		/* an ended program's pty kept */

/* A program the spawner runs, or has run and holds the pty of. */
struct spawn_kid {
	pid_t		 pid;		/* 0: a free slot */
	int		 ended;		/* reported; tty held until */
	time_t		 hold_until;
	int		 tty;		/* its pty, kept, or -1 */
	int		 err;		/* its standard error, read, or -1 */
	int		 log;		/* its log, or -1 */
	uint64_t	 logged;	/* bytes in the log */
	uint64_t	 dropped;	/* of its standard error, after the cut */
	uid_t		 uid;		/* its own (sandboxed), else 0 */
	long long	 processes;	/* its limit, 0: none */
	char		 why[256];	/* why it was stopped, or "" */
	char		 name[64];
};

static int		 spawn_fd = -1;	/* muxd's end; -1: no spawner */
static pid_t		 spawn_pid = -1;
static struct event	*spawn_ev;
static char		*spawn_user;	/* entries' user, as configured */
static char		*spawn_muxd;	/* muxd's user (-u), or NULL */
static struct {				/* ends read while waiting */
	pid_t	pid;
	int	status;
	char	why[256];
}			 spawn_ended[SPAWN_MAX];
static size_t		 spawn_nended;
static struct {				/* the ports of the programs run */
	pid_t	pid;
	char	name[64];
}			 spawn_ports[SPAWN_MAX];

/*
 * What the spawner is given at its start and keeps, whatever muxd says
 * later: whether entries are sandboxed, their uids, the entries' user
 * (unsandboxed), the log directory and its limit, the paths it hides.
 * muxd keeps the same to say what a reload cannot change.
 */
static int		 spawn_box = 1;
static struct uids	 spawn_uids;	/* muxd's: picks; the spawner's:
					   binds what muxd asks */
static const struct conf *spawn_conf;	/* in force, for the entities */
static char		*spawn_start_user;	/* unsandboxed: the only one */
static char		*spawn_logdir;	/* NULL: standard error dropped */
static uint64_t		 spawn_log_limit = CONF_ENTRY_LOG_LIMIT;
static char		*spawn_hide[SPAWN_BOX_HIDE];
static char		 spawn_box_why[256];	/* why bwrap cannot run */

static void	spawn_serve(int) __attribute__((noreturn));
static void	spawn_read(evutil_socket_t, short, void *);

/* Whether a port's name may name its log: A-Z a-z 0-9 . _ -, no dot first. */
static int
spawn_name_ok(const char *name)
{
	size_t	i;

	for (i = 0; name[i] != '\0'; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' &&
		    name[i] != '-' && (name[i] != '.' || i == 0))
			return (0);
	return (i > 0 && i < 64);
}

/* Write a line of the spawner's into an entry's log, whatever its size. */
static void
spawn_log_note(struct spawn_kid *k, const char *fmt, ...)
{
	char		 line[512], when[32];
	struct tm	 tm;
	time_t		 now = time(NULL);
	va_list		 ap;
	int		 n;

	if (k->log == -1)
		return;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
	    gmtime_r(&now, &tm));
	n = snprintf(line, sizeof(line), "muxd: %s: ", when);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(line);
	if (n > 0 && (size_t)n < sizeof(line) - 1) {
		line[n] = '\n';
		line[n + 1] = '\0';
	}
	if (write(k->log, line, strlen(line)) > 0)
		k->logged += strlen(line);
}

/*
 * Open the log of an entry's standard error, logs/NAME.log in the state
 * directory, root's: a log that has reached its limit is moved to
 * NAME.log.1 first (the one before goes).  -1 when there is no log.
 */
static int
spawn_log_open(struct spawn_kid *k, char *err, size_t errlen)
{
	struct stat	 st;
	char		 path[PATH_MAX], old[PATH_MAX];
	int		 dir, fd;

	if (spawn_logdir == NULL)
		return (-1);
	if (mkdir(spawn_logdir, 0750) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", spawn_logdir, strerror(errno));
		return (-2);
	}
	/* muxd owns the state directory: its logs/ must be root's. */
	if ((dir = open(spawn_logdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || fstat(dir, &st) == -1 || st.st_uid != 0) {
		snprintf(err, errlen, "%s: %s", spawn_logdir, dir == -1 ?
		    strerror(errno) : "not root's");
		if (dir != -1)
			close(dir);
		return (-2);
	}
	snprintf(path, sizeof(path), "%s.log", k->name);
	snprintf(old, sizeof(old), "%s.log.1", k->name);
	if (fstatat(dir, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (uint64_t)st.st_size >= spawn_log_limit)
		renameat(dir, path, dir, old);
	fd = openat(dir, path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0640);
	if (fd == -1 || fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s/%s: %s", spawn_logdir, path,
		    strerror(errno));
		close(dir);
		if (fd != -1)
			close(fd);
		return (-2);
	}
	close(dir);
	k->logged = (uint64_t)st.st_size;
	k->dropped = 0;
	return (fd);
}

/*
 * Read what an entry wrote on its standard error into its log, up to the
 * log's limit; past it, the cut is said once and the rest counted.
 */
static void
spawn_serve_stderr(struct spawn_kid *k)
{
	static char	 buf[65536];
	ssize_t		 n;
	size_t		 room;

	while ((n = read(k->err, buf, sizeof(buf))) > 0) {
		if (k->log == -1)
			continue;
		room = k->logged < spawn_log_limit ?
		    (size_t)(spawn_log_limit - k->logged) : 0;
		if (room > (size_t)n)
			room = (size_t)n;
		if (room > 0 && write(k->log, buf, room) > 0)
			k->logged += room;
		if (room < (size_t)n) {
			if (k->dropped == 0 && write(k->log, "\n", 1) == 1)
				spawn_log_note(k, "cut: this log has reached "
				    "its limit of %llu bytes; the rest of the "
				    "program's standard error is dropped",
				    (unsigned long long)spawn_log_limit);
			k->dropped += (size_t)n - room;
		}
	}
	if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
		close(k->err);
		k->err = -1;
	}
}

/*
 * End every process of a uid that is an entry's alone: as that uid,
 * signal all it may (kill(-1)), until none is left or it gives up.
 */
static void
spawn_kill_uid(uid_t uid)
{
	pid_t	pid;
	int	i, status;

	if (uid == 0)
		return;
	if ((pid = fork()) == 0) {
		if (setresgid(uid, uid, uid) == -1 ||
		    setresuid(uid, uid, uid) == -1)
			_exit(1);
		for (i = 0; i < 100; i++)
			if (kill(-1, SIGKILL) == -1 && errno == ESRCH)
				_exit(0);
		_exit(1);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
}

/*
 * Count the tasks of each sandboxed entry's uid; stop an entry whose
 * tasks have reached its process limit (RLIMIT_NPROC counts them so):
 * its processes are killed, and its end will say why.
 */
static void
spawn_count(struct spawn_kid *kids)
{
	DIR		*d;
	struct dirent	*de;
	FILE		*f;
	char		 path[64], line[128];
	long		 uid, threads;
	long long	 count[SPAWN_MAX];
	size_t		 i, any = 0;

	for (i = 0; i < SPAWN_MAX; i++) {
		count[i] = 0;
		if (kids[i].pid > 0 && !kids[i].ended && kids[i].uid != 0 &&
		    kids[i].processes > 0 && kids[i].why[0] == '\0')
			any++;
	}
	if (any == 0 || (d = opendir("/proc")) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		uid = threads = -1;
		while (fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "Uid:", 4) == 0)
				uid = strtol(line + 4, NULL, 10);
			else if (strncmp(line, "Threads:", 8) == 0)
				threads = strtol(line + 8, NULL, 10);
		fclose(f);
		for (i = 0; uid > 0 && threads > 0 && i < SPAWN_MAX; i++)
			if (kids[i].pid > 0 && !kids[i].ended &&
			    kids[i].uid == (uid_t)uid)
				count[i] += threads;
	}
	closedir(d);
	for (i = 0; i < SPAWN_MAX; i++) {
		if (kids[i].pid <= 0 || kids[i].ended || kids[i].uid == 0 ||
		    kids[i].processes <= 0 || kids[i].why[0] != '\0' ||
		    count[i] < kids[i].processes)
			continue;
		snprintf(kids[i].why, sizeof(kids[i].why), "stopped: its "
		    "processes reached their limit of %lld",
		    kids[i].processes);
		spawn_log_note(&kids[i], "%s", kids[i].why);
		kill(-kids[i].pid, SIGKILL);
		spawn_kill_uid(kids[i].uid);
	}
}

/*
 * In the child: the entry's environment (nothing of muxd's), limits and
 * no_new_privs, then its program, in bwrap when sandboxed.
 */
static void
spawn_child(const struct spawn_msg *m, const char *user, const char *command,
    int tty, int errfd)
{
	static const char *argv[96];
	struct port_exec x = { .fd = { -1, -1, -1 } };
	char		 progdir[PATH_MAX], uidtext[16];
	const char	*why, *env[] = { "PATH",
	    "/usr/local/bin:/usr/bin:/bin", "LANG", "C.UTF-8", "HOME",
	    SPAWN_BOX_HOME, "USER", uidtext, "LOGNAME", uidtext, NULL, NULL };

	x.tty = x.fd[0] = x.fd[1] = tty;
	x.fd[2] = errfd;
	clearenv();
	if ((why = spawn_box_limits(&m->limits)) != NULL) {
		fprintf(stderr, "muxd: cannot set the %s limit: %s\n", why,
		    strerror(errno));
		_exit(127);
	}
	if (spawn_box) {
		snprintf(uidtext, sizeof(uidtext), "%lu",
		    (unsigned long)m->uid);
		x.uid = m->uid;
		x.env = env;
		if ((x.argv = (char *const *)spawn_box_argv(argv,
		    sizeof(argv) / sizeof(argv[0]), m->network, spawn_hide,
		    command, progdir, sizeof(progdir))) == NULL) {
			dprintf(errfd, "muxd: the sandbox's command line is "
			    "too long\n");
			_exit(127);
		}
	} else {
		env[4] = NULL;		/* the user's own home and names */
		x.env = env;
		x.user = user;
		x.command = command;
	}
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	why = port_exec_run(&x);
	fprintf(stderr, "muxd: %s: %s\n", why, strerror(errno));
	_exit(127);
}

/*
 * The spawner's side of a run: check what muxd asks against what the
 * spawner was given at start, start the command on the pty, answer with
 * its pid or what failed.
 */
static void
spawn_serve_run(int s, const struct spawn_msg *m, int tty,
    struct spawn_kid *kids, struct uids *table)
{
	struct spawn_msg	 a;
	struct spawn_kid	*k = NULL;
	struct passwd		*pw;
	const char		*name, *user, *command;
	char			 why[256];
	size_t			 i;
	uid_t			 uid;
	pid_t			 pid;
	int			 pfd[2] = { -1, -1 }, log = -1;

	memset(&a, 0, sizeof(a));
	a.type = SPAWN_FAILED;
	name = m->text;
	user = name + strlen(name) + 1;
	command = user + strlen(user) + 1;
	for (i = 0; i < SPAWN_MAX && kids[i].pid != 0; i++)
		;
	if (i < SPAWN_MAX)
		k = &kids[i];
	errno = 0;
	why[0] = '\0';
	if (tty == -1)
		snprintf(a.text, sizeof(a.text), "no terminal was given");
	else if (!spawn_name_ok(name))
		snprintf(a.text, sizeof(a.text), "'%s' is not a port's name",
		    name);
	else if (spawn_box && spawn_box_why[0] != '\0')
		snprintf(a.text, sizeof(a.text), "no sandbox: %s",
		    spawn_box_why);
	else if (spawn_box && uids_assign(table, name, (long long)m->uid,
	    &uid, why, sizeof(why)) == -1)
		snprintf(a.text, sizeof(a.text), "refused: %s", why);
	else if (!spawn_box && (spawn_start_user == NULL ||
	    strcmp(user, spawn_start_user) != 0))
		snprintf(a.text, sizeof(a.text), "refused: user %s is not the "
		    "entries' user given at start (%s)", user,
		    spawn_start_user != NULL ? spawn_start_user : "none");
	else if (!spawn_box && (pw = getpwnam(user)) == NULL)
		snprintf(a.text, sizeof(a.text), "user %s: %s", user,
		    errno != 0 ? strerror(errno) : "no such user");
	else if (!spawn_box && pw->pw_uid == 0)
		snprintf(a.text, sizeof(a.text), "user %s is root: entries "
		    "never run as root", user);
	else if (k == NULL)
		snprintf(a.text, sizeof(a.text), "%d programs run already",
		    SPAWN_MAX);
	else if (pipe2(pfd, O_CLOEXEC) == -1)
		snprintf(a.text, sizeof(a.text), "pipe: %s", strerror(errno));
	else {
		memset(k, 0, sizeof(*k));
		k->tty = k->err = k->log = -1;
		snprintf(k->name, sizeof(k->name), "%s", name);
		if ((log = spawn_log_open(k, why, sizeof(why))) == -2)
			snprintf(a.text, sizeof(a.text), "its log: %s", why);
		else if ((pid = fork()) == -1)
			snprintf(a.text, sizeof(a.text), "fork: %s",
			    strerror(errno));
		else if (pid == 0) {
			close(pfd[0]);
			spawn_child(m, user, command, tty, pfd[1]);
		} else {
			k->pid = pid;
			k->log = log;
			log = -1;
			k->err = pfd[0];
			pfd[0] = -1;
			fcntl(k->err, F_SETFL, O_NONBLOCK);
			k->uid = spawn_box ? m->uid : 0;
			k->processes = m->limits.processes;
			/* Kept until muxd has heard of its end. */
			k->tty = tty;
			tty = -1;
			if (spawn_box)
				spawn_log_note(k, "started pid %ld as uid %lu: "
				    "%s", (long)pid, (unsigned long)m->uid,
				    command);
			else
				spawn_log_note(k, "started pid %ld as user %s: "
				    "%s", (long)pid, user, command);
			a.type = SPAWN_STARTED;
			a.pid = pid;
		}
	}
	if (log >= 0)
		close(log);
	if (pfd[0] != -1)
		close(pfd[0]);
	if (pfd[1] != -1)
		close(pfd[1]);
	if (tty != -1)
		close(tty);
	spawn_msg_send(s, &a, -1);
}

/* Let go of a kid: its pipe, its log and its pty. */
static void
spawn_kid_free(struct spawn_kid *k)
{
	if (k->err != -1)
		spawn_serve_stderr(k);
	if (k->err != -1)
		close(k->err);
	if (k->log != -1)
		close(k->log);
	if (k->tty != -1)
		close(k->tty);
	memset(k, 0, sizeof(*k));
	k->tty = k->err = k->log = -1;
}

/*
 * Why an ended program was stopped: its own stop, or the limit of the
 * signal that ended it (bwrap ends with 128 and the signal).
 */
static void
spawn_end_why(struct spawn_kid *k, int status, char *why, size_t len)
{
	int	sig = 0;

	if (k->why[0] != '\0') {
		snprintf(why, len, "%s", k->why);
		return;
	}
	if (WIFSIGNALED(status))
		sig = WTERMSIG(status);
	else if (k->uid != 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) > 128)
		sig = WEXITSTATUS(status) - 128;
	if (sig == SIGXCPU)
		snprintf(why, len, "stopped: its CPU time reached its limit");
	else if (sig == SIGXFSZ)
		snprintf(why, len, "stopped: a file reached its size limit");
	else
		why[0] = '\0';
}

/* Whether a kid but k, not ended, runs as k's uid. */
static int
spawn_uid_running(const struct spawn_kid *kids, const struct spawn_kid *k)
{
	size_t	i;

	for (i = 0; i < SPAWN_MAX; i++)
		if (&kids[i] != k && kids[i].pid > 0 && !kids[i].ended &&
		    kids[i].uid == k->uid)
			return (1);
	return (0);
}

/* The spawner's side of an end: report each program that has ended. */
static void
spawn_serve_reap(int s, struct spawn_kid *kids)
{
	struct spawn_msg	 a;
	struct spawn_kid	*k;
	size_t			 i;
	pid_t			 pid;
	int			 status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < SPAWN_MAX && kids[i].pid != pid; i++)
			;
		if (i == SPAWN_MAX || kids[i].ended)
			continue;
		k = &kids[i];
		/*
		 * What it started ends with it: its group, and its uid's all
		 * but when a program of the same port runs already as that uid
		 * (a fresh one, started before this end was reaped: it would
		 * be killed too).
		 */
		kill(-pid, SIGTERM);
		if (k->uid != 0 && !spawn_uid_running(kids, k))
			spawn_kill_uid(k->uid);
		memset(&a, 0, sizeof(a));
		a.type = SPAWN_EXITED;
		a.pid = pid;
		a.arg = status;
		spawn_end_why(k, status, a.text, sizeof(a.text));
		if (k->err != -1)
			spawn_serve_stderr(k);
		if (k->dropped > 0)
			spawn_log_note(k, "%llu bytes of standard error were "
			    "dropped after the cut",
			    (unsigned long long)k->dropped);
		if (WIFSIGNALED(status))
			spawn_log_note(k, "pid %ld ended by signal %d%s%s",
			    (long)pid, WTERMSIG(status), a.text[0] ? ": " : "",
			    a.text);
		else
			spawn_log_note(k, "pid %ld exited with status %d%s%s",
			    (long)pid, WEXITSTATUS(status), a.text[0] ? ": " :
			    "", a.text);
		k->ended = 1;
		k->hold_until = time(NULL) + SPAWN_HOLD_SEC;
		spawn_msg_send(s, &a, -1);
	}
}

/*
 * The spawner: root, holding nothing of muxd's but its socket and its
 * standard error; it serves runs and signals until muxd goes away.
 */
static void
spawn_serve(int s)
{
	static struct spawn_kid	 kids[SPAWN_MAX];
	static struct pollfd	 pfd[2 + SPAWN_MAX];
	static size_t		 who[2 + SPAWN_MAX];
	struct spawn_msg	 m;
	struct uids		 table;
	sigset_t		 set;
	size_t			 i, n;
	time_t			 now;
	int			 fd, sfd, r, busy;

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
	uids_init(&table, &spawn_uids.range);
	for (i = 0; i < SPAWN_MAX; i++)
		kids[i].tty = kids[i].err = kids[i].log = -1;
	for (;;) {
		pfd[0].fd = s;
		pfd[0].events = POLLIN;
		pfd[1].fd = sfd;
		pfd[1].events = POLLIN;
		busy = 0;
		for (i = 0, n = 2; i < SPAWN_MAX; i++) {
			if (kids[i].pid != 0)
				busy = 1;
			if (kids[i].err == -1)
				continue;
			pfd[n].fd = kids[i].err;
			pfd[n].events = POLLIN;
			who[n++] = i;
		}
		if ((r = poll(pfd, n, busy ? SPAWN_TICK_MS : -1)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 2; i < n; i++)
			if (pfd[i].revents != 0 && kids[who[i]].err != -1)
				spawn_serve_stderr(&kids[who[i]]);
		if (pfd[1].revents != 0) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) > 0)
				;
			spawn_serve_reap(s, kids);
		}
		spawn_count(kids);
		now = time(NULL);
		for (i = 0; i < SPAWN_MAX; i++)
			if (kids[i].ended && now >= kids[i].hold_until)
				spawn_kid_free(&kids[i]);
		if (pfd[0].revents == 0)
			continue;
		if ((r = spawn_msg_recv(s, &m, &fd)) <= 0)
			break;
		if (m.type == SPAWN_RUN) {
			spawn_serve_run(s, &m, fd, kids, &table);
			continue;
		}
		if (fd != -1)
			close(fd);
		for (i = 0; i < SPAWN_MAX; i++) {
			if (m.type != SPAWN_KILL || m.pid <= 0 ||
			    kids[i].pid != m.pid)
				continue;
			/* muxd has heard of the end: the pty may go. */
			if (kids[i].ended)
				spawn_kid_free(&kids[i]);
			else
				kill(-m.pid, m.arg);
		}
	}
	/* muxd is gone: so is every program it had started. */
	for (i = 0; i < SPAWN_MAX; i++)
		if (kids[i].pid > 0 && !kids[i].ended) {
			kill(-kids[i].pid, SIGKILL);
			if (kids[i].uid != 0)
				spawn_kill_uid(kids[i].uid);
		}
	_exit(0);
}

/*
 * Before muxd gives root up: as root, start the spawner with what it
 * keeps of the room (cf, or NULL in quick mode) and muxd's user (-u, or
 * NULL).  Entries need their sandbox: when it cannot be made, muxd stops
 * here unless the room says sandbox = false.  Not root, entries run as
 * muxd itself, and only when the room says sandbox = false.
 */
void
spawn_start(const struct conf *cf, const char *muxd_user, int entries)
{
	struct uids_range	 r;
	char			 msg[256];
	size_t			 off, i = 0;
	int			 sv[2];

	free(spawn_muxd);
	spawn_muxd = muxd_user != NULL ? xstrdup(muxd_user) : NULL;
	uids_parse(CONF_ENTRY_UIDS, &r, msg, sizeof(msg), &off);
	spawn_box = 1;
	if (cf != NULL) {
		r = cf->entry_uids;
		spawn_box = cf->sandbox;
		spawn_log_limit = cf->entry_log_limit;
		spawn_logdir = xasprintf("%s/logs", cf->state_dir);
		spawn_hide[i++] = cf->state_dir;
		spawn_hide[i++] = cf->capture_dir;
		spawn_hide[i++] = cf->transcript_dir;
		spawn_hide[i++] = cf->room_key;
		spawn_hide[i++] = cf->control;
		for (i = 0; i < SPAWN_BOX_HIDE; i++)
			if (spawn_hide[i] != NULL)
				spawn_hide[i] = xstrdup(spawn_hide[i]);
	}
	uids_clear(&spawn_uids);
	uids_init(&spawn_uids, &r);
	spawn_configure(cf);
	if (spawn_user != NULL)
		spawn_start_user = xstrdup(spawn_user);
	spawn_box_why[0] = '\0';
	if (spawn_box && geteuid() == 0)
		spawn_box_probe(&r, spawn_box_why, sizeof(spawn_box_why));
	if (!entries)
		;
	else if (!spawn_box)
		log_warnx("WARNING: sandbox = false: exec: entries run "
		    "unsandboxed, all as user %s: one entry can trace, "
		    "signal and read another", spawn_user);
	else if (geteuid() != 0)
		fatalx("exec: entries run sandboxed, each as a uid of its own, "
		    "which needs muxd started as root (under systemd, the "
		    "drop-in examples/systemd/exec-entries.conf: muxd(8)); "
		    "or the room says sandbox = false;");
	else if (spawn_box_why[0] != '\0')
		fatalx("exec: entries cannot be sandboxed: %s; the room may "
		    "say sandbox = false; to run them without one",
		    spawn_box_why);
	if (entries)
		log_info("exec: entries' limits are setrlimit(2)'s, per uid; no "
		    "control group of their own: %s", access(
		    "/sys/fs/cgroup/cgroup.controllers", F_OK) == 0 ?
		    "cgroup v2 limits are not made" : "this host has no "
		    "cgroup v2");
	if (entries && spawn_box && spawn_logdir == NULL)
		log_info("exec: quick mode: the entries' standard error is "
		    "dropped (a room's goes to its state directory's logs/)");
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
 * Whether a process runs as uid: an entry of another room on this host
 * (its processes would end with ours, and ours with its).
 */
static int
spawn_uid_busy(uid_t uid)
{
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	char		 path[64], line[128];
	unsigned long	 real;
	int		 busy = 0;

	if ((d = opendir("/proc")) == NULL)
		return (0);
	while (!busy && (de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "Uid: %lu", &real) == 1) {
				busy = real == (unsigned long)uid;
				break;
			}
		fclose(f);
	}
	closedir(d);
	return (busy);
}

/*
 * Take the room in force (NULL: quick mode, the defaults): its
 * entry_user, and the uids of its exec: entries, those it gives first;
 * what only a restart changes is said.  A user that is muxd's own is
 * said in the log, as it gives the entries muxd's files.
 */
void
spawn_configure(const struct conf *cf)
{
	const char	*u = cf != NULL ? cf->entry_user : NULL;
	struct uids	 old;
	char		 err[256];
	size_t		 i;
	long long	 had;
	uid_t		 uid;

	spawn_conf = cf;
	free(spawn_user);
	spawn_user = NULL;
	if (u == NULL)
		u = getpwnam(SPAWN_USER) != NULL ? SPAWN_USER : SPAWN_FALLBACK;
	spawn_user = xstrdup(u);
	if (cf != NULL && spawn_start_user != NULL &&
	    (cf->sandbox != spawn_box ||
	    cf->entry_uids.lo != spawn_uids.range.lo ||
	    cf->entry_uids.hi != spawn_uids.range.hi ||
	    (!spawn_box && strcmp(spawn_user, spawn_start_user) != 0)))
		log_warnx("exec: sandbox, entry_uids and entry_user stay as "
		    "they were at start until muxd restarts");
	/*
	 * The uids the room gives, then those picked for the others: the
	 * one each had already (a reload moves none), else a free one that
	 * no process holds (another room's entry on this host).
	 */
	if (spawn_box && cf != NULL) {
		old = spawn_uids;
		uids_init(&spawn_uids, &old.range);
		spawn_uids.busy = spawn_uid_busy;
		for (i = 0; i < cf->nentities; i++)
			if (cf->entities[i].uid != -1 &&
			    cf->entities[i].port >= 0 &&
			    uids_assign(&spawn_uids,
			    cf->ports[cf->entities[i].port].name,
			    cf->entities[i].uid, &uid, err, sizeof(err)) == -1)
				log_warnx("entity %s: %s", cf->entities[i].name,
				    err);
		for (i = 0; i < cf->nports; i++) {
			if (cf->ports[i].addr.kind != ADDR_EXEC)
				continue;
			if ((had = uids_of(&old, cf->ports[i].name)) != -1 &&
			    uids_of(&spawn_uids, cf->ports[i].name) == -1 &&
			    uids_assign(&spawn_uids, cf->ports[i].name, had,
			    &uid, err, sizeof(err)) == 0)
				continue;
			if (uids_assign(&spawn_uids, cf->ports[i].name, -1,
			    &uid, err, sizeof(err)) == -1)
				log_warnx("port %s: %s", cf->ports[i].name, err);
		}
		uids_clear(&old);
	}
	if (spawn_fd != -1 && spawn_muxd != NULL && !spawn_box &&
	    strcmp(spawn_muxd, spawn_user) == 0)
		log_warnx("exec: entries run as %s, muxd's own user: they can "
		    "reach its socket and files", spawn_user);
}

/* Forget the port of a program that has ended; its name, or NULL. */
static struct port *
spawn_port_of(pid_t pid)
{
	size_t	i;

	for (i = 0; i < SPAWN_MAX; i++)
		if (spawn_ports[i].pid == pid) {
			spawn_ports[i].pid = 0;
			return (port_find(spawn_ports[i].name));
		}
	return (NULL);
}

/*
 * A program has ended: its line goes down with why, before its pty says
 * so (the spawner holds it), then the line code hears of the end.
 */
static void
spawn_ended_one(pid_t pid, int status, const char *why)
{
	struct port	*p;

	if ((p = spawn_port_of(pid)) != NULL && p->pid == pid) {
		if (why[0] != '\0')
			log_warnx("port %s: %s", p->name, why);
		if (p->state == PORT_UP)
			port_down(p, "program ended%s%s", why[0] ? ": " : "",
			    why);
	}
	port_child_exited(pid, status);
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
		spawn_ended_one(spawn_ended[spawn_nended].pid,
		    spawn_ended[spawn_nended].status,
		    spawn_ended[spawn_nended].why);
	}
	if ((r = spawn_msg_recv(fd, &m, &pty)) == -1 && errno == EAGAIN)
		return;
	if (r == 1) {
		if (pty != -1)
			close(pty);
		if (m.type == SPAWN_EXITED)
			spawn_ended_one(m.pid, m.arg, m.text);
		return;
	}
	log_warnx("the entries' spawner is gone%s%s", r == -1 ? ": " : "",
	    r == -1 ? strerror(errno) : "");
	spawn_close();
	close(spawn_fd);
	spawn_fd = -1;
}

/* The limits of the entity on a port, the room's where it has none. */
static void
spawn_entity(const char *port, struct spawn_msg *m)
{
	const struct conf	*cf = spawn_conf;
	const struct conf_rlimits *e;
	long long		*f[] = { &m->limits.processes, &m->limits.files,
				    &m->limits.file_size, &m->limits.memory,
				    &m->limits.cpu };
	const long long		*g[5];
	size_t			 i, j;
	int			 idx;

	if (cf == NULL) {
		m->limits = (struct conf_rlimits){ 64, 256,
		    64LL * 1024 * 1024, 2048LL * 1024 * 1024, 3600 };
		return;
	}
	m->limits = cf->entry_limits;
	if ((idx = conf_port_find(cf, port)) == -1)
		return;
	for (i = 0; i < cf->nentities; i++) {
		if (cf->entities[i].port != idx)
			continue;
		m->network = cf->entities[i].network;
		e = &cf->entities[i].limits;
		g[0] = &e->processes;
		g[1] = &e->files;
		g[2] = &e->file_size;
		g[3] = &e->memory;
		g[4] = &e->cpu;
		for (j = 0; j < 5; j++)
			if (*g[j] != -1)
				*f[j] = *g[j];
	}
}

/*
 * The spawn hook: start an exec: port's program on tty through the
 * spawner, sandboxed as its own uid (or as the entries' user); its pid,
 * -1 with a reason, 0 without a spawner (muxd starts it as itself).
 */
pid_t
spawn_run(struct port *p, int tty, char *err, size_t errlen)
{
	struct spawn_msg	 m;
	struct pollfd		 pfd;
	size_t			 nl, ul, cl, i;
	uid_t			 uid = 0;
	int			 r, fd;

	if (spawn_fd == -1) {
		if (spawn_pid == -1)
			return (0);
		snprintf(err, errlen, "the entries' spawner is gone");
		return (-1);
	}
	memset(&m, 0, sizeof(m));
	m.type = SPAWN_RUN;
	if (spawn_box && uids_assign(&spawn_uids, p->name, -1, &uid, err,
	    errlen) == -1)
		return (-1);
	m.uid = uid;
	spawn_entity(p->name, &m);
	nl = strlen(p->name);
	ul = strlen(spawn_user);
	cl = strlen(p->addr.path);
	if (nl + ul + cl + 3 > sizeof(m.text) - 3) {
		snprintf(err, errlen, "command too long");
		return (-1);
	}
	memcpy(m.text, p->name, nl + 1);
	memcpy(m.text + nl + 1, spawn_user, ul + 1);
	memcpy(m.text + nl + ul + 2, p->addr.path, cl + 1);
	if (spawn_msg_send(spawn_fd, &m, tty) == -1) {
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
		if (r == -1 || (r = spawn_msg_recv(spawn_fd, &m, &fd)) != 1) {
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
			snprintf(spawn_ended[spawn_nended].why,
			    sizeof(spawn_ended[spawn_nended].why), "%s",
			    m.text);
			spawn_nended++;
			event_active(spawn_ev, EV_READ, 0);
		}
	}
	if (m.type != SPAWN_STARTED) {
		if (strncmp(m.text, "refused: ", 9) == 0)
			log_warnx("port %s: the entries' spawner %s", p->name,
			    m.text);
		snprintf(err, errlen, "%s", m.text);
		return (-1);
	}
	for (i = 0; i < SPAWN_MAX && spawn_ports[i].pid != 0; i++)
		;
	if (i < SPAWN_MAX) {
		spawn_ports[i].pid = m.pid;
		snprintf(spawn_ports[i].name, sizeof(spawn_ports[i].name),
		    "%s", p->name);
	}
	if (spawn_box)
		log_info("port %s: started '%s' sandboxed as uid %lu, pid %ld",
		    p->name, p->addr.path, (unsigned long)uid, (long)m.pid);
	else
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
	spawn_msg_send(spawn_fd, &m, -1);
}

/*
 * The entries' user, for status: its name and whether it is muxd's;
 * whether they are sandboxed, and in which uids.
 */
json_t *
spawn_json(void)
{
	struct passwd	*pw;
	const char	*user = spawn_user;
	char		 range[48];

	if (spawn_fd == -1 && spawn_pid == -1)
		user = (pw = getpwuid(geteuid())) != NULL ? pw->pw_name : NULL;
	snprintf(range, sizeof(range), "%lu-%lu",
	    (unsigned long)spawn_uids.range.lo,
	    (unsigned long)spawn_uids.range.hi);
	if (spawn_box && spawn_fd != -1)
		return (json_pack("{sn sb sb ss}", "user", "own", 1,
		    "sandbox", 1, "uids", range));
	return (json_pack("{ss? sb sb}", "user", user, "own", spawn_fd != -1 &&
	    (spawn_muxd == NULL || user == NULL ||
	    strcmp(spawn_muxd, user) != 0), "sandbox", 0));
}
