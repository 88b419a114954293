/*
 * muxd: serial-line multiplexer for a Turing-test contest room.
 *
 * A port is one cabled line (a judge terminal or an entity).  A link joins
 * two ports; every byte read from one end of a link is written to the other
 * end at once.  A port belongs to at most one link; bytes from an unrouted
 * port go nowhere (they still pass tap_bytes()).  Rounds create links from
 * the schedule; the control socket lets operators add and remove them.
 */
#ifndef MUXD_H
#define MUXD_H

#include <sys/types.h>
#include <sys/time.h>
#include <sys/queue.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <jansson.h>

#include "line.h"
#include "contest.h"
#include "conf.h"
#include "protocol.h"

#ifndef MUXD_VERSION
#define MUXD_VERSION "0.1.0"
#endif

#define MUXD_ERRLEN		LINE_ERRLEN
/*
 * The loop's priorities: lines, timers and the rest in the middle (the
 * default), control clients last, so that events written to hundreds of
 * watchers never hold back a byte being forwarded.
 */
#define MUXD_PRIOS		3
#define MUXD_PRIO_CONTROL	2
#define MUXD_CONTROL_BURST	16	/* its callbacks between looks */


/* tap.c */
struct port;
struct link;
typedef void (*tap_fn)(void *, const struct port *, const struct link *,
    enum port_dir, const unsigned char *, size_t, const struct timeval *);
void		 tap_bytes(struct port *, void *, enum port_dir,
		    const unsigned char *, size_t, const struct timeval *);
int		 tap_register(tap_fn, void *);
void		 tap_unregister(tap_fn, void *);

/* events.c */
struct events_ev {
	enum protocol_event type;
	struct port	*port;		/* a line's event: the port, or NULL */
	const char	*error;		/* port.down: why; drop: reason, NULL */
	uint64_t	 bytes;		/* drop: bytes in this report */
	json_t		*fields;	/* the wire fields, or NULL */
};
typedef void (*events_fn)(void *, const struct events_ev *);
#define EVENTS_BIT(type)	((uint32_t)1 << (type))
#define EVENTS_ALL		(EVENTS_BIT(PROTOCOL_EV_COUNT) - 1)
void		 events_subscribe(events_fn, void *, uint32_t);
void		 events_unsubscribe(events_fn, void *);
void		 events_want(events_fn, void *, uint32_t);
int		 events_wanted(enum protocol_event);
void		 events_emit(struct events_ev *);
void		 events_post(enum protocol_event, json_t *);
void		 events_port(enum protocol_event, struct port *, const char *,
		    uint64_t, uint64_t, int);

/* deadline.c */
struct deadline;
struct deadline	*deadline_new(const char *, void (*)(void *), void *);
void		 deadline_free(struct deadline *);
void		 deadline_set(struct deadline *, const struct timeval *);
void		 deadline_clear(struct deadline *);
int		 deadline_pending(const struct deadline *);

/* record.c */
struct record;
struct cap_writer;
struct link;
void		 record_configure(const struct conf *);
void		 record_init(void);

/* ballot.c */
void		 ballot_configure(const struct conf *);
void		 ballot_round_end(int);
void		 ballot_start(void);
int		 ballot_input(struct port *, const unsigned char *, size_t);
void		 ballot_cancel(const char *);

/* seal.c */
int		 seal_keygen(const struct conf *);
void		 seal_init(const struct conf *);
#define SEAL_SHORT_LEN	20	/* a manifest's short form and a NUL */
int		 seal_manifest(const char *, int, char *);
void		 seal_shutdown(void);
/* A manifest goes to a witness in pieces of this, base64 in a line. */
#define SEAL_WITNESS_CHUNK	32768
json_t		*seal_witness_get(int, int64_t, char *, size_t);
json_t		*seal_witness_put(int, const char *, char *, size_t);

void		 record_shutdown(void);
void		 record_link_open(struct link *);
void		 record_link_close(struct link *, const char *);
const struct cap_writer *record_link_writer(const struct link *);
void		 record_port_close(struct port *);
void		 record_link_bytes(struct link *, const struct port *,
		    const unsigned char *, size_t, const struct timeval *);
json_t		*record_link_status(const struct link *);
json_t		*record_port_status(const struct port *);
json_t		*record_closing_status(void);
void		 record_port_note(struct port *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 record_link_note(struct link *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* worker.c */
struct worker;
struct worker_job {
	STAILQ_ENTRY(worker_job) entry;
};
struct worker	*worker_start(int, void (*)(struct worker_job *),
		    void (*)(struct worker_job *), char *, size_t);
void		 worker_put(struct worker *, struct worker_job *);
void		 worker_stop(struct worker *, int,
		    void (*)(struct worker_job *));

/* record-sync.c */
void		 record_sync_init(void (*)(const char *, int));
void		 record_sync_stop(void);
void		 record_sync_add(int, const char *);
void		 record_sync_flush(void);

/* scanports.c */
json_t		*scanports_json(char *, size_t);

/* cablecheck.c */
json_t		*cablecheck_start(const json_t *, int, char *, size_t);

/* link.c */
enum link_origin { LINK_ROUND, LINK_MANUAL };
struct link {
	/* What a byte forwarded touches first. */
	struct port	*a;		/* judge terminal side, if any */
	struct port	*b;		/* entity side */
	struct record	*record;	/* capture and transcript */
	struct rules	*rules;		/* contest rules, when a judge's */
	int		 deferred;	/* the entity's output is recorded as
					   the judge gets it (rules-entity.c) */
	enum link_origin origin;
	TAILQ_ENTRY(link) entry;
	char		*name;
	int		 round;		/* round number, 0 for manual */
	int		 side;		/* 0 left, 1 right, -1 none */
	char		*station;	/* the station's name, or NULL */
	char		*entity;	/* the entity's name, or NULL */
	struct timeval	 since;
	/*
	 * A judge's link made while its entity's line was not up (round
	 * start --force): until that line first comes up the judge's keys
	 * are refused with a notice, counted here and not recorded as the
	 * conversation, and the rules are not yet open (link.c).
	 */
	int		 dead;
	uint64_t	 refused;	/* bytes refused while dead */
};
TAILQ_HEAD(link_list, link);
extern struct link_list links;

/* The link a port is in (its owner), or NULL. */
static inline struct link *
link_of(const struct port *p)
{
	return (p->owner);
}

struct link	*link_new(const char *, struct port *, struct port *,
		    enum link_origin, char *, size_t);
void		 link_free(struct link *, const char *);
struct link	*link_find(const char *);
struct port	*link_peer(const struct link *, const struct port *);
void		 link_port_unlink(void *, const char *);
void		 link_configure(const struct conf *);
void		 link_waits_set(int (*)(const struct port *));
void		 link_place(struct link *, const char *, int, const char *);
void		 link_started(struct link *);
int		 link_is_terminal(const struct port *);
void		 link_notice(struct port *, const char *);
void		 link_notice_confederate(struct port *, const char *);
json_t		*link_json(const struct link *);
json_t		*link_save(void);
void		 link_keep(int);
int		 link_load(const json_t *, int, char *, size_t);
void		 link_forward(struct port *, const unsigned char *, size_t,
		    const struct timeval *);

/* link-flow.c */
void		 link_flow_hold(struct port *);
void		 link_flow_writable(struct port *);

/* rules.c */
struct rules;
int		 rules_configure(const struct conf *, char *, size_t);
void		 rules_shutdown(void);
void		 rules_link_open(struct link *);
void		 rules_link_close(struct link *);
void		 rules_forward(struct link *, struct port *,
		    const unsigned char *, size_t, const struct timeval *, int);

/* rules-entity.c */
int		 rules_entity_release(struct link *, char *, size_t);

/* rules-verdict.c */
json_t		*rules_verdict_save(void);
int		 rules_verdict_load(const json_t *, int, char *, size_t);

/* round.c */
struct round_state {
	int		 active;	/* a round is running */
	int		 number;	/* the running round */
	int		 last;		/* the last round run, 0 none */
	uint64_t	 seed;		/* placement seed of the round */
	time_t		 started;	/* wall clock */
	time_t		 ends;		/* 0: no duration */
};
extern struct round_state round_cur;
void		 round_configure(const struct conf *);
int		 round_cancel(const char *);
int		 round_start(int, int, char *, size_t);
int		 round_stop(const char *);
void		 round_resume(void);
void		 round_reload(void);
json_t		*round_json(void);
json_t		*round_schedule_json(void);
int		 round_right_is_entry(uint64_t, int, size_t);
int		 round_waits_for(const struct port *);
json_t		*round_save(void);
int		 round_load(const json_t *, int, char *, size_t);

/* state.c */
typedef json_t	*(*state_save_fn)(void);
typedef int	 (*state_load_fn)(const json_t *, int, char *, size_t);
void		 state_register(state_save_fn, state_load_fn);
void		 state_init(const char *);
int		 state_mkdirs(const char *);
int		 state_save(void);
int		 state_append(const char *, const char *, const char *, size_t,
		    const char *);
const char	*state_failure(void);
void		 state_save_soon(void);
void		 state_flush(void);
int		 state_load(void);

/* notify.c */
void		 notify_start(void);
void		 notify_reloading(void);
void		 notify_reloaded(void);
void		 notify_stopping(void);

/* spawn-box.c */
#define SPAWN_BOX_BWRAP	"/usr/bin/bwrap"
#define SPAWN_BOX_HIDE	5		/* paths of muxd's covered */
#define SPAWN_BOX_HOME	"/home/entry"
const char	*spawn_box_limits(const struct conf_rlimits *);
const char	**spawn_box_argv(const char **, size_t, int, char *const *,
		    const char *, char *, size_t);
const char	*spawn_box_probe(const struct uids_range *, char *, size_t);

/* spawn.c */
void		 spawn_start(const struct conf *, const char *, int);
void		 spawn_listen(struct event_base *);
void		 spawn_close(void);
void		 spawn_configure(const struct conf *);
pid_t		 spawn_run(struct port *, int, char *, size_t);
void		 spawn_kill(pid_t, int);
json_t		*spawn_json(void);

/* priv.c */
int		 priv_drop(const char *, const char **, char *, size_t);

/* control-screens.c */
typedef void	(*control_screens_fn)(uint64_t, json_t *, json_t *);
int		 control_screens_ask(control_screens_fn, uint64_t, json_t *,
		    json_t *, uint64_t, char *, size_t);
void		 control_screens_stop(void);

/* control-cmd.c */
typedef int	(*control_reload_fn)(char *, size_t);
void		 control_cmd_reloader(control_reload_fn);
json_t		*control_cmd_status(json_t *);
json_t		*control_cmd_room(const char *, json_t *, char *, size_t);

/* control.c */
int		 control_listen(const char *, control_reload_fn, char *,
		    size_t);
void		 control_close(void);

/* muxd.c */
extern struct event_base *muxd_base;
extern struct conf *muxd_conf;
int		 muxd_reload(char *, size_t);

#endif /* MUXD_H */
