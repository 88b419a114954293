/*
 * transcripts: the auditors' tool for muxd's captures and transcripts.
 * "transcripts COMMAND ARGS": each command is a cmd-NAME.c file.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "protocol.h"

#ifndef MUXD_VERSION
#define MUXD_VERSION "0.1.0"
#endif

static const struct cmd_entry *cmd_table[] = {
	&cmd_render_entry,
	&cmd_replay_entry,
	&cmd_export_entry,
	&cmd_import_entry,
	&cmd_stats_entry,
	&cmd_verify_entry,
	&cmd_index_entry,
	&cmd_score_entry,
	NULL
};

static void	usage(int) __attribute__((noreturn));

/*
 * Print the synopsis of every command and exit: on stdout with 0 (--help),
 * else on stderr.
 */
static void
usage(int status)
{
	const struct cmd_entry	**c;
	FILE			 *f = status == 0 ? stdout : stderr;

	for (c = cmd_table; *c != NULL; c++)
		fprintf(f, "%s transcripts %s %s\n", c == cmd_table ?
		    "usage:" : "      ", (*c)->name, (*c)->usage);
	fprintf(f, "       transcripts --help | --version\n");
	exit(status);
}

/* Print one command's synopsis and exit. */
void
cmd_usage(const struct cmd_entry *c)
{
	fprintf(stderr, "usage: transcripts %s %s\n", c->name, c->usage);
	exit(2);
}

/*
 * Tell of an option a command refused, as every program does, and print
 * its synopsis; exits 2.
 */
void
cmd_bad_option(const struct cmd_entry *c, const char *optstring,
    char **argv)
{
	char	name[64];

	snprintf(name, sizeof(name), "transcripts %s", c->name);
	protocol_bad_option(name, optstring, argv);
	cmd_usage(c);
}

/* Report a library error on stderr: "transcripts: file:line: offset: what". */
void
cmd_warn_error(const struct cap_error *e)
{
	char	buf[CAP_ERR_FILE + CAP_ERR_MSG + 128];

	warnx("%s", cap_error_format(e, buf, sizeof(buf)));
}

/* Find the command and run it. */
int
main(int argc, char **argv)
{
	const struct cmd_entry	**c;

	if (argc < 2)
		usage(2);
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("transcripts %s\n", MUXD_VERSION);
		return (0);
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0)
		usage(0);
	/* The commands' refused options are told of by cmd_bad_option(). */
	opterr = 0;
	for (c = cmd_table; *c != NULL; c++)
		if (strcmp(argv[1], (*c)->name) == 0)
			return ((*c)->exec(argc - 1, argv + 1));
	if (argv[1][0] == '-') {
		optind = 2;
		optopt = argv[1][1] == '-' ? 0 : (unsigned char)argv[1][1];
		protocol_bad_option("transcripts", "", argv);
	} else
		warnx("unknown command \"%s\"", argv[1]);
	usage(2);
}
