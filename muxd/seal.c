/*
 * Sealing the evidence: the room key, and the round manifests.  At each
 * round's end, at start-up (after a crash, what it left) and at
 * shutdown, muxd lists every capture, transcript and the compliance file
 * with their sizes and hashes in the next manifest of the state
 * directory and signs it with the room key (capture/manifest.c), in
 * minisign's format.  The manifests form a chain from the room's start:
 * a start-up after a run that wrote no shutdown manifest (killed, a
 * crash) writes a "crash recovery" manifest rather than a "start" one.
 * Each manifest's short form (capture/manifest.c) goes to the log and
 * the watchers, and at a round's end to every judge's terminal
 * (round.c), so that people outside the operator's disk write it
 * down.  The key is read before muxd gives up root, so the
 * file can stay root's alone; when it does not exist muxd makes it, and
 * `muxd keygen` makes it beforehand.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "muxd.h"
#include "../capture/capture.h"

_Static_assert(SEAL_SHORT_LEN >= MANIFEST_SHORT_LEN, "SEAL_SHORT_LEN");

static struct sign_key	 seal_key;
static int		 seal_have_key;
static int		 seal_on;

static void	 seal_keygen_owner(const char *, const char *);
static char	*seal_pub_path(const char *);
static int	 seal_find(int, char *, size_t, char *, size_t);

/* The public key's file beside a secret key's: NAME.pub for NAME.key. */
static char *
seal_pub_path(const char *key)
{
	size_t	 n = strlen(key);

	if (n > 4 && strcmp(key + n - 4, ".key") == 0)
		return (xasprintf("%.*s.pub", (int)(n - 4), key));
	return (xasprintf("%s.pub", key));
}

/*
 * Make the room key (muxd keygen): the secret key at the configuration's
 * room_key, never overwritten, the public key beside it.  An exit status.
 */
int
seal_keygen(const struct conf *cf)
{
	struct cap_error	 err;
	struct sign_key		 k;
	char			*pub, id[SIGN_ID_LEN];

	pub = seal_pub_path(cf->room_key);
	if (state_mkdirs(cf->state_dir) == -1)
		log_warn("state directory %s", cf->state_dir);
	if (sign_keygen(cf->room_key, pub, &k, &err) != CAP_OK) {
		fprintf(stderr, "muxd: %s: %s\n", err.file, err.msg);
		free(pub);
		return (1);
	}
	printf("room key %s: secret key %s, public key %s\n",
	    sign_key_id(k.keynum, id), cf->room_key, pub);
	seal_keygen_owner(cf->room_key, pub);
	sign_key_forget(&k);
	free(pub);
	return (0);
}

/*
 * Made by root in a directory of another user's (muxd's state directory,
 * which the service runs as muxd to read): the key files are given to
 * the directory's owner, or muxd could not read its own key.
 */
static void
seal_keygen_owner(const char *key, const char *pub)
{
	struct stat	 st;
	struct passwd	*pw;
	char		*dir, *slash;

	if (geteuid() != 0)
		return;
	dir = xstrdup(key);
	if ((slash = strrchr(dir, '/')) != NULL)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, strlen(dir) + 1, ".");
	if (stat(dir, &st) == 0 && st.st_uid != 0) {
		if (chown(key, st.st_uid, st.st_gid) == -1 ||
		    chown(pub, st.st_uid, st.st_gid) == -1)
			fprintf(stderr, "muxd: %s: chown: %s\n", key,
			    strerror(errno));
		else if ((pw = getpwuid(st.st_uid)) != NULL)
			printf("given to %s, as %s is\n", pw->pw_name, dir);
		else
			printf("given to uid %lu, as %s is\n",
			    (unsigned long)st.st_uid, dir);
	}
	free(dir);
}

/*
 * Read the room key, or make it when there is none; without it the
 * manifests are written unsigned, and that is a fault.
 */
void
seal_init(const struct conf *cf)
{
	struct cap_error	 err;
	char			*pub, id[SIGN_ID_LEN];

	seal_on = cf->capture_dir != NULL;
	if (!seal_on)
		return;
	if (sign_load_secret(cf->room_key, &seal_key, &err) == CAP_OK) {
		seal_have_key = 1;
		log_info("room key %s (%s)", sign_key_id(seal_key.keynum, id),
		    cf->room_key);
		return;
	}
	if (err.code == CAP_ESYS && err.sys == ENOENT) {
		pub = seal_pub_path(cf->room_key);
		if (sign_keygen(cf->room_key, pub, &seal_key, &err) ==
		    CAP_OK) {
			seal_have_key = 1;
			log_info("room key %s made: %s; give the auditors %s",
			    sign_key_id(seal_key.keynum, id), cf->room_key,
			    pub);
			free(pub);
			return;
		}
		free(pub);
	}
	log_warnx("room key %s: %s; manifests are not signed",
	    err.file[0] != '\0' ? err.file : cf->room_key, err.msg);
	events_post(PROTOCOL_EV_FAULT, json_pack("{ssss}", "what", "room key",
	    "error", err.msg));
}

/*
 * Write and sign the next manifest of the evidence, saying why ("round 3
 * end", "start", "shutdown"); a start after a run that ended without its
 * shutdown manifest is a "crash recovery".  Its sequence number, or -1
 * when none was written; its short form ("3f2a 91c0 7be4 5d18",
 * SEAL_SHORT_LEN) in sh when not NULL.  The log and the watchers are
 * told both, as "evidence 0004 sealed: 3f2a 91c0 7be4 5d18".
 */
int
seal_manifest(const char *why, int round, char *sh)
{
	struct manifest_opts	 o;
	struct cap_error	 err;
	const char		*roots[2];
	char			*path, soft[64], last[64], *name;
	char			 shortform[MANIFEST_SHORT_LEN];
	int			 seq;

	if (sh != NULL)
		sh[0] = '\0';
	if (!seal_on || muxd_conf == NULL)
		return (-1);
	if (strcmp(why, "start") == 0) {
		if (manifest_tail(muxd_conf->state_dir, &seq, last,
		    sizeof(last)) == -1)
			fatal("manifest_tail");
		if (seq > 0 && strcmp(last, "shutdown") != 0) {
			why = "crash recovery";
			log_warnx("manifest %d (%s) is the last: the run before "
			    "this one ended without its shutdown manifest", seq,
			    last[0] != '\0' ? last : "unreadable");
		}
	}
	roots[0] = muxd_conf->capture_dir;
	roots[1] = muxd_conf->transcript_dir;
	snprintf(soft, sizeof(soft), "muxd %s", MUXD_VERSION);
	memset(&o, 0, sizeof(o));
	o.dir = muxd_conf->state_dir;
	o.roots = roots;
	o.nroots = 2;
	o.conf = muxd_conf->file;
	o.why = why;
	o.round = round;
	o.software = soft;
	o.key = seal_have_key ? &seal_key : NULL;
	o.now = time(NULL);
	if (manifest_write(&o, &path, &err) != CAP_OK) {
		log_warnx("manifest (%s): %s: %s", why, err.file, err.msg);
		events_post(PROTOCOL_EV_FAULT, json_pack("{ssss}", "what",
		    "manifest", "error", err.msg));
		return (-1);
	}
	name = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	if (sscanf(name, "manifest-%d.json", &seq) != 1)
		seq = 0;
	if (manifest_short_file(path, shortform, &err) != CAP_OK) {
		log_warnx("manifest %s: %s", path, err.msg);
		snprintf(shortform, sizeof(shortform), "?");
	}
	log_info("manifest %s (%s)%s: evidence %04d sealed: %s", path, why,
	    seal_have_key ? "" : ", not signed", seq, shortform);
	events_post(PROTOCOL_EV_MANIFEST, json_pack("{sssssbsiss}", "file",
	    path, "why", why, "signed", seal_have_key, "sequence", seq,
	    "short", shortform));
	if (sh != NULL)
		snprintf(sh, SEAL_SHORT_LEN, "%s", shortform);
	free(path);
	return (seq);
}

/* Forget the key. */
void
seal_shutdown(void)
{
	sign_key_forget(&seal_key);
	seal_have_key = 0;
	seal_on = 0;
}

/*
 * The path of manifest seq (0: the newest) of the state directory, in
 * path (PATH_MAX); its number, or -1 with a message in err.
 */
static int
seal_find(int seq, char *path, size_t size, char *err, size_t errlen)
{
	struct stat	 st;
	char		 why[64];
	int		 last;

	if (manifest_tail(muxd_conf->state_dir, &last, why, sizeof(why)) ==
	    -1)
		fatal("manifest_tail");
	if (seq == 0)
		seq = last;
	if (seq == 0) {
		snprintf(err, errlen, "no manifest written yet");
		return (-1);
	}
	snprintf(path, size, "%s/manifests/manifest-%04d.json",
	    muxd_conf->state_dir, seq);
	if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "no manifest %04d (the last is %04d)",
		    seq, last);
		return (-1);
	}
	return (seq);
}

/*
 * The room's witness key, into *pub; -1 with a message in err when the
 * room writes no manifests, has no witness_key or it does not read.
 */
static int
seal_witness_key(struct sign_pub *pub, char *err, size_t errlen)
{
	struct cap_error	e;

	if (!seal_on || muxd_conf == NULL) {
		snprintf(err, errlen, "this room writes no manifests");
		return (-1);
	}
	if (muxd_conf->witness_key == NULL) {
		snprintf(err, errlen, "the room has no witness_key "
		    "(muxd.conf(5)): no countersignature can be checked");
		return (-1);
	}
	if (sign_load_public(muxd_conf->witness_key, pub, &e) != CAP_OK) {
		snprintf(err, errlen, "witness_key %s: %s",
		    muxd_conf->witness_key, e.msg);
		return (-1);
	}
	return (0);
}

/*
 * A manifest for a witness to countersign (muxctl witness): manifest seq
 * (0: the newest), from byte offset on, at most SEAL_WITNESS_CHUNK bytes
 * of it in base64 ("data"), with its "sequence", "size", "offset",
 * "short" and the witness's key id.  NULL with a message in err.
 */
json_t *
seal_witness_get(int seq, int64_t offset, char *err, size_t errlen)
{
	struct cap_error	 e;
	struct sign_pub		 wpub;
	char			 path[PATH_MAX], sh[MANIFEST_SHORT_LEN];
	char			 id[SIGN_ID_LEN], *b64;
	unsigned char		 buf[SEAL_WITNESS_CHUNK];
	json_t			*o;
	ssize_t			 n;
	off_t			 size;
	int			 fd;

	if (seal_witness_key(&wpub, err, errlen) == -1)
		return (NULL);
	if ((seq = seal_find(seq, path, sizeof(path), err, errlen)) == -1)
		return (NULL);
	memset(&e, 0, sizeof(e));
	if (manifest_short_file(path, sh, &e) != CAP_OK ||
	    (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "manifest %04d: %s", seq,
		    e.msg[0] != '\0' ? e.msg : strerror(errno));
		return (NULL);
	}
	size = lseek(fd, 0, SEEK_END);
	if (size == -1 || offset < 0 || offset > size) {
		close(fd);
		snprintf(err, errlen, "manifest %04d: no byte %lld in its %lld",
		    seq, (long long)offset, (long long)size);
		return (NULL);
	}
	n = pread(fd, buf, sizeof(buf), (off_t)offset);
	close(fd);
	if (n == -1) {
		snprintf(err, errlen, "manifest %04d: %s", seq,
		    strerror(errno));
		return (NULL);
	}
	b64 = xmalloc(sodium_base64_ENCODED_LEN(sizeof(buf),
	    sodium_base64_VARIANT_ORIGINAL));
	sodium_bin2base64(b64, sodium_base64_ENCODED_LEN(sizeof(buf),
	    sodium_base64_VARIANT_ORIGINAL), buf, (size_t)n,
	    sodium_base64_VARIANT_ORIGINAL);
	o = json_pack("{sisIsIssssssss}", "sequence", seq, "size",
	    (json_int_t)size, "offset", (json_int_t)offset, "data", b64,
	    "short", sh, "file", path, "witness_key", sign_key_id(wpub.keynum,
	    id));
	free(b64);
	return (o);
}

/*
 * Keep a witness's countersignature of manifest seq (the text of a
 * minisign signature file), once it verifies with the room's
 * witness_key against the manifest on disk: MANIFEST.witness.minisig,
 * which the next manifest lists.  Logged, and told to the watchers.
 * NULL with a message in err.
 */
json_t *
seal_witness_put(int seq, const char *sig, char *err, size_t errlen)
{
	struct cap_error	 e;
	struct sign_pub		 wpub;
	char			 path[PATH_MAX], sh[MANIFEST_SHORT_LEN];
	char			 id[SIGN_ID_LEN], trusted[512];

	if (seal_witness_key(&wpub, err, errlen) == -1)
		return (NULL);
	sign_key_id(wpub.keynum, id);
	if (seq < 1 || seal_find(seq, path, sizeof(path), err, errlen) ==
	    -1)
		return (NULL);
	if (manifest_countersign(path, sig, &wpub, trusted, sizeof(trusted),
	    &e) != CAP_OK) {
		snprintf(err, errlen, "manifest %04d: countersignature "
		    "refused: %s%s%s (the room's witness_key is %s, key %s)",
		    seq, e.code == CAP_EEXIST ? e.file : "",
		    e.code == CAP_EEXIST ? ": " : "", e.msg,
		    muxd_conf->witness_key, id);
		log_warnx("%s", err);
		return (NULL);
	}
	if (manifest_short_file(path, sh, &e) != CAP_OK)
		snprintf(sh, sizeof(sh), "?");
	log_info("manifest %04d countersigned by witness key %s (%s): "
	    "evidence %04d sealed: %s", seq, id, trusted, seq, sh);
	events_post(PROTOCOL_EV_WITNESS, json_pack("{sissssss+}", "sequence",
	    seq, "key", id, "short", sh, "file", path, MANIFEST_WITNESS_EXT));
	return (json_pack("{sissssssss+}", "sequence", seq, "key", id,
	    "short", sh, "trusted", trusted, "file", path,
	    MANIFEST_WITNESS_EXT));
}
