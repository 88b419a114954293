/*
 * The room in the configuration: its ports, and the judge stations and
 * entities that hold them, read in that order.
 *
 * Every port belongs to at most one place: the left or right terminal of
 * one station, or one entity; ctx->uses records who holds each port.
 * Stations and entities share one namespace because rounds name both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "conf-parse.h"

#define CONF_NAME_MAX		32
#define CONF_JUDGE_MAX		99

struct conf_use {			/* who holds a port */
	const char	*what;		/* "station" or "entity" */
	const char	*name;
	int		 line;
};

static const char *conf_port_keys[] = { "name", "address", NULL };
static const char *conf_station_keys[] = { "name", "judge", "left", "right",
    "localecho", "charset", NULL };
static const char *conf_entity_keys[] = { "name", "kind", "port", "approved",
    "program", "contestant", "eol", "announce", "fresh", "charset", "user", "network", "limits",
    NULL };

static int	 conf_room_name_valid(const char *);
static int	 conf_room_text_valid(const char *);
static int	 conf_room_check_name(struct conf_ctx *,
		    const config_setting_t *, const char *, const char *);
static int	 conf_room_named(struct conf_ctx *, const config_setting_t *,
		    const char *, const char **, const char **,
		    const config_setting_t **, char *, size_t);
static int	 conf_room_list(struct conf_ctx *, const config_setting_t *,
		    const char *, int, size_t, void **, config_setting_t **);
static int	 conf_room_ports(struct conf_ctx *, const config_setting_t *);
static int	 conf_room_port(struct conf_ctx *, const config_setting_t *,
		    struct conf_port *);
static void	 conf_room_unuse(struct conf_ctx *, const char *);
static int	 conf_room_use_port(struct conf_ctx *,
		    const config_setting_t *, const char *, const char *,
		    const char *, int *);
static int	 conf_room_name_taken(struct conf_ctx *,
		    const config_setting_t *, const char *);
static int	 conf_room_stations(struct conf_ctx *,
		    const config_setting_t *);
static int	 conf_room_station(struct conf_ctx *, const config_setting_t *,
		    struct conf_station *);
static int	 conf_room_entities(struct conf_ctx *,
		    const config_setting_t *);
static int	 conf_room_entity(struct conf_ctx *, const config_setting_t *,
		    struct conf_entity *);
static int	 conf_room_entity_text(struct conf_ctx *,
		    const config_setting_t *, const char *, const char *,
		    const char *, int);
static void	 conf_room_port_clear(struct conf_port *);
static void	 conf_room_broken(struct conf_ctx *, const config_setting_t *,
		    const char *);
static void	 conf_room_entity_clear(struct conf_entity *);

/* Tell whether a name is 1..32 characters of [A-Za-z0-9_.-]. */
static int
conf_room_name_valid(const char *name)
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
conf_room_text_valid(const char *text)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)text; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return (0);
	return (1);
}

/* Reject an invalid port, station or entity name. */
static int
conf_room_check_name(struct conf_ctx *ctx, const config_setting_t *s,
    const char *what, const char *name)
{
	if (conf_room_name_valid(name))
		return (0);
	return (conf_error(ctx, s, "invalid %s name '%s' (1 to %d characters "
	    "of A-Z a-z 0-9 _ . -)", what, name, CONF_NAME_MAX));
}

/*
 * Check the settings of a port, station or entity group g and read its
 * name; then write "in WHAT 'NAME'" to where, for later messages.
 */
static int
conf_room_named(struct conf_ctx *ctx, const config_setting_t *g,
    const char *what, const char **known, const char **name,
    const config_setting_t **sn, char *where, size_t len)
{
	snprintf(where, len, "in %s", what);
	if (conf_keys(ctx, g, known, where) == -1 ||
	    conf_string(ctx, g, "name", where, 1, name, sn) == -1 ||
	    conf_room_check_name(ctx, *sn, what, *name) == -1)
		return (-1);
	snprintf(where, len, "in %s '%s'", what, *name);
	return (0);
}

/*
 * Fetch a top-level list of groups and allocate a zeroed array of as many
 * elements of size bytes in *ap.  Returns the length (0 when absent, with
 * nothing allocated), or -1; an empty list is an error when required.
 */
static int
conf_room_list(struct conf_ctx *ctx, const config_setting_t *root,
    const char *key, int required, size_t size, void **ap,
    config_setting_t **lp)
{
	config_setting_t	*l, *e;
	int			 i, n;

	*lp = NULL;
	if ((l = config_setting_get_member(root, key)) == NULL) {
		if (required && conf_skipped(ctx, key))
			return (conf_echo(ctx));
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

/*
 * Keep the name of a port, station or entity (kind "port" or "place")
 * read with errors, unless that name belongs to another that was read
 * well (the error was a duplicate name).
 */
static void
conf_room_broken(struct conf_ctx *ctx, const config_setting_t *g,
    const char *kind)
{
	const char	*name;

	if (!config_setting_lookup_string(g, "name", &name))
		return;
	if (strcmp(kind, "port") == 0 ? conf_port_find(ctx->conf, name) ==
	    -1 : conf_station_find(ctx->conf, name) == -1 &&
	    conf_entity_find(ctx->conf, name) == -1)
		conf_broken(ctx, kind, name);
}

/* Free what a port holds. */
static void
conf_room_port_clear(struct conf_port *p)
{
	free(p->name);
	free(p->address);
	addr_free(&p->addr);
	memset(p, 0, sizeof(*p));
}

/* Read the list of ports. */
static int
conf_room_ports(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*l;
	void			*a;
	int			 i, n;

	if ((n = conf_room_list(ctx, root, "ports", 1, sizeof(*conf->ports),
	    &a, &l)) == -1)
		return (-1);
	conf->ports = a;
	if ((ctx->uses = calloc(n, sizeof(*ctx->uses))) == NULL)
		return (conf_nomem(ctx, l));
	/* A bad port is left out, and the others are still checked. */
	for (i = 0; i < n; i++) {
		if (conf_room_port(ctx, config_setting_get_elem(l, i),
		    &conf->ports[conf->nports]) == -1) {
			conf_room_broken(ctx, config_setting_get_elem(l, i),
			    "port");
			continue;
		}
		conf->nports++;
	}
	return (conf->nports == (size_t)n ? 0 : -1);
}

/* Read one port; on failure nothing is left allocated in *p. */
static int
conf_room_port(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_port *p)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*sn = NULL, *sa = NULL;
	const struct addr	*o;
	const char		*name = NULL, *address = NULL;
	char			 what[CONF_NAME_MAX + 16], aerr[LINE_ERRLEN];
	size_t			 i;
	int			 k;

	if (conf_room_named(ctx, g, "port", conf_port_keys, &name, &sn, what,
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
		if (!addr_same_line(o, &p->addr))
			continue;
		addr_free(&p->addr);
		if (o->kind == ADDR_FTDI)
			return (conf_error(ctx, sa, "port '%s': same line as "
			    "port '%s' at line %d (FTDI adapter %s, "
			    "interface %c)", name, conf->ports[i].name,
			    conf->ports[i].line, o->serial,
			    o->interface == 0 ? 'A' : 'A' + o->interface - 1));
		return (conf_error(ctx, sa, "port '%s': same line as port "
		    "'%s' at line %d", name, conf->ports[i].name,
		    conf->ports[i].line));
	}
	p->line = config_setting_source_line(g);
	if ((p->name = strdup(name)) == NULL ||
	    (p->address = strdup(address)) == NULL) {
		conf_room_port_clear(p);
		return (conf_nomem(ctx, g));
	}
	return (0);
}

/*
 * Give back the ports a station or entity that failed had claimed (name,
 * its name as claimed, is about to be freed), so that a later place is
 * checked against the places kept.
 */
static void
conf_room_unuse(struct conf_ctx *ctx, const char *name)
{
	size_t	i;

	for (i = 0; i < ctx->conf->nports; i++)
		if (ctx->uses[i].name == name)
			memset(&ctx->uses[i], 0, sizeof(ctx->uses[i]));
}

/*
 * Resolve the port named by setting key of a station or entity and claim
 * it; a port belongs to one place only.
 */
static int
conf_room_use_port(struct conf_ctx *ctx, const config_setting_t *g,
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
	if ((i = conf_port_find(ctx->conf, port)) == -1 &&
	    (conf_is_broken(ctx, "port", port) || conf_skipped(ctx, "ports")))
		return (conf_echo(ctx));
	if (i == -1)
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
conf_room_name_taken(struct conf_ctx *ctx, const config_setting_t *s,
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
conf_room_stations(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*l;
	void			*a;
	int			 i, n;

	if ((n = conf_room_list(ctx, root, "stations", 0,
	    sizeof(*conf->stations), &a, &l)) <= 0)
		return (n);
	conf->stations = a;
	for (i = 0; i < n; i++) {
		if (conf_room_station(ctx, config_setting_get_elem(l, i),
		    &conf->stations[conf->nstations]) == -1) {
			conf_room_broken(ctx, config_setting_get_elem(l, i),
			    "place");
			continue;
		}
		conf->nstations++;
	}
	return (conf->nstations == (size_t)n ? 0 : -1);
}

/* Read one station. */
static int
conf_room_station(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_station *st)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*sn = NULL, *sj = NULL;
	const char		*name = NULL;
	char			 what[CONF_NAME_MAX + 16];
	long long		 judge = 0;
	size_t			 i;

	if (conf_room_named(ctx, g, "station", conf_station_keys, &name, &sn,
	    what, sizeof(what)) == -1 ||
	    conf_room_name_taken(ctx, sn, name) == -1 ||
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
	if (conf_room_use_port(ctx, g, "left", "station", st->name,
	    &st->left) == -1 ||
	    conf_room_use_port(ctx, g, "right", "station", st->name,
	    &st->right) == -1 ||
	    conf_rules_station(ctx, g, st) == -1) {
		conf_room_unuse(ctx, st->name);
		free(st->name);
		st->name = NULL;
		return (-1);
	}
	return (0);
}

/* Free what an entity holds. */
static void
conf_room_entity_clear(struct conf_entity *e)
{
	free(e->name);
	free(e->approved);
	free(e->program);
	free(e->contestant);
	memset(e, 0, sizeof(*e));
}

/* Read the list of entities. */
static int
conf_room_entities(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*l;
	void			*a;
	int			 i, n;

	if ((n = conf_room_list(ctx, root, "entities", 0,
	    sizeof(*conf->entities), &a, &l)) <= 0)
		return (n);
	conf->entities = a;
	for (i = 0; i < n; i++) {
		if (conf_room_entity(ctx, config_setting_get_elem(l, i),
		    &conf->entities[conf->nentities]) == -1) {
			conf_room_broken(ctx, config_setting_get_elem(l, i),
			    "place");
			continue;
		}
		conf->nentities++;
	}
	return (conf->nentities == (size_t)n ? 0 : -1);
}

/* Read one entity. */
static int
conf_room_entity(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_entity *e)
{
	const config_setting_t	*sn = NULL, *s = NULL;
	const char		*name = NULL, *kind = NULL, *approved = NULL;
	const char		*program = NULL, *contestant = "";
	char			 what[CONF_NAME_MAX + 16];
	int			 r;

	if (conf_room_named(ctx, g, "entity", conf_entity_keys, &name, &sn,
	    what, sizeof(what)) == -1 ||
	    conf_room_name_taken(ctx, sn, name) == -1)
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
	    conf_room_entity_text(ctx, s, name, "approved name", approved,
	    0) == -1)
		return (-1);

	if ((r = conf_string(ctx, g, "program", what, 0, &program, &s)) == -1 ||
	    (r == 1 && conf_room_entity_text(ctx, s, name, "program name",
	    program, 0) == -1))
		return (-1);
	if (r == 0)
		program = name;

	if ((r = conf_string(ctx, g, "contestant", what, 0, &contestant,
	    &s)) == -1 ||
	    (r == 1 && conf_room_entity_text(ctx, s, name, "contestant",
	    contestant, 1) == -1))
		return (-1);

	e->line = config_setting_source_line(g);
	if ((e->name = strdup(name)) == NULL ||
	    (e->approved = strdup(approved)) == NULL ||
	    (e->program = strdup(program)) == NULL ||
	    (e->contestant = strdup(contestant)) == NULL) {
		conf_room_entity_clear(e);
		return (conf_nomem(ctx, g));
	}
	if (conf_room_use_port(ctx, g, "port", "entity", e->name,
	    &e->port) == -1 || conf_rules_entity(ctx, g, e) == -1 ||
	    conf_sandbox_entity(ctx, g, e) == -1) {
		conf_room_unuse(ctx, e->name);
		conf_room_entity_clear(e);
		return (-1);
	}
	return (0);
}

/*
 * Reject an entity's text setting s, named label in messages, when it has
 * control characters, or when it is empty and that is not allowed.
 */
static int
conf_room_entity_text(struct conf_ctx *ctx, const config_setting_t *s,
    const char *name, const char *label, const char *text, int empty_ok)
{
	if (!empty_ok && *text == '\0')
		return (conf_error(ctx, s, "entity '%s': %s is empty", name,
		    label));
	if (!conf_room_text_valid(text))
		return (conf_error(ctx, s, "entity '%s': %s has control "
		    "characters", name, label));
	return (0);
}

/* Read the ports, then the stations and entities that hold them. */
int
conf_room_read(struct conf_ctx *ctx, const config_setting_t *root)
{
	int	r;

	r = conf_room_ports(ctx, root);
	r |= conf_room_stations(ctx, root);
	r |= conf_room_entities(ctx, root);
	return (r);
}

/* Free the ports, stations and entities of a configuration. */
void
conf_room_free(struct conf *conf)
{
	size_t	i;

	for (i = 0; i < conf->nports; i++)
		conf_room_port_clear(&conf->ports[i]);
	free(conf->ports);
	for (i = 0; i < conf->nstations; i++)
		free(conf->stations[i].name);
	free(conf->stations);
	for (i = 0; i < conf->nentities; i++)
		conf_room_entity_clear(&conf->entities[i]);
	free(conf->entities);
}
