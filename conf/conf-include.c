/*
 * The text of a configuration, before libconfig reads it.
 *
 * libconfig's scanner ends the whole process when an @include names a
 * directory ("input in flex scanner failed", exit status 2), and waits
 * forever on a FIFO: a reload with such a line would stop or hang a
 * running muxd.  So the text is read here first, whole, and every
 * @include line in it, and in the files it includes, must name a regular
 * file; anything else is refused as "FILE:LINE: what is wrong", as every
 * other error is.  A NUL byte is refused too: libconfig would read the
 * text only up to it.  Includes are found as libconfig finds them: a line
 * that begins, after blanks, with @include and a quoted name, outside
 * comments; a relative name is taken from the configuration's directory.
 * A name that does not exist is left to libconfig, which reports it.
 * Messages about an included file name it as conf_include_where() does.
 * comprog reads its appearance profiles the same way.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "conf-parse.h"

#define CONF_INCLUDE_DEPTH	10	/* libconfig's own limit */
#define CONF_INCLUDE_MAXTEXT	(16 * 1024 * 1024)

struct conf_include_ctx {
	const char	*top;		/* the configuration's name */
	const char	*basedir;	/* for relative names, or NULL */
	char		*err;
	size_t		 errlen;
	const char	*want;		/* conf_include_via(): a file, */
	unsigned int	 via;		/* the line of the configuration's
					   own @include it is read through */
	unsigned int	 at;		/* the one being followed */
};

static int	conf_include_scan(struct conf_include_ctx *, const char *,
		    const char *, int);
static int	conf_include_line(struct conf_include_ctx *, const char *,
		    const char *, unsigned int, int);
static const char *conf_include_kind(mode_t);

/*
 * Read a configuration's text whole from f; name is the file for
 * messages.  NULL with a message in err on a read error, a NUL byte or a
 * text over 16 MB.
 */
char *
conf_include_text(FILE *f, const char *name, char *err, size_t errlen)
{
	char		*text = NULL, *p, *nul;
	size_t		 len = 0, size = 0, n;
	unsigned int	 line;

	for (;;) {
		if (len + BUFSIZ + 1 > size) {
			size = size == 0 ? 2 * BUFSIZ : size * 2;
			if (size > CONF_INCLUDE_MAXTEXT + BUFSIZ + 1) {
				snprintf(err, errlen, "%s: larger than %d MB, "
				    "not a configuration", name,
				    CONF_INCLUDE_MAXTEXT / (1024 * 1024));
				free(text);
				return (NULL);
			}
			if ((p = realloc(text, size)) == NULL) {
				snprintf(err, errlen, "%s: out of memory", name);
				free(text);
				return (NULL);
			}
			text = p;
		}
		n = fread(text + len, 1, size - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		free(text);
		return (NULL);
	}
	text[len] = '\0';
	if ((nul = memchr(text, '\0', len)) != NULL) {
		for (line = 1, p = text; p < nul; p++)
			line += *p == '\n';
		snprintf(err, errlen, "%s:%u: a NUL byte (offset %zu): not "
		    "text", name, line, (size_t)(nul - text));
		free(text);
		return (NULL);
	}
	return (text);
}

/*
 * Check the @include lines of a configuration's text (name for messages,
 * basedir for relative names, NULL: as written): 0 when each names a
 * regular file or nothing at all, -1 with a message in err otherwise.
 */
int
conf_include_check(const char *name, const char *basedir, const char *text,
    char *err, size_t errlen)
{
	struct conf_include_ctx	ctx = { name, basedir, err, errlen, NULL, 0,
				    0 };

	return (conf_include_scan(&ctx, name, text, 0));
}

/*
 * Find the line of a configuration's own @include (in text) through which
 * file, named as libconfig names an included file, is read; 0 if none.
 */
unsigned int
conf_include_via(const char *name, const char *basedir, const char *text,
    const char *file)
{
	struct conf_include_ctx	ctx = { name, basedir, NULL, 0, file, 0, 0 };
	char			err[LINE_ERRLEN];

	ctx.err = err;
	ctx.errlen = sizeof(err);
	conf_include_scan(&ctx, name, text, 0);
	return (ctx.via);
}

/*
 * Name the file an error is in: the configuration's own name, or an
 * included file, which libconfig names as written in @include (relative
 * to the configuration's directory); that is put in the same terms as
 * the configuration's name.
 */
const char *
conf_include_where(const char *name, const char *file, char *buf,
    size_t len)
{
	const char	*slash;

	if (file == NULL)
		return (name);
	if (file[0] == '/' || (slash = strrchr(name, '/')) == NULL)
		return (file);
	snprintf(buf, len, "%.*s/%s", (int)(slash - name), name, file);
	return (buf);
}

/* Name a kind of file that is not a regular one. */
static const char *
conf_include_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return ("a directory");
	if (S_ISFIFO(mode))
		return ("a FIFO");
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return ("a device");
	if (S_ISSOCK(mode))
		return ("a socket");
	return ("not a regular file");
}

/*
 * Step a libconfig text's lexer over the byte at *pp (left on the last
 * byte it took: a comment's or an escape's second byte, a line comment's
 * end): 1 when the byte is code, outside any comment and string, else 0;
 * *line counts the newlines.
 */
int
conf_include_lex(struct conf_lex *x, const char **pp, unsigned int *line)
{
	const char	*p = *pp;
	int		 code = 0;

	if (*p == '\n')
		(*line)++;
	else if (x->comment) {
		if (p[0] == '*' && p[1] == '/') {
			x->comment = 0;
			p++;
		}
	} else if (x->string) {
		if (*p == '\\' && p[1] != '\0') {
			*line += p[1] == '\n';
			p++;
		} else if (*p == '"')
			x->string = 0;
	} else if (*p == '#' || (p[0] == '/' && p[1] == '/'))
		p += strcspn(p, "\n") - 1;
	else if (p[0] == '/' && p[1] == '*') {
		x->comment = 1;
		p++;
	} else if (*p == '"')
		x->string = 1;
	else
		code = 1;
	*pp = p;
	return (code);
}

/*
 * Scan one text (at include depth depth) for its @include lines: at the
 * start of a line that is not inside a comment or a string (strings may
 * span lines).
 */
static int
conf_include_scan(struct conf_include_ctx *ctx, const char *name,
    const char *text, int depth)
{
	struct conf_lex	 x = { 0, 0 };
	const char	*p, *q;
	unsigned int	 line = 1;
	int		 start = 1;

	for (p = text; *p != '\0'; p++) {
		if (start && !x.comment && !x.string) {
			for (q = p; *q == ' ' || *q == '\t'; q++)
				;
			if (strncmp(q, "@include", 8) == 0 &&
			    (q[8] == ' ' || q[8] == '\t')) {
				for (q += 8; *q == ' ' || *q == '\t'; q++)
					;
				if (*q == '"' && conf_include_line(ctx, name,
				    q + 1, line, depth) == -1)
					return (-1);
			}
		}
		start = *p == '\n';
		(void)conf_include_lex(&x, &p, &line);
	}
	return (0);
}

/*
 * Check the file an @include line names (its quoted name begins at s),
 * and the files that one includes in turn.
 */
static int
conf_include_line(struct conf_include_ctx *ctx, const char *name,
    const char *s, unsigned int line, int depth)
{
	struct stat	 sb;
	FILE		*f;
	const char	*sname;
	char		 file[PATH_MAX], path[PATH_MAX], where[PATH_MAX];
	char		*sub;
	size_t		 n = 0;
	int		 rc;

	for (; *s != '\0' && *s != '"' && *s != '\n'; s++) {
		if (*s == '\\' && s[1] != '\0' && s[1] != '\n')
			s++;
		if (n + 1 < sizeof(file))
			file[n++] = *s;
	}
	file[n] = '\0';
	if (depth == 0)
		ctx->at = line;
	if (ctx->want != NULL && ctx->via == 0 &&
	    strcmp(file, ctx->want) == 0)
		ctx->via = ctx->at;
	if (file[0] == '/' || ctx->basedir == NULL)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", ctx->basedir, file);
	if (stat(path, &sb) == -1)
		return (0);	/* libconfig says it cannot open it */
	if (!S_ISREG(sb.st_mode)) {
		snprintf(ctx->err, ctx->errlen, "%s:%u: @include \"%s\": %s, "
		    "not a file", name, line, file,
		    conf_include_kind(sb.st_mode));
		return (-1);
	}
	if (depth + 1 >= CONF_INCLUDE_DEPTH || (f = fopen(path, "r")) == NULL)
		return (0);	/* libconfig reports both */
	/* libconfig names it as written, from the configuration's place. */
	sname = conf_include_where(ctx->top, file, where, sizeof(where));
	sub = conf_include_text(f, sname, ctx->err, ctx->errlen);
	fclose(f);
	if (sub == NULL)
		return (-1);
	rc = conf_include_scan(ctx, sname, sub, depth + 1);
	free(sub);
	return (rc);
}
