/*
 * The files the commands are given: lists of paths, and the walk that
 * finds under a directory the captures (*.cast), transcripts
 * (LPyy-nn.TXT, and a state directory's compliance.txt) and round
 * manifests (manifest-NNNN.json).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static int	cmd_files_cmp(const void *, const void *);
static size_t	cmd_files_segment(const char *, long *);

/* Add a copy of a path to a list; -1 when out of memory. */
int
cmd_files_push(struct cmd_files *l, const char *s)
{
	char	**v;
	size_t	  n;

	if (l->n == l->cap) {
		n = l->cap == 0 ? 32 : l->cap * 2;
		if ((v = reallocarray(l->v, n, sizeof(*v))) == NULL)
			return (-1);
		l->v = v;
		l->cap = n;
	}
	if ((l->v[l->n] = strdup(s)) == NULL)
		return (-1);
	l->n++;
	return (0);
}

/* Tell whether a list holds a path. */
int
cmd_files_has(const struct cmd_files *l, const char *s)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return (1);
	return (0);
}

/* Tell whether a name ends in a suffix. */
int
cmd_files_ends(const char *s, const char *suffix)
{
	size_t	n = strlen(s), k = strlen(suffix);

	return (n > k && strcmp(s + n - k, suffix) == 0);
}

/*
 * Split a capture's path into its stem and segment: NAME.cast is segment
 * 0 of NAME, NAME.N.cast segment N; other paths are their own stem.
 */
static size_t
cmd_files_segment(const char *p, long *seg)
{
	size_t	n = strlen(p), k;

	*seg = 0;
	if (n <= 5 || strcmp(p + n - 5, ".cast") != 0)
		return (n);
	n -= 5;
	for (k = n; k > 0 && p[k - 1] >= '0' && p[k - 1] <= '9'; k--)
		;
	if (k < n && k > 1 && p[k - 1] == '.' && n - k < 6) {
		*seg = strtol(p + k, NULL, 10);
		return (k - 1);
	}
	return (n);
}

/* Order paths; a capture's segments in their order after it. */
static int
cmd_files_cmp(const void *a, const void *b)
{
	const char	*x = *(char *const *)a, *y = *(char *const *)b;
	size_t		 nx, ny;
	long		 sx, sy;
	int		 c;

	nx = cmd_files_segment(x, &sx);
	ny = cmd_files_segment(y, &sy);
	if ((c = strncmp(x, y, nx < ny ? nx : ny)) != 0)
		return (c);
	if (nx != ny)
		return (nx < ny ? -1 : 1);
	if (sx != sy)
		return (sx < sy ? -1 : 1);
	return (strcmp(x, y));
}

/* Put a list's paths in order (an empty list has no array to sort). */
void
cmd_files_sort(struct cmd_files *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmd_files_cmp);
}

/*
 * Collect the captures, transcripts (with compliance.txt) and manifests
 * under a directory, depth first, up to 16 levels; -1 (warned) when a
 * directory cannot be read.
 */
int
cmd_files_walk(const char *dir, struct cmd_files *caps,
    struct cmd_files *txs, struct cmd_files *mans, int depth)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*p;
	int		 rv = 0;

	if (depth > 16)
		return (0);
	if ((d = opendir(dir)) == NULL) {
		warn("%s", dir);
		return (-1);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", dir, de->d_name) == -1)
			err(1, NULL);
		if (stat(p, &st) == -1) {
			warn("%s", p);
			rv = -1;
		} else if (S_ISDIR(st.st_mode)) {
			if (cmd_files_walk(p, caps, txs, mans, depth + 1) ==
			    -1)
				rv = -1;
		} else if (S_ISREG(st.st_mode)) {
			if (cmd_files_ends(p, ".cast")) {
				if (cmd_files_push(caps, p) == -1)
					err(1, NULL);
			} else if (tx_write_is_name(de->d_name) ||
			    strcmp(de->d_name, "compliance.txt") == 0) {
				if (cmd_files_push(txs, p) == -1)
					err(1, NULL);
			} else if (cmd_files_is_manifest(de->d_name)) {
				if (cmd_files_push(mans, p) == -1)
					err(1, NULL);
			}
		}
		free(p);
	}
	closedir(d);
	return (rv);
}

/* The last component of a path. */
const char *
cmd_files_base(const char *path)
{
	const char	*s = strrchr(path, '/');

	return (s != NULL ? s + 1 : path);
}

/* Tell whether a file name is a manifest's, manifest-NNNN.json. */
int
cmd_files_is_manifest(const char *path)
{
	const char	*s = cmd_files_base(path);
	int		 n, k = 0;

	return (sscanf(s, "manifest-%d.json%n", &n, &k) == 1 && k > 0 &&
	    s[k] == '\0');
}

/* Free a list's paths. */
void
cmd_files_free(struct cmd_files *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
