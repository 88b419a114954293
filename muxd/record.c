/*
 * Recording, the evidence of the contest: every link is recorded while it
 * lasts, as a capture (asciicast v2, every byte with its time) in the
 * captures directory and, when one side is an entity, a public-domain
 * transcript (LPyy-nn.TXT) in transcripts/ENTITY/, both written live by
 * libcapture.  Bytes a port sends while unrouted go to that port's own
 * capture.  Events (lines down and up, drops, rounds) become markers in the
 * captures they concern; a link made while one of its lines is not up
 * has that marked at its start, and the keys a judge types at a dead line
 * are refused, counted in one marker, never recorded as its input.
 *
 * This file opens and closes the recordings of links and ports, turns
 * the events into markers and runs the syncs; what writes an event into
 * a recording and follows its faults is record-write.c, and at start-up
 * the captures a muxd that died left open are closed first
 * (record-recover.c).  The files are synced at most the configuration's
 * "sync" seconds (default 1) after a write, by a timer armed only while
 * something is unsynced (record-write.c).  The timer only hands the
 * files to the sync thread (record-sync.c), and a recording that ends
 * hands its last writes over the same way before it closes: forwarding
 * never waits for the disk.  A sync that fails is a recording fault too.
 *
 * Before a capture is handed over it is sealed, and its seal hashes
 * what was written since the last one: some 5 KB a second for a link
 * typed at full speed, 128 links 700 KB, 2 ms of hashing that held every
 * byte back when done in one go.  So the timer starts a pass over the
 * recordings that seals and hands them over in turns of RECORD_TURN
 * bytes of that work, the loop forwarding what came meanwhile between
 * two turns; the last turn sends the lot to the sync thread.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define RECORD_TURN	(64 * 1024)	/* a turn of a pass: bytes sealed */
#define RECORD_EACH	1024		/* a recording handed over counts so */

static struct event	*record_pass_ev;	/* the next turn of a pass */
static unsigned		 record_pass;		/* the pass under way, or last */
static int		 record_passing;	/* a pass is under way */
static int		 record_again;		/* the timer came during it */
static int		 record_on;
static int		 record_syncfaults;	/* recordings whose sync failed */
static const struct conf *record_conf;
static struct record	*record_closing;	/* ends the disk refused */
static int		 record_stopping;	/* closed whatever then */

static void	record_tap(void *, const struct port *, const struct link *,
		    enum port_dir, const unsigned char *, size_t,
		    const struct timeval *);
static void	record_timer_cb(void *);
static void	record_synced(const char *, int);
static void	record_pass_cb(evutil_socket_t, short, void *);
static size_t	record_pass_take(struct record *);
static int	record_sync(struct record *);
static void	record_free(struct record *);
static int	record_end(struct record *, char *, size_t);
static void	record_close_files(struct record *);
static void	record_closing_retry(void);
static struct record *record_port(struct port *);
static void	record_meta(const struct link *, struct cap_meta *);
static char	*record_word(const char *);
static int	 record_resume(struct record *, const struct cap_writer *);
static void	 record_events(void *, const struct events_ev *);
static void	 record_line_state(struct record *, const struct port *);
static int	 record_link_make(struct record *);

/* Take the configuration in force (NULL in quick mode). */
void
record_configure(const struct conf *cf)
{
	record_conf = cf;
	record_write_configure(cf);
}

/* Start recording if the configuration names a captures directory. */
void
record_init(void)
{
	if (record_conf == NULL || record_conf->capture_dir == NULL)
		return;
	if (state_mkdirs(record_conf->capture_dir) == -1)
		log_warn("captures directory %s", record_conf->capture_dir);
	if (record_conf->transcript_dir != NULL &&
	    state_mkdirs(record_conf->transcript_dir) == -1)
		log_warn("transcripts directory %s", record_conf->transcript_dir);
	record_recover(record_conf);
	if (tap_register(record_tap, NULL) == -1)
		fatalx("record: no room for the tap observer");
	/* A line's events become markers. */
	events_subscribe(record_events, NULL, EVENTS_BIT(PROTOCOL_EV_PORT_UP) |
	    EVENTS_BIT(PROTOCOL_EV_PORT_DOWN) | EVENTS_BIT(PROTOCOL_EV_DROP));
	record_write_init(record_timer_cb);
	if ((record_pass_ev = evtimer_new(muxd_base, record_pass_cb, NULL)) ==
	    NULL)
		fatalx("record: cannot allocate a timer");
	record_sync_init(record_synced);
	record_on = 1;
}

/* Stop recording: close every file, and wait until all are synced. */
void
record_shutdown(void)
{
	struct port	*p;

	if (!record_on)
		return;
	TAILQ_FOREACH(p, &ports, entry)
		record_port_close(p);
	record_stopping = 1;
	record_closing_retry();
	record_stopping = 0;
	tap_unregister(record_tap, NULL);
	events_unsubscribe(record_events, NULL);
	record_write_shutdown();
	/* A pass cut short: what it did not take, record_port_close did. */
	event_free(record_pass_ev);
	record_pass_ev = NULL;
	record_sync_stop();
	record_on = 0;
}

/* Close a port's unrouted capture, when the port goes away. */
void
record_port_close(struct port *p)
{
	record_free(p->data);
	p->data = NULL;
}

/*
 * Free a recording, closing its files once their last writes are handed
 * to the sync thread.
 */
static void
record_free(struct record *r)
{
	char			why[CAP_ERR_MSG];

	if (r == NULL)
		return;
	if (r->syncfault)
		record_syncfaults--;
	if (r->opening != NULL) {
		log_warnx("record %s: never recorded, its files could not be "
		    "made: %llu bytes input, %llu output, %llu markers lost",
		    r->what, (unsigned long long)r->lost[0],
		    (unsigned long long)r->lost[1],
		    (unsigned long long)r->lost[2]);
		events_post(PROTOCOL_EV_FAULT, json_pack("{sssssssIsIsI}",
		    "what", "record", "record", r->what, "error", "never "
		    "recorded", "lost_input", (json_int_t)r->lost[0],
		    "lost_output", (json_int_t)r->lost[1], "lost_markers",
		    (json_int_t)r->lost[2]));
	}
	if (r->over > 0)
		record_write_marker(r, "drop capture %llu bytes past the "
		    "budget", (unsigned long long)r->over);
	/*
	 * An end the disk refuses (a full disk) is kept, its files open,
	 * and written at a later sync: closed now, the capture would end
	 * unsealed, taken for a crash's, and the transcript lose its last
	 * lines.
	 */
	if (record_end(r, why, sizeof(why)) == -1 && record_on &&
	    !record_stopping) {
		log_warnx("record %s: its end cannot be written yet (%s); "
		    "kept open and tried again at each sync", r->what, why);
		events_post(PROTOCOL_EV_FAULT, json_pack("{ssssss}", "what",
		    "record end", "record", r->what, "error", why));
		r->next = record_closing;
		record_closing = r;
		record_write_arm();
		return;
	}
	record_close_files(r);
}

/*
 * Write a recording's end: the capture's closing seal, the transcript's
 * unfinished lines; 0, or -1 when a write failed (why says it).
 */
static int
record_end(struct record *r, char *why, size_t len)
{
	struct cap_error	err;
	enum cap_err		e = CAP_OK;

	if (r->rec != NULL)
		e = rec_finish(r->rec, &err);
	else if (r->cap != NULL)
		e = cap_write_seal(r->cap, 1, &err);
	if (e == CAP_OK)
		return (0);
	snprintf(why, len, "%s", err.msg);
	record_write_fault(r, e, &err);
	return (-1);
}

/* Hand a recording's last writes to the sync thread, close, free. */
static void
record_close_files(struct record *r)
{
	struct cap_error	err;

	if (record_sync(r))
		record_write_arm();
	if (r->rec != NULL && rec_close(r->rec, &err) != CAP_OK)
		log_warnx("record %s: %s", r->what, err.msg);
	if (r->cap != NULL && cap_write_close(r->cap, &err) != CAP_OK)
		log_warnx("record %s: %s", r->what, err.msg);
	free(r->what);
	free(r);
}

/*
 * Write the ends the disk refused before; close those written (all of
 * them as muxd stops, saying which end without their end).
 */
static void
record_closing_retry(void)
{
	struct record	*r, **rp;
	char		 why[CAP_ERR_MSG];
	int		 rc;

	for (rp = &record_closing; (r = *rp) != NULL; ) {
		if ((rc = record_end(r, why, sizeof(why))) == -1 &&
		    !record_stopping) {
			rp = &r->next;
			record_write_arm();
			continue;
		}
		*rp = r->next;	/* out of the list before it is told */
		if (rc == 0) {
			log_info("record %s: its end written, closed", r->what);
			events_post(PROTOCOL_EV_FAULT, json_pack("{sssssn}",
			    "what", "record end", "record", r->what, "error"));
		} else {
			log_warnx("record %s: closed without its end (%s): the "
			    "capture is taken for a crash's at the next start",
			    r->what, why);
			events_post(PROTOCOL_EV_FAULT, json_pack("{sssss+}",
			    "what", "record end", "record", r->what, "error",
			    "closed without its end: ", why));
		}
		record_close_files(r);
	}
}

/* Turn text into one word of a marker: spaces kept single, ASCII only. */
static char *
record_word(const char *s)
{
	char	*w, *o;

	w = xmalloc(strlen(s) + 1);
	for (o = w; *s != '\0'; s++) {
		if (*s < 0x21 || *s > 0x7e) {
			if (o > w && o[-1] != ' ')
				*o++ = ' ';
		} else
			*o++ = *s;
	}
	while (o > w && o[-1] == ' ')
		o--;
	*o = '\0';
	return (w);
}

/* Fill a capture header for a link from the configuration. */
static void
record_meta(const struct link *l, struct cap_meta *m)
{
	const struct conf_station	*st = conf_station_named(record_conf,
					    l->station);
	const struct conf_entity	*en = conf_entity_named(record_conf,
					    l->entity);
	char				*addr;
	struct timeval			 tv;
	char				 soft[64];

	cap_meta_init(m);
	port_time(&tv);
	m->timestamp = l->since.tv_sec;
	m->round = l->round;
	m->judge = st != NULL ? st->judge : TX_JUDGE_NONE;
	cap_meta_set(&m->title, l->name);
	cap_meta_set(&m->station, l->station);
	cap_meta_set(&m->side, l->side == 0 ? "left" : l->side == 1 ? "right" :
	    NULL);
	cap_meta_set(&m->entity, l->entity);
	cap_meta_set(&m->kind, en == NULL ? NULL : en->kind == CONF_ENTRY ?
	    "entry" : "confederate");
	cap_meta_set(&m->program, en != NULL ? en->program : NULL);
	cap_meta_set(&m->contestant, en != NULL ? en->contestant : NULL);
	if (en != NULL)
		m->charset = (enum cap_encoding)en->charset;
	if (st != NULL)
		m->tcharset = st->charset;
	/* How the judge's screen was drawn, for the rows (view.c). */
	if (record_conf == NULL || st == NULL || en == NULL) {
		m->noconvention = 1;
		m->nofilter = 1;
	} else {
		m->noconvention = !record_conf->convention;
		m->nofilter = !record_conf->filter;
		m->localecho = st->localecho;
	}
	cap_meta_set(&m->judge_port, l->a->name);
	addr = addr_format(&l->a->addr);
	cap_meta_set(&m->judge_address, addr);
	free(addr);
	cap_meta_set(&m->entity_port, l->b->name);
	addr = addr_format(&l->b->addr);
	cap_meta_set(&m->entity_address, addr);
	free(addr);
	snprintf(soft, sizeof(soft), "muxd %s", MUXD_VERSION);
	cap_meta_set(&m->software, soft);
}

/*
 * Open the recording of a link that has just been made, once its round,
 * station, side and entity are known.  When its files cannot be made,
 * the link goes on unrecorded, as a recording fault that each sync
 * tries to end by making them (record_link_make).
 */
void
record_link_open(struct link *l)
{
	struct record	*r;

	if (!record_on)
		return;
	r = xcalloc(1, sizeof(*r));
	r->what = xstrdup(l->name);
	r->opening = l;
	if (record_link_make(r) == -1 && r->open_err == CAP_EINVAL) {
		r->opening = NULL;
		record_free(r);
		return;
	}
	l->record = r;
	if (r->opening != NULL)
		record_write_arm();
}

/*
 * Make the files of a link's recording (r->opening), then its first
 * markers, and, after a fault, the loss of what passed before them; 0,
 * or -1 when they cannot be made yet (the first time said, and shown
 * in status as the recording's fault).
 */
static int
record_link_make(struct record *r)
{
	struct link		*l = r->opening;
	struct cap_meta		 m;
	struct cap_error	 err;
	enum cap_err		 e;
	const char		*name;
	char			 path[1024], txdir[1024], msg[CAP_ERR_MSG];
	uint64_t		 lost[3];
	int			 faulty;

	if (l->round > 0)
		snprintf(path, sizeof(path), "%s/round%02d-%s.cast",
		    record_conf->capture_dir, l->round, l->name);
	else
		snprintf(path, sizeof(path), "%s/manual-%s.cast",
		    record_conf->capture_dir, l->name);
	txdir[0] = '\0';
	if (l->entity != NULL && record_conf->transcript_dir != NULL) {
		snprintf(txdir, sizeof(txdir), "%s/%s",
		    record_conf->transcript_dir, l->entity);
		if (state_mkdirs(txdir) == -1) {
			if (!r->fault)
				log_warn("record: transcripts directory %s",
				    txdir);
			txdir[0] = '\0';
		}
	}
	record_meta(l, &m);
	e = rec_open(path, txdir[0] != '\0' ? txdir : NULL, &m, CAP_WRITE_MAP,
	    &r->rec, &err);
	cap_meta_free(&m);
	if (e != CAP_OK) {
		r->open_err = e;
		r->open_errno = err.sys;
		if (r->fault)
			return (-1);
		if (e == CAP_EINVAL) {
			log_warnx("record: link %s: %s: %s", l->name,
			    err.file[0] != '\0' ? err.file : path, err.msg);
			events_post(PROTOCOL_EV_FAULT, json_pack("{ssssss}",
			    "what", "record", "record", l->name, "error",
			    err.msg));
			return (-1);
		}
		/* Said once, as the fault it starts. */
		snprintf(msg, sizeof(msg), "%s (its files made again at each "
		    "sync)", err.msg);
		record_write_fault_set(r, msg);
		return (-1);
	}
	/* Its first marker ends the fault: what it lost is kept here. */
	memcpy(lost, r->lost, sizeof(lost));
	faulty = r->fault;
	r->opening = NULL;
	log_info("record: link %s in %s%s%s", l->name,
	    rec_capture_path(r->rec), rec_transcript_path(r->rec) != NULL ?
	    " and " : "", rec_transcript_path(r->rec) != NULL ?
	    rec_transcript_path(r->rec) : "");
	if (!record_resume(r, rec_capture(r->rec)) && l->round > 0)
		record_write_marker(r, "round start %d", l->round);
	record_write_marker(r, "link up %s %s %s", l->name, l->a->name,
	    l->b->name);
	if (faulty) {
		/* What passed while the files could not be made. */
		name = r->open_errno != 0 ? strerrorname_np(r->open_errno) :
		    NULL;
		record_write_marker(r, "fault record open %s", name != NULL ?
		    name : "unknown");
		record_write_marker(r, "loss input %llu output %llu markers "
		    "%llu %s", (unsigned long long)lost[0],
		    (unsigned long long)lost[1], (unsigned long long)lost[2],
		    name != NULL ? name : "unknown");
	}
	record_line_state(r, l->a);
	record_line_state(r, l->b);
	return (0);
}

/*
 * Mark a line of a link that is not up as the link starts (round start
 * --force), as its fault would have been marked: its coming up is then
 * marked as any line's.
 */
static void
record_line_state(struct record *r, const struct port *p)
{
	char	*w;

	if (p->state == PORT_UP)
		return;
	w = record_word(p->error);
	record_write_marker(r, "fault %s %s%s%s", p->name,
	    port_state_name(p->state), w[0] != '\0' ? " " : "", w);
	free(w);
}

/* Close the recording of a link that ends. */
void
record_link_close(struct link *l, const char *reason)
{
	char	*w;

	if (l->record == NULL)
		return;
	w = record_word(reason);
	record_write_marker(l->record, "link down %s", w);
	if (l->round > 0 && strcmp(reason, "round stopped") == 0)
		record_write_marker(l->record, "round stop %d", l->round);
	free(w);
	record_free(l->record);
	l->record = NULL;
}

/* Open a port's capture for unrouted traffic, on its first byte. */
static struct record *
record_port(struct port *p)
{
	struct cap_meta		 m;
	struct cap_error	 err;
	struct record		*r;
	char			 path[1024], soft[64], *addr;

	if (p->data != NULL)
		return (p->data);
	cap_meta_init(&m);
	m.timestamp = p->since.tv_sec;
	snprintf(path, sizeof(path), "%s/unrouted-%s.cast",
	    record_conf->capture_dir, p->name);
	cap_meta_set(&m.title, p->name);
	cap_meta_set(&m.judge_port, p->name);
	addr = addr_format(&p->addr);
	cap_meta_set(&m.judge_address, addr);
	free(addr);
	snprintf(soft, sizeof(soft), "muxd %s", MUXD_VERSION);
	cap_meta_set(&m.software, soft);
	r = xcalloc(1, sizeof(*r));
	r->what = xstrdup(p->name);
	if (cap_write_open(path, &m, CAP_WRITE_MAP, &r->cap, &err) != CAP_OK) {
		log_warnx("record: port %s: %s: %s", p->name, path, err.msg);
		events_post(PROTOCOL_EV_FAULT, json_pack("{ssssss}", "what",
		    "record", "record", p->name, "error", err.msg));
		cap_meta_free(&m);
		record_free(r);
		return (NULL);
	}
	cap_meta_free(&m);
	record_resume(r, r->cap);
	p->data = r;
	return (r);
}

/*
 * Start a later segment of a capture (muxd restarted, or the link made
 * again) with the marker that ties it to the one before; 1 when it is
 * one.
 */
static int
record_resume(struct record *r, const struct cap_writer *w)
{
	struct cap_error	err;
	char			text[CAP_MARKER_MAX];

	if (cap_write_meta(w)->segment == 0)
		return (0);
	if (cap_write_resume(w, text, sizeof(text), &err) == 0) {
		log_warnx("record %s: the segment before %s: %s", r->what,
		    cap_write_path(w), err.msg);
		snprintf(text, sizeof(text), "resume unknown");
	}
	record_write_marker(r, "%s", text);
	return (1);
}

/*
 * Hand what a recording wrote since its last sync to the sync thread;
 * 1 when there was something.
 */
static int
record_sync(struct record *r)
{
	struct cap_error	err;
	enum cap_err		e;
	int			fd[2] = { -1, -1 };

	if (r->rec == NULL && r->cap == NULL)
		return (0);
	if (r->rec != NULL)
		e = rec_sync_fd(r->rec, fd, &err);
	else
		e = cap_write_sync_fd(r->cap, &fd[0], &err);
	if (e != CAP_OK && !r->fault)
		log_warnx("record %s: %s", r->what, err.msg);
	record_write_fault(r, e, &err);
	if (fd[0] != -1)
		record_sync_add(fd[0], cap_write_path(record_write_cap(r)));
	if (fd[1] != -1)
		record_sync_add(fd[1], rec_transcript_path(r->rec));
	return (fd[0] != -1 || fd[1] != -1);
}

/*
 * A sync of a recording's file came back (record-sync.c): a failure is
 * a recording fault (what was written since the sync before may not be
 * on the disk), marked in the capture, until a sync of it succeeds.
 */
static void
record_synced(const char *path, int error)
{
	struct port	*p;
	struct link	*l;
	struct record	*r, *rs[2];
	char		 msg[CAP_ERR_MSG];
	int		 i;

	if (error == 0 && record_syncfaults == 0)
		return;
	TAILQ_FOREACH(p, &ports, entry) {
		rs[0] = p->data;
		rs[1] = (l = link_of(p)) != NULL && l->a == p ? l->record :
		    NULL;
		for (i = 0; i < 2; i++) {
			if ((r = rs[i]) == NULL || record_write_cap(r) ==
			    NULL || (error == 0 && !r->syncfault))
				continue;
			if (strcmp(cap_write_path(record_write_cap(r)),
			    path) != 0 && (r->rec == NULL ||
			    rec_transcript_path(r->rec) == NULL ||
			    strcmp(rec_transcript_path(r->rec), path) != 0))
				continue;
			if (error != 0 && !r->syncfault) {
				snprintf(msg, sizeof(msg), "%s: sync: %s",
				    path, strerror(error));
				r->syncfault = 1;
				record_syncfaults++;
				if (!r->fault)
					record_write_fault_set(r, msg);
				record_write_marker(r, "fault record sync "
				    "%s %s", strerrorname_np(error),
				    strrchr(path, '/') != NULL ?
				    strrchr(path, '/') + 1 : path);
			} else if (error == 0 && r->syncfault) {
				r->syncfault = 0;
				record_syncfaults--;
				record_write_fault(r, CAP_OK, NULL);
			}
		}
	}
}

/* A link's recording fault for status (control.c), or null. */
json_t *
record_link_status(const struct link *l)
{
	return (record_write_status(l->record));
}

/*
 * The recordings whose end the disk refused, kept open until it is
 * written, for status (control.c): each its name and its fault.
 */
json_t *
record_closing_status(void)
{
	struct record	*r;
	json_t		*a, *o;

	a = json_array();
	for (r = record_closing; r != NULL; r = r->next) {
		/* Not in json_is_object(), which reads its argument twice. */
		o = record_write_status(r);
		if (!json_is_object(o))
			o = json_object();	/* a fault cleared, not its end */
		json_object_set_new(o, "record", json_string(r->what));
		json_array_append_new(a, o);
	}
	return (a);
}

/* A port's own capture's fault for status (control.c), or null. */
json_t *
record_port_status(const struct port *p)
{
	return (record_write_status(p->data));
}

/*
 * Record a link's bytes from one of its ends, in the capture and the
 * transcript: the judge's as input, the entity's (or what muxd types
 * for it, the assertion it injects) as output.  The one door from a
 * link to its recording, whatever the rules' policy.
 */
void
record_link_bytes(struct link *l, const struct port *from,
    const unsigned char *buf, size_t n, const struct timeval *tv)
{
	if (l->record != NULL)
		record_write(l->record, from == l->a ? CAP_INPUT : CAP_OUTPUT,
		    buf, n, tv);
}

/* Write a marker to a link's recording, if it has one. */
void
record_link_note(struct link *l, const char *fmt, ...)
{
	char		buf[CAP_MARKER_MAX];
	va_list		ap;

	if (l->record == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	record_write_marker(l->record, "%s", buf);
}

/* Write a marker to a port's own capture (opened if need be). */
void
record_port_note(struct port *p, const char *fmt, ...)
{
	struct record	*r;
	char		 buf[CAP_MARKER_MAX];
	va_list		 ap;

	if (!record_on || link_of(p) != NULL || (r = record_port(p)) == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	record_write_marker(r, "%s", buf);
}

/*
 * The tap observer: bytes read from a port with no link go to its own
 * capture (a link's go through record_link_bytes()).
 */
static void
record_tap(void *arg, const struct port *cp, const struct link *cl,
    enum port_dir dir, const unsigned char *buf, size_t len,
    const struct timeval *tv)
{
	struct port	*p = (struct port *)cp;
	struct record	*r;

	(void)arg;
	if (dir != PORT_IN || cl != NULL)
		return;
	if ((r = record_port(p)) != NULL)
		record_write(r, CAP_INPUT, buf, len, tv);
}

/*
 * Turn a line's event into a marker in the recording it concerns: the
 * port's link's, or its unrouted capture when one is open (an events
 * observer).
 */
static void
record_events(void *arg, const struct events_ev *ev)
{
	struct port	*p = ev->port;
	struct record	*r;
	char		*w;

	(void)arg;
	if (p == NULL)
		return;
	r = link_of(p) != NULL ? link_of(p)->record : p->data;
	if (r == NULL)
		return;
	switch (ev->type) {
	case PROTOCOL_EV_PORT_DOWN:
		w = record_word(ev->error != NULL ? ev->error : "");
		record_write_marker(r, "fault %s down %s", p->name, w);
		free(w);
		break;
	case PROTOCOL_EV_PORT_UP:
		record_write_marker(r, "fault %s up", p->name);
		break;
	case PROTOCOL_EV_DROP:
		w = record_word(ev->error != NULL ? ev->error : "queue full");
		record_write_marker(r, "drop %s %llu %s", p->name,
		    (unsigned long long)ev->bytes, w);
		free(w);
		break;
	default:
		break;
	}
}

/*
 * Start a pass that hands every recording written since the last sync,
 * and those closed since, to the sync thread; a pass under way is
 * followed by another at once.
 */
static void
record_timer_cb(void *arg)
{
	(void)arg;
	if (record_passing) {
		record_again = 1;
		return;
	}
	record_passing = 1;
	record_pass++;
	record_pass_cb(-1, 0, NULL);
}

/*
 * A turn of the pass: seal and hand over the recordings it has not taken
 * yet, until RECORD_TURN bytes of that work are done; the next turn comes
 * after the loop has looked at its lines again.  The ports are walked from
 * the start at every turn, so a port or link gone meanwhile is no matter.
 */
static void
record_pass_cb(evutil_socket_t fd, short what, void *arg)
{
	static const struct timeval	 now = { 0, 0 };
	struct port			*p;
	struct link			*l;
	size_t				 work = 0;

	(void)fd;
	(void)what;
	(void)arg;
	TAILQ_FOREACH(p, &ports, entry) {
		if (work >= RECORD_TURN) {
			evtimer_add(record_pass_ev, &now);
			return;
		}
		if (p->data != NULL)
			work += record_pass_take(p->data);
		if ((l = link_of(p)) != NULL && l->a == p && l->record != NULL)
			work += record_pass_take(l->record);
	}
	record_closing_retry();
	record_sync_flush();
	record_passing = 0;
	if (record_again) {
		record_again = 0;
		record_timer_cb(NULL);
	}
}

/* Seal and hand over a recording, once a pass; the work it was. */
static size_t
record_pass_take(struct record *r)
{
	size_t	n;

	if (r->pass == record_pass)
		return (0);
	r->pass = record_pass;
	if (r->opening != NULL && record_link_make(r) == -1) {
		record_write_arm();
		return (RECORD_EACH);
	}
	n = record_write_cap(r) != NULL ?
	    cap_write_unhashed(record_write_cap(r)) : 0;
	return (record_sync(r) ? n + RECORD_EACH : n);
}

/* The writer of a link's capture, or NULL when it is not recorded. */
const struct cap_writer *
record_link_writer(const struct link *l)
{
	return (l->record != NULL && l->record->rec != NULL ?
	    rec_capture(l->record->rec) : NULL);
}

