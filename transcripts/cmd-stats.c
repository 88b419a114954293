/*
 * transcripts stats: typing cadence per speaker and response latency,
 * per capture and pooled over all the captures named (stats.c has the
 * definitions).  Speakers are the judge (by number) and the entity (by
 * name and kind); the pools are by speaker, then by kind: judges,
 * confederates, entries, and humans (judges and confederates together).
 * With -j, the same figures as one JSON object on standard output.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define STATS_NAME_MAX	128

enum cmd_stats_pool_kind { POOL_JUDGES, POOL_CONFEDERATES, POOL_ENTRIES,
	POOL_OTHERS, POOL_HUMANS, POOL_COUNT };

struct cmd_stats_pool {
	char			 name[STATS_NAME_MAX];
	struct stats_series	 s;
};

struct cmd_stats_pools {
	struct cmd_stats_pool	*v;
	size_t			 n;
	size_t			 cap;
	struct stats_series	 kind[POOL_COUNT];
	struct stats_series	 latency;	/* all answers */
	size_t			 interruptions;
	struct stats_series	 klatency[POOL_COUNT];	/* by kind */
	size_t			 kinterruptions[POOL_COUNT];
};

static int	cmd_stats_exec(int, char **);
static int	cmd_stats_one(const char *, struct cmd_stats_pools *);
static void	cmd_stats_print(const char *, const char *,
		    struct stats_series *, int, size_t);
static json_t	*cmd_stats_json(const char *, struct stats_series *, int,
		    size_t);

/* With -j: the figures gathered as JSON, else NULL (printed as text). */
static json_t	*cmd_stats_out;
static struct stats_series *cmd_stats_find(struct cmd_stats_pools *,
		    const char *);
static enum cmd_stats_pool_kind cmd_stats_kind(const char *);

static const char *cmd_stats_kind_names[POOL_COUNT] = {
	"judges", "confederates", "entries", "others", "humans"
};

const struct cmd_entry cmd_stats_entry = {
	"stats", "[-j] capture ...", cmd_stats_exec
};

/*
 * One summary as JSON: a speaker's cadence, or (lat) the latency of the
 * answers with the interruptions; seconds.
 */
static json_t *
cmd_stats_json(const char *name, struct stats_series *s, int lat,
    size_t interruptions)
{
	struct stats_summary	sum;
	json_t			*o;

	stats_summary(s, &sum);
	if (lat)
		o = json_pack("{ss sI sI}", "name", name, "answers",
		    (json_int_t)sum.n, "interruptions",
		    (json_int_t)interruptions);
	else
		o = json_pack("{ss sI sI sI sb}", "name", name, "keys",
		    (json_int_t)sum.keys, "bursts", (json_int_t)sum.bursts,
		    "gaps", (json_int_t)sum.n, "mechanical",
		    sum.mechanical == 1);
	if (o == NULL)
		err(1, NULL);
	if (sum.n > 0 && json_object_update_new(o, json_pack(
	    "{sf sf sf sf sf}", "median", sum.median, "q1", sum.q1, "q3",
	    sum.q3, "min", sum.min, "max", sum.max)) == -1)
		err(1, NULL);
	if (sum.n > 0 && !lat)
		json_object_update_new(o, json_pack("{sf sf sf}", "iqr",
		    sum.q3 - sum.q1, "cv", sum.cv, "qcd", sum.qcd));
	return (o);
}

/*
 * Print one summary line: cadence, or latency (with the interruptions)
 * when lat is set.
 */
static void
cmd_stats_print(const char *scope, const char *name, struct stats_series *s,
    int lat, size_t interruptions)
{
	struct stats_summary	sum;
	json_t			*list, *o;
	const char		*key;

	if (cmd_stats_out != NULL) {
		/* scope: a capture's path, or "total" */
		key = strcmp(scope, "total") == 0 ? (lat ? "latency_totals" :
		    "cadence_totals") : NULL;
		if (key != NULL)
			list = json_object_get(cmd_stats_out, key);
		else {
			list = json_object_get(json_object_get(
			    cmd_stats_out, "captures"), scope);
			if (list == NULL) {
				list = json_array();
				json_object_set_new(json_object_get(
				    cmd_stats_out, "captures"), scope, list);
			}
		}
		o = cmd_stats_json(name, s, lat, interruptions);
		json_object_set_new(o, "figure", json_string(lat ? "latency" :
		    "cadence"));
		json_array_append_new(list, o);
		return;
	}
	stats_summary(s, &sum);
	if (lat) {
		printf("%s latency %s: answers %zu", scope, name, sum.n);
		if (sum.n > 0)
			printf(" median %.3f q1 %.3f q3 %.3f min %.3f max %.3f",
			    sum.median, sum.q1, sum.q3, sum.min, sum.max);
		printf(" interruptions %zu\n", interruptions);
		return;
	}
	printf("%s cadence %s: keys %zu bursts %zu gaps %zu", scope, name,
	    sum.keys, sum.bursts, sum.n);
	if (sum.n > 0)
		printf(" median %.3f q1 %.3f q3 %.3f iqr %.3f cv %.2f qcd %.2f",
		    sum.median, sum.q1, sum.q3, sum.q3 - sum.q1, sum.cv,
		    sum.qcd);
	if (sum.mechanical == 1)
		printf(" mechanical");
	printf("\n");
}

/* The pool of a speaker's name, made when new; NULL when out of memory. */
static struct stats_series *
cmd_stats_find(struct cmd_stats_pools *p, const char *name)
{
	struct cmd_stats_pool	*v;
	size_t			 i, n;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, name) == 0)
			return (&p->v[i].s);
	if (p->n == p->cap) {
		n = p->cap == 0 ? 16 : p->cap * 2;
		if ((v = reallocarray(p->v, n, sizeof(*v))) == NULL)
			return (NULL);
		p->v = v;
		p->cap = n;
	}
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	snprintf(p->v[p->n].name, sizeof(p->v[p->n].name), "%s", name);
	return (&p->v[p->n++].s);
}

/* The pool of an entity kind. */
static enum cmd_stats_pool_kind
cmd_stats_kind(const char *kind)
{
	if (kind == NULL)
		return (POOL_OTHERS);
	if (strcmp(kind, "confederate") == 0)
		return (POOL_CONFEDERATES);
	if (strcmp(kind, "entry") == 0)
		return (POOL_ENTRIES);
	return (POOL_OTHERS);
}

/* Figures of one capture, printed and pooled; 1 when it had errors. */
static int
cmd_stats_one(const char *path, struct cmd_stats_pools *pools)
{
	struct cap_reader	*r;
	const struct cap_meta	*m;
	struct cap_event	 ev;
	struct stats		 st;
	struct stats_series	*ps;
	enum cmd_stats_pool_kind	 k;
	char			 jname[STATS_NAME_MAX];
	char			 ename[STATS_NAME_MAX];
	int			 status = 0;

	if ((r = cmd_capture_open(path)) == NULL)
		return (1);
	stats_init(&st);
	m = cap_read_meta(r);
	st.charset = m->charset;
	while (cmd_capture_next(r, &ev, &status))
		if (stats_feed(&st, ev.kind, ev.data, ev.len, ev.usec) == -1)
			err(1, NULL);
	if (m->judge == TX_JUDGE_NONE)
		snprintf(jname, sizeof(jname), "judge NA");
	else
		snprintf(jname, sizeof(jname), "judge %d", m->judge);
	k = cmd_stats_kind(m->kind);
	snprintf(ename, sizeof(ename), "%s %s", m->kind != NULL ? m->kind :
	    "entity", m->entity != NULL ? m->entity : "NA");
	if ((ps = cmd_stats_find(pools, jname)) == NULL ||
	    stats_add(ps, &st.gaps[STATS_JUDGE]) == -1 ||
	    (ps = cmd_stats_find(pools, ename)) == NULL ||
	    stats_add(ps, &st.gaps[STATS_ENTITY]) == -1 ||
	    stats_add(&pools->kind[POOL_JUDGES], &st.gaps[STATS_JUDGE]) == -1 ||
	    stats_add(&pools->kind[POOL_HUMANS], &st.gaps[STATS_JUDGE]) == -1 ||
	    stats_add(&pools->kind[k], &st.gaps[STATS_ENTITY]) == -1 ||
	    (k == POOL_CONFEDERATES && stats_add(&pools->kind[POOL_HUMANS],
	    &st.gaps[STATS_ENTITY]) == -1) ||
	    stats_add(&pools->latency, &st.latency) == -1 ||
	    stats_add(&pools->klatency[k], &st.latency) == -1)
		err(1, NULL);
	pools->interruptions += st.interruptions;
	pools->kinterruptions[k] += st.interruptions;
	cmd_stats_print(path, jname, &st.gaps[STATS_JUDGE], 0, 0);
	cmd_stats_print(path, ename, &st.gaps[STATS_ENTITY], 0, 0);
	cmd_stats_print(path, ename, &st.latency, 1, st.interruptions);
	stats_free(&st);
	cap_read_close(r);
	return (status);
}

/* Figures for every capture named, then the pools. */
static int
cmd_stats_exec(int argc, char **argv)
{
	struct cmd_stats_pools	 pools;
	size_t			 i;
	int			 ch, k, status = 0, n = 0;

	while ((ch = getopt(argc, argv, "j")) != -1) {
		if (ch != 'j')
			cmd_bad_option(&cmd_stats_entry, "j", argv);
		if ((cmd_stats_out = json_pack("{s{} s[] s[]}", "captures",
		    "cadence_totals", "latency_totals")) == NULL)
			err(1, NULL);
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cmd_usage(&cmd_stats_entry);
	memset(&pools, 0, sizeof(pools));
	for (; argc > 0; argc--, argv++, n++)
		status |= cmd_stats_one(argv[0], &pools);
	if (n > 1) {
		for (i = 0; i < pools.n; i++)
			cmd_stats_print("total", pools.v[i].name, &pools.v[i].s,
			    0, 0);
		for (k = 0; k < POOL_COUNT; k++)
			if (k != POOL_OTHERS || pools.kind[k].keys > 0)
				cmd_stats_print("total",
				    cmd_stats_kind_names[k], &pools.kind[k], 0,
				    0);
		for (k = 0; k < POOL_COUNT; k++)
			if (pools.klatency[k].n > 0 ||
			    pools.kinterruptions[k] > 0)
				cmd_stats_print("total",
				    cmd_stats_kind_names[k], &pools.klatency[k],
				    1, pools.kinterruptions[k]);
		cmd_stats_print("total", "answers", &pools.latency, 1,
		    pools.interruptions);
	}
	if (cmd_stats_out != NULL) {
		if (json_dumpf(cmd_stats_out, stdout, JSON_INDENT(1) |
		    JSON_SORT_KEYS) == -1 || putchar('\n') == EOF)
			status = 1;
		json_decref(cmd_stats_out);
		cmd_stats_out = NULL;
	}
	for (i = 0; i < pools.n; i++)
		stats_series_free(&pools.v[i].s);
	free(pools.v);
	for (k = 0; k < POOL_COUNT; k++) {
		stats_series_free(&pools.kind[k]);
		stats_series_free(&pools.klatency[k]);
	}
	stats_series_free(&pools.latency);
	return (status);
}
