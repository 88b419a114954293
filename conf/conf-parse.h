/*
 * Internal to the configuration parser (conf.c, conf-room.c, conf-rules.c,
 * conf-schedule.c).
 */
#ifndef CONF_PARSE_H
#define CONF_PARSE_H

#include "conf.h"
#include "contest.h"

/*
 * conf.c: the state of one parse, and the readers of settings that record
 * each error as "FILE:LINE: what is wrong" and return -1.  struct
 * config_setting_t is libconfig's config_setting_t.
 *
 * A part read with errors is left out and its name kept in broken, and a
 * top-level setting a syntax error made unreadable is named in skipped
 * ("*": the settings of an included file that could not be told): what
 * refers to them fails without a message of its own, so that a check
 * reports each error once and not its echoes (a station on a port whose
 * address is wrong is not also told the port is unknown).
 */
struct config_setting_t;
struct conf_use;

/* A libconfig text's lexer: inside a comment, inside a string. */
struct conf_lex {
	int	comment;
	int	string;
};
struct conf_ctx {
	const char	*name;		/* file name for messages */
	const char	*basedir;	/* for relative paths, or NULL */
	char		*err;		/* the first error */
	size_t		 errlen;
	int		 failed;
	struct conf_msgs *msgs;		/* every error and warning, or
					   NULL */
	struct conf	*conf;
	struct conf_use	*uses;		/* one per port, see conf-room.c */
	char		**broken;	/* "port NAME", "place NAME" */
	size_t		 nbroken;
	char		**skipped;	/* top-level settings not read */
	size_t		 nskipped;
};
int		 conf_include_lex(struct conf_lex *, const char **,
		    unsigned int *);
int		 conf_error(struct conf_ctx *, const struct config_setting_t *,
		    const char *, ...)
		    __attribute__((format(printf, 3, 4)));
void		 conf_warn(struct conf_ctx *, const struct config_setting_t *,
		    const char *, ...)
		    __attribute__((format(printf, 3, 4)));
int		 conf_echo(struct conf_ctx *);
void		 conf_broken(struct conf_ctx *, const char *, const char *);
int		 conf_is_broken(const struct conf_ctx *, const char *,
		    const char *);
int		 conf_skipped(const struct conf_ctx *, const char *);
int		 conf_nomem(struct conf_ctx *, const struct config_setting_t *);
int		 conf_keys(struct conf_ctx *, const struct config_setting_t *,
		    const char **, const char *);
int		 conf_string(struct conf_ctx *, const struct config_setting_t *,
		    const char *, const char *, int, const char **,
		    const struct config_setting_t **);
int		 conf_int(struct conf_ctx *, const struct config_setting_t *,
		    const char *, const char *, int, long long *,
		    const struct config_setting_t **);

/* conf-room.c */
int		 conf_room_read(struct conf_ctx *,
		    const struct config_setting_t *);
void		 conf_room_free(struct conf *);

/* conf-rules.c */
int		 conf_rules_read(struct conf_ctx *,
		    const struct config_setting_t *);
int		 conf_rules_station(struct conf_ctx *,
		    const struct config_setting_t *, struct conf_station *);
int		 conf_rules_entity(struct conf_ctx *,
		    const struct config_setting_t *, struct conf_entity *);

/* conf-sandbox.c */
int		 conf_sandbox_read(struct conf_ctx *,
		    const struct config_setting_t *);
int		 conf_sandbox_entity(struct conf_ctx *,
		    const struct config_setting_t *, struct conf_entity *);

/* conf-syntax.c */
struct conf_syntax {			/* a text being made readable */
	char		*text;		/* the configuration's, blanked */
	char		**skipped;	/* top-level settings blanked */
	size_t		 nskipped;
	int		 tries;
};
int		 conf_syntax_recover(struct conf_syntax *, const char *,
		    const char *, const char *, int, char *, size_t, char *,
		    size_t);
void		 conf_syntax_clear(struct conf_syntax *);

/* conf-listen.c */
void		 conf_listen_check(struct conf_ctx *,
		    const struct config_setting_t *);

/* conf-schedule.c */
int		 conf_schedule_read(struct conf_ctx *,
		    const struct config_setting_t *);

#endif /* CONF_PARSE_H */
