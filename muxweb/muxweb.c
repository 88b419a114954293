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
#if !defined(MUXWEB_PLAYER) || !defined(MUXWEB_TRANSCRIPTS)
#error "MUXWEB_PLAYER, MUXWEB_TRANSCRIPTS: build muxweb with its Makefile"
#endif

static void	muxweb_usage(int) __attribute__((noreturn));

/* Print the usage and exit: on stdout with 0 (--help), else stderr. */
static void
muxweb_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: muxweb [-a captures] [-k pubkey] [-l [host:]port] "
	    "[-p playerdir]\n"
	    "              [-s socket] [-t tokenfile]\n"
	    "       muxweb --help | --version\n");
	exit(status);
}

/* Read the token for commands: the file's first line, not empty. */
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
	char			 errbuf[MUXWEB_ERRLEN];
	sigset_t		 set;
	int			 ch, sig;

	switch (protocol_std_option(argc, argv, "muxweb")) {
	case 0:
		return (0);
	case 1:
		muxweb_usage(0);
	}
	if ((sock = getenv("MUXD_SOCKET")) == NULL || *sock == '\0')
		sock = PROTOCOL_CONTROL_PATH;
	while ((ch = getopt(argc, argv, "a:k:l:p:s:t:")) != -1) {
		switch (ch) {
		case 'a':
			audit = optarg;
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
	if ((h = muxweb_http_start(host, service, token, errbuf,
	    sizeof(errbuf))) == NULL)
		errx(1, "%s", errbuf);
	fprintf(stderr, "muxweb: serving the room of %s on http://%s:%s/%s\n",
	    sock, host != NULL ? host : "127.0.0.1", service, token != NULL ?
	    " (commands with the token)" : " (read-only)");
	do {
		if (sigwait(&set, &sig) != 0)
			break;
	} while (sig == SIGHUP);
	muxweb_http_stop(h);
	free(host);
	free(token);
	return (0);
}
