/*
 * Unit tests for the capture writer and reader (transcripts/cap-*.c):
 * random byte streams round trip exactly and every line is JSON jansson
 * accepts; segments never overwrite; the header round trips; torn,
 * corrupt, backwards, huge and garbage input is reported with the right
 * line and byte offset while everything else still reads.
 */
#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

static struct cap_reader *open_ok(const char *);
static void	expect_err(struct cap_reader *, enum cap_err, unsigned long,
		    int64_t);
static void	expect_event(struct cap_reader *, int, const char *);
static void	meta_test(struct cap_meta *);
static char	*slurp(const char *, size_t *);
static void	last_events(const char *, char *, char *, size_t);

/* Open a capture that must open. */
static struct cap_reader *
open_ok(const char *name)
{
	struct cap_reader	*r;
	struct cap_error	 e;
	char			 buf[2048];

	if (cap_read_open(fixture_cap_path(name), &r, &e) != CAP_OK)
		fail_msg("opening %s: %s", name,
		    cap_error_format(&e, buf, sizeof(buf)));
	return (r);
}

/* The next read must fail with code at line and offset. */
static void
expect_err(struct cap_reader *r, enum cap_err code, unsigned long line,
    int64_t offset)
{
	struct cap_event	ev;
	struct cap_error	e;
	enum cap_err		got;
	char			buf[2048];

	got = cap_read_event(r, &ev, &e);
	if (got != code || e.line != line || e.offset != offset)
		fail_msg("expected %s at line %lu offset %lld, got %s (%s)",
		    cap_strerror(code), line, (long long)offset,
		    cap_strerror(got), cap_error_format(&e, buf, sizeof(buf)));
	if (code != CAP_EOF)
		assert_string_equal(e.file, cap_read_name(r));
}

/* The next read must be an event of this kind and data. */
static void
expect_event(struct cap_reader *r, int kind, const char *data)
{
	struct cap_event	ev;
	struct cap_error	e;
	enum cap_err		got;
	char			buf[2048];

	if ((got = cap_read_event(r, &ev, &e)) != CAP_OK)
		fail_msg("expected an event, got %s",
		    cap_error_format(&e, buf, sizeof(buf)));
	assert_int_equal(ev.kind, kind);
	assert_int_equal(ev.len, strlen(data));
	assert_memory_equal(ev.data, data, ev.len);
}

/* A meta with every field set. */
static void
meta_test(struct cap_meta *m)
{
	cap_meta_init(m);
	m->timestamp = 1095516720;	/* 2004-09-18 14:12:00 UTC */
	m->utc_offset = -14400;
	m->title = "round 3, J1 left";
	m->term = "vt100";
	m->round = 3;
	m->station = "J1";
	m->side = "left";
	m->judge = 4;
	m->entity = "E2";
	m->kind = "entry";
	m->program = "Jabberwock";
	m->contestant = "Rollo Carpenter";
	m->judge_port = "j1l";
	m->judge_address = "/dev/ttyUSB0,9600";
	m->entity_port = "e2";
	m->entity_address = "tcp:10.0.0.2:7000";
	m->software = "muxd 0.1.0";
	m->tx_width = 72;
	m->transcript = "LP04-01.TXT";
}

/* Random events of every byte value come back identical. */
static void
test_roundtrip(void **state)
{
	struct cap_meta		 m;
	struct cap_writer	*w;
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;
	unsigned int		 seed = 2004;
	unsigned char		*data[400];
	size_t			 len[400], i, j;
	int			 kind[400];
	int64_t			 t[400], now = 0;
	json_t			*v;
	json_error_t		 je;
	FILE			*f;
	char			 line[1 << 20];

	(void)state;
	meta_test(&m);
	assert_int_equal(cap_write_open(fixture_cap_path("rt.cast"), &m, 0,
	    &w, &e), CAP_OK);
	for (i = 0; i < 400; i++) {
		kind[i] = i % 3 == 0 ? 'i' : i % 3 == 1 ? 'o' : 'm';
		len[i] = i == 7 ? 200000 : i == 8 ? 0 : (size_t)(rand_r(&seed) % 300);
		assert_non_null(data[i] = malloc(len[i] + 1));
		for (j = 0; j < len[i]; j++)
			data[i][j] = (unsigned char)(i == 1 ? (int)j :
			    rand_r(&seed));
		if (kind[i] == 'm')
			for (j = 0; j < len[i]; j++)
				data[i][j] = (unsigned char)(' ' + data[i][j] % 95);
		now += rand_r(&seed) % 3 == 0 ? 0 : rand_r(&seed) % 5000000;
		t[i] = now;
		assert_int_equal(cap_write_event_usec(w, kind[i], data[i],
		    len[i], t[i], &e), CAP_OK);
	}
	assert_int_equal(cap_write_close(w, &e), CAP_OK);

	r = open_ok("rt.cast");
	assert_int_equal(cap_read_meta(r)->encoding, CAP_LATIN1);
	for (i = 0; i < 400; i++) {
		/* The writer's seals come before and after each marker. */
		do {
			assert_int_equal(cap_read_event(r, &ev, &e), CAP_OK);
		} while (ev.kind == CAP_MARKER && ev.len > 5 &&
		    memcmp(ev.data, "seal ", 5) == 0 && (kind[i] != 'm' ||
		    len[i] < 5 || memcmp(data[i], "seal ", 5) != 0));
		assert_int_equal(ev.kind, kind[i]);
		assert_int_equal(ev.usec, t[i]);
		assert_int_equal(ev.len, len[i]);
		assert_memory_equal(ev.data, data[i], len[i]);
	}
	/* The closing seal, then the end. */
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_OK);
	assert_int_equal(ev.kind, CAP_MARKER);
	assert_non_null(strstr((char *)ev.data, " end"));
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_EOF);
	cap_read_close(r);

	/* Every line is JSON to jansson, with the same code points. */
	assert_non_null(f = fopen(fixture_cap_path("rt.cast"), "r"));
	assert_non_null(fgets(line, sizeof(line), f));
	for (i = 0; i < 400; i++) {
		if (i == 7) {	/* too long for the buffer: skip it */
			while (fgets(line, sizeof(line), f) != NULL &&
			    strchr(line, '\n') == NULL)
				;
			continue;
		}
		do
			assert_non_null(fgets(line, sizeof(line), f));
		while (strstr(line, "\"m\", \"seal ") != NULL);
		v = json_loads(line, JSON_ALLOW_NUL, &je);
		if (v == NULL)
			fail_msg("line %zu: jansson: %s", i + 2, je.text);
		assert_true(json_is_array(v));
		assert_int_equal(json_real_value(json_array_get(v, 0)) * 1e6 +
		    0.5 >= (double)t[i], 1);
		assert_string_equal(json_string_value(json_array_get(v, 1)),
		    kind[i] == 'i' ? "i" : kind[i] == 'o' ? "o" : "m");
		json_decref(v);
	}
	fclose(f);
	for (i = 0; i < 400; i++)
		free(data[i]);
}

/* The header round trips; a second capture of a name is a new segment. */
static void
test_header_segments(void **state)
{
	struct cap_meta		 m;
	const struct cap_meta	*h;
	struct cap_writer	*w;
	struct cap_reader	*r;
	struct cap_error	 e;
	int			 i;
	char			 name[64];

	(void)state;
	meta_test(&m);
	for (i = 0; i < 3; i++) {
		assert_int_equal(cap_write_open(fixture_cap_path("seg.cast"),
		    &m, 0, &w, &e), CAP_OK);
		snprintf(name, sizeof(name), i == 0 ? "seg.cast" :
		    "seg.%d.cast", i);
		assert_string_equal(cap_write_path(w), fixture_cap_path(name));
		assert_int_equal(cap_write_meta(w)->segment, i);
		assert_int_equal(cap_write_close(w, &e), CAP_OK);
	}
	assert_int_equal(cap_write_open(fixture_cap_path("seg.cast"), &m,
	    CAP_WRITE_NOSEGMENT, &w, &e), CAP_EEXIST);
	assert_null(w);
	r = open_ok("seg.2.cast");
	h = cap_read_meta(r);
	assert_int_equal(h->segment, 2);
	assert_int_equal(h->timestamp, m.timestamp);
	assert_int_equal(h->utc_offset, m.utc_offset);
	assert_int_equal(h->width, 80);
	assert_int_equal(h->height, 24);
	assert_int_equal(h->round, 3);
	assert_int_equal(h->judge, 4);
	assert_int_equal(h->tx_width, 72);
	assert_int_equal(h->has_muxd, 1);
	assert_string_equal(h->title, m.title);
	assert_string_equal(h->term, m.term);
	assert_string_equal(h->station, m.station);
	assert_string_equal(h->side, m.side);
	assert_string_equal(h->entity, m.entity);
	assert_string_equal(h->kind, m.kind);
	assert_string_equal(h->program, m.program);
	assert_string_equal(h->contestant, m.contestant);
	assert_string_equal(h->judge_port, m.judge_port);
	assert_string_equal(h->judge_address, m.judge_address);
	assert_string_equal(h->entity_port, m.entity_port);
	assert_string_equal(h->entity_address, m.entity_address);
	assert_string_equal(h->software, m.software);
	assert_string_equal(h->transcript, m.transcript);
	cap_read_close(r);

	/* Invalid UTF-8 in a name is taken as ISO-8859-1. */
	m.contestant = "Jos\xe9";
	assert_int_equal(cap_write_open(fixture_cap_path("latin.cast"), &m,
	    0, &w, &e), CAP_OK);
	assert_string_equal(cap_write_meta(w)->contestant, "Jos\xc3\xa9");
	cap_write_close(w, &e);
	r = open_ok("latin.cast");
	assert_string_equal(cap_read_meta(r)->contestant, "Jos\xc3\xa9");
	cap_read_close(r);
}

/* Times never go backwards in what the writer writes. */
static void
test_writer_clamps(void **state)
{
	struct cap_meta		 m;
	struct cap_writer	*w;
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;
	struct timeval		 tv;

	(void)state;
	meta_test(&m);
	assert_int_equal(cap_write_open(fixture_cap_path("clamp.cast"), &m,
	    0, &w, &e), CAP_OK);
	tv.tv_sec = m.timestamp + 5;
	tv.tv_usec = 250000;
	assert_int_equal(cap_write_event(w, CAP_OUTPUT, "a", 1, &tv, &e), 0);
	assert_int_equal(cap_write_usec(w), 5250000);
	tv.tv_sec -= 2;
	assert_int_equal(cap_write_event(w, CAP_OUTPUT, "b", 1, &tv, &e), 0);
	assert_int_equal(cap_write_usec(w), 5250000);
	assert_int_equal(cap_write_event(w, 'x', "b", 1, &tv, &e), CAP_EINVAL);
	cap_write_close(w, &e);
	r = open_ok("clamp.cast");
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_OK);
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_OK);
	assert_int_equal(ev.usec, 5250000);
	cap_read_close(r);
}

#define HDR	"{\"version\": 2, \"width\": 80, \"height\": 24, " \
		"\"muxd\": {\"encoding\": \"iso-8859-1\"}}\n"

/* A torn last line is reported at its offset; what precedes reads. */
static void
test_torn(void **state)
{
	const char		 text[] = HDR "[0.5, \"o\", \"ab\"]\n"
	    "[1.000001, \"i\", \"\\u00e9\\r\"]\n[1.5, \"o\", \"c";
	struct cap_reader	*r;

	(void)state;
	fixture_cap_put("torn.cast", text, sizeof(text) - 1);
	r = open_ok("torn.cast");
	expect_event(r, 'o', "ab");
	expect_event(r, 'i', "\xe9\r");
	expect_err(r, CAP_ETORN, 4, (int64_t)(strstr(text, "[1.5") - text));
	expect_err(r, CAP_EOF, 0, -1);
	cap_read_close(r);

	/* Valid JSON without its newline is torn all the same. */
	fixture_cap_put("torn2.cast", HDR "[1, \"o\", \"x\"]",
	    sizeof(HDR) - 1 + 13);
	r = open_ok("torn2.cast");
	expect_err(r, CAP_ETORN, 2, sizeof(HDR) - 1);
	cap_read_close(r);
}

/* Corrupt lines in the middle are reported and skipped. */
static void
test_corrupt(void **state)
{
	const char		 text[] = HDR
	    "[0.1, \"o\", \"a\"]\n"
	    "garbage\x01\xff\n"
	    "[0.2, \"o\", \"b\"\n"
	    "[0.3, \"o\"]\n"
	    "[0.4, \"z\", \"c\"]\n"
	    "[\"x\", \"o\", \"c\"]\n"
	    "[-1, \"o\", \"c\"]\n"
	    "[0.5, \"o\", \"\\u0100\"]\n"
	    "[0.6, \"o\", \"\x80\"]\n"
	    "\n"
	    "[0.7, \"o\", \"\\ud800\"]\n"
	    "[0.8, \"o\", \"d\"] x\n"
	    "[0.9, \"o\", \"ok\"]\n";
	struct cap_reader	*r;
	int64_t			 off;

	(void)state;
	fixture_cap_put("bad.cast", text, sizeof(text) - 1);
	r = open_ok("bad.cast");
	expect_event(r, 'o', "a");
	off = strstr(text, "garbage") - text;
	expect_err(r, CAP_ESYNTAX, 3, off + 7);	/* jansson's position */
	off = strstr(text, "[0.2") - text;
	expect_err(r, CAP_ESYNTAX, 4, off + 14);
	expect_err(r, CAP_EEVENT, 5, strstr(text, "[0.3") - text);
	expect_err(r, CAP_EEVENT, 6, strstr(text, "[0.4") - text);
	expect_err(r, CAP_EEVENT, 7, strstr(text, "[\"x\"") - text);
	off = strstr(text, "[-1") - text;
	expect_err(r, CAP_EEVENT, 8, off + 3);
	off = strstr(text, "[0.5") - text;
	expect_err(r, CAP_ECODE, 9, off + 12);
	off = strstr(text, "[0.6") - text;
	expect_err(r, CAP_ESYNTAX, 10, off + 12);
	expect_err(r, CAP_ESYNTAX, 11, strstr(text, "\n\n") - text + 1);
	off = strstr(text, "[0.7") - text;
	expect_err(r, CAP_ESYNTAX, 12, off + 12);
	expect_err(r, CAP_ESYNTAX, 13, strstr(text, "[0.8") - text + 17);
	expect_event(r, 'o', "ok");
	expect_err(r, CAP_EOF, 0, -1);
	cap_read_close(r);
}

/* Times going backwards are reported, with the event delivered. */
static void
test_backwards(void **state)
{
	const char		 text[] = HDR "[2.5, \"o\", \"a\"]\n"
	    "[1e-06, \"o\", \"b\"]\n[3, \"o\", \"c\"]\n";
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;

	(void)state;
	fixture_cap_put("back.cast", text, sizeof(text) - 1);
	r = open_ok("back.cast");
	expect_event(r, 'o', "a");
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_EORDER);
	assert_int_equal(ev.usec, 1);
	assert_int_equal(e.line, 3);
	assert_int_equal(ev.len, 1);
	assert_int_equal(ev.data[0], 'b');
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_OK);
	assert_int_equal(ev.usec, 3000000);
	cap_read_close(r);
}

/* Headers that are not ours to read. */
static void
test_headers(void **state)
{
	static const struct {
		const char	*text;
		enum cap_err	 code;
	} cases[] = {
		{ "", CAP_EHEADER },
		{ "\n", CAP_EHEADER },
		{ "{\"version\": 1, \"width\": 80, \"height\": 24}\n",
		    CAP_EVERSION },
		{ "{\"version\": 3, \"term\": {\"cols\": 80}}\n", CAP_EVERSION },
		{ "{\"version\": \"2\"}\n", CAP_EVERSION },
		{ "{\"width\": 80}\n", CAP_EHEADER },
		{ "{\"version\": 2, \"height\": 24}\n", CAP_EHEADER },
		{ "[0.1, \"o\", \"x\"]\n", CAP_EHEADER },
		{ "\x7f" "ELF\x02\x01\x01\n", CAP_EHEADER },
		{ "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
		    "{\"encoding\": \"koi8-r\"}}\n", CAP_EHEADER },
		{ "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
		    "{\"judge\": 100}}\n", CAP_EHEADER },
		{ "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
		    "{\"localecho\": \"crlf\"}}\n", CAP_EHEADER },
		{ "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
		    "{\"convention\": \"no\"}}\n", CAP_EHEADER },
		{ "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
		    "{\"filter\": 0}}\n", CAP_EHEADER },
	};
	struct cap_reader	*r;
	struct cap_error	 e;
	const char		*p;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fixture_cap_put("hdr.cast", cases[i].text,
		    strlen(cases[i].text));
		if (cap_read_open(fixture_cap_path("hdr.cast"), &r, &e) !=
		    cases[i].code)
			fail_msg("case %zu: expected %s, got %s: %s", i,
			    cap_strerror(cases[i].code), cap_strerror(e.code),
			    e.msg);
		assert_null(r);
		assert_int_equal(e.line, 1);
		assert_string_equal(e.file, fixture_cap_path("hdr.cast"));
		unlink(fixture_cap_path("hdr.cast"));
	}
	assert_int_equal(cap_read_open(fixture_cap_path("none.cast"), &r, &e),
	    CAP_ESYS);
	assert_string_equal(e.file, fixture_cap_path("none.cast"));

	/* A plain asciicast (asciinema's own) reads as UTF-8 text. */
	p = "{\"version\": 2, \"width\": 100, \"height\": 30, "
	    "\"timestamp\": 1504467315}\n[0.2, \"o\", \"\\u263a\"]\n";
	fixture_cap_put("plain.cast", p, strlen(p));
	r = open_ok("plain.cast");
	assert_int_equal(cap_read_meta(r)->encoding, CAP_UTF8);
	assert_int_equal(cap_read_meta(r)->judge, TX_JUDGE_NONE);
	expect_event(r, 'o', "\xe2\x98\xba");
	cap_read_close(r);

	/* How the screen was drawn: each flag as written, or an error. */
	p = "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
	    "{\"convention\": false, \"filter\": true, \"screen\": true, "
	    "\"localecho\": \"cr\"}}\n";
	fixture_cap_put("flags.cast", p, strlen(p));
	r = open_ok("flags.cast");
	assert_int_equal(cap_read_meta(r)->noconvention, 1);
	assert_int_equal(cap_read_meta(r)->nofilter, 0);
	assert_int_equal(cap_read_meta(r)->screen, 1);
	assert_int_equal(cap_read_meta(r)->localecho, VIEW_ECHO_CR);
	cap_read_close(r);
	p = "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
	    "{\"localecho\": false}}\n";
	fixture_cap_put("flags.cast", p, strlen(p));
	r = open_ok("flags.cast");
	assert_int_equal(cap_read_meta(r)->localecho, VIEW_ECHO_NONE);
	cap_read_close(r);
	p = "{\"version\": 2, \"width\": 80, \"height\": 24, \"muxd\": "
	    "{\"localecho\": \"lf\"}}\n";
	fixture_cap_put("flags.cast", p, strlen(p));
	assert_int_equal(cap_read_open(fixture_cap_path("flags.cast"), &r, &e),
	    CAP_EHEADER);
	assert_non_null(strstr(e.msg, "localecho is not true, false or"));
	unlink(fixture_cap_path("flags.cast"));
}

/* A line of megabytes reads; over the limit it is skipped alone. */
static void
test_long_lines(void **state)
{
	size_t			 n = 5 << 20, hl = sizeof(HDR) - 1, i;
	char			*text, *p;
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;

	(void)state;
	assert_non_null(text = malloc(hl + 2 * n + 100));
	memcpy(text, HDR, hl);
	p = text + hl;
	for (i = 0; i < 2; i++) {
		p += sprintf(p, "[%zu, \"o\", \"", i);
		memset(p, 'x', n);
		p += n;
		p += sprintf(p, "\"]\n");
	}
	p += sprintf(p, "[9, \"o\", \"end\"]\n");
	fixture_cap_put("long.cast", text, (size_t)(p - text));
	r = open_ok("long.cast");
	assert_int_equal(cap_read_event(r, &ev, &e), CAP_OK);
	assert_int_equal(ev.len, n);
	cap_read_set_limit(r, 1 << 20);
	expect_err(r, CAP_ELONG, 3, (int64_t)(hl + n + 13));
	expect_event(r, 'o', "end");
	cap_read_close(r);
	free(text);
}

/* Random garbage after a header never crashes the reader. */
static void
test_garbage(void **state)
{
	unsigned int		 seed = 42;
	char			 text[65536];
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;
	size_t			 i, hl = sizeof(HDR) - 1;
	int			 round, n;
	enum cap_err		 rc;

	(void)state;
	for (round = 0; round < 50; round++) {
		memcpy(text, HDR, hl);
		for (i = hl; i < sizeof(text); i++)
			text[i] = (char)(round % 2 ? rand_r(&seed) :
			    "[]\",.0123456789eE-+\\u\"iom \n\r\t\xc3\xa9"[
			    rand_r(&seed) % 30]);
		fixture_cap_put("junk.cast", text, sizeof(text));
		r = open_ok("junk.cast");
		for (n = 0; n < 100000; n++) {
			rc = cap_read_event(r, &ev, &e);
			if (rc == CAP_EOF)
				break;
			if (rc != CAP_OK && rc != CAP_EORDER)
				assert_true(e.offset >= (int64_t)hl &&
				    e.line >= 2 && e.msg[0] != '\0');
		}
		assert_int_equal(rc, CAP_EOF);
		cap_read_close(r);
	}
}

/*
 * A system error takes errno as it was at the call: .sys, the message
 * "what: strerror" (strerror alone without one), the place; errno is left
 * as found, and a NULL error is taken.
 */
/*
 * The unwritten tail of a capture whose writer died is cut off, and only
 * that: what was written, a torn last line included, stays.
 */
static void
test_file_trim(void **state)
{
	static const struct {
		const char	*in;
		size_t		 n;
		const char	*out;
		size_t		 nout;
	} cases[] = {
		{ "ab\n\0\0\0", 6, "ab\n", 3 },
		{ "ab\ncd\0\0", 7, "ab\ncd", 5 },
		{ "ab\n", 3, "ab\n", 3 },
		{ "a\0b\n\0", 5, "a\0b\n", 4 },
	};
	char			 path[] = "/tmp/test_cap_trimXXXXXX", buf[16];
	struct cap_error	 e;
	int64_t			 cut;
	size_t			 i;
	ssize_t			 n;
	int			 fd;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true((fd = mkstemp(path)) != -1);
		assert_int_equal(write(fd, cases[i].in, cases[i].n),
		    (ssize_t)cases[i].n);
		close(fd);
		assert_int_equal(cap_file_trim(path, &cut, &e), CAP_OK);
		assert_int_equal(cut, (int64_t)(cases[i].n - cases[i].nout));
		assert_true((fd = open(path, O_RDONLY)) != -1);
		n = read(fd, buf, sizeof(buf));
		close(fd);
		unlink(path);
		memcpy(path + strlen(path) - 6, "XXXXXX", 6);
		assert_int_equal(n, (ssize_t)cases[i].nout);
		assert_memory_equal(buf, cases[i].out, cases[i].nout);
	}
	assert_int_equal(cap_file_trim("/nonexistent/x.cast", &cut, &e),
	    CAP_ESYS);
}

/* Read a whole file into a new buffer (NULs included); its length. */
static char *
slurp(const char *path, size_t *len)
{
	struct cap_error	 e;
	char			*buf;

	if (cap_file_read(path, 1 << 24, &buf, len, &e) != CAP_OK)
		fail_msg("reading %s: %s", path, e.msg);
	return (buf);
}

/* The last event of a capture, read whole: its kind, its data. */
static void
last_events(const char *name, char *prev, char *last, size_t size)
{
	struct cap_reader	*r = open_ok(name);
	struct cap_event	 ev;
	struct cap_error	 e;
	enum cap_err		 got;

	prev[0] = last[0] = '\0';
	while ((got = cap_read_event(r, &ev, &e)) != CAP_EOF) {
		if (got != CAP_OK)
			fail_msg("%s: %s at line %lu", name, e.msg, e.line);
		snprintf(prev, size, "%s", last);
		snprintf(last, size, "%c %.*s", ev.kind, (int)ev.len,
		    (const char *)ev.data);
	}
	cap_read_close(r);
}

/*
 * A write that fails part-way (here past RLIMIT_FSIZE, as on a full
 * disk) leaves no part of its line; what a fault lost is counted by
 * direction, and marked once writing works again.
 */
static void
test_full_disk(void **state)
{
	struct cap_writer	*w;
	struct cap_meta		 m;
	struct cap_error	 e;
	struct rlimit		 rl, old;
	uint64_t		 lost[3];
	char			 big[200], text[CAP_MARKER_MAX], *buf;
	char			 prev[512], last[512];
	size_t			 len, before;

	(void)state;
	meta_test(&m);
	memset(big, 'x', sizeof(big));
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(cap_write_open(fixture_cap_path("full.cast"), &m, 0,
	    &w, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "hi\r", 3, 1000,
	    &e), CAP_OK);
	free(slurp(fixture_cap_path("full.cast"), &before));
	getrlimit(RLIMIT_FSIZE, &old);
	rl = old;
	rl.rlim_cur = before + 20;	/* room for part of a line */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
	assert_int_equal(cap_write_event_usec(w, CAP_OUTPUT, big, sizeof(big),
	    2000, &e), CAP_ESYS);
	assert_int_equal(e.sys, EFBIG);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "ab", 2, 3000,
	    &e), CAP_ESYS);
	assert_int_equal(cap_write_event_usec(w, CAP_MARKER, "link down x",
	    11, 3000, &e), CAP_ESYS);
	assert_int_equal(cap_write_fault(w, lost), EFBIG);
	assert_int_equal(lost[0], 2);
	assert_int_equal(lost[1], sizeof(big));
	assert_int_equal(lost[2], 1);
	free(buf = slurp(fixture_cap_path("full.cast"), &len));
	assert_int_equal(len, before);	/* the part written, cut off */
	assert_int_equal(cap_write_loss(w, text, sizeof(text)), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "cd", 2, 4000,
	    &e), CAP_OK);
	assert_int_equal(cap_write_fault(w, lost), 0);
	assert_true(cap_write_loss(w, text, sizeof(text)) > 0);
	assert_string_equal(text, "loss input 2 output 200 markers 1 EFBIG");
	assert_int_equal(cap_write_loss(w, text, sizeof(text)), 0);
	last_events("full.cast", prev, last, sizeof(last));
	assert_string_equal(last, "i cd");
	assert_int_equal(cap_write_close(w, &e), CAP_OK);
	signal(SIGXFSZ, SIG_DFL);
}

/*
 * A capture its writer left open (a copy of the mapped file before the
 * close: its zero tail), and one with a torn last line too, are closed
 * by cap_recover(): tail and torn line cut off, the crash marker and the
 * closing seal after what was written; a capture closed is left alone.
 */
static void
test_recover(void **state)
{
	static const char	 torn[] = "[9.5, \"o\", \"half a li";
	struct cap_writer	*w;
	struct cap_meta		 m;
	struct cap_error	 e;
	struct cap_recovery	 rc;
	char			*buf, *cp, prev[512], last[512], want[128];
	size_t			 len, n, k;

	(void)state;
	meta_test(&m);
	assert_int_equal(cap_write_open(fixture_cap_path("dead.cast"), &m,
	    CAP_WRITE_MAP, &w, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "hello\r", 6,
	    1000, &e), CAP_OK);
	assert_int_equal(cap_write_sync(w, &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "unfinish", 8,
	    2000, &e), CAP_OK);
	buf = slurp(fixture_cap_path("dead.cast"), &len);
	assert_int_equal(buf[len - 1], '\0');
	for (n = len; n > 0 && buf[n - 1] == '\0'; n--)
		;
	fixture_cap_put("crashed.cast", buf, len);
	assert_non_null(cp = malloc(len + sizeof(torn)));
	memcpy(cp, buf, n);
	memcpy(cp + n, torn, sizeof(torn) - 1);
	memset(cp + n + sizeof(torn) - 1, 0, len - n);
	fixture_cap_put("torn.cast", cp, len + sizeof(torn) - 1);
	assert_int_equal(cap_write_close(w, &e), CAP_OK);

	assert_int_equal(cap_recover(fixture_cap_path("crashed.cast"), &rc,
	    &e), CAP_OK);
	assert_int_equal(rc.crashed, 1);
	assert_int_equal(rc.trimmed, (int64_t)(len - n));
	assert_int_equal(rc.torn, 0);
	snprintf(want, sizeof(want), "m crash trimmed %zu torn 0", len - n);
	last_events("crashed.cast", prev, last, sizeof(last));
	assert_string_equal(prev, want);
	assert_memory_equal(last, "m seal ", 7);
	assert_non_null(strstr(last, " end"));
	free(cp);
	cp = slurp(fixture_cap_path("crashed.cast"), &k);
	assert_true(k > n);
	assert_memory_equal(cp, buf, n);	/* every byte written stays */
	free(cp);

	assert_int_equal(cap_recover(fixture_cap_path("torn.cast"), &rc, &e),
	    CAP_OK);
	assert_int_equal(rc.crashed, 1);
	assert_int_equal(rc.torn, (int64_t)sizeof(torn) - 1);
	assert_int_equal(rc.tornat, (int64_t)n);
	last_events("torn.cast", prev, last, sizeof(last));
	snprintf(want, sizeof(want), "m crash trimmed %zu torn %zu at %zu",
	    len - n, sizeof(torn) - 1, n);
	assert_string_equal(prev, want);

	/* Closed: nothing to do, the second time as the first. */
	assert_int_equal(cap_recover(fixture_cap_path("dead.cast"), &rc, &e),
	    CAP_OK);
	assert_int_equal(rc.crashed, 0);
	assert_int_equal(rc.trimmed, 0);
	assert_int_equal(cap_recover(fixture_cap_path("crashed.cast"), &rc,
	    &e), CAP_OK);
	assert_int_equal(rc.crashed, 0);
	free(buf);
}

/*
 * A capture being written, read as far as it was at a moment (the
 * control command "screens"): the events up to that offset and no later
 * one, the reading ending there whether the header's first read went
 * past it or not.
 */
static void
test_read_to_offset(void **state)
{
	struct cap_writer	*w;
	struct cap_reader	*r;
	struct cap_meta		 m;
	struct cap_error	 e;
	struct cap_event	 ev;
	int64_t			 at[3];
	int			 i, n;

	(void)state;
	meta_test(&m);
	assert_int_equal(cap_write_open(fixture_cap_path("live.cast"), &m,
	    CAP_WRITE_MAP, &w, &e), CAP_OK);
	at[0] = cap_write_offset(w);
	assert_int_equal(cap_write_event_usec(w, CAP_INPUT, "one", 3, 1000,
	    &e), CAP_OK);
	assert_int_equal(cap_write_event_usec(w, CAP_OUTPUT, "two", 3, 2000,
	    &e), CAP_OK);
	at[1] = cap_write_offset(w);
	assert_true(at[1] > at[0]);
	for (i = 0; i < 5000; i++)
		assert_int_equal(cap_write_event_usec(w, CAP_OUTPUT, "later",
		    5, 3000 + i, &e), CAP_OK);
	at[2] = cap_write_offset(w);
	assert_true(at[2] - at[1] > 65536);	/* past the first read */
	for (i = 0; i < 3; i++) {
		assert_int_equal(cap_read_open(fixture_cap_path("live.cast"),
		    &r, &e), CAP_OK);
		cap_read_set_end(r, at[i]);
		for (n = 0; cap_read_event(r, &ev, &e) == CAP_OK; n++)
			if (n < 2)
				assert_memory_equal(ev.data, n == 0 ? "one" :
				    "two", 3);
		assert_int_equal(n, i == 0 ? 0 : i == 1 ? 2 : 5002);
		assert_int_equal(cap_read_event(r, &ev, &e), CAP_EOF);
		cap_read_close(r);
	}
	assert_int_equal(cap_write_close(w, &e), CAP_OK);
}

static void
test_error_sys(void **state)
{
	struct cap_error	e;
	char			want[CAP_ERR_MSG];

	(void)state;
	errno = ENOSPC;
	assert_int_equal(cap_error_sys(&e, CAP_ESYS, "f.cast", 3, 42,
	    "write %d", 7), CAP_ESYS);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(e.code, CAP_ESYS);
	assert_int_equal(e.sys, ENOSPC);
	assert_string_equal(e.file, "f.cast");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.offset, 42);
	snprintf(want, sizeof(want), "write 7: %s", strerror(ENOSPC));
	assert_string_equal(e.msg, want);
	errno = ENOENT;
	assert_int_equal(cap_error_sys(&e, CAP_ENOMEM, NULL, 0, -1, NULL),
	    CAP_ENOMEM);
	assert_int_equal(e.sys, ENOENT);
	assert_string_equal(e.file, "");
	assert_string_equal(e.msg, strerror(ENOENT));
	assert_int_equal(cap_error_sys(NULL, CAP_ESYS, NULL, 0, -1, "x"),
	    CAP_ESYS);
	assert_int_equal(errno, ENOENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_sys),
		cmocka_unit_test(test_file_trim),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_header_segments),
		cmocka_unit_test(test_writer_clamps),
		cmocka_unit_test(test_torn),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_full_disk),
		cmocka_unit_test(test_recover),
		cmocka_unit_test(test_read_to_offset),
	};

	return (cmocka_run_group_tests(tests, fixture_cap_setup,
	    fixture_cap_teardown));
}
