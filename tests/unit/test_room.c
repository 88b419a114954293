/*
 * Unit tests for the chain of manifests (capture/manifest.c written,
 * transcripts/verify-manifest.c and verify-room.c checked) and the
 * classes of verify's findings: a room's manifests written into a
 * temporary directory and signed, then checked as verify does; a
 * complete chain is intact (0), an open one 4, no key or another key 3,
 * a manifest missing, replayed or of a start after no shutdown 1; a
 * crash recovery is an event; a manifest of format 1 is a finding of its
 * own kind; a witness's countersignature (manifest_witness()) verifies
 * with minisign(1) and with verify, and a bad one is a failure.
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

#include "transcripts.h"

static char		dir[64], mdir[96];
static struct sign_key	key, wkey;
static struct sign_pub	pub, wpub;

static int	run(const char *, ...) __attribute__((format(printf, 1, 2)));
static void	put(const char *, const char *);
static void	seal(int, const char *, const struct sign_key *);
static void	old(int, const char *);
static int	check(const struct sign_pub *, const struct sign_pub *, int,
		    size_t *);

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

/* Write a file. */
static void
put(const char *path, const char *text)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs(text, f) != EOF);
	assert_int_equal(fclose(f), 0);
}

/* Write the next manifest, why, signed with k (NULL: not signed). */
static void
seal(int round, const char *why, const struct sign_key *k)
{
	struct manifest_opts	 o;
	struct cap_error	 e;
	const char		*roots[1];
	char			*path, caps[96];

	snprintf(caps, sizeof(caps), "%s/captures", dir);
	roots[0] = caps;
	memset(&o, 0, sizeof(o));
	o.dir = dir;
	o.roots = roots;
	o.nroots = 1;
	o.why = why;
	o.round = round;
	o.key = k;
	o.now = 1700000000;
	assert_int_equal(manifest_write(&o, &path, &e), CAP_OK);
	free(path);
}

/*
 * Check every manifest of the directory, then the chain, as verify does,
 * with the room key and the witness's (NULL: none); the findings counted
 * by kind into count (VERIFY_COUNT of them).  verify's exit status.
 */
static int
check(const struct sign_pub *k, const struct sign_pub *w, int flags,
    size_t *count)
{
	struct verify_report	 rep;
	struct verify_room	*room;
	struct cap_error	 e;
	size_t			 nclass[VERIFY_C_COUNT];
	char			 path[160];
	int			 i, c;

	memset(nclass, 0, sizeof(nclass));
	memset(count, 0, VERIFY_COUNT * sizeof(*count));
	assert_non_null(room = verify_room_new(k, 1, w));
	for (i = 1; i < 100; i++) {
		snprintf(path, sizeof(path), "%s/manifest-%04d.json", mdir, i);
		if (access(path, F_OK) == -1)
			continue;
		assert_int_equal(verify_report_init(&rep, path), 0);
		assert_int_equal(verify_manifest(path, room, &rep, &e), CAP_OK);
		for (c = 0; c < VERIFY_COUNT; c++)
			count[c] += rep.count[c];
		for (c = 0; c < VERIFY_C_COUNT; c++)
			nclass[c] += rep.nclass[c];
		verify_report_free(&rep);
	}
	assert_int_equal(verify_report_init(&rep, mdir), 0);
	assert_int_equal(verify_room_finish(room, flags | VERIFY_ROOM_WALKED,
	    &rep), 0);
	for (c = 0; c < VERIFY_COUNT; c++)
		count[c] += rep.count[c];
	for (c = 0; c < VERIFY_C_COUNT; c++)
		nclass[c] += rep.nclass[c];
	verify_report_free(&rep);
	verify_room_free(room);
	return (verify_status(nclass));
}

/* Set up: a directory with a capture, the room key, a witness's key. */
static int
setup(void **state)
{
	struct cap_error	e;
	char			p[160], q[160];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_room.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return (-1);
	snprintf(mdir, sizeof(mdir), "%s/manifests", dir);
	snprintf(p, sizeof(p), "%s/captures", dir);
	if (mkdir(p, 0755) == -1)
		return (-1);
	snprintf(p, sizeof(p), "%s/room.key", dir);
	snprintf(q, sizeof(q), "%s/room.pub", dir);
	if (sign_keygen(p, q, &key, &e) != CAP_OK)
		return (-1);
	sign_public_of(&key, &pub);
	snprintf(p, sizeof(p), "%s/witness.key", dir);
	snprintf(q, sizeof(q), "%s/witness.pub", dir);
	if (sign_keygen(p, q, &wkey, &e) != CAP_OK)
		return (-1);
	sign_public_of(&wkey, &wpub);
	return (0);
}

/* Tear down. */
static int
teardown(void **state)
{
	(void)state;
	return (run("rm -rf %s", dir));
}

/* Start afresh: no manifests, one capture. */
static int
fresh(void **state)
{
	char	p[160];

	(void)state;
	snprintf(p, sizeof(p), "%s/captures/round01-J1-left.cast", dir);
	put(p, "{\"version\": 2, \"width\": 80, \"height\": 24, "
	    "\"timestamp\": 1}\n[0.1, \"i\", \"a\"]\n");
	return (run("rm -rf %s", mdir));
}

/* Every kind has a name and a class; the status is the gravest class. */
static void
test_classes(void **state)
{
	size_t	n[VERIFY_C_COUNT];
	int	k;

	(void)state;
	for (k = 0; k < VERIFY_COUNT; k++)
		assert_string_not_equal(verify_kind_name(k), "unknown");
	assert_int_equal(verify_kind_class(VERIFY_NOTE), VERIFY_C_NOTE);
	assert_int_equal(verify_kind_class(VERIFY_DISCONNECT), VERIFY_C_EVENT);
	assert_int_equal(verify_kind_class(VERIFY_CRASH), VERIFY_C_EVENT);
	assert_int_equal(verify_kind_class(VERIFY_VERDICT), VERIFY_C_EVENT);
	assert_int_equal(verify_kind_class(VERIFY_FAULT), VERIFY_C_EVENT);
	assert_int_equal(verify_kind_class(VERIFY_OLDFORMAT), VERIFY_C_EVENT);
	assert_int_equal(verify_kind_class(VERIFY_SEAL), VERIFY_C_FAILURE);
	assert_int_equal(verify_kind_class(VERIFY_CHAIN), VERIFY_C_FAILURE);
	assert_int_equal(verify_kind_class(VERIFY_WITNESS), VERIFY_C_FAILURE);
	assert_int_equal(verify_kind_class(VERIFY_KEY), VERIFY_C_UNVERIFIED);
	assert_int_equal(verify_kind_class(VERIFY_OPENCHAIN), VERIFY_C_OPEN);
	memset(n, 0, sizeof(n));
	n[VERIFY_C_EVENT] = n[VERIFY_C_NOTE] = 3;
	assert_int_equal(verify_status(n), VERIFY_EXIT_INTACT);
	n[VERIFY_C_OPEN] = 1;
	assert_int_equal(verify_status(n), VERIFY_EXIT_OPEN);
	n[VERIFY_C_UNVERIFIED] = 1;
	assert_int_equal(verify_status(n), VERIFY_EXIT_UNVERIFIED);
	n[VERIFY_C_FAILURE] = 1;
	assert_int_equal(verify_status(n), VERIFY_EXIT_FAILURE);
}

/* Start, a round, shutdown: intact with the key, 3 without or another. */
static void
test_complete(void **state)
{
	size_t	n[VERIFY_COUNT];
	char	why[32];
	int	seq;

	(void)state;
	seal(0, "start", &key);
	seal(1, "round 1 end", &key);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_OPEN);
	assert_int_equal(n[VERIFY_OPENCHAIN], 1);
	assert_int_equal(check(&pub, NULL, VERIFY_ROOM_ENDED, n),
	    VERIFY_EXIT_FAILURE);
	seal(0, "shutdown", &key);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_INTACT);
	assert_int_equal(check(NULL, NULL, 0, n), VERIFY_EXIT_UNVERIFIED);
	assert_int_equal(check(&wpub, NULL, 0, n), VERIFY_EXIT_UNVERIFIED);
	assert_int_equal(n[VERIFY_KEY], 4);	/* each, and the chain's */
	assert_int_equal(n[VERIFY_CHAIN], 0);
	/* The next run: a start after a shutdown, a crash recovery after
	   a run that wrote none. */
	seal(0, "start", &key);
	seal(2, "round 2 end", &key);
	seal(0, "crash recovery", &key);
	seal(0, "shutdown", &key);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_INTACT);
	assert_int_equal(n[VERIFY_CRASH], 1);
	/* What muxd's start reads to tell a crash: the last manifest. */
	assert_int_equal(manifest_tail(dir, &seq, why, sizeof(why)), 0);
	assert_int_equal(seq, 7);
	assert_string_equal(why, "shutdown");
}

/* A manifest missing, replayed; a start that follows no shutdown. */
static void
test_tampered(void **state)
{
	size_t	n[VERIFY_COUNT];
	char	p[160];

	(void)state;
	seal(0, "start", &key);
	seal(1, "round 1 end", &key);
	seal(0, "start", &key);		/* the shutdown missing */
	seal(0, "shutdown", &key);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_FAILURE);
	assert_int_equal(n[VERIFY_CHAIN], 1);
	/* Manifest 2 removed: the chain's gap, and manifest 3's. */
	assert_int_equal(run("rm %s/manifest-0002.json*", mdir), 0);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_FAILURE);
	assert_int_equal(n[VERIFY_CHAIN], 3);
	/* Manifest 1 copied in as 2: its name, a replay, 3's previous. */
	assert_int_equal(run("cp %s/manifest-0001.json %s/manifest-0002.json "
	    "&& cp %s/manifest-0001.json.minisig %s/manifest-0002.json.minisig",
	    mdir, mdir, mdir, mdir), 0);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_FAILURE);
	assert_true(n[VERIFY_CHAIN] >= 3);
	/* A manifest not signed, that names the room key. */
	snprintf(p, sizeof(p), "%s/manifest-0004.json.minisig", mdir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_FAILURE);
	assert_int_equal(n[VERIFY_SIGNATURE], 1);
}

/* Make the last manifest one of format 1, signed. */
static void
old(int seq, const char *why)
{
	struct cap_error	e;
	char			p[160], t[64];

	snprintf(p, sizeof(p), "%s/manifest-%04d.json", mdir, seq);
	assert_int_equal(run("sed -i 's/\"muxd_manifest\": 2/\"muxd_manifest\""
	    ": 1/' %s", p), 0);
	snprintf(t, sizeof(t), "muxd manifest %d: %s", seq, why);
	assert_int_equal(sign_file(&key, p, t, &e), CAP_OK);
}

/*
 * Manifests of format 1 are read, and told as such; their start after
 * no shutdown is a crash recovery; format 2's is a manifest removed.
 */
static void
test_old_format(void **state)
{
	size_t	n[VERIFY_COUNT];

	(void)state;
	seal(0, "start", NULL);
	old(1, "start");
	seal(0, "start", NULL);		/* format 1's restart after a crash */
	old(2, "start");
	seal(0, "shutdown", &key);
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_INTACT);
	assert_int_equal(n[VERIFY_OLDFORMAT], 2);
	assert_int_equal(n[VERIFY_CRASH], 1);
	assert_int_equal(n[VERIFY_CHAIN], 0);
	seal(0, "start", &key);
	seal(0, "start", &key);		/* format 2: no shutdown between */
	assert_int_equal(check(&pub, NULL, 0, n), VERIFY_EXIT_FAILURE);
	assert_int_equal(n[VERIFY_CHAIN], 1);
}

/* A witness's countersignature: minisign reads it; verify checks it. */
static void
test_witness(void **state)
{
	struct cap_error	e;
	size_t			n[VERIFY_COUNT];
	char			p[160];

	(void)state;
	seal(0, "start", &key);
	seal(0, "shutdown", &key);
	snprintf(p, sizeof(p), "%s/manifest-0002.json", mdir);
	assert_int_equal(manifest_witness(p, &wkey, &e), CAP_OK);
	if (run("command -v minisign >/dev/null") == 0)
		assert_int_equal(run("minisign -Vm %s -x %s%s -p %s/witness.pub "
		    "| grep -q 'Trusted comment: muxd manifest 2 witnessed: "
		    "shutdown, 2023-11-14T22:13:20Z'", p, p,
		    MANIFEST_WITNESS_EXT, dir), 0);
	assert_int_equal(check(&pub, &wpub, 0, n), VERIFY_EXIT_INTACT);
	assert_int_equal(n[VERIFY_WITNESS], 0);
	/* Checked with another key, and moved to another manifest. */
	assert_int_equal(check(&pub, &pub, 0, n), VERIFY_EXIT_FAILURE);
	assert_int_equal(n[VERIFY_WITNESS], 1);
	assert_int_equal(run("cp %s%s %s/manifest-0001.json%s", p,
	    MANIFEST_WITNESS_EXT, mdir, MANIFEST_WITNESS_EXT), 0);
	assert_int_equal(check(&pub, &wpub, 0, n), VERIFY_EXIT_FAILURE);
	assert_int_equal(n[VERIFY_WITNESS], 1);
	/* Not a manifest: said so. */
	snprintf(p, sizeof(p), "%s/room.pub", dir);
	assert_int_equal(manifest_witness(p, &wkey, &e), CAP_EHEADER);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test_setup(test_complete, fresh),
		cmocka_unit_test_setup(test_tampered, fresh),
		cmocka_unit_test_setup(test_old_format, fresh),
		cmocka_unit_test_setup(test_witness, fresh),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
