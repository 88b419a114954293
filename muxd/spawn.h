/*
 * The entries' spawner's own parts, bottom up: spawn-box.c (an entry's
 * sandbox), spawn-cgroup.c (its control group), spawn-msg.c (the messages between muxd and the spawner),
 * spawn-serve.c (the spawner process) and spawn.c (muxd's side, which
 * starts it); muxd.h has what the rest of muxd calls.
 */
#ifndef SPAWN_H
#define SPAWN_H

#include <limits.h>

#include "muxd.h"

#define SPAWN_TEXT	8192
#define SPAWN_MAX	1024		/* programs running at once */
#define SPAWN_WAIT_MS	5000		/* for the spawner's answer */

enum spawn_type { SPAWN_RUN, SPAWN_KILL, SPAWN_STARTED, SPAWN_FAILED,
    SPAWN_EXITED };

struct spawn_msg {
	enum spawn_type	 type;
	pid_t		 pid;		/* STARTED, KILL, EXITED */
	int		 arg;		/* KILL: signal; EXITED: status;
					   FAILED: errno */
	uid_t		 uid;		/* RUN: the entry's, sandboxed */
	int		 network;	/* RUN: its sandbox has a network */
	struct conf_rlimits limits;	/* RUN: each set */
	char		 text[SPAWN_TEXT];	/* RUN: name, NUL, user, NUL,
						   command; FAILED: what
						   failed; EXITED: why it
						   was stopped, or "" */
};

/* spawn-cgroup.c */
struct spawn_cgroup {			/* the entries' control groups */
	char		 dir[PATH_MAX];	/* their parent, "": none */
	int		 made;		/* dir made by muxd, removed */
	int		 memory;	/* the controllers they have */
	int		 pids;
	int		 cpu;
};
int		 spawn_cgroup_setup(struct spawn_cgroup *, int, char *, size_t);
int		 spawn_cgroup_make(const struct spawn_cgroup *, const char *,
		    const struct conf_rlimits *, long long *, char *, size_t);
int		 spawn_cgroup_enter(const struct spawn_cgroup *, const char *);
long long	 spawn_cgroup_pids(const struct spawn_cgroup *, const char *);
long long	 spawn_cgroup_ooms(const struct spawn_cgroup *, const char *);
void		 spawn_cgroup_kill(const struct spawn_cgroup *, const char *, int);
void		 spawn_cgroup_close(const struct spawn_cgroup *);

/*
 * What the spawner is given at its start and keeps, whatever muxd says
 * later.  muxd fills it before the fork and keeps the same to say what
 * a reload cannot change.
 */
struct spawn_keep {
	int		 box;		/* entries are sandboxed */
	struct uids_range uids;		/* theirs, sandboxed */
	char		*user;		/* unsandboxed: the only one */
	char		*logdir;	/* NULL: standard error dropped */
	uint64_t	 log_limit;
	char		*hide[SPAWN_BOX_HIDE];	/* muxd's paths covered */
	char		 box_why[256];	/* why bwrap cannot run, or "" */
	struct spawn_cgroup cgroup;	/* the entries' groups, or none */
	int		 cgroup_want;	/* entry_cgroups at start */
};

/* spawn-msg.c */
int		 spawn_msg_send(int, const struct spawn_msg *, int);
int		 spawn_msg_recv(int, struct spawn_msg *, int *);

/* spawn-serve.c */
void		 spawn_serve(int, const struct spawn_keep *)
		    __attribute__((noreturn));

#endif
