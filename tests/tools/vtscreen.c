/*
 * vtscreen: what a terminal shows, from the bytes written to it.
 *
 *	vtscreen [-c COLS] [-r ROWS] [FILE]
 *
 * Feeds the bytes of FILE (or standard input) to a terminal emulator
 * (libvterm, UTF-8) of COLS x ROWS (80 x 1000: tall enough that nothing
 * scrolls away) and prints its screen, one row a line, trailing blanks cut
 * and the empty rows at the bottom left out.  Two byte streams that show
 * the same text print the same lines, whatever bytes made them (an erase
 * by BS SP BS, a line end by CR LF).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vterm.h>

#define VTSCREEN_COLS	80
#define VTSCREEN_ROWS	1000

static void	usage(void) __attribute__((noreturn));

/* Print the command line summary and exit. */
static void
usage(void)
{
	fprintf(stderr, "usage: vtscreen [-c cols] [-r rows] [file]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	VTerm		*vt;
	VTermScreen	*vs;
	VTermRect	 rect;
	FILE		*in = stdin;
	char		 buf[65536], *row;
	size_t		 n, rowlen;
	int		 ch, cols = VTSCREEN_COLS, rows = VTSCREEN_ROWS, r, last;

	while ((ch = getopt(argc, argv, "c:r:")) != -1) {
		switch (ch) {
		case 'c':
			if ((cols = atoi(optarg)) < 1 || cols > 1000)
				usage();
			break;
		case 'r':
			if ((rows = atoi(optarg)) < 1 || rows > 100000)
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	if (argc == 1 && (in = fopen(argv[0], "rb")) == NULL)
		err(1, "%s", argv[0]);
	if ((vt = vterm_new(rows, cols)) == NULL)
		errx(1, "vterm_new");
	vterm_set_utf8(vt, 1);
	vs = vterm_obtain_screen(vt);
	vterm_screen_reset(vs, 1);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		vterm_input_write(vt, buf, n);
	if (ferror(in))
		err(1, "read");
	rowlen = (size_t)cols * 4 + 1;
	if ((row = malloc(rowlen)) == NULL)
		err(1, "malloc");
	/* The last row with anything on it. */
	for (last = rows - 1; last >= 0; last--) {
		rect.start_row = last;
		rect.end_row = last + 1;
		rect.start_col = 0;
		rect.end_col = cols;
		if (vterm_screen_get_text(vs, row, rowlen - 1, rect) > 0)
			break;
	}
	for (r = 0; r <= last; r++) {
		rect.start_row = r;
		rect.end_row = r + 1;
		rect.start_col = 0;
		rect.end_col = cols;
		n = vterm_screen_get_text(vs, row, rowlen - 1, rect);
		while (n > 0 && row[n - 1] == ' ')
			n--;
		row[n] = '\0';
		printf("%s\n", row);
	}
	free(row);
	vterm_free(vt);
	return (fflush(stdout) == EOF ? 1 : 0);
}
