/*
 * transcripts score: a contest's result from the judges' ballots
 * (score.c): each entity's score, the winner, the medal and which rule
 * decided, as text, as JSON (-j), and as an HTML report with a chart of
 * each entity's ballots (-H FILE), an SVG drawn here.  The ballots are
 * checked against the schedule: the room's configuration (-c), else the
 * pairs the ballots file lists, else the pairs its ballots name.  What
 * the ballots get wrong is told on standard error with its line, every
 * error, and makes the exit status 3; no result is given then, unless a
 * partial one is asked for (-p), marked partial wherever it depends on a
 * ballot in error.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "conf.h"
#include "score.h"

#define CMD_SCORE_ERRORS	3	/* the exit status of ballots in error */

#define SVG_W		320
#define SVG_H		120
#define SVG_PAD		24

static int	 cmd_score_exec(int, char **);
static int	 cmd_score_conf(const char *, struct score_ballots *);
static json_t	*cmd_score_json(const struct score_result *, const char *,
		    size_t);
static void	 cmd_score_text(const struct score_result *, const char *,
		    size_t);
static int	 cmd_score_html(const struct score_result *, const char *,
		    const char *, size_t);
static void	 cmd_score_svg(FILE *, const struct score_result *,
		    const struct score_entity *);
static const char *cmd_score_what(enum score_rule, int);
static double	 cmd_score_max(enum score_rule);

const struct cmd_entry cmd_score_entry = {
	"score", "-r 2004|2009|2003|longnow [-jp] [-c muxd.conf] "
	"[-H report.html] ballots",
	cmd_score_exec
};

/* What a rule's score (0) or tie-break (1) of an entity is. */
static const char *
cmd_score_what(enum score_rule r, int tiebreak)
{
	static const char	*what[][2] = {
		{ "pairs won (51 points or more)", "total points" },
		{ "picked as the human", "mean rank (as the machine)" },
		{ "mean rating (0-5)", "" },
		{ "judges fooled", "" }
	};

	return (what[r][tiebreak]);
}

/* The top of the scale of one judge's value under a rule. */
static double
cmd_score_max(enum score_rule r)
{
	return (r == SCORE_2004 ? 100 : r == SCORE_2009 ? 1 : r == SCORE_2003 ?
	    5 : 4);
}

/* A result as JSON, partial when errors is not 0. */
static json_t *
cmd_score_json(const struct score_result *res, const char *file,
    size_t errors)
{
	const struct score_entity	*e;
	const struct score_trial	*t;
	json_t				*o, *ents, *vals, *trials, *foils;
	size_t				 i, k;

	o = json_pack("{sssssbsI}", "rule", score_rule_name(res->rule),
	    "ballots", file, "partial", errors > 0, "errors",
	    (json_int_t)errors);
	ents = json_array();
	for (i = 0; i < res->n; i++) {
		e = &res->e[i];
		vals = json_array();
		for (k = 0; k < e->nvalue; k++)
			json_array_append_new(vals, json_pack("{sssf}",
			    "judge", e->value[k].judge, "value",
			    e->value[k].v));
		json_array_append_new(ents, json_pack("{sssssfsIso}",
		    "entity", e->name, "kind", e->kind == SCORE_ENTRY ?
		    "entry" : e->kind == SCORE_CONFEDERATE ? "confederate" :
		    "unknown", "score", e->score, "ballots",
		    (json_int_t)e->nballot, "values", vals));
		if (!isnan(e->tiebreak))
			json_object_set_new(json_array_get(ents,
			    json_array_size(ents) - 1), "tiebreak",
			    json_real(e->tiebreak));
		if (e->partial)
			json_object_set_new(json_array_get(ents,
			    json_array_size(ents) - 1), "partial",
			    json_true());
	}
	json_object_set_new(o, "entities", ents);
	json_object_set_new(o, "winner", res->winner[0] != '\0' ?
	    json_string(res->winner) : json_null());
	json_object_set_new(o, "medal", res->medal[0] != '\0' ?
	    json_string(res->medal) : json_null());
	json_object_set_new(o, "decided", json_string(res->decided));
	if (res->rule == SCORE_LONGNOW) {
		trials = json_array();
		for (i = 0; i < res->ntrial; i++) {
			t = &res->trial[i];
			foils = json_array();
			for (k = 0; k < (size_t)t->nfoil; k++)
				json_array_append_new(foils, json_pack("{sssf}",
				    "foil", t->foil[k], "median",
				    t->foil_median[k]));
			json_array_append_new(trials, json_pack("{sisssisfso"
			    "sbsbsb}", "trial", t->round, "computer",
			    t->computer, "fooled", t->fooled, "median",
			    isnan(t->computer_median) ? 0 : t->computer_median,
			    "foils", foils, "determination",
			    t->determination, "rank_order", t->rank_order,
			    "passed", t->passed));
		}
		json_object_set_new(o, "trials", trials);
	}
	return (o);
}

/*
 * A result as text; when errors is not 0, every line that depends on a
 * ballot in error is marked partial.
 */
static void
cmd_score_text(const struct score_result *res, const char *file,
    size_t errors)
{
	const struct score_entity	*e;
	const struct score_trial	*t;
	const char			*partial = errors > 0 ? " (partial)" :
					    "";
	size_t				 i, k;

	printf("%s scoring of %s", score_rule_name(res->rule), file);
	if (errors > 0)
		printf(" (partial: %zu error%s in the ballots)", errors,
		    errors == 1 ? "" : "s");
	printf("\n  %-16s %-12s %8s  %s\n", "entity", "kind", "score",
	    cmd_score_what(res->rule, 0));
	for (i = 0; i < res->n; i++) {
		e = &res->e[i];
		printf("  %-16s %-12s %8.3g", e->name, e->kind == SCORE_ENTRY ?
		    "entry" : e->kind == SCORE_CONFEDERATE ? "confederate" :
		    "?", e->score);
		if (!isnan(e->tiebreak) && cmd_score_what(res->rule, 1)[0])
			printf("  %s %.3g", cmd_score_what(res->rule, 1),
			    e->tiebreak);
		printf("  (%zu ballot%s)%s\n", e->nballot, e->nballot == 1 ?
		    "" : "s", e->partial ? " (partial)" : "");
	}
	for (i = 0; i < res->ntrial; i++) {
		t = &res->trial[i];
		printf("  trial %d: %s fooled %d of %d judges (%s); median "
		    "rank %g, at or above %d of %d foils (", t->round,
		    t->computer, t->fooled, t->judges, t->determination ?
		    "passes the Human Determination Test" : "fails the Human "
		    "Determination Test", t->computer_median, t->beaten,
		    t->nfoil);
		for (k = 0; k < (size_t)t->nfoil; k++)
			printf("%s%s %g", k > 0 ? ", " : "", t->foil[k],
			    t->foil_median[k]);
		printf("): %s the Rank Order Test; %s%s\n", t->rank_order ?
		    "passes" : "fails", t->passed ? "PASSED the Turing test" :
		    "not passed", partial);
	}
	if (res->winner[0] != '\0')
		printf("winner: %s, %s medal%s\n", res->winner, res->medal,
		    partial);
	else if (res->rule != SCORE_LONGNOW)
		printf("winner: none%s\n", partial);
	printf("decided by: %s%s\n", res->decided, partial);
}

/* One entity's chart: a bar for each judge's value, on the rule's scale. */
static void
cmd_score_svg(FILE *f, const struct score_result *res,
    const struct score_entity *e)
{
	double	max = cmd_score_max(res->rule), w, h, y;
	size_t	k;

	fprintf(f, "<svg class=\"chart\" data-entity=\"%s\" width=\"%d\" "
	    "height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n", e->name,
	    SVG_W, SVG_H + SVG_PAD);
	fprintf(f, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#888\"/>\n", SVG_H, SVG_W, SVG_H);
	if (res->rule == SCORE_2004) {
		y = SVG_H - SVG_H * 51 / max;
		fprintf(f, "<line class=\"threshold\" x1=\"0\" y1=\"%.1f\" "
		    "x2=\"%d\" y2=\"%.1f\" stroke=\"#c00\" "
		    "stroke-dasharray=\"4\"/><text x=\"2\" y=\"%.1f\">51"
		    "</text>\n", y, SVG_W, y, y - 2);
	}
	w = e->nvalue > 0 ? (double)SVG_W / (double)e->nvalue : SVG_W;
	for (k = 0; k < e->nvalue; k++) {
		h = SVG_H * e->value[k].v / max;
		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %g"
		    "</title></rect>\n", k * w + 2, SVG_H - h, w - 4, h,
		    e->kind == SCORE_ENTRY ? "#36c" : "#2a2",
		    e->value[k].judge, e->value[k].v);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s %g</text>\n",
		    k * w + 2, SVG_H + 14, e->value[k].judge, e->value[k].v);
	}
	fprintf(f, "</svg>\n");
}

/*
 * The HTML report: the result, and a chart per entity; marked partial
 * when errors is not 0, the result withheld when res is NULL.  -1
 * (warned).
 */
static int
cmd_score_html(const struct score_result *res, const char *file,
    const char *out, size_t errors)
{
	const struct score_entity	*e;
	const struct score_trial	*t;
	FILE				*f;
	size_t				 i;

	if ((f = fopen(out, "w")) == NULL) {
		warn("%s", out);
		return (-1);
	}
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>%s scoring</title>\n<style>body { font: 14px sans-serif; "
	    "} td, th { padding: 2px 8px; text-align: left; } "
	    ".winner { font-weight: bold; } .partial { color: #a00; } "
	    "svg text { font: 10px sans-serif; }</style></head><body>\n",
	    score_rule_name(res->rule));
	fprintf(f, "<h1>%s scoring</h1>\n<p>Ballots: %s</p>\n",
	    score_rule_name(res->rule), file);
	if (errors > 0)
		fprintf(f, "<p class=\"partial\" id=\"partial\">Partial: %zu "
		    "error%s in the ballots (told on standard error); every "
		    "line marked partial depends on them.</p>\n", errors,
		    errors == 1 ? "" : "s");
	fprintf(f, "<p id=\"winner\">Winner: %s%s%s%s%s</p>\n"
	    "<p id=\"decided\">Decided by: %s%s</p>\n",
	    res->winner[0] != '\0' ? res->winner : "none",
	    res->medal[0] != '\0' ? ", " : "", res->medal,
	    res->medal[0] != '\0' ? " medal" : "", errors > 0 ? " (partial)" :
	    "", res->decided, errors > 0 ? " (partial)" : "");
	fprintf(f, "<table><tr><th>entity</th><th>kind</th><th>%s</th>"
	    "<th>%s</th><th>ballots</th><th>each judge's</th></tr>\n",
	    cmd_score_what(res->rule, 0), cmd_score_what(res->rule, 1));
	for (i = 0; i < res->n; i++) {
		e = &res->e[i];
		fprintf(f, "<tr%s><td>%s%s</td><td>%s</td><td>%g</td><td>",
		    strcmp(e->name, res->winner) == 0 ? " class=\"winner\"" :
		    e->partial ? " class=\"partial\"" : "", e->name,
		    e->partial ? " (partial)" : "", e->kind == SCORE_ENTRY ?
		    "entry" : "confederate", e->score);
		if (!isnan(e->tiebreak))
			fprintf(f, "%.3g", e->tiebreak);
		fprintf(f, "</td><td>%zu</td><td>\n", e->nballot);
		cmd_score_svg(f, res, e);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
	for (i = 0; i < res->ntrial; i++) {
		t = &res->trial[i];
		fprintf(f, "<p class=\"trial\">Trial %d: %s fooled %d of %d "
		    "judges; median rank %g at or above %d of %d foils: "
		    "%s%s</p>\n",
		    t->round, t->computer, t->fooled, t->judges,
		    t->computer_median, t->beaten, t->nfoil, t->passed ?
		    "passed" : "not passed", errors > 0 ? " (partial)" : "");
	}
	fprintf(f, "</body></html>\n");
	if (fclose(f) == EOF) {
		warn("%s", out);
		return (-1);
	}
	return (0);
}

/*
 * The schedule of a room's configuration into the ballots' pairs (those
 * of the ballots file dropped): each judge, as muxd writes it in its
 * ballots ("07"), with the pair or the one it met in each round.  -1
 * (warned) when the configuration does not load.
 */
static int
cmd_score_conf(const char *path, struct score_ballots *bs)
{
	const struct conf_round		*r;
	const struct conf_part		*p;
	const struct conf_entity	*e, *c;
	struct conf			*cf;
	char				 err[1024], judge[16];
	size_t				 i, k;

	if ((cf = conf_load(path, err, sizeof(err))) == NULL) {
		warnx("%s", err);
		return (-1);
	}
	bs->npair = 0;
	bs->scheduled = 1;
	snprintf(bs->schedule, sizeof(bs->schedule), "the schedule of %s",
	    path);
	for (i = 0; i < cf->nrounds; i++) {
		r = &cf->rounds[i];
		for (k = 0; k < r->nparts; k++) {
			p = &r->parts[k];
			snprintf(judge, sizeof(judge), "%02d",
			    cf->stations[p->station].judge);
			e = p->entry >= 0 ? &cf->entities[p->entry] : NULL;
			c = p->confederate >= 0 ?
			    &cf->entities[p->confederate] : NULL;
			if (e == NULL && c == NULL)
				continue;
			if (e == NULL) {
				e = c;
				c = NULL;
			}
			if (score_pair_add(bs, r->number, judge, e->name,
			    c != NULL ? c->name : "", e->kind == CONF_ENTRY ?
			    SCORE_ENTRY : SCORE_CONFEDERATE, SCORE_CONFEDERATE,
			    0) == -1) {
				warnx("out of memory");
				conf_free(cf);
				return (-1);
			}
		}
	}
	conf_free(cf);
	return (0);
}

/* Score a ballots file. */
static int
cmd_score_exec(int argc, char **argv)
{
	struct score_ballots	 bs;
	struct score_result	 res;
	struct cap_error	 e;
	enum score_rule		 rule;
	const char		*html = NULL, *conf = NULL;
	json_t			*o;
	size_t			 i, errors;
	int			 ch, json = 0, partial = 0, rset = 0,
				 status = 0;

	while ((ch = getopt(argc, argv, "c:H:jpr:")) != -1) {
		switch (ch) {
		case 'c':
			conf = optarg;
			break;
		case 'H':
			html = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'p':
			partial = 1;
			break;
		case 'r':
			if (score_rule_parse(optarg, &rule) == -1) {
				warnx("rule \"%s\": not 2004, 2009, 2003 or "
				    "longnow", optarg);
				cmd_usage(&cmd_score_entry);
			}
			rset = 1;
			break;
		default:
			cmd_bad_option(&cmd_score_entry, "c:H:jpr:", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || !rset)
		cmd_usage(&cmd_score_entry);
	score_ballots_init(&bs);
	if (score_ballots_read(argv[0], &bs, &e) != CAP_OK)
		status = 1;
	for (i = 0; i < bs.findings.n; i++)
		fprintf(stderr, "transcripts: %s:%lu: %s\n", argv[0],
		    bs.findings.item[i].line, bs.findings.item[i].msg);
	if (bs.n == 0) {
		warnx("%s: no ballot", argv[0]);
		score_ballots_free(&bs);
		return (1);
	}
	if (conf != NULL && cmd_score_conf(conf, &bs) == -1) {
		score_ballots_free(&bs);
		return (1);
	}
	if (conf == NULL && bs.scheduled)
		snprintf(bs.schedule, sizeof(bs.schedule), "the pairs of %s",
		    argv[0]);
	score_run(rule, &bs, &res);
	for (i = 0; i < res.findings.n; i++) {
		if (res.findings.item[i].line > 0)
			fprintf(stderr, "transcripts: %s:%lu: %s\n", argv[0],
			    res.findings.item[i].line,
			    res.findings.item[i].msg);
		else
			fprintf(stderr, "transcripts: %s: %s\n", argv[0],
			    res.findings.item[i].msg);
	}
	errors = bs.findings.n + res.findings.n;
	if (errors > 0 && status == 0)
		status = CMD_SCORE_ERRORS;
	if (!bs.scheduled)
		fprintf(stderr, "transcripts: %s: no schedule (-c muxd.conf, "
		    "or pair lines): only the pairs the ballots name are "
		    "checked for a missing ballot\n", argv[0]);
	if (errors > 0 && !partial) {
		fprintf(stderr, "transcripts: %s: no result: %zu error%s in "
		    "the ballots (-p gives a partial result)\n", argv[0],
		    errors, errors == 1 ? "" : "s");
		if (json) {
			o = json_pack("{sssssbsIsn}", "rule",
			    score_rule_name(rule), "ballots", argv[0],
			    "partial", 0, "errors", (json_int_t)errors,
			    "winner");
			if (json_dumpf(o, stdout, JSON_INDENT(1) |
			    JSON_PRESERVE_ORDER) == -1)
				status = 1;
			printf("\n");
			json_decref(o);
		} else
			printf("%s scoring of %s: no result, %zu error%s in "
			    "the ballots\n", score_rule_name(rule), argv[0],
			    errors, errors == 1 ? "" : "s");
		score_result_free(&res);
		score_ballots_free(&bs);
		return (status);
	}
	if (json) {
		o = cmd_score_json(&res, argv[0], errors);
		if (json_dumpf(o, stdout, JSON_INDENT(1) |
		    JSON_PRESERVE_ORDER) == -1)
			status = 1;
		printf("\n");
		json_decref(o);
	} else
		cmd_score_text(&res, argv[0], errors);
	if (html != NULL && cmd_score_html(&res, argv[0], html, errors) == -1)
		status = 1;
	score_result_free(&res);
	score_ballots_free(&bs);
	return (status);
}
