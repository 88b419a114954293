/*
 * The entries' spawner: root, started by muxd before it gives root up
 * (spawn.c), holding nothing of muxd's but its socket, its standard
 * error and what it was given at start (struct spawn_keep).  It starts
 * each program muxd asks for on the pty muxd sends, in a session of its
 * own, answers with its pid, signals its process group when asked, and
 * reports each end with why.  When muxd goes away, it ends every
 * program it started and exits.
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
 * would show, a private /tmp and home (spawn-box.c).  Its uid's own makes
 * tracing, signalling or reading another entry or muxd impossible; its
 * pid namespace hides them.  Where bwrap is missing or cannot make its
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
 * The spawner keeps a copy of an ended program's pty until muxd has
 * heard of the end (it signals the pid) or SPAWN_HOLD_SEC have passed,
 * so that muxd marks the line down with the reason before its pty
 * reports the end.
 */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
	long long	 memory;	/* its limit, 0: none */
	long long	 ooms;		/* its group's memory kills before */
	int		 grouped;	/* in a control group of its own */
	char		 why[256];	/* why it was stopped, or "" */
	char		 name[64];
};

/* Whether a port's name may name its log: A-Z a-z 0-9 . _ -, no dot first. */
static int
spawn_serve_name_ok(const char *name)
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
spawn_serve_log_note(struct spawn_kid *k, const char *fmt, ...)
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
spawn_serve_log_open(struct spawn_kid *k, const struct spawn_keep *keep,
    char *err, size_t errlen)
{
	struct stat	 st;
	char		 path[PATH_MAX], old[PATH_MAX];
	int		 dir, fd;

	if (keep->logdir == NULL)
		return (-1);
	if (mkdir(keep->logdir, 0750) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", keep->logdir, strerror(errno));
		return (-2);
	}
	/* muxd owns the state directory: its logs/ must be root's. */
	if ((dir = open(keep->logdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || fstat(dir, &st) == -1 || st.st_uid != 0) {
		snprintf(err, errlen, "%s: %s", keep->logdir, dir == -1 ?
		    strerror(errno) : "not root's");
		if (dir != -1)
			close(dir);
		return (-2);
	}
	snprintf(path, sizeof(path), "%s.log", k->name);
	snprintf(old, sizeof(old), "%s.log.1", k->name);
	if (fstatat(dir, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (uint64_t)st.st_size >= keep->log_limit)
		renameat(dir, path, dir, old);
	fd = openat(dir, path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0640);
	if (fd == -1 || fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s/%s: %s", keep->logdir, path,
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
spawn_serve_stderr(struct spawn_kid *k, const struct spawn_keep *keep)
{
	static char	 buf[65536];
	ssize_t		 n;
	size_t		 room;

	while ((n = read(k->err, buf, sizeof(buf))) > 0) {
		if (k->log == -1)
			continue;
		room = k->logged < keep->log_limit ?
		    (size_t)(keep->log_limit - k->logged) : 0;
		if (room > (size_t)n)
			room = (size_t)n;
		if (room > 0 && write(k->log, buf, room) > 0)
			k->logged += room;
		if (room < (size_t)n) {
			if (k->dropped == 0 && write(k->log, "\n", 1) == 1)
				spawn_serve_log_note(k, "cut: this log has "
				    "reached its limit of %llu bytes; the "
				    "rest of the program's standard error "
				    "is dropped",
				    (unsigned long long)keep->log_limit);
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
spawn_serve_kill_uid(uid_t uid)
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
spawn_serve_count(struct spawn_kid *kids, const struct spawn_keep *keep)
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
		if (kids[i].pid <= 0 || kids[i].ended ||
		    kids[i].processes <= 0 || kids[i].why[0] != '\0')
			continue;
		/* Its control group counts them all, whatever their uid. */
		if (kids[i].grouped && (count[i] = spawn_cgroup_pids(
		    &keep->cgroup, kids[i].name)) >= 0)
			continue;
		count[i] = 0;
		if (kids[i].uid != 0)
			any++;
	}
	d = any > 0 ? opendir("/proc") : NULL;
	while (d != NULL && (de = readdir(d)) != NULL) {
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
			    !kids[i].grouped && kids[i].uid == (uid_t)uid)
				count[i] += threads;
	}
	if (d != NULL)
		closedir(d);
	for (i = 0; i < SPAWN_MAX; i++) {
		if (kids[i].pid <= 0 || kids[i].ended ||
		    kids[i].processes <= 0 || kids[i].why[0] != '\0' ||
		    count[i] < kids[i].processes)
			continue;
		snprintf(kids[i].why, sizeof(kids[i].why), "stopped: its "
		    "processes reached their limit of %lld",
		    kids[i].processes);
		spawn_serve_log_note(&kids[i], "%s", kids[i].why);
		kill(-kids[i].pid, SIGKILL);
		spawn_serve_kill_uid(kids[i].uid);
		if (kids[i].grouped)
			spawn_cgroup_kill(&keep->cgroup, kids[i].name, 0);
	}
}

/*
 * In the child: the entry's environment (nothing of muxd's), limits and
 * no_new_privs, then its program, in bwrap when sandboxed.
 */
static void
spawn_serve_child(const struct spawn_keep *keep, const struct spawn_msg *m,
    const char *user, const char *command, int tty, int errfd)
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
	if (keep->cgroup.dir[0] != '\0' &&
	    spawn_cgroup_enter(&keep->cgroup, m->text) == -1) {
		dprintf(errfd, "muxd: cannot enter its control group %s/entry-"
		    "%s: %s\n", keep->cgroup.dir, m->text, strerror(errno));
		_exit(127);
	}
	if ((why = spawn_box_limits(&m->limits)) != NULL) {
		fprintf(stderr, "muxd: cannot set the %s limit: %s\n", why,
		    strerror(errno));
		_exit(127);
	}
	if (keep->box) {
		snprintf(uidtext, sizeof(uidtext), "%lu",
		    (unsigned long)m->uid);
		x.uid = m->uid;
		x.env = env;
		if ((x.argv = (char *const *)spawn_box_argv(argv,
		    sizeof(argv) / sizeof(argv[0]), m->network, keep->hide,
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
spawn_serve_run(int s, const struct spawn_keep *keep,
    const struct spawn_msg *m, int tty, struct spawn_kid *kids,
    struct uids *table)
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
	else if (!spawn_serve_name_ok(name))
		snprintf(a.text, sizeof(a.text), "'%s' is not a port's name",
		    name);
	else if (keep->box && keep->box_why[0] != '\0')
		snprintf(a.text, sizeof(a.text), "no sandbox: %s",
		    keep->box_why);
	else if (keep->box && uids_assign(table, name, (long long)m->uid,
	    &uid, why, sizeof(why)) == -1)
		snprintf(a.text, sizeof(a.text), "refused: %s", why);
	else if (!keep->box && (keep->user == NULL ||
	    strcmp(user, keep->user) != 0))
		snprintf(a.text, sizeof(a.text), "refused: user %s is not the "
		    "entries' user given at start (%s)", user,
		    keep->user != NULL ? keep->user : "none");
	else if (!keep->box && (pw = getpwnam(user)) == NULL)
		snprintf(a.text, sizeof(a.text), "user %s: %s", user,
		    errno != 0 ? strerror(errno) : "no such user");
	else if (!keep->box && pw->pw_uid == 0)
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
		if ((log = spawn_serve_log_open(k, keep, why,
		    sizeof(why))) == -2)
			snprintf(a.text, sizeof(a.text), "its log: %s", why);
		else if (keep->cgroup.dir[0] != '\0' && spawn_cgroup_make(
		    &keep->cgroup, name, &m->limits, &k->ooms, why,
		    sizeof(why)) == -1)
			snprintf(a.text, sizeof(a.text), "%s", why);
		else if ((pid = fork()) == -1)
			snprintf(a.text, sizeof(a.text), "fork: %s",
			    strerror(errno));
		else if (pid == 0) {
			close(pfd[0]);
			spawn_serve_child(keep, m, user, command, tty,
			    pfd[1]);
		} else {
			k->pid = pid;
			k->log = log;
			log = -1;
			k->err = pfd[0];
			pfd[0] = -1;
			fcntl(k->err, F_SETFL, O_NONBLOCK);
			k->uid = keep->box ? m->uid : 0;
			k->processes = m->limits.processes;
			k->memory = m->limits.memory;
			k->grouped = keep->cgroup.dir[0] != '\0';
			/* Kept until muxd has heard of its end. */
			k->tty = tty;
			tty = -1;
			if (keep->box)
				spawn_serve_log_note(k, "started pid %ld as "
				    "uid %lu: %s", (long)pid,
				    (unsigned long)m->uid, command);
			else
				spawn_serve_log_note(k, "started pid %ld as "
				    "user %s: %s", (long)pid, user, command);
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
spawn_serve_kid_free(struct spawn_kid *k, const struct spawn_keep *keep)
{
	if (k->err != -1)
		spawn_serve_stderr(k, keep);
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
spawn_serve_end_why(const struct spawn_keep *keep, struct spawn_kid *k,
    int status, char *why, size_t len)
{
	int	sig = 0;

	if (k->why[0] != '\0') {
		snprintf(why, len, "%s", k->why);
		return;
	}
	/* The kernel ended its control group at memory.max. */
	if (k->grouped && k->memory > 0 &&
	    spawn_cgroup_ooms(&keep->cgroup, k->name) > k->ooms) {
		snprintf(why, len, "stopped: its memory reached its limit of "
		    "%lld bytes", k->memory);
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

/*
 * Whether a kid but k, not ended, runs as k's uid (sandboxed) or in its
 * control group (of the same port).
 */
static int
spawn_serve_sharing(const struct spawn_kid *kids, const struct spawn_kid *k)
{
	size_t	i;

	for (i = 0; i < SPAWN_MAX; i++)
		if (&kids[i] != k && kids[i].pid > 0 && !kids[i].ended &&
		    ((k->uid != 0 && kids[i].uid == k->uid) ||
		    (k->grouped && strcmp(kids[i].name, k->name) == 0)))
			return (1);
	return (0);
}

/* The spawner's side of an end: report each program that has ended. */
static void
spawn_serve_reap(int s, const struct spawn_keep *keep,
    struct spawn_kid *kids)
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
		 * What it started ends with it: its process group, and its
		 * uid's and its control group's all but when a program of the
		 * same port runs already (a fresh one, started before this
		 * end was reaped: it would be killed too).
		 */
		kill(-pid, SIGTERM);
		if (!spawn_serve_sharing(kids, k)) {
			if (k->uid != 0)
				spawn_serve_kill_uid(k->uid);
			if (k->grouped)
				spawn_cgroup_kill(&keep->cgroup, k->name, 0);
		}
		memset(&a, 0, sizeof(a));
		a.type = SPAWN_EXITED;
		a.pid = pid;
		a.arg = status;
		spawn_serve_end_why(keep, k, status, a.text, sizeof(a.text));
		if (k->err != -1)
			spawn_serve_stderr(k, keep);
		if (k->dropped > 0)
			spawn_serve_log_note(k, "%llu bytes of standard "
			    "error were dropped after the cut",
			    (unsigned long long)k->dropped);
		if (WIFSIGNALED(status))
			spawn_serve_log_note(k, "pid %ld ended by signal "
			    "%d%s%s", (long)pid, WTERMSIG(status),
			    a.text[0] ? ": " : "", a.text);
		else
			spawn_serve_log_note(k, "pid %ld exited with status "
			    "%d%s%s", (long)pid, WEXITSTATUS(status),
			    a.text[0] ? ": " : "", a.text);
		k->ended = 1;
		k->hold_until = time(NULL) + SPAWN_HOLD_SEC;
		spawn_msg_send(s, &a, -1);
	}
}

/*
 * The spawner: root, holding nothing of muxd's but its socket and its
 * standard error; it serves runs and signals until muxd goes away.
 */
void
spawn_serve(int s, const struct spawn_keep *keep)
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
	uids_init(&table, &keep->uids);
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
				spawn_serve_stderr(&kids[who[i]], keep);
		if (pfd[1].revents != 0) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) > 0)
				;
			spawn_serve_reap(s, keep, kids);
		}
		spawn_serve_count(kids, keep);
		now = time(NULL);
		for (i = 0; i < SPAWN_MAX; i++)
			if (kids[i].ended && now >= kids[i].hold_until)
				spawn_serve_kid_free(&kids[i], keep);
		if (pfd[0].revents == 0)
			continue;
		if ((r = spawn_msg_recv(s, &m, &fd)) <= 0)
			break;
		if (m.type == SPAWN_RUN) {
			spawn_serve_run(s, keep, &m, fd, kids, &table);
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
				spawn_serve_kid_free(&kids[i], keep);
			else
				kill(-m.pid, m.arg);
		}
	}
	/* muxd is gone: so is every program it had started. */
	for (i = 0; i < SPAWN_MAX; i++)
		if (kids[i].pid > 0 && !kids[i].ended) {
			kill(-kids[i].pid, SIGKILL);
			if (kids[i].uid != 0)
				spawn_serve_kill_uid(kids[i].uid);
		}
	spawn_cgroup_close(&keep->cgroup);
	_exit(0);
}
