/*
 * transcripts export --screen: the judge's screen (view.c) as a plain
 * asciicast v2 file, UTF-8 text in "o" events, for asciinema and the
 * browser player.  Markers are kept as "m" events.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static int	cmd_export_exec(int, char **);

const struct cmd_entry cmd_export_entry = {
	"export", "--screen -o out.cast capture", cmd_export_exec
};

/* transcripts export --screen -o out.cast capture */
static int
cmd_export_exec(int argc, char **argv)
{
	static const struct option	 opts[] = {
		{ "screen", no_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct cap_reader		*r;
	struct cap_writer		*w;
	struct cap_event		 ev;
	struct cap_error		 e;
	struct cap_meta			 m;
	struct cmd_screen		 v;
	enum cap_err			 rc;
	const char			*outpath = NULL;
	char				*out = NULL, *title;
	size_t				 outsize = 0;
	ssize_t				 n;
	int				 ch, screen = 0, status = 0;

	while ((ch = getopt_long(argc, argv, "So:", opts, NULL)) != -1) {
		switch (ch) {
		case 'S':
			screen = 1;
			break;
		case 'o':
			outpath = optarg;
			break;
		default:
			cmd_bad_option(&cmd_export_entry, "So:", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || !screen || outpath == NULL)
		cmd_usage(&cmd_export_entry);
	if ((r = cmd_capture_open(argv[0])) == NULL)
		return (1);
	if (cap_meta_copy(&m, cap_read_meta(r), &e) != CAP_OK) {
		cmd_warn_error(&e);
		cap_read_close(r);
		return (1);
	}
	m.encoding = CAP_UTF8;
	m.screen = 1;
	if (asprintf(&title, "%s (judge's screen)", m.title != NULL ?
	    m.title : argv[0]) == -1)
		err(1, "asprintf");
	free(m.title);
	m.title = title;
	rc = cap_write_open(outpath, &m, CAP_WRITE_NOSEGMENT, &w, &e);
	cap_meta_free(&m);
	if (rc != CAP_OK) {
		cmd_warn_error(&e);
		cap_read_close(r);
		return (1);
	}
	cmd_capture_screen(&v, r);
	while (cmd_capture_next(r, &ev, &status)) {
		if (ev.kind == CAP_MARKER) {
			rc = cap_write_event_usec(w, CAP_MARKER, ev.data,
			    ev.len, ev.usec, &e);
		} else {
			if ((n = cmd_capture_view(&v, &ev, &out, &outsize)) ==
			    -1)
				err(1, "%s: event of %zu bytes", argv[0],
				    ev.len);
			if (n == 0)
				continue;
			rc = cap_write_event_usec(w, CAP_OUTPUT, out,
			    (size_t)n, ev.usec, &e);
		}
		if (rc != CAP_OK) {
			cmd_warn_error(&e);
			status = 1;
			break;
		}
	}
	if (cap_write_close(w, &e) != CAP_OK) {
		cmd_warn_error(&e);
		status = 1;
	}
	free(out);
	cap_read_close(r);
	return (status);
}
