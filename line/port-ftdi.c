/*
 * FTDI adapters through libftdi: ftdi:SERIAL[,OPTION...].
 *
 * The adapter is found by its USB serial number (and vendor:product),
 * opened with libftdi, which detaches ftdi_sio and gives it back on close,
 * and set up: baud rate, frame, flow control, latency timer (1 ms unless
 * latency= says otherwise), DTR and RTS raised.
 *
 * I/O runs on asynchronous libusb transfers inside muxd's event loop: the
 * descriptors libusb polls are watched by libevent, and when one is ready
 * libusb_handle_events_timeout_completed() runs with a zero timeout, so
 * nothing ever busy-polls or blocks.  One bulk IN transfer is always
 * pending; every packet it brings starts with two modem status bytes,
 * which are stripped.  A real chip also sends those two bytes alone every
 * latency period while idle; QEMU's model does not, and nothing here
 * depends on them: an IN transfer simply stays pending until data comes.
 *
 * port.c sees an ordinary line: one end of a socketpair, the "bridge",
 * is the port's fd.  Bytes from the adapter are written into the bridge;
 * bytes port.c writes into it are read here, one bulk OUT transfer at a
 * time.  Both socket buffers are kept small, so that a slow adapter holds
 * back port.c (which then queues in its outq, bounded), and a port.c that
 * stops reading holds back the adapter (the IN transfer is not resubmitted
 * until the bridge takes what is pending).
 *
 * An unplugged adapter fails its transfers with LIBUSB_TRANSFER_NO_DEVICE;
 * the port is then taken down from a fresh event, outside libusb's
 * handler, and port.c reopens it with backoff, by serial number again.
 */
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ftdi.h>
#include <libusb.h>

#include "line.h"

#define PORT_FTDI_IN_SIZE	4096	/* asked of an IN transfer */
#define PORT_FTDI_OUT_SIZE	4096	/* most in an OUT transfer */
#define PORT_FTDI_SOCKBUF	4096	/* bridge socket buffers */
#define PORT_FTDI_CLOSE_MS	500	/* wait for cancelled transfers */

/*
 * A port's adapter.  pend holds what the adapter sent that the bridge
 * did not take yet, from pendoff to npend; no IN transfer is pending
 * while it is not empty.
 */
struct port_ftdi {
	struct port	*port;
	struct ftdi_context *ftdi;	/* while open, or opening */
	int		 open;		/* the USB device is open */
	int		 bridge;	/* our end; port->fd is the other */
	struct event	*ev_bridge_in;	/* bytes from port.c */
	struct event	*ev_bridge_out;	/* room for adapter bytes */
	struct event	*ev_fail;	/* deferred port_down */
	struct event	**ev_usb;	/* one per libusb pollfd */
	size_t		 nusb;
	int		 usb_dirty;	/* libusb's pollfds changed */
	struct libusb_transfer *in;
	struct libusb_transfer *out;
	int		 in_busy;
	int		 out_busy;
	unsigned char	 inbuf[PORT_FTDI_IN_SIZE];
	unsigned char	 outbuf[PORT_FTDI_OUT_SIZE];
	unsigned char	 pend[PORT_FTDI_IN_SIZE];
	size_t		 npend;
	size_t		 pendoff;
	unsigned char	 latency;	/* as read back */
	int		*nports;	/* probe: the adapter's ports */
	char		 why[LINE_ERRLEN];
};

static int	port_ftdi_open(struct port *, char *, size_t);
static void	port_ftdi_close(struct port *);
static void	port_ftdi_release(struct port *);
static int	port_ftdi_find(struct port_ftdi *, const struct addr *, int,
		    char *, size_t);
static int	port_ftdi_setup(struct port_ftdi *, const struct addr *,
		    char *, size_t);
static int	port_ftdi_bridge(struct port_ftdi *, char *, size_t);
static void	port_ftdi_usb_sync(struct port_ftdi *);
static void	port_ftdi_usb_unwatch(struct port_ftdi *);
static void	port_ftdi_usb_cb(evutil_socket_t, short, void *);
static void	port_ftdi_pollfd_added(int, short, void *);
static void	port_ftdi_pollfd_removed(int, void *);
static int	port_ftdi_submit_in(struct port_ftdi *);
static void	port_ftdi_in_done(struct libusb_transfer *);
static void	port_ftdi_out_done(struct libusb_transfer *);
static void	port_ftdi_bridge_in_cb(evutil_socket_t, short, void *);
static void	port_ftdi_bridge_out_cb(evutil_socket_t, short, void *);
static int	port_ftdi_flush(struct port_ftdi *);
static void	port_ftdi_fail(struct port_ftdi *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	port_ftdi_fail_cb(evutil_socket_t, short, void *);
static const char *port_ftdi_status(enum libusb_transfer_status);

const struct port_ops port_ftdi_ops = {
	"ftdi", port_ftdi_open, port_ftdi_close, port_ftdi_release
};

/* Name a transfer status for messages. */
static const char *
port_ftdi_status(enum libusb_transfer_status status)
{
	switch (status) {
	case LIBUSB_TRANSFER_COMPLETED:
		return ("completed");
	case LIBUSB_TRANSFER_ERROR:
		return ("transfer error");
	case LIBUSB_TRANSFER_TIMED_OUT:
		return ("timed out");
	case LIBUSB_TRANSFER_CANCELLED:
		return ("cancelled");
	case LIBUSB_TRANSFER_STALL:
		return ("endpoint stalled");
	case LIBUSB_TRANSFER_NO_DEVICE:
		return ("adapter unplugged");
	case LIBUSB_TRANSFER_OVERFLOW:
		return ("overflow");
	}
	return ("unknown status");
}

/*
 * Find the adapter by serial number among the devices of its vendor and
 * product, and open it unless only probing.  Returns 0, or -1 with a
 * message.
 */
static int
port_ftdi_find(struct port_ftdi *st, const struct addr *a, int probe,
    char *err, size_t errlen)
{
	struct ftdi_device_list	*list, *d;
	struct libusb_config_descriptor *cfg;
	char			 serial[128];
	int			 n, r, found = 0;

	n = ftdi_usb_find_all(st->ftdi, &list, a->usb_vendor, a->usb_product);
	if (n < 0) {
		snprintf(err, errlen, "ftdi:%s: cannot list USB devices: %s",
		    a->serial, ftdi_get_error_string(st->ftdi));
		return (-1);
	}
	for (d = list; d != NULL; d = d->next) {
		serial[0] = '\0';
		if (ftdi_usb_get_strings2(st->ftdi, d->dev, NULL, 0, NULL, 0,
		    serial, sizeof(serial)) < 0)
			continue;
		if (strcmp(serial, a->serial) != 0)
			continue;
		found = 1;
		if (probe && st->nports != NULL &&
		    libusb_get_config_descriptor(d->dev, 0, &cfg) == 0) {
			*st->nports = cfg->bNumInterfaces;
			libusb_free_config_descriptor(cfg);
		}
		if (probe)
			break;
		if ((r = ftdi_usb_open_dev(st->ftdi, d->dev)) < 0) {
			snprintf(err, errlen, "ftdi:%s: cannot open the "
			    "adapter (%04x:%04x): %s%s", a->serial,
			    a->usb_vendor, a->usb_product,
			    ftdi_get_error_string(st->ftdi),
			    r == -4 ? " (no permission? the room's udev "
			    "rules from muxd-udev(8) give it to group muxd)" :
			    r == -5 ? " (busy: another program holds it)" :
			    "");
			ftdi_list_free(&list);
			return (-1);
		}
		break;
	}
	ftdi_list_free(&list);
	if (!found) {
		snprintf(err, errlen, "ftdi:%s: no adapter %04x:%04x with "
		    "serial number %s is plugged in (%d of that kind seen)",
		    a->serial, a->usb_vendor, a->usb_product, a->serial, n);
		return (-1);
	}
	st->open = !probe;
	return (0);
}

/*
 * Tell whether an adapter is plugged in, for muxd -nn, without taking it:
 * 0 with its number of ports (USB interfaces, from its configuration
 * descriptor: 2 on an FT2232, 4 on an FT4232; 1 when it cannot be read)
 * in *nports, or -1 with a message.
 */
int
port_ftdi_probe(const struct addr *a, int *nports, char *err, size_t errlen)
{
	struct port_ftdi	st;
	int			r;

	memset(&st, 0, sizeof(st));
	*nports = 1;
	if ((st.ftdi = ftdi_new()) == NULL) {
		snprintf(err, errlen, "ftdi:%s: cannot initialise libftdi",
		    a->serial);
		return (-1);
	}
	st.nports = nports;
	r = port_ftdi_find(&st, a, 1, err, errlen);
	ftdi_free(st.ftdi);
	return (r);
}

/* Set the line up: baud rate, frame, flow control, latency, DTR/RTS. */
static int
port_ftdi_setup(struct port_ftdi *st, const struct addr *a, char *err,
    size_t errlen)
{
	static const enum ftdi_parity_type parities[] = { NONE, ODD, EVEN,
	    MARK, SPACE };
	struct ftdi_context	*f = st->ftdi;
	const char		*what;
	int			 r;

	what = "baud rate";
	if ((r = ftdi_set_baudrate(f, a->baud)) < 0)
		goto fail;
	what = "line properties";
	if ((r = ftdi_set_line_property2(f, a->databits == 7 ? BITS_7 : BITS_8,
	    a->stopbits == 2 ? STOP_BIT_2 : STOP_BIT_1, parities[a->parity],
	    BREAK_OFF)) < 0)
		goto fail;
	what = "flow control";
	switch (a->flow) {
	case ADDR_FLOW_NONE:
		r = ftdi_setflowctrl(f, SIO_DISABLE_FLOW_CTRL);
		break;
	case ADDR_FLOW_RTSCTS:
		r = ftdi_setflowctrl(f, SIO_RTS_CTS_HS);
		break;
	case ADDR_FLOW_DTRDSR:
		r = ftdi_setflowctrl(f, SIO_DTR_DSR_HS);
		break;
	case ADDR_FLOW_XONXOFF:
		r = ftdi_setflowctrl_xonxoff(f, 0x11, 0x13);
		break;
	}
	if (r < 0)
		goto fail;
	what = "latency timer";
	if ((r = ftdi_set_latency_timer(f, (unsigned char)a->latency)) < 0 ||
	    (r = ftdi_get_latency_timer(f, &st->latency)) < 0)
		goto fail;
	if (st->latency != a->latency)
		log_warnx("port %s: the adapter's latency timer reads back %d "
		    "ms, not %d", st->port->name, st->latency, a->latency);
	what = "DTR and RTS";
	if ((r = ftdi_setdtr_rts(f, 1, 1)) < 0)
		goto fail;
	what = "flush";
	if ((r = ftdi_tcioflush(f)) < 0)
		goto fail;
	return (0);

fail:
	snprintf(err, errlen, "ftdi:%s: %s: %s", a->serial, what,
	    ftdi_get_error_string(f));
	return (-1);
}

/* Make the socketpair that port.c uses as the line. */
static int
port_ftdi_bridge(struct port_ftdi *st, char *err, size_t errlen)
{
	struct port	*p = st->port;
	int		 sv[2], i, size = PORT_FTDI_SOCKBUF;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
	    sv) == -1) {
		snprintf(err, errlen, "ftdi:%s: socketpair: %s",
		    p->addr.serial, strerror(errno));
		return (-1);
	}
	for (i = 0; i < 2; i++) {
		setsockopt(sv[i], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
		setsockopt(sv[i], SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	}
	p->fd = sv[0];
	st->bridge = sv[1];
	st->ev_bridge_in = event_new(port_base(), st->bridge,
	    EV_READ | EV_PERSIST, port_ftdi_bridge_in_cb, st);
	st->ev_bridge_out = event_new(port_base(), st->bridge, EV_WRITE,
	    port_ftdi_bridge_out_cb, st);
	if (st->ev_bridge_in == NULL || st->ev_bridge_out == NULL) {
		snprintf(err, errlen, "ftdi:%s: cannot allocate events",
		    p->addr.serial);
		return (-1);
	}
	event_add(st->ev_bridge_in, NULL);
	return (0);
}

/* Note that libusb polls a new descriptor. */
static void
port_ftdi_pollfd_added(int fd, short events, void *arg)
{
	struct port_ftdi	*st = arg;

	(void)fd;
	(void)events;
	st->usb_dirty = 1;
}

/* Note that libusb no longer polls a descriptor. */
static void
port_ftdi_pollfd_removed(int fd, void *arg)
{
	struct port_ftdi	*st = arg;

	(void)fd;
	st->usb_dirty = 1;
}

/* Stop watching libusb's descriptors. */
static void
port_ftdi_usb_unwatch(struct port_ftdi *st)
{
	size_t	i;

	for (i = 0; i < st->nusb; i++)
		event_free(st->ev_usb[i]);
	free(st->ev_usb);
	st->ev_usb = NULL;
	st->nusb = 0;
}

/* Watch exactly the descriptors libusb polls now. */
static void
port_ftdi_usb_sync(struct port_ftdi *st)
{
	const struct libusb_pollfd	**fds;
	size_t				  i, n = 0;
	short				  what;

	port_ftdi_usb_unwatch(st);
	st->usb_dirty = 0;
	if ((fds = libusb_get_pollfds(st->ftdi->usb_ctx)) == NULL)
		return;
	while (fds[n] != NULL)
		n++;
	if ((st->ev_usb = calloc(n, sizeof(*st->ev_usb))) == NULL && n > 0) {
		libusb_free_pollfds(fds);
		port_ftdi_fail(st, "ftdi:%s: out of memory",
		    st->port->addr.serial);
		return;
	}
	for (i = 0; i < n; i++) {
		what = EV_PERSIST;
		if (fds[i]->events & POLLIN)
			what |= EV_READ;
		if (fds[i]->events & POLLOUT)
			what |= EV_WRITE;
		st->ev_usb[i] = event_new(port_base(), fds[i]->fd, what,
		    port_ftdi_usb_cb, st);
		if (st->ev_usb[i] == NULL) {
			st->nusb = i;
			libusb_free_pollfds(fds);
			port_ftdi_fail(st, "ftdi:%s: cannot allocate events",
			    st->port->addr.serial);
			return;
		}
		event_add(st->ev_usb[i], NULL);
	}
	st->nusb = n;
	libusb_free_pollfds(fds);
}

/* Let libusb handle what is ready on its descriptors, without waiting. */
static void
port_ftdi_usb_cb(evutil_socket_t fd, short what, void *arg)
{
	struct port_ftdi	*st = arg;
	struct timeval		 zero = { 0, 0 };

	(void)fd;
	(void)what;
	if (!st->open)
		return;
	libusb_handle_events_timeout_completed(st->ftdi->usb_ctx, &zero, NULL);
	if (st->open && st->usb_dirty)
		port_ftdi_usb_sync(st);
}

/* Take the port down from a fresh event, outside libusb's handler. */
static void
port_ftdi_fail(struct port_ftdi *st, const char *fmt, ...)
{
	struct timeval	zero = { 0, 0 };
	va_list		ap;

	if (evtimer_pending(st->ev_fail, NULL))
		return;
	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	evtimer_add(st->ev_fail, &zero);
}

/* The deferred port_down. */
static void
port_ftdi_fail_cb(evutil_socket_t fd, short what, void *arg)
{
	struct port_ftdi	*st = arg;

	(void)fd;
	(void)what;
	if (st->port->state == PORT_UP)
		port_down(st->port, "%s", st->why);
}

/* Ask the adapter for more bytes. */
static int
port_ftdi_submit_in(struct port_ftdi *st)
{
	int	r;

	libusb_fill_bulk_transfer(st->in, st->ftdi->usb_dev, st->ftdi->out_ep,
	    st->inbuf, sizeof(st->inbuf), port_ftdi_in_done, st, 0);
	if ((r = libusb_submit_transfer(st->in)) != 0) {
		port_ftdi_fail(st, "ftdi:%s: read: %s", st->port->addr.serial,
		    libusb_strerror(r));
		return (-1);
	}
	st->in_busy = 1;
	return (0);
}

/*
 * Write what the adapter sent into the bridge.  Returns 1 when all of it
 * went, 0 when the bridge is full (it is then watched for room).
 */
static int
port_ftdi_flush(struct port_ftdi *st)
{
	ssize_t	n;

	while (st->pendoff < st->npend) {
		n = write(st->bridge, st->pend + st->pendoff,
		    st->npend - st->pendoff);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN) {
			event_add(st->ev_bridge_out, NULL);
			return (0);
		}
		if (n == -1) {
			port_ftdi_fail(st, "ftdi:%s: bridge: %s",
			    st->port->addr.serial, strerror(errno));
			return (0);
		}
		st->pendoff += n;
	}
	st->npend = st->pendoff = 0;
	return (1);
}

/*
 * An IN transfer is done: strip the two status bytes that start each
 * packet, pass the data on, and ask for more once the bridge took it.
 */
static void
port_ftdi_in_done(struct libusb_transfer *xfer)
{
	struct port_ftdi	*st = xfer->user_data;
	size_t			 mps, off, n;

	st->in_busy = 0;
	if (!st->open || xfer->status == LIBUSB_TRANSFER_CANCELLED)
		return;
	if (xfer->status != LIBUSB_TRANSFER_COMPLETED) {
		port_ftdi_fail(st, "ftdi:%s: %s", st->port->addr.serial,
		    port_ftdi_status(xfer->status));
		return;
	}
	mps = st->ftdi->max_packet_size > 2 ? st->ftdi->max_packet_size : 64;
	for (off = 0; off < (size_t)xfer->actual_length; off += mps) {
		n = (size_t)xfer->actual_length - off;
		if (n > mps)
			n = mps;
		if (n <= 2)
			continue;
		memcpy(st->pend + st->npend, xfer->buffer + off + 2, n - 2);
		st->npend += n - 2;
	}
	if (port_ftdi_flush(st))
		port_ftdi_submit_in(st);
}

/* The bridge has room again: pass the rest on, then read the adapter. */
static void
port_ftdi_bridge_out_cb(evutil_socket_t fd, short what, void *arg)
{
	struct port_ftdi	*st = arg;

	(void)fd;
	(void)what;
	if (st->open && !st->in_busy && port_ftdi_flush(st))
		port_ftdi_submit_in(st);
}

/* Bytes from port.c: send them to the adapter, one transfer at a time. */
static void
port_ftdi_bridge_in_cb(evutil_socket_t fd, short what, void *arg)
{
	struct port_ftdi	*st = arg;
	ssize_t			 n;
	int			 r;

	(void)what;
	if (st->out_busy || !st->open)
		return;
	n = read(fd, st->outbuf, sizeof(st->outbuf));
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		port_ftdi_fail(st, "ftdi:%s: bridge closed",
		    st->port->addr.serial);
		return;
	}
	libusb_fill_bulk_transfer(st->out, st->ftdi->usb_dev, st->ftdi->in_ep,
	    st->outbuf, (int)n, port_ftdi_out_done, st, 0);
	if ((r = libusb_submit_transfer(st->out)) != 0) {
		port_ftdi_fail(st, "ftdi:%s: write: %s", st->port->addr.serial,
		    libusb_strerror(r));
		return;
	}
	st->out_busy = 1;
	event_del(st->ev_bridge_in);
}

/* An OUT transfer is done: take the next bytes from port.c. */
static void
port_ftdi_out_done(struct libusb_transfer *xfer)
{
	struct port_ftdi	*st = xfer->user_data;

	st->out_busy = 0;
	if (!st->open || xfer->status == LIBUSB_TRANSFER_CANCELLED)
		return;
	if (xfer->status != LIBUSB_TRANSFER_COMPLETED) {
		port_ftdi_fail(st, "ftdi:%s: %s", st->port->addr.serial,
		    port_ftdi_status(xfer->status));
		return;
	}
	if (xfer->actual_length < xfer->length)
		log_warnx("port %s: adapter took %d of %d bytes",
		    st->port->name, xfer->actual_length, xfer->length);
	event_add(st->ev_bridge_in, NULL);
}

/* Open the adapter by serial number and start its transfers. */
static int
port_ftdi_open(struct port *p, char *err, size_t errlen)
{
	struct port_ftdi	*st = p->ftdi;

	if (st == NULL) {
		if ((st = calloc(1, sizeof(*st))) == NULL ||
		    (st->ev_fail = evtimer_new(port_base(), port_ftdi_fail_cb,
		    st)) == NULL) {
			free(st);
			snprintf(err, errlen, "ftdi:%s: out of memory",
			    p->addr.serial);
			return (-1);
		}
		st->port = p;
		st->bridge = -1;
		p->ftdi = st;
	}
	/*
	 * A fresh libftdi (and libusb) context for every attempt: a context
	 * kept across an unplug may not see the adapter come back.
	 */
	if ((st->ftdi = ftdi_new()) == NULL) {
		snprintf(err, errlen, "ftdi:%s: cannot initialise libftdi",
		    p->addr.serial);
		return (-1);
	}
	/* Give ftdi_sio its interface back when muxd lets go. */
	st->ftdi->module_detach_mode = AUTO_DETACH_REATACH_SIO_MODULE;
	if (ftdi_set_interface(st->ftdi, p->addr.interface == 0 ?
	    INTERFACE_ANY : (enum ftdi_interface)p->addr.interface) < 0) {
		snprintf(err, errlen, "ftdi:%s: interface: %s", p->addr.serial,
		    ftdi_get_error_string(st->ftdi));
		port_ftdi_close(p);
		return (-1);
	}
	if (port_ftdi_find(st, &p->addr, 0, err, errlen) == -1) {
		port_ftdi_close(p);
		return (-1);
	}
	/*
	 * Transfers belong to one opening: a submitted transfer keeps a
	 * reference to its device until it is freed, and must not outlive
	 * the libusb context.
	 */
	if ((st->in = libusb_alloc_transfer(0)) == NULL ||
	    (st->out = libusb_alloc_transfer(0)) == NULL) {
		snprintf(err, errlen, "ftdi:%s: cannot allocate USB transfers",
		    p->addr.serial);
		port_ftdi_close(p);
		return (-1);
	}
	if (port_ftdi_setup(st, &p->addr, err, errlen) == -1 ||
	    port_ftdi_bridge(st, err, errlen) == -1) {
		port_ftdi_close(p);
		return (-1);
	}
	libusb_set_pollfd_notifiers(st->ftdi->usb_ctx, port_ftdi_pollfd_added,
	    port_ftdi_pollfd_removed, st);
	port_ftdi_usb_sync(st);
	st->npend = st->pendoff = 0;
	if (port_ftdi_submit_in(st) == -1) {
		snprintf(err, errlen, "%s", st->why);
		evtimer_del(st->ev_fail);
		port_ftdi_close(p);
		return (-1);
	}
	log_info("port %s: FTDI adapter %s (%04x:%04x, chip type %d), "
	    "latency %d ms", p->name, p->addr.serial, p->addr.usb_vendor,
	    p->addr.usb_product, (int)st->ftdi->type, st->latency);
	return (0);
}

/*
 * Close the adapter: cancel the transfers and let them finish, free them,
 * give the interface back, free the libftdi context, close the bridge.
 * Transfers that do not finish in time are left with their context,
 * which is then never freed, rather than freed under them.
 */
static void
port_ftdi_close(struct port *p)
{
	struct port_ftdi	*st = p->ftdi;
	struct timeval		 tv = { 0, 10000 };
	int			 tries;

	if (st == NULL)
		return;
	evtimer_del(st->ev_fail);
	if (st->open) {
		if (st->in_busy)
			libusb_cancel_transfer(st->in);
		if (st->out_busy)
			libusb_cancel_transfer(st->out);
		for (tries = 0; (st->in_busy || st->out_busy) &&
		    tries < PORT_FTDI_CLOSE_MS / 10; tries++)
			libusb_handle_events_timeout_completed(
			    st->ftdi->usb_ctx, &tv, NULL);
		port_ftdi_usb_unwatch(st);
		libusb_set_pollfd_notifiers(st->ftdi->usb_ctx, NULL, NULL,
		    NULL);
		st->open = 0;
		if (st->in_busy || st->out_busy) {
			log_warnx("port %s: USB transfers did not end; "
			    "leaving them", p->name);
			st->ftdi = NULL;
		} else
			ftdi_usb_close(st->ftdi);
	}
	if (st->in != NULL && !st->in_busy)
		libusb_free_transfer(st->in);
	if (st->out != NULL && !st->out_busy)
		libusb_free_transfer(st->out);
	st->in = st->out = NULL;
	st->in_busy = st->out_busy = 0;
	if (st->ftdi != NULL)
		ftdi_free(st->ftdi);
	st->ftdi = NULL;
	if (st->ev_bridge_in != NULL)
		event_free(st->ev_bridge_in);
	if (st->ev_bridge_out != NULL)
		event_free(st->ev_bridge_out);
	st->ev_bridge_in = st->ev_bridge_out = NULL;
	if (st->bridge != -1)
		close(st->bridge);
	st->bridge = -1;
	if (p->fd != -1)
		close(p->fd);
	p->fd = -1;
	st->npend = st->pendoff = 0;
}

/* Close a port for good and free its state. */
static void
port_ftdi_release(struct port *p)
{
	struct port_ftdi	*st = p->ftdi;

	if (st == NULL)
		return;
	port_ftdi_close(p);
	event_free(st->ev_fail);
	free(st);
	p->ftdi = NULL;
}
