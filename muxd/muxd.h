/*
 * muxd: serial-line multiplexer for a Turing-test contest room.
 *
 * A port is one cabled line (a judge terminal or an entity).  A link joins
 * two ports; every byte read from one end of a link is written to the other
 * end at once.  A port belongs to at most one link; bytes from an unrouted
 * port go nowhere (they still pass tap_bytes()).  Rounds create links from
 * the schedule; the control socket lets operators add and remove them.
 */
#ifndef MUXD_H
#define MUXD_H

#include <sys/types.h>
#include <sys/time.h>
#include <sys/queue.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <jansson.h>

#ifndef MUXD_VERSION
#define MUXD_VERSION "0.1.0"
#endif

#define MUXD_PROTOCOL		1	/* control protocol version */
#define MUXD_QUEUE_LIMIT	65536	/* default per-direction queue, bytes */
#define MUXD_SYNC_SEC		1	/* default: recordings synced after, s */
#define MUXD_CONTROL_PATH	"/run/muxd/muxd.sock"
#define MUXD_STATE_DIR		"/var/lib/muxd"
#define MUXD_ERRLEN		512
#define PORT_CHUNK		4096	/* most bytes read from a line at once */

/* addr.c */
enum addr_kind {
	ADDR_DEVICE,		/* a serial device path, or a pty slave path */
	ADDR_PTY,		/* pty:PATH, a pty muxd creates, linked at PATH */
	ADDR_EXEC,		/* exec:COMMAND, a program run on a pty */
	ADDR_TCP,		/* tcp:HOST:PORT */
	ADDR_TCP_LISTEN,	/* tcp-listen:[HOST:]PORT */
	ADDR_FTDI		/* ftdi:SERIAL, an FTDI adapter via libftdi */
};
enum addr_parity {
	ADDR_PARITY_NONE, ADDR_PARITY_ODD, ADDR_PARITY_EVEN,
	ADDR_PARITY_MARK, ADDR_PARITY_SPACE
};
enum addr_flow {
	ADDR_FLOW_NONE, ADDR_FLOW_RTSCTS, ADDR_FLOW_XONXOFF, ADDR_FLOW_DTRDSR
};
struct addr {
	enum addr_kind	 kind;
	char		*path;		/* device, link path or command */
	char		*host;		/* tcp: NULL means any (listen) */
	char		*service;	/* tcp port */
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
	int		 interface;	/* ftdi: 0 any (A), 1..4 A..D */
};
int		 addr_parse(const char *, struct addr *, char *, size_t);
void		 addr_free(struct addr *);
int		 addr_copy(struct addr *, const struct addr *);
char		*addr_format(const struct addr *);
int		 addr_equal(const struct addr *, const struct addr *);
int		 addr_same_line(const struct addr *, const struct addr *);
int		 addr_baud_valid(int);
const char	*addr_kind_name(enum addr_kind);

/* log.c */
void		 log_init(int, int);
void		 log_verbose(int);
void		 log_redirect(void (*)(int, const char *));
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

/* conf.c */
enum conf_kind { CONF_ENTRY, CONF_CONFEDERATE };
enum conf_assert {		/* the opening assertion, per room */
	CONF_ASSERT_OFF,	/* not checked */
	CONF_ASSERT_CHECK,	/* checked and reported */
	CONF_ASSERT_INJECT,	/* typed by muxd for the entity, reported */
	CONF_ASSERT_HOLD	/* output held from the judge until it passes */
};
struct conf_port {
	char		*name;
	char		*address;	/* as written */
	struct addr	 addr;
	int		 line;
};
struct conf_station {
	char		*name;
	int		 judge;		/* judge number, 1..99 */
	int		 left;		/* index into ports */
	int		 right;
	int		 localecho;	/* the terminal echoes by itself */
	int		 line;
};
struct conf_entity {
	char		*name;
	enum conf_kind	 kind;
	int		 port;		/* index into ports */
	char		*approved;	/* approved human name for rule 3 */
	char		*program;	/* transcript header */
	char		*contestant;
	int		 eol;		/* enum judgeterm_eol towards it */
	int		 announce;	/* send "@@nn" CR CR at link start */
	int		 line;
};
struct conf_part {			/* one judge comparing a pair */
	int		 station;	/* index into stations */
	int		 entry;		/* index into entities */
	int		 confederate;	/* index into entities */
};
struct conf_round {
	int		 number;
	struct conf_part *parts;
	size_t		 nparts;
	char		*excused;	/* as printed, or NULL */
};
struct conf {
	char		*file;
	char		*control;	/* control socket path */
	char		*state_dir;
	char		*capture_dir;
	char		*transcript_dir;
	size_t		 queue_limit;
	int		 sync_sec;	/* recordings synced after a write */
	struct conf_port *ports;
	size_t		 nports;
	struct conf_station *stations;
	size_t		 nstations;
	struct conf_entity *entities;
	size_t		 nentities;
	struct conf_round *rounds;
	size_t		 nrounds;
	char		*preset;	/* schedule preset name, or NULL */
	int		 duration;	/* round duration, seconds; 0: none */
	uint64_t	 seed;
	int		 seed_set;
	int		 convention;	/* 1996 prompt and echo for judges */
	int		 filter;	/* remove control sequences, else pass */
	enum conf_assert assertion;	/* the opening assertion policy */
	char		*typing;	/* inject: the typing model */
	char		*pattern;	/* its pcre2 pattern, NULL: default */
	int		 burst;		/* characters in 1 ms that are a burst */
};
struct conf	*conf_load(const char *, char *, size_t);
struct conf	*conf_load_string(const char *, const char *, char *, size_t);
void		 conf_free(struct conf *);
int		 conf_port_find(const struct conf *, const char *);
int		 conf_station_find(const struct conf *, const char *);
int		 conf_entity_find(const struct conf *, const char *);
const struct conf_round *conf_round_find(const struct conf *, int);

/*
 * Internal to the parser (conf.c, conf-room.c, conf-schedule.c): the state
 * of one parse, and the readers of settings that record the first error as
 * "FILE:LINE: what is wrong" and return -1.  struct config_setting_t is
 * libconfig's config_setting_t.
 */
struct config_setting_t;
struct conf_use;
struct conf_ctx {
	const char	*name;		/* file name for messages */
	const char	*basedir;	/* for relative paths, or NULL */
	char		*err;
	size_t		 errlen;
	int		 failed;
	struct conf	*conf;
	struct conf_use	*uses;		/* one per port, see conf-room.c */
};
int		 conf_error(struct conf_ctx *, const struct config_setting_t *,
		    const char *, ...)
		    __attribute__((format(printf, 3, 4)));
int		 conf_nomem(struct conf_ctx *, const struct config_setting_t *);

/* conf-include.c */
char		*conf_include_text(FILE *, const char *, char *, size_t);
int		 conf_include_check(const char *, const char *, const char *,
		    char *, size_t);
const char	*conf_include_where(const char *, const char *, char *, size_t);
int		 conf_keys(struct conf_ctx *, const struct config_setting_t *,
		    const char **, const char *);
int		 conf_string(struct conf_ctx *, const struct config_setting_t *,
		    const char *, const char *, int, const char **,
		    const struct config_setting_t **);
int		 conf_int(struct conf_ctx *, const struct config_setting_t *,
		    const char *, const char *, int, long long *,
		    const struct config_setting_t **);

/* conf-room.c: internal to the parser */
int		 conf_room_read(struct conf_ctx *,
		    const struct config_setting_t *);
void		 conf_room_free(struct conf *);

/* conf-rules.c: internal to the parser */
int		 conf_rules_read(struct conf_ctx *,
		    const struct config_setting_t *);
int		 conf_rules_station(struct conf_ctx *,
		    const struct config_setting_t *, struct conf_station *);
int		 conf_rules_entity(struct conf_ctx *,
		    const struct config_setting_t *, struct conf_entity *);

/* conf-schedule.c: internal to the parser */
int		 conf_schedule_read(struct conf_ctx *,
		    const struct config_setting_t *);

/* schedule.c */
struct schedule_triple {		/* 1-based labels: Jn En Cn */
	int		 judge;
	int		 entry;
	int		 confederate;
};
struct schedule_round {
	int		 number;
	struct schedule_triple parts[4];
	size_t		 nparts;
	const char	*excused;	/* as printed in the rules */
};
const struct schedule_round *schedule_preset(const char *, size_t *);
int		 schedule_matrix(const char *, int, int);
const char	*schedule_preset_names(void);

/* tap.c */
enum tap_dir { TAP_IN, TAP_OUT };	/* read from / written to a port */
struct port;
struct link;
typedef void (*tap_fn)(void *, const struct port *, const struct link *,
    enum tap_dir, const unsigned char *, size_t, const struct timeval *);
void		 tap_bytes(struct port *, struct link *, enum tap_dir,
		    const unsigned char *, size_t, const struct timeval *);
int		 tap_register(tap_fn, void *);
void		 tap_unregister(tap_fn, void *);

/* deadline.c */
struct deadline;
struct deadline	*deadline_new(const char *, void (*)(void *), void *);
void		 deadline_free(struct deadline *);
void		 deadline_set(struct deadline *, const struct timeval *);
void		 deadline_clear(struct deadline *);
int		 deadline_pending(const struct deadline *);

/* record.c */
struct record;
struct link;
void		 record_init(void);
void		 record_shutdown(void);
void		 record_link_open(struct link *);
void		 record_link_close(struct link *, const char *);
void		 record_port_close(struct port *);
void		 record_event(const char *, json_t *);
void		 record_link_output(struct link *, const unsigned char *,
		    size_t, const struct timeval *);
void		 record_link_note(struct link *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* record-sync.c */
void		 record_sync_init(void);
void		 record_sync_stop(void);
void		 record_sync_add(int, const char *);
void		 record_sync_flush(void);

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
	TAILQ_ENTRY(port) entry;
	char		*name;
	struct addr	 addr;
	const struct port_ops *ops;
	enum port_state	 state;
	int		 fd;		/* the line, -1 when down */
	struct event	*ev_read;
	struct event	*ev_write;
	struct event	*ev_retry;
	struct evbuffer	*outq;		/* bytes waiting to go out on this port */
	size_t		 limit;		/* outq limit */
	struct link	*link;
	int		 backoff_ms;
	char		 error[MUXD_ERRLEN];	/* why it is down */
	uint64_t	 bytes_in;
	uint64_t	 bytes_out;
	uint64_t	 dropped;	/* bytes dropped on a full outq */
	uint64_t	 dropping;	/* dropped in the current episode */
	uint64_t	 unrouted;	/* bytes read with no link */
	uint64_t	 downs;
	struct timeval	 last_in;
	struct timeval	 last_out;
	struct timeval	 since;		/* state change */
	int		 paused;	/* not read: its peer's outq is full */
	int		 waited;	/* what is read next waited in the line:
					   it was paused, or has just come up */
	/* kind-specific */
	int		 aux_fd;	/* pty: held slave; tcp-listen: listener */
	struct event	*ev_aux;
	pid_t		 pid;		/* exec: child */
	void		*sp;		/* libserialport handle */
	struct record	*record;	/* capture of unrouted traffic */
	int		 locked;	/* TIOCEXCL set */
	void		*ftdi;		/* ftdi: state, port-ftdi.c */
	void		*tcp;		/* tcp: lookup, port-tcp.c */
};
TAILQ_HEAD(port_list, port);
extern struct port_list ports;
extern struct event_base *muxd_base;

/*
 * What the line code (port*.c) calls back into the program that runs it,
 * muxd or comprog, set once with port_hooks_set() before the first
 * port_new().  forward gets each chunk read, as soon as it is read; tap
 * sees every chunk read and written; event gets "port.up", "port.down"
 * and "drop" (and owns the fields); peer and unlink concern a port's link
 * (muxd's link_peer and link_free); closed is called as a port is freed.
 * Any may be NULL.  The program also provides muxd_base, the loop, and
 * muxd_time(), its clock.
 */
struct port_hooks {
	void		 (*forward)(struct port *, const unsigned char *,
			    size_t, const struct timeval *);
	void		 (*tap)(struct port *, struct link *, enum tap_dir,
			    const unsigned char *, size_t,
			    const struct timeval *);
	void		 (*event)(const char *, json_t *);
	struct port	*(*peer)(const struct link *, const struct port *);
	void		 (*unlink)(struct link *, const char *);
	void		 (*closed)(struct port *);
};
void		 port_hooks_set(const struct port_hooks *);
struct port	*port_new(const char *, const struct addr *, size_t);
void		 port_free(struct port *);
void		 port_start(struct port *);
void		 port_down(struct port *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 port_up(struct port *);
int		 port_send(struct port *, const unsigned char *, size_t);
void		 port_pause(struct port *, int);
void		 port_drain_paused(struct port *, struct link *);
struct port	*port_find(const char *);
const char	*port_state_name(enum port_state);
json_t		*port_json(const struct port *);
void		 port_child_exited(pid_t, int);

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
int		 port_ftdi_probe(const struct addr *, char *, size_t);

/* serialscan.c: linked into muxd and muxctl */
json_t		*serialscan_list(char *, size_t);

/* scanports.c */
json_t		*scanports_json(char *, size_t);

/* cablecheck.c */
json_t		*cablecheck_start(const json_t *, int, char *, size_t);

/* port-pty.c */
extern const struct port_ops port_pty_ops;
int		 port_pty_create(const struct addr *, char *, size_t, int *,
		    char *, size_t);

/* port-exec.c */
extern const struct port_ops port_exec_ops;

/* port-tcp.c */
extern const struct port_ops port_tcp_ops;
extern const struct port_ops port_tcp_listen_ops;

/* link.c */
enum link_origin { LINK_ROUND, LINK_MANUAL };
struct link {
	TAILQ_ENTRY(link) entry;
	char		*name;
	struct port	*a;		/* judge terminal side, if any */
	struct port	*b;		/* entity side */
	enum link_origin origin;
	int		 round;		/* round number, 0 for manual */
	int		 station;	/* index into conf stations, -1 */
	int		 side;		/* 0 left, 1 right, -1 none */
	int		 entity;	/* index into conf entities, -1 */
	struct timeval	 since;
	struct record	*record;	/* capture and transcript */
	struct rules	*rules;		/* contest rules, when a judge's */
	int		 deferred;	/* the entity's output is recorded as
					   the judge gets it (rules.c) */
};
TAILQ_HEAD(link_list, link);
extern struct link_list links;

struct link	*link_new(const char *, struct port *, struct port *,
		    enum link_origin, char *, size_t);
void		 link_free(struct link *, const char *);
struct link	*link_find(const char *);
struct port	*link_peer(const struct link *, const struct port *);
void		 link_started(struct link *);
json_t		*link_json(const struct link *);
void		 link_forward(struct port *, const unsigned char *, size_t,
		    const struct timeval *);

/* rules.c */
struct rules;
int		 rules_configure(char *, size_t);
void		 rules_shutdown(void);
void		 rules_link_open(struct link *);
void		 rules_link_close(struct link *);
void		 rules_forward(struct link *, struct port *,
		    const unsigned char *, size_t, const struct timeval *, int);
int		 rules_release(struct link *, char *, size_t);
json_t		*rules_verdicts_json(void);
void		 rules_verdicts_load(json_t *);

/* round.c */
struct round_state {
	int		 active;	/* a round is running */
	int		 number;	/* the running round */
	int		 last;		/* the last round run, 0 none */
	uint64_t	 seed;		/* placement seed of the round */
	time_t		 started;	/* wall clock */
	time_t		 ends;		/* 0: no duration */
};
extern struct round_state round_cur;
int		 round_start(int, char *, size_t);
int		 round_stop(const char *);
void		 round_resume(void);
void		 round_reload(void);
json_t		*round_json(void);
json_t		*round_schedule_json(void);
int		 round_right_is_entry(uint64_t, int, size_t);

/* state.c */
void		 state_init(const char *);
int		 state_mkdirs(const char *);
int		 state_save(void);
void		 state_save_soon(void);
void		 state_keep_links(void);
void		 state_flush(void);
int		 state_load(void);

/* priv.c */
int		 priv_drop(const char *, const char **, char *, size_t);

/* control.c */
int		 control_listen(const char *, char *, size_t);
void		 control_close(void);
void		 control_event(const char *, json_t *);
int		 control_watching(void);

/* muxd.c */
extern struct conf *muxd_conf;
int		 muxd_reload(char *, size_t);
void		 muxd_time(struct timeval *);

/* muxctl.c: the control client, linked apart from muxd */
enum {
	MUXCTL_EXIT_OK = 0,
	MUXCTL_EXIT_FAILED = 1,		/* muxd replied with an error */
	MUXCTL_EXIT_USAGE = 2,
	MUXCTL_EXIT_UNREACHABLE = 3,	/* no daemon, or no answer */
	MUXCTL_EXIT_PROTOCOL = 4	/* closed early, or a malformed reply */
};
const char	*muxctl_get_str(const json_t *, const char *);

/* muxctl-cablecheck.c */
int		 muxctl_cablecheck(const char *, int, int, char **);

/* muxctl-show.c */
void		 muxctl_show(const char *, const json_t *);
void		 muxctl_show_event(const json_t *);

/* muxctl-referee.c: watch --text */
struct timespec;
void		 muxctl_referee_init(void);
void		 muxctl_referee_event(const json_t *);
int		 muxctl_referee_deadline(struct timespec *);
void		 muxctl_referee_quiet(void);
void		 muxctl_referee_end(void);

/* filter.c */
#define FILTER_LIMIT		4096	/* default longest sequence, bytes */
#define FILTER_TEXTMAX		4096	/* removed bytes kept for a report */
enum filter_kind {
	FILTER_CONTROL,		/* a run of lone C0 or C1 controls */
	FILTER_ESC,		/* ESC x, or ESC, intermediates, final */
	FILTER_CSI,		/* ESC [ or 0x9b ... final byte */
	FILTER_OSC,		/* ESC ] or 0x9d ... BEL or ST */
	FILTER_DCS,		/* ESC P or 0x90 ... ST */
	FILTER_SOS,		/* ESC X or 0x98 ... ST */
	FILTER_PM,		/* ESC ^ or 0x9e ... ST */
	FILTER_APC		/* ESC _ or 0x9f ... ST */
};
enum filter_end {
	FILTER_END_DONE,	/* ended as a terminal would end it */
	FILTER_END_ABORT,	/* CAN, SUB, or a new ESC or C1 sequence */
	FILTER_END_CUT		/* reached the limit: cut off, state reset */
};
struct filter_span {			/* one removed run, for a marker */
	enum filter_kind kind;
	enum filter_end	 end;
	const unsigned char *text;	/* its first ntext bytes */
	size_t		 ntext;
	size_t		 len;		/* bytes removed in all */
	uint64_t	 in;		/* input offset of its first byte */
	uint64_t	 out;		/* output offset where it was removed */
	int		 passed;	/* pass-through: forwarded after all */
};
struct filter {
	int		 passthrough;	/* recognise and report, remove nothing */
	size_t		 limit;
	void		(*cb)(void *, const struct filter_span *);
	void		*arg;
	uint64_t	 seqs;		/* escape sequences and strings removed */
	uint64_t	 controls;	/* lone control bytes removed */
	uint64_t	 bytes;		/* bytes removed in all */
	uint64_t	 cuts;		/* sequences cut off at the limit */
	uint64_t	 in;		/* bytes fed */
	uint64_t	 out;		/* bytes forwarded */
	/* private to filter.c */
	int		 state;
	enum filter_kind kind;
	size_t		 len;
	uint64_t	 span_in;
	uint64_t	 span_out;
	unsigned char	 text[FILTER_TEXTMAX];
};
void		 filter_init(struct filter *, int, size_t,
		    void (*)(void *, const struct filter_span *), void *);
int		 filter_byte(struct filter *, unsigned char);
void		 filter_flush(struct filter *);
size_t		 filter_feed(struct filter *, const unsigned char *, size_t,
		    unsigned char *);
int		 filter_pending(const struct filter *);
const char	*filter_kind_name(enum filter_kind);
const char	*filter_end_name(enum filter_end);

/* assertion.c */
#define ASSERTION_TEXTMAX	512	/* longest utterance checked, bytes */
#define ASSERTION_NAMEMAX	128
#define ASSERTION_NOJIT		0x1	/* assertion_pattern_new: interpreter */
enum assertion_verdict {
	ASSERTION_PENDING,	/* the text may still become the assertion */
	ASSERTION_PASS,		/* asserted with the approved name */
	ASSERTION_NAME,		/* asserted with another name */
	ASSERTION_FAIL		/* the text departs from the assertion */
};
struct assertion_result {
	enum assertion_verdict verdict;
	int		 final;		/* no later byte can change it */
	uint64_t	 offset;	/* the byte that decided it */
	char		 text[ASSERTION_TEXTMAX + 1];	/* utterance, edited */
	char		 name[ASSERTION_NAMEMAX + 1];	/* PASS, NAME */
	char		 reason[160];	/* FAIL, NAME: why, in words */
};
struct assertion_pattern;
struct assertion;
const char	*assertion_default_pattern(void);
struct assertion_pattern *assertion_pattern_new(const char *, int, char *,
		    size_t);
void		 assertion_pattern_free(struct assertion_pattern *);
int		 assertion_pattern_jit(const struct assertion_pattern *);
struct assertion *assertion_new(struct assertion_pattern *, const char *);
void		 assertion_free(struct assertion *);
int		 assertion_byte(struct assertion *, unsigned char);
enum assertion_verdict assertion_feed(struct assertion *, const void *,
		    size_t);
int		 assertion_finish(struct assertion *);
const struct assertion_result *assertion_result(const struct assertion *);
const char	*assertion_verdict_name(enum assertion_verdict);
int		 assertion_name_equal(const char *, const char *);

/* typing.c: a typing model, key delays like a person's (pure) */
struct typing {
	int		 base;		/* ms per key */
	int		 jitter;	/* +- ms, uniform */
	uint64_t	 state;		/* random generator */
};
int		 typing_parse(const char *, struct typing *, char *, size_t);
void		 typing_seed(struct typing *, uint64_t);
int		 typing_delay(struct typing *, unsigned char, unsigned char);

/* hold.c: an entity's output held back, released with its timing (pure) */
enum hold_state { HOLD_HOLDING, HOLD_RELEASING, HOLD_OPEN };
struct hold_chunk;
struct hold {
	enum hold_state	 state;
	size_t		 limit;		/* most bytes held */
	uint64_t	 held;		/* bytes ever held */
	uint64_t	 dropped;	/* bytes past the limit */
	int64_t		 delay;		/* releasing: usec each chunk is late */
	/* private to hold.c */
	unsigned char	*buf;
	size_t		 len;
	struct hold_chunk *chunks;
	size_t		 nchunks;
	size_t		 capchunks;
};
void		 hold_init(struct hold *, size_t);
void		 hold_clear(struct hold *);
size_t		 hold_push(struct hold *, const unsigned char *, size_t,
		    int64_t);
void		 hold_release(struct hold *, int64_t);
size_t		 hold_take(struct hold *, int64_t, unsigned char *, size_t,
		    int64_t *);
size_t		 hold_discard(struct hold *);
int		 hold_open(const struct hold *);

/* judgeterm.c */
#define JUDGETERM_LINEMAX	1024	/* judge line bytes kept for events */
#define JUDGETERM_ANNOUNCEMAX	8	/* "@@nn" and two CRLFs */
enum judgeterm_eol {		/* line ends sent to the entity */
	JUDGETERM_EOL_CR,
	JUDGETERM_EOL_LF,
	JUDGETERM_EOL_CRLF,
	JUDGETERM_EOL_ASIS	/* the judge's own bytes */
};
enum judgeterm_event {
	JUDGETERM_NONE,
	JUDGETERM_LINE,		/* a judge line ended */
	JUDGETERM_TURN,		/* two consecutive line ends: turn over */
	JUDGETERM_JUDGE		/* "@@nn" line: judge nn announced */
};
struct judgeterm_out {			/* what one keystroke gives */
	unsigned char	 echo[8];	/* for the judge's screen */
	size_t		 necho;
	unsigned char	 entity[2];	/* for the entity */
	size_t		 nentity;
	enum judgeterm_event event;
	int		 judge;		/* JUDGETERM_JUDGE: nn */
	const char	*line;		/* LINE, JUDGE: the line, edited */
	size_t		 linelen;	/* its length (LINEMAX bytes kept) */
};
struct judgeterm {
	int		 localecho;	/* the terminal echoes by itself */
	enum judgeterm_eol eol;
	/* private to judgeterm.c */
	int		 prompted;	/* the current line has its prompt */
	int		 col0;		/* the judge's cursor is at column 0 */
	int		 eols;		/* consecutive line ends */
	unsigned char	 eolfirst;	/* CR or LF that just ended a line */
	int		 key;		/* inside a key's escape sequence */
	size_t		 len;		/* current line length, edited */
	char		 line[JUDGETERM_LINEMAX + 1];
};
void		 judgeterm_init(struct judgeterm *, int, enum judgeterm_eol);
void		 judgeterm_byte(struct judgeterm *, unsigned char,
		    struct judgeterm_out *);
void		 judgeterm_prompt(struct judgeterm *, struct judgeterm_out *);
void		 judgeterm_screen(struct judgeterm *, const unsigned char *,
		    size_t);
size_t		 judgeterm_announce(int, enum judgeterm_eol, unsigned char *,
		    size_t);
int		 judgeterm_eol_parse(const char *, enum judgeterm_eol *);
const char	*judgeterm_eol_name(enum judgeterm_eol);

#endif /* MUXD_H */
