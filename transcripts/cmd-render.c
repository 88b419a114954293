/*
 * transcripts render: captures to public-domain transcripts, through the
 * very state machine and formatter muxd used live (tx-write.c), so the
 * result equals what muxd wrote, byte for byte.
 */
#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static int	cmd_render_exec(int, char **);
static int	cmd_render_one(const char *, const char *);

const struct cmd_entry cmd_render_entry = {
	"render", "[-o dir] capture ...", cmd_render_exec
};

/*
 * Render one capture into dir (or standard output for "-"): 0, or 1
 * when the capture had errors (reported, and the transcript still made
 * from every event that could be read).
 */
static int
cmd_render_one(const char *path, const char *dir)
{
	struct cap_reader	*r;
	struct tx_writer	*w;
	struct cap_event	 ev;
	struct cap_error	 e;
	enum cap_err		 rc;
	char			 out[PATH_MAX];
	int			 status = 0;

	if ((r = cmd_capture_open(path)) == NULL)
		return (1);
	if (strcmp(dir, "-") == 0)
		rc = tx_write_fdopen(STDOUT_FILENO, "<stdout>",
		    cap_read_meta(r), TX_WRITE_BUFFERED, &w, &e);
	else
		rc = tx_write_open(dir, cap_read_meta(r), TX_WRITE_BUFFERED,
		    &w, &e);
	if (rc != CAP_OK) {
		cmd_warn_error(&e);
		cap_read_close(r);
		return (1);
	}
	while (cmd_capture_next(r, &ev, &status)) {
		if (tx_write_event(w, ev.kind, ev.data, ev.len, ev.usec,
		    &e) != CAP_OK) {
			cmd_warn_error(&e);
			status = 1;
			break;
		}
	}
	snprintf(out, sizeof(out), "%s", tx_write_path(w));
	if (tx_write_close(w, &e) != CAP_OK) {
		cmd_warn_error(&e);
		status = 1;
	}
	if (strcmp(dir, "-") != 0 && status == 0)
		printf("%s\n", out);
	else if (strcmp(dir, "-") != 0)
		warnx("%s: rendered, with the errors above, to %s", path, out);
	cap_read_close(r);
	return (status);
}

/* transcripts render [-o dir] capture ... */
static int
cmd_render_exec(int argc, char **argv)
{
	static const struct option	 opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char			*dir = ".";
	int				 ch, i, status = 0;

	while ((ch = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			dir = optarg;
			break;
		default:
			cmd_bad_option(&cmd_render_entry, "o:", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cmd_usage(&cmd_render_entry);
	for (i = 0; i < argc; i++)
		status |= cmd_render_one(argv[i], dir);
	if (fflush(stdout) == EOF) {
		warn("standard output");
		status = 1;
	}
	return (status);
}
