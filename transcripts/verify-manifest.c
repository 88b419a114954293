/*
 * The auditor's checks of a round manifest (manifest.c): its signature
 * with the room's public key, the manifest before it, and every file it
 * lists, each of which must still begin with the bytes it sealed (the
 * captures and the compliance file grow; a transcript or a closed
 * capture does not change).  Paths are taken relative to the directory
 * that holds manifests/, so a copied state directory checks as well.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcripts.h"

#define VERIFY_MANIFEST_MAX	(64UL << 20)

static int	verify_manifest_file(struct verify_report *, const char *,
		    json_t *);
static int	verify_manifest_previous(struct verify_report *,
		    const char *, json_t *, int);

/*
 * The directory a manifest's relative paths start from: the parent of
 * its manifests/ directory (or its own directory).  The caller frees.
 */
char *
verify_manifest_base(const char *path)
{
	char	*d, *s;

	if ((d = strdup(path)) == NULL)
		return (NULL);
	if ((s = strrchr(d, '/')) == NULL) {
		free(d);
		return (strdup("."));
	}
	*s = '\0';
	s = strrchr(d, '/');
	if (strcmp(s != NULL ? s + 1 : d, "manifests") == 0) {
		if (s == NULL) {
			free(d);
			return (strdup("."));
		}
		*s = '\0';
	}
	if (*d == '\0') {
		free(d);
		return (strdup("/"));
	}
	return (d);
}

/*
 * The file a manifest entry names, resolved from base; the caller
 * frees.
 */
char *
verify_manifest_path(const char *base, const char *rel)
{
	char	*p;

	if (rel[0] == '/')
		return (strdup(rel));
	if (asprintf(&p, "%s/%s", base, rel) == -1)
		return (NULL);
	return (p);
}

/* Check one listed file: there, long enough, its first bytes as sealed. */
static int
verify_manifest_file(struct verify_report *rep, const char *base, json_t *f)
{
	unsigned char		 want[CAP_CHAIN_BYTES], got[CAP_CHAIN_BYTES];
	const char		*rel, *hex;
	struct cap_error	 e;
	json_int_t		 size;
	int64_t			 n;
	char			*path;
	int			 rv;

	rel = json_string_value(json_object_get(f, "path"));
	hex = json_string_value(json_object_get(f, "blake2b"));
	size = json_integer_value(json_object_get(f, "size"));
	if (rel == NULL)
		return (verify_add(rep, VERIFY_MANIFEST, 0, -1, "an entry "
		    "without a path"));
	if (json_object_get(f, "error") != NULL)
		return (verify_add(rep, VERIFY_MANIFEST, 0, -1, "%s: muxd "
		    "could not read it when sealing: %s", rel,
		    json_string_value(json_object_get(f, "error"))));
	if (hex == NULL || cap_chain_unhex(hex, want) == -1 || size < 0)
		return (verify_add(rep, VERIFY_MANIFEST, 0, -1, "%s: an entry "
		    "without its size and hash", rel));
	if ((path = verify_manifest_path(base, rel)) == NULL)
		return (-1);
	if (cap_file_hash(path, size, got, CAP_CHAIN_BYTES, &n, &e) != CAP_OK)
		rv = verify_add(rep, VERIFY_MANIFEST, 0, -1, "%s: sealed with "
		    "%lld bytes, now %s", rel, (long long)size, e.sys ==
		    ENOENT ? "missing" : e.msg);
	else if (n < size)
		rv = verify_add(rep, VERIFY_MANIFEST, 0, -1, "%s: sealed with "
		    "%lld bytes, now %lld: cut short", rel, (long long)size,
		    (long long)n);
	else if (memcmp(want, got, sizeof(want)) != 0)
		rv = verify_add(rep, VERIFY_MANIFEST, 0, -1, "%s: changed: its "
		    "first %lld bytes are not the ones sealed", rel,
		    (long long)size);
	else
		rv = 0;
	free(path);
	return (rv);
}

/*
 * Check the manifest before this one: there, the one sealed, and the
 * numbers in order.
 */
static int
verify_manifest_previous(struct verify_report *rep, const char *path,
    json_t *m, int seq)
{
	unsigned char	 want[CAP_CHAIN_BYTES], got[CAP_CHAIN_BYTES];
	json_t		*prev = json_object_get(m, "previous");
	const char	*rel, *hex, *s;
	struct cap_error e;
	int64_t		 n;
	char		*p;
	int		 rv, k;

	if (prev == NULL)
		return (seq > 1 ? verify_add(rep, VERIFY_MANIFEST, 0, -1,
		    "manifest %d names no manifest before it", seq) : 0);
	rel = json_string_value(json_object_get(prev, "path"));
	hex = json_string_value(json_object_get(prev, "blake2b"));
	if (rel == NULL || strchr(rel, '/') != NULL || hex == NULL ||
	    cap_chain_unhex(hex, want) == -1)
		return (verify_add(rep, VERIFY_MANIFEST, 0, -1, "the previous "
		    "manifest's entry does not read"));
	if (sscanf(rel, "manifest-%d.json", &k) != 1 || k != seq - 1)
		if (verify_add(rep, VERIFY_MANIFEST, 0, -1, "manifest %d "
		    "follows %s, not manifest %d: one was removed", seq, rel,
		    seq - 1) == -1)
			return (-1);
	s = strrchr(path, '/');
	if (asprintf(&p, "%.*s%s", s != NULL ? (int)(s - path + 1) : 0, path,
	    rel) == -1)
		return (-1);
	if (cap_file_hash(p, -1, got, CAP_CHAIN_BYTES, &n, &e) != CAP_OK)
		rv = verify_add(rep, VERIFY_MANIFEST, 0, -1, "the manifest "
		    "before it, %s, is missing", rel);
	else if (memcmp(want, got, sizeof(want)) != 0)
		rv = verify_add(rep, VERIFY_MANIFEST, 0, -1, "the manifest "
		    "before it, %s, was changed after this one sealed it",
		    rel);
	else
		rv = 0;
	free(p);
	return (rv);
}

/*
 * Check a manifest into rep, with the room's public key (NULL: the
 * signature is not checked, and a note says so).  CAP_OK whatever was
 * found, or CAP_ENOMEM.
 */
enum cap_err
verify_manifest(const char *path, const struct sign_pub *pub,
    struct verify_report *rep, struct cap_error *err)
{
	struct cap_error	 e;
	json_error_t		 je;
	json_t			*m = NULL, *files, *f;
	char			*text = NULL, *base = NULL, trusted[512];
	const char		*s;
	size_t			 len, i;
	int			 seq, k;

	if (cap_file_read(path, VERIFY_MANIFEST_MAX, &text, &len, &e) !=
	    CAP_OK) {
		if (verify_add(rep, VERIFY_OPEN, 0, -1, "%s", e.msg) == -1)
			goto nomem;
		return (CAP_OK);
	}
	if ((m = json_loadb(text, len, 0, &je)) == NULL ||
	    !json_is_object(m) || json_integer_value(json_object_get(m,
	    "muxd_manifest")) != 1) {
		if (verify_add(rep, VERIFY_HEADER, m == NULL ? (unsigned long)
		    je.line : 0, m == NULL ? je.position : -1, "not a muxd "
		    "manifest%s%s", m == NULL ? ": " : "", m == NULL ?
		    je.text : "") == -1)
			goto nomem;
		goto done;
	}
	seq = (int)json_integer_value(json_object_get(m, "sequence"));
	s = strrchr(path, '/');
	s = s != NULL ? s + 1 : path;
	if ((sscanf(s, "manifest-%d.json", &k) != 1 || k != seq) &&
	    verify_add(rep, VERIFY_MANIFEST, 0, -1, "the file name says "
	    "manifest %s, the manifest says %d", s, seq) == -1)
		goto nomem;
	if (pub == NULL) {
		if (verify_add(rep, VERIFY_NOTE, 0, -1, "signature not "
		    "checked: no public key (-k room.pub)") == -1)
			goto nomem;
	} else if (sign_verify_file(pub, path, trusted, sizeof(trusted), &e) !=
	    CAP_OK) {
		if (e.code == CAP_ENOMEM)
			goto nomem;
		if (verify_add(rep, VERIFY_SIGNATURE, 0, -1, "%s%s%s",
		    e.sys == ENOENT ? "not signed: " : "", e.sys == ENOENT ?
		    e.file : "", e.sys == ENOENT ? " is missing" : e.msg) == -1)
			goto nomem;
	} else if (verify_add(rep, VERIFY_NOTE, 0, -1, "signed: %s",
	    trusted) == -1)
		goto nomem;
	if (verify_manifest_previous(rep, path, m, seq) == -1)
		goto nomem;
	if ((base = verify_manifest_base(path)) == NULL)
		goto nomem;
	files = json_object_get(m, "files");
	json_array_foreach(files, i, f)
		if (verify_manifest_file(rep, base, f) == -1)
			goto nomem;
	rep->nevent = json_array_size(files);
done:
	free(base);
	free(text);
	json_decref(m);
	return (CAP_OK);
nomem:
	free(base);
	free(text);
	json_decref(m);
	cap_error_set(err, CAP_ENOMEM, path, 0, -1, "verify: out of memory");
	return (CAP_ENOMEM);
}

/*
 * What the newest manifest covers: its files, resolved, with their
 * sizes, and why it was written.  NULL when it does not read or out of
 * memory.
 */
struct verify_cover *
verify_cover_load(const char *path)
{
	struct verify_cover	*c;
	json_t			*m, *files, *f;
	const char		*rel, *why;
	char			*base, *p, real[PATH_MAX];
	size_t			 i;

	if ((m = json_load_file(path, 0, NULL)) == NULL)
		return (NULL);
	files = json_object_get(m, "files");
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (base = verify_manifest_base(path)) == NULL) {
		free(c);
		json_decref(m);
		return (NULL);
	}
	why = json_string_value(json_object_get(m, "why"));
	c->shutdown = why != NULL && strcmp(why, "shutdown") == 0;
	snprintf(c->manifest, sizeof(c->manifest), "%s", path);
	if ((c->path = calloc(json_array_size(files) + 1,
	    sizeof(*c->path))) == NULL || (c->size = calloc(
	    json_array_size(files) + 1, sizeof(*c->size))) == NULL)
		goto fail;
	json_array_foreach(files, i, f) {
		if ((rel = json_string_value(json_object_get(f, "path"))) ==
		    NULL || (p = verify_manifest_path(base, rel)) == NULL)
			continue;
		c->path[c->n] = realpath(p, real) != NULL ? strdup(real) :
		    strdup(p);
		free(p);
		if (c->path[c->n] == NULL)
			goto fail;
		c->size[c->n++] = json_integer_value(json_object_get(f,
		    "size"));
	}
	free(base);
	json_decref(m);
	return (c);
fail:
	free(base);
	json_decref(m);
	verify_cover_free(c);
	return (NULL);
}

/* Free what a manifest covers. */
void
verify_cover_free(struct verify_cover *c)
{
	size_t	i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		free(c->path[i]);
	free(c->path);
	free(c->size);
	free(c);
}

/*
 * Tell in a file's report whether the newest manifest covers it: not
 * listed is a finding once muxd's last manifest was its shutdown's (a
 * note while it may still be running); bytes past the sealed size are a
 * note (for a capture, the whole lines its check chained into rep).  -1
 * when out of memory.
 */
int
verify_cover_check(const struct verify_cover *c, const char *file,
    struct verify_report *rep)
{
	char		 real[PATH_MAX];
	struct stat	 st;
	int64_t		 size;
	size_t		 i, n;

	if (c == NULL)
		return (0);
	if (realpath(file, real) == NULL)
		return (0);
	for (i = 0; i < c->n; i++)
		if (strcmp(c->path[i], real) == 0)
			break;
	if (i == c->n)
		return (verify_add(rep, c->shutdown ? VERIFY_MANIFEST :
		    VERIFY_NOTE, 0, -1, "not in the last manifest, %s%s",
		    c->manifest, c->shutdown ? ", written at muxd's shutdown: "
		    "added afterwards" : " (written while muxd runs?)"));
	if (stat(file, &st) == -1)
		return (0);
	size = st.st_size;
	/*
	 * A capture's whole lines, as its check just chained them: a zero
	 * tail is no content.
	 */
	n = strlen(file);
	if (n > 5 && strcmp(file + n - 5, ".cast") == 0 && rep->chain_lines > 0)
		size = rep->chain_bytes;
	if (size > c->size[i])
		return (verify_add(rep, c->shutdown ? VERIFY_MANIFEST :
		    VERIFY_NOTE, 0, c->size[i], "%lld bytes past what the last "
		    "manifest, %s, sealed", (long long)(size - c->size[i]),
		    c->manifest));
	return (0);
}
