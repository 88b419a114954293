/*
 * What the commands that read captures share: opening one, reading its
 * events with every error reported on stderr, and the judge's screen
 * (view.c) of an event.  Not a command itself.
 */
#include <stdlib.h>

#include "cmd.h"

/* Open a capture: its reader, or NULL when it cannot be read (reported). */
struct cap_reader *
cmd_capture_open(const char *path)
{
	struct cap_reader	*r;
	struct cap_error	 e;

	if (cap_read_open(path, &r, &e) != CAP_OK) {
		cmd_warn_error(&e);
		return (NULL);
	}
	return (r);
}

/*
 * Read the next event to use: 1 with ev filled, 0 at the end.  Every
 * error is reported and sets *status to 1; an event out of order is still
 * used, the other bad lines are skipped.
 */
int
cmd_capture_next(struct cap_reader *r, struct cap_event *ev, int *status)
{
	struct cap_error	e;
	enum cap_err		rc;

	for (;;) {
		rc = cap_read_event(r, ev, &e);
		if (rc == CAP_EOF)
			return (0);
		if (rc == CAP_OK)
			return (1);
		cmd_warn_error(&e);
		*status = 1;
		if (rc == CAP_EORDER)
			return (1);
	}
}

/* Start the judge's screen of a capture, in its link's character set. */
void
cmd_capture_screen(struct view *v, const struct cap_reader *r)
{
	view_init(v);
	view_charset(v, cap_read_meta(r)->charset);
}

/*
 * Feed an event to a screen into *out, grown as needed (*size bytes):
 * the bytes to show, or -1 when out of memory (errno set, *out kept).
 */
ssize_t
cmd_capture_view(struct view *v, const struct cap_event *ev, char **out,
    size_t *size)
{
	char	*p;

	if (VIEW_OUTLEN(ev->len) > *size) {
		if ((p = realloc(*out, VIEW_OUTLEN(ev->len))) == NULL)
			return (-1);
		*out = p;
		*size = VIEW_OUTLEN(ev->len);
	}
	return ((ssize_t)view_feed(v, ev->kind, ev->data, ev->len, *out));
}
