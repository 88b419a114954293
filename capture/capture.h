/*
 * libcapture: what muxd records with.  Lossless timed captures and
 * 1996-format public-domain transcripts of a Turing-test contest room,
 * written live, their hash chains and seals, room keys and signatures,
 * round manifests; and the reading of captures and of the 2007-2012 LPP
 * keystroke logs that the auditors' tool (transcripts/) and comprog
 * build on.  muxd and comprog include it; the formats are specified in
 * transcripts(5).
 *
 *	cap-error	what failed, in which file, at which line and byte
 *	cap-meta	a capture's header
 *	cap-marker	marker texts ("judge 04 typed")
 *	cap-json	the fast JSON paths of the writer and the reader
 *	cap-chain	the hash chain of a capture's lines, and its seals
 *	cap-write	a capture written, in segments, fsync'd off the path
 *	cap-read	a capture read, event by event
 *	cap-recover	a capture its writer left open (a crash), closed
 *	cap-file	whole files read, written and hashed
 *	tx-write	the transcript (LPyy-nn.TXT) written
 *	rec		live recording: a capture and its transcript together
 *	finding		what a check found, and where
 *	lpp		the 2007-2012 LPP keystroke logs, parsed, and their
 *			key names: lpp.h, for the tool's import and
 *			comprog's LPP bridge alone
 *	sign		room keys and signatures in minisign's formats
 *	manifest	round manifests: the evidence sealed and signed
 *
 * A capture is an asciicast v2 file (JSON lines): a header object, then
 * one event per line, [time, "i"|"o"|"m", data], time in seconds since the
 * header's timestamp.  Event data are bytes, each byte one code point
 * U+0000..U+00FF ("encoding": "iso-8859-1" in the "muxd" header object).
 *
 * A transcript is the text file of the 1996 rules (LPyy-nn.TXT), made by
 * the judge's screen of the text library (text.h, view.c) and a formatter
 * (tx-write.c) that the live recorder (rec.c) and `transcripts render`
 * share, so that rendering a capture gives back, byte for byte, the
 * transcript written live.
 *
 * The library never logs, never exits and never reads the clock for an
 * event: every function that can fail returns an enum cap_err and fills a
 * struct cap_error (what, file, line, byte offset).  Structures whose
 * fields are listed here may be allocated by the caller; fields marked
 * private are not to be touched.  It sees the text library alone, and
 * changes to this header are additive.
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <sys/types.h>
#include <sys/time.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "text.h"	/* the convention, UTF-8, the screen; cap_encoding */

#define CAP_VERSION		2	/* asciicast version written and read */
#define CAP_WIDTH		80	/* header width and height */
#define CAP_HEIGHT		24
#define CAP_SEGMENT_MAX		9999	/* NAME.9999.cast is the last segment */
#define CAP_LINE_LIMIT		(64UL << 20)	/* default longest line read */
#define CAP_UTC_LOCAL		INT32_MIN	/* utc_offset: take the host's */

#define TX_CYCLE_MAX		99	/* LPyy-99.TXT is the last */

/* cap-error.c */
enum cap_err {
	CAP_OK = 0,
	CAP_EOF,	/* no more events (not an error) */
	CAP_ESYS,	/* a system call failed; errno in .sys */
	CAP_ENOMEM,	/* out of memory */
	CAP_EINVAL,	/* a bad argument from the caller */
	CAP_EEXIST,	/* no free file name left (segments, cycle numbers) */
	CAP_EHEADER,	/* first line missing or not a valid header */
	CAP_EVERSION,	/* header "version" is not 2 */
	CAP_ESYNTAX,	/* an event line is not valid JSON */
	CAP_EEVENT,	/* valid JSON but not [time, "x", "data"] */
	CAP_ECODE,	/* a code point above U+00FF in iso-8859-1 data */
	CAP_EORDER,	/* time earlier than the previous event (ev filled) */
	CAP_ETORN,	/* last line has no newline: a torn write (skipped) */
	CAP_ELONG	/* line longer than the reader's limit (skipped) */
};
#define CAP_ERR_FILE	1024
#define CAP_ERR_MSG	256
struct cap_error {
	enum cap_err	 code;
	int		 sys;		/* errno for CAP_ESYS, else 0 */
	char		 file[CAP_ERR_FILE];	/* "" when no file is concerned */
	unsigned long	 line;		/* 1-based line, 0 when none */
	int64_t		 offset;	/* byte offset in file, -1 when none */
	char		 msg[CAP_ERR_MSG];	/* says what, never where */
};
void		 cap_error_clear(struct cap_error *);
void		 cap_error_set(struct cap_error *, enum cap_err, const char *,
		    unsigned long, int64_t, const char *, ...)
		    __attribute__((format(printf, 6, 7)));
enum cap_err	 cap_error_sys(struct cap_error *, enum cap_err, const char *,
		    unsigned long, int64_t, const char *, ...)
		    __attribute__((format(printf, 6, 7)));
const char	*cap_error_format(const struct cap_error *, char *, size_t);
const char	*cap_strerror(enum cap_err);

/* cap-meta.c */
/*
 * The header.  Strings are NUL-terminated UTF-8 (invalid UTF-8 is taken
 * as ISO-8859-1 and converted by cap_meta_normalize()); NULL means absent.
 * A reader owns the strings of the meta it returns; cap_meta_copy()
 * makes a copy the caller frees with cap_meta_free().
 */
struct cap_meta {
	int64_t		 timestamp;	/* Unix seconds of time 0 */
	int		 width;		/* terminal size, default 80x24 */
	int		 height;
	char		*title;
	char		*term;		/* env TERM */
	enum cap_encoding encoding;
	int		 round;		/* round number, 0: none */
	char		*station;	/* station name, "J1" */
	char		*side;		/* "left" or "right" */
	int		 judge;		/* 0..99 or TX_JUDGE_NONE */
	char		*entity;	/* entity name, "E1" */
	char		*kind;		/* "entry" or "confederate" */
	char		*program;	/* transcript header: program name */
	char		*contestant;	/* transcript header: contestant */
	char		*judge_port;	/* port names and addresses */
	char		*judge_address;
	char		*entity_port;
	char		*entity_address;
	char		*software;	/* "muxd 0.1.0" */
	int		 segment;	/* 0, 1, 2...; set by cap_write_open() */
	int32_t		 utc_offset;	/* transcript times: seconds east */
	int		 tx_width;	/* transcript text width */
	char		*transcript;	/* live transcript file name, or NULL */
	int		 has_muxd;	/* read: the header had a "muxd" object */
	int		 screen;	/* an export of the judge's screen */
	enum cap_encoding charset;	/* the link's: how its bytes read */
	int		 noconvention;	/* no 1996 prompt and echo by muxd */
	int		 nofilter;	/* controls passed to the judge */
	int		 localecho;	/* the judge's terminal echoes: an
					   enum view_echo */
	int		 tcharset;	/* the judge's terminal's, -1: charset */
};
void		 cap_meta_init(struct cap_meta *);
enum cap_err	 cap_meta_copy(struct cap_meta *, const struct cap_meta *,
		    struct cap_error *);
enum cap_err	 cap_meta_normalize(struct cap_meta *, struct cap_error *);
void		 cap_meta_free(struct cap_meta *);
json_t		*cap_meta_to_json(const struct cap_meta *);
enum cap_err	 cap_meta_from_json(json_t *, struct cap_meta *,
		    struct cap_error *);
int		 cap_meta_set(char **, const char *);

/* cap-marker.c */
/*
 * Marker ("m" event) texts are ASCII words separated by single spaces;
 * the first word names the marker (transcripts(5) lists them).  The one
 * the transcript reads is "judge NN [how]", NN two digits 00..99.
 */
#define CAP_MARKER_MAX	256
int		 cap_marker_judge(const unsigned char *, size_t);
size_t		 cap_marker_format_judge(char *, size_t, int, const char *);

/* cap-json.c: the fast JSON paths of the writer and the reader */
enum cap_kind {
	CAP_INPUT = 'i',	/* bytes from the judge's terminal */
	CAP_OUTPUT = 'o',	/* bytes from the entity towards the judge */
	CAP_MARKER = 'm',	/* a marker, ASCII text */
	CAP_RESIZE = 'r'	/* "COLSxROWS" (read only, from other tools) */
};
#define CAP_JSON_MAX(n)	((n) * 6 + 64)	/* worst escaped event of n bytes */
size_t		 cap_json_event(char *, int64_t, enum cap_kind,
		    const unsigned char *, size_t, enum cap_encoding);
size_t		 cap_json_string(char *, const unsigned char *, size_t,
		    enum cap_encoding);
struct cap_event;
enum cap_err	 cap_json_parse_event(const char *, size_t, enum cap_encoding,
		    struct cap_event *, unsigned char *, size_t *, char *, size_t);

/* cap-chain.c: the hash chain of a capture's lines, and its seals */
#define CAP_CHAIN_BYTES		32	/* BLAKE2b-256 */
#define CAP_CHAIN_HEX		(CAP_CHAIN_BYTES * 2 + 1)
struct cap_chain;			/* private */
struct cap_chain *cap_chain_new(void);
void		 cap_chain_free(struct cap_chain *);
void		 cap_chain_feed(struct cap_chain *, const void *, size_t);
void		 cap_chain_peek(const struct cap_chain *, const void *, size_t,
		    unsigned char *, unsigned long *);
void		 cap_chain_set(struct cap_chain *, const unsigned char *,
		    unsigned long);
const unsigned char *cap_chain_head(struct cap_chain *);
unsigned long	 cap_chain_lines(const struct cap_chain *);
char		*cap_chain_hex(const unsigned char *, char *);
int		 cap_chain_unhex(const char *, unsigned char *);
enum cap_err	 cap_chain_file(const char *, unsigned long, unsigned char *,
		    unsigned long *, int64_t *, struct cap_error *);
size_t		 cap_chain_seal_format(char *, size_t, unsigned long,
		    const unsigned char *, int);
int		 cap_chain_seal_parse(const unsigned char *, size_t,
		    unsigned long *, unsigned char *, int *);

/* cap-write.c */
struct cap_writer;			/* private */
#define CAP_WRITE_NOSEGMENT	0x1	/* the exact name or CAP_EEXIST */
#define CAP_WRITE_MAP		0x2	/* write through a shared mapping */
enum cap_err	 cap_write_open(const char *, const struct cap_meta *, int,
		    struct cap_writer **, struct cap_error *);
enum cap_err	 cap_write_event(struct cap_writer *, enum cap_kind,
		    const void *, size_t, const struct timeval *,
		    struct cap_error *);
enum cap_err	 cap_write_event_usec(struct cap_writer *, enum cap_kind,
		    const void *, size_t, int64_t, struct cap_error *);
enum cap_err	 cap_write_sync(struct cap_writer *, struct cap_error *);
enum cap_err	 cap_write_sync_fd(struct cap_writer *, int *,
		    struct cap_error *);
enum cap_err	 cap_write_close(struct cap_writer *, struct cap_error *);
const char	*cap_write_path(const struct cap_writer *);
const struct cap_meta *cap_write_meta(const struct cap_writer *);
int64_t		 cap_write_usec(const struct cap_writer *);
size_t		 cap_write_unhashed(const struct cap_writer *);
int64_t		 cap_write_offset(const struct cap_writer *);
enum cap_err	 cap_write_seal(struct cap_writer *, int, struct cap_error *);
size_t		 cap_write_resume(const struct cap_writer *, char *, size_t,
		    struct cap_error *);
enum cap_err	 cap_write_fsync(int, const char *, int *, struct cap_error *);
enum cap_err	 cap_write_fsync_fd(int, const char *, int *, int *,
		    struct cap_error *);
int		 cap_write_fault(const struct cap_writer *, uint64_t [3]);
size_t		 cap_write_loss(struct cap_writer *, char *, size_t);

/* cap-recover.c: a capture its writer left open, closed */
struct cap_recovery {
	int		 crashed;	/* the crash marker was written */
	int64_t		 trimmed;	/* NUL bytes cut off the end */
	int64_t		 torn;		/* bytes of a torn last line cut off */
	int64_t		 tornat;	/* its offset, -1: none */
	char		 marker[CAP_MARKER_MAX];	/* "crash ..." */
};
enum cap_err	 cap_recover(const char *, struct cap_recovery *,
		    struct cap_error *);

/* cap-read.c */
struct cap_event {
	int64_t		 usec;		/* microseconds since the timestamp */
	enum cap_kind	 kind;
	unsigned char	*data;		/* NUL-terminated; reader's, until */
	size_t		 len;		/* the next cap_read_event() */
	unsigned long	 line;		/* 1-based line of the event */
	int64_t		 offset;	/* byte offset of its line */
};
struct cap_reader;			/* private */
enum cap_err	 cap_read_open(const char *, struct cap_reader **,
		    struct cap_error *);
enum cap_err	 cap_read_fdopen(int, const char *, struct cap_reader **,
		    struct cap_error *);
void		 cap_read_set_limit(struct cap_reader *, size_t);
void		 cap_read_set_end(struct cap_reader *, int64_t);
enum cap_err	 cap_read_event(struct cap_reader *, struct cap_event *,
		    struct cap_error *);
const struct cap_meta *cap_read_meta(const struct cap_reader *);
json_t		*cap_read_header(const struct cap_reader *);
const char	*cap_read_name(const struct cap_reader *);
int64_t		 cap_read_offset(const struct cap_reader *);
unsigned long	 cap_read_line(const struct cap_reader *);
void		 cap_read_close(struct cap_reader *);

/* cap-file.c */
enum cap_err	 cap_file_read(const char *, size_t, char **, size_t *,
		    struct cap_error *);
enum cap_err	 cap_file_write(const char *, const char *, int, int,
		    struct cap_error *);
enum cap_err	 cap_file_hash(const char *, int64_t, unsigned char *, size_t,
		    int64_t *, struct cap_error *);
enum cap_err	 cap_file_trim(const char *, int64_t *, struct cap_error *);

/* tx-write.c */
struct tx_writer;			/* private */
#define TX_WRITE_BUFFERED	0x1	/* write at close, not line by line */
/* In place of text a full disk made a transcript give up (transcripts(5)). */
#define TX_WRITE_CUT	"*** TRANSCRIPT CUT: %llu BYTES LOST ON A FULL DISK ***"
enum cap_err	 tx_write_open(const char *, const struct cap_meta *, int,
		    struct tx_writer **, struct cap_error *);
enum cap_err	 tx_write_fdopen(int, const char *, const struct cap_meta *,
		    int, struct tx_writer **, struct cap_error *);
enum cap_err	 tx_write_memopen(const struct cap_meta *,
		    struct tx_writer **, struct cap_error *);
enum cap_err	 tx_write_event(struct tx_writer *, enum cap_kind,
		    const void *, size_t, int64_t, struct cap_error *);
enum cap_err	 tx_write_sync(struct tx_writer *, struct cap_error *);
enum cap_err	 tx_write_sync_fd(struct tx_writer *, int *, struct cap_error *);
int		 tx_write_fault(const struct tx_writer *, size_t *);
enum cap_err	 tx_write_finish(struct tx_writer *, struct cap_error *);
enum cap_err	 tx_write_close(struct tx_writer *, struct cap_error *);
const char	*tx_write_path(const struct tx_writer *);
const char	*tx_write_buffer(const struct tx_writer *, size_t *);
void		 tx_write_free(struct tx_writer *);
size_t		 tx_write_name(char *, size_t, int64_t, int32_t, int);
int		 tx_write_is_name(const char *);

/* rec.c: live recording, a capture and its transcript fed together */
/*
 * muxd, per link: cap_meta_init(), fill the meta (timestamp = the link's
 * start, tv_sec), rec_open(CAPDIR/NAME.cast, TXDIR/ENTITY, ...); then
 * rec_event(CAP_INPUT) with the bytes read from the judge's port,
 * rec_event(CAP_OUTPUT) with the bytes read from the entity's port (before
 * filtering; not muxd's echo or prompt), rec_event(CAP_MARKER) with marker
 * texts ("judge 04 typed"), each with the time of the forwarding path;
 * rec_sync() at most once a second when something was recorded; and
 * rec_close() when the link ends.  A port's unrouted traffic goes to a
 * capture alone: cap_write_open() and cap_write_event().  To keep fsync(2)
 * out of the forwarding path, rec_sync_fd() instead of rec_sync() hands
 * over duplicates of the files to sync in another thread, and rec_finish()
 * then rec_sync_fd() before rec_close() leave the close nothing to sync.
 */
struct rec;				/* private */
enum cap_err	 rec_open(const char *, const char *, const struct cap_meta *,
		    int, struct rec **, struct cap_error *);
enum cap_err	 rec_event(struct rec *, enum cap_kind, const void *, size_t,
		    const struct timeval *, struct cap_error *);
enum cap_err	 rec_sync(struct rec *, struct cap_error *);
int		 rec_fault(const struct rec *, uint64_t [3]);
enum cap_err	 rec_sync_fd(struct rec *, int [2], struct cap_error *);
enum cap_err	 rec_finish(struct rec *, struct cap_error *);
enum cap_err	 rec_close(struct rec *, struct cap_error *);
const char	*rec_capture_path(const struct rec *);
struct cap_writer *rec_capture(const struct rec *);
const char	*rec_transcript_path(const struct rec *);
enum cap_err	 rec_recover(const char *, const char *, struct cap_recovery *,
		    char **, struct cap_error *);

/* finding.c: what a check found, and where */
#define FINDING_MSG	256
struct finding {
	int		 kind;		/* the checker's enum */
	unsigned long	 line;		/* 1-based, 0: none */
	int64_t		 offset;	/* byte offset, -1: none */
	char		 msg[FINDING_MSG];	/* what, never where */
};
struct finding_list {
	struct finding	*item;		/* in the order found */
	size_t		 n;
	size_t		 cap;		/* private */
};
int		 finding_add(struct finding_list *, size_t, int, unsigned long,
		    int64_t, const char *, va_list)
		    __attribute__((format(printf, 6, 0)));
void		 finding_free(struct finding_list *);

/* sign.c: room keys and signatures in minisign's formats */
#define SIGN_KEYNUM	8
#define SIGN_ID_LEN	17	/* 16 hex digits and a NUL */
struct sign_key {
	unsigned char	keynum[SIGN_KEYNUM];
	unsigned char	sk[64];		/* Ed25519 secret key */
};
struct sign_pub {
	unsigned char	keynum[SIGN_KEYNUM];
	unsigned char	pk[32];		/* Ed25519 public key */
};
char		*sign_key_id(const unsigned char *, char *);
enum cap_err	 sign_keygen(const char *, const char *, struct sign_key *,
		    struct cap_error *);
enum cap_err	 sign_load_secret(const char *, struct sign_key *,
		    struct cap_error *);
enum cap_err	 sign_load_public(const char *, struct sign_pub *,
		    struct cap_error *);
void		 sign_public_of(const struct sign_key *, struct sign_pub *);
void		 sign_key_forget(struct sign_key *);
enum cap_err	 sign_file(const struct sign_key *, const char *, const char *,
		    struct cap_error *);
enum cap_err	 sign_verify_file(const struct sign_pub *, const char *, char *,
		    size_t, struct cap_error *);
enum cap_err	 sign_file_to(const struct sign_key *, const char *,
		    const char *, const char *, const char *,
		    struct cap_error *);
enum cap_err	 sign_verify_to(const struct sign_pub *, const char *,
		    const char *, char *, size_t, struct cap_error *);

/* manifest.c: round manifests, the evidence sealed and signed */
#define MANIFEST_FORMAT		2	/* "muxd_manifest": the chain's */
#define MANIFEST_WITNESS_EXT	".witness.minisig"	/* a countersignature */
struct manifest_opts {
	const char	 *dir;		/* state directory: manifests/ in it */
	const char	**roots;	/* directories of evidence listed */
	size_t		  nroots;
	const char	 *conf;		/* configuration file, or NULL */
	const char	 *why;		/* "round 1 end", "shutdown", "start",
					   "crash recovery" */
	int		  round;	/* 0: none */
	const char	 *software;
	const struct sign_key *key;	/* NULL: not signed */
	time_t		  now;
};
enum cap_err	 manifest_write(const struct manifest_opts *, char **,
		    struct cap_error *);
int		 manifest_tail(const char *, int *, char *, size_t);
enum cap_err	 manifest_witness(const char *, const struct sign_key *,
		    struct cap_error *);
/*
 * A manifest's short form, what people read aloud and write down: the
 * first 16 hex digits of the file's BLAKE2b-256 in groups of four,
 * "3f2a 91c0 7be4 5d18" (b2sum -l 256 prints them first).
 */
#define MANIFEST_SHORT_DIGITS	16
#define MANIFEST_SHORT_LEN	20	/* the groups, their spaces, a NUL */
char		*manifest_short(const unsigned char *, char *);
enum cap_err	 manifest_short_file(const char *, char *, struct cap_error *);
enum cap_err	 manifest_countersign(const char *, const char *,
		    const struct sign_pub *, char *, size_t,
		    struct cap_error *);

#endif /* CAPTURE_H */
