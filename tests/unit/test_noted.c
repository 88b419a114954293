/*
 * Unit tests for the short form of a manifest (capture/manifest.c) and
 * the short hashes written down at the rounds' ends, read by transcripts
 * verify -s and -S (transcripts/verify-noted.c): the forms a judge may
 * write, what does not read and where, a manifest cut from the chain or
 * replaced.
 */
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

#include "transcripts.h"

/* The short form: 16 hex digits of the hash, in four groups. */
static void
test_short_form(void **state)
{
	unsigned char	 hash[CAP_CHAIN_BYTES];
	char		 out[MANIFEST_SHORT_LEN], path[] = "/tmp/noted.XXXXXX";
	char		 hex[CAP_CHAIN_HEX];
	struct cap_error e;
	size_t		 i;
	int		 fd;

	(void)state;
	for (i = 0; i < sizeof(hash); i++)
		hash[i] = (unsigned char)(0x3f + i * 0x11);
	assert_string_equal(manifest_short(hash, out), "3f50 6172 8394 a5b6");
	assert_int_equal(strlen(out), MANIFEST_SHORT_LEN - 1);

	/* Of a file: the first digits of its BLAKE2b-256 (b2sum -l 256). */
	assert_true((fd = mkstemp(path)) != -1);
	assert_int_equal(write(fd, "abc", 3), 3);
	close(fd);
	assert_int_equal(manifest_short_file(path, out, &e), CAP_OK);
	crypto_generichash(hash, sizeof(hash), (const unsigned char *)"abc", 3,
	    NULL, 0);
	cap_chain_hex(hash, hex);
	assert_string_equal(hex, "bddd813c634239723171ef3fee98579b"
	    "94964e3bb1cb3e427262c8c068d52319");
	assert_string_equal(out, "bddd 813c 6342 3972");
	unlink(path);
	assert_int_not_equal(manifest_short_file(path, out, &e), CAP_OK);
}

/* The forms of a note: the list of -s, and the lines of a file. */
static void
test_parse_forms(void **state)
{
	struct verify_notes	 n;
	char			 err[256];

	(void)state;
	memset(&n, 0, sizeof(n));
	assert_int_equal(verify_notes_parse(&n, "0004=3f2a91c07be45d18,"
	    "7=3F2A 91C0 7BE4 5D18", 0, "-s", err, sizeof(err)), 0);
	assert_int_equal(n.n, 2);
	assert_int_equal(n.v[0].seq, 4);
	assert_string_equal(n.v[0].hex, "3f2a91c07be45d18");
	assert_string_equal(n.v[0].where, "-s item 1");
	assert_int_equal(n.v[1].seq, 7);
	assert_string_equal(n.v[1].hex, "3f2a91c07be45d18");
	verify_notes_free(&n);

	assert_int_equal(verify_notes_parse(&n, "# round 1, judge 7\n"
	    "evidence 0004 sealed: 3f2a 91c0 7be4 5d18\n\n"
	    "*** evidence 0006 sealed: 0011 2233 4455 6677 ***\r\n"
	    "  8 0123-4567-89ab-cdef  # the referee's\n"
	    "9 bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319",
	    1, "notes.txt", err, sizeof(err)), 0);
	assert_int_equal(n.n, 4);
	assert_int_equal(n.v[0].seq, 4);
	assert_string_equal(n.v[0].where, "notes.txt:2");
	assert_int_equal(n.v[1].seq, 6);
	assert_string_equal(n.v[1].hex, "0011223344556677");
	assert_string_equal(n.v[2].hex, "0123456789abcdef");
	assert_string_equal(n.v[2].where, "notes.txt:5");
	assert_int_equal(strlen(n.v[3].hex), 64);
	verify_notes_free(&n);
}

/* What does not read is told with where it is. */
static void
test_parse_errors(void **state)
{
	static const struct {
		const char	*text;
		int		 lines;
		const char	*msg;
	} bad[] = {
		{ "4=3f2a91c07be45d18,5=3f2a91c0", 0,
		    "-s item 2: \"5=3f2a91c0\": 8 hex digits, fewer than the "
		    "16 of a short hash" },
		{ "4=3f2a91c07be45d1g", 0, "-s item 1: \"4=3f2a91c07be45d1g\": "
		    "not a hex digit at \"g\"" },
		{ "=3f2a91c07be45d18", 0, "-s item 1: \"=3f2a91c07be45d18\": "
		    "not SEQ=HEX (a manifest's number, then its short hash)" },
		{ "0=3f2a91c07be45d18", 0, "-s item 1: \"0=3f2a91c07be45d18\": "
		    "the manifest's number is not 1 to 9999999" },
		{ "1 3f2a91c07be45d18\n\nround 2 3f2a91c07be45d18\n", 1,
		    "notes.txt:3: \"round 2 3f2a91c07be45d18\": not SEQ=HEX "
		    "(a manifest's number, then its short hash)" },
	};
	struct verify_notes	 n;
	char			 err[256];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&n, 0, sizeof(n));
		assert_int_equal(verify_notes_parse(&n, bad[i].text,
		    bad[i].lines, bad[i].lines ? "notes.txt" : "-s", err,
		    sizeof(err)), -1);
		assert_string_equal(err, bad[i].msg);
		verify_notes_free(&n);
	}
}

/* Add a manifest of a sequence number and hash to a room. */
static void
add(struct verify_room *r, int seq, const char *why, const char *hex)
{
	json_t	*m;
	char	 path[64];

	snprintf(path, sizeof(path), "/nonexistent/manifests/manifest-%04d.json",
	    seq);
	m = json_pack("{sisisss[]}", "muxd_manifest", MANIFEST_FORMAT,
	    "sequence", seq, "why", why, "files");
	assert_non_null(m);
	assert_int_equal(verify_room_add(r, path, m, VERIFY_SIG_OK, 0, hex), 0);
	json_decref(m);
}

/*
 * A chain cut at an earlier shutdown checks by itself; the notes of the
 * rounds after tell it, and a manifest made again.
 */
static void
test_noted_chain(void **state)
{
	struct verify_notes	 n;
	struct verify_report	 rep;
	struct verify_room	*r;
	char			 err[256];
	const char		*h1 = "1111111111111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	const char		*h2 = "2222222222222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

	(void)state;
	memset(&n, 0, sizeof(n));
	assert_int_equal(verify_notes_parse(&n, "2=2222222222222222",
	    0, "-s", err, sizeof(err)), 0);
	assert_non_null(r = verify_room_new(NULL, 0, NULL));
	add(r, 1, "start", h1);
	add(r, 2, "round 1 end", h2);
	add(r, 3, "shutdown", h1);
	assert_int_equal(verify_report_init(&rep, "manifests"), 0);
	assert_int_equal(verify_room_finish(r, 0, &rep), 0);
	assert_int_equal(verify_room_noted(r, &n, &rep), 0);
	assert_int_equal(rep.count[VERIFY_NOTED], 0);
	verify_report_free(&rep);
	verify_notes_free(&n);

	/* Round 2's end, noted, is not in the chain; round 1's is other. */
	assert_int_equal(verify_notes_parse(&n, "2=2222222222222223,"
	    "0005=5555 5555 5555 5555", 0, "-s", err, sizeof(err)), 0);
	assert_int_equal(verify_report_init(&rep, "manifests"), 0);
	assert_int_equal(verify_room_noted(r, &n, &rep), 0);
	assert_int_equal(rep.count[VERIFY_NOTED], 2);
	assert_int_equal(rep.nclass[VERIFY_C_FAILURE], 2);
	assert_string_equal(rep.findings.item[0].msg, "manifest 0002 hashes "
	    "to 2222222222222222, not 2222222222222223 as noted (-s item 1): "
	    "it was replaced");
	assert_string_equal(rep.findings.item[1].msg, "manifest 0005, noted "
	    "as 5555555555555555 (-s item 2), is missing: the chain was cut "
	    "or made again");
	verify_report_free(&rep);
	verify_notes_free(&n);
	verify_room_free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_form),
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_noted_chain),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
