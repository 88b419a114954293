/*
 * What the commands that read captures share: opening one, reading its
 * events with every error reported on stderr, and the judge's screen
 * (view.c) of an event.  Not a command itself.
 */
#include <stdlib.h>
#include <string.h>

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

/*
 * Start the judge's screen of a capture as its link drew it (view.c), in
 * UTF-8 for the terminal that shows it.
 */
void
cmd_capture_screen(struct cmd_screen *s, const struct cap_reader *r)
{
	const struct cap_meta	*m = cap_read_meta(r);

	view_init(&s->v, m->tx_width, m->judge, m->charset, VIEW_UTF8OUT |
	    (m->noconvention ? 0 : VIEW_PROMPT) |
	    view_local_flags(m->localecho), NULL, NULL);
	if (m->tcharset >= 0)
		view_terminal(&s->v, (enum cap_encoding)m->tcharset);
	filter_init(&s->f, m->nofilter, 0, NULL, NULL);
	filter_charset(&s->f, m->charset);
}

/*
 * Feed an event to a screen into *out, grown as needed (*size bytes):
 * the bytes to show (at a station whose terminals echo by themselves,
 * their echo of the judge's keys too), or -1 when out of memory (errno
 * set, *out kept).  Markers and resizes show nothing.
 */
ssize_t
cmd_capture_view(struct cmd_screen *s, const struct cap_event *ev,
    char **out, size_t *size)
{
	struct view_key	 k;
	size_t		 need, i, n, o = 0;
	char		*p;

	if (ev->kind != CAP_INPUT && ev->kind != CAP_OUTPUT)
		return (0);
	for (i = 0; ev->kind == CAP_INPUT && i <= ev->len; i++) {
		if (*size - o < 2 * VIEW_SHOWMAX) {
			need = *size + 4 * VIEW_SHOWMAX;
			if ((p = realloc(*out, need)) == NULL)
				return (-1);
			*out = p;
			*size = need;
		}
		if (i == ev->len)
			break;
		/* A terminal's own echo first (localecho), then muxd's. */
		n = view_key(&s->v, ev->data[i], ev->usec, &k, s->key);
		o += view_local_key(&s->v, ev->data[i], &k, *out + o);
		memcpy(*out + o, s->key, n);
		o += n;
	}
	if (ev->kind == CAP_INPUT)
		return ((ssize_t)o);
	if ((need = VIEW_OUTLEN(ev->len)) > *size) {
		if ((p = realloc(*out, need)) == NULL)
			return (-1);
		*out = p;
		*size = need;
	}
	for (i = 0; i < ev->len; i += n) {
		n = ev->len - i < 1024 ? ev->len - i : 1024;
		o += view_output(&s->v, s->shown, filter_feed(&s->f,
		    ev->data + i, n, s->shown), ev->usec, *out + o);
	}
	return ((ssize_t)o);
}
