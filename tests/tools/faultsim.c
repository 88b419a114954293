/*
 * faultsim: make system calls of a program fail, for tests (LD_PRELOAD).
 *
 *	FAULTSIM=CALL:PATTERN:ERRNO:NTH[:COUNT][,...] LD_PRELOAD=faultsim.so cmd
 *
 * CALL is write, pwrite, fsync (fsync and fdatasync), syncfs, fallocate,
 * ftruncate, msync, rename, open (open and openat) or accept (accept
 * and accept4); PATTERN a shell pattern (fnmatch) for the file the call
 * concerns (the path opened, the new name of a rename, or the file of
 * the descriptor written, synced or cut, from /proc/self/fd; any for
 * msync), "*" for any; ERRNO a name (ENOSPC, EIO,
 * EMFILE, EINTR, EAGAIN...); NTH the first matching call that fails
 * (1-based) and COUNT how many fail from there (default 1, 0 for all).
 * Each failure is told on standard error: "faultsim: write f.cast
 * ENOSPC".  With FAULTSIM_WHILE=PATH the rules hold only while PATH
 * exists (their calls counted only then): a test makes the disk full
 * and empty again by creating and removing it.  SQLite's fault simulation is the model: the same program,
 * the same scenario, one call made to fail at a chosen point.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAULTSIM_MAX	8

struct faultsim_rule {
	char		 call[16];
	char		 pattern[256];
	int		 err;
	long		 nth;
	long		 count;
	long		 seen;		/* matching calls so far */
};

static struct faultsim_rule	faultsim_rules[FAULTSIM_MAX];
static int			faultsim_n = -1;

static const struct {
	const char	*name;
	int		 err;
} faultsim_errnos[] = {
	{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EMFILE", EMFILE },
	{ "ENFILE", ENFILE }, { "EINTR", EINTR }, { "EAGAIN", EAGAIN },
	{ "EDQUOT", EDQUOT }, { "EROFS", EROFS }, { "EACCES", EACCES },
	{ "EPIPE", EPIPE }, { "ENOMEM", ENOMEM },
};

/* Read FAULTSIM once. */
static void
faultsim_init(void)
{
	char		*spec, *rule, *save = NULL, *f[5];
	const char	*env;
	size_t		 i;
	int		 k;

	if (faultsim_n != -1)
		return;
	faultsim_n = 0;
	if ((env = getenv("FAULTSIM")) == NULL || (spec = strdup(env)) == NULL)
		return;
	for (rule = strtok_r(spec, ",", &save); rule != NULL &&
	    faultsim_n < FAULTSIM_MAX; rule = strtok_r(NULL, ",", &save)) {
		struct faultsim_rule *r = &faultsim_rules[faultsim_n];

		for (k = 0; k < 5; k++)
			f[k] = strsep(&rule, ":");
		if (f[0] == NULL || f[1] == NULL || f[2] == NULL || f[3] == NULL)
			continue;
		snprintf(r->call, sizeof(r->call), "%s", f[0]);
		snprintf(r->pattern, sizeof(r->pattern), "%s", f[1]);
		r->err = 0;
		for (i = 0; i < sizeof(faultsim_errnos) /
		    sizeof(faultsim_errnos[0]); i++)
			if (strcmp(f[2], faultsim_errnos[i].name) == 0)
				r->err = faultsim_errnos[i].err;
		if (r->err == 0)
			continue;
		r->nth = atol(f[3]);
		r->count = f[4] != NULL ? atol(f[4]) : 1;
		faultsim_n++;
	}
	free(spec);
}

/* The file of a descriptor, into buf. */
static const char *
faultsim_fdpath(int fd, char *buf, size_t len)
{
	char	link[64];
	ssize_t	n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, buf, len - 1)) < 0)
		n = 0;
	buf[n] = '\0';
	return (buf);
}

/* Tell whether this call fails, and with what errno (0: it does not). */
static int
faultsim_hit(const char *call, const char *path)
{
	struct faultsim_rule	*r;
	const char		*base, *gate;
	int			 i;

	faultsim_init();
	if ((gate = getenv("FAULTSIM_WHILE")) != NULL &&
	    access(gate, F_OK) != 0)
		return (0);
	for (i = 0; i < faultsim_n; i++) {
		r = &faultsim_rules[i];
		if (strcmp(r->call, call) != 0)
			continue;
		base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
		    path;
		if (strcmp(r->pattern, "*") != 0 &&
		    fnmatch(r->pattern, path, 0) != 0 &&
		    fnmatch(r->pattern, base, 0) != 0)
			continue;
		r->seen++;
		if (r->seen < r->nth ||
		    (r->count > 0 && r->seen >= r->nth + r->count))
			continue;
		dprintf(2, "faultsim: %s %s %s\n", call, base,
		    strerrorname_np(r->err));
		return (r->err);
	}
	return (0);
}

/* write(2), failing when a rule says so. */
ssize_t
write(int fd, const void *buf, size_t n)
{
	static ssize_t	(*real)(int, const void *, size_t);
	char		 path[512];
	int		 err;

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT,
		    "write");
	faultsim_init();
	if (faultsim_n > 0 && fd > 2 && (err = faultsim_hit("write",
	    faultsim_fdpath(fd, path, sizeof(path)))) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd, buf, n));
}

/* fsync(2), failing when a rule says so. */
int
fsync(int fd)
{
	static int	(*real)(int);
	char		path[512];
	int		err;

	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	if ((err = faultsim_hit("fsync", faultsim_fdpath(fd, path,
	    sizeof(path)))) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd));
}

/* fallocate(2), failing when a rule says so. */
int
fallocate(int fd, int mode, off_t off, off_t len)
{
	static int	(*real)(int, int, off_t, off_t);
	char		path[512];
	int		err;

	if (real == NULL)
		real = (int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT,
		    "fallocate");
	if ((err = faultsim_hit("fallocate", faultsim_fdpath(fd, path,
	    sizeof(path)))) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd, mode, off, len));
}

/* open(2), failing when a rule says so. */
int
open(const char *path, int flags, ...)
{
	static int	(*real)(const char *, int, ...);
	mode_t		mode = 0;
	va_list		ap;
	int		err;

	if (real == NULL)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT,
		    "open");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if ((err = faultsim_hit("open", path)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(path, flags, mode));
}

/* openat(2), as open. */
int
openat(int dfd, const char *path, int flags, ...)
{
	static int	(*real)(int, const char *, int, ...);
	mode_t		mode = 0;
	va_list		ap;
	int		err;

	if (real == NULL)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT,
		    "openat");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if ((err = faultsim_hit("open", path)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(dfd, path, flags, mode));
}

/* accept4(2), failing when a rule says so. */
int
accept4(int s, struct sockaddr *sa, socklen_t *len, int flags)
{
	static int	(*real)(int, struct sockaddr *, socklen_t *, int);
	int		err;

	if (real == NULL)
		real = (int (*)(int, struct sockaddr *, socklen_t *, int))
		    dlsym(RTLD_NEXT, "accept4");
	if ((err = faultsim_hit("accept", "*")) != 0) {
		errno = err;
		return (-1);
	}
	return (real(s, sa, len, flags));
}

/* accept(2), as accept4. */
int
accept(int s, struct sockaddr *sa, socklen_t *len)
{
	return (accept4(s, sa, len, 0));
}

/* The file a descriptor-taking call concerns, when a rule may match. */
static int
faultsim_fd(const char *call, int fd)
{
	char	path[512];

	faultsim_init();
	if (faultsim_n <= 0 || fd <= 2)
		return (0);
	return (faultsim_hit(call, faultsim_fdpath(fd, path, sizeof(path))));
}

/* pwrite(2), failing when a rule says so. */
ssize_t
pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t	(*real)(int, const void *, size_t, off_t);
	int		err;

	if (real == NULL)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(
		    RTLD_NEXT, "pwrite");
	if ((err = faultsim_fd("pwrite", fd)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd, buf, n, off));
}

/* ftruncate(2), failing when a rule says so. */
int
ftruncate(int fd, off_t len)
{
	static int	(*real)(int, off_t);
	int		err;

	if (real == NULL)
		real = (int (*)(int, off_t))dlsym(RTLD_NEXT, "ftruncate");
	if ((err = faultsim_fd("ftruncate", fd)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd, len));
}

/* syncfs(2), failing when a rule says so (the file is the one given). */
int
syncfs(int fd)
{
	static int	(*real)(int);
	int		err;

	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "syncfs");
	if ((err = faultsim_fd("syncfs", fd)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd));
}

/* fdatasync(2), failing as fsync does (rules say "fsync"). */
int
fdatasync(int fd)
{
	static int	(*real)(int);
	int		err;

	if (real == NULL)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	if ((err = faultsim_fd("fsync", fd)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(fd));
}

/* msync(2), failing when a rule says so (any mapping: pattern "*"). */
int
msync(void *addr, size_t len, int flags)
{
	static int	(*real)(void *, size_t, int);
	int		err;

	if (real == NULL)
		real = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "msync");
	if ((err = faultsim_hit("msync", "*")) != 0) {
		errno = err;
		return (-1);
	}
	return (real(addr, len, flags));
}

/* rename(2), failing when a rule says so (the file is the new name). */
int
rename(const char *from, const char *to)
{
	static int	(*real)(const char *, const char *);
	int		err;

	if (real == NULL)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT,
		    "rename");
	if ((err = faultsim_hit("rename", to)) != 0) {
		errno = err;
		return (-1);
	}
	return (real(from, to));
}
