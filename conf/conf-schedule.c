/*
 * The schedule in the configuration: explicit rounds of (station, entry,
 * confederate) pairs, or a preset expanded here into such rounds over the
 * stations and entities in order, so that the rest of muxd only ever sees
 * conf->rounds.  Also the round duration and the placement seed.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "conf-parse.h"

#define CONF_DURATION_MAX	86400
#define CONF_READY_WAIT_MAX	3600

static const char *conf_schedule_keys[] = { "preset", "rounds", "duration",
    "seed", "ready_wait", NULL };
static const char *conf_schedule_round_keys[] = { "round", "pairs", NULL };

static void	 conf_schedule_print_excused(const struct conf *,
		    const struct conf_round *, FILE *);
static int	 conf_schedule_preset(struct conf_ctx *,
		    const config_setting_t *, const config_setting_t *,
		    const char *);
static int	 conf_schedule_rounds(struct conf_ctx *,
		    const config_setting_t *);
static int	 conf_schedule_round(struct conf_ctx *,
		    const config_setting_t *, struct conf_round *);
static int	 conf_schedule_pair(struct conf_ctx *, const config_setting_t *,
		    int, struct conf_part *);
static int	 conf_schedule_pair_member(struct conf_ctx *,
		    const config_setting_t *, int, int, int *);
static int	 conf_schedule_round_busy(struct conf_ctx *,
		    const config_setting_t *, const struct conf_round *,
		    const struct conf_part *);

/* Read the schedule: a preset or explicit rounds, duration and seed. */
int
conf_schedule_read(struct conf_ctx *ctx, const config_setting_t *root)
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
	if (r == 1) {
		conf->duration = (int)n;
		conf->duration_set = 1;
	}

	if ((r = conf_int(ctx, g, "ready_wait", "in schedule", 0, &n,
	    &s)) == -1)
		return (-1);
	if (r == 1 && (n < 0 || n > CONF_READY_WAIT_MAX))
		return (conf_error(ctx, s, "setting 'ready_wait' in schedule "
		    "must be between 0 and %d seconds", CONF_READY_WAIT_MAX));
	if (r == 1)
		conf->ready_wait = (int)n;

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
		return (conf_schedule_preset(ctx, g, s, preset));
	if (rounds == NULL)
		return (conf_error(ctx, g, "schedule has neither 'preset' nor "
		    "'rounds'"));
	return (conf_schedule_rounds(ctx, rounds));
}

/*
 * Expand a preset into rounds over the stations and entities in order;
 * g is the schedule, s the preset setting.
 */
static int
conf_schedule_preset(struct conf_ctx *ctx, const config_setting_t *g,
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
	if ((conf->nstations != (size_t)nj || ne != (size_t)nen ||
	    nc != (size_t)ncn) && (ctx->nbroken > 0 ||
	    conf_skipped(ctx, "stations") || conf_skipped(ctx, "entities"))) {
		conf_echo(ctx);		/* the room has errors of its own */
		goto out;
	}
	if (conf->nstations != (size_t)nj || ne != (size_t)nen ||
	    nc != (size_t)ncn) {
		conf_error(ctx, g, "preset '%s' needs exactly %d stations, %d "
		    "entries and %d confederates; found %zu stations, %zu "
		    "entries and %zu confederates", name, nj, nen, ncn,
		    conf->nstations, ne, nc);
		goto out;
	}

	if (!conf->duration_set)
		conf->duration = schedule_preset_duration(name);
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
			cp->entry = pr[i].parts[j].entry == 0 ? -1 :
			    entries[pr[i].parts[j].entry - 1];
			cp->confederate = pr[i].parts[j].confederate == 0 ?
			    -1 : confeds[pr[i].parts[j].confederate - 1];
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
conf_schedule_rounds(struct conf_ctx *ctx, const config_setting_t *l)
{
	struct conf		*conf = ctx->conf;
	config_setting_t	*g;
	int			 i, n, rc = 0;

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
		if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
			rc = conf_error(ctx, g, "element %d of 'rounds' "
			    "must be a group { ... }", i + 1);
			continue;
		}
		/* Counted first: conf_free() releases a half-read round. */
		conf->nrounds++;
		if (conf_schedule_round(ctx, g, &conf->rounds[i]) == -1)
			rc = -1;
	}
	return (rc);
}

/* Read one explicit round. */
static int
conf_schedule_round(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_round *cr)
{
	struct conf		*conf = ctx->conf;
	const config_setting_t	*sr = NULL, *pairs, *p;
	long long		 number = 0;
	size_t			 i;
	int			 j, n, rc = 0;

	if (conf_keys(ctx, g, conf_schedule_round_keys, "in round") == -1)
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
	if ((cr->parts = calloc(n, sizeof(*cr->parts))) == NULL)
		return (conf_nomem(ctx, pairs));
	/* A bad pair is left out, and the others are still checked. */
	for (j = 0; j < n; j++) {
		p = config_setting_get_elem(pairs, j);
		if (conf_schedule_pair(ctx, p, cr->number,
		    &cr->parts[cr->nparts]) == -1 ||
		    conf_schedule_round_busy(ctx, p, cr,
		    &cr->parts[cr->nparts]) == -1) {
			rc = -1;
			continue;
		}
		cr->nparts++;
	}
	return (rc);
}

/* Read one (station, entry, confederate) triple of a round. */
static int
conf_schedule_pair(struct conf_ctx *ctx, const config_setting_t *p, int round,
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
	/* Each of the three is resolved, and each error reported. */
	ok = conf_schedule_pair_member(ctx, p, 0, round, &part->station);
	ok |= conf_schedule_pair_member(ctx, p, 1, round, &part->entry);
	ok |= conf_schedule_pair_member(ctx, p, 2, round, &part->confederate);
	return (ok != 0 ? -1 : 0);
}

/* Resolve member i of a pair: 0 a station, 1 an entry, 2 a confederate. */
static int
conf_schedule_pair_member(struct conf_ctx *ctx, const config_setting_t *p,
    int i, int round, int *out)
{
	static const char	*roles[] = { "station", "entry",
				    "confederate" };
	const struct conf	*conf = ctx->conf;
	const config_setting_t	*s;
	const char		*name;
	int			 k;

	s = config_setting_get_elem(p, i);
	name = config_setting_get_string(s);
	if (conf_station_find(conf, name) == -1 &&
	    conf_entity_find(conf, name) == -1 &&
	    (conf_is_broken(ctx, "place", name) ||
	    conf_skipped(ctx, "stations") || conf_skipped(ctx, "entities")))
		return (conf_echo(ctx));
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
conf_schedule_round_busy(struct conf_ctx *ctx, const config_setting_t *p,
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
		if (o->entry >= 0 && o->entry == part->entry)
			return (conf_error(ctx, p, "round %d: entry '%s' is in "
			    "two pairs", cr->number,
			    conf->entities[part->entry].name));
		if (o->confederate >= 0 && o->confederate == part->confederate)
			return (conf_error(ctx, p, "round %d: confederate '%s' "
			    "is in two pairs", cr->number,
			    conf->entities[part->confederate].name));
	}
	return (0);
}

/* Print the stations and entities a round leaves out, by their names. */
static void
conf_schedule_print_excused(const struct conf *conf,
    const struct conf_round *r, FILE *f)
{
	size_t	i, j;
	int	n = 0, used;

	for (i = 0; i < conf->nstations + conf->nentities; i++) {
		for (j = 0, used = 0; j < r->nparts && !used; j++)
			used = i < conf->nstations ? r->parts[j].station ==
			    (int)i : r->parts[j].entry == (int)(i -
			    conf->nstations) || r->parts[j].confederate ==
			    (int)(i - conf->nstations);
		if (!used)
			fprintf(f, "%s %s", n++ == 0 ? "; excused" : "",
			    i < conf->nstations ? conf->stations[i].name :
			    conf->entities[i - conf->nstations].name);
	}
}

/*
 * Print a room's schedule, a round a line: who compares or interviews
 * whom, and who is excused (muxd -n).
 */
void
conf_schedule_print(const struct conf *conf, FILE *f)
{
	const struct conf_round	*r;
	const struct conf_part	*pt;
	size_t			 i, j;

	if (conf->nrounds == 0)
		return;
	fprintf(f, "schedule: %s%s, %zu rounds", conf->preset != NULL ?
	    "preset " : "rounds as written", conf->preset != NULL ?
	    conf->preset : "", conf->nrounds);
	if (conf->duration > 0)
		fprintf(f, " of %d min%s", conf->duration / 60,
		    conf->duration % 60 != 0 ? " and some seconds" : "");
	fprintf(f, "\n");
	for (i = 0; i < conf->nrounds; i++) {
		r = &conf->rounds[i];
		fprintf(f, "round %d:", r->number);
		for (j = 0; j < r->nparts; j++) {
			pt = &r->parts[j];
			fprintf(f, "%s %s (judge %d) ", j > 0 ? ";" : "",
			    conf->stations[pt->station].name,
			    conf->stations[pt->station].judge);
			if (pt->entry >= 0 && pt->confederate >= 0)
				fprintf(f, "compares %s and %s",
				    conf->entities[pt->entry].name,
				    conf->entities[pt->confederate].name);
			else
				fprintf(f, "interviews %s",
				    conf->entities[pt->entry >= 0 ? pt->entry :
				    pt->confederate].name);
		}
		conf_schedule_print_excused(conf, r, f);
		fprintf(f, "\n");
	}
}
