/*
 * muxweb: the referee's browser for a muxd(8) room.  See muxweb(8).
 */
#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"
#include "muxweb.h"

#define MUXWEB_PORT	"8428"
#define MUXWEB_PER_ADDRESS 64		/* connections of one address */
#define MUXWEB_IDLE	10		/* seconds a connection may wait */
#if !defined(MUXWEB_PLAYER) || !defined(MUXWEB_TRANSCRIPTS)
#error "MUXWEB_PLAYER, MUXWEB_TRANSCRIPTS: build muxweb with its Makefile"
#endif

static void	muxweb_usage(int) __attribute__((noreturn));

/* Print the usage and exit: on stdout with 0 (--help), else stderr. */
static void
muxweb_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: muxweb [-P] [-a captures] [-c connections] [-i seconds] "
	    "[-k pubkey]\n"
	    "              [-l [host:]port] [-p playerdir] [-s socket] "
	    "[-t tokenfile]\n"
	    "       muxweb --help | --version\n");
	exit(status);
}

/* Read a count of at least min for option ch, or exit. */
static unsigned int
muxweb_count(int ch, const char *arg, long min)
{
	char	*end;
	long	 v;

	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || v < min || v > 1000000)
		errx(2, "-%c %s: not a number from %ld to 1000000", ch, arg,
		    min);
	return ((unsigned int)v);
}

/* Read the room's token: the file's first line, 16 characters or more. */
static char *
muxweb_token(const char *file)
{
	FILE	*f;
	char	 buf[256];

	if ((f = fopen(file, "r")) == NULL)
		err(1, "%s", file);
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	if (strlen(buf) < 16)
		errx(1, "%s: the token must be one line of 16 characters or "
		    "more", file);
	return (strdup(buf));
}

int
main(int argc, char *argv[])
{
	struct muxweb_http	*h;
	const char		*sock, *listen = NULL, *service = MUXWEB_PORT;
	const char		*audit = NULL, *player = MUXWEB_PLAYER;
	const char		*key = NULL;
	char			*host = NULL, *colon, *token = NULL;
	const char		*room;
	char			 errbuf[MUXWEB_ERRLEN];
	sigset_t		 set;
	unsigned int		 per_address = MUXWEB_PER_ADDRESS;
	unsigned int		 idle = MUXWEB_IDLE;
	int			 ch, sig, public = 0;

	switch (protocol_std_option(argc, argv, "muxweb")) {
	case 0:
		return (0);
	case 1:
		muxweb_usage(0);
	}
	if ((sock = getenv("MUXD_SOCKET")) == NULL || *sock == '\0')
		sock = PROTOCOL_CONTROL_PATH;
	opterr = 0;
	while ((ch = getopt(argc, argv, "Pa:c:i:k:l:p:s:t:")) != -1) {
		switch (ch) {
		case 'P':
			public = 1;
			break;
		case 'a':
			audit = optarg;
			break;
		case 'c':
			per_address = muxweb_count(ch, optarg, 1);
			break;
		case 'i':
			idle = muxweb_count(ch, optarg, 0);
			break;
		case 'k':
			key = optarg;
			break;
		case 'p':
			player = optarg;
			break;
		case 'l':
			listen = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 't':
			token = muxweb_token(optarg);
			break;
		default:
			protocol_bad_option("muxweb", "Pa:c:i:k:l:p:s:t:", argv);
			muxweb_usage(2);
		}
	}
	if (optind != argc)
		muxweb_usage(2);
	if (listen != NULL) {
		if ((host = strdup(listen)) == NULL)
			err(1, "strdup");
		if ((colon = strrchr(host, ':')) != NULL) {
			*colon = '\0';
			service = colon + 1;
			if (host[0] == '[' && colon[-1] == ']') {
				colon[-1] = '\0';
				memmove(host, host + 1, strlen(host));
			}
		} else {
			service = listen;
			free(host);
			host = NULL;
		}
	}
	/* Signals are taken here, by sigwait; the threads never see them. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	muxweb_audit_init(audit, player, MUXWEB_TRANSCRIPTS, key);
	muxweb_muxd_init(sock);
	muxweb_muxd_watch_start();
	if ((room = muxweb_guard_init(token, public, idle)) == NULL)
		errx(1, "libsodium cannot start");
	if ((h = muxweb_http_start(host, service, per_address, idle, errbuf,
	    sizeof(errbuf))) == NULL)
		errx(1, "%s", errbuf);
	fprintf(stderr, "muxweb: serving the room of %s on http://%s:%s/%s\n",
	    sock, host != NULL ? host : "127.0.0.1", service, public ?
	    " (the live page public)" : "");
	/* The token of a file is the operator's already; a made one is said. */
	if (token == NULL)
		fprintf(stderr, "muxweb: the referee's login link: "
		    "http://%s:%s/login?token=%s\n", host != NULL &&
		    strcmp(host, "*") != 0 ? host : "127.0.0.1", service, room);
	do {
		if (sigwait(&set, &sig) != 0)
			break;
	} while (sig == SIGHUP);
	muxweb_http_stop(h);
	muxweb_guard_free();
	free(host);
	free(token);
	return (0);
}
