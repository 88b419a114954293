/*
 * comprog: start-up, options, signals, the keyboard and the log.
 *
 * One libevent loop, as in muxd: the line (cline.c over the line library),
 * the keyboard (standard input, read a byte at a time as typed), the
 * entry's program, and timers.  SIGINT, SIGTERM and SIGHUP end the loop,
 * so that everything is closed and the terminal restored on the normal
 * path; fatal() exits through atexit(3), which restores it too.
 *
 * C-] is the command key on the judge's and the confederate's side:
 * C-] q quits, C-] C-] sends a C-] itself; any other key after it is
 * dropped.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "comprog.h"

#define COMPROG_NOTICE_SEC	10	/* a warning stays on the status line */

/* The loop and the clock that the line library (line/) runs on. */
struct event_base	*comprog_base;

static enum comprog_mode comprog_mode;
static FILE		*comprog_logf;
static int		 comprog_verbose;
static char		 comprog_fatal[1024];
static char		 comprog_warning[1024];
static time_t		 comprog_warned;
static int		 comprog_cmd;		/* C-] was typed */
static int		 comprog_exit;
static struct event	*comprog_ev_key;
static struct event	*comprog_ev_second;

static void	comprog_usage(int) __attribute__((noreturn));
static void	comprog_log(int, const char *);
static void	comprog_atexit(void);
static void	comprog_signal(evutil_socket_t, short, void *);
static void	comprog_key_cb(evutil_socket_t, short, void *);
static void	comprog_second_cb(evutil_socket_t, short, void *);

/* Give the time of the current event, or now outside the loop. */
void
comprog_time(struct timeval *tv)
{
	if (comprog_base == NULL ||
	    event_base_gettimeofday_cached(comprog_base, tv) == -1)
		gettimeofday(tv, NULL);
}

/* A time in microseconds. */
int64_t
comprog_usec(const struct timeval *tv)
{
	return ((int64_t)tv->tv_sec * 1000000 + tv->tv_usec);
}

/* Print the usage and exit: on stdout with 0 (--help), else stderr. */
static void
comprog_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: comprog judge [-v] [--local-echo | --remote-echo] [-e eol] "
	    "[-l log]\n"
	    "               [--charset charset] [-p profile] "
	    "[-r dir | --no-record] address\n"
	    "       comprog confederate [-v] -n name [--clock minutes] "
	    "[-e eol] [-l log]\n"
	    "               [--charset charset] [-p profile] "
	    "[-r dir | --no-record] address\n"
	    "       comprog entry [-v] [--echo] [--typing model] "
	    "[-e eol] [-l log] [-n name]\n"
	    "               [--charset charset] [-p profile] "
	    "[-r dir | --no-record]\n"
	    "               address -- program [arg ...]\n"
	    "       comprog web [-v] [--typing model] [-e eol] [-l log] "
	    "[-n name]\n"
	    "               [--field name] [--reply id] "
	    "[-r dir | --no-record] address url\n"
	    "       comprog lpp [-v] [--judge] [-l log] [-r dir | --no-record] "
	    "address dir\n"
	    "       comprog --help | --version\n");
	exit(status);
}

/*
 * The log: to the log file when there is one; warnings to the status line
 * while the screen is up, else everything to stderr.  A fatal message is
 * kept to be printed once the terminal is restored.
 */
static void
comprog_log(int pri, const char *msg)
{
	struct timespec	 ts;
	struct tm	 tm;
	char		 stamp[32];
	FILE		*f = comprog_logf;

	if (pri <= LOG_CRIT)
		snprintf(comprog_fatal, sizeof(comprog_fatal), "%s", msg);
	if (pri == LOG_DEBUG && comprog_verbose < 1)
		return;
	/* The line's own messages are in its state on the status line. */
	if (screen_active() && pri <= LOG_WARNING &&
	    strncmp(msg, "port line: ", 11) != 0) {
		snprintf(comprog_warning, sizeof(comprog_warning), "%s", msg);
		comprog_warned = time(NULL);
	}
	/* Without a log file: stderr, unless the screen has the terminal. */
	if (f == NULL && !screen_active() && pri > LOG_CRIT &&
	    (pri <= LOG_WARNING || comprog_mode == COMPROG_ENTRY ||
	    comprog_mode == COMPROG_LPP ||
	    comprog_verbose > 0))
		f = stderr;
	if (f == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(f, "%s.%03ld comprog: %s\n", stamp, ts.tv_nsec / 1000000, msg);
	fflush(f);
}

/*
 * Write the status line of the judge's or the confederate's screen: how
 * the line is, what waits for it, keys refused, the side's own words
 * (may be empty) and the last warning while it is recent; then draw.
 */
void
comprog_status(const char *side, uint64_t refused)
{
	char	line[LINE_ERRLEN + 64], kept[64], ref[64], notice[256];
	char	why[LINE_ERRLEN + 32];

	cline_describe(line, sizeof(line));
	kept[0] = ref[0] = notice[0] = why[0] = '\0';
	if (*cline_error() != '\0')
		snprintf(why, sizeof(why), " | %s", cline_error());
	if (cline_queued() > 0)
		snprintf(kept, sizeof(kept), " | %zu keys kept for it",
		    cline_queued());
	if (refused > 0)
		snprintf(ref, sizeof(ref), " | %llu keys REFUSED",
		    (unsigned long long)refused);
	if (comprog_warning[0] != '\0' &&
	    time(NULL) - comprog_warned <= COMPROG_NOTICE_SEC)
		snprintf(notice, sizeof(notice), " | %s", comprog_warning);
	screen_status(!cline_is_up() || refused > 0, "%s%s%s%s%s%s%s | C-] q "
	    "quits", line, kept, ref, *side != '\0' ? " | " : "", side, why,
	    notice);
	screen_draw();
}

/* At exit, after the terminal is restored: say why comprog stopped. */
static void
comprog_atexit(void)
{
	screen_end();
	if (comprog_fatal[0] != '\0')
		fprintf(stderr, "comprog: %s\n", comprog_fatal);
	comprog_fatal[0] = '\0';
}

/* End the loop: everything is closed and restored on the way out. */
void
comprog_quit(int status)
{
	comprog_exit = status;
	event_base_loopbreak(comprog_base);
}

/* Handle a signal: stop, resize, or reap children. */
static void
comprog_signal(evutil_socket_t sig, short what, void *arg)
{
	pid_t	pid;
	int	status;

	(void)what;
	(void)arg;
	switch (sig) {
	case SIGINT:
	case SIGTERM:
	case SIGHUP:
		log_info("signal %d: stopping", (int)sig);
		comprog_quit(0);
		break;
	case SIGWINCH:
		screen_resize();
		break;
	case SIGCHLD:
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (comprog_mode == COMPROG_ENTRY)
				entry_child(pid, status);
			port_child_exited(pid, status);
		}
		break;
	}
}

/* Read the keyboard: the command key here, the rest to the side. */
static void
comprog_key_cb(evutil_socket_t fd, short what, void *arg)
{
	unsigned char	buf[PORT_CHUNK], keys[PORT_CHUNK];
	struct timeval	tv;
	ssize_t		n, i;
	size_t		nkeys = 0;

	(void)what;
	(void)arg;
	if ((n = read(fd, buf, sizeof(buf))) <= 0) {
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		log_info("the terminal went away");
		comprog_quit(0);
		return;
	}
	comprog_time(&tv);
	for (i = 0; i < n; i++) {
		if (comprog_cmd) {
			comprog_cmd = 0;
			if (buf[i] == 'q' || buf[i] == 'Q') {
				comprog_quit(0);
				return;
			}
			if (buf[i] != COMPROG_ESCAPE)
				continue;
		} else if (buf[i] == COMPROG_ESCAPE) {
			comprog_cmd = 1;
			continue;
		}
		keys[nkeys++] = buf[i];
	}
	if (nkeys == 0)
		return;
	if (comprog_mode == COMPROG_JUDGE)
		judge_key(keys, nkeys, &tv);
	else
		confed_key(keys, nkeys, &tv);
}

/* Once a second: the status line and the clock. */
static void
comprog_second_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (comprog_mode == COMPROG_JUDGE)
		judge_second();
	else
		confed_second();
}

int
main(int argc, char *argv[])
{
	enum {
		OPT_REMOTE_ECHO = 256, OPT_NO_RECORD, OPT_CLOCK, OPT_TYPING,
		OPT_ECHO, OPT_PROGRAM, OPT_CONTESTANT, OPT_SEED, OPT_LOCAL_ECHO,
		OPT_CHARSET,
		OPT_JUDGE,
		OPT_FIELD,
		OPT_REPLY
	};
	static const struct option longopts[] = {
		{ "eol", required_argument, NULL, 'e' },
		{ "log", required_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'n' },
		{ "profile", required_argument, NULL, 'p' },
		{ "record", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "remote-echo", no_argument, NULL, OPT_REMOTE_ECHO },
		{ "local-echo", no_argument, NULL, OPT_LOCAL_ECHO },
		{ "no-record", no_argument, NULL, OPT_NO_RECORD },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "typing", required_argument, NULL, OPT_TYPING },
		{ "echo", no_argument, NULL, OPT_ECHO },
		{ "program", required_argument, NULL, OPT_PROGRAM },
		{ "contestant", required_argument, NULL, OPT_CONTESTANT },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "charset", required_argument, NULL, OPT_CHARSET },
		{ "judge", no_argument, NULL, OPT_JUDGE },
		{ "field", required_argument, NULL, OPT_FIELD },
		{ "reply", required_argument, NULL, OPT_REPLY },
		{ NULL, 0, NULL, 0 }
	};
	static const int	 signums[] = { SIGINT, SIGTERM, SIGHUP,
	    SIGWINCH, SIGCHLD };
	struct event		*sigs[5];
	struct event_config	*cfg;
	struct profile		 prof;
	struct typing		 typing;
	struct transcript_who	 who;
	struct addr		 a;
	struct timeval		 sec = { 1, 0 };
	const char		*mode, *profile = NULL, *record = ".";
	const char		*logfile = NULL, *name = NULL, *eol = NULL;
	const char		*typingtext = NULL, *program = NULL;
	const char		*contestant = NULL, *address;
	const char		*charset = NULL;
	char			 err[LINE_ERRLEN], **prog = NULL;
	int			 ch, judge_echo = -1, minutes = 0, echo = 0;
	int			 lppjudge = 0, web = 0;
	const char		*lppdir = NULL, *field = "input";
	const char		*replyid = "reply";
	char			*webargv[8], self[4096];
	char			 errbuf[512];
	ssize_t			 selflen;
	long long		 seed = -1;
	size_t			 i;

	if (argc < 2)
		comprog_usage(2);
	mode = argv[1];
	/* The web entry adapter's program (web.c), which comprog runs. */
	if (strcmp(mode, "web-client") == 0 && argc == 7 &&
	    strcmp(argv[2], "--field") == 0 && strcmp(argv[4], "--reply") == 0)
		return (web_client(argv[6], argv[3], argv[5]));
	switch (protocol_std_option(argc, argv, "comprog")) {
	case 0:
		return (0);
	case 1:
		comprog_usage(0);
	}
	if (strcmp(mode, "judge") == 0)
		comprog_mode = COMPROG_JUDGE;
	else if (strcmp(mode, "confederate") == 0)
		comprog_mode = COMPROG_CONFED;
	else if (strcmp(mode, "entry") == 0)
		comprog_mode = COMPROG_ENTRY;
	else if (strcmp(mode, "lpp") == 0)
		comprog_mode = COMPROG_LPP;
	else if (strcmp(mode, "web") == 0) {
		comprog_mode = COMPROG_ENTRY;
		web = 1;
	} else {
		if (mode[0] == '-') {
			optind = 2;
			optopt = mode[1] == '-' ? 0 : (unsigned char)mode[1];
			protocol_bad_option("comprog", "", argv);
		} else
			fprintf(stderr, "comprog: unknown mode '%s'\n", mode);
		comprog_usage(2);
	}
	optind = 2;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+e:l:n:p:r:v", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'e':
			eol = optarg;
			break;
		case 'l':
			logfile = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'p':
			profile = optarg;
			break;
		case 'r':
			record = optarg;
			break;
		case 'v':
			comprog_verbose++;
			break;
		case OPT_REMOTE_ECHO:
			judge_echo = PROFILE_ECHO_REMOTE;
			break;
		case OPT_LOCAL_ECHO:
			judge_echo = PROFILE_ECHO_LOCAL;
			break;
		case OPT_NO_RECORD:
			record = NULL;
			break;
		case OPT_CLOCK:
			minutes = atoi(optarg);
			if (minutes < 1 || minutes > 600) {
				fprintf(stderr, "comprog: --clock takes 1 to "
				    "600 minutes, not '%s'\n", optarg);
				return (2);
			}
			break;
		case OPT_TYPING:
			typingtext = optarg;
			break;
		case OPT_ECHO:
			echo = 1;
			break;
		case OPT_PROGRAM:
			program = optarg;
			break;
		case OPT_CONTESTANT:
			contestant = optarg;
			break;
		case OPT_CHARSET:
			charset = optarg;
			break;
		case OPT_JUDGE:
			lppjudge = 1;
			break;
		case OPT_FIELD:
			field = optarg;
			break;
		case OPT_REPLY:
			replyid = optarg;
			break;
		case OPT_SEED:
			seed = strtoll(optarg, NULL, 10);
			break;
		default:
			protocol_bad_option("comprog", "+e:l:n:p:r:v", argv);
			comprog_usage(2);
		}
	}
	if (optind >= argc)
		comprog_usage(2);
	address = argv[optind++];
	if (web) {
		/* The program is comprog's own web client, on the url. */
		if (optind + 1 != argc)
			comprog_usage(2);
		if (web_url_check(argv[optind], errbuf, sizeof(errbuf)) ==
		    -1) {
			fprintf(stderr, "comprog: web: %s\n", errbuf);
			return (2);
		}
		if ((selflen = readlink("/proc/self/exe", self,
		    sizeof(self) - 1)) == -1) {
			fprintf(stderr, "comprog: /proc/self/exe: %s\n",
			    strerror(errno));
			return (1);
		}
		self[selflen] = '\0';
		webargv[0] = self;
		webargv[1] = "web-client";
		webargv[2] = "--field";
		webargv[3] = (char *)field;
		webargv[4] = "--reply";
		webargv[5] = (char *)replyid;
		webargv[6] = argv[optind];
		webargv[7] = NULL;
		prog = webargv;
		if (program == NULL)
			program = argv[optind];
	} else if (comprog_mode == COMPROG_ENTRY) {
		if (optind < argc && strcmp(argv[optind], "--") == 0)
			optind++;
		if (optind >= argc)
			comprog_usage(2);
		prog = &argv[optind];
	} else if (comprog_mode == COMPROG_LPP) {
		if (optind + 1 != argc)
			comprog_usage(2);
		lppdir = argv[optind];
	} else if (optind != argc)
		comprog_usage(2);
	if (comprog_mode == COMPROG_CONFED && (name == NULL || *name == '\0')) {
		fprintf(stderr, "comprog: confederate needs -n NAME, the name "
		    "approved for the opening assertion\n");
		return (2);
	}
	if ((lppjudge && comprog_mode != COMPROG_LPP) ||
	    ((strcmp(field, "input") != 0 || strcmp(replyid, "reply") != 0) &&
	    !web) ||
	    (judge_echo != -1 && comprog_mode != COMPROG_JUDGE) ||
	    (minutes && comprog_mode != COMPROG_CONFED) ||
	    ((typingtext != NULL || echo) && comprog_mode != COMPROG_ENTRY))
		comprog_usage(2);

	profile_defaults(&prof, comprog_mode);
	if (profile != NULL && profile_load(profile, &prof, err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "comprog: %s\n", err);
		return (1);
	}
	if (judge_echo != -1)
		prof.echo = (enum profile_echo)judge_echo;
	if (eol != NULL && (judgeterm_eol_parse(eol, (enum judgeterm_eol *)
	    &prof.eol) == -1 || prof.eol == JUDGETERM_EOL_ASIS)) {
		fprintf(stderr, "comprog: -e takes cr, lf or crlf, not '%s'\n",
		    eol);
		return (2);
	}
	if (charset != NULL && cap_encoding_parse(charset, &prof.charset) ==
	    -1) {
		fprintf(stderr, "comprog: --charset takes iso-8859-1 or utf-8, "
		    "not '%s'\n", charset);
		return (2);
	}
	if (charset != NULL)
		prof.charset_set = 1;
	if (typingtext != NULL)
		snprintf(prof.typing, sizeof(prof.typing), "%s", typingtext);
	if (typing_parse(prof.typing, &typing, err, sizeof(err)) == -1) {
		fprintf(stderr, "comprog: --typing: %s\n", err);
		return (2);
	}
	typing_seed(&typing, seed >= 0 ? (uint64_t)seed :
	    (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32);
	if (addr_parse(address, &a, err, sizeof(err)) == -1) {
		fprintf(stderr, "comprog: bad address '%s': %s\n", address, err);
		return (1);
	}
	addr_free(&a);
	if (comprog_mode != COMPROG_ENTRY && comprog_mode != COMPROG_LPP &&
	    (!isatty(STDIN_FILENO) ||
	    !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "comprog: %s: standard input and output must "
		    "be a terminal\n", mode);
		return (1);
	}
	if (logfile != NULL && (comprog_logf = fopen(logfile, "a")) == NULL) {
		fprintf(stderr, "comprog: log %s: %s\n", logfile,
		    strerror(errno));
		return (1);
	}

	atexit(comprog_atexit);
	log_redirect(comprog_log);
	log_verbose(comprog_verbose);
	signal(SIGPIPE, SIG_IGN);
	if ((cfg = event_config_new()) == NULL ||
	    event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER) == -1 ||
	    (comprog_base = event_base_new_with_config(cfg)) == NULL)
		fatalx("cannot create the event loop");
	event_config_free(cfg);
	for (i = 0; i < sizeof(signums) / sizeof(signums[0]); i++) {
		sigs[i] = evsignal_new(comprog_base, signums[i], comprog_signal,
		    NULL);
		if (sigs[i] == NULL || evsignal_add(sigs[i], NULL) == -1)
			fatalx("cannot watch signal %d", signums[i]);
	}

	memset(&who, 0, sizeof(who));
	who.role = mode;
	who.address = address;
	who.entity = name;
	who.program = program != NULL ? program : comprog_mode ==
	    COMPROG_ENTRY ? prog[0] : "comprog";
	who.contestant = contestant != NULL ? contestant : name;
	who.judge_side = comprog_mode == COMPROG_JUDGE ||
	    (comprog_mode == COMPROG_LPP && lppjudge);
	if (comprog_mode == COMPROG_LPP)
		who.role = lppjudge ? "lpp-judge" : "lpp-entry";
	who.charset = prof.charset;
	/* The judge's side asks muxd for the room's charset (judge.c). */
	who.hold = comprog_mode == COMPROG_JUDGE && !prof.charset_set &&
	    prof.echo != PROFILE_ECHO_LOCAL;
	if (record != NULL && transcript_open(record, &who, err,
	    sizeof(err)) == -1)
		fatalx("%s", err);

	switch (comprog_mode) {
	case COMPROG_JUDGE:
		judge_start(&prof);
		break;
	case COMPROG_CONFED:
		confed_start(&prof, name, minutes);
		break;
	case COMPROG_ENTRY:
		entry_start(&prof, &typing, prog, echo);
		break;
	case COMPROG_LPP:
		bridge_start(lppdir, lppjudge);
		break;
	}
	if (cline_open(address, comprog_mode == COMPROG_JUDGE ? &judge_line_cb :
	    comprog_mode == COMPROG_CONFED ? &confed_line_cb :
	    comprog_mode == COMPROG_LPP ? &bridge_line_cb : &entry_line_cb,
	    err, sizeof(err)) == -1)
		fatalx("%s", err);
	if (comprog_mode != COMPROG_ENTRY && comprog_mode != COMPROG_LPP) {
		comprog_ev_key = event_new(comprog_base, STDIN_FILENO,
		    EV_READ | EV_PERSIST, comprog_key_cb, NULL);
		comprog_ev_second = event_new(comprog_base, -1, EV_PERSIST,
		    comprog_second_cb, NULL);
		if (comprog_ev_key == NULL || comprog_ev_second == NULL ||
		    event_add(comprog_ev_key, NULL) == -1 ||
		    event_add(comprog_ev_second, &sec) == -1)
			fatalx("cannot watch the keyboard");
	}
	log_info("comprog %s %s on %s%s%s", MUXD_VERSION, mode, cline_address(),
	    transcript_path() != NULL ? ", recording in " : "",
	    transcript_path() != NULL ? transcript_path() : "");

	event_base_dispatch(comprog_base);

	switch (comprog_mode) {
	case COMPROG_JUDGE:
		judge_stop();
		break;
	case COMPROG_CONFED:
		confed_stop();
		break;
	case COMPROG_ENTRY:
		entry_stop();
		break;
	case COMPROG_LPP:
		bridge_stop();
		break;
	}
	if (comprog_ev_key != NULL)
		event_free(comprog_ev_key);
	if (comprog_ev_second != NULL)
		event_free(comprog_ev_second);
	cline_close();
	transcript_close();
	for (i = 0; i < sizeof(signums) / sizeof(signums[0]); i++)
		event_free(sigs[i]);
	event_base_free(comprog_base);
	comprog_base = NULL;
	log_info("stopped");
	if (comprog_logf != NULL)
		fclose(comprog_logf);
	comprog_logf = NULL;
	return (comprog_exit);
}
