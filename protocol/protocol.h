/*
 * protocol: muxd's control protocol, shared by muxd(8) and muxctl(8).
 *
 * A client connects to the control socket (a unix stream socket, mode
 * 0660) and sends JSON lines, one object each, of at most
 * PROTOCOL_LINE_MAX bytes:
 *
 *	{"v":1,"id":ID,"cmd":COMMAND,...arguments}
 *
 * and gets one reply for each, matched on the id:
 *
 *	{"v":1,"id":ID,"ok":true,"result":...}
 *	{"v":1,"id":ID,"ok":false,"error":"what is wrong"}
 *
 * A client that sent "watch" also gets every event as a line
 *
 *	{"v":1,"event":NAME,"time":SECONDS,...fields}
 *
 * The commands and the events are the two tables below; muxctl(8)
 * documents their arguments and fields.  The exit status of muxctl is
 * one of enum protocol_exit.
 */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#define PROTOCOL_VERSION	1	/* the "v" of every line */
#define PROTOCOL_LINE_MAX	65536	/* longest line either way, bytes */
#define PROTOCOL_CONTROL_PATH	"/run/muxd/muxd.sock"

enum protocol_cmd {
	PROTOCOL_CMD_STATUS,		/* every port, link and the round */
	PROTOCOL_CMD_SCHEDULE,		/* the rounds, as placed */
	PROTOCOL_CMD_ROUND_START,	/* "round": N */
	PROTOCOL_CMD_ROUND_STOP,
	PROTOCOL_CMD_CONNECT,		/* "a", "b": two port names */
	PROTOCOL_CMD_DISCONNECT,	/* "port" or "link" */
	PROTOCOL_CMD_RELEASE,		/* "port" or "link": a held entity */
	PROTOCOL_CMD_RELOAD,		/* read the configuration again */
	PROTOCOL_CMD_WATCH,		/* send every event from now on */
	PROTOCOL_CMD_PORTS,		/* the host's serial ports */
	PROTOCOL_CMD_CABLECHECK,	/* "ports": names, "window_ms" */
	PROTOCOL_CMD_SCREENS,		/* "link": its judge's screen so far */
	PROTOCOL_CMD_WITNESS,		/* a manifest, or its countersignature */
	PROTOCOL_CMD_COUNT
};

enum protocol_event {
	PROTOCOL_EV_PORT_UP,		/* "port" */
	PROTOCOL_EV_PORT_DOWN,		/* "port", "error" */
	PROTOCOL_EV_DROP,		/* "port", "bytes", "total", "end" */
	PROTOCOL_EV_LINK_UP,		/* "link", "a", "b", "origin" */
	PROTOCOL_EV_LINK_DOWN,		/* "link", "reason" */
	PROTOCOL_EV_ROUND_START,	/* the round, as in status */
	PROTOCOL_EV_ROUND_STOP,		/* "number", "reason" */
	PROTOCOL_EV_ROUND_RESUME,	/* the round, after a restart */
	PROTOCOL_EV_ROUND_WAIT,		/* "number", "seconds", "lines" */
	PROTOCOL_EV_ROUND_REFUSED,	/* "number", "reason", "lines" */
	PROTOCOL_EV_VERDICT,		/* the opening assertion's verdict */
	PROTOCOL_EV_TEXT,		/* a line of a conversation */
	PROTOCOL_EV_FILTER,		/* a control sequence removed */
	PROTOCOL_EV_HOLD,		/* an entity's output held, released */
	PROTOCOL_EV_INJECT,		/* the assertion typed by muxd */
	PROTOCOL_EV_JUDGE_MISMATCH,	/* "@@nn" names another judge */
	PROTOCOL_EV_CABLECHECK,		/* "check", what each port heard */
	PROTOCOL_EV_CONFIG_RELOAD,	/* "file" */
	PROTOCOL_EV_FAULT,		/* "what", "error" (null: cleared) */
	PROTOCOL_EV_MUXD_STOP,
	PROTOCOL_EV_MANIFEST,		/* "file", "why", "signed" */
	PROTOCOL_EV_BALLOT,		/* "round", "judge", "entity", "value" */
	PROTOCOL_EV_WITNESS,		/* "sequence", "file", "key", "short" */
	PROTOCOL_EV_COUNT
};

enum protocol_exit {
	PROTOCOL_EXIT_OK = 0,
	PROTOCOL_EXIT_FAILED = 1,	/* muxd replied with an error */
	PROTOCOL_EXIT_USAGE = 2,
	PROTOCOL_EXIT_UNREACHABLE = 3,	/* no daemon, or no answer */
	PROTOCOL_EXIT_PROTOCOL = 4	/* closed early, or a malformed reply */
};

/* protocol.c */
const char	*protocol_cmd_name(enum protocol_cmd);
int		 protocol_cmd_find(const char *);
const char	*protocol_cmd_list(void);
const char	*protocol_event_name(enum protocol_event);
int		 protocol_event_find(const char *);
int		 protocol_std_option(int, char *[], const char *);
void		 protocol_bad_option(const char *, const char *, char *[]);

/* xmalloc.c: the programs' allocations, which end the program on failure */
extern void	(*xmalloc_fatal)(const char *, ...);
void		*xmalloc(size_t);
void		*xcalloc(size_t, size_t);
void		*xreallocarray(void *, size_t, size_t);
char		*xstrdup(const char *);
char		*xasprintf(const char *, ...)
		    __attribute__((format(printf, 1, 2)));

#endif /* PROTOCOL_H */
