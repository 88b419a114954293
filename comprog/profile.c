/*
 * Appearance profiles (2004 rule 6c: the communications program mimics
 * the appearance and behaviour of the matching entry).  A profile is a
 * small libconfig file, every setting optional:
 *
 *	prompt = ">";			# shown where the 1996 ">" goes
 *	banner = "Welcome.\nType @@nn and Enter twice.";
 *	width = 80;			# line width, columns
 *	echo = "local";			# or "remote": muxd echoes
 *	eol = "crlf";			# what Enter sends: cr, lf, crlf
 *	charset = "utf-8";		# or "iso-8859-1": how the line reads,
 *					# else the room's (judge), or utf-8
 *	typing = "100+-50";		# entry: ms per key
 *	colours = {
 *		judge = "green";	# [bold] COLOUR [on COLOUR]
 *		entity = "bold white on blue";
 *		prompt = "yellow";
 *		note = "cyan";
 *		status = "default";
 *		alert = "white on red";
 *		reminder = "black on yellow";
 *	};
 *
 * COLOUR is one of the eight curses colours or "default".  Errors name
 * the file and the line.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>
#include <libconfig.h>

#include "comprog.h"

static const char *profile_colour_names[PROFILE_NCOLOURS] = {
	"judge", "entity", "prompt", "note", "status", "alert", "reminder"
};

static int	profile_spec(const char *, struct profile *, int);
static char	*profile_text(const char *, char *, size_t);
static int	profile_fail(const config_setting_t *, const char *,
		    const char *, char *, size_t);

/* Set the defaults of a side. */
void
profile_defaults(struct profile *p, enum comprog_mode mode)
{
	int	i;

	memset(p, 0, sizeof(*p));
	snprintf(p->prompt, sizeof(p->prompt), ">");
	p->width = 80;
	p->charset = CAP_UTF8;
	p->eol = mode == COMPROG_JUDGE ? JUDGETERM_EOL_CR : JUDGETERM_EOL_CRLF;
	snprintf(p->typing, sizeof(p->typing), "10");
	for (i = 0; i < PROFILE_NCOLOURS; i++)
		p->fg[i] = p->bg[i] = -1;
	p->fg[PROFILE_NOTE] = COLOR_CYAN;
	p->bold[PROFILE_PROMPT] = 1;
	p->fg[PROFILE_ALERT] = COLOR_WHITE;
	p->bg[PROFILE_ALERT] = COLOR_RED;
	p->bold[PROFILE_ALERT] = 1;
	p->fg[PROFILE_REMINDER] = COLOR_BLACK;
	p->bg[PROFILE_REMINDER] = COLOR_YELLOW;
}

/* A curses colour by name, -1 for "default", -2 when unknown. */
int
profile_colour(const char *name)
{
	static const char	*names[] = { "black", "red", "green", "yellow",
	    "blue", "magenta", "cyan", "white" };
	int			 i;

	if (strcmp(name, "default") == 0)
		return (-1);
	for (i = 0; i < 8; i++)
		if (strcmp(name, names[i]) == 0)
			return (i);
	return (-2);
}

/* Parse "[bold] COLOUR [on COLOUR]" into colour which; -1 when bad. */
static int
profile_spec(const char *spec, struct profile *p, int which)
{
	char	 buf[128], *w, *save = NULL;
	int	 fg = -1, bg = -1, bold = 0, on = 0, seen = 0, c;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (w = strtok_r(buf, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save)) {
		if (strcmp(w, "bold") == 0 && !seen && !bold) {
			bold = 1;
			continue;
		}
		if (strcmp(w, "on") == 0 && seen == 1 && !on) {
			on = 1;
			continue;
		}
		if ((c = profile_colour(w)) == -2 || seen == 2 ||
		    (seen == 1 && !on))
			return (-1);
		if (seen++ == 0)
			fg = c;
		else
			bg = c;
	}
	if (seen == 0 || (on && seen != 2))
		return (-1);
	p->fg[which] = fg;
	p->bg[which] = bg;
	p->bold[which] = bold;
	return (0);
}

/* Write "FILE:LINE: what" for a setting. */
static int
profile_fail(const config_setting_t *s, const char *file, const char *what,
    char *err, size_t errlen)
{
	snprintf(err, errlen, "%s:%d: %s", file,
	    s != NULL ? config_setting_source_line(s) : 0, what);
	return (-1);
}

/*
 * A profile's text, read whole and its includes checked as muxd checks a
 * configuration's (conf/conf-include.c: libconfig would end comprog on an
 * include of a directory).  NULL with a message in err.
 */
static char *
profile_text(const char *file, char *err, size_t errlen)
{
	struct stat	 sb;
	FILE		*f;
	char		*text;

	if ((f = fopen(file, "r")) == NULL || fstat(fileno(f), &sb) == -1) {
		snprintf(err, errlen, "profile %s: cannot read it: %s", file,
		    strerror(errno));
		if (f != NULL)
			fclose(f);
		return (NULL);
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "profile %s: cannot read it: not a "
		    "file", file);
		fclose(f);
		return (NULL);
	}
	text = conf_include_text(f, file, err, errlen);
	fclose(f);
	if (text != NULL &&
	    conf_include_check(file, NULL, text, err, errlen) == -1) {
		free(text);
		return (NULL);
	}
	return (text);
}

/* Read a profile file over the defaults. */
int
profile_load(const char *file, struct profile *p, char *err, size_t errlen)
{
	static const char	*known[] = { "prompt", "banner", "width", "echo",
	    "eol", "charset", "typing", "colours", NULL };
	config_t		 cfg;
	config_setting_t	*root, *s, *c;
	const char		*v;
	char			 what[256];
	enum judgeterm_eol	 eol;
	char			*text = NULL;
	int			 i, j, k, r = -1;

	config_init(&cfg);
	if ((text = profile_text(file, err, errlen)) == NULL)
		goto done;
	if (config_read_string(&cfg, text) != CONFIG_TRUE) {
		snprintf(err, errlen, "%s:%d: %s", file,
		    config_error_line(&cfg), config_error_text(&cfg));
		goto done;
	}
	root = config_root_setting(&cfg);
	for (i = 0; (s = config_setting_get_elem(root, i)) != NULL; i++) {
		for (j = 0; known[j] != NULL; j++)
			if (strcmp(config_setting_name(s), known[j]) == 0)
				break;
		if (known[j] == NULL) {
			snprintf(what, sizeof(what), "unknown setting '%s' "
			    "(prompt, banner, width, echo, eol, charset, "
			    "typing, colours)", config_setting_name(s));
			profile_fail(s, file, what, err, errlen);
			goto done;
		}
		v = config_setting_get_string(s);
		if (strcmp(known[j], "width") == 0) {
			if (config_setting_type(s) != CONFIG_TYPE_INT ||
			    (k = config_setting_get_int(s)) <
			    PROFILE_WIDTH_MIN || k > PROFILE_WIDTH_MAX) {
				snprintf(what, sizeof(what), "width must be a "
				    "number of columns, %d to %d",
				    PROFILE_WIDTH_MIN, PROFILE_WIDTH_MAX);
				profile_fail(s, file, what, err, errlen);
				goto done;
			}
			p->width = k;
			continue;
		}
		if (strcmp(known[j], "colours") == 0) {
			if (!config_setting_is_group(s)) {
				profile_fail(s, file, "colours must be a group "
				    "{ judge = \"green\"; ... }", err, errlen);
				goto done;
			}
			for (k = 0; (c = config_setting_get_elem(s, k)) !=
			    NULL; k++) {
				for (j = 0; j < PROFILE_NCOLOURS; j++)
					if (strcmp(config_setting_name(c),
					    profile_colour_names[j]) == 0)
						break;
				v = config_setting_get_string(c);
				if (j == PROFILE_NCOLOURS || v == NULL ||
				    profile_spec(v, p, j) == -1) {
					snprintf(what, sizeof(what), "colour "
					    "'%s': want judge, entity, prompt, "
					    "note, status, alert or reminder = "
					    "\"[bold] COLOUR [on COLOUR]\"",
					    config_setting_name(c));
					profile_fail(c, file, what, err,
					    errlen);
					goto done;
				}
			}
			continue;
		}
		if (v == NULL) {
			snprintf(what, sizeof(what), "%s must be a string",
			    known[j]);
			profile_fail(s, file, what, err, errlen);
			goto done;
		}
		if (strcmp(known[j], "prompt") == 0) {
			if (strlen(v) >= sizeof(p->prompt)) {
				profile_fail(s, file, "prompt too long", err,
				    errlen);
				goto done;
			}
			snprintf(p->prompt, sizeof(p->prompt), "%s", v);
		} else if (strcmp(known[j], "banner") == 0)
			snprintf(p->banner, sizeof(p->banner), "%s", v);
		else if (strcmp(known[j], "echo") == 0) {
			if (strcmp(v, "auto") == 0)
				p->echo = PROFILE_ECHO_AUTO;
			else if (strcmp(v, "local") == 0)
				p->echo = PROFILE_ECHO_LOCAL;
			else if (strcmp(v, "remote") == 0)
				p->echo = PROFILE_ECHO_REMOTE;
			else {
				profile_fail(s, file, "echo must be \"auto\", "
				    "\"local\" or \"remote\"", err, errlen);
				goto done;
			}
		} else if (strcmp(known[j], "eol") == 0) {
			if (judgeterm_eol_parse(v, &eol) == -1 ||
			    eol == JUDGETERM_EOL_ASIS) {
				profile_fail(s, file, "eol must be \"cr\", "
				    "\"lf\" or \"crlf\"", err, errlen);
				goto done;
			}
			p->eol = eol;
		} else if (strcmp(known[j], "charset") == 0) {
			if (cap_encoding_parse(v, &p->charset) == -1) {
				profile_fail(s, file, "charset must be "
				    "\"iso-8859-1\" or \"utf-8\"", err, errlen);
				goto done;
			}
			p->charset_set = 1;
		} else if (strcmp(known[j], "typing") == 0) {
			struct typing	t;

			if (typing_parse(v, &t, what, sizeof(what)) == -1) {
				profile_fail(s, file, what, err, errlen);
				goto done;
			}
			snprintf(p->typing, sizeof(p->typing), "%s", v);
		}
	}
	r = 0;
done:
	config_destroy(&cfg);
	free(text);
	return (r);
}
