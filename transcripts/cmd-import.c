/*
 * transcripts import: the 2007-2012 LPP keystroke logs into captures.
 *
 * A log is one judge's round with one program: the judge's screen has
 * the program on one side and a confederate on the other ("Left =human"
 * or "Left =program").  Each side with records becomes a capture, the
 * judge's keys as "i" events and the other side's as "o", one event per
 * key at the key's time.  The captures of a log share its earliest
 * record's second as their timestamp.  A key name that stands for no
 * byte becomes an "lpp-key" marker; a log cut off mid-record ends with a
 * "fault lpp truncated" marker.  Everything the import had to decide is
 * kept in the header, under "muxd"/"import" (transcripts(1), import).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "lpp.h"

#ifndef MUXD_VERSION
#define MUXD_VERSION "0.1.0"
#endif

#define IMPORT_FILE_MAX	(256UL << 20)	/* longest log read */
#define IMPORT_NO_OFFSET	INT32_MIN

struct import_side {
	enum lpp_side	 side;
	enum lpp_role	 role;
	size_t		 nrec;
	size_t		 nin, nout, nmark;
};

static int	cmd_import_exec(int, char **);
static int	cmd_import_offset(const char *, int64_t, int32_t *);
static int	cmd_import_parse_offset(const char *, int32_t *);
static const char *cmd_import_base(const char *);
static json_t	*cmd_import_info(const struct lpp_log *, const char *,
		    const struct import_side *, const char *);
static const char *cmd_import_num(char *, size_t, int, int);
static int	cmd_import_side(const struct lpp_log *, const char *,
		    struct import_side *, int64_t, int32_t, const char *);
static int	cmd_import_write(FILE *, int64_t *, enum cap_kind,
		    const void *, size_t, int64_t);
static void	cmd_import_report(const struct lpp_log *);

const struct cmd_entry cmd_import_entry = {
	"import", "[-o dir] [-z [+|-]hh:mm] log ...", cmd_import_exec
};

/* Parse "+hh:mm", "-hh:mm" or "hh:mm" into seconds east; -1 when bad. */
static int
cmd_import_parse_offset(const char *s, int32_t *off)
{
	int	sign = 1, h, m;
	char	c;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	if (sscanf(s, "%2d:%2d%c", &h, &m, &c) != 2 || h > 14 || m > 59 ||
	    h < 0 || m < 0)
		return (-1);
	*off = sign * (h * 3600 + m * 60);
	return (0);
}

/*
 * Guess the UTC offset of a log from its name: the logger named it after
 * its local start time (logfile.NAME.YYYY-MM-DD--HH-MM-SS.log), and the
 * first record follows within minutes.  The difference, rounded to a
 * quarter of an hour, is the offset when the rest is under ten minutes.
 * Returns 0 with *off set, or -1 when the name tells nothing.
 */
static int
cmd_import_offset(const char *base, int64_t first, int32_t *off)
{
	const char	*p;
	struct tm	 tm;
	time_t		 t;
	int64_t		 d, r;
	int		 n;

	for (p = base; (p = strchr(p, '.')) != NULL; p++) {
		memset(&tm, 0, sizeof(tm));
		n = 0;
		if (sscanf(p + 1, "%4d-%2d-%2d--%2d-%2d-%2d%n", &tm.tm_year,
		    &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
		    &tm.tm_sec, &n) == 6 && n == 20)
			break;
	}
	if (p == NULL)
		return (-1);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	if ((t = timegm(&tm)) == (time_t)-1)
		return (-1);
	d = (int64_t)t - first;
	r = (d >= 0 ? d + 450 : d - 450) / 900 * 900;
	if (r > 14 * 3600 || r < -14 * 3600 || d - r > 600 || r - d > 600)
		return (-1);
	*off = (int32_t)r;
	return (0);
}

/* The file name without its directories. */
static const char *
cmd_import_base(const char *path)
{
	const char	*s = strrchr(path, '/');

	return (s != NULL ? s + 1 : path);
}

/* Write a judge or round number, or "NA" when it is the placeholder. */
static const char *
cmd_import_num(char *buf, size_t size, int n, int none)
{
	if (n == none)
		snprintf(buf, size, "NA");
	else
		snprintf(buf, size, "%d", n);
	return (buf);
}

/* The header's "import" object: where the capture came from. */
static json_t *
cmd_import_info(const struct lpp_log *log, const char *base,
    const struct import_side *sd, const char *offhow)
{
	json_t	*o, *ph, *df;
	int	 k, r = 0;

	o = json_object();
	ph = json_array();
	df = json_object();
	if (o == NULL || ph == NULL || df == NULL) {
		json_decref(o);
		json_decref(ph);
		json_decref(df);
		return (NULL);
	}
	if (log->judge == TX_JUDGE_NONE)
		r |= json_array_append_new(ph, json_string("judge"));
	if (log->round == 0)
		r |= json_array_append_new(ph, json_string("round"));
	if (sd->role == LPP_ROLE_UNKNOWN)
		r |= json_array_append_new(ph, json_string("entity"));
	for (k = 0; k < LPP_D_COUNT; k++)
		if (log->ndefect_kind[k] > 0)
			r |= json_object_set_new(df, lpp_defect_name(k),
			    json_integer((json_int_t)log->ndefect_kind[k]));
	r |= json_object_set_new(o, "format", json_string("lpp"));
	r |= json_object_set_new(o, "source", json_string(base));
	r |= json_object_set_new(o, "source_lines",
	    json_integer((json_int_t)log->nline));
	r |= json_object_set_new(o, "source_records",
	    json_integer((json_int_t)log->nrecord));
	r |= json_object_set_new(o, "records",
	    json_integer((json_int_t)sd->nrec));
	r |= json_object_set_new(o, "left", json_string(log->left ==
	    LPP_ROLE_PROGRAM ? "program" : log->left == LPP_ROLE_HUMAN ?
	    "human" : "unknown"));
	r |= json_object_set_new(o, "utc_offset_from", json_string(offhow));
	r |= json_object_set_new(o, "placeholders", ph);
	r |= json_object_set_new(o, "defects", df);
	if (r != 0) {
		json_decref(o);
		return (NULL);
	}
	return (o);
}

/* Write one event line; *last keeps times from going back. -1 on error. */
static int
cmd_import_write(FILE *f, int64_t *last, enum cap_kind kind,
    const void *data, size_t len, int64_t usec)
{
	char	buf[CAP_JSON_MAX(CAP_MARKER_MAX)];
	size_t	n;

	if (len > CAP_MARKER_MAX)
		len = CAP_MARKER_MAX;
	if (usec < *last)
		usec = *last;
	*last = usec;
	n = cap_json_event(buf, usec, kind, data, len, CAP_LATIN1);
	return (fwrite(buf, 1, n, f) == n ? 0 : -1);
}

/*
 * Write the capture of one side of a log into dir.  Returns 0, or -1
 * (warned) when the capture could not be written; it then does not
 * exist.
 */
static int
cmd_import_side(const struct lpp_log *log, const char *dir,
    struct import_side *sd, int64_t t0, int32_t off, const char *offhow)
{
	struct cap_meta		 m;
	struct cap_error	 e;
	const struct lpp_record	*r;
	json_t			*h = NULL, *info;
	char			*text = NULL, *path = NULL, stem[512];
	char			 mark[CAP_MARKER_MAX];
	char			 word[3 * LPP_KEY_MAX + 1];
	char			 title[512], j[8], rd[16];
	const char		*base = cmd_import_base(log->file), *sname;
	const char		*role;
	char			 human[64];
	size_t			 i, n;
	int64_t			 last = 0, usec;
	int			 fd = -1, rv = -1;
	FILE			*f = NULL;

	sname = sd->side == LPP_LEFT ? "left" : "right";
	role = sd->role == LPP_ROLE_PROGRAM ? "program" :
	    sd->role == LPP_ROLE_HUMAN ? "human" : "unknown";
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".log") == 0)
		n -= 4;
	if (n > 8 && strncmp(base, "logfile.", 8) == 0) {
		base += 8;
		n -= 8;
	}
	cmd_import_num(j, sizeof(j), log->judge, TX_JUDGE_NONE);
	cmd_import_num(rd, sizeof(rd), log->round, 0);
	snprintf(stem, sizeof(stem), "%.*s.r%s.j%s.%s-%s", (int)n, base, rd, j,
	    sname, role);
	if (asprintf(&path, "%s/%s.cast", dir, stem) == -1) {
		warn("%s", dir);
		return (-1);
	}
	snprintf(title, sizeof(title), "LPP log %s: judge %s, round %s, "
	    "%s side: %s", cmd_import_base(log->file), j, rd, sname,
	    sd->role == LPP_ROLE_PROGRAM ? (log->program != NULL ?
	    log->program : "program") : sd->role == LPP_ROLE_HUMAN ?
	    "confederate" : "unknown entity");

	/*
	 * The logs do not name the confederates: each is named by where
	 * he sat, the human facing judge j in round r, so that each has
	 * figures of his own.
	 */
	snprintf(human, sizeof(human), "human-r%s-j%s", rd, j);
	cap_meta_init(&m);
	m.timestamp = t0;
	m.round = log->round;
	m.judge = log->judge;
	m.utc_offset = off;
	if (log->judge != TX_JUDGE_NONE)
		snprintf(j, sizeof(j), "J%d", log->judge);
	if (cap_meta_set(&m.title, title) == -1 ||
	    (log->judge != TX_JUDGE_NONE && cap_meta_set(&m.station, j) ==
	    -1) || cap_meta_set(&m.side, sname) == -1 ||
	    cap_meta_set(&m.software, "transcripts import " MUXD_VERSION) ==
	    -1 ||
	    (sd->role == LPP_ROLE_PROGRAM && (cap_meta_set(&m.entity,
	    log->program) == -1 || cap_meta_set(&m.kind, "entry") == -1 ||
	    cap_meta_set(&m.program, log->program) == -1)) ||
	    (sd->role == LPP_ROLE_HUMAN && (cap_meta_set(&m.entity,
	    human) == -1 || cap_meta_set(&m.kind, "confederate") ==
	    -1 || cap_meta_set(&m.program, "human") == -1)) ||
	    (sd->role == LPP_ROLE_UNKNOWN && cap_meta_set(&m.entity,
	    sname) == -1)) {
		warn("%s", path);
		goto out;
	}
	if (cap_meta_normalize(&m, &e) != CAP_OK) {
		cmd_warn_error(&e);
		goto out;
	}
	if ((h = cap_meta_to_json(&m)) == NULL ||
	    (info = cmd_import_info(log, cmd_import_base(log->file), sd,
	    offhow)) == NULL ||
	    json_object_set_new(json_object_get(h, "muxd"), "import",
	    info) == -1 ||
	    (text = json_dumps(h, JSON_PRESERVE_ORDER)) == NULL) {
		warnx("%s: out of memory", path);
		goto out;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0644)) == -1) {
		warn("%s%s", path, errno == EEXIST ? " (not overwritten)" : "");
		goto out;
	}
	if ((f = fdopen(fd, "w")) == NULL) {
		warn("%s", path);
		close(fd);
		unlink(path);
		goto out;
	}
	if (fprintf(f, "%s\n", text) < 0)
		goto werr;
	for (i = 0; i < log->nrecord; i++) {
		r = &log->record[i];
		if (r->side != sd->side)
			continue;
		usec = r->usec - t0 * 1000000;
		if (r->byte >= 0) {
			unsigned char	 b = (unsigned char)r->byte;

			if (cmd_import_write(f, &last, r->judge_typed ?
			    CAP_INPUT : CAP_OUTPUT, &b, 1, usec) == -1)
				goto werr;
			if (r->judge_typed)
				sd->nin++;
			else
				sd->nout++;
			continue;
		}
		lpp_key_word(word, sizeof(word), r->key, r->keylen);
		n = (size_t)snprintf(mark, sizeof(mark), "lpp-key %s %s "
		    "line %lu", r->judge_typed ? "judge" : "other", word,
		    r->line);
		if (cmd_import_write(f, &last, CAP_MARKER, mark,
		    n < sizeof(mark) ? n : sizeof(mark) - 1, usec) == -1)
			goto werr;
		sd->nmark++;
	}
	if (log->torn_line > 0) {
		n = (size_t)snprintf(mark, sizeof(mark), "fault lpp truncated "
		    "line %lu offset %lld", log->torn_line,
		    (long long)log->torn_offset);
		if (cmd_import_write(f, &last, CAP_MARKER, mark, n, last) == -1)
			goto werr;
		sd->nmark++;
	}
	if (fflush(f) == EOF || fsync(fd) == -1)
		goto werr;
	if (fclose(f) == EOF) {
		f = NULL;
		goto werr;
	}
	f = NULL;
	printf("%s: -> %s: %zu events (i %zu, o %zu, m %zu)\n",
	    cmd_import_base(log->file), path, sd->nin + sd->nout + sd->nmark,
	    sd->nin, sd->nout, sd->nmark);
	rv = 0;
	goto out;
werr:
	warn("%s: write", path);
	if (f != NULL)
		fclose(f);
	unlink(path);
out:
	free(text);
	json_decref(h);
	cap_meta_free(&m);
	free(path);
	return (rv);
}

/* Print a log's report: counts, then every defect kept. */
static void
cmd_import_report(const struct lpp_log *log)
{
	const struct finding	*d;
	const char		*base = cmd_import_base(log->file);
	size_t			 i, nj = 0;
	int			 k, first = 1;
	char			 j[16], rd[16];

	for (i = 0; i < log->nrecord; i++)
		nj += log->record[i].judge_typed;
	printf("%s: judge %s, program %s, round %s, left %s\n", base,
	    cmd_import_num(j, sizeof(j), log->judge, TX_JUDGE_NONE),
	    log->program != NULL ? log->program : "NA",
	    cmd_import_num(rd, sizeof(rd), log->round, 0),
	    log->left == LPP_ROLE_PROGRAM ? "program" : log->left ==
	    LPP_ROLE_HUMAN ? "human" : "unknown");
	printf("%s: %zu lines (%zu CRLF), %zu records (judge %zu, other "
	    "%zu), %zu defect%s", base, log->nline, log->ncrlf, log->nrecord,
	    nj, log->nrecord - nj, log->ndefect_all, log->ndefect_all == 1 ?
	    "" : "s");
	for (k = 0; k < LPP_D_COUNT; k++) {
		if (log->ndefect_kind[k] == 0)
			continue;
		printf("%s%s %zu", first ? " (" : ", ", lpp_defect_name(k),
		    log->ndefect_kind[k]);
		first = 0;
	}
	printf("%s\n", first ? "" : ")");
	for (i = 0; i < log->defects.n; i++) {
		d = &log->defects.item[i];
		printf("%s:", base);
		if (d->line > 0)
			printf("%lu:", d->line);
		if (d->offset >= 0)
			printf(" offset %lld:", (long long)d->offset);
		printf(" %s: %s\n", lpp_defect_name(d->kind), d->msg);
	}
	if (log->defects.n < log->ndefect_all)
		printf("%s: %zu more defects not shown\n", base,
		    log->ndefect_all - log->defects.n);
}

/* Import every log named; 1 when one could not be read or written. */
static int
cmd_import_exec(int argc, char **argv)
{
	struct lpp_log		*logs, *log;
	struct import_side	 sd;
	struct cap_error	 e;
	const char		*dir = ".", *offhow;
	char			*buf;
	size_t			 len, nlogs = 0, k;
	int32_t			 zone = IMPORT_NO_OFFSET, off;
	int64_t			 t0;
	int			 ch, status = 0, s, ncap = 0;

	while ((ch = getopt(argc, argv, "o:z:")) != -1) {
		switch (ch) {
		case 'o':
			dir = optarg;
			break;
		case 'z':
			if (cmd_import_parse_offset(optarg, &zone) == -1) {
				warnx("bad UTC offset \"%s\" (+hh:mm)", optarg);
				cmd_usage(&cmd_import_entry);
			}
			break;
		default:
			cmd_bad_option(&cmd_import_entry, "o:z:", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cmd_usage(&cmd_import_entry);
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		err(1, "%s", dir);
	if ((logs = calloc((size_t)argc, sizeof(*logs))) == NULL)
		err(1, NULL);
	for (; argc > 0; argc--, argv++) {
		if (cap_file_read(argv[0], IMPORT_FILE_MAX, &buf, &len, &e) !=
		    CAP_OK) {
			cmd_warn_error(&e);
			status = 1;
			continue;
		}
		log = &logs[nlogs];
		if (lpp_parse(argv[0], buf, len, log, &e) != CAP_OK) {
			free(buf);
			cmd_warn_error(&e);
			lpp_free(log);
			status = 1;
			continue;
		}
		free(buf);
		nlogs++;
		cmd_import_report(log);
		/* The same judge, program and round logged again. */
		for (k = 0; k + 1 < nlogs; k++) {
			if (log->judge == TX_JUDGE_NONE || log->round == 0 ||
			    !lpp_same_pair(&logs[k], log))
				continue;
			printf("%s: pair: judge %d, program %s, round %d also "
			    "logged in %s\n", cmd_import_base(log->file),
			    log->judge, log->program, log->round,
			    cmd_import_base(logs[k].file));
			len = log->nduplicate;
			if (lpp_dedupe(&logs[k], log) == -1)
				err(1, NULL);
			if (log->nduplicate > len)
				printf("%s: %zu records also in %s, dropped\n",
				    cmd_import_base(log->file),
				    log->nduplicate - len,
				    cmd_import_base(logs[k].file));
		}
		if (log->nrecord == 0) {
			printf("%s: no records, no capture\n",
			    cmd_import_base(log->file));
			continue;
		}
		t0 = log->record[0].usec / 1000000;
		for (k = 1; k < log->nrecord; k++)
			if (log->record[k].usec / 1000000 < t0)
				t0 = log->record[k].usec / 1000000;
		offhow = "option";
		off = zone;
		if (zone == IMPORT_NO_OFFSET) {
			offhow = "file name";
			if (cmd_import_offset(cmd_import_base(log->file), t0,
			    &off) == -1) {
				off = 0;
				offhow = "none (UTC)";
			}
		}
		for (s = LPP_LEFT; s <= LPP_RIGHT; s++) {
			memset(&sd, 0, sizeof(sd));
			sd.side = s;
			if (log->left == LPP_ROLE_UNKNOWN)
				sd.role = LPP_ROLE_UNKNOWN;
			else if (s == LPP_LEFT)
				sd.role = log->left;
			else
				sd.role = log->left == LPP_ROLE_PROGRAM ?
				    LPP_ROLE_HUMAN : LPP_ROLE_PROGRAM;
			for (k = 0; k < log->nrecord; k++)
				sd.nrec += log->record[k].side == sd.side;
			if (sd.nrec == 0)
				continue;
			if (cmd_import_side(log, dir, &sd, t0, off, offhow) ==
			    -1)
				status = 1;
			else
				ncap++;
		}
	}
	printf("import: %zu logs, %d captures in %s\n", nlogs, ncap, dir);
	for (k = 0; k < nlogs; k++)
		lpp_free(&logs[k]);
	free(logs);
	return (status);
}
