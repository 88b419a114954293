/*
 * comprog's own record of the conversation (1996 rule 11: entries record
 * their conversations), in muxd's formats through libcapture: a
 * capture (asciicast v2, every byte with its time) and, beside it, the
 * public-domain transcript LPyy-nn.TXT made from the same events.
 *
 * As in muxd's captures, "i" events are the judge's keystrokes and "o"
 * events the entity's text: on the judge's side the keys typed and what
 * came from the line (less muxd's echo, see echo.c); on the confederate's
 * and the entry's side what came from the line and what was sent, at the
 * time it was typed.  Line faults and drops are markers.  Each event is
 * one write(2); the files are fsync'ed at most a second after a write.
 * A write error is logged once; the conversation never waits for the disk.
 *
 * The judge's side may not know the line's charset at start (muxd names
 * it in its answer to the ENQ, judge.c): its recording is then held
 * (transcript_who.hold) until transcript_charset() says it, the events
 * meanwhile kept in memory, up to TRANSCRIPT_HOLDMAX bytes, and written
 * with their times once the files are open with the charset in the
 * header; more than that, or the end, opens them with the charset then
 * known.
 */
#include <sys/time.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "comprog.h"

#define TRANSCRIPT_SYNC_SEC	1
#define TRANSCRIPT_HOLDMAX	65536	/* bytes held for the charset */
#define TRANSCRIPT_HOLDEVENTS	1024	/* events held for the charset */

static struct rec	*transcript_rec;
static struct event	*transcript_timer;
static int		 transcript_failed;

/* A recording held for its charset: what to open, and the events. */
static int		 transcript_holding;
static const char	*transcript_dir;
static struct transcript_who transcript_who;
static struct timeval	 transcript_start_tv;
static struct transcript_held {
	enum cap_kind	 kind;
	struct timeval	 tv;
	size_t		 off;		/* in transcript_hbuf */
	size_t		 len;
} transcript_held[TRANSCRIPT_HOLDEVENTS];
static size_t		 transcript_nheld;
static unsigned char	 transcript_hbuf[TRANSCRIPT_HOLDMAX];
static size_t		 transcript_hlen;

static int	transcript_start(char *, size_t);
static void	transcript_release(void);
static void	transcript_write(enum cap_kind, const void *, size_t,
		    const struct timeval *);
static void	transcript_sync_cb(evutil_socket_t, short, void *);

/*
 * Start recording in dir: DIR/comprog-ROLE-YYYYmmdd-HHMMSS.cast and the
 * next DIR/LPyy-nn.TXT, now or, when who->hold, once the charset is
 * known (the directory is checked now).
 */
int
transcript_open(const char *dir, const struct transcript_who *who, char *err,
    size_t errlen)
{
	transcript_dir = dir;
	transcript_who = *who;
	comprog_time(&transcript_start_tv);
	if (!who->hold)
		return (transcript_start(err, errlen));
	if (access(dir, W_OK | X_OK) == -1) {
		snprintf(err, errlen, "cannot record in %s: %s", dir,
		    strerror(errno));
		return (-1);
	}
	transcript_holding = 1;
	return (0);
}

/* Open the files, the header saying the start and the charset. */
static int
transcript_start(char *err, size_t errlen)
{
	const struct transcript_who *who = &transcript_who;
	const char		*dir = transcript_dir;
	struct cap_meta		 m;
	struct cap_error	 ce;
	struct timeval		 tv = transcript_start_tv;
	struct tm		 tm;
	char			 path[1024], stamp[32], title[256];
	char			 soft[64];
	const char		*line = who->address;

	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(path, sizeof(path), "%s/comprog-%s-%s.cast", dir, who->role,
	    stamp);
	cap_meta_init(&m);
	m.timestamp = tv.tv_sec;
	snprintf(title, sizeof(title), "comprog %s %s", who->role, line);
	cap_meta_set(&m.title, title);
	cap_meta_set(&m.term, getenv("TERM"));
	cap_meta_set(&m.entity, who->entity);
	if (!who->judge_side)
		cap_meta_set(&m.kind, strcmp(who->role, "entry") == 0 ?
		    "entry" : "confederate");
	cap_meta_set(&m.program, who->program);
	cap_meta_set(&m.contestant, who->contestant);
	cap_meta_set(&m.judge_port, who->judge_side ? "keyboard" : "line");
	cap_meta_set(&m.judge_address, who->judge_side ? NULL : line);
	cap_meta_set(&m.entity_port, who->judge_side ? "line" :
	    strcmp(who->role, "entry") == 0 ? "program" : "keyboard");
	cap_meta_set(&m.entity_address, who->judge_side ? line : NULL);
	snprintf(soft, sizeof(soft), "comprog %s", MUXD_VERSION);
	cap_meta_set(&m.software, soft);
	m.charset = who->charset;
	if (rec_open(path, dir, &m, 0, &transcript_rec, &ce) != CAP_OK) {
		snprintf(err, errlen, "cannot record in %s: %s: %s", dir,
		    ce.file[0] != '\0' ? ce.file : path, ce.msg);
		cap_meta_free(&m);
		return (-1);
	}
	cap_meta_free(&m);
	if ((transcript_timer = evtimer_new(comprog_base, transcript_sync_cb,
	    NULL)) == NULL)
		fatalx("cannot allocate the transcript's timer");
	return (0);
}

/*
 * Say the line's charset: a held recording is opened with it and the
 * events held are written.  An open one keeps its own.
 */
void
transcript_charset(enum cap_encoding charset)
{
	if (!transcript_holding) {
		if (transcript_rec != NULL && charset !=
		    transcript_who.charset)
			log_warnx("transcript: recorded as %s, the line is "
			    "now %s", cap_encoding_name(transcript_who.charset),
			    cap_encoding_name(charset));
		return;
	}
	transcript_who.charset = charset;
	transcript_release();
}

/* Open a held recording with the charset known now, and write its events. */
static void
transcript_release(void)
{
	struct transcript_held	*h;
	char			 err[LINE_ERRLEN];
	size_t			 i;

	transcript_holding = 0;
	if (transcript_start(err, sizeof(err)) == -1)
		log_warnx("%s: nothing is recorded", err);
	else
		for (i = 0; i < transcript_nheld; i++) {
			h = &transcript_held[i];
			transcript_write(h->kind, transcript_hbuf + h->off,
			    h->len, &h->tv);
		}
	transcript_nheld = transcript_hlen = 0;
}

/* The capture's file name, or NULL when not recording. */
const char *
transcript_path(void)
{
	return (transcript_rec != NULL ? rec_capture_path(transcript_rec) :
	    NULL);
}

/* Write one event, logging the first error; arm the sync timer. */
static void
transcript_write(enum cap_kind kind, const void *buf, size_t len,
    const struct timeval *tv)
{
	struct cap_error	ce;
	struct timeval		now;
	struct timeval		sync = { TRANSCRIPT_SYNC_SEC, 0 };

	if (len == 0)
		return;
	if (tv == NULL) {
		comprog_time(&now);
		tv = &now;
	}
	if (transcript_holding && (transcript_nheld == TRANSCRIPT_HOLDEVENTS ||
	    len > sizeof(transcript_hbuf) - transcript_hlen))
		transcript_release();
	if (transcript_holding) {
		transcript_held[transcript_nheld].kind = kind;
		transcript_held[transcript_nheld].tv = *tv;
		transcript_held[transcript_nheld].off = transcript_hlen;
		transcript_held[transcript_nheld].len = len;
		memcpy(transcript_hbuf + transcript_hlen, buf, len);
		transcript_hlen += len;
		transcript_nheld++;
		return;
	}
	if (transcript_rec == NULL)
		return;
	if (rec_event(transcript_rec, kind, buf, len, tv, &ce) != CAP_OK) {
		if (transcript_failed++ == 0)
			log_warnx("transcript: %s (further errors counted)",
			    ce.msg);
		return;
	}
	if (!evtimer_pending(transcript_timer, NULL))
		evtimer_add(transcript_timer, &sync);
}

/* Record the judge's keystrokes. */
void
transcript_judge(const void *buf, size_t len, const struct timeval *tv)
{
	transcript_write(CAP_INPUT, buf, len, tv);
}

/* Record the entity's text. */
void
transcript_entity(const void *buf, size_t len, const struct timeval *tv)
{
	transcript_write(CAP_OUTPUT, buf, len, tv);
}

/* Record a marker: ASCII words, single spaces (transcripts(5)). */
void
transcript_marker(const char *fmt, ...)
{
	char	buf[CAP_MARKER_MAX], out[CAP_MARKER_MAX];
	va_list	ap;
	size_t	i, o = 0;
	int	space = 0;

	if (transcript_rec == NULL && !transcript_holding)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; buf[i] != '\0' && o < sizeof(out) - 1; i++) {
		if (isspace((unsigned char)buf[i])) {
			space = o > 0;
			continue;
		}
		if (space && o < sizeof(out) - 2)
			out[o++] = ' ';
		space = 0;
		out[o++] = isprint((unsigned char)buf[i]) &&
		    (unsigned char)buf[i] < 0x7f ? buf[i] : '?';
	}
	out[o] = '\0';
	transcript_write(CAP_MARKER, out, o, NULL);
}

/* fsync what was written in the last second. */
static void
transcript_sync_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cap_error	ce;

	(void)fd;
	(void)what;
	(void)arg;
	if (transcript_rec != NULL && rec_sync(transcript_rec, &ce) != CAP_OK)
		log_warnx("transcript: sync: %s", ce.msg);
}

/* Finish the transcript and close both files. */
void
transcript_close(void)
{
	struct cap_error	ce;

	if (transcript_holding)
		transcript_release();
	if (transcript_timer != NULL)
		event_free(transcript_timer);
	transcript_timer = NULL;
	if (transcript_rec == NULL)
		return;
	if (rec_close(transcript_rec, &ce) != CAP_OK)
		log_warnx("transcript: %s", ce.msg);
	transcript_rec = NULL;
	if (transcript_failed > 0)
		log_warnx("transcript: %d writes failed", transcript_failed);
}
