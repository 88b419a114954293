/*
 * Unit tests for the live transcript against its rendering: many random
 * conversations (NUL, 8-bit bytes, BS, DEL, every line ending, long
 * lines, judge changes, clocks stepping back) are recorded live through
 * rec.c, capture and transcript together; the capture is then rendered
 * (cap-read.c into tx-write.c) and must equal the live transcript byte for
 * byte.  Fixed captures in tests/data/transcripts render to their golden
 * transcripts.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture.h"
#include "fixture-cap.h"

#define DATA	"tests/data/transcripts"

static char	*slurp(const char *, size_t *);
static char	*render(const char *, size_t *, int *);
static size_t	gen_chunk(unsigned int *, unsigned char *);
static void	converse(unsigned int, int);

/* Read a whole file. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	assert_non_null(buf = malloc((size_t)n + 1));
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return (buf);
}

/* Render a capture in memory, as `transcripts render` does; *bad errors. */
static char *
render(const char *path, size_t *len, int *bad)
{
	struct cap_reader	*r;
	struct tx_writer	*w;
	struct cap_event	 ev;
	struct cap_error	 e;
	enum cap_err		 rc;
	const char		*text;
	char			*copy, buf[2048];

	*bad = 0;
	if (cap_read_open(path, &r, &e) != CAP_OK)
		fail_msg("%s", cap_error_format(&e, buf, sizeof(buf)));
	assert_int_equal(tx_write_memopen(cap_read_meta(r), &w, &e), CAP_OK);
	while ((rc = cap_read_event(r, &ev, &e)) != CAP_EOF) {
		if (rc != CAP_OK) {
			(*bad)++;
			if (rc != CAP_EORDER)
				continue;
		}
		assert_int_equal(tx_write_event(w, ev.kind, ev.data, ev.len,
		    ev.usec, &e), CAP_OK);
	}
	assert_int_equal(tx_write_finish(w, &e), CAP_OK);
	text = tx_write_buffer(w, len);
	assert_non_null(copy = malloc(*len + 1));
	memcpy(copy, text, *len);
	copy[*len] = '\0';
	tx_write_close(w, &e);
	cap_read_close(r);
	return (copy);
}

/* Make a random chunk of conversation; its length. */
static size_t
gen_chunk(unsigned int *seed, unsigned char *p)
{
	static const char	*ends[] = { "\r", "\n", "\r\n", "\n\r", "\r\r",
		"\r\n\r\n", "\n\n", "\n\r\n\r" };
	size_t			 n = 0, i, k;
	int			 what = rand_r(seed) % 100;

	if (what < 40) {		/* plain text */
		k = (size_t)(rand_r(seed) % 30);
		for (i = 0; i < k; i++)
			p[n++] = (unsigned char)(' ' + rand_r(seed) % 95);
	} else if (what < 55) {		/* a line end */
		k = (size_t)rand_r(seed) % (sizeof(ends) / sizeof(ends[0]));
		n = strlen(ends[k]);
		memcpy(p, ends[k], n);
	} else if (what < 65) {		/* edits */
		k = (size_t)(1 + rand_r(seed) % 6);
		for (i = 0; i < k; i++)
			p[n++] = rand_r(seed) % 2 ? '\b' : 0x7f;
	} else if (what < 75) {		/* any byte */
		k = (size_t)(1 + rand_r(seed) % 8);
		for (i = 0; i < k; i++)
			p[n++] = (unsigned char)rand_r(seed);
	} else if (what < 80) {		/* NUL, tab, 8-bit */
		p[n++] = 0;
		p[n++] = '\t';
		p[n++] = (unsigned char)(0x80 + rand_r(seed) % 128);
	} else if (what < 85) {		/* a long line */
		k = (size_t)(100 + rand_r(seed) % 2000);
		for (i = 0; i < k; i++)
			p[n++] = (unsigned char)('a' + i % 26);
	} else if (what < 90) {		/* a judge announcement */
		n = (size_t)sprintf((char *)p, "@@%02d%s", rand_r(seed) % 100,
		    rand_r(seed) % 2 ? "\r\r" : "\r\n\r\n");
	} else				/* a word */
		n = (size_t)sprintf((char *)p, "word%d ", rand_r(seed) % 1000);
	return (n);
}

/*
 * Record one random conversation live and check that rendering its
 * capture gives the live transcript, byte for byte.
 */
static void
converse(unsigned int seed, int i)
{
	static const int	 widths[] = { 8, 20, 79, 80, 1024 };
	struct cap_meta		 m;
	struct rec		*r;
	struct cap_error	 e;
	struct timeval		 tv;
	unsigned char		 chunk[4096];
	char			 txdir[128], cap[128], marker[64], buf[2048];
	char			*live, *rendered, *tx;
	size_t			 n, livelen, renderlen, k, j;
	int			 events, bad, kind;

	cap_meta_init(&m);
	m.timestamp = 1095516720 + rand_r(&seed) % 100000;
	m.utc_offset = (rand_r(&seed) % 49 - 24) * 1800;
	m.tx_width = widths[rand_r(&seed) % 5];
	m.judge = rand_r(&seed) % 5 == 0 ? TX_JUDGE_NONE : rand_r(&seed) % 100;
	m.program = rand_r(&seed) % 4 == 0 ? NULL : "Prog\xe9 \\ 1";
	m.entity = "E1";
	m.contestant = rand_r(&seed) % 4 == 0 ? NULL : "Some One";
	snprintf(txdir, sizeof(txdir), "%s/tx%d", fixture_cap_dir, i);
	snprintf(cap, sizeof(cap), "%s/c%d.cast", fixture_cap_dir, i);
	if (rec_open(cap, txdir, &m, CAP_WRITE_MAP, &r, &e) != CAP_OK)
		fail_msg("%s", cap_error_format(&e, buf, sizeof(buf)));
	tv.tv_sec = (time_t)m.timestamp;
	tv.tv_usec = 0;
	events = 50 + rand_r(&seed) % 400;
	for (j = 0; j < (size_t)events; j++) {
		/* Mostly forward, sometimes a clock stepped back. */
		tv.tv_usec += rand_r(&seed) % 10 == 0 ? -3000000 :
		    rand_r(&seed) % 900000;
		while (tv.tv_usec >= 1000000) {
			tv.tv_sec++;
			tv.tv_usec -= 1000000;
		}
		while (tv.tv_usec < 0) {
			tv.tv_sec--;
			tv.tv_usec += 1000000;
		}
		kind = rand_r(&seed) % 20;
		if (kind == 0) {
			n = (size_t)snprintf(marker, sizeof(marker),
			    rand_r(&seed) % 2 ? "judge %02d typed" :
			    "round stop %d", rand_r(&seed) % 100);
			assert_int_equal(rec_event(r, CAP_MARKER, marker, n,
			    &tv, &e), CAP_OK);
			continue;
		}
		n = gen_chunk(&seed, chunk);
		if (kind < 10) {	/* a judge types a byte at a time */
			for (k = 0; k < n; k++)
				assert_int_equal(rec_event(r, CAP_INPUT,
				    chunk + k, 1, &tv, &e), CAP_OK);
		} else
			assert_int_equal(rec_event(r, CAP_OUTPUT, chunk, n,
			    &tv, &e), CAP_OK);
	}
	assert_non_null(tx = strdup(rec_transcript_path(r)));
	assert_int_equal(rec_close(r, &e), CAP_OK);

	live = slurp(tx, &livelen);
	rendered = render(cap, &renderlen, &bad);
	assert_int_equal(bad, 0);
	if (livelen != renderlen || memcmp(live, rendered, livelen) != 0)
		fail_msg("conversation %d (%s): live transcript %s (%zu bytes) "
		    "and its rendering (%zu bytes) differ", i, cap, tx,
		    livelen, renderlen);
	assert_non_null(strstr(live, "This transcript is in the public "
	    "domain\n"));
	free(live);
	free(rendered);
	free(tx);
}

/* Many random conversations: rendering equals the live transcript. */
static void
test_live_equals_render(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < 300; i++)
		converse(1000u + (unsigned int)i, i);
}

/* Transcripts take the next free cycle number and never overwrite. */
static void
test_cycle_numbers(void **state)
{
	struct cap_meta		 m;
	struct tx_writer	*w;
	struct cap_error	 e;
	char			 dir[128], p[256];
	int			 i, fd;

	(void)state;
	cap_meta_init(&m);
	m.timestamp = 1095516720;
	m.utc_offset = 0;
	snprintf(dir, sizeof(dir), "%s/cycles", fixture_cap_dir);
	for (i = 1; i <= 3; i++) {
		assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_OK);
		snprintf(p, sizeof(p), "%s/LP04-%02d.TXT", dir, i);
		assert_string_equal(tx_write_path(w), p);
		assert_int_equal(tx_write_close(w, &e), CAP_OK);
	}
	/* After LP04-97, 98 and 99; then the lowest free. */
	snprintf(p, sizeof(p), "%s/LP04-97.TXT", dir);
	assert_true((fd = open(p, O_CREAT | O_WRONLY, 0644)) != -1);
	close(fd);
	assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_OK);
	assert_non_null(strstr(tx_write_path(w), "LP04-98.TXT"));
	tx_write_close(w, &e);
	assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_OK);
	assert_non_null(strstr(tx_write_path(w), "LP04-99.TXT"));
	tx_write_close(w, &e);
	assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_OK);
	assert_non_null(strstr(tx_write_path(w), "LP04-04.TXT"));
	tx_write_close(w, &e);
	/* Another year starts again at 01. */
	m.timestamp += 366 * 86400;
	assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_OK);
	assert_non_null(strstr(tx_write_path(w), "LP05-01.TXT"));
	tx_write_close(w, &e);
	/* All 99 taken. */
	m.timestamp -= 366 * 86400;
	for (i = 5; i <= 96; i++) {
		assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_OK);
		tx_write_close(w, &e);
	}
	assert_int_equal(tx_write_open(dir, &m, 0, &w, &e), CAP_EEXIST);
	assert_non_null(strstr(e.msg, "01 to 99"));
}

/* The fixed captures render to their golden transcripts. */
static void
test_golden(void **state)
{
	static const char	*names[] = { "loebner1996", "edge", "allbytes" };
	char			 p[256], *want, *got;
	size_t			 wantlen, gotlen, i;
	int			 bad;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), DATA "/%s.txt", names[i]);
		want = slurp(p, &wantlen);
		snprintf(p, sizeof(p), DATA "/%s.cast", names[i]);
		got = render(p, &gotlen, &bad);
		if (gotlen != wantlen || memcmp(got, want, wantlen) != 0)
			fail_msg("%s renders differently from %s.txt:\n%s",
			    p, names[i], got);
		assert_int_equal(bad, strcmp(names[i], "edge") == 0 ? 1 : 0);
		free(want);
		free(got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_equals_render),
		cmocka_unit_test(test_cycle_numbers),
		cmocka_unit_test(test_golden),
	};

	return (cmocka_run_group_tests(tests, fixture_cap_setup,
	    fixture_cap_teardown));
}
