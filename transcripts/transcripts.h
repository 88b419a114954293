/*
 * The auditors' tool, transcripts(1): the parts its commands (cmd.h,
 * cmd-NAME.c) share and the unit tests and fuzzers drive, over the
 * capture library (capture.h) and the scoring (score.h).
 *
 *	stats		typing cadence and response latency (pure)
 *	verify		the checks of captures and transcripts
 *	verify-manifest	a round manifest, its signature and its files
 *	verify-compliance  compliance.txt against the verdict markers
 *	verify-chain	a capture's seals, end and segments
 *	verify-room	the room's chain of manifests, start to end, and the
 *			files on disk against it
 *
 * Like the libraries below it, these parts never log and never exit:
 * what they find is a finding of a report, kept with its line and
 * offset, and a file that does not read is an enum cap_err.  No library
 * or other program includes this header.
 */
#ifndef TRANSCRIPTS_H
#define TRANSCRIPTS_H

#include <stddef.h>
#include <stdint.h>

#include "capture.h"	/* captures, findings, keys; text.h */

/* stats.c: typing cadence and response latency (pure) */
#define STATS_BURST_GAP		2000000	/* us: a longer pause ends a burst */
#define STATS_MECHANICAL	0.10	/* QCD below this: mechanical typing */
#define STATS_MIN_GAPS		20	/* fewer gaps: no verdict */
enum stats_who { STATS_JUDGE, STATS_ENTITY };
struct stats_series {
	int64_t		*v;		/* gaps or latencies, usec */
	size_t		 n;
	size_t		 cap;		/* private */
	size_t		 keys;		/* characters typed (cadence series) */
	size_t		 bursts;	/* bursts, or answers (latency) */
};
struct stats {
	struct stats_series gaps[2];	/* by enum stats_who */
	struct stats_series latency;	/* judge's last byte to answer */
	int64_t		 last[2];	/* private */
	int		 have[2];	/* private */
	int		 last_who;	/* private */
	int		 judge_eol;	/* private */
	struct conv	 judge_conv;	/* private */
	size_t		 interruptions;	/* output begun mid judge line */
	enum cap_encoding charset;	/* utf-8: a character is one key */
};
struct stats_summary {
	size_t		 keys;
	size_t		 bursts;
	size_t		 n;		/* values summarised */
	double		 min, q1, median, q3, max, mean;	/* seconds */
	double		 cv;		/* standard deviation / mean */
	double		 qcd;		/* (q3 - q1) / (q3 + q1) */
	int		 mechanical;	/* 1, 0, or -1: too few values */
};
void		 stats_init(struct stats *);
int		 stats_feed(struct stats *, enum cap_kind,
		    const unsigned char *, size_t, int64_t);
int		 stats_add(struct stats_series *, const struct stats_series *);
void		 stats_summary(struct stats_series *, struct stats_summary *);
void		 stats_series_free(struct stats_series *);
void		 stats_free(struct stats *);

/* verify.c: the auditor's checks of captures and transcripts */
#define VERIFY_GAP_DEFAULT	(120 * (int64_t)1000000)	/* usec */
#define VERIFY_FINDING_MAX	1000	/* findings kept; all are counted */
enum verify_kind {
	VERIFY_NOTE,		/* said, but not a finding */
	VERIFY_OPEN,		/* the file cannot be read */
	VERIFY_HEADER,		/* the capture header does not read */
	VERIFY_EVENT,		/* a line that is no event (skipped) */
	VERIFY_ORDER,		/* a time before the previous event's */
	VERIFY_TORN,		/* a last line without its newline */
	VERIFY_LONG,		/* a line over the reader's limit */
	VERIFY_GAP,		/* a silence longer than the threshold */
	VERIFY_FAULT,		/* a fault marker */
	VERIFY_PD,		/* no public-domain line */
	VERIFY_FORBIDDEN,	/* Cambridge Center, University of Surrey */
	VERIFY_MISMATCH,	/* transcript is not the capture rendered */
	VERIFY_FORMAT,		/* a transcript line out of format */
	VERIFY_SEAL,		/* the hash chain does not match a seal */
	VERIFY_END,		/* no closing seal: cut short, or a crash */
	VERIFY_SIGNATURE,	/* a manifest's signature does not verify */
	VERIFY_MANIFEST,	/* a file is not as its manifest sealed it */
	VERIFY_COMPLIANCE,	/* compliance.txt and the markers differ */
	VERIFY_CHAIN,		/* a manifest missing, extra, replaced, moved */
	VERIFY_WITNESS,		/* a countersignature does not verify */
	VERIFY_KEY,		/* no key, or not the key of the manifests */
	VERIFY_OPENCHAIN,	/* the chain ends without a shutdown */
	VERIFY_OLDFORMAT,	/* a manifest of format 1, before the chain */
	VERIFY_CRASH,		/* a crash, recovered and sealed */
	VERIFY_DISCONNECT,	/* a link the operator disconnected */
	VERIFY_VERDICT,		/* a verdict marker */
	VERIFY_NOTED,		/* a short hash noted differs, or is missing */
	VERIFY_COUNT
};
/*
 * What a kind of finding says of the evidence, from the least to the
 * most grave: the exit status is that of the gravest found.
 */
enum verify_class {
	VERIFY_C_NOTE,		/* said, nothing more */
	VERIFY_C_EVENT,		/* the contest's: faults, crashes, verdicts */
	VERIFY_C_OPEN,		/* the chain is intact but not ended */
	VERIFY_C_UNVERIFIED,	/* no key, or another key: not proven */
	VERIFY_C_FAILURE,	/* integrity: not as muxd sealed it */
	VERIFY_C_COUNT
};
#define VERIFY_EXIT_INTACT	0	/* intact, complete, signed by -k */
#define VERIFY_EXIT_FAILURE	1	/* an integrity failure */
#define VERIFY_EXIT_USAGE	2
#define VERIFY_EXIT_UNVERIFIED	3	/* no key, or not the room's */
#define VERIFY_EXIT_OPEN	4	/* the chain not ended by a shutdown */
struct verify_room;
struct verify_verdicts;
struct verify_opts {
	int64_t		 gap;		/* longest silence allowed, usec */
	const char	*txdir;		/* transcripts' directory, NULL: */
					/* the capture's own */
	const struct verify_room *room;	/* the chain of manifests, or NULL */
	struct verify_verdicts *verdicts;	/* markers kept, or NULL */
};
struct verify_report {
	char		*file;
	char		*transcript;	/* the transcript compared, or NULL */
	size_t		 tx_first;	/* findings from here are its */
	struct finding_list findings;	/* the first VERIFY_FINDING_MAX,
					   kinds enum verify_kind */
	size_t		 count[VERIFY_COUNT];	/* all, by kind */
	size_t		 total;		/* findings, notes not counted */
	size_t		 nclass[VERIFY_C_COUNT];	/* all, by class */
	size_t		 nevent;	/* events read */
	int64_t		 duration;	/* time of the last event, usec */
	unsigned char	 chain_head[CAP_CHAIN_BYTES];	/* of the whole */
	unsigned long	 chain_lines;	/* lines of the file */
	int64_t		 chain_bytes;
	int		 sealed;	/* ends with its closing seal */
};
void		 verify_opts_init(struct verify_opts *);
int		 verify_report_init(struct verify_report *, const char *);
void		 verify_report_free(struct verify_report *);
enum cap_err	 verify_capture(const char *, const struct verify_opts *,
		    struct verify_report *, struct cap_error *);
enum cap_err	 verify_transcript_file(const char *, struct verify_report *,
		    struct cap_error *);
int		 verify_transcript(struct verify_report *, const void *,
		    size_t);
int		 verify_forbidden(const void *, size_t, size_t *,
		    const char **);
const char	*verify_kind_name(enum verify_kind);
enum verify_class verify_kind_class(enum verify_kind);
int		 verify_status(const size_t *);
char		*verify_tx_path(const char *, const struct cap_meta *,
		    const struct verify_opts *, int *);
int		 verify_add(struct verify_report *, enum verify_kind,
		    unsigned long, int64_t, const char *, ...)
		    __attribute__((format(printf, 5, 6)));

/* verify-manifest.c: a round manifest, its signature and its files */
enum cap_err	 verify_manifest(const char *, struct verify_room *,
		    struct verify_report *, struct cap_error *);
char		*verify_manifest_base(const char *);
char		*verify_manifest_path(const char *, const char *);

/* verify-room.c: the chain of manifests, and the files against it */
enum verify_sig {
	VERIFY_SIG_UNCHECKED,	/* no key to check it with */
	VERIFY_SIG_OK,		/* good, by the key */
	VERIFY_SIG_OTHER,	/* by another key */
	VERIFY_SIG_UNSIGNED,	/* not signed, and names no key */
	VERIFY_SIG_BAD		/* missing or does not verify */
};
struct verify_room *verify_room_new(const struct sign_pub *, int,
		    const struct sign_pub *);
void		 verify_room_free(struct verify_room *);
const struct sign_pub *verify_room_key(const struct verify_room *);
const struct sign_pub *verify_room_witness(const struct verify_room *);
int		 verify_room_add(struct verify_room *, const char *, json_t *,
		    enum verify_sig, int, const char *);
const char	*verify_room_hash(const struct verify_room *, int);
#define VERIFY_ROOM_WALKED	0x1	/* a directory was searched */
#define VERIFY_ROOM_ENDED	0x2	/* the room is over: an open chain fails */
int		 verify_room_finish(struct verify_room *, int,
		    struct verify_report *);
int		 verify_room_check(const struct verify_room *, const char *,
		    struct verify_report *);
int		 verify_room_unclosed(const struct verify_room *,
		    const char *, int64_t, struct verify_report *,
		    unsigned long);
int		 verify_room_closed(const struct verify_room *, const char *,
		    int64_t, struct verify_report *, const char *);

/*
 * verify-noted.c: the short hashes of manifests written down at the
 * rounds' ends (transcripts verify -s, -S), against the chain
 */
struct verify_note {
	int		 seq;
	char		 hex[CAP_CHAIN_HEX];	/* 16 to 64 digits, lowercase */
	char		 where[160];		/* "-s item 2", "FILE:LINE" */
};
struct verify_notes {
	struct verify_note *v;
	size_t		 n, cap;
};
int		 verify_notes_parse(struct verify_notes *, const char *, int,
		    const char *, char *, size_t);
void		 verify_notes_free(struct verify_notes *);
int		 verify_room_noted(const struct verify_room *,
		    const struct verify_notes *, struct verify_report *);

/* verify-compliance.c: compliance.txt against the verdict markers */
struct verify_verdict {
	int		 round;
	char		*link;		/* the capture's title */
	char		*text;		/* "VERDICT judge NN ..." */
	char		*file;
	unsigned long	 line;
	int		 cut;		/* the marker was cut to its limit */
	int		 used;		/* matched by a line */
};
struct verify_verdicts {
	struct verify_verdict *v;
	size_t		 n;
	size_t		 cap;
};
int		 verify_verdicts_add(struct verify_verdicts *,
		    const struct cap_meta *, const char *,
		    const struct cap_event *);
void		 verify_verdicts_free(struct verify_verdicts *);
enum cap_err	 verify_compliance(const char *, struct verify_verdicts *,
		    struct verify_report *, struct cap_error *);

/* verify-chain.c: a capture's seals, end and segments */
struct verify_chain;			/* private */
struct verify_chain *verify_chain_open(const char *);
void		 verify_chain_close(struct verify_chain *);
int		 verify_chain_event(struct verify_chain *,
		    struct verify_report *, const struct cap_event *);
int		 verify_chain_finish(struct verify_chain *,
		    struct verify_report *, const struct cap_meta *,
		    const struct verify_room *);

#endif /* TRANSCRIPTS_H */
