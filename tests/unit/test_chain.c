/*
 * Unit tests for the hash chain of captures (capture/cap-chain.c,
 * the writer's seals, transcripts/verify-chain.c): a capture written by
 * the library verifies; every way of tampering with it that an auditor
 * must catch (text forged, a verdict rewritten, an event moved by 0.2 ms,
 * a typo deleted, a line inserted, two events swapped, the closing
 * markers removed, the file cut short) is a finding at its place; a
 * capture cut at a line, as SIGKILL leaves it, has no seal finding, only
 * its missing end; seals handed to the writer are not written; a capture
 * still being written (its zero-filled tail) reads and verifies as far as
 * it goes; the chain is the stretches transcripts(5) defines, however its
 * bytes are fed.
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

#include "transcripts.h"

static char	 dir[64];
static char	 orig[128];

static char	*slurp(const char *, size_t *);
static void	 spit(const char *, const char *, size_t);
static char	*line_of(char *, int, size_t *);
static void	 verify(const char *, struct verify_report *);
static const struct finding *first(const struct verify_report *,
		    enum verify_kind);
static void	 write_capture(const char *);

/* Read a whole file (NUL-terminated). */
static char *
slurp(const char *path, size_t *len)
{
	char	*buf;

	assert_int_equal(cap_file_read(path, 1 << 20, &buf, len, NULL),
	    CAP_OK);
	return (buf);
}

/* Write a whole file. */
static void
spit(const char *path, const char *buf, size_t len)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The start of line n (1-based) of text, and its length with newline. */
static char *
line_of(char *text, int n, size_t *len)
{
	char	*p = text, *nl;

	while (--n > 0)
		p = strchr(p, '\n') + 1;
	nl = strchr(p, '\n');
	*len = (size_t)(nl - p) + 1;
	return (p);
}

/* Verify a capture file. */
static void
verify(const char *path, struct verify_report *rep)
{
	struct verify_opts	o;
	struct cap_error	e;

	verify_opts_init(&o);
	assert_int_equal(verify_report_init(rep, path), 0);
	assert_int_equal(verify_capture(path, &o, rep, &e), CAP_OK);
}

/* The first finding of a kind, failing the test when there is none. */
static const struct finding *
first(const struct verify_report *rep, enum verify_kind k)
{
	size_t	i;

	for (i = 0; i < rep->findings.n; i++)
		if (rep->findings.item[i].kind == (int)k)
			return (&rep->findings.item[i]);
	fail_msg("no %s finding", verify_kind_name(k));
	return (NULL);
}

/*
 * A round's capture as muxd writes one (lines): 1 header, 2 seal, 3
 * round start, 4 seal, 5 "Hi", 6 typo "x", 7 BS, 8 "?", 9 the entity's
 * answer, 10 seal, 11 verdict FAIL, 12 seal, 13 "more", 14 the sync's
 * seal, 15 link down, 16 seal, 17 round stop, 18 seal, 19 the closing
 * seal.
 */
static void
write_capture(const char *path)
{
	struct cap_meta		 m;
	struct cap_writer	*w;
	struct cap_error	 e;
	const char		*verdict = "verdict FAIL judge 03 assertion E1 "
				    "\"Hello, I am a bot\"";

	cap_meta_init(&m);
	m.timestamp = 1337084321;
	m.judge = 3;
	m.round = 1;
	cap_meta_set(&m.station, "J1");
	cap_meta_set(&m.software, "muxd 0.1.0");
	assert_int_equal(cap_write_open(path, &m, CAP_WRITE_NOSEGMENT, &w,
	    &e), CAP_OK);
	cap_meta_free(&m);
	assert_int_equal(cap_write_event_usec(w, CAP_MARKER, "round start 1",
	    13, 0, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "Hi", 2, 1000000,
	    &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "x", 1, 1200000,
	    &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "\b", 1, 1400000,
	    &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "?\r\r", 3,
	    1600000, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_OUTPUT,
	    "Hello, I am a bot\r\n", 19, 2000000, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_MARKER, verdict,
	    strlen(verdict), 2000000, &e), CAP_OK);
	/* A seal handed in is the writer's business: not written. */
	assert_int_equal(cap_write_event_usec(w, CAP_MARKER, "seal 1 00", 9,
	    2000000, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "more", 4,
	    3000000, &e), CAP_OK);
	assert_int_equal(cap_write_seal(w, 0, &e), CAP_OK);
	assert_int_equal(cap_write_seal(w, 0, &e), CAP_OK);	/* nothing new */
	assert_int_equal(cap_write_event_usec(w, CAP_MARKER,
	    "link down round stopped", 23, 4000000, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_MARKER, "round stop 1",
	    12, 4000000, &e), CAP_OK);
	assert_int_equal(cap_write_close(w, &e), CAP_OK);
}

/* Set up: a directory with the capture as written. */
static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_chain.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return (-1);
	snprintf(orig, sizeof(orig), "%s/orig.cast", dir);
	write_capture(orig);
	return (0);
}

/* Tear down: remove the directory's files. */
static int
teardown(void **state)
{
	char	cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return (system(cmd) == 0 ? 0 : -1);
}

/* The capture as written: 19 lines, sealed, ends properly, verifies. */
static void
test_clean(void **state)
{
	struct verify_report	 rep;
	unsigned char		 head[CAP_CHAIN_BYTES];
	unsigned long		 lines;
	int64_t			 bytes;
	size_t			 len, n;
	char			*text, *l;
	int			 end;

	(void)state;
	text = slurp(orig, &len);
	l = line_of(text, 19, &n);
	assert_non_null(strstr(l, "\"seal 18 "));
	assert_non_null(strstr(l, " end\"]\n"));
	l = line_of(text, 14, &n);
	assert_non_null(strstr(l, "\"seal 13 "));
	assert_null(strstr(text, "seal 1 00"));
	verify(orig, &rep);
	/* Its verdict is an event of the contest, not a failure. */
	assert_int_equal(rep.nclass[VERIFY_C_FAILURE], 0);
	assert_int_equal(rep.count[VERIFY_VERDICT], 1);
	assert_int_equal(rep.total, 1);
	assert_int_equal(rep.chain_lines, 19);
	assert_int_equal(rep.chain_bytes, (int64_t)len);
	assert_true(rep.sealed);
	/* The file's chain is the report's head, and the seal's. */
	assert_int_equal(cap_chain_file(orig, 18, head, &lines, &bytes, NULL),
	    CAP_OK);
	assert_int_equal(lines, 19);
	l = line_of(text, 19, &n);
	{
		unsigned char	sealed[CAP_CHAIN_BYTES];
		unsigned long	sl;
		char		*q = strstr(l, "seal ");

		assert_int_equal(cap_chain_seal_parse((unsigned char *)q,
		    strcspn(q, "\""), &sl, sealed, &end), 1);
		assert_int_equal(sl, 18);
		assert_true(end);
		assert_memory_equal(sealed, head, CAP_CHAIN_BYTES);
	}
	verify_report_free(&rep);
	free(text);
}

/*
 * Change line n of the capture by replacing from with to; verify the
 * copy; the first seal finding must be at line at and say what.
 */
static void
tamper(int n, const char *from, const char *to, unsigned long at,
    const char *says)
{
	struct verify_report	 rep;
	char			 path[160], *text, *out, *l, *p;
	size_t			 len, ln;
	const struct finding	*f;

	text = slurp(orig, &len);
	l = line_of(text, n, &ln);
	assert_non_null(p = strstr(l, from));
	assert_true(p < l + ln);
	assert_non_null(out = malloc(len + strlen(to) + 1));
	memcpy(out, text, (size_t)(p - text));
	strcpy(out + (p - text), to);
	strcat(out, p + strlen(from));
	snprintf(path, sizeof(path), "%s/tampered.cast", dir);
	spit(path, out, strlen(out));
	verify(path, &rep);
	f = first(&rep, VERIFY_SEAL);
	assert_int_equal(f->line, at);
	if (strstr(f->msg, says) == NULL)
		fail_msg("line %lu: \"%s\" does not say \"%s\"", f->line,
		    f->msg, says);
	verify_report_free(&rep);
	free(out);
	free(text);
}

/* Forged text in the entity's answer: found at the seal after it. */
static void
test_forged_text(void **state)
{
	(void)state;
	tamper(9, "I am a bot", "I am Mary!", 10,
	    "between line 5 and line 9");
}

/* A verdict rewritten from FAIL to PASS: the line itself. */
static void
test_verdict(void **state)
{
	(void)state;
	tamper(11, "verdict FAIL", "verdict PASS", 12,
	    "between line 11 and line 11");
}

/* An event moved by 0.2 ms. */
static void
test_moved(void **state)
{
	(void)state;
	tamper(8, "[1.600000,", "[1.600200,", 10, "between line 5 and line 9");
}

/* A typo deleted: the "x" and its BackSpace taken out. */
static void
test_typo_deleted(void **state)
{
	struct verify_report	 rep;
	char			 path[160], *text, *a;
	size_t			 len, n5, n6;
	const struct finding	*f;

	(void)state;
	text = slurp(orig, &len);
	a = line_of(text, 6, &n5);
	line_of(text, 7, &n6);
	memmove(a, a + n5 + n6, len - (size_t)(a - text) - n5 - n6 + 1);
	snprintf(path, sizeof(path), "%s/typo.cast", dir);
	spit(path, text, strlen(text));
	verify(path, &rep);
	f = first(&rep, VERIFY_SEAL);
	assert_int_equal(f->line, 8);
	assert_non_null(strstr(f->msg, "removed or inserted after line 4"));
	/* The later seals stand alone: the rest checks out. */
	assert_int_equal(rep.count[VERIFY_SEAL], 1);
	verify_report_free(&rep);
	free(text);
}

/* A line inserted, and two events swapped. */
static void
test_inserted_swapped(void **state)
{
	struct verify_report	 rep;
	char			 path[160], *text, *out, *a, *b;
	size_t			 len, na, nb;

	(void)state;
	text = slurp(orig, &len);
	a = line_of(text, 13, &na);
	assert_non_null(out = malloc(len + 64));
	memcpy(out, text, (size_t)(a - text));
	strcpy(out + (a - text), "[2.500000, \"o\", \"I am the human\"]\n");
	strcat(out, a);
	snprintf(path, sizeof(path), "%s/inserted.cast", dir);
	spit(path, out, strlen(out));
	verify(path, &rep);
	assert_int_equal(first(&rep, VERIFY_SEAL)->line, 15);
	assert_int_equal(rep.count[VERIFY_SEAL], 1);
	verify_report_free(&rep);
	free(out);

	/* Swap lines 5 and 6 ("Hi" and "x"). */
	a = line_of(text, 5, &na);
	b = line_of(text, 6, &nb);
	assert_non_null(out = malloc(len + 1));
	memcpy(out, text, (size_t)(a - text));
	memcpy(out + (a - text), b, nb);
	memcpy(out + (a - text) + nb, a, na);
	strcpy(out + (a - text) + na + nb, b + nb);
	spit(path, out, strlen(out));
	verify(path, &rep);
	assert_int_equal(first(&rep, VERIFY_SEAL)->line, 10);
	verify_report_free(&rep);
	free(out);
	free(text);
}

/* The closing markers removed, their seals with them, or cut short. */
static void
test_end_removed(void **state)
{
	struct verify_report	 rep;
	char			 path[160], *text, *a, *b;
	size_t			 len, n;
	const struct finding	*f;

	(void)state;
	text = slurp(orig, &len);
	/* Lines 15 to 18 out: the closing seal counts them. */
	a = line_of(text, 15, &n);
	b = line_of(text, 19, &n);
	memmove(a, b, n + 1);
	snprintf(path, sizeof(path), "%s/noend.cast", dir);
	spit(path, text, strlen(text));
	verify(path, &rep);
	f = first(&rep, VERIFY_SEAL);
	assert_int_equal(f->line, 15);
	assert_non_null(strstr(f->msg, "after line 14"));
	verify_report_free(&rep);
	/* Everything from line 15 out: no closing seal, no link down. */
	*a = '\0';
	spit(path, text, strlen(text));
	verify(path, &rep);
	assert_int_equal(rep.count[VERIFY_SEAL], 0);
	f = first(&rep, VERIFY_END);
	assert_int_equal(f->line, 14);
	verify_report_free(&rep);
	free(text);
}

/*
 * What SIGKILL leaves: the file cut after any line, or in the middle of
 * one: the chain of what is whole verifies; only the end is missing.
 */
static void
test_killed(void **state)
{
	struct verify_report	 rep;
	char			 path[160], *text;
	size_t			 len, n, cut;
	int			 k;

	(void)state;
	text = slurp(orig, &len);
	snprintf(path, sizeof(path), "%s/killed.cast", dir);
	for (k = 2; k <= 18; k++) {
		cut = (size_t)(line_of(text, k + 1, &n) - text);
		spit(path, text, cut);
		verify(path, &rep);
		assert_int_equal(rep.count[VERIFY_SEAL], 0);
		assert_int_equal(rep.count[VERIFY_END], 1);
		assert_int_equal(rep.chain_lines, (unsigned long)k);
		verify_report_free(&rep);
		spit(path, text, cut + n / 2);
		verify(path, &rep);
		assert_int_equal(rep.count[VERIFY_SEAL], 0);
		assert_int_equal(rep.count[VERIFY_TORN], 1);
		assert_int_equal(rep.chain_lines, (unsigned long)k);
		verify_report_free(&rep);
	}
	free(text);
}

/*
 * A capture being written lives in a shared mapping: its file is a step
 * long, the tail zero-filled; what a kill would leave of it (the file as
 * it is) reads to its last line with no torn line, its whole lines
 * chained, only its end missing; closing trims the tail.
 */
static void
test_open_capture(void **state)
{
	struct verify_report	 rep;
	struct cap_meta		 m;
	struct cap_writer	*w;
	struct cap_error	 e;
	struct stat		 st;
	char			 path[160], copy[160], cmd[400];
	unsigned long		 nl = 0;
	size_t			 len, i;
	char			*text;

	(void)state;
	snprintf(path, sizeof(path), "%s/open.cast", dir);
	snprintf(copy, sizeof(copy), "%s/killed-open.cast", dir);
	cap_meta_init(&m);
	m.timestamp = 1337084321;
	cap_meta_set(&m.software, "muxd 0.1.0");
	assert_int_equal(cap_write_open(path, &m, CAP_WRITE_NOSEGMENT |
	    CAP_WRITE_MAP, &w, &e), CAP_OK);
	cap_meta_free(&m);
	for (i = 0; i < 100; i++)
		assert_int_equal(cap_write_event_usec(w, CAP_OUTPUT, "typing",
		    6, (int64_t)i * 1000, &e), CAP_OK);
	assert_int_equal(cap_write_seal(w, 0, &e), CAP_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size % (256 * 1024), 0);
	snprintf(cmd, sizeof(cmd), "cp %s %s", path, copy);
	assert_int_equal(system(cmd), 0);
	verify(copy, &rep);
	assert_int_equal(rep.count[VERIFY_TORN], 0);
	assert_int_equal(rep.count[VERIFY_SEAL], 0);
	assert_int_equal(rep.count[VERIFY_END], 1);
	assert_int_equal(rep.nevent, 101);
	assert_int_equal(rep.chain_lines, 102);
	verify_report_free(&rep);
	assert_int_equal(cap_write_close(w, &e), CAP_OK);
	text = slurp(path, &len);
	for (i = 0; i < len; i++)
		nl += text[i] == '\n';
	assert_int_equal(text[len - 1], '\n');
	assert_int_equal(nl, 103);
	assert_int_equal(strlen(text), len);
	free(text);
}

/*
 * What the next seal has to hash (muxd's sync pass counts its work so):
 * what went into the mapping since the chain last caught up, the seal
 * line alone right after a seal, never more than 256 KB, and nothing for
 * a capture written with write(2), which is hashed as it is written.
 */
static void
test_map_unhashed(void **state)
{
	struct cap_meta		 m;
	struct cap_writer	*w;
	struct cap_error	 e;
	char			 path[160];
	size_t			 before, most, i;
	int			 k;

	(void)state;
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/unhashed%d.cast", dir, k);
		cap_meta_init(&m);
		m.timestamp = 1337084321;
		assert_int_equal(cap_write_open(path, &m, CAP_WRITE_NOSEGMENT |
		    (k == 0 ? CAP_WRITE_MAP : 0), &w, &e), CAP_OK);
		cap_meta_free(&m);
		before = cap_write_unhashed(w);
		assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "abc", 3,
		    1000, &e), CAP_OK);
		if (k == 0) {
			/* The header and the line "[0.001000, "i", "abc"]". */
			assert_true(before > 0);
			assert_int_equal(cap_write_unhashed(w) - before,
			    strlen("[0.001000, \"i\", \"abc\"]\n"));
		} else
			assert_int_equal(cap_write_unhashed(w), 0);
		/* Sealed: the seal line alone, which starts the next stretch. */
		before = cap_write_unhashed(w);
		assert_int_equal(cap_write_seal(w, 0, &e), CAP_OK);
		if (k == 0)
			assert_true(cap_write_unhashed(w) > 0 &&
			    cap_write_unhashed(w) < before &&
			    cap_write_unhashed(w) < CAP_MARKER_MAX + 32);
		else
			assert_int_equal(cap_write_unhashed(w), 0);
		for (most = i = 0; i < 30000; i++) {
			assert_int_equal(cap_write_event_usec(w, CAP_OUTPUT,
			    "0123456789", 10, 2000 + (int64_t)i, &e), CAP_OK);
			if (cap_write_unhashed(w) > most)
				most = cap_write_unhashed(w);
		}
		assert_int_equal(cap_write_close(w, &e), CAP_OK);
		/* 30,000 lines of 30 bytes: the chain caught up on the way. */
		if (k == 0)
			assert_true(most > 200 * 1024 && most <= 256 * 1024 + 64);
		else
			assert_int_equal(most, 0);
	}
}

/*
 * Through the mapping, the chain catches up at each seal, in one pass
 * over what the file holds: the file, over several steps of the mapping,
 * is byte for byte the one written with write(2), markers and their
 * seals, the seals at syncs and the end, and it verifies.
 */
static void
test_map_same(void **state)
{
	struct verify_report	 rep;
	struct cap_meta		 m;
	struct cap_writer	*w;
	struct cap_error	 e;
	char			 path[2][160], mark[32];
	char			*text[2];
	size_t			 len[2], i;
	int			 k;

	(void)state;
	for (k = 0; k < 2; k++) {
		snprintf(path[k], sizeof(path[k]), "%s/same%d", dir, k);
		assert_int_equal(mkdir(path[k], 0700), 0);
		snprintf(path[k], sizeof(path[k]), "%s/same%d/same.cast", dir,
		    k);
		cap_meta_init(&m);
		m.timestamp = 1337084321;
		cap_meta_set(&m.software, "muxd 0.1.0");
		assert_int_equal(cap_write_open(path[k], &m,
		    CAP_WRITE_NOSEGMENT | (k == 0 ? CAP_WRITE_MAP : 0), &w,
		    &e), CAP_OK);
		cap_meta_free(&m);
		for (i = 0; i < 40000; i++) {
			assert_int_equal(cap_write_event_usec(w, i % 2 ?
			    CAP_OUTPUT : CAP_INPUT, "x\"y", 3,
			    (int64_t)i * 1000, &e), CAP_OK);
			if (i % 997 == 0) {
				snprintf(mark, sizeof(mark), "note %zu", i);
				assert_int_equal(cap_write_event_usec(w,
				    CAP_MARKER, mark, strlen(mark),
				    (int64_t)i * 1000, &e), CAP_OK);
			}
			if (i % 4001 == 0)
				assert_int_equal(cap_write_seal(w, 0, &e),
				    CAP_OK);
		}
		assert_int_equal(cap_write_close(w, &e), CAP_OK);
		text[k] = slurp(path[k], &len[k]);
	}
	assert_true(len[0] > 3 * 256 * 1024);
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(text[0], text[1], len[0]);
	verify(path[0], &rep);
	assert_int_equal(rep.count[VERIFY_SEAL], 0);
	assert_int_equal(rep.count[VERIFY_END], 0);
	assert_int_equal(rep.count[VERIFY_TORN], 0);
	assert_true(rep.nevent > 40000 + 41);
	verify_report_free(&rep);
	free(text[0]);
	free(text[1]);
}

/*
 * The chain is the stretches' (transcripts(5)): recomputed here from the
 * definition, a cut before each seal line, it gives every seal's head and
 * the file's; and fed in pieces of any size, the library's chain gives
 * the same lines and head as fed whole lines.
 */
static void
test_stretches(void **state)
{
	crypto_generichash_state	 st;
	struct cap_chain		*c;
	unsigned char			 head[CAP_CHAIN_BYTES];
	unsigned char			 want[CAP_CHAIN_BYTES];
	unsigned char			 got[CAP_CHAIN_BYTES], seal[CAP_CHAIN_BYTES];
	unsigned long			 lines, n, sl;
	int64_t				 bytes;
	size_t				 len, i, piece, ll;
	char				*text, *p, *q;
	int				 fed = 0, seals = 0, end;

	(void)state;
	text = slurp(orig, &len);
	memset(head, 0, sizeof(head));
	crypto_generichash_init(&st, NULL, 0, CAP_CHAIN_BYTES);
	crypto_generichash_update(&st, head, sizeof(head));
	for (p = text, n = 0; (q = memchr(p, '\n', len - (size_t)(p - text)))
	    != NULL; p = q + 1, n++) {
		ll = (size_t)(q - p) + 1;
		q[0] = '\0';
		if (strstr(p, ", \"m\", \"seal ") != NULL) {
			crypto_generichash_final(&st, head, sizeof(head));
			crypto_generichash_init(&st, NULL, 0, CAP_CHAIN_BYTES);
			crypto_generichash_update(&st, head, sizeof(head));
			/* The seal's own text: "seal N HEX". */
			assert_int_equal(cap_chain_seal_parse((unsigned char *)
			    strstr(p, "seal "), strlen(strstr(p, "seal ")) - 2,
			    &sl, seal, &end), 1);
			assert_int_equal(sl, n);
			assert_memory_equal(seal, head, sizeof(head));
			seals++;
		}
		q[0] = '\n';
		crypto_generichash_update(&st, (unsigned char *)p, ll);
		fed = 1;
	}
	assert_int_equal(seals, 8);
	assert_true(fed);
	crypto_generichash_final(&st, want, sizeof(want));
	assert_int_equal(cap_chain_file(orig, (unsigned long)-1, got, &lines,
	    &bytes, NULL), CAP_OK);
	assert_int_equal(lines, n);
	assert_int_equal(bytes, (int64_t)len);
	assert_memory_equal(got, want, sizeof(want));
	for (piece = 1; piece <= 97; piece += piece < 8 ? 1 : 13) {
		assert_non_null(c = cap_chain_new());
		for (i = 0; i < len; i += piece)
			cap_chain_feed(c, text + i, len - i < piece ? len - i :
			    piece);
		assert_int_equal(cap_chain_lines(c), n);
		assert_memory_equal(cap_chain_head(c), want, sizeof(want));
		cap_chain_free(c);
	}
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_forged_text),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_typo_deleted),
		cmocka_unit_test(test_inserted_swapped),
		cmocka_unit_test(test_end_removed),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_open_capture),
		cmocka_unit_test(test_stretches),
		cmocka_unit_test(test_map_unhashed),
		cmocka_unit_test(test_map_same),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
