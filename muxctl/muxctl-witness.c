/*
 * muxctl witness [-s referee.key] [SEQ]: a referee countersigns a round
 * manifest.  muxctl asks muxd for the manifest (the newest, or SEQ) in
 * pieces ("witness" with "offset"), signs its text here with the
 * referee's minisign secret key, asking for the key's password on the
 * terminal when it has one, and sends the signature back ("witness" with
 * "signature"); muxd checks it with the room's witness_key and keeps it
 * beside the manifest.  The secret key never leaves this process.
 *
 * muxctl links nothing of the daemon's libraries (it speaks the
 * protocol alone), so minisign's formats are written here with libsodium
 * directly: a secret key file is "untrusted comment: ..." and the base64
 * of "Ed", the key derivation ("\0\0" none, "Sc" scrypt with a
 * password), "B2", a 32-byte salt, the scrypt limits (8 bytes each,
 * little-endian), then the key number, the Ed25519 secret key and the
 * BLAKE2b-256 of "Ed", number and key, those 104 bytes XORed with the
 * scrypt of the password when there is one.  The signature is the room
 * key's kind (capture/sign.c, which muxd checks it with): "ED", the key
 * number, the Ed25519 signature of the manifest's BLAKE2b-512, and the
 * signature of that signature and the trusted comment
 * "muxd manifest N witnessed: WHY, TIME".
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <jansson.h>

#include "muxctl.h"

#define WITNESS_KEYNUM		8
#define WITNESS_SK_LEN		(2 + 2 + 2 + 32 + 8 + 8 + WITNESS_KEYNUM + \
				    crypto_sign_SECRETKEYBYTES + 32)
#define WITNESS_KNS_OFF		54	/* key number, key, checksum */
#define WITNESS_KNS_LEN		(WITNESS_KEYNUM + crypto_sign_SECRETKEYBYTES + 32)
#define WITNESS_FILE_MAX	4096	/* a secret key file */
#define WITNESS_MANIFEST_MAX	(64L << 20)
#define WITNESS_PASS_MAX	1024

struct witness_key {
	unsigned char	keynum[WITNESS_KEYNUM];
	unsigned char	sk[crypto_sign_SECRETKEYBYTES];
};

static struct termios	 witness_tty_saved;
static int		 witness_tty_fd = -1;

static void	witness_load(const char *, struct witness_key *);
static char	*witness_password(const char *);
static void	witness_restore(void);
static void	witness_signal(int);
static char	*witness_default_key(void);
static char	*witness_sign(const struct witness_key *, const unsigned char *,
		    size_t, const char *);
static void	witness_id(const unsigned char *, char *);

/* The key number as minisign prints it: 16 uppercase hex digits. */
static void
witness_id(const unsigned char *keynum, char *id)
{
	unsigned long long	v = 0;
	int			i;

	for (i = WITNESS_KEYNUM - 1; i >= 0; i--)
		v = v << 8 | keynum[i];
	snprintf(id, 17, "%016llX", v);
}

/* minisign's default secret key: $MINISIGN_CONFIG_DIR or ~/.minisign. */
static char *
witness_default_key(void)
{
	const char	*d = getenv("MINISIGN_CONFIG_DIR"), *home;
	char		*p;

	if (d != NULL && *d != '\0') {
		if (asprintf(&p, "%s/minisign.key", d) == -1)
			err(PROTOCOL_EXIT_FAILED, NULL);
		return (p);
	}
	if ((home = getenv("HOME")) == NULL || *home == '\0')
		errx(PROTOCOL_EXIT_USAGE, "witness: no key given (-s) and no "
		    "HOME for ~/.minisign/minisign.key");
	if (asprintf(&p, "%s/.minisign/minisign.key", home) == -1)
		err(PROTOCOL_EXIT_FAILED, NULL);
	return (p);
}

/* Put the terminal back as it was (echo on). */
static void
witness_restore(void)
{
	if (witness_tty_fd != -1) {
		tcsetattr(witness_tty_fd, TCSAFLUSH, &witness_tty_saved);
		close(witness_tty_fd);
		witness_tty_fd = -1;
	}
}

/* A signal while the password is typed: the terminal back, then die. */
static void
witness_signal(int sig)
{
	if (witness_tty_fd != -1)
		tcsetattr(witness_tty_fd, TCSAFLUSH, &witness_tty_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Ask for the key's password on the terminal, without echo; the caller
 * wipes and frees it.
 */
static char *
witness_password(const char *path)
{
	struct sigaction	 sa, old[3];
	static const int	 sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	struct termios		 t;
	char			*pw;
	size_t			 n = 0;
	ssize_t			 r;
	char			 c;
	int			 i;

	if ((witness_tty_fd = open("/dev/tty", O_RDWR | O_CLOEXEC)) == -1)
		errx(PROTOCOL_EXIT_FAILED, "%s: the key has a password, and "
		    "there is no terminal to ask for it on", path);
	if ((pw = sodium_malloc(WITNESS_PASS_MAX)) == NULL)
		err(PROTOCOL_EXIT_FAILED, NULL);
	if (tcgetattr(witness_tty_fd, &witness_tty_saved) == -1)
		err(PROTOCOL_EXIT_FAILED, "/dev/tty");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = witness_signal;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	t = witness_tty_saved;
	t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	t.c_lflag |= ICANON;
	if (tcsetattr(witness_tty_fd, TCSAFLUSH, &t) == -1)
		err(PROTOCOL_EXIT_FAILED, "/dev/tty");
	dprintf(witness_tty_fd, "Password: ");
	for (;;) {
		r = read(witness_tty_fd, &c, 1);
		if (r == -1 && errno == EINTR)
			continue;
		if (r != 1 || c == '\n' || c == '\r')
			break;
		if (n < WITNESS_PASS_MAX - 1)
			pw[n++] = c;
	}
	pw[n] = '\0';
	dprintf(witness_tty_fd, "\n");
	witness_restore();
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (r == -1)
		err(PROTOCOL_EXIT_FAILED, "/dev/tty");
	return (pw);
}

/* Load a minisign secret key file, asking for its password if it has one. */
static void
witness_load(const char *path, struct witness_key *k)
{
	unsigned char	 raw[WITNESS_SK_LEN], chk[32];
	unsigned char	 stream[WITNESS_KNS_LEN];
	unsigned long long ops = 0, mem = 0;
	crypto_generichash_state h;
	char		 text[WITNESS_FILE_MAX + 1], *line, *end;
	size_t		 got, i;
	ssize_t		 n;
	char		*pw;
	int		 fd, enc;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		err(PROTOCOL_EXIT_FAILED, "%s", path);
	n = read(fd, text, WITNESS_FILE_MAX);
	close(fd);
	if (n == -1)
		err(PROTOCOL_EXIT_FAILED, "%s", path);
	text[n] = '\0';
	if (strncmp(text, "untrusted comment: ", 19) != 0 ||
	    (line = strchr(text, '\n')) == NULL)
		errx(PROTOCOL_EXIT_FAILED, "%s: not a minisign secret key", path);
	line++;
	end = line + strcspn(line, "\r\n");
	if (sodium_base642bin(raw, sizeof(raw), line, (size_t)(end - line),
	    NULL, &got, NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    got != sizeof(raw))
		errx(PROTOCOL_EXIT_FAILED, "%s:2: not a minisign secret key",
		    path);
	sodium_memzero(text, sizeof(text));
	if (memcmp(raw, "Ed", 2) != 0 || memcmp(raw + 4, "B2", 2) != 0)
		errx(PROTOCOL_EXIT_FAILED, "%s:2: not an Ed25519 key with a "
		    "BLAKE2b checksum", path);
	if (memcmp(raw + 2, "Sc", 2) == 0) {
		for (i = 0; i < 8; i++) {
			ops |= (unsigned long long)raw[38 + i] << (8 * i);
			mem |= (unsigned long long)raw[46 + i] << (8 * i);
		}
		pw = witness_password(path);
		if (crypto_pwhash_scryptsalsa208sha256(stream, sizeof(stream),
		    pw, strlen(pw), raw + 6, ops, (size_t)mem) != 0)
			errx(PROTOCOL_EXIT_FAILED, "%s: the key's password "
			    "cannot be derived (out of memory?)", path);
		sodium_free(pw);
		for (i = 0; i < sizeof(stream); i++)
			raw[WITNESS_KNS_OFF + i] ^= stream[i];
		sodium_memzero(stream, sizeof(stream));
	} else if (raw[2] != 0 || raw[3] != 0)
		errx(PROTOCOL_EXIT_FAILED, "%s:2: a key derivation other than "
		    "scrypt", path);
	memcpy(k->keynum, raw + WITNESS_KNS_OFF, WITNESS_KEYNUM);
	memcpy(k->sk, raw + WITNESS_KNS_OFF + WITNESS_KEYNUM, sizeof(k->sk));
	crypto_generichash_init(&h, NULL, 0, sizeof(chk));
	crypto_generichash_update(&h, (const unsigned char *)"Ed", 2);
	crypto_generichash_update(&h, k->keynum, WITNESS_KEYNUM);
	crypto_generichash_update(&h, k->sk, sizeof(k->sk));
	crypto_generichash_final(&h, chk, sizeof(chk));
	/* minisign 0.11 leaves the checksum of a key without password zero. */
	enc = memcmp(raw + 2, "Sc", 2) == 0;
	if (!enc && sodium_is_zero(raw + WITNESS_KNS_OFF + WITNESS_KEYNUM +
	    sizeof(k->sk), sizeof(chk)))
		;
	else if (sodium_memcmp(chk, raw + WITNESS_KNS_OFF + WITNESS_KEYNUM +
	    sizeof(k->sk), sizeof(chk)) != 0) {
		sodium_memzero(raw, sizeof(raw));
		sodium_memzero(k, sizeof(*k));
		errx(PROTOCOL_EXIT_FAILED, "%s: %s", path, enc ? "wrong "
		    "password" : "the key's checksum is wrong: a damaged file");
	}
	sodium_memzero(raw, sizeof(raw));
}

/*
 * Sign a manifest's text: the text of its .witness.minisig file, the
 * caller's to free.
 */
static char *
witness_sign(const struct witness_key *k, const unsigned char *m, size_t len,
    const char *trusted)
{
	unsigned char	 hash[crypto_generichash_BYTES_MAX];
	unsigned char	 sig[2 + WITNESS_KEYNUM + crypto_sign_BYTES];
	unsigned char	 global[crypto_sign_BYTES], *g;
	char		 b64s[sodium_base64_ENCODED_LEN(sizeof(sig),
			    sodium_base64_VARIANT_ORIGINAL)];
	char		 b64g[sodium_base64_ENCODED_LEN(sizeof(global),
			    sodium_base64_VARIANT_ORIGINAL)];
	char		 id[17], *text;
	size_t		 tlen = strlen(trusted);

	crypto_generichash(hash, sizeof(hash), m, len, NULL, 0);
	memcpy(sig, "ED", 2);
	memcpy(sig + 2, k->keynum, WITNESS_KEYNUM);
	crypto_sign_detached(sig + 2 + WITNESS_KEYNUM, NULL, hash,
	    sizeof(hash), k->sk);
	if ((g = malloc(crypto_sign_BYTES + tlen)) == NULL)
		err(PROTOCOL_EXIT_FAILED, NULL);
	memcpy(g, sig + 2 + WITNESS_KEYNUM, crypto_sign_BYTES);
	memcpy(g + crypto_sign_BYTES, trusted, tlen);
	crypto_sign_detached(global, NULL, g, crypto_sign_BYTES + tlen, k->sk);
	free(g);
	sodium_bin2base64(b64s, sizeof(b64s), sig, sizeof(sig),
	    sodium_base64_VARIANT_ORIGINAL);
	sodium_bin2base64(b64g, sizeof(b64g), global, sizeof(global),
	    sodium_base64_VARIANT_ORIGINAL);
	witness_id(k->keynum, id);
	if (asprintf(&text, "untrusted comment: countersignature from witness "
	    "key %s\n%s\ntrusted comment: %s\n%s\n", id, b64s, trusted,
	    b64g) == -1)
		err(PROTOCOL_EXIT_FAILED, NULL);
	return (text);
}

/* Countersign a manifest (muxctl witness); an exit status. */
int
muxctl_witness(int argc, char **argv, int json)
{
	struct witness_key	 k;
	unsigned char		*m = NULL, h256[32];
	json_t			*reply, *res, *man;
	const char		*data, *why, *when, *file;
	char			*keypath = NULL, *sigtext, trusted[512], id[17];
	char			 sh[20];
	json_int_t		 size = -1, off = 0;
	size_t			 got;
	int			 ch, seq = 0, i, o;

	optind = 1;
	while ((ch = getopt(argc, argv, "+s:")) != -1) {
		switch (ch) {
		case 's':
			free(keypath);
			if ((keypath = strdup(optarg)) == NULL)
				err(PROTOCOL_EXIT_FAILED, NULL);
			break;
		default:
			protocol_bad_option("muxctl witness", "+s:", argv);
			return (-1);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		return (-1);
	if (argc == 1 && (seq = muxctl_positive(argv[0])) == -1) {
		warnx("witness: not a manifest's number: %s", argv[0]);
		return (-1);
	}
	if (sodium_init() == -1)
		errx(PROTOCOL_EXIT_FAILED, "libsodium does not start");
	if (keypath == NULL)
		keypath = witness_default_key();
	witness_load(keypath, &k);
	witness_id(k.keynum, id);

	/* The manifest, whole, in muxd's pieces. */
	do {
		res = muxctl_ask(protocol_cmd_name(PROTOCOL_CMD_WITNESS),
		    seq > 0 ? json_pack("{sisI}", "sequence", seq, "offset",
		    off) : json_pack("{sI}", "offset", off), &reply);
		data = muxctl_get_str(res, "data");
		if (data == NULL || !json_is_integer(json_object_get(res,
		    "size")) || json_integer_value(json_object_get(res,
		    "offset")) != off || (size != -1 && json_integer_value(
		    json_object_get(res, "size")) != size))
			errx(PROTOCOL_EXIT_PROTOCOL, "witness: a malformed "
			    "reply (or the manifest changed while read)");
		size = json_integer_value(json_object_get(res, "size"));
		seq = (int)json_integer_value(json_object_get(res, "sequence"));
		if (size < 0 || size > WITNESS_MANIFEST_MAX)
			errx(PROTOCOL_EXIT_PROTOCOL, "witness: manifest %04d "
			    "of %lld bytes", seq, (long long)size);
		if (m == NULL && (m = malloc((size_t)size + 1)) == NULL)
			err(PROTOCOL_EXIT_FAILED, NULL);
		if (sodium_base642bin(m + off, (size_t)(size - off), data,
		    strlen(data), NULL, &got, NULL,
		    sodium_base64_VARIANT_ORIGINAL) != 0 ||
		    (got == 0 && off < size))
			errx(PROTOCOL_EXIT_PROTOCOL, "witness: a piece of "
			    "manifest %04d does not decode", seq);
		off += (json_int_t)got;
		json_decref(reply);
	} while (off < size);
	m[size] = '\0';

	/* What is signed, as read here: its number, why, when, short form. */
	if ((man = json_loadb((const char *)m, (size_t)size, 0, NULL)) ==
	    NULL || json_integer_value(json_object_get(man, "sequence")) !=
	    seq)
		errx(PROTOCOL_EXIT_PROTOCOL, "witness: manifest %04d as muxd "
		    "sent it is not a manifest of that number", seq);
	why = muxctl_get_str(man, "why");
	when = muxctl_get_str(man, "time");
	snprintf(trusted, sizeof(trusted), "muxd manifest %d witnessed: %s, "
	    "%s", seq, why != NULL ? why : "?", when != NULL ? when : "?");
	if (strchr(trusted, '\n') != NULL)
		errx(PROTOCOL_EXIT_PROTOCOL, "witness: manifest %04d: a line "
		    "break in its \"why\"", seq);
	crypto_generichash(h256, sizeof(h256), m, (size_t)size, NULL, 0);
	for (i = 0, o = 0; i < 8; i++)
		o += snprintf(sh + o, sizeof(sh) - (size_t)o, "%s%02x",
		    i > 0 && i % 2 == 0 ? " " : "", h256[i]);
	sigtext = witness_sign(&k, m, (size_t)size, trusted);
	sodium_memzero(&k, sizeof(k));
	json_decref(man);
	free(m);

	res = muxctl_ask(protocol_cmd_name(PROTOCOL_CMD_WITNESS),
	    json_pack("{siss}", "sequence", seq, "signature", sigtext), &reply);
	free(sigtext);
	file = muxctl_get_str(res, "file");
	if (json)
		muxctl_print_json(res);
	else
		printf("evidence %04d sealed: %s\ncountersigned with witness "
		    "key %s (%s): %s\n", seq, sh, id, trusted, file != NULL ?
		    file : "?");
	json_decref(reply);
	free(keypath);
	return (PROTOCOL_EXIT_OK);
}
