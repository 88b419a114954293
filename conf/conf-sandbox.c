/*
 * The settings of the entries' sandboxes: at the top level "sandbox"
 * (default true), "entry_cgroups" (a control group each: true, false, or
 * absent: where the host allows), "entry_uids" (the range of the
 * entries' uids),
 * "entry_limits" (the room's resource limits of an entry) and
 * "entry_log_limit" (the size of an entry's log of its standard error);
 * in an entity on an exec: port, "user" (its uid, in the range),
 * "network" (default false) and "limits" (its own).
 */
#include <sys/types.h>

#include <libconfig.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-parse.h"

#define CONF_SANDBOX_LOG_MIN	4096
#define CONF_SANDBOX_LOG_MAX	(1LL << 40)

static const char *conf_sandbox_limit_keys[] = { "processes", "files",
    "file_size", "memory", "cpu", "cpu_percent", NULL };

static const struct conf_rlimits conf_sandbox_defaults = {
	.processes = 64,
	.files = 256,
	.file_size = 64LL * 1024 * 1024,
	.memory = 2048LL * 1024 * 1024,
	.cpu = 3600,
	.cpu_percent = 100
};

static int	conf_sandbox_limits(struct conf_ctx *,
		    const config_setting_t *, const char *, const char *,
		    struct conf_rlimits *);
static int	conf_sandbox_user(struct conf_ctx *, const config_setting_t *,
		    struct conf_entity *);

/*
 * Read a group of limits (key in group, what for messages) into l, each
 * a count from 0 (no limit) up; those absent are left alone.
 */
static int
conf_sandbox_limits(struct conf_ctx *ctx, const config_setting_t *group,
    const char *key, const char *what, struct conf_rlimits *l)
{
	const config_setting_t	*g, *s = NULL;
	long long		*field[] = { &l->processes, &l->files,
				    &l->file_size, &l->memory, &l->cpu,
				    &l->cpu_percent };
	long long		 v;
	char			 in[96];
	size_t			 i;
	int			 r;

	if ((g = config_setting_get_member(group, key)) == NULL)
		return (0);
	if (!config_setting_is_group(g))
		return (conf_error(ctx, g, "setting '%s' %s must be a group "
		    "{ processes = N; ... }", key, what));
	snprintf(in, sizeof(in), "in %s %s", key, what);
	if (conf_keys(ctx, g, conf_sandbox_limit_keys, in) == -1)
		return (-1);
	for (i = 0; conf_sandbox_limit_keys[i] != NULL; i++) {
		if ((r = conf_int(ctx, g, conf_sandbox_limit_keys[i], in, 0,
		    &v, &s)) == -1)
			return (-1);
		if (r == 0)
			continue;
		if (v < 0 || (i == 0 && v == 1))
			return (conf_error(ctx, s, "%s %s: %lld is not a limit "
			    "(0: none%s)", conf_sandbox_limit_keys[i], in, v,
			    i == 0 ? "; a program needs 2 processes or more" :
			    ""));
		if (field[i] == &l->cpu_percent && v > 100000)
			return (conf_error(ctx, s, "cpu_percent %s: %lld is "
			    "more than a thousand CPUs", in, v));
		*field[i] = v;
	}
	return (0);
}

/* Read the room's settings of the entries' sandboxes. */
int
conf_sandbox_read(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*s = NULL;
	const char		*v = CONF_ENTRY_UIDS;
	char			 msg[256];
	size_t			 off;
	long long		 n;
	int			 r;

	conf->sandbox = 1;
	if ((s = config_setting_get_member(root, "sandbox")) != NULL) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			return (conf_error(ctx, s, "setting 'sandbox' at top "
			    "level must be true or false"));
		conf->sandbox = config_setting_get_bool(s);
	}
	conf->entry_cgroups = -1;
	if ((s = config_setting_get_member(root, "entry_cgroups")) != NULL) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			return (conf_error(ctx, s, "setting 'entry_cgroups' at "
			    "top level must be true or false (absent: where "
			    "the host allows)"));
		conf->entry_cgroups = config_setting_get_bool(s);
	}
	if ((r = conf_string(ctx, root, "entry_uids", "at top level", 0, &v,
	    &s)) == -1)
		return (-1);
	if (uids_parse(v, &conf->entry_uids, msg, sizeof(msg), &off) == -1)
		return (conf_error(ctx, r == 1 ? s : NULL, "entry_uids %s", msg));
	conf->entry_limits = conf_sandbox_defaults;
	if (conf_sandbox_limits(ctx, root, "entry_limits", "at top level",
	    &conf->entry_limits) == -1)
		return (-1);
	conf->entry_log_limit = CONF_ENTRY_LOG_LIMIT;
	if ((r = conf_int(ctx, root, "entry_log_limit", "at top level", 0,
	    &n, &s)) == -1)
		return (-1);
	if (r == 1 && (n < CONF_SANDBOX_LOG_MIN || n > CONF_SANDBOX_LOG_MAX))
		return (conf_error(ctx, s, "setting 'entry_log_limit' must be "
		    "between %d and %lld bytes", CONF_SANDBOX_LOG_MIN,
		    CONF_SANDBOX_LOG_MAX));
	if (r == 1)
		conf->entry_log_limit = (uint64_t)n;
	return (0);
}

/*
 * Read an entity's "user": a uid, or the name of a user whose uid it is,
 * in the room's entry_uids.
 */
static int
conf_sandbox_user(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_entity *e)
{
	const struct uids_range	*r = &ctx->conf->entry_uids;
	const config_setting_t	*s;
	struct passwd		*pw;
	long long		 uid;
	size_t			 i;

	if ((s = config_setting_get_member(g, "user")) == NULL)
		return (0);
	if (config_setting_type(s) == CONFIG_TYPE_INT ||
	    config_setting_type(s) == CONFIG_TYPE_INT64)
		uid = config_setting_get_int64(s);
	else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		if ((pw = getpwnam(config_setting_get_string(s))) == NULL)
			return (conf_error(ctx, s, "entity '%s': user '%s': no "
			    "such user", e->name, config_setting_get_string(s)));
		uid = pw->pw_uid;
	} else
		return (conf_error(ctx, s, "entity '%s': user must be a uid "
		    "or a user name", e->name));
	if (uid < (long long)r->lo || uid > (long long)r->hi)
		return (conf_error(ctx, s, "entity '%s': user %lld is not in "
		    "entry_uids %lu-%lu", e->name, uid, (unsigned long)r->lo,
		    (unsigned long)r->hi));
	/* The entities before this one are read already. */
	for (i = 0; i < ctx->conf->nentities; i++)
		if (ctx->conf->entities[i].uid == uid)
			return (conf_error(ctx, s, "entity '%s': user %lld is "
			    "entity '%s''s: an entry's uid is never shared",
			    e->name, uid, ctx->conf->entities[i].name));
	e->uid = uid;
	return (0);
}

/*
 * Read an entity's sandbox settings: user, network and limits, which
 * only an entity on an exec: port may have.
 */
int
conf_sandbox_entity(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_entity *e)
{
	static const char	*keys[] = { "user", "network", "limits", NULL };
	const config_setting_t	*s;
	char			 what[64];
	size_t			 i;

	e->uid = -1;
	e->network = 0;
	e->limits.processes = e->limits.files = e->limits.file_size =
	    e->limits.memory = e->limits.cpu = e->limits.cpu_percent = -1;
	snprintf(what, sizeof(what), "in entity '%s'", e->name);
	for (i = 0; keys[i] != NULL; i++)
		if ((s = config_setting_get_member(g, keys[i])) != NULL &&
		    e->port >= 0 &&
		    ctx->conf->ports[e->port].addr.kind != ADDR_EXEC)
			return (conf_error(ctx, s, "entity '%s': %s needs an "
			    "exec: port; '%s' is %s", e->name, keys[i],
			    ctx->conf->ports[e->port].name,
			    ctx->conf->ports[e->port].address));
	if ((s = config_setting_get_member(g, "network")) != NULL) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			return (conf_error(ctx, s, "setting 'network' %s must "
			    "be true or false", what));
		e->network = config_setting_get_bool(s);
	}
	if (conf_sandbox_user(ctx, g, e) == -1)
		return (-1);
	return (conf_sandbox_limits(ctx, g, "limits", what, &e->limits));
}

/*
 * The limits of the entry on port (an index, or -1 in quick mode: the
 * defaults) into l: its entity's own over the room's; whether its
 * sandbox has a network into network.
 */
void
conf_sandbox_entry(const struct conf *cf, int port, struct conf_rlimits *l,
    int *network)
{
	const struct conf_rlimits *e;
	long long		*to[] = { &l->processes, &l->files,
				    &l->file_size, &l->memory, &l->cpu,
				    &l->cpu_percent };
	const long long		*from[6];
	size_t			 i, j;

	*network = 0;
	if (cf == NULL) {
		*l = conf_sandbox_defaults;
		return;
	}
	*l = cf->entry_limits;
	for (i = 0; port >= 0 && i < cf->nentities; i++) {
		if (cf->entities[i].port != port)
			continue;
		*network = cf->entities[i].network;
		e = &cf->entities[i].limits;
		from[0] = &e->processes;
		from[1] = &e->files;
		from[2] = &e->file_size;
		from[3] = &e->memory;
		from[4] = &e->cpu;
		from[5] = &e->cpu_percent;
		for (j = 0; j < sizeof(to) / sizeof(to[0]); j++)
			if (*from[j] != -1)
				*to[j] = *from[j];
	}
}
