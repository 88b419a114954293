/*
 * libFuzzer harness for the capture reader (capture/cap-read.c and
 * cap-json.c), and behind it the transcript state machine and the screen
 * view: the input is a capture file.  Every event read must survive
 * being written again and read back unchanged.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void	fuzz_cap_recode(const struct cap_event *, enum cap_encoding);

/* Write an event again and parse it back: it must be the same. */
static void
fuzz_cap_recode(const struct cap_event *ev, enum cap_encoding enc)
{
	struct cap_event	 back;
	char			*line, msg[256];
	unsigned char		*data;
	size_t			 n, erroff;

	if (enc == CAP_UTF8)
		return;		/* invalid UTF-8 is replaced on writing */
	line = malloc(CAP_JSON_MAX(ev->len));
	data = malloc(CAP_JSON_MAX(ev->len));
	if (line == NULL || data == NULL)
		abort();
	n = cap_json_event(line, ev->usec, ev->kind, ev->data, ev->len, enc);
	if (n == 0 || line[n - 1] != '\n')
		abort();
	if (cap_json_parse_event(line, n - 1, enc, &back, data, &erroff, msg,
	    sizeof(msg)) != CAP_OK)
		abort();
	if (back.usec != ev->usec || back.kind != ev->kind ||
	    back.len != ev->len || memcmp(back.data, ev->data, ev->len) != 0)
		abort();
	free(line);
	free(data);
}

/* One input: a capture, read to its end through everything that uses it. */
int
LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
	struct cap_reader	*r;
	struct tx_writer	*w;
	struct cap_event	 ev;
	struct cap_error	 e;
	struct view		 v;
	enum cap_err		 rc;
	char			*out;
	struct view_key		 k;
	size_t			 n, i;
	int			 fd;

	if ((fd = memfd_create("fuzz_cap", MFD_CLOEXEC)) == -1)
		abort();
	if (len > 0 && write(fd, buf, len) != (ssize_t)len)
		abort();
	lseek(fd, 0, SEEK_SET);
	if (cap_read_fdopen(fd, "fuzz", &r, &e) != CAP_OK) {
		if (e.msg[0] == '\0')
			abort();
		close(fd);
		return (0);
	}
	cap_read_set_limit(r, 1024);
	w = NULL;
	if (tx_write_memopen(cap_read_meta(r), &w, &e) != CAP_OK)
		w = NULL;
	view_init(&v, 0, 1, cap_read_meta(r)->charset, VIEW_PROMPT, NULL,
	    NULL);
	while ((rc = cap_read_event(r, &ev, &e)) != CAP_EOF) {
		if (rc != CAP_OK && e.msg[0] == '\0')
			abort();
		if (rc != CAP_OK && rc != CAP_EORDER)
			continue;
		if (ev.data[ev.len] != '\0')
			abort();
		fuzz_cap_recode(&ev, cap_read_meta(r)->encoding);
		if (w != NULL)
			tx_write_event(w, ev.kind, ev.data, ev.len, ev.usec, &e);
		/* The screen, fed unfiltered: no sequence may overrun it. */
		if ((out = malloc(VIEW_OUTLEN(ev.len))) == NULL)
			abort();
		if (ev.kind == CAP_OUTPUT) {
			n = view_output(&v, ev.data, ev.len, ev.usec, out);
			if (n > VIEW_OUTLEN(ev.len))
				abort();
		} else if (ev.kind == CAP_INPUT) {
			for (i = 0; i < ev.len; i++)
				if (view_key(&v, ev.data[i], ev.usec, &k, out) >
				    VIEW_SHOWMAX)
					abort();
		}
		free(out);
	}
	if (w != NULL) {
		tx_write_finish(w, &e);
		tx_write_close(w, &e);
	}
	cap_read_close(r);
	close(fd);
	return (0);
}
