/*
 * The room configuration: ports, stations, entities, schedule, directories.
 *
 * The file is read with libconfig and checked completely before anything
 * uses it.  Errors are reported, never logged: the first one found is
 * written to the caller's buffer as "FILE:LINE: what is wrong" and the
 * parser returns NULL.  Sections are checked in a fixed order (directories
 * and limits, ports, stations, entities, schedule), since each refers to
 * the ones before it.
 *
 * Every port belongs to at most one place: the left or right terminal of
 * one station, or one entity.  Stations and entities share one namespace
 * because rounds name both.  A schedule preset is expanded here into
 * explicit rounds, so the rest of muxd only ever sees conf->rounds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "muxd.h"

#define CONF_NAME_MAX		32
#define CONF_JUDGE_MAX		99
#define CONF_QUEUE_MIN		256
#define CONF_QUEUE_MAX		16777216
#define CONF_DURATION_MAX	86400
#define CONF_PARTS_MAX		32	/* round_state.right_is_entry */

struct conf_use {			/* who holds a port */
	const char	*what;		/* "station" or "entity" */
	const char	*name;
	int		 line;
};

struct conf_ctx {
	const char	*name;		/* file name for messages */
	const char	*basedir;	/* for relative paths, or NULL */
	char		*err;
	size_t		 errlen;
	int		 failed;
	struct conf	*conf;
	struct conf_use	*uses;		/* one per port */
};

static const char *conf_top_keys[] = { "control", "state", "captures",
    "transcripts", "queue_limit", "ports", "stations", "entities",
    "schedule", NULL };
static const char *conf_port_keys[] = { "name", "address", NULL };
static const char *conf_station_keys[] = { "name", "judge", "left", "right",
    NULL };
static const char *conf_entity_keys[] = { "name", "kind", "port", "approved",
    "program", "contestant", NULL };
static const char *conf_schedule_keys[] = { "preset", "rounds", "duration",
    "seed", NULL };
static const char *conf_round_keys[] = { "round", "pairs", NULL };

static int	 conf_error(struct conf_ctx *, const config_setting_t *,
		    const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static int	 conf_nomem(struct conf_ctx *, const config_setting_t *);
static int	 conf_keys(struct conf_ctx *, const config_setting_t *,
		    const char **, const char *);
static int	 conf_member(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, int, const config_setting_t **);
static int	 conf_string(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, int, const char **,
		    const config_setting_t **);
static int	 conf_int(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, int, long long *,
		    const config_setting_t **);
static int	 conf_name_valid(const char *);
static int	 conf_text_valid(const char *);
static int	 conf_check_name(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *);
static int	 conf_named(struct conf_ctx *, const config_setting_t *,
		    const char *, const char **, const char **,
		    const config_setting_t **, char *, size_t);
static char	*conf_path(struct conf_ctx *, const char *);
static int	 conf_dirs(struct conf_ctx *, const config_setting_t *);
static int	 conf_list(struct conf_ctx *, const config_setting_t *,
		    const char *, int, size_t, void **, config_setting_t **);
static int	 conf_ports(struct conf_ctx *, const config_setting_t *);
static int	 conf_port(struct conf_ctx *, const config_setting_t *,
		    struct conf_port *);
static int	 conf_use_port(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, const char *, int *);
static int	 conf_name_taken(struct conf_ctx *, const config_setting_t *,
		    const char *);
static int	 conf_stations(struct conf_ctx *, const config_setting_t *);
static int	 conf_station(struct conf_ctx *, const config_setting_t *,
		    struct conf_station *);
static int	 conf_entities(struct conf_ctx *, const config_setting_t *);
static int	 conf_entity(struct conf_ctx *, const config_setting_t *,
		    struct conf_entity *);
static int	 conf_entity_text(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, const char *, int);
static int	 conf_schedule(struct conf_ctx *, const config_setting_t *);
static int	 conf_preset(struct conf_ctx *, const config_setting_t *,
		    const config_setting_t *, const char *);
static int	 conf_rounds(struct conf_ctx *, const config_setting_t *);
static int	 conf_round(struct conf_ctx *, const config_setting_t *,
		    struct conf_round *);
static int	 conf_pair(struct conf_ctx *, const config_setting_t *, int,
		    struct conf_part *);
static int	 conf_pair_member(struct conf_ctx *, const config_setting_t *,
		    int, int, int *);
static int	 conf_round_busy(struct conf_ctx *, const config_setting_t *,
		    const struct conf_round *, const struct conf_part *);
static struct conf *conf_parse(config_t *, const char *, const char *,
		    char *, size_t);
static struct conf *conf_read(const char *, const char *, FILE *,
		    const char *, char *, size_t);
static char	*conf_basedir(const char *, int);
static const char *conf_where(const char *, const char *, char *, size_t);
static void	 conf_port_clear(struct conf_port *);
static void	 conf_entity_clear(struct conf_entity *);

/*
 * Name the file an error is in: the configuration's own name, or an
 * included file, which libconfig names as written in @include (relative
 * to the configuration's directory); that is put in the same terms as
 * the configuration's name.
 */
static const char *
conf_where(const char *name, const char *file, char *buf, size_t len)
{
	const char	*slash;

	if (file == NULL)
		return (name);
	if (file[0] == '/' || (slash = strrchr(name, '/')) == NULL)
		return (file);
	snprintf(buf, len, "%.*s/%s", (int)(slash - name), name, file);
	return (buf);
}

/* Record the first error as "FILE:LINE: message"; always returns -1. */
static int
conf_error(struct conf_ctx *ctx, const config_setting_t *s, const char *fmt,
    ...)
{
	const char	*file = NULL;
	char		 msg[MUXD_ERRLEN], where[PATH_MAX];
	unsigned int	 line = 0;
	va_list		 ap;

	if (ctx->failed)
		return (-1);
	ctx->failed = 1;
	if (s != NULL) {
		file = config_setting_source_file(s);
		line = config_setting_source_line(s);
	}
	file = conf_where(ctx->name, file, where, sizeof(where));
	if (line == 0)
		line = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->errlen > 0)
		snprintf(ctx->err, ctx->errlen, "%s:%u: %s", file, line, msg);
	return (-1);
}

/* Record an allocation failure. */
static int
conf_nomem(struct conf_ctx *ctx, const config_setting_t *s)
{
	return (conf_error(ctx, s, "out of memory"));
}

/* Reject settings of a group that are not in the list of known keys. */
static int
conf_keys(struct conf_ctx *ctx, const config_setting_t *group,
    const char **known, const char *where)
{
	const config_setting_t	*s;
	const char		*name;
	int			 i, n, k;

	n = config_setting_length(group);
	for (i = 0; i < n; i++) {
		s = config_setting_get_elem(group, i);
		if ((name = config_setting_name(s)) == NULL)
			continue;
		for (k = 0; known[k] != NULL; k++)
			if (strcmp(known[k], name) == 0)
				break;
		if (known[k] == NULL)
			return (conf_error(ctx, s, "unknown setting '%s' %s",
			    name, where));
	}
	return (0);
}

/*
 * Find a member of a group.  Returns 1 when found, with the setting in
 * *sp; 0 when absent and optional; -1 when absent and required.
 */
static int
conf_member(struct conf_ctx *ctx, const config_setting_t *group,
    const char *key, const char *what, int required,
    const config_setting_t **sp)
{
	if ((*sp = config_setting_get_member(group, key)) != NULL)
		return (1);
	if (!required)
		return (0);
	return (conf_error(ctx, group, "missing setting '%s' %s", key, what));
}

/*
 * Fetch a string member of a group.  Returns 1 when found, 0 when absent
 * and optional, -1 on error; *sp is the setting, for later messages.
 */
static int
conf_string(struct conf_ctx *ctx, const config_setting_t *group,
    const char *key, const char *what, int required, const char **out,
    const config_setting_t **sp)
{
	const config_setting_t	*s;
	int			 r;

	if ((r = conf_member(ctx, group, key, what, required, &s)) != 1)
		return (r);
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return (conf_error(ctx, s, "setting '%s' %s must be a string",
		    key, what));
	*out = config_setting_get_string(s);
	if (sp != NULL)
		*sp = s;
	return (1);
}

/* Fetch an integer member of a group (int or int64); as conf_string. */
static int
conf_int(struct conf_ctx *ctx, const config_setting_t *group,
    const char *key, const char *what, int required, long long *out,
    const config_setting_t **sp)
{
	const config_setting_t	*s;
	int			 r;

	if ((r = conf_member(ctx, group, key, what, required, &s)) != 1)
		return (r);
	if (config_setting_type(s) != CONFIG_TYPE_INT &&
	    config_setting_type(s) != CONFIG_TYPE_INT64)
		return (conf_error(ctx, s, "setting '%s' %s must be an "
		    "integer", key, what));
	*out = config_setting_get_int64(s);
	if (sp != NULL)
		*sp = s;
	return (1);
}

/* Tell whether a name is 1..32 characters of [A-Za-z0-9_.-]. */
static int
conf_name_valid(const char *name)
{
	size_t	len;

	len = strlen(name);
	if (len == 0 || len > CONF_NAME_MAX)
		return (0);
	return (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_.-") == len);
}

/* Tell whether a text holds no control characters. */
static int
conf_text_valid(const char *text)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)text; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return (0);
	return (1);
}

/* Reject an invalid port, station or entity name. */
static int
conf_check_name(struct conf_ctx *ctx, const config_setting_t *s,
    const char *what, const char *name)
{
	if (conf_name_valid(name))
		return (0);
	return (conf_error(ctx, s, "invalid %s name '%s' (1 to %d characters "
	    "of A-Z a-z 0-9 _ . -)", what, name, CONF_NAME_MAX));
}

/*
 * Check the settings of a port, station or entity group g and read its
 * name; then write "in WHAT 'NAME'" to where, for later messages.
 */
static int
conf_named(struct conf_ctx *ctx, const config_setting_t *g, const char *what,
    const char **known, const char **name, const config_setting_t **sn,
    char *where, size_t len)
{
	snprintf(where, len, "in %s", what);
	if (conf_keys(ctx, g, known, where) == -1 ||
	    conf_string(ctx, g, "name", where, 1, name, sn) == -1 ||
	    conf_check_name(ctx, *sn, what, *name) == -1)
		return (-1);
	snprintf(where, len, "in %s '%s'", what, *name);
	return (0);
}

/* Return a copy of a path, relative ones taken from the config's dir. */
static char *
conf_path(struct conf_ctx *ctx, const char *path)
{
	char	*s;

	if (path[0] == '/' || ctx->basedir == NULL)
		return (strdup(path));
	if (asprintf(&s, "%s/%s", ctx->basedir, path) == -1)
		return (NULL);
	return (s);
}

/* Read the directories, the control socket path and the queue limit. */
static int
conf_dirs(struct conf_ctx *ctx, const config_setting_t *root)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} paths[] = {
		{ "control", offsetof(struct conf, control) },
		{ "state", offsetof(struct conf, state_dir) },
		{ "captures", offsetof(struct conf, capture_dir) },
		{ "transcripts", offsetof(struct conf, transcript_dir) },
	};
	struct conf		*conf = ctx->conf;
	const config_setting_t	*s = NULL;
	const char		*v = NULL;
	char			**dst;
	long long		 n = 0;
	size_t			 i;
	int			 r;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		dst = (char **)((char *)conf + paths[i].off);
		r = conf_string(ctx, root, paths[i].key, "at top level", 0,
		    &v, &s);
		if (r == -1)
			return (-1);
		if (r == 0)
			continue;
		if (*v == '\0')
			return (conf_error(ctx, s, "setting '%s' is empty",
			    paths[i].key));
		if ((*dst = conf_path(ctx, v)) == NULL)
			return (conf_nomem(ctx, s));
	}
	if (conf->control == NULL &&
	    (conf->control = strdup(MUXD_CONTROL_PATH)) == NULL)
		return (conf_nomem(ctx, root));
	if (conf->state_dir == NULL &&
	    (conf->state_dir = strdup(MUXD_STATE_DIR)) == NULL)
		return (conf_nomem(ctx, root));
	if (conf->capture_dir == NULL && asprintf(&conf->capture_dir,
	    "%s/captures", conf->state_dir) == -1) {
		conf->capture_dir = NULL;
		return (conf_nomem(ctx, root));
	}
	if (conf->transcript_dir == NULL && asprintf(&conf->transcript_dir,
	    "%s/transcripts", conf->state_dir) == -1) {
		conf->transcript_dir = NULL;
		return (conf_nomem(ctx, root));
	}

	conf->queue_limit = MUXD_QUEUE_LIMIT;
	r = conf_int(ctx, root, "queue_limit", "at top level", 0, &n, &s);
	if (r == -1)
		return (-1);
	if (r == 1) {
		if (n < CONF_QUEUE_MIN || n > CONF_QUEUE_MAX)
			return (conf_error(ctx, s, "setting 'queue_limit' must "
			    "be between %d and %d bytes", CONF_QUEUE_MIN,
			    CONF_QUEUE_MAX));
		conf->queue_limit = (size_t)n;
	}
	return (0);
}

/*
 * Fetch a top-level list of groups and allocate a zeroed array of as many
 * elements of size bytes in *ap.  Returns the length (0 when absent, with
 * nothing allocated), or -1; an empty list is an error when required.
 */
static int
conf_list(struct conf_ctx *ctx, const config_setting_t *root,
    const char *key, int required, size_t size, void **ap,
    config_setting_t **lp)
{
	config_setting_t	*l, *e;
	int			 i, n;

	*lp = NULL;
	if ((l = config_setting_get_member(root, key)) == NULL) {
		if (required)
			return (conf_error(ctx, root, "no %s defined (at least "
			    "one is required)", key));
		return (0);
	}
	if (config_setting_type(l) != CONFIG_TYPE_LIST)
		return (conf_error(ctx, l, "setting '%s' must be a list: "
		    "%s = ( { ... }, ... );", key, key));
	n = config_setting_length(l);
	if (n == 0 && required)
		return (conf_error(ctx, l, "no %s defined (at least one is "
		    "required)", key));
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(l, i);
		if (config_setting_type(e) != CONFIG_TYPE_GROUP)
			return (conf_error(ctx, e, "element %d of '%s' must be "
			    "a group { ... }", i + 1, key));
	}
	if (n > 0 && (*ap = calloc(n, size)) == NULL)
		return (conf_nomem(ctx, l));
	*lp = l;
	return (n);
}

/* Free what a port holds. */
static void
conf_port_clear(struct conf_port *p)
{
	free(p->name);
	free(p->address);
	addr_free(&p->addr);
	memset(p, 0, sizeof(*p));
}

/* Read the list of ports. */
static int
conf_ports(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*l;
	void			*a;
	int			 i, n;

	if ((n = conf_list(ctx, root, "ports", 1, sizeof(*conf->ports), &a,
	    &l)) == -1)
		return (-1);
	conf->ports = a;
	if ((ctx->uses = calloc(n, sizeof(*ctx->uses))) == NULL)
		return (conf_nomem(ctx, l));
	for (i = 0; i < n; i++) {
		if (conf_port(ctx, config_setting_get_elem(l, i),
		    &conf->ports[conf->nports]) == -1)
			return (-1);
		conf->nports++;
	}
	return (0);
}

/* Read one port; on failure nothing is left allocated in *p. */
static int
conf_port(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_port *p)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*sn = NULL, *sa = NULL;
	const struct addr	*o;
	const char		*name = NULL, *address = NULL;
	char			 what[CONF_NAME_MAX + 16], aerr[MUXD_ERRLEN];
	size_t			 i;
	int			 k;

	if (conf_named(ctx, g, "port", conf_port_keys, &name, &sn, what,
	    sizeof(what)) == -1 ||
	    conf_string(ctx, g, "address", what, 1, &address, &sa) == -1)
		return (-1);
	if ((k = conf_port_find(conf, name)) != -1)
		return (conf_error(ctx, sn, "duplicate port name '%s' (first "
		    "at line %d)", name, conf->ports[k].line));

	if (addr_parse(address, &p->addr, aerr, sizeof(aerr)) == -1)
		return (conf_error(ctx, sa, "port '%s': %s", name, aerr));
	for (i = 0; i < conf->nports; i++) {
		o = &conf->ports[i].addr;
		if (o->kind != p->addr.kind)
			continue;
		if (((o->kind == ADDR_DEVICE || o->kind == ADDR_PTY) &&
		    strcmp(o->path, p->addr.path) == 0) ||
		    (o->kind == ADDR_TCP_LISTEN &&
		    strcmp(o->service, p->addr.service) == 0 &&
		    (o->host == NULL) == (p->addr.host == NULL) &&
		    (o->host == NULL || strcmp(o->host, p->addr.host) == 0))) {
			addr_free(&p->addr);
			return (conf_error(ctx, sa, "port '%s': same line as "
			    "port '%s' at line %d", name, conf->ports[i].name,
			    conf->ports[i].line));
		}
	}
	p->line = config_setting_source_line(g);
	if ((p->name = strdup(name)) == NULL ||
	    (p->address = strdup(address)) == NULL) {
		conf_port_clear(p);
		return (conf_nomem(ctx, g));
	}
	return (0);
}

/*
 * Resolve the port named by setting key of a station or entity and claim
 * it; a port belongs to one place only.
 */
static int
conf_use_port(struct conf_ctx *ctx, const config_setting_t *g,
    const char *key, const char *what, const char *name, int *out)
{
	const config_setting_t	*s = NULL;
	struct conf_use		*u;
	const char		*port = NULL;
	char			 where[CONF_NAME_MAX + 16];
	int			 i;

	snprintf(where, sizeof(where), "in %s '%s'", what, name);
	if (conf_string(ctx, g, key, where, 1, &port, &s) == -1)
		return (-1);
	if ((i = conf_port_find(ctx->conf, port)) == -1)
		return (conf_error(ctx, s, "%s '%s': unknown port '%s'", what,
		    name, port));
	u = &ctx->uses[i];
	if (u->what != NULL) {
		if (strcmp(u->name, name) == 0 && strcmp(u->what, what) == 0)
			return (conf_error(ctx, s, "%s '%s': port '%s' used "
			    "twice", what, name, port));
		return (conf_error(ctx, s, "%s '%s': port '%s' already "
		    "belongs to %s '%s' at line %d", what, name, port, u->what,
		    u->name, u->line));
	}
	u->what = what;
	u->name = name;
	u->line = config_setting_source_line(g);
	*out = i;
	return (0);
}

/* Reject a station or entity name already given to another. */
static int
conf_name_taken(struct conf_ctx *ctx, const config_setting_t *s,
    const char *name)
{
	const struct conf	*conf = ctx->conf;
	int			 i;

	if ((i = conf_station_find(conf, name)) != -1)
		return (conf_error(ctx, s, "duplicate name '%s' (station at "
		    "line %d)", name, conf->stations[i].line));
	if ((i = conf_entity_find(conf, name)) != -1)
		return (conf_error(ctx, s, "duplicate name '%s' (entity at "
		    "line %d)", name, conf->entities[i].line));
	return (0);
}

/* Read the list of judge stations. */
static int
conf_stations(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*l;
	void			*a;
	int			 i, n;

	if ((n = conf_list(ctx, root, "stations", 0, sizeof(*conf->stations),
	    &a, &l)) <= 0)
		return (n);
	conf->stations = a;
	for (i = 0; i < n; i++) {
		if (conf_station(ctx, config_setting_get_elem(l, i),
		    &conf->stations[conf->nstations]) == -1)
			return (-1);
		conf->nstations++;
	}
	return (0);
}

/* Read one station. */
static int
conf_station(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_station *st)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*sn = NULL, *sj = NULL;
	const char		*name = NULL;
	char			 what[CONF_NAME_MAX + 16];
	long long		 judge = 0;
	size_t			 i;

	if (conf_named(ctx, g, "station", conf_station_keys, &name, &sn, what,
	    sizeof(what)) == -1 ||
	    conf_name_taken(ctx, sn, name) == -1 ||
	    conf_int(ctx, g, "judge", what, 1, &judge, &sj) == -1)
		return (-1);
	if (judge < 1 || judge > CONF_JUDGE_MAX)
		return (conf_error(ctx, sj, "station '%s': judge %lld out of "
		    "range 1 to %d", name, judge, CONF_JUDGE_MAX));
	for (i = 0; i < conf->nstations; i++)
		if (conf->stations[i].judge == judge)
			return (conf_error(ctx, sj, "station '%s': judge %lld "
			    "already sits at station '%s' (line %d)", name,
			    judge, conf->stations[i].name,
			    conf->stations[i].line));
	st->judge = (int)judge;
	st->line = config_setting_source_line(g);
	if ((st->name = strdup(name)) == NULL)
		return (conf_nomem(ctx, g));
	if (conf_use_port(ctx, g, "left", "station", st->name,
	    &st->left) == -1 ||
	    conf_use_port(ctx, g, "right", "station", st->name,
	    &st->right) == -1) {
		free(st->name);
		st->name = NULL;
		return (-1);
	}
	return (0);
}

/* Free what an entity holds. */
static void
conf_entity_clear(struct conf_entity *e)
{
	free(e->name);
	free(e->approved);
	free(e->program);
	free(e->contestant);
	memset(e, 0, sizeof(*e));
}

/* Read the list of entities. */
static int
conf_entities(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*l;
	void			*a;
	int			 i, n;

	if ((n = conf_list(ctx, root, "entities", 0, sizeof(*conf->entities),
	    &a, &l)) <= 0)
		return (n);
	conf->entities = a;
	for (i = 0; i < n; i++) {
		if (conf_entity(ctx, config_setting_get_elem(l, i),
		    &conf->entities[conf->nentities]) == -1)
			return (-1);
		conf->nentities++;
	}
	return (0);
}

/* Read one entity. */
static int
conf_entity(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_entity *e)
{
	const config_setting_t	*sn = NULL, *s = NULL;
	const char		*name = NULL, *kind = NULL, *approved = NULL;
	const char		*program = NULL, *contestant = "";
	char			 what[CONF_NAME_MAX + 16];
	int			 r;

	if (conf_named(ctx, g, "entity", conf_entity_keys, &name, &sn, what,
	    sizeof(what)) == -1 ||
	    conf_name_taken(ctx, sn, name) == -1)
		return (-1);

	if (conf_string(ctx, g, "kind", what, 1, &kind, &s) == -1)
		return (-1);
	if (strcmp(kind, "entry") == 0)
		e->kind = CONF_ENTRY;
	else if (strcmp(kind, "confederate") == 0)
		e->kind = CONF_CONFEDERATE;
	else
		return (conf_error(ctx, s, "entity '%s': kind '%s' is neither "
		    "\"entry\" nor \"confederate\"", name, kind));

	if (conf_string(ctx, g, "approved", what, 1, &approved, &s) == -1 ||
	    conf_entity_text(ctx, s, name, "approved name", approved, 0) == -1)
		return (-1);

	if ((r = conf_string(ctx, g, "program", what, 0, &program, &s)) == -1 ||
	    (r == 1 && conf_entity_text(ctx, s, name, "program name", program,
	    0) == -1))
		return (-1);
	if (r == 0)
		program = name;

	if ((r = conf_string(ctx, g, "contestant", what, 0, &contestant,
	    &s)) == -1 ||
	    (r == 1 && conf_entity_text(ctx, s, name, "contestant", contestant,
	    1) == -1))
		return (-1);

	e->line = config_setting_source_line(g);
	if ((e->name = strdup(name)) == NULL ||
	    (e->approved = strdup(approved)) == NULL ||
	    (e->program = strdup(program)) == NULL ||
	    (e->contestant = strdup(contestant)) == NULL) {
		conf_entity_clear(e);
		return (conf_nomem(ctx, g));
	}
	if (conf_use_port(ctx, g, "port", "entity", e->name, &e->port) == -1) {
		conf_entity_clear(e);
		return (-1);
	}
	return (0);
}

/*
 * Reject an entity's text setting s, named label in messages, when it has
 * control characters, or when it is empty and that is not allowed.
 */
static int
conf_entity_text(struct conf_ctx *ctx, const config_setting_t *s,
    const char *name, const char *label, const char *text, int empty_ok)
{
	if (!empty_ok && *text == '\0')
		return (conf_error(ctx, s, "entity '%s': %s is empty", name,
		    label));
	if (!conf_text_valid(text))
		return (conf_error(ctx, s, "entity '%s': %s has control "
		    "characters", name, label));
	return (0);
}

/* Read the schedule: a preset or explicit rounds, duration and seed. */
static int
conf_schedule(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*g, *s = NULL, *rounds;
	const char		*preset = NULL;
	long long		 n = 0;
	int			 r;

	if ((g = config_setting_get_member(root, "schedule")) == NULL)
		return (0);
	if (config_setting_type(g) != CONFIG_TYPE_GROUP)
		return (conf_error(ctx, g, "setting 'schedule' must be a "
		    "group: schedule = { ... };"));
	if (conf_keys(ctx, g, conf_schedule_keys, "in schedule") == -1)
		return (-1);

	if ((r = conf_int(ctx, g, "duration", "in schedule", 0, &n,
	    &s)) == -1)
		return (-1);
	if (r == 1 && (n < 0 || n > CONF_DURATION_MAX))
		return (conf_error(ctx, s, "setting 'duration' in schedule "
		    "must be between 0 and %d seconds", CONF_DURATION_MAX));
	if (r == 1)
		conf->duration = (int)n;

	if ((r = conf_int(ctx, g, "seed", "in schedule", 0, &n, &s)) == -1)
		return (-1);
	if (r == 1 && n < 0)
		return (conf_error(ctx, s, "setting 'seed' in schedule must "
		    "not be negative (write seeds above 2147483647 with an L "
		    "suffix)"));
	if (r == 1) {
		conf->seed = (uint64_t)n;
		conf->seed_set = 1;
	}

	if ((r = conf_string(ctx, g, "preset", "in schedule", 0, &preset,
	    &s)) == -1)
		return (-1);
	rounds = config_setting_get_member(g, "rounds");
	if (r == 1 && rounds != NULL)
		return (conf_error(ctx, rounds, "schedule has both 'preset' "
		    "and 'rounds'; give one of them"));
	if (r == 1)
		return (conf_preset(ctx, g, s, preset));
	if (rounds == NULL)
		return (conf_error(ctx, g, "schedule has neither 'preset' nor "
		    "'rounds'"));
	return (conf_rounds(ctx, rounds));
}

/*
 * Expand a preset into rounds over the stations and entities in order;
 * g is the schedule, s the preset setting.
 */
static int
conf_preset(struct conf_ctx *ctx, const config_setting_t *g,
    const config_setting_t *s, const char *name)
{
	struct conf			*conf = ctx->conf;
	const struct schedule_round	*pr;
	struct conf_round		*cr;
	struct conf_part		*cp;
	int				*entries = NULL, *confeds = NULL;
	size_t				 i, j, nr, ne = 0, nc = 0;
	int				 nj = 0, nen = 0, ncn = 0;
	int				 rc = -1;

	if ((pr = schedule_preset(name, &nr)) == NULL)
		return (conf_error(ctx, s, "unknown schedule preset '%s' "
		    "(known: %s)", name, schedule_preset_names()));
	for (i = 0; i < nr; i++)
		for (j = 0; j < pr[i].nparts; j++) {
			if (pr[i].parts[j].judge > nj)
				nj = pr[i].parts[j].judge;
			if (pr[i].parts[j].entry > nen)
				nen = pr[i].parts[j].entry;
			if (pr[i].parts[j].confederate > ncn)
				ncn = pr[i].parts[j].confederate;
		}

	entries = calloc(conf->nentities + 1, sizeof(*entries));
	confeds = calloc(conf->nentities + 1, sizeof(*confeds));
	if (entries == NULL || confeds == NULL) {
		conf_nomem(ctx, s);
		goto out;
	}
	for (i = 0; i < conf->nentities; i++) {
		if (conf->entities[i].kind == CONF_ENTRY)
			entries[ne++] = (int)i;
		else
			confeds[nc++] = (int)i;
	}
	if (conf->nstations != (size_t)nj || ne != (size_t)nen ||
	    nc != (size_t)ncn) {
		conf_error(ctx, g, "preset '%s' needs exactly %d stations, %d "
		    "entries and %d confederates; found %zu stations, %zu "
		    "entries and %zu confederates", name, nj, nen, ncn,
		    conf->nstations, ne, nc);
		goto out;
	}

	if ((conf->preset = strdup(name)) == NULL ||
	    (conf->rounds = calloc(nr, sizeof(*conf->rounds))) == NULL) {
		conf_nomem(ctx, s);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		cr = &conf->rounds[conf->nrounds++];
		cr->number = pr[i].number;
		if ((cr->parts = calloc(pr[i].nparts,
		    sizeof(*cr->parts))) == NULL ||
		    (cr->excused = strdup(pr[i].excused)) == NULL) {
			conf_nomem(ctx, s);
			goto out;
		}
		for (j = 0; j < pr[i].nparts; j++) {
			cp = &cr->parts[cr->nparts++];
			cp->station = pr[i].parts[j].judge - 1;
			cp->entry = entries[pr[i].parts[j].entry - 1];
			cp->confederate =
			    confeds[pr[i].parts[j].confederate - 1];
		}
	}
	rc = 0;
out:
	free(entries);
	free(confeds);
	return (rc);
}

/* Read explicit rounds. */
static int
conf_rounds(struct conf_ctx *ctx, const config_setting_t *l)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*g;
	int			 i, n;

	if (config_setting_type(l) != CONFIG_TYPE_LIST)
		return (conf_error(ctx, l, "setting 'rounds' in schedule must "
		    "be a list: rounds = ( { round = 1; pairs = ( ... ); }, "
		    "... );"));
	if ((n = config_setting_length(l)) == 0)
		return (conf_error(ctx, l, "setting 'rounds' in schedule is "
		    "empty"));
	if ((conf->rounds = calloc(n, sizeof(*conf->rounds))) == NULL)
		return (conf_nomem(ctx, l));
	for (i = 0; i < n; i++) {
		g = config_setting_get_elem(l, i);
		if (config_setting_type(g) != CONFIG_TYPE_GROUP)
			return (conf_error(ctx, g, "element %d of 'rounds' "
			    "must be a group { ... }", i + 1));
		/* Counted first: conf_free() releases a half-read round. */
		conf->nrounds++;
		if (conf_round(ctx, g, &conf->rounds[i]) == -1)
			return (-1);
	}
	return (0);
}

/* Read one explicit round. */
static int
conf_round(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_round *cr)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*sr = NULL, *pairs, *p;
	long long		 number = 0;
	size_t			 i;
	int			 j, n;

	if (conf_keys(ctx, g, conf_round_keys, "in round") == -1)
		return (-1);
	if (conf_int(ctx, g, "round", "in round", 1, &number, &sr) == -1)
		return (-1);
	if (number < 1 || number > INT_MAX)
		return (conf_error(ctx, sr, "round number %lld is not positive",
		    number));
	for (i = 0; i + 1 < conf->nrounds; i++)
		if (conf->rounds[i].number == number)
			return (conf_error(ctx, sr, "duplicate round %lld "
			    "(first at line %d)", number,
			    config_setting_source_line(config_setting_get_elem(
			    config_setting_parent(g), (unsigned int)i))));
	cr->number = (int)number;

	if ((pairs = config_setting_get_member(g, "pairs")) == NULL)
		return (conf_error(ctx, g, "missing setting 'pairs' in round "
		    "%d", cr->number));
	if (config_setting_type(pairs) != CONFIG_TYPE_LIST &&
	    config_setting_type(pairs) != CONFIG_TYPE_ARRAY)
		return (conf_error(ctx, pairs, "setting 'pairs' in round %d "
		    "must be a list: pairs = ( (\"J1\", \"E1\", \"C1\"), "
		    "... );", cr->number));
	if ((n = config_setting_length(pairs)) == 0)
		return (conf_error(ctx, pairs, "round %d has no pairs",
		    cr->number));
	if (n > CONF_PARTS_MAX)
		return (conf_error(ctx, pairs, "round %d has more than %d "
		    "pairs", cr->number, CONF_PARTS_MAX));
	if ((cr->parts = calloc(n, sizeof(*cr->parts))) == NULL)
		return (conf_nomem(ctx, pairs));
	for (j = 0; j < n; j++) {
		p = config_setting_get_elem(pairs, j);
		if (conf_pair(ctx, p, cr->number, &cr->parts[j]) == -1 ||
		    conf_round_busy(ctx, p, cr, &cr->parts[j]) == -1)
			return (-1);
		cr->nparts++;
	}
	return (0);
}

/* Read one (station, entry, confederate) triple of a round. */
static int
conf_pair(struct conf_ctx *ctx, const config_setting_t *p, int round,
    struct conf_part *part)
{
	int	 i, ok;

	ok = (config_setting_type(p) == CONFIG_TYPE_LIST ||
	    config_setting_type(p) == CONFIG_TYPE_ARRAY) &&
	    config_setting_length(p) == 3;
	for (i = 0; ok && i < 3; i++)
		ok = config_setting_type(config_setting_get_elem(p, i)) ==
		    CONFIG_TYPE_STRING;
	if (!ok)
		return (conf_error(ctx, p, "round %d: a pair must be "
		    "(\"STATION\", \"ENTRY\", \"CONFEDERATE\")", round));
	if (conf_pair_member(ctx, p, 0, round, &part->station) == -1 ||
	    conf_pair_member(ctx, p, 1, round, &part->entry) == -1 ||
	    conf_pair_member(ctx, p, 2, round, &part->confederate) == -1)
		return (-1);
	return (0);
}

/* Resolve member i of a pair: 0 a station, 1 an entry, 2 a confederate. */
static int
conf_pair_member(struct conf_ctx *ctx, const config_setting_t *p, int i,
    int round, int *out)
{
	static const char	*roles[] = { "station", "entry",
				    "confederate" };
	const struct conf	*conf = ctx->conf;
	const config_setting_t	*s;
	const char		*name;
	int			 k;

	s = config_setting_get_elem(p, i);
	name = config_setting_get_string(s);
	if (i == 0) {
		if ((k = conf_station_find(conf, name)) == -1) {
			if (conf_entity_find(conf, name) != -1)
				return (conf_error(ctx, s, "round %d: '%s' is "
				    "an entity, not a station", round, name));
			return (conf_error(ctx, s, "round %d: unknown station "
			    "'%s'", round, name));
		}
		*out = k;
		return (0);
	}
	if ((k = conf_entity_find(conf, name)) == -1) {
		if (conf_station_find(conf, name) != -1)
			return (conf_error(ctx, s, "round %d: '%s' is a "
			    "station, not an %s", round, name, roles[i]));
		return (conf_error(ctx, s, "round %d: unknown %s '%s'", round,
		    roles[i], name));
	}
	if (i == 1 && conf->entities[k].kind != CONF_ENTRY)
		return (conf_error(ctx, s, "round %d: '%s' is a confederate, "
		    "not an entry", round, name));
	if (i == 2 && conf->entities[k].kind != CONF_CONFEDERATE)
		return (conf_error(ctx, s, "round %d: '%s' is an entry, not a "
		    "confederate", round, name));
	*out = k;
	return (0);
}

/* Reject a pair whose station or entities already sit elsewhere. */
static int
conf_round_busy(struct conf_ctx *ctx, const config_setting_t *p,
    const struct conf_round *cr, const struct conf_part *part)
{
	const struct conf	*conf = ctx->conf;
	const struct conf_part	*o;
	size_t			 i;

	for (i = 0; i < cr->nparts; i++) {
		o = &cr->parts[i];
		if (o->station == part->station)
			return (conf_error(ctx, p, "round %d: station '%s' is "
			    "in two pairs", cr->number,
			    conf->stations[part->station].name));
		if (o->entry == part->entry)
			return (conf_error(ctx, p, "round %d: entry '%s' is in "
			    "two pairs", cr->number,
			    conf->entities[part->entry].name));
		if (o->confederate == part->confederate)
			return (conf_error(ctx, p, "round %d: confederate '%s' "
			    "is in two pairs", cr->number,
			    conf->entities[part->confederate].name));
	}
	return (0);
}

/* Check a parsed libconfig tree and build the configuration from it. */
static struct conf *
conf_parse(config_t *cf, const char *name, const char *basedir, char *err,
    size_t errlen)
{
	struct conf_ctx		 ctx;
	const config_setting_t	*root;

	memset(&ctx, 0, sizeof(ctx));
	ctx.name = name;
	ctx.basedir = basedir;
	ctx.err = err;
	ctx.errlen = errlen;
	root = config_root_setting(cf);
	if ((ctx.conf = calloc(1, sizeof(*ctx.conf))) == NULL ||
	    (ctx.conf->file = strdup(name)) == NULL) {
		conf_nomem(&ctx, NULL);
		goto fail;
	}
	if (conf_keys(&ctx, root, conf_top_keys, "at top level") == -1 ||
	    conf_dirs(&ctx, root) == -1 ||
	    conf_ports(&ctx, root) == -1 ||
	    conf_stations(&ctx, root) == -1 ||
	    conf_entities(&ctx, root) == -1 ||
	    conf_schedule(&ctx, root) == -1)
		goto fail;
	free(ctx.uses);
	return (ctx.conf);

fail:
	free(ctx.uses);
	conf_free(ctx.conf);
	return (NULL);
}

/* Read a configuration from a stream or a string and check it. */
static struct conf *
conf_read(const char *name, const char *basedir, FILE *f, const char *text,
    char *err, size_t errlen)
{
	config_t	 cf;
	struct conf	*conf;
	const char	*file;
	char		 where[PATH_MAX];
	int		 ok;

	config_init(&cf);
	if (basedir != NULL)
		config_set_include_dir(&cf, basedir);
	if (f != NULL)
		ok = config_read(&cf, f);
	else
		ok = config_read_string(&cf, text);
	if (!ok) {
		file = conf_where(name, config_error_file(&cf), where,
		    sizeof(where));
		if (errlen > 0)
			snprintf(err, errlen, "%s:%d: %s", file,
			    config_error_line(&cf) > 0 ?
			    config_error_line(&cf) : 1,
			    config_error_text(&cf) != NULL ?
			    config_error_text(&cf) : "cannot parse");
		config_destroy(&cf);
		return (NULL);
	}
	conf = conf_parse(&cf, name, basedir, err, errlen);
	config_destroy(&cf);
	return (conf);
}

/*
 * Return the directory part of a configuration name, made absolute when
 * asked; NULL when the name has none and absolute was not asked.
 */
static char *
conf_basedir(const char *name, int absolute)
{
	const char	*slash;
	char		*dir, *abs, cwd[PATH_MAX];

	if ((slash = strrchr(name, '/')) == NULL) {
		if (!absolute)
			return (NULL);
		dir = strdup(".");
	} else if (slash == name)
		dir = strdup("/");
	else
		dir = strndup(name, slash - name);
	if (dir == NULL || !absolute || dir[0] == '/')
		return (dir);
	if (getcwd(cwd, sizeof(cwd)) == NULL) {
		free(dir);
		return (NULL);
	}
	if (strcmp(dir, ".") == 0)
		abs = strdup(cwd);
	else if (asprintf(&abs, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd,
	    dir) == -1)
		abs = NULL;
	free(dir);
	return (abs);
}

/* Load and check a configuration file; NULL with a message in err. */
struct conf *
conf_load(const char *file, char *err, size_t errlen)
{
	struct conf	*conf;
	struct stat	 sb;
	FILE		*f;
	char		*dir;

	if ((f = fopen(file, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return (NULL);
	}
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: %s", file, strerror(EISDIR));
		fclose(f);
		return (NULL);
	}
	if ((dir = conf_basedir(file, 1)) == NULL) {
		snprintf(err, errlen, "%s: cannot resolve its directory: %s",
		    file, strerror(errno));
		fclose(f);
		return (NULL);
	}
	conf = conf_read(file, dir, f, NULL, err, errlen);
	free(dir);
	fclose(f);
	return (conf);
}

/* Check a configuration held in a string; name stands for the file. */
struct conf *
conf_load_string(const char *name, const char *text, char *err,
    size_t errlen)
{
	struct conf	*conf;
	char		*dir;

	if (text == NULL) {
		snprintf(err, errlen, "%s: no configuration text", name);
		return (NULL);
	}
	/* Without a directory in name, relative paths stay relative. */
	dir = conf_basedir(name, 0);
	conf = conf_read(name, dir, NULL, text, err, errlen);
	free(dir);
	return (conf);
}

/* Free a configuration and everything it holds. */
void
conf_free(struct conf *conf)
{
	size_t	i;

	if (conf == NULL)
		return;
	for (i = 0; i < conf->nports; i++)
		conf_port_clear(&conf->ports[i]);
	free(conf->ports);
	for (i = 0; i < conf->nstations; i++)
		free(conf->stations[i].name);
	free(conf->stations);
	for (i = 0; i < conf->nentities; i++)
		conf_entity_clear(&conf->entities[i]);
	free(conf->entities);
	for (i = 0; i < conf->nrounds; i++) {
		free(conf->rounds[i].parts);
		free(conf->rounds[i].excused);
	}
	free(conf->rounds);
	free(conf->preset);
	free(conf->file);
	free(conf->control);
	free(conf->state_dir);
	free(conf->capture_dir);
	free(conf->transcript_dir);
	free(conf);
}

/* Find a port by name; return its index or -1. */
int
conf_port_find(const struct conf *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nports; i++)
		if (strcmp(conf->ports[i].name, name) == 0)
			return ((int)i);
	return (-1);
}

/* Find a station by name; return its index or -1. */
int
conf_station_find(const struct conf *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nstations; i++)
		if (strcmp(conf->stations[i].name, name) == 0)
			return ((int)i);
	return (-1);
}

/* Find an entity by name; return its index or -1. */
int
conf_entity_find(const struct conf *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nentities; i++)
		if (strcmp(conf->entities[i].name, name) == 0)
			return ((int)i);
	return (-1);
}

/* Find a round by number, or NULL. */
const struct conf_round *
conf_round_find(const struct conf *conf, int number)
{
	size_t	i;

	for (i = 0; i < conf->nrounds; i++)
		if (conf->rounds[i].number == number)
			return (&conf->rounds[i]);
	return (NULL);
}
