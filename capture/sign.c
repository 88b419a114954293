/*
 * Room keys and signatures in minisign's formats (Ed25519, libsodium), so
 * that an auditor checks a signed file with minisign(1) itself:
 *
 *   minisign -Vm FILE -p room.pub
 *
 * A public key file is "untrusted comment: ..." and the base64 of "Ed",
 * the 8-byte key number and the 32-byte key.  A secret key file is
 * minisign's, unencrypted (its key derivation "\0\0"): "Ed", "\0\0",
 * "B2", 48 zero bytes (salt and limits), the key number, the 64-byte
 * secret key and a BLAKE2b-256 checksum of "Ed", number and key.  A
 * signature (FILE.minisig) is "untrusted comment: ...", the base64 of
 * "ED", the key number and the Ed25519 signature of the file's
 * BLAKE2b-512, "trusted comment: TEXT", and the base64 of the signature
 * of that signature followed by TEXT.
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define SIGN_SECRET_LEN	(2 + 2 + 2 + 32 + 8 + 8 + SIGN_KEYNUM + \
			    crypto_sign_SECRETKEYBYTES + 32)
#define SIGN_PUBLIC_LEN	(2 + SIGN_KEYNUM + crypto_sign_PUBLICKEYBYTES)
#define SIGN_SIG_LEN	(2 + SIGN_KEYNUM + crypto_sign_BYTES)
#define SIGN_FILE_MAX	(64 * 1024)	/* a key or signature file */

static int	sign_b64_line(const char *, size_t *, const char **,
		    unsigned char *, size_t, size_t *);
static enum cap_err sign_read(const char *, char **, size_t *,
		    struct cap_error *);
static void	sign_checksum(const struct sign_key *, unsigned char *);

/* The key number as minisign prints it: 16 uppercase hex digits. */
char *
sign_key_id(const unsigned char *keynum, char *id)
{
	uint64_t	v = 0;
	int		i;

	for (i = SIGN_KEYNUM - 1; i >= 0; i--)
		v = v << 8 | keynum[i];
	snprintf(id, SIGN_ID_LEN, "%016llX", (unsigned long long)v);
	return (id);
}

/* The checksum of a secret key: BLAKE2b-256 of "Ed", number and key. */
static void
sign_checksum(const struct sign_key *k, unsigned char *chk)
{
	crypto_generichash_state	st;

	crypto_generichash_init(&st, NULL, 0, 32);
	crypto_generichash_update(&st, (const unsigned char *)"Ed", 2);
	crypto_generichash_update(&st, k->keynum, SIGN_KEYNUM);
	crypto_generichash_update(&st, k->sk, sizeof(k->sk));
	crypto_generichash_final(&st, chk, 32);
}

/* Read a small file whole. */
static enum cap_err
sign_read(const char *path, char **buf, size_t *len, struct cap_error *err)
{
	return (cap_file_read(path, SIGN_FILE_MAX, buf, len, err));
}

/*
 * Take the base64 line that follows a comment line starting with word,
 * from *off in text: its bytes (exactly want of them) in out.  -1 when
 * the lines are not there or the base64 does not read.
 */
static int
sign_b64_line(const char *text, size_t *off, const char **comment,
    unsigned char *out, size_t want, size_t *got)
{
	const char	*p = text + *off, *nl, *b;
	size_t		 n;

	*comment = p;
	if ((nl = strchr(p, '\n')) == NULL)
		return (-1);
	b = nl + 1;
	n = strcspn(b, "\r\n");
	if (sodium_base642bin(out, want, b, n, NULL, got, NULL,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || *got != want)
		return (-1);
	b += n;
	while (*b == '\r' || *b == '\n')
		b++;
	*off = (size_t)(b - text);
	return (0);
}

/*
 * Make a room key pair: the secret key at seckey (created, mode 0600,
 * never overwritten) and the public key at pubkey (replaced).
 */
enum cap_err
sign_keygen(const char *seckey, const char *pubkey, struct sign_key *k,
    struct cap_error *err)
{
	unsigned char	 raw[SIGN_SECRET_LEN], pub[SIGN_PUBLIC_LEN];
	unsigned char	 pk[crypto_sign_PUBLICKEYBYTES];
	char		 b64[sodium_base64_ENCODED_LEN(SIGN_SECRET_LEN,
			    sodium_base64_VARIANT_ORIGINAL)];
	char		 text[1024], id[SIGN_ID_LEN];
	unsigned char	*p = raw;
	enum cap_err	 e;

	cap_error_clear(err);
	if (sodium_init() == -1) {
		cap_error_set(err, CAP_ESYS, seckey, 0, -1,
		    "libsodium does not start");
		return (CAP_ESYS);
	}
	crypto_sign_keypair(pk, k->sk);
	randombytes_buf(k->keynum, SIGN_KEYNUM);
	memset(raw, 0, sizeof(raw));
	memcpy(p, "Ed", 2);
	p += 2 + 2;			/* no key derivation: "\0\0" */
	memcpy(p, "B2", 2);
	p += 2 + 32 + 8 + 8;		/* salt, limits: unused */
	memcpy(p, k->keynum, SIGN_KEYNUM);
	p += SIGN_KEYNUM;
	memcpy(p, k->sk, sizeof(k->sk));
	p += sizeof(k->sk);
	sign_checksum(k, p);
	sodium_bin2base64(b64, sizeof(b64), raw, sizeof(raw),
	    sodium_base64_VARIANT_ORIGINAL);
	sodium_memzero(raw, sizeof(raw));
	snprintf(text, sizeof(text), "untrusted comment: muxd room secret key "
	    "%s (minisign format, no password)\n%s\n", sign_key_id(k->keynum,
	    id), b64);
	sodium_memzero(b64, sizeof(b64));
	e = cap_file_write(seckey, text, 0600, 1, err);
	sodium_memzero(text, sizeof(text));
	if (e != CAP_OK)
		return (e);
	memcpy(pub, "Ed", 2);
	memcpy(pub + 2, k->keynum, SIGN_KEYNUM);
	memcpy(pub + 2 + SIGN_KEYNUM, pk, sizeof(pk));
	sodium_bin2base64(b64, sizeof(b64), pub, sizeof(pub),
	    sodium_base64_VARIANT_ORIGINAL);
	snprintf(text, sizeof(text), "untrusted comment: minisign public key "
	    "%s\n%s\n", id, b64);
	return (cap_file_write(pubkey, text, 0644, 0, err));
}

/* Load a secret key file (minisign's, unencrypted). */
enum cap_err
sign_load_secret(const char *path, struct sign_key *k, struct cap_error *err)
{
	unsigned char	 raw[SIGN_SECRET_LEN], chk[32];
	const char	*comment;
	char		*text;
	size_t		 len, off = 0, got;
	enum cap_err	 e;

	cap_error_clear(err);
	if (sodium_init() == -1) {
		cap_error_set(err, CAP_ESYS, path, 0, -1,
		    "libsodium does not start");
		return (CAP_ESYS);
	}
	if ((e = sign_read(path, &text, &len, err)) != CAP_OK)
		return (e);
	e = CAP_EHEADER;
	if (strncmp(text, "untrusted comment: ", 19) != 0 ||
	    sign_b64_line(text, &off, &comment, raw, sizeof(raw), &got) == -1)
		cap_error_set(err, e, path, 2, -1, "not a minisign secret key");
	else if (memcmp(raw, "Ed", 2) != 0 || memcmp(raw + 4, "B2", 2) != 0)
		cap_error_set(err, e, path, 2, -1, "not an Ed25519 key with a "
		    "BLAKE2b checksum");
	else if (raw[2] != 0 || raw[3] != 0)
		cap_error_set(err, e, path, 2, -1, "the key is encrypted with "
		    "a password; muxd needs one without (minisign -G -W)");
	else {
		memcpy(k->keynum, raw + 54, SIGN_KEYNUM);
		memcpy(k->sk, raw + 54 + SIGN_KEYNUM, sizeof(k->sk));
		sign_checksum(k, chk);
		/*
		 * minisign 0.11 leaves the checksum of a key without a
		 * password zero (minisign -G -W).
		 */
		if (!sodium_is_zero(raw + 54 + SIGN_KEYNUM + sizeof(k->sk),
		    sizeof(chk)) && sodium_memcmp(chk, raw + 54 + SIGN_KEYNUM +
		    sizeof(k->sk), sizeof(chk)) != 0)
			cap_error_set(err, e, path, 2, -1, "the key's checksum "
			    "is wrong: a damaged file");
		else
			e = CAP_OK;
	}
	sodium_memzero(raw, sizeof(raw));
	sodium_memzero(text, len);
	free(text);
	return (e);
}

/* Wipe a key from memory. */
void
sign_key_forget(struct sign_key *k)
{
	sodium_memzero(k, sizeof(*k));
}

/* The public half of a secret key. */
void
sign_public_of(const struct sign_key *k, struct sign_pub *p)
{
	memcpy(p->keynum, k->keynum, SIGN_KEYNUM);
	crypto_sign_ed25519_sk_to_pk(p->pk, k->sk);
}

/* Load a public key file (minisign's, signify's). */
enum cap_err
sign_load_public(const char *path, struct sign_pub *p, struct cap_error *err)
{
	unsigned char	 raw[SIGN_PUBLIC_LEN];
	const char	*comment;
	char		*text;
	size_t		 len, off = 0, got;
	enum cap_err	 e = CAP_OK;

	cap_error_clear(err);
	if ((e = sign_read(path, &text, &len, err)) != CAP_OK)
		return (e);
	if (sodium_init() == -1 || strncmp(text, "untrusted comment: ", 19) !=
	    0 || sign_b64_line(text, &off, &comment, raw, sizeof(raw),
	    &got) == -1 || memcmp(raw, "Ed", 2) != 0) {
		cap_error_set(err, CAP_EHEADER, path, 2, -1, "not a minisign "
		    "public key");
		e = CAP_EHEADER;
	} else {
		memcpy(p->keynum, raw + 2, SIGN_KEYNUM);
		memcpy(p->pk, raw + 2 + SIGN_KEYNUM, sizeof(p->pk));
	}
	free(text);
	return (e);
}

/*
 * Sign a file: write PATH.minisig, with a trusted comment (one line,
 * signed too).
 */
enum cap_err
sign_file(const struct sign_key *k, const char *path, const char *trusted,
    struct cap_error *err)
{
	char		*sigpath;
	enum cap_err	 e;

	if (asprintf(&sigpath, "%s.minisig", path) == -1) {
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	e = sign_file_to(k, path, sigpath, "signature from muxd room key",
	    trusted, err);
	free(sigpath);
	return (e);
}

/*
 * Sign a file into the signature file sigpath (replaced), its untrusted
 * comment "WHO ID", with a trusted comment (one line, signed too).
 */
enum cap_err
sign_file_to(const struct sign_key *k, const char *path, const char *sigpath,
    const char *who, const char *trusted, struct cap_error *err)
{
	unsigned char	 hash[crypto_generichash_BYTES_MAX];
	unsigned char	 sig[SIGN_SIG_LEN], global[crypto_sign_BYTES];
	unsigned char	*m;
	char		 b64s[sodium_base64_ENCODED_LEN(SIGN_SIG_LEN,
			    sodium_base64_VARIANT_ORIGINAL)];
	char		 b64g[sodium_base64_ENCODED_LEN(crypto_sign_BYTES,
			    sodium_base64_VARIANT_ORIGINAL)];
	char		*text = NULL, id[SIGN_ID_LEN];
	size_t		 tlen = strlen(trusted);
	int64_t		 hashed;
	enum cap_err	 e;

	cap_error_clear(err);
	if (strchr(trusted, '\n') != NULL) {
		cap_error_set(err, CAP_EINVAL, path, 0, -1, "a trusted comment "
		    "is one line");
		return (CAP_EINVAL);
	}
	if ((e = cap_file_hash(path, -1, hash, sizeof(hash), &hashed,
	    err)) != CAP_OK)
		return (e);
	memcpy(sig, "ED", 2);
	memcpy(sig + 2, k->keynum, SIGN_KEYNUM);
	crypto_sign_detached(sig + 2 + SIGN_KEYNUM, NULL, hash, sizeof(hash),
	    k->sk);
	if ((m = malloc(crypto_sign_BYTES + tlen)) == NULL)
		goto nomem;
	memcpy(m, sig + 2 + SIGN_KEYNUM, crypto_sign_BYTES);
	memcpy(m + crypto_sign_BYTES, trusted, tlen);
	crypto_sign_detached(global, NULL, m, crypto_sign_BYTES + tlen, k->sk);
	free(m);
	sodium_bin2base64(b64s, sizeof(b64s), sig, sizeof(sig),
	    sodium_base64_VARIANT_ORIGINAL);
	sodium_bin2base64(b64g, sizeof(b64g), global, sizeof(global),
	    sodium_base64_VARIANT_ORIGINAL);
	if (asprintf(&text, "untrusted comment: %s %s\n%s\ntrusted comment: "
	    "%s\n%s\n", who, sign_key_id(k->keynum, id), b64s, trusted,
	    b64g) == -1)
		goto nomem;
	e = cap_file_write(sigpath, text, 0644, 0, err);
	free(text);
	return (e);
nomem:
	cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
	return (CAP_ENOMEM);
}

/*
 * Check a file's signature (PATH.minisig) with a public key; its trusted
 * comment in trusted.  CAP_OK when it is good; otherwise err says why.
 */
enum cap_err
sign_verify_file(const struct sign_pub *p, const char *path, char *trusted,
    size_t tsize, struct cap_error *err)
{
	char		*sigpath;
	enum cap_err	 e;

	if (asprintf(&sigpath, "%s.minisig", path) == -1) {
		trusted[0] = '\0';
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	e = sign_verify_to(p, path, sigpath, trusted, tsize, err);
	free(sigpath);
	return (e);
}

/*
 * Check a file's signature in the signature file sigpath with a public
 * key; its trusted comment in trusted.  CAP_OK when it is good, else err
 * says why (a signature by another key: CAP_EHEADER, the message naming
 * both keys).
 */
enum cap_err
sign_verify_to(const struct sign_pub *p, const char *path, const char *sigpath,
    char *trusted, size_t tsize, struct cap_error *err)
{
	unsigned char	 hash[crypto_generichash_BYTES_MAX];
	unsigned char	 sig[SIGN_SIG_LEN], global[crypto_sign_BYTES], *m;
	const char	*comment, *t;
	char		*text = NULL, id[SIGN_ID_LEN];
	char		 id2[SIGN_ID_LEN];
	size_t		 len, off = 0, got, tlen;
	int64_t		 hashed;
	enum cap_err	 e;

	cap_error_clear(err);
	trusted[0] = '\0';
	if ((e = sign_read(sigpath, &text, &len, err)) != CAP_OK)
		return (e);
	e = CAP_EHEADER;
	if (sodium_init() == -1 || strncmp(text, "untrusted comment: ", 19) !=
	    0 || sign_b64_line(text, &off, &comment, sig, sizeof(sig),
	    &got) == -1 || strncmp(text + off, "trusted comment: ", 17) != 0 ||
	    sign_b64_line(text, &off, &t, global, sizeof(global), &got) == -1) {
		cap_error_set(err, e, sigpath, 0, -1, "not a minisign "
		    "signature");
		goto done;
	}
	t += 17;
	tlen = strcspn(t, "\n");
	snprintf(trusted, tsize, "%.*s", (int)tlen, t);
	if (memcmp(sig, "ED", 2) != 0) {
		cap_error_set(err, e, sigpath, 2, -1, "not a prehashed "
		    "(\"ED\") signature");
		goto done;
	}
	if (memcmp(sig + 2, p->keynum, SIGN_KEYNUM) != 0) {
		cap_error_set(err, e, sigpath, 2, -1, "signed with key %s, "
		    "not with key %s", sign_key_id(sig + 2, id),
		    sign_key_id(p->keynum, id2));
		goto done;
	}
	if (cap_file_hash(path, -1, hash, sizeof(hash), &hashed, err) !=
	    CAP_OK) {
		e = err->code;
		goto done;
	}
	if (crypto_sign_verify_detached(sig + 2 + SIGN_KEYNUM, hash,
	    sizeof(hash), p->pk) != 0) {
		cap_error_set(err, e, path, 0, -1, "the signature does not "
		    "match the file: it was changed after it was signed");
		goto done;
	}
	if ((m = malloc(crypto_sign_BYTES + tlen)) == NULL) {
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		e = CAP_ENOMEM;
		goto done;
	}
	memcpy(m, sig + 2 + SIGN_KEYNUM, crypto_sign_BYTES);
	memcpy(m + crypto_sign_BYTES, t, tlen);
	if (crypto_sign_verify_detached(global, m, crypto_sign_BYTES + tlen,
	    p->pk) != 0)
		cap_error_set(err, e, sigpath, 3, -1, "the trusted comment "
		    "was changed after it was signed");
	else
		e = CAP_OK;
	free(m);
done:
	free(text);
	return (e);
}
