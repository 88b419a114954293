/*
 * An event written into a recording, and its faults followed.  Each
 * event goes into the capture as it happens, through a shared mapping of
 * the file (CAP_WRITE_MAP: no system call), so a killed daemon loses
 * nothing already forwarded; a write arms the sync timer, if it is not,
 * to go off the configuration's "sync" seconds (default 1) later, so an
 * idle room has no timer (what it starts is record.c's).  A capture keeps
 * at most the configuration's budget of what passed.  A write or sync
 * that fails starts a recording fault, logged, posted and shown in status
 * until the writers write again (the capture then marks what was lost).
 */
#include <stdio.h>
#include <string.h>

#include "record.h"

static struct deadline	*record_write_timer;
static const struct conf *record_write_conf;

static void	record_write_full(struct record *, uint64_t);

/* Take the configuration in force (NULL in quick mode). */
void
record_write_configure(const struct conf *cf)
{
	record_write_conf = cf;
}

/* Make the sync timer, which calls cb when it goes off. */
void
record_write_init(void (*cb)(void *))
{
	record_write_timer = deadline_new("record: the sync timer", cb, NULL);
}

/* Free the sync timer: nothing is armed any more. */
void
record_write_shutdown(void)
{
	deadline_free(record_write_timer);
	record_write_timer = NULL;
}

/* The capture of a recording: its link's, or its port's; NULL if none. */
struct cap_writer *
record_write_cap(const struct record *r)
{
	return (r->rec != NULL ? rec_capture(r->rec) : r->cap);
}

/* Arm the sync timer, if it is not: something was written. */
void
record_write_arm(void)
{
	struct timeval	tv = { 0, 0 };

	if (record_write_timer == NULL || deadline_pending(record_write_timer))
		return;
	tv.tv_sec = record_write_conf->sync_sec;
	deadline_set(record_write_timer, &tv);
}

/* Write one event to a recording, logging the first error. */
void
record_write(struct record *r, enum cap_kind kind, const void *buf,
    size_t len, const struct timeval *tv)
{
	struct cap_error	err;
	enum cap_err		e;
	uint64_t		limit;

	/*
	 * A capture keeps at most capture_limit bytes of what passed (a
	 * hostile entry must not fill the disk); past it one marker says
	 * so, the rest is counted (and marked at the end), and markers
	 * still go in.
	 */
	if (r->opening != NULL) {
		/* No files yet: counted, marked once they are made. */
		r->lost[kind == CAP_INPUT ? 0 : kind == CAP_OUTPUT ? 1 : 2] +=
		    kind == CAP_MARKER ? 1 : len;
		record_write_arm();
		return;
	}
	limit = record_write_conf != NULL ? record_write_conf->capture_limit :
	    CONF_CAPTURE_LIMIT;
	if (kind != CAP_MARKER) {
		if (r->over > 0 || r->bytes + len > limit) {
			if (r->over == 0)
				record_write_full(r, limit);
			r->over += len;
			return;
		}
		r->bytes += len;
	}
	if (r->rec != NULL)
		e = rec_event(r->rec, kind, buf, len, tv, &err);
	else
		e = cap_write_event(r->cap, kind, buf, len, tv, &err);
	record_write_fault(r, e, &err);
	/* After a fault too: the sync writes again what it kept. */
	record_write_arm();
}

/* Write a marker to a recording. */
void
record_write_marker(struct record *r, const char *fmt, ...)
{
	char		buf[CAP_MARKER_MAX];
	struct timeval	tv;
	va_list		ap;
	int		n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	port_time(&tv);
	record_write(r, CAP_MARKER, buf, n, &tv);
}

/* A recording has reached its budget: a marker, a log line, an event. */
static void
record_write_full(struct record *r, uint64_t limit)
{
	char	why[128];

	snprintf(why, sizeof(why), "capture full at %llu bytes; what "
	    "follows is counted, not recorded", (unsigned long long)limit);
	record_write_marker(r, "fault capture full %llu bytes",
	    (unsigned long long)limit);
	log_warnx("record %s: %s", r->what, why);
	events_post(PROTOCOL_EV_FAULT, json_pack("{ssssss}", "what",
	    "capture", "record", r->what, "error", why));
}

/*
 * Follow a recording's fault after a write or a sync: its start is
 * logged, posted and shown in status; while it lasts its errors are
 * counted; its end, when the writers wrote again, is logged and posted.
 */
void
record_write_fault(struct record *r, enum cap_err e,
    const struct cap_error *err)
{
	uint64_t	lost[3] = { 0, 0, 0 };
	int		f;

	if (e == CAP_ENOMEM || e == CAP_EINVAL) {
		if (r->failed++ == 0)
			log_warnx("record %s: %s (further errors counted)",
			    r->what, err->msg);
		return;
	}
	f = r->rec != NULL ? rec_fault(r->rec, lost) : r->cap != NULL ?
	    cap_write_fault(r->cap, lost) : 0;
	if (e != CAP_OK || f != 0) {
		if (e != CAP_OK)
			r->failed++;
		if (!r->fault && e != CAP_OK)
			record_write_fault_set(r, err->msg);
		if (r->fault) {
			r->lost[0] = lost[0];
			r->lost[1] = lost[1];
			r->lost[2] = lost[2];
		}
		return;
	}
	if (!r->fault || r->syncfault)
		return;
	log_info("record %s: recording again; the fault lost %llu bytes "
	    "input, %llu output, %llu markers (marked)", r->what,
	    (unsigned long long)r->lost[0], (unsigned long long)r->lost[1],
	    (unsigned long long)r->lost[2]);
	/* Cleared before it is told: status then shows it gone. */
	memcpy(lost, r->lost, sizeof(lost));
	r->fault = 0;
	r->error[0] = '\0';
	memset(r->lost, 0, sizeof(r->lost));
	events_post(PROTOCOL_EV_FAULT, json_pack("{sssssnsIsIsI}", "what",
	    "record", "record", r->what, "error", "lost_input",
	    (json_int_t)lost[0], "lost_output", (json_int_t)lost[1],
	    "lost_markers", (json_int_t)lost[2]));
}

/* A recording fault begins: logged, posted, shown in status. */
void
record_write_fault_set(struct record *r, const char *msg)
{
	r->fault = 1;
	snprintf(r->error, sizeof(r->error), "%s", msg);
	port_time(&r->since);
	log_warnx("record %s: %s; recording fault: what cannot be written "
	    "is counted and marked when writing works again", r->what, msg);
	events_post(PROTOCOL_EV_FAULT, json_pack("{ssssss}", "what",
	    "record", "record", r->what, "error", msg));
}

/* A recording's fault for status: null, or what failed and since when. */
json_t *
record_write_status(const struct record *r)
{
	if (r == NULL || !r->fault)
		return (json_null());
	return (json_pack("{sssfsIsIsI}", "error", r->error, "since",
	    r->since.tv_sec + r->since.tv_usec / 1e6, "lost_input",
	    (json_int_t)r->lost[0], "lost_output", (json_int_t)r->lost[1],
	    "lost_markers", (json_int_t)r->lost[2]));
}
