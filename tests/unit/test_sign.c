/*
 * Unit tests for room keys and signatures (capture/sign.c): a key
 * made, loaded back, a file signed and verified; a changed file, a
 * changed trusted comment and another key all fail; and minisign(1)
 * itself verifies our signature with our public key and signs with our
 * secret key a file that we verify.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "capture.h"

static char	dir[64];
static char	seckey[128], pubkey[128], file[128];

static void	put(const char *, const char *);
static int	run(const char *, ...) __attribute__((format(printf, 1, 2)));

/* Write a file. */
static void
put(const char *path, const char *text)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs(text, f) != EOF);
	assert_int_equal(fclose(f), 0);
}

/* Run a shell command, quietly; its exit status. */
static int
run(const char *fmt, ...)
{
	char	cmd[1024];
	va_list	ap;
	int	st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return (WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Set up: a directory, a key pair, a file. */
static int
setup(void **state)
{
	struct sign_key		k;
	struct cap_error	e;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_sign.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return (-1);
	snprintf(seckey, sizeof(seckey), "%s/room.key", dir);
	snprintf(pubkey, sizeof(pubkey), "%s/room.pub", dir);
	snprintf(file, sizeof(file), "%s/manifest.json", dir);
	if (sign_keygen(seckey, pubkey, &k, &e) != CAP_OK)
		return (-1);
	put(file, "{\"files\": []}\n");
	return (0);
}

/* Tear down. */
static int
teardown(void **state)
{
	(void)state;
	return (run("rm -rf %s", dir));
}

/* The key files: the secret one private and never overwritten. */
static void
test_keygen(void **state)
{
	struct sign_key		k, k2;
	struct sign_pub		p, p2;
	struct cap_error	e;
	struct stat		st;
	char			id[SIGN_ID_LEN];

	(void)state;
	assert_int_equal(stat(seckey, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(sign_load_secret(seckey, &k, &e), CAP_OK);
	assert_int_equal(sign_load_public(pubkey, &p, &e), CAP_OK);
	sign_public_of(&k, &p2);
	assert_memory_equal(&p, &p2, sizeof(p));
	assert_int_equal(sign_keygen(seckey, pubkey, &k2, &e), CAP_EEXIST);
	assert_int_equal(sign_load_secret(seckey, &k2, &e), CAP_OK);
	assert_memory_equal(&k, &k2, sizeof(k));
	assert_int_equal(strlen(sign_key_id(k.keynum, id)), 16);
	/* A public key is not a secret key, and the reverse. */
	assert_int_equal(sign_load_secret(pubkey, &k2, &e), CAP_EHEADER);
	assert_int_equal(sign_load_public(file, &p2, &e), CAP_EHEADER);
}

/*
 * Write the secret key again with its checksum set to c (every byte),
 * into path.
 */
static void
rekey(const char *path, int c)
{
	char		 line1[256], line2[512], b64[512];
	unsigned char	 raw[256];
	size_t		 len;
	FILE		*f;

	assert_non_null(f = fopen(seckey, "r"));
	assert_non_null(fgets(line1, sizeof(line1), f));
	assert_non_null(fgets(line2, sizeof(line2), f));
	fclose(f);
	assert_int_equal(sodium_base642bin(raw, sizeof(raw), line2,
	    strcspn(line2, "\n"), NULL, &len, NULL,
	    sodium_base64_VARIANT_ORIGINAL), 0);
	assert_true(len > 32);
	memset(raw + len - 32, c, 32);
	sodium_bin2base64(b64, sizeof(b64), raw, len,
	    sodium_base64_VARIANT_ORIGINAL);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s%s\n", line1, b64);
	fclose(f);
}

/*
 * A key without a password as minisign 0.11 writes it (minisign -G -W:
 * its checksum left zero) is taken; a checksum that is wrong is not.
 */
static void
test_keygen_minisign(void **state)
{
	struct sign_key		k, k2;
	struct cap_error	e;
	char			path[160];

	(void)state;
	snprintf(path, sizeof(path), "%s/minisign.key", dir);
	assert_int_equal(sign_load_secret(seckey, &k, &e), CAP_OK);
	rekey(path, 0);
	assert_int_equal(sign_load_secret(path, &k2, &e), CAP_OK);
	assert_memory_equal(&k, &k2, sizeof(k));
	rekey(path, 0x5a);
	assert_int_equal(sign_load_secret(path, &k2, &e), CAP_EHEADER);
	assert_non_null(strstr(e.msg, "checksum is wrong"));
}

/* Signed and verified; then every change fails, with its reason. */
static void
test_sign_verify(void **state)
{
	struct sign_key		k, k2;
	struct sign_pub		p, p2;
	struct cap_error	e;
	char			trusted[256], other[160], path[160];

	(void)state;
	assert_int_equal(sign_load_secret(seckey, &k, &e), CAP_OK);
	sign_public_of(&k, &p);
	assert_int_equal(sign_file(&k, file, "muxd manifest 1: round 1 end",
	    &e), CAP_OK);
	assert_int_equal(sign_verify_file(&p, file, trusted, sizeof(trusted),
	    &e), CAP_OK);
	assert_string_equal(trusted, "muxd manifest 1: round 1 end");

	/* The file changed. */
	snprintf(path, sizeof(path), "%s/changed.json", dir);
	put(path, "{\"files\": [1]}\n");
	assert_int_equal(run("cp %s.minisig %s.minisig", file, path), 0);
	assert_int_equal(sign_verify_file(&p, path, trusted, sizeof(trusted),
	    &e), CAP_EHEADER);
	assert_non_null(strstr(e.msg, "changed after it was signed"));

	/* The trusted comment changed. */
	assert_int_equal(run("cp %s %s && sed 's/round 1 end/round 2 end/' "
	    "%s.minisig >%s.minisig", file, path, file, path), 0);
	assert_int_equal(sign_verify_file(&p, path, trusted, sizeof(trusted),
	    &e), CAP_EHEADER);
	assert_non_null(strstr(e.msg, "trusted comment"));

	/* Another room's key. */
	snprintf(other, sizeof(other), "%s/other.key", dir);
	snprintf(path, sizeof(path), "%s/other.pub", dir);
	assert_int_equal(sign_keygen(other, path, &k2, &e), CAP_OK);
	sign_public_of(&k2, &p2);
	assert_int_equal(sign_verify_file(&p2, file, trusted,
	    sizeof(trusted), &e), CAP_EHEADER);
	assert_non_null(strstr(e.msg, "signed with key"));
}

/* minisign(1) reads our public key, signatures and secret key. */
static void
test_minisign(void **state)
{
	struct sign_pub		p;
	struct cap_error	e;
	char			trusted[256], path[160];

	(void)state;
	if (run("command -v minisign >/dev/null") != 0)
		fail_msg("minisign is not installed (Debian minisign)");
	assert_int_equal(run("minisign -Vm %s -p %s -q", file, pubkey), 0);
	assert_int_equal(run("minisign -Vm %s -p %s -Q | grep -qx "
	    "'muxd manifest 1: round 1 end'", file, pubkey), 0);
	/* A changed file fails minisign too. */
	snprintf(path, sizeof(path), "%s/changed.json", dir);
	assert_int_equal(run("cp %s.minisig %s.minisig && printf x >>%s",
	    file, path, path), 0);
	assert_int_not_equal(run("minisign -Vm %s -p %s -q 2>/dev/null",
	    path, pubkey), 0);
	/* minisign signs with our secret key; we verify it. */
	snprintf(path, sizeof(path), "%s/by-minisign.txt", dir);
	put(path, "signed by minisign\n");
	assert_int_equal(run("minisign -S -s %s -m %s -t 'by minisign' "
	    "</dev/null >/dev/null", seckey, path), 0);
	assert_int_equal(sign_load_public(pubkey, &p, &e), CAP_OK);
	assert_int_equal(sign_verify_file(&p, path, trusted, sizeof(trusted),
	    &e), CAP_OK);
	assert_string_equal(trusted, "by minisign");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keygen),
		cmocka_unit_test(test_keygen_minisign),
		cmocka_unit_test(test_sign_verify),
		cmocka_unit_test(test_minisign),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
