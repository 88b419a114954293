/*
 * Serial device ports.  A device path is resolved with realpath() first,
 * since udev links are symlinks and libserialport does not follow them.
 * Real serial devices go through libserialport; pseudo-terminal paths,
 * which libserialport refuses, go through plain termios (port-tty.c).
 * Either way the line is held exclusively: flock and TIOCEXCL.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libserialport.h>

#include "line.h"

static int	port_serial_open(struct port *, char *, size_t);
static void	port_serial_close(struct port *);
static void	port_serial_release(struct port *);
static int	port_serial_fail(struct port *, const char *, const char *,
		    char *, size_t);

const struct port_ops port_serial_ops = {
	"device", port_serial_open, port_serial_close, port_serial_release
};

/*
 * Resolve a device path (udev links are symlinks) into real, and write in
 * shown how messages name it: "PATH" or "PATH (REAL)".
 */
int
port_serial_resolve(const char *path, char *real, char *shown,
    size_t shownlen, char *err, size_t errlen)
{
	if (realpath(path, real) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (strcmp(path, real) == 0)
		snprintf(shown, shownlen, "%s", path);
	else
		snprintf(shown, shownlen, "%s (%s)", path, real);
	return (0);
}

/* Report a libserialport failure and free the half-open port. */
static int
port_serial_fail(struct port *p, const char *path, const char *what,
    char *err, size_t errlen)
{
	char	*msg;

	msg = sp_last_error_message();
	snprintf(err, errlen, "%s: %s: %s", path, what,
	    msg != NULL ? msg : "failed");
	if (msg != NULL)
		sp_free_error_message(msg);
	if (p->sp != NULL) {
		if (p->fd != -1)
			port_tty_unlock(p->fd);
		sp_close(p->sp);
		sp_free_port(p->sp);
	}
	p->sp = NULL;
	p->fd = -1;
	return (-1);
}

/* Open a device path: libserialport for serial devices, termios for ptys. */
static int
port_serial_open(struct port *p, char *err, size_t errlen)
{
	static const enum sp_parity parities[] = { SP_PARITY_NONE,
	    SP_PARITY_ODD, SP_PARITY_EVEN, SP_PARITY_MARK, SP_PARITY_SPACE };
	static const enum sp_flowcontrol flows[] = { SP_FLOWCONTROL_NONE,
	    SP_FLOWCONTROL_RTSCTS, SP_FLOWCONTROL_XONXOFF,
	    SP_FLOWCONTROL_DTRDSR };
	char		 real[PATH_MAX], shown[2 * PATH_MAX + 4];
	struct sp_port	*sp;
	int		 fd;

	if (port_serial_resolve(p->addr.path, real, shown, sizeof(shown), err,
	    errlen) == -1)
		return (-1);
	if (port_tty_is_pty(real))
		return (port_tty_open(p, real, shown, err, errlen));

	if (sp_get_port_by_name(real, &sp) != SP_OK) {
		snprintf(err, errlen, "%s: not a serial port", shown);
		return (-1);
	}
	p->sp = sp;
	p->fd = -1;
	if (sp_open(sp, SP_MODE_READ_WRITE) != SP_OK)
		return (port_serial_fail(p, shown, "open", err, errlen));
	if (sp_get_port_handle(sp, &fd) != SP_OK)
		return (port_serial_fail(p, shown, "handle", err, errlen));
	if (port_tty_lock(fd, shown, err, errlen) == -1) {
		sp_close(sp);
		sp_free_port(sp);
		p->sp = NULL;
		return (-1);
	}
	p->fd = fd;
	if (sp_set_baudrate(sp, p->addr.baud) != SP_OK)
		return (port_serial_fail(p, shown, "baud rate", err, errlen));
	if (sp_set_bits(sp, p->addr.databits) != SP_OK)
		return (port_serial_fail(p, shown, "data bits", err, errlen));
	if (sp_set_parity(sp, parities[p->addr.parity]) != SP_OK)
		return (port_serial_fail(p, shown, "parity", err, errlen));
	if (sp_set_stopbits(sp, p->addr.stopbits) != SP_OK)
		return (port_serial_fail(p, shown, "stop bits", err, errlen));
	if (sp_set_flowcontrol(sp, flows[p->addr.flow]) != SP_OK)
		return (port_serial_fail(p, shown, "flow control", err, errlen));
	p->locked = 1;
	return (0);
}

/* Close a device line and give up its lock. */
static void
port_serial_close(struct port *p)
{
	if (p->sp == NULL) {
		port_tty_close(p);
		return;
	}
	if (p->fd != -1 && p->locked)
		port_tty_unlock(p->fd);
	sp_close(p->sp);
	sp_free_port(p->sp);
	p->sp = NULL;
	p->fd = -1;
	p->locked = 0;
}

/* A device port holds nothing beyond its line. */
static void
port_serial_release(struct port *p)
{
	(void)p;
}
