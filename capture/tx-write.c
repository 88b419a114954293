/*
 * The transcript writer: the header lines of the 1996 rules, then the
 * lines of the state machine (tx-line.c) formatted as
 * "JUDGEnn[HH:MM:SS]text", "PROGRAM[HH:MM:SS]text" and "*** JUDGEnn ***".
 * Times are wall-clock times at the capture's fixed UTC offset, so a
 * capture renders the same anywhere.
 *
 * Live, the text of each event goes out with one write(2) as soon as it
 * finishes a line; buffered (render) and in memory (verify), it is kept
 * and written at the end.  The file is created, never reused: the next
 * free cycle number LPyy-nn.TXT in the directory.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"

#define TX_WRITE_CHUNK	65536	/* buffered: write when this much waits */
#define TX_WRITE_MEM	0x100	/* private flag: keep everything */
#define TX_WRITE_PENDING (4UL << 20)	/* text kept while writes fail */
#define TX_WRITE_CUTMAX	80		/* room for the cut line */

struct tx_writer {
	/* What an event touches first, on as few cache lines. */
	int		 flags;
	int		 finished;
	int		 dirty;		/* written since the last fsync */
	int		 fd;
	char		*buf;		/* formatted text not yet written */
	size_t		 len;
	size_t		 size;
	struct view	 v;		/* the judge's screen: the rows */
	struct filter	 f;		/* the entity's output, as shown */
	int		 own;		/* we created and close fd */
	int		 fault;		/* errno of the write that failed */
	uint64_t	 dropped;	/* text given up, past the pending */
	size_t		 cutat;		/* where the cut line is in buf */
	size_t		 cutlen;	/* its length, 0: none */
	uint64_t	 cutlost;	/* the text it stands for */
	char		*path;
	struct cap_meta	 meta;
};

static enum cap_err tx_write_new(const struct cap_meta *, int,
		    struct tx_writer **, struct cap_error *);
static int	tx_write_grow(struct tx_writer *, size_t);
static void	tx_write_escaped(struct tx_writer *, const char *);
static void	tx_write_out(struct tx_writer *, const struct tx_out *);
static void	tx_write_row(void *, const struct tx_out *);
static void	tx_write_header(struct tx_writer *);
static enum cap_err tx_write_flush(struct tx_writer *, struct cap_error *);
static int	tx_write_highest(const char *, const char *);
static void	tx_write_gap(struct tx_writer *, const unsigned char *,
		    size_t);

/* Make the name LPyy-nn.TXT of cycle n for a start time; its length. */
size_t
tx_write_name(char *buf, size_t size, int64_t timestamp, int32_t utc_offset,
    int n)
{
	struct tm	tm;
	time_t		t = (time_t)(timestamp + utc_offset);
	int		len;

	if (gmtime_r(&t, &tm) == NULL)
		return (0);
	len = snprintf(buf, size, "LP%02d-%02d.TXT", tm.tm_year % 100, n);
	if (len < 0 || (size_t)len >= size)
		return (0);
	return ((size_t)len);
}

/*
 * Tell whether a file found in a directory is a transcript: its name the
 * 1996 format's, LPyy-nn.TXT (any case); a state directory's
 * compliance.txt and state.json are not.
 */
int
tx_write_is_name(const char *name)
{
	size_t	i, n = strlen(name);

	if (n < 11 || (name[0] != 'L' && name[0] != 'l') ||
	    (name[1] != 'P' && name[1] != 'p') || !isdigit((unsigned char)
	    name[2]) || !isdigit((unsigned char)name[3]) || name[4] != '-' ||
	    strcasecmp(name + n - 4, ".txt") != 0)
		return (0);
	for (i = 5; i < n - 4; i++)
		if (!isdigit((unsigned char)name[i]))
			return (0);
	return (i > 5);
}

/* Allocate a writer for a meta; the header goes into its buffer. */
static enum cap_err
tx_write_new(const struct cap_meta *meta, int flags, struct tx_writer **wp,
    struct cap_error *err)
{
	struct tx_writer	*w;
	enum cap_err		 e;

	*wp = NULL;
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		cap_error_set(err, CAP_ENOMEM, NULL, 0, -1,
		    "transcript: out of memory");
		return (CAP_ENOMEM);
	}
	w->fd = -1;
	w->flags = flags;
	if ((e = cap_meta_copy(&w->meta, meta, err)) != CAP_OK) {
		free(w);
		return (e);
	}
	if ((e = cap_meta_normalize(&w->meta, err)) != CAP_OK) {
		tx_write_free(w);
		return (e);
	}
	view_init(&w->v, w->meta.tx_width, w->meta.judge, w->meta.charset,
	    (w->meta.noconvention ? 0 : VIEW_PROMPT) |
	    view_local_flags(w->meta.localecho), tx_write_row, w);
	if (w->meta.tcharset >= 0)
		view_terminal(&w->v, (enum cap_encoding)w->meta.tcharset);
	filter_init(&w->f, w->meta.nofilter, 0, NULL, NULL);
	filter_charset(&w->f, w->meta.charset);
	tx_write_header(w);
	if (w->buf == NULL) {
		tx_write_free(w);
		cap_error_set(err, CAP_ENOMEM, NULL, 0, -1,
		    "transcript: out of memory");
		return (CAP_ENOMEM);
	}
	*wp = w;
	return (CAP_OK);
}

/* Make room for n more bytes in the buffer; -1 when out of memory. */
static int
tx_write_grow(struct tx_writer *w, size_t n)
{
	size_t	 size;
	char	*p;

	if (w->len + n <= w->size)
		return (0);
	size = w->size > 0 ? w->size : 4096;
	while (size < w->len + n)
		size *= 2;
	if ((p = realloc(w->buf, size)) == NULL)
		return (-1);
	w->buf = p;
	w->size = size;
	return (0);
}

/* Append a header string, every byte as in a transcript line. */
static void
tx_write_escaped(struct tx_writer *w, const char *s)
{
	if (tx_write_grow(w, strlen(s) * 4 + 1) == -1)
		return;
	for (; *s != '\0'; s++)
		w->len += tx_line_escape(w->buf + w->len, (unsigned char)*s);
}

/*
 * Append the three header lines, and "*** JUDGEnn ***" when the judge is
 * known from the start.
 */
static void
tx_write_header(struct tx_writer *w)
{
	const struct cap_meta	*m = &w->meta;
	struct tm		 tm;
	time_t			 t = (time_t)(m->timestamp + m->utc_offset);
	const char		*program;

	if (tx_write_grow(w, 256) == -1)
		return;
	w->len += (size_t)snprintf(w->buf + w->len, w->size - w->len,
	    "This transcript is in the public domain\n");
	program = m->program != NULL ? m->program : m->entity;
	tx_write_escaped(w, program != NULL && *program != '\0' ? program :
	    "-");
	tx_write_escaped(w, " ");
	tx_write_escaped(w, m->contestant != NULL && *m->contestant != '\0' ?
	    m->contestant : "-");
	if (tx_write_grow(w, 128) == -1)
		return;
	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	w->len += (size_t)snprintf(w->buf + w->len, w->size - w->len,
	    "\nStart at: %04d/%02d/%02d %02d:%02d:%02d\n", tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (m->judge != TX_JUDGE_NONE)
		w->len += (size_t)snprintf(w->buf + w->len, w->size - w->len,
		    "*** JUDGE%02d ***\n", m->judge);
}

/* Take a row of the judge's screen from the view (its callback). */
static void
tx_write_row(void *arg, const struct tx_out *o)
{
	tx_write_out(arg, o);
}

/* Append a row of the judge's screen, or a judge change. */
static void
tx_write_out(struct tx_writer *w, const struct tx_out *o)
{
	int64_t	 s;
	char	*p;

	if (tx_write_grow(w, o->len + 32) == -1)
		return;
	p = w->buf + w->len;
	if (o->kind == TX_OUT_JUDGE) {
		w->len += (size_t)snprintf(p, 32, "*** JUDGE%02d ***\n",
		    o->judge);
		return;
	}
	s = w->meta.timestamp + w->meta.utc_offset + (o->usec >= 0 ?
	    o->usec / 1000000 : -((-o->usec + 999999) / 1000000));
	s %= 86400;
	if (s < 0)
		s += 86400;
	if (o->who == TX_PROGRAM)
		memcpy(p, "PROGRAM", 7);
	else if (o->judge == TX_JUDGE_NONE)
		memcpy(p, "JUDGE??", 7);
	else {
		memcpy(p, "JUDGE", 5);
		p[5] = (char)('0' + o->judge / 10);
		p[6] = (char)('0' + o->judge % 10);
	}
	p[7] = '[';
	p[8] = (char)('0' + s / 36000);
	p[9] = (char)('0' + s / 3600 % 10);
	p[10] = ':';
	p[11] = (char)('0' + s % 3600 / 600);
	p[12] = (char)('0' + s % 600 / 60);
	p[13] = ':';
	p[14] = (char)('0' + s % 60 / 10);
	p[15] = (char)('0' + s % 10);
	p[16] = ']';
	memcpy(p + 17, o->text, o->len);
	p[17 + o->len] = '\n';
	w->len += 18 + o->len;
}

/*
 * Write out what the buffer holds (not in memory mode).  When a write
 * fails (a full disk), what it did not take stays in the buffer and goes
 * with the next flush, so that a line cut short is finished then and
 * none is lost; past TX_WRITE_PENDING bytes kept so, the text after the
 * line begun is given up, counted.
 */
static enum cap_err
tx_write_flush(struct tx_writer *w, struct cap_error *err)
{
	uint64_t lost;
	size_t	done = 0, m;
	ssize_t	n;
	char	*nl;

	if ((w->flags & TX_WRITE_MEM) || w->len == 0)
		return (CAP_OK);
	while (done < w->len) {
		n = write(w->fd, w->buf + done, w->len - done);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			break;
		done += (size_t)n;
	}
	if (done == w->len) {
		w->len = 0;
		w->dirty = 1;
		w->fault = 0;
		w->cutlen = 0;
		w->cutlost = 0;
		return (CAP_OK);
	}
	w->fault = errno;
	cap_error_sys(err, CAP_ESYS, w->path, 0, -1, "write");
	if (done > 0)
		w->dirty = 1;
	memmove(w->buf, w->buf + done, w->len - done);
	w->len -= done;
	if (w->cutlen > 0 && done > w->cutat) {
		/* The cut line is being written: a new cut needs its own. */
		w->cutlen = 0;
		w->cutlost = 0;
	} else if (w->cutlen > 0)
		w->cutat -= done;
	if (w->len > TX_WRITE_PENDING) {
		/*
		 * The text after the line begun is given up, and a cut line
		 * put in its place says how much (transcripts(5)); the one a
		 * cut before left there is no text.
		 */
		nl = memchr(w->buf, '\n', w->len);
		m = nl != NULL ? (size_t)(nl - w->buf) + 1 : w->len;
		lost = w->len - m - (w->cutlen > 0 && w->cutat == m ?
		    w->cutlen : 0);
		w->dropped += lost;
		w->cutlost += lost;
		w->len = m;
		w->cutlen = 0;
		if (nl != NULL && w->size - m >= TX_WRITE_CUTMAX) {
			w->cutat = m;
			w->len += w->cutlen = (size_t)snprintf(w->buf + m,
			    TX_WRITE_CUTMAX, TX_WRITE_CUT "\n",
			    (unsigned long long)w->cutlost);
		}
	}
	if (err != NULL) {
		m = strlen(err->msg);
		snprintf(err->msg + m, sizeof(err->msg) - m, " (%zu bytes of "
		    "transcript kept to write again%s)", w->len, w->dropped >
		    0 ? ", some lost" : "");
	}
	return (CAP_ESYS);
}

/* The highest cycle number of LPyy-nn.TXT files for this yy in dir. */
static int
tx_write_highest(const char *dir, const char *first)
{
	DIR		*d;
	struct dirent	*de;
	int		 n, high = 0;
	const char	*s;

	if ((d = opendir(dir)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		s = de->d_name;
		if (strlen(s) != 11 || strncmp(s, first, 5) != 0 ||
		    strcmp(s + 7, ".TXT") != 0 || s[5] < '0' || s[5] > '9' ||
		    s[6] < '0' || s[6] > '9')
			continue;
		n = (s[5] - '0') * 10 + (s[6] - '0');
		if (n > high)
			high = n;
	}
	closedir(d);
	return (high);
}

/*
 * Create the next transcript in dir (made if missing): the cycle number
 * after the highest LPyy-nn.TXT there, or failing that the lowest free.
 * flags: TX_WRITE_BUFFERED.
 */
enum cap_err
tx_write_open(const char *dir, const struct cap_meta *meta, int flags,
    struct tx_writer **wp, struct cap_error *err)
{
	struct tx_writer	*w;
	char			 name[32];
	int			 n, high, pass;
	enum cap_err		 e;

	cap_error_clear(err);
	if ((e = tx_write_new(meta, flags & TX_WRITE_BUFFERED, &w, err)) !=
	    CAP_OK) {
		snprintf(err->file, sizeof(err->file), "%s", dir);
		return (e);
	}
	if (mkdir(dir, 0777) == -1 && errno != EEXIST) {
		cap_error_sys(err, CAP_ESYS, dir, 0, -1,
		    "cannot make the transcript directory");
		tx_write_free(w);
		return (CAP_ESYS);
	}
	tx_write_name(name, sizeof(name), w->meta.timestamp,
	    w->meta.utc_offset, 0);
	high = tx_write_highest(dir, name);
	for (pass = 0; pass < 2 && w->fd == -1; pass++) {
		for (n = pass == 0 ? high + 1 : 1; n <= TX_CYCLE_MAX; n++) {
			tx_write_name(name, sizeof(name), w->meta.timestamp,
			    w->meta.utc_offset, n);
			free(w->path);
			if (asprintf(&w->path, "%s/%s", dir, name) == -1) {
				w->path = NULL;
				tx_write_free(w);
				cap_error_set(err, CAP_ENOMEM, dir, 0, -1,
				    "transcript: out of memory");
				return (CAP_ENOMEM);
			}
			w->fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL |
			    O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
			if (w->fd != -1)
				break;
			if (errno != EEXIST) {
				cap_error_sys(err, CAP_ESYS, w->path, 0, -1,
				    "cannot create transcript");
				tx_write_free(w);
				return (CAP_ESYS);
			}
		}
	}
	if (w->fd == -1) {
		cap_error_set(err, CAP_EEXIST, dir, 0, -1, "cycle numbers "
		    "01 to %d of %.5s-nn.TXT are all taken", TX_CYCLE_MAX,
		    name);
		tx_write_free(w);
		return (CAP_EEXIST);
	}
	w->own = 1;
	if (!(w->flags & TX_WRITE_BUFFERED) &&
	    (e = tx_write_flush(w, err)) != CAP_OK) {
		unlink(w->path);
		tx_write_free(w);
		return (e);
	}
	*wp = w;
	return (CAP_OK);
}

/* Write a transcript to an open descriptor (not closed at the end). */
enum cap_err
tx_write_fdopen(int fd, const char *name, const struct cap_meta *meta,
    int flags, struct tx_writer **wp, struct cap_error *err)
{
	struct tx_writer	*w;
	enum cap_err		 e;

	cap_error_clear(err);
	if ((e = tx_write_new(meta, flags & TX_WRITE_BUFFERED, &w, err)) !=
	    CAP_OK)
		return (e);
	if ((w->path = strdup(name)) == NULL) {
		tx_write_free(w);
		cap_error_set(err, CAP_ENOMEM, name, 0, -1,
		    "transcript: out of memory");
		return (CAP_ENOMEM);
	}
	w->fd = fd;
	if (!(w->flags & TX_WRITE_BUFFERED) &&
	    (e = tx_write_flush(w, err)) != CAP_OK) {
		tx_write_free(w);
		return (e);
	}
	*wp = w;
	return (CAP_OK);
}

/* Make a transcript in memory: tx_write_buffer() after tx_write_finish(). */
enum cap_err
tx_write_memopen(const struct cap_meta *meta, struct tx_writer **wp,
    struct cap_error *err)
{
	cap_error_clear(err);
	return (tx_write_new(meta, TX_WRITE_MEM, wp, err));
}

/*
 * Feed an event at usec after the timestamp: "i" and "o" bytes, "m"
 * judge markers; other markers and "r" change nothing.
 */
enum cap_err
tx_write_event(struct tx_writer *w, enum cap_kind kind, const void *data,
    size_t len, int64_t usec, struct cap_error *err)
{
	const unsigned char	*p = data;
	unsigned char		 shown[1024 + FILTER_HELDMAX];
	struct view_key		 k;
	size_t			 i, n;
	int			 j;

	if (w->finished) {
		cap_error_set(err, CAP_EINVAL, w->path, 0, -1,
		    "event after the end of the transcript");
		return (CAP_EINVAL);
	}
	switch (kind) {
	case CAP_INPUT:
		for (i = 0; i < len; i++)
			(void)view_key(&w->v, p[i], usec, &k, NULL);
		break;
	case CAP_OUTPUT:
		/* What the filter kept from the judge is in no row. */
		for (i = 0; i < len; i += n) {
			n = len - i < 1024 ? len - i : 1024;
			(void)view_output(&w->v, shown, filter_feed(&w->f,
			    p + i, n, shown), usec, NULL);
		}
		break;
	case CAP_MARKER:
		if ((j = cap_marker_judge(p, len)) != -1)
			(void)view_judge(&w->v, j);
		else
			tx_write_gap(w, p, len);
		break;
	default:
		break;
	}
	if (w->flags & TX_WRITE_MEM)
		return (CAP_OK);
	if ((w->flags & TX_WRITE_BUFFERED) && w->len < TX_WRITE_CHUNK)
		return (CAP_OK);
	return (tx_write_flush(w, err));
}

/*
 * A gap in the conversation, from a marker: after a crash ("crash ...")
 * or a recording fault that lost bytes ("loss input N output M ..."),
 * the screen's unfinished lines are written, then
 * "*** CRASH ***" or "*** LOST JUDGE N BYTES PROGRAM M BYTES ***".
 */
static void
tx_write_gap(struct tx_writer *w, const unsigned char *p, size_t len)
{
	char			 text[CAP_MARKER_MAX];
	unsigned long long	 in, out;

	if (len >= sizeof(text))
		return;
	memcpy(text, p, len);
	text[len] = '\0';
	if (strncmp(text, "crash", 5) == 0 && (text[5] == '\0' ||
	    text[5] == ' ')) {
		view_flush(&w->v);
		if (tx_write_grow(w, 16) == 0)
			w->len += (size_t)snprintf(w->buf + w->len, 16,
			    "*** CRASH ***\n");
	} else if (sscanf(text, "loss input %llu output %llu", &in, &out) ==
	    2) {
		view_flush(&w->v);
		if (tx_write_grow(w, 96) == 0)
			w->len += (size_t)snprintf(w->buf + w->len, 96,
			    "*** LOST JUDGE %llu BYTES PROGRAM %llu BYTES "
			    "***\n", in, out);
	}
}

/*
 * fsync(2) the transcript if anything was written since the last sync;
 * text kept by a failed write is written again first.
 */
enum cap_err
tx_write_sync(struct tx_writer *w, struct cap_error *err)
{
	enum cap_err	e;

	if (!w->own)
		return (CAP_OK);
	if ((e = tx_write_flush(w, err)) != CAP_OK)
		return (e);
	return (cap_write_fsync(w->fd, w->path, &w->dirty, err));
}

/*
 * Hand over the transcript's next fsync(2): *fdp is a duplicate of its
 * file to sync and close, or -1 when nothing was written since the last
 * sync (or the writer does not own a file).
 */
enum cap_err
tx_write_sync_fd(struct tx_writer *w, int *fdp, struct cap_error *err)
{
	enum cap_err	e;

	*fdp = -1;
	if (!w->own)
		return (CAP_OK);
	if (!(w->flags & TX_WRITE_BUFFERED) && (e = tx_write_flush(w, err)) !=
	    CAP_OK) {
		/* What was written still gets its sync. */
		(void)cap_write_fsync_fd(w->fd, w->path, &w->dirty, fdp, NULL);
		return (e);
	}
	return (cap_write_fsync_fd(w->fd, w->path, &w->dirty, fdp, err));
}

/*
 * The errno of the last write when it failed (0 when it did not), and
 * the bytes of text kept to write again in *pending when not NULL.
 */
int
tx_write_fault(const struct tx_writer *w, size_t *pending)
{
	if (pending != NULL)
		*pending = w->len;
	return (w->fault);
}

/* End the conversation: write the unfinished lines and everything held. */
enum cap_err
tx_write_finish(struct tx_writer *w, struct cap_error *err)
{
	if (w->finished)
		return (CAP_OK);
	w->finished = 1;
	filter_finish(&w->f);
	view_flush(&w->v);
	return (tx_write_flush(w, err));
}

/* Finish, sync and close a transcript, and free the writer. */
enum cap_err
tx_write_close(struct tx_writer *w, struct cap_error *err)
{
	enum cap_err	e, e2;

	if (w == NULL)
		return (CAP_OK);
	e = tx_write_finish(w, err);
	e2 = tx_write_sync(w, e == CAP_OK ? err : NULL);
	if (e == CAP_OK)
		e = e2;
	if (w->own && close(w->fd) == -1 && e == CAP_OK) {
		e = cap_error_sys(err, CAP_ESYS, w->path, 0, -1, "close");
	}
	w->own = 0;
	tx_write_free(w);
	return (e);
}

/* The transcript's file name (or the name given). */
const char *
tx_write_path(const struct tx_writer *w)
{
	return (w->path);
}

/* The text of an in-memory transcript and its length. */
const char *
tx_write_buffer(const struct tx_writer *w, size_t *len)
{
	*len = w->len;
	return (w->buf != NULL ? w->buf : "");
}

/* Free a writer without writing anything more (its file stays). */
void
tx_write_free(struct tx_writer *w)
{
	if (w == NULL)
		return;
	if (w->own && w->fd != -1)
		close(w->fd);
	cap_meta_free(&w->meta);
	free(w->path);
	free(w->buf);
	free(w);
}
