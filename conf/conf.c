/*
 * The room configuration: loading, the checked readers of settings, the
 * directories and limits, and the lookups.
 *
 * The file is read with libconfig and checked completely before anything
 * uses it.  Errors are reported, never logged: the first one found is
 * written to the caller's buffer as "FILE:LINE: what is wrong" and the
 * parser returns NULL.  Sections are checked in a fixed order (directories
 * and limits, ports, stations, entities, schedule), since each refers to
 * the ones before it.  conf-room.c reads the ports, stations and entities;
 * conf-schedule.c reads the schedule.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "conf-parse.h"
#include "capture.h"

#define CONF_QUEUE_MIN		256
#define CONF_QUEUE_MAX		16777216
#define CONF_SYNC_MAX		60
#define CONF_CAPTURE_MIN	65536
#define CONF_CAPTURE_MAX	(1LL << 40)
#define CONF_CONTROL_CLIENTS_MAX 65536

static const char *conf_top_keys[] = { "control", "state", "captures",
    "transcripts", "queue_limit", "capture_limit", "sync", "entry_user",
    "control_clients", "control_clients_per_user", "control_idle",
    "room_key", "witness_key", "sandbox", "entry_cgroups", "entry_uids",
    "entry_limits", "entry_log_limit", "ports",
    "stations", "entities",
    "schedule", "rules", "charset", NULL };

static int	 conf_member(struct conf_ctx *, const config_setting_t *,
		    const char *, const char *, int, const config_setting_t **);
static char	*conf_path(struct conf_ctx *, const char *);
static int	 conf_dirs(struct conf_ctx *, const config_setting_t *);
static int	 conf_limits(struct conf_ctx *, const config_setting_t *);
static int	 conf_entry_user(struct conf_ctx *, const config_setting_t *);
static int	 conf_bounded(struct conf_ctx *, const config_setting_t *,
		    const char *, long long, long long, const char *,
		    long long *);
static struct conf *conf_parse(config_t *, const char *, const char *,
		    const struct conf_syntax *, struct conf_msgs *, char *,
		    size_t);
static struct conf *conf_read(const char *, const char *, const char *,
		    struct conf_msgs *, char *, size_t);
static const char *conf_where(struct conf_ctx *, const config_setting_t *,
		    int *, char *, size_t);
static void	 conf_msgs_sort(struct conf_msgs *, size_t);
static char	*conf_basedir(const char *, int);

/*
 * Add a message of a check to a list: "FILE:LINE: text", "warning: "
 * before the text of a warning.  0, or -1 when out of memory (the list
 * then says a message was lost).
 */
int
conf_msgs_add(struct conf_msgs *msgs, enum conf_level level,
    const char *file, int line, const char *fmt, ...)
{
	struct conf_msg	*m;
	char		*what;
	va_list		 ap;
	size_t		 cap;
	int		 r;

	if (msgs->n == msgs->cap) {
		cap = msgs->cap == 0 ? 16 : msgs->cap * 2;
		if ((m = reallocarray(msgs->v, cap, sizeof(*m))) == NULL) {
			msgs->nomem = 1;
			return (-1);
		}
		msgs->v = m;
		msgs->cap = cap;
	}
	va_start(ap, fmt);
	r = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (r == -1) {
		msgs->nomem = 1;
		return (-1);
	}
	m = &msgs->v[msgs->n];
	memset(m, 0, sizeof(*m));
	m->level = level;
	m->line = line;
	if ((m->file = strdup(file)) == NULL || asprintf(&m->text,
	    "%s:%d: %s%s", file, line, level == CONF_WARNING ? "warning: " :
	    "", what) == -1) {
		free(m->file);
		free(what);
		msgs->nomem = 1;
		return (-1);
	}
	free(what);
	msgs->n++;
	if (level == CONF_ERROR)
		msgs->errors++;
	else
		msgs->warnings++;
	return (0);
}

/*
 * Put the messages from first on in the order of the text, for reading:
 * by file (in the order they first appear), then line; stable.
 */
static void
conf_msgs_sort(struct conf_msgs *msgs, size_t first)
{
	struct conf_msg	 m;
	size_t		 i, j, a, b;

	for (i = first + 1; i < msgs->n; i++) {
		m = msgs->v[i];
		for (a = first; strcmp(msgs->v[a].file, m.file) != 0; a++)
			;
		for (j = i; j > first; j--) {
			for (b = first; strcmp(msgs->v[b].file,
			    msgs->v[j - 1].file) != 0; b++)
				;
			if (b < a || (b == a && msgs->v[j - 1].line <= m.line))
				break;
			msgs->v[j] = msgs->v[j - 1];
		}
		msgs->v[j] = m;
	}
}

/* Free the messages of a check (the list itself is the caller's). */
void
conf_msgs_free(struct conf_msgs *msgs)
{
	size_t	i;

	for (i = 0; i < msgs->n; i++) {
		free(msgs->v[i].file);
		free(msgs->v[i].text);
	}
	free(msgs->v);
	memset(msgs, 0, sizeof(*msgs));
}

/* Name the file and line of a setting, as messages give them. */
static const char *
conf_where(struct conf_ctx *ctx, const config_setting_t *s, int *line,
    char *buf, size_t len)
{
	const char	*file = NULL;

	*line = 0;
	if (s != NULL) {
		file = config_setting_source_file(s);
		*line = (int)config_setting_source_line(s);
	}
	if (*line == 0)
		*line = 1;
	return (conf_include_where(ctx->name, file, buf, len));
}

/*
 * Record an error as "FILE:LINE: message": the first in the caller's
 * buffer, every one in the list if there is one; always returns -1.
 */
int
conf_error(struct conf_ctx *ctx, const config_setting_t *s, const char *fmt,
    ...)
{
	const char	*file;
	char		 msg[LINE_ERRLEN], where[PATH_MAX];
	int		 line;
	va_list		 ap;

	file = conf_where(ctx, s, &line, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ctx->failed && ctx->errlen > 0)
		snprintf(ctx->err, ctx->errlen, "%s:%d: %s", file, line, msg);
	ctx->failed = 1;
	if (ctx->msgs != NULL)
		conf_msgs_add(ctx->msgs, CONF_ERROR, file, line, "%s", msg);
	return (-1);
}

/* Record a warning: a room that loads but may not work as meant. */
void
conf_warn(struct conf_ctx *ctx, const config_setting_t *s, const char *fmt,
    ...)
{
	const char	*file;
	char		 msg[LINE_ERRLEN], where[PATH_MAX];
	int		 line;
	va_list		 ap;

	if (ctx->msgs == NULL)
		return;
	file = conf_where(ctx, s, &line, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	conf_msgs_add(ctx->msgs, CONF_WARNING, file, line, "%s", msg);
}

/*
 * Fail without a message: what is wrong follows from an error already
 * reported (a part read with errors, a setting a syntax error hid).
 */
int
conf_echo(struct conf_ctx *ctx)
{
	ctx->failed = 1;
	return (-1);
}

/* Keep the name of a part read with errors: kind "port" or "place". */
void
conf_broken(struct conf_ctx *ctx, const char *kind, const char *name)
{
	char	**v, *s;

	if (name == NULL || asprintf(&s, "%s %s", kind, name) == -1)
		return;
	if ((v = reallocarray(ctx->broken, ctx->nbroken + 1,
	    sizeof(*v))) == NULL) {
		free(s);
		return;
	}
	ctx->broken = v;
	ctx->broken[ctx->nbroken++] = s;
}

/* Tell whether a part of that kind and name was read with errors. */
int
conf_is_broken(const struct conf_ctx *ctx, const char *kind,
    const char *name)
{
	size_t	i, n;

	n = strlen(kind);
	for (i = 0; i < ctx->nbroken; i++)
		if (strncmp(ctx->broken[i], kind, n) == 0 &&
		    ctx->broken[i][n] == ' ' &&
		    strcmp(ctx->broken[i] + n + 1, name) == 0)
			return (1);
	return (0);
}

/* Tell whether a top-level setting may have been lost to a syntax error. */
int
conf_skipped(const struct conf_ctx *ctx, const char *key)
{
	size_t	i;

	for (i = 0; i < ctx->nskipped; i++)
		if (strcmp(ctx->skipped[i], key) == 0 ||
		    strcmp(ctx->skipped[i], "*") == 0)
			return (1);
	return (0);
}

/* Record an allocation failure. */
int
conf_nomem(struct conf_ctx *ctx, const config_setting_t *s)
{
	return (conf_error(ctx, s, "out of memory"));
}

/* Reject the settings of a group that are not in the list of known keys. */
int
conf_keys(struct conf_ctx *ctx, const config_setting_t *group,
    const char **known, const char *where)
{
	const config_setting_t	*s;
	const char		*name;
	int			 i, n, k, r = 0;

	n = config_setting_length(group);
	for (i = 0; i < n; i++) {
		s = config_setting_get_elem(group, i);
		if ((name = config_setting_name(s)) == NULL)
			continue;
		for (k = 0; known[k] != NULL; k++)
			if (strcmp(known[k], name) == 0)
				break;
		if (known[k] == NULL)
			r = conf_error(ctx, s, "unknown setting '%s' %s",
			    name, where);
	}
	return (r);
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
int
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
int
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

/* Read the directories and the control socket path. */
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
		{ "room_key", offsetof(struct conf, room_key) },
		{ "witness_key", offsetof(struct conf, witness_key) },
	};
	struct conf		*conf = ctx->conf;
	const config_setting_t	*s = NULL;
	const char		*v = NULL;
	struct sign_pub		 wpub;
	struct cap_error	 e;
	char			**dst;
	size_t			 i;
	int			 r, rc = 0;

	/* A path in error is left to its default, and the rest read. */
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		dst = (char **)((char *)conf + paths[i].off);
		r = conf_string(ctx, root, paths[i].key, "at top level", 0,
		    &v, &s);
		if (r == 1 && *v == '\0')
			r = conf_error(ctx, s, "setting '%s' is empty",
			    paths[i].key);
		else if (r == 1 && (*dst = conf_path(ctx, v)) == NULL)
			return (conf_nomem(ctx, s));
		if (r == -1)
			rc = -1;
	}
	if (conf->control == NULL &&
	    (conf->control = strdup(PROTOCOL_CONTROL_PATH)) == NULL)
		return (conf_nomem(ctx, root));
	if (conf->state_dir == NULL &&
	    (conf->state_dir = strdup(CONF_STATE_DIR)) == NULL)
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
	if (conf->room_key == NULL && asprintf(&conf->room_key,
	    "%s/room.key", conf->state_dir) == -1) {
		conf->room_key = NULL;
		return (conf_nomem(ctx, root));
	}
	/* A witness's key is checked now: it is read when a referee signs. */
	if (conf->witness_key != NULL && sign_load_public(conf->witness_key,
	    &wpub, &e) != CAP_OK)
		rc = conf_error(ctx, config_setting_get_member(root,
		    "witness_key"), "witness_key %s: %s", conf->witness_key,
		    e.msg);
	return (rc);
}

/*
 * Read the user exec: entries run as: a user name, never root (whether
 * it exists is for the machine muxd runs on, when a program starts).
 */
static int
conf_entry_user(struct conf_ctx *ctx, const config_setting_t *root)
{
	const config_setting_t	*s = NULL;
	const char		*v = NULL;
	size_t			 i;
	int			 r;

	if ((r = conf_string(ctx, root, "entry_user", "at top level", 0, &v,
	    &s)) != 1)
		return (r);
	for (i = 0; v[i] != '\0'; i++)
		if (!isalnum((unsigned char)v[i]) && v[i] != '_' &&
		    (i == 0 || (v[i] != '-' && v[i] != '.')))
			break;
	if (i == 0 || v[i] != '\0' || i > 32)
		return (conf_error(ctx, s, "entry_user '%s' is not a user "
		    "name", v));
	if (strcmp(v, "root") == 0)
		return (conf_error(ctx, s, "entry_user 'root': entries never "
		    "run as root"));
	if ((ctx->conf->entry_user = strdup(v)) == NULL)
		return (conf_nomem(ctx, s));
	return (0);
}

/* Read the queue limit and the sync interval, or take their defaults. */
static int
conf_limits(struct conf_ctx *ctx, const config_setting_t *root)
{
	struct conf	*conf = ctx->conf;
	long long	 n;
	int		 r;

	/* Each is checked; one in error keeps its default. */
	n = PORT_QUEUE_LIMIT;
	r = conf_bounded(ctx, root, "queue_limit", CONF_QUEUE_MIN,
	    CONF_QUEUE_MAX, "bytes", &n);
	conf->queue_limit = (size_t)n;
	n = CONF_CAPTURE_LIMIT;
	r |= conf_bounded(ctx, root, "capture_limit", CONF_CAPTURE_MIN,
	    CONF_CAPTURE_MAX, "bytes", &n);
	conf->capture_limit = (uint64_t)n;
	n = CONF_SYNC_SEC;
	r |= conf_bounded(ctx, root, "sync", 1, CONF_SYNC_MAX, "seconds", &n);
	conf->sync_sec = (int)n;
	n = CONF_CONTROL_CLIENTS;
	r |= conf_bounded(ctx, root, "control_clients", 1,
	    CONF_CONTROL_CLIENTS_MAX, "clients", &n);
	conf->control_clients = (int)n;
	n = CONF_CONTROL_PER_USER;
	r |= conf_bounded(ctx, root, "control_clients_per_user", 1,
	    CONF_CONTROL_CLIENTS_MAX, "clients", &n);
	conf->control_per_user = (int)n;
	n = CONF_CONTROL_IDLE;
	r |= conf_bounded(ctx, root, "control_idle", 0, 86400, "seconds", &n);
	conf->control_idle = (int)n;
	return (r != 0 ? -1 : 0);
}

/*
 * Read an integer setting of the top level into *n, which is left alone
 * when the setting is absent; it must be from min to max (unit).
 */
static int
conf_bounded(struct conf_ctx *ctx, const config_setting_t *root,
    const char *name, long long min, long long max, const char *unit,
    long long *n)
{
	const config_setting_t	*s = NULL;
	long long		 v = 0;
	int			 r;

	if ((r = conf_int(ctx, root, name, "at top level", 0, &v, &s)) != 1)
		return (r);
	if (v < min || v > max)
		return (conf_error(ctx, s, "setting '%s' must be between %lld "
		    "and %lld %s", name, min, max, unit));
	*n = v;
	return (0);
}

/*
 * Check a parsed libconfig tree and build the configuration from it.
 * Each part is checked even when one before has failed, so that every
 * error is reported; syn names what syntax errors left unread (they are
 * reported already: the check fails).
 */
static struct conf *
conf_parse(config_t *cf, const char *name, const char *basedir,
    const struct conf_syntax *syn, struct conf_msgs *msgs, char *err,
    size_t errlen)
{
	int			 r;
	size_t			 i;
	struct conf_ctx		 ctx;
	const config_setting_t	*root;

	memset(&ctx, 0, sizeof(ctx));
	ctx.name = name;
	ctx.basedir = basedir;
	ctx.err = err;
	ctx.errlen = errlen;
	ctx.msgs = msgs;
	ctx.failed = syn->tries > 0;
	ctx.skipped = syn->skipped;
	ctx.nskipped = syn->nskipped;
	root = config_root_setting(cf);
	if ((ctx.conf = calloc(1, sizeof(*ctx.conf))) == NULL ||
	    (ctx.conf->file = strdup(name)) == NULL) {
		conf_nomem(&ctx, NULL);
		goto fail;
	}
	r = conf_keys(&ctx, root, conf_top_keys, "at top level");
	r |= conf_dirs(&ctx, root);
	r |= conf_limits(&ctx, root);
	r |= conf_entry_user(&ctx, root);
	r |= conf_sandbox_read(&ctx, root);
	r |= conf_rules_read(&ctx, root);
	r |= conf_room_read(&ctx, root);
	r |= conf_schedule_read(&ctx, root);
	conf_listen_check(&ctx, root);
	if (r != 0 || ctx.failed)
		goto fail;
	free(ctx.uses);
	for (i = 0; i < ctx.nbroken; i++)
		free(ctx.broken[i]);
	free(ctx.broken);
	return (ctx.conf);

fail:
	free(ctx.uses);
	for (i = 0; i < ctx.nbroken; i++)
		free(ctx.broken[i]);
	free(ctx.broken);
	if (msgs != NULL && msgs->keep && msgs->room == NULL)
		msgs->room = ctx.conf;
	else
		conf_free(ctx.conf);
	return (NULL);
}

/*
 * Check a configuration's text, its includes first (conf-include.c), then
 * read it with libconfig and check the settings.  With a list of
 * messages, a syntax error is reported and the statement it is in left
 * out (conf-syntax.c), and the rest read and checked.
 */
static struct conf *
conf_read(const char *name, const char *basedir, const char *text,
    struct conf_msgs *msgs, char *err, size_t errlen)
{
	struct conf_syntax	 syn;
	config_t		 cf;
	struct conf		*conf;
	const char		*file, *etext;
	char			 where[PATH_MAX], note[128], lost[256];
	int			 line, r, nerr = 0;
	size_t			 first;

	if (conf_include_check(name, basedir, text, err, errlen) == -1)
		return (NULL);
	first = msgs != NULL ? msgs->n : 0;
	memset(&syn, 0, sizeof(syn));
	if ((syn.text = strdup(text)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return (NULL);
	}
	for (;;) {
		config_init(&cf);
		if (basedir != NULL)
			config_set_include_dir(&cf, basedir);
		if (config_read_string(&cf, syn.text))
			break;
		file = conf_include_where(name, config_error_file(&cf),
		    where, sizeof(where));
		line = config_error_line(&cf) > 0 ? config_error_line(&cf) : 1;
		etext = config_error_text(&cf) != NULL ?
		    config_error_text(&cf) : "cannot parse";
		r = conf_syntax_recover(&syn, name, basedir,
		    config_error_file(&cf), line, note, sizeof(note), lost,
		    sizeof(lost));
		if (nerr++ == 0 && errlen > 0)
			snprintf(err, errlen, "%s:%d: %s%s", file, line, etext,
			    note);
		if (msgs != NULL)
			conf_msgs_add(msgs, CONF_ERROR, file, line, "%s%s%s%s",
			    etext, note, r == 0 ? "; not read: " : "",
			    r == 0 ? lost : "");
		config_destroy(&cf);
		if (msgs == NULL || r == -1) {
			conf_syntax_clear(&syn);
			return (NULL);
		}
	}
	conf = conf_parse(&cf, name, basedir, &syn, msgs, err, errlen);
	config_destroy(&cf);
	conf_syntax_clear(&syn);
	if (msgs != NULL)
		conf_msgs_sort(msgs, first);
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
	return (conf_check(file, NULL, err, errlen));
}

/*
 * Load and check a configuration file as conf_load(), adding to msgs
 * (when not NULL) every error found, not the first alone, and every
 * warning.  When it fails with no error in msgs, err says why.
 */
struct conf *
conf_check(const char *file, struct conf_msgs *msgs, char *err,
    size_t errlen)
{
	struct conf	*conf;
	struct stat	 sb;
	FILE		*f;
	char		*dir, *text;

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
	text = conf_include_text(f, file, err, errlen);
	fclose(f);
	conf = text != NULL ? conf_read(file, dir, text, msgs, err, errlen) :
	    NULL;
	free(text);
	free(dir);
	return (conf);
}

/* Check a configuration held in a string; name stands for the file. */
struct conf *
conf_load_string(const char *name, const char *text, char *err,
    size_t errlen)
{
	return (conf_check_string(name, text, NULL, err, errlen));
}

/* Check a configuration held in a string as conf_check() does a file. */
struct conf *
conf_check_string(const char *name, const char *text, struct conf_msgs *msgs,
    char *err, size_t errlen)
{
	struct conf	*conf;
	char		*dir;

	if (text == NULL) {
		snprintf(err, errlen, "%s: no configuration text", name);
		return (NULL);
	}
	/* Without a directory in name, relative paths stay relative. */
	dir = conf_basedir(name, 0);
	conf = conf_read(name, dir, text, msgs, err, errlen);
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
	conf_room_free(conf);
	for (i = 0; i < conf->nrounds; i++) {
		free(conf->rounds[i].parts);
		free(conf->rounds[i].excused);
	}
	free(conf->rounds);
	free(conf->preset);
	free(conf->pattern);
	free(conf->typing);
	free(conf->file);
	free(conf->control);
	free(conf->state_dir);
	free(conf->capture_dir);
	free(conf->transcript_dir);
	free(conf->room_key);
	free(conf->witness_key);
	free(conf->entry_user);
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

/* Find a station by name (NULL finds none); NULL when there is none. */
const struct conf_station *
conf_station_named(const struct conf *conf, const char *name)
{
	int	i;

	if (conf == NULL || name == NULL ||
	    (i = conf_station_find(conf, name)) == -1)
		return (NULL);
	return (&conf->stations[i]);
}

/* Find an entity by name (NULL finds none); NULL when there is none. */
const struct conf_entity *
conf_entity_named(const struct conf *conf, const char *name)
{
	int	i;

	if (conf == NULL || name == NULL ||
	    (i = conf_entity_find(conf, name)) == -1)
		return (NULL);
	return (&conf->entities[i]);
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
