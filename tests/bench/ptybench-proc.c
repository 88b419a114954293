/*
 * ptybench: the pty pairs, the forwarder's process, and its CPU time and
 * wake-ups read from /proc.
 */
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ptybench.h"

/* Make a descriptor non-blocking and close it on exec. */
void
ptybench_proc_nonblock(int fd)
{
	int	flags;

	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		err(1, "fcntl");
}

/* Make a pty pair in raw mode; the slave's path goes to path. */
void
ptybench_proc_pair(int *m, int *s, char *path)
{
	struct termios	t;

	if (openpty(m, s, NULL, NULL, NULL) == -1)
		err(1, "openpty");
	if (ttyname_r(*s, path, PTYBENCH_PATHLEN) != 0)
		errx(1, "ttyname_r failed");
	if (tcgetattr(*s, &t) == -1)
		err(1, "tcgetattr");
	cfmakeraw(&t);
	if (tcsetattr(*s, TCSANOW, &t) == -1)
		err(1, "tcsetattr");
	ptybench_proc_nonblock(*m);
	ptybench_proc_nonblock(*s);
}

/* Stop the forwarder and its process group, at exit. */
void
ptybench_proc_kill(void)
{
	uint64_t	deadline;
	pid_t		pid = ptybench_child;

	if (pid == -1)
		return;
	ptybench_child = -1;
	kill(-pid, SIGTERM);
	deadline = ptybench_now() + 5 * PTYBENCH_SEC;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (ptybench_now() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
			break;
		}
		usleep(10000);
	}
	/* What is left of the group, such as a helper shell. */
	kill(-pid, SIGKILL);
}

/* Stop the forwarder when the probe is interrupted. */
void
ptybench_proc_signal(int sig)
{
	(void)sig;
	if (ptybench_child != -1)
		kill(-ptybench_child, SIGTERM);
	_exit(1);
}

/* Start the command, in a process group of its own, on the slave paths. */
void
ptybench_proc_spawn(char **cmd)
{
	char	**argv;
	size_t	  n, i, k;

	for (n = 0; cmd[n] != NULL; n++)
		;
	if ((argv = calloc(n + 2 * ptybench_nlinks + 1, sizeof(*argv))) ==
	    NULL)
		err(1, "calloc");
	for (i = 0; i < n; i++)
		argv[i] = cmd[i];
	for (k = 0; k < (size_t)ptybench_nlinks; k++) {
		argv[i++] = ptybench_links[k].path[0];
		argv[i++] = ptybench_links[k].path[1];
	}
	switch (ptybench_child = fork()) {
	case -1:
		err(1, "fork");
	case 0:
		setpgid(0, 0);
		dup2(2, 1);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		warn("%s", argv[0]);
		_exit(127);
	}
	setpgid(ptybench_child, ptybench_child);
	free(argv);
}

/*
 * Fail if the forwarder has exited, ending what it left in its process
 * group (a forwarder run under a wrapper that ended first would
 * otherwise go on, and reopen the slave paths of later runs).
 */
void
ptybench_proc_check(void)
{
	int	status;

	if (ptybench_child == -1 ||
	    waitpid(ptybench_child, &status, WNOHANG) != ptybench_child)
		return;
	kill(-ptybench_child, SIGKILL);
	ptybench_child = -1;
	if (WIFSIGNALED(status))
		errx(1, "the forwarder was killed by signal %d",
		    WTERMSIG(status));
	errx(1, "the forwarder exited with status %d", WEXITSTATUS(status));
}

/*
 * Open the counters of every task of the forwarder and its descendants,
 * as they are now.
 */
void
ptybench_proc_tasks_open(void)
{
	static pid_t	 pid[PTYBENCH_PROCS_MAX], ppid[PTYBENCH_PROCS_MAX];
	pid_t		 tree[PTYBENCH_TASKS_MAX];
	char		 path[128], buf[512], *p;
	struct dirent	*de;
	DIR		*d, *td;
	size_t		 n = 0, nt = 1, i, k;
	int		 fd, grew;
	ssize_t		 len;

	if (ptybench_child == -1)
		return;
	if ((d = opendir("/proc")) == NULL)
		err(1, "/proc");
	while ((de = readdir(d)) != NULL && n < PTYBENCH_PROCS_MAX) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if ((p = strrchr(buf, ')')) == NULL)
			continue;
		pid[n] = atoi(de->d_name);
		ppid[n++] = (pid_t)strtol(p + 4, NULL, 10);	/* ") S ppid" */
	}
	closedir(d);
	tree[0] = ptybench_child;
	do {
		grew = 0;
		for (i = 0; i < n; i++)
			for (k = 0; k < nt && nt < PTYBENCH_TASKS_MAX; k++)
				if (ppid[i] == tree[k] && pid[i] != 0) {
					tree[nt++] = pid[i];
					pid[i] = 0;
					grew = 1;
					break;
				}
	} while (grew);
	for (k = 0; k < nt; k++) {
		snprintf(path, sizeof(path), "/proc/%d/task", (int)tree[k]);
		if ((td = opendir(path)) == NULL)
			continue;
		while ((de = readdir(td)) != NULL &&
		    ptybench_ntasks < PTYBENCH_TASKS_MAX) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			snprintf(path, sizeof(path),
			    "/proc/%d/task/%s/schedstat", (int)tree[k],
			    de->d_name);
			ptybench_tasks[ptybench_ntasks].sched = open(path,
			    O_RDONLY | O_CLOEXEC);
			snprintf(path, sizeof(path), "/proc/%d/task/%s/status",
			    (int)tree[k], de->d_name);
			ptybench_tasks[ptybench_ntasks].status = open(path,
			    O_RDONLY | O_CLOEXEC);
			if (ptybench_tasks[ptybench_ntasks].sched != -1 &&
			    ptybench_tasks[ptybench_ntasks].status != -1)
				ptybench_ntasks++;
		}
		closedir(td);
	}
}

/*
 * Read the forwarder's counters: with start set, remember them as the
 * window's start; otherwise add up, over the tasks readable both times,
 * the CPU time (ns) and context switches since then.
 */
void
ptybench_proc_tasks_read(int start, uint64_t *cpu, uint64_t *csw)
{
	struct ptybench_task	*t;
	char			 buf[2048], *p;
	uint64_t		 c, v;
	ssize_t			 n;
	size_t			 i;

	*cpu = *csw = 0;
	for (i = 0; i < ptybench_ntasks; i++) {
		t = &ptybench_tasks[i];
		if ((n = pread(t->sched, buf, sizeof(buf) - 1, 0)) <= 0)
			continue;
		buf[n] = '\0';
		c = strtoull(buf, NULL, 10);
		if ((n = pread(t->status, buf, sizeof(buf) - 1, 0)) <= 0)
			continue;
		buf[n] = '\0';
		v = 0;
		for (p = buf; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
			if (*p == '\n')
				p++;
			if (strncmp(p, "voluntary_ctxt_switches:", 24) == 0)
				v += strtoull(p + 24, NULL, 10);
			else if (strncmp(p, "nonvoluntary_ctxt_switches:",
			    27) == 0)
				v += strtoull(p + 27, NULL, 10);
		}
		if (start) {
			t->cpu0 = c;
			t->csw0 = v;
			t->ok0 = 1;
		} else if (t->ok0) {
			*cpu += c - t->cpu0;
			*csw += v - t->csw0;
		}
	}
}
