/*
 * The auditor's checks of a round manifest (manifest.c): its format,
 * its signature with the room's public key, a witness's countersignature
 * (MANIFEST.witness.minisig) with the witness's key, the manifest before
 * it, and every file it lists, each of which must still begin with the
 * bytes it sealed (the captures and the compliance file grow; a
 * transcript or a closed capture does not change).  Paths are taken
 * relative to the directory that holds manifests/, so a copied state
 * directory checks as well.  What the chain of them proves is
 * verify-room.c's.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcripts.h"

#define VERIFY_MANIFEST_MAX	(64UL << 20)

static int	verify_manifest_file(struct verify_report *, const char *,
		    json_t *);
static int	verify_manifest_previous(struct verify_report *,
		    const char *, json_t *, int);
static int	verify_manifest_sign(struct verify_report *, const char *,
		    json_t *, const struct sign_pub *, enum verify_sig *);
static int	verify_manifest_witness(struct verify_report *, const char *,
		    const struct sign_pub *, int *);

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
		return (seq > 1 ? verify_add(rep, VERIFY_CHAIN, 0, -1,
		    "manifest %d names no manifest before it", seq) : 0);
	if (seq <= 1)
		return (verify_add(rep, VERIFY_CHAIN, 0, -1, "manifest %d, the "
		    "room's start, names a manifest before it", seq));
	rel = json_string_value(json_object_get(prev, "path"));
	hex = json_string_value(json_object_get(prev, "blake2b"));
	if (rel == NULL || strchr(rel, '/') != NULL || hex == NULL ||
	    cap_chain_unhex(hex, want) == -1)
		return (verify_add(rep, VERIFY_CHAIN, 0, -1, "the previous "
		    "manifest's entry does not read"));
	if (json_object_get(prev, "sequence") != NULL &&
	    json_integer_value(json_object_get(prev, "sequence")) != seq - 1 &&
	    verify_add(rep, VERIFY_CHAIN, 0, -1, "manifest %d names manifest "
	    "%lld before it, not %d", seq, (long long)json_integer_value(
	    json_object_get(prev, "sequence")), seq - 1) == -1)
		return (-1);
	if (sscanf(rel, "manifest-%d.json", &k) != 1 || k != seq - 1)
		if (verify_add(rep, VERIFY_CHAIN, 0, -1, "manifest %d "
		    "follows %s, not manifest %d: one was removed", seq, rel,
		    seq - 1) == -1)
			return (-1);
	s = strrchr(path, '/');
	if (asprintf(&p, "%.*s%s", s != NULL ? (int)(s - path + 1) : 0, path,
	    rel) == -1)
		return (-1);
	if (cap_file_hash(p, -1, got, CAP_CHAIN_BYTES, &n, &e) != CAP_OK)
		rv = verify_add(rep, VERIFY_CHAIN, 0, -1, "the manifest "
		    "before it, %s, is missing", rel);
	else if (memcmp(want, got, sizeof(want)) != 0)
		rv = verify_add(rep, VERIFY_CHAIN, 0, -1, "the manifest "
		    "before it, %s, is not the one this one sealed: it was "
		    "changed or replaced", rel);
	else
		rv = 0;
	free(p);
	return (rv);
}

/*
 * Check a manifest's signature with the key (NULL: not checked, a note
 * says so); how it went in *sig.  -1 when out of memory.
 */
static int
verify_manifest_sign(struct verify_report *rep, const char *path, json_t *m,
    const struct sign_pub *pub, enum verify_sig *sig)
{
	struct cap_error	 e;
	char			 trusted[512], id[SIGN_ID_LEN];
	const char		*named;
	struct stat		 st;
	char			*sigpath;
	int			 have;

	named = json_string_value(json_object_get(m, "key"));
	if (asprintf(&sigpath, "%s.minisig", path) == -1)
		return (-1);
	have = stat(sigpath, &st) == 0;
	free(sigpath);
	if (!have && named == NULL) {
		*sig = VERIFY_SIG_UNSIGNED;
		return (verify_add(rep, VERIFY_KEY, 0, -1, "not signed, and it "
		    "names no room key: muxd had none when it wrote it"));
	}
	if (pub == NULL) {
		*sig = VERIFY_SIG_UNCHECKED;
		return (verify_add(rep, VERIFY_NOTE, 0, -1, "signature not "
		    "checked: no public key (-k room.pub)"));
	}
	sign_key_id(pub->keynum, id);
	if (named != NULL && strcmp(named, id) != 0) {
		*sig = VERIFY_SIG_OTHER;
		return (verify_add(rep, VERIFY_KEY, 0, -1, "signed with room "
		    "key %s, it says, not with key %s (the key given)", named,
		    id));
	}
	if (sign_verify_file(pub, path, trusted, sizeof(trusted), &e) ==
	    CAP_OK) {
		*sig = VERIFY_SIG_OK;
		return (verify_add(rep, VERIFY_NOTE, 0, -1, "signed: %s",
		    trusted));
	}
	if (e.code == CAP_ENOMEM)
		return (-1);
	if (named == NULL && strncmp(e.msg, "signed with key ", 16) == 0) {
		*sig = VERIFY_SIG_OTHER;
		return (verify_add(rep, VERIFY_KEY, 0, -1, "%s", e.msg));
	}
	*sig = VERIFY_SIG_BAD;
	return (verify_add(rep, VERIFY_SIGNATURE, 0, -1, "%s%s%s",
	    e.sys == ENOENT ? "not signed: " : "", e.sys == ENOENT ? e.file :
	    "", e.sys == ENOENT ? " is missing" : e.msg));
}

/*
 * Check a witness's countersignature when there is one: with the
 * witness's key, or a note when none was given.  *witnessed: 1 good, -1
 * bad, 0 none.  -1 when out of memory.
 */
static int
verify_manifest_witness(struct verify_report *rep, const char *path,
    const struct sign_pub *w, int *witnessed)
{
	struct cap_error	 e;
	struct stat		 st;
	char			*sigpath, trusted[512];
	int			 rv;

	*witnessed = 0;
	if (asprintf(&sigpath, "%s%s", path, MANIFEST_WITNESS_EXT) == -1)
		return (-1);
	if (stat(sigpath, &st) == -1) {
		free(sigpath);
		return (0);
	}
	if (w == NULL)
		rv = verify_add(rep, VERIFY_NOTE, 0, -1, "countersigned in %s, "
		    "not checked: no witness key (-w)", sigpath);
	else if (sign_verify_to(w, path, sigpath, trusted, sizeof(trusted),
	    &e) == CAP_OK) {
		*witnessed = 1;
		rv = verify_add(rep, VERIFY_NOTE, 0, -1, "witnessed: %s",
		    trusted);
	} else if (e.code == CAP_ENOMEM)
		rv = -1;
	else {
		*witnessed = -1;
		rv = verify_add(rep, VERIFY_WITNESS, 0, -1, "the "
		    "countersignature %s does not verify with the witness's "
		    "key: %s", sigpath, e.msg);
	}
	free(sigpath);
	return (rv);
}

/*
 * Check a manifest into rep, with the room's public key and the witness's
 * (verify_room_key(), verify_room_witness()), and add it to the room's
 * chain.  CAP_OK whatever was found, or CAP_ENOMEM.
 */
enum cap_err
verify_manifest(const char *path, struct verify_room *room,
    struct verify_report *rep, struct cap_error *err)
{
	struct cap_error	 e;
	json_error_t		 je;
	json_t			*m = NULL, *files, *f;
	char			*text = NULL, *base = NULL;
	const char		*s;
	enum verify_sig		 sig;
	unsigned char		 hash[CAP_CHAIN_BYTES];
	char			 hex[CAP_CHAIN_HEX], sh[MANIFEST_SHORT_LEN];
	size_t			 len, i;
	int			 seq, k, format, witnessed;

	if (cap_file_read(path, VERIFY_MANIFEST_MAX, &text, &len, &e) !=
	    CAP_OK) {
		if (verify_add(rep, VERIFY_OPEN, 0, -1, "%s", e.msg) == -1)
			goto nomem;
		return (CAP_OK);
	}
	if ((m = json_loadb(text, len, 0, &je)) == NULL ||
	    !json_is_object(m) || (format = (int)json_integer_value(
	    json_object_get(m, "muxd_manifest"))) < 1 ||
	    format > MANIFEST_FORMAT) {
		if (verify_add(rep, VERIFY_HEADER, m == NULL ? (unsigned long)
		    je.line : 0, m == NULL ? je.position : -1, "not a muxd "
		    "manifest%s%s", m == NULL ? ": " : "", m == NULL ?
		    je.text : "") == -1)
			goto nomem;
		goto done;
	}
	seq = (int)json_integer_value(json_object_get(m, "sequence"));
	/* Its short form, as the judges' terminals showed it. */
	crypto_generichash(hash, sizeof(hash), (const unsigned char *)text,
	    len, NULL, 0);
	cap_chain_hex(hash, hex);
	if (verify_add(rep, VERIFY_NOTE, 0, -1, "evidence %04d sealed: %s",
	    seq, manifest_short(hash, sh)) == -1)
		goto nomem;
	if (format < MANIFEST_FORMAT && verify_add(rep, VERIFY_OLDFORMAT, 0,
	    -1, "format %d, written before the manifests formed a chain: "
	    "its start after a crash is told from the manifest before it",
	    format) == -1)
		goto nomem;
	s = strrchr(path, '/');
	s = s != NULL ? s + 1 : path;
	if ((sscanf(s, "manifest-%d.json", &k) != 1 || k != seq) &&
	    verify_add(rep, VERIFY_CHAIN, 0, -1, "the file name says "
	    "manifest %s, the manifest says %d", s, seq) == -1)
		goto nomem;
	if (verify_manifest_sign(rep, path, m, verify_room_key(room),
	    &sig) == -1 || verify_manifest_witness(rep, path,
	    verify_room_witness(room), &witnessed) == -1)
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
	if (verify_room_add(room, path, m, sig, witnessed, hex) == -1)
		goto nomem;
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
