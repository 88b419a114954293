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
 * the first error as "FILE:LINE: what is wrong" and return -1.  struct config_setting_t is
 * libconfig's config_setting_t.
 */
struct config_setting_t;
struct conf_use;
struct conf_ctx {
	const char	*name;		/* file name for messages */
	const char	*basedir;	/* for relative paths, or NULL */
	char		*err;		/* the first error */
	size_t		 errlen;
	int		 failed;
	void		 (*report)(void *, const char *);	/* every
							   error, or NULL */
	void		*report_arg;
	struct conf	*conf;
	struct conf_use	*uses;		/* one per port, see conf-room.c */
};
int		 conf_error(struct conf_ctx *, const struct config_setting_t *,
		    const char *, ...)
		    __attribute__((format(printf, 3, 4)));
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

/* conf-schedule.c */
int		 conf_schedule_read(struct conf_ctx *,
		    const struct config_setting_t *);

#endif /* CONF_PARSE_H */
