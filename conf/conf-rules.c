/*
 * The contest-rule settings of the configuration: the room's "rules"
 * group and "charset", a station's "localecho" and "charset" (its
 * terminals'), and an entity's "eol",
 * "announce", "fresh" and "charset".
 *
 *	rules = {
 *		convention = true;	# 1996 prompt and echo on judge terminals
 *		filter = "on";		# or "passthrough"
 *		assertion = "check";	# or "inject", "hold", "off"
 *		typing = "150+-75";	# inject: ms per key, as comprog's
 *		pattern = "...";	# pcre2, a group named "name"
 *		burst = 8;		# characters within 1 ms that are a burst
 *		ballot = "2004";	# the judges' ballot at their terminal
 *	};				# when a round ends, or "none"
 *	charset = "utf-8";		# or "iso-8859-1"; an entity's own wins
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "conf-parse.h"
#include "score.h"	/* enum score_rule */

#define CONF_RULES_BURST_MIN	2
#define CONF_RULES_BURST_MAX	4096
/*
 * The injected assertion's typing: 150 ms a key, give or take 75, and
 * longer after punctuation, about the 0.168 s a key of the humans of 2012.
 */
#define CONF_RULES_TYPING	"150+-75"

static const char *conf_rules_keys[] = { "convention", "filter", "assertion",
    "pattern", "burst", "typing", "ballot", NULL };

static int	conf_rules_bool(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, int *);
static int	conf_rules_charset(struct conf_ctx *, const config_setting_t *,
		    const char *, int *);
static int	conf_rules_echo(struct conf_ctx *, const config_setting_t *,
		    const char *, int *);

/* Read an optional boolean setting; 1 when present, 0 absent, -1 error. */
static int
conf_rules_bool(struct conf_ctx *ctx, const config_setting_t *group,
    const char *key, const char *what, int *out)
{
	const config_setting_t	*s;

	if ((s = config_setting_get_member(group, key)) == NULL)
		return (0);
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return (conf_error(ctx, s, "setting '%s' %s must be true or "
		    "false", key, what));
	*out = config_setting_get_bool(s);
	return (1);
}

/*
 * Read a station's optional "localecho": true or "crlf" (its terminals
 * echo the keys, Enter as CR LF), "cr" (Enter as CR alone) or false,
 * into an enum view_echo; -1 with file and line when it is none of these.
 */
static int
conf_rules_echo(struct conf_ctx *ctx, const config_setting_t *g,
    const char *what, int *out)
{
	const config_setting_t	*s;
	const char		*v;

	if ((s = config_setting_get_member(g, "localecho")) == NULL)
		return (0);
	if (config_setting_type(s) == CONFIG_TYPE_BOOL) {
		*out = config_setting_get_bool(s) ? VIEW_ECHO_CRLF :
		    VIEW_ECHO_NONE;
		return (1);
	}
	v = config_setting_get_string(s);
	if (v != NULL && strcmp(v, "crlf") == 0)
		*out = VIEW_ECHO_CRLF;
	else if (v != NULL && strcmp(v, "cr") == 0)
		*out = VIEW_ECHO_CR;
	else
		return (conf_error(ctx, s, "setting 'localecho' %s must be "
		    "true, false, \"crlf\" or \"cr\"", what));
	return (1);
}

/*
 * Read an optional "charset" setting, "iso-8859-1" or "utf-8", into an
 * enum cap_encoding; -1 with file and line when it is neither.
 */
static int
conf_rules_charset(struct conf_ctx *ctx, const config_setting_t *g,
    const char *what, int *out)
{
	const config_setting_t	*s = NULL;
	enum cap_encoding	 enc;
	const char		*v;
	int			 r;

	if ((r = conf_string(ctx, g, "charset", what, 0, &v, &s)) != 1)
		return (r);
	if (cap_encoding_parse(v, &enc) == -1)
		return (conf_error(ctx, s, "charset '%s' %s is neither "
		    "\"iso-8859-1\" nor \"utf-8\"", v, what));
	*out = (int)enc;
	return (0);
}

/* Read the room's rules group and charset, setting the defaults first. */
int
conf_rules_read(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf			*conf = ctx->conf;
	const config_setting_t		*g, *s = NULL;
	struct assertion_pattern	*ap;
	const char			*v;
	char				 msg[LINE_ERRLEN / 2];
	struct typing			 t;
	enum score_rule			 rule;
	long long			 n;
	int				 r, rc;

	conf->convention = 1;
	conf->filter = 1;
	conf->assertion = CONF_ASSERT_CHECK;
	conf->burst = 8;
	conf->ballot = -1;
	conf->charset = CAP_UTF8;
	if ((conf->typing = strdup(CONF_RULES_TYPING)) == NULL)
		return (conf_nomem(ctx, root));
	/* Each setting is checked; one in error keeps its default. */
	rc = conf_rules_charset(ctx, root, "at top level", &conf->charset);
	if ((g = config_setting_get_member(root, "rules")) == NULL)
		return (rc);
	if (!config_setting_is_group(g))
		return (conf_error(ctx, g, "setting 'rules' must be a group "
		    "{ ... }"));
	if (conf_keys(ctx, g, conf_rules_keys, "in rules") == -1)
		rc = -1;
	if (conf_rules_bool(ctx, g, "convention", "in rules",
	    &conf->convention) == -1)
		rc = -1;
	if ((r = conf_string(ctx, g, "filter", "in rules", 0, &v, &s)) == -1)
		rc = -1;
	if (r == 1) {
		if (strcmp(v, "on") == 0)
			conf->filter = 1;
		else if (strcmp(v, "passthrough") == 0)
			conf->filter = 0;
		else
			rc = conf_error(ctx, s, "rules: filter '%s' is "
			    "neither \"on\" nor \"passthrough\"", v);
	}
	if ((r = conf_string(ctx, g, "assertion", "in rules", 0, &v,
	    &s)) == -1)
		rc = -1;
	if (r == 1) {
		if (strcmp(v, "check") == 0)
			conf->assertion = CONF_ASSERT_CHECK;
		else if (strcmp(v, "inject") == 0)
			conf->assertion = CONF_ASSERT_INJECT;
		else if (strcmp(v, "hold") == 0)
			conf->assertion = CONF_ASSERT_HOLD;
		else if (strcmp(v, "off") == 0)
			conf->assertion = CONF_ASSERT_OFF;
		else
			rc = conf_error(ctx, s, "rules: assertion '%s' is "
			    "not \"check\", \"inject\", \"hold\" or \"off\"",
			    v);
	}
	if ((r = conf_string(ctx, g, "ballot", "in rules", 0, &v, &s)) == -1)
		rc = -1;
	if (r == 1 && strcmp(v, "none") != 0) {
		if (score_rule_parse(v, &rule) == -1)
			rc = conf_error(ctx, s, "rules: ballot '%s' is not "
			    "\"2004\", \"2009\", \"2003\", \"longnow\" or "
			    "\"none\"", v);
		else
			conf->ballot = (int)rule;
	}
	if ((r = conf_string(ctx, g, "typing", "in rules", 0, &v, &s)) == -1)
		rc = -1;
	if (r == 1) {
		if (typing_parse(v, &t, msg, sizeof(msg)) == -1)
			rc = conf_error(ctx, s, "rules: typing %s", msg);
		else {
			free(conf->typing);
			if ((conf->typing = strdup(v)) == NULL)
				return (conf_nomem(ctx, s));
		}
	}
	if ((r = conf_string(ctx, g, "pattern", "in rules", 0, &v, &s)) == -1)
		rc = -1;
	if (r == 1) {
		if ((ap = assertion_pattern_new(v, 0, msg, sizeof(msg))) ==
		    NULL)
			rc = conf_error(ctx, s, "rules: %s", msg);
		else {
			assertion_pattern_free(ap);
			if ((conf->pattern = strdup(v)) == NULL)
				return (conf_nomem(ctx, s));
		}
	}
	if ((r = conf_int(ctx, g, "burst", "in rules", 0, &n, &s)) == -1)
		rc = -1;
	if (r == 1) {
		if (n < CONF_RULES_BURST_MIN || n > CONF_RULES_BURST_MAX)
			rc = conf_error(ctx, s, "rules: burst must be "
			    "between %d and %d characters",
			    CONF_RULES_BURST_MIN, CONF_RULES_BURST_MAX);
		else
			conf->burst = (int)n;
	}
	return (rc);
}

/*
 * Read a station's rule settings: localecho, and the charset of its
 * terminals (the room's unless set).
 */
int
conf_rules_station(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_station *st)
{
	char	what[64];
	int	r;

	snprintf(what, sizeof(what), "in station '%s'", st->name);
	r = conf_rules_echo(ctx, g, what, &st->localecho);
	st->charset = ctx->conf->charset;
	if (conf_rules_charset(ctx, g, what, &st->charset) == -1)
		r = -1;
	return (r == -1 ? -1 : 0);
}

/*
 * Read an entity's rule settings: eol, announce, fresh and charset (the
 * room's unless set; with utf-8, the assertion pattern must compile for
 * it).
 */
int
conf_rules_entity(struct conf_ctx *ctx, const config_setting_t *g,
    struct conf_entity *e)
{
	const config_setting_t	*s = NULL;
	struct assertion_pattern *ap;
	enum judgeterm_eol	 eol = JUDGETERM_EOL_CR;
	const char		*v;
	char			 what[64], msg[LINE_ERRLEN / 2];
	int			 r;

	snprintf(what, sizeof(what), "in entity '%s'", e->name);
	if ((r = conf_string(ctx, g, "eol", what, 0, &v, &s)) == -1)
		return (-1);
	if (r == 1 && judgeterm_eol_parse(v, &eol) == -1)
		return (conf_error(ctx, s, "entity '%s': eol '%s' is not "
		    "\"cr\", \"lf\", \"crlf\" or \"asis\"", e->name, v));
	e->eol = (int)eol;
	if (conf_rules_bool(ctx, g, "announce", what, &e->announce) == -1 ||
	    conf_rules_bool(ctx, g, "fresh", what, &e->fresh) == -1)
		return (-1);
	e->charset = ctx->conf->charset;
	if (conf_rules_charset(ctx, g, what, &e->charset) == -1)
		return (-1);
	if (e->charset == CAP_UTF8) {
		ctx->conf->utf8 = 1;
		if ((ap = assertion_pattern_new(ctx->conf->pattern,
		    ASSERTION_NOJIT | ASSERTION_UTF8, msg, sizeof(msg))) ==
		    NULL)
			return (conf_error(ctx, (s = config_setting_get_member(g,
			    "charset")) != NULL ? s : g, "entity '%s': %s",
			    e->name, msg));
		assertion_pattern_free(ap);
	}
	if (e->fresh && e->port >= 0 &&
	    ctx->conf->ports[e->port].addr.kind != ADDR_EXEC)
		return (conf_error(ctx, g, "entity '%s': fresh needs an exec: "
		    "port; '%s' is %s", e->name, ctx->conf->ports[e->port].name,
		    ctx->conf->ports[e->port].address));
	return (0);
}
