/*
 * An entry's sandbox: bubblewrap's command line for it (its namespaces,
 * a read-only view of the system and of its program's directory, muxd's
 * own paths covered, a private /tmp and home), the resource limits set
 * before it runs, and the probe that tells at start whether bwrap can
 * make namespaces here.  See spawn-serve.c for the spawner that uses them.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

/* Set an entry's resource limits, each that is not 0 (no limit). */
const char *
spawn_box_limits(const struct conf_rlimits *l)
{
	const struct {
		int		 res;
		long long	 v;
		const char	*name;
	} set[] = {
		{ RLIMIT_NPROC, l->processes, "processes" },
		{ RLIMIT_NOFILE, l->files, "files" },
		{ RLIMIT_FSIZE, l->file_size, "file size" },
		/*
		 * Memory is the data an entry writes (RLIMIT_DATA: its heap
		 * and private writable mappings), not its address space: a
		 * JVM or V8 reserves gigabytes it never touches, and under
		 * RLIMIT_AS a Java entry could not start.
		 */
		{ RLIMIT_DATA, l->memory, "memory" },
		{ RLIMIT_CPU, l->cpu, "cpu" },
		{ RLIMIT_CORE, -1, "core" },
	};
	struct rlimit	 r;
	size_t		 i;

	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		if (set[i].v == 0)
			continue;
		r.rlim_cur = r.rlim_max = set[i].v == -1 ? 0 :
		    (rlim_t)set[i].v;
		/* The CPU limit warns (SIGXCPU) a second before it kills. */
		if (set[i].res == RLIMIT_CPU)
			r.rlim_max = r.rlim_cur + 1;
		if (setrlimit(set[i].res, &r) == -1)
			return (set[i].name);
	}
	return (NULL);
}

/* Add the arguments of an array, NULL-terminated; -1 when full. */
static int
spawn_box_args(const char **argv, size_t *n, size_t max, ...)
{
	const char	*a;
	va_list		 ap;

	va_start(ap, max);
	while ((a = va_arg(ap, const char *)) != NULL) {
		if (*n + 1 >= max) {
			va_end(ap);
			return (-1);
		}
		argv[(*n)++] = a;
	}
	va_end(ap);
	argv[*n] = NULL;
	return (0);
}

/* Whether path is dir or lies under it. */
static int
spawn_box_under(const char *path, const char *dir)
{
	size_t	n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return (1);
	return (strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/'));
}

/*
 * Build bwrap's command line for an entry: its namespaces, its view of
 * the system, read-only, and of the directory of its program; what of
 * muxd's would show there hidden; a private /tmp and home; then
 * /bin/sh -c command.  hide: SPAWN_BOX_HIDE paths of muxd's, or NULL;
 * network: whether it has one.  progdir holds the program's directory.
 */
const char **
spawn_box_argv(const char **argv, size_t max, int network,
    char *const *hide, const char *command, char *progdir, size_t dirlen)
{
	static const char *sys[] = { "/bin", "/sbin", "/lib", "/lib32",
	    "/lib64", "/libx32", NULL };
	static char	 symlinks[6][PATH_MAX];
	struct stat	 st;
	const char	*binds[3];
	size_t		 n = 0, i, j, k, nb = 0, len;
	ssize_t		 l;
	int		 hid;

	spawn_box_args(argv, &n, max, SPAWN_BOX_BWRAP, "--die-with-parent",
	    "--unshare-all", NULL);
	if (network)
		spawn_box_args(argv, &n, max, "--share-net", NULL);
	/* Mounts go in order: what lies on /tmp comes after it. */
	spawn_box_args(argv, &n, max, "--proc", "/proc", "--dev", "/dev",
	    "--tmpfs", "/tmp", "--tmpfs", "/home", "--dir", SPAWN_BOX_HOME,
	    "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", NULL);
	binds[nb++] = "/usr";
	binds[nb++] = "/etc";
	for (i = 0; sys[i] != NULL; i++) {
		if (lstat(sys[i], &st) == -1)
			continue;
		if (S_ISLNK(st.st_mode)) {
			if ((l = readlink(sys[i], symlinks[i],
			    sizeof(symlinks[i]) - 1)) <= 0)
				continue;
			symlinks[i][l] = '\0';
			spawn_box_args(argv, &n, max, "--symlink", symlinks[i], sys[i],
			    NULL);
		} else if (S_ISDIR(st.st_mode))
			spawn_box_args(argv, &n, max, "--ro-bind", sys[i], sys[i],
			    NULL);
	}
	/* The program's own directory, when it is named by its path. */
	progdir[0] = '\0';
	while (*command == ' ' || *command == '\t')
		command++;
	len = strcspn(command, " \t;&|<>'\"");
	if (command[0] == '/' && len < dirlen) {
		memcpy(progdir, command, len);
		progdir[len] = '\0';
		for (j = len; j > 0 && progdir[j] != '/'; j--)
			;
		progdir[j == 0 ? 1 : j] = '\0';
		for (i = 0; i < nb && !spawn_box_under(progdir, binds[i]); i++)
			;
		if (strcmp(progdir, "/") == 0 || i < nb)
			progdir[0] = '\0';
		else if (stat(progdir, &st) == 0 && S_ISDIR(st.st_mode)) {
			spawn_box_args(argv, &n, max, "--ro-bind", progdir, progdir,
			    NULL);
			binds[nb++] = progdir;
		} else
			progdir[0] = '\0';
	}
	/* What of muxd's lies in what it sees is covered up, once. */
	for (j = 0; j < SPAWN_BOX_HIDE; j++) {
		if (hide[j] == NULL)
			continue;
		for (k = 0, hid = 0; k < SPAWN_BOX_HIDE; k++)
			if (k != j && hide[k] != NULL &&
			    spawn_box_under(hide[j], hide[k]) &&
			    (k < j || strcmp(hide[j], hide[k]) != 0))
				hid = 1;
		for (i = 0; !hid && i < nb; i++) {
			if (!spawn_box_under(hide[j], binds[i]) ||
			    stat(hide[j], &st) == -1)
				continue;
			if (S_ISDIR(st.st_mode))
				spawn_box_args(argv, &n, max, "--tmpfs",
				    hide[j], "--remount-ro",
				    hide[j], NULL);
			else
				spawn_box_args(argv, &n, max, "--ro-bind",
				    "/dev/null", hide[j], NULL);
			break;
		}
	}
	if (spawn_box_args(argv, &n, max, "--chdir", SPAWN_BOX_HOME,
	    "--", "/bin/sh", "-c", command, NULL) == -1)
		return (NULL);
	return (argv);
}

/*
 * Whether bwrap can make an entry's sandbox here: run /bin/true in one,
 * as the first uid of the range; NULL, or why not.
 */
const char *
spawn_box_probe(const struct uids_range *r, char *why, size_t len)
{
	const char	*argv[] = { SPAWN_BOX_BWRAP, "--unshare-all",
	    "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc",
	    "--dev", "/dev", "--tmpfs", "/tmp", "/bin/true", NULL };
	pid_t		 pid;
	int		 status, p[2];
	ssize_t		 n;

	if (access(SPAWN_BOX_BWRAP, X_OK) == -1) {
		snprintf(why, len, "%s: %s (Debian package bubblewrap)",
		    SPAWN_BOX_BWRAP, strerror(errno));
		return (why);
	}
	if (pipe2(p, O_CLOEXEC) == -1 || (pid = fork()) == -1) {
		snprintf(why, len, "cannot try bwrap: %s", strerror(errno));
		return (why);
	}
	if (pid == 0) {
		dup2(p[1], 2);
		if (setgroups(0, NULL) == -1 ||
		    setresgid(r->lo, r->lo, r->lo) == -1 ||
		    setresuid(r->lo, r->lo, r->lo) == -1)
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], why, len - 1);
	close(p[0]);
	why[n > 0 ? n : 0] = '\0';
	why[strcspn(why, "\n")] = '\0';
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return (NULL);
	if (why[0] == '\0')
		snprintf(why, len, "%s cannot make namespaces (status %d)",
		    SPAWN_BOX_BWRAP, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return (why);
}
