/*
 * transcripts verify: check captures and transcripts (verify.c), round
 * manifests (verify-manifest.c) and their chain (verify-room.c), files
 * named or every *.cast, transcript (LPyy-nn.TXT) and manifest
 * (manifest-NNNN.json) under a directory, such as muxd's state
 * directory.  Manifests come first, then the chain as a whole; what the
 * chain does not cover is told with each file.  A transcript compared
 * with its capture is not checked a second time.  One report per file;
 * the exit status is the gravest class found (verify_status()): 0
 * intact, complete and signed by the key given, 1 an integrity failure,
 * 3 unverified (no key, or not the room's), 4 an open chain.  Short
 * hashes written down at the rounds' ends (-s, -S) are checked against
 * the chain (verify-noted.c).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

static int	cmd_verify_exec(int, char **);
static struct verify_room *cmd_verify_manifests(struct cmd_files *,
		    const char *, const char *, const struct verify_notes *,
		    int, size_t *, int *);
static void	cmd_verify_notes(struct verify_notes *, const char *, int);
static int	cmd_verify_print(const struct verify_report *, size_t *);
static void	cmd_verify_kinds(const struct verify_report *, enum verify_class);

const struct cmd_entry cmd_verify_entry = {
	"verify", "[-e] [-g seconds] [-k pubkey] [-S notes] [-s SEQ=HEX,...] "
	"[-t dir] [-w witness.pub] dir | file ...",
	cmd_verify_exec
};

/*
 * Read the short hashes written down (-s a list, or -S a file of lines)
 * into notes; a note that does not read is a usage error, saying where.
 */
static void
cmd_verify_notes(struct verify_notes *notes, const char *arg, int file)
{
	struct cap_error	 e;
	char			*text, err[512];
	size_t			 len;

	if (!file) {
		if (verify_notes_parse(notes, arg, 0, "-s", err,
		    sizeof(err)) == -1)
			errx(VERIFY_EXIT_USAGE, "%s", err);
		return;
	}
	if (cap_file_read(arg, 1 << 20, &text, &len, &e) != CAP_OK)
		errx(VERIFY_EXIT_USAGE, "%s: %s", arg, e.msg);
	if (memchr(text, '\0', len) != NULL)
		errx(VERIFY_EXIT_USAGE, "%s: not text", arg);
	if (verify_notes_parse(notes, text, 1, arg, err, sizeof(err)) == -1)
		errx(VERIFY_EXIT_USAGE, "%s", err);
	free(text);
}

/*
 * Verify the manifests with the public key (-k) or the room's room.pub
 * beside them, and a witness's key (-w), then their chain as a whole
 * (flags: VERIFY_ROOM_*) and the short hashes noted; the room, for the
 * files' checks.
 * Findings are counted by class into nclass, reports with failures in
 * *nbad.
 */
static struct verify_room *
cmd_verify_manifests(struct cmd_files *mans, const char *pubpath,
    const char *wpath, const struct verify_notes *notes, int flags,
    size_t *nclass, int *nbad)
{
	static struct sign_pub	 pub, wpub;
	struct verify_report	 rep;
	struct verify_room	*room;
	struct cap_error	 e;
	char			*base, *found = NULL, *mdir;
	size_t			 i;
	int			 have = 0;

	if (pubpath != NULL) {
		if (sign_load_public(pubpath, &pub, &e) != CAP_OK)
			errx(VERIFY_EXIT_USAGE, "%s: %s", pubpath, e.msg);
		have = 1;
	}
	if (wpath != NULL && sign_load_public(wpath, &wpub, &e) != CAP_OK)
		errx(VERIFY_EXIT_USAGE, "%s: %s", wpath, e.msg);
	for (i = 0; !have && found == NULL && i < mans->n; i++) {
		if ((base = verify_manifest_base(mans->v[i])) == NULL ||
		    asprintf(&found, "%s/room.pub", base) == -1)
			err(1, NULL);
		free(base);
		if (sign_load_public(found, &pub, &e) != CAP_OK) {
			free(found);
			found = NULL;
		}
	}
	if ((room = verify_room_new(have || found != NULL ? &pub : NULL, have,
	    wpath != NULL ? &wpub : NULL)) == NULL)
		err(1, NULL);
	for (i = 0; i < mans->n; i++) {
		if (verify_report_init(&rep, mans->v[i]) == -1)
			err(1, NULL);
		if (!have && found != NULL && verify_add(&rep, VERIFY_NOTE, 0,
		    -1, "checked with %s, found beside the evidence; bring "
		    "the room's own key (-k) to rule out a replaced one",
		    found) == -1)
			err(1, NULL);
		if (verify_manifest(mans->v[i], room, &rep, &e) != CAP_OK) {
			cmd_warn_error(&e);
			exit(1);
		}
		*nbad += cmd_verify_print(&rep, nclass);
		verify_report_free(&rep);
	}
	free(found);
	/* The chain's report: named after the manifests' directory. */
	if (mans->n > 0 && (mdir = strdup(mans->v[0])) != NULL &&
	    strrchr(mdir, '/') != NULL)
		*strrchr(mdir, '/') = '\0';
	else if ((mdir = strdup("manifests")) == NULL)
		err(1, NULL);
	if (verify_report_init(&rep, mdir) == -1 ||
	    verify_room_finish(room, flags, &rep) == -1 ||
	    verify_room_noted(room, notes, &rep) == -1)
		err(1, NULL);
	free(mdir);
	*nbad += cmd_verify_print(&rep, nclass);
	verify_report_free(&rep);
	return (room);
}

/*
 * Print a report's findings and the kinds of each class counted, after
 * "KIND n, ...".
 */
static void
cmd_verify_kinds(const struct verify_report *rep, enum verify_class c)
{
	int	k, first = 1;

	for (k = 0; k < VERIFY_COUNT; k++) {
		if (verify_kind_class(k) != c || rep->count[k] == 0)
			continue;
		printf("%s%s %zu", first ? " (" : ", ", verify_kind_name(k),
		    rep->count[k]);
		first = 0;
	}
	printf(")");
}

/*
 * Print a report, its findings then a line of the file's classes; add
 * its counts by class into nclass.  1 when it has integrity failures.
 */
static int
cmd_verify_print(const struct verify_report *rep, size_t *nclass)
{
	const struct finding	*f;
	const char		*file;
	size_t			 i, n;
	int			 c;

	for (i = 0; i < rep->findings.n; i++) {
		f = &rep->findings.item[i];
		file = rep->transcript != NULL && i >= rep->tx_first ?
		    rep->transcript : rep->file;
		if (f->kind == VERIFY_NOTE) {
			printf("%s: note: %s\n", file, f->msg);
			continue;
		}
		printf("%s:", file);
		if (f->line > 0)
			printf("%lu:", f->line);
		if (f->offset >= 0)
			printf(" offset %lld:", (long long)f->offset);
		printf(" %s: %s\n", verify_kind_name(f->kind), f->msg);
	}
	if (rep->findings.n >= VERIFY_FINDING_MAX)
		printf("%s: more findings not shown\n", rep->file);
	for (c = 0; c < VERIFY_C_COUNT; c++)
		nclass[c] += rep->nclass[c];
	printf("%s:", rep->file);
	if ((n = rep->nclass[VERIFY_C_FAILURE]) > 0) {
		printf(" %zu integrity failure%s", n, n == 1 ? "" : "s");
		cmd_verify_kinds(rep, VERIFY_C_FAILURE);
	} else {
		printf(" ok");
		if (rep->transcript != NULL)
			printf(", transcript %s matches", rep->transcript);
	}
	if (rep->nclass[VERIFY_C_UNVERIFIED] > 0) {
		printf("; unverified");
		cmd_verify_kinds(rep, VERIFY_C_UNVERIFIED);
	}
	if (rep->nclass[VERIFY_C_OPEN] > 0)
		printf("; open: the chain does not end at a shutdown");
	if ((n = rep->nclass[VERIFY_C_EVENT]) > 0) {
		printf("; %zu event%s", n, n == 1 ? "" : "s");
		cmd_verify_kinds(rep, VERIFY_C_EVENT);
	}
	printf("\n");
	return (rep->nclass[VERIFY_C_FAILURE] > 0);
}

/* Verify every file and directory named. */
static int
cmd_verify_exec(int argc, char **argv)
{
	struct verify_opts	 o;
	struct verify_report	 rep;
	struct cmd_files	 caps, txs, done, mans;
	struct verify_room	*room;
	struct verify_verdicts	 verdicts;
	struct verify_notes	 notes;
	const char		*pubpath = NULL, *wpath = NULL;
	size_t			 nclass[VERIFY_C_COUNT];
	struct cap_error	 e;
	struct stat		 st;
	char			*end;
	long long		 g;
	size_t			 i;
	int			 ch, status = 0, nbad = 0, nfiles = 0;
	int			 flags = 0;

	verify_opts_init(&o);
	memset(nclass, 0, sizeof(nclass));
	memset(&notes, 0, sizeof(notes));
	while ((ch = getopt(argc, argv, "eg:k:S:s:t:w:")) != -1) {
		switch (ch) {
		case 'e':
			flags |= VERIFY_ROOM_ENDED;
			break;
		case 'g':
			errno = 0;
			g = strtoll(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    g < 1 || g > 86400 * 366) {
				warnx("gap \"%s\": not 1 to 31622400 seconds",
				    optarg);
				cmd_usage(&cmd_verify_entry);
			}
			o.gap = (int64_t)g * 1000000;
			break;
		case 'k':
			pubpath = optarg;
			break;
		case 'S':
		case 's':
			cmd_verify_notes(&notes, optarg, ch == 'S');
			break;
		case 't':
			o.txdir = optarg;
			break;
		case 'w':
			wpath = optarg;
			break;
		default:
			cmd_bad_option(&cmd_verify_entry, "eg:k:S:s:t:w:", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cmd_usage(&cmd_verify_entry);
	memset(&caps, 0, sizeof(caps));
	memset(&txs, 0, sizeof(txs));
	memset(&done, 0, sizeof(done));
	memset(&mans, 0, sizeof(mans));
	memset(&verdicts, 0, sizeof(verdicts));
	o.verdicts = &verdicts;
	for (; argc > 0; argc--, argv++) {
		if (stat(argv[0], &st) == -1) {
			warn("%s", argv[0]);
			status = 1;
		} else if (S_ISDIR(st.st_mode)) {
			flags |= VERIFY_ROOM_WALKED;
			if (cmd_files_walk(argv[0], &caps, &txs, &mans, 0) ==
			    -1)
				status = 1;
		} else if (cmd_files_is_manifest(argv[0])) {
			if (cmd_files_push(&mans, argv[0]) == -1)
				err(1, NULL);
		} else if (cmd_files_ends(argv[0], ".cast") ||
		    !(cmd_files_ends(argv[0], ".TXT") ||
		    cmd_files_ends(argv[0], ".txt"))) {
			if (cmd_files_push(&caps, argv[0]) == -1)
				err(1, NULL);
		} else if (cmd_files_push(&txs, argv[0]) == -1)
			err(1, NULL);
	}
	cmd_files_sort(&caps);
	cmd_files_sort(&txs);
	cmd_files_sort(&mans);
	room = cmd_verify_manifests(&mans, pubpath, wpath, &notes, flags,
	    nclass, &nbad);
	nfiles += (int)mans.n;
	o.room = room;
	for (i = 0; i < caps.n; i++) {
		if (verify_report_init(&rep, caps.v[i]) == -1)
			err(1, NULL);
		if (verify_capture(caps.v[i], &o, &rep, &e) != CAP_OK) {
			cmd_warn_error(&e);
			exit(1);
		}
		if (rep.transcript != NULL &&
		    cmd_files_push(&done, rep.transcript) == -1)
			err(1, NULL);
		nbad += cmd_verify_print(&rep, nclass);
		nfiles++;
		verify_report_free(&rep);
	}
	for (i = 0; i < txs.n; i++) {
		if (cmd_files_has(&done, txs.v[i]))
			continue;
		if (verify_report_init(&rep, txs.v[i]) == -1)
			err(1, NULL);
		if (strcmp(cmd_files_base(txs.v[i]), "compliance.txt") == 0) {
			if (caps.n == 0 ? verify_add(&rep, VERIFY_NOTE, 0, -1,
			    "not compared: no captures to compare it with") ==
			    -1 : verify_compliance(txs.v[i], &verdicts, &rep,
			    &e) != CAP_OK)
				err(1, NULL);
		} else if (verify_transcript_file(txs.v[i], &rep, &e) !=
		    CAP_OK) {
			cmd_warn_error(&e);
			exit(1);
		}
		if (verify_room_check(room, txs.v[i], &rep) == -1)
			err(1, NULL);
		nbad += cmd_verify_print(&rep, nclass);
		nfiles++;
		verify_report_free(&rep);
	}
	if (status != 0)
		nclass[VERIFY_C_FAILURE]++;
	else if (nfiles == 0)
		nclass[VERIFY_C_UNVERIFIED]++;
	printf("verify: %d file%s, %d with integrity failures\n", nfiles,
	    nfiles == 1 ? "" : "s", nbad);
	status = verify_status(nclass);
	printf("verify: %s\n", status == VERIFY_EXIT_INTACT ? "intact: a "
	    "complete chain of manifests signed by the key given, every file "
	    "in it as sealed" : status == VERIFY_EXIT_FAILURE ? "integrity "
	    "failure" : status == VERIFY_EXIT_UNVERIFIED ? nfiles == 0 ?
	    "unverified: nothing to check" : "unverified: not proven signed by "
	    "the key given" : "open: intact so far, but the chain does not end "
	    "at a shutdown");
	cmd_files_free(&caps);
	cmd_files_free(&txs);
	cmd_files_free(&done);
	cmd_files_free(&mans);
	verify_room_free(room);
	verify_verdicts_free(&verdicts);
	verify_notes_free(&notes);
	return (status);
}
