/*
 * The names of the control protocol's commands and events, the one table
 * muxd dispatches on and muxctl sends and reads with.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"

#ifndef MUXD_VERSION
#define MUXD_VERSION "0.1.0"
#endif

static const char *protocol_cmds[PROTOCOL_CMD_COUNT] = {
	[PROTOCOL_CMD_STATUS] = "status",
	[PROTOCOL_CMD_SCHEDULE] = "schedule",
	[PROTOCOL_CMD_ROUND_START] = "round.start",
	[PROTOCOL_CMD_ROUND_STOP] = "round.stop",
	[PROTOCOL_CMD_CONNECT] = "connect",
	[PROTOCOL_CMD_DISCONNECT] = "disconnect",
	[PROTOCOL_CMD_RELEASE] = "release",
	[PROTOCOL_CMD_RELOAD] = "reload",
	[PROTOCOL_CMD_WATCH] = "watch",
	[PROTOCOL_CMD_PORTS] = "ports",
	[PROTOCOL_CMD_CABLECHECK] = "cablecheck",
	[PROTOCOL_CMD_SCREENS] = "screens",
	[PROTOCOL_CMD_WITNESS] = "witness"
};

static const char *protocol_events[PROTOCOL_EV_COUNT] = {
	[PROTOCOL_EV_PORT_UP] = "port.up",
	[PROTOCOL_EV_PORT_DOWN] = "port.down",
	[PROTOCOL_EV_DROP] = "drop",
	[PROTOCOL_EV_LINK_UP] = "link.up",
	[PROTOCOL_EV_LINK_DOWN] = "link.down",
	[PROTOCOL_EV_ROUND_START] = "round.start",
	[PROTOCOL_EV_ROUND_STOP] = "round.stop",
	[PROTOCOL_EV_ROUND_RESUME] = "round.resume",
	[PROTOCOL_EV_ROUND_WAIT] = "round.wait",
	[PROTOCOL_EV_ROUND_REFUSED] = "round.refused",
	[PROTOCOL_EV_VERDICT] = "verdict",
	[PROTOCOL_EV_TEXT] = "text",
	[PROTOCOL_EV_FILTER] = "filter",
	[PROTOCOL_EV_HOLD] = "hold",
	[PROTOCOL_EV_INJECT] = "inject",
	[PROTOCOL_EV_JUDGE_MISMATCH] = "judge.mismatch",
	[PROTOCOL_EV_CABLECHECK] = "cablecheck",
	[PROTOCOL_EV_CONFIG_RELOAD] = "config.reload",
	[PROTOCOL_EV_FAULT] = "fault",
	[PROTOCOL_EV_MUXD_STOP] = "muxd.stop",
	[PROTOCOL_EV_MANIFEST] = "manifest",
	[PROTOCOL_EV_BALLOT] = "ballot",
	[PROTOCOL_EV_WITNESS] = "manifest.witness"
};

/* Name a command as it goes on the wire. */
const char *
protocol_cmd_name(enum protocol_cmd cmd)
{
	return (protocol_cmds[cmd]);
}

/* Find a command by its wire name; -1 if there is none. */
int
protocol_cmd_find(const char *name)
{
	int	i;

	for (i = 0; i < PROTOCOL_CMD_COUNT; i++)
		if (strcmp(protocol_cmds[i], name) == 0)
			return (i);
	return (-1);
}

/* List every command's wire name, comma-separated, for a message. */
const char *
protocol_cmd_list(void)
{
	static char	 list[256];
	size_t		 off = 0;
	int		 i;

	if (list[0] != '\0')
		return (list);
	for (i = 0; i < PROTOCOL_CMD_COUNT; i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s",
		    i > 0 ? ", " : "", protocol_cmds[i]);
	return (list);
}

/* Name an event as it goes on the wire. */
const char *
protocol_event_name(enum protocol_event ev)
{
	return (protocol_events[ev]);
}

/* Find an event by its wire name; -1 if there is none. */
int
protocol_event_find(const char *name)
{
	int	i;

	for (i = 0; i < PROTOCOL_EV_COUNT; i++)
		if (strcmp(protocol_events[i], name) == 0)
			return (i);
	return (-1);
}

/*
 * The first option every program takes alike: --version (or -V) prints
 * "NAME VERSION" and gives 0, --help (or -h) gives 1 (the program prints
 * its usage on standard output and exits 0); -1 for anything else.  Any
 * other option a program refuses, it tells of with protocol_bad_option().
 */
int
protocol_std_option(int argc, char *argv[], const char *name)
{
	if (argc < 2)
		return (-1);
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", name, MUXD_VERSION);
		return (0);
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return (1);
	return (-1);
}

/*
 * Tell of an option getopt(3) or getopt_long(3) refused (called with
 * opterr 0, so that it said nothing), the one way every program does:
 * "NAME: unknown option -x" or "NAME: option -x needs an argument" (or
 * "NAME: option --name takes no argument") on standard error; optstring
 * is the one getopt was given.  The caller
 * prints its usage on standard error and exits 2.
 */
void
protocol_bad_option(const char *name, const char *optstring, char *argv[])
{
	const char	*arg, *cur;
	int		 n, known;

	/*
	 * getopt_long(3) names a long option by its argument (optopt 0 when
	 * unknown, its value when it lacks an argument); getopt(3) reads
	 * "--name" as the short options '-', 'n'...
	 */
	arg = optind > 0 ? argv[optind - 1] : NULL;
	cur = argv[optind];
	known = optopt > ' ' && optopt < 0x7f && optopt != ':' &&
	    optopt != '+' && optopt != '-' && strchr(optstring, optopt) != NULL;
	if (optopt == '-' && cur != NULL && strncmp(cur, "--", 2) == 0)
		arg = cur;
	else if (optopt != 0 && (known || arg == NULL ||
	    strncmp(arg, "--", 2) != 0))
		arg = NULL;
	if (arg != NULL && strncmp(arg, "--", 2) == 0 && arg[2] != '\0') {
		n = (int)strcspn(arg, "=");
		if (optopt == 0 || optopt == '-')
			fprintf(stderr, "%s: unknown option %.*s\n", name, n,
			    arg);
		else if (arg[n] == '=')
			fprintf(stderr, "%s: option %.*s takes no argument\n",
			    name, n, arg);
		else
			fprintf(stderr, "%s: option %.*s needs an argument\n",
			    name, n, arg);
	} else if (known)
		fprintf(stderr, "%s: option -%c needs an argument\n", name,
		    optopt);
	else if (optopt > ' ' && optopt < 0x7f)
		fprintf(stderr, "%s: unknown option -%c\n", name, optopt);
	else
		fprintf(stderr, "%s: unknown option\n", name);
}
