/*
 * transcripts verify: check captures and transcripts (verify.c), round
 * manifests (verify-manifest.c), files named or every *.cast, transcript
 * (LPyy-nn.TXT) and manifest (manifest-NNNN.json) under a directory,
 * such as muxd's state directory.  Manifests come first; what the newest
 * one of a directory does not cover is told with each file.
 * A transcript compared with its capture is not checked a second time.
 * One report per file; the exit status is 1 when anything was found.
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
static int	cmd_verify_manifests(struct cmd_files *, const char *,
		    struct verify_cover **);
static int	cmd_verify_print(const struct verify_report *);

const struct cmd_entry cmd_verify_entry = {
	"verify", "[-g seconds] [-k pubkey] [-t dir] dir | file ...",
	cmd_verify_exec
};

/*
 * Verify the manifests, in order, with the public key (-k) or the room's
 * room.pub beside them; *cover is what the newest one covers.  The
 * number of reports with findings.
 */
static int
cmd_verify_manifests(struct cmd_files *mans, const char *pubpath,
    struct verify_cover **cover)
{
	struct verify_report	 rep;
	struct sign_pub		 pub;
	struct cap_error	 e;
	char			*base, *found = NULL;
	size_t			 i;
	int			 have = 0, nbad = 0;

	*cover = NULL;
	if (pubpath != NULL) {
		if (sign_load_public(pubpath, &pub, &e) != CAP_OK)
			errx(1, "%s: %s", pubpath, e.msg);
		have = 1;
	}
	for (i = 0; i < mans->n; i++) {
		if (!have && found == NULL) {
			if ((base = verify_manifest_base(mans->v[i])) == NULL ||
			    asprintf(&found, "%s/room.pub", base) == -1)
				err(1, NULL);
			free(base);
			if (sign_load_public(found, &pub, &e) != CAP_OK) {
				free(found);
				found = NULL;
			}
		}
		if (verify_report_init(&rep, mans->v[i]) == -1)
			err(1, NULL);
		if (!have && found != NULL && verify_add(&rep, VERIFY_NOTE, 0,
		    -1, "checked with %s, found beside the evidence; bring "
		    "the room's own key (-k) to rule out a replaced one",
		    found) == -1)
			err(1, NULL);
		if (verify_manifest(mans->v[i], have || found != NULL ? &pub :
		    NULL, &rep, &e) != CAP_OK) {
			cmd_warn_error(&e);
			exit(1);
		}
		nbad += cmd_verify_print(&rep);
		verify_report_free(&rep);
	}
	free(found);
	/* The newest: the last in name order (numbers are zero-padded). */
	if (mans->n > 0)
		*cover = verify_cover_load(mans->v[mans->n - 1]);
	return (nbad);
}

/* Print a report; 1 when it has findings. */
static int
cmd_verify_print(const struct verify_report *rep)
{
	const struct finding	*f;
	const char			*file;
	size_t				 i;
	int				 k, first = 1;

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
	if (rep->total == 0) {
		printf("%s: ok", rep->file);
		if (rep->transcript != NULL)
			printf(", transcript %s matches", rep->transcript);
		printf("\n");
		return (0);
	}
	printf("%s: %zu finding%s", rep->file, rep->total, rep->total == 1 ?
	    "" : "s");
	for (k = 0; k < VERIFY_COUNT; k++) {
		if (k == VERIFY_NOTE || rep->count[k] == 0)
			continue;
		printf("%s%s %zu", first ? " (" : ", ", verify_kind_name(k),
		    rep->count[k]);
		first = 0;
	}
	printf(")\n");
	return (1);
}

/* Verify every file and directory named. */
static int
cmd_verify_exec(int argc, char **argv)
{
	struct verify_opts	 o;
	struct verify_report	 rep;
	struct cmd_files	 caps, txs, done, mans;
	struct verify_cover	*cover;
	struct verify_verdicts	 verdicts;
	const char		*pubpath = NULL;
	struct cap_error	 e;
	struct stat		 st;
	char			*end;
	long long		 g;
	size_t			 i;
	int			 ch, status = 0, nbad = 0, nfiles = 0;

	verify_opts_init(&o);
	while ((ch = getopt(argc, argv, "g:k:t:")) != -1) {
		switch (ch) {
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
		case 't':
			o.txdir = optarg;
			break;
		default:
			cmd_usage(&cmd_verify_entry);
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
	nbad += cmd_verify_manifests(&mans, pubpath, &cover);
	nfiles += (int)mans.n;
	o.cover = cover;
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
		nbad += cmd_verify_print(&rep);
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
		if (verify_cover_check(cover, txs.v[i], &rep) == -1)
			err(1, NULL);
		nbad += cmd_verify_print(&rep);
		nfiles++;
		verify_report_free(&rep);
	}
	printf("verify: %d file%s, %d with findings\n", nfiles, nfiles == 1 ?
	    "" : "s", nbad);
	cmd_files_free(&caps);
	cmd_files_free(&txs);
	cmd_files_free(&done);
	cmd_files_free(&mans);
	verify_cover_free(cover);
	verify_verdicts_free(&verdicts);
	return (status || nbad > 0 || nfiles == 0 ? 1 : 0);
}
