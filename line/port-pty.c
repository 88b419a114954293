/*
 * pty:PATH ports: muxd creates a pseudo-terminal and links its slave at
 * PATH (like socat's pty,link=), where a terminal program such as tio or
 * picocom opens it.  muxd holds the slave open itself, so the line stays
 * up while terminal programs come and go; what is written while none is
 * attached waits in the pty for the next one.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line.h"

static int	port_pty_open(struct port *, char *, size_t);
static void	port_pty_close(struct port *);
static void	port_pty_release(struct port *);

const struct port_ops port_pty_ops = {
	"pty", port_pty_open, port_pty_close, port_pty_release
};

/*
 * Create a pseudo-terminal in raw mode and return its master, with the
 * slave's path in name and its descriptor in *slave.
 */
int
port_pty_create(const struct addr *a, char *name, size_t namelen, int *slave,
    char *err, size_t errlen)
{
	char	msg[LINE_ERRLEN];
	int	master;

	if ((master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK)) == -1) {
		snprintf(err, errlen, "posix_openpt: %s", strerror(errno));
		return (-1);
	}
	if (grantpt(master) == -1 || unlockpt(master) == -1 ||
	    ptsname_r(master, name, namelen) != 0) {
		snprintf(err, errlen, "pty set-up: %s", strerror(errno));
		close(master);
		return (-1);
	}
	if ((*slave = open(name, O_RDWR | O_NOCTTY)) == -1) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		close(master);
		return (-1);
	}
	if (port_tty_apply(*slave, a, msg, sizeof(msg)) == -1) {
		snprintf(err, errlen, "%s: %s", name, msg);
		close(*slave);
		close(master);
		return (-1);
	}
	fcntl(master, F_SETFD, FD_CLOEXEC);
	fcntl(*slave, F_SETFD, FD_CLOEXEC);
	return (master);
}

/* Create the pty and link it at the address's path. */
static int
port_pty_open(struct port *p, char *err, size_t errlen)
{
	char		name[PATH_MAX];
	struct stat	st;
	int		master, slave;

	if (lstat(p->addr.path, &st) == 0 && !S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a symbolic link; "
		    "not replacing it", p->addr.path);
		return (-1);
	}
	master = port_pty_create(&p->addr, name, sizeof(name), &slave, err,
	    errlen);
	if (master == -1)
		return (-1);
	if ((unlink(p->addr.path) == -1 && errno != ENOENT) ||
	    symlink(name, p->addr.path) == -1) {
		snprintf(err, errlen, "cannot link %s to %s: %s", p->addr.path,
		    name, strerror(errno));
		close(slave);
		close(master);
		return (-1);
	}
	p->fd = master;
	p->aux_fd = slave;
	log_info("port %s: pty %s linked at %s", p->name, name, p->addr.path);
	return (0);
}

/* Close the pty and remove its link if it is still ours. */
static void
port_pty_close(struct port *p)
{
	char	name[PATH_MAX], target[PATH_MAX];
	ssize_t	n;

	if (p->fd != -1 && ptsname_r(p->fd, name, sizeof(name)) == 0 &&
	    (n = readlink(p->addr.path, target, sizeof(target) - 1)) > 0) {
		target[n] = '\0';
		if (strcmp(name, target) == 0)
			unlink(p->addr.path);
	}
	if (p->aux_fd != -1)
		close(p->aux_fd);
	if (p->fd != -1)
		close(p->fd);
	p->fd = p->aux_fd = -1;
}

/* A pty port holds nothing beyond its line. */
static void
port_pty_release(struct port *p)
{
	(void)p;
}
