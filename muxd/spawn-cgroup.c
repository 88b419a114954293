/*
 * The entries' control groups (cgroup v2): where the host has a cgroup
 * v2 hierarchy and muxd's own group is muxd's to divide (the root of the
 * hierarchy, or a group delegated to it: systemd's Delegate=yes, which
 * marks it with the extended attribute trusted.delegate), every exec:
 * entry runs in a group of its own, entry-PORT, under one group of
 * muxd's: memory.max (with no swap beyond it, and the whole group ended
 * together when it is reached), pids.max and cpu.max hold for the
 * entry's processes together, whatever uids they run as.  Under systemd
 * the groups are the unit's (entries/ beside muxd/, where muxd's own
 * processes move, as a group with children holds none), so the unit's
 * own limits and accounting cover the entries; without it, muxd-PID at
 * the root of the hierarchy.
 *
 * Every function here runs as root: in muxd before it gives root up
 * (spawn_cgroup_setup), then in the spawner and in an entry's child
 * before it execs its sandbox (spawn_cgroup_enter).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spawn.h"

#define SPAWN_CGROUP_PERIOD	100000	/* cpu.max's period, us */
#define SPAWN_CGROUP_WAIT_MS	1000	/* for a killed group to empty */

static int	spawn_cgroup_write(const char *, const char *, const char *);
static int	spawn_cgroup_read(const char *, const char *, char *, size_t);
static long long spawn_cgroup_key(const char *, const char *, const char *);
static int	spawn_cgroup_find(char *, size_t, char *, size_t);
static int	spawn_cgroup_enable(struct spawn_cgroup *, const char *);
static int	spawn_cgroup_vacate(const char *, char *, size_t);
static int	spawn_cgroup_path(const struct spawn_cgroup *, const char *,
		    char *, size_t);
static int	spawn_cgroup_stale(const char *);
static const char *spawn_cgroup_limit(char *, size_t, long long, int);

/* Write text into the file name of group dir; 0, or -1 with errno. */
static int
spawn_cgroup_write(const char *dir, const char *name, const char *text)
{
	char	path[PATH_MAX];
	size_t	len = strlen(text);
	ssize_t	n;
	int	fd, saved;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = write(fd, text, len);
	saved = errno;
	close(fd);
	errno = saved;
	if (n == -1)
		return (-1);
	if ((size_t)n != len) {
		errno = EIO;
		return (-1);
	}
	return (0);
}

/* Read the file name of group dir into buf; its length, or -1. */
static int
spawn_cgroup_read(const char *dir, const char *name, char *buf, size_t len)
{
	char	path[PATH_MAX];
	ssize_t	n;
	int	fd, saved;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path) || len == 0) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, len - 1);
	saved = errno;
	close(fd);
	errno = saved;
	if (n == -1)
		return (-1);
	buf[n] = '\0';
	return ((int)n);
}

/*
 * The value of key in a flat keyed file of group dir (memory.events:
 * "oom_kill 2"), or of the file itself when key is NULL ("3\n"); -1
 * when it cannot be read.
 */
static long long
spawn_cgroup_key(const char *dir, const char *name, const char *key)
{
	char		 buf[1024], *p;
	size_t		 klen;

	if (spawn_cgroup_read(dir, name, buf, sizeof(buf)) == -1)
		return (-1);
	if (key == NULL)
		return (strtoll(buf, NULL, 10));
	klen = strlen(key);
	for (p = buf; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ')
			return (strtoll(p + klen + 1, NULL, 10));
	}
	return (-1);
}

/*
 * Find the cgroup v2 hierarchy's mount point (mnt) and this process's
 * group in it (own, from "/"); 0, or -1 when there is none.
 */
static int
spawn_cgroup_find(char *mnt, size_t mlen, char *own, size_t olen)
{
	FILE	*f;
	char	 line[4096], *p, *q;
	int	 found = 0;

	if ((f = fopen("/proc/self/mountinfo", "re")) == NULL)
		return (-1);
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - TYPE SOURCE ... */
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if ((p = strstr(line, " - cgroup2 ")) == NULL)
			continue;
		*p = '\0';
		if ((p = strchr(line, ' ')) == NULL ||
		    (p = strchr(p + 1, ' ')) == NULL ||
		    (p = strchr(p + 1, ' ')) == NULL ||
		    (p = strchr(p + 1, ' ')) == NULL)
			continue;
		if ((q = strchr(++p, ' ')) != NULL)
			*q = '\0';
		found = (size_t)snprintf(mnt, mlen, "%s", p) < mlen;
	}
	fclose(f);
	if (!found || (f = fopen("/proc/self/cgroup", "re")) == NULL)
		return (-1);
	found = 0;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		found = (size_t)snprintf(own, olen, "%s", line + 3) < olen;
	}
	fclose(f);
	return (found ? 0 : -1);
}

/*
 * Give the children of group dir the controllers entries are limited
 * with (those cg has, or all when none is set yet); those given stay
 * set in cg.  0 when one at least is given, else -1 with errno.
 */
static int
spawn_cgroup_enable(struct spawn_cgroup *cg, const char *dir)
{
	static const char *names[] = { "memory", "pids", "cpu" };
	int		*on[] = { &cg->memory, &cg->pids, &cg->cpu };
	char		 text[16];
	size_t		 i;
	int		 first = !cg->memory && !cg->pids && !cg->cpu, any = 0;
	int		 err = ENOENT;

	for (i = 0; i < 3; i++) {
		if (!first && !*on[i])
			continue;
		snprintf(text, sizeof(text), "+%s", names[i]);
		if (spawn_cgroup_write(dir, "cgroup.subtree_control",
		    text) == 0) {
			*on[i] = 1;
			any = 1;
		} else {
			err = errno;
			*on[i] = 0;
		}
	}
	if (!any)
		errno = err;
	return (any ? 0 : -1);
}

/*
 * Move every process of group dir into its child muxd/ (a group whose
 * children have controllers holds no process); 0, or -1 with why.
 */
static int
spawn_cgroup_vacate(const char *dir, char *why, size_t len)
{
	char	 leaf[PATH_MAX], buf[8192], *p, *end;
	int	 n;

	if ((size_t)snprintf(leaf, sizeof(leaf), "%s/muxd", dir) >=
	    sizeof(leaf) || (mkdir(leaf, 0755) == -1 && errno != EEXIST)) {
		snprintf(why, len, "cannot make %s: %s", leaf, strerror(errno));
		return (-1);
	}
	if ((n = spawn_cgroup_read(dir, "cgroup.procs", buf,
	    sizeof(buf))) == -1) {
		snprintf(why, len, "cannot read %s/cgroup.procs: %s", dir,
		    strerror(errno));
		return (-1);
	}
	for (p = buf; *p != '\0'; p = end) {
		end = p + strcspn(p, "\n");
		if (*end == '\n')
			*end++ = '\0';
		if (*p != '\0' && spawn_cgroup_write(leaf, "cgroup.procs",
		    p) == -1 && errno != ESRCH) {
			snprintf(why, len, "cannot move pid %s into %s: %s", p,
			    leaf, strerror(errno));
			return (-1);
		}
	}
	return (0);
}

/*
 * Remove the groups a muxd that is gone left at the root of the
 * hierarchy mnt (its spawner killed outright): muxd-PID with no process
 * PID, their entries' processes ended.  How many were removed.
 */
static int
spawn_cgroup_stale(const char *mnt)
{
	struct spawn_cgroup	 old;
	struct dirent		*de;
	DIR			*d;
	char			*end;
	long			 pid;
	int			 n = 0;

	if ((d = opendir(mnt)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "muxd-", 5) != 0 ||
		    de->d_type != DT_DIR)
			continue;
		pid = strtol(de->d_name + 5, &end, 10);
		if (*end != '\0' || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		memset(&old, 0, sizeof(old));
		old.made = 1;
		if ((size_t)snprintf(old.dir, sizeof(old.dir), "%s/%s", mnt,
		    de->d_name) >= sizeof(old.dir))
			continue;
		spawn_cgroup_close(&old);
		n++;
	}
	closedir(d);
	return (n);
}

/*
 * Make the group of muxd's entries, as asked (want: 1 required, 0 none,
 * -1 where the host allows), before the spawner is started.  0 when
 * cg->dir is made and has a controller at least; -1 with why otherwise.
 */
int
spawn_cgroup_setup(struct spawn_cgroup *cg, int want, char *why, size_t len)
{
	char	 mnt[PATH_MAX], own[PATH_MAX], dir[PATH_MAX], mark[8];
	char	 avail[256];
	int	 stale = 0;
	ssize_t	 n;
	int	 root, delegated;

	memset(cg, 0, sizeof(*cg));
	if (want == 0) {
		snprintf(why, len, "the room says entry_cgroups = false");
		return (-1);
	}
	if (spawn_cgroup_find(mnt, sizeof(mnt), own, sizeof(own)) == -1) {
		snprintf(why, len, "this host has no cgroup v2 hierarchy");
		return (-1);
	}
	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", mnt,
	    strcmp(own, "/") == 0 ? "" : own) >= sizeof(dir)) {
		snprintf(why, len, "muxd's control group has too long a path");
		return (-1);
	}
	root = strcmp(own, "/") == 0;
	delegated = root;
	if (!delegated && ((n = getxattr(dir, "trusted.delegate", mark,
	    sizeof(mark) - 1)) > 0 || (n = getxattr(dir, "user.delegate",
	    mark, sizeof(mark) - 1)) > 0)) {
		mark[n] = '\0';
		delegated = strcmp(mark, "1") == 0;
	}
	if (want == -1 && !delegated) {
		snprintf(why, len, "muxd's control group %s is not delegated to "
		    "it (under systemd: Delegate=yes; or entry_cgroups = true)",
		    dir);
		return (-1);
	}
	if ((n = spawn_cgroup_read(dir, "cgroup.controllers", avail,
	    sizeof(avail))) == -1 || (strstr(avail, "memory") == NULL &&
	    strstr(avail, "pids") == NULL && strstr(avail, "cpu") == NULL)) {
		snprintf(why, len, "the cgroup v2 hierarchy at %s has none of "
		    "the memory, pids and cpu controllers%s", mnt, n == -1 ?
		    "" : " (where cgroup v1 holds them)");
		return (-1);
	}
	/*
	 * Below the root a group holds processes or has children with
	 * controllers, not both (cpu and pids alone would be let in, and
	 * make the children invalid for memory): muxd's move first.
	 */
	if (!root && spawn_cgroup_vacate(dir, why, len) == -1)
		return (-1);
	if (spawn_cgroup_enable(cg, dir) == -1) {
		snprintf(why, len, "cannot give the memory, pids or cpu "
		    "controller to the children of %s: %s", dir,
		    strerror(errno));
		return (-1);
	}
	if (root) {
		stale = spawn_cgroup_stale(mnt);
		n = snprintf(cg->dir, sizeof(cg->dir), "%s/muxd-%ld", mnt,
		    (long)getpid());
	}
	else
		n = snprintf(cg->dir, sizeof(cg->dir), "%s/entries", dir);
	if ((size_t)n >= sizeof(cg->dir) || (mkdir(cg->dir, 0755) == -1 &&
	    errno != EEXIST)) {
		snprintf(why, len, "cannot make %s: %s", cg->dir,
		    strerror(errno));
		cg->dir[0] = '\0';
		return (-1);
	}
	cg->made = 1;
	if (spawn_cgroup_enable(cg, cg->dir) == -1) {
		snprintf(why, len, "cannot give the controllers to the children "
		    "of %s: %s", cg->dir, strerror(errno));
		spawn_cgroup_close(cg);
		memset(cg, 0, sizeof(*cg));
		return (-1);
	}
	/* What the entries go without, said in the log. */
	snprintf(why, len, "%s%s%s%s", cg->memory ? "" : "; no memory "
	    "controller", cg->pids ? "" : "; no pids controller", cg->cpu ?
	    "" : "; no cpu controller", stale > 0 ? "; the groups of a muxd "
	    "gone before removed" : "");
	return (0);
}

/* Write an entry group's path (into path) for its port name. */
static int
spawn_cgroup_path(const struct spawn_cgroup *cg, const char *name,
    char *path, size_t len)
{
	if (cg->dir[0] == '\0' || (size_t)snprintf(path, len, "%s/entry-%s",
	    cg->dir, name) >= len) {
		errno = cg->dir[0] == '\0' ? ENOENT : ENAMETOOLONG;
		return (-1);
	}
	return (0);
}

/*
 * A limit as a control file takes it, into text: v ("max" when 0), then
 * the period when there is one (cpu.max).
 */
static const char *
spawn_cgroup_limit(char *text, size_t len, long long v, int period)
{
	char	p[16] = "";

	if (period > 0)
		snprintf(p, sizeof(p), " %d", period);
	if (v > 0)
		snprintf(text, len, "%lld%s", v, p);
	else
		snprintf(text, len, "max%s", p);
	return (text);
}

/*
 * Make (or take again) the group of the entry on port name, with its
 * limits l; *ooms is set to the count of its out-of-memory kills so far.
 * 0, or -1 with why.
 */
int
spawn_cgroup_make(const struct spawn_cgroup *cg, const char *name,
    const struct conf_rlimits *l, long long *ooms, char *why, size_t len)
{
	char		 path[PATH_MAX], text[64];
	const char	*file = NULL;

	if (spawn_cgroup_path(cg, name, path, sizeof(path)) == -1 ||
	    (mkdir(path, 0755) == -1 && errno != EEXIST)) {
		snprintf(why, len, "cannot make its control group %s/entry-%s: "
		    "%s", cg->dir, name, strerror(errno));
		return (-1);
	}
	if (cg->memory) {
		if (spawn_cgroup_write(path, file = "memory.max",
		    spawn_cgroup_limit(text, sizeof(text), l->memory, 0)) == -1)
			goto bad;
		/* No swap beyond it (a kernel without swap has no file). */
		if (spawn_cgroup_write(path, file = "memory.swap.max",
		    l->memory > 0 ? "0" : "max") == -1 && errno != ENOENT)
			goto bad;
		if (spawn_cgroup_write(path, file = "memory.oom.group",
		    "1") == -1)
			goto bad;
	}
	if (cg->pids && spawn_cgroup_write(path, file = "pids.max",
	    spawn_cgroup_limit(text, sizeof(text), l->processes, 0)) == -1)
		goto bad;
	/* cpu.max: the quota of each period, in us. */
	if (cg->cpu && spawn_cgroup_write(path, file = "cpu.max",
	    spawn_cgroup_limit(text, sizeof(text), l->cpu_percent *
	    (SPAWN_CGROUP_PERIOD / 100), SPAWN_CGROUP_PERIOD)) == -1)
		goto bad;
	*ooms = spawn_cgroup_ooms(cg, name);
	return (0);
bad:
	snprintf(why, len, "cannot set %s/%s: %s", path, file, strerror(errno));
	return (-1);
}

/* In an entry's child, as root: move the calling process into its group. */
int
spawn_cgroup_enter(const struct spawn_cgroup *cg, const char *name)
{
	char	path[PATH_MAX];

	if (spawn_cgroup_path(cg, name, path, sizeof(path)) == -1)
		return (-1);
	return (spawn_cgroup_write(path, "cgroup.procs", "0"));
}

/* The tasks in the entry's group now (pids.current), or -1. */
long long
spawn_cgroup_pids(const struct spawn_cgroup *cg, const char *name)
{
	char	path[PATH_MAX];

	if (!cg->pids || spawn_cgroup_path(cg, name, path, sizeof(path)) == -1)
		return (-1);
	return (spawn_cgroup_key(path, "pids.current", NULL));
}

/* How many of the entry's processes the kernel has ended for memory. */
long long
spawn_cgroup_ooms(const struct spawn_cgroup *cg, const char *name)
{
	char	path[PATH_MAX];

	if (!cg->memory || spawn_cgroup_path(cg, name, path,
	    sizeof(path)) == -1)
		return (0);
	return (spawn_cgroup_key(path, "memory.events", "oom_kill"));
}

/*
 * End every process of the entry's group (cgroup.kill, else each pid
 * of cgroup.procs); with wait, until the group is empty or a second
 * has passed.
 */
void
spawn_cgroup_kill(const struct spawn_cgroup *cg, const char *name, int wait)
{
	char	path[PATH_MAX], buf[8192], *p;
	int	i;

	if (spawn_cgroup_path(cg, name, path, sizeof(path)) == -1)
		return;
	for (i = 0; i < SPAWN_CGROUP_WAIT_MS / 10; i++) {
		if (spawn_cgroup_key(path, "cgroup.events", "populated") == 0)
			return;
		if (i == 0 && spawn_cgroup_write(path, "cgroup.kill", "1") == 0)
			;
		else if (spawn_cgroup_read(path, "cgroup.procs", buf,
		    sizeof(buf)) > 0)
			for (p = buf; *p != '\0'; p += strcspn(p, "\n") + 1) {
				if (atol(p) > 0)
					kill((pid_t)atol(p), SIGKILL);
				if (p[strcspn(p, "\n")] == '\0')
					break;
			}
		if (!wait)
			return;
		poll(NULL, 0, 10);
	}
}

/*
 * As the spawner ends: end every entry's group and remove it, then the
 * entries' group when made here.
 */
void
spawn_cgroup_close(const struct spawn_cgroup *cg)
{
	struct dirent	*de;
	DIR		*d;
	char		 path[PATH_MAX];

	if (cg->dir[0] != '\0' && (d = opendir(cg->dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, "entry-", 6) != 0 ||
			    de->d_type != DT_DIR)
				continue;
			spawn_cgroup_kill(cg, de->d_name + 6, 1);
			if ((size_t)snprintf(path, sizeof(path), "%s/%s",
			    cg->dir, de->d_name) < sizeof(path))
				rmdir(path);
		}
		closedir(d);
	}
	if (cg->made && cg->dir[0] != '\0')
		rmdir(cg->dir);
}
