/*
 * A configuration libconfig cannot read, made readable so that a check
 * goes on past a syntax error.
 *
 * libconfig stops at the first syntax error and gives no tree at all.
 * The statement it fell in is blanked (its lines are kept, emptied, so
 * that every later line keeps its number) and the text read again: a
 * top-level setting of the configuration, or the configuration's own
 * @include line through which the file in error is read.  A top-level
 * statement begins at the start of a line with NAME = or NAME :, outside
 * brackets, or with one of the room's top-level names at any depth (its
 * brackets may be the broken ones), or with @include.  When the statement
 * before the one in error leaves a bracket open, the error is its own
 * (libconfig only finds it at the next name), and it is blanked too.
 * The names of what was blanked are kept, so that what refers to them is
 * not reported again (conf.c, conf_skipped()).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-parse.h"

#define CONF_SYNTAX_TRIES	32	/* syntax errors reported, at most */

struct conf_syntax_stmt {
	const char	*start;		/* the statement's first character */
	unsigned int	 line;
	int		 depth;		/* brackets left open at its end */
	int		 include;	/* an @include line */
};

static int	 conf_syntax_top(const char *, int, const char **);
static size_t	 conf_syntax_scan(const char *, const char **,
		    struct conf_syntax_stmt *, size_t);
static int	 conf_syntax_skip(struct conf_syntax *, const char *);
static void	 conf_syntax_names(struct conf_syntax *, const char *,
		    const char *, const char **, char *, size_t);
static void	 conf_syntax_line(const char *, unsigned int, char *, size_t);
static char	*conf_syntax_file(const char *, const char *);

/*
 * Tell whether a line (at p) begins a top-level statement: 1 for NAME =
 * or NAME :, 2 for @include; depth is the brackets open before it.
 */
static int
conf_syntax_top(const char *p, int depth, const char **known)
{
	size_t	n, i;

	if (strncmp(p, "@include", 8) == 0 && (p[8] == ' ' || p[8] == '\t'))
		return (depth == 0 ? 2 : 0);
	if (!isalpha((unsigned char)*p) && *p != '*')
		return (0);
	for (n = 1; isalnum((unsigned char)p[n]) || p[n] == '_' ||
	    p[n] == '-' || p[n] == '*'; n++)
		;
	for (i = n; p[i] == ' ' || p[i] == '\t'; i++)
		;
	if (p[i] != '=' && p[i] != ':')
		return (0);
	if (depth == 0)
		return (1);
	for (i = 0; known[i] != NULL; i++)
		if (strlen(known[i]) == n && strncmp(known[i], p, n) == 0)
			return (1);
	return (0);
}

/*
 * Split a text into its top-level statements (at most max, in order);
 * returns how many.  Comments and strings are skipped.
 */
static size_t
conf_syntax_scan(const char *text, const char **known,
    struct conf_syntax_stmt *st, size_t max)
{
	struct conf_lex	 x = { 0, 0 };
	const char	*p;
	unsigned int	 line = 1;
	size_t		 n = 0;
	int		 depth = 0, k;

	for (p = text; *p != '\0'; p++) {
		if ((p == text || p[-1] == '\n') && !x.comment && !x.string &&
		    (k = conf_syntax_top(p, depth, known)) != 0) {
			if (n > 0)
				st[n - 1].depth = depth;
			if (n == max)
				return (n);
			st[n].start = p;
			st[n].line = line;
			st[n].include = k == 2;
			st[n].depth = 0;
			n++;
			depth = 0;
		}
		if (!conf_include_lex(&x, &p, &line))
			;
		else if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if (*p == ')' || *p == ']' || *p == '}')
			depth--;
		if (p[0] == '\0')
			break;
	}
	if (n > 0)
		st[n - 1].depth = depth;
	return (n);
}

/* Keep the name of a top-level setting no longer read. */
static int
conf_syntax_skip(struct conf_syntax *syn, const char *name)
{
	char	**v;
	size_t	  i;

	for (i = 0; i < syn->nskipped; i++)
		if (strcmp(syn->skipped[i], name) == 0)
			return (0);
	if ((v = reallocarray(syn->skipped, syn->nskipped + 1,
	    sizeof(*v))) == NULL)
		return (-1);
	syn->skipped = v;
	if ((v[syn->nskipped] = strdup(name)) == NULL)
		return (-1);
	syn->nskipped++;
	return (0);
}

/* Read a file a configuration includes (named as written), or NULL. */
static char *
conf_syntax_file(const char *basedir, const char *file)
{
	char	 path[PATH_MAX], err[LINE_ERRLEN], *text;
	FILE	*f;

	if (file[0] == '/' || basedir == NULL)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", basedir, file);
	if ((f = fopen(path, "r")) == NULL)
		return (NULL);
	text = conf_include_text(f, path, err, sizeof(err));
	fclose(f);
	return (text);
}

/*
 * Keep the names of the settings of a statement being blanked (at s; an
 * @include: those its file sets at its top level, "*" when that cannot
 * be told), and add them to the list in names.
 */
static void
conf_syntax_names(struct conf_syntax *syn, const char *basedir,
    const char *s, const char **known, char *names, size_t len)
{
	struct conf_syntax_stmt	 st[64];
	const char		*p;
	char			 file[PATH_MAX], *text;
	size_t			 n, i, k;

	if (strncmp(s, "@include", 8) != 0) {
		n = strcspn(s, " \t=:");
		snprintf(file, sizeof(file), "%.*s", (int)n, s);
		if (conf_syntax_skip(syn, file) == 0)
			snprintf(names + strlen(names), len - strlen(names),
			    "%s'%s'", names[0] != '\0' ? ", " : "", file);
		return;
	}
	p = strchr(s, '"');
	for (k = 0, p = p != NULL ? p + 1 : ""; *p != '\0' && *p != '"' &&
	    *p != '\n' && k + 1 < sizeof(file); p++)
		file[k++] = *p;
	file[k] = '\0';
	snprintf(names + strlen(names), len - strlen(names), "%s@include "
	    "\"%s\"", names[0] != '\0' ? ", " : "", file);
	if ((text = conf_syntax_file(basedir, file)) == NULL) {
		conf_syntax_skip(syn, "*");
		return;
	}
	n = conf_syntax_scan(text, known, st, sizeof(st) / sizeof(st[0]));
	for (i = 0; i < n; i++) {
		if (st[i].include) {
			conf_syntax_skip(syn, "*");
			continue;
		}
		k = strcspn(st[i].start, " \t=:");
		snprintf(file, sizeof(file), "%.*s", (int)k, st[i].start);
		conf_syntax_skip(syn, file);
	}
	free(text);
}

/* Copy line number line of a text, its blanks trimmed, into buf. */
static void
conf_syntax_line(const char *text, unsigned int line, char *buf, size_t len)
{
	const char	*p = text;
	size_t		 n;

	buf[0] = '\0';
	for (; line > 1 && p != NULL; line--)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	if (p == NULL)
		return;
	p += strspn(p, " \t");
	n = strcspn(p, "\n");
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
	    p[n - 1] == '\r'))
		n--;
	if (n > 60)
		snprintf(buf, len, "%.57s...", p);
	else
		snprintf(buf, len, "%.*s", (int)n, p);
}

/*
 * After libconfig failed at line of file (NULL: the configuration's own
 * text, name), blank the statement of syn->text at fault.  Returns 0 with
 * the line libconfig stopped at in note and what is no longer read in
 * lost, or -1 (with note) when nothing more can be blanked.
 */
int
conf_syntax_recover(struct conf_syntax *syn, const char *name,
    const char *basedir, const char *file, int line, char *note,
    size_t len, char *lost, size_t lostlen)
{
	static const char	*known[] = { "ports", "stations", "entities",
				    "schedule", "rules", "entry_limits",
				    NULL };
	struct conf_syntax_stmt	 st[512];
	char			 at[80], names[256], *text;
	const char		*end;
	unsigned int		 where;
	size_t			 n, k, i, first;
	char			*p;

	note[0] = '\0';
	lost[0] = '\0';
	at[0] = names[0] = '\0';
	if (file == NULL) {
		where = (unsigned int)line;
		conf_syntax_line(syn->text, where, at, sizeof(at));
	} else {
		if ((where = conf_include_via(name, basedir, syn->text,
		    file)) == 0)
			return (-1);
		if ((text = conf_syntax_file(basedir, file)) != NULL) {
			conf_syntax_line(text, (unsigned int)line, at,
			    sizeof(at));
			free(text);
		}
	}
	if (at[0] != '\0')
		snprintf(note, len, " at \"%s\"", at);
	if (++syn->tries > CONF_SYNTAX_TRIES)
		return (-1);
	n = conf_syntax_scan(syn->text, known, st, sizeof(st) / sizeof(st[0]));
	for (k = 0; k < n && st[k].line <= where; k++)
		;
	if (k == 0)
		return (-1);	/* before any statement: nothing to blank */
	k--;
	first = k;
	if (first > 0 && st[first - 1].depth > 0)
		first--;
	for (i = first; i <= k; i++)
		conf_syntax_names(syn, basedir, st[i].start, known, names,
		    sizeof(names));
	/* Blank from the first statement at fault to the next one. */
	end = k + 1 < n ? st[k + 1].start : syn->text + strlen(syn->text);
	for (p = syn->text + (st[first].start - syn->text); p < end; p++)
		if (*p != '\n')
			*p = ' ';
	snprintf(lost, lostlen, "%s", names);
	return (0);
}

/* Free what a recovery kept. */
void
conf_syntax_clear(struct conf_syntax *syn)
{
	size_t	i;

	for (i = 0; i < syn->nskipped; i++)
		free(syn->skipped[i]);
	free(syn->skipped);
	free(syn->text);
	memset(syn, 0, sizeof(*syn));
}
