/*
 * Round manifests: the evidence of a room as it stands, sealed.  A
 * manifest lists every capture (*.cast), transcript (LPyy-nn.TXT) and
 * the compliance file under the directories it is given, each with its
 * size and BLAKE2b-256 (what `b2sum -l 256` prints; for a capture still
 * being written, of its whole lines, the zero tail left out), and for a capture
 * the line count and head of its hash chain; the configuration file's
 * hash; the room key's id; the manifest before it, by sequence number,
 * name and hash.  It is written into DIR/manifests/manifest-NNNN.json
 * (NNNN counting up, never reused) and signed with the room key in
 * minisign's format (sign.c), so that
 *
 *   minisign -Vm manifest-0003.json -p room.pub
 *
 * checks it.  Paths are relative to DIR when they are under it.
 *
 * The manifests form a chain (format 2, "muxd_manifest": 2): the first,
 * sequence 1, is the room's start and names no manifest before it; each
 * later one names the one before it; every run of muxd ends with a
 * "shutdown" one, and a run that ended otherwise (a crash) is followed
 * by a "crash recovery" one where a run that ended cleanly is followed by
 * a "start" one.  Format 1 had the same fields but the previous
 * manifest's sequence, and called every run's first manifest "start".
 *
 * A witness (a referee's key) may countersign a manifest:
 * MANIFEST.witness.minisig beside it, minisign's format, so that
 *
 *   minisign -Vm manifest-0003.json -x manifest-0003.json.witness.minisig \
 *       -p referee.pub
 *
 * checks it too.  muxd stores one that a referee sends (muxctl witness),
 * never replacing one, and the next manifest lists it with the evidence,
 * so that the chain seals it.
 *
 * A manifest's short form (manifest_short()) is what people read aloud
 * and write down at a round's end: the first 16 hex digits of its
 * BLAKE2b-256, "3f2a 91c0 7be4 5d18".
 *
 * Captures and the compliance file only grow, so a file checked against
 * an older manifest is checked as a prefix: its first SIZE bytes must
 * still hash as listed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"

#define MANIFEST_DEPTH	16

static int	manifest_walk(const char *, const char *, json_t *, json_t *,
		    int);
static int	manifest_add(const char *, const char *, json_t *, json_t *);
static json_t	*manifest_previous(const char *);
static int	manifest_last(const char *, char **, int *);
static char	*manifest_rel(const char *, const char *);
static int	manifest_cmp(const void *, const void *);
static int	manifest_witnesses(const char *, const char *, json_t *,
		    json_t *);

/* A path as the manifest records it: relative to dir when under it. */
static char *
manifest_rel(const char *dir, const char *path)
{
	size_t	n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) == 0 && path[n] == '/')
		return (strdup(path + n + 1));
	return (strdup(path));
}

/*
 * The entries of the manifest before, by path; an empty object when
 * there is none.
 */
static json_t *
manifest_previous(const char *last)
{
	json_t	*m, *f, *prev;
	size_t	 i;

	if ((prev = json_object()) == NULL)
		return (NULL);
	if (last == NULL || (m = json_load_file(last, 0, NULL)) == NULL)
		return (prev);
	json_array_foreach(json_object_get(m, "files"), i, f)
		if (json_is_string(json_object_get(f, "path")) &&
		    json_object_get(f, "error") == NULL)
			json_object_set(prev, json_string_value(
			    json_object_get(f, "path")), f);
	json_decref(m);
	return (prev);
}

/*
 * Add a file's entry: path, size, hash, and for a capture its chain.  A
 * file of the size the manifest before sealed (a closed capture, a
 * transcript) keeps that entry, unread: what was sealed stays sealed, and
 * a change since is for verify to find.  -1 when out of memory; a file
 * that cannot be read is listed with its error.
 */
static int
manifest_add(const char *dir, const char *path, json_t *files, json_t *prev)
{
	struct stat		 st;
	json_t			*pe;
	unsigned char		 hash[CAP_CHAIN_BYTES], head[CAP_CHAIN_BYTES];
	char			 hex[CAP_CHAIN_HEX], *rel;
	struct cap_error	 e;
	unsigned long		 lines;
	int64_t			 size, bytes;
	json_t			*o;
	size_t			 n = strlen(path);

	if ((rel = manifest_rel(dir, path)) == NULL)
		return (-1);
	if ((pe = json_object_get(prev, rel)) != NULL &&
	    stat(path, &st) == 0 && json_integer_value(json_object_get(pe,
	    "size")) == st.st_size) {
		free(rel);
		return (json_array_append(files, pe));
	}
	if ((o = json_object()) == NULL) {
		free(rel);
		return (-1);
	}
	json_object_set_new(o, "path", json_string(rel));
	free(rel);
	/* A capture: its whole lines (one being written has a zero tail). */
	bytes = -1;
	if (n > 5 && strcmp(path + n - 5, ".cast") == 0 &&
	    cap_chain_file(path, (unsigned long)-1, head, &lines, &bytes,
	    &e) == CAP_OK) {
		json_object_set_new(o, "lines",
		    json_integer((json_int_t)lines));
		json_object_set_new(o, "chain", json_string(cap_chain_hex(head,
		    hex)));
	}
	if (cap_file_hash(path, bytes, hash, CAP_CHAIN_BYTES, &size, &e) !=
	    CAP_OK) {
		json_object_set_new(o, "error", json_string(e.msg));
		return (json_array_append_new(files, o));
	}
	json_object_set_new(o, "size", json_integer(size));
	json_object_set_new(o, "blake2b", json_string(cap_chain_hex(hash,
	    hex)));
	return (json_array_append_new(files, o));
}

/* Collect the evidence under a directory into files; -1 out of memory. */
static int
manifest_walk(const char *dir, const char *root, json_t *files, json_t *prev,
    int depth)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		*p;
	size_t		 n;
	int		 rv = 0;

	if (depth > MANIFEST_DEPTH || (d = opendir(root)) == NULL)
		return (0);
	while (rv == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", root, de->d_name) == -1) {
			rv = -1;
			break;
		}
		n = strlen(de->d_name);
		/* No link followed: only what is there is evidence. */
		if (lstat(p, &st) == -1)
			;
		else if (S_ISDIR(st.st_mode))
			rv = manifest_walk(dir, p, files, prev, depth + 1);
		else if (S_ISREG(st.st_mode) && ((n > 5 && strcmp(de->d_name +
		    n - 5, ".cast") == 0) ||
		    tx_write_is_name(de->d_name)))
			rv = manifest_add(dir, p, files, prev);
		free(p);
	}
	closedir(d);
	return (rv);
}

/* Order entries by path. */
static int
manifest_cmp(const void *a, const void *b)
{
	return (strcmp(json_string_value(json_object_get(*(json_t *const *)a,
	    "path")), json_string_value(json_object_get(*(json_t *const *)b,
	    "path"))));
}

/*
 * Find the newest manifest in mdir: its path in *last (NULL when there is
 * none) and its number in *seq (0).  -1 when out of memory.
 */
static int
manifest_last(const char *mdir, char **last, int *seq)
{
	DIR		*d;
	struct dirent	*de;
	int		 n, k;

	*last = NULL;
	*seq = 0;
	if ((d = opendir(mdir)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL)
		if (sscanf(de->d_name, "manifest-%d.json%n", &n, &k) == 1 &&
		    de->d_name[k] == '\0' && n > *seq)
			*seq = n;
	closedir(d);
	if (*seq > 0 && asprintf(last, "%s/manifest-%04d.json", mdir,
	    *seq) == -1)
		return (-1);
	return (0);
}

/*
 * The newest manifest of a state directory: its sequence number in *seq
 * (0 when there is none) and why it was written in why ("" when it does
 * not read).  -1 when out of memory.
 */
int
manifest_tail(const char *dir, int *seq, char *why, size_t size)
{
	char	*mdir, *last;
	json_t	*m;
	int	 rv;

	why[0] = '\0';
	*seq = 0;
	if (asprintf(&mdir, "%s/manifests", dir) == -1)
		return (-1);
	rv = manifest_last(mdir, &last, seq);
	free(mdir);
	if (rv == -1 || last == NULL)
		return (rv);
	if ((m = json_load_file(last, 0, NULL)) != NULL &&
	    json_is_string(json_object_get(m, "why")))
		snprintf(why, size, "%s", json_string_value(json_object_get(m,
		    "why")));
	json_decref(m);
	free(last);
	return (0);
}

/*
 * Countersign a manifest with a witness's key (a referee's, minisign's
 * secret key file unencrypted, sign_load_secret()): write
 * MANIFEST.witness.minisig beside it, replacing one there, its trusted
 * comment "muxd manifest N witnessed: WHY, TIME".
 */
enum cap_err
manifest_witness(const char *path, const struct sign_key *k,
    struct cap_error *err)
{
	char		 trusted[512], *sigpath;
	json_error_t	 je;
	json_t		*m;
	enum cap_err	 e;

	cap_error_clear(err);
	if ((m = json_load_file(path, 0, &je)) == NULL || !json_is_object(m) ||
	    !json_is_integer(json_object_get(m, "sequence"))) {
		json_decref(m);
		cap_error_set(err, CAP_EHEADER, path, m == NULL ? (unsigned long)
		    je.line : 0, m == NULL ? je.position : -1, "not a muxd "
		    "manifest%s%s", m == NULL ? ": " : "", m == NULL ? je.text :
		    "");
		return (CAP_EHEADER);
	}
	snprintf(trusted, sizeof(trusted), "muxd manifest %lld witnessed: "
	    "%s, %s", (long long)json_integer_value(json_object_get(m,
	    "sequence")), json_is_string(json_object_get(m, "why")) ?
	    json_string_value(json_object_get(m, "why")) : "?",
	    json_is_string(json_object_get(m, "time")) ?
	    json_string_value(json_object_get(m, "time")) : "?");
	json_decref(m);
	if (asprintf(&sigpath, "%s%s", path, MANIFEST_WITNESS_EXT) == -1) {
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	e = sign_file_to(k, path, sigpath, "countersignature from witness key",
	    trusted, err);
	free(sigpath);
	return (e);
}

/*
 * The short form of a manifest's BLAKE2b-256 into out
 * (MANIFEST_SHORT_LEN): its first 16 hex digits in groups of four.
 */
char *
manifest_short(const unsigned char *hash, char *out)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i, o = 0;

	for (i = 0; i < MANIFEST_SHORT_DIGITS / 2; i++) {
		if (i > 0 && i % 2 == 0)
			out[o++] = ' ';
		out[o++] = hex[hash[i] >> 4];
		out[o++] = hex[hash[i] & 0xf];
	}
	out[o] = '\0';
	return (out);
}

/* The short form of a manifest file (manifest_short()) into out. */
enum cap_err
manifest_short_file(const char *path, char *out, struct cap_error *err)
{
	unsigned char	 hash[CAP_CHAIN_BYTES];
	int64_t		 size;
	enum cap_err	 e;

	out[0] = '\0';
	if ((e = cap_file_hash(path, -1, hash, sizeof(hash), &size, err)) !=
	    CAP_OK)
		return (e);
	manifest_short(hash, out);
	return (CAP_OK);
}

/*
 * Store a witness's countersignature of a manifest, the text of a
 * minisign signature file: checked with the witness's public key
 * against the manifest as it is on disk (its trusted comment in
 * trusted), then kept as MANIFEST.witness.minisig.  One there already is
 * never replaced (the next manifest may have sealed it): CAP_EEXIST.
 */
enum cap_err
manifest_countersign(const char *path, const char *sigtext,
    const struct sign_pub *w, char *trusted, size_t tsize,
    struct cap_error *err)
{
	struct stat	 st;
	char		*sigpath = NULL, *tmp = NULL;
	enum cap_err	 e;

	cap_error_clear(err);
	trusted[0] = '\0';
	if (asprintf(&sigpath, "%s%s", path, MANIFEST_WITNESS_EXT) == -1 ||
	    asprintf(&tmp, "%s.new", sigpath) == -1) {
		free(sigpath);
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	if (lstat(path, &st) == -1) {
		e = cap_error_sys(err, CAP_ESYS, path, 0, -1, NULL);
		goto done;
	}
	if (lstat(sigpath, &st) == 0) {
		e = CAP_EEXIST;
		cap_error_set(err, e, sigpath, 0, -1, "the manifest is "
		    "countersigned already; a countersignature is never "
		    "replaced");
		goto done;
	}
	if ((e = cap_file_write(tmp, sigtext, 0644, 0, err)) != CAP_OK)
		goto done;
	if ((e = sign_verify_to(w, path, tmp, trusted, tsize, err)) !=
	    CAP_OK) {
		unlink(tmp);
		goto done;
	}
	if (link(tmp, sigpath) == -1) {
		if (errno == EEXIST) {
			e = CAP_EEXIST;
			cap_error_set(err, e, sigpath, 0, -1, "the manifest is "
			    "countersigned already; a countersignature is "
			    "never replaced");
		} else
			e = cap_error_sys(err, CAP_ESYS, sigpath, 0, -1, NULL);
	}
	unlink(tmp);
done:
	free(tmp);
	free(sigpath);
	return (e);
}

/*
 * List the witnesses' countersignatures of the manifests before
 * (MANIFEST.witness.minisig in mdir), so that the chain seals them too.
 * -1 when out of memory.
 */
static int
manifest_witnesses(const char *dir, const char *mdir, json_t *files,
    json_t *prev)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	size_t		 n, k = strlen(MANIFEST_WITNESS_EXT);
	char		*p;
	int		 rv = 0;

	if ((d = opendir(mdir)) == NULL)
		return (0);
	while (rv == 0 && (de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (de->d_name[0] == '.' || n <= k ||
		    strcmp(de->d_name + n - k, MANIFEST_WITNESS_EXT) != 0)
			continue;
		if (asprintf(&p, "%s/%s", mdir, de->d_name) == -1) {
			rv = -1;
			break;
		}
		/* No link followed, as for the evidence. */
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
			rv = manifest_add(dir, p, files, prev);
		free(p);
	}
	closedir(d);
	return (rv);
}

/*
 * Write and sign the next manifest of the evidence under roots (and
 * DIR/compliance.txt); its path in *out (the caller's to free).
 */
enum cap_err
manifest_write(const struct manifest_opts *o, char **out,
    struct cap_error *err)
{
	unsigned char	 hash[CAP_CHAIN_BYTES];
	char		 hex[CAP_CHAIN_HEX], stamp[32], id[SIGN_ID_LEN];
	char		*mdir = NULL, *last = NULL, *path = NULL, *text = NULL;
	char		*rel, *compliance = NULL, trusted[512];
	json_t		*m = NULL, *files = NULL, **v = NULL, *prev = NULL;
	struct stat	 st;
	struct tm	 tm;
	int64_t		 size;
	size_t		 i, n;
	int		 seq;
	enum cap_err	 e = CAP_ENOMEM;

	*out = NULL;
	cap_error_clear(err);
	if (sodium_init() == -1 || asprintf(&mdir, "%s/manifests",
	    o->dir) == -1)
		goto nomem;
	if (mkdir(mdir, 0750) == -1 && errno != EEXIST) {
		e = cap_error_sys(err, CAP_ESYS, mdir, 0, -1, NULL);
		goto fail;
	}
	if (manifest_last(mdir, &last, &seq) == -1 ||
	    (prev = manifest_previous(last)) == NULL ||
	    (m = json_object()) == NULL || (files = json_array()) == NULL)
		goto nomem;
	gmtime_r(&o->now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(m, "muxd_manifest", json_integer(
	    MANIFEST_FORMAT));
	json_object_set_new(m, "sequence", json_integer(seq + 1));
	json_object_set_new(m, "why", json_string(o->why));
	if (o->round > 0)
		json_object_set_new(m, "round", json_integer(o->round));
	json_object_set_new(m, "time", json_string(stamp));
	if (o->software != NULL)
		json_object_set_new(m, "software", json_string(o->software));
	if (o->key != NULL)
		json_object_set_new(m, "key", json_string(sign_key_id(
		    o->key->keynum, id)));
	if (o->conf != NULL && cap_file_hash(o->conf, -1, hash,
	    CAP_CHAIN_BYTES, &size, NULL) == CAP_OK)
		json_object_set_new(m, "configuration", json_pack("{sssIss}",
		    "path", o->conf, "size", (json_int_t)size, "blake2b",
		    cap_chain_hex(hash, hex)));
	if (last != NULL && cap_file_hash(last, -1, hash, CAP_CHAIN_BYTES,
	    &size, NULL) == CAP_OK) {
		rel = strrchr(last, '/') + 1;
		json_object_set_new(m, "previous", json_pack("{sisssIss}",
		    "sequence", seq, "path", rel, "size", (json_int_t)size,
		    "blake2b", cap_chain_hex(hash, hex)));
	}
	for (i = 0; i < o->nroots; i++)
		if (o->roots[i] != NULL && manifest_walk(o->dir, o->roots[i],
		    files, prev, 0) == -1)
			goto nomem;
	if (manifest_witnesses(o->dir, mdir, files, prev) == -1)
		goto nomem;
	for (i = 0; i < 2; i++) {
		free(compliance);
		if (asprintf(&compliance, "%s/%s", o->dir, i == 0 ?
		    "compliance.txt" : "ballots.csv") == -1) {
			compliance = NULL;
			goto nomem;
		}
		if (stat(compliance, &st) == 0 && S_ISREG(st.st_mode) &&
		    manifest_add(o->dir, compliance, files, prev) == -1)
			goto nomem;
	}
	/* In path order, each file once (roots may nest). */
	n = json_array_size(files);
	if (n > 0 && (v = calloc(n, sizeof(*v))) == NULL)
		goto nomem;
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(files, i));
	if (n > 1)
		qsort(v, n, sizeof(*v), manifest_cmp);
	json_array_clear(files);
	for (i = 0; i < n; i++) {
		if (i > 0 && manifest_cmp(&v[i - 1], &v[i]) == 0) {
			json_decref(v[i]);
			continue;
		}
		json_array_append_new(files, v[i]);
	}
	free(v);
	json_object_set(m, "files", files);
	if (asprintf(&path, "%s/manifest-%04d.json", mdir, seq + 1) == -1 ||
	    (text = json_dumps(m, JSON_INDENT(1) | JSON_PRESERVE_ORDER)) ==
	    NULL)
		goto nomem;
	if (asprintf(&rel, "%s\n", text) == -1)
		goto nomem;
	free(text);
	text = rel;
	if ((e = cap_file_write(path, text, 0644, 1, err)) != CAP_OK)
		goto fail;
	if (o->key != NULL) {
		snprintf(trusted, sizeof(trusted), "muxd manifest %d: %s, %s, "
		    "%zu files", seq + 1, o->why, stamp,
		    json_array_size(files));
		if ((e = sign_file(o->key, path, trusted, err)) != CAP_OK)
			goto fail;
	}
	*out = path;
	path = NULL;
	e = CAP_OK;
	goto fail;
nomem:
	cap_error_set(err, CAP_ENOMEM, o->dir, 0, -1, "manifest: out of "
	    "memory");
	e = CAP_ENOMEM;
fail:
	free(compliance);
	free(text);
	free(path);
	free(last);
	free(mdir);
	json_decref(prev);
	json_decref(files);
	json_decref(m);
	return (e);
}
