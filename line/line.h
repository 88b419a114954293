/*
 * line: the line library of muxd and comprog.  A line is one cabled
 * terminal, entry or confederate, reached at an address; a port is a line
 * kept open by the program that runs it.
 *
 * Interface summary:
 *
 *	addr_parse()		an address, as written everywhere:
 *				/dev/ttyUSB0,9600,8N1  pty:PATH  exec:COMMAND
 *				tcp:HOST:PORT  tcp-listen:[HOST:]PORT  ftdi:SERIAL
 *	addr_format()		the same address written back
 *	port_hooks_set()	the program's event loop, clock and callbacks
 *	port_new(), port_start(), port_free()
 *				a port for an address: opened, reopened with
 *				backoff when it fails, closed
 *	port_send()		bytes out, at once or through a bounded queue
 *	port_pause()		stop or resume reading a line
 *	port_json()		a port's state, counters and error
 *	port_exec_run()		in a child: a program's terminal, descriptors,
 *				signals and environment set up, then run
 *	serialscan_list()	the serial ports of this host
 *	log_*(), fatal()	the two error tiers, to stderr or syslog
 *
 * A port reads whenever its line is readable and hands each chunk to the
 * program's forward hook; it knows nothing of links, rounds or rules: its
 * owner is an opaque pointer the program sets and reads back (muxd keeps
 * its link there).  The library uses the event base and the clock given
 * to port_hooks_set(), and no global of the program.
 */
#ifndef LINE_H
#define LINE_H

#include <sys/types.h>
#include <sys/time.h>
#include <sys/queue.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <jansson.h>

#define LINE_ERRLEN		512	/* longest error message of a line */
#define PORT_CHUNK		4096	/* most bytes read from a line at once */
#define PORT_QUEUE_LIMIT	65536	/* default per-direction queue, bytes */

/* addr.c */
enum addr_kind {
	ADDR_DEVICE,		/* a serial device path, or a pty slave path */
	ADDR_PTY,		/* pty:PATH, a pty muxd creates, linked at PATH */
	ADDR_EXEC,		/* exec:COMMAND, a program run on a pty */
	ADDR_TCP,		/* tcp:HOST:PORT */
	ADDR_TCP_LISTEN,	/* tcp-listen:[HOST:]PORT */
	ADDR_FTDI,		/* ftdi:SERIAL, an FTDI adapter via libftdi */
	ADDR_RFC2217		/* rfc2217:HOST:PORT, a remote serial port */
};
enum addr_parity {
	ADDR_PARITY_NONE, ADDR_PARITY_ODD, ADDR_PARITY_EVEN,
	ADDR_PARITY_MARK, ADDR_PARITY_SPACE
};
enum addr_flow {
	ADDR_FLOW_NONE, ADDR_FLOW_RTSCTS, ADDR_FLOW_XONXOFF, ADDR_FLOW_DTRDSR
};
#define ADDR_ALLOW_MAX		8	/* allow= of a tcp-listen: */
struct addr_net {			/* a network: ADDRESS/BITS */
	int		 family;	/* AF_INET or AF_INET6 */
	unsigned char	 net[16];
	int		 bits;
};
struct addr {
	enum addr_kind	 kind;
	char		*path;		/* device, link path or command */
	char		*host;		/* tcp-listen: NULL loopback, "*" any */
	char		*service;	/* tcp, rfc2217: TCP port */
	int		 baud;
	int		 databits;
	int		 stopbits;
	enum addr_parity parity;
	enum addr_flow	 flow;
	/* USB adapters: ftdi:SERIAL, or serial=SERIAL on a device path */
	char		*serial;	/* USB serial number, or NULL */
	int		 usb_vendor;	/* ftdi: 0x0403 unless usb=VID:PID */
	int		 usb_product;	/* ftdi: 0x6001 unless usb=VID:PID */
	int		 latency;	/* ftdi: latency timer, ms (1) */
	int		 interface;	/* ftdi: 0 any (A), 1..4 A..D; a
					   device's tty of a chip of several,
					   0: not said */
	struct addr_net	 allow[ADDR_ALLOW_MAX];	/* tcp-listen: the peers
						   taken; none: any */
	int		 nallow;
};
int		 addr_parse(const char *, struct addr *, char *, size_t);
void		 addr_free(struct addr *);
int		 addr_copy(struct addr *, const struct addr *);
char		*addr_format(const struct addr *);
int		 addr_equal(const struct addr *, const struct addr *);
int		 addr_same_line(const struct addr *, const struct addr *);
struct sockaddr;
int		 addr_allowed(const struct addr *, const struct sockaddr *);
int		 addr_baud_valid(int);
const char	*addr_kind_name(enum addr_kind);

/* log.c */
void		 log_init(int, int);
void		 log_verbose(int);
void		 log_redirect(void (*)(int, const char *));
void		 log_set_clock(time_t (*)(void));
void		 log_warn(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 log_warnx(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 log_info(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 log_debug(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 fatal(const char *, ...)
		    __attribute__((format(printf, 1, 2), noreturn));
void		 fatalx(const char *, ...)
		    __attribute__((format(printf, 1, 2), noreturn));

/* port.c */
enum port_state { PORT_DOWN, PORT_UP, PORT_WAITING };
struct port;
/*
 * open() returns 0 with the line open in fd (the port is up), 1 when the
 * port waits for a peer (a listener, a connect in progress) or -1 with a
 * message.  close() closes the line; release() frees what outlives a line
 * (a listener, a held pty slave, a child).
 */
struct port_ops {
	const char	*name;
	int		 (*open)(struct port *, char *, size_t);
	void		 (*close)(struct port *);
	void		 (*release)(struct port *);
};
struct port {
	/*
	 * What a byte read or written touches comes first, on as few cache
	 * lines as can be: a wake-up finds them cold.
	 */
	int		 fd;		/* the line, -1 when down */
	enum port_state	 state;
	void		*owner;		/* the program's: muxd's link, or NULL */
	struct evbuffer	*outq;		/* bytes waiting to go out on this port */
	size_t		 limit;		/* outq limit */
	uint64_t	 bytes_in;
	uint64_t	 bytes_out;
	struct timeval	 last_in;
	struct timeval	 last_out;
	int		 paused;	/* not read: its peer's outq is full */
	int		 waited;	/* what is read next waited in the line:
					   it was paused, or has just come up */
	int		 midline;	/* the last byte sent did not end a
					   line (CR or LF) */
	const struct port_ops *ops;
	struct event	*ev_read;
	struct event	*ev_write;
	TAILQ_ENTRY(port) entry;
	char		*name;
	struct addr	 addr;
	struct event	*ev_retry;
	int		 backoff_ms;
	char		 error[LINE_ERRLEN];	/* why it is down */
	uint64_t	 dropped;	/* bytes dropped on a full outq */
	uint64_t	 dropping;	/* dropped in the current episode */
	uint64_t	 unrouted;	/* bytes read with no link */
	uint64_t	 downs;
	struct timeval	 since;		/* state change */
	/* kind-specific */
	int		 aux_fd;	/* pty: held slave; tcp-listen: listener */
	struct event	*ev_aux;
	pid_t		 pid;		/* exec: child */
	void		*sp;		/* libserialport handle */
	void		*data;		/* the program's own (muxd: the capture
					   of unrouted traffic) */
	int		 locked;	/* TIOCEXCL set */
	struct port_tty_id {		/* a pty device path: the one first
					   opened, its owner and birth */
		int		 set;
		uid_t		 uid;
		struct timespec	 ctim;
	}		 ttyid;
	void		*ftdi;		/* ftdi: state, port-ftdi.c */
	void		*tcp;		/* tcp: lookup, port-tcp.c */
	void		*rfc2217;	/* rfc2217: connection,
					   port-rfc2217.c */
};
TAILQ_HEAD(port_list, port);
extern struct port_list ports;

/* What a port tells its program, typed (port_hooks.event). */
enum port_event_kind {
	PORT_EVENT_UP,		/* the line came up */
	PORT_EVENT_DOWN,	/* the line went down: error says why */
	PORT_EVENT_DROP,	/* bytes for the port were dropped */
	PORT_EVENT_WRITABLE	/* its queue takes more (below half its
				   limit, or the line down) */
};
struct port_event {
	enum port_event_kind kind;
	const char	*error;		/* DOWN: why; DROP: reason, or NULL */
	uint64_t	 bytes;		/* DROP: bytes in this report */
	uint64_t	 total;		/* DROP: bytes dropped in all */
	int		 end;		/* DROP: the episode has ended */
};
enum port_dir { PORT_IN, PORT_OUT };	/* read from / written to a port */

/*
 * What the line code calls back into the program that runs it, muxd or
 * comprog, set once with port_hooks_set() before the first port_new(),
 * with the program's event loop.  forward gets each chunk read, as soon
 * as it is read; tap sees every chunk read and written, with the port's
 * owner then; event gets what happens to a line (and when its queue
 * takes more: the program holds back and reads again whom it decides);
 * unlink ends the owner of a port as the port goes (muxd: link_free());
 * closed is called as a port is freed; clock gives the program's time
 * (the loop's cached time) and must be set.  spawn starts the program
 * of an exec: port elsewhere (muxd: as the entries' own user) on the pty
 * given, returning its pid, or -1 with a reason; kill then signals that
 * program's process group, and the program is told of its end with
 * port_child_exited().  Without spawn, the program is a child of the
 * program's own.  Any other may be NULL.
 */
struct port_hooks {
	void		 (*forward)(struct port *, const unsigned char *,
			    size_t, const struct timeval *);
	void		 (*tap)(struct port *, void *, enum port_dir,
			    const unsigned char *, size_t,
			    const struct timeval *);
	void		 (*event)(struct port *, const struct port_event *);
	void		 (*unlink)(void *, const char *);
	void		 (*closed)(struct port *);
	void		 (*clock)(struct timeval *);
	pid_t		 (*spawn)(struct port *, int, char *, size_t);
	void		 (*kill)(pid_t, int);
};
void		 port_hooks_set(struct event_base *, const struct port_hooks *);
struct event_base *port_base(void);
void		 port_time(struct timeval *);
struct port	*port_new(const char *, const struct addr *, size_t);
void		 port_free(struct port *);
void		 port_start(struct port *);
void		 port_down(struct port *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 port_up(struct port *);
void		 port_restart(struct port *);
int		 port_send(struct port *, const unsigned char *, size_t);
void		 port_pause(struct port *, int);
typedef void	(*port_drained_fn)(void *, struct port *, const unsigned char *,
		    size_t, const struct timeval *);
void		 port_drain_paused(struct port *, void *, port_drained_fn,
		    const char *);
struct port	*port_find(const char *);
const char	*port_state_name(enum port_state);
json_t		*port_json(const struct port *);
void		 port_child_exited(pid_t, int);
pid_t		 port_spawn(struct port *, int, char *, size_t);
void		 port_killpg(pid_t, int);

/* port-tty.c */
extern const struct port_ops port_tty_ops;
int		 port_tty_is_pty(const char *);
int		 port_tty_lock(int, const char *, char *, size_t);
void		 port_tty_unlock(int);
int		 port_tty_apply(int, const struct addr *, char *, size_t);
int		 port_tty_open(struct port *, const char *, const char *,
		    char *, size_t);
void		 port_tty_close(struct port *);

/* port-serial.c */
extern const struct port_ops port_serial_ops;
int		 port_serial_resolve(const char *, char *, char *, size_t,
		    char *, size_t);

/* port-ftdi.c */
extern const struct port_ops port_ftdi_ops;
int		 port_ftdi_probe(const struct addr *, int *, char *, size_t);

/* port-pty.c */
extern const struct port_ops port_pty_ops;
int		 port_pty_create(const struct addr *, char *, size_t, int *,
		    char *, size_t);

/* port-exec.c */
extern const struct port_ops port_exec_ops;
/* A program port_exec_run() runs in a child (exec: ports, comprog entry). */
struct port_exec {
	int		 tty;		/* its controlling terminal, in a
					   session of its own; -1: none */
	int		 fd[3];		/* its stdin, stdout, stderr; -1: kept */
	const char *const *env;		/* set for it: NAME, value, ..., NULL */
	const char	*command;	/* run with /bin/sh -c; when NULL, */
	char *const	*argv;		/* argv[0] looked up in PATH */
	const char	*user;		/* become this user first (as root;
					   never root itself); NULL: stay */
	uid_t		 uid;		/* when user is NULL and this is not
					   0, become this uid (as root), its
					   gid the same, with no groups */
};
const char	*port_exec_run(const struct port_exec *);

/* port-rfc2217.c */
extern const struct port_ops port_rfc2217_ops;
const char	*port_rfc2217_why(const struct port *, char *, size_t);

/* port-tcp.c */
extern const struct port_ops port_tcp_ops;
extern const struct port_ops port_tcp_listen_ops;

/* serialscan.c */
json_t		*serialscan_list(char *, size_t);
int		 serialscan_usb_ports(const char *, const char *);
#define SERIALSCAN_USB_ROOT	"/sys/bus/usb/devices"

#endif /* LINE_H */
