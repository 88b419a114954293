/*
 * muxd: start-up, signals, configuration reloads and quick mode.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "muxd.h"

#define MUXD_CONF	"/etc/muxd.conf"
#ifndef MUXD_EXAMPLES	/* the installed examples, from the Makefile */
#error "MUXD_EXAMPLES is not defined: build muxd with its Makefile"
#endif

struct event_base	*muxd_base;
struct conf		*muxd_conf;

static void	muxd_port_event(struct port *, const struct port_event *);
static void	muxd_time(struct timeval *);

/* What the line code does with what it reads, writes and reports. */
static const struct port_hooks muxd_port_hooks = {
	.forward = link_forward,
	.tap = tap_bytes,
	.event = muxd_port_event,
	.unlink = link_port_unlink,
	.closed = record_port_close,
	.clock = muxd_time,
	.spawn = spawn_run,
	.kill = spawn_kill
};

static void	muxd_usage(int) __attribute__((noreturn));
static int	muxd_check(const char *, int);
static void	muxd_probe(const struct conf *, struct conf_msgs *);
static void	muxd_signal(evutil_socket_t, short, void *);
static void	muxd_ports(const struct conf *);
static void	muxd_quick(char **, int);
static void	muxd_shutdown(void);
static void	muxd_drop(const char *, const char *);
static int	muxd_list_ports(void);
static int	muxd_has_exec(char **, int);
static int	muxd_configure(const struct conf *, char *, size_t);


/*
 * Post what happened to a line on the event bus.  An entry's program
 * (exec:) that has just started with no link is not read until it is
 * linked: what it writes first (its greeting) waits in its pty for the
 * judge it is meant for, instead of going nowhere.
 */
static void
muxd_port_event(struct port *p, const struct port_event *ev)
{
	switch (ev->kind) {
	case PORT_EVENT_UP:
		if (p->addr.kind == ADDR_EXEC && link_of(p) == NULL)
			port_pause(p, 1);
		events_port(PROTOCOL_EV_PORT_UP, p, NULL, 0, 0, 0);
		break;
	case PORT_EVENT_DOWN:
		events_port(PROTOCOL_EV_PORT_DOWN, p, ev->error, 0, 0, 0);
		break;
	case PORT_EVENT_DROP:
		events_port(PROTOCOL_EV_DROP, p, ev->error, ev->bytes,
		    ev->total, ev->end);
		break;
	case PORT_EVENT_WRITABLE:
		link_flow_writable(p);
		break;
	}
}

/*
 * Print the serial ports of this host, as JSON on one line, with the
 * holders found from their locks ("muxctl ports --local" shows them).
 */
static int
muxd_list_ports(void)
{
	json_t	*list;
	char	 msg[MUXD_ERRLEN], *s;

	if ((list = serialscan_list(msg, sizeof(msg))) == NULL) {
		fprintf(stderr, "muxd: %s\n", msg);
		return (1);
	}
	s = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	if (s == NULL) {
		fprintf(stderr, "muxd: out of memory\n");
		return (1);
	}
	printf("%s\n", s);
	free(s);
	return (fflush(stdout) == EOF ? 1 : 0);
}

/* Print the usage and exit. */
static void
muxd_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: muxd [-dnVv] [-f file] [-s socket] [-u user]\n"
	    "       muxd [-v] [-s socket] [-u user] --link address address "
	    "[--link address address ...]\n"
	    "       muxd [-f file] keygen\n"
	    "       muxd --ports\n"
	    "       muxd --help | --version\n");
	exit(status);
}

/*
 * Give the wall-clock time now, to the microsecond: the clock behind the
 * port library's port_time(), which muxd reads its times from.  It is
 * read at each read from a line, and what the read causes takes that
 * time; the loop's cached time would be the coarse clock's, to a few
 * milliseconds, and making it exact would cost a timer system call on
 * every wake-up.
 */
static void
muxd_time(struct timeval *tv)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
}

/*
 * Check that each device a configuration names exists and is free, as far
 * as can be told without taking it; each that is not is an error in msgs,
 * and a multi-port adapter named without interface= a warning.
 */
static void
muxd_probe(const struct conf *cf, struct conf_msgs *msgs)
{
	const struct conf_port	*cp;
	char			 real[PATH_MAX], shown[2 * PATH_MAX + 4];
	char			 msg[MUXD_ERRLEN / 2];
	size_t			 i;
	int			 fd, n;

	for (i = 0; i < cf->nports; i++) {
		n = 0;
		cp = &cf->ports[i];
		if (cp->addr.kind == ADDR_FTDI &&
		    port_ftdi_probe(&cp->addr, &n, msg, sizeof(msg)) == -1) {
			conf_msgs_add(msgs, CONF_ERROR, cf->file, cp->line,
			    "port '%s': %s", cp->name, msg);
			continue;
		}
		/*
		 * An adapter of several ports named by its serial number
		 * alone: which port is meant, the configuration does not
		 * say (libftdi takes port A; a udev rule from serial= alone
		 * matches every port of it).  Seen on an adapter plugged in:
		 * its USB interfaces (ftdi:) or its ttys in sysfs (serial=).
		 */
		if (cp->addr.kind == ADDR_DEVICE && cp->addr.serial != NULL &&
		    cp->addr.interface == 0)
			n = serialscan_usb_ports(SERIALSCAN_USB_ROOT,
			    cp->addr.serial);
		if ((cp->addr.kind == ADDR_FTDI || (cp->addr.kind ==
		    ADDR_DEVICE && cp->addr.serial != NULL)) &&
		    cp->addr.interface == 0 && n > 1)
			conf_msgs_add(msgs, CONF_WARNING, cf->file, cp->line,
			    "port '%s': adapter %s has %d ports, and without "
			    "interface= %s: add interface=A..%c", cp->name,
			    cp->addr.serial, n, cp->addr.kind == ADDR_FTDI ?
			    "this line is its port A" : "the path may name any "
			    "of them", 'A' + (n > 4 ? 4 : n) - 1);
		if (cp->addr.kind != ADDR_DEVICE)
			continue;
		if (port_serial_resolve(cp->addr.path, real, shown,
		    sizeof(shown), msg, sizeof(msg)) == -1) {
			conf_msgs_add(msgs, CONF_ERROR, cf->file, cp->line,
			    "port '%s': %s", cp->name, msg);
			continue;
		}
		if ((fd = open(real, O_RDWR | O_NOCTTY | O_NONBLOCK)) == -1) {
			conf_msgs_add(msgs, CONF_ERROR, cf->file, cp->line,
			    "port '%s': %s: %s", cp->name, shown,
			    strerror(errno));
			continue;
		}
		if (port_tty_lock(fd, shown, msg, sizeof(msg)) == -1) {
			close(fd);
			conf_msgs_add(msgs, CONF_ERROR, cf->file, cp->line,
			    "port '%s': %s", cp->name, msg);
			continue;
		}
		port_tty_unlock(fd);
		close(fd);
	}
}

/*
 * Check a configuration file for -n: its settings and the room's logic,
 * every error and warning printed, and with devices (-nn) that every
 * line can be opened now; "configuration OK" (warnings do not fail it)
 * or the errors and their count.
 */
static int
muxd_check(const char *file, int devices)
{
	struct conf_msgs	 msgs;
	struct conf		*cf;
	char			 err[MUXD_ERRLEN];
	size_t			 i, n;

	memset(&msgs, 0, sizeof(msgs));
	msgs.keep = devices;
	cf = conf_check(file, &msgs, err, sizeof(err));
	/* -nn probes the lines of a room with errors too, those read. */
	if (devices && (cf != NULL || msgs.room != NULL))
		muxd_probe(cf != NULL ? cf : msgs.room, &msgs);
	conf_free(msgs.room);
	for (i = 0; i < msgs.n; i++)
		fprintf(stderr, "%s\n", msgs.v[i].text);
	n = msgs.errors;
	if (cf == NULL && n == 0) {
		fprintf(stderr, "%s\n", err);
		n = 1;
	}
	if (msgs.nomem)
		fprintf(stderr, "muxd: out of memory: some messages lost\n");
	conf_msgs_free(&msgs);
	if (n > 0) {
		if (n > 1)
			fprintf(stderr, "muxd: %zu errors\n", n);
		if (cf == NULL && strcmp(file, MUXD_CONF) == 0 &&
		    access(file, F_OK) == -1)
			fprintf(stderr, "muxd: a room to start from: %s "
			    "(muxd.conf(5))\n", MUXD_EXAMPLES);
		conf_free(cf);
		return (1);
	}
	printf("configuration OK\n");
	conf_schedule_print(cf, stdout);
	conf_free(cf);
	return (0);
}

/* Handle a signal: stop, reload, or reap children. */
static void
muxd_signal(evutil_socket_t sig, short what, void *arg)
{
	char	err[MUXD_ERRLEN];
	pid_t	pid;
	int	status;

	(void)what;
	(void)arg;
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		log_info("signal %d: stopping", (int)sig);
		event_base_loopbreak(muxd_base);
		break;
	case SIGHUP:
		if (muxd_reload(err, sizeof(err)) == -1)
			log_warnx("reload: %s; keeping the configuration",
			    err);
		break;
	case SIGCHLD:
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			port_child_exited(pid, status);
		break;
	}
}

/* Create and open a port for each port of a configuration. */
static void
muxd_ports(const struct conf *cf)
{
	struct port	*p;
	size_t		 i;

	for (i = 0; i < cf->nports; i++) {
		if (port_find(cf->ports[i].name) != NULL)
			continue;
		if ((p = port_new(cf->ports[i].name, &cf->ports[i].addr,
		    cf->queue_limit)) == NULL)
			fatal("port %s", cf->ports[i].name);
		port_start(p);
	}
}

/*
 * Give the modules the configuration in force: links, rounds, recordings
 * and rules each keep the one they are given, read nothing of muxd's.
 * -1 with a reason when the rules cannot take it (a bad pattern).
 */
static int
muxd_configure(const struct conf *cf, char *err, size_t errlen)
{
	link_configure(cf);
	round_configure(cf);
	record_configure(cf);
	ballot_configure(cf);
	spawn_configure(cf);
	return (rules_configure(cf, err, errlen));
}

/*
 * Read the configuration again.  Ports whose address is unchanged stay
 * open with their links and queues; the others are closed or opened; the
 * running round is brought in line with the new schedule.
 */
int
muxd_reload(char *err, size_t errlen)
{
	struct conf	*cf;
	struct port	*p, *next;
	int		 i;

	if (muxd_conf == NULL) {
		snprintf(err, errlen, "quick mode has no configuration");
		return (-1);
	}
	notify_reloading();
	cf = conf_load(muxd_conf->file, err, errlen);
	if (cf == NULL) {
		notify_reloaded();
		return (-1);
	}
	if (strcmp(cf->control, muxd_conf->control) != 0)
		log_warnx("reload: the control socket stays %s until muxd "
		    "restarts", muxd_conf->control);
	for (p = TAILQ_FIRST(&ports); p != NULL; p = next) {
		next = TAILQ_NEXT(p, entry);
		i = conf_port_find(cf, p->name);
		if (i == -1 || !addr_equal(&p->addr, &cf->ports[i].addr)) {
			log_info("reload: port %s %s", p->name, i == -1 ?
			    "removed" : "changed");
			port_free(p);
		} else {
			p->limit = cf->queue_limit;
			/* A pty that went away may be taken anew. */
			if (p->state != PORT_UP)
				p->ttyid.set = 0;
		}
	}
	if (muxd_configure(cf, err, errlen) == -1)
		log_warnx("reload: %s; keeping the previous pattern", err);
	conf_free(muxd_conf);
	muxd_conf = cf;
	muxd_ports(cf);
	round_reload();
	state_save();
	log_info("configuration %s reloaded", cf->file);
	notify_reloaded();
	events_post(PROTOCOL_EV_CONFIG_RELOAD, json_pack("{ss}", "file", cf->file));
	return (0);
}

/* Set up quick mode: each pair of addresses is one link. */
static void
muxd_quick(char **pairs, int npairs)
{
	struct addr	 a;
	struct port	*p[2];
	char		 name[32], err[MUXD_ERRLEN];
	int		 i, j;

	for (i = 0; i < npairs; i++) {
		for (j = 0; j < 2; j++) {
			if (addr_parse(pairs[2 * i + j], &a, err,
			    sizeof(err)) == -1)
				fatalx("--link %d: %s", i + 1, err);
			snprintf(name, sizeof(name), "link%d-%c", i + 1,
			    'a' + j);
			if ((p[j] = port_new(name, &a, PORT_QUEUE_LIMIT)) ==
			    NULL)
				fatal("port %s", name);
			addr_free(&a);
		}
		snprintf(name, sizeof(name), "link%d", i + 1);
		if (link_new(name, p[0], p[1], LINK_MANUAL, err,
		    sizeof(err)) == NULL)
			fatalx("%s", err);
		port_start(p[0]);
		port_start(p[1]);
	}
}

/*
 * Become the user, the lines and the control socket open: what muxd
 * writes in from now on (the socket, the state, captures and transcripts
 * directories) becomes the user's first.
 */
static void
muxd_drop(const char *user, const char *sockpath)
{
	const char	*owned[5];
	char		 err[MUXD_ERRLEN];
	int		 i = 0;

	if (sockpath != NULL)
		owned[i++] = sockpath;
	if (muxd_conf != NULL) {
		owned[i++] = muxd_conf->state_dir;
		if (muxd_conf->capture_dir != NULL)
			owned[i++] = muxd_conf->capture_dir;
		if (muxd_conf->transcript_dir != NULL)
			owned[i++] = muxd_conf->transcript_dir;
	}
	owned[i] = NULL;
	if (priv_drop(user, owned, err, sizeof(err)) == -1)
		fatalx("%s", err);
}

/* Whether the room or the quick links run any program (exec:). */
static int
muxd_has_exec(char **pairs, int npairs)
{
	size_t	i;
	int	j;

	for (j = 0; j < 2 * npairs; j++)
		if (strncmp(pairs[j], "exec:", 5) == 0)
			return (1);
	for (i = 0; muxd_conf != NULL && i < muxd_conf->nports; i++)
		if (muxd_conf->ports[i].addr.kind == ADDR_EXEC)
			return (1);
	return (0);
}

/* Close everything in order: links, ports, then the control socket. */
static void
muxd_shutdown(void)
{
	struct link	*l;
	struct port	*p;

	notify_stopping();
	events_post(PROTOCOL_EV_MUXD_STOP, NULL);
	link_keep(1);
	link_configure(NULL);	/* no entry program is started anew */
	while ((l = TAILQ_FIRST(&links)) != NULL)
		link_free(l, "muxd stopping");
	state_flush();
	link_keep(0);
	record_shutdown();
	rules_shutdown();
	ballot_cancel("muxd stopping");
	seal_manifest("shutdown", 0, NULL);
	seal_shutdown();
	while ((p = TAILQ_FIRST(&ports)) != NULL)
		port_free(p);
	spawn_close();
	control_close();
	muxd_configure(NULL, NULL, 0);
	conf_free(muxd_conf);
	muxd_conf = NULL;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "link", required_argument, NULL, 'L' },
		{ "ports", no_argument, NULL, 'P' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct event	*sigs[5];
	struct event_config *cfg;
	const int	 signums[5] = { SIGTERM, SIGINT, SIGHUP, SIGCHLD, 0 };
	const char	*file = MUXD_CONF, *sockpath = NULL, *user = NULL;
	char		 err[MUXD_ERRLEN], **pairs = NULL;
	char		 absfile[PATH_MAX];
	int		 ch, daemonize = 0, check = 0, verbose = 0, npairs = 0;
	int		 fset = 0;
	int		 i;

	/* A failed allocation ends muxd through its log. */
	xmalloc_fatal = fatal;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "df:hns:u:vV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			daemonize = 1;
			break;
		case 'f':
			file = optarg;
			fset = 1;
			break;
		case 'n':
			check++;
			break;
		case 's':
			sockpath = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case 'v':
			verbose++;
			break;
		case 'V':
			printf("muxd %s\n", MUXD_VERSION);
			return (0);
		case 'h':
			muxd_usage(0);
		case 'P':
			return (muxd_list_ports());
		case 'L':
			if (optind >= argc || argv[optind][0] == '-') {
				fprintf(stderr, "muxd: option --link needs two "
				    "addresses\n");
				muxd_usage(2);
			}
			pairs = xreallocarray(pairs, 2 * (npairs + 1),
			    sizeof(*pairs));
			pairs[2 * npairs] = optarg;
			pairs[2 * npairs + 1] = argv[optind++];
			npairs++;
			break;
		default:
			protocol_bad_option("muxd", "df:hns:u:vV", argv);
			muxd_usage(2);
		}
	}
	if (optind + 1 == argc && strcmp(argv[optind], "keygen") == 0 &&
	    npairs == 0 && !check && !daemonize) {
		log_init(1, verbose);
		if ((muxd_conf = conf_load(file, err, sizeof(err))) == NULL)
			fatalx("%s", err);
		return (seal_keygen(muxd_conf));
	}
	if (optind != argc || (npairs > 0 && (check || daemonize || fset)))
		muxd_usage(2);
	if (check)
		return (muxd_check(file, check > 1));

	log_init(!daemonize, verbose);
	/* Reloads must find the file after daemon(3) moves to /. */
	if (npairs == 0 && realpath(file, absfile) != NULL)
		file = absfile;
	if (npairs == 0) {
		if ((muxd_conf = conf_load(file, err, sizeof(err))) == NULL)
			fatalx("%s", err);
		if (sockpath == NULL)
			sockpath = muxd_conf->control;
	}
	if (daemonize && daemon(0, 0) == -1)
		fatal("daemon");
	/* What muxd records is the room's: files 0640, directories 0750. */
	umask(027);
	signal(SIGPIPE, SIG_IGN);
	/* Entries' programs are started by a spawner that keeps root. */
	spawn_start(muxd_conf, user, muxd_has_exec(pairs, npairs));
	/*
	 * Byte times come from port_time(), not from the loop's clock.  The
	 * loop looks for new input after every MUXD_CONTROL_BURST callbacks
	 * of the control socket's priority, so a batch written to hundreds
	 * of watchers does not hold back a byte that comes meanwhile.
	 */
	if ((cfg = event_config_new()) == NULL ||
	    event_config_set_max_dispatch_interval(cfg, NULL,
	    MUXD_CONTROL_BURST, MUXD_PRIO_CONTROL) == -1 ||
	    (muxd_base = event_base_new_with_config(cfg)) == NULL ||
	    event_base_priority_init(muxd_base, MUXD_PRIOS) == -1)
		fatalx("cannot create the event loop");
	event_config_free(cfg);
	port_hooks_set(muxd_base, &muxd_port_hooks);
	spawn_listen(muxd_base);
	for (i = 0; signums[i] != 0; i++) {
		sigs[i] = evsignal_new(muxd_base, signums[i], muxd_signal,
		    NULL);
		if (sigs[i] == NULL || evsignal_add(sigs[i], NULL) == -1)
			fatalx("cannot watch signal %d", signums[i]);
	}
	if (sockpath != NULL && control_listen(sockpath, muxd_reload, err,
	    sizeof(err)) == -1)
		fatalx("%s", err);

	if (npairs > 0) {
		muxd_quick(pairs, npairs);
		if (user != NULL)
			muxd_drop(user, sockpath);
	} else {
		if (muxd_configure(muxd_conf, err, sizeof(err)) == -1)
			fatalx("%s: %s", muxd_conf->file, err);
		record_init();
		seal_init(muxd_conf);
		muxd_ports(muxd_conf);
		/*
		 * The state file's parts, in its order: the round first, the
		 * manual links, then the verdicts they are checked against.
		 */
		state_register(round_save, round_load);
		state_register(link_save, link_load);
		state_register(rules_verdict_save, rules_verdict_load);
		state_init(muxd_conf->state_dir);
		/* The round resumed opens its files as the user. */
		if (user != NULL)
			muxd_drop(user, sockpath);
		if (state_load() == 1)
			round_resume();
		seal_manifest("start", 0, NULL);
	}
	log_info("muxd %s running, %d ports", MUXD_VERSION, npairs > 0 ?
	    2 * npairs : (int)muxd_conf->nports);
	notify_start();
	event_base_dispatch(muxd_base);

	muxd_shutdown();
	for (i = 0; signums[i] != 0; i++)
		event_free(sigs[i]);
	event_base_free(muxd_base);
	free(pairs);
	log_info("stopped");
	return (0);
}
