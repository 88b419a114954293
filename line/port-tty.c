/*
 * Terminal lines through plain termios: device paths that are
 * pseudo-terminals (libserialport refuses them), and the line settings,
 * exclusive locking and raw mode every tty port shares.
 */
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "line.h"

static int	port_tty_same(struct port *, int, const char *, const char *,
		    char *, size_t);
static pid_t	port_tty_ctty(dev_t);

/* Tell whether a path names a pseudo-terminal slave device. */
int
port_tty_is_pty(const char *path)
{
	struct stat	st;

	if (stat(path, &st) == -1 || !S_ISCHR(st.st_mode))
		return (0);
	/* UNIX98 pty slaves use majors 136 to 143. */
	return (major(st.st_rdev) >= 136 && major(st.st_rdev) <= 143);
}

/* Take a line for muxd alone: flock, then TIOCEXCL against new opens. */
int
port_tty_lock(int fd, const char *path, char *err, size_t errlen)
{
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			snprintf(err, errlen, "%s is busy: another program "
			    "has it locked", path);
		else
			snprintf(err, errlen, "%s: flock: %s", path,
			    strerror(errno));
		return (-1);
	}
	if (ioctl(fd, TIOCEXCL) == -1) {
		snprintf(err, errlen, "%s: TIOCEXCL: %s", path,
		    strerror(errno));
		flock(fd, LOCK_UN);
		return (-1);
	}
	return (0);
}

/* Give a line back: TIOCNXCL and unlock, before closing it. */
void
port_tty_unlock(int fd)
{
	ioctl(fd, TIOCNXCL);
	flock(fd, LOCK_UN);
}

/* Put a terminal in raw mode with the address's line settings. */
int
port_tty_apply(int fd, const struct addr *a, char *err, size_t errlen)
{
	struct termios	t;

	if (tcgetattr(fd, &t) == -1) {
		snprintf(err, errlen, "tcgetattr: %s", strerror(errno));
		return (-1);
	}
	cfmakeraw(&t);
	if (cfsetspeed(&t, a->baud) == -1) {
		snprintf(err, errlen, "baud rate %d: %s", a->baud,
		    strerror(errno));
		return (-1);
	}
	t.c_cflag &= ~(CSIZE | PARENB | PARODD | CMSPAR | CSTOPB | CRTSCTS);
	t.c_cflag |= CLOCAL | CREAD;
	switch (a->databits) {
	case 5:
		t.c_cflag |= CS5;
		break;
	case 6:
		t.c_cflag |= CS6;
		break;
	case 7:
		t.c_cflag |= CS7;
		break;
	default:
		t.c_cflag |= CS8;
		break;
	}
	switch (a->parity) {
	case ADDR_PARITY_NONE:
		break;
	case ADDR_PARITY_ODD:
		t.c_cflag |= PARENB | PARODD;
		break;
	case ADDR_PARITY_EVEN:
		t.c_cflag |= PARENB;
		break;
	case ADDR_PARITY_MARK:
		t.c_cflag |= PARENB | PARODD | CMSPAR;
		break;
	case ADDR_PARITY_SPACE:
		t.c_cflag |= PARENB | CMSPAR;
		break;
	}
	if (a->stopbits == 2)
		t.c_cflag |= CSTOPB;
	t.c_iflag &= ~(IXON | IXOFF | IXANY);
	switch (a->flow) {
	case ADDR_FLOW_NONE:
		break;
	case ADDR_FLOW_RTSCTS:
		t.c_cflag |= CRTSCTS;
		break;
	case ADDR_FLOW_XONXOFF:
		t.c_iflag |= IXON | IXOFF;
		break;
	case ADDR_FLOW_DTRDSR:
		snprintf(err, errlen, "flow=dtrdsr needs a serial device "
		    "(termios has no DTR/DSR flow control)");
		return (-1);
	}
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &t) == -1) {
		snprintf(err, errlen, "tcsetattr: %s", strerror(errno));
		return (-1);
	}
	return (0);
}

/* Open a pseudo-terminal device path as a port's line. */
int
port_tty_open(struct port *p, const char *path, const char *shown, char *err,
    size_t errlen)
{
	char	msg[LINE_ERRLEN];
	int	fd;

	if ((fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)) == -1) {
		snprintf(err, errlen, "%s: %s", shown, strerror(errno));
		return (-1);
	}
	if (port_tty_same(p, fd, path, shown, err, errlen) == -1) {
		close(fd);
		return (-1);
	}
	if (port_tty_lock(fd, shown, err, errlen) == -1) {
		close(fd);
		return (-1);
	}
	if (port_tty_apply(fd, &p->addr, msg, sizeof(msg)) == -1) {
		snprintf(err, errlen, "%s: %s", shown, msg);
		port_tty_unlock(fd);
		close(fd);
		return (-1);
	}
	p->fd = fd;
	p->locked = 1;
	return (0);
}

/*
 * Find a process whose controlling terminal is the device rdev (field 7
 * of /proc/PID/stat, the kernel's encoding of the device number): its
 * pid, or 0 when there is none.
 */
static pid_t
port_tty_ctty(dev_t rdev)
{
	unsigned int	 ma = major(rdev), mi = minor(rdev);
	long		 want = (long)((mi & 0xff) | (ma << 8) |
			    ((mi & ~0xffU) << 12));
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	char		 path[64], buf[512], *s;
	long		 tty;
	pid_t		 found = 0;

	if ((d = opendir("/proc")) == NULL)
		return (0);
	while (found == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		/* After "(comm)": state ppid pgrp session tty_nr. */
		if (fgets(buf, sizeof(buf), f) != NULL &&
		    (s = strrchr(buf, ')')) != NULL &&
		    sscanf(s + 1, " %*c %*d %*d %*d %ld", &tty) == 1 &&
		    tty == want)
			found = (pid_t)atol(de->d_name);
		fclose(f);
	}
	closedir(d);
	return (found);
}

/*
 * Check that a pseudo-terminal is one muxd may take: no session's
 * controlling terminal (a login, a shell's), and, when the port names
 * /dev/pts/N itself (not a link that follows a device), the very pty the
 * port opened first, not another one that got its number after it went
 * away (same owner, same time of birth).  -1 with why when it is not.
 */
static int
port_tty_same(struct port *p, int fd, const char *path, const char *shown,
    char *err, size_t errlen)
{
	struct stat	st;
	pid_t		pid;

	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s: %s", shown, strerror(errno));
		return (-1);
	}
	if ((pid = port_tty_ctty(st.st_rdev)) > 0) {
		snprintf(err, errlen, "%s is the controlling terminal of "
		    "process %ld (a login or a shell): not taken", shown,
		    (long)pid);
		return (-1);
	}
	if (p->addr.path == NULL || strcmp(p->addr.path, path) != 0)
		return (0);
	if (!p->ttyid.set) {
		p->ttyid.set = 1;
		p->ttyid.uid = st.st_uid;
		p->ttyid.ctim = st.st_ctim;
		return (0);
	}
	if (st.st_uid != p->ttyid.uid ||
	    st.st_ctim.tv_sec != p->ttyid.ctim.tv_sec ||
	    st.st_ctim.tv_nsec != p->ttyid.ctim.tv_nsec) {
		snprintf(err, errlen, "%s is another pseudo-terminal now "
		    "(owner uid %ld): the one this port had went away; not "
		    "taken (reload the configuration to take it)", shown,
		    (long)st.st_uid);
		return (-1);
	}
	return (0);
}

/* Close a pseudo-terminal device line, giving up the lock. */
void
port_tty_close(struct port *p)
{
	if (p->fd == -1)
		return;
	if (p->locked)
		port_tty_unlock(p->fd);
	p->locked = 0;
	close(p->fd);
	p->fd = -1;
}
