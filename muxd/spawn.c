/*
 * The entries' spawner, muxd's side: a program on an exec: port is a
 * contestant, and a stranger to muxd and to every other entry.  Only root
 * can start a program as another user, and muxd gives root up (-u), so
 * when muxd starts as root it first forks a spawner (spawn-serve.c) that
 * keeps root and does nothing else, as OpenBSD's privilege-separated
 * daemons do: muxd sends it the pty of the program with the command, the
 * uid and what its sandbox allows; the spawner starts the program in a
 * session of its own, answers with its pid, signals its process group
 * when asked (muxd may not signal another user's programs), and reports
 * each end with why.
 *
 * Here muxd decides at start what the spawner keeps for its life
 * (struct spawn_keep: sandbox or not, the uid range, the entries' user,
 * the log directory and its limit, the paths covered, why bwrap cannot
 * run) and hands it over through the fork; it picks each exec: port's
 * uid from the range (the same across reloads), asks for runs and
 * signals (spawn-msg.c), and marks a line down with why its program
 * ended.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spawn.h"

#define SPAWN_USER	"muxd-entry"	/* the default user of entries */
#define SPAWN_FALLBACK	"nobody"	/* where it does not exist */

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
 * What the spawner is given at its start and keeps (spawn.h), and the
 * uids muxd picks in its range.
 */
static struct spawn_keep spawn_keep = { .box = 1,
    .log_limit = CONF_ENTRY_LOG_LIMIT };
static struct uids	 spawn_uids;
static const struct conf *spawn_conf;	/* in force, for the entities */

static void	spawn_read(evutil_socket_t, short, void *);
static void	spawn_start_cgroups(int);

/*
 * As root, before the spawner starts: the entries' control groups, as
 * the room asks (want: 1, 0, -1 where the host allows), said in the
 * log; muxd stops here when they are required and cannot be made.
 */
static void
spawn_start_cgroups(int want)
{
	struct spawn_cgroup	*cg = &spawn_keep.cgroup;
	char			 why[512];

	if (geteuid() != 0 && want != 1) {
		memset(cg, 0, sizeof(*cg));
		log_info("exec: entries' limits are setrlimit(2)'s; no control "
		    "groups: muxd was not started as root");
		return;
	}
	if (spawn_cgroup_setup(cg, want, why, sizeof(why)) == 0) {
		log_info("exec: entries' limits are setrlimit(2)'s, and their "
		    "own control groups under %s%s", cg->dir, why);
		return;
	}
	if (want == 1)
		fatalx("exec: entries cannot have control groups of their "
		    "own: %s; the room may leave entry_cgroups out", why);
	log_info("exec: entries' limits are setrlimit(2)'s, per uid; no "
	    "control groups: %s", why);
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
	spawn_keep.box = 1;
	if (cf != NULL) {
		r = cf->entry_uids;
		spawn_keep.box = cf->sandbox;
		spawn_keep.log_limit = cf->entry_log_limit;
		spawn_keep.logdir = xasprintf("%s/logs", cf->state_dir);
		spawn_keep.hide[i++] = cf->state_dir;
		spawn_keep.hide[i++] = cf->capture_dir;
		spawn_keep.hide[i++] = cf->transcript_dir;
		spawn_keep.hide[i++] = cf->room_key;
		spawn_keep.hide[i++] = cf->control;
		for (i = 0; i < SPAWN_BOX_HIDE; i++)
			if (spawn_keep.hide[i] != NULL)
				spawn_keep.hide[i] =
				    xstrdup(spawn_keep.hide[i]);
	}
	spawn_keep.uids = r;
	uids_clear(&spawn_uids);
	uids_init(&spawn_uids, &r);
	spawn_configure(cf);
	if (spawn_user != NULL)
		spawn_keep.user = xstrdup(spawn_user);
	spawn_keep.box_why[0] = '\0';
	if (spawn_keep.box && geteuid() == 0)
		spawn_box_probe(&r, spawn_keep.box_why,
		    sizeof(spawn_keep.box_why));
	if (!entries)
		;
	else if (!spawn_keep.box)
		log_warnx("WARNING: sandbox = false: exec: entries run "
		    "unsandboxed, all as user %s: one entry can trace, "
		    "signal and read another", spawn_user);
	else if (geteuid() != 0)
		fatalx("exec: entries run sandboxed, each as a uid of its own, "
		    "which needs muxd started as root (under systemd, the "
		    "drop-in examples/systemd/exec-entries.conf: muxd(8)); "
		    "or the room says sandbox = false;");
	else if (spawn_keep.box_why[0] != '\0')
		fatalx("exec: entries cannot be sandboxed: %s; the room may "
		    "say sandbox = false; to run them without one",
		    spawn_keep.box_why);
	spawn_keep.cgroup_want = cf != NULL ? cf->entry_cgroups : -1;
	if (entries)
		spawn_start_cgroups(spawn_keep.cgroup_want);
	if (entries && spawn_keep.box && spawn_keep.logdir == NULL)
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
		spawn_serve(sv[1], &spawn_keep);
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
	if (cf != NULL && spawn_keep.user != NULL &&
	    (cf->sandbox != spawn_keep.box ||
	    cf->entry_uids.lo != spawn_uids.range.lo ||
	    cf->entry_uids.hi != spawn_uids.range.hi ||
	    cf->entry_cgroups != spawn_keep.cgroup_want ||
	    (!spawn_keep.box && strcmp(spawn_user, spawn_keep.user) != 0)))
		log_warnx("exec: sandbox, entry_cgroups, entry_uids and "
		    "entry_user stay as they were at start until muxd "
		    "restarts");
	/*
	 * The uids the room gives, then those picked for the others: the
	 * one each had already (a reload moves none), else a free one that
	 * no process holds (another room's entry on this host).
	 */
	if (spawn_keep.box && cf != NULL) {
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
	if (spawn_fd != -1 && spawn_muxd != NULL && !spawn_keep.box &&
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
	if (spawn_keep.box && uids_assign(&spawn_uids, p->name, -1, &uid, err,
	    errlen) == -1)
		return (-1);
	m.uid = uid;
	conf_sandbox_entry(spawn_conf, spawn_conf != NULL ?
	    conf_port_find(spawn_conf, p->name) : -1, &m.limits, &m.network);
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
	if (spawn_keep.box)
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
	const char	*user = spawn_user, *cgroups = NULL;
	char		 range[48];

	if (spawn_fd != -1 && spawn_keep.cgroup.dir[0] != '\0')
		cgroups = spawn_keep.cgroup.dir;

	if (spawn_fd == -1 && spawn_pid == -1)
		user = (pw = getpwuid(geteuid())) != NULL ? pw->pw_name : NULL;
	snprintf(range, sizeof(range), "%lu-%lu",
	    (unsigned long)spawn_uids.range.lo,
	    (unsigned long)spawn_uids.range.hi);
	if (spawn_keep.box && spawn_fd != -1)
		return (json_pack("{sn sb sb ss ss?}", "user", "own", 1,
		    "sandbox", 1, "uids", range, "cgroups", cgroups));
	return (json_pack("{ss? sb sb ss?}", "user", user, "own", spawn_fd !=
	    -1 && (spawn_muxd == NULL || user == NULL ||
	    strcmp(spawn_muxd, user) != 0), "sandbox", 0, "cgroups",
	    cgroups));
}
