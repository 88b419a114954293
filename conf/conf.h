/*
 * conf: a room's configuration (muxd.conf(5)), read with libconfig and
 * checked whole: the ports and their addresses, the judges' stations, the
 * entities, the contest rules and the schedule of rounds (or a preset of
 * the rule texts).  Every error names its file and line.  muxd runs the
 * room from it, muxd-udev names the room's adapters from it, and comprog
 * reads its profiles with the same include reader.
 */
#ifndef CONF_H
#define CONF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "line.h"
#include "protocol.h"

/* conf.c */
#define CONF_SYNC_SEC		1	/* default: recordings synced after, s */
#define CONF_CONTROL_CLIENTS	256	/* control clients at once */
#define CONF_CONTROL_PER_USER	128	/* ... of one user */
#define CONF_CONTROL_IDLE	60	/* seconds a client may wait */
#define CONF_STATE_DIR		"/var/lib/muxd"
#define CONF_CAPTURE_LIMIT	(16LL * 1024 * 1024)	/* default, a capture */
#define CONF_ENTRY_UIDS		"61000-61099"	/* default: entries' uids */
#define CONF_ENTRY_LOG_LIMIT	(1024LL * 1024)	/* default: an entry's log */
enum conf_kind { CONF_ENTRY, CONF_CONFEDERATE };
/*
 * An exec: entry's resource limits, set with setrlimit(2) before its
 * program starts; -1 in an entity's: the room's.
 */
struct conf_rlimits {
	long long	 processes;	/* RLIMIT_NPROC, of its uid */
	long long	 files;		/* RLIMIT_NOFILE */
	long long	 file_size;	/* RLIMIT_FSIZE, bytes */
	long long	 memory;	/* RLIMIT_DATA, bytes */
	long long	 cpu;		/* RLIMIT_CPU, seconds */
	long long	 cpu_percent;	/* cpu.max, of one CPU (cgroups) */
};
enum conf_assert {		/* the opening assertion, per room */
	CONF_ASSERT_OFF,	/* not checked */
	CONF_ASSERT_CHECK,	/* checked and reported */
	CONF_ASSERT_INJECT,	/* typed by muxd for the entity, reported */
	CONF_ASSERT_HOLD	/* output held from the judge until it passes */
};
struct uids_range {		/* the entries' uids, lo to hi */
	uid_t		 lo;
	uid_t		 hi;
};
struct conf_port {
	char		*name;
	char		*address;	/* as written */
	struct addr	 addr;
	int		 line;
};
struct conf_station {
	char		*name;
	int		 judge;		/* judge number, 1..99 */
	int		 left;		/* index into ports */
	int		 right;
	int		 localecho;	/* the terminal echoes by itself: an
					   enum view_echo */
	int		 charset;	/* enum cap_encoding of its terminals */
	int		 line;
};
struct conf_entity {
	char		*name;
	enum conf_kind	 kind;
	int		 port;		/* index into ports */
	char		*approved;	/* approved human name for rule 3 */
	char		*program;	/* transcript header */
	char		*contestant;
	int		 eol;		/* enum judgeterm_eol towards it */
	int		 announce;	/* send "@@nn" CR CR at link start */
	int		 fresh;		/* exec: a new program each link */
	int		 charset;	/* enum cap_encoding of its bytes */
	long long	 uid;		/* exec: its uid ("user"), -1: one
					   of the range, picked */
	int		 network;	/* exec: its sandbox has a network */
	struct conf_rlimits limits;	/* exec: its own, -1: the room's */
	int		 line;
};
struct conf_part {			/* one judge comparing a pair, or */
	int		 station;	/* interviewing one (longnow) */
	int		 entry;		/* index into entities, -1: none */
	int		 confederate;	/* index into entities, -1: none */
};
struct conf_round {
	int		 number;
	struct conf_part *parts;
	size_t		 nparts;
	char		*excused;	/* as printed, or NULL */
};
struct conf {
	char		*file;
	char		*control;	/* control socket path */
	char		*state_dir;
	char		*capture_dir;
	char		*transcript_dir;
	char		*room_key;	/* the room's signing key file */
	char		*witness_key;	/* a referee's public key, or NULL */
	size_t		 queue_limit;
	int		 control_clients;	/* control clients at once */
	int		 control_per_user;	/* ... of one user */
	int		 control_idle;	/* seconds without a request; 0: any */
	char		*entry_user;	/* exec: programs run as; NULL:
					   the default */
	int		 sandbox;	/* exec: entries run in bwrap */
	int		 entry_cgroups;	/* 1, 0, -1: where the host allows */
	struct uids_range entry_uids;	/* their uids */
	struct conf_rlimits entry_limits;	/* the room's, each set */
	uint64_t	 entry_log_limit;	/* bytes of an entry's log */
	uint64_t	 capture_limit;	/* bytes of output a capture keeps */
	int		 sync_sec;	/* recordings synced after a write */
	struct conf_port *ports;
	size_t		 nports;
	struct conf_station *stations;
	size_t		 nstations;
	struct conf_entity *entities;
	size_t		 nentities;
	struct conf_round *rounds;
	size_t		 nrounds;
	char		*preset;	/* schedule preset name, or NULL */
	int		 duration;	/* round duration, seconds; 0: none */
	int		 duration_set;	/* given, not the preset's */
	int		 ready_wait;	/* round start: seconds to wait for
					   lines not up; 0: refuse at once */
	uint64_t	 seed;
	int		 seed_set;
	int		 convention;	/* 1996 prompt and echo for judges */
	int		 filter;	/* remove control sequences, else pass */
	enum conf_assert assertion;	/* the opening assertion policy */
	char		*typing;	/* inject: the typing model */
	char		*pattern;	/* its pcre2 pattern, NULL: default */
	int		 burst;		/* characters in 1 ms that are a burst */
	int		 ballot;	/* enum score_rule of the judges'
					   ballot at round end, -1: none */
	int		 charset;	/* enum cap_encoding: the room's */
	int		 utf8;		/* some entity's charset is utf-8 */
};
/*
 * What a check found, in the order found: every error (the parse goes on
 * past each where the rest can still be read) and every warning (a room
 * that loads but likely does not work as meant).  text is whole:
 * "FILE:LINE: what is wrong", or "FILE:LINE: warning: ...".
 */
enum conf_level { CONF_ERROR, CONF_WARNING };
struct conf_msg {
	enum conf_level	 level;
	char		*file;
	int		 line;
	char		*text;
};
struct conf_msgs {
	struct conf_msg	*v;
	size_t		 n;
	size_t		 cap;
	size_t		 errors;	/* of level CONF_ERROR */
	size_t		 warnings;
	int		 nomem;		/* a message was lost */
	int		 keep;		/* asked: on errors, keep in room */
	struct conf	*room;		/* what was read well (its ports
					   to probe); conf_free() it */
};
struct conf	*conf_load(const char *, char *, size_t);
struct conf	*conf_check(const char *, struct conf_msgs *, char *, size_t);
struct conf	*conf_check_string(const char *, const char *,
		    struct conf_msgs *, char *, size_t);
int		 conf_msgs_add(struct conf_msgs *, enum conf_level,
		    const char *, int, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
void		 conf_msgs_free(struct conf_msgs *);
struct conf	*conf_load_string(const char *, const char *, char *, size_t);
void		 conf_free(struct conf *);
int		 conf_port_find(const struct conf *, const char *);
int		 conf_station_find(const struct conf *, const char *);
int		 conf_entity_find(const struct conf *, const char *);
const struct conf_station *conf_station_named(const struct conf *,
		    const char *);
const struct conf_entity *conf_entity_named(const struct conf *,
		    const char *);
const struct conf_round *conf_round_find(const struct conf *, int);
void		 conf_schedule_print(const struct conf *, FILE *);

/* conf-sandbox.c */
void		 conf_sandbox_entry(const struct conf *, int,
		    struct conf_rlimits *, int *);

/* conf-include.c */
char		*conf_include_text(FILE *, const char *, char *, size_t);
int		 conf_include_check(const char *, const char *, const char *,
		    char *, size_t);
const char	*conf_include_where(const char *, const char *, char *, size_t);
unsigned int	 conf_include_via(const char *, const char *, const char *,
		    const char *);

/* uids.c */
#define UIDS_FIRST	1000		/* the lowest uid an entry may have */
#define UIDS_LAST	4294967294LL	/* the highest (not (uid_t)-1) */
struct uids_binding {
	char		*name;
	uid_t		 uid;
};
struct uids {
	struct uids_range range;
	struct uids_binding *b;
	size_t		 n;
	size_t		 cap;
	int		(*busy)(uid_t);	/* NULL, or whether a uid is held
					   outside the table (another room's) */
};
int		 uids_parse(const char *, struct uids_range *, char *, size_t,
		    size_t *);
void		 uids_init(struct uids *, const struct uids_range *);
void		 uids_clear(struct uids *);
long long	 uids_of(const struct uids *, const char *);
uid_t		 uids_start(const struct uids_range *, const char *);
int		 uids_assign(struct uids *, const char *, long long, uid_t *,
		    char *, size_t);

/* schedule.c */
struct schedule_triple {		/* 1-based labels: Jn En Cn, 0: none */
	int		 judge;
	int		 entry;
	int		 confederate;
};
struct schedule_round {
	int		 number;
	struct schedule_triple parts[4];
	size_t		 nparts;
	const char	*excused;	/* as printed in the rules */
};
const struct schedule_round *schedule_preset(const char *, size_t *);
int		 schedule_matrix(const char *, int, int);
const char	*schedule_preset_names(void);
int		 schedule_preset_duration(const char *);

#endif /* CONF_H */
