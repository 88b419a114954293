/*
 * The recorder's own parts, bottom up: record-recover.c (the captures a
 * muxd that died left open), record-write.c (an event written into a
 * recording, its faults followed) and record.c (the recordings of links
 * and ports opened and closed, the sync pass, the events); below them
 * all, record-sync.c (the sync thread, in muxd.h).  muxd.h has what the
 * rest of muxd calls.
 */
#ifndef RECORD_H
#define RECORD_H

#include "muxd.h"
#include "../capture/capture.h"

struct record {
	struct rec		*rec;		/* a link's capture + transcript */
	struct cap_writer	*cap;		/* a port's unrouted capture */
	int			 failed;	/* write errors, logged once */
	char			*what;		/* for messages */
	/*
	 * A recording fault (a full disk, an I/O error): set by the
	 * first write that fails, shown in status until a write goes
	 * through again; what it lost is counted (and marked by the
	 * writer when it ends).
	 */
	int			 fault;
	char			 error[CAP_ERR_MSG];
	struct timeval		 since;
	uint64_t		 lost[3];	/* "i", "o" bytes, markers */
	int			 syncfault;	/* the last sync failed */
	uint64_t		 bytes;		/* input and output recorded */
	uint64_t		 over;		/* past the budget, not recorded */
	unsigned		 pass;		/* the last pass that took it */
	/*
	 * A link's recording whose files could not be made (a full disk):
	 * made again at each sync until they are, what passed meanwhile
	 * counted as a fault's loss and marked at the capture's start.
	 */
	struct link		*opening;
	enum cap_err		 open_err;
	int			 open_errno;
	struct record		*next;		/* closing: the next one */
};

/* record-recover.c */
void		 record_recover(const struct conf *);

/* record-write.c */
void		 record_write_configure(const struct conf *);
void		 record_write_init(void (*)(void *));
void		 record_write_shutdown(void);
struct cap_writer *record_write_cap(const struct record *);
void		 record_write_arm(void);
void		 record_write(struct record *, enum cap_kind, const void *,
		    size_t, const struct timeval *);
void		 record_write_marker(struct record *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 record_write_fault(struct record *, enum cap_err,
		    const struct cap_error *);
void		 record_write_fault_set(struct record *, const char *);
json_t		*record_write_status(const struct record *);

#endif
